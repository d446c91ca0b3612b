/* SPDX-License-Identifier: MIT */
/*
 * Bad containers: not a perf.data file, PERFFILE version 1, a truncated
 * header, sections beyond the end of the file, impossible attr sizes.
 * Each fails with its own error code and an offset, never a crash; a
 * truncated or damaged feature table only loses the features (perf reads
 * such files: measured with perf 6.1).  Both byte orders.
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

/* A good file: one attr with ids, three samples, HOSTNAME and OSRELEASE. */
static void good_file(struct tb_file *f, int swap)
{
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_ID | RP_SAMPLE_PERIOD);
	const uint64_t ids[2] = { 3, 4 };
	struct tb_sample s;

	tb_file_init(f, swap);
	tb_file_attr(f, &a, ids, 2);
	memset(&s, 0, sizeof(s));
	s.id = 3;
	for (int i = 0; i < 3; i++) {
		s.ip = 0x1000 + (uint64_t)i;
		s.time = 100 + (uint64_t)i;
		tb_sample(&f->data, &a, RP_MISC_USER, &s);
	}
	tb_feat_string(tb_file_feat(f, RP_FEAT_HOSTNAME), "host");
	tb_feat_string(tb_file_feat(f, RP_FEAT_OSRELEASE), "6.1.0");
}

/* Opens bytes that must fail; returns the code, err filled. */
static int open_bytes(const struct tb_buf *b, struct rp_error *err)
{
	char *path = tb_write_tmp(b);
	int rc = tb_open_err(path, err);

	unlink(path);
	free(path);
	return rc;
}

/* The error must be code (or code2), with an offset when asked. */
static void expect_err(int rc, const struct rp_error *err, int code, int code2, int offset,
		       uint64_t where, const char *what)
{
	char line[512];

	rp_error_format(err, line, sizeof(line));
	if (rc != code && rc != code2)
		fail_msg("%s: rc %d (%s), expected %d", what, rc, line, code);
	assert_int_equal(err->code, rc);
	assert_true(strlen(line) > 0);
	if (offset) {
		if (!err->has_offset)
			fail_msg("%s: no offset in \"%s\"", what, line);
		if (err->offset != where)
			fail_msg("%s: offset %#llx, expected %#llx (\"%s\")", what,
				 (unsigned long long)err->offset, (unsigned long long)where, line);
	}
}

static void test_not_perf_data(void **state)
{
	(void)state;
	struct tb_buf b;
	struct rp_error err;
	int rc;

	tb_init(&b, 0);
	tb_str(&b, "This is a text file and certainly not a perf.data file at all; "
		   "it is long enough to hold a header though.............", 0);
	rc = open_bytes(&b, &err);
	expect_err(rc, &err, RP_ERR_BAD_MAGIC, RP_ERR_BAD_MAGIC, 1, 0, "text");
	tb_free(&b);

	/* An ELF file */
	tb_init(&b, 0);
	tb_bytes(&b, "\x7f" "ELF\x02\x01\x01", 7);
	tb_zero(&b, 200);
	rc = open_bytes(&b, &err);
	expect_err(rc, &err, RP_ERR_BAD_MAGIC, RP_ERR_BAD_MAGIC, 0, 0, "elf");
	tb_free(&b);

	/* Empty and tiny files */
	tb_init(&b, 0);
	rc = open_bytes(&b, &err);
	expect_err(rc, &err, RP_ERR_TRUNCATED, RP_ERR_BAD_MAGIC, 0, 0, "empty");
	tb_bytes(&b, "PERFIL", 6);
	rc = open_bytes(&b, &err);
	expect_err(rc, &err, RP_ERR_TRUNCATED, RP_ERR_BAD_MAGIC, 0, 0, "6 bytes");
	tb_free(&b);

	/* A path that does not exist */
	rc = tb_open_err("/nonexistent/dir/perf.data", &err);
	expect_err(rc, &err, RP_ERR_IO, RP_ERR_IO, 0, 0, "missing file");
	assert_true(err.sys_errno != 0);
}

static void test_perffile_v1(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct tb_buf out;
		struct rp_error err;
		int rc;

		good_file(&f, swap);
		f.magic_v1 = 1;
		tb_file_build(&f, &out);
		rc = open_bytes(&out, &err);
		expect_err(rc, &err, RP_ERR_UNSUPPORTED, RP_ERR_UNSUPPORTED, 0, 0, "PERFFILE");
		tb_free(&out);
		tb_file_free(&f);
	}
}

/* Every prefix of the 104-byte header is truncated. */
static void test_truncated_header(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct tb_buf out;
		struct rp_error err;

		good_file(&f, swap);
		tb_file_build(&f, &out);
		size_t full = out.len;
		for (size_t len = 8; len < 104; len += 8) {
			out.len = len;
			int rc = open_bytes(&out, &err);
			expect_err(rc, &err, RP_ERR_TRUNCATED, RP_ERR_TRUNCATED, 0, 0,
				   "header prefix");
			assert_true(err.has_offset);
		}
		out.len = full;
		tb_free(&out);
		tb_file_free(&f);
	}
}

