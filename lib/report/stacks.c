/* SPDX-License-Identifier: MIT */
/* The distinct call stacks of a report's samples: see stacks_int.h. */
#include "report/stacks_int.h"

#include <string.h>

#include "common/array.h"

void rp_stacks_init(struct rp_stacks *t)
{
	memset(t, 0, sizeof(*t));
	t->max_bytes = RP_STACKS_MAX_BYTES;
	t->epoch = 1;
}

void rp_stacks_release(struct rp_stacks *t)
{
	rp_hashmap_release(&t->index);
	rp_arena_release(&t->arena);
	free(t->order);
	rp_stacks_init(t);
}

/* Whether frame f is told apart from others by its symbol alone. */
static inline int rp_by_symbol(const struct rp_stacks *t, const struct rp_cframe *f)
{
	return t->by_symbol && f->sym;
}

uint64_t rp_stacks_hash(const struct rp_stacks *t, const uint64_t *owner,
			const struct rp_cframe *frames, size_t nr)
{
	uint64_t h = nr;

	for (size_t i = 0; i < RP_STACK_OWNER_WORDS; i++)
		h = (h ^ owner[i]) * 0x9e3779b97f4a7c15ull + (h >> 29);

	for (size_t i = 0; i < nr; i++) {
		const struct rp_cframe *f = &frames[i];

		h = (h ^ (rp_by_symbol(t, f) ? (uint64_t)(uint8_t)f->level : f->ip)) *
		    0x9e3779b97f4a7c15ull;
		h = (h ^ (uint64_t)(uintptr_t)f->sym ^ ((uint64_t)(uintptr_t)f->dso << 17)) *
		    0xc2b2ae3d27d4eb4full;
		h ^= h >> 29;
	}
	return rp_hash64(h);
}

static int rp_cframes_equal(const struct rp_stacks *t, const struct rp_cframe *a,
			    const struct rp_cframe *b, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (a[i].sym != b[i].sym || a[i].dso != b[i].dso || a[i].has_map != b[i].has_map ||
		    a[i].level != b[i].level)
			return 0;
		if (rp_by_symbol(t, &a[i]))
			continue;
		if (a[i].ip != b[i].ip || a[i].src_line != b[i].src_line ||
		    a[i].src_file != b[i].src_file || a[i].inline_looked_up != b[i].inline_looked_up)
			return 0;
	}
	return 1;
}

struct rp_stack *rp_stacks_find(const struct rp_stacks *t, uint64_t hash, const uint64_t *owner,
				const struct rp_cframe *frames, size_t nr)
{
	struct rp_stack *s = rp_hashmap_get(&t->index, hash);

	for (; s; s = s->hnext)
		if (s->hash == hash && s->nr_frames == nr &&
		    !memcmp(s->owner, owner, sizeof(s->owner)) &&
		    rp_cframes_equal(t, s->frames, frames, nr))
			return s;
	return NULL;
}

struct rp_stack *rp_stacks_from_slot(const struct rp_stacks *t, const struct rp_stack_slot *slot,
				     const uint64_t *owner)
{
	struct rp_stack *s = slot->ptr;

	if (!s || slot->tag != t->epoch || memcmp(s->owner, owner, sizeof(s->owner)))
		return NULL;
	return s;
}

void rp_stacks_to_slot(const struct rp_stacks *t, struct rp_stack_slot *slot, struct rp_stack *s)
{
	slot->ptr = s;
	slot->tag = t->epoch;
}

int rp_stacks_full(const struct rp_stacks *t)
{
	return t->arena.total >= t->max_bytes;
}

struct rp_stack *rp_stacks_add(struct rp_stacks *t, uint64_t hash, const uint64_t *owner,
			       const struct rp_cframe *frames, size_t nr, size_t nr_links)
{
	struct rp_stack *s;

	if (RP_ARRAY_RESERVE(t->order, t->alloc, t->nr + 1) < 0)
		return NULL;
	s = rp_arena_alloc(&t->arena, sizeof(*s) + nr * sizeof(s->frames[0]));
	if (!s)
		return NULL;
	s->links = NULL;
	if (nr_links && !(s->links = rp_arena_alloc(&t->arena, nr_links * sizeof(*s->links))))
		return NULL;
	s->hash = hash;
	memcpy(s->owner, owner, sizeof(s->owner));
	s->period = s->count = 0;
	s->nr_frames = (uint32_t)nr;
	s->nr_links = 0;
	memcpy(s->frames, frames, nr * sizeof(*frames));
	s->hnext = rp_hashmap_get(&t->index, hash);
	if (rp_hashmap_put(&t->index, hash, s) < 0)
		return NULL;
	t->order[t->nr++] = s;
	return s;
}

int rp_stacks_drain(struct rp_stacks *t, int (*fn)(void *ctx, const struct rp_stack *s),
		    void *ctx)
{
	int rc = 0;

	for (size_t i = 0; i < t->nr && rc >= 0; i++)
		rc = fn(ctx, t->order[i]);
	rp_hashmap_release(&t->index);
	rp_arena_release(&t->arena);
	t->epoch++;
	t->nr = 0;
	return rc < 0 ? rc : 0;
}
