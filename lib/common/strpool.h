/* SPDX-License-Identifier: MIT */
/*
 * Interned strings: one copy of each distinct string, so that equal strings
 * have equal pointers (comms, DSO names).  Depends on arena and hashmap.
 */
#ifndef RP_COMMON_STRPOOL_H
#define RP_COMMON_STRPOOL_H

#include <stddef.h>

#include "common/arena.h"

struct rp_strpool {
	struct rp_arena arena;
	struct rp_strpool_entry **slots;
	size_t cap, nr;
};

#define RP_STRPOOL_INIT { RP_ARENA_INIT, NULL, 0, 0 }

/* The interned copy of the n bytes at s (no NUL needed), or NULL (memory). */
const char *rp_strpool_intern(struct rp_strpool *pool, const char *s, size_t n);
const char *rp_strpool_intern_str(struct rp_strpool *pool, const char *s);
void rp_strpool_release(struct rp_strpool *pool);

#endif
