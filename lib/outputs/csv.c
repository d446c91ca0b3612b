/* SPDX-License-Identifier: MIT */
/*
 * The four CSV files of the 2011 readperf (DESIGN.md, "The four CSV
 * files"; docs/csv.md describes every column).
 *
 * overview.csv is written as records stream through the consumer; the
 * counts behind stat.csv, processes.csv and results.csv are kept in memory
 * (one entry per record type, per process, per function) and written by
 * rp_csv_finish().  Fields are quoted as RFC 4180 requires.
 */
#include <readperf/csv.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <readperf/error.h>

#include "common/arena.h"
#include "common/array.h"
#include "common/hashmap.h"
#include "common/strpool.h"
#include "common/error_int.h"
#include "outputs/output_int.h"

/* Bytes of stdio buffer per output file. */
#define RP_CSV_BUFSIZE (1u << 20)
/* Processes and functions a file can make the CSV output track. */
#define RP_CSV_MAX_PROCESSES (16u << 20)
#define RP_CSV_MAX_FUNCTIONS (64u << 20)
/* Longest path of an output file, in bytes. */
#define RP_CSV_PATH_MAX 4096
/* Digits of an unresolved address, as perf prints it (BITS_PER_LONG / 4). */
#define RP_CSV_ADDR_DIGITS 16

struct rp_csv_process {
	int32_t pid;
	const char *name; /* interned; NULL: never named */
	uint64_t mmaps;
	uint64_t fork_time, exit_time;
	uint8_t has_fork, has_exit;
	uint64_t samples, period;
};

struct rp_csv_function {
	struct rp_csv_function *next; /* hash chain */
	uint64_t hash;
	const char *dso_name;    /* interned; NULL: no map */
	const char *sym_name;    /* interned; NULL: unresolved */
	uint64_t start, end, ip; /* symbol range, or the unresolved address */
	const char *source_file; /* interned; NULL: unknown */
	uint64_t samples, period;
};

enum rp_csv_file { RP_CSV_STAT, RP_CSV_OVERVIEW, RP_CSV_PROCESSES, RP_CSV_RESULTS, RP_CSV_NR };

static const char *const rp_csv_names[RP_CSV_NR] = {
	"stat.csv", "overview.csv", "processes.csv", "results.csv",
};

struct rp_csv {
	const struct rp_session *session;
	uint64_t type_count[RP_RECORD_MAX]; /* records delivered, by type */
	struct rp_symbols *symbols;
	FILE *f[RP_CSV_NR];
	char *buf[RP_CSV_NR];
	struct rp_hashmap proc_map; /* pid -> struct rp_csv_process */
	struct rp_csv_process **procs;
	size_t nr_procs, procs_alloc;
	struct rp_hashmap func_map; /* hash -> first struct rp_csv_function */
	struct rp_csv_function **funcs;
	size_t nr_funcs, funcs_alloc;
	struct rp_hashmap dso_names; /* struct rp_dso * -> interned short name */
	struct rp_arena arena;
	struct rp_strpool pool;
	int error; /* first error met while streaming */
};

/* ---- RFC 4180 fields ---------------------------------------------------- */

/* Writes s as one field, quoted when it holds a comma, quote, CR or LF. */
static void rp_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

/* ---- lifecycle ---------------------------------------------------------- */

static void rp_csv_close_files(struct rp_csv *csv, int *rc)
{
	for (int i = 0; i < RP_CSV_NR; i++) {
		if (!csv->f[i])
			continue;
		if (ferror(csv->f[i]) && rc && !*rc)
			*rc = RP_ERR_IO;
		if (fclose(csv->f[i]) != 0 && rc && !*rc)
			*rc = RP_ERR_IO;
		csv->f[i] = NULL;
		free(csv->buf[i]);
		csv->buf[i] = NULL;
	}
}

void rp_csv_free(struct rp_csv *csv)
{
	if (!csv)
		return;
	rp_csv_close_files(csv, NULL);
	rp_hashmap_release(&csv->proc_map);
	rp_hashmap_release(&csv->func_map);
	rp_hashmap_release(&csv->dso_names);
	free(csv->procs);
	free(csv->funcs);
	rp_strpool_release(&csv->pool);
	rp_arena_release(&csv->arena);
	free(csv);
}

int rp_csv_new(struct rp_csv **out, const char *dir, const struct rp_session *session,
	       struct rp_symbols *symbols)
{
	struct rp_csv *csv;

