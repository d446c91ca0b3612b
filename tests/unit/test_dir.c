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
		while ((rc = rp_session_next(s, &ev)) == 1) {
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
	while ((rc = rp_session_next(s, &ev)) == 1)
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_merge),
		cmocka_unit_test(test_dir_truncated_part),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
