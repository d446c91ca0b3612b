/* SPDX-License-Identifier: MIT */
#include "common/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RP_ARENA_BLOCK (64u * 1024u)

struct rp_arena_block {
	struct rp_arena_block *next;
	size_t size;
	_Alignas(8) unsigned char data[];
};

void *rp_arena_alloc(struct rp_arena *a, size_t n)
{
	size_t need = (n + 7u) & ~(size_t)7u;

	if (need < n)
		return NULL;
	if (!a->head || a->head->size - a->used < need) {
		size_t size = need > RP_ARENA_BLOCK / 4 ? need : RP_ARENA_BLOCK;
		struct rp_arena_block *b;

		if (size > SIZE_MAX - sizeof(*b))
			return NULL;
		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		a->total += size;
		if (size != RP_ARENA_BLOCK && a->head) {
			/* A large block goes behind the current one, which
			 * keeps its free space. */
			b->next = a->head->next;
			a->head->next = b;
			return b->data;
		}
		b->next = a->head;
		a->head = b;
		a->used = 0;
	}
	void *p = a->head->data + a->used;
	a->used += need;
	return p;
}

char *rp_arena_strndup(struct rp_arena *a, const char *s, size_t n)
{
	char *d;

	if (n == SIZE_MAX)
		return NULL;
	d = rp_arena_alloc(a, n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *rp_arena_strdup(struct rp_arena *a, const char *s)
{
	return rp_arena_strndup(a, s, strlen(s));
}

void rp_arena_release(struct rp_arena *a)
{
	struct rp_arena_block *b = a->head;

	while (b) {
		struct rp_arena_block *next = b->next;

		free(b);
		b = next;
	}
	a->head = NULL;
	a->used = 0;
	a->total = 0;
}
