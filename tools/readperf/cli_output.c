/* SPDX-License-Identifier: MIT */
/*
 * The commands built on one library output (include/readperf/output.h):
 * what they share lives here once: the positional FILE and -i, -j, -h,
 * -o for outputs that write to a path, the symbol options for outputs
 * that print names, perf's filters, the run and the exit statuses.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readperf/progress.h>

#include "cli.h"

enum {
	OPT_SYMFS = 0x1200, /* apart from the filter and inline codes */
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
};

/* -i, -j, -h (CLI_NR_COMMON_OPTS of them), then perf's filters. */
static const struct option cli_common_longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "threads", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	CLI_FILTER_LONGOPTS,
};
#define CLI_NR_COMMON_OPTS 3

static const struct option cli_symbol_longopts[] = {
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	CLI_INLINE_LONGOPTS,
};

static const struct option cli_path_longopts[] = {
	{ "output", required_argument, NULL, 'o' },
};

#define CLI_NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void cli_output_usage(const struct cli_output_cmd *cmd, unsigned flags, FILE *out)
{
	fprintf(out, "usage: readperf %s [options] %s\n%s", cmd->name,
		cmd->operands_usage	    ? cmd->operands_usage
		: cmd->multi || cmd->each ? "[FILE|DIR...]"
					  : "[FILE]",
		cmd->help);
	if (cmd->multi)
		fputs("  -i, --input FILE     a recording (default perf.data; may be repeated);\n"
		      "                       several give one output, merged; a directory:\n"
		      "                       its perf.data* files\n",
		      out);
	else if (cmd->each)
		fputs("  -i, --input FILE     a recording (default perf.data; may be repeated);\n"
		      "                       several are exported one by one, in parallel; a\n"
		      "                       directory: its perf.data* files\n",
		      out);
	else
		fputs("  -i, --input FILE     the perf.data file (default perf.data)\n", out);
	if (flags & RP_OUTPUT_SYMBOLS)
		fputs("      --symfs DIR      look for binaries under DIR\n"
		      "      --kallsyms FILE  kernel symbols from FILE\n"
		      "      --no-demangle    C++ and Rust names as in the binary\n"
		      CLI_INLINE_HELP,
		      out);
	if (!cmd->no_filters)
		fputs(cmd->filter_help ? cmd->filter_help : CLI_FILTER_USAGE, out);
	fputs("  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n",
	      out);
	if (cmd->multi || cmd->each)
		fputs("                   several recordings: at most N read at once\n", out);
}

/* The command's options after the common ones, in one array for getopt. */
static struct option *cli_output_longopts(const struct cli_output_cmd *cmd, unsigned flags,
					  int has_o)
{
	size_t own = 0, n = 0;

	while (cmd->longopts && cmd->longopts[own].name)
		own++;
	struct option *all = calloc(CLI_NELEM(cli_common_longopts) + CLI_NELEM(cli_symbol_longopts) +
					    CLI_NELEM(cli_path_longopts) + own + 1,
				    sizeof(*all));
	if (!all)
		return NULL;
	memcpy(all, cli_common_longopts, sizeof(cli_common_longopts));
	n += cmd->no_filters ? CLI_NR_COMMON_OPTS : CLI_NELEM(cli_common_longopts);
	if (flags & RP_OUTPUT_SYMBOLS) {
		memcpy(all + n, cli_symbol_longopts, sizeof(cli_symbol_longopts));
		n += CLI_NELEM(cli_symbol_longopts);
	}
	if (has_o) {
		memcpy(all + n, cli_path_longopts, sizeof(cli_path_longopts));
		if (cmd->path_option)
			all[n].name = cmd->path_option;
		n += CLI_NELEM(cli_path_longopts);
	}
	if (own)
		memcpy(all + n, cmd->longopts, own * sizeof(*all));
	return all;
}

