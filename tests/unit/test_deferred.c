/* SPDX-License-Identifier: MIT */
/*
 * Deferred callchains (Linux 6.19): a sample of an event with
 * attr.defer_callchain whose callchain ends with PERF_CONTEXT_USER_DEFERRED
 * and a cookie waits for the PERF_RECORD_CALLCHAIN_DEFERRED record of its
 * thread; the session then delivers it after that record, its callchain
 * cut before the cookie and followed by the record's ips, as perf's
 * session.c and callchain.c merge them.  Held samples of the thread with
 * another cookie leave as they are; what is still held at the end leaves
 * as it is; opts.no_merge_deferred delivers everything as read (perf
 * report -D); opts.max_deferred caps what is held.
 *
 * perf here (6.1) cannot record these, so the files are built by hand,
 * in both byte orders.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <readperf/dump.h>
#include <readperf/machine.h>
#include <readperf/process.h>

#include "builder.h"

#define K1 0xffffffff81000010ull /* kernel ips */
#define K2 0xffffffff81000020ull
#define U1 0x401000ull           /* user ips */
#define U2 0x402000ull
#define U3 0x403000ull

#define MAX_SEEN 64
#define MAX_CHAIN 16

/* What a test keeps of a delivered event. */
struct seen {
	uint32_t type, tid;
	uint64_t time, cookie;
	uint8_t deferred;
	uint64_t chain_nr;
	uint64_t chain[MAX_CHAIN];
};

struct dfile {
	struct tb_file f;
	struct rp_attr attr;
};

static void df_init(struct dfile *df, int swap, int defer)
{
	tb_file_init(&df->f, swap);
	df->attr = tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP | RP_SAMPLE_TID |
				   RP_SAMPLE_TIME | RP_SAMPLE_CPU | RP_SAMPLE_PERIOD |
				   RP_SAMPLE_CALLCHAIN);
	if (defer)
		df->attr.flags |= RP_ATTR_DEFER_CALLCHAIN | RP_ATTR_DEFER_OUTPUT;
	uint64_t id = 42;
	tb_file_attr(&df->f, &df->attr, &id, 1);
}

/* A sample taken in the kernel: kernel chain, then the deferred marker
 * and the cookie, as the kernel writes it. */
static void df_sample(struct dfile *df, uint32_t tid, uint64_t time, uint64_t cookie)
{
	uint64_t chain[] = { RP_CONTEXT_KERNEL, K1, K2, RP_CONTEXT_USER_DEFERRED, cookie };
	struct tb_sample s = { .ip = K1, .pid = 10, .tid = tid, .time = time, .id = 42,
			       .period = 1000, .callchain_nr = 5, .callchain = chain };

	tb_sample(&df->f.data, &df->attr, RP_MISC_KERNEL, &s);
}

/* The deferred user callchain of thread tid: PERF_CONTEXT_USER, then
 * nr_user ips (U1, U2, U3). */
static void df_deferred(struct dfile *df, uint32_t tid, uint64_t time, uint64_t cookie,
			unsigned nr_user)
{
	uint64_t ips[] = { RP_CONTEXT_USER, U1, U2, U3 };
	struct tb_sample sid = { .pid = 10, .tid = tid, .time = time, .id = 42 };

	tb_callchain_deferred(&df->f.data, &df->attr, cookie, 1 + nr_user, ips, &sid);
}

static void df_comm(struct dfile *df, uint32_t tid, uint64_t time)
{
	struct tb_sample sid = { .pid = 10, .tid = tid, .time = time, .id = 42 };
	size_t start = tb_rec_begin(&df->f.data, RP_RECORD_COMM, 0);

	tb_u32(&df->f.data, 10);
	tb_u32(&df->f.data, tid);
	tb_str(&df->f.data, "worker", 8);
	tb_sample_id(&df->f.data, &df->attr, &sid);
	tb_rec_end(&df->f.data, start);
}

static void df_round(struct dfile *df)
{
	tb_rec_end(&df->f.data, tb_rec_begin(&df->f.data, RP_RECORD_FINISHED_ROUND, 0));
}

