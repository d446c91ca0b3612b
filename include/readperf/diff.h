/* SPDX-License-Identifier: MIT */
/*
 * readperf: the differential profile of two recordings, perf diff's.
 *
 * A diff holds one histogram per event of each of two inputs, the
 * baseline (OLD) and the new profile (NEW), keyed by perf diff's sort keys
 * (dso,sym by default).  Each input is processed into the diff through its
 * own consumer; rp_diff_write() then pairs the entries as perf diff pairs
 * them (hists__match, hists__link: equal keys, symbols by name, DSOs by
 * short name, commands by name, pids and CPUs by number), adds the new
 * profile's entries the baseline lacks as empty baseline rows, computes
 * the chosen column (delta of the shares, their absolute delta, the ratio
 * of the periods or a weighted difference) and prints, per event of the
 * baseline, what `perf diff OLD NEW` prints (perf 6.1): a "# Event 'NAME'"
 * line, the column header and rows of Baseline, the computed column and the
 * keys, sorted as perf sorts them.
 *
 * Use:
 *   rp_diff_new(&d, &opts);
 *   rp_diff_add_input(d, RP_DIFF_BASELINE, old_session, old_symbols, old_filter);
 *   c = rp_diff_consumer(d, RP_DIFF_BASELINE);
 *   rp_process_ext(old_session, old_machine, old_symbols, &c, 1, &popts);
 *   ... the same for RP_DIFF_NEW ...
 *   rp_diff_write(d, stdout);
 *   rp_diff_free(d);
 *
 * Or as the output "diff" (output.h): one output per recording, made
 * with these options; the first recording's is the baseline and
 * rp_output_merge() adds the second's as the new profile (a third merge
 * is refused); rp_output_finish() writes.  That output copies what it
 * shows of threads while it consumes, so the machines may be freed
 * before the merge and the write (the baseline's session may not).
 *
 * Format: tools/perf/builtin-diff.c (columns, computations, the order of
 * the rows), util/hist.c (pairing), util/sort.c (the keys), ui/stdio/hist.c
 * (the printing).  docs/diff.md states every rule.
 */
#ifndef READPERF_DIFF_H
#define READPERF_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>
#include <readperf/report.h>
#include <readperf/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

/* perf diff's -c: the column computed from each pair of entries. */
enum rp_diff_compute {
	/* delta-abs: the new share minus the baseline's (percent), rows by
	 * its absolute value; perf 6.1's default */
	RP_DIFF_DELTA_ABS = 0,
	RP_DIFF_DELTA, /* delta: the same, rows by the signed value */
	RP_DIFF_RATIO, /* ratio: the new period over the baseline's */
	RP_DIFF_WDIFF, /* wdiff:w1,w2: new period * w2 - baseline period * w1 */
};

/* The two inputs of a diff. */
#define RP_DIFF_BASELINE 0u
#define RP_DIFF_NEW 1u

struct rp_diff_opts {
	size_t sz; /* sizeof(struct rp_diff_opts) */
	/* The sort keys (perf diff's --sort): comm, pid, dso, sym, cpu,
	 * srcline, srcfile (perf diff has no tid key); 0 keys: dso,sym. */
	enum rp_sort_key keys[RP_REPORT_MAX_KEYS];
	size_t nr_keys;
	enum rp_diff_compute compute;
	/* RP_DIFF_WDIFF's weights, both nonzero (see rp_diff_parse_compute()). */
	int64_t wdiff_w1, wdiff_w2;
	int show_period;    /* -p: "Base period" and "Period" columns */
	int show_formula;   /* -F: the formula of each computed value */
	int baseline_only;  /* -b: only the baseline's entries that have a pair */
	/* --percentage relative: shares of the samples the entry filters
	 * (--comms, --pid, --tid, --dsos, --symbols) keep; 0: of all, perf
	 * diff's default */
	int relative;
	/* -o 0: rows ordered by the baseline first, not by the computed
	 * column of the new profile (perf's default, -o 1) */
	int baseline_order;
	const char *field_sep; /* NULL: aligned columns; else perf's -t SEP */
	int quiet;             /* -q: no "# Event" lines, no column header */
	int full_source_path;  /* srcline, srcfile: not the file's base name */
};

struct rp_diff;

/*
 * Parses perf diff's -c argument into opts: "delta", "delta-abs",
 * "ratio", or "wdiff:W1,W2" (two nonzero decimal integers).  Returns 0 or
 * RP_ERR_INVAL (unknown method, "cycles", which needs branch stacks, or
 * bad weights; opts unchanged then).
 */
RP_API int rp_diff_parse_compute(struct rp_diff_opts *opts, const char *arg);

/*
 * Makes an empty diff.  opts may be NULL (perf diff's defaults).  Returns
 * 0, RP_ERR_INVAL (bad options: unknown bytes past what this library
 * knows, too many keys, tid as a key, wdiff weights of 0) or RP_ERR_NOMEM.
 */
RP_API int rp_diff_new(struct rp_diff **out, const struct rp_diff_opts *opts);
/* NULL is allowed. */
RP_API void rp_diff_free(struct rp_diff *diff);

/*
 * Tells the diff which session feeds input `which` (RP_DIFF_BASELINE or
 * RP_DIFF_NEW), once per input, before its consumer is used.  symbols
 * (may be NULL: every source line unknown) give the srcline and srcfile
 * keys; filter (may be NULL) is the one the processing call applies: a
 * --comms, --dsos or --symbols list of one entry leaves its column out, as
 * perf does (the baseline's is looked at).  The session must outlive
 * rp_diff_write(); its machine, symbols and filter, the input's
 * processing.  Returns 0,
 * RP_ERR_INVAL (bad which, or given twice) or RP_ERR_NOMEM.
 */
RP_API int rp_diff_add_input(struct rp_diff *diff, unsigned which,
			     const struct rp_session *session, struct rp_symbols *symbols,
			     const struct rp_filter *filter);

/* The consumer that feeds input `which` (after rp_diff_add_input());
 * valid as long as the diff.  Its samples are counted per event. */
RP_API struct rp_consumer rp_diff_consumer(struct rp_diff *diff, unsigned which);

/*
 * Writes the diff to out, once both inputs were processed: for each event
 * of the baseline (attr order), paired with the new profile's first event
 * of the same attr type and config, its section.  The sessions must still
 * exist; the machines need not (the comms of the entries' threads are
 * kept as the inputs are consumed).  Returns 0,
 * RP_ERR_INVAL (an input not added, or a second write), RP_ERR_NOMEM or
 * RP_ERR_IO.
 */
RP_API int rp_diff_write(struct rp_diff *diff, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
