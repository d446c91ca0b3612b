/* SPDX-License-Identifier: MIT */
/*
 * The report unit tests' check of a whole text: rp_report_write() of a
 * report must print want, byte for byte; both texts go to stderr when
 * they differ.  report_text() gives the text for other checks.  Include
 * after <cmocka.h> and <readperf/report.h>.
 */
#ifndef RP_TEST_REPORT_CHECK_H
#define RP_TEST_REPORT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* rp_report_write()'s text, owned by the caller.  (Not inlined: gcc
 * then takes pointers into the text for pointers to the local that
 * received it.) */
static __attribute__((noinline)) char *report_text(struct rp_report *r)
{
	char *got = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&got, &len);

	assert_non_null(out);
	assert_int_equal(rp_report_write(r, out), 0);
	fclose(out);
	return got;
}

static void assert_report_text(struct rp_report *r, const char *want)
{
	char *got = report_text(r);

	if (strcmp(got, want))
		fprintf(stderr, "--- want\n%s--- got\n%s---\n", want, got);
	assert_string_equal(got, want);
	free(got);
}

#endif