/* Opens the built file with opts (NULL: defaults). */
static struct rp_session *df_open(struct dfile *df, const struct rp_session_opts *opts)
{
	char *path = tb_file_write_tmp(&df->f);
	struct rp_session *s = NULL;
	struct rp_error err;

	assert_int_equal(rp_session_open(&s, path, opts, &err), 0);
	unlink(path);
	free(path);
	tb_file_free(&df->f);
	return s;
}

/* Reads every event; returns how many, all delivered without error. */
static size_t df_read(struct rp_session *s, struct seen *out)
{
	struct rp_event ev;
	size_t n = 0;
	int rc;

	while ((rc = rp_test_next(s, &ev)) > 0) {
		assert_true(n < MAX_SEEN);
		struct seen *v = &out[n++];

		memset(v, 0, sizeof(*v));
		v->type = ev.type;
		v->deferred = ev.deferred;
		if (ev.type == RP_RECORD_SAMPLE) {
			v->tid = ev.u.sample.tid;
			v->time = ev.u.sample.time;
			v->chain_nr = ev.u.sample.callchain_nr;
			for (uint64_t i = 0; i < v->chain_nr && i < MAX_CHAIN; i++)
				v->chain[i] = ev.u.sample.callchain[i];
		} else {
			v->tid = ev.sid.tid;
			v->time = ev.sid.time;
		}
		if (ev.type == RP_RECORD_CALLCHAIN_DEFERRED) {
			v->cookie = ev.u.callchain_deferred.cookie;
			v->chain_nr = ev.u.callchain_deferred.nr;
			for (uint64_t i = 0; i < v->chain_nr && i < MAX_CHAIN; i++)
				v->chain[i] = ev.u.callchain_deferred.ips[i];
		}
	}
	assert_int_equal(rc, 0);
	return n;
}

/* Only the records of the types that matter here (no FINISHED_ROUND). */
static size_t df_kernel_only(struct seen *v, size_t n)
{
	size_t j = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i].type < RP_RECORD_HEADER_ATTR)
			v[j++] = v[i];
	return j;
}

static void assert_merged(const struct seen *v, uint32_t tid, uint64_t time, unsigned nr_user)
{
	const uint64_t want[] = { RP_CONTEXT_KERNEL, K1, K2, RP_CONTEXT_USER_DEFERRED,
				  RP_CONTEXT_USER, U1, U2, U3 };

	assert_int_equal(v->type, RP_RECORD_SAMPLE);
	assert_int_equal(v->deferred, RP_DEFERRED_MERGED);
	assert_int_equal(v->tid, tid);
	assert_int_equal(v->time, time);
	assert_int_equal(v->chain_nr, 5 + nr_user);
	for (unsigned i = 0; i < 5 + nr_user; i++)
		assert_true(v->chain[i] == want[i]);
}

static void assert_raw(const struct seen *v, uint32_t tid, uint64_t cookie, uint8_t deferred)
{
	assert_int_equal(v->type, RP_RECORD_SAMPLE);
	assert_int_equal(v->deferred, deferred);
	assert_int_equal(v->tid, tid);
	assert_int_equal(v->chain_nr, 5);
	assert_true(v->chain[3] == RP_CONTEXT_USER_DEFERRED);
	assert_true(v->chain[4] == cookie);
}

static void assert_deferred_rec(const struct seen *v, uint32_t tid, uint64_t cookie)
{
	assert_int_equal(v->type, RP_RECORD_CALLCHAIN_DEFERRED);
	assert_int_equal(v->tid, tid);
	assert_true(v->cookie == cookie);
	assert_true(v->chain[0] == RP_CONTEXT_USER);
}

/* One sample and its deferred record: the record, then the sample with
 * the user part appended (both byte orders, both orders of delivery). */
