/* SPDX-License-Identifier: MIT */
/* readperf stats: record counts, as perf report --stats. */
#include "cli.h"

static const struct option stats_longopts[] = {
	{ "stats", no_argument, NULL, 'S' },
	{ NULL, 0, NULL, 0 },
};

static int stats_option(void *opts, int c, const char *arg)
{
	(void)opts;
	(void)arg;
	return c == 'S'; /* perf's --stats, accepted */
}

static const struct cli_output_cmd stats_cmd = {
	.name = "stats",
	.help = "  records of each type and samples of each event, as perf report --stats\n",
	.longopts = stats_longopts,
	.option = stats_option,
	.no_filters = 1,
};

int cmd_stats(int argc, char **argv)
{
	return cli_output_main(&stats_cmd, argc, argv);
}