static void test_bad_header_size(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		const uint64_t sizes[] = { 0, 8, 100, 200, 1u << 20 };

		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			struct tb_file f;
			struct tb_buf out;
			struct rp_error err;

			good_file(&f, swap);
			tb_file_build(&f, &out);
			tb_put_u64(&out, 8, sizes[i]);
			int rc = open_bytes(&out, &err);
			expect_err(rc, &err, RP_ERR_CORRUPT, RP_ERR_UNSUPPORTED, 1, 8, "header size");
			tb_free(&out);
			tb_file_free(&f);
		}
	}
}

/* The attrs, ids or data section claims bytes past the end of the file. */
static void test_sections_beyond_file(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++)
		for (int which = 0; which < 5; which++) {
			struct tb_file f;
			struct tb_buf out;
			struct rp_error err;
			uint64_t where = 0;
			const char *what = "";

			good_file(&f, swap);
			tb_file_build(&f, &out);
			switch (which) {
			case 0: /* attrs offset */
				tb_put_u64(&out, 24, out.len + 8);
				where = out.len + 8;
				what = "attrs offset";
				break;
			case 1: /* attrs size */
				tb_put_u64(&out, 32, out.len);
				where = f.off_attrs;
				what = "attrs size";
				break;
			case 2: /* an overflowing attrs section */
				tb_put_u64(&out, 24, ~0ull - 8);
				where = ~0ull - 8;
				what = "attrs overflow";
				break;
			case 3: /* ids offset of attr 0 */
				tb_put_u64(&out, f.off_attrs + 136, out.len - 8);
				what = "ids";
				break;
			case 4: /* ids size of attr 0 */
				tb_put_u64(&out, f.off_attrs + 144, ~0ull & ~7ull);
				what = "ids size";
				break;
			}
			int rc = open_bytes(&out, &err);
			expect_err(rc, &err, RP_ERR_TRUNCATED, RP_ERR_CORRUPT, which < 3, where, what);
			assert_true(err.has_offset);
			tb_free(&out);
			tb_file_free(&f);
		}
}

/*
 * A data section past the end of the file: refused at open, or the
 * records that are there are delivered and then the error comes.
 */
static void test_data_beyond_file(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++)
		for (int which = 0; which < 3; which++) {
			struct tb_file f;
			struct tb_buf out;
			struct rp_error err;
			struct rp_session *s = NULL;
			char *path;
			int rc;

			good_file(&f, swap);
			tb_file_build(&f, &out);
			if (which == 0) /* the size runs past the end */
				tb_put_u64(&out, 48, out.len);
			else if (which == 1) /* the offset is past the end */
				tb_put_u64(&out, 40, out.len + 4096);
			else /* the file was cut inside the data */
				out.len = f.off_data + 40 + 8;
			path = tb_write_tmp(&out);
			memset(&err, 0, sizeof(err));
			rc = rp_session_open(&s, path, NULL, &err);
			if (rc < 0) {
				expect_err(rc, &err, RP_ERR_TRUNCATED, RP_ERR_CORRUPT, 0, 0, "data");
				assert_true(err.has_offset);
			} else {
				struct tb_seen seen[8];
				size_t n = tb_collect(s, seen, 8, &rc);

				assert_true(n <= 3);
				assert_true(rc == RP_ERR_TRUNCATED || rc == RP_ERR_CORRUPT);
				assert_true(rp_session_error(s)->has_offset);
				rp_session_close(s);
			}
			unlink(path);
			free(path);
			tb_free(&out);
			tb_file_free(&f);
		}
}

/* attr_size (the stride) 0, too small, or attrs.size 0. */
static void test_bad_attr_stride(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		const uint64_t strides[] = { 0, 8, 63, 1ull << 40 };

		for (size_t i = 0; i < sizeof(strides) / sizeof(strides[0]); i++) {
			struct tb_file f;
			struct tb_buf out;
			struct rp_error err;

			good_file(&f, swap);
			tb_file_build(&f, &out);
			tb_put_u64(&out, 16, strides[i]);
			int rc = open_bytes(&out, &err);
			expect_err(rc, &err, RP_ERR_CORRUPT, RP_ERR_LIMIT, 0, 0, "stride");
			tb_free(&out);
			tb_file_free(&f);
		}
		/* no attrs at all */
		struct tb_file f;
		struct tb_buf out;
		struct rp_error err;

		good_file(&f, swap);
		tb_file_build(&f, &out);
		tb_put_u64(&out, 32, 0);
		int rc = open_bytes(&out, &err);
		expect_err(rc, &err, RP_ERR_CORRUPT, RP_ERR_CORRUPT, 0, 0, "no attrs");
		/* an attr smaller than VER0 */
		tb_put_u64(&out, 32, f.attrs[0].attr.size + 16);
		tb_put_u32(&out, f.off_attrs + 4, 32);
		rc = open_bytes(&out, &err);
		expect_err(rc, &err, RP_ERR_CORRUPT, RP_ERR_CORRUPT, 1, f.off_attrs, "attr size 32");
		tb_free(&out);
		tb_file_free(&f);
	}
}

