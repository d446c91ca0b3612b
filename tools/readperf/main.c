/* SPDX-License-Identifier: MIT */
/*
 * readperf: read perf.data files.  The subcommands follow perf's names and
 * options (see README.md); `readperf FILE` is `readperf report FILE`.
 */
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Where this thread's messages go: NULL, standard error (cli_multi.c
 * gives each recording's worker a buffer of its own). */
static __thread FILE *cli_messages;

void cli_messages_to(FILE *f)
{
	cli_messages = f;
}

__attribute__((format(printf, 2, 0)))
static void cli_vprint(const char *level, const char *fmt, va_list ap)
{
	FILE *f = cli_messages ? cli_messages : stderr;

	/* one line, whole, when several threads report */
	flockfile(f);
	fprintf(f, "readperf: %s: ", level);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	funlockfile(f);
}

void cli_errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vprint("error", fmt, ap);
	va_end(ap);
}

void cli_warnf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vprint("warning", fmt, ap);
	va_end(ap);
}

void cli_error(const char *path, const struct rp_error *err)
{
	char buf[RP_ERROR_MSG_MAX + 128];

	cli_errorf("%s: %s", path, rp_error_format(err, buf, sizeof(buf)));
}

int cli_input_open(struct cli_input *in, const char *path, enum rp_order order,
		   const struct cli_symbol_opts *symbol_opts)
{
	struct rp_session_opts opts = { .sz = sizeof(opts), .order = order };
	struct rp_error err = { 0 };
	int ret;

	memset(in, 0, sizeof(*in));
	in->path = path ? path : "perf.data";
	ret = rp_session_open(&in->session, in->path, &opts, &err);
	if (ret < 0) {
		cli_error(in->path, &err);
		return RP_EXIT_BAD_INPUT;
	}
	if (rp_machine_new(&in->machine, in->session) < 0) {
		cli_errorf("out of memory");
		cli_input_close(in);
		return RP_EXIT_BAD_INPUT;
	}
	if (symbol_opts) {
		struct rp_symbols_opts so = {
			.sz = sizeof(so),
			.symfs = symbol_opts->symfs,
			.kallsyms = symbol_opts->kallsyms,
			.no_demangle = symbol_opts->no_demangle,
			.no_inline = symbol_opts->no_inline,
		};

		if (rp_symbols_new(&in->symbols, in->session, &so) < 0) {
			cli_errorf("out of memory");
			cli_input_close(in);
			return RP_EXIT_BAD_INPUT;
		}
	}
	return 0;
}

void cli_input_close(struct cli_input *in)
{
	rp_filter_free(in->filter);
	rp_symbols_free(in->symbols);
	rp_machine_free(in->machine);
	rp_session_close(in->session);
	memset(in, 0, sizeof(*in));
}

void cli_warn_cut_short(const char *path, const struct rp_session *session)
{
	const struct rp_session_stats *st = rp_session_stats(session);

	if (st->cut_short)
		cli_warnf("%s: the recording was cut short (data size 0 in its header: perf record "
			  "did not finish it); recovered %llu bytes of records, up to the last whole "
			  "one (%llu bytes after it)",
			  path, (unsigned long long)st->bytes_recovered,
			  (unsigned long long)st->bytes_cut);
}

/* What the run met that the output does not show: counted by a consumer
 * beside the command's own. */
struct cli_diag {
	const struct cli_input *in;
	uint64_t samples;      /* samples with a known event */
	uint64_t kernel;       /* ... in the kernel image (its map's DSO) */
	uint64_t kernel_sym;   /* ... of which a symbol was found */
};

static int cli_diag_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct cli_diag *d = ctx;
	const struct rp_map *kmap;

	if (ev->type != RP_RECORD_SAMPLE || !res)
		return 0;
	d->samples++;
	if (res->al.map && (kmap = rp_machine_kernel_map(d->in->machine)) &&
	    res->al.dso == rp_map_dso(kmap)) {
		d->kernel++;
		d->kernel_sym += res->al.sym != NULL;
	}
	return 0;
}

/*
 * Whether kernel samples cannot be placed, as perf report decides it
 * after a report (its kptr_restrict warning): some event samples the
 * kernel, and the file had no kernel MMAP record, or samples fell in the
 * kernel image while its MMAP gave no relocation address (pgoff 0: kernel
 * addresses were hidden when it recorded).  perf says nothing about
 * other samples without a map or a symbol, and neither does readperf.
 */
static int cli_kernel_unplaced(const struct cli_input *in, const struct cli_diag *d)
{
	size_t i, nr = rp_session_nr_evsels(in->session);

	for (i = 0; i < nr; i++)
		if (!(rp_evsel_attr(rp_session_evsel(in->session, i))->flags &
		      RP_ATTR_EXCLUDE_KERNEL))
			break;
	if (i == nr || !d->samples)
		return 0;
	if (!rp_machine_kernel_map(in->machine))
		return 1;
	return d->kernel && !rp_machine_kernel_ref(in->machine, NULL, NULL);
}

