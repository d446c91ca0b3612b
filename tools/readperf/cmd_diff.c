/* SPDX-License-Identifier: MIT */
/*
 * readperf diff: perf diff's differential profile of two recordings
 * (include/readperf/diff.h, docs/diff.md).  Two inputs, so not the
 * one-output driver (cli_output.c); the inputs are opened, filtered and
 * run with the same helpers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_PERCENTAGE = 0x1300, /* apart from the filter and inline codes */
	OPT_CPU,
	OPT_TIME,
	OPT_SYMFS,
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
};

static void diff_usage(FILE *out)
{
	fputs("usage: readperf diff [options] [OLD] [NEW]\n"
	      "  what changed from OLD (the baseline; default perf.data.old) to NEW (default\n"
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
	      "  -f, --force           accepted, as perf's\n"
	      "      --symfs DIR       look for binaries under DIR\n"
	      "      --kallsyms FILE   kernel symbols from FILE\n"
	      "      --no-demangle     C++ and Rust names as in the binary\n"
	      "  filters (perf diff's; see docs/filters.md):\n"
	      "  -C, --comms LIST      only samples of these commands (comma separated)\n"
	      "      --pid LIST        only these process ids\n"
	      "      --tid LIST        only these thread ids\n"
	      "  -d, --dsos LIST       only samples in these shared objects\n"
	      "  -S, --symbols LIST    only samples in these symbols\n"
	      "      --cpu LIST        only samples on these CPUs: 0-2,5\n"
	      "      --time RANGES     perf's time ranges or percentages, for both files;\n"
	      "                        OLD_RANGES:NEW_RANGES for each its own\n"
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

/* Opens, filters and runs one input into the diff.  Returns the exit
 * status; in stays open (the write needs its machine) unless it failed
 * to open. */
static int diff_run_input(struct rp_diff *d, unsigned which, struct cli_input *in,
			  const char *path, const struct cli_symbol_opts *sym,
			  const struct cli_filter *filter)
{
	int status = cli_input_open(in, path, RP_ORDER_TIME, sym);

	if (status)
		return status;
	if ((status = cli_input_filter(in, filter)))
		return status;
	if (rp_diff_add_input(d, which, in->session, in->symbols, in->filter) < 0) {
		cli_errorf("out of memory");
		return RP_EXIT_BAD_INPUT;
	}
	struct rp_consumer c = rp_diff_consumer(d, which);
	return cli_input_run(in, &c, 1);
}

int cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
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
		{ "comms", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, CLI_OPT_FILTER_PID },
		{ "tid", required_argument, NULL, CLI_OPT_FILTER_TID },
		{ "dsos", required_argument, NULL, 'd' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rp_diff_opts opts = { .sz = sizeof(opts) };
	struct cli_symbol_opts sym = { 0 };
	struct cli_filter filter = { 0 };
	const char *time_str = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "c:pFbo:s:t:qfC:d:S:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (rp_diff_parse_compute(&opts, optarg) < 0) {
				cli_errorf("bad -c '%s' (delta, delta-abs, ratio or wdiff:W1,W2 with "
					   "nonzero weights; cycles needs branch stacks)",
					   optarg);
				return RP_EXIT_USAGE;
			}
			break;
		case 'p':
			opts.show_period = 1;
			break;
		case 'F':
			opts.show_formula = 1;
			break;
		case 'b':
			opts.baseline_only = 1;
			break;
		case 'o':
			/* perf diff compares two files: file 1 is the only one
			 * to order by, 0 is the baseline. */
			if (strcmp(optarg, "0") && strcmp(optarg, "1")) {
				cli_errorf("bad -o '%s' (0 or 1: the file to order by)", optarg);
				return RP_EXIT_USAGE;
			}
			opts.baseline_order = optarg[0] == '0';
			break;
		case 's': {
			struct rp_report_opts ro = { .sz = sizeof(ro) };

			if (rp_report_parse_sort(&ro, optarg) < 0) {
				cli_errorf("unknown sort key in '%s' (known: comm, pid, dso, sym, "
					   "cpu, srcline, srcfile)",
					   optarg);
				return RP_EXIT_USAGE;
			}
			for (size_t k = 0; k < ro.nr_keys; k++)
				if (ro.keys[k] == RP_SORT_TID || ro.keys[k] > RP_SORT_SRCFILE) {
					cli_errorf("unknown sort key in '%s' for diff (known: comm, "
						   "pid, dso, sym, cpu, srcline, srcfile)",
						   optarg);
					return RP_EXIT_USAGE;
				}
			memcpy(opts.keys, ro.keys, sizeof(opts.keys));
			opts.nr_keys = ro.nr_keys;
			break;
		}
		case 't':
			if (!optarg[0]) {
				cli_errorf("-t needs a separator");
				return RP_EXIT_USAGE;
			}
			opts.field_sep = optarg;
			break;
		case OPT_PERCENTAGE:
			if (!strcmp(optarg, "relative")) {
				opts.relative = 1;
			} else if (!strcmp(optarg, "absolute")) {
				opts.relative = 0;
			} else {
				cli_errorf("bad --percentage '%s' (relative or absolute)", optarg);
				return RP_EXIT_USAGE;
			}
			break;
		case 'q':
			opts.quiet = 1;
			break;
		case 'f':
			break;
		case 'C': /* perf diff's -C is --comms */
			cli_filter_option(&filter, 'c', optarg);
			break;
		case OPT_CPU:
			cli_filter_option(&filter, 'C', optarg);
			break;
		case CLI_OPT_FILTER_PID:
		case CLI_OPT_FILTER_TID:
		case 'd':
		case 'S':
			cli_filter_option(&filter, c, optarg);
			break;
		case OPT_TIME:
			time_str = optarg;
			filter.opts.sz = sizeof(filter.opts);
			break;
		case OPT_SYMFS:
			sym.symfs = optarg;
			break;
		case OPT_KALLSYMS:
			sym.kallsyms = optarg;
			break;
		case OPT_NO_DEMANGLE:
			sym.no_demangle = 1;
			break;
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case 'h':
			diff_usage(stdout);
			return RP_EXIT_OK;
		default:
			diff_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	/* As perf: no file, perf.data.old and perf.data; one, it is NEW. */
	const char *paths[2] = { "perf.data.old", "perf.data" };
	if (argc - optind > 2) {
		cli_errorf("diff compares two files (OLD NEW), not %d", argc - optind);
		return RP_EXIT_USAGE;
	}
	if (argc - optind == 1) {
		paths[1] = argv[optind];
	} else if (argc - optind == 2) {
		paths[0] = argv[optind];
		paths[1] = argv[optind + 1];
	}

	/* perf diff's --time: A:B gives each file its own ranges. */
	char *times = NULL;
	const char *file_time[2] = { time_str, time_str };
	if (time_str && strchr(time_str, ':')) {
		char *colon;

		times = strdup(time_str);
		if (!times) {
			cli_errorf("out of memory");
			return RP_EXIT_BAD_INPUT;
		}
		colon = strchr(times, ':');
		*colon = '\0';
		if (!times[0] || !colon[1]) {
			cli_errorf("bad --time '%s' (OLD_RANGES:NEW_RANGES)", time_str);
			free(times);
			return RP_EXIT_USAGE;
		}
		file_time[0] = times;
		file_time[1] = colon + 1;
	}

	struct rp_diff *d;
	if (rp_diff_new(&d, &opts) < 0) {
		cli_errorf("out of memory");
		free(times);
		return RP_EXIT_BAD_INPUT;
	}
	struct cli_input in[2];
	int status = 0;
	memset(in, 0, sizeof(in));
	for (unsigned f = 0; f < 2 && !status; f++) {
		struct cli_filter ff = filter;

		ff.opts.time = file_time[f];
		status = diff_run_input(d, f, &in[f], paths[f], &sym, &ff);
	}
	if (!status) {
		int rc = rp_diff_write(d, stdout);

		if (rc < 0) {
			cli_errorf("cannot write the diff: %s", rp_strerror(rc));
			status = rc == RP_ERR_IO ? RP_EXIT_USAGE : RP_EXIT_BAD_INPUT;
		}
	}
	rp_diff_free(d);
	/* Closing what was never opened is harmless. */
	cli_input_close(&in[0]);
	cli_input_close(&in[1]);
	free(times);
	return status;
}
