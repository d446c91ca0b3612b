/* SPDX-License-Identifier: MIT */
/* readperf csv: the four CSV files of the 2011 readperf. */
#include "cli.h"

static const struct cli_output_cmd csv_cmd = {
	.name = "csv",
	.help = "  writes DIR/stat.csv, overview.csv, processes.csv and results.csv\n"
		"  -o, --output DIR     the directory (created when missing; default: the\n"
		"                       current directory)\n",
	.default_path = ".",
};

int cmd_csv(int argc, char **argv)
{
	return cli_output_main(&csv_cmd, argc, argv);
}
