/* SPDX-License-Identifier: MIT */
/* The readperf command line: shared helpers of the subcommands. */
#ifndef RP_CLI_H
#define RP_CLI_H

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <readperf/readperf.h>

/* Exit statuses. */
#define RP_EXIT_OK 0
#define RP_EXIT_USAGE 1
#define RP_EXIT_BAD_INPUT 2

/* What struct cli_output_cmd's option() returns for a bad argument (1
 * is "taken", which RP_EXIT_USAGE would read as). */
#define CLI_OPTION_BAD (-1)

/* Prints "readperf: error: FILE: <err>" on stderr. */
void cli_error(const char *path, const struct rp_error *err);
/* The calling thread's errors and warnings go to f from now on (NULL:
 * standard error again). */
void cli_messages_to(FILE *f);
/* Prints "readperf: error: <printf>" on stderr. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "readperf: warning: <printf>" on stderr. */
void cli_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* After reading all records: one warning when the recording was cut
 * short (rp_session_stats: cut_short), saying how much was recovered. */
void cli_warn_cut_short(const char *path, const struct rp_session *session);

/*
 * perf's config files (cli_config.c): calls fn with each "section.key"
 * (lower case) and its value (NULL for a key without '=') in the order
 * perf reads them: $PERF_CONFIG alone when set (empty: none), else
 * /etc/perfconfig, then ~/.perfconfig.
 */
typedef void (*cli_config_fn)(void *ctx, const char *name, const char *value);
void cli_config_read(cli_config_fn fn, void *ctx);
/* perf_config_bool(): true/yes/on, false/no/off, a number, or no value
 * (true).  Returns 0, or -1 for another text. */
int cli_config_bool(const char *value, int *out);

/* The pieces a subcommand works with, opened from one file. */
struct cli_input {
	const char *path;
	struct rp_session *session;
	struct rp_machine *machine;
	struct rp_symbols *symbols;
	struct rp_filter *filter; /* cli_input_filter(); NULL: every sample */
	/* Threads of cli_input_run()'s pipeline (rp_process_opts.nr_threads);
	 * 0: the -j setting (cli_threads()). */
	unsigned threads;
	/* rp_process_opts.max_stack and max_stack_set (a command's
	 * --max-stack, set by its prepare()). */
	uint32_t max_stack;
	int max_stack_set;
};

struct cli_symbol_opts {
	const char *symfs;
	const char *kallsyms;
	int no_demangle;
	int no_inline; /* --no-inline: no inlined frames in call stacks */
};

/* perf's --inline / --no-inline, in every command that prints call
 * stacks: the getopt entries and their codes. */
enum { CLI_OPT_INLINE = 0x1100, CLI_OPT_NO_INLINE };
#define CLI_INLINE_LONGOPTS                                      \
	{ "inline", no_argument, NULL, CLI_OPT_INLINE },         \
	{ "no-inline", no_argument, NULL, CLI_OPT_NO_INLINE }
#define CLI_INLINE_HELP                                                          \
	"      --no-inline          no inlined functions in call stacks (--inline: them,\n" \
	"                           the default)\n"

/* Opens path with a machine and, unless symbol_opts is NULL, symbols.
 * Returns 0 or prints the error and returns an exit status. */
int cli_input_open(struct cli_input *in, const char *path, enum rp_order order,
		   const struct cli_symbol_opts *symbol_opts);
void cli_input_close(struct cli_input *in);
/*
 * Runs the pipeline into the consumers and reports what the reader met
 * (a stop error, invalid records).  Returns the exit status: 0, or 2 when
 * the input was bad (whatever was read before it has been consumed).
 */
int cli_input_run(struct cli_input *in, const struct rp_consumer *consumers, size_t nr);

/*
 * perf's sample filters, the same options on every command that processes
 * samples (cli_filter.c): --comms/-c, --pid, --tid, --dsos (-d where perf
 * has it: report), --symbols/-S, --cpu/-C, --time.  A command adds
 * CLI_FILTER_LONGOPTS to its long options, CLI_FILTER_SHORTOPTS to its
 * short ones, offers each option to cli_filter_option() first, prints
 * CLI_FILTER_USAGE in its help, and calls cli_input_filter() after
 * cli_input_open(); cli_input_run() then applies the filter.
 */
