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

#endif
