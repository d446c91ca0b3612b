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
};

/* Room for the event names of the subtitle. */
#define FG_SUBTITLE_MAX 512

static void flamegraph_usage(FILE *out)
{
	fputs("usage: readperf flamegraph [-o FILE.svg] [options] [FILE]\n"
	      "  -o, --output SVG     where to write (default flamegraph.svg; - for stdout)\n"
	      "  -i, --input FILE     the perf.data file (default perf.data)\n"
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* The colours need the kernel and JIT annotations. */
	struct rp_collapse_opts copts = { .sz = sizeof(copts), .annotate_kernel = 1,
					  .annotate_jit = 1 };
	struct rp_flamegraph_opts fopts = { .sz = sizeof(fopts) };
	struct cli_symbol_opts sym = { 0 };
	const char *path = NULL, *svg = "flamegraph.svg";
	int c;

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
		case 'h':
			flamegraph_usage(stdout);
			return RP_EXIT_OK;
		default:
			flamegraph_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			flamegraph_usage(stderr);
			return RP_EXIT_USAGE;
		}
		path = argv[optind];
	}
	fopts.has_comm = !copts.no_comm;

	struct rp_collapse *col;
	int rc = rp_collapse_new(&col, &copts);
	if (rc == RP_ERR_INVAL) {
		cli_errorf("flamegraph: --include-pid and --include-tid need the comm");
		return RP_EXIT_USAGE;
	}
	if (rc < 0) {
		cli_errorf("out of memory");
		return RP_EXIT_BAD_INPUT;
	}
	struct cli_input in;
	int status = cli_input_open(&in, path, RP_ORDER_TIME, &sym);
	if (!status && (status = cli_input_filter(&in, &filter)))
		cli_input_close(&in);
	if (status) {
		rp_collapse_free(col);
		return status;
	}
	struct rp_consumer consumer = rp_collapse_consumer(col);
	status = cli_input_run(&in, &consumer, 1);

	char subtitle[FG_SUBTITLE_MAX];
	event_names(in.session, subtitle, sizeof(subtitle));
	fopts.subtitle = subtitle;

	const char *const *stacks;
	const uint64_t *counts;
	long n = rp_collapse_stacks(col, &stacks, &counts);
	FILE *out = strcmp(svg, "-") ? fopen(svg, "w") : stdout;
	if (!out) {
		cli_errorf("cannot create %s: %s", svg, strerror(errno));
		status = status ? status : RP_EXIT_USAGE;
	} else {
		int bad = n < 0 || rp_flamegraph_write(out, stacks, counts, (size_t)n, &fopts) < 0;

		if (out != stdout ? fclose(out) != 0 : fflush(stdout) != 0)
			bad = 1;
		if (bad) {
			cli_errorf("cannot write the flame graph to %s", svg);
			status = status ? status : RP_EXIT_USAGE;
		}
	}
	rp_collapse_free(col);
	cli_input_close(&in);
	return status;
}
