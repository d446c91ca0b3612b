/* SPDX-License-Identifier: MIT */
/* perf's sample filters on the command line: one parser for every command. */
#include <string.h>

#include "cli.h"

/* Each command offers every option to cli_filter_option() first: its codes
 * must be no other shared option's. */
_Static_assert((int)CLI_OPT_FILTER_CPU < (int)CLI_OPT_INLINE ||
		       (int)CLI_OPT_FILTER_PID > (int)CLI_OPT_NO_INLINE,
	       "the filter options' codes overlap the inline options'");

int cli_filter_option(struct cli_filter *f, int c, const char *arg)
{
	f->opts.sz = sizeof(f->opts);
	switch (c) {
	case 'c':
	case CLI_OPT_FILTER_COMMS:
		f->opts.comms = arg;
		return 1;
	case CLI_OPT_FILTER_PID:
		f->opts.pids = arg;
		return 1;
	case CLI_OPT_FILTER_TID:
		f->opts.tids = arg;
		return 1;
	case 'd':
	case CLI_OPT_FILTER_DSOS:
		f->opts.dsos = arg;
		return 1;
	case 'S':
	case CLI_OPT_FILTER_SYMBOLS:
		f->opts.symbols = arg;
		return 1;
	case 'C':
	case CLI_OPT_FILTER_CPU:
		f->opts.cpus = arg;
		return 1;
	case CLI_OPT_FILTER_TIME:
		f->opts.time = arg;
		return 1;
	default:
		return 0;
	}
}

int cli_input_filter(struct cli_input *in, const struct cli_filter *f)
{
	struct rp_error err = { 0 };

	if (!f || !f->opts.sz)
		return 0;
	if (rp_filter_new(&in->filter, in->session, &f->opts, &err) < 0) {
		cli_errorf("%s: %s", in->path, err.msg[0] ? err.msg : rp_strerror(err.code));
		return RP_EXIT_USAGE;
	}
	return 0;
}
