/* SPDX-License-Identifier: MIT */
/* readperf html: one self-contained HTML page of the recording. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_TITLE = 256,
	OPT_BINS,
	OPT_MAX_WEIGHTS,
	OPT_NO_SRCLINE,
	OPT_SYMFS,
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
};

static void html_usage(FILE *out)
{
	fputs("usage: readperf html [-o FILE.html] [options] [FILE]\n"
	      "  one HTML file that works offline: flame graph, icicle, top-down and\n"
	      "  bottom-up trees, caller/callee, functions, a timeline of threads and CPUs\n"
	      "  -o, --output HTML     where to write (default report.html; - for stdout)\n"
	      "  -i, --input FILE      the perf.data file (default perf.data)\n"
	      "      --title TEXT      the page's title (default: readperf: FILE)\n"
	      "      --bins N          timeline bins per lane (default 1024, at most 4096)\n"
	      "      --max-weights N   stack weights kept for time selection (default 400000;\n"
	      "                        beyond it the selection bins are made wider)\n"
	      "      --no-srcline      no source file and line per function\n"
	      "      --symfs DIR, --kallsyms FILE, --no-demangle   as for report\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

static int parse_count(const char *opt, const char *arg, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long n = strtoull(arg, &end, 10);

	if (end == arg || *end || arg[0] == '-' || n == 0 || n > max) {
		cli_errorf("html: bad %s '%s' (a number from 1 to %llu)", opt, arg,
			   (unsigned long long)max);
		return RP_EXIT_USAGE;
	}
	*v = n;
	return 0;
}

int cmd_html(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "bins", required_argument, NULL, OPT_BINS },
		{ "max-weights", required_argument, NULL, OPT_MAX_WEIGHTS },
		{ "no-srcline", no_argument, NULL, OPT_NO_SRCLINE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		CLI_INLINE_LONGOPTS,
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rp_html_opts opts = { .sz = sizeof(opts) };
	struct cli_symbol_opts sym = { 0 };
	struct cli_filter filter = { 0 };
	const char *path = NULL, *outpath = "report.html";
	char title[512];
	uint64_t v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:i:j:h" CLI_FILTER_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'i':
			path = optarg;
			break;
		case OPT_TITLE:
			opts.title = optarg;
			break;
		case OPT_BINS:
			if (parse_count("--bins", optarg, RP_HTML_BINS_MAX, &v))
				return RP_EXIT_USAGE;
			opts.bins = (uint32_t)v;
			break;
		case OPT_MAX_WEIGHTS:
			if (parse_count("--max-weights", optarg, 1ull << 32, &v))
				return RP_EXIT_USAGE;
			opts.max_weights = v;
			break;
		case OPT_NO_SRCLINE:
			opts.no_srcline = 1;
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
		case CLI_OPT_INLINE:
		case CLI_OPT_NO_INLINE:
			sym.no_inline = c == CLI_OPT_NO_INLINE;
			break;
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case 'h':
			html_usage(stdout);
			return RP_EXIT_OK;
		default:
			html_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			html_usage(stderr);
			return RP_EXIT_USAGE;
		}
		path = argv[optind];
	}
	if (!opts.title) {
		snprintf(title, sizeof(title), "readperf: %s", path ? path : "perf.data");
		opts.title = title;
	}

	struct cli_input in;
	int status = cli_input_open(&in, path, RP_ORDER_TIME, &sym);
	if (!status && (status = cli_input_filter(&in, &filter)))
		cli_input_close(&in);
	if (status)
		return status;
	FILE *out = strcmp(outpath, "-") ? fopen(outpath, "w") : stdout;
	if (!out) {
		cli_errorf("cannot create %s: %s", outpath, strerror(errno));
		cli_input_close(&in);
		return RP_EXIT_USAGE;
	}
	struct rp_output_env env = { .sz = sizeof(env), .session = in.session,
				     .machine = in.machine, .symbols = in.symbols,
				     .filter = in.filter };
	struct rp_output_target target = { .sz = sizeof(target), .stream = out };
	struct rp_error err = { 0 };
	struct rp_output *o;
	if (rp_output_new(&o, "html", &env, &opts, &target, &err) < 0) {
		cli_error("html", &err);
		if (out != stdout)
			fclose(out), remove(outpath);
		cli_input_close(&in);
		return err.code == RP_ERR_INVAL ? RP_EXIT_USAGE : RP_EXIT_BAD_INPUT;
	}
	struct rp_consumer consumer = rp_output_consumer(o);
	status = cli_input_run(&in, &consumer, 1);
	if (rp_output_finish(o, &err) < 0) {
		cli_error(outpath, &err);
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_output_free(o);
	if (out != stdout ? fclose(out) != 0 : fflush(stdout) != 0) {
		cli_errorf("cannot write %s", outpath);
		status = status ? status : RP_EXIT_USAGE;
	}
	cli_input_close(&in);
	return status;
}
