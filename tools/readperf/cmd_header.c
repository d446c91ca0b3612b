/* SPDX-License-Identifier: MIT */
/* readperf header: perf report --header-only (being written). */
#include "cli.h"

int cmd_header(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("header: not available yet");
	return RP_EXIT_USAGE;
}