/*
 * The end-of-run summary on stderr: what perf warns about after a report
 * (lost chunks, lost samples above 5 %, unknown record types, samples with
 * an unknown id, out-of-order events, in perf's words), then readperf's
 * own counts (samples without a map or symbol, bytes skipped).
 */
static void cli_diagnostics(const struct cli_input *in, const struct cli_diag *d)
{
	const struct rp_session_stats *st = rp_session_stats(in->session);
	uint64_t total = 0, samples = rp_session_nr_records(in->session, RP_RECORD_SAMPLE);

	for (unsigned t = 1; t < RP_RECORD_MAX; t++)
		total += rp_session_nr_records(in->session, t);
	cli_warn_cut_short(in->path, in->session);
	if (rp_session_nr_records(in->session, RP_RECORD_LOST))
		cli_warnf("%s: Processed %llu events and lost %llu chunks! Check IO/CPU overload! "
			  "(%llu events lost)",
			  in->path, (unsigned long long)total,
			  (unsigned long long)rp_session_nr_records(in->session, RP_RECORD_LOST),
			  (unsigned long long)st->nr_lost);
	if (st->nr_lost_samples) {
		double rate = (double)st->nr_lost_samples / (double)(samples + st->nr_lost_samples);

		if (rate > 0.05)
			cli_warnf("%s: Processed %llu samples and lost %3.2f%%!", in->path,
				  (unsigned long long)(samples + st->nr_lost_samples), rate * 100.0);
		else
			cli_warnf("%s: %llu samples lost (LOST_SAMPLES)", in->path,
				  (unsigned long long)st->nr_lost_samples);
	}
	if (st->nr_unknown_records)
		cli_warnf("%s: Found %llu unknown events! (record types readperf does not know)",
			  in->path, (unsigned long long)st->nr_unknown_records);
	if (st->nr_unknown_id)
		cli_warnf("%s: %llu samples with id not present in the header", in->path,
			  (unsigned long long)st->nr_unknown_id);
	if (st->nr_unordered)
		cli_warnf("%s: %llu out of order events recorded.", in->path,
			  (unsigned long long)st->nr_unordered);
	if (cli_kernel_unplaced(in, d)) {
		if (!rp_machine_kernel_map(in->machine))
			cli_warnf("%s: kernel samples cannot be resolved: the recording has no "
				  "kernel map (no MMAP record of the kernel)",
				  in->path);
		else if (d->kernel_sym)
			cli_warnf("%s: the recording hid kernel addresses (kptr_restrict when perf "
				  "record ran: no relocation address in its kernel map); kernel "
				  "symbols may be wrong if the kernel was relocated (kexec)",
				  in->path);
		else
			cli_warnf("%s: %llu kernel samples (of %llu) cannot be resolved: the "
				  "recording hid kernel addresses (kptr_restrict when perf record "
				  "ran) and no kallsyms or vmlinux places them",
				  in->path, (unsigned long long)d->kernel,
				  (unsigned long long)d->samples);
	}
}

/* -j: 0 (the default) is one thread per CPU. */
static unsigned cli_nr_threads;

int cli_parse_threads(const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (end == arg || *end || arg[0] == '-' || n > 4096) {
		cli_errorf("bad -j '%s' (a number of threads; 0: one per CPU)", arg);
		return RP_EXIT_USAGE;
	}
	cli_nr_threads = (unsigned)n;
	return 0;
}

int cli_parse_max_stack(const char *arg, uint32_t *max_stack, int *set)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (end == arg || *end || arg[0] == '-' || errno || n > UINT32_MAX) {
		cli_errorf("bad --max-stack '%s' (a number of frames)", arg);
		return -1;
	}
	*max_stack = (uint32_t)n;
	*set = 1;
	return 0;
}

