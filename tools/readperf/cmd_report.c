/* SPDX-License-Identifier: MIT */
/* readperf report: perf report --stdio (--no-children by default). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"


enum {
	OPT_PERCENT_LIMIT = 256,
	OPT_STDIO,
	OPT_NO_CHILDREN,
	OPT_SYMFS,
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
	OPT_FULL_SOURCE_PATH,
	OPT_GROUP,
	OPT_NO_GROUP,
	OPT_CHILDREN,
};

static void report_usage(FILE *out)
{
	fputs("usage: readperf report [options] [FILE]\n"
	      "  -i, --input FILE          the perf.data file (default perf.data)\n"
	      "  -s, --sort KEYS           sort keys: comm,pid,tid,dso,sym,cpu (default comm,dso,sym)\n"
	      "  -t, --field-separator SEP rows as perf report -F overhead,sample,period,KEYS -t SEP\n"
	      "      --percent-limit PCT   hide rows below PCT percent\n"
	      "      --symfs DIR           look for binaries under DIR\n"
	      "      --kallsyms FILE       kernel symbols from FILE\n"
	      "      --no-demangle         keep C++ and Rust names mangled\n"
	      "      --full-source-path    srcline and srcfile with the whole path\n"
	      "      --group, --no-group   show event groups together or apart (perf's options)\n"
	      "      --children            a Children column: the period of the stacks that hold the entry\n"
	      "      --no-children         only the Self figures (the default)\n"
	      "  -g, --call-graph ARGS     call graph under each row, perf's graph,0.5,caller,function,percent:\n"
	      "                            graph|fractal|none, caller|callee, threshold %, print limit,\n"
	      "                            percent|period|count (default: a graph when the file has\n"
	      "                            callchains and no -t; caller order with --children)\n"
	      "  -G, --inverted            caller order (as -g caller)\n"
	      "      --stdio               accepted, as perf's default here\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -d                    as --dsos (perf report's short option)\n"
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "field-separator", required_argument, NULL, 't' },
		{ "percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
		{ "children", no_argument, NULL, OPT_CHILDREN },
		{ "inverted", no_argument, NULL, 'G' },
		{ "call-graph", required_argument, NULL, 'g' },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "full-source-path", no_argument, NULL, OPT_FULL_SOURCE_PATH },
		{ "group", no_argument, NULL, OPT_GROUP },
		{ "no-group", no_argument, NULL, OPT_NO_GROUP },
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		CLI_INLINE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rp_report_opts opts = { .sz = sizeof(opts) };
	struct cli_symbol_opts sym = { 0 };
	const char *path = NULL;
	int c;

	optind = 1;
	struct cli_filter filter = { 0 };
	while ((c = getopt_long(argc, argv, "i:s:t:g:Gj:hd:" CLI_FILTER_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 's':
			if (rp_report_parse_sort(&opts, optarg) < 0) {
				cli_errorf("unknown sort key in '%s' (known: comm, pid, tid, dso, sym, cpu)",
					   optarg);
				return RP_EXIT_USAGE;
			}
			break;
		case 't':
			opts.field_sep = optarg;
			break;
		case OPT_PERCENT_LIMIT: {
			char *end;

			opts.percent_limit = strtod(optarg, &end);
			if (end == optarg || *end) {
				cli_errorf("bad --percent-limit '%s'", optarg);
				return RP_EXIT_USAGE;
			}
			break;
		}
		case 'g':
			if (rp_report_parse_call_graph(&opts, optarg) < 0) {
				cli_errorf("bad or unsupported call-graph argument '%s' "
					   "(graph, fractal, none, caller, callee, function, "
					   "percent, period, count, threshold, print limit)",
					   optarg);
				return RP_EXIT_USAGE;
			}
			break;
		case 'G':
			opts.call_order = RP_CALL_ORDER_CALLER;
			break;
		case OPT_CHILDREN:
			opts.children = 1;
			break;
		case OPT_NO_CHILDREN:
			opts.children = 0;
			break;
		case OPT_STDIO:
			break;
		case OPT_SYMFS:
			sym.symfs = optarg;
			break;
		case OPT_KALLSYMS:
			sym.kallsyms = optarg;
			break;
		case OPT_FULL_SOURCE_PATH:
			opts.full_source_path = 1;
			break;
		case OPT_NO_DEMANGLE:
			sym.no_demangle = 1;
			break;
		case OPT_GROUP:
			opts.group = 1;
			break;
		case OPT_NO_GROUP:
			opts.group = -1;
			break;
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case CLI_OPT_INLINE:
		case CLI_OPT_NO_INLINE:
			sym.no_inline = c == CLI_OPT_NO_INLINE;
			break;
		case 'h':
			report_usage(stdout);
			return RP_EXIT_OK;
		default:
			report_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			report_usage(stderr);
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
	/* A `perf stat record` file: perf report hands it to perf stat report. */
	if (rp_stat_file_is(in.session)) {
		if (rp_stat_report_write(in.session, stdout) < 0) {
			const struct rp_error *e = rp_session_error(in.session);

			if (e->code)
				cli_error(in.path, e);
			else
				cli_errorf("cannot write the stat report");
			status = RP_EXIT_BAD_INPUT;
		}
		cli_input_close(&in);
		return status;
	}
	struct rp_report *report;
	opts.symbols = in.symbols;
	if (rp_report_new(&report, in.session, &opts) < 0) {
		cli_errorf("out of memory");
		cli_input_close(&in);
		return RP_EXIT_BAD_INPUT;
	}
	if (rp_report_set_filter(report, in.filter) < 0) {
		cli_errorf("out of memory");
		rp_report_free(report);
		cli_input_close(&in);
		return RP_EXIT_BAD_INPUT;
	}
	struct rp_consumer consumer = rp_report_consumer(report);
	status = cli_input_run(&in, &consumer, 1);
	/* What was read before a bad record is still reported. */
	if (rp_report_write(report, stdout) < 0 || fflush(stdout) != 0) {
		cli_errorf("cannot write the report");
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_report_free(report);
	cli_input_close(&in);
	return status;
}
