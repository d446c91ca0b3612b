/* SPDX-License-Identifier: MIT */
/*
 * Recordings cut short: perf record writes its header (and the attrs)
 * with data size 0 before the first record, and the real size and the
 * feature sections after the data only when it finishes.  A file still
 * saying data size 0 is read from the data offset up to its last whole
 * record, without features, and its end is not an error
 * (stats.cut_short, bytes_recovered, bytes_cut).  A finished recording
 * without records (data size 0, a feature index at the data offset) is
 * not cut short.  Both byte orders, file and time order.
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

#define NR_SAMPLES 5
#define HDR_DATA_SIZE 48 /* offset of perf_file_header.data.size */

/* One attr with two ids, a COMM, NR_SAMPLES samples, two features. */
static void good_file(struct tb_file *f, int swap, size_t *sample_size)
{
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_ID | RP_SAMPLE_PERIOD);
	const uint64_t ids[2] = { 3, 4 };
	struct tb_sample s;

	tb_file_init(f, swap);
	tb_file_attr(f, &a, ids, 2);
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = 42;
	s.id = 3;
	size_t c = tb_rec_begin(&f->data, RP_RECORD_COMM, 0);
	tb_u32(&f->data, 42);
	tb_u32(&f->data, 42);
	tb_str(&f->data, "work", 8);
	s.time = 50;
	tb_sample_id(&f->data, &a, &s);
	tb_rec_end(&f->data, c);
	for (int i = 0; i < NR_SAMPLES; i++) {
		size_t at = f->data.len;

		s.ip = 0x1000 + (uint64_t)i;
		s.time = 100 + (uint64_t)i;
		s.period = 1000;
		tb_sample(&f->data, &a, RP_MISC_USER, &s);
		*sample_size = f->data.len - at;
	}
	tb_feat_string(tb_file_feat(f, RP_FEAT_HOSTNAME), "host");
	tb_feat_string(tb_file_feat(f, RP_FEAT_OSRELEASE), "6.1.0");
}

/*
 * The file as a killed perf record leaves it: the header with data size
 * 0 (the feature bits as perf set them at the start), the attrs, the
 * records up to `keep` bytes of the data section, then `zeros` zero bytes
 * (what a crash can leave after the last write).
 */
static char *cut_file(struct tb_file *f, size_t keep, size_t zeros, uint64_t *data_off)
{
	struct tb_buf b;

	tb_file_build(f, &b);
	assert_true(f->off_data + keep <= b.len);
	b.len = (size_t)f->off_data + keep;
	tb_put_u64(&b, HDR_DATA_SIZE, 0);
	tb_zero(&b, zeros);
	*data_off = f->off_data;
	char *path = tb_write_tmp(&b);
	tb_free(&b);
	return path;
}

struct outcome {
	size_t samples, records;
	int rc;
	const struct rp_session_stats *st;
};

static void read_all(struct rp_session *s, struct outcome *o)
{
	struct tb_seen seen[64];

	o->records = tb_collect(s, seen, 64, &o->rc);
	o->samples = 0;
	for (size_t i = 0; i < o->records && i < 64; i++)
		o->samples += seen[i].type == RP_RECORD_SAMPLE;
	o->st = rp_session_stats(s);
}

/* Cut at every length from the data offset to the end of the records,
 * then with zeros after them: whole records only, never an error. */
static void check_cuts(int swap, enum rp_order order)
{
	struct tb_file f;
	size_t ssize = 0;

	good_file(&f, swap, &ssize);
	size_t data_len = f.data.len;
	size_t comm_len = data_len - NR_SAMPLES * ssize;

	for (size_t keep = 0; keep <= data_len; keep++) {
		uint64_t data_off;
		char *path = cut_file(&f, keep, keep == data_len ? 64 : 0, &data_off);
		struct rp_session *s = tb_open(path, order, 0);
		struct outcome o;

		unlink(path);
		free(path);
		assert_non_null(s);
		assert_int_equal(rp_session_stats(s)->cut_short, 1);
		/* The features were never written: none is read. */
		assert_false(rp_session_has_feature(s, RP_FEAT_HOSTNAME));
		assert_null(rp_session_header(s)->hostname);
		assert_int_equal(rp_session_data_size(s), 0);
		read_all(s, &o);
		if (o.rc != 0)
			fail_msg("cut at %zu of %zu data bytes (swap %d): rc %d (%s)", keep,
				 data_len, swap, o.rc, rp_session_error(s)->msg);
		size_t whole = keep < comm_len ? 0 : 1 + (keep - comm_len) / ssize;
		size_t whole_bytes = whole == 0 ? 0 : comm_len + (whole - 1) * ssize;

		if (o.records != whole)
			fail_msg("cut at %zu: %zu records, expected %zu", keep, o.records, whole);
		assert_int_equal(o.samples, whole ? whole - 1 : 0);
		assert_int_equal(o.st->bytes_recovered, whole_bytes);
		assert_int_equal(o.st->bytes_cut, keep - whole_bytes + (keep == data_len ? 64 : 0));
		assert_int_equal(o.st->bytes_skipped, 0);
		rp_session_close(s);
	}
	tb_file_free(&f);
}

