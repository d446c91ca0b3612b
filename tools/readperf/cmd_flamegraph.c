/* SPDX-License-Identifier: MIT */
/* readperf flamegraph: an SVG flame graph (being written). */
#include "cli.h"

int cmd_flamegraph(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("flamegraph: not available yet");
	return RP_EXIT_USAGE;
}