static int cli_symbol_option(struct cli_symbol_opts *sym, int c, const char *arg)
{
	switch (c) {
	case OPT_SYMFS:
		sym->symfs = arg;
		return 1;
	case OPT_KALLSYMS:
		sym->kallsyms = arg;
		return 1;
	case OPT_NO_DEMANGLE:
		sym->no_demangle = 1;
		return 1;
	case CLI_OPT_INLINE:
	case CLI_OPT_NO_INLINE:
		sym->no_inline = c == CLI_OPT_NO_INLINE;
		return 1;
	}
	return 0;
}

/*
 * The code cli_filter_option() knows for option c of a command that
 * names the filters' short options itself (filter_letters), 0 for a short
 * option of its own; c as it is otherwise.
 */
static int cli_filter_code(const struct cli_output_cmd *cmd, int c)
{
	static const int codes[4] = { CLI_OPT_FILTER_COMMS, CLI_OPT_FILTER_DSOS,
				      CLI_OPT_FILTER_SYMBOLS, CLI_OPT_FILTER_CPU };

	if (!cmd->filter_letters || c < 0 || c > 0xff)
		return c;
	for (size_t i = 0; i < 4 && cmd->filter_letters[i]; i++)
		if (cmd->filter_letters[i] == c)
			return codes[i];
	return 0;
}

int cli_fold_option(const struct cli_fold_opts *f, int c)
{
	int *field = c == CLI_OPT_INCLUDE_TID ? f->include_tid
		     : c == CLI_OPT_INCLUDE_PID ? f->include_pid
		     : c == CLI_OPT_NO_COMM	? f->no_comm
		     : c == CLI_OPT_TIDY_JAVA	? f->tidy_java
						: NULL;

	if (!field)
		return 0;
	*field = 1;
	return 1;
}

int cli_fold_check(const char *cmd, const struct cli_fold_opts *f)
{
	if (*f->no_comm && (*f->include_pid || *f->include_tid)) {
		cli_errorf("%s: --include-pid and --include-tid need the comm", cmd);
		return RP_EXIT_USAGE;
	}
	return 0;
}

/* Bytes of buffer for a stream written to a file (-o). */
#define CLI_STREAM_BUF (1u << 20)

static void cli_output_warnings(const struct cli_input *in, struct rp_output *out,
				const char **shown)
{
	const char *w = rp_output_warnings(out);

	if (!w || w == *shown)
		return;
	*shown = w;
	while (*w) {
		size_t n = strcspn(w, "\n");

		cli_warnf("%s: %.*s", in->path, (int)n, w);
		w += n + (w[n] == '\n');
	}
}

/*
 * Hands an RP_OUTPUT_FILE_ORDER output every record as the file holds it.
 * Returns the exit status, as cli_input_run().
 */
static int cli_records_run(struct cli_input *in, const struct rp_consumer *consumer)
{
	const struct rp_event *ev;
	int ret;

	while ((ret = rp_session_next(in->session, &ev)) > 0)
		if ((ret = consumer->event(consumer->ctx, ev, NULL)) < 0)
			break;
	cli_warn_cut_short(in->path, in->session);
	if (ret < 0) {
		const struct rp_error *e = rp_session_error(in->session);

		if (e->code)
			cli_error(in->path, e);
		else
			cli_errorf("%s: %s", in->path, rp_strerror(ret));
		return RP_EXIT_BAD_INPUT;
	}
	return RP_EXIT_OK;
}

/* Runs the output on the opened input into stream (stream outputs) or
 * target_path.  Returns the exit status. */
static int cli_output_run(const struct cli_output_cmd *cmd, unsigned flags,
			  struct cli_input *in, void *opts, FILE *stream, const char *target_path)
{
	struct rp_output_env env = { .sz = sizeof(env), .session = in->session,
				     .machine = in->machine, .symbols = in->symbols,
				     .filter = in->filter };
	struct rp_output_target target = { .sz = sizeof(target), .stream = stream,
					   .path = target_path };
	/* Errors are the command's (a target may be a connection string). */
	const char *where = cmd->name;
	struct rp_error err = { 0 };
	struct rp_output *out;
	const char *shown = NULL;
	int status;