static void test_merge_one(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		for (int order = 0; order < 2; order++) {
			struct dfile df;
			struct seen v[MAX_SEEN];

			df_init(&df, swap, 1);
			df_sample(&df, 11, 100, 7);
			df_deferred(&df, 11, 200, 7, 3);
			struct rp_session_opts o = { .sz = sizeof(o), .order = order };
			struct rp_session *s = df_open(&df, &o);
			size_t n = df_kernel_only(v, df_read(s, v));

			assert_int_equal(n, 2);
			assert_deferred_rec(&v[0], 11, 7);
			assert_merged(&v[1], 11, 100, 3);
			const struct rp_session_stats *st = rp_session_stats(s);
			assert_int_equal(st->nr_deferred_merged, 1);
			assert_int_equal(st->nr_deferred_unmatched, 0);
			assert_int_equal(rp_session_nr_records(s, RP_RECORD_SAMPLE), 1);
			assert_int_equal(rp_session_nr_records(s, RP_RECORD_CALLCHAIN_DEFERRED), 1);
			rp_session_close(s);
		}
	}
}

/* Two samples with the same cookie (one return to user space): both
 * merged, in the order they came. */
static void test_same_cookie(void **state)
{
	struct dfile df;
	struct seen v[MAX_SEEN];

	(void)state;
	df_init(&df, 0, 1);
	df_sample(&df, 11, 100, 7);
	df_sample(&df, 11, 110, 7);
	df_deferred(&df, 11, 200, 7, 2);
	struct rp_session *s = df_open(&df, NULL);
	size_t n = df_kernel_only(v, df_read(s, v));

	assert_int_equal(n, 3);
	assert_deferred_rec(&v[0], 11, 7);
	assert_merged(&v[1], 11, 100, 2);
	assert_merged(&v[2], 11, 110, 2);
	assert_int_equal(rp_session_stats(s)->nr_deferred_merged, 2);
	rp_session_close(s);
}

/*
 * Threads interleaved: a deferred record releases the samples of its own
 * thread only; a held sample of that thread with another cookie (its own
 * deferred record was lost) leaves too, as it is, in its place.
 */
static void test_interleaved_threads(void **state)
{
	struct dfile df;
	struct seen v[MAX_SEEN];

	(void)state;
	df_init(&df, 0, 1);
	df_sample(&df, 11, 90, 99); /* its deferred record never comes */
	df_sample(&df, 11, 100, 1);
	df_sample(&df, 12, 105, 2);
	df_sample(&df, 11, 110, 1);
	df_deferred(&df, 12, 200, 2, 1);
	df_deferred(&df, 11, 210, 1, 3);
	struct rp_session *s = df_open(&df, NULL);
	size_t n = df_kernel_only(v, df_read(s, v));

	assert_int_equal(n, 6);
	assert_deferred_rec(&v[0], 12, 2);
	assert_merged(&v[1], 12, 105, 1);
	assert_deferred_rec(&v[2], 11, 1);
	assert_raw(&v[3], 11, 99, RP_DEFERRED_UNMERGED);
	assert_merged(&v[4], 11, 100, 3);
	assert_merged(&v[5], 11, 110, 3);
	const struct rp_session_stats *st = rp_session_stats(s);
	assert_int_equal(st->nr_deferred_merged, 3);
	assert_int_equal(st->nr_deferred_unmatched, 1);
	rp_session_close(s);
}

/* A deferred record that no sample waits for is delivered like any other
 * record; a sample of another thread stays held until the end. */
static void test_no_matching_sample(void **state)
{
	struct dfile df;
	struct seen v[MAX_SEEN];

	(void)state;
	df_init(&df, 0, 1);
	df_deferred(&df, 13, 50, 5, 2);
	df_sample(&df, 11, 100, 7);
	df_deferred(&df, 13, 200, 7, 2); /* the cookie, but another thread */
	df_comm(&df, 11, 300);
	struct rp_session *s = df_open(&df, NULL);
	size_t n = df_kernel_only(v, df_read(s, v));

	assert_int_equal(n, 4);
	assert_deferred_rec(&v[0], 13, 5);
	assert_deferred_rec(&v[1], 13, 7);
	assert_int_equal(v[2].type, RP_RECORD_COMM);
	assert_raw(&v[3], 11, 7, RP_DEFERRED_UNMERGED);
	assert_int_equal(rp_session_stats(s)->nr_deferred_merged, 0);
	assert_int_equal(rp_session_stats(s)->nr_deferred_unmatched, 1);
	rp_session_close(s);
}

