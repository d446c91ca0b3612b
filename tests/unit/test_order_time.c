/* SPDX-License-Identifier: MIT */
/*
 * Time order: rp_session_next() in RP_ORDER_TIME delivers records as
 * perf's ordered_events does (tools/perf/util/ordered-events.c), which
 * this test restates as a small model and compares on random files:
 * - a record with a time (a SAMPLE with PERF_SAMPLE_TIME, another kernel
 *   record whose sample_id_all trailer has TIME) is queued; one without a
 *   time, or with time 0, is delivered at once, and so is every user
 *   record (type 64 and up);
 * - at a FINISHED_ROUND with records queued, the records with time <=
 *   next_flush are delivered sorted by time, equal times in file order;
 *   next_flush then becomes max_timestamp (it starts at 0, so the first
 *   round delivers nothing); max_timestamp is the time of the last record
 *   queued at the tail of the queue, or of the first one queued into an
 *   empty queue;
 * - a record older than the last one delivered is counted in
 *   nr_unordered and still delivered in order with the rest;
 * - the end of the data delivers everything left.
 * RP_ORDER_FILE delivers file order; so does RP_ORDER_TIME when the first
 * attr has no sample_id_all (perf falls back to unordered processing).
 * With opts.max_queued, a file without rounds is still read completely
 * and never holds more than max_queued records back.
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

#include "builder.h"

/* One step of a test file. */
enum step_kind {
	ST_SAMPLE,   /* a SAMPLE of attr 0 with a time (0: delivered at once) */
	ST_COMM,     /* a COMM with a sample_id_all trailer time */
	ST_UNTIMED,  /* a SAMPLE of attr 1, whose sample_type has no TIME */
	ST_ROUND,    /* FINISHED_ROUND */
	ST_USER,     /* a THREAD_MAP (user record) */
};

struct step {
	enum step_kind kind;
	uint64_t time;
};

#define MAX_STEPS 4096

static struct rp_attr attr0(void)
{
	return tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP | RP_SAMPLE_TID |
			       RP_SAMPLE_TIME | RP_SAMPLE_PERIOD);
}

static struct rp_attr attr1(void)
{
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP | RP_SAMPLE_TID |
					   RP_SAMPLE_PERIOD);

	a.config = 1;
	return a;
}

/*
 * Writes the steps as a file; every record carries its step index as a
 * tag (a SAMPLE's ip, a COMM's tid, a THREAD_MAP's pid).
 */
static char *write_steps(const struct step *steps, size_t n, int swap, int sample_id_all)
{
	struct tb_file f;
	struct rp_attr a0 = attr0(), a1 = attr1();
	const uint64_t id0[1] = { 1000 }, id1[1] = { 2000 };
	char *path;

	if (!sample_id_all) {
		a0.flags &= ~RP_ATTR_SAMPLE_ID_ALL;
		a1.flags &= ~RP_ATTR_SAMPLE_ID_ALL;
	}
	tb_file_init(&f, swap);
	tb_file_attr(&f, &a0, id0, 1);
	tb_file_attr(&f, &a1, id1, 1);
	for (size_t i = 0; i < n; i++) {
		struct tb_sample sm;
		size_t st;

		memset(&sm, 0, sizeof(sm));
		sm.ip = i;
		sm.pid = 1;
		sm.tid = (uint32_t)i;
		sm.time = steps[i].time;
		sm.period = 1;
		switch (steps[i].kind) {
		case ST_SAMPLE:
			sm.id = id0[0];
			tb_sample(&f.data, &a0, RP_MISC_USER, &sm);
			break;
		case ST_UNTIMED:
			sm.id = id1[0];
			tb_sample(&f.data, &a1, RP_MISC_USER, &sm);
			break;
		case ST_COMM:
			sm.id = id0[0];
			st = tb_rec_begin(&f.data, RP_RECORD_COMM, 0);
			tb_u32(&f.data, 1), tb_u32(&f.data, (uint32_t)i);
			tb_str(&f.data, "c", 8);
			tb_sample_id(&f.data, &a0, &sm);
			tb_rec_end(&f.data, st);
			break;
		case ST_ROUND:
			st = tb_rec_begin(&f.data, RP_RECORD_FINISHED_ROUND, 0);
			tb_rec_end(&f.data, st);
			break;
		case ST_USER:
			st = tb_rec_begin(&f.data, RP_RECORD_THREAD_MAP, 0);
			tb_u64(&f.data, 1);
			tb_u64(&f.data, i);
			tb_zero(&f.data, 16);
			tb_rec_end(&f.data, st);
			break;
		}
	}
	path = tb_file_write_tmp(&f);
	tb_file_free(&f);
	return path;
}

