/* SPDX-License-Identifier: MIT */
/* readperf stats: record counts, as perf report --stats. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static void stats_usage(FILE *out)
{
	fputs("usage: readperf stats [-i FILE] [FILE]\n"
	      "  records of each type and samples of each event, as perf report --stats\n",
	      out);
}

int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "stats", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 'S':
			break;
		case 'h':
			stats_usage(stdout);
			return RP_EXIT_OK;
		default:
			stats_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			stats_usage(stderr);
			return RP_EXIT_USAGE;
		}
		path = argv[optind];
	}

	/* Counts need no order, machine or symbols: the raw records only. */
	struct rp_session_opts so = { .sz = sizeof(so), .order = RP_ORDER_FILE };
	struct rp_error err = { 0 };
	struct rp_session *session;
	struct rp_stats *stats;
	const struct rp_event *ev;
	int ret, status = RP_EXIT_OK;

	if (!path)
		path = "perf.data";
	if (rp_session_open(&session, path, &so, &err) < 0) {
		cli_error(path, &err);
		return RP_EXIT_BAD_INPUT;
	}
	if (rp_stats_new(&stats, session) < 0) {
		cli_errorf("out of memory");
		rp_session_close(session);
		return RP_EXIT_BAD_INPUT;
	}
	while ((ret = rp_session_next(session, &ev)) > 0)
		rp_stats_count(stats, ev);
	cli_warn_cut_short(path, session);
	if (ret < 0) {
		const struct rp_error *e = rp_session_error(session);

		if (e->code)
			cli_error(path, e);
		else
			cli_errorf("%s: %s", path, rp_strerror(ret));
		status = RP_EXIT_BAD_INPUT;
	}
	if (rp_stats_write(stats, stdout) < 0 || fflush(stdout) != 0) {
		cli_errorf("cannot write the stats");
		status = status ? status : RP_EXIT_USAGE;
	}
	rp_stats_free(stats);
	rp_session_close(session);
	return status;
}