/* Samples still held at the end are delivered as they are, after every
 * other record, in the order they came. */
static void test_held_at_end(void **state)
{
	struct dfile df;
	struct seen v[MAX_SEEN];

	(void)state;
	df_init(&df, 1, 1);
	df_sample(&df, 11, 100, 7);
	df_sample(&df, 12, 110, 8);
	df_comm(&df, 11, 300);
	df_round(&df);
	df_round(&df);
	struct rp_session *s = df_open(&df, NULL);
	size_t n = df_kernel_only(v, df_read(s, v));

	assert_int_equal(n, 3);
	assert_int_equal(v[0].type, RP_RECORD_COMM);
	assert_raw(&v[1], 11, 7, RP_DEFERRED_UNMERGED);
	assert_int_equal(v[1].time, 100);
	assert_raw(&v[2], 12, 8, RP_DEFERRED_UNMERGED);
	assert_int_equal(rp_session_stats(s)->nr_deferred_unmatched, 2);
	rp_session_close(s);
}

/* Merging off (opts, or the setter before the first record): every
 * record as read; the setter refuses once reading began. */
static void test_merge_off(void **state)
{
	(void)state;
	for (int how = 0; how < 2; how++) {
		struct dfile df;
		struct seen v[MAX_SEEN];

		df_init(&df, 0, 1);
		df_sample(&df, 11, 100, 7);
		df_deferred(&df, 11, 200, 7, 3);
		struct rp_session_opts o = { .sz = sizeof(o), .no_merge_deferred = !how };
		struct rp_session *s = df_open(&df, &o);

		if (how)
			assert_int_equal(rp_session_set_merge_deferred(s, 0), 0);
		size_t n = df_kernel_only(v, df_read(s, v));

		assert_int_equal(n, 2);
		assert_raw(&v[0], 11, 7, 0);
		assert_deferred_rec(&v[1], 11, 7);
		assert_int_equal(v[1].chain_nr, 4);
		assert_int_equal(rp_session_stats(s)->nr_deferred_merged, 0);
		assert_int_equal(rp_session_set_merge_deferred(s, 1), RP_ERR_INVAL);
		rp_session_close(s);
	}
}

/* Only events with attr.defer_callchain wait: the same callchain from an
 * event without it is delivered at once (perf's evsel__parse_sample). */
static void test_attr_without_defer(void **state)
{
	struct dfile df;
	struct seen v[MAX_SEEN];

	(void)state;
	df_init(&df, 0, 0);
	df_sample(&df, 11, 100, 7);
	df_deferred(&df, 11, 200, 7, 3);
	struct rp_session *s = df_open(&df, NULL);
	size_t n = df_kernel_only(v, df_read(s, v));

	assert_int_equal(n, 2);
	assert_raw(&v[0], 11, 7, 0);
	assert_deferred_rec(&v[1], 11, 7);
	rp_session_close(s);
}

/* The cap: past opts.max_deferred held samples, a sample is delivered at
 * once, unmerged, and counted; the held ones still merge. */
static void test_cap(void **state)
{
	struct dfile df;
	struct seen v[MAX_SEEN];

	(void)state;
	df_init(&df, 0, 1);
	df_sample(&df, 11, 100, 7);
	df_sample(&df, 11, 110, 7);
	df_sample(&df, 11, 120, 7);
	df_deferred(&df, 11, 200, 7, 1);
	df_sample(&df, 11, 300, 8); /* room again once they left */
	df_deferred(&df, 11, 400, 8, 2);
	struct rp_session_opts o = { .sz = sizeof(o), .max_deferred = 2 };
	struct rp_session *s = df_open(&df, &o);
	size_t n = df_kernel_only(v, df_read(s, v));

	assert_int_equal(n, 6);
	assert_raw(&v[0], 11, 7, RP_DEFERRED_UNMERGED);
	assert_int_equal(v[0].time, 120);
	assert_deferred_rec(&v[1], 11, 7);
	assert_merged(&v[2], 11, 100, 1);
	assert_merged(&v[3], 11, 110, 1);
	assert_deferred_rec(&v[4], 11, 8);
	assert_merged(&v[5], 11, 300, 2);
	const struct rp_session_stats *st = rp_session_stats(s);
	assert_int_equal(st->nr_deferred_over_cap, 1);
	assert_int_equal(st->nr_deferred_merged, 3);
	rp_session_close(s);
}

