/* SPDX-License-Identifier: MIT */
/* readperf pprof: a gzip'd pprof profile.proto, of one recording or many
 * merged. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readperf/pprof.h>

#include "cli.h"

enum {
	OPT_SYMFS = 256,
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
	OPT_NO_LABELS,
};

static void pprof_usage(FILE *out)
{
	fputs("usage: readperf pprof [-o OUT] [options] [FILE|DIR...]\n"
	      "  writes a gzip'd pprof profile to OUT (default: perf.pb.gz; - for stdout);\n"
	      "  several recordings (a directory: its perf.data* files) give one profile,\n"
	      "  merged as `go tool pprof A B` merges; read it with `go tool pprof -top OUT`\n"
	      "  -o, --output OUT       the profile (written whole, then renamed into place)\n"
	      "  -i, --input FILE       a recording (default perf.data; may be repeated)\n"
	      "      --no-labels LIST   leave out labels (pid,tid,comm,cpu): smaller profiles\n"
	      "      --symfs DIR, --kallsyms FILE, --no-demangle   as for report\n"
	      CLI_INLINE_HELP
	      CLI_FILTER_USAGE
	      "  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU;\n"
	      "                   several recordings: at most N read at once\n",
	      out);
}

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

/* Where the profile goes: stdout, OUT itself (not a regular file:
 * /dev/null, a pipe), or a temporary file renamed to OUT when complete. */
struct pprof_dest {
	const char *path;
	char *tmp;
	FILE *f;
};

static int pprof_dest_open(struct pprof_dest *d, const char *path)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->path = path;
	if (!strcmp(path, "-")) {
		d->f = stdout;
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (!(d->f = fopen(path, "wb")))
			goto fail;
		return 0;
	}
	size_t n = strlen(path) + sizeof(".XXXXXX");
	if (!(d->tmp = malloc(n))) {
		cli_errorf("out of memory");
		return RP_EXIT_USAGE;
	}
	snprintf(d->tmp, n, "%s.XXXXXX", path);
	int fd = mkstemp(d->tmp);
	if (fd < 0 || !(d->f = fdopen(fd, "wb"))) {
		if (fd >= 0) {
			close(fd);
			unlink(d->tmp);
		}
		goto fail;
	}
	/* mkstemp makes it 0600: a profile is as readable as other files */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return 0;
fail:
	cli_errorf("pprof: cannot create %s: %s", path, strerror(errno));
	free(d->tmp);
	d->tmp = NULL;
	return RP_EXIT_USAGE;
}

/* Completes (ok) or abandons the profile; returns 0 or an exit status. */
static int pprof_dest_close(struct pprof_dest *d, int ok)
{
	int status = 0;

	if (d->f == stdout) {
		if (ok && (fflush(stdout) != 0 || ferror(stdout)))
			status = RP_EXIT_USAGE;
	} else if (d->f && fclose(d->f) != 0 && ok) {
		status = RP_EXIT_USAGE;
	}
	if (status)
		cli_errorf("pprof: cannot write %s: %s", d->path, strerror(errno));
	if (d->tmp) {
		if (ok && !status && rename(d->tmp, d->path) < 0) {
			cli_errorf("pprof: cannot rename %s to %s: %s", d->tmp, d->path,
				   strerror(errno));
			status = RP_EXIT_USAGE;
		}
		if (!ok || status)
			unlink(d->tmp);
		free(d->tmp);
	}
	return status;
}

int cmd_pprof(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "no-labels", required_argument, NULL, OPT_NO_LABELS },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		CLI_INLINE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outpath = "perf.pb.gz";
	struct rp_pprof_opts opts = { .sz = sizeof(opts) };
	struct cli_symbol_opts sym = { 0 };
	struct cli_paths paths = { 0 };
	struct cli_filter filter = { 0 };
	unsigned jobs = 0;
	int c, bits, status = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:i:j:h" CLI_FILTER_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'i':
			if ((status = cli_paths_add(&paths, optarg)))
				goto out;
			break;
		case 'j':
			if ((status = cli_parse_jobs(optarg, &jobs)))
				goto out;
			break;
		case OPT_NO_LABELS:
			if ((bits = pprof_labels(optarg)) < 0) {
				cli_errorf("bad --no-labels '%s' (a list of pid, tid, comm, cpu)",
					   optarg);
				status = RP_EXIT_USAGE;
				goto out;
			}
			opts.no_labels |= (unsigned)bits;
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
		case CLI_OPT_INLINE:
		case CLI_OPT_NO_INLINE:
			sym.no_inline = c == CLI_OPT_NO_INLINE;
			break;
		case 'h':
			pprof_usage(stdout);
			goto out;
		default:
			pprof_usage(stderr);
			status = RP_EXIT_USAGE;
			goto out;
		}
	}
	for (; optind < argc; optind++)
		if ((status = cli_paths_add(&paths, argv[optind])))
			goto out;
	if (!paths.nr && (status = cli_paths_add(&paths, "perf.data")))
		goto out;

	struct pprof_dest dest;
	if ((status = pprof_dest_open(&dest, outpath)))
		goto out;
	struct cli_multi_opts mo = { .order = RP_ORDER_TIME, .sym = &sym, .filter = &filter,
				     .jobs = jobs, .progress = 1 };
	struct rp_output_target target = { .sz = sizeof(target), .stream = dest.f };
	int written = 0;
	status = cli_multi_merge(&paths, &mo, "pprof", &opts, &target, &written);
	int st = pprof_dest_close(&dest, written);
	if (st && !status)
		status = st;
out:
	cli_paths_release(&paths);
	return status;
}
