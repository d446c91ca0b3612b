/* SPDX-License-Identifier: MIT */
/* readperf dump: perf report -D (being written). */
#include "cli.h"

int cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("dump: not available yet");
	return RP_EXIT_USAGE;
}
