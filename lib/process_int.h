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

#endif