	if (cmd->prepare && (status = cmd->prepare(opts, in)))
		return status;
	if (rp_output_new(&out, cmd->name, &env, opts, &target, &err) < 0) {
		cli_error(where, &err);
		/* Bad options or target, or an output this build lacks. */
		return err.code == RP_ERR_INVAL || err.code == RP_ERR_UNSUPPORTED ||
				       err.code == RP_ERR_IO
			       ? RP_EXIT_USAGE
			       : RP_EXIT_BAD_INPUT;
	}
	cli_output_warnings(in, out, &shown);
	struct rp_progress *progress = cmd->progress ? rp_progress_new(stderr, in->session, 0)
						     : NULL;
	struct rp_consumer consumers[2] = { rp_output_consumer(out),
					     rp_progress_consumer(progress) };
	if (flags & RP_OUTPUT_HEADER_ONLY)
		status = RP_EXIT_OK;
	else if (flags & RP_OUTPUT_FILE_ORDER)
		status = cli_records_run(in, &consumers[0]);
	else
		status = cli_input_run(in, consumers, progress ? 2 : 1);
	rp_progress_finish(progress);
	rp_progress_free(progress);
	/* What was read before a bad record is still written. */
	if (rp_output_finish(out, &err) < 0) {
		cli_error(where, &err);
		/* A target that cannot be written is the caller's. */
		if (!status)
			status = err.code == RP_ERR_INVAL || err.code == RP_ERR_IO ? RP_EXIT_USAGE
										: RP_EXIT_BAD_INPUT;
	}
	cli_output_warnings(in, out, &shown);
	rp_output_free(out);
	return status;
}

/*
 * Where a stream output goes: standard output (no -o, or "-"), the file
 * itself when it is not a regular file (/dev/null, a pipe), else a
 * temporary file beside it renamed into place once complete, so that a
 * reader (an uploader, a browser) never sees half an output.
 */
struct cli_stream {
	const char *path;
	char *tmp;
	FILE *f;
};

static int cli_stream_open(struct cli_stream *d, const char *path)
{
	/* One stream per run; standard output keeps it until exit. */
	static char buf[CLI_STREAM_BUF];
	struct stat st;
	int fd = -1;

	memset(d, 0, sizeof(*d));
	d->path = path;
	if (!path || !strcmp(path, "-")) {
		d->f = stdout;
	} else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (!(d->f = fopen(path, "w")))
			goto fail;
	} else {
		size_t n = strlen(path) + sizeof(".XXXXXX");

		if (!(d->tmp = malloc(n)))
			goto fail;
		snprintf(d->tmp, n, "%s.XXXXXX", path);
		if ((fd = mkstemp(d->tmp)) < 0 || !(d->f = fdopen(fd, "w")))
			goto fail;
		/* mkstemp makes it 0600: as readable as any file made here */
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	/* Whole lines in large blocks; only this thread writes the stream
	 * (the pipeline's reader thread never does), so stdio need not lock
	 * it per call. */
	setvbuf(d->f, buf, _IOFBF, sizeof(buf));
	__fsetlocking(d->f, FSETLOCKING_BYCALLER);
	return 0;
fail:
	cli_errorf("cannot create %s: %s", path, strerror(errno));
	if (fd >= 0) {
		close(fd);
		unlink(d->tmp);
	}
	free(d->tmp);
	d->tmp = NULL;
	return RP_EXIT_USAGE;
}

/* Completes the output (ok) or abandons it; returns status, or
 * RP_EXIT_USAGE when the last bytes could not be written or put in place. */
static int cli_stream_close(struct cli_stream *d, int ok, int status)
{
	const char *name = d->path && strcmp(d->path, "-") ? d->path : "the output";
	int werr = fflush(d->f) != 0 || ferror(d->f);

	if (d->f != stdout && fclose(d->f) != 0)
		werr = 1;
	if (werr && ok) {
		cli_errorf("cannot write %s", name);
		status = status ? status : RP_EXIT_USAGE;
	}
	if (d->tmp) {
		if (ok && !werr && rename(d->tmp, d->path) < 0) {
			cli_errorf("cannot rename %s to %s: %s", d->tmp, d->path, strerror(errno));
			status = status ? status : RP_EXIT_USAGE;
			werr = 1;
		}
		if (!ok || werr)
			unlink(d->tmp);
		free(d->tmp);
	}
	return status;
}