/* The step index of a delivered record, or -1 for FINISHED_ROUND. */
static long tag_of(const struct rp_event *ev)
{
	uint64_t pid;

	switch (ev->type) {
	case RP_RECORD_SAMPLE:
		return (long)ev->u.sample.ip;
	case RP_RECORD_COMM:
		return (long)ev->u.comm.tid;
	case RP_RECORD_THREAD_MAP:
		/* entries are in file layout; tags are small, so either order shows */
		memcpy(&pid, ev->u.thread_map.entries, 8);
		if (pid >> 32)
			pid = __builtin_bswap64(pid);
		return (long)pid;
	default:
		return -1;
	}
}

/*
 * Reads the file; out[] gets the step index of every record but the
 * rounds, in delivery order.  Returns the count; *unordered gets
 * stats->nr_unordered.
 */
static size_t read_tags(const char *path, enum rp_order order, uint64_t max_queued,
			long *out, size_t max, uint64_t *unordered)
{
	struct rp_session *s = tb_open(path, order, max_queued);
	struct rp_event ev;
	size_t n = 0;
	int rc;

	assert_non_null(s);
	while ((rc = rp_test_next(s, &ev)) == 1) {
		long t = tag_of(&ev);

		if (ev.type == RP_RECORD_FINISHED_ROUND)
			continue;
		assert_true(n < max);
		out[n++] = t;
	}
	assert_int_equal(rc, 0);
	*unordered = rp_session_stats(s)->nr_unordered;
	rp_session_close(s);
	return n;
}

/* ---- the model of perf's ordered_events ---- */

struct model {
	size_t q[MAX_STEPS]; /* queued step indexes, sorted by (time, index) */
	size_t nq;
	uint64_t max_ts, next_flush, last_flush, unordered;
	long out[MAX_STEPS];
	size_t nout;
};

static void model_deliver_upto(struct model *m, const struct step *st, uint64_t limit)
{
	size_t k = 0;

	while (k < m->nq && st[m->q[k]].time <= limit) {
		m->out[m->nout++] = (long)m->q[k];
		m->last_flush = st[m->q[k]].time;
		k++;
	}
	memmove(m->q, m->q + k, (m->nq - k) * sizeof(m->q[0]));
	m->nq -= k;
}

static void model_run(struct model *m, const struct step *st, size_t n)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < n; i++) {
		uint64_t t = st[i].time;

		switch (st[i].kind) {
		case ST_ROUND:
			if (m->nq) {
				if (m->next_flush)
					model_deliver_upto(m, st, m->next_flush);
				m->next_flush = m->max_ts;
			}
			continue;
		case ST_USER:
		case ST_UNTIMED:
			m->out[m->nout++] = (long)i;
			continue;
		case ST_SAMPLE:
		case ST_COMM:
			break;
		}
		if (t == 0) {
			m->out[m->nout++] = (long)i;
			continue;
		}
		if (t < m->last_flush)
			m->unordered++;
		/* stable insert after every record with time <= t */
		size_t pos = m->nq;
		while (pos > 0 && st[m->q[pos - 1]].time > t)
			pos--;
		if (m->nq == 0 || pos == m->nq)
			m->max_ts = t;
		memmove(m->q + pos + 1, m->q + pos, (m->nq - pos) * sizeof(m->q[0]));
		m->q[pos] = i;
		m->nq++;
	}
	model_deliver_upto(m, st, UINT64_MAX);
}

static void expect_order(const struct step *st, size_t n, const long *want, size_t nwant,
			 uint64_t want_unordered)
{
	static long got[MAX_STEPS];

	for (int swap = 0; swap < 2; swap++) {
		char *path = write_steps(st, n, swap, 1);
		uint64_t unordered;
		size_t ng = read_tags(path, RP_ORDER_TIME, 0, got, MAX_STEPS, &unordered);

		assert_int_equal(ng, nwant);
		for (size_t i = 0; i < ng; i++)
			if (got[i] != want[i])
				fail_msg("swap %d: position %zu: step %ld delivered, step %ld expected",
					 swap, i, got[i], want[i]);
		assert_int_equal(unordered, want_unordered);
		unlink(path);
		free(path);
	}
}

#define S(t) { ST_SAMPLE, (t) }
#define C(t) { ST_COMM, (t) }
#define U { ST_UNTIMED, 0 }
#define R { ST_ROUND, 0 }
#define USER { ST_USER, 0 }
#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Rounds: the first round delivers nothing; the second delivers what is
 * at or before the largest time seen by the first; the rest waits for the
 * end, and F (25) comes after A (30), which a global sort would not do.
 */
static void test_rounds(void **state)
{
	(void)state;
	/*                         0: A   1: B   2   3: C   4: D  5   6: E   7: F */
	const struct step st[] = { S(30), S(10), R, S(20), S(5), R, S(40), S(25) };
	const long want[] = { 4, 1, 3, 0, 7, 6 };
	struct model m;

	expect_order(st, N(st), want, N(want), 1);
	model_run(&m, st, N(st));
	assert_int_equal(m.nout, N(want));
	assert_memory_equal(m.out, want, sizeof(want));
}

