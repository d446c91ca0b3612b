/* SPDX-License-Identifier: MIT */
/* readperf dump: every record, as perf report -D. */
#include "cli.h"

static int dump_option(void *opts, int c, const char *arg)
{
	(void)opts;
	(void)arg;
	return c == 'D'; /* perf's spelling, accepted */
}

/* perf prints the -i argument after '@'. */
static int dump_prepare(void *o, struct cli_input *in)
{
	struct rp_dump_opts *opts = o;

	opts->label = in->path;
	return 0;
}

static const struct cli_output_cmd dump_cmd = {
	.name = "dump",
	.help = "  every record as perf report -D prints it, then the record counts\n",
	.shortopts = "D",
	.opts_size = sizeof(struct rp_dump_opts),
	.option = dump_option,
	.prepare = dump_prepare,
	.no_filters = 1,
};

int cmd_dump(int argc, char **argv)
{
	return cli_output_main(&dump_cmd, argc, argv);
}
