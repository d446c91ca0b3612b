/* SPDX-License-Identifier: MIT */
/*
 * readperf: a progress bar for long runs.
 *
 * A consumer that, when its stream is a terminal, redraws one line on it
 * at most ten times a second: the share of the data section read (from
 * each record's file offset), the records seen and the elapsed time, e.g.
 *   [=========>          ]  47%  12.3 MiB of 26.1 MiB  1203345 records  3.2s
 * When the stream is not a terminal it shows nothing.  Any subcommand can
 * add it next to its own consumer.
 */
#ifndef READPERF_PROGRESS_H
#define READPERF_PROGRESS_H

#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_progress;

/* rp_progress_new() flags */
#define RP_PROGRESS_FORCE 1u /* draw even when out is not a terminal (tests) */

/*
 * Returns the progress bar drawing on out (the caller's; usually stderr),
 * or NULL when out is not a terminal (and flags lacks RP_PROGRESS_FORCE)
 * or memory is short: every function below accepts NULL and then does
 * nothing.  session must outlive it.
 */
RP_API struct rp_progress *rp_progress_new(FILE *out, const struct rp_session *session,
				    unsigned flags);
/* The consumer; with a NULL progress its event() does nothing. */
RP_API struct rp_consumer rp_progress_consumer(struct rp_progress *progress);
/* Erases the bar's line (call once at the end, before other messages). */
RP_API void rp_progress_finish(struct rp_progress *progress);
RP_API void rp_progress_free(struct rp_progress *progress);

#ifdef __cplusplus
}
#endif

#endif
