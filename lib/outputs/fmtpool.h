/* SPDX-License-Identifier: MIT */
/*
 * Text formatted on other threads, written in order.
 *
 * An output whose records cost more to format than to gather (script:
 * ~2 GB of text for a 500 MB file) hands each record's data, serialized
 * into a batch, to a pool: worker threads format whole batches into text
 * with the output's function, and the text of batch k is written to the
 * FILE only after that of batch k-1, so the output is the same as when one
 * thread formats everything in order.
 *
 * Memory: at most RP_FMTPOOL_BATCHES batches of about RP_FMTPOOL_BATCH
 * bytes of data each, and their text.
 */
#ifndef RP_OUTPUTS_FMTPOOL_H
#define RP_OUTPUTS_FMTPOOL_H

#include <stddef.h>
#include <stdio.h>

#include "outputs/linebuf.h"

/* Bytes of record data a batch gathers before it is handed over. */
#define RP_FMTPOOL_BATCH (256u << 10)
/* Batches in flight (being gathered, formatted or written). */
#define RP_FMTPOOL_BATCHES 8u
/* Most worker threads. */
#define RP_FMTPOOL_MAX_WORKERS 8u

/*
 * Formats the records of one batch (data[0..size), as the output wrote
 * them with rp_fmtpool_reserve()) into out.  Runs on a worker thread, at
 * the same time as other batches are formatted and the next is gathered:
 * it may read only what stays the same meanwhile.  Returns 0 or a
 * negative rp_err.
 */
typedef int (*rp_fmtpool_fn)(void *ctx, const void *data, size_t size, struct rp_linebuf *out);

struct rp_fmtpool;

/*
 * Starts nr_workers (1..RP_FMTPOOL_MAX_WORKERS) threads formatting with fn
 * and writing to f (the caller's; while the pool runs, nothing else may
 * write to it).  Returns 0, RP_ERR_INVAL or RP_ERR_NOMEM (then run
 * without a pool).
 */
int rp_fmtpool_new(struct rp_fmtpool **out, FILE *f, unsigned nr_workers, rp_fmtpool_fn fn,
		   void *ctx);

/*
 * Room for a record of n bytes (<= RP_FMTPOOL_BATCH) in the batch being
 * gathered, 8-byte aligned; the batch goes to the workers first when the
 * record would not fit.  NULL when the pool failed (out of memory, or a
 * worker's error): rp_fmtpool_finish() says which.
 */
void *rp_fmtpool_reserve(struct rp_fmtpool *p, size_t n);

/* Why rp_fmtpool_reserve() gave NULL: the first error (RP_ERR_IO when the
 * FILE failed, a worker's), else RP_ERR_NOMEM. */
int rp_fmtpool_failure(struct rp_fmtpool *p);

/*
 * Hands over the last batch, waits until every batch is written, stops
 * the workers.  Returns 0 or the first error (RP_ERR_NOMEM, a worker's,
 * or RP_ERR_IO when the FILE failed).
 */
int rp_fmtpool_finish(struct rp_fmtpool *p);

/* Finishes the pool if needed and frees it.  NULL is allowed. */
void rp_fmtpool_free(struct rp_fmtpool *p);

#endif
