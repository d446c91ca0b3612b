/* SPDX-License-Identifier: MIT */
/*
 * readperf: the function overview, perf report's histogram.
 *
 * Aggregates samples per event into entries keyed by the sort keys, and
 * writes them as `perf report --stdio --no-children` does: per event the
 * header lines (# Total Lost Samples, # Samples, # Event count (approx.))
 * and rows of Overhead, Samples, Period and the keys, sorted by period; or,
 * with a field separator, as `perf report -F overhead,sample,period,<keys>
 * -t SEP` does.  Format of the rows: tools/perf/util/sort.c, hist.c,
 * ui/stdio/hist.c.
 */
#ifndef READPERF_REPORT_H
#define READPERF_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rp_sort_key {
	RP_SORT_COMM,
	RP_SORT_PID,
	RP_SORT_TID,
	RP_SORT_DSO,
	RP_SORT_SYM,
	RP_SORT_CPU,
};

#define RP_REPORT_MAX_KEYS 8

struct rp_report_opts {
	size_t sz; /* sizeof(struct rp_report_opts) */
	enum rp_sort_key keys[RP_REPORT_MAX_KEYS];
	size_t nr_keys;        /* 0: comm,dso,sym */
	const char *field_sep; /* NULL: aligned columns; else perf's -t SEP */
	double percent_limit;  /* rows below this overhead (%) are not shown */
	/* 0: a file's event groups (GROUP_DESC) shown together, as perf does
	 * by default; 1: perf's --group; -1: perf's --no-group. */
	int group;
};

struct rp_report;

/*
 * Parses a perf --sort list ("comm,dso,sym") into opts->keys.
 * Returns 0 or RP_ERR_INVAL (unknown key or too many keys).
 */
int rp_report_parse_sort(struct rp_report_opts *opts, const char *list);

/* session must outlive the report.  Returns 0 or RP_ERR_NOMEM. */
int rp_report_new(struct rp_report **out, const struct rp_session *session,
		  const struct rp_report_opts *opts);
void rp_report_free(struct rp_report *report);

/* The consumer that feeds the report; valid as long as the report. */
struct rp_consumer rp_report_consumer(struct rp_report *report);

/* Writes the report to out.  Returns 0 or RP_ERR_IO. */
int rp_report_write(struct rp_report *report, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