/* Many samples held and released in turns: the pool is compacted and
 * reused, and every sample comes out merged with its own cookie. */
static void test_many(void **state)
{
	struct dfile df;
	enum { ROUNDS = 200, PER = 7 };

	(void)state;
	df_init(&df, 0, 1);
	for (unsigned r = 0; r < ROUNDS; r++) {
		for (unsigned k = 0; k < PER; k++)
			df_sample(&df, 11 + k % 3, 1000 * r + k, 100 + r);
		for (unsigned t = 0; t < 3; t++)
			df_deferred(&df, 11 + t, 1000 * r + 500 + t, 100 + r, 1 + (r + t) % 3);
	}
	struct rp_session *s = df_open(&df, NULL);
	struct rp_event ev;
	uint64_t merged = 0, last_cookie = 0;
	int rc;

	while ((rc = rp_test_next(s, &ev)) > 0) {
		if (ev.type == RP_RECORD_CALLCHAIN_DEFERRED)
			last_cookie = ev.u.callchain_deferred.cookie;
		if (ev.type != RP_RECORD_SAMPLE)
			continue;
		assert_int_equal(ev.deferred, RP_DEFERRED_MERGED);
		/* The sample's cookie is gone; its time names its round. */
		assert_true(ev.u.sample.time / 1000 + 100 == last_cookie);
		assert_true(ev.u.sample.callchain[3] == RP_CONTEXT_USER_DEFERRED);
		assert_true(ev.u.sample.callchain[4] == RP_CONTEXT_USER);
		merged++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(merged, ROUNDS * PER);
	assert_int_equal(rp_session_stats(s)->nr_deferred_merged, ROUNDS * PER);
	rp_session_close(s);
}

/*
 * Time order: the deferred record comes later in time than its sample,
 * and records between them in time are delivered between them; the merged
 * sample keeps its own time and comes right after the deferred record.
 * In file order the same happens by file position.
 */
static void test_time_order(void **state)
{
	(void)state;
	for (int order = 0; order < 2; order++) {
		struct dfile df;
		struct seen v[MAX_SEEN];

		df_init(&df, 0, 1);
		/* As two CPUs' buffers land: the deferred record (t=300)
		 * is written before a COMM of t=200 from another CPU. */
		df_sample(&df, 11, 100, 7);
		df_deferred(&df, 11, 300, 7, 2);
		df_comm(&df, 12, 200);
		df_round(&df);
		df_comm(&df, 12, 400);
		df_round(&df);
		struct rp_session_opts o = { .sz = sizeof(o), .order = order };
		struct rp_session *s = df_open(&df, &o);
		size_t n = df_kernel_only(v, df_read(s, v));

		assert_int_equal(n, 4);
		if (order == RP_ORDER_TIME) {
			assert_int_equal(v[0].type, RP_RECORD_COMM);
			assert_int_equal(v[0].time, 200);
			assert_deferred_rec(&v[1], 11, 7);
			assert_merged(&v[2], 11, 100, 2);
		} else {
			assert_deferred_rec(&v[0], 11, 7);
			assert_merged(&v[1], 11, 100, 2);
			assert_int_equal(v[2].type, RP_RECORD_COMM);
		}
		assert_int_equal(v[3].type, RP_RECORD_COMM);
		assert_int_equal(v[3].time, 400);
		rp_session_close(s);
	}
}

/* The dump shows the raw records as perf report -D (6.19) does: it turns
 * the session's merging off itself. */
static void test_dump(void **state)
{
	struct dfile df;
	char *text = NULL;
	size_t len = 0;

	(void)state;
	df_init(&df, 0, 1);
	df_sample(&df, 11, 100, 7);
	df_deferred(&df, 11, 200, 7, 2);
	struct rp_session *s = df_open(&df, NULL);
	struct rp_machine *m = NULL;
	struct rp_dump *d = NULL;
	FILE *fp = open_memstream(&text, &len);
	struct rp_dump_opts o = { .sz = sizeof(o), .label = "x.data" };

	assert_non_null(fp);
	assert_int_equal(rp_machine_new(&m, s), 0);
	assert_int_equal(rp_dump_new(&d, fp, s, &o), 0);
	struct rp_consumer c = rp_dump_consumer(d);
	assert_int_equal(rp_process(s, m, NULL, &c, 1), 0);
	assert_int_equal(rp_dump_finish(d), 0);
	fclose(fp);
	assert_non_null(strstr(text, "PERF_RECORD_CALLCHAIN_DEFERRED(IP, 0x2): 10/11: 0x7\n"
				     "... FP chain: nr:3\n"
				     ".....  0: fffffffffffffe00\n"
				     ".....  1: 0000000000401000\n"
				     ".....  2: 0000000000402000\n"));
	/* The sample as recorded: its chain ends with the marker and cookie. */
	assert_non_null(strstr(text, "... FP chain: nr:5\n"));
	assert_non_null(strstr(text, ".....  3: fffffffffffffd80\n"
				     ".....  4: 0000000000000007\n"));
	/* The stats block counts the type by the name newer perf gives it. */
	assert_non_null(strstr(text, "CALLCHAIN_DEFERRED events:          1"));
	free(text);
	rp_dump_free(d);
	rp_machine_free(m);
	rp_session_close(s);
}

/* What the pipeline resolved for the last sample. */
struct frames_seen {
	size_t nr_samples, nr_frames;
	uint8_t cpumode[8];
};

static int frames_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct frames_seen *fs = ctx;

	if (ev->type != RP_RECORD_SAMPLE || !res)
		return 0;
	fs->nr_samples++;
	fs->nr_frames = res->nr_callchain;
	for (size_t i = 0; i < res->nr_callchain && i < 8; i++)
		fs->cpumode[i] = res->callchain[i].al.cpumode;
	return 0;
}

