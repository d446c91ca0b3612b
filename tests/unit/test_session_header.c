/* SPDX-License-Identifier: MIT */
/*
 * The container: perf_file_header, perf_file_attr entries of every size
 * perf has written, their ids, and the header features, in both byte
 * orders.
 *
 * Format: perf.data-file-format.txt; perf_event.h struct perf_event_attr;
 * perf's header.c for the feature bodies.
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

/* An attr whose every field holds a distinct non-zero value. */
static struct rp_attr full_attr(uint32_t size)
{
	struct rp_attr a;

	memset(&a, 0, sizeof(a));
	a.type = RP_TYPE_HARDWARE;
	a.size = size;
	a.config = 0x0102030405060708ull;
	a.sample_period = 0x1111;
	a.sample_type = RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID |
			RP_SAMPLE_PERIOD;
	a.read_format = RP_FORMAT_ID | RP_FORMAT_TOTAL_TIME_ENABLED;
	/* Bits in five of the eight bytes, and precise_ip = 2. */
	a.flags = RP_ATTR_DISABLED | RP_ATTR_INHERIT | RP_ATTR_EXCLUDE_HV | RP_ATTR_MMAP |
		  RP_ATTR_COMM | RP_ATTR_TASK | (2ull << RP_ATTR_PRECISE_IP_SHIFT) |
		  RP_ATTR_SAMPLE_ID_ALL | RP_ATTR_EXCLUDE_GUEST | RP_ATTR_MMAP2 |
		  RP_ATTR_COMM_EXEC | RP_ATTR_NAMESPACES | RP_ATTR_KSYMBOL | RP_ATTR_CGROUP |
		  RP_ATTR_BUILD_ID | RP_ATTR_SIGTRAP;
	a.wakeup_events = 0x2222;
	a.bp_type = 0x3333;
	a.config1 = 0x4444444444ull;
	a.config2 = 0x5555555555ull;
	a.branch_sample_type = 0x6666;
	a.sample_regs_user = 0x7777777777ull;
	a.sample_stack_user = 0x8888;
	a.clockid = -7;
	a.sample_regs_intr = 0x9999999999ull;
	a.aux_watermark = 0xaaaa;
	a.sample_max_stack = 0xbbb;
	a.aux_sample_size = 0xcccc;
	a.aux_action = 0xdddd;
	a.sig_data = 0xeeeeeeeeeeull;
	a.config3 = 0xffffffffffull;
	return a;
}

/* Checks that got holds want's fields up to `bytes` and zero after. */
static void check_attr(const struct rp_attr *got, const struct rp_attr *want, uint32_t bytes)
{
#define F(field, off, width) \
	assert_int_equal(got->field, (off) + (width) <= bytes ? want->field : 0)
	F(type, 0, 4);
	/* Size 0 means VER0; either spelling of it is fine. */
	if (want->size == 0)
		assert_true(got->size == 0 || got->size == 64);
	else
		assert_int_equal(got->size, want->size);
	F(config, 8, 8);
	F(sample_period, 16, 8);
	F(sample_type, 24, 8);
	F(read_format, 32, 8);
	F(flags, 40, 8);
	F(wakeup_events, 48, 4);
	F(bp_type, 52, 4);
	F(config1, 56, 8);
	F(config2, 64, 8);
	F(branch_sample_type, 72, 8);
	F(sample_regs_user, 80, 8);
	F(sample_stack_user, 88, 4);
	F(clockid, 92, 4);
	F(sample_regs_intr, 96, 8);
	F(aux_watermark, 104, 4);
	F(sample_max_stack, 108, 2);
	F(aux_sample_size, 112, 4);
	F(aux_action, 116, 4);
	F(sig_data, 120, 8);
	F(config3, 128, 8);
#undef F
}

static void test_magic_bytes(void **state)
{
	(void)state;
	/* The builder itself: a swapped file starts with "2ELIFREP". */
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct tb_buf out;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IP);

		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, NULL, 0);
		tb_file_build(&f, &out);
		assert_memory_equal(out.data, swap ? "2ELIFREP" : "PERFILE2", 8);
		tb_free(&out);
		tb_file_free(&f);
	}
}

