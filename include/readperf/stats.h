/* SPDX-License-Identifier: MIT */
/*
 * readperf: record counts as `perf report --stats` prints them.
 *
 * Format (perf 6.1, tools/perf/util/session.c events_stats__fprintf and
 * builtin-report.c): a blank line, "Aggregated stats:", one line per record
 * type with a non-zero count ("%16s events: %10d  (%4.1f%%)", the TOTAL
 * line without the percentage), then "<event> stats:" with its SAMPLE and
 * LOST_SAMPLES counts for every event that has any.
 */
#ifndef READPERF_STATS_H
#define READPERF_STATS_H

#include <stdint.h>
#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>
#include <readperf/session.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_stats;

/*
 * Creates the counters for session's events (the session must outlive
 * them).  Returns 0 or RP_ERR_NOMEM.
 */
RP_API int rp_stats_new(struct rp_stats **out, const struct rp_session *session);
/* Frees the counters.  NULL is allowed. */
RP_API void rp_stats_free(struct rp_stats *stats);

/*
 * Counts one record: a SAMPLE for its event, a LOST_SAMPLES for the event
 * of its sample id.  Records of other types are counted by the session
 * itself (rp_session_stats()).
 */
RP_API void rp_stats_count(struct rp_stats *stats, const struct rp_event *ev);
/* A consumer that calls rp_stats_count() for every record. */
RP_API struct rp_consumer rp_stats_consumer(struct rp_stats *stats);

/* Samples and lost samples counted for evsel idx (0 when out of range). */
RP_API uint64_t rp_stats_samples(const struct rp_stats *stats, size_t idx);
RP_API uint64_t rp_stats_lost_samples(const struct rp_stats *stats, size_t idx);

/*
 * Writes the "Aggregated stats:" block from the session's record counts
 * and the per-event block from what rp_stats_count() saw.  Returns 0 or
 * RP_ERR_IO (see errno).
 */
RP_API int rp_stats_write(const struct rp_stats *stats, FILE *fp);

/*
 * Writes perf's aggregated block for explicit counts: nr[type] records of
 * each type (0 <= type < nr_types; types perf 6.1 does not know are left
 * out), `with_aux_note` adds perf's AUX-area note to the title.
 * Returns 0 or RP_ERR_IO.
 */
RP_API int rp_stats_write_counts(FILE *fp, const uint64_t *nr, size_t nr_types,
				 int with_aux_note);

/*
 * The name perf 6.1 prints for a record type in dumps and stats
 * ("MMAP2", "ATTR", "FEATURE"), or NULL for types perf 6.1 does not know.
 */
RP_API const char *rp_stats_type_name(uint32_t type);


/*
 * Whether session holds `perf stat record` output (the STAT feature bit:
 * counts in STAT records, no samples).
 */
RP_API int rp_stat_file_is(const struct rp_session *session);

/*
 * Reads the STAT_CONFIG, STAT, STAT_ROUND and EVENT_UPDATE records of a
 * `perf stat record` file and writes what `perf stat report` (perf 6.1)
 * prints: the "Performance counter stats for '<cmdline>':" block, one
 * line per event with its count (summed over cpus and threads of the last
 * round, scaled and with its unit from EVENT_UPDATE), the CPUs-utilized
 * and per-second ratios perf derives from task-clock, and the elapsed
 * time of the final round.  The session must be fresh (no record read
 * yet).  Returns 0, a reader error (what was read is still written), or
 * RP_ERR_NOMEM / RP_ERR_IO.
 * Format: tools/perf/util/stat-display.c, stat-shadow.c (perf 6.1).
 */
RP_API int rp_stat_report_write(struct rp_session *session, FILE *fp);

#ifdef __cplusplus
}
#endif

#endif
