/* SPDX-License-Identifier: MIT */
/* readperf stats: perf report --stats (being written). */
#include "cli.h"

int cmd_stats(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("stats: not available yet");
	return RP_EXIT_USAGE;
}