/* Every attr size perf has written, each as the only attr, both orders. */
static void test_attr_sizes(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		for (size_t k = 0; k < 9; k++) {
			uint32_t size = tb_attr_sizes[k];
			struct rp_attr want = full_attr(size);
			const uint64_t ids[3] = { 101, 102, 0x123456789abcull };
			struct tb_file f;
			struct rp_session *s;
			size_t nr = 0;
			const uint64_t *got_ids;

			tb_file_init(&f, swap);
			tb_file_attr(&f, &want, ids, 3);
			s = tb_file_open(&f, RP_ORDER_FILE);
			assert_non_null(s);
			assert_int_equal(rp_session_nr_evsels(s), 1);
			const struct rp_evsel *e = rp_session_evsel(s, 0);
			assert_non_null(e);
			assert_null(rp_session_evsel(s, 1));
			assert_int_equal(rp_evsel_idx(e), 0);
			check_attr(rp_evsel_attr(e), &want, size);
			got_ids = rp_evsel_ids(e, &nr);
			assert_int_equal(nr, 3);
			assert_memory_equal(got_ids, ids, sizeof(ids));
			assert_int_equal(rp_session_data_offset(s), f.off_data);
			assert_int_equal(rp_session_data_size(s), 0);
			rp_session_close(s);
			tb_file_free(&f);
		}
	}
}

/* attr.size 0 is perf's VER0 (64 bytes). */
static void test_attr_size_zero(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct rp_attr want = full_attr(0);
		struct tb_file f;
		struct rp_session *s;

		tb_file_init(&f, swap);
		f.attrs[tb_file_attr(&f, &want, NULL, 0)].bytes = 64;
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		check_attr(rp_evsel_attr(rp_session_evsel(s, 0)), &want, 64);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/* An attr bigger than any perf knows today: the known fields still read. */
static void test_attr_size_future(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct rp_attr want = full_attr(144);
		struct tb_file f;
		struct rp_session *s;

		tb_file_init(&f, swap);
		tb_file_attr(&f, &want, NULL, 0);
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		check_attr(rp_evsel_attr(rp_session_evsel(s, 0)), &want, 136);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/* attr.size larger than the section's stride (attr_size - 16) is corrupt. */
static void test_attr_size_beyond_stride(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct rp_attr a = full_attr(136);
		struct tb_file f;
		struct rp_error err;
		char *path;

		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, NULL, 0);
		f.attr_stride = 64 + 16;
		path = tb_file_write_tmp(&f);
		assert_int_equal(tb_open_err(path, &err), RP_ERR_CORRUPT);
		assert_int_equal(err.code, RP_ERR_CORRUPT);
		assert_true(err.has_offset);
		assert_int_equal(err.offset, f.off_attrs);
		unlink(path);
		free(path);
		tb_file_free(&f);
	}
}