enum {
	CLI_OPT_FILTER_PID = 0x1000, /* apart from CLI_OPT_INLINE (0x1100...) */
	CLI_OPT_FILTER_TID,
	CLI_OPT_FILTER_DSOS,
	CLI_OPT_FILTER_TIME,
	/* the long options of those that have a short one too, so that a
	 * command may give the letters other meanings (perf diff's -c) */
	CLI_OPT_FILTER_COMMS,
	CLI_OPT_FILTER_SYMBOLS,
	CLI_OPT_FILTER_CPU,
};
#define CLI_FILTER_SHORTOPTS "c:S:C:"
#define CLI_FILTER_LONGOPTS                                                   \
	{ "comms", required_argument, NULL, CLI_OPT_FILTER_COMMS },           \
	{ "comm", required_argument, NULL, CLI_OPT_FILTER_COMMS },            \
	{ "pid", required_argument, NULL, CLI_OPT_FILTER_PID },               \
	{ "tid", required_argument, NULL, CLI_OPT_FILTER_TID },               \
	{ "dsos", required_argument, NULL, CLI_OPT_FILTER_DSOS },             \
	{ "symbols", required_argument, NULL, CLI_OPT_FILTER_SYMBOLS },       \
	{ "cpu", required_argument, NULL, CLI_OPT_FILTER_CPU },               \
	{ "time", required_argument, NULL, CLI_OPT_FILTER_TIME }
#define CLI_FILTER_USAGE                                                            \
	"  filters (perf's; see docs/filters.md):\n"                                 \
	"  -c, --comms LIST      only samples of these commands (comma separated)\n"  \
	"      --pid LIST        only these process ids\n"                            \
	"      --tid LIST        only these thread ids\n"                             \
	"      --dsos LIST       only samples in these shared objects\n"              \
	"  -S, --symbols LIST    only samples in these symbols (names, 0xADDR)\n"     \
	"  -C, --cpu LIST        only samples on these CPUs: 0-2,5\n"                 \
	"      --time RANGES     start,end in seconds (either may be empty; several\n" \
	"                        ranges separated by spaces), or percentages of the\n" \
	"                        recording: 10%/2, 0%-10%, 10%-20%,30%-40%\n"

/* The filter options given so far. */
struct cli_filter {
	struct rp_filter_opts opts;
};

/*
 * Takes option c (as getopt_long returned it, its argument in arg) when
 * it is a filter option ('d' too: --dsos, for the commands that put "d:"
 * in their short options).  Returns 1 when it was, 0 when not.
 */
int cli_filter_option(struct cli_filter *f, int c, const char *arg);

/*
 * Makes in->filter from f (NULL: none) for in's session.  Returns 0, or
 * prints the error and returns RP_EXIT_USAGE (a bad filter).
 */
int cli_input_filter(struct cli_input *in, const struct cli_filter *f);

/*
 * -j N, --threads N: the threads a command uses (the pipeline's
 * rp_process_opts.nr_threads and, for script, the formatting pool's;
 * 0: one per CPU, the default).  Returns 0, or prints the error and
 * returns RP_EXIT_USAGE.
 */
int cli_parse_threads(const char *arg);
/* perf's --max-stack N (report, script): a number of frames, 0 and up,
 * into *max_stack, and *set to 1; prints the error itself.  Returns 0
 * or -1. */
int cli_parse_max_stack(const char *arg, uint32_t *max_stack, int *set);
/* The threads -j asked for, resolved: 1 or more. */
unsigned cli_threads(void);

struct cli_paths;

/*
 * A command built on one library output (output.h) of the same name.
 * cli_output_main() parses its options with the common ones (-i, -j, -h,
 * perf's filters; --symfs, --kallsyms, --no-demangle, --[no-]inline when
 * the output prints names; -o PATH when it writes to a path), opens the
 * input, runs the output and returns the exit status.
 */