/* Several recordings into one merged output (cmd->multi; cli_multi.c). */
static int cli_output_multi(const struct cli_output_cmd *cmd, unsigned flags,
			    const struct cli_paths *paths, const struct cli_symbol_opts *sym,
			    const struct cli_filter *filter, void *opts, const char *target_path)
{
	struct cli_multi_opts mo = { .order = RP_ORDER_TIME,
				     .sym = (flags & RP_OUTPUT_SYMBOLS) ? sym : NULL,
				     .filter = cmd->no_filters ? NULL : filter,
				     .jobs = cli_threads(), .progress = cmd->progress };
	struct rp_output_target target = { .sz = sizeof(target), .path = target_path };
	struct cli_stream d = { 0 };
	struct cli_filter *filters = NULL;
	int written = 0, status;

	mo.strict = cmd->strict;
	if (cmd->prepare && (status = cmd->prepare(opts, NULL)))
		return status;
	if (cmd->recording_filter && !cmd->no_filters) {
		if (!(filters = calloc(paths->nr, sizeof(*filters)))) {
			cli_errorf("out of memory");
			return RP_EXIT_BAD_INPUT;
		}
		for (size_t i = 0; i < paths->nr; i++) {
			filters[i] = *filter;
			if ((status = cmd->recording_filter(opts, i, &filters[i]))) {
				free(filters);
				return status;
			}
		}
		mo.filters = filters;
	}
	if (!(flags & RP_OUTPUT_PATH)) {
		if ((status = cli_stream_open(&d, target_path))) {
			free(filters);
			return status;
		}
		target.stream = d.f;
	}
	status = cli_multi_merge(paths, &mo, cmd->name, opts, &target, &written);
	free(filters);
	return (flags & RP_OUTPUT_PATH) ? status : cli_stream_close(&d, written, status);
}

