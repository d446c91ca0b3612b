/* SPDX-License-Identifier: MIT */
/*
 * Directory mode (perf record --threads): `data` holds the header and some
 * records, the `data.N` files bare records without FINISHED_ROUND; every
 * record reaches the caller, samples in time order across the files, and
 * DIR/kcore_dir/kallsyms is exposed when it exists.  Both byte orders.
 *
 * Format: perf.data-directory-format.txt; perf's session.c
 * (__perf_session__process_dir_events: one ordered queue for all files).
 */
#include <setjmp.h>
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "builder.h"

static void sample(struct tb_buf *b, const struct rp_attr *a, uint64_t t)
{
	struct tb_sample s;

	memset(&s, 0, sizeof(s));
	s.ip = 0x1000 + t;
	s.pid = s.tid = 7;
	s.time = t;
	s.period = 1;
	tb_sample(b, a, 0, &s);
}

static void write_buf(const char *dir, const char *name, const struct tb_buf *b)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	tb_write_file(b, path);
}

static void test_dir_merge(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		char dir[] = "/tmp/rp-test-dir.XXXXXX";
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
						   RP_SAMPLE_PERIOD);
		struct tb_file f;
		struct tb_buf out, d0, d1;
		struct rp_session *s;
		struct rp_event ev;
		uint64_t last = 0, n = 0;
		char path[600];
		int rc;

		assert_non_null(mkdtemp(dir));
		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, NULL, 0);
		sample(&f.data, &a, 50);
		tb_file_build(&f, &out);
		write_buf(dir, "data", &out);

		tb_init(&d0, swap);
		tb_init(&d1, swap);
		/* Each file in its own order, interleaved in time. */
		for (uint64_t t = 100; t < 200; t += 10) {
			sample(&d0, &a, t);
			sample(&d1, &a, t + 5);
		}
		sample(&d1, &a, 60);
		write_buf(dir, "data.0", &d0);
		write_buf(dir, "data.1", &d1);

		s = tb_open(dir, RP_ORDER_TIME, 0);
		assert_true(rp_session_is_dir(s));
		assert_int_equal(rp_session_nr_data_files(s), 3);
		assert_null(rp_session_kcore_kallsyms(s));
		while ((rc = rp_test_next(s, &ev)) == 1) {
			if (ev.type != RP_RECORD_SAMPLE)
				continue;
			/* data.1's late record at 60 comes after 50, before 100 */
			assert_true(ev.u.sample.time >= last);
			last = ev.u.sample.time;
			n++;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(n, 22);
		rp_session_close(s);

		/* kcore_dir/kallsyms is found. */
		snprintf(path, sizeof(path), "%s/kcore_dir", dir);
		assert_int_equal(mkdir(path, 0700), 0);
		snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", dir);
		FILE *k = fopen(path, "w");
		assert_non_null(k);
		fputs("ffffffff81000000 T _text\n", k);
		fclose(k);
		s = tb_open(dir, RP_ORDER_TIME, 0);
		assert_non_null(rp_session_kcore_kallsyms(s));
		assert_string_equal(rp_session_kcore_kallsyms(s), path);
		rp_session_close(s);

		unlink(path);
		snprintf(path, sizeof(path), "%s/kcore_dir", dir);
		rmdir(path);
		for (const char *const *nm = (const char *const[]){ "data", "data.0", "data.1", NULL };
		     *nm; nm++) {
			snprintf(path, sizeof(path), "%s/%s", dir, *nm);
			unlink(path);
		}
		rmdir(dir);
		tb_free(&out);
		tb_free(&d0);
		tb_free(&d1);
		tb_file_free(&f);
	}
}

/* A record cut at the end of a data.N file is an error after the rest. */
static void test_dir_truncated_part(void **state)
{
	char dir[] = "/tmp/rp-test-dir.XXXXXX";
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_PERIOD);
	struct tb_file f;
	struct tb_buf out, d0;
	struct rp_session *s;
	struct rp_event ev;
	char path[600];
	int rc, n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, NULL, 0);
	tb_file_build(&f, &out);
	write_buf(dir, "data", &out);
	tb_init(&d0, 0);
	sample(&d0, &a, 10);
	sample(&d0, &a, 20);
	d0.len -= 4;
	write_buf(dir, "data.0", &d0);
	s = tb_open(dir, RP_ORDER_TIME, 0);
	while ((rc = rp_test_next(s, &ev)) == 1)
		n += ev.type == RP_RECORD_SAMPLE;
	assert_int_equal(n, 1);
	assert_int_equal(rc, RP_ERR_TRUNCATED);
	rp_session_close(s);
	snprintf(path, sizeof(path), "%s/data", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/data.0", dir);
	unlink(path);
	rmdir(dir);
	tb_free(&out);
	tb_free(&d0);
	tb_file_free(&f);
}