/*
 * max_timestamp restarts when the queue empties: after the queue drained,
 * a round only delivers up to the newest record queued since.
 */
static void test_round_max_restarts(void **state)
{
	(void)state;
	/*                         0      1  2  3      4  5      6  7 */
	const struct step st[] = { S(50), R, R, S(10), R, S(30), R, S(20) };
	const long want[] = { 0, 3, 7, 5 };
	struct model m;

	expect_order(st, N(st), want, N(want), 1);
	model_run(&m, st, N(st));
	assert_int_equal(m.nout, N(want));
	assert_memory_equal(m.out, want, sizeof(want));
	assert_int_equal(m.unordered, 1);
}

/* Equal times keep file order, across record types. */
static void test_stable(void **state)
{
	(void)state;
	/*                         0     1     2     3     4     5     6  7     8 */
	const struct step st[] = { S(5), C(3), S(5), S(3), C(5), S(3), R, C(3), R };
	const long want[] = { 1, 3, 5, 7, 0, 2, 4 };

	expect_order(st, N(st), want, N(want), 0);
}

/* No time, time 0 and user records are delivered when they are read. */
static void test_untimed_at_once(void **state)
{
	(void)state;
	/*                         0      1      2  3     4     5      6  7 */
	const struct step st[] = { S(20), S(10), U, S(0), USER, S(15), U, C(0) };
	const long want[] = { 2, 3, 4, 6, 7, 1, 5, 0 };

	expect_order(st, N(st), want, N(want), 0);
}

/* RP_ORDER_FILE, and a first attr without sample_id_all: file order. */
static void test_file_order(void **state)
{
	(void)state;
	const struct step st[] = { S(30), S(10), R, S(20), U, S(5), R, S(40), USER, S(25) };
	static long got[64];

	for (int swap = 0; swap < 2; swap++)
		for (int mode = 0; mode < 2; mode++) {
			char *path = write_steps(st, N(st), swap, mode);
			struct rp_session *s =
				tb_open(path, mode ? RP_ORDER_FILE : RP_ORDER_TIME, 0);
			struct rp_event ev;
			size_t n = 0;

			assert_non_null(s);
			while (rp_test_next(s, &ev) == 1) {
				assert_int_equal(ev.nr, n);
				got[n] = ev.type == RP_RECORD_FINISHED_ROUND ? -1 : tag_of(&ev);
				n++;
			}
			assert_int_equal(n, N(st));
			for (size_t i = 0; i < n; i++)
				assert_int_equal(got[i], st[i].kind == ST_ROUND ? -1 : (long)i);
			rp_session_close(s);
			unlink(path);
			free(path);
		}
}

/* A deterministic generator, so that failures reproduce. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

/*
 * Random files (times jittered around a rising clock, many equal times,
 * rounds at random, untimed and user records between) compared with the
 * model.
 */
static void test_random_against_model(void **state)
{
	(void)state;
	static struct step st[600];
	static struct model m;

	rng_state = 0x2545f4914f6cdd1dull;
	for (int iter = 0; iter < 120; iter++) {
		size_t n = 50 + rng() % 550;
		uint64_t clock = 1000;
		unsigned jitter = 1 + (unsigned)(rng() % 300);
		unsigned round_every = 2 + (unsigned)(rng() % 60);

		for (size_t i = 0; i < n; i++) {
			unsigned r = (unsigned)(rng() % 100);

			clock += rng() % 20;
			if (r < 2 + round_every / 6) {
				st[i].kind = ST_ROUND;
				st[i].time = 0;
			} else if (r < 8) {
				st[i].kind = ST_UNTIMED;
				st[i].time = 0;
			} else if (r < 10) {
				st[i].kind = ST_USER;
				st[i].time = 0;
			} else {
				st[i].kind = r < 30 ? ST_COMM : ST_SAMPLE;
				st[i].time = clock > jitter ? clock - rng() % jitter : clock;
				if (r == 99)
					st[i].time = 0; /* synthesized */
			}
		}
		model_run(&m, st, n);
		expect_order(st, n, m.out, m.nout, m.unordered);
	}
}

/*
 * max_queued bounds what is held back: when the record read k-th (from 0)
 * is delivered at position p, at least k + 1 - p records had been read and
 * not delivered, so k - p stays within max_queued (plus one for a record
 * read but not yet queued).
 */
