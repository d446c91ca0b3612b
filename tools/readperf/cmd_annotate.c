/* SPDX-License-Identifier: MIT */
/* readperf annotate: per-instruction percentages, as perf annotate --stdio. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <readperf/annotate.h>

#include "cli.h"

enum {
	OPT_STDIO = 256,
	OPT_NO_SOURCE,
	OPT_SOURCE,
	OPT_SYMFS,
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
	OPT_SKIPPED,
};

static void annotate_usage(FILE *out)
{
	fputs("usage: readperf annotate [options] [FILE] [SYM]\n"
	      "  the disassembly of each function with samples (hottest first), or of SYM,\n"
	      "  each instruction with its share of the function's samples (period)\n"
	      "  -i, --input FILE     the perf.data file (default perf.data)\n"
	      "  -s, --symbol SYM     only the function SYM\n"
	      "      --stdio          accepted (text is the only output)\n"
	      "  -n, --show-nr-samples  sample counts instead of percentages\n"
	      "      --no-source      no source lines between the instructions\n"
	      "      --source         source lines (the default)\n"
	      "      --skipped        name the functions that could not be disassembled\n"
	      "      --symfs DIR, --kallsyms FILE, --no-demangle   as for report\n"
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

int cmd_annotate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "symbol", required_argument, NULL, 's' },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
		{ "source", no_argument, NULL, OPT_SOURCE },
		{ "skipped", no_argument, NULL, OPT_SKIPPED },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rp_annotate_opts opts = { .sz = sizeof(opts) };
	struct cli_symbol_opts sym = { 0 };
	struct cli_filter filter = { 0 };
	const char *path = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:s:nj:h" CLI_FILTER_SHORTOPTS, longopts, NULL)) !=
	       -1) {
		/* perf annotate's -s is --symbol; --symbols (-S) filters */
		if (c != 's' && cli_filter_option(&filter, c, optarg))
			continue;
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 's':
			opts.symbol = optarg;
			break;
		case 'n':
			opts.show_nr_samples = 1;
			break;
		case OPT_STDIO:
			break;
		case OPT_NO_SOURCE:
			opts.no_source = 1;
			break;
		case OPT_SOURCE:
			opts.no_source = 0;
			break;
		case OPT_SKIPPED:
			opts.list_skipped = 1;
			break;
		case OPT_SYMFS:
			sym.symfs = optarg;
			break;
		case OPT_KALLSYMS:
			sym.kallsyms = optarg;
			break;
		case OPT_NO_DEMANGLE:
			sym.no_demangle = 1;
			break;
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case 'h':
			annotate_usage(stdout);
			return RP_EXIT_OK;
		default:
			annotate_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	/*
	 * [FILE] [SYM]: two words are both; one word is FILE when no -i was
	 * given and it names a file (or is -), else SYM, as in perf
	 * annotate, whose only operand is the symbol.
	 */
	if (optind + 1 < argc && !path)
		path = argv[optind++];
	else if (optind < argc && !path && (!strcmp(argv[optind], "-") ||
					    !access(argv[optind], F_OK)))
		path = argv[optind++];
	if (optind < argc && !opts.symbol)
		opts.symbol = argv[optind++];
	if (optind < argc) {
		annotate_usage(stderr);
		return RP_EXIT_USAGE;
	}

	/*
	 * Kernel functions cannot be disassembled without a vmlinux (perf
	 * cannot either): their symbols are not looked up, which spares
	 * reading /proc/kallsyms (tens of ms), unless --kallsyms names a
	 * file.  Their samples stay in no function, as perf prints none.
	 */
	if (!sym.kallsyms)
		sym.kallsyms = "/dev/null";
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
	if (rp_output_new(&out, "annotate", &env, &opts, &target, &err) < 0) {
		cli_error("annotate", &err);
		cli_input_close(&in);
		return err.code == RP_ERR_INVAL ? RP_EXIT_USAGE : RP_EXIT_BAD_INPUT;
	}
	struct rp_consumer consumer = rp_output_consumer(out);
	status = cli_input_run(&in, &consumer, 1);
	if (rp_output_finish(out, &err) < 0) {
		cli_error("annotate", &err);
		status = status ? status : RP_EXIT_BAD_INPUT;
	}
	rp_output_free(out);
	cli_input_close(&in);
	return status;
}
