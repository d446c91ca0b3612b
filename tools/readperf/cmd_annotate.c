/* SPDX-License-Identifier: MIT */
/* readperf annotate: per-instruction percentages, as perf annotate --stdio. */
#include <string.h>
#include <unistd.h>

#include <readperf/annotate.h>

#include "cli.h"

enum {
	OPT_STDIO = 256,
	OPT_NO_SOURCE,
	OPT_SOURCE,
	OPT_SKIPPED,
};

static const struct option annotate_longopts[] = {
	{ "symbol", required_argument, NULL, 's' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "show-nr-samples", no_argument, NULL, 'n' },
	{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
	{ "source", no_argument, NULL, OPT_SOURCE },
	{ "skipped", no_argument, NULL, OPT_SKIPPED },
	{ NULL, 0, NULL, 0 },
};

static int annotate_option(void *o, int c, const char *arg)
{
	struct rp_annotate_opts *opts = o;

	switch (c) {
	case 's': /* perf annotate's -s is --symbol; --symbols (-S) filters */
		opts->symbol = arg;
		return 1;
	case 'n':
		opts->show_nr_samples = 1;
		return 1;
	case OPT_STDIO:
		return 1;
	case OPT_NO_SOURCE:
		opts->no_source = 1;
		return 1;
	case OPT_SOURCE:
		opts->no_source = 0;
		return 1;
	case OPT_SKIPPED:
		opts->list_skipped = 1;
		return 1;
	}
	return 0;
}

/*
 * [FILE] [SYM]: two words are both; one word is FILE when no -i was given
 * and it names a file (or is -), else SYM, as in perf annotate, whose
 * only operand is the symbol.
 */
static int annotate_operands(void *o, int argc, char **argv, const char **path)
{
	struct rp_annotate_opts *opts = o;
	int i = 0;

	if (argc >= 2 && !*path)
		*path = argv[i++];
	else if (argc == 1 && !*path && (!strcmp(argv[0], "-") || !access(argv[0], F_OK)))
		*path = argv[i++];
	if (i < argc && !opts->symbol)
		opts->symbol = argv[i++];
	return i < argc ? RP_EXIT_USAGE : 0;
}

static const struct cli_output_cmd annotate_cmd = {
	.name = "annotate",
	.help = "  the disassembly of each function with samples (hottest first), or of SYM,\n"
		"  each instruction with its share of the function's samples (period)\n"
		"  -s, --symbol SYM     only the function SYM\n"
		"      --stdio          accepted (text is the only output)\n"
		"  -n, --show-nr-samples  sample counts instead of percentages\n"
		"      --no-source      no source lines between the instructions\n"
		"      --source         source lines (the default)\n"
		"      --skipped        name the functions that could not be disassembled\n",
	.operands_usage = "[FILE] [SYM]",
	.longopts = annotate_longopts,
	.shortopts = "s:n",
	.opts_size = sizeof(struct rp_annotate_opts),
	.option = annotate_option,
	.operands = annotate_operands,
	/*
	 * Kernel functions cannot be disassembled without a vmlinux (perf
	 * cannot either): their symbols are not looked up, which spares
	 * reading /proc/kallsyms (tens of ms), unless --kallsyms names a
	 * file.  Their samples stay in no function, as perf prints none.
	 */
	.default_kallsyms = "/dev/null",
};

int cmd_annotate(int argc, char **argv)
{
	return cli_output_main(&annotate_cmd, argc, argv);
}
