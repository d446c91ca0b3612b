/* SPDX-License-Identifier: MIT */
/*
 * rp_chain_pick(): the frames of a resolved callchain that perf's
 * --max-stack keeps, and their drawing order (docs/report.md, "Call
 * stacks"), on hand-made frames: recorded and unwound parts, inline chains
 * (counted as one frame), caller and callee order, 0.  tests/diff/
 * run_max_stack.sh compares the same with perf on recordings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "process_int.h"

/* frames from a pattern: 'k' recorded, 'u' unwound, 'i' an unwound frame
 * inlined into the next (callee order); each frame's ip is its index. */
static size_t make(struct rp_frame *f, const char *pattern)
{
	size_t n = strlen(pattern);

	memset(f, 0, n * sizeof(*f));
	for (size_t i = 0; i < n; i++) {
		f[i].al.ip = i;
		f[i].unwound = pattern[i] != 'k';
		f[i].inlined_into_next = pattern[i] == 'i';
	}
	return n;
}

/* The kept frames' indices in drawing order, as a string of digits. */
static void picked(const char *pattern, uint32_t max_stack, int caller, const char *want)
{
	struct rp_frame f[16];
	struct rp_chain_pick pick;
	char got[17];
	size_t n = make(f, pattern);

	rp_chain_pick(&pick, f, n, max_stack, caller);
	assert_true(pick.nr <= n);
	for (uint32_t i = 0; i < pick.nr; i++)
		got[i] = (char)('0' + f[rp_chain_pick_index(&pick, i)].al.ip);
	got[pick.nr] = '\0';
	assert_string_equal(got, want);
}

static void test_recorded(void **state)
{
	(void)state;
	/* callee order: the innermost N; caller order: the outermost N */
	picked("kkkkk", 2, 0, "01");
	picked("kkkkk", 2, 1, "43");
	picked("kkkkk", 127, 0, "01234");
	picked("kkkkk", 127, 1, "43210");
	picked("kkkkk", 0, 0, "");
	picked("kkkkk", 0, 1, "");
}

static void test_unwound(void **state)
{
	(void)state;
	/* N recorded (kernel) frames and the N innermost unwound frames */
	picked("kkkuuuu", 2, 0, "0134");
	/* caller order: the outermost recorded, still the innermost unwound */
	picked("kkkuuuu", 2, 1, "4321");
	picked("kkkuuuu", 1, 1, "32");
	picked("uuu", 2, 1, "10");
	picked("kkk", 5, 0, "012");
}

static void test_inline(void **state)
{
	(void)state;
	/* an inline chain (i i u) counts as its last frame */
	picked("kiiuiu", 1, 0, "0123");
	picked("kiiuiu", 2, 0, "012345");
	picked("kiiuiu", 1, 1, "3210");
	picked("iuiiu", 1, 0, "01");
	picked("iuiiu", 2, 1, "43210");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_unwound),
		cmocka_unit_test(test_inline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
