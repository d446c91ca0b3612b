/* SPDX-License-Identifier: MIT */
#include "common/hashmap.h"

#include <stdlib.h>

void *rp_hashmap_get(const struct rp_hashmap *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	for (size_t i = rp_hash64(key) & mask;; i = (i + 1) & mask) {
		const struct rp_hashmap_slot *s = &m->slots[i];

		if (!s->value)
			return NULL;
		if (s->key == key)
			return s->value;
	}
}

static int rp_hashmap_grow(struct rp_hashmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	struct rp_hashmap_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots || cap < m->cap)
		return free(slots), -1;
	for (size_t j = 0; j < m->cap; j++) {
		struct rp_hashmap_slot *s = &m->slots[j];

		if (!s->value)
			continue;
		size_t i = rp_hash64(s->key) & (cap - 1);
		while (slots[i].value)
			i = (i + 1) & (cap - 1);
		slots[i] = *s;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int rp_hashmap_put(struct rp_hashmap *m, uint64_t key, void *value)
{
	if ((m->nr + 1) * 4 > m->cap * 3 && rp_hashmap_grow(m) < 0)
		return -1;
	size_t mask = m->cap - 1;
	for (size_t i = rp_hash64(key) & mask;; i = (i + 1) & mask) {
		struct rp_hashmap_slot *s = &m->slots[i];

		if (!s->value) {
			s->key = key;
			s->value = value;
			m->nr++;
			return 0;
		}
		if (s->key == key) {
			s->value = value;
			return 0;
		}
	}
}

void *rp_hashmap_del(struct rp_hashmap *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	size_t i = rp_hash64(key) & mask;

	while (m->slots[i].value && m->slots[i].key != key)
		i = (i + 1) & mask;
	void *value = m->slots[i].value;
	if (!value)
		return NULL;
	/* Backward-shift deletion keeps probe chains intact. */
	size_t j = i;
	for (;;) {
		m->slots[i].value = NULL;
		for (;;) {
			j = (j + 1) & mask;
			if (!m->slots[j].value) {
				m->nr--;
				return value;
			}
			size_t home = rp_hash64(m->slots[j].key) & mask;
			/* Move j back to i unless its home lies in (i, j]. */
			if (i <= j ? (home <= i || home > j) : (home <= i && home > j))
				break;
		}
		m->slots[i] = m->slots[j];
		i = j;
	}
}

void rp_hashmap_release(struct rp_hashmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->nr = 0;
}

uint64_t rp_hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}