struct cli_output_cmd {
	const char *name;
	/* What it writes and its own options, for --help (after the usage
	 * line, before the common options). */
	const char *help;
	const struct option *longopts; /* its own, NULL-terminated; or NULL */
	const char *shortopts;         /* its own; or NULL */
	size_t opts_size;              /* sizeof its options struct (sz first); 0: none */
	/* Applies its option c to opts: 1 taken, 0 not one of its options,
	 * CLI_OPTION_BAD after printing why it is wrong. */
	int (*option)(void *opts, int c, const char *arg);
	/* After the input is open, before the output is made (NULL: none):
	 * 0, or an exit status after printing why. */
	int (*prepare)(void *opts, struct cli_input *in);
	/* Whether the options want the records in file order, through the
	 * pipeline all the same (NULL: never): perf script's
	 * --show-round-events turns perf's time ordering off. */
	int (*file_order)(const void *opts);
	/* multi: whether the recordings named suit the options, before
	 * perf.data is taken for none (NULL: any number); it may add the
	 * command's default ones.  0, or an exit status after printing why. */
	int (*check_paths)(const void *opts, struct cli_paths *paths);
	/* multi: recording idx's filter, made from the one the options gave
	 * (in *f; NULL: that one for every recording).  0, or an exit status
	 * after printing why. */
	int (*recording_filter)(const void *opts, size_t idx, struct cli_filter *f);
	/* The short options of --comms, --dsos, --symbols and --cpu, '-' for
	 * none, where the command's perf names them otherwise (perf diff:
	 * "CdS-"); NULL: -c, none, -S, -C.  filter_help then lists them
	 * (NULL: CLI_FILTER_USAGE). */
	const char *filter_letters;
	const char *filter_help;
	/* The operands after the options, when they are more than [FILE]:
	 * *path holds -i's file (or NULL) and may be set; 0, or
	 * RP_EXIT_USAGE (the usage is printed then).  operands_usage shows
	 * them in the usage line. */
	int (*operands)(void *opts, int argc, char **argv, const char **path);
	const char *operands_usage;
	/* Sets opts' defaults before the options are parsed (NULL: zeros). */
	void (*init)(void *opts);
	/* After the input is open: 1 when it did the command's whole job
	 * itself, with the exit status in *status (the output is not made);
	 * 0 to go on.  NULL: never. */
	int (*instead)(void *opts, struct cli_input *in, int *status);
	/* --kallsyms when none is given (NULL: the running kernel's). */
	const char *default_kallsyms;
	const char *default_path; /* -o's default (stream outputs: NULL is stdout) */
	/* The long option naming a path output's target, without -o (NULL:
	 * -o, --output). */
	const char *path_option;
	/* Stream outputs: -o FILE writes to FILE ("-": standard output, the
	 * default), through a large buffer. */
	unsigned stream_option : 1;
	unsigned progress : 1; /* a progress line on a terminal's stderr */
	unsigned no_filters : 1; /* every record, whatever perf's filters say */
	/* Takes several recordings (FILE|DIR..., -i repeated) into one
	 * output, merged (RP_OUTPUT_MERGE outputs; cli_multi.c); prepare()
	 * is then called with no input. */
	unsigned multi : 1;
	/* multi: a recording that cannot be read to its end writes nothing
	 * (each recording has its place: perf diff's OLD and NEW). */
	unsigned strict : 1;
	/* Takes several recordings, each into an output of its own (path
	 * outputs: cli_multi_each(); with each_in_dir, -o is then a directory
	 * of one target per recording).  One recording is the usual run. */
	unsigned each : 1;
	unsigned each_in_dir : 1;
};
int cli_output_main(const struct cli_output_cmd *cmd, int argc, char **argv);

/*
 * The options of folded stacks (perf's stackcollapse script), collapse's
 * and flamegraph's: the getopt entries, their help, and the parser that
 * sets the fields of the same names of either's options struct.
 */
enum {
	CLI_OPT_INCLUDE_TID = 0x1400, /* apart from the filter, inline, symbol codes */
	CLI_OPT_INCLUDE_PID,
	CLI_OPT_NO_COMM,
	CLI_OPT_TIDY_JAVA,
};
#define CLI_FOLD_LONGOPTS                                                \
	{ "include-tid", no_argument, NULL, CLI_OPT_INCLUDE_TID },       \
	{ "include-pid", no_argument, NULL, CLI_OPT_INCLUDE_PID },       \
	{ "no-comm", no_argument, NULL, CLI_OPT_NO_COMM },               \
	{ "tidy-java", no_argument, NULL, CLI_OPT_TIDY_JAVA }
struct cli_fold_opts {
	int *include_tid, *include_pid, *no_comm, *tidy_java;
};
/* Takes c when it is one of CLI_FOLD_LONGOPTS: 1, else 0. */
int cli_fold_option(const struct cli_fold_opts *f, int c);
/* perf's script refuses a pid or tid without the comm: 0, or
 * RP_EXIT_USAGE after saying so. */
int cli_fold_check(const char *cmd, const struct cli_fold_opts *f);

/* -j N: cli_parse_threads(), and N kept in *jobs (the workers of
 * cli_multi_run()). */
static inline int cli_parse_jobs(const char *arg, unsigned *jobs)
{
	if (cli_parse_threads(arg))
		return RP_EXIT_USAGE;
	*jobs = (unsigned)strtoul(arg, NULL, 10);
	return 0;
}

