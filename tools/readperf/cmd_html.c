/* SPDX-License-Identifier: MIT */
/* readperf html: one self-contained HTML page of the recording. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

enum {
	OPT_TITLE = 256,
	OPT_BINS,
	OPT_MAX_WEIGHTS,
	OPT_NO_SRCLINE,
};

static int parse_count(const char *opt, const char *arg, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long n = strtoull(arg, &end, 10);

	if (end == arg || *end || arg[0] == '-' || n == 0 || n > max) {
		cli_errorf("html: bad %s '%s' (a number from 1 to %llu)", opt, arg,
			   (unsigned long long)max);
		return RP_EXIT_USAGE;
	}
	*v = n;
	return 0;
}

static const struct option html_longopts[] = {
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "bins", required_argument, NULL, OPT_BINS },
	{ "max-weights", required_argument, NULL, OPT_MAX_WEIGHTS },
	{ "no-srcline", no_argument, NULL, OPT_NO_SRCLINE },
	{ NULL, 0, NULL, 0 },
};

static int html_option(void *o, int c, const char *arg)
{
	struct rp_html_opts *opts = o;
	uint64_t v;

	switch (c) {
	case OPT_TITLE:
		opts->title = arg;
		return 1;
	case OPT_BINS:
		if (parse_count("--bins", arg, RP_HTML_BINS_MAX, &v))
			return CLI_OPTION_BAD;
		opts->bins = (uint32_t)v;
		return 1;
	case OPT_MAX_WEIGHTS:
		if (parse_count("--max-weights", arg, 1ull << 32, &v))
			return CLI_OPTION_BAD;
		opts->max_weights = v;
		return 1;
	case OPT_NO_SRCLINE:
		opts->no_srcline = 1;
		return 1;
	}
	return 0;
}

/* The title defaults to the input's name. */
static int html_prepare(void *o, struct cli_input *in)
{
	static char title[512];
	struct rp_html_opts *opts = o;

	if (!opts->title) {
		snprintf(title, sizeof(title), "readperf: %s", in->path);
		opts->title = title;
	}
	return 0;
}

static const struct cli_output_cmd html_cmd = {
	.name = "html",
	.help = "  one HTML file that works offline: flame graph, icicle, top-down and\n"
		"  bottom-up trees, caller/callee, functions, a timeline of threads and CPUs\n"
		"  -o, --output HTML     where to write (default report.html; - for stdout)\n"
		"      --title TEXT      the page's title (default: readperf: FILE)\n"
		"      --bins N          timeline bins per lane (default 1024, at most 4096)\n"
		"      --max-weights N   stack weights kept for time selection (default 400000;\n"
		"                        beyond it the selection bins are made wider)\n"
		"      --no-srcline      no source file and line per function\n",
	.longopts = html_longopts,
	.opts_size = sizeof(struct rp_html_opts),
	.option = html_option,
	.prepare = html_prepare,
	.default_path = "report.html",
	.stream_option = 1,
};

int cmd_html(int argc, char **argv)
{
	return cli_output_main(&html_cmd, argc, argv);
}