	if (!out)
		return RP_ERR_INVAL;
	*out = NULL;
	if (!dir || !*dir)
		dir = ".";
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return RP_ERR_IO;
	csv = calloc(1, sizeof(*csv));
	if (!csv)
		return RP_ERR_NOMEM;
	csv->session = session;
	csv->symbols = symbols;
	for (int i = 0; i < RP_CSV_NR; i++) {
		char path[RP_CSV_PATH_MAX];
		int n = snprintf(path, sizeof(path), "%s/%s", dir, rp_csv_names[i]);

		if (n < 0 || (size_t)n >= sizeof(path)) {
			rp_csv_free(csv);
			errno = ENAMETOOLONG;
			return RP_ERR_IO;
		}
		csv->f[i] = fopen(path, "w");
		if (!csv->f[i]) {
			int e = errno;

			rp_csv_free(csv);
			errno = e;
			return RP_ERR_IO;
		}
		csv->buf[i] = malloc(RP_CSV_BUFSIZE);
		if (!csv->buf[i]) {
			rp_csv_free(csv);
			return RP_ERR_NOMEM;
		}
		setvbuf(csv->f[i], csv->buf[i], _IOFBF, RP_CSV_BUFSIZE);
	}
	fputs("nr,type,pid,tid,time,info\n", csv->f[RP_CSV_OVERVIEW]);
	*out = csv;
	return 0;
}

/* ---- per record --------------------------------------------------------- */

static struct rp_csv_process *rp_csv_process(struct rp_csv *csv, int32_t pid)
{
	uint64_t key = (uint32_t)pid;
	struct rp_csv_process *p = rp_hashmap_get(&csv->proc_map, key);

	if (p)
		return p;
	if (csv->nr_procs >= RP_CSV_MAX_PROCESSES) {
		csv->error = RP_ERR_LIMIT;
		return NULL;
	}
	if (RP_ARRAY_RESERVE(csv->procs, csv->procs_alloc, csv->nr_procs + 1) < 0)
		goto nomem;
	p = rp_arena_alloc(&csv->arena, sizeof(*p));
	if (!p)
		goto nomem;
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	if (rp_hashmap_put(&csv->proc_map, key, p) < 0)
		goto nomem;
	csv->procs[csv->nr_procs++] = p;
	return p;
nomem:
	csv->error = RP_ERR_NOMEM;
	return NULL;
}

static const char *rp_csv_dso_name(struct rp_csv *csv, struct rp_dso *dso)
{
	const char *s = rp_hashmap_get(&csv->dso_names, (uint64_t)(uintptr_t)dso);

	if (s)
		return s;
	const char *name = rp_dso_short_name(dso);
	s = rp_strpool_intern_str(&csv->pool, name ? name : "");
	if (!s || rp_hashmap_put(&csv->dso_names, (uint64_t)(uintptr_t)dso, (void *)s) < 0)
		return NULL;
	return s;
}

/* Adds a sample to its function: one per (dso name, symbol) as perf's
 * `--sort dso,sym` merges them, one per address when unresolved. */
static int rp_csv_add_function(struct rp_csv *csv, const struct rp_resolved *res,
			       uint64_t ip, uint64_t period)
{
	struct rp_csv_function key;

	memset(&key, 0, sizeof(key));
	key.ip = ip;
	if (res) {
		const struct rp_addr_location *al = &res->al;

		key.ip = al->map ? al->addr : al->ip;
		if (al->dso) {
			key.dso_name = rp_csv_dso_name(csv, al->dso);
			if (!key.dso_name)
				return RP_ERR_NOMEM;
		}
		if (al->sym) {
			key.sym_name = al->sym->name ? al->sym->name : "";
			key.start = al->sym->start;
			key.end = al->sym->end;
		}
	}
	key.hash = rp_hash64((uint64_t)(uintptr_t)key.dso_name ^
			     rp_hash64(key.sym_name ? key.start ^ rp_hash64(key.end) : ~key.ip));

	struct rp_csv_function *first = rp_hashmap_get(&csv->func_map, key.hash), *f;
	for (f = first; f; f = f->next) {
		if (f->hash != key.hash || f->dso_name != key.dso_name ||
		    !f->sym_name != !key.sym_name)
			continue;
		if (key.sym_name ? f->start == key.start && f->end == key.end : f->ip == key.ip)
			break;
	}
	if (!f) {
		if (csv->nr_funcs >= RP_CSV_MAX_FUNCTIONS)
			return RP_ERR_LIMIT;
		if (RP_ARRAY_RESERVE(csv->funcs, csv->funcs_alloc, csv->nr_funcs + 1) < 0)
			return RP_ERR_NOMEM;
		f = rp_arena_alloc(&csv->arena, sizeof(*f));
		if (!f)
			return RP_ERR_NOMEM;
		*f = key;
		if (key.sym_name) {
			f->sym_name = rp_strpool_intern_str(&csv->pool, key.sym_name);
			if (!f->sym_name)
				return RP_ERR_NOMEM;
			const char *src = csv->symbols && res->al.dso
						  ? rp_symbols_source_file(csv->symbols,
									   res->al.dso, res->al.sym)
						  : NULL;
			if (src) {
				f->source_file = rp_strpool_intern_str(&csv->pool, src);
				if (!f->source_file)
					return RP_ERR_NOMEM;
			}
		}
		f->next = first;
		if (rp_hashmap_put(&csv->func_map, key.hash, f) < 0)
			return RP_ERR_NOMEM;
		csv->funcs[csv->nr_funcs++] = f;
	}
	f->samples++;
	f->period += period;
	return 0;
}

