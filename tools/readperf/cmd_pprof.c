/* SPDX-License-Identifier: MIT */
/* readperf pprof: a pprof profile (being written). */
#include "cli.h"

int cmd_pprof(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("pprof: not available yet");
	return RP_EXIT_USAGE;
}
