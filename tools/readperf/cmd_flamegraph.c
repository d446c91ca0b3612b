/* SPDX-License-Identifier: MIT */
/* readperf flamegraph: an interactive SVG flame graph of the folded stacks;
 * with --diff, a differential one of two recordings. */
#include <stdlib.h>

#include "cli.h"

enum {
	OPT_TITLE = 256,
	OPT_WIDTH,
	OPT_DIFF,
	OPT_NO_NORMALIZE,
};

static const struct option flamegraph_longopts[] = {
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "width", required_argument, NULL, OPT_WIDTH },
	CLI_FOLD_LONGOPTS,
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "no-normalize", no_argument, NULL, OPT_NO_NORMALIZE },
	{ NULL, 0, NULL, 0 },
};

static struct cli_fold_opts flamegraph_fold(struct rp_flamegraph_opts *opts)
{
	return (struct cli_fold_opts){ &opts->include_tid, &opts->include_pid, &opts->no_comm,
				       &opts->tidy_java };
}

static int flamegraph_option(void *o, int c, const char *arg)
{
	struct rp_flamegraph_opts *opts = o;
	struct cli_fold_opts fold = flamegraph_fold(opts);
	char *end;
	unsigned long w;

	switch (c) {
	case OPT_TITLE:
		opts->title = arg;
		return 1;
	case OPT_WIDTH:
		w = strtoul(arg, &end, 10);
		if (end == arg || *end || w < 100 || w > 100000) {
			cli_errorf("bad --width '%s' (100 to 100000 pixels)", arg);
			return CLI_OPTION_BAD;
		}
		opts->width = (unsigned)w;
		return 1;
	case OPT_DIFF:
		opts->diff = 1;
		return 1;
	case OPT_NO_NORMALIZE:
		opts->no_normalize = 1;
		return 1;
	}
	return cli_fold_option(&fold, c);
}

static int flamegraph_prepare(void *o, struct cli_input *in)
{
	struct cli_fold_opts fold = flamegraph_fold(o);

	(void)in;
	return cli_fold_check("flamegraph", &fold);
}

/* --diff takes OLD NEW: exactly two recordings. */
static int flamegraph_check_paths(const void *o, struct cli_paths *paths)
{
	const struct rp_flamegraph_opts *opts = o;

	if (opts->diff && paths->nr != 2) {
		cli_errorf("flamegraph --diff takes two files: OLD NEW");
		return RP_EXIT_USAGE;
	}
	return 0;
}

static const struct cli_output_cmd flamegraph_cmd = {
	.name = "flamegraph",
	.help = "  an SVG flame graph; several recordings give one, their stacks summed\n"
		"  -o, --output SVG     where to write (default flamegraph.svg; - for stdout)\n"
		"      --diff           OLD NEW: a differential flame graph: NEW's frames,\n"
		"                       red where they gained samples since OLD, blue where\n"
		"                       they lost\n"
		"      --no-normalize   --diff compares counts as they are (default: OLD's\n"
		"                       counts scaled to NEW's total)\n"
		"      --title TEXT     the title (default \"Flame Graph\")\n"
		"      --width PIXELS   image width (default 1200)\n"
		"      --include-tid, --include-pid, --no-comm, --tidy-java   as for collapse\n",
	.longopts = flamegraph_longopts,
	.opts_size = sizeof(struct rp_flamegraph_opts),
	.option = flamegraph_option,
	.prepare = flamegraph_prepare,
	.check_paths = flamegraph_check_paths,
	.default_path = "flamegraph.svg",
	.stream_option = 1,
	.multi = 1,
};

int cmd_flamegraph(int argc, char **argv)
{
	return cli_output_main(&flamegraph_cmd, argc, argv);
}
