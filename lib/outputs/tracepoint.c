/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint fields through libtraceevent: the TRACING_DATA section walked
 * with a bounds-checked cursor, each format handed to tep_parse_event().
 * See tracepoint.h for the layout.
 */
#include "outputs/tracepoint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>
#include <readperf/symbols.h>

#ifdef RP_HAVE_TRACEEVENT

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

struct rp_tp {
	struct tep_handle *tep;
	struct trace_seq seq; /* reused for every sample: no malloc per line */
	/* Kernel symbols for %pS/%ps arguments (rp_tp_set_kernel()). */
	struct rp_machine *machine;
	struct rp_symbols *symbols;
};

/* A cursor over the section; the section's own byte order applies. */
struct rp_tp_cur {
	const uint8_t *p, *end;
	int swap;
};

static int rp_tp_need(const struct rp_tp_cur *c, uint64_t n)
{
	return (uint64_t)(c->end - c->p) >= n;
}

static int rp_tp_u32(struct rp_tp_cur *c, uint32_t *v)
{
	if (!rp_tp_need(c, 4))
		return RP_ERR_CORRUPT;
	memcpy(v, c->p, 4);
	if (c->swap)
		*v = __builtin_bswap32(*v);
	c->p += 4;
	return 0;
}

static int rp_tp_u64(struct rp_tp_cur *c, uint64_t *v)
{
	if (!rp_tp_need(c, 8))
		return RP_ERR_CORRUPT;
	memcpy(v, c->p, 8);
	if (c->swap)
		*v = __builtin_bswap64(*v);
	c->p += 8;
	return 0;
}

/* A NUL-terminated string inside the section. */
static const char *rp_tp_str(struct rp_tp_cur *c)
{
	const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul)
		return NULL;
	c->p = nul + 1;
	return s;
}

/* n bytes, as a NUL-terminated heap copy (libtraceevent parsers want text). */
static char *rp_tp_chunk(struct rp_tp_cur *c, uint64_t n)
{
	char *s;

	if (n > RP_TP_MAX_CHUNK || !rp_tp_need(c, n))
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	memcpy(s, c->p, (size_t)n);
	s[n] = 0;
	c->p += n;
	return s;
}

/*
 * Keeps only the printk_formats lines libtraceevent can take: "ADDR : FMT"
 * with a ':' after at least one byte and a format of RP_TP_PRINTK_MIN_FMT
 * bytes or more (not counting blanks and an opening quote).  Its parser steps one byte past the ':' and copies from there (a
 * line that ends at, or lacks, the ':' made it read past the buffer), then
 * looks two bytes before the end of the copy for a "\n" (a format of
 * fewer than three bytes made it read before it).  In place.
 */
#define RP_TP_PRINTK_MIN_FMT 4u
static void rp_tp_printk_clean(char *buf)
{
	char *in = buf, *out = buf;

	while (*in) {
		char *nl = strchr(in, '\n');
		size_t len = nl ? (size_t)(nl - in) : strlen(in);
		char *colon = memchr(in, ':', len);

		/* The format's bytes past any blanks and an opening quote (which
		 * libtraceevent also skips, at most). */
		const char *q = colon ? colon + 1 : NULL;

		while (q && q < in + len && (*q == ' ' || *q == '\t'))
			q++;
		if (q && q < in + len && *q == '"')
			q++;
		if (colon && colon > in && (size_t)(in + len - q) >= RP_TP_PRINTK_MIN_FMT) {
			memmove(out, in, len);
			out += len;
			if (nl)
				*out++ = '\n';
		}
		in += len + (nl ? 1 : 0);
	}
	*out = 0;
}

/* Fields an event format may declare for rp_tp_format_ok() (real events
 * have a few dozen). */
#define RP_TP_MAX_FIELDS 512u

static int rp_tp_ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/*
 * Whether a print fmt (the rest of the format: its strings may hold
 * newlines) is whole: a quoted format string, then at least
 * as many arguments as its conversions take, quotes closed, brackets
 * nested and closed, no operator at the end.  libtraceevent's expression
 * parser follows NULL on a cut expression or a missing argument.
 */
