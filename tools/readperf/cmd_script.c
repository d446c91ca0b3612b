/* SPDX-License-Identifier: MIT */
/* readperf script: one line per sample, as perf script prints it. */
#include <getopt.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/script.h>
#include <readperf/progress.h>

#include "cli.h"

/* Bytes of stdout buffer: whole lines are written in large blocks. */
#define SCRIPT_STDOUT_BUF (1u << 20)

static void script_usage(FILE *out)
{
	fputs("usage: readperf script [-F FIELDS] [--ns] [--show-task-events] [--show-mmap-events]\n"
	      "                       [--show-switch-events] [--kallsyms FILE] [--symfs DIR]\n"
	      "                       [-i FILE] [FILE]\n"
	      "  -F, --fields  perf's field list: comm,tid,pid,time,cpu,event,trace,ip,sym,\n"
	      "                symoff,dso,addr,period; \"type:list\", \"+f\", \"-f\" as in perf\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

enum { OPT_TASK = 256, OPT_MMAP, OPT_SWITCH, OPT_KALLSYMS, OPT_SYMFS, OPT_NS };

int cmd_script(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "fields", required_argument, NULL, 'F' },
		{ "input", required_argument, NULL, 'i' },
		{ "show-task-events", no_argument, NULL, OPT_TASK },
		{ "show-mmap-events", no_argument, NULL, OPT_MMAP },
		{ "show-switch-events", no_argument, NULL, OPT_SWITCH },
		{ "ns", no_argument, NULL, OPT_NS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		CLI_INLINE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rp_script_opts opts = { .sz = sizeof(opts) };
	struct cli_symbol_opts sym = { 0 };
	const char *path = NULL;
	char err[512];
	int c;

	/* Only this thread writes standard output (the pipeline's reader
	 * thread never prints): with -j, stdio need not lock it per call. */
	__fsetlocking(stdout, FSETLOCKING_BYCALLER);
	optind = 1;
	struct cli_filter filter = { 0 };
	while ((c = getopt_long(argc, argv, "F:i:j:h" CLI_FILTER_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		switch (c) {
		case 'F':
			if (rp_script_parse_fields(&opts, optarg, err, sizeof(err)) < 0) {
				cli_errorf("script: %s", err);
				return RP_EXIT_USAGE;
			}
			break;
		case 'i':
			path = optarg;
			break;
		case OPT_TASK:
			opts.show |= RP_SCRIPT_SHOW_TASK;
			break;
		case OPT_MMAP:
			opts.show |= RP_SCRIPT_SHOW_MMAP;
			break;
		case OPT_SWITCH:
			opts.show |= RP_SCRIPT_SHOW_SWITCH;
			break;
		case OPT_NS:
			opts.nanosecs = 1;
			break;
		case OPT_KALLSYMS:
			sym.kallsyms = optarg;
			break;
		case OPT_SYMFS:
			sym.symfs = optarg;
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
			script_usage(stdout);
			return RP_EXIT_OK;
		default:
			script_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			script_usage(stderr);
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
	struct rp_script *script;
	err[0] = 0;
	opts.symbols = in.symbols;
	opts.nr_threads = cli_threads();
	int ret = rp_script_new(&script, stdout, in.session, &opts, err, sizeof(err));
	if (ret < 0) {
		if (err[0])
			cli_errorf("script: %s", err);
		else
			cli_errorf("script: %s", rp_strerror(ret));
		cli_input_close(&in);
		return ret == RP_ERR_INVAL ? RP_EXIT_USAGE : RP_EXIT_BAD_INPUT;
	}
	if (rp_script_trace_status(script) == RP_ERR_UNSUPPORTED)
		cli_warnf("built without libtraceevent: tracepoint fields are not shown");
	else if (rp_script_trace_status(script) < 0)
		cli_warnf("%s: damaged TRACING_DATA section: tracepoint fields are not shown",
			  in.path);
	rp_script_set_machine(script, in.machine);
	rp_script_set_filter(script, in.filter);

	static char buf[SCRIPT_STDOUT_BUF];
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	struct rp_progress *progress = rp_progress_new(stderr, in.session, 0);
	struct rp_consumer consumers[2] = { rp_script_consumer(script),
					     rp_progress_consumer(progress) };
	status = cli_input_run(&in, consumers, progress ? 2 : 1);
	int fin = rp_script_finish(script);
	if (fin < 0 && fin != RP_ERR_IO && !status) {
		cli_errorf("script: %s", rp_strerror(fin));
		status = RP_EXIT_BAD_INPUT;
	}
	rp_progress_finish(progress);
	rp_progress_free(progress);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_errorf("script: cannot write the output");
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_script_free(script);
	cli_input_close(&in);
	return status;
}
