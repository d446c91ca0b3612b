/* SPDX-License-Identifier: MIT */
/* readperf header: perf report --header-only [-I]. */
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const struct option header_longopts[] = {
	{ "header-info", no_argument, NULL, 'I' },
	{ "show-info", no_argument, NULL, 'I' },
	{ "stdio", no_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

static int header_option(void *o, int c, const char *arg)
{
	struct rp_header_print_opts *opts = o;

	(void)arg;
	if (c == 'I')
		opts->full = 1;
	return c == 'I' || c == 's';
}

/* perf prints the modification time of the file (of DIR/data for a
 * directory) as "captured on". */
static int header_prepare(void *o, struct cli_input *in)
{
	struct rp_header_print_opts *opts = o;
	const char *stat_path = strcmp(in->path, "-") ? in->path : "/dev/stdin";
	char data_path[4096];
	struct stat st;

	if (rp_session_is_dir(in->session) &&
	    (size_t)snprintf(data_path, sizeof(data_path), "%s/data", in->path) < sizeof(data_path))
		stat_path = data_path;
	opts->mtime = stat(stat_path, &st) == 0 ? st.st_mtime : 0;
	return 0;
}

static const struct cli_output_cmd header_cmd = {
	.name = "header",
	.help = "  the header as perf report --header-only prints it;\n"
		"  -I, --header-info    (--header-only -I) adds the topology, cache and\n"
		"                       memory features\n"
		"      --stdio          accepted\n",
	.longopts = header_longopts,
	.shortopts = "I",
	.opts_size = sizeof(struct rp_header_print_opts),
	.option = header_option,
	.prepare = header_prepare,
	.no_filters = 1,
};

int cmd_header(int argc, char **argv)
{
	return cli_output_main(&header_cmd, argc, argv);
}
