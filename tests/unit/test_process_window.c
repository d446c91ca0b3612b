/* SPDX-License-Identifier: MIT */
/*
 * The pipeline's bounds and threads:
 * - a file several times larger than the input window (RP_MAP_WINDOW,
 *   8 MiB) is read with a peak RSS that stays far below its size: the
 *   pages behind the window are dropped, and records still queued for
 *   time order read back the same bytes;
 * - with two threads (a reader feeding the pipeline) the consumers see
 *   the same events, with the same resolution, in the same order as with
 *   one, on files whose records come as runs per CPU with sideband in
 *   between, byte-swapped files (read with one thread) and a consumer that
 *   stops the run with an error;
 * - with stack walks handed to workers (samples with user registers and
 *   stack, -j 4), the same, where a thread first seen without its pid
 *   learns it (and its leader's maps) from a later sample, while earlier
 *   samples of it wait to be processed.
 * Not timed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <readperf/machine.h>
#include <readperf/process.h>
#include <readperf/symbols.h>

#include "builder.h"

#define CHAIN_NR 100u            /* callchain entries per sample */
#define CHAIN_BIG 1000u          /* ... in the file of big samples (8 KB) */
#define BIG_FILE (64u << 20)     /* bytes of samples in the big file */
#define RSS_GROWTH_MAX (32u << 20) /* bytes the reader may add to its RSS */

static struct rp_attr sample_attr(void)
{
	return tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP | RP_SAMPLE_TID |
			       RP_SAMPLE_TIME | RP_SAMPLE_CPU | RP_SAMPLE_PERIOD |
			       RP_SAMPLE_CALLCHAIN);
}

/*
 * A file of samples from two CPUs: each round holds a run of each CPU
 * (sorted within the run, interleaved in time between them), then a
 * FINISHED_ROUND; every 64 rounds an MMAP and a COMM of a new thread.
 * Stops once the data section holds `bytes`.  With `unaligned`, the file
 * starts with a COMM of 8k + 2 bytes, so that every record after it is
 * unaligned and the reader hands out copies.
 */
static unsigned chain_nr = CHAIN_NR; /* write_runs()' samples' callchain entries */

static char *write_runs(size_t bytes, int swap, int unaligned, size_t *nr_samples)
{
	static uint64_t chain[CHAIN_BIG];
	struct tb_file f;
	struct rp_attr a = sample_attr();
	const uint64_t id[1] = { 7 };
	uint64_t t = 1000;
	size_t n = 0;

	for (size_t i = 0; i < CHAIN_BIG; i++)
		chain[i] = i == 0 ? RP_CONTEXT_USER : 0x400000 + (i % 100) * 0x100;
	tb_file_init(&f, swap);
	tb_file_attr(&f, &a, id, 1);
	if (unaligned) {
		size_t st = tb_rec_begin(&f.data, RP_RECORD_COMM, 0);

		tb_u32(&f.data, 1), tb_u32(&f.data, 1);
		struct tb_sample sm;

		memset(&sm, 0, sizeof(sm));
		sm.id = id[0];
		sm.pid = sm.tid = 1;
		sm.time = 1;
		tb_str(&f.data, "unaligned", 1); /* 10 bytes */
		tb_sample_id(&f.data, &a, &sm);
		tb_rec_end_nopad(&f.data, st);
	}
	for (size_t round = 0; f.data.len < bytes; round++) {
		struct tb_sample sm;

		memset(&sm, 0, sizeof(sm));
		sm.id = id[0];
		sm.pid = 100 + (uint32_t)(round / 64);
		sm.tid = sm.pid;
		sm.time = t;
		if (round % 64 == 0) {
			size_t st = tb_rec_begin(&f.data, RP_RECORD_COMM, 0);

			tb_u32(&f.data, sm.pid), tb_u32(&f.data, sm.tid);
			tb_str(&f.data, round % 128 ? "odd" : "even", 8);
			tb_sample_id(&f.data, &a, &sm);
			tb_rec_end(&f.data, st);
			st = tb_rec_begin(&f.data, RP_RECORD_MMAP, RP_MISC_USER);
			tb_u32(&f.data, sm.pid), tb_u32(&f.data, sm.tid);
			tb_u64(&f.data, 0x400000), tb_u64(&f.data, 0x10000), tb_u64(&f.data, 0);
			tb_str(&f.data, round % 128 ? "/odd.so" : "/even.so", 8);
			tb_sample_id(&f.data, &a, &sm);
			tb_rec_end(&f.data, st);
		}
		for (uint32_t cpu = 0; cpu < 2; cpu++) {
			for (uint64_t k = 0; k < 256; k++) {
				sm.cpu = cpu;
				sm.time = t + k * 2 + cpu;
				sm.ip = 0x400000 + ((k * 37 + cpu) % 4096) * 16;
				sm.period = 1 + k % 3;
				sm.callchain_nr = chain_nr;
				sm.callchain = chain;
				tb_sample(&f.data, &a, RP_MISC_USER, &sm);
				n++;
			}
		}
		t += 512;
		size_t st = tb_rec_begin(&f.data, RP_RECORD_FINISHED_ROUND, 0);
		tb_rec_end(&f.data, st);
	}
	char *path = tb_file_write_tmp(&f);
	tb_file_free(&f);
	*nr_samples = n;
	return path;
}

