/* SPDX-License-Identifier: MIT */
/* readperf json: perf data convert --to-json. */
#include <sys/stat.h>

#include "cli.h"

enum { OPT_NO_TRACE = 256 };

static const struct option json_longopts[] = {
	{ "no-trace-fields", no_argument, NULL, OPT_NO_TRACE },
	{ NULL, 0, NULL, 0 },
};

static int json_option(void *o, int c, const char *arg)
{
	struct rp_json_opts *opts = o;

	(void)arg;
	if (c != OPT_NO_TRACE)
		return 0;
	opts->no_trace_fields = 1;
	return 1;
}

/* "captured-on": the input's modification time, as perf writes it. */
static int json_prepare(void *o, struct cli_input *in)
{
	struct rp_json_opts *opts = o;
	struct stat st;

	opts->captured_on = stat(in->path, &st) == 0 ? (long long)st.st_mtime : -1;
	return 0;
}

static const struct cli_output_cmd json_cmd = {
	.name = "json",
	.help = "  writes perf data convert --to-json's document\n"
		"  -o, --output OUT     to OUT (default: standard output)\n"
		"      --no-trace-fields  leave out tracepoint fields (perf 6.1 does)\n",
	.longopts = json_longopts,
	.opts_size = sizeof(struct rp_json_opts),
	.option = json_option,
	.prepare = json_prepare,
	.stream_option = 1,
	.progress = 1,
};

int cmd_json(int argc, char **argv)
{
	return cli_output_main(&json_cmd, argc, argv);
}