int cli_output_main(const struct cli_output_cmd *cmd, int argc, char **argv)
{
	int oflags = rp_output_flags(cmd->name);
	unsigned flags = oflags < 0 ? 0 : (unsigned)oflags;
	struct cli_symbol_opts sym = { 0 };
	struct cli_filter filter = { 0 };
	const char *path = NULL, *target_path = cmd->default_path;
	struct cli_paths paths = { 0 };
	char shortopts[64];
	void *opts;
	int c, status;

	int has_o = (flags & RP_OUTPUT_PATH) || cmd->stream_option;

	char filter_short[16] = CLI_FILTER_SHORTOPTS;

	if (cmd->filter_letters) {
		size_t n = 0;

		for (size_t i = 0; i < 4 && cmd->filter_letters[i]; i++)
			if (cmd->filter_letters[i] != '-') {
				filter_short[n++] = cmd->filter_letters[i];
				filter_short[n++] = ':';
			}
		filter_short[n] = '\0';
	}
	snprintf(shortopts, sizeof(shortopts), "i:j:h%s%s%s",
		 cmd->no_filters ? "" : filter_short,
		 has_o && !cmd->path_option ? "o:" : "", cmd->shortopts ? cmd->shortopts : "");
	struct option *longopts = cli_output_longopts(cmd, flags, has_o);
	opts = cmd->opts_size ? calloc(1, cmd->opts_size) : NULL;
	if (!longopts || (cmd->opts_size && !opts)) {
		cli_errorf("out of memory");
		free(longopts);
		free(opts);
		return RP_EXIT_BAD_INPUT;
	}
	if (opts)
		memcpy(opts, &cmd->opts_size, sizeof(size_t)); /* the options' sz */
	if (cmd->init)
		cmd->init(opts);
	status = RP_EXIT_OK;
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (!cmd->no_filters && cli_filter_option(&filter, cli_filter_code(cmd, c), optarg))
			continue;
		if ((flags & RP_OUTPUT_SYMBOLS) && cli_symbol_option(&sym, c, optarg))
			continue;
		if (c == 'i' && (cmd->multi || cmd->each)) {
			if ((status = cli_paths_add(&paths, optarg)))
				goto out;
			continue;
		}
		if (c == 'i') {
			path = optarg;
			continue;
		}
		if (c == 'o' && has_o) {
			target_path = optarg;
			continue;
		}
		if (c == 'j') {
			if ((status = cli_parse_threads(optarg)))
				goto out;
			continue;
		}
		if (c == 'h') {
			cli_output_usage(cmd, flags, stdout);
			goto out;
		}
		int taken = c != '?' && cmd->option ? cmd->option(opts, c, optarg) : 0;
		if (taken == 1)
			continue;
		if (taken == 0)
			cli_output_usage(cmd, flags, stderr);
		status = RP_EXIT_USAGE;
		goto out;
	}
	if (cmd->multi || cmd->each) {
		for (; optind < argc; optind++)
			if ((status = cli_paths_add(&paths, argv[optind])))
				goto out;
		if (cmd->check_paths && (status = cmd->check_paths(opts, &paths)))
			goto out;
		if (!paths.nr && (status = cli_paths_add(&paths, "perf.data")))
			goto out;
		if (cmd->multi) {
			status = cli_output_multi(cmd, flags, &paths, &sym, &filter, opts,
						  target_path);
			goto out;
		}
		if (paths.nr > 1) {
			struct cli_multi_opts mo = {
				.order = RP_ORDER_TIME,
				.sym = (flags & RP_OUTPUT_SYMBOLS) ? &sym : NULL,
				.filter = cmd->no_filters ? NULL : &filter,
				.jobs = cli_threads(),
			};

			/* Several databases: -o names their directory. */
			if (cmd->each_in_dir && target_path == cmd->default_path)
				target_path = ".";
			if (!(cmd->prepare && (status = cmd->prepare(opts, NULL))))
				status = cli_multi_each(&paths, &mo, cmd->name, opts, target_path,
							cmd->each_in_dir);
			goto out;
		}
		path = paths.v[0];
	}
	if (cmd->operands) {
		if ((status = cmd->operands(opts, argc - optind, argv + optind, &path))) {
			cli_output_usage(cmd, flags, stderr);
			goto out;
		}
	} else if (optind < argc && !cmd->each) {
		if (path || optind + 1 < argc) {
			cli_output_usage(cmd, flags, stderr);
			status = RP_EXIT_USAGE;
			goto out;
		}
		path = argv[optind];
	}

	if (!sym.kallsyms)
		sym.kallsyms = cmd->default_kallsyms;
	struct cli_input in;
	int file_order = (flags & (RP_OUTPUT_FILE_ORDER | RP_OUTPUT_HEADER_ONLY)) ||
			 (cmd->file_order && cmd->file_order(opts));

	status = cli_input_open(&in, path, file_order ? RP_ORDER_FILE : RP_ORDER_TIME,
				(flags & RP_OUTPUT_SYMBOLS) ? &sym : NULL);
	if (status)
		goto out;
	status = cmd->no_filters ? 0 : cli_input_filter(&in, &filter);
	if (!status && cmd->instead && cmd->instead(opts, &in, &status)) {
		/* done */
	} else if (!status && (flags & RP_OUTPUT_PATH)) {
		status = cli_output_run(cmd, flags, &in, opts, NULL, target_path);
	} else if (!status) {
		struct cli_stream d;

		if (!(status = cli_stream_open(&d, target_path))) {
			status = cli_output_run(cmd, flags, &in, opts, d.f, NULL);
			status = cli_stream_close(&d, 1, status);
		}
	}
	cli_input_close(&in);
out:
	cli_paths_release(&paths);
	free(longopts);
	free(opts);
	return status;
}
