/* SPDX-License-Identifier: MIT */
/* readperf collapse: folded stacks (being written). */
#include "cli.h"

int cmd_collapse(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("collapse: not available yet");
	return RP_EXIT_USAGE;
}
