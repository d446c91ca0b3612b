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
	fputs("usage: readperf collapse [options] [FILE]\n"
	      "  one line per call stack: comm;outermost;...;sampled COUNT (samples), sorted\n"
	      "  -i, --input FILE     the perf.data file (default perf.data)\n"
	      "      --include-tid    comm-TID (comm-PID/TID with --include-pid)\n"
	      "      --include-pid    comm-PID\n"
	      "      --no-comm        no command frame\n"
	      "      --tidy-java      shorten Java signatures\n"
	      "      --kernel         annotate kernel functions with _[k]\n"
	      "      --jit            annotate JIT-compiled functions with _[j]\n"
	      "      --symfs DIR, --kallsyms FILE, --no-demangle   as for report\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
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
	const char *path = NULL;
	int c;

	optind = 1;
	struct cli_filter filter = { 0 };
	while ((c = getopt_long(argc, argv, "i:j:h" CLI_FILTER_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		if (cli_collapse_option(c, &opts, &sym))
			continue;
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case 'h':
			collapse_usage(stdout);
			return RP_EXIT_OK;
		default:
			collapse_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			collapse_usage(stderr);
			return RP_EXIT_USAGE;
		}
		path = argv[optind];
	}

	struct cli_input in;
	int status = cli_input_open(&in, path, RP_ORDER_TIME, &sym);
	if (!status && (status = cli_input_filter(&in, &filter)))
		cli_input_close(&in);
	if (status)
		return status;
	struct rp_output_env env = { .sz = sizeof(env), .session = in.session,
				     .machine = in.machine, .symbols = in.symbols,
				     .filter = in.filter };
	struct rp_output_target target = { .sz = sizeof(target), .stream = stdout };
	struct rp_error err = { 0 };
	struct rp_output *out;
	if (rp_output_new(&out, "collapse", &env, &opts, &target, &err) < 0) {
		cli_error("collapse", &err);
		cli_input_close(&in);
		return err.code == RP_ERR_INVAL ? RP_EXIT_USAGE : RP_EXIT_BAD_INPUT;
	}
	struct rp_consumer consumer = rp_output_consumer(out);
	status = cli_input_run(&in, &consumer, 1);
	if (rp_output_finish(out, &err) < 0) {
		cli_error("collapse", &err);
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_output_free(out);
	cli_input_close(&in);
	return status;
}
