/* SPDX-License-Identifier: MIT */
/* readperf collapse: folded stacks, as perf script report stackcollapse. */
#include "cli.h"

enum {
	OPT_INCLUDE_TID = 256,
	OPT_INCLUDE_PID,
	OPT_NO_COMM,
	OPT_TIDY_JAVA,
	OPT_KERNEL,
	OPT_JIT,
};

static const struct option collapse_longopts[] = {
	{ "include-tid", no_argument, NULL, OPT_INCLUDE_TID },
	{ "include-pid", no_argument, NULL, OPT_INCLUDE_PID },
	{ "no-comm", no_argument, NULL, OPT_NO_COMM },
	{ "tidy-java", no_argument, NULL, OPT_TIDY_JAVA },
	{ "kernel", no_argument, NULL, OPT_KERNEL },
	{ "jit", no_argument, NULL, OPT_JIT },
	{ NULL, 0, NULL, 0 },
};

static int collapse_option(void *o, int c, const char *arg)
{
	struct rp_collapse_opts *opts = o;

	(void)arg;
	switch (c) {
	case OPT_INCLUDE_TID:
		opts->include_tid = 1;
		return 1;
	case OPT_INCLUDE_PID:
		opts->include_pid = 1;
		return 1;
	case OPT_NO_COMM:
		opts->no_comm = 1;
		return 1;
	case OPT_TIDY_JAVA:
		opts->tidy_java = 1;
		return 1;
	case OPT_KERNEL:
		opts->annotate_kernel = 1;
		return 1;
	case OPT_JIT:
		opts->annotate_jit = 1;
		return 1;
	}
	return 0;
}

static int collapse_prepare(void *o, const struct cli_input *in)
{
	const struct rp_collapse_opts *opts = o;

	(void)in; /* NULL: several recordings */
	if (opts->no_comm && (opts->include_pid || opts->include_tid)) {
		cli_errorf("collapse: --include-pid and --include-tid need the comm");
		return RP_EXIT_USAGE;
	}
	return 0;
}

static const struct cli_output_cmd collapse_cmd = {
	.name = "collapse",
	.help = "  one line per call stack: comm;outermost;...;sampled COUNT (samples), sorted;\n"
		"  several recordings give their stacks merged, counts summed\n"
		"      --include-tid    comm-TID (comm-PID/TID with --include-pid)\n"
		"      --include-pid    comm-PID\n"
		"      --no-comm        no command frame\n"
		"      --tidy-java      shorten Java signatures\n"
		"      --kernel         annotate kernel functions with _[k]\n"
		"      --jit            annotate JIT-compiled functions with _[j]\n",
	.longopts = collapse_longopts,
	.opts_size = sizeof(struct rp_collapse_opts),
	.option = collapse_option,
	.prepare = collapse_prepare,
	.multi = 1,
};

int cmd_collapse(int argc, char **argv)
{
	return cli_output_main(&collapse_cmd, argc, argv);
}