unsigned cli_threads(void)
{
	long n = cli_nr_threads ? (long)cli_nr_threads : sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

int cli_input_run(struct cli_input *in, const struct rp_consumer *consumers, size_t nr)
{
	struct cli_diag diag = { .in = in };
	struct rp_consumer *all = calloc(nr + 1, sizeof(*all));
	int ret;

	if (!all) {
		cli_errorf("out of memory");
		return RP_EXIT_BAD_INPUT;
	}
	memcpy(all, consumers, nr * sizeof(*all));
	all[nr] = (struct rp_consumer){ &diag, cli_diag_event, 0 };
	struct rp_process_opts po = { .sz = sizeof(po),
				      .filter = in->filter,
				      .nr_threads = in->threads ? in->threads : cli_threads(),
				      .max_stack = in->max_stack,
				      .max_stack_set = in->max_stack_set };

	ret = rp_process_ext(in->session, in->machine, in->symbols, all, nr + 1, &po);
	free(all);

	const struct rp_session_stats *st = rp_session_stats(in->session);

	cli_diagnostics(in, &diag);
	if (ret < 0) {
		const struct rp_error *err = rp_session_error(in->session);

		if (err->code)
			cli_error(in->path, err);
		else
			cli_errorf("%s: %s", in->path, rp_strerror(ret));
		if (st->bytes_skipped)
			cli_warnf("%s: %llu bytes of data after the error were not read", in->path,
				  (unsigned long long)st->bytes_skipped);
		return RP_EXIT_BAD_INPUT;
	}
	if (st->bytes_skipped)
		cli_warnf("%s: %llu bytes at the end of the data were skipped", in->path,
			  (unsigned long long)st->bytes_skipped);
	return RP_EXIT_OK;
}

/* The commands, in the order `readperf --help` lists them. */
static const struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} cli_commands[] = {
	{ "report", cmd_report, "the function overview, as perf report --stdio" },
	{ "csv", cmd_csv, "stat.csv, overview.csv, processes.csv and results.csv" },
	{ "header", cmd_header, "the header, as perf report --header-only [-I]" },
	{ "dump", cmd_dump, "every record, as perf report -D" },
	{ "stats", cmd_stats, "record counts, as perf report --stats" },
	{ "script", cmd_script, "one line per sample, as perf script" },
	{ "collapse", cmd_collapse, "folded stacks, as perf's stackcollapse script" },
	{ "flamegraph", cmd_flamegraph, "an interactive SVG flame graph" },
	{ "pprof", cmd_pprof, "a gzip'd pprof profile.proto" },
	{ "json", cmd_json, "perf data convert --to-json" },
	{ "html", cmd_html, "one offline HTML page: flame graph, trees, caller/callee, timeline" },
	{ "sqlite", cmd_sqlite, "an SQLite database in perf's export-to-sqlite schema" },
	{ "postgres", cmd_postgres, "into a PostgreSQL database, perf's export-to-postgresql schema" },
	{ "annotate", cmd_annotate, "per-instruction percentages, as perf annotate --stdio" },
	{ "diff", cmd_diff, "what changed between two recordings, as perf diff" },
};

static void usage(FILE *out)
{
	fputs("usage: readperf [COMMAND] [options] [FILE|-]\n\n", out);
	for (size_t i = 0; i < sizeof(cli_commands) / sizeof(cli_commands[0]); i++)
		fprintf(out, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
	fputs("\n"
	      "FILE defaults to perf.data; - reads a pipe-mode stream from standard\n"
	      "input; a directory is a perf record --threads recording.  Without a\n"
	      "command, readperf runs report.  `readperf COMMAND --help` for options;\n"
	      "`readperf --version` (-V) prints the version.\n",
	      out);
}

/*
 * Whether the first argument, which is no command, reads as a mistyped
 * command rather than as the FILE of `readperf [FILE]`: not an option,
 * not "-", no such path, and no '/' or '.' in it (a missing "x.data" or
 * "dir/f" is a file that cannot be opened, and says so).
 */
static int cli_unknown_command(const char *arg)
{
	struct stat st;

	if (arg[0] == '-' || !arg[0] || strchr(arg, '/') || strchr(arg, '.'))
		return 0;
	return stat(arg, &st) < 0;
}

int main(int argc, char **argv)
{
	/*
	 * The heap grows by 16 MiB at least: a run makes its tables in many
	 * steps, and with glibc's default (128 KiB) each step is a brk, and
	 * each shrink after a large free flushes the other threads' TLBs.
	 * 13 % of a --call-graph dwarf report's wall time with -j 2 (bench/
	 * RESULTS.md); peak RSS +2.5 MB.  A process setting: the library
	 * leaves it to its callers.
	 */
	mallopt(M_TOP_PAD, 16 << 20);
	if (argc >= 2) {
		const char *cmd = argv[1];

		for (size_t i = 0; i < sizeof(cli_commands) / sizeof(cli_commands[0]); i++)
			if (!strcmp(cmd, cli_commands[i].name))
				return cli_commands[i].run(argc - 1, argv + 1);
		/* As perf: `perf --version`, `perf version` print "perf version X". */
		if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V") || !strcmp(cmd, "version")) {
			printf("readperf version %s\n", rp_version());
			return RP_EXIT_OK;
		}
		if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
			usage(stdout);
			return RP_EXIT_OK;
		}
		if (cli_unknown_command(cmd)) {
			fprintf(stderr, "readperf: '%s' is not a readperf command\n\n", cmd);
			usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	/* `readperf [options] [FILE]` is the report. */
	return cmd_report(argc, argv);
}
