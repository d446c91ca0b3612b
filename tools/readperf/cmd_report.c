/* SPDX-License-Identifier: MIT */
/* readperf report: perf report --stdio, with perf's defaults and config. */
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
	OPT_SHOW_TOTAL_PERIOD,
	OPT_SHOW_CPU_UTILIZATION,
};

/* What perf's config keys set (report__config, perf_callchain_config). */
static void report_config(void *ctx, const char *name, const char *value)
{
	struct rp_report_opts *o = ctx;
	int b;

	if (!strcmp(name, "report.children")) {
		if (cli_config_bool(value, &b) < 0)
			cli_warnf("bad config value of %s: '%s'", name, value);
		else
			o->children = b;
	} else if (!strcmp(name, "report.percent-limit") && value) {
		/* perf: strtof, and the call graphs' threshold too */
		o->percent_limit = strtof(value, NULL);
		o->call_threshold = o->percent_limit;
		o->call_threshold_set = 1;
	} else if (!strcmp(name, "call-graph.print-type") && value) {
		size_t n = strlen(value);

		if (n && !strncmp(value, "graph", n))
			o->call_graph = RP_CALL_GRAPH_GRAPH;
		else if (n && !strncmp(value, "fractal", n))
			o->call_graph = RP_CALL_GRAPH_FRACTAL;
		else
			cli_warnf("unsupported call-graph.print-type '%s' in the config, ignored", value);
	} else if (!strcmp(name, "call-graph.order") && value) {
		size_t n = strlen(value);

		if (n && !strncmp(value, "caller", n))
			o->call_order = RP_CALL_ORDER_CALLER;
		else if (n && !strncmp(value, "callee", n))
			o->call_order = RP_CALL_ORDER_CALLEE;
		else
			cli_warnf("bad call-graph.order '%s' in the config, ignored", value);
	} else if (!strcmp(name, "call-graph.sort-key") && value) {
		size_t n = strlen(value);

		if (!n || strncmp(value, "function", n))
			cli_warnf("unsupported call-graph.sort-key '%s' in the config, ignored", value);
	} else if (!strcmp(name, "call-graph.threshold") && value) {
		char *end;
		double v = strtod(value, &end);

		if (end == value) {
			cli_warnf("bad call-graph.threshold '%s' in the config, ignored", value);
		} else {
			o->call_threshold = v;
			o->call_threshold_set = 1;
		}
	} else if (!strcmp(name, "call-graph.print-limit") && value) {
		char *end;
		double v = strtod(value, &end);

		if (end == value || !(v >= 0 && v <= UINT32_MAX))
			cli_warnf("bad call-graph.print-limit '%s' in the config, ignored", value);
		else
			o->call_print_limit = (uint32_t)v;
	}
}

static void report_usage(FILE *out)
{
	fputs("usage: readperf report [options] [FILE]\n"
	      "  -i, --input FILE          the perf.data file (default perf.data)\n"
	      "  -s, --sort KEYS           perf's sort keys (default comm,dso,symbol; trace for\n"
	      "                            tracepoint files; +KEYS adds to the default): overhead,\n"
	      "                            overhead_sys, overhead_us, overhead_children, sample,\n"
	      "                            period, pid, comm, dso, symbol, parent, cpu, socket,\n"
	      "                            srcline, srcfile, local_weight, weight, transaction,\n"
	      "                            trace, symbol_size, dso_size, cgroup, cgroup_id, time,\n"
	      "                            code_page_size, local_ins_lat, ins_lat, addr, tid\n"
	      "  -F, --fields FIELDS       the columns, as perf's -F (+FIELDS adds to the default)\n"
	      "  -n, --show-nr-samples     a Samples column\n"
	      "      --show-total-period   a Period column\n"
	      "      --show-cpu-utilization  sys and usr columns\n"
	      "  -t, --field-separator SEP columns joined by SEP, not aligned\n"
	      "  -p, --parent REGEX        the parent key: the first caller matching REGEX\n"
	      "  -x, --exclude-other       only rows with a parent\n"
	      "      --percent-limit PCT   hide rows below PCT percent\n"
	      "      --symfs DIR           look for binaries under DIR\n"
	      "      --kallsyms FILE       kernel symbols from FILE\n"
	      "      --no-demangle         keep C++ and Rust names mangled\n"
	      "      --full-source-path    srcline and srcfile with the whole path\n"
	      "      --group, --no-group   show event groups together or apart (perf's options)\n"
	      "      --children            a Children column: the period of the stacks that hold the\n"
	      "                            entry (the default when the file has call stacks)\n"
	      "      --no-children         only the Self figures\n"
	      "  -g, --call-graph ARGS     call graph under each row, perf's graph,0.5,caller,function,percent:\n"
	      "                            graph|fractal|none, caller|callee, threshold %, print limit,\n"
	      "                            percent|period|count (default: a graph when the file has\n"
	      "                            callchains; caller order with --children)\n"
	      "  perf's config files are read for report.children, report.percent-limit and\n"
	      "  call-graph.* ($PERF_CONFIG, or /etc/perfconfig and ~/.perfconfig)\n"
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
		{ "fields", required_argument, NULL, 'F' },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "show-total-period", no_argument, NULL, OPT_SHOW_TOTAL_PERIOD },
		{ "show-cpu-utilization", no_argument, NULL, OPT_SHOW_CPU_UTILIZATION },
		{ "parent", required_argument, NULL, 'p' },
		{ "exclude-other", no_argument, NULL, 'x' },
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
	/* perf's defaults: --children (shown only for files with call
	 * stacks), then what the config files say, then the options. */
	struct rp_report_opts opts = { .sz = sizeof(opts), .children = 1 };
	struct cli_symbol_opts sym = { 0 };
	const char *path = NULL;
	int c;

	cli_config_read(report_config, &opts);
	optind = 1;
	struct cli_filter filter = { 0 };
	while ((c = getopt_long(argc, argv, "i:s:t:g:Gj:hd:F:np:x" CLI_FILTER_SHORTOPTS, longopts,
				NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 's':
			opts.sort_order = optarg;
			break;
		case 'F':
			opts.field_order = optarg;
			break;
		case 'n':
			opts.show_nr_samples = 1;
			break;
		case OPT_SHOW_TOTAL_PERIOD:
			opts.show_total_period = 1;
			break;
		case OPT_SHOW_CPU_UTILIZATION:
			opts.show_cpu_utilization = 1;
			break;
		case 'p':
			opts.parent_pattern = optarg;
			break;
		case 'x':
			opts.exclude_other = 1;
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
	opts.nr_threads = cli_threads();
	int rc = rp_report_new(&report, in.session, &opts);
	if (rc < 0) {
		if (rc == RP_ERR_UNSUPPORTED)
			cli_errorf("selected --sort parent, but no callchain data "
				   "(was perf record run without -g?)");
		else if (rc == RP_ERR_INVAL)
			cli_errorf("unknown or invalid key in --sort '%s' or -F '%s', or a bad "
				   "-p regex (see --help for the keys)",
				   opts.sort_order ? opts.sort_order : "",
				   opts.field_order ? opts.field_order : "");
		else
			cli_errorf("out of memory");
		cli_input_close(&in);
		return rc == RP_ERR_NOMEM ? RP_EXIT_BAD_INPUT : RP_EXIT_USAGE;
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
