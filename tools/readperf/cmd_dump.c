/* SPDX-License-Identifier: MIT */
/* readperf dump: every record, as perf report -D. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static void dump_usage(FILE *out)
{
	fputs("usage: readperf dump [-i FILE] [FILE]\n"
	      "  every record as perf report -D prints it, then the record counts\n"
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:Dj:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 'D': /* perf's spelling, accepted */
			break;
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case 'h':
			dump_usage(stdout);
			return RP_EXIT_OK;
		default:
			dump_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			dump_usage(stderr);
			return RP_EXIT_USAGE;
		}
		path = argv[optind];
	}

	struct cli_input in;
	int status = cli_input_open(&in, path, RP_ORDER_TIME, NULL);

	if (status)
		return status;
	struct rp_dump *dump;
	struct rp_dump_opts opts = { .sz = sizeof(opts), .label = in.path };

	if (rp_dump_new(&dump, stdout, in.session, &opts) < 0) {
		cli_errorf("out of memory");
		cli_input_close(&in);
		return RP_EXIT_BAD_INPUT;
	}
	struct rp_consumer consumer = rp_dump_consumer(dump);

	status = cli_input_run(&in, &consumer, 1);
	/* What was read before a bad record is still dumped, with the counts. */
	if (rp_dump_finish(dump) < 0) {
		cli_errorf("cannot write the dump");
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_dump_free(dump);
	cli_input_close(&in);
	return status;
}
