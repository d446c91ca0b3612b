/* SPDX-License-Identifier: MIT */
/* readperf collapse: folded stacks, as perf script report stackcollapse. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

enum {
	OPT_INCLUDE_TID = 256,
	OPT_INCLUDE_PID,
	OPT_NO_COMM,
	OPT_TIDY_JAVA,
	OPT_KERNEL,
	OPT_JIT,
	OPT_SYMFS,
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
};

static void collapse_usage(FILE *out)
{
	fputs("usage: readperf collapse [options] [FILE|DIR...]\n"
	      "  one line per call stack: comm;outermost;...;sampled COUNT (samples), sorted;\n"
	      "  several recordings (a directory: its perf.data* files) give their stacks\n"
	      "  merged, counts summed\n"
	      "  -i, --input FILE     a recording (default perf.data; may be repeated)\n"
	      "      --include-tid    comm-TID (comm-PID/TID with --include-pid)\n"
	      "      --include-pid    comm-PID\n"
	      "      --no-comm        no command frame\n"
	      "      --tidy-java      shorten Java signatures\n"
	      "      --kernel         annotate kernel functions with _[k]\n"
	      "      --jit            annotate JIT-compiled functions with _[j]\n"
	      "      --symfs DIR, --kallsyms FILE, --no-demangle   as for report\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU;\n"
	      "                   several recordings: at most N read at once\n",
	      out);
}

/* Applies option c; 1 when it was one of the collapse options. */
static int cli_collapse_option(int c, struct rp_collapse_opts *opts, struct cli_symbol_opts *sym)
{
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
	case OPT_SYMFS:
		sym->symfs = optarg;
		return 1;
	case OPT_KALLSYMS:
		sym->kallsyms = optarg;
		return 1;
	case OPT_NO_DEMANGLE:
		sym->no_demangle = 1;
		return 1;
	case CLI_OPT_INLINE:
	case CLI_OPT_NO_INLINE:
		sym->no_inline = c == CLI_OPT_NO_INLINE;
		return 1;
	}
	return 0;
}

#define CLI_COLLAPSE_LONGOPTS                                                    \
	{ "include-tid", no_argument, NULL, OPT_INCLUDE_TID },                   \
	{ "include-pid", no_argument, NULL, OPT_INCLUDE_PID },                   \
	{ "no-comm", no_argument, NULL, OPT_NO_COMM },                           \
	{ "tidy-java", no_argument, NULL, OPT_TIDY_JAVA },                       \
	{ "kernel", no_argument, NULL, OPT_KERNEL },                             \
	{ "jit", no_argument, NULL, OPT_JIT },                                   \
	{ "symfs", required_argument, NULL, OPT_SYMFS },                         \
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },                   \
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },                   \
	CLI_INLINE_LONGOPTS

int cmd_collapse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		CLI_COLLAPSE_LONGOPTS,
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rp_collapse_opts opts = { .sz = sizeof(opts) };
	struct cli_symbol_opts sym = { 0 };
	struct cli_paths paths = { 0 };
	struct cli_filter filter = { 0 };
	unsigned jobs = 0;
	int c, status = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:j:h" CLI_FILTER_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		if (cli_collapse_option(c, &opts, &sym))
			continue;
		switch (c) {
		case 'i':
			if ((status = cli_paths_add(&paths, optarg)))
				goto out;
			break;
		case 'j':
			if ((status = cli_parse_jobs(optarg, &jobs)))
				goto out;
			break;
		case 'h':
			collapse_usage(stdout);
			goto out;
		default:
			collapse_usage(stderr);
			status = RP_EXIT_USAGE;
			goto out;
		}
	}
	for (; optind < argc; optind++)
		if ((status = cli_paths_add(&paths, argv[optind])))
			goto out;
	if (!paths.nr && (status = cli_paths_add(&paths, "perf.data")))
		goto out;

	struct cli_multi_opts mo = { .order = RP_ORDER_TIME, .sym = &sym, .filter = &filter,
				     .jobs = jobs };
	struct rp_output_target target = { .sz = sizeof(target), .stream = stdout };
	int written;
	status = cli_multi_merge(&paths, &mo, "collapse", &opts, &target, &written);
out:
	cli_paths_release(&paths);
	return status;
}
