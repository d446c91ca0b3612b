/* SPDX-License-Identifier: MIT */
/*
 * perf stat report: the counts of a `perf stat record` file as perf 6.1
 * prints them (stat-display.c abs_printout/print_metric_std, stat-shadow.c
 * for the task-clock ratios).
 *
 * Format of the records: tools/lib/perf/include/perf/event.h
 * (perf_record_stat, perf_record_stat_round, perf_record_event_update).
 */
#include <readperf/stats.h>

#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>

#include "common/cursor.h"
#include "format/session_int.h"

/* Width of the metric column (perf's METRIC_LEN). */
#define RP_STAT_METRIC_LEN 35
/* Longest unit kept from EVENT_UPDATE, bytes. */
#define RP_STAT_UNIT_MAX 32

struct rp_stat_counter {
	char unit[RP_STAT_UNIT_MAX];
	double scale;
	uint64_t val, ena, run;       /* this round, summed */
	uint64_t fval, fena, frun;    /* the last finished round */
	int has_values;
};

int rp_stat_file_is(const struct rp_session *session)
{
	return rp_session_has_feature(session, RP_FEAT_STAT);
}

static int rp_stat_find(const struct rp_session *s, uint64_t id)
{
	for (size_t i = 0; i < rp_session_nr_evsels(s); i++) {
		size_t nr;
		const uint64_t *ids = rp_evsel_ids(rp_session_evsel(s, i), &nr);

		for (size_t j = 0; j < nr; j++)
			if (ids[j] == id)
				return (int)i;
	}
	return -1;
}

static int rp_is_clock(const struct rp_evsel *evsel)
{
	const struct rp_attr *a = rp_evsel_attr(evsel);

	/* PERF_COUNT_SW_CPU_CLOCK (0) and PERF_COUNT_SW_TASK_CLOCK (1). */
	return a->type == RP_TYPE_SOFTWARE && (a->config == 0 || a->config == 1);
}

/* perf's print_metric_std() with its "%8.3f" value format. */
static void rp_stat_metric(FILE *fp, double val, const char *unit)
{
	char num[64];
	int n;

	snprintf(num, sizeof(num), "%8.3f", val);
	n = fprintf(fp, " # %s", num);
	fprintf(fp, " %-*s", RP_STAT_METRIC_LEN - n - 1, unit);
}

