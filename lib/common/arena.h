/* SPDX-License-Identifier: MIT */
/*
 * An arena: bump allocation of long-lived bulk data (names, interned
 * strings, symbol tables), all freed at once by rp_arena_release().
 * Depends on nothing.
 */
#ifndef RP_COMMON_ARENA_H
#define RP_COMMON_ARENA_H

#include <stddef.h>

struct rp_arena_block;

struct rp_arena {
	struct rp_arena_block *head;
	size_t used;  /* bytes used in head */
	size_t total; /* bytes allocated from malloc, all blocks */
};

#define RP_ARENA_INIT { NULL, 0, 0 }

/* n bytes aligned to 8, or NULL when out of memory.  n may be 0. */
void *rp_arena_alloc(struct rp_arena *a, size_t n);
/* A copy of the n bytes at s followed by a NUL, or NULL. */
char *rp_arena_strndup(struct rp_arena *a, const char *s, size_t n);
char *rp_arena_strdup(struct rp_arena *a, const char *s);
/* Frees every block; the arena can be used again afterwards. */
void rp_arena_release(struct rp_arena *a);

#endif
