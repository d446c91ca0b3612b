/* SPDX-License-Identifier: MIT */
/*
 * readperf diff: perf diff's differential profile of two recordings
 * (include/readperf/diff.h, docs/diff.md): the output "diff" on the
 * driver's several-recordings path, the first recording the baseline.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_PERCENTAGE = 0x1300, /* apart from the filter and inline codes */
};

static const struct option diff_longopts[] = {
	{ "compute", required_argument, NULL, 'c' },
	{ "period", no_argument, NULL, 'p' },
	{ "formula", no_argument, NULL, 'F' },
	{ "baseline-only", no_argument, NULL, 'b' },
	{ "order", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, 's' },
	{ "field-separator", required_argument, NULL, 't' },
	{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "force", no_argument, NULL, 'f' },
	{ NULL, 0, NULL, 0 },
};

/* --time OLD_RANGES:NEW_RANGES, split (the command's one run). */
static struct {
	char *buf;
	const char *range[2];
} diff_times;

static int diff_sort(struct rp_diff_opts *opts, const char *arg)
{
	struct rp_report_opts ro = { .sz = sizeof(ro) };
	int bad = rp_report_parse_sort(&ro, arg) < 0;

	for (size_t k = 0; !bad && k < ro.nr_keys; k++)
		bad = ro.keys[k] == RP_SORT_TID || ro.keys[k] > RP_SORT_SRCFILE;
	if (bad) {
		cli_errorf("unknown sort key in '%s' for diff (known: comm, pid, dso, sym, cpu, "
			   "srcline, srcfile)",
			   arg);
		return CLI_OPTION_BAD;
	}
	memcpy(opts->keys, ro.keys, sizeof(opts->keys));
	opts->nr_keys = ro.nr_keys;
	return 1;
}

static int diff_option(void *o, int c, const char *arg)
{
	struct rp_diff_opts *opts = o;

	switch (c) {
	case 'c':
		if (rp_diff_parse_compute(opts, arg) < 0) {
			cli_errorf("bad -c '%s' (delta, delta-abs, ratio or wdiff:W1,W2 with nonzero "
				   "weights; cycles needs branch stacks)",
				   arg);
			return CLI_OPTION_BAD;
		}
		return 1;
	case 'p':
		opts->show_period = 1;
		return 1;
	case 'F':
		opts->show_formula = 1;
		return 1;
	case 'b':
		opts->baseline_only = 1;
		return 1;
	case 'o':
		/* perf diff compares two files: file 1 is the only one to
		 * order by, 0 is the baseline. */
		if (strcmp(arg, "0") && strcmp(arg, "1")) {
			cli_errorf("bad -o '%s' (0 or 1: the file to order by)", arg);
			return CLI_OPTION_BAD;
		}
		opts->baseline_order = arg[0] == '0';
		return 1;
	case 's':
		return diff_sort(opts, arg);
	case 't':
		if (!arg[0]) {
			cli_errorf("-t needs a separator");
			return CLI_OPTION_BAD;
		}
		opts->field_sep = arg;
		return 1;
	case OPT_PERCENTAGE:
		if (strcmp(arg, "relative") && strcmp(arg, "absolute")) {
			cli_errorf("bad --percentage '%s' (relative or absolute)", arg);
			return CLI_OPTION_BAD;
		}
		opts->relative = !strcmp(arg, "relative");
		return 1;
	case 'q':
		opts->quiet = 1;
		return 1;
	case 'f':
		return 1;
	}
	return 0;
}

