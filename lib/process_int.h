/* SPDX-License-Identifier: MIT */
/* The pipeline's pieces that the library's own consumers share. */
#ifndef RP_PROCESS_INT_H
#define RP_PROCESS_INT_H

#include <stdint.h>

#include <readperf/process.h>

/*
 * What a consumer notes beside a cached call stack (rp_resolved.stack_slot):
 * both words are 0 whenever the cache takes in a stack.
 */
struct rp_stack_slot {
	void *ptr;
	uint64_t tag;
};

/*
 * rp_consumer.flags, for the library's own consumers only: with two
 * threads or more, this consumer may be called from a thread of the
 * pipeline's own (struct rp_stage in process.c) instead of the caller's,
 * with the records in the same order, while the pipeline's thread goes on
 * with later records.  Its event() must read only its own state, the
 * event and the resolution (and the threads, maps, DSOs and symbols
 * these point at, as they were when the record was resolved): never
 * look up symbols, source lines or the machine, which the pipeline's
 * thread changes meanwhile.  Records that change the machine, and
 * samples the stage cannot carry, reach every consumer on the caller's
 * thread once the stage has delivered every record before them.
 */
#define RP_CONSUMER_OWN_THREAD (1u << 16)

/* perf's default --max-stack (sysctl kernel.perf_event_max_stack). */
#define RP_DEFAULT_MAX_STACK 127u

/*
 * The frames of a resolved callchain that perf's --max-stack keeps
 * (tools/perf/util/machine.c: thread__resolve_callchain_sample() and the
 * unwinders' get_entries()), and the order they are drawn in:
 *  - of the recorded frames, at most max_stack, counted from the
 *    drawing's root: the outermost in caller order, else the innermost;
 *  - of the unwound frames (rp_frame.unwound), at most max_stack, always
 *    the innermost (where the walk starts);
 *  - the frames of one address's inline chain count as one.
 * The kept frames are at most two runs of callchain indices, span[0]
 * before span[1] (callee order); nr is their total.
 */
struct rp_chain_pick {
	struct {
		uint32_t lo, hi; /* callchain indices [lo, hi) */
	} span[2];
	unsigned nr_spans;
	uint32_t nr;
	int caller; /* drawn outermost first */
};

void rp_chain_pick(struct rp_chain_pick *pick, const struct rp_frame *frames, size_t nr,
		   uint32_t max_stack, int caller);

/* The callchain index of the i-th kept frame in drawing order (i < nr). */
static inline uint32_t rp_chain_pick_index(const struct rp_chain_pick *pick, uint32_t i)
{
	uint32_t first = pick->span[0].hi - pick->span[0].lo;

	if (pick->caller)
		i = pick->nr - 1 - i;
	return i < first ? pick->span[0].lo + i : pick->span[1].lo + (i - first);
}

#endif
