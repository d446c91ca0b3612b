/* SPDX-License-Identifier: MIT */
/*
 * The fuzz targets (see targets.h).  The library opens paths: a target
 * writes its input into a memfd and passes /proc/self/fd/N (a regular
 * file, mapped as a perf.data file would be), or for the streamed pipe
 * path writes it into a pipe and passes the pipe's /proc path.  Outputs
 * write to /dev/null (the CSV files into a private temporary directory).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef RP_HAVE_ZSTD
#include <zstd.h>
#endif

#include <readperf/readperf.h>

#include "builder.h"
#include "machine/machine_int.h"
#include "targets.h"
#include "unwind/unwind.h"

/* Most evsels, entries and bytes a target walks per record (the decoder
 * checked the counts against the record; this only bounds the time). */
#define RP_FUZZ_WALK_MAX (1u << 16)

static volatile uint64_t rp_fuzz_sink;

/* ---- inputs ---------------------------------------------------------- */

static int memfd = -1;
static char memfd_path[64];

/* The input as a regular file; returns its path or NULL. */
static const char *input_file(const uint8_t *data, size_t size)
{
	if (memfd < 0) {
		memfd = memfd_create("rp-fuzz", MFD_CLOEXEC);
		if (memfd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	}
	if (ftruncate(memfd, 0) < 0)
		abort();
	size_t done = 0;
	while (done < size) {
		ssize_t n = pwrite(memfd, data + done, size - done, (off_t)done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	return memfd_path;
}

static FILE *devnull(void)
{
	static FILE *fp;

	if (!fp) {
		fp = fopen("/dev/null", "w");
		if (!fp)
			abort();
	}
	clearerr(fp);
	return fp;
}

static char csv_dir_path[PATH_MAX];

/* Removes the CSV directory and its files at exit. */
static void csv_dir_remove(void)
{
	static const char *const names[] = { "stat.csv", "overview.csv", "processes.csv",
					     "results.csv" };
	char path[PATH_MAX + 32];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", csv_dir_path, names[i]);
		unlink(path);
	}
	rmdir(csv_dir_path);
}

/* A private directory for the CSV files, made once, removed at exit. */
static const char *csv_dir(void)
{
	char *dir = csv_dir_path;

	if (!dir[0]) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		snprintf(dir, sizeof(csv_dir_path), "%s/rp-fuzz-csv.XXXXXX", base);
		if (!mkdtemp(dir))
			abort();
		atexit(csv_dir_remove);
	}
	return dir;
}

/* ---- walking what the reader returns --------------------------------- */

static void touch(const void *p, uint64_t n)
{
	const uint8_t *b = p;
	uint64_t sum = 0;

	if (!p)
		return;
	if (n > RP_FUZZ_MAX_INPUT * 2ull)
		n = RP_FUZZ_MAX_INPUT * 2ull;
	for (uint64_t i = 0; i < n; i++)
		sum += b[i];
	rp_fuzz_sink += sum;
}

static void touch_str(const char *s)
{
	if (s)
		rp_fuzz_sink += strlen(s);
}

static uint64_t walk_cap(uint64_t n)
{
	return n < RP_FUZZ_WALK_MAX ? n : RP_FUZZ_WALK_MAX;
}

static void walk_read(const struct rp_read *r)
{
	for (uint64_t i = 0; i < walk_cap(r->nr); i++) {
		struct rp_read_value v = rp_read_get(r, i);

		rp_fuzz_sink += v.value + v.id + v.lost;
	}
}

static void walk_regs(const struct rp_regs *r)
{
	if (r->abi && r->regs)
		touch(r->regs, (uint64_t)r->nr * 8);
}

/* Every field the sample's sample_type makes valid (the others are not
 * written by the decoder: event.h). */
static void walk_sample(const struct rp_sample *s)
{
	uint64_t t = s->sample_type;

	if (t & RP_SAMPLE_CALLCHAIN)
		touch(s->callchain, walk_cap(s->callchain_nr) * 8);
	if (t & RP_SAMPLE_READ)
		walk_read(&s->read);
	if (t & RP_SAMPLE_RAW)
		touch(s->raw, s->raw_size);
	if (t & RP_SAMPLE_BRANCH_STACK) {
		for (uint64_t i = 0; i < walk_cap(s->branch_nr); i++) {
			struct rp_branch_entry b = rp_sample_branch(s, i);

			rp_fuzz_sink += b.from ^ b.to ^ b.flags;
		}
		if (s->branch_counters)
			touch(s->branch_counters, walk_cap(s->branch_nr) * 8);
	}
	if (t & RP_SAMPLE_REGS_USER)
		walk_regs(&s->regs_user);
	if (t & RP_SAMPLE_REGS_INTR)
		walk_regs(&s->regs_intr);
	if (t & RP_SAMPLE_STACK_USER)
		touch(s->stack_user, s->stack_user_size);
	if (t & RP_SAMPLE_AUX)
		touch(s->aux, s->aux_size);
}

/* Reads every field the event's type gives, every array entry, every string. */
static void walk_event(const struct rp_event *ev)
{
	touch(ev->data, ev->size);
	if (ev->evsel)
		touch_str(rp_evsel_name(ev->evsel));
	switch (ev->type) {
	case RP_RECORD_SAMPLE:
		/* A sample whose id matches no attr is not decoded (event.h). */
		if (ev->evsel)
			walk_sample(&ev->u.sample);
		break;
	case RP_RECORD_MMAP:
	case RP_RECORD_MMAP2:
		touch_str(ev->u.mmap.filename);
		break;
	case RP_RECORD_COMM:
		touch_str(ev->u.comm.comm);
		break;
	case RP_RECORD_READ:
		walk_read(&ev->u.read.values);
		break;
	case RP_RECORD_NAMESPACES:
		touch(ev->u.namespaces.link_info, walk_cap(ev->u.namespaces.nr) * 16);
		break;
	case RP_RECORD_CGROUP:
		touch_str(ev->u.cgroup.path);
		break;
	case RP_RECORD_KSYMBOL:
		touch_str(ev->u.ksymbol.name);
		break;
	case RP_RECORD_TEXT_POKE:
		touch(ev->u.text_poke.bytes,
		      (uint64_t)ev->u.text_poke.old_len + ev->u.text_poke.new_len);
		break;
	case RP_RECORD_CALLCHAIN_DEFERRED:
		touch(ev->u.callchain_deferred.ips, walk_cap(ev->u.callchain_deferred.nr) * 8);
		break;
	case RP_RECORD_ID_INDEX:
		for (uint64_t i = 0; i < walk_cap(ev->u.id_index.nr); i++) {
			struct rp_id_index_entry e = rp_id_index_get(&ev->u.id_index, i);

			rp_fuzz_sink += e.id + e.idx + e.cpu + e.tid;
		}
		break;
	case RP_RECORD_THREAD_MAP:
		touch(ev->u.thread_map.entries, walk_cap(ev->u.thread_map.nr) * 24);
		break;
	case RP_RECORD_EVENT_UPDATE:
		touch(ev->u.event_update.data, ev->u.event_update.size);
		break;
	case RP_RECORD_HEADER_BUILD_ID:
		touch_str(ev->u.build_id.filename);
		break;
	case RP_RECORD_TIME_CONV:
		rp_fuzz_sink += ev->u.time_conv.time_mult;
		break;
	case RP_RECORD_CPU_MAP:
	case RP_RECORD_STAT_CONFIG:
	case RP_RECORD_STAT:
	case RP_RECORD_STAT_ROUND:
	case RP_RECORD_AUXTRACE_INFO:
	case RP_RECORD_AUXTRACE_ERROR:
	case RP_RECORD_HEADER_FEATURE:
	case RP_RECORD_HEADER_ATTR:
	case RP_RECORD_HEADER_TRACING_DATA:
		touch(ev->u.payload.data, ev->u.payload.size);
		break;
	default:
		break;
	}
}

/* Every getter of the session: header, features, evsels, stats. */
static void walk_session(const struct rp_session *s)
{
	const struct rp_header_info *h = rp_session_header(s);

	touch_str(h->hostname), touch_str(h->osrelease), touch_str(h->version);
	touch_str(h->arch), touch_str(h->cpudesc), touch_str(h->cpuid);
	for (uint32_t i = 0; h->cmdline_argv && i < h->cmdline_argc; i++)
		touch_str(h->cmdline_argv[i]);
	for (size_t i = 0; h->build_ids && i < h->nr_build_ids; i++) {
		touch_str(h->build_ids[i].filename);
		rp_fuzz_sink += h->build_ids[i].size;
	}
	for (size_t i = 0; h->groups && i < h->nr_groups; i++)
		touch_str(h->groups[i].name);
	for (size_t i = 0; i < rp_session_nr_evsels(s); i++) {
		const struct rp_evsel *e = rp_session_evsel(s, i);
		size_t nr;
		const uint64_t *ids = rp_evsel_ids(e, &nr);

		touch_str(rp_evsel_name(e));
		touch_str(rp_evsel_unit(e));
		touch(ids, (uint64_t)nr * 8);
		rp_fuzz_sink += rp_evsel_attr(e)->sample_type + (rp_evsel_scale(e) != 1.0);
	}
	for (unsigned f = 0; f < RP_FEAT_BITS; f++) {
		size_t size = 0;
		const void *p = rp_session_feature_data(s, f, &size);

		touch(p, size);
	}
	touch_str(rp_session_kcore_kallsyms(s));
	rp_fuzz_sink += rp_session_stats(s)->nr_unknown_records + rp_session_data_size(s);
}

static void walk_records(struct rp_session *s)
{
	const struct rp_event *ev;

	while (rp_session_next(s, &ev) > 0)
		walk_event(ev);
	char line[RP_ERROR_MSG_MAX + 128];
	rp_error_format(rp_session_error(s), line, sizeof(line));
	walk_session(s);
}

static int records_at(const char *path, enum rp_order order, uint64_t max_queued)
{
	struct rp_session_opts opts = { .sz = sizeof(opts), .order = order,
					.max_queued = max_queued };
	struct rp_session *s;

	if (rp_session_open(&s, path, &opts, NULL) < 0)
		return 0;
	walk_records(s);
	rp_session_close(s);
	return 0;
}

/* ---- targets ----------------------------------------------------------- */

/* Opening: header, attrs, ids, feature sections, decoded features. */
static int fuzz_open(const uint8_t *data, size_t size)
{
	struct rp_session *s;
	struct rp_features *f;
	struct rp_error err;

	if (rp_session_open(&s, input_file(data, size), NULL, &err) < 0)
		return 0;
	walk_session(s);
	if (rp_features_read(&f, s, NULL) == 0)
		rp_features_free(f);
	rp_session_close(s);
	return 0;
}

/* The record stream, every record decoded and walked, in time order (a
 * small queue cap for some inputs, so that early delivery runs too). */
static int fuzz_records(const uint8_t *data, size_t size)
{
	uint64_t cap = size && (data[size - 1] & 1) ? 16 : 0;

	return records_at(input_file(data, size), RP_ORDER_TIME, cap);
}

/* Pipe mode: the input as a pipe-mode file (mapped) and as a stream read
 * from a real pipe (read(2), blocks, never seeked). */
static int fuzz_pipe(const uint8_t *data, size_t size)
{
	int fds[2];
	char path[64];

	records_at(input_file(data, size), RP_ORDER_TIME, 0);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return 0;
	int cap = fcntl(fds[1], F_SETPIPE_SZ, (int)RP_FUZZ_MAX_INPUT);
	if (cap < 0)
		cap = 65536;
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(fds[1], data + done, size - done);
		if (n <= 0)
			break; /* the pipe is full: the stream is what fits */
		done += (size_t)n;
	}
	close(fds[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	records_at(path, RP_ORDER_TIME, 0);
	close(fds[0]);
	return 0;
}

#ifdef RP_HAVE_ZSTD
static uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void st64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/*
 * A little-endian file-mode input rewritten with its data section in
 * COMPRESSED (or, for some inputs, COMPRESSED2) records of `chunk` bytes
 * of records each (cut anywhere: records straddle compressed records, as
 * perf writes them).  The feature sections move by the size difference.
 * Returns a malloc'd file and *len, or NULL when the input is not such a
 * file.
 */
static uint8_t *compress_data(const uint8_t *in, size_t size, size_t *len)
{
	static const uint8_t magic[8] = { 'P', 'E', 'R', 'F', 'I', 'L', 'E', '2' };

	if (size < 104 || memcmp(in, magic, 8) || ld64(in + 8) != 104)
		return NULL;
	uint64_t doff = ld64(in + 40), dsize = ld64(in + 48);
	if (doff < 104 || doff > size || dsize > size - doff)
		return NULL;
	int v2 = (size % 8) >= 4;
	size_t chunk = (size_t)256 << (size % 4);
	size_t bound = ZSTD_compressBound(chunk);
	size_t nchunks = (size_t)(dsize + chunk - 1) / chunk;
	size_t cap = (size_t)doff + nchunks * (bound + 24) + (size - (size_t)(doff + dsize));
	uint8_t *out = malloc(cap);
	ZSTD_CCtx *cctx = ZSTD_createCCtx();

	if (!out || !cctx) {
		free(out);
		ZSTD_freeCCtx(cctx);
		return NULL;
	}
	memcpy(out, in, (size_t)doff);
	size_t o = (size_t)doff;
	for (uint64_t at = 0; at < dsize; at += chunk) {
		size_t n = dsize - at < chunk ? (size_t)(dsize - at) : chunk;
		size_t hdr = v2 ? 16 : 8;
		/* One zstd stream over the whole section, as perf keeps it. */
		ZSTD_inBuffer ib = { in + doff + at, n, 0 };
		ZSTD_outBuffer ob = { out + o + hdr, bound, 0 };
		size_t r = ZSTD_compressStream2(cctx, &ob, &ib, ZSTD_e_flush);

		if (ZSTD_isError(r) || r != 0 || ob.pos + hdr + 8 > 0xffff) {
			free(out);
			ZSTD_freeCCtx(cctx);
			return NULL;
		}
		size_t rec = hdr + ob.pos;
		size_t padded = v2 ? (rec + 7) & ~(size_t)7 : rec;
		uint32_t type = v2 ? 83 : 81;
		uint16_t misc = 0, rsize = (uint16_t)padded;

		memcpy(out + o, &type, 4);
		memcpy(out + o + 4, &misc, 2);
		memcpy(out + o + 6, &rsize, 2);
		if (v2)
			st64(out + o + 8, ob.pos);
		memset(out + o + rec, 0, padded - rec);
		o += padded;
	}
	ZSTD_freeCCtx(cctx);
	int64_t delta = (int64_t)(o - (size_t)doff) - (int64_t)dsize;
	size_t tail = size - (size_t)(doff + dsize);
	memcpy(out + o, in + doff + dsize, tail);
	st64(out + 48, o - (size_t)doff);
	/* The feature index (one section per set bit) follows the data. */
	unsigned nfeat = 0;
	for (int i = 0; i < 4; i++)
		nfeat += (unsigned)__builtin_popcountll(ld64(in + 72 + 8 * i));
	for (unsigned i = 0; i < nfeat && (size_t)i * 16 + 16 <= tail; i++) {
		uint8_t *e = out + o + (size_t)i * 16;
		uint64_t off = ld64(e);

		if (off >= doff + dsize)
			st64(e, off + (uint64_t)delta);
	}
	*len = o + tail;
	return out;
}
#endif

/* Compressed records: the input as it is (compressed recordings), and
 * its data section compressed here, so that mutations of plain records
 * reach the inflater and the records split across compressed records. */
static int fuzz_compressed(const uint8_t *data, size_t size)
{
	records_at(input_file(data, size), RP_ORDER_TIME, 0);
#ifdef RP_HAVE_ZSTD
	size_t len;
	uint8_t *z = compress_data(data, size, &len);

	if (z) {
		records_at(input_file(z, len), RP_ORDER_TIME, 0);
		free(z);
	}
#endif
	return 0;
}

/* The byte-swapped path: big-endian seeds, read in file and time order. */
static int fuzz_swapped(const uint8_t *data, size_t size)
{
	const char *path = input_file(data, size);

	records_at(path, RP_ORDER_FILE, 0);
	records_at(path, RP_ORDER_TIME, 0);
	return 0;
}

/* The pieces of a command: session, machine, symbols that find nothing on
 * this machine (a fuzz input must not make the target read /proc/kallsyms
 * or the build-id cache). */
struct pipeline {
	struct rp_session *s;
	struct rp_machine *m;
	struct rp_symbols *sym;
};

static int pipeline_open(struct pipeline *p, const uint8_t *data, size_t size,
			 enum rp_order order, int with_symbols)
{
	struct rp_session_opts opts = { .sz = sizeof(opts), .order = order };

	memset(p, 0, sizeof(*p));
	if (rp_session_open(&p->s, input_file(data, size), &opts, NULL) < 0)
		return -1;
	if (rp_machine_new(&p->m, p->s) < 0) {
		rp_session_close(p->s);
		return -1;
	}
	if (with_symbols) {
		struct rp_symbols_opts so = {
			.sz = sizeof(so),
			.buildid_dir = "/nonexistent/rp-fuzz",
			.kallsyms = "/nonexistent/rp-fuzz/kallsyms",
			.symfs = "/nonexistent/rp-fuzz",
		};

		if (rp_symbols_new(&p->sym, p->s, &so) < 0) {
			rp_machine_free(p->m);
			rp_session_close(p->s);
			return -1;
		}
	}
	return 0;
}

static void pipeline_close(struct pipeline *p)
{
	rp_symbols_free(p->sym);
	rp_machine_free(p->m);
	rp_session_close(p->s);
}

static int fuzz_report(const uint8_t *data, size_t size)
{
	struct pipeline p;
	struct rp_report_opts opts = { .sz = sizeof(opts) };
	struct rp_report *r;

	if (pipeline_open(&p, data, size, RP_ORDER_TIME, 1) < 0)
		return 0;
	if (rp_stat_file_is(p.s)) {
		rp_stat_report_write(p.s, devnull());
		pipeline_close(&p);
		return 0;
	}
	/* Both views, chosen by the input: --children and the default. */
	opts.children = size & 1;
	if (rp_report_new(&r, p.s, &opts) == 0) {
		struct rp_consumer c = rp_report_consumer(r);

		rp_process(p.s, p.m, p.sym, &c, 1);
		rp_report_write(r, devnull());
		rp_report_free(r);
	}
	pipeline_close(&p);
	return 0;
}

/*
 * perf's filters on the pipeline: the session's own SAMPLE_TIME and NRCPUS
 * place the --time percentages and bound --cpu; the input's last bytes
 * are also a --time string for the parser alone.
 */
static int fuzz_filter(const uint8_t *data, size_t size)
{
	char text[65];
	size_t n = size < 64 ? size : 64;
	struct rp_time_range ranges[8];
	size_t nr;

	memcpy(text, data + size - n, n);
	text[n] = 0;
	rp_time_ranges_parse(text, 1000, 2000, ranges, 8, &nr);
	rp_time_ranges_parse(text, 0, 0, ranges, 8, &nr);

	struct pipeline p;
	struct rp_filter_opts o = {
		.sz = sizeof(o),
		.comms = "workload,perf",
		.pids = "1,2",
		.dsos = "[kernel.kallsyms],libc.so.6",
		.symbols = "main,0x1000",
		.cpus = "0-3",
		.time = (size & 2) ? "10%/2,10%/4" : "0.5,1 2,",
	};
	struct rp_report_opts ro = { .sz = sizeof(ro), .children = size & 1 };
	struct rp_filter *f = NULL;
	struct rp_report *r;

	if (pipeline_open(&p, data, size, RP_ORDER_TIME, 1) < 0)
		return 0;
	if (rp_filter_new(&f, p.s, &o, NULL) < 0) {
		/* No CPUs, no SAMPLE_TIME: without those two. */
		o.cpus = NULL;
		o.time = "0.5,1 2,";
		if (rp_filter_new(&f, p.s, &o, NULL) < 0) {
			pipeline_close(&p);
			return 0;
		}
	}
	if (rp_report_new(&r, p.s, &ro) == 0) {
		struct rp_consumer c = rp_report_consumer(r);
		struct rp_process_opts po = { .sz = sizeof(po), .filter = f };

		rp_report_set_filter(r, f);
		rp_process_ext(p.s, p.m, p.sym, &c, 1, &po);
		rp_report_write(r, devnull());
		rp_report_free(r);
	}
	rp_filter_free(f);
	pipeline_close(&p);
	return 0;
}

static int fuzz_csv(const uint8_t *data, size_t size)
{
	struct pipeline p;
	struct rp_csv *csv;

	if (pipeline_open(&p, data, size, RP_ORDER_TIME, 1) < 0)
		return 0;
	if (rp_csv_new(&csv, csv_dir(), p.s, p.sym) == 0) {
		struct rp_consumer c = rp_csv_consumer(csv);

		rp_process(p.s, p.m, p.sym, &c, 1);
		rp_csv_finish(csv);
		rp_csv_free(csv);
	}
	pipeline_close(&p);
	return 0;
}

static int fuzz_dump(const uint8_t *data, size_t size)
{
	struct pipeline p;
	struct rp_dump_opts opts = { .sz = sizeof(opts), .label = "fuzz" };
	struct rp_dump *d;

	if (pipeline_open(&p, data, size, RP_ORDER_TIME, 0) < 0)
		return 0;
	if (rp_dump_new(&d, devnull(), p.s, &opts) == 0) {
		struct rp_consumer c = rp_dump_consumer(d);

		rp_process(p.s, p.m, NULL, &c, 1);
		rp_dump_finish(d);
		rp_dump_free(d);
	}
	pipeline_close(&p);
	return 0;
}

static int fuzz_stats(const uint8_t *data, size_t size)
{
	struct rp_session_opts opts = { .sz = sizeof(opts), .order = RP_ORDER_FILE };
	struct rp_session *s;
	struct rp_stats *st;
	const struct rp_event *ev;

	if (rp_session_open(&s, input_file(data, size), &opts, NULL) < 0)
		return 0;
	if (rp_stats_new(&st, s) == 0) {
		while (rp_session_next(s, &ev) > 0)
			rp_stats_count(st, ev);
		rp_stats_write(st, devnull());
		rp_stats_free(st);
	}
	rp_session_close(s);
	return 0;
}

static int fuzz_header(const uint8_t *data, size_t size)
{
	struct rp_session *s;
	struct rp_features *f;

	if (rp_session_open(&s, input_file(data, size), NULL, NULL) < 0)
		return 0;
	if (rp_features_read(&f, s, NULL) == 0) {
		struct rp_header_print_opts po = {
			.sz = sizeof(po),
			.full = 1,
			.is_pipe = rp_session_is_pipe(s),
		};

		rp_header_fprintf(devnull(), s, f, &po);
		rp_features_free(f);
	}
	rp_session_close(s);
	return 0;
}

static int fuzz_script(const uint8_t *data, size_t size)
{
	struct pipeline p;
	struct rp_script_opts opts = { .sz = sizeof(opts) };
	struct rp_script *sc;
	char err[256];

	opts.show = RP_SCRIPT_SHOW_TASK | RP_SCRIPT_SHOW_MMAP | RP_SCRIPT_SHOW_SWITCH |
		    RP_SCRIPT_SHOW_NAMESPACE | RP_SCRIPT_SHOW_CGROUP | RP_SCRIPT_SHOW_LOST |
		    RP_SCRIPT_SHOW_BPF | RP_SCRIPT_SHOW_TEXT_POKE;
	opts.nanosecs = size & 1;
	/* --show-round-events: the records in file order, as perf */
	if (size & 2)
		opts.show |= RP_SCRIPT_SHOW_ROUND;
	if (pipeline_open(&p, data, size, (size & 2) ? RP_ORDER_FILE : RP_ORDER_TIME, 0) < 0)
		return 0;
	if (rp_script_new(&sc, devnull(), p.s, &opts, err, sizeof(err)) == 0) {
		struct rp_consumer c = rp_script_consumer(sc);

		rp_script_set_machine(sc, p.m);
		rp_process(p.s, p.m, NULL, &c, 1);
		rp_script_free(sc);
	}
	pipeline_close(&p);
	return 0;
}

static int fuzz_collapse(const uint8_t *data, size_t size)
{
	struct pipeline p;
	struct rp_collapse_opts opts = {
		.sz = sizeof(opts),
		.include_pid = size & 1,
		.annotate_kernel = 1,
		.annotate_jit = 1,
	};
	struct rp_collapse *col;

	if (pipeline_open(&p, data, size, RP_ORDER_TIME, 0) < 0)
		return 0;
	if (rp_collapse_new(&col, &opts) == 0) {
		struct rp_consumer c = rp_collapse_consumer(col);
		const char *const *stacks;
		const uint64_t *counts;

		rp_process(p.s, p.m, NULL, &c, 1);
		rp_collapse_write(col, devnull());
		/* merged into a copy of itself: every stack twice */
		struct rp_collapse *twice;
		if (rp_collapse_new(&twice, &opts) == 0) {
			if (rp_collapse_merge(twice, col) == 0)
				rp_collapse_merge(twice, col);
			rp_collapse_write(twice, devnull());
			rp_collapse_free(twice);
		}
		long n = rp_collapse_stacks(col, &stacks, &counts);
		if (n > 0) {
			struct rp_flamegraph_opts fo = { .sz = sizeof(fo), .has_comm = 1 };

			rp_flamegraph_write(devnull(), stacks, counts, (size_t)n, &fo);
		}
		rp_collapse_free(col);
	}
	pipeline_close(&p);
	return 0;
}

static int fuzz_json(const uint8_t *data, size_t size)
{
	struct pipeline p;
	struct rp_json_opts opts = { .sz = sizeof(opts), .captured_on = -1 };
	struct rp_json *j;

	if (pipeline_open(&p, data, size, RP_ORDER_TIME, 1) < 0)
		return 0;
	/* the writer looks the recorded callchain entries up itself */
	opts.machine = p.m;
	opts.symbols = p.sym;
	if (rp_json_new(&j, devnull(), p.s, &opts) == 0) {
		struct rp_consumer c = rp_json_consumer(j);

		rp_process(p.s, p.m, p.sym, &c, 1);
		rp_json_finish(j);
		rp_json_free(j);
	}
	pipeline_close(&p);
	return 0;
}

static int fuzz_pprof(const uint8_t *data, size_t size)
{
	struct pipeline p;
	struct rp_pprof *pp;

	if (pipeline_open(&p, data, size, RP_ORDER_TIME, 0) < 0)
		return 0;
	if (rp_pprof_new(&pp, p.s) == 0) {
		/* a second profile of the same records, without tids, merged in */
		struct rp_pprof_opts o = { .sz = sizeof(o), .no_labels = RP_PPROF_LABEL_TID };
		struct rp_pprof *pp2 = NULL;
		struct rp_consumer c[2] = { rp_pprof_consumer(pp) };
		size_t nc = 1;

		if (rp_pprof_new_ext(&pp2, p.s, &o) == 0)
			c[nc++] = rp_pprof_consumer(pp2);
		rp_process(p.s, p.m, NULL, c, nc);
		if (pp2)
			rp_pprof_merge(pp, pp2);
		rp_pprof_free(pp2);
		rp_pprof_write(pp, devnull());
		rp_pprof_free(pp);
	}
	pipeline_close(&p);
	return 0;
}

/* ---- unwind: an ELF image and a --call-graph dwarf sample ------------- */

/*
 * Input (little-endian):
 *   u32 elf_size, the ELF image (elf_size bytes, cut at the input's end);
 *   struct unwind_ctl (zeros past the input's end);
 *   the user stack bytes (the rest, at most RP_FUZZ_UNWIND_STACK).
 * The image goes into a memfd of its own; a perf.data made here maps it
 * executable (MMAP2, /proc/self/fd/N) at ctl.start/pgoff/len (page
 * aligned, bounded) in one process, then holds 1..4 samples with
 * IP|TID|TIME|CALLCHAIN|REGS_USER|STACK_USER whose user registers
 * (x86-64, perf's mask 0xff0fff) and stack are the input's: sample k has
 * ip + k * ip_step and starts k * 8 bytes further up the stack.  The
 * pipeline runs with symbols read from the image (symbol tables, CFI,
 * DWARF inline chains and source lines): a consumer that asks for
 * callchains and reads every frame, the report sorted by srcline and the
 * pprof profile with source lines.
 */
#define RP_FUZZ_UNWIND_REGS 20
#define RP_FUZZ_UNWIND_MASK 0xff0fffull
#define RP_FUZZ_UNWIND_STACK 16384u
#define RP_FUZZ_UNWIND_PID 4242u

struct unwind_ctl {
	uint64_t start, pgoff, len;
	/* bits 0-1: samples - 1; bit 2: a kernel callchain part; bit 3: a
	 * second map of the image after the first; bit 4: the first map
	 * again, another pgoff, after the first sample */
	uint32_t flags;
	uint32_t ip_step;
	uint64_t regs[RP_FUZZ_UNWIND_REGS]; /* perf order: AX..SS, R8..R15 */
};

static int elf_memfd = -1;
static char elf_memfd_path[64];

/* The image in its own memfd; returns its path. */
static const char *elf_file(const uint8_t *data, size_t size)
{
	if (elf_memfd < 0) {
		elf_memfd = memfd_create("rp-fuzz-elf", MFD_CLOEXEC);
		if (elf_memfd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(elf_memfd_path, sizeof(elf_memfd_path), "/proc/self/fd/%d", elf_memfd);
		/* libdwfl must not ask a debuginfod server for the image's
		 * build-id. */
		unsetenv("DEBUGINFOD_URLS");
	}
	if (ftruncate(elf_memfd, 0) < 0)
		abort();
	size_t done = 0;
	while (done < size) {
		ssize_t n = pwrite(elf_memfd, data + done, size - done, (off_t)done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	return elf_memfd_path;
}

/* An MMAP2 record of path, executable, in the target's process. */
static void unwind_mmap2(struct tb_buf *b, const struct rp_attr *attr, const char *path,
			 uint64_t start, uint64_t len, uint64_t pgoff, uint64_t time)
{
	struct tb_sample sid = { .pid = RP_FUZZ_UNWIND_PID, .tid = RP_FUZZ_UNWIND_PID,
				 .time = time };
	size_t r = tb_rec_begin(b, RP_RECORD_MMAP2, RP_MISC_USER);

	tb_u32(b, RP_FUZZ_UNWIND_PID);
	tb_u32(b, RP_FUZZ_UNWIND_PID);
	tb_u64(b, start);
	tb_u64(b, len);
	tb_u64(b, pgoff);
	tb_u32(b, 8);    /* maj */
	tb_u32(b, 1);    /* min */
	tb_u64(b, 4242); /* ino */
	tb_u64(b, 0);    /* ino_generation */
	tb_u32(b, 5);    /* PROT_READ | PROT_EXEC */
	tb_u32(b, 2);    /* MAP_PRIVATE */
	tb_str(b, path, 8);
	tb_sample_id(b, attr, &sid);
	tb_rec_end(b, r);
}

/* The perf.data bytes of the input into out (tb_file_build's buffer). */
static void unwind_build(const uint8_t *data, size_t size, size_t elf_size,
			 const char *elf_path, struct tb_buf *out)
{
	struct unwind_ctl ctl;
	size_t at = 4 + elf_size;
	size_t nctl = size - at < sizeof(ctl) ? size - at : sizeof(ctl);

	memset(&ctl, 0, sizeof(ctl));
	memcpy(&ctl, data + at, nctl);
	at += nctl;
	const uint8_t *stack = data + at;
	size_t stack_size = size - at;

	if (stack_size > RP_FUZZ_UNWIND_STACK)
		stack_size = RP_FUZZ_UNWIND_STACK;

	/* The map: page aligned, below the top of a 47-bit user space. */
	uint64_t start = ctl.start & 0x7ffffffff000ull;
	uint64_t pgoff = ctl.pgoff & 0xfffff000ull;
	uint64_t len = ctl.len & 0xfffffffffull;
	if (!len)
		len = ((uint64_t)elf_size + 0xfff) & ~0xfffull;
	if (!len)
		len = 0x1000;
	if (len > 0x800000000000ull - start)
		len = 0x800000000000ull - start;

	struct tb_file f;
	struct rp_attr attr = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					      RP_SAMPLE_CALLCHAIN | RP_SAMPLE_REGS_USER |
					      RP_SAMPLE_STACK_USER);

	attr.sample_regs_user = RP_FUZZ_UNWIND_MASK;
	attr.sample_stack_user = RP_FUZZ_UNWIND_STACK;
	attr.flags |= RP_ATTR_EXCLUDE_CALLCHAIN_USER;
	tb_file_init(&f, 0);
	uint64_t id = 1;
	tb_file_attr(&f, &attr, &id, 1);

	unwind_mmap2(&f.data, &attr, elf_path, start, len, pgoff, 1);
	/* A second map of the image after the first: two modules of one file. */
	if ((ctl.flags & 8) && len <= 0x800000000000ull - start - len)
		unwind_mmap2(&f.data, &attr, elf_path, start + len, len, 0, 1);

	unsigned nr = (ctl.flags & 3) + 1;
	for (unsigned k = 0; k < nr; k++) {
		uint64_t regs[RP_FUZZ_UNWIND_REGS];
		uint8_t sbuf[RP_FUZZ_UNWIND_STACK];
		size_t skip = (size_t)k * 8 < stack_size ? (size_t)k * 8 : stack_size;
		size_t n = stack_size - skip;
		size_t padded = (n + 7) & ~(size_t)7;
		/* A kernel part as perf records it before the user context. */
		const uint64_t kchain[3] = { RP_CONTEXT_KERNEL, 0xffffffff81000000ull + k,
					     RP_CONTEXT_USER };

		memcpy(regs, ctl.regs, sizeof(regs));
		regs[8] += (uint64_t)k * ctl.ip_step; /* IP */
		regs[7] += (uint64_t)skip;            /* SP */
		memset(sbuf, 0, sizeof(sbuf));
		memcpy(sbuf, stack + skip, n);
		struct tb_sample s = {
			.ip = regs[8],
			.pid = RP_FUZZ_UNWIND_PID,
			.tid = RP_FUZZ_UNWIND_PID,
			.time = 10 + 10 * (uint64_t)k,
			.callchain_nr = (ctl.flags & 4) ? 3 : 0,
			.callchain = kchain,
			.regs_user_abi = 2, /* PERF_SAMPLE_REGS_ABI_64 */
			.regs_user = regs,
			.stack_size = padded,
			.stack = sbuf,
			.stack_dyn_size = n,
		};

		tb_sample(&f.data, &attr, RP_MISC_USER, &s);
		/* The first map again at another offset after the first sample:
		 * the unwinder's module of it goes stale. */
		if (!k && (ctl.flags & 16))
			unwind_mmap2(&f.data, &attr, elf_path, start, len, pgoff + 0x1000, 15);
	}
	tb_file_build(&f, out);
	tb_file_free(&f);
}

/* RP_FUZZ_UNWIND_PRINT set: each sample's frames on stderr (make_unwind_seeds.sh
 * checks its seeds with it). */
static void unwind_print(const struct rp_frame *f)
{
	fprintf(stderr, "  %#" PRIx64 " %s%s %s:%u\n", f->al.ip,
		f->al.sym && f->al.sym->name ? f->al.sym->name : "??",
		f->al.sym && f->al.sym->inlined ? " (inlined)" : "",
		f->src_file ? f->src_file : "-", f->src_line);
}

static int unwind_frames(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	static int print = -1;
	struct rp_symbols *sym = ctx;

	(void)ev;
	if (!res)
		return 0;
	if (print < 0)
		print = getenv("RP_FUZZ_UNWIND_PRINT") != NULL;
	if (print)
		fprintf(stderr, "sample: %zu frames\n", res->nr_callchain);
	for (size_t i = 0; i < res->nr_callchain; i++) {
		const struct rp_frame *f = &res->callchain[i];
		const char *file;
		uint32_t line;

		if (print)
			unwind_print(f);

		rp_fuzz_sink += f->al.ip + f->al.addr + f->src_line + f->inlined_into_next;
		touch_str(f->src_file);
		if (f->al.dso) {
			touch_str(rp_dso_long_name(f->al.dso));
			if (rp_symbols_srcline(sym, f->al.dso, f->al.addr, &file, &line) > 0)
				touch_str(file), rp_fuzz_sink += line;
		}
		if (f->al.sym) {
			touch_str(f->al.sym->name);
			rp_fuzz_sink += f->al.sym->start ^ f->al.sym->end;
			touch_str(rp_symbols_source_file(sym, f->al.dso, f->al.sym));
		}
	}
	return 0;
}

/* The unwinder's fast walker against libdwfl's walk, each on an
 * unwinder of its own: the same frames, or abort. */
struct unwind_diff {
	struct rp_unwinder *fast, *slow;
	uint64_t a[RP_UNWIND_MAX_STACK], b[RP_UNWIND_MAX_STACK];
};

static int unwind_compare(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct unwind_diff *d = ctx;

	if (ev->type != RP_RECORD_SAMPLE || !res || !res->thread || !d->fast || !d->slow ||
	    !rp_unwind_applies(&ev->u.sample))
		return 0;
	struct rp_thread *t = res->thread;
	size_t na = rp_unwind_user(d->fast, t->maps, t->pid, t->tid, &ev->u.sample, d->a,
				   RP_UNWIND_MAX_STACK);
	size_t nb = rp_unwind_user(d->slow, t->maps, t->pid, t->tid, &ev->u.sample, d->b,
				   RP_UNWIND_MAX_STACK);

	if (na != nb || memcmp(d->a, d->b, na * sizeof(*d->a)) != 0) {
		fprintf(stderr, "unwind: the fast walker found %zu frames, libdwfl %zu\n", na, nb);
		for (size_t i = 0; i < na || i < nb; i++)
			fprintf(stderr, "  %#" PRIx64 " %#" PRIx64 "\n", i < na ? d->a[i] : 0,
				i < nb ? d->b[i] : 0);
		abort();
	}
	return 0;
}

static int fuzz_unwind(const uint8_t *data, size_t size)
{
	static struct unwind_diff diff;
	struct tb_buf file;
	uint32_t elf_size;

	if (size < 4)
		return 0;
	memcpy(&elf_size, data, 4);
	if (elf_size > size - 4)
		elf_size = (uint32_t)(size - 4);
	unwind_build(data, size, elf_size, elf_file(data + 4, elf_size), &file);

	struct rp_session *s;
	struct rp_machine *m;
	struct rp_symbols *sym;
	struct rp_symbols_opts so = {
		.sz = sizeof(so),
		.buildid_dir = "/nonexistent/rp-fuzz",
		.kallsyms = "/nonexistent/rp-fuzz/kallsyms",
	};
	struct rp_session_opts opts = { .sz = sizeof(opts), .order = RP_ORDER_TIME };

	if (rp_session_open(&s, input_file(file.data, file.len), &opts, NULL) < 0) {
		tb_free(&file);
		return 0;
	}
	tb_free(&file);
	if (rp_machine_new(&m, s) < 0) {
		rp_session_close(s);
		return 0;
	}
	if (rp_symbols_new(&sym, s, &so) < 0) {
		rp_machine_free(m);
		rp_session_close(s);
		return 0;
	}
	struct rp_report_opts ro = { .sz = sizeof(ro), .symbols = sym, .children = size & 1 };
	struct rp_report *r = NULL;
	struct rp_pprof *pp = NULL;
	struct rp_consumer c[4];
	size_t nc = 0;

	diff.fast = diff.slow = NULL;
	if (rp_unwinder_new(&diff.fast, m, sym) == 0 && rp_unwinder_new(&diff.slow, m, sym) == 0)
		rp_unwinder_set_mode(diff.slow, RP_UNWIND_LIBDWFL);
	c[nc++] = (struct rp_consumer){ &diff, unwind_compare, 0 };
	rp_report_parse_sort(&ro, (size & 2) ? "sym,srcline" : "srcline,srcfile");
	rp_report_parse_call_graph(&ro, "graph,0.0,caller");
	c[nc++] = (struct rp_consumer){ sym, unwind_frames, RP_CONSUMER_CALLCHAIN };
	if (rp_report_new(&r, s, &ro) == 0)
		c[nc++] = rp_report_consumer(r);
	if (rp_pprof_new(&pp, s) == 0) {
		rp_pprof_set_symbols(pp, sym);
		c[nc++] = rp_pprof_consumer(pp);
	}
	rp_process_mt(s, m, sym, c, nc, 1);
	if (r) {
		rp_report_write(r, devnull());
		rp_report_free(r);
	}
	if (pp) {
		rp_pprof_write(pp, devnull());
		rp_pprof_free(pp);
	}
	rp_unwinder_free(diff.fast);
	rp_unwinder_free(diff.slow);
	rp_symbols_free(sym);
	rp_machine_free(m);
	rp_session_close(s);
	return 0;
}

const struct rp_fuzz_target rp_fuzz_targets[] = {
	{ "open", fuzz_open },
	{ "records", fuzz_records },
	{ "pipe", fuzz_pipe },
	{ "compressed", fuzz_compressed },
	{ "swapped", fuzz_swapped },
	{ "report", fuzz_report },
	{ "csv", fuzz_csv },
	{ "dump", fuzz_dump },
	{ "stats", fuzz_stats },
	{ "header", fuzz_header },
	{ "script", fuzz_script },
	{ "collapse", fuzz_collapse },
	{ "json", fuzz_json },
	{ "pprof", fuzz_pprof },
	{ "filter", fuzz_filter },
	{ "unwind", fuzz_unwind },
	{ NULL, NULL },
};

const struct rp_fuzz_target *rp_fuzz_find(const char *name)
{
	for (const struct rp_fuzz_target *t = rp_fuzz_targets; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}
