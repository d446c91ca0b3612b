/* SPDX-License-Identifier: MIT */
/* readperf script: perf script (being written). */
#include "cli.h"

int cmd_script(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("script: not available yet");
	return RP_EXIT_USAGE;
}
