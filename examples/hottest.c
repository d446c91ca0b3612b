/* SPDX-License-Identifier: MIT */
/*
 * hottest: the N functions of a perf.data file where the most time went,
 * with their samples, using only libreadperf's public API.
 *
 *   hottest FILE [N]        (N defaults to 10)
 *
 * Prints one line per function, hottest first, sorted as `readperf report
 * --sort sym` sorts its rows (by period, the time the samples stand for):
 *
 *    21.43%         9  [.] __sin_fma
 *
 * the share of the samples' period, the samples, and the function as
 * readperf report names it ("[k]" kernel, "[.]" user; an address where no
 * symbol is known).
 *
 * Build against an installed libreadperf:
 *
 *   cc -o hottest hottest.c $(pkg-config --cflags --libs readperf)
 *   cc -o hottest hottest.c $(pkg-config --static --cflags --libs readperf)
 *
 * The steps: open the file (rp_session_open), build the machine (threads,
 * maps) and the symbol resolver, run the pipeline (rp_process) with one
 * consumer that adds each sample to its function's row, sort the rows.
 */
/* strdup() with -std=c11 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/readperf.h>

/* One function: its name as report prints it, its samples and period. */
struct row {
	char *name;
	uint64_t samples, period;
};

/* The rows, in an open-addressing hash table on the name. */
struct table {
	struct row *rows;
	size_t nr, cap; /* cap: a power of two */
	uint64_t total_period;
	int nomem;
};

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int table_grow(struct table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	struct row *rows = calloc(cap, sizeof(*rows));

	if (!rows)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->rows[i].name)
			continue;
		for (j = hash_name(t->rows[i].name) & (cap - 1); rows[j].name; j = (j + 1) & (cap - 1))
			;
		rows[j] = t->rows[i];
	}
	free(t->rows);
	t->rows = rows;
	t->cap = cap;
	return 0;
}

/* The row of name, added when new; NULL when out of memory. */
static struct row *table_row(struct table *t, const char *name)
{
	size_t i;

	if ((t->nr + 1) * 2 > t->cap && table_grow(t) < 0)
		return NULL;
	for (i = hash_name(name) & (t->cap - 1); t->rows[i].name; i = (i + 1) & (t->cap - 1))
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	t->rows[i].name = strdup(name);
	if (!t->rows[i].name)
		return NULL;
	t->nr++;
	return &t->rows[i];
}

/* The consumer: called by rp_process() for every record, in time order. */
static int on_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct table *t = ctx;
	char name[512];
	struct row *row;

	if (ev->type != RP_RECORD_SAMPLE || !res)
		return 0;
	/* As report names a function: its symbol, else its address in its
	 * DSO (the sampled address when no map covers it). */
	if (res->al.sym)
		snprintf(name, sizeof(name), "[%c] %s", res->al.level, res->al.sym->name);
	else
		snprintf(name, sizeof(name), "[%c] 0x%016" PRIx64, res->al.level,
			 res->al.map ? res->al.addr : res->al.ip);
	row = table_row(t, name);
	if (!row) {
		t->nomem = 1;
		return RP_ERR_NOMEM;
	}
	row->samples++;
	row->period += ev->u.sample.period;
	t->total_period += ev->u.sample.period;
	return 0;
}

/* Hottest first: by period, then samples, then name. */
static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
	RP_OPTS(rp_session_opts, opts, .order = RP_ORDER_TIME);
	RP_OPTS(rp_symbols_opts, sym_opts);
	struct rp_error err = { 0 };
	struct rp_session *session = NULL;
	struct rp_machine *machine = NULL;
	struct rp_symbols *symbols = NULL;
	struct table t = { 0 };
	char msg[RP_ERROR_MSG_MAX + 64];
	long n = 10;
	int ret, status = 1;

	if (argc < 2 || argc > 3 || (argc == 3 && (n = strtol(argv[2], NULL, 10)) <= 0)) {
		fprintf(stderr, "usage: hottest FILE [N]\n");
		return 2;
	}
	/* Built against one release, run with another: the major must match. */
	if (strtol(rp_version(), NULL, 10) != RP_VERSION_MAJOR)
		fprintf(stderr, "hottest: built with libreadperf %s, running with %s\n",
			RP_VERSION_STRING, rp_version());

	ret = rp_session_open(&session, argv[1], &opts, &err);
	if (ret < 0) {
		fprintf(stderr, "hottest: %s: %s\n", argv[1], rp_error_format(&err, msg, sizeof(msg)));
		return 1;
	}
	if (rp_machine_new(&machine, session) < 0 ||
	    rp_symbols_new(&symbols, session, &sym_opts) < 0) {
		fprintf(stderr, "hottest: out of memory\n");
		goto out;
	}

	struct rp_consumer consumer = { .ctx = &t, .event = on_event, .flags = 0 };

	ret = rp_process(session, machine, symbols, &consumer, 1);
	if (ret < 0) {
		/* What was read before a damaged record still counts. */
		const struct rp_error *e = rp_session_error(session);

		fprintf(stderr, "hottest: %s: %s\n", argv[1],
			t.nomem ? "out of memory"
			: e->code ? rp_error_format(e, msg, sizeof(msg)) : rp_strerror(ret));
		if (t.nomem)
			goto out;
	}

	/* Gather the rows at the front of the table and sort them. */
	size_t nr = 0;

	for (size_t i = 0; i < t.cap; i++)
		if (t.rows[i].name) {
			struct row r = t.rows[i];

			t.rows[i].name = NULL;
			t.rows[nr++] = r;
		}
	if (nr)
		qsort(t.rows, nr, sizeof(*t.rows), row_cmp);
	for (size_t i = 0; i < nr && i < (size_t)n; i++)
		printf("%7.2f%%  %8" PRIu64 "  %s\n",
		       t.total_period ? 100.0 * (double)t.rows[i].period / (double)t.total_period : 0.0,
		       t.rows[i].samples, t.rows[i].name);
	status = ret < 0 ? 1 : 0;
out:
	for (size_t i = 0; i < t.cap; i++)
		free(t.rows[i].name);
	free(t.rows);
	rp_symbols_free(symbols);
	rp_machine_free(machine);
	rp_session_close(session);
	return status;
}
