/* SPDX-License-Identifier: MIT */
/* readperf flamegraph: an interactive SVG flame graph of the folded stacks. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_INCLUDE_TID = 256,
	OPT_INCLUDE_PID,
	OPT_NO_COMM,
	OPT_TIDY_JAVA,
	OPT_TITLE,
	OPT_WIDTH,
	OPT_SYMFS,
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
	OPT_DIFF,
	OPT_NO_NORMALIZE,
};

/* Room for the event names of the subtitle. */
#define FG_SUBTITLE_MAX 512

static void flamegraph_usage(FILE *out)
{
	fputs("usage: readperf flamegraph [-o FILE.svg] [options] [FILE]\n"
	      "       readperf flamegraph --diff [-o FILE.svg] [options] OLD NEW\n"
	      "  -o, --output SVG     where to write (default flamegraph.svg; - for stdout)\n"
	      "  -i, --input FILE     the perf.data file (default perf.data)\n"
	      "      --diff           a differential flame graph: NEW's frames, red where\n"
	      "                       they gained samples since OLD, blue where they lost\n"
	      "      --no-normalize   --diff compares counts as they are (default: OLD's\n"
	      "                       counts scaled to NEW's total)\n"
	      "      --title TEXT     the title (default \"Flame Graph\")\n"
	      "      --width PIXELS   image width (default 1200)\n"
	      "      --include-tid, --include-pid, --no-comm, --tidy-java   as for collapse\n"
	      "      --symfs DIR, --kallsyms FILE, --no-demangle   as for report\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
}

/* "cpu-clock, task-clock": the events that have samples, in attr order. */
static void event_names(const struct rp_session *s, char *buf, size_t size)
{
	size_t n = rp_session_nr_evsels(s), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len + 1 < size; i++) {
		const char *name = rp_evsel_name(rp_session_evsel(s, i));
		int k = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name ? name : "?");

		if (k < 0)
			break;
		len += (size_t)k;
	}
	if (len >= size)
		buf[size - 1] = '\0';
}

/*
 * Folds the stacks of path into *col (made here; the caller frees it) and
 * leaves the input open in *in (its names live there).  Returns the exit
 * status: 0, or what opening, filtering or reading said.
 */
static int fg_collapse(const char *path, const struct rp_collapse_opts *copts,
		       const struct cli_symbol_opts *sym, const struct cli_filter *filter,
		       struct cli_input *in, struct rp_collapse **col)
{
	int rc = rp_collapse_new(col, copts);

	if (rc == RP_ERR_INVAL) {
		cli_errorf("flamegraph: --include-pid and --include-tid need the comm");
		return RP_EXIT_USAGE;
	}
	if (rc < 0) {
		cli_errorf("out of memory");
		return RP_EXIT_BAD_INPUT;
	}
	int status = cli_input_open(in, path, RP_ORDER_TIME, sym);
	if (!status)
		status = cli_input_filter(in, filter);
	if (status)
		return status;
	struct rp_consumer consumer = rp_collapse_consumer(*col);
	return cli_input_run(in, &consumer, 1);
}