/* As perf: no file, perf.data.old and perf.data; one, it is NEW. */
static int diff_check_paths(const void *o, struct cli_paths *paths)
{
	struct cli_paths all = { 0 };
	int status;

	(void)o;
	if (paths->nr > 2) {
		cli_errorf("diff compares two files (OLD NEW), not %zu", paths->nr);
		return RP_EXIT_USAGE;
	}
	if (paths->nr == 2)
		return 0;
	if ((status = cli_paths_add(&all, "perf.data.old")))
		return status;
	for (size_t i = 0; i < paths->nr; i++)
		if ((status = cli_paths_add(&all, paths->v[i]))) {
			cli_paths_release(&all);
			return status;
		}
	if (!paths->nr && (status = cli_paths_add(&all, "perf.data"))) {
		cli_paths_release(&all);
		return status;
	}
	cli_paths_release(paths);
	*paths = all;
	return 0;
}

/* perf diff's --time: OLD_RANGES:NEW_RANGES gives each file its own. */
static int diff_recording_filter(const void *o, size_t idx, struct cli_filter *f)
{
	const char *t = f->opts.time;
	char *colon;

	(void)o;
	if (!t || !strchr(t, ':'))
		return 0;
	if (!diff_times.buf) {
		if (!(diff_times.buf = strdup(t))) {
			cli_errorf("out of memory");
			return RP_EXIT_BAD_INPUT;
		}
		colon = strchr(diff_times.buf, ':');
		*colon = '\0';
		if (!diff_times.buf[0] || !colon[1]) {
			cli_errorf("bad --time '%s' (OLD_RANGES:NEW_RANGES)", t);
			return RP_EXIT_USAGE;
		}
		diff_times.range[0] = diff_times.buf;
		diff_times.range[1] = colon + 1;
	}
	f->opts.time = diff_times.range[idx ? 1 : 0];
	return 0;
}

static const struct cli_output_cmd diff_cmd = {
	.name = "diff",
	.help = "  what changed from OLD (the baseline; default perf.data.old) to NEW (default\n"
		"  perf.data), as perf diff prints it; with one file, that is NEW\n"
		"  -c, --compute METHOD  the column computed from each pair: delta-abs (the\n"
		"                        default), delta, ratio, or wdiff:W1,W2\n"
		"  -p, --period          show the periods (Base period, Period)\n"
		"  -F, --formula         show how each value was computed\n"
		"  -b, --baseline-only   only the baseline's entries that NEW has too\n"
		"  -o, --order N         0: rows by baseline first; 1 (the default): by the\n"
		"                        computed column\n"
		"  -s, --sort KEYS       keys: comm,pid,dso,sym,cpu,srcline,srcfile (default\n"
		"                        dso,sym)\n"
		"  -t, --field-separator SEP  separate the columns with SEP\n"
		"      --percentage relative|absolute  shares of what the filters keep, or\n"
		"                        of everything (the default)\n"
		"  -q, --quiet           no event lines and no column header\n"
		"  -f, --force           accepted, as perf's\n",
	.longopts = diff_longopts,
	.shortopts = "c:pFbo:s:t:qf",
	.opts_size = sizeof(struct rp_diff_opts),
	.option = diff_option,
	.check_paths = diff_check_paths,
	.recording_filter = diff_recording_filter,
	.operands_usage = "[OLD] [NEW]",
	.filter_letters = "CdS-",
	.filter_help = "  filters (perf diff's; see docs/filters.md):\n"
		       "  -C, --comms LIST      only samples of these commands (comma separated)\n"
		       "      --pid LIST        only these process ids\n"
		       "      --tid LIST        only these thread ids\n"
		       "  -d, --dsos LIST       only samples in these shared objects\n"
		       "  -S, --symbols LIST    only samples in these symbols\n"
		       "      --cpu LIST        only samples on these CPUs: 0-2,5\n"
		       "      --time RANGES     perf's time ranges or percentages, for both files;\n"
		       "                        OLD_RANGES:NEW_RANGES for each its own\n",
	.multi = 1,
	.strict = 1,
};

int cmd_diff(int argc, char **argv)
{
	int status = cli_output_main(&diff_cmd, argc, argv);

	free(diff_times.buf);
	diff_times.buf = NULL;
	return status;
}