int rp_stat_report_write(struct rp_session *session, FILE *fp)
{
	size_t nr = rp_session_nr_evsels(session);
	struct rp_stat_counter *c = calloc(nr + 1, sizeof(*c));
	int swap = rp_session_needs_swap(session);
	uint64_t walltime = 0;
	struct rp_event ev;
	int ret;

	if (!c)
		return RP_ERR_NOMEM;
	for (size_t i = 0; i < nr; i++)
		c[i].scale = 1.0;
	while ((ret = rp_session_read(session, &ev)) > 0) {
		if (ev.type == RP_RECORD_EVENT_UPDATE) {
			const struct rp_event_update_event *u = &ev.u.event_update;
			int i = rp_stat_find(session, u->id);

			if (i < 0)
				continue;
			if (u->type == 0) {
				size_t len = strnlen(u->data, u->size);

				if (len >= RP_STAT_UNIT_MAX)
					len = RP_STAT_UNIT_MAX - 1;
				memcpy(c[i].unit, u->data, len);
				c[i].unit[len] = 0;
			} else if (u->type == 1 && u->size >= 8) {
				uint64_t bits = rp_load64(u->data, swap);

				memcpy(&c[i].scale, &bits, sizeof(double));
			}
		} else if (ev.type == RP_RECORD_STAT && ev.u.payload.size >= 40) {
			const uint8_t *q = ev.u.payload.data;
			int i = rp_stat_find(session, rp_load64(q, swap));

			if (i < 0)
				continue;
			c[i].val += rp_load64(q + 16, swap);
			c[i].ena += rp_load64(q + 24, swap);
			c[i].run += rp_load64(q + 32, swap);
			c[i].has_values = 1;
		} else if (ev.type == RP_RECORD_STAT_ROUND && ev.u.payload.size >= 16) {
			walltime = rp_load64((const uint8_t *)ev.u.payload.data + 8, swap);
			for (size_t i = 0; i < nr; i++) {
				c[i].fval = c[i].val;
				c[i].fena = c[i].ena;
				c[i].frun = c[i].run;
				c[i].val = c[i].ena = c[i].run = 0;
			}
		}
	}

	const struct rp_header_info *hi = rp_session_header(session);
	size_t unit_width = 0;
	double clock_ns = 0; /* task-clock, the base of the per-second ratios */

	for (size_t i = 0; i < nr; i++) {
		size_t w = strlen(c[i].unit);

		if (w > unit_width)
			unit_width = w;
		if (rp_is_clock(rp_session_evsel(session, i)) && clock_ns == 0)
			clock_ns = (double)c[i].fval;
	}
	fputs("\n Performance counter stats for '", fp);
	for (uint32_t a = 0; a < hi->cmdline_argc; a++)
		fprintf(fp, "%s%s", a ? " " : "", hi->cmdline_argv[a]);
	fputs("':\n\n", fp);
	for (size_t i = 0; i < nr; i++) {
		const struct rp_evsel *evsel = rp_session_evsel(session, i);
		double avg = (double)c[i].fval;

		if (c[i].frun == 0 || c[i].fena == 0) {
			/* perf stat report knows no counter as opened, so a
			 * counter that never ran is "not supported". */
			fprintf(fp, "%18s ", "<not supported>");
			fprintf(fp, "%-*s ", (int)unit_width, c[i].unit);
			fprintf(fp, "%-*s", 25, rp_evsel_name(evsel)); /* 25 here, not 32 */
			fprintf(fp, "%-*s", RP_STAT_METRIC_LEN, "");
			if (c[i].frun != c[i].fena) /* perf's print_running() */
				fprintf(fp, "  (%.2f%%)",
					100.0 * (double)c[i].frun / (double)c[i].fena);
			fputc('\n', fp);
			continue;
		}
		if (c[i].frun && c[i].frun < c[i].fena)
			avg = avg * (double)c[i].fena / (double)c[i].frun;
		avg *= c[i].scale;
		/* Two decimals for fractional scales (msec), as perf. */
		fprintf(fp, (double)(int64_t)c[i].scale != c[i].scale ? "%18.2f " : "%18.0f ", avg);
		fprintf(fp, "%-*s ", (int)unit_width, c[i].unit);
		fprintf(fp, "%-*s", 32, rp_evsel_name(evsel));
		if (c[i].frun && c[i].frun < c[i].fena)
			fprintf(fp, "  (%.2f%%)", 100.0 * (double)c[i].frun / (double)c[i].fena);
		if (rp_is_clock(evsel)) {
			if (walltime)
				rp_stat_metric(fp, avg / ((double)walltime * c[i].scale),
					       "CPUs utilized");
			else
				fprintf(fp, "%-*s", RP_STAT_METRIC_LEN, "");
		} else if (clock_ns > 0) {
			double ratio = 1e9 * avg / clock_ns;
			const char *unit = "/sec";

			if (ratio > 1e9) {
				ratio /= 1e9;
				unit = "G/sec";
			} else if (ratio > 1e6) {
				ratio /= 1e6;
				unit = "M/sec";
			} else if (ratio > 1e3) {
				ratio /= 1e3;
				unit = "K/sec";
			}
			rp_stat_metric(fp, ratio, unit);
		} else {
			fprintf(fp, "%-*s", RP_STAT_METRIC_LEN, "");
		}
		fputc('\n', fp);
	}
	fputc('\n', fp);
	if (walltime)
		fprintf(fp, " %17.9f seconds time elapsed\n\n", (double)walltime / 1e9);
	free(c);
	if (fflush(fp) != 0 || ferror(fp))
		return RP_ERR_IO;
	return ret < 0 ? ret : 0;
}