static int rp_tp_print_balanced(const char *p)
{
	char stack[64];
	size_t depth = 0, need = 0, args = 0;
	char last = 0;

	/* The format string first: each conversion (and each '*' in one)
	 * takes an argument, which libtraceevent expects to find. */
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '"')
		return 0;
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		need++;
		for (p++; *p && strchr("0123456789.-+ #*lhzjtqL", *p); p++)
			need += *p == '*';
		if (!*p || *p == '"')
			return 0;
	}
	if (*p != '"')
		return 0;
	last = *p++;

	for (; *p; p++) {
		char ch = *p;

		if (ch == '"' || ch == '\'') {
			const char q = ch;

			for (p++; *p && *p != q; p++)
				if (*p == '\\' && p[1])
					p++;
			if (*p != q)
				return 0;
			last = q;
			continue;
		}
		if (ch == ',' && depth == 0)
			args++;
		if (ch == '(' || ch == '[' || ch == '{') {
			if (depth == sizeof(stack))
				return 0;
			stack[depth++] = ch == '(' ? ')' : ch == '[' ? ']' : '}';
		} else if (ch == ')' || ch == ']' || ch == '}') {
			if (!depth || stack[--depth] != ch)
				return 0;
		}
		if (ch != ' ' && ch != '\t' && ch != '\n')
			last = ch;
	}
	return depth == 0 && last && !strchr("?:,|&+-*/<>=!~^%(", last) && args >= need;
}

/*
 * Whether an event format is whole (every "field:" line ends in "TYPE
 * name;" or "name[N];", a print fmt follows) and every "REC->name" of its
 * print fmt names a field it declares.  libtraceevent
 * follows the field it looks up without checking that it found one (a
 * NULL dereference on a damaged format), so an event failing this is not
 * handed to it and prints raw, as an event it cannot parse does.
 */
static int rp_tp_format_ok(const char *fmt)
{
	const char *names[RP_TP_MAX_FIELDS];
	size_t lens[RP_TP_MAX_FIELDS], nr = 0;
	const char *p = fmt, *print;

	while ((p = strstr(p, "field:")) != NULL) {
		const char *semi = strchr(p, ';'), *end;

		if (!semi)
			return 0; /* a field cut short */
		end = semi;
		if (end > p && end[-1] == ']')
			while (end > p && *end != '[')
				end--;
		const char *start = end;
		while (start > p && rp_tp_ident_char(start[-1]))
			start--;
		if (nr == RP_TP_MAX_FIELDS || start == end)
			return 0;
		names[nr] = start;
		lens[nr++] = (size_t)(end - start);
		p = semi + 1;
	}
	print = strstr(fmt, "print fmt:");
	if (!print || !rp_tp_print_balanced(print + 10) || strstr(print + 10, "print fmt:"))
		return 0;
	for (p = print; p && (p = strstr(p, "REC->")) != NULL;) {
		const char *start = p + 5, *end = start;
		size_t i;

		while (rp_tp_ident_char(*end))
			end++;
		for (i = 0; i < nr; i++)
			if (lens[i] == (size_t)(end - start) && !memcmp(names[i], start, lens[i]))
				break;
		if (i == nr)
			return 0;
		p = end;
	}
	return 1;
}

