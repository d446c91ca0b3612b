/* SPDX-License-Identifier: MIT */
#include "common/strpool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"

struct rp_strpool_entry {
	uint64_t hash;
	size_t len;
	char str[];
};

static int rp_strpool_grow(struct rp_strpool *pool)
{
	size_t cap = pool->cap ? pool->cap * 2 : 64;
	struct rp_strpool_entry **slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (size_t j = 0; j < pool->cap; j++) {
		struct rp_strpool_entry *e = pool->slots[j];

		if (!e)
			continue;
		size_t i = e->hash & (cap - 1);
		while (slots[i])
			i = (i + 1) & (cap - 1);
		slots[i] = e;
	}
	free(pool->slots);
	pool->slots = slots;
	pool->cap = cap;
	return 0;
}

const char *rp_strpool_intern(struct rp_strpool *pool, const char *s, size_t n)
{
	if ((pool->nr + 1) * 2 > pool->cap && rp_strpool_grow(pool) < 0)
		return NULL;
	uint64_t h = rp_hash_bytes(s, n);
	size_t mask = pool->cap - 1;
	size_t i = h & mask;
	for (; pool->slots[i]; i = (i + 1) & mask) {
		struct rp_strpool_entry *e = pool->slots[i];

		if (e->hash == h && e->len == n && !memcmp(e->str, s, n))
			return e->str;
	}
	struct rp_strpool_entry *e = rp_arena_alloc(&pool->arena, sizeof(*e) + n + 1);
	if (!e)
		return NULL;
	e->hash = h;
	e->len = n;
	memcpy(e->str, s, n);
	e->str[n] = '\0';
	pool->slots[i] = e;
	pool->nr++;
	return e->str;
}

const char *rp_strpool_intern_str(struct rp_strpool *pool, const char *s)
{
	return rp_strpool_intern(pool, s, strlen(s));
}

void rp_strpool_release(struct rp_strpool *pool)
{
	free(pool->slots);
	pool->slots = NULL;
	pool->cap = pool->nr = 0;
	rp_arena_release(&pool->arena);
}