/* Samples with equal times in several files come in perf's reading order:
 * `data` first, then the data.N files in readdir(3) order (not numeric),
 * each read for a turn of RP_DIR_TURN_BYTES (2 MiB: the record that
 * reaches it ends the turn), round and round until all are done.  The
 * sample's ip names its file and its place there. */
#define EQ_FILES 3
#define EQ_PER_FILE 60000u /* 40-byte samples: more than one 2 MiB turn */
#define EQ_TURN (2u << 20)

static void test_dir_equal_times_order(void **state)
{
	char dir[] = "/tmp/rp-test-dir.XXXXXX";
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_PERIOD);
	struct tb_file f;
	struct tb_buf out, d[EQ_FILES];
	struct rp_session *s;
	struct rp_event ev;
	char path[600];
	int order[EQ_FILES], nr_order = 0;
	uint64_t *want, nr_want = 0, n = 0;
	size_t rec_size = 0;
	DIR *dd;
	struct dirent *de;
	int rc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, NULL, 0);
	/* ip = file << 32 | index; `data` is file 0xff. */
	for (uint64_t i = 0; i < 3; i++) {
		struct tb_sample x;

		memset(&x, 0, sizeof(x));
		x.ip = 0xff00000000ull | i;
		x.pid = x.tid = 7;
		x.time = 100;
		x.period = 1;
		tb_sample(&f.data, &a, 0, &x);
	}
	tb_file_build(&f, &out);
	write_buf(dir, "data", &out);
	for (int k = 0; k < EQ_FILES; k++) {
		char name[16];

		tb_init(&d[k], 0);
		for (uint64_t i = 0; i < EQ_PER_FILE; i++) {
			struct tb_sample x;
			size_t before = d[k].len;

			memset(&x, 0, sizeof(x));
			x.ip = (uint64_t)k << 32 | i;
			x.pid = x.tid = 7;
			x.time = 100;
			x.period = 1;
			tb_sample(&d[k], &a, 0, &x);
			rec_size = d[k].len - before;
		}
		snprintf(name, sizeof(name), "data.%d", k);
		write_buf(dir, name, &d[k]);
	}

	/* The files in the order the directory lists them. */
	dd = opendir(dir);
	assert_non_null(dd);
	while ((de = readdir(dd)) != NULL)
		if (!strncmp(de->d_name, "data.", 5))
			order[nr_order++] = atoi(de->d_name + 5);
	closedir(dd);
	assert_int_equal(nr_order, EQ_FILES);

	/* What perf's turns give. */
	want = calloc(3 + EQ_FILES * EQ_PER_FILE, sizeof(*want));
	assert_non_null(want);
	for (uint64_t i = 0; i < 3; i++)
		want[nr_want++] = 0xff00000000ull | i;
	{
		uint64_t next[EQ_FILES] = { 0 };
		int left = EQ_FILES;

		while (left) {
			for (int j = 0; j < nr_order; j++) {
				int k = order[j];
				size_t turn = 0;

				if (next[k] == EQ_PER_FILE)
					continue;
				while (next[k] < EQ_PER_FILE && turn < EQ_TURN) {
					want[nr_want++] = (uint64_t)k << 32 | next[k]++;
					turn += rec_size;
				}
				if (next[k] == EQ_PER_FILE)
					left--;
			}
		}
	}

	s = tb_open(dir, RP_ORDER_TIME, 0);
	while ((rc = rp_test_next(s, &ev)) == 1) {
		if (ev.type != RP_RECORD_SAMPLE)
			continue;
		assert_true(n < nr_want);
		if (ev.u.sample.ip != want[n])
			fail_msg("sample %llu: ip %#llx, want %#llx", (unsigned long long)n,
				 (unsigned long long)ev.u.sample.ip, (unsigned long long)want[n]);
		n++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, nr_want);
	rp_session_close(s);

	snprintf(path, sizeof(path), "%s/data", dir);
	unlink(path);
	for (int k = 0; k < EQ_FILES; k++) {
		snprintf(path, sizeof(path), "%s/data.%d", dir, k);
		unlink(path);
		tb_free(&d[k]);
	}
	rmdir(dir);
	free(want);
	tb_free(&out);
	tb_file_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_merge),
		cmocka_unit_test(test_dir_truncated_part),
		cmocka_unit_test(test_dir_equal_times_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
