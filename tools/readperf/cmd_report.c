/* SPDX-License-Identifier: MIT */
/* readperf report: perf report --stdio, with perf's defaults and config. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_PERCENT_LIMIT = 256,
	OPT_STDIO,
	OPT_NO_CHILDREN,
	OPT_FULL_SOURCE_PATH,
	OPT_GROUP,
	OPT_NO_GROUP,
	OPT_CHILDREN,
	OPT_SHOW_TOTAL_PERIOD,
	OPT_SHOW_CPU_UTILIZATION,
	OPT_MEM_MODE,
	OPT_NO_BRANCH_STACK,
	OPT_MAX_STACK,
	OPT_SYMBOL_FILTER,
	OPT_PERCENTAGE,
	OPT_IGNORE_CALLEES,
	OPT_HIERARCHY,
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

		/* perf's parse_callchain_mode(): the first mode the
		 * word starts */
		if (n && !strncmp(value, "graph", n))
			o->call_graph = RP_CALL_GRAPH_GRAPH;
		else if (n && !strncmp(value, "flat", n))
			o->call_graph = RP_CALL_GRAPH_FLAT;
		else if (n && !strncmp(value, "fractal", n))
			o->call_graph = RP_CALL_GRAPH_FRACTAL;
		else if (n && !strncmp(value, "folded", n))
			o->call_graph = RP_CALL_GRAPH_FOLDED;
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

		/* perf's parse_callchain_sort_key(): the first key the
		 * word starts */
		if (n && !strncmp(value, "function", n))
			o->call_key = RP_CALL_KEY_FUNCTION;
		else if (n && !strncmp(value, "address", n))
			o->call_key = RP_CALL_KEY_ADDRESS;
		else if (n && !strncmp(value, "srcline", n))
			o->call_key = RP_CALL_KEY_SRCLINE;
		else
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

static const struct option report_longopts[] = {
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
	{ "full-source-path", no_argument, NULL, OPT_FULL_SOURCE_PATH },
	{ "group", no_argument, NULL, OPT_GROUP },
	{ "no-group", no_argument, NULL, OPT_NO_GROUP },
	{ "mem-mode", no_argument, NULL, OPT_MEM_MODE },
	{ "branch-stack", no_argument, NULL, 'b' },
	{ "no-branch-stack", no_argument, NULL, OPT_NO_BRANCH_STACK },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "symbol-filter", required_argument, NULL, OPT_SYMBOL_FILTER },
	{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
	{ "ignore-callees", required_argument, NULL, OPT_IGNORE_CALLEES },
	{ "hierarchy", no_argument, NULL, OPT_HIERARCHY },
	{ NULL, 0, NULL, 0 },
};

static int report_option(void *o, int c, const char *arg)
{
	struct rp_report_opts *opts = o;
	char *end;

	switch (c) {
	case 's':
		opts->sort_order = arg;
		return 1;
	case 'F':
		opts->field_order = arg;
		return 1;
	case 'n':
		opts->show_nr_samples = 1;
		return 1;
	case OPT_SHOW_TOTAL_PERIOD:
		opts->show_total_period = 1;
		return 1;
	case OPT_SHOW_CPU_UTILIZATION:
		opts->show_cpu_utilization = 1;
		return 1;
	case 'p':
		opts->parent_pattern = arg;
		return 1;
	case 'x':
		opts->exclude_other = 1;
		return 1;
	case 'T':
		opts->show_threads = 1;
		return 1;
	case OPT_HIERARCHY:
		opts->hierarchy = 1;
		return 1;
	case OPT_IGNORE_CALLEES:
		opts->ignore_callees = arg;
		return 1;
	case OPT_SYMBOL_FILTER:
		opts->symbol_filter = arg;
		return 1;
	case OPT_PERCENTAGE:
		/* perf's parse_filter_percentage(): whole words */
		if (!strcmp(arg, "relative")) {
			opts->percentage_relative = 1;
		} else if (!strcmp(arg, "absolute")) {
			opts->percentage_relative = 0;
		} else {
			cli_errorf("invalid --percentage '%s' (relative, absolute)", arg);
			return CLI_OPTION_BAD;
		}
		return 1;
	case 't':
		opts->field_sep = arg;
		return 1;
	case OPT_PERCENT_LIMIT:
		opts->percent_limit = strtod(arg, &end);
		if (end == arg || *end) {
			cli_errorf("bad --percent-limit '%s'", arg);
			return CLI_OPTION_BAD;
		}
		return 1;
	case 'g':
		if (rp_report_parse_call_graph(opts, arg) < 0) {
			cli_errorf("bad or unsupported call-graph argument '%s' "
				   "(graph, flat, fractal, folded, none, caller, callee, function, "
				   "percent, period, count, threshold, print limit)",
				   arg);
			return CLI_OPTION_BAD;
		}
		return 1;
	case 'G':
		opts->call_order = RP_CALL_ORDER_CALLER;
		return 1;
	case OPT_CHILDREN:
		opts->children = 1;
		return 1;
	case OPT_NO_CHILDREN:
		opts->children = 0;
		return 1;
	case OPT_STDIO:
		return 1;
	case OPT_FULL_SOURCE_PATH:
		opts->full_source_path = 1;
		return 1;
	case OPT_GROUP:
		opts->group = 1;
		return 1;
	case OPT_NO_GROUP:
		opts->group = -1;
		return 1;
	case OPT_MEM_MODE:
		opts->mem_mode = 1;
		return 1;
	case OPT_MAX_STACK:
		return cli_parse_max_stack(arg, &opts->max_stack, &opts->max_stack_set) < 0
			       ? CLI_OPTION_BAD
			       : 1;
	case 'b':
		opts->branch_mode = 1;
		return 1;
	case OPT_NO_BRANCH_STACK:
		opts->branch_mode = -1;
		return 1;
	}
	return 0;
}

