/* SPDX-License-Identifier: MIT */
/*
 * rp-unwind-check FILE [RUNS]: walks the user stack of every sample of a
 * `perf record --call-graph dwarf` recording twice, with the unwinder's
 * fast walker (RP_UNWIND_AUTO) and with libdwfl alone (RP_UNWIND_LIBDWFL),
 * each on an unwinder of its own, at the sample's place in the pipeline
 * (the address space as it was then), and compares the frames.
 *
 * Prints one line of `key value` pairs: samples walked, samples whose
 * frames differ, frames, walks the fast walker finished alone, its
 * fallbacks to libdwfl, its CFI rows looked up in libdw, and the CPU time
 * of each mode's walks in nanoseconds per sample (the best of RUNS
 * passes over the samples, default 1; tests/perf/run_unwind_fast.sh,
 * bench/unwind.sh).  The first differing samples are printed on stderr.
 * Exit status 0 when the walks agree, 1 when they differ, 2 on errors.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <readperf/machine.h>
#include <readperf/process.h>
#include <readperf/session.h>
#include <readperf/symbols.h>

#include "machine/machine_int.h"
#include "unwind/unwind.h"

struct check {
	struct rp_unwinder *fast, *slow;
	unsigned runs;
	uint64_t samples, differ, frames;
	uint64_t ns_fast, ns_slow;
	uint64_t a[RP_UNWIND_MAX_STACK], b[RP_UNWIND_MAX_STACK];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The best (least) time of c->runs walks of sample d with u. */
static size_t timed_walk(struct check *c, struct rp_unwinder *u, struct rp_thread *t,
			 const struct rp_sample *d, uint64_t *ips, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	size_t n = 0;

	for (unsigned r = 0; r < c->runs; r++) {
		uint64_t t0 = now_ns();

		n = rp_unwind_user(u, t->maps, t->pid, t->tid, d, ips, RP_UNWIND_MAX_STACK);
		uint64_t dt = now_ns() - t0;

		if (dt < best)
			best = dt;
	}
	*ns += best;
	return n;
}

static int on_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct check *c = ctx;

	if (ev->type != RP_RECORD_SAMPLE || !res || !res->thread ||
	    !rp_unwind_applies(&ev->u.sample))
		return 0;
	const struct rp_sample *d = &ev->u.sample;
	size_t na = timed_walk(c, c->fast, res->thread, d, c->a, &c->ns_fast);
	size_t nb = timed_walk(c, c->slow, res->thread, d, c->b, &c->ns_slow);

	c->samples++;
	c->frames += nb;
	if (na != nb || memcmp(c->a, c->b, na * sizeof(*c->a)) != 0) {
		if (c->differ++ < 5) {
			fprintf(stderr, "sample %" PRIu64 " (tid %d, time %" PRIu64 "):\n  fast:",
				c->samples, res->thread->tid, d->time);
			for (size_t i = 0; i < na; i++)
				fprintf(stderr, " %" PRIx64, c->a[i]);
			fprintf(stderr, "\n  libdwfl:");
			for (size_t i = 0; i < nb; i++)
				fprintf(stderr, " %" PRIx64, c->b[i]);
			fprintf(stderr, "\n");
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct rp_session *s = NULL;
	struct rp_machine *m = NULL;
	struct rp_symbols *sym = NULL;
	struct check c = { .runs = 1 };
	struct rp_unwind_stats st;
	int ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: rp-unwind-check FILE [RUNS]\n");
		return 2;
	}
	if (argc == 3)
		c.runs = (unsigned)strtoul(argv[2], NULL, 10);
	if (!c.runs)
		c.runs = 1;
	if (rp_session_open(&s, argv[1], NULL, NULL) < 0 || rp_machine_new(&m, s) < 0 ||
	    rp_symbols_new(&sym, s, NULL) < 0 || rp_unwinder_new(&c.fast, m, sym) < 0 ||
	    rp_unwinder_new(&c.slow, m, sym) < 0) {
		fprintf(stderr, "rp-unwind-check: cannot open %s\n", argv[1]);
		return 2;
	}
	rp_unwinder_set_mode(c.slow, RP_UNWIND_LIBDWFL);

	struct rp_consumer con = { &c, on_event, 0 };

	ret = rp_process(s, m, sym, &con, 1);
	rp_unwinder_stats(c.fast, &st);
	printf("samples %" PRIu64 " differ %" PRIu64 " frames %" PRIu64 " fast %" PRIu64
	       " fallbacks %" PRIu64 " rule_misses %" PRIu64 " fb_module %" PRIu64 " fb_rule %" PRIu64
	       " fb_stack %" PRIu64 " plt_frames %" PRIu64 " plt_steps %" PRIu64 " ns_fast %" PRIu64
	       " ns_libdwfl %" PRIu64 "\n",
	       c.samples, c.differ, c.frames, st.fast, st.fallbacks, st.rule_misses,
	       st.fb_module, st.fb_rule, st.fb_stack, st.plt_frames, st.plt_steps,
	       c.samples ? c.ns_fast / c.samples : 0, c.samples ? c.ns_slow / c.samples : 0);
	rp_unwinder_free(c.fast);
	rp_unwinder_free(c.slow);
	rp_symbols_free(sym);
	rp_machine_free(m);
	rp_session_close(s);
	if (ret < 0) {
		fprintf(stderr, "rp-unwind-check: processing failed (%d)\n", ret);
		return 2;
	}
	return c.differ ? 1 : 0;
}
