/* SPDX-License-Identifier: MIT */
/*
 * The SVG flame graph (readperf/flamegraph.h) from hand-made folded
 * stacks: boxes, their samples and nesting, kinds from the annotations,
 * escaping, the script and the empty graph.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/error.h>
#include <readperf/flamegraph.h>

static char *render(const char *const *stacks, const uint64_t *counts, size_t nr,
		    const struct rp_flamegraph_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(rp_flamegraph_write(out, stacks, counts, nr, o), 0);
	fclose(out);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_boxes(void **state)
{
	static const char *const stacks[] = {
		"w;main;fa;clear_page_[k]",
		"w;main;fa",
		"w;main;run_[j]",
		"x<y>;a&b",
	};
	static const uint64_t counts[] = { 2, 3, 1, 4 };
	struct rp_flamegraph_opts o = { .sz = sizeof(o), .title = "T & T", .subtitle = "cpu-clock",
					.has_comm = 1 };

	(void)state;
	char *svg = render(stacks, counts, 4, &o);

	assert_non_null(strstr(svg, "<svg "));
	assert_non_null(strstr(svg, "data-total=\"10\""));
	assert_non_null(strstr(svg, "<text id=\"title\" x=\"600\" y=\"24\">T &amp; T</text>"));
	assert_non_null(strstr(svg, ">cpu-clock, 10 samples</text>"));
	/* The root, then the commands (sorted by name), offsets in samples. */
	assert_non_null(strstr(svg, "data-o=\"0\" data-v=\"10\" data-d=\"0\" data-k=\"r\"><title>all (10 samples, 100.00%)"));
	assert_non_null(strstr(svg, "data-o=\"0\" data-v=\"6\" data-d=\"1\" data-k=\"c\"><title>w (6 samples, 60.00%)"));
	assert_non_null(strstr(svg, "data-o=\"6\" data-v=\"4\" data-d=\"1\" data-k=\"c\"><title>x&lt;y&gt; (4 samples, 40.00%)"));
	assert_non_null(strstr(svg, "data-o=\"0\" data-v=\"6\" data-d=\"2\" data-k=\"u\"><title>main (6 samples"));
	assert_non_null(strstr(svg, "data-o=\"0\" data-v=\"5\" data-d=\"3\" data-k=\"u\"><title>fa (5 samples"));
	assert_non_null(strstr(svg, "data-o=\"5\" data-v=\"1\" data-d=\"3\" data-k=\"j\"><title>run (1 samples"));
	assert_non_null(strstr(svg, "data-o=\"0\" data-v=\"2\" data-d=\"4\" data-k=\"k\"><title>clear_page (2 samples, 20.00%)"));
	assert_non_null(strstr(svg, "data-d=\"2\" data-k=\"u\"><title>a&amp;b (4 samples"));
	assert_int_equal(count(svg, "<g class=\"f\""), 8);
	/* The annotations are colours, not text. */
	assert_null(strstr(svg, "_[k]"));
	assert_null(strstr(svg, "_[j]"));
	assert_non_null(strstr(svg, "<script type=\"text/ecmascript\"><![CDATA["));
	assert_non_null(strstr(svg, "function zoom("));
	assert_non_null(strstr(svg, "function search("));
	assert_non_null(strstr(svg, "id=\"details\""));
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
}

/* Boxes below the minimum width are left out; the root still counts all. */
static void test_narrow_and_empty(void **state)
{
	static const char *const stacks[] = { "a;big", "b;tiny" };
	static const uint64_t counts[] = { 1000000, 1 };
	struct rp_flamegraph_opts o = { .sz = sizeof(o), .has_comm = 1 };

	(void)state;
	char *svg = render(stacks, counts, 2, &o);
	assert_non_null(strstr(svg, "data-total=\"1000001\""));
	assert_non_null(strstr(svg, "<title>big "));
	assert_null(strstr(svg, "<title>tiny "));
	assert_non_null(strstr(svg, "<text id=\"title\" x=\"600\" y=\"24\">Flame Graph</text>"));
	free(svg);

	svg = render(NULL, NULL, 0, NULL);
	assert_non_null(strstr(svg, "data-total=\"0\""));
	assert_int_equal(count(svg, "<g class=\"f\""), 0);
	assert_non_null(strstr(svg, ">0 samples</text>"));
	free(svg);
	assert_int_equal(rp_flamegraph_write(NULL, NULL, NULL, 0, NULL), RP_ERR_INVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boxes),
		cmocka_unit_test(test_narrow_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
