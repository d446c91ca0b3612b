/* SPDX-License-Identifier: MIT */
/*
 * Deferred callchains (Linux 6.19, perf_event_attr.defer_callchain): the
 * kernel ends the callchain of a sample taken in the kernel with
 * PERF_CONTEXT_USER_DEFERRED and a cookie, and writes the user part later,
 * when the thread returns to user space, as a PERF_RECORD_CALLCHAIN_DEFERRED
 * record {cookie, nr, ips[nr] (PERF_CONTEXT_USER first), sample_id}.
 *
 * As perf's session.c does (machines__deliver_event,
 * evlist__deliver_deferred_callchain, session__flush_deferred_samples;
 * sample__merge_deferred_callchain in callchain.c), the session holds such
 * samples (in the order they are delivered) and, when a deferred record
 * comes, delivers every held sample of its thread (sample tid == record's
 * sample_id tid, -1 when absent on either side): merged when the cookie
 * matches, as it is otherwise.  What is still held at the end of the data
 * is delivered as it is.  Private to the library.
 *
 * Memory: the held samples are copies in one pool, compacted as samples
 * leave it; past opts.max_deferred samples or RP_DEFERRED_MAX_BYTES bytes a
 * sample is delivered at once, unmerged (perf has no such cap).
 */
#ifndef RP_FORMAT_DEFERRED_H
#define RP_FORMAT_DEFERRED_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/event.h>

struct rp_session;
struct rp_evsel;

/* One held sample. */
struct rp_dfr_ent {
	uint64_t offset, nr, cookie;
	size_t pos;                   /* of the copy in the pool (bytes) */
	const struct rp_evsel *evsel;
	uint32_t tid, input;
	uint16_t size;                /* bytes of the record */
	uint8_t state;                /* RP_DFR_HELD, ... */
};

struct rp_deferred {
	uint8_t on;            /* merging (opts.no_merge_deferred unset) */
	uint64_t max;          /* cap on held samples */
	struct rp_dfr_ent *ents; /* arrival order; [0, nr) */
	size_t nr, alloc;
	size_t live;           /* entries not yet delivered */
	size_t scan;           /* next entry to look at for release */
	size_t nr_release;     /* entries marked for release */
	uint8_t *pool;         /* copies of the held records */
	size_t pool_used, pool_alloc, pool_live; /* bytes */
	uint64_t *ips;         /* the releasing record's ips, host order */
	size_t nr_ips, ips_alloc;
	uint64_t *chain;       /* the merged callchain being delivered */
	size_t chain_alloc;
};

/* Sets the state from the session's options. */
void rp_deferred_init(struct rp_deferred *d, int on, uint64_t max);
void rp_deferred_release(struct rp_deferred *d);

/*
 * Looks at an event about to be delivered: holds a sample that waits for
 * its deferred callchain (returns 0: not to be delivered now); for a
 * CALLCHAIN_DEFERRED record, marks the held samples of its thread for
 * release (returns 1: the record itself is delivered first).  Returns 1
 * for everything else, or RP_ERR_NOMEM with the session's error set.
 */
int rp_deferred_filter(struct rp_session *s, struct rp_event *ev);

/*
 * Delivers the next sample marked for release into ev (merged or as it
 * is).  Returns 1, 0 when none is marked, or a negative error (a copy that
 * no longer decodes cannot happen: it decoded when held).
 */
int rp_deferred_next(struct rp_session *s, struct rp_event *ev);

/* At the end of the data: marks every held sample for release; returns
 * whether there was any. */
int rp_deferred_end(struct rp_session *s);

/* Whether samples are marked for release. */
static inline int rp_deferred_pending(const struct rp_deferred *d)
{
	return d->nr_release != 0;
}

#endif