/*
 * A feature table cut short, or a feature body past the end: perf 6.1
 * reads the records all the same (and prints "(null)" for the feature);
 * readperf opens the file and loses only the damaged features.
 */
static void damaged_features(int which)
{
	for (int swap = 0; swap < 2; swap++) {
			struct tb_file f;
			struct tb_buf out;
			struct rp_session *s;
			struct tb_seen seen[8];
			char *path;
			int rc;

			good_file(&f, swap);
			tb_file_build(&f, &out);
			if (which == 0) /* the table ends inside its first entry */
				out.len = f.off_feat_index + 8;
			else if (which == 1) /* OSRELEASE's body is past the end */
				tb_put_u64(&out, f.off_feat_index + 16, out.len + 4096);
			else /* OSRELEASE's size is huge */
				tb_put_u64(&out, f.off_feat_index + 24, ~0ull >> 1);
			path = tb_write_tmp(&out);
			s = tb_open(path, RP_ORDER_TIME, 0);
			if (!s)
				fail_msg("which %d swap %d: perf reads this file", which, swap);
			if (which > 0) {
				assert_string_equal(rp_session_header(s)->hostname, "host");
				assert_null(rp_session_header(s)->osrelease);
			}
			assert_int_equal(tb_collect(s, seen, 8, &rc), 3);
			assert_int_equal(rc, 0);
			rp_session_close(s);
			unlink(path);
			free(path);
			tb_free(&out);
			tb_file_free(&f);
		}
}

static void test_feature_table_cut(void **state)
{
	(void)state;
	damaged_features(0);
}

static void test_feature_body_beyond_file(void **state)
{
	(void)state;
	damaged_features(1);
	damaged_features(2);
}

/* Damaged feature bodies never crash and never fail the open. */
static void test_feature_bodies_fuzzed(void **state)
{
	(void)state;
	uint64_t x = 0x1234567;

	for (int swap = 0; swap < 2; swap++)
		for (int iter = 0; iter < 300; iter++) {
			struct tb_file f;
			struct tb_buf out;
			struct tb_buf *fb;
			struct rp_session *s;
			char *path;

			good_file(&f, swap);
			fb = tb_file_feat(&f, RP_FEAT_CMDLINE);
			tb_u32(fb, 2);
			tb_feat_string(fb, "perf");
			tb_feat_string(fb, "record");
			fb = tb_file_feat(&f, RP_FEAT_EVENT_DESC);
			tb_u32(fb, 1), tb_u32(fb, 136);
			tb_attr(fb, &f.attrs[0].attr, 136);
			tb_u32(fb, 1), tb_feat_string(fb, "ev"), tb_u64(fb, 3);
			fb = tb_file_feat(&f, RP_FEAT_BUILD_ID);
			size_t st = tb_rec_begin(fb, 0, RP_MISC_USER);
			tb_u32(fb, 0), tb_zero(fb, 24), tb_str(fb, "/bin/ls", 64);
			tb_rec_end_nopad(fb, st);
			tb_u32(tb_file_feat(&f, RP_FEAT_NRCPUS), 4);
			tb_file_build(&f, &out);
			/* flip a few bytes of the feature bodies */
			size_t body = f.off_feat_index + 16 * 6;
			for (int k = 0; k < 4; k++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				out.data[body + x % (out.len - body)] ^= (uint8_t)(x >> 32);
			}
			path = tb_write_tmp(&out);
			s = tb_open(path, RP_ORDER_FILE, 0);
			if (s) {
				struct tb_seen seen[8];
				int rc;

				tb_collect(s, seen, 8, &rc);
				assert_int_equal(rc, 0);
				const struct rp_header_info *h = rp_session_header(s);
				for (uint32_t i = 0; i < h->cmdline_argc; i++)
					assert_non_null(h->cmdline_argv[i]);
				rp_session_close(s);
			}
			unlink(path);
			free(path);
			tb_free(&out);
			tb_file_free(&f);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_perf_data),
		cmocka_unit_test(test_perffile_v1),
		cmocka_unit_test(test_truncated_header),
		cmocka_unit_test(test_bad_header_size),
		cmocka_unit_test(test_sections_beyond_file),
		cmocka_unit_test(test_data_beyond_file),
		cmocka_unit_test(test_bad_attr_stride),
		cmocka_unit_test(test_feature_table_cut),
		cmocka_unit_test(test_feature_body_beyond_file),
		cmocka_unit_test(test_feature_bodies_fuzzed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