/* Several attrs, each with its own ids and sizes. */
static void test_multi_attr_ids(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct rp_session *s;
		struct rp_attr a[3];
		const uint64_t ids[3][4] = { { 1, 2, 3, 4 }, { 50 }, { 0 } };
		const size_t nids[3] = { 4, 1, 0 };

		tb_file_init(&f, swap);
		for (int i = 0; i < 3; i++) {
			a[i] = full_attr(128);
			a[i].config = (uint64_t)i + 1;
			a[i].sample_type |= RP_SAMPLE_IDENTIFIER;
			tb_file_attr(&f, &a[i], ids[i], nids[i]);
		}
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		assert_int_equal(rp_session_nr_evsels(s), 3);
		for (int i = 0; i < 3; i++) {
			const struct rp_evsel *e = rp_session_evsel(s, (size_t)i);
			size_t n = 99;
			const uint64_t *got = rp_evsel_ids(e, &n);

			assert_int_equal(rp_evsel_idx(e), i);
			check_attr(rp_evsel_attr(e), &a[i], 128);
			assert_int_equal(n, nids[i]);
			if (n)
				assert_memory_equal(got, ids[i], n * 8);
		}
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/* One HEADER_BUILD_ID-style entry of the BUILD_ID feature. */
static void put_build_id(struct tb_buf *b, int32_t pid, uint16_t misc, const uint8_t *id,
			 int size, const char *name)
{
	size_t start = tb_rec_begin(b, RP_RECORD_HEADER_BUILD_ID, misc);

	tb_u32(b, (uint32_t)pid);
	tb_bytes(b, id, 20);
	tb_u8(b, size >= 0 ? (uint8_t)size : 0);
	tb_zero(b, 3);
	tb_str(b, name, 64);
	tb_rec_end_nopad(b, start);
}

#define MISC_BUILD_ID_SIZE (1u << 15)

static void test_features(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct tb_buf *fb;
		struct rp_session *s;
		struct rp_attr a0 = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
						     RP_SAMPLE_ID | RP_SAMPLE_PERIOD);
		struct rp_attr a1 = a0;
		const uint64_t ids0[2] = { 7, 8 }, ids1[1] = { 9 };
		uint8_t bid[3][20];

		a1.config = 1; /* task-clock */
		tb_file_init(&f, swap);
		tb_file_attr(&f, &a0, ids0, 2);
		tb_file_attr(&f, &a1, ids1, 1);
		tb_feat_string(tb_file_feat(&f, RP_FEAT_HOSTNAME), "host.example");
		tb_feat_string(tb_file_feat(&f, RP_FEAT_OSRELEASE), "6.1.0-13-amd64");
		tb_feat_string(tb_file_feat(&f, RP_FEAT_VERSION), "6.1.187");
		tb_feat_string(tb_file_feat(&f, RP_FEAT_ARCH), "x86_64");
		fb = tb_file_feat(&f, RP_FEAT_NRCPUS);
		tb_u32(fb, 8); /* available */
		tb_u32(fb, 2); /* online */
		tb_feat_string(tb_file_feat(&f, RP_FEAT_CPUDESC),
			       "Intel(R) Xeon(R) CPU @ 2.20GHz");
		tb_feat_string(tb_file_feat(&f, RP_FEAT_CPUID), "GenuineIntel,6,79,0");
		tb_u64(tb_file_feat(&f, RP_FEAT_TOTAL_MEM), 16318000);
		fb = tb_file_feat(&f, RP_FEAT_CMDLINE);
		tb_u32(fb, 4);
		tb_feat_string(fb, "/usr/bin/perf");
		tb_feat_string(fb, "record");
		tb_feat_string(fb, "-g");
		/* 70 bytes: its padded length is 128 */
		tb_feat_string(fb, "a-rather-long-argument-that-needs-more-than-64-bytes-of-room-0123456");
		fb = tb_file_feat(&f, RP_FEAT_EVENT_DESC);
		tb_u32(fb, 2);
		tb_u32(fb, 136);
		tb_attr(fb, &a1, 136); /* out of order on purpose: matched by id */
		tb_u32(fb, 1);
		tb_feat_string(fb, "task-clock:u");
		tb_u64(fb, 9);
		tb_attr(fb, &a0, 136);
		tb_u32(fb, 2);
		tb_feat_string(fb, "my-first-event");
		tb_u64(fb, 7);
		tb_u64(fb, 8);
		fb = tb_file_feat(&f, RP_FEAT_BUILD_ID);
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 20; j++)
				bid[i][j] = (uint8_t)(0x10 * i + j);
		put_build_id(fb, -1, RP_MISC_KERNEL | MISC_BUILD_ID_SIZE, bid[0], 20,
			     "[kernel.kallsyms]");
		put_build_id(fb, -1, RP_MISC_USER | MISC_BUILD_ID_SIZE, bid[1], 8, "/usr/bin/short-id");
		/* Old writers: no size flag, 20 bytes. */
		put_build_id(fb, 4242, RP_MISC_USER, bid[2], -1,
			     "/usr/lib/x86_64-linux-gnu/libc.so.6-with-a-path-longer-than-sixty-four-bytes");
		fb = tb_file_feat(&f, RP_FEAT_SAMPLE_TIME);
		tb_u64(fb, 1000000001ull);
		tb_u64(fb, 2000000002ull);

		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		const struct rp_header_info *h = rp_session_header(s);
		assert_non_null(h);
		assert_string_equal(h->hostname, "host.example");
		assert_string_equal(h->osrelease, "6.1.0-13-amd64");
		assert_string_equal(h->version, "6.1.187");
		assert_string_equal(h->arch, "x86_64");
		assert_int_equal(h->nr_cpus_available, 8);
		assert_int_equal(h->nr_cpus_online, 2);
		assert_string_equal(h->cpudesc, "Intel(R) Xeon(R) CPU @ 2.20GHz");
		assert_string_equal(h->cpuid, "GenuineIntel,6,79,0");
		assert_int_equal(h->total_mem, 16318000);
		assert_int_equal(h->cmdline_argc, 4);
		assert_non_null(h->cmdline_argv);
		assert_string_equal(h->cmdline_argv[0], "/usr/bin/perf");
		assert_string_equal(h->cmdline_argv[1], "record");
		assert_string_equal(h->cmdline_argv[2], "-g");
		assert_string_equal(h->cmdline_argv[3],
				    "a-rather-long-argument-that-needs-more-than-64-bytes-of-room-0123456");
		assert_true(h->has_sample_time);
		assert_int_equal(h->sample_time_first, 1000000001ull);
		assert_int_equal(h->sample_time_last, 2000000002ull);

		assert_int_equal(h->nr_build_ids, 3);
		assert_int_equal(h->build_ids[0].pid, (uint32_t)-1);
		assert_int_equal(h->build_ids[0].misc & RP_MISC_CPUMODE_MASK, RP_MISC_KERNEL);
		assert_int_equal(h->build_ids[0].size, 20);
		assert_memory_equal(h->build_ids[0].build_id, bid[0], 20);
		assert_string_equal(h->build_ids[0].filename, "[kernel.kallsyms]");
		assert_int_equal(h->build_ids[1].misc & RP_MISC_CPUMODE_MASK, RP_MISC_USER);
		assert_int_equal(h->build_ids[1].size, 8);
		assert_memory_equal(h->build_ids[1].build_id, bid[1], 8);
		assert_string_equal(h->build_ids[1].filename, "/usr/bin/short-id");
		assert_int_equal(h->build_ids[2].pid, 4242);
		assert_int_equal(h->build_ids[2].size, 20);
		assert_memory_equal(h->build_ids[2].build_id, bid[2], 20);
		assert_string_equal(h->build_ids[2].filename,
				    "/usr/lib/x86_64-linux-gnu/libc.so.6-with-a-path-longer-than-sixty-four-bytes");

		assert_string_equal(rp_evsel_name(rp_session_evsel(s, 0)), "my-first-event");
		assert_string_equal(rp_evsel_name(rp_session_evsel(s, 1)), "task-clock:u");

		/* The feature map and the raw sections. */
		const unsigned feats[] = { RP_FEAT_BUILD_ID, RP_FEAT_HOSTNAME, RP_FEAT_OSRELEASE,
					   RP_FEAT_VERSION, RP_FEAT_ARCH, RP_FEAT_NRCPUS,
					   RP_FEAT_CPUDESC, RP_FEAT_CPUID, RP_FEAT_TOTAL_MEM,
					   RP_FEAT_CMDLINE, RP_FEAT_EVENT_DESC, RP_FEAT_SAMPLE_TIME };
		for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
			uint64_t off = 0, size = 0;

			assert_true(rp_session_has_feature(s, feats[i]));
			assert_int_equal(rp_session_feature_section(s, feats[i], &off, &size), 0);
			assert_int_equal(size, f.feat[feats[i]].len);
			/* Sections follow the index in bit order. */
			assert_true(off >= f.off_feat_index + 16 * 12);
		}
		assert_false(rp_session_has_feature(s, RP_FEAT_TRACING_DATA));
		assert_false(rp_session_has_feature(s, RP_FEAT_COMPRESSED));
		assert_false(rp_session_has_feature(s, 255));
		uint64_t o, z;
		assert_int_equal(rp_session_feature_section(s, RP_FEAT_CLOCKID, &o, &z),
				 RP_ERR_INVAL);
		assert_string_equal(rp_feature_name(RP_FEAT_HOSTNAME), "HOSTNAME");
		assert_string_equal(rp_feature_name(RP_FEAT_SAMPLE_TIME), "SAMPLE_TIME");
		assert_null(rp_feature_name(200));
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/* No features at all: strings NULL, counts 0, names from type/config. */
static void test_no_features(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct rp_session *s;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID);

		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, NULL, 0);
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		const struct rp_header_info *h = rp_session_header(s);
		assert_null(h->hostname);
		assert_null(h->osrelease);
		assert_null(h->arch);
		assert_null(h->cpudesc);
		assert_int_equal(h->cmdline_argc, 0);
		assert_int_equal(h->nr_build_ids, 0);
		assert_false(h->has_sample_time);
		for (unsigned i = 0; i < RP_FEAT_BITS; i++)
			assert_false(rp_session_has_feature(s, i));
		assert_string_equal(rp_evsel_name(rp_session_evsel(s, 0)), "cpu-clock");
		assert_int_equal(rp_session_size(s), f.off_feat_index);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/*
 * A header of 72 bytes is perf's format before the feature bitmap: perf
 * reads it with no features, whatever the bytes after it hold.
 */
