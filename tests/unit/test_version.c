/* SPDX-License-Identifier: MIT */
/*
 * The version: rp_version() is the library's RP_VERSION_STRING, and the
 * macros of include/readperf/version.h agree with each other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/readperf.h>

static void test_rp_version(void **state)
{
	(void)state;
	assert_non_null(rp_version());
	assert_string_equal(rp_version(), RP_VERSION_STRING);
}

static void test_macros(void **state)
{
	char buf[64];

	(void)state;
	snprintf(buf, sizeof(buf), "%d.%d.%d", RP_VERSION_MAJOR, RP_VERSION_MINOR,
		 RP_VERSION_PATCH);
	assert_string_equal(buf, RP_VERSION_STRING);
	assert_int_equal(RP_VERSION_NUMBER,
			 RP_VERSION_MAJOR * 10000 + RP_VERSION_MINOR * 100 + RP_VERSION_PATCH);
	/* MINOR and PATCH stay below 100, or RP_VERSION_NUMBER is ambiguous. */
	assert_true(RP_VERSION_MINOR < 100 && RP_VERSION_PATCH < 100);
#if RP_VERSION_NUMBER < 100
#error "RP_VERSION_NUMBER in #if: below 100 (0.1.0, the first version)"
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rp_version),
		cmocka_unit_test(test_macros),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
