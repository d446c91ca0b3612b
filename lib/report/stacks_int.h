/* SPDX-License-Identifier: MIT */
/*
 * The call stacks of a report's samples, each distinct one held once.
 *
 * A busy profile repeats the same few call stacks millions of times.
 * Adding every sample's stack to the graphs of every entry on it costs
 * O(depth) tree steps per entry, O(depth^2) per sample with --children.
 * Instead, a sample's stack is looked up here (one hash of its frames);
 * a stack met before only adds its period and count to the stack's sums,
 * and the trees are built from the distinct stacks when the report needs
 * them (rp_stacks_drain()), each stack once with its sums.
 *
 * The result is the one of adding each sample at once: a tree's counts
 * are sums, and its shape and each node's first ip depend only on the
 * order in which paths first appear, which the drain keeps (stacks in
 * the order they were first met).
 */
#ifndef RP_REPORT_STACKS_INT_H
#define RP_REPORT_STACKS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/hashmap.h"
#include "report/callchain_int.h"
#include "process_int.h"

/* Bytes of stacks the table holds before it is drained and emptied: its
 * memory is bounded whatever the number of distinct stacks. */
#define RP_STACKS_MAX_BYTES (32u << 20)

/* An entry of the report a stack adds to, and from which frame on (the
 * path its graph gets). */
struct rp_stack_link {
	void *entry;
	uint32_t from;
	uint32_t part; /* the caller's (the report's partition of entry) */
};

/* Words of a stack's owner: what, besides its frames, decides how a
 * sample adds its stack (the report's entry of the sample, and the
 * sample's thread, comm, cpu ...). */
#define RP_STACK_OWNER_WORDS 5

struct rp_stack {
	struct rp_stack *hnext; /* chain of the index */
	uint64_t hash;
	uint64_t owner[RP_STACK_OWNER_WORDS];
	uint64_t period, count; /* sums of the samples met since the last drain */
	uint32_t nr_frames, nr_links;
	struct rp_stack_link *links; /* --children: the entries on the stack */
	struct rp_cframe frames[];   /* drawing order */
};

struct rp_stacks {
	struct rp_arena arena;
	struct rp_hashmap index; /* hash -> first stack of the chain */
	struct rp_stack **order; /* in the order first met */
	size_t nr, alloc;
	size_t max_bytes;        /* RP_STACKS_MAX_BYTES unless a test lowers it */
	uint64_t epoch;          /* drains so far, plus 1: stacks' lifetime tag */
	/* Frames with a symbol are one when their symbols, DSOs and maps'
	 * levels are, whatever their addresses (rp_stacks_find()): set by
	 * a report whose graphs and entries look at nothing else of a
	 * frame (the function key, no address or source-line sort key).
	 * A stack keeps the frames of its first sample, which is what the
	 * trees' nodes keep (a node's first address), so the drawing is
	 * the one of telling every address apart, with fewer stacks. */
	int by_symbol;
};

void rp_stacks_init(struct rp_stacks *t);
void rp_stacks_release(struct rp_stacks *t);

/* The hash of (owner, frames[0..nr)), for rp_stacks_find(). */
uint64_t rp_stacks_hash(const struct rp_stacks *t, const uint64_t *owner,
			const struct rp_cframe *frames, size_t nr);

/* The stack (owner, frames[0..nr)) with that hash, or NULL when new. */
struct rp_stack *rp_stacks_find(const struct rp_stacks *t, uint64_t hash, const uint64_t *owner,
				const struct rp_cframe *frames, size_t nr);

/*
 * Adds a new stack with room for nr_links links (filled by the caller),
 * its sums zero.  Returns it, or NULL (no memory).  The caller drains the
 * table first when rp_stacks_full() says so.
 */
struct rp_stack *rp_stacks_add(struct rp_stacks *t, uint64_t hash, const uint64_t *owner,
			       const struct rp_cframe *frames, size_t nr, size_t nr_links);

/*
 * The stack noted in a pipeline slot (rp_resolved.stack_slot) if it is
 * still held and has this owner, else NULL; and the noting.  A drain ends
 * every stack held, so a slot is tagged with the epoch it was noted in.
 */
struct rp_stack *rp_stacks_from_slot(const struct rp_stacks *t, const struct rp_stack_slot *slot,
				     const uint64_t *owner);
void rp_stacks_to_slot(const struct rp_stacks *t, struct rp_stack_slot *slot, struct rp_stack *s);

/* Whether the table holds max_bytes or more. */
int rp_stacks_full(const struct rp_stacks *t);

/*
 * Calls fn for every stack held, in the order first met, then empties
 * the table (a new epoch).  Stops at, and returns, the
 * first negative value of fn; 0 otherwise.
 */
int rp_stacks_drain(struct rp_stacks *t, int (*fn)(void *ctx, const struct rp_stack *s),
		    void *ctx);

#endif