/* The pid and tid a record names, when it names them. */
static int rp_csv_pid_tid(const struct rp_event *ev, uint32_t *pid, uint32_t *tid)
{
	switch (ev->type) {
	case RP_RECORD_SAMPLE:
		if (!(ev->u.sample.sample_type & RP_SAMPLE_TID))
			return 0;
		*pid = ev->u.sample.pid;
		*tid = ev->u.sample.tid;
		return 1;
	case RP_RECORD_MMAP:
	case RP_RECORD_MMAP2:
		*pid = ev->u.mmap.pid;
		*tid = ev->u.mmap.tid;
		return 1;
	case RP_RECORD_COMM:
		*pid = ev->u.comm.pid;
		*tid = ev->u.comm.tid;
		return 1;
	case RP_RECORD_FORK:
	case RP_RECORD_EXIT:
		*pid = ev->u.task.pid;
		*tid = ev->u.task.tid;
		return 1;
	default:
		if (!(ev->sid.present & RP_SAMPLE_TID))
			return 0;
		*pid = ev->sid.pid;
		*tid = ev->sid.tid;
		return 1;
	}
}

/* The time of a record (ns), when it has one. */
static int rp_csv_time(const struct rp_event *ev, uint64_t *time)
{
	switch (ev->type) {
	case RP_RECORD_SAMPLE:
		if (!(ev->u.sample.sample_type & RP_SAMPLE_TIME))
			return 0;
		*time = ev->u.sample.time;
		return 1;
	case RP_RECORD_FORK:
	case RP_RECORD_EXIT:
		/* Both records carry their own time field. */
		*time = ev->u.task.time;
		return 1;
	default:
		if (!(ev->sid.present & RP_SAMPLE_TIME))
			return 0;
		*time = ev->sid.time;
		return 1;
	}
}

static void rp_csv_type_name(uint32_t type, char *buf, size_t size)
{
	const char *name = rp_record_type_name(type);

	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "UNKNOWN(%" PRIu32 ")", type);
}

static void rp_csv_overview(struct rp_csv *csv, const struct rp_event *ev)
{
	FILE *f = csv->f[RP_CSV_OVERVIEW];
	char name[32];
	uint32_t pid, tid;
	uint64_t time;

	rp_csv_type_name(ev->type, name, sizeof(name));
	fprintf(f, "%" PRIu64 ",%s,", ev->nr, name);
	if (rp_csv_pid_tid(ev, &pid, &tid))
		fprintf(f, "%" PRId32 ",%" PRId32 ",", (int32_t)pid, (int32_t)tid);
	else
		fputs(",,", f);
	if (rp_csv_time(ev, &time))
		fprintf(f, "%" PRIu64, time);
	putc(',', f);
	switch (ev->type) {
	case RP_RECORD_MMAP:
	case RP_RECORD_MMAP2: {
		const struct rp_mmap_event *m = &ev->u.mmap;
		char tail[96];
		const char *fname = m->filename ? m->filename : "";

		snprintf(tail, sizeof(tail), " 0x%" PRIx64 " %" PRIu64 " 0x%" PRIx64, m->start,
			 m->len, m->pgoff);
		/* One field "filename address size pgoff", quoted as a whole
		 * when the file name needs it. */
		if (fname[strcspn(fname, ",\"\r\n")]) {
			putc('"', f);
			for (const char *s = fname; *s; s++) {
				if (*s == '"')
					putc('"', f);
				putc(*s, f);
			}
			fputs(tail, f);
			putc('"', f);
		} else {
			fputs(fname, f);
			fputs(tail, f);
		}
		break;
	}
	case RP_RECORD_COMM:
		rp_csv_field(f, ev->u.comm.comm);
		break;
	case RP_RECORD_FORK:
		fprintf(f, "%" PRId32, (int32_t)ev->u.task.ppid);
		break;
	case RP_RECORD_SAMPLE:
		fprintf(f, "0x%" PRIx64 " %" PRIu64, ev->u.sample.ip, ev->u.sample.period);
		break;
	default:
		break;
	}
	putc('\n', f);
}

