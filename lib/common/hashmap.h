/* SPDX-License-Identifier: MIT */
/*
 * A hash map from uint64_t keys to pointers (open addressing, linear
 * probing, power-of-two capacity).  Values must not be NULL.  Depends on
 * nothing.
 */
#ifndef RP_COMMON_HASHMAP_H
#define RP_COMMON_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct rp_hashmap_slot {
	uint64_t key;
	void *value; /* NULL: empty */
};

struct rp_hashmap {
	struct rp_hashmap_slot *slots;
	size_t cap; /* 0 or a power of two */
	size_t nr;
};

#define RP_HASHMAP_INIT { NULL, 0, 0 }

static inline uint64_t rp_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* The value stored under key, or NULL. */
void *rp_hashmap_get(const struct rp_hashmap *m, uint64_t key);
/* Stores value (not NULL) under key, replacing any.  0 or -1 (no memory). */
int rp_hashmap_put(struct rp_hashmap *m, uint64_t key, void *value);
/* Removes key; returns its value or NULL. */
void *rp_hashmap_del(struct rp_hashmap *m, uint64_t key);
void rp_hashmap_release(struct rp_hashmap *m);

/* FNV-1a over n bytes, for string keys. */
uint64_t rp_hash_bytes(const void *p, size_t n);

#endif
