/* SPDX-License-Identifier: MIT */
/* readperf script: one line per sample, as perf script prints it. */
#include <readperf/script.h>

#include "cli.h"

enum { OPT_TASK = 256, OPT_MMAP, OPT_SWITCH, OPT_NAMESPACE, OPT_CGROUP, OPT_LOST, OPT_ROUND, OPT_BPF, OPT_TEXT_POKE, OPT_NS, OPT_RELTIME, OPT_DELTATIME, OPT_MAX_STACK };

static const struct option script_longopts[] = {
	{ "fields", required_argument, NULL, 'F' },
	{ "show-task-events", no_argument, NULL, OPT_TASK },
	{ "show-mmap-events", no_argument, NULL, OPT_MMAP },
	{ "show-switch-events", no_argument, NULL, OPT_SWITCH },
	{ "show-namespace-events", no_argument, NULL, OPT_NAMESPACE },
	{ "show-cgroup-events", no_argument, NULL, OPT_CGROUP },
	{ "show-lost-events", no_argument, NULL, OPT_LOST },
	{ "show-round-events", no_argument, NULL, OPT_ROUND },
	{ "show-bpf-events", no_argument, NULL, OPT_BPF },
	{ "show-text-poke-events", no_argument, NULL, OPT_TEXT_POKE },
	{ "ns", no_argument, NULL, OPT_NS },
	{ "reltime", no_argument, NULL, OPT_RELTIME },
	{ "deltatime", no_argument, NULL, OPT_DELTATIME },
	{ "hide-call-graph", no_argument, NULL, 'G' },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ NULL, 0, NULL, 0 },
};

static int script_option(void *o, int c, const char *arg)
{
	struct rp_script_opts *opts = o;
	char err[512];

	switch (c) {
	case 'F':
		if (rp_script_parse_fields(opts, arg, err, sizeof(err)) < 0) {
			cli_errorf("script: %s", err);
			return CLI_OPTION_BAD;
		}
		return 1;
	case OPT_TASK:
		opts->show |= RP_SCRIPT_SHOW_TASK;
		return 1;
	case OPT_MMAP:
		opts->show |= RP_SCRIPT_SHOW_MMAP;
		return 1;
	case OPT_SWITCH:
		opts->show |= RP_SCRIPT_SHOW_SWITCH;
		return 1;
	case OPT_NAMESPACE:
		opts->show |= RP_SCRIPT_SHOW_NAMESPACE;
		return 1;
	case OPT_CGROUP:
		opts->show |= RP_SCRIPT_SHOW_CGROUP;
		return 1;
	case OPT_LOST:
		opts->show |= RP_SCRIPT_SHOW_LOST;
		return 1;
	case OPT_ROUND:
		opts->show |= RP_SCRIPT_SHOW_ROUND;
		return 1;
	case OPT_BPF:
		opts->show |= RP_SCRIPT_SHOW_BPF;
		return 1;
	case OPT_TEXT_POKE:
		opts->show |= RP_SCRIPT_SHOW_TEXT_POKE;
		return 1;
	case OPT_NS:
		opts->nanosecs = 1;
		return 1;
	case OPT_RELTIME:
	case OPT_DELTATIME: {
		int mode = c == OPT_RELTIME ? RP_SCRIPT_TIME_REL : RP_SCRIPT_TIME_DELTA;

		/* perf refuses the two together */
		if (opts->time_mode && opts->time_mode != mode) {
			cli_errorf("script: --reltime and --deltatime exclude each other");
			return CLI_OPTION_BAD;
		}
		opts->time_mode = mode;
		return 1;
	}
	case 'G':
		opts->hide_callchain = 1;
		return 1;
	case OPT_MAX_STACK:
		return cli_parse_max_stack(arg, &opts->max_stack, &opts->max_stack_set) < 0
			       ? CLI_OPTION_BAD
			       : 1;
	}
	return 0;
}

/* Samples are formatted on -j threads. */
static int script_prepare(void *o, struct cli_input *in)
{
	struct rp_script_opts *opts = o;

	opts->nr_threads = cli_threads();
	if (in) {
		in->max_stack = opts->max_stack;
		in->max_stack_set = opts->max_stack_set;
	}
	return 0;
}

/* perf script --show-round-events reads the records unordered. */
static int script_file_order(const void *o)
{
	const struct rp_script_opts *opts = o;

	return (opts->show & RP_SCRIPT_SHOW_ROUND) != 0;
}

static const struct cli_output_cmd script_cmd = {
	.name = "script",
	.help = "  -F, --fields  perf's field list: comm,tid,pid,time,cpu,event,trace,ip,sym,\n"
		"                symoff,dso,addr,period,srcline,weight,ins_lat,iregs,uregs,\n"
		"                phys_addr,data_page_size,code_page_size,misc,tod,data_src;\n"
		"                \"type:list\", \"+f\", \"-f\" as in perf\n"
		"      --ns                  times with nanoseconds\n"
		"      --reltime             times since the first record shown\n"
		"      --deltatime           times since the previous record shown\n"
		"  -G, --hide-call-graph     samples on one line, without their call stacks\n"
		"      --max-stack N         at most N frames of each stack (default 127)\n"
		"      --show-task-events    also COMM, FORK and EXIT records\n"
		"      --show-mmap-events    also MMAP and MMAP2 records\n"
		"      --show-switch-events  also context switch records\n"
		"      --show-namespace-events  also NAMESPACES records\n"
		"      --show-cgroup-events  also CGROUP records\n"
		"      --show-lost-events    also LOST records\n"
		"      --show-round-events   also FINISHED_ROUND records, every record in file\n"
		"                            order (perf's time ordering is off then)\n"
		"      --show-bpf-events     also KSYMBOL and BPF_EVENT records\n"
		"      --show-text-poke-events  also TEXT_POKE and KSYMBOL records\n",
	.longopts = script_longopts,
	.shortopts = "F:G",
	.opts_size = sizeof(struct rp_script_opts),
	.option = script_option,
	.prepare = script_prepare,
	.file_order = script_file_order,
	.progress = 1,
};

int cmd_script(int argc, char **argv)
{
	return cli_output_main(&script_cmd, argc, argv);
}
