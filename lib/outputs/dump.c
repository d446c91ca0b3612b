/* SPDX-License-Identifier: MIT */
/*
 * perf report -D: every record as perf 6.1 dumps it (session.c dump_event,
 * dump_sample; event.c perf_event__fprintf_*; the report tool's handlers,
 * which print ": unhandled!" for the record types they leave to a stub).
 *
 * Output goes through a private buffer with hand-written number
 * formatting: perf -D is dominated by printf, and a dump of a large file
 * is mostly hex.  Records that the session delivers from its time-order
 * queue are held back until the user record that flushed them (perf
 * prints FINISHED_ROUND before the records its flush delivers; the session
 * delivers it after them).
 *
 * A directory's records are labelled with their data file, DIR/data or
 * DIR/data.N, as perf labels them.  CALLCHAIN_DEFERRED records (Linux
 * 6.19) are printed as the perf that knows them prints them (perf 6.1
 * cannot read them); the session must not merge them into their samples
 * (rp_session_set_merge_deferred(), which rp_dump_new() calls), as perf
 * report -D does not.
 */
#include <readperf/dump.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>
#include <readperf/stats.h>

#include "common/cursor.h"
#include "common/error_int.h"
#include "common/hex.h"
#include "common/opts.h"
#include "outputs/dump_int.h"
#include "outputs/output_int.h"

/* perf_event_attr.branch_sample_type: PERF_SAMPLE_BRANCH_CALL_STACK. */
#define RP_BRANCH_CALL_STACK (1ull << 11)

/* Bytes buffered before a write to the FILE. */
#define RP_DUMP_BUFSIZE (256u << 10)
/* Bytes one formatted piece (not a hex block) may take at most. */
#define RP_DUMP_PIECE_MAX 8192u
/* Most cpus listed from one CPU_MAP record. */
#define RP_DUMP_MAX_CPUS 4096u
/* Bytes of a pipe stream's header (magic, size), before its first record. */
#define RP_DUMP_PIPE_HEADER 16u
/* Most threads listed from one THREAD_MAP record. */
#define RP_DUMP_MAX_THREADS (1u << 20)

struct rp_buf {
	char *p;
	size_t len, cap;
};

struct rp_dump {
	FILE *fp;
	const struct rp_session *session;
	const char *label;
	char **labels;          /* per data file of a directory, or NULL */
	size_t nr_labels;
	struct rp_stats *stats;
	uint64_t combined_type; /* OR of the events' sample_type */
	int sample_id_all;      /* of the first event, as perf takes it */
	int is_x86;
	int is_pipe;            /* offsets count from the end of the pipe header */
	int attr_seen;          /* a pipe stream's first ATTR record was dumped */
	uint64_t deliveries;    /* times perf hands the current sample on */
	struct rp_buf out;     /* goes to fp */
	struct rp_buf pending; /* records from the time queue, until flushed */
	int io_error;
};

static int rp_buf_reserve(struct rp_buf *b, size_t n)
{
	if (b->cap - b->len >= n)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;

	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			return RP_ERR_NOMEM;
		cap *= 2;
	}
	char *p = realloc(b->p, cap);

	if (!p)
		return RP_ERR_NOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

static void rp_dump_drain(struct rp_dump *d)
{
	if (d->out.len && fwrite(d->out.p, 1, d->out.len, d->fp) != d->out.len)
		d->io_error = 1;
	d->out.len = 0;
}

/* The buffer a record is formatted into; room for n more bytes. */
static char *rp_room(struct rp_dump *d, struct rp_buf *b, size_t n)
{
	if (b == &d->out && b->len + n > RP_DUMP_BUFSIZE)
		rp_dump_drain(d);
	if (rp_buf_reserve(b, n) < 0)
		return NULL;
	return b->p + b->len;
}

static void rp_puts(struct rp_dump *d, struct rp_buf *b, const char *s)
{
	size_t n = strlen(s);
	char *p = rp_room(d, b, n);

	if (!p)
		return;
	memcpy(p, s, n);
	b->len += n;
}