static int rp_csv_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_csv *csv = ctx;
	struct rp_csv_process *p;
	uint32_t pid, tid;

	if (csv->error)
		return csv->error;
	if (ev->type < RP_RECORD_MAX)
		csv->type_count[ev->type]++;
	rp_csv_overview(csv, ev);

	switch (ev->type) {
	case RP_RECORD_MMAP:
	case RP_RECORD_MMAP2:
		p = rp_csv_process(csv, (int32_t)ev->u.mmap.pid);
		if (p)
			p->mmaps++;
		break;
	case RP_RECORD_COMM:
		p = rp_csv_process(csv, (int32_t)ev->u.comm.pid);
		if (p && ev->u.comm.comm) {
			p->name = rp_strpool_intern_str(&csv->pool, ev->u.comm.comm);
			if (!p->name)
				csv->error = RP_ERR_NOMEM;
		}
		break;
	case RP_RECORD_FORK:
		p = rp_csv_process(csv, (int32_t)ev->u.task.pid);
		/* A new process, not a new thread of the parent. */
		if (p && ev->u.task.pid != ev->u.task.ppid && !p->has_fork) {
			p->fork_time = ev->u.task.time;
			p->has_fork = 1;
		}
		break;
	case RP_RECORD_EXIT:
		p = rp_csv_process(csv, (int32_t)ev->u.task.pid);
		/* The process ends with its main thread. */
		if (p && ev->u.task.pid == ev->u.task.tid) {
			p->exit_time = ev->u.task.time;
			p->has_exit = 1;
		}
		break;
	case RP_RECORD_SAMPLE:
		if (rp_csv_pid_tid(ev, &pid, &tid)) {
			p = rp_csv_process(csv, (int32_t)pid);
			if (p) {
				p->samples++;
				p->period += ev->u.sample.period;
				/* A process seen without COMM is named by its samples. */
				if (!p->name && res && res->comm) {
					p->name = rp_strpool_intern_str(&csv->pool, res->comm);
					if (!p->name)
						csv->error = RP_ERR_NOMEM;
				}
			}
		}
		if (!csv->error) {
			int rc = rp_csv_add_function(csv, res, ev->u.sample.ip,
						     ev->u.sample.period);

			if (rc)
				csv->error = rc;
		}
		break;
	default:
		break;
	}
	if (ferror(csv->f[RP_CSV_OVERVIEW]) && !csv->error)
		csv->error = RP_ERR_IO;
	return csv->error;
}

struct rp_consumer rp_csv_consumer(struct rp_csv *csv)
{
	/* Every record once, as it is in the file (stat.csv counts records,
	 * overview.csv lists them): a leader sample reading its group is one
	 * sample of the leader with its own period, not one per value. */
	struct rp_consumer c = { csv, rp_csv_event, RP_CONSUMER_RECORDS };

	return c;
}

/* ---- finish ------------------------------------------------------------- */

