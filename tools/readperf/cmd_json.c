/* SPDX-License-Identifier: MIT */
/* readperf json: perf data convert --to-json (being written). */
#include "cli.h"

int cmd_json(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("json: not available yet");
	return RP_EXIT_USAGE;
}