int cmd_flamegraph(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "include-tid", no_argument, NULL, OPT_INCLUDE_TID },
		{ "include-pid", no_argument, NULL, OPT_INCLUDE_PID },
		{ "no-comm", no_argument, NULL, OPT_NO_COMM },
		{ "tidy-java", no_argument, NULL, OPT_TIDY_JAVA },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		CLI_INLINE_LONGOPTS,
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "no-normalize", no_argument, NULL, OPT_NO_NORMALIZE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* The colours need the kernel and JIT annotations. */
	struct rp_collapse_opts copts = { .sz = sizeof(copts), .annotate_kernel = 1,
					  .annotate_jit = 1 };
	struct rp_flamegraph_opts fopts = { .sz = sizeof(fopts) };
	struct cli_symbol_opts sym = { 0 };
	const char *path = NULL, *svg = "flamegraph.svg";
	int c, diff = 0;

	optind = 1;
	struct cli_filter filter = { 0 };
	while ((c = getopt_long(argc, argv, "o:i:j:h" CLI_FILTER_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		switch (c) {
		case 'o':
			svg = optarg;
			break;
		case 'i':
			path = optarg;
			break;
		case OPT_TITLE:
			fopts.title = optarg;
			break;
		case OPT_WIDTH: {
			char *end;
			unsigned long w = strtoul(optarg, &end, 10);

			if (end == optarg || *end || w < 100 || w > 100000) {
				cli_errorf("bad --width '%s' (100 to 100000 pixels)", optarg);
				return RP_EXIT_USAGE;
			}
			fopts.width = (unsigned)w;
			break;
		}
		case OPT_INCLUDE_TID:
			copts.include_tid = 1;
			break;
		case OPT_INCLUDE_PID:
			copts.include_pid = 1;
			break;
		case OPT_NO_COMM:
			copts.no_comm = 1;
			break;
		case OPT_TIDY_JAVA:
			copts.tidy_java = 1;
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
		case CLI_OPT_INLINE:
		case CLI_OPT_NO_INLINE:
			sym.no_inline = c == CLI_OPT_NO_INLINE;
			break;
		case OPT_DIFF:
			diff = 1;
			break;
		case OPT_NO_NORMALIZE:
			fopts.no_normalize = 1;
			break;
		case 'h':
			flamegraph_usage(stdout);
			return RP_EXIT_OK;
		default:
			flamegraph_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	/* --diff: OLD NEW (-i gives NEW). */
	const char *old_path = NULL;
	int nr_args = argc - optind;
	if (diff && (nr_args == 2 && !path)) {
		old_path = argv[optind];
		path = argv[optind + 1];
	} else if (diff && nr_args == 1 && path) {
		old_path = argv[optind];
	} else if (diff || nr_args > 1 || (nr_args == 1 && path)) {
		if (diff)
			cli_errorf("flamegraph --diff takes two files: OLD NEW");
		flamegraph_usage(stderr);
		return RP_EXIT_USAGE;
	} else if (nr_args == 1) {
		path = argv[optind];
	}
	fopts.has_comm = !copts.no_comm;

	struct cli_input in, old_in;
	struct rp_collapse *col = NULL, *old_col = NULL;
	int status = 0;
	memset(&in, 0, sizeof(in));
	memset(&old_in, 0, sizeof(old_in));
	if (old_path)
		status = fg_collapse(old_path, &copts, &sym, &filter, &old_in, &old_col);
	if (!status)
		status = fg_collapse(path, &copts, &sym, &filter, &in, &col);
	if (status && (!in.session || (old_path && !old_in.session))) {
		/* Nothing to draw: an input could not be opened or filtered. */
		rp_collapse_free(col);
		rp_collapse_free(old_col);
		cli_input_close(&in);
		cli_input_close(&old_in);
		return status;
	}

	char subtitle[FG_SUBTITLE_MAX];
	event_names(in.session, subtitle, sizeof(subtitle));
	fopts.subtitle = subtitle;

	const char *const *stacks, *const *old_stacks = NULL;
	const uint64_t *counts, *old_counts = NULL;
	long n = rp_collapse_stacks(col, &stacks, &counts);
	long old_n = old_col ? rp_collapse_stacks(old_col, &old_stacks, &old_counts) : 0;
	FILE *out = strcmp(svg, "-") ? fopen(svg, "w") : stdout;
	if (!out) {
		cli_errorf("cannot create %s: %s", svg, strerror(errno));
		status = status ? status : RP_EXIT_USAGE;
	} else {
		int bad = n < 0 || old_n < 0;

		if (!bad && old_col)
			bad = rp_flamegraph_write_diff(out, old_stacks, old_counts, (size_t)old_n,
						       stacks, counts, (size_t)n, &fopts) < 0;
		else if (!bad)
			bad = rp_flamegraph_write(out, stacks, counts, (size_t)n, &fopts) < 0;
		if (out != stdout ? fclose(out) != 0 : fflush(stdout) != 0)
			bad = 1;
		if (bad) {
			cli_errorf("cannot write the flame graph to %s", svg);
			status = status ? status : RP_EXIT_USAGE;
		}
	}
	rp_collapse_free(col);
	rp_collapse_free(old_col);
	cli_input_close(&in);
	cli_input_close(&old_in);
	return status;
}
