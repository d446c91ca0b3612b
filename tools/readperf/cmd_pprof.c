/* SPDX-License-Identifier: MIT */
/* readperf pprof: a gzip'd pprof profile.proto. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <readperf/pprof.h>
#include <readperf/progress.h>

#include "cli.h"

static void pprof_usage(FILE *out)
{
	fputs("usage: readperf pprof [-o OUT] [-i FILE] [FILE]\n"
	      "  writes a gzip'd pprof profile to OUT (default: perf.pb.gz; - for stdout);\n"
	      "  read it with `go tool pprof -top OUT`\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

int cmd_pprof(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		CLI_INLINE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL, *outpath = "perf.pb.gz";
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
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case CLI_OPT_INLINE:
		case CLI_OPT_NO_INLINE:
			sym.no_inline = c == CLI_OPT_NO_INLINE;
			break;
		case 'h':
			pprof_usage(stdout);
			return RP_EXIT_OK;
		default:
			pprof_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			pprof_usage(stderr);
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
	struct rp_pprof *pprof;
	int ret = rp_pprof_new(&pprof, in.session);
	if (ret < 0) {
		if (ret == RP_ERR_UNSUPPORTED)
			cli_errorf("pprof: built without protobuf-c or zlib (apt-get install "
				   "libprotobuf-c-dev protobuf-c-compiler zlib1g-dev, then rebuild)");
		else
			cli_errorf("out of memory");
		cli_input_close(&in);
		return RP_EXIT_USAGE;
	}
	struct rp_progress *progress = rp_progress_new(stderr, in.session, 0);
	rp_pprof_set_symbols(pprof, in.symbols);
	struct rp_consumer consumers[2] = { rp_pprof_consumer(pprof),
					     rp_progress_consumer(progress) };
	status = cli_input_run(&in, consumers, progress ? 2 : 1);
	rp_progress_finish(progress);
	rp_progress_free(progress);

	FILE *out = stdout;
	if (strcmp(outpath, "-") && !(out = fopen(outpath, "wb"))) {
		cli_errorf("pprof: cannot create %s: %s", outpath, strerror(errno));
		rp_pprof_free(pprof);
		cli_input_close(&in);
		return RP_EXIT_USAGE;
	}
	ret = rp_pprof_write(pprof, out);
	int werr = ret < 0 || fflush(out) != 0 || ferror(out);
	if (out != stdout && fclose(out) != 0)
		werr = 1;
	if (werr) {
		cli_errorf("pprof: cannot write %s: %s", outpath,
			   ret < 0 ? rp_strerror(ret) : strerror(errno));
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_pprof_free(pprof);
	cli_input_close(&in);
	return status;
}
