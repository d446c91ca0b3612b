/* SPDX-License-Identifier: MIT */
/* Unit tests: the formatting helpers of readperf dump and stats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/dump.h>
#include <readperf/stats.h>

#include "outputs/dump_int.h"

/* A record of 20 bytes: one full line and a padded one. */
static void test_hex_block(void **state)
{
	(void)state;
	uint8_t rec[20];
	char buf[512];

	for (size_t i = 0; i < sizeof(rec); i++)
		rec[i] = (uint8_t)(0x41 + i);
	rec[0] = 0x09;
	size_t n = rp_dump_hex(buf, rec, sizeof(rec));

	assert_true(n <= rp_dump_hex_size(sizeof(rec)));
	buf[n] = 0;
	assert_string_equal(buf,
			    ".\n"
			    ". ... raw event: size 20 bytes\n"
			    ".  0000:  09 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  .BCDEFGHIJKLMNOP\n"
			    ".  0010:  51 52 53 54                                      QRST            \n"
			    "\n");
}

static void test_hex_empty(void **state)
{
	(void)state;
	char buf[128];
	size_t n = rp_dump_hex(buf, "", 0);

	buf[n] = 0;
	assert_string_equal(buf, ".\n. ... raw event: size 0 bytes\n\n");
}

static void test_cpu_list(void **state)
{
	(void)state;
	char buf[64];
	const int a[] = { 0, 1 };
	const int b[] = { -1 };
	const int c[] = { 0, 2, 3, 4, 7 };
	const int e[] = { 5 };

	rp_dump_cpu_list(buf, sizeof(buf), a, 2);
	assert_string_equal(buf, "0-1");
	rp_dump_cpu_list(buf, sizeof(buf), b, 1);
	assert_string_equal(buf, "-1");
	rp_dump_cpu_list(buf, sizeof(buf), c, 5);
	assert_string_equal(buf, "0,2-4,7");
	rp_dump_cpu_list(buf, sizeof(buf), e, 1);
	assert_string_equal(buf, "5");
	rp_dump_cpu_list(buf, sizeof(buf), NULL, 0);
	assert_string_equal(buf, "");
	/* Truncation keeps a NUL and reports the length needed. */
	assert_int_equal(rp_dump_cpu_list(buf, 3, c, 5), 7);
	assert_string_equal(buf, "0,");
}

static void test_page_size(void **state)
{
	(void)state;
	char buf[16];

	rp_dump_page_size(buf, sizeof(buf), 0);
	assert_string_equal(buf, "N/A");
	rp_dump_page_size(buf, sizeof(buf), 4096);
	assert_string_equal(buf, "4K");
	rp_dump_page_size(buf, sizeof(buf), 2u << 20);
	assert_string_equal(buf, "2M");
	rp_dump_page_size(buf, sizeof(buf), 1024);
	assert_string_equal(buf, "1024B");
}

static void test_type_names(void **state)
{
	(void)state;
	assert_string_equal(rp_stats_type_name(RP_RECORD_MMAP2), "MMAP2");
	assert_string_equal(rp_stats_type_name(RP_RECORD_HEADER_ATTR), "ATTR");
	assert_string_equal(rp_stats_type_name(RP_RECORD_HEADER_FEATURE), "FEATURE");
	assert_string_equal(rp_stats_type_name(RP_RECORD_FINISHED_INIT), "FINISHED_INIT");
	/* Named by the perf that writes it. */
	assert_string_equal(rp_stats_type_name(RP_RECORD_CALLCHAIN_DEFERRED), "CALLCHAIN_DEFERRED");
	/* Unknown to perf 6.1. */
	assert_null(rp_stats_type_name(RP_RECORD_COMPRESSED2));
	assert_null(rp_stats_type_name(0));
	assert_null(rp_stats_type_name(1000));
}

static void test_stats_counts(void **state)
{
	(void)state;
	uint64_t nr[RP_RECORD_MAX] = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	nr[RP_RECORD_MMAP] = 1;
	nr[RP_RECORD_SAMPLE] = 19;
	nr[RP_RECORD_FINISHED_ROUND] = 30;
	nr[RP_RECORD_COMPRESSED2] = 5; /* left out: perf 6.1 does not know it */
	assert_int_equal(rp_stats_write_counts(fp, nr, RP_RECORD_MAX, 0), 0);
	fclose(fp);
	assert_string_equal(text, "\nAggregated stats:\n"
				  "           TOTAL events:         50\n"
				  "            MMAP events:          1  ( 2.0%)\n"
				  "          SAMPLE events:         19  (38.0%)\n"
				  "  FINISHED_ROUND events:         30  (60.0%)\n");
	free(text);
}

static void test_stats_empty(void **state)
{
	(void)state;
	uint64_t nr[RP_RECORD_MAX] = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	assert_int_equal(rp_stats_write_counts(fp, nr, RP_RECORD_MAX, 1), 0);
	fclose(fp);
	assert_string_equal(text, "\nAggregated stats: (excludes AUX area (e.g. instruction trace) "
				  "decoded / synthesized events)\n"
				  "           TOTAL events:          0\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex_block),  cmocka_unit_test(test_hex_empty),
		cmocka_unit_test(test_cpu_list),   cmocka_unit_test(test_page_size),
		cmocka_unit_test(test_type_names), cmocka_unit_test(test_stats_counts),
		cmocka_unit_test(test_stats_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