static void rp_printf(struct rp_dump *d, struct rp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void rp_printf(struct rp_dump *d, struct rp_buf *b, const char *fmt, ...)
{
	char *p = rp_room(d, b, RP_DUMP_PIECE_MAX);
	va_list ap;
	int n;

	if (!p)
		return;
	va_start(ap, fmt);
	n = vsnprintf(p, RP_DUMP_PIECE_MAX, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= RP_DUMP_PIECE_MAX) {
		/* A long string (a path): format it again with room. */
		p = rp_room(d, b, (size_t)n + 1);
		if (!p)
			return;
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

static const char rp_hexdig[] = "0123456789abcdef";

/* "0x<hex>" as printf's %#" PRIx64 ": plain "0" for zero. */
static char *rp_fmt_hex(char *p, uint64_t v, int alt)
{
	char tmp[16];
	int n = 0;

	if (!v) {
		*p++ = '0';
		return p;
	}
	while (v) {
		tmp[n++] = rp_hexdig[v & 15];
		v >>= 4;
	}
	if (alt) {
		*p++ = '0';
		*p++ = 'x';
	}
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *rp_fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *rp_fmt_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return rp_fmt_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return rp_fmt_u64(p, (uint64_t)v);
}

size_t rp_dump_hex_size(size_t len)
{
	/* Two header lines, 75 bytes a line of 16, the closing empty line. */
	return 48 + (len + 15) / 16 * 76 + 1;
}

size_t rp_dump_hex(char *buf, const void *data, size_t len)
{
	const uint8_t *b = data;
	char *p = buf;

	memcpy(p, ".\n. ... raw event: size ", 24);
	p += 24;
	p = rp_fmt_u64(p, len);
	memcpy(p, " bytes\n", 7);
	p += 7;
	for (size_t off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		*p++ = '.';
		*p++ = ' ';
		*p++ = ' ';
		for (int s = 12; s >= 0; s -= 4)
			*p++ = rp_hexdig[(off >> s) & 15];
		*p++ = ':';
		*p++ = ' ';
		for (size_t i = 0; i < 16; i++) {
			if (i < n) {
				*p++ = ' ';
				*p++ = rp_hexdig[b[off + i] >> 4];
				*p++ = rp_hexdig[b[off + i] & 15];
			} else {
				memcpy(p, "   ", 3);
				p += 3;
			}
		}
		*p++ = ' ';
		*p++ = ' ';
		for (size_t i = 0; i < 16; i++) {
			if (i < n) {
				uint8_t c = b[off + i];

				*p++ = c >= 0x20 && c < 0x7f ? (char)c : '.';
			} else {
				*p++ = ' ';
			}
		}
		*p++ = '\n';
	}
	*p++ = '\n';
	return (size_t)(p - buf);
}

size_t rp_dump_cpu_list(char *buf, size_t size, const int *cpus, size_t nr)
{
	size_t len = 0;
	size_t start = 0;
	char tmp[32];

	for (size_t i = 1; i <= nr; i++) {
		/* A run ends where the next cpu is not one more. */
		if (i < nr && (int64_t)cpus[i] - cpus[start] == (int64_t)(i - start))
			continue;
		int n;

		if (i - 1 == start)
			n = snprintf(tmp, sizeof(tmp), "%s%d", start ? "," : "", cpus[start]);
		else
			n = snprintf(tmp, sizeof(tmp), "%s%d-%d", start ? "," : "", cpus[start],
				     cpus[i - 1]);
		if (n > 0) {
			/* As snprintf: copy what fits, count all. */
			if (len + 1 < size) {
				size_t room = size - 1 - len;

				memcpy(buf + len, tmp, (size_t)n < room ? (size_t)n : room);
			}
			len += (size_t)n;
		}
		start = i;
	}
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return len;
}

size_t rp_dump_page_size(char *buf, size_t size, uint64_t bytes)
{
	static const char units[] = "BKMGTPE";
	int i = 0;
	int n;

	if (!bytes) {
		n = snprintf(buf, size, "N/A");
		return n < 0 ? 0 : (size_t)n;
	}
	while (bytes / 1024 > 1 && i < 6) {
		bytes /= 1024;
		i++;
	}
	n = snprintf(buf, size, "%" PRIu64 "%c", bytes, units[i]);
	return n < 0 ? 0 : (size_t)n;
}

/* perf labels the records of a directory with their data file: the
 * label, then the file's part of its path ("/data", "/data.3"). */
static int rp_dump_dir_labels(struct rp_dump *d)
{
	const char *path = rp_session_path(d->session);
	size_t plen = strlen(path), llen = strlen(d->label);
	size_t n = rp_session_nr_data_files(d->session);

	d->labels = calloc(n ? n : 1, sizeof(*d->labels));
	if (!d->labels)
		return RP_ERR_NOMEM;
	d->nr_labels = n;
	for (size_t i = 0; i < n; i++) {
		const char *f = rp_session_data_file(d->session, i);
		const char *tail = f && !strncmp(f, path, plen) ? f + plen : "";
		size_t tlen = strlen(tail);

		d->labels[i] = malloc(llen + tlen + 1);
		if (!d->labels[i])
			return RP_ERR_NOMEM;
		memcpy(d->labels[i], d->label, llen);
		memcpy(d->labels[i] + llen, tail, tlen + 1);
	}
	return 0;
}

int rp_dump_new(struct rp_dump **out, FILE *fp, struct rp_session *session,
		const struct rp_dump_opts *opts)
{
	struct rp_dump *d;
	const struct rp_header_info *hi = rp_session_header(session);

	*out = NULL;
	if (!fp || !session)
		return RP_ERR_INVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return RP_ERR_NOMEM;
	d->fp = fp;
	d->session = session;
	struct rp_dump_opts o;

	if (rp_opts_copy(&o, sizeof(o), opts) < 0) {
		free(d);
		return RP_ERR_INVAL;
	}
	d->label = o.label ? o.label : rp_session_path(session);
	/* perf names a pipe stream "pipe", file or not, and counts its
	 * offsets from the end of the 16-byte pipe header. */
	d->is_pipe = rp_session_is_pipe(session);
	if (d->is_pipe)
		d->label = "pipe";
	/* perf report -D does not merge deferred callchains into their
	 * samples: it prints records as read. */
	if (rp_session_set_merge_deferred(session, 0) < 0) {
		rp_dump_free(d);
		return RP_ERR_INVAL;
	}
	if (rp_session_is_dir(session) && rp_dump_dir_labels(d) < 0) {
		rp_dump_free(d);
		return RP_ERR_NOMEM;
	}
	if (rp_stats_new(&d->stats, session) < 0 || rp_buf_reserve(&d->out, RP_DUMP_BUFSIZE) < 0) {
		rp_dump_free(d);
		return RP_ERR_NOMEM;
	}
	for (size_t i = 0; i < rp_session_nr_evsels(session); i++) {
		const struct rp_attr *a = rp_evsel_attr(rp_session_evsel(session, i));

		d->combined_type |= a->sample_type;
		if (i == 0)
			d->sample_id_all = !!(a->flags & RP_ATTR_SAMPLE_ID_ALL);
	}
	/* Register names follow the recording machine's arch, as perf. */
	d->is_x86 = !hi->arch || !strcmp(hi->arch, "x86_64") || !strcmp(hi->arch, "x86") ||
		    !strcmp(hi->arch, "i386") || !strcmp(hi->arch, "i686");
	/* perf's report tool asks for time order and says when it cannot. */
	if (!d->sample_id_all)
		rp_puts(d, &d->out,
			"WARNING: No sample_id_all support, falling back to unordered processing\n");
	rp_puts(d, &d->out,
		"# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	*out = d;
	return 0;
}

void rp_dump_free(struct rp_dump *d)
{
	if (!d)
		return;
	rp_stats_free(d->stats);
	for (size_t i = 0; i < d->nr_labels; i++)
		free(d->labels[i]);
	free(d->labels);
	free(d->out.p);
	free(d->pending.p);
	free(d);
}

/* perf's evlist__print_tstamp(). */
static char *rp_tstamp(const struct rp_dump *d, const struct rp_event *ev, char *p)
{
	uint32_t cpu = (uint32_t)-1;
	uint64_t time = (uint64_t)-1;

	if (ev->type >= RP_RECORD_HEADER_ATTR) {
		cpu = 0; /* perf passes a zeroed sample with user records */
		time = 0;
		/* A stream's first ATTR comes before perf knows any event. */
		if (!d->sample_id_all || (d->is_pipe && ev->type == RP_RECORD_HEADER_ATTR &&
					  !d->attr_seen)) {
			memcpy(p, "-1 -1 ", 6);
			return p + 6;
		}
	} else if (ev->type == RP_RECORD_SAMPLE) {
		const struct rp_sample *s = &ev->u.sample;

		if (s->sample_type & RP_SAMPLE_CPU)
			cpu = s->cpu;
		if (s->sample_type & RP_SAMPLE_TIME)
			time = s->time;
	} else {
		if (!d->sample_id_all) {
			memcpy(p, "-1 -1 ", 6);
			return p + 6;
		}
		if (ev->sid.present & RP_SAMPLE_CPU)
			cpu = ev->sid.cpu;
		if (ev->sid.present & RP_SAMPLE_TIME)
			time = ev->sid.time;
	}
	if (d->combined_type & RP_SAMPLE_CPU) {
		p = rp_fmt_u64(p, cpu);
		*p++ = ' ';
	}
	if (d->combined_type & RP_SAMPLE_TIME) {
		p = rp_fmt_u64(p, time);
		*p++ = ' ';
	}
	return p;
}


static void rp_dump_head(struct rp_dump *d, struct rp_buf *b, const struct rp_event *ev)
{
	const char *label = ev->input < d->nr_labels ? d->labels[ev->input] : d->label;
	size_t label_len = strlen(label);
	const char *name = rp_stats_type_name(ev->type);
	size_t name_len = name ? strlen(name) : 7;
	char *p = rp_room(d, b, 200 + label_len + name_len + rp_dump_hex_size(ev->size));

	if (!p)
		return;
	char *start = p;
	uint64_t offset = ev->offset;

	if (d->is_pipe && offset >= RP_DUMP_PIPE_HEADER)
		offset -= RP_DUMP_PIPE_HEADER;
	*p++ = '\n';
	p = rp_fmt_hex(p, offset, 1);
	*p++ = '@';
	memcpy(p, label, label_len);
	p += label_len;
	memcpy(p, " [", 2);
	p += 2;
	p = rp_fmt_hex(p, ev->size, 1);
	memcpy(p, "]: event: ", 10);
	p += 10;
	p = rp_fmt_u64(p, ev->type);
	*p++ = '\n';
	p += rp_dump_hex(p, ev->data, ev->size);
	p = rp_tstamp(d, ev, p);
	if (ev->type == RP_RECORD_HEADER_ATTR)
		d->attr_seen = 1;
	p = rp_fmt_hex(p, offset, 1);
	memcpy(p, " [", 2);
	p += 2;
	p = rp_fmt_hex(p, ev->size, 1);
	memcpy(p, "]: PERF_RECORD_", 15);
	p += 15;
	memcpy(p, name ? name : "UNKNOWN", name_len);
	p += name_len;
	b->len += (size_t)(p - start);
}

static const char *const rp_x86_regs[24] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

const char *rp_reg_name_x86(unsigned id)
{
	static const char *const xmm[16] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (id < 24)
		return rp_x86_regs[id];
	if (id >= 32 && id < 64 && !(id & 1))
		return xmm[(id - 32) / 2];
	return NULL;
}

static const char *rp_reg_name(const struct rp_dump *d, unsigned id)
{
	const char *name = d->is_x86 ? rp_reg_name_x86(id) : NULL;

	return name ? name : "unknown";
}

/* perf's callchain__printf(): "... FP chain: nr:N", then one line per ip. */
static void rp_dump_chain(struct rp_dump *d, struct rp_buf *b, uint64_t nr, const uint64_t *ips)
{
	char *p = rp_room(d, b, 40 + nr * 32);

	if (!p)
		return;
	char *start = p;

	memcpy(p, "... FP chain: nr:", 17);
	p += 17;
	p = rp_fmt_u64(p, nr);
	*p++ = '\n';
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip = ips[i];

		memcpy(p, ".....", 5);
		p += 5;
		if (i < 10)
			*p++ = ' ';
		*p++ = ' ';
		p = rp_fmt_u64(p, (uint32_t)i);
		memcpy(p, ": ", 2);
		p += 2;
		for (int sh = 60; sh >= 0; sh -= 4)
			*p++ = rp_hexdig[(ip >> sh) & 15];
		*p++ = '\n';
	}
	b->len += (size_t)(p - start);
}

static void rp_dump_regs(struct rp_dump *d, struct rp_buf *b, const char *type,
			 const struct rp_regs *r)
{
	static const char *const abi[] = { "none", "32-bit", "64-bit" };
	unsigned i = 0;

	if (!r->abi)
		return;
	rp_printf(d, b, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", type, r->mask,
		  r->abi <= 2 ? abi[r->abi] : "unknown");
	for (unsigned bit = 0; bit < 64 && i < r->nr; bit++) {
		if (!(r->mask & (1ull << bit)))
			continue;
		rp_printf(d, b, ".... %-5s 0x%016" PRIx64 "\n", rp_reg_name(d, bit), r->regs[i++]);
	}
}

static const char *rp_branch_type_name(unsigned type)
{
	static const char *const names[16] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
		"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI",
	};

	return names[type & 15];
}

static void rp_dump_read_values(struct rp_dump *d, struct rp_buf *b, const struct rp_read *r)
{
	rp_puts(d, b, "... sample_read:\n");
	if (r->read_format & RP_FORMAT_TOTAL_TIME_ENABLED)
		rp_printf(d, b, "...... time enabled %016" PRIx64 "\n", r->time_enabled);
	if (r->read_format & RP_FORMAT_TOTAL_TIME_RUNNING)
		rp_printf(d, b, "...... time running %016" PRIx64 "\n", r->time_running);
	if (r->read_format & RP_FORMAT_GROUP)
		rp_printf(d, b, ".... group nr %" PRIu64 "\n", r->nr);
	for (uint64_t i = 0; i < r->nr; i++) {
		struct rp_read_value v = rp_read_get(r, i);

		rp_printf(d, b, "..... id %016" PRIx64 ", value %016" PRIx64, v.id, v.value);
		if (r->read_format & RP_FORMAT_LOST)
			rp_printf(d, b, ", lost %" PRIu64, v.lost);
		rp_puts(d, b, "\n");
		if (!(r->read_format & RP_FORMAT_GROUP))
			break;
	}
}

static void rp_dump_sample(struct rp_dump *d, struct rp_buf *b, const struct rp_event *ev,
			   const struct rp_resolved *res)
{
	const struct rp_sample *s = &ev->u.sample;
	uint64_t st = s->sample_type;
	char *p = rp_room(d, b, 160);

	if (!p)
		return;
	char *start = p;

	memcpy(p, "(IP, ", 5);
	p += 5;
	p = rp_fmt_hex(p, ev->misc, 1);
	if (!ev->misc) { /* printf's 0x%x */
		p[-1] = '0';
		*p++ = 'x';
		*p++ = '0';
	}
	memcpy(p, "): ", 3);
	p += 3;
	p = rp_fmt_i64(p, (int32_t)s->pid);
	*p++ = '/';
	p = rp_fmt_i64(p, (int32_t)s->tid);
	memcpy(p, ": ", 2);
	p += 2;
	p = rp_fmt_hex(p, s->ip, 1);
	memcpy(p, " period: ", 9);
	p += 9;
	p = rp_fmt_u64(p, s->period);
	memcpy(p, " addr: ", 7);
	p += 7;
	p = rp_fmt_hex(p, s->addr, 1);
	*p++ = '\n';
	b->len += (size_t)(p - start);

	int callstack = ev->evsel &&
			(rp_evsel_attr(ev->evsel)->branch_sample_type & RP_BRANCH_CALL_STACK) &&
			(st & RP_SAMPLE_BRANCH_STACK);

	if ((st & RP_SAMPLE_CALLCHAIN) && callstack && s->branch_nr) {
		/* perf's LBR call chain: the kernel part up to
		 * PERF_CONTEXT_USER, then the stitched LBR entries. */
		uint64_t k = 0;

		while (k < s->callchain_nr && s->callchain[k] != RP_CONTEXT_USER)
			k++;
		if (k != s->callchain_nr) {
			rp_printf(d, b, "... LBR call chain: nr:%" PRIu64 "\n", k + 1 + s->branch_nr + 1);
			for (uint64_t i = 0; i <= k; i++)
				rp_printf(d, b, "..... %2d: %016" PRIx64 "\n", (int)i, s->callchain[i]);
			rp_printf(d, b, "..... %2d: %016" PRIx64 "\n", (int)(k + 1),
				  rp_sample_branch(s, 0).to);
			for (uint64_t i = 0; i < s->branch_nr; i++)
				rp_printf(d, b, "..... %2d: %016" PRIx64 "\n", (int)(i + k + 2),
					  rp_sample_branch(s, i).from);
		}
	}
	if (st & RP_SAMPLE_CALLCHAIN)
		rp_dump_chain(d, b, s->callchain_nr, s->callchain);
	if (st & RP_SAMPLE_BRANCH_STACK) {
		if (callstack)
			rp_printf(d, b, "... branch callstack: nr:%" PRIu64 "\n", s->branch_nr + 1);
		else
			rp_printf(d, b, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
		for (uint64_t i = 0; i < s->branch_nr; i++) {
			struct rp_branch_entry e = rp_sample_branch(s, i);

			if (callstack) {
				if (i == 0)
					rp_printf(d, b, "..... %2d: %016" PRIx64 "\n", 0, e.to);
				rp_printf(d, b, "..... %2" PRIu64 ": %016" PRIx64 "\n", i + 1, e.from);
				continue;
			}
			uint64_t f = e.flags;
			unsigned type = (unsigned)(f >> 20) & 15;

			rp_printf(d, b,
				  "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64
				  " %hu cycles %s%s%s%s %x %s\n",
				  i, e.from, e.to, (unsigned short)((f >> 4) & 0xffff),
				  f & 1 ? "M" : " ", f & 2 ? "P" : " ", f & 8 ? "A" : " ",
				  f & 4 ? "T" : " ", (unsigned)(f >> 33),
				  type ? rp_branch_type_name(type) : "");
		}
	}
	if (st & RP_SAMPLE_REGS_USER)
		rp_dump_regs(d, b, "user", &s->regs_user);
	if (st & RP_SAMPLE_REGS_INTR)
		rp_dump_regs(d, b, "intr", &s->regs_intr);
	if (st & RP_SAMPLE_STACK_USER) {
		uint64_t off = 0;

		/* perf prints the offset of the size field in the record. */
		if (s->stack_user && (const char *)s->stack_user >= (const char *)ev->data + 8 &&
		    (const char *)s->stack_user < (const char *)ev->data + ev->size)
			off = (uint64_t)((const char *)s->stack_user - (const char *)ev->data) - 8;
		rp_printf(d, b, "... ustack: size %" PRIu64 ", offset 0x%x\n",
			  s->stack_user_size ? s->stack_user_dyn_size : 0, (unsigned)off);
	}
	if (st & (RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT)) {
		if (st & RP_SAMPLE_WEIGHT_STRUCT)
			rp_printf(d, b, "... weight: %" PRIu32 ",0x%" PRIx16 ",0x%" PRIx16 "\n",
				  s->weight_var1_dw, s->weight_var2_w, s->weight_var3_w);
		else
			rp_printf(d, b, "... weight: %" PRIu64 "\n", s->weight);
	}
	if (st & RP_SAMPLE_DATA_SRC)
		rp_printf(d, b, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (st & RP_SAMPLE_PHYS_ADDR)
		rp_printf(d, b, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (st & RP_SAMPLE_DATA_PAGE_SIZE) {
		char sz[32];

		rp_dump_page_size(sz, sizeof(sz), s->data_page_size);
		rp_printf(d, b, " .. data page size: %s\n", sz);
	}
	if (st & RP_SAMPLE_CODE_PAGE_SIZE) {
		char sz[32];

		rp_dump_page_size(sz, sizeof(sz), s->code_page_size);
		rp_printf(d, b, " .. code page size: %s\n", sz);
	}
	if (st & RP_SAMPLE_TRANSACTION)
		rp_printf(d, b, "... transaction: %" PRIx64 "\n", s->transaction);
	if (st & RP_SAMPLE_READ)
		rp_dump_read_values(d, b, &s->read);

	/* The report tool's machine__resolve(). */
	if (res && res->thread) {
		const char *dso;

		if (res->al.map && res->al.dso)
			dso = rp_dso_long_name(res->al.dso);
		else
			dso = res->al.level == 'H' ? "[hypervisor]" : "<not found>";
		/* Once per sample perf delivers (per value read that moved). */
		for (uint64_t i = 0; i < d->deliveries; i++)
			rp_printf(d, b, " ... thread: %s:%d\n ...... dso: %s\n",
				  res->comm ? res->comm : "", (int)rp_thread_tid(res->thread), dso);
	}
}

/* Writes the cpu list of a perf_record_cpu_map_data, then a newline. */
static void rp_dump_cpu_data(struct rp_dump *d, struct rp_buf *b, const void *data, size_t n)
{
	const uint8_t *q = data;
	int swap = rp_session_needs_swap(d->session);
	int *cpus = NULL;
	size_t nr = 0;
	char *list;

	if (n < 2)
		goto out;
	cpus = malloc(RP_DUMP_MAX_CPUS * sizeof(*cpus));
	if (!cpus)
		goto out;
	uint16_t type = rp_load16(q, swap);

	if (type == 0 && n >= 4) { /* PERF_CPU_MAP__CPUS: u16 nr, u16 cpu[] */
		uint16_t cnt = rp_load16(q + 2, swap);

		for (size_t i = 0; i < cnt && 4 + 2 * i + 2 <= n && nr < RP_DUMP_MAX_CPUS; i++) {
			uint16_t c = rp_load16(q + 4 + 2 * i, swap);

			cpus[nr++] = c == 0xffff ? -1 : c;
		}
	} else if (type == 1 && n >= 6) { /* PERF_CPU_MAP__MASK */
		uint16_t cnt = rp_load16(q + 2, swap);
		uint16_t long_size = rp_load16(q + 4, swap);
		/* Packed after the u16 type: nr, long_size, then the
		 * masks (64-bit ones after 4 bytes of padding). */
		size_t base = long_size == 4 ? 6 : 10;

		for (size_t i = 0; i < cnt; i++) {
			size_t at = base + i * (long_size == 4 ? 4 : 8);
			uint64_t m;

			if (at + (long_size == 4 ? 4 : 8) > n)
				break;
			m = long_size == 4 ? rp_load32(q + at, swap) : rp_load64(q + at, swap);
			for (unsigned bit = 0; bit < (long_size == 4 ? 32u : 64u); bit++)
				if ((m >> bit) & 1 && nr < RP_DUMP_MAX_CPUS)
					cpus[nr++] = (int)(i * (long_size == 4 ? 32 : 64) + bit);
		}
	} else if (type == 2 && n >= 8) { /* PERF_CPU_MAP__RANGE_CPUS */
		uint8_t any = q[2];
		uint16_t lo = rp_load16(q + 4, swap), hi = rp_load16(q + 6, swap);

		if (any)
			cpus[nr++] = -1;
		for (uint32_t c = lo; c <= hi && nr < RP_DUMP_MAX_CPUS; c++)
			cpus[nr++] = (int)c;
	}
out:
	list = rp_room(d, b, nr * 12 + 32);
	if (list) {
		size_t len = rp_dump_cpu_list(list, nr * 12 + 16, cpus, nr);

		list[len] = '\n';
		b->len += len + 1;
	}
	free(cpus);
}

static void rp_dump_event_update(struct rp_dump *d, struct rp_buf *b, const struct rp_event *ev)
{
	const struct rp_event_update_event *u = &ev->u.event_update;
	int swap = rp_session_needs_swap(d->session);

	rp_printf(d, b, "\n... id:    %" PRIu64 "\n", u->id);
	switch (u->type) {
	case 0: /* UNIT */
		rp_printf(d, b, "... unit:  %.*s\n", (int)strnlen(u->data, u->size), (const char *)u->data);
		break;
	case 1: /* SCALE */
		if (u->size >= 8) {
			uint64_t bits = rp_load64(u->data, swap);
			double scale;

			memcpy(&scale, &bits, sizeof(scale));
			rp_printf(d, b, "... scale: %f\n", scale);
		}
		break;
	case 2: /* NAME */
		rp_printf(d, b, "... name:  %.*s\n", (int)strnlen(u->data, u->size), (const char *)u->data);
		break;
	case 3: /* CPUS */
		rp_puts(d, b, "... ");
		rp_dump_cpu_data(d, b, u->data, u->size);
		break;
	default:
		break;
	}
}

static void rp_dump_body(struct rp_dump *d, struct rp_buf *b, const struct rp_event *ev,
			 const struct rp_resolved *res)
{
	switch (ev->type) {
	case RP_RECORD_SAMPLE:
		rp_dump_sample(d, b, ev, res);
		break;
	case RP_RECORD_MMAP: {
		const struct rp_mmap_event *m = &ev->u.mmap;

		rp_printf(d, b, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			  (int)m->pid, (int)m->tid, m->start, m->len, m->pgoff,
			  ev->misc & RP_MISC_MMAP_DATA ? 'r' : 'x', m->filename);
		break;
	}
	case RP_RECORD_MMAP2: {
		const struct rp_mmap_event *m = &ev->u.mmap;
		char prot[5] = {
			m->prot & 1 ? 'r' : '-', m->prot & 2 ? 'w' : '-', m->prot & 4 ? 'x' : '-',
			m->flags & 1 ? 's' : 'p', 0,
		};

		if (m->has_build_id) {
			char bid[RP_BUILD_ID_HEX];

			rp_build_id_hex(bid, m->build_id, m->build_id_size);
			rp_printf(d, b,
				  " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " <%s>]: %s %s\n",
				  (int)m->pid, (int)m->tid, m->start, m->len, m->pgoff, bid, prot,
				  m->filename);
		} else {
			rp_printf(d, b,
				  " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
				  " %02x:%02x %" PRIu64 " %" PRIu64 "]: %s %s\n",
				  (int)m->pid, (int)m->tid, m->start, m->len, m->pgoff, m->maj, m->min,
				  m->ino, m->ino_generation, prot, m->filename);
		}
		break;
	}
	case RP_RECORD_COMM:
		rp_printf(d, b, "%s: %s:%d/%d\n", ev->u.comm.exec ? " exec" : "", ev->u.comm.comm,
			  (int)ev->u.comm.pid, (int)ev->u.comm.tid);
		break;
	case RP_RECORD_FORK:
	case RP_RECORD_EXIT:
		rp_printf(d, b, "(%d:%d):(%d:%d)\n", (int)ev->u.task.pid, (int)ev->u.task.tid,
			  (int)ev->u.task.ppid, (int)ev->u.task.ptid);
		break;
	case RP_RECORD_LOST:
		rp_printf(d, b, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", ev->u.lost.id,
			  ev->u.lost.lost);
		break;
	case RP_RECORD_LOST_SAMPLES:
		rp_printf(d, b, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n",
			  ev->sid.present & (RP_SAMPLE_ID | RP_SAMPLE_IDENTIFIER) ? ev->sid.id
										  : (uint64_t)-1,
			  ev->u.lost.lost);
		break;
	case RP_RECORD_READ: {
		const struct rp_read *r = &ev->u.read.values;
		struct rp_read_value v = rp_read_get(r, 0);

		rp_printf(d, b, ": %d %d %s %" PRIu64 "\n", (int)ev->u.read.pid, (int)ev->u.read.tid,
			  ev->evsel ? rp_evsel_name(ev->evsel) : "(null)", v.value);
		if (!ev->evsel)
			break;
		if (r->read_format & RP_FORMAT_TOTAL_TIME_ENABLED)
			rp_printf(d, b, "... time enabled : %" PRIu64 "\n", r->time_enabled);
		if (r->read_format & RP_FORMAT_TOTAL_TIME_RUNNING)
			rp_printf(d, b, "... time running : %" PRIu64 "\n", r->time_running);
		if (r->read_format & RP_FORMAT_ID)
			rp_printf(d, b, "... id           : %" PRIu64 "\n", v.id);
		if (r->read_format & RP_FORMAT_LOST)
			rp_printf(d, b, "... lost         : %" PRIu64 "\n", v.lost);
		break;
	}
	case RP_RECORD_SWITCH:
	case RP_RECORD_SWITCH_CPU_WIDE: {
		const char *in_out = !ev->u.sw.out ? "IN         "
				     : !ev->u.sw.preempt ? "OUT        "
							 : "OUT preempt";

		if (ev->type == RP_RECORD_SWITCH)
			rp_printf(d, b, " %s\n", in_out);
		else
			rp_printf(d, b, " %s  %s pid/tid: %5d/%-5d\n", in_out,
				  ev->u.sw.out ? "next" : "prev", (int)ev->u.sw.next_prev_pid,
				  (int)ev->u.sw.next_prev_tid);
		break;
	}
	case RP_RECORD_NAMESPACES: {
		static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
		const struct rp_namespaces_event *n = &ev->u.namespaces;
		const uint8_t *li = n->link_info;

		rp_printf(d, b, " %d/%d - nr_namespaces: %u\n\t\t[", (int)n->pid, (int)n->tid,
			  (unsigned)n->nr);
		for (uint32_t i = 0; i < (uint32_t)n->nr; i++) {
			if (i && i % 4 == 0)
				rp_puts(d, b, "\n\t\t ");
			rp_printf(d, b, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", i, i < 7 ? ns[i] : "UNKNOWN",
				  rp_load64(li + 16 * i, n->swap), rp_load64(li + 16 * i + 8, n->swap),
				  i + 1 != (uint32_t)n->nr ? ", " : "]\n");
		}
		break;
	}
	case RP_RECORD_CGROUP:
		rp_printf(d, b, " cgroup: %" PRIu64 " %s\n", ev->u.cgroup.id, ev->u.cgroup.path);
		break;
	case RP_RECORD_KSYMBOL:
		rp_printf(d, b, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n",
			  ev->u.ksymbol.addr, ev->u.ksymbol.len, ev->u.ksymbol.ksym_type,
			  ev->u.ksymbol.flags, ev->u.ksymbol.name);
		break;
	case RP_RECORD_BPF_EVENT:
		rp_printf(d, b, " type %u, flags %u, id %u\n", ev->u.bpf.type, ev->u.bpf.flags,
			  ev->u.bpf.id);
		break;
	case RP_RECORD_ITRACE_START:
		rp_printf(d, b, " pid: %u tid: %u\n", ev->u.itrace_start.pid, ev->u.itrace_start.tid);
		break;
	case RP_RECORD_AUX:
		rp_printf(d, b, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			  ev->u.aux.aux_offset, ev->u.aux.aux_size, ev->u.aux.flags,
			  ev->u.aux.flags & 1 ? "T" : "", ev->u.aux.flags & 2 ? "O" : "",
			  ev->u.aux.flags & 4 ? "P" : "");
		break;
	case RP_RECORD_AUX_OUTPUT_HW_ID:
		rp_printf(d, b, " hw_id: %#" PRIx64 "\n", ev->u.aux_output_hw_id.hw_id);
		break;
	case RP_RECORD_ID_INDEX: {
		const struct rp_id_index_event *x = &ev->u.id_index;

		rp_printf(d, b, " nr: %" PRIu64 "\n", x->nr);
		for (uint64_t i = 0; i < x->nr; i++) {
			struct rp_id_index_entry e = rp_id_index_get(x, i);

			rp_printf(d, b, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
				  "  tid: %" PRId64 "\n",
				  e.id, e.idx, (int64_t)e.cpu, (int64_t)e.tid);
		}
		break;
	}
	case RP_RECORD_EVENT_UPDATE:
		rp_dump_event_update(d, b, ev);
		break;
	case RP_RECORD_THREAD_MAP: {
		const struct rp_thread_map_event *t = &ev->u.thread_map;
		const uint8_t *e = t->entries;
		uint64_t nr = t->nr < RP_DUMP_MAX_THREADS ? t->nr : RP_DUMP_MAX_THREADS;

		rp_printf(d, b, " nr: %" PRIu64 " thread%s: ", t->nr, t->nr > 1 ? "s" : "");
		for (uint64_t i = 0; i < nr; i++)
			rp_printf(d, b, "%s%d", i ? "," : "", (int)rp_load64(e + 24 * i, t->swap));
		rp_puts(d, b, "\n: unhandled!\n");
		break;
	}
	case RP_RECORD_CPU_MAP:
		rp_puts(d, b, ": ");
		rp_dump_cpu_data(d, b, ev->u.payload.data, ev->u.payload.size);
		rp_puts(d, b, ": unhandled!\n");
		break;
	case RP_RECORD_STAT_CONFIG: {
		const uint8_t *q = ev->u.payload.data;
		int swap = rp_session_needs_swap(d->session);
		uint64_t nr = ev->u.payload.size >= 8 ? rp_load64(q, swap) : 0;
		int64_t aggr = 0, scale = 0, interval = 0;

		for (uint64_t i = 0; i < nr && 8 + 16 * i + 16 <= ev->u.payload.size; i++) {
			uint64_t tag = rp_load64(q + 8 + 16 * i, swap);
			uint64_t val = rp_load64(q + 16 + 16 * i, swap);

			/* PERF_STAT_CONFIG_TERM__AGGR_MODE, __INTERVAL, __SCALE */
			if (tag == 0)
				aggr = (int64_t)val;
			else if (tag == 1)
				interval = (int64_t)val;
			else if (tag == 2)
				scale = (int64_t)val;
		}
		rp_printf(d, b, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n: unhandled!\n",
			  (int)aggr, (int)scale, (unsigned)interval);
		break;
	}
	case RP_RECORD_STAT: {
		const uint8_t *q = ev->u.payload.data;
		int swap = rp_session_needs_swap(d->session);

		if (ev->u.payload.size >= 40)
			rp_printf(d, b,
				  "\n... id %" PRIu64 ", cpu %d, thread %d\n... value %" PRIu64
				  ", enabled %" PRIu64 ", running %" PRIu64 "\n",
				  rp_load64(q, swap), (int)rp_load32(q + 8, swap),
				  (int)rp_load32(q + 12, swap), rp_load64(q + 16, swap),
				  rp_load64(q + 24, swap), rp_load64(q + 32, swap));
		rp_puts(d, b, ": unhandled!\n");
		break;
	}
	case RP_RECORD_STAT_ROUND: {
		const uint8_t *q = ev->u.payload.data;
		int swap = rp_session_needs_swap(d->session);

		if (ev->u.payload.size >= 16)
			rp_printf(d, b, "\n... time %" PRIu64 ", type %s\n", rp_load64(q + 8, swap),
				  rp_load64(q, swap) == 1 ? "FINAL" : "INTERVAL");
		rp_puts(d, b, ": unhandled!\n");
		break;
	}
	case RP_RECORD_TIME_CONV: {
		const struct rp_time_conv_event *tc = &ev->u.time_conv;

		rp_printf(d, b,
			  "\n... Time Shift      %" PRIu64 "\n... Time Muliplier  %" PRIu64
			  "\n... Time Zero       %" PRIu64 "\n",
			  tc->time_shift, tc->time_mult, tc->time_zero);
		if (tc->has_ext)
			rp_printf(d, b,
				  "... Time Cycles     %" PRIu64 "\n... Time Mask       %#" PRIx64
				  "\n... Cap Time Zero   %" PRIu32 "\n... Cap Time Short  %" PRIu32 "\n",
				  tc->time_cycles, tc->time_mask, (uint32_t)tc->cap_user_time_zero,
				  (uint32_t)tc->cap_user_time_short);
		rp_puts(d, b, ": unhandled!\n");
		break;
	}
	case RP_RECORD_CALLCHAIN_DEFERRED: {
		/* perf's dump_deferred_callchain(): the sample_id's pid/tid
		 * (-1 without), the cookie, and the ips when the event samples
		 * callchains; the report tool's stub adds nothing. */
		const struct rp_callchain_deferred_event *cd = &ev->u.callchain_deferred;
		int has_tid = !!(ev->sid.present & RP_SAMPLE_TID);

		rp_printf(d, b, "(IP, 0x%x): %d/%d: %#" PRIx64 "\n", (unsigned)ev->misc,
			  has_tid ? (int)ev->sid.pid : -1, has_tid ? (int)ev->sid.tid : -1,
			  cd->cookie);
		if (ev->evsel && (rp_evsel_attr(ev->evsel)->sample_type & RP_SAMPLE_CALLCHAIN))
			rp_dump_chain(d, b, cd->nr, cd->ips);
		break;
	}
	case RP_RECORD_FINISHED_ROUND:
		rp_puts(d, b, "\n");
		break;
	case RP_RECORD_HEADER_EVENT_TYPE:
	case RP_RECORD_HEADER_ATTR:
	case RP_RECORD_HEADER_FEATURE:
	case RP_RECORD_HEADER_BUILD_ID: /* perf inject -b, --buildid-all */
	case RP_RECORD_HEADER_TRACING_DATA: /* pipe streams with tracepoints */
		/* perf prints nothing more for these; the next record's
		 * leading newline ends the line. */
		break;
	default:
		/* The report tool leaves these to perf's stubs. */
		rp_puts(d, b, ": unhandled!\n");
		break;
	}
}

/* Whether the session delivered ev from its time-order queue. */
static int rp_dump_queued(const struct rp_dump *d, const struct rp_event *ev)
{
	uint64_t t;

	if (ev->type >= RP_RECORD_HEADER_ATTR || !d->sample_id_all || !ev->evsel)
		return 0;
	if (ev->type == RP_RECORD_SAMPLE) {
		if (!(ev->u.sample.sample_type & RP_SAMPLE_TIME))
			return 0;
		t = ev->u.sample.time;
	} else {
		if (!(ev->sid.present & RP_SAMPLE_TIME))
			return 0;
		t = ev->sid.time;
	}
	return t != 0 && t != (uint64_t)-1;
}

static void rp_dump_release_pending(struct rp_dump *d)
{
	size_t off = 0;

	while (off < d->pending.len) {
		size_t n = d->pending.len - off;
		char *p;

		if (n > RP_DUMP_BUFSIZE)
			n = RP_DUMP_BUFSIZE;
		p = rp_room(d, &d->out, n);
		if (!p)
			break;
		memcpy(p, d->pending.p + off, n);
		d->out.len += n;
		off += n;
	}
	d->pending.len = 0;
}

static int rp_dump_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_dump *d = ctx;
	int queued = rp_dump_queued(d, ev);
	struct rp_buf *b = queued ? &d->pending : &d->out;

	/* perf report -D's tool counts no lost samples per event. */
	d->deliveries = 1;
	if (ev->type == RP_RECORD_SAMPLE && (ev->u.sample.sample_type & RP_SAMPLE_READ)) {
		/* perf hands on a sample that reads counters once per value
		 * that moved: the counts tell how often. */
		uint64_t before = 0, after = 0;
		size_t n = rp_session_nr_evsels(d->session);

		for (size_t i = 0; i < n; i++)
			before += rp_stats_samples(d->stats, i);
		rp_stats_count(d->stats, ev);
		for (size_t i = 0; i < n; i++)
			after += rp_stats_samples(d->stats, i);
		d->deliveries = after - before;
	} else if (ev->type != RP_RECORD_LOST_SAMPLES) {
		rp_stats_count(d->stats, ev);
	}
	if (ev->type == RP_RECORD_COMPRESSED)
		return 0; /* perf dumps the records inside, not the container */
	if (!queued && ev->type < RP_RECORD_HEADER_ATTR)
		rp_dump_release_pending(d); /* a flush without a user record */
	rp_dump_head(d, b, ev);
	rp_dump_body(d, b, ev, res);
	if (ev->type >= RP_RECORD_HEADER_ATTR)
		rp_dump_release_pending(d);
	return d->io_error ? RP_ERR_IO : 0;
}

struct rp_consumer rp_dump_consumer(struct rp_dump *d)
{
	/* perf -D prints each record once, as read. */
	struct rp_consumer c = { .ctx = d, .event = rp_dump_event, .flags = RP_CONSUMER_RECORDS };

	return c;
}

int rp_dump_finish(struct rp_dump *d)
{
	rp_dump_release_pending(d);
	rp_dump_drain(d);
	if (rp_stats_write(d->stats, d->fp) < 0 || fflush(d->fp) != 0 || d->io_error)
		return RP_ERR_IO;
	return 0;
}

static int rp_dump_output_create(void **state, const struct rp_output_env *env, const void *opts,
				 const struct rp_output_target *target, struct rp_error *err)
{
	int ret = rp_dump_new((struct rp_dump **)state, target->stream, env->session, opts);

	return ret < 0 ? rp_error_set(err, ret, ret == RP_ERR_INVAL ? "bad options"
								    : "out of memory")
		       : 0;
}

static struct rp_consumer rp_dump_output_consumer(void *state)
{
	return rp_dump_consumer(state);
}

static int rp_dump_output_finish(void *state, struct rp_error *err)
{
	return rp_dump_finish(state) < 0 ? rp_error_set(err, RP_ERR_IO, "cannot write the dump")
					 : 0;
}

static void rp_dump_output_destroy(void *state)
{
	rp_dump_free(state);
}

const struct rp_output_def rp_output_dump = {
	.name = "dump",
	.create = rp_dump_output_create,
	.consumer = rp_dump_output_consumer,
	.finish = rp_dump_output_finish,
	.destroy = rp_dump_output_destroy,
};
