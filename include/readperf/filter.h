/* SPDX-License-Identifier: MIT */
/*
 * readperf: perf's sample filters (--comms, --pid, --tid, --dsos,
 * --symbols, --cpu, --time), applied once in the pipeline for every
 * consumer.
 *
 * Two kinds, as in perf:
 * - sample filters (--cpu, --time) drop a sample before anything counts
 *   it (perf's builtin-report.c and builtin-script.c process_sample_event);
 * - entry filters (--comms, --pid, --tid, --dsos, --symbols) mark a
 *   resolved sample (perf's machine__resolve() sets al.filtered): perf
 *   report still counts it in "# Samples", "# Event count" and the
 *   overhead's total but shows no row for it; perf script and every other
 *   view drop it.  rp_resolved.filtered carries the marks; only consumers
 *   with RP_CONSUMER_FILTERED get marked samples (see process.h).
 *
 * Format of the options: perf's Documentation/perf-report.txt and
 * perf-script.txt; the time ranges as tools/perf/util/time-utils.c parses
 * them.  docs/filters.md lists where readperf differs.
 */
#ifndef READPERF_FILTER_H
#define READPERF_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/api.h>
#include <readperf/error.h>
#include <readperf/event.h>
#include <readperf/session.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_resolved;

/*
 * The filters; NULL (or an empty string for the lists) leaves a filter
 * off.  Every string is copied by rp_filter_new().
 */
struct rp_filter_opts {
	size_t sz;           /* sizeof(struct rp_filter_opts) */
	/* The lists (comms, dsos, symbols) take "file://PATH" entries too: the
	 * lines of PATH, as perf reads them. */
	const char *comms;   /* --comms: command names, comma separated */
	const char *pids;    /* --pid: process ids, comma separated */
	const char *tids;    /* --tid: thread ids, comma separated */
	const char *dsos;    /* --dsos: DSO short ("libc.so.6") or long names */
	/* --symbols: symbol names; entries that read as hexadecimal numbers
	 * ("0x4007a0") are addresses, matched with the sampled address (perf's
	 * addr_list) */
	const char *symbols;
	const char *cpus;    /* --cpu: "0-2,5" */
	/* --time: "start,end" in seconds[.fraction] (either end may be
	 * empty), several such ranges separated by spaces; or percentages
	 * of the recording's first to last sample: "10%/2" (the second 10 %
	 * slice), "0%-10%", "10%-20%,30%-40%", "10%/1,10%/3", "50%" */
	const char *time;
};

/* rp_resolved.filtered: why an entry filter rejected the sample. */
#define RP_FILTERED_THREAD 1u /* --comms, --pid, --tid (perf's HIST_FILTER__THREAD) */
#define RP_FILTERED_DSO 2u    /* --dsos */
#define RP_FILTERED_SYMBOL 4u /* --symbols */

/* Most --time ranges, and the highest --cpu number accepted. */
#define RP_FILTER_MAX_TIME_RANGES 1024u
#define RP_FILTER_MAX_CPUS 4096u

struct rp_filter;

/*
 * Makes a filter for session's samples.  session is read now only: the
 * SAMPLE_TIME feature (first and last sample time) for percentages in
 * --time, the NRCPUS feature and the events' sample types for --cpu (perf
 * refuses --cpu when an event type records no CPU, and CPUs beyond the
 * recording's).  *out is NULL when no filter is set (nothing to filter).
 * Returns 0; RP_ERR_INVAL with err->msg telling what is wrong (a bad list,
 * a bad time string, percentages without SAMPLE_TIME, --cpu on a file
 * without CPUs); RP_ERR_NOMEM; RP_ERR_IO (a file:// list that cannot be
 * read).  err may be NULL.
 */
RP_API int rp_filter_new(struct rp_filter **out, const struct rp_session *session,
		  const struct rp_filter_opts *opts, struct rp_error *err);
/* NULL is allowed. */
RP_API void rp_filter_free(struct rp_filter *filter);

/*
 * Whether the sample filters (--cpu, --time) drop ev, a sample record
 * (other records are never dropped): 1 drop, 0 keep.  A sample without a
 * time (or time 0) passes --time, as in perf.  filter may be NULL.
 */
RP_API int rp_filter_drops(const struct rp_filter *filter, const struct rp_event *ev);

/*
 * The entry filters on a resolved sample: 0 when it passes, else the
 * RP_FILTERED_* of each filter that rejects it.  res->thread, res->comm
 * and res->al must be filled.  The filter keeps a cache keyed by the
 * addresses of comm strings, DSOs and symbols: use one filter with one
 * machine and one symbol resolver at a time (not thread-safe).
 * filter may be NULL.
 */
RP_API unsigned rp_filter_entry(struct rp_filter *filter, const struct rp_resolved *res);

/*
 * Whether --cpu leaves out cpu (1) or not (0; also without --cpu).  perf
 * script applies it to the side-band records it shows (task, mmap, switch
 * events) too.  filter may be NULL.
 */
RP_API int rp_filter_cpu_drops(const struct rp_filter *filter, uint32_t cpu);

/* Which list rp_filter_single() looks at. */
enum rp_filter_list {
	RP_FILTER_COMMS,
	RP_FILTER_DSOS,
	RP_FILTER_SYMBOLS,
};

/*
 * The only entry of a list when it has exactly one (perf then leaves its
 * column out of the report and prints "# comm: NAME"), else NULL.  For
 * --symbols, address entries do not count.  Valid as long as the filter.
 */
RP_API const char *rp_filter_single(const struct rp_filter *filter, enum rp_filter_list which);

/* The --time string as given (perf prints it after the event name), or
 * NULL.  Valid as long as the filter. */
RP_API const char *rp_filter_time_str(const struct rp_filter *filter);

/* One --time range, ns; 0 is an open end. */
struct rp_time_range {
	uint64_t start, end;
};

/*
 * Parses a --time string as perf's perf_time__parse_for_ranges() does:
 * percent forms relative to [first, last] (ns; both 0: unknown, and a
 * percent form is then an error), else absolute ranges.  Fills at most
 * max ranges and *nr.  Returns 0, or RP_ERR_INVAL (a bad string, or
 * percentages with first and last 0), RP_ERR_LIMIT (more than max).
 */
RP_API int rp_time_ranges_parse(const char *str, uint64_t first, uint64_t last,
			 struct rp_time_range *ranges, size_t max, size_t *nr);

/* Whether perf skips a sample of time t (ns) for these ranges (1) or
 * keeps it (0); t 0 is always kept. */
RP_API int rp_time_ranges_skip(const struct rp_time_range *ranges, size_t nr, uint64_t t);

#ifdef __cplusplus
}
#endif

#endif
