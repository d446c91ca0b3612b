/* SPDX-License-Identifier: MIT */
/* readperf collapse: folded stacks, as perf script report stackcollapse. */
#include "cli.h"

enum {
	OPT_KERNEL = 256,
	OPT_JIT,
};

static const struct option collapse_longopts[] = {
	CLI_FOLD_LONGOPTS,
	{ "kernel", no_argument, NULL, OPT_KERNEL },
	{ "jit", no_argument, NULL, OPT_JIT },
	{ NULL, 0, NULL, 0 },
};

static struct cli_fold_opts collapse_fold(struct rp_collapse_opts *opts)
{
	return (struct cli_fold_opts){ &opts->include_tid, &opts->include_pid, &opts->no_comm,
				       &opts->tidy_java };
}

static int collapse_option(void *o, int c, const char *arg)
{
	struct rp_collapse_opts *opts = o;
	struct cli_fold_opts fold = collapse_fold(opts);

	(void)arg;
	if (c == OPT_KERNEL)
		opts->annotate_kernel = 1;
	else if (c == OPT_JIT)
		opts->annotate_jit = 1;
	else
		return cli_fold_option(&fold, c);
	return 1;
}

static int collapse_prepare(void *o, struct cli_input *in)
{
	struct cli_fold_opts fold = collapse_fold(o);

	(void)in; /* NULL: several recordings */
	return cli_fold_check("collapse", &fold);
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
