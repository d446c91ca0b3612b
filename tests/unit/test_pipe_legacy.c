/* SPDX-License-Identifier: MIT */
/*
 * Legacy pipe streams: Google's perf 3.x (the "piped" format of ChromeOS
 * quipper) wrote each header feature as a record of its own, numbered
 * before upstream perf used those numbers: PERF_RECORD_HEADER_HOSTNAME = 69
 * ... NUMA_TOPOLOGY = 80, PMU_MAPPINGS = 81, each payload the feature's
 * section as in a file, all before the HEADER_ATTR records.  Upstream
 * perf (4.1 on) numbers 69 ID_INDEX, 71 AUXTRACE (with a payload after
 * the record), 80 HEADER_FEATURE and 81 COMPRESSED.  Both byte orders;
 * records unpadded as that writer left them.
 *
 * Format: quipper's kernel/perf_internals.h (enum perf_user_event_type of
 * that writer) and perf's header.c for the feature sections.
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

#define MAGIC 0x32454c4946524550ull

static void legacy_feature_string(struct tb_buf *b, uint32_t type, const char *s)
{
	size_t r = tb_rec_begin(b, type, 0);

	tb_feat_string(b, s);
	tb_rec_end_nopad(b, r);
}

static void build_stream(struct tb_buf *b, int swap, int with_pmu)
{
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_PERIOD);
	size_t r;

	a.size = 80;
	tb_init(b, swap);
	tb_u64(b, MAGIC);
	tb_u64(b, 16);
	legacy_feature_string(b, 69, "oldhost");  /* HOSTNAME */
	legacy_feature_string(b, 70, "3.2.5");    /* OSRELEASE */
	legacy_feature_string(b, 71, "3.3.0-4");  /* VERSION (upstream: AUXTRACE) */
	legacy_feature_string(b, 72, "x86_64");   /* ARCH */
	r = tb_rec_begin(b, 73, 0);               /* NRCPUS */
	tb_u32(b, 32);
	tb_u32(b, 16);
	tb_rec_end_nopad(b, r);
	r = tb_rec_begin(b, 76, 0);               /* TOTAL_MEM (upstream: STAT) */
	tb_u64(b, 65904800);
	tb_rec_end_nopad(b, r);
	r = tb_rec_begin(b, 77, 0);               /* CMDLINE */
	tb_u32(b, 2);
	tb_feat_string(b, "perf");
	tb_feat_string(b, "record");
	tb_rec_end_nopad(b, r);
	if (with_pmu) {
		r = tb_rec_begin(b, 81, 0);       /* PMU_MAPPINGS (upstream: COMPRESSED) */
		tb_u32(b, 1);
		tb_u32(b, 4);
		tb_feat_string(b, "cpu");
		tb_rec_end_nopad(b, r);
	}
	r = tb_rec_begin(b, RP_RECORD_HEADER_ATTR, 0);
	tb_attr(b, &a, a.size);
	tb_u64(b, 5);
	tb_rec_end(b, r);
	for (unsigned i = 0; i < 3; i++) {
		struct tb_sample s = { .ip = 0x1000 + i, .pid = 9, .tid = 9, .time = 100 + i,
				       .period = 77 };

		tb_sample(b, &a, RP_MISC_USER, &s);
	}
}

static void check(int swap, int with_pmu)
{
	struct tb_buf b;
	struct rp_event ev;
	unsigned nfeat = 0, nsamples = 0;
	int rc;

	build_stream(&b, swap, with_pmu);
	char *path = tb_write_tmp(&b);
	struct rp_session *s = tb_open(path, RP_ORDER_FILE, 0);

	assert_non_null(s);
	const struct rp_header_info *h = rp_session_header(s);
	assert_true(rp_session_is_pipe(s));
	assert_string_equal(h->hostname, "oldhost");
	assert_string_equal(h->osrelease, "3.2.5");
	assert_string_equal(h->version, "3.3.0-4");
	assert_string_equal(h->arch, "x86_64");
	assert_int_equal(h->nr_cpus_available, 32);
	assert_int_equal(h->nr_cpus_online, 16);
	assert_int_equal(h->total_mem, 65904800);
	assert_int_equal(h->cmdline_argc, 2);
	assert_string_equal(h->cmdline_argv[1], "record");
	assert_int_equal(rp_session_has_feature(s, RP_FEAT_PMU_MAPPINGS), with_pmu);
	assert_int_equal(rp_session_nr_evsels(s), 1);
	while ((rc = rp_test_next(s, &ev)) == 1) {
		if (ev.type == RP_RECORD_HEADER_FEATURE) {
			nfeat++;
			continue;
		}
		assert_true(ev.type == RP_RECORD_SAMPLE || ev.type == RP_RECORD_HEADER_ATTR);
		if (ev.type == RP_RECORD_SAMPLE) {
			assert_non_null(ev.evsel);
			assert_int_equal(ev.u.sample.ip, 0x1000 + nsamples);
			assert_int_equal(ev.u.sample.period, 77);
			nsamples++;
		}
	}
	assert_int_equal(rc, 0);
	assert_int_equal(nsamples, 3);
	assert_int_equal(nfeat, 7u + (unsigned)with_pmu);
	assert_int_equal(rp_session_nr_records(s, RP_RECORD_HEADER_FEATURE), 7 + with_pmu);
	assert_int_equal(rp_session_nr_records(s, RP_RECORD_AUXTRACE), 0);
	assert_int_equal(rp_session_nr_records(s, RP_RECORD_ID_INDEX), 0);
	rp_session_close(s);
	unlink(path);
	free(path);
	tb_free(&b);
}

static void test_legacy_host(void **state)
{
	(void)state;
	check(0, 1);
	check(0, 0);
}

static void test_legacy_swapped(void **state)
{
	(void)state;
	check(1, 1);
	check(1, 0);
}

/* An upstream stream that starts with HEADER_FEATURE (80), as quipper
 * writes them, stays upstream: 80 is a feature record with its id. */
static void test_upstream_feature_first(void **state)
{
	struct tb_buf b;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME);
	size_t r;

	(void)state;
	a.size = 112;
	tb_init(&b, 0);
	tb_u64(&b, MAGIC);
	tb_u64(&b, 16);
	r = tb_rec_begin(&b, RP_RECORD_HEADER_FEATURE, 0);
	tb_u64(&b, RP_FEAT_HOSTNAME);
	tb_feat_string(&b, "newhost");
	tb_rec_end(&b, r);
	r = tb_rec_begin(&b, RP_RECORD_HEADER_ATTR, 0);
	tb_attr(&b, &a, a.size);
	tb_u64(&b, 5);
	tb_rec_end(&b, r);
	char *path = tb_write_tmp(&b);
	struct rp_session *s = tb_open(path, RP_ORDER_FILE, 0);

	assert_non_null(s);
	assert_string_equal(rp_session_header(s)->hostname, "newhost");
	assert_false(rp_session_has_feature(s, RP_FEAT_NUMA_TOPOLOGY));
	rp_session_close(s);
	unlink(path);
	free(path);
	tb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_legacy_host),
		cmocka_unit_test(test_legacy_swapped),
		cmocka_unit_test(test_upstream_feature_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