/* A merged chain resolves whole: the marker starts its user part, as in
 * perf's machine.c, instead of ending the chain as a bad context would. */
static void test_pipeline_frames(void **state)
{
	struct dfile df;
	struct frames_seen fs = { 0 };

	(void)state;
	df_init(&df, 0, 1);
	df_sample(&df, 11, 100, 7);
	df_deferred(&df, 11, 200, 7, 2);
	struct rp_session *s = df_open(&df, NULL);
	struct rp_machine *m = NULL;
	struct rp_consumer c = { &fs, frames_event, RP_CONSUMER_CALLCHAIN };

	assert_int_equal(rp_machine_new(&m, s), 0);
	assert_int_equal(rp_process(s, m, NULL, &c, 1), 0);
	assert_int_equal(fs.nr_samples, 1);
	assert_int_equal(fs.nr_frames, 4); /* K1 K2 U1 U2 */
	assert_int_equal(fs.cpumode[0], RP_MISC_KERNEL);
	assert_int_equal(fs.cpumode[1], RP_MISC_KERNEL);
	assert_int_equal(fs.cpumode[2], RP_MISC_USER);
	assert_int_equal(fs.cpumode[3], RP_MISC_USER);
	rp_machine_free(m);
	rp_session_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_one),
		cmocka_unit_test(test_same_cookie),
		cmocka_unit_test(test_interleaved_threads),
		cmocka_unit_test(test_no_matching_sample),
		cmocka_unit_test(test_held_at_end),
		cmocka_unit_test(test_merge_off),
		cmocka_unit_test(test_attr_without_defer),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_time_order),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_pipeline_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