static void test_cut_everywhere(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		check_cuts(swap, RP_ORDER_FILE);
		check_cuts(swap, RP_ORDER_TIME);
	}
}

/* A record that cannot be one (size not a multiple of 8, type 0) ends the
 * recovered data, as the end of the file does. */
static void test_implausible_record(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		for (int kind = 0; kind < 2; kind++) {
			struct tb_file f;
			size_t ssize = 0;

			good_file(&f, swap, &ssize);
			size_t whole = f.data.len;
			if (kind == 0) {
				tb_u32(&f.data, RP_RECORD_SAMPLE);
				tb_u16(&f.data, RP_MISC_USER);
				tb_u16(&f.data, 20); /* not a multiple of 8 */
			} else {
				tb_u32(&f.data, 0); /* type 0 */
				tb_u16(&f.data, 0);
				tb_u16(&f.data, 16);
			}
			tb_zero(&f.data, 24);
			size_t total = f.data.len;
			uint64_t data_off;
			char *path = cut_file(&f, total, 0, &data_off);
			struct rp_session *s = tb_open(path, RP_ORDER_TIME, 0);
			struct outcome o;

			unlink(path);
			free(path);
			assert_non_null(s);
			read_all(s, &o);
			assert_int_equal(o.rc, 0);
			assert_int_equal(o.samples, NR_SAMPLES);
			assert_int_equal(o.st->bytes_recovered, whole);
			assert_int_equal(o.st->bytes_cut, total - whole);
			rp_session_close(s);
			tb_file_free(&f);
		}
	}
}

/* A record that contradicts its type inside the recovered data is still an
 * error, after the records before it; bytes_recovered counts what was
 * read up to it. */
static void test_corrupt_inside(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		size_t ssize = 0;

		good_file(&f, swap, &ssize);
		size_t before = f.data.len;
		size_t r = tb_rec_begin(&f.data, RP_RECORD_SAMPLE, RP_MISC_USER);
		tb_u64(&f.data, 0x1234); /* an ip, and nothing of the rest */
		tb_rec_end(&f.data, r);
		size_t bad_end = f.data.len;
		uint64_t data_off;
		char *path = cut_file(&f, f.data.len, 0, &data_off);
		struct rp_session *s = tb_open(path, RP_ORDER_FILE, 0);
		struct outcome o;

		unlink(path);
		free(path);
		assert_non_null(s);
		read_all(s, &o);
		assert_int_equal(o.rc, RP_ERR_CORRUPT);
		assert_int_equal(o.samples, NR_SAMPLES);
		assert_int_equal(o.st->cut_short, 1);
		assert_int_equal(o.st->bytes_recovered, bad_end);
		assert_true(before < bad_end);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/* A finished recording without records says data size 0 too, but its
 * feature index sits at the data offset: not cut short, features read. */
static void test_finished_empty(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		size_t ssize = 0;

		good_file(&f, swap, &ssize);
		f.data.len = 0;
		struct rp_session *s = tb_file_open(&f, RP_ORDER_TIME);
		struct outcome o;

		assert_non_null(s);
		assert_int_equal(rp_session_stats(s)->cut_short, 0);
		assert_true(rp_session_has_feature(s, RP_FEAT_HOSTNAME));
		assert_string_equal(rp_session_header(s)->hostname, "host");
		read_all(s, &o);
		assert_int_equal(o.rc, 0);
		assert_int_equal(o.records, 0);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/* A finished recording (the data size written) is not cut short, and a
 * file cut inside its data section stays an error (it said how much data
 * there was). */
static void test_finished_not_cut_short(void **state)
{
	(void)state;
	struct tb_file f;
	size_t ssize = 0;

	good_file(&f, 0, &ssize);
	struct rp_session *s = tb_file_open(&f, RP_ORDER_TIME);
	struct outcome o;

	assert_non_null(s);
	read_all(s, &o);
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.samples, NR_SAMPLES);
	assert_int_equal(o.st->cut_short, 0);
	assert_int_equal(o.st->bytes_recovered, 0);
	rp_session_close(s);

	struct tb_buf b;
	tb_file_build(&f, &b);
	b.len = (size_t)f.off_data + f.data.len - 4;
	char *path = tb_write_tmp(&b);
	s = tb_open(path, RP_ORDER_TIME, 0);
	unlink(path);
	free(path);
	assert_non_null(s);
	read_all(s, &o);
	assert_int_equal(o.rc, RP_ERR_TRUNCATED);
	assert_int_equal(o.st->cut_short, 0);
	rp_session_close(s);
	tb_free(&b);
	tb_file_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_implausible_record),
		cmocka_unit_test(test_corrupt_inside),
		cmocka_unit_test(test_finished_empty),
		cmocka_unit_test(test_finished_not_cut_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