static void test_header_without_feature_bits(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct rp_session *s;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID);

		tb_file_init(&f, swap);
		f.header_size = 72;
		tb_file_attr(&f, &a, NULL, 0);
		tb_feat_string(tb_file_feat(&f, RP_FEAT_HOSTNAME), "ignored");
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		assert_false(rp_session_has_feature(s, RP_FEAT_HOSTNAME));
		assert_null(rp_session_header(s)->hostname);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/* A feature bit readperf does not know is listed and stepped over. */
static void test_unknown_feature_bit(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct rp_session *s;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID);

		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, NULL, 0);
		tb_feat_string(tb_file_feat(&f, RP_FEAT_HOSTNAME), "h1");
		tb_u64(tb_file_feat(&f, 100), 0xdeadbeef);
		tb_feat_string(tb_file_feat(&f, RP_FEAT_ARCH), "aarch64");
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		assert_true(rp_session_has_feature(s, 100));
		assert_string_equal(rp_session_header(s)->hostname, "h1");
		assert_string_equal(rp_session_header(s)->arch, "aarch64");
		rp_session_close(s);
		tb_file_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_magic_bytes),
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_attr_size_zero),
		cmocka_unit_test(test_attr_size_future),
		cmocka_unit_test(test_attr_size_beyond_stride),
		cmocka_unit_test(test_multi_attr_ids),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_no_features),
		cmocka_unit_test(test_header_without_feature_bits),
		cmocka_unit_test(test_unknown_feature_bit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