/* perf's defaults: --children (shown only for files with call stacks),
 * then what the config files say; the options come after. */
static void report_init(void *o)
{
	struct rp_report_opts *opts = o;

	opts->children = 1;
	cli_config_read(report_config, opts);
}

/* The call graphs are built on -j threads. */
static int report_prepare(void *o, struct cli_input *in)
{
	struct rp_report_opts *opts = o;

	opts->nr_threads = cli_threads();
	if (in) {
		in->max_stack = opts->max_stack;
		in->max_stack_set = opts->max_stack_set;
	}
	return 0;
}

/* A `perf stat record` file: perf report hands it to perf stat report. */
static int report_instead(void *o, struct cli_input *in, int *status)
{
	(void)o;
	if (!rp_stat_file_is(in->session))
		return 0;
	*status = RP_EXIT_OK;
	if (rp_stat_report_write(in->session, stdout) < 0) {
		const struct rp_error *e = rp_session_error(in->session);

		if (e->code)
			cli_error(in->path, e);
		else
			cli_errorf("cannot write the stat report");
		*status = RP_EXIT_BAD_INPUT;
	}
	return 1;
}

static const struct cli_output_cmd report_cmd = {
	.name = "report",
	.help = "  -s, --sort KEYS           perf's sort keys (default comm,dso,symbol; trace for\n"
		"                            tracepoint files; +KEYS adds to the default): overhead,\n"
		"                            overhead_sys, overhead_us, overhead_children, sample,\n"
		"                            period, pid, comm, dso, symbol, parent, cpu, socket,\n"
		"                            srcline, srcfile, local_weight, weight, transaction,\n"
		"                            trace, symbol_size, dso_size, cgroup, cgroup_id, time,\n"
		"                            code_page_size, local_ins_lat, ins_lat, addr, tid;\n"
		"                            with --mem-mode: symbol_daddr, symbol_iaddr, dso_daddr,\n"
		"                            locked, tlb, mem, snoop, dcacheline, phys_daddr,\n"
		"                            data_page_size, blocked; in branch mode: dso_from,\n"
		"                            dso_to, symbol_from, symbol_to, mispredict, in_tx, abort,\n"
		"                            cycles, srcline_from, srcline_to, addr_from, addr_to\n"
		"      --mem-mode            perf's memory access view (perf mem record files)\n"
		"  -b, --branch-stack        one entry per branch of the branch stacks (the default\n"
		"                            for files with the BRANCH_STACK feature)\n"
		"      --no-branch-stack     count samples, not branches, in such files\n"
		"  -F, --fields FIELDS       the columns, as perf's -F (+FIELDS adds to the default)\n"
		"  -n, --show-nr-samples     a Samples column\n"
		"      --show-total-period   a Period column\n"
		"      --show-cpu-utilization  sys and usr columns\n"
		"  -t, --field-separator SEP columns joined by SEP, not aligned\n"
		"  -p, --parent REGEX        the parent key: the first caller matching REGEX\n"
		"  -x, --exclude-other       only rows with a parent\n"
		"      --percent-limit PCT   hide rows below PCT percent\n"
		"      --symbol-filter STR   hide rows whose symbol does not contain STR (as perf\n"
		"                            6.1: the first event, sort lists with comm)\n"
		"      --percentage WHICH    relative: percentages of the rows the filters leave;\n"
		"                            absolute (default): of every sample\n"
		"      --full-source-path    srcline and srcfile with the whole path\n"
		"      --group, --no-group   show event groups together or apart (perf's options)\n"
		"      --children            a Children column: the period of the stacks that hold the\n"
		"                            entry (the default when the file has call stacks)\n"
		"      --no-children         only the Self figures\n"
		"      --hierarchy           a level per sort key, each indented under the one\n"
		"                            before (not with -F; no Children column)\n"
		"  -g, --call-graph ARGS     call graph under each row, perf's graph,0.5,caller,function,percent:\n"
		"                            graph|fractal|flat|folded|none, caller|callee,\n"
		"                            function|address|srcline (nodes per address or source\n"
		"                            line, drawn with their source lines),\n"
		"                            threshold %, print limit,\n"
		"                            percent|period|count (default: a graph when the file has\n"
		"                            callchains; caller order with --children)\n"
		"  perf's config files are read for report.children, report.percent-limit and\n"
		"  call-graph.* ($PERF_CONFIG, or /etc/perfconfig and ~/.perfconfig)\n"
		"  -G, --inverted            caller order (as -g caller)\n"
		"      --ignore-callees REGEX  count a sample in the caller matching REGEX, its\n"
		"                            callees forgotten\n"
		"      --max-stack N         look at N frames of each call stack (default 127)\n"
		"      --stdio               accepted, as perf's default here\n"
		"  -T                        after the report, perf's table of the threads' counts\n"
		"                            (PERF_RECORD_READ, perf record -s); perf's --threads\n"
		"                            is readperf's -j here\n"
		"  -d LIST                   as --dsos (perf report's short option)\n",
	.longopts = report_longopts,
	.shortopts = "s:t:g:GF:np:xbd:T",
	.opts_size = sizeof(struct rp_report_opts),
	.option = report_option,
	.init = report_init,
	.prepare = report_prepare,
	.instead = report_instead,
};

int cmd_report(int argc, char **argv)
{
	return cli_output_main(&report_cmd, argc, argv);
}