/* What the consumer saw: a running digest of every event and resolution. */
struct digest {
	uint64_t h;
	uint64_t nr_events, nr_samples;
	uint64_t stop_after; /* return an error after this many events; 0: never */
	unsigned flags;
};

static void mix(struct digest *d, uint64_t v)
{
	d->h = (d->h ^ v) * 0x100000001b3ull;
}

static int digest_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct digest *d = ctx;

	d->nr_events++;
	mix(d, ev->type);
	mix(d, ev->nr);
	mix(d, ev->offset);
	if (ev->type == RP_RECORD_SAMPLE) {
		d->nr_samples++;
		mix(d, ev->u.sample.ip);
		mix(d, ev->u.sample.time);
		mix(d, ev->u.sample.callchain_nr);
		for (uint64_t i = 0; i < ev->u.sample.callchain_nr; i++)
			mix(d, ev->u.sample.callchain[i]);
		assert_non_null(res);
		mix(d, (uint64_t)rp_thread_tid(res->thread));
		mix(d, (uint64_t)rp_thread_pid(res->thread));
		for (const char *c = res->comm; c && *c; c++)
			mix(d, (uint8_t)*c);
		mix(d, res->al.addr);
		const char *dso = res->al.dso ? rp_dso_long_name(res->al.dso) : "";
		for (const char *c = dso; *c; c++)
			mix(d, (uint8_t)*c);
		mix(d, res->nr_callchain);
		for (size_t i = 0; i < res->nr_callchain; i++)
			mix(d, res->callchain[i].al.addr ^ (res->callchain[i].al.map != NULL));
	} else if (ev->type == RP_RECORD_COMM) {
		for (const char *c = ev->u.comm.comm; *c; c++)
			mix(d, (uint8_t)*c);
	}
	if (d->stop_after && d->nr_events >= d->stop_after)
		return RP_ERR_LIMIT;
	return 0;
}

/* Runs the pipeline over path with nr_threads (and a resolver when
 * with_symbols: stacks can then be walked); returns rp_process's value. */
static int run_with(const char *path, unsigned nr_threads, struct digest *d, int with_symbols)
{
	struct rp_session *s = tb_open(path, RP_ORDER_TIME, 0);
	struct rp_machine *m = NULL;
	struct rp_symbols *sym = NULL;

	assert_non_null(s);
	assert_int_equal(rp_machine_new(&m, s), 0);
	if (with_symbols)
		assert_int_equal(rp_symbols_new(&sym, s, NULL), 0);
	struct rp_consumer c = { d, digest_event, d->flags };
	int ret = rp_process_mt(s, m, sym, &c, 1, nr_threads);

	rp_symbols_free(sym);
	rp_machine_free(m);
	rp_session_close(s);
	return ret;
}

static int run(const char *path, unsigned nr_threads, struct digest *d)
{
	return run_with(path, nr_threads, d, 0);
}

/* A field of /proc/self/status in bytes ("VmRSS:", "VmHWM:"), or 0. */
static uint64_t status_bytes(const char *field)
{
	char line[256];
	uint64_t kb = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)))
			kb = strtoull(line + strlen(field), NULL, 10);
	fclose(f);
	return kb * 1024;
}