static void test_max_queued(void **state)
{
	(void)state;
	static struct step st[2000];
	static long got[2000];
	static uint8_t seen[2000];

	/* 20 rising times, then an old one: held back at most 4 deep. */
	for (size_t i = 0; i < 20; i++)
		st[i] = (struct step){ ST_SAMPLE, 100 + 10 * i };
	st[20] = (struct step){ ST_SAMPLE, 5 };
	for (int swap = 0; swap < 2; swap++) {
		char *path = write_steps(st, 21, swap, 1);
		uint64_t unordered;
		size_t n = read_tags(path, RP_ORDER_TIME, 4, got, 2000, &unordered);

		assert_int_equal(n, 21);
		size_t pos = 0;
		while (pos < n && got[pos] != 20)
			pos++;
		assert_true(pos < n);
		if (pos < 20 - 4)
			fail_msg("the last record came out at %zu: more than 4 were held", pos);
		assert_true(unordered >= 1);
		/* without a cap it is simply first */
		n = read_tags(path, RP_ORDER_TIME, 0, got, 2000, &unordered);
		assert_int_equal(n, 21);
		assert_int_equal(got[0], 20);
		assert_int_equal(unordered, 0);
		unlink(path);
		free(path);
	}

	/* Random times, no rounds at all. */
	rng_state = 0x853c49e6748fea9bull;
	for (size_t i = 0; i < 2000; i++)
		st[i] = (struct step){ ST_SAMPLE, 1 + rng() % 100000 };
	for (int swap = 0; swap < 2; swap++)
		for (uint64_t cap = 2; cap <= 256; cap *= 4) {
			char *path = write_steps(st, 2000, swap, 1);
			uint64_t unordered;
			size_t n = read_tags(path, RP_ORDER_TIME, cap, got, 2000, &unordered);

			assert_int_equal(n, 2000);
			memset(seen, 0, sizeof(seen));
			for (size_t p = 0; p < n; p++) {
				assert_true(got[p] >= 0 && got[p] < 2000);
				assert_false(seen[got[p]]);
				seen[got[p]] = 1;
				if ((uint64_t)got[p] > p + cap + 1)
					fail_msg("cap %llu: record %ld delivered at %zu",
						 (unsigned long long)cap, got[p], p);
			}
			unlink(path);
			free(path);
		}
}

/* A framing error in time order: every record read before it comes first. */
static void test_error_after_queue(void **state)
{
	(void)state;
	/*                         0      1  2      3      4  5      6      7 (broken) */
	const struct step st[] = { S(50), R, S(40), S(30), R, S(20), S(35), S(10) };

	for (int swap = 0; swap < 2; swap++) {
		char *path = write_steps(st, N(st), swap, 1);
		struct tb_buf b;
		FILE *fp = fopen(path, "r+b");
		struct rp_session *s;
		struct tb_seen seen[16];
		size_t n;
		int rc;

		/* Break the size of the last record (the sample at time 10). */
		tb_init(&b, swap);
		assert_non_null(fp);
		fseek(fp, 0, SEEK_END);
		long len = ftell(fp);
		b.data = malloc((size_t)len);
		b.len = b.alloc = (size_t)len;
		fseek(fp, 0, SEEK_SET);
		assert_int_equal(fread(b.data, 1, (size_t)len, fp), (size_t)len);
		uint64_t data_off, data_size;
		memcpy(&data_off, b.data + 40, 8);
		memcpy(&data_size, b.data + 48, 8);
		if (swap) {
			data_off = __builtin_bswap64(data_off);
			data_size = __builtin_bswap64(data_size);
		}
		/* each sample is 8 + 5 * 8 = 48 bytes, a round 8 */
		uint64_t last = data_off + data_size - 48;
		tb_put_u16(&b, (size_t)last + 6, 4);
		fseek(fp, 0, SEEK_SET);
		fwrite(b.data, 1, b.len, fp);
		fclose(fp);
		tb_free(&b);

		s = tb_open(path, RP_ORDER_TIME, 0);
		assert_non_null(s);
		n = tb_collect(s, seen, 16, &rc);
		assert_int_equal(rc, RP_ERR_CORRUPT);
		/* 30, 40, 50 at the second round; 20 and 35 before the error */
		size_t k = 0;
		const uint64_t want[] = { 30, 40, 50, 20, 35 };
		for (size_t i = 0; i < n && i < 16; i++) {
			if (seen[i].type != RP_RECORD_SAMPLE)
				continue;
			assert_true(k < 5);
			assert_int_equal(seen[i].time, want[k]);
			k++;
		}
		assert_int_equal(k, 5);
		assert_int_equal(rp_session_error(s)->offset, last);
		rp_session_close(s);
		unlink(path);
		free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_round_max_restarts),
		cmocka_unit_test(test_stable),
		cmocka_unit_test(test_untimed_at_once),
		cmocka_unit_test(test_file_order),
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_max_queued),
		cmocka_unit_test(test_error_after_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
