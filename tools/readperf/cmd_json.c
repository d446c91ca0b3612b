/* SPDX-License-Identifier: MIT */
/* readperf json: perf data convert --to-json. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <readperf/json.h>
#include <readperf/progress.h>

#include "cli.h"

/* Bytes of output buffer. */
#define JSON_OUT_BUF (1u << 20)

static void json_usage(FILE *out)
{
	fputs("usage: readperf json [-o OUT] [--no-trace-fields] [-i FILE] [FILE]\n"
	      "  writes perf data convert --to-json's document to OUT (default: stdout)\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

enum { OPT_NO_TRACE = 256 };

int cmd_json(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "no-trace-fields", no_argument, NULL, OPT_NO_TRACE },
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		CLI_INLINE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rp_json_opts opts = { .sz = sizeof(opts), .captured_on = -1 };
	const char *path = NULL, *outpath = NULL;
	struct cli_symbol_opts sym = { 0 };
	int c;

	optind = 1;
	struct cli_filter filter = { 0 };
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
		case OPT_NO_TRACE:
			opts.no_trace_fields = 1;
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
			json_usage(stdout);
			return RP_EXIT_OK;
		default:
			json_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			json_usage(stderr);
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
	struct stat st;
	if (stat(in.path, &st) == 0)
		opts.captured_on = (long long)st.st_mtime;

	FILE *out = stdout;
	if (outpath && strcmp(outpath, "-") && !(out = fopen(outpath, "w"))) {
		cli_errorf("json: cannot create %s: %s", outpath, strerror(errno));
		cli_input_close(&in);
		return RP_EXIT_USAGE;
	}
	static char buf[JSON_OUT_BUF];
	setvbuf(out, buf, _IOFBF, sizeof(buf));

	struct rp_json *json;
	if (rp_json_new(&json, out, in.session, &opts) < 0) {
		cli_errorf("out of memory");
		if (out != stdout)
			fclose(out);
		cli_input_close(&in);
		return RP_EXIT_BAD_INPUT;
	}
	if (rp_json_trace_status(json) == RP_ERR_UNSUPPORTED)
		cli_warnf("built without libtraceevent: tracepoint fields are not written");
	else if (rp_json_trace_status(json) < 0)
		cli_warnf("%s: damaged TRACING_DATA section: tracepoint fields are not written",
			  in.path);
	struct rp_progress *progress = rp_progress_new(stderr, in.session, 0);
	struct rp_consumer consumers[2] = { rp_json_consumer(json),
					     rp_progress_consumer(progress) };
	status = cli_input_run(&in, consumers, progress ? 2 : 1);
	rp_progress_finish(progress);
	rp_progress_free(progress);
	rp_json_finish(json);
	int werr = fflush(out) != 0 || ferror(out);
	if (out != stdout && fclose(out) != 0)
		werr = 1;
	if (werr) {
		cli_errorf("json: cannot write %s", outpath ? outpath : "the output");
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_json_free(json);
	cli_input_close(&in);
	return status;
}