/*
 * Several recordings in one command (cli_multi.c; docs/multi.md):
 * `readperf CMD [options] FILE|DIR...`.
 */
struct cli_paths {
	char **v;
	size_t nr, alloc;
};

/*
 * Adds the recordings of one argument: a file, "-", a directory that is
 * one recording (perf record --threads: it holds a `data` file), or a
 * directory of recordings (its perf.data* files and --threads
 * directories, sorted by name).  Returns 0, or prints the error and
 * returns an exit status (a directory without recordings: 2).
 */
int cli_paths_add(struct cli_paths *paths, const char *arg);
void cli_paths_release(struct cli_paths *paths);

struct cli_multi_opts {
	enum rp_order order;
	const struct cli_symbol_opts *sym; /* NULL: no symbols */
	const struct cli_filter *filter;   /* NULL: none */
	/* Not NULL: filters[i] is recording i's (instead of filter). */
	const struct cli_filter *filters;
	/* A recording that cannot be opened or read to its end stops the
	 * run: cli_multi_merge() writes nothing. */
	int strict;
	/* -j: at most this many recordings read at once, one thread each
	 * (0: one per CPU); with one at a time, the pipeline's own -j. */
	unsigned jobs;
	int progress; /* a progress bar when there is one recording */
};

/* One recording of a run. */
struct cli_job {
	size_t idx;          /* in the paths */
	const char *path;
	struct cli_input in; /* open while the job is handed back */
	int opened;
	struct rp_output *out; /* what ops.open made; NULL: none */
	int processed;       /* the pipeline ran (to the end or an error) */
	int status;          /* exit status of opening and reading */
	int finished;        /* (the run's) */
	/* What a worker thread printed for it, shown when the job is handed
	 * back, in the order of the paths, as one thread would print it. */
	char *messages;
	size_t messages_len;
};

struct cli_multi_ops {
	/*
	 * In a worker thread: makes job->out for job->in (open, filtered).
	 * Returns 0, or prints and returns an exit status (the recording is
	 * not read).
	 */
	int (*open)(void *ctx, struct cli_job *job);
	/*
	 * In the caller's thread, once per recording, in the order of the
	 * paths, after it was read (or failed: job->status): takes the job's
	 * output.  Returns 0, or an exit status that stops the run.  The
	 * output is freed and the input closed afterwards, unless done took
	 * them (set job->out NULL, job->opened 0).
	 */
	int (*done)(void *ctx, struct cli_job *job);
};

/* How many workers cli_multi_run() starts for nr recordings. */
unsigned cli_multi_workers(const struct cli_multi_opts *opts, size_t nr);

/*
 * Reads every recording of paths into its own output (ops.open), at most
 * opts.jobs at once, each in a worker thread, and hands them to ops.done
 * in the order of paths.  Returns the highest exit status met.
 */
int cli_multi_run(const struct cli_paths *paths, const struct cli_multi_opts *opts,
		  const struct cli_multi_ops *ops, void *ctx);

/*
 * cli_multi_run() for an output that merges (RP_OUTPUT_MERGE): the output
 * `name` with options opts per recording, each merged in order into the
 * first one read, which is finished into target.  *written: whether the
 * output was finished.  A recording that cannot be opened or read to the
 * end is reported and adds what was read (exit status 2); a failed merge
 * writes nothing.  Returns the exit status.
 */
int cli_multi_merge(const struct cli_paths *paths, const struct cli_multi_opts *opts,
		    const char *name, const void *opts_of_output,
		    const struct rp_output_target *target, int *written);

/*
 * cli_multi_run() for outputs written once per recording (sqlite,
 * postgres): each recording into an output of its own, finished in the
 * order of paths; target is every output's target, or (in_dir) a
 * directory (created) in which each recording gets a database named
 * after its path ('/' as '_', then ".db").  A recording that cannot be
 * read to the end is reported and not written (exit status 2).  Returns
 * the exit status.
 */
int cli_multi_each(const struct cli_paths *paths, const struct cli_multi_opts *opts,
		   const char *name, const void *opts_of_output, const char *target, int in_dir);

int cmd_report(int argc, char **argv);
int cmd_csv(int argc, char **argv);
int cmd_header(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_collapse(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_pprof(int argc, char **argv);
int cmd_json(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_sqlite(int argc, char **argv);
int cmd_postgres(int argc, char **argv);

#endif