static int rp_csv_proc_order(const void *pa, const void *pb)
{
	const struct rp_csv_process *a = *(const struct rp_csv_process *const *)pa;
	const struct rp_csv_process *b = *(const struct rp_csv_process *const *)pb;

	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static int rp_csv_strcmp0(const char *a, const char *b)
{
	if (!a || !b)
		return (a ? 0 : 1) - (b ? 0 : 1);
	return strcmp(a, b);
}

static int rp_csv_func_order(const void *pa, const void *pb)
{
	const struct rp_csv_function *a = *(const struct rp_csv_function *const *)pa;
	const struct rp_csv_function *b = *(const struct rp_csv_function *const *)pb;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if ((c = rp_csv_strcmp0(a->dso_name, b->dso_name)))
		return c;
	if ((c = rp_csv_strcmp0(a->sym_name, b->sym_name)))
		return c;
	if (a->sym_name)
		return a->start < b->start ? -1 : a->start > b->start ? 1
		     : a->end < b->end ? -1 : a->end > b->end;
	return (int64_t)a->ip < (int64_t)b->ip ? -1 : (int64_t)a->ip > (int64_t)b->ip;
}

/*
 * Counts of the records delivered, plus what the reader met but does not
 * deliver: the COMPRESSED/COMPRESSED2 containers and unknown types.
 */
static void rp_csv_write_stat(struct rp_csv *csv)
{
	const struct rp_session_stats *st = csv->session ? rp_session_stats(csv->session) : NULL;
	FILE *f = csv->f[RP_CSV_STAT];
	char name[32];

	if (st) {
		csv->type_count[RP_RECORD_COMPRESSED] =
			rp_session_nr_records(csv->session, RP_RECORD_COMPRESSED);
		csv->type_count[RP_RECORD_COMPRESSED2] =
			rp_session_nr_records(csv->session, RP_RECORD_COMPRESSED2);
	}
	fputs("type,count\n", f);
	for (uint32_t t = 0; t < RP_RECORD_MAX; t++) {
		if (!csv->type_count[t])
			continue;
		rp_csv_type_name(t, name, sizeof(name));
		fprintf(f, "%s,%" PRIu64 "\n", name, csv->type_count[t]);
	}
	if (st && st->nr_unknown_records)
		fprintf(f, "UNKNOWN,%" PRIu64 "\n", st->nr_unknown_records);
}

static void rp_csv_write_processes(struct rp_csv *csv)
{
	FILE *f = csv->f[RP_CSV_PROCESSES];

	if (csv->nr_procs)
		qsort(csv->procs, csv->nr_procs, sizeof(csv->procs[0]), rp_csv_proc_order);
	fputs("pid,name,mmaps,fork_time,exit_time,samples,period\n", f);
	for (size_t i = 0; i < csv->nr_procs; i++) {
		const struct rp_csv_process *p = csv->procs[i];

		fprintf(f, "%" PRId32 ",", p->pid);
		rp_csv_field(f, p->name);
		fprintf(f, ",%" PRIu64 ",", p->mmaps);
		if (p->has_fork)
			fprintf(f, "%" PRIu64, p->fork_time);
		putc(',', f);
		if (p->has_exit)
			fprintf(f, "%" PRIu64, p->exit_time);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 "\n", p->samples, p->period);
	}
}

static void rp_csv_write_results(struct rp_csv *csv)
{
	FILE *f = csv->f[RP_CSV_RESULTS];

	if (csv->nr_funcs)
		qsort(csv->funcs, csv->nr_funcs, sizeof(csv->funcs[0]), rp_csv_func_order);
	fputs("function,source_file,dso,samples,period\n", f);
	for (size_t i = 0; i < csv->nr_funcs; i++) {
		const struct rp_csv_function *fn = csv->funcs[i];

		if (fn->sym_name) {
			rp_csv_field(f, fn->sym_name);
		} else {
			/* perf's "%#.16llx": zero gets no "0x". */
			fprintf(f, "%#.*" PRIx64, RP_CSV_ADDR_DIGITS, fn->ip);
		}
		putc(',', f);
		rp_csv_field(f, fn->source_file);
		putc(',', f);
		rp_csv_field(f, fn->dso_name ? fn->dso_name : "[unknown]");
		fprintf(f, ",%" PRIu64 ",%" PRIu64 "\n", fn->samples, fn->period);
	}
}

int rp_csv_finish(struct rp_csv *csv)
{
	int rc;

	if (!csv)
		return RP_ERR_INVAL;
	rc = csv->error;
	if (csv->f[RP_CSV_STAT]) {
		rp_csv_write_stat(csv);
		rp_csv_write_processes(csv);
		rp_csv_write_results(csv);
	}
	rp_csv_close_files(csv, &rc);
	return rc;
}

static int rp_csv_output_create(void **state, const struct rp_output_env *env, const void *opts,
				const struct rp_output_target *target, struct rp_error *err)
{
	int ret;

	(void)opts;
	ret = rp_csv_new((struct rp_csv **)state, target->path, env->session, env->symbols);
	if (ret == RP_ERR_IO)
		return rp_error_set(err, ret, "cannot create the CSV files in %s: %s",
				    target->path, strerror(errno));
	return ret < 0 ? rp_error_set(err, ret, "out of memory") : 0;
}

static struct rp_consumer rp_csv_output_consumer(void *state)
{
	return rp_csv_consumer(state);
}

static int rp_csv_output_finish(void *state, struct rp_error *err)
{
	int ret = rp_csv_finish(state);

	return ret < 0 ? rp_error_set(err, ret, "cannot write the CSV files: %s",
				      ret == RP_ERR_IO ? strerror(errno) : rp_strerror(ret))
		       : 0;
}

static void rp_csv_output_destroy(void *state)
{
	rp_csv_free(state);
}

const struct rp_output_def rp_output_csv = {
	.name = "csv",
	.flags = RP_OUTPUT_PATH | RP_OUTPUT_SYMBOLS,
	.create = rp_csv_output_create,
	.consumer = rp_csv_output_consumer,
	.finish = rp_csv_output_finish,
	.destroy = rp_csv_output_destroy,
};