/* Resets the peak RSS (VmHWM) to the current RSS; 0 or -1. */
static int reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	if (!f)
		return -1;
	int ok = fputs("5", f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Sanitizers keep shadow memory of their own: RSS says nothing then. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RSS_MEANINGFUL 0
#else
#define RSS_MEANINGFUL 1
#endif

static void check_window_rss(unsigned chain)
{
	if (!RSS_MEANINGFUL)
		skip();
	size_t nr;
	chain_nr = chain;
	char *path = write_runs(BIG_FILE, 0, 0, &nr);
	chain_nr = CHAIN_NR;

	for (unsigned threads = 1; threads <= 2; threads++) {
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			struct digest d = { .h = 1, .flags = RP_CONSUMER_CALLCHAIN };

			if (reset_peak() < 0)
				_exit(77);
			uint64_t start = status_bytes("VmRSS:");
			int ret = run(path, threads, &d);
			uint64_t peak = status_bytes("VmHWM:");

			if (ret != 0 || d.nr_samples != nr)
				_exit(2);
			if (!start || !peak)
				_exit(77);
			fprintf(stderr, "threads %u: RSS %llu KiB at start, peak %llu KiB\n", threads,
				(unsigned long long)(start >> 10), (unsigned long long)(peak >> 10));
			_exit(peak - start < RSS_GROWTH_MAX ? 0 : 3);
		}
		int status = 0;

		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status) == 77) {
			unlink(path);
			free(path);
			skip();
		}
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	unlink(path);
	free(path);
}

static void test_window_rss(void **state)
{
	(void)state;
	check_window_rss(CHAIN_NR);
}

/* Samples of 8 KB (as --call-graph dwarf writes): the pipeline thread
 * reads records far behind the reader unless the ring is bounded in
 * bytes too, and pages the window gave back would come in again. */
static void test_window_rss_big_samples(void **state)
{
	(void)state;
	check_window_rss(CHAIN_BIG);
}

static void check_same(int swap, int unaligned, unsigned flags)
{
	size_t nr;
	char *path = write_runs(unaligned ? 1u << 20 : 3u << 20, swap, unaligned, &nr);
	struct digest one = { .h = 1, .flags = flags }, two = { .h = 1, .flags = flags };

	assert_int_equal(run(path, 1, &one), 0);
	assert_int_equal(run(path, 2, &two), 0);
	assert_int_equal(one.nr_samples, nr);
	assert_int_equal(two.nr_samples, nr);
	assert_int_equal(one.nr_events, two.nr_events);
	assert_true(one.h == two.h);
	unlink(path);
	free(path);
}

static void test_threads_same(void **state)
{
	(void)state;
	check_same(0, 0, 0);
	check_same(0, 0, RP_CONSUMER_CALLCHAIN);
}

static void test_threads_same_swapped(void **state)
{
	(void)state;
	check_same(1, 0, RP_CONSUMER_CALLCHAIN);
}

/* Unaligned records are copies in the reader: each goes over alone. */
static void test_threads_same_unaligned(void **state)
{
	(void)state;
	check_same(0, 1, RP_CONSUMER_CALLCHAIN);
}

static void test_threads_consumer_error(void **state)
{
	(void)state;
	size_t nr;
	char *path = write_runs(1u << 20, 0, 0, &nr);

	for (uint64_t stop = 1; stop < 3000; stop = stop * 3 + 1) {
		struct digest one = { .h = 1, .stop_after = stop };
		struct digest two = { .h = 1, .stop_after = stop };

		assert_int_equal(run(path, 1, &one), RP_ERR_LIMIT);
		assert_int_equal(run(path, 2, &two), RP_ERR_LIMIT);
		assert_int_equal(one.nr_events, stop);
		assert_int_equal(two.nr_events, stop);
		assert_true(one.h == two.h);
	}
	unlink(path);
	free(path);
}

/*
 * Samples with user registers (bp, sp, ip) and 64 bytes of stack, of
 * threads 500-503 of process 400 (mapped: a file that does not exist, so
 * each walk gives the sampled ip alone); thread 500's first samples say
 * pid -1 (a thread first seen without its pid), later ones pid 400; an
 * MMAP every 50 rounds.
 */
