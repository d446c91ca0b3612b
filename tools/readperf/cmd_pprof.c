/* SPDX-License-Identifier: MIT */
/* readperf pprof: a gzip'd pprof profile.proto, of one recording or many
 * merged. */
#include <string.h>

#include <readperf/pprof.h>

#include "cli.h"

enum { OPT_NO_LABELS = 256 };

/* --no-labels LIST into RP_PPROF_LABEL_* bits; -1 for a bad list. */
static int pprof_labels(const char *list)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = { { "pid", RP_PPROF_LABEL_PID },
		       { "tid", RP_PPROF_LABEL_TID },
		       { "comm", RP_PPROF_LABEL_COMM },
		       { "cpu", RP_PPROF_LABEL_CPU } };
	unsigned bits = 0;
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == n && !strncmp(p, names[i].name, n))
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			return -1;
		bits |= names[i].bit;
		p += n;
		if (*p == ',')
			p++;
	}
	return (int)bits;
}

static const struct option pprof_longopts[] = {
	{ "no-labels", required_argument, NULL, OPT_NO_LABELS },
	{ NULL, 0, NULL, 0 },
};

static int pprof_option(void *o, int c, const char *arg)
{
	struct rp_pprof_opts *opts = o;
	int bits;

	if (c != OPT_NO_LABELS)
		return 0;
	if ((bits = pprof_labels(arg)) < 0) {
		cli_errorf("bad --no-labels '%s' (a list of pid, tid, comm, cpu)", arg);
		return CLI_OPTION_BAD;
	}
	opts->no_labels |= (unsigned)bits;
	return 1;
}

static const struct cli_output_cmd pprof_cmd = {
	.name = "pprof",
	.help = "  writes a gzip'd pprof profile; several recordings give one profile,\n"
		"  merged as `go tool pprof A B` merges; read it with `go tool pprof -top OUT`\n"
		"  -o, --output OUT       the profile (default perf.pb.gz; - for stdout;\n"
		"                         written whole, then renamed into place)\n"
		"      --no-labels LIST   leave out labels (pid,tid,comm,cpu): smaller profiles\n",
	.longopts = pprof_longopts,
	.opts_size = sizeof(struct rp_pprof_opts),
	.option = pprof_option,
	.default_path = "perf.pb.gz",
	.stream_option = 1,
	.progress = 1,
	.multi = 1,
};

int cmd_pprof(int argc, char **argv)
{
	return cli_output_main(&pprof_cmd, argc, argv);
}
