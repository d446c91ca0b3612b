/* SPDX-License-Identifier: MIT */
/* readperf csv: the four CSV files of the 2011 readperf. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void csv_usage(FILE *out)
{
	fputs("usage: readperf csv [-o DIR] [-i FILE] [FILE]\n"
	      "  writes DIR/stat.csv, overview.csv, processes.csv and results.csv\n"
	      "  (DIR defaults to the current directory)\n"
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

int cmd_csv(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *path = NULL;
	int c;

	optind = 1;
	struct cli_filter filter = { 0 };
	while ((c = getopt_long(argc, argv, "o:i:j:h" CLI_FILTER_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'i':
			path = optarg;
			break;
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case 'h':
			csv_usage(stdout);
			return RP_EXIT_OK;
		default:
			csv_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			csv_usage(stderr);
			return RP_EXIT_USAGE;
		}
		path = argv[optind];
	}

	struct cli_symbol_opts sym = { 0 };
	struct cli_input in;
	int status = cli_input_open(&in, path, RP_ORDER_TIME, &sym);
	if (!status && (status = cli_input_filter(&in, &filter)))
		cli_input_close(&in);
	if (status)
		return status;
	struct rp_csv *csv;
	if (rp_csv_new(&csv, dir, in.session, in.symbols) < 0) {
		cli_errorf("cannot create the CSV files in %s: %s", dir ? dir : ".",
			   strerror(errno));
		cli_input_close(&in);
		return RP_EXIT_BAD_INPUT;
	}
	struct rp_consumer consumer = rp_csv_consumer(csv);
	status = cli_input_run(&in, &consumer, 1);
	if (rp_csv_finish(csv) < 0) {
		cli_errorf("cannot write the CSV files in %s: %s", dir ? dir : ".",
			   strerror(errno));
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_csv_free(csv);
	cli_input_close(&in);
	return status;
}