static char *write_walks(size_t *nr_samples)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP | RP_SAMPLE_TID |
					   RP_SAMPLE_TIME | RP_SAMPLE_CPU | RP_SAMPLE_PERIOD |
					   RP_SAMPLE_CALLCHAIN | RP_SAMPLE_REGS_USER |
					   RP_SAMPLE_STACK_USER);
	const uint64_t id[1] = { 9 };
	const uint64_t chain[2] = { RP_CONTEXT_USER, 0x400100 };
	uint8_t stack[64];
	uint64_t t = 1000;
	size_t n = 0;

	a.sample_regs_user = (1ull << 6) | (1ull << 7) | (1ull << 8);
	a.sample_stack_user = sizeof(stack);
	memset(stack, 0x5a, sizeof(stack));
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, id, 1);
	for (unsigned round = 0; round < 200; round++) {
		struct tb_sample sm;

		memset(&sm, 0, sizeof(sm));
		sm.id = id[0];
		sm.pid = 400;
		sm.tid = 400;
		sm.time = t;
		if (round % 50 == 10) {
			size_t st = tb_rec_begin(&f.data, RP_RECORD_MMAP, RP_MISC_USER);

			tb_u32(&f.data, 400), tb_u32(&f.data, 400);
			tb_u64(&f.data, 0x400000 + round * 0x10000ull), tb_u64(&f.data, 0x10000);
			tb_u64(&f.data, 0);
			tb_str(&f.data, "/nonexistent/rp-walk.so", 8);
			tb_sample_id(&f.data, &a, &sm);
			tb_rec_end(&f.data, st);
		}
		for (unsigned k = 0; k < 16; k++) {
			uint64_t regs[3] = { 0x7ff000, 0x7ff000 + k * 8, 0x400000 + k * 0x40 };

			sm.tid = 500 + k % 4;
			/* thread 500 learns its pid at round 75, between MMAPs */
			sm.pid = sm.tid == 500 && round < 75 ? (uint32_t)-1 : 400;
			sm.cpu = k % 2;
			sm.time = t + k;
			sm.ip = regs[2];
			sm.period = 1;
			sm.callchain_nr = 2;
			sm.callchain = chain;
			sm.regs_user_abi = 2; /* PERF_SAMPLE_REGS_ABI_64 */
			sm.regs_user = regs;
			sm.stack_size = sizeof(stack);
			sm.stack = stack;
			sm.stack_dyn_size = sizeof(stack);
			tb_sample(&f.data, &a, RP_MISC_USER, &sm);
			n++;
		}
		t += 16;
		size_t st = tb_rec_begin(&f.data, RP_RECORD_FINISHED_ROUND, 0);
		tb_rec_end(&f.data, st);
	}
	char *path = tb_file_write_tmp(&f);
	tb_file_free(&f);
	*nr_samples = n;
	return path;
}

static void test_walks_same(void **state)
{
	(void)state;
	size_t nr;
	char *path = write_walks(&nr);

	for (unsigned threads = 2; threads <= 4; threads += 2) {
		struct digest one = { .h = 1, .flags = RP_CONSUMER_CALLCHAIN };
		struct digest many = { .h = 1, .flags = RP_CONSUMER_CALLCHAIN };

		assert_int_equal(run_with(path, 1, &one, 1), 0);
		assert_int_equal(run_with(path, threads, &many, 1), 0);
		assert_int_equal(one.nr_samples, nr);
		assert_int_equal(many.nr_samples, nr);
		assert_true(one.h == many.h);
	}
	/* A consumer that stops the run: the same events before it. */
	for (uint64_t stop = 1; stop < 3000; stop = stop * 3 + 1) {
		struct digest one = { .h = 1, .flags = RP_CONSUMER_CALLCHAIN, .stop_after = stop };
		struct digest many = { .h = 1, .flags = RP_CONSUMER_CALLCHAIN, .stop_after = stop };

		assert_int_equal(run_with(path, 1, &one, 1), RP_ERR_LIMIT);
		assert_int_equal(run_with(path, 4, &many, 1), RP_ERR_LIMIT);
		assert_int_equal(one.nr_events, many.nr_events);
		assert_true(one.h == many.h);
	}
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_rss),
		cmocka_unit_test(test_window_rss_big_samples),
		cmocka_unit_test(test_threads_same),
		cmocka_unit_test(test_threads_same_swapped),
		cmocka_unit_test(test_threads_same_unaligned),
		cmocka_unit_test(test_threads_consumer_error),
		cmocka_unit_test(test_walks_same),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