static int rp_tp_parse(struct rp_tp *tp, const uint8_t *data, size_t size, int file_swap)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct rp_tp_cur c = { data, data + size, 0 };
	const char *version;
	uint8_t big, long_size;
	uint32_t page_size, nr, nr_sys;
	uint64_t n;
	char *buf;

	(void)file_swap;
	if (!rp_tp_need(&c, sizeof(magic)) || memcmp(c.p, magic, sizeof(magic)))
		return RP_ERR_CORRUPT;
	c.p += sizeof(magic);
	if (!(version = rp_tp_str(&c)) || !rp_tp_need(&c, 2))
		return RP_ERR_CORRUPT;
	big = c.p[0];
	long_size = c.p[1];
	c.p += 2;
	/* The section's numbers are in the byte order it names. */
	{
		const uint16_t one = 1;
		uint8_t host_big = *(const uint8_t *)&one == 0;

		c.swap = big != host_big;
		tep_set_file_bigendian(tp->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_set_local_bigendian(tp->tep, host_big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	}
	tep_set_flag(tp->tep, TEP_NSEC_OUTPUT);
	if (rp_tp_u32(&c, &page_size) < 0 || !page_size)
		return RP_ERR_CORRUPT;
	tep_set_long_size(tp->tep, long_size);
	tep_set_page_size(tp->tep, (int)page_size);

	if (!rp_tp_need(&c, 12) || memcmp(c.p, "header_page", 12))
		return RP_ERR_CORRUPT;
	c.p += 12;
	if (rp_tp_u64(&c, &n) < 0 || !(buf = rp_tp_chunk(&c, n)))
		return RP_ERR_CORRUPT;
	if (!tep_parse_header_page(tp->tep, buf, (unsigned long)n, long_size))
		tep_set_long_size(tp->tep, tep_get_header_page_size(tp->tep));
	free(buf);
	if (!rp_tp_need(&c, 13) || memcmp(c.p, "header_event", 13))
		return RP_ERR_CORRUPT;
	c.p += 13;
	if (rp_tp_u64(&c, &n) < 0 || !rp_tp_need(&c, n))
		return RP_ERR_CORRUPT;
	c.p += n;

	/* ftrace's own formats */
	if (rp_tp_u32(&c, &nr) < 0 || nr > RP_TP_MAX_EVENTS)
		return RP_ERR_CORRUPT;
	for (uint32_t i = 0; i < nr; i++) {
		if (rp_tp_u64(&c, &n) < 0 || !(buf = rp_tp_chunk(&c, n)))
			return RP_ERR_CORRUPT;
		if (rp_tp_format_ok(buf))
			tep_parse_event(tp->tep, buf, (unsigned long)n, "ftrace");
		free(buf);
	}
	/* the recorded events, per system */
	if (rp_tp_u32(&c, &nr_sys) < 0 || nr_sys > RP_TP_MAX_SYSTEMS)
		return RP_ERR_CORRUPT;
	for (uint32_t s = 0; s < nr_sys; s++) {
		const char *sys = rp_tp_str(&c);

		if (!sys || rp_tp_u32(&c, &nr) < 0 || nr > RP_TP_MAX_EVENTS)
			return RP_ERR_CORRUPT;
		for (uint32_t i = 0; i < nr; i++) {
			if (rp_tp_u64(&c, &n) < 0 || !(buf = rp_tp_chunk(&c, n)))
				return RP_ERR_CORRUPT;
			/* an event libtraceevent cannot parse prints raw, as in perf */
			if (rp_tp_format_ok(buf))
				tep_parse_event(tp->tep, buf, (unsigned long)n, sys);
			free(buf);
		}
	}
	/* kallsyms: perf resolves kernel addresses itself; skipped */
	if (rp_tp_u32(&c, &nr) < 0 || !rp_tp_need(&c, nr))
		return RP_ERR_CORRUPT;
	c.p += nr;
	/* printk formats */
	if (rp_tp_u32(&c, &nr) < 0)
		return RP_ERR_CORRUPT;
	if (nr) {
		if (!(buf = rp_tp_chunk(&c, nr)))
			return RP_ERR_CORRUPT;
		rp_tp_printk_clean(buf);
		tep_parse_printk_formats(tp->tep, buf);
		free(buf);
	}
	if (strtod(version, NULL) >= 0.6) {
		if (rp_tp_u64(&c, &n) < 0)
			return 0; /* older writers stop here */
		if (n) {
			if (!(buf = rp_tp_chunk(&c, n)))
				return RP_ERR_CORRUPT;
			tep_parse_saved_cmdlines(tp->tep, buf);
			free(buf);
		}
	}
	return 0;
}

int rp_tp_new(struct rp_tp **out, const struct rp_session *session)
{
	const void *data;
	size_t size = 0;
	struct rp_tp *tp;
	int ret;

	*out = NULL;
	data = rp_session_feature_data(session, RP_FEAT_TRACING_DATA, &size);
	if (!data || !size)
		return 0;
	tp = calloc(1, sizeof(*tp));
	if (!tp)
		return RP_ERR_NOMEM;
	tp->tep = tep_alloc();
	if (!tp->tep) {
		free(tp);
		return RP_ERR_NOMEM;
	}
	trace_seq_init(&tp->seq);
	ret = rp_tp_parse(tp, data, size, rp_session_needs_swap(session));
	if (ret < 0) {
		rp_tp_free(tp);
		return ret;
	}
	*out = tp;
	return 0;
}

/*
 * libtraceevent's function resolver: the kernel symbol covering *addrp,
 * its start in *addrp (libtraceevent prints "name+0x<addr - start>" for
 * %pS), as perf's machine__resolve_kernel_addr() answers for perf script
 * and perf report.  The module name is not printed by libtraceevent's
 * %pS/%ps, so none is given.  NULL: libtraceevent prints the hex value.
 */
static char *rp_tp_kernel_func(void *priv, unsigned long long *addrp, char **modp)
{
	struct rp_tp *tp = priv;
	struct rp_addr_location al;

	*modp = NULL;
	if (rp_symbols_resolve(tp->symbols, tp->machine, NULL, RP_MISC_KERNEL, *addrp, &al) != 1 ||
	    !al.sym || al.addr < al.sym->start)
		return NULL;
	*addrp -= al.addr - al.sym->start;
	return (char *)(uintptr_t)al.sym->name;
}

int rp_tp_set_kernel(struct rp_tp *tp, struct rp_machine *machine, struct rp_symbols *symbols)
{
	if (!tp || !machine || !symbols)
		return 0;
	tp->machine = machine;
	tp->symbols = symbols;
	return tep_set_function_resolver(tp->tep, rp_tp_kernel_func, tp) < 0 ? RP_ERR_NOMEM : 0;
}

void rp_tp_free(struct rp_tp *tp)
{
	if (!tp)
		return;
	trace_seq_destroy(&tp->seq);
	tep_free(tp->tep);
	free(tp);
}

static struct tep_event *rp_tp_event(struct rp_tp *tp, const struct rp_evsel *evsel,
				     const struct rp_sample *sample)
{
	const struct rp_attr *attr;

	if (!tp || !evsel || !sample->raw || !sample->raw_size)
		return NULL;
	attr = rp_evsel_attr(evsel);
	if (attr->type != RP_TYPE_TRACEPOINT)
		return NULL;
	return tep_find_event(tp->tep, (int)attr->config);
}

int rp_tp_print(struct rp_tp *tp, const struct rp_evsel *evsel, const struct rp_sample *sample,
		FILE *out)
{
	struct tep_event *event = rp_tp_event(tp, evsel, sample);
	struct tep_record rec;

	if (!event)
		return 0;
	memset(&rec, 0, sizeof(rec));
	rec.ts = sample->time;
	rec.cpu = (int)sample->cpu;
	rec.size = (int)sample->raw_size;
	rec.data = (void *)(uintptr_t)sample->raw;
	trace_seq_reset(&tp->seq);
	tep_print_event(tp->tep, &tp->seq, &rec, "%s", TEP_PRINT_INFO);
	fwrite(tp->seq.buffer, 1, tp->seq.len, out);
	return 1;
}

int rp_tp_fields(struct rp_tp *tp, const struct rp_evsel *evsel, const struct rp_sample *sample,
		 rp_tp_field_fn fn, void *ctx)
{
	struct tep_event *event = rp_tp_event(tp, evsel, sample);
	struct tep_format_field **fields;
	int n = 0;

	if (!event)
		return 0;
	fields = tep_event_fields(event);
	if (!fields)
		return 0;
	for (; fields[n]; n++) {
		trace_seq_reset(&tp->seq);
		tep_print_field(&tp->seq, (void *)(uintptr_t)sample->raw, fields[n]);
		trace_seq_terminate(&tp->seq);
		fn(ctx, fields[n]->name, tp->seq.buffer);
	}
	free(fields);
	return n;
}

#else /* !RP_HAVE_TRACEEVENT */

int rp_tp_new(struct rp_tp **out, const struct rp_session *session)
{
	(void)session;
	*out = NULL;
	return RP_ERR_UNSUPPORTED;
}

int rp_tp_set_kernel(struct rp_tp *tp, struct rp_machine *machine, struct rp_symbols *symbols)
{
	(void)tp;
	(void)machine;
	(void)symbols;
	return 0;
}

void rp_tp_free(struct rp_tp *tp)
{
	(void)tp;
}

int rp_tp_print(struct rp_tp *tp, const struct rp_evsel *evsel, const struct rp_sample *sample,
		FILE *out)
{
	(void)tp;
	(void)evsel;
	(void)sample;
	(void)out;
	return 0;
}

int rp_tp_fields(struct rp_tp *tp, const struct rp_evsel *evsel, const struct rp_sample *sample,
		 rp_tp_field_fn fn, void *ctx)
{
	(void)tp;
	(void)evsel;
	(void)sample;
	(void)fn;
	(void)ctx;
	return 0;
}

#endif
