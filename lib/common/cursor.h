/* SPDX-License-Identifier: MIT */
/*
 * A bounds-checked cursor over bytes from a file, in the file's byte order.
 * Every read is preceded by rp_cur_need(); reads go through memcpy (the
 * bytes may be unaligned) and are swapped when the file's byte order is not
 * the host's.  Depends on nothing.
 */
#ifndef RP_COMMON_CURSOR_H
#define RP_COMMON_CURSOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct rp_cursor {
	const uint8_t *p;    /* next byte */
	const uint8_t *end;  /* one past the last byte */
	const uint8_t *base; /* byte 0 of the input, for offsets */
	uint64_t base_off;   /* input offset of base */
	uint8_t swap;        /* file byte order differs from the host's */
};

static inline void rp_cur_init(struct rp_cursor *c, const void *p, size_t len,
			       uint64_t off, int swap)
{
	c->p = c->base = (const uint8_t *)p;
	c->end = c->p + len;
	c->base_off = off;
	c->swap = (uint8_t)swap;
}

static inline size_t rp_cur_left(const struct rp_cursor *c)
{
	return (size_t)(c->end - c->p);
}

static inline int rp_cur_need(const struct rp_cursor *c, uint64_t n)
{
	return n <= (uint64_t)(c->end - c->p);
}

/* Input offset of the next byte. */
static inline uint64_t rp_cur_off(const struct rp_cursor *c)
{
	return c->base_off + (uint64_t)(c->p - c->base);
}

static inline uint16_t rp_bswap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t rp_bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t rp_bswap64(uint64_t v) { return __builtin_bswap64(v); }

/* Loads from possibly unaligned memory, swapped when swap is set. */
static inline uint64_t rp_load64(const void *p, int swap)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? rp_bswap64(v) : v;
}

static inline uint32_t rp_load32(const void *p, int swap)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? rp_bswap32(v) : v;
}

static inline uint16_t rp_load16(const void *p, int swap)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? rp_bswap16(v) : v;
}

/* The rp_cur_get* functions assume rp_cur_need() was checked. */
static inline uint64_t rp_cur_get64(struct rp_cursor *c)
{
	uint64_t v = rp_load64(c->p, c->swap);
	c->p += 8;
	return v;
}

static inline uint32_t rp_cur_get32(struct rp_cursor *c)
{
	uint32_t v = rp_load32(c->p, c->swap);
	c->p += 4;
	return v;
}

static inline uint16_t rp_cur_get16(struct rp_cursor *c)
{
	uint16_t v = rp_load16(c->p, c->swap);
	c->p += 2;
	return v;
}

static inline uint8_t rp_cur_get8(struct rp_cursor *c)
{
	return *c->p++;
}

/* Checked reads: return 0, or -1 when fewer bytes remain. */
static inline int rp_cur_u64(struct rp_cursor *c, uint64_t *v)
{
	if (!rp_cur_need(c, 8))
		return -1;
	*v = rp_cur_get64(c);
	return 0;
}

static inline int rp_cur_u32(struct rp_cursor *c, uint32_t *v)
{
	if (!rp_cur_need(c, 4))
		return -1;
	*v = rp_cur_get32(c);
	return 0;
}

static inline int rp_cur_skip(struct rp_cursor *c, uint64_t n)
{
	if (!rp_cur_need(c, n))
		return -1;
	c->p += n;
	return 0;
}

/* Points *out at n bytes and steps over them. */
static inline int rp_cur_bytes(struct rp_cursor *c, uint64_t n, const void **out)
{
	if (!rp_cur_need(c, n))
		return -1;
	*out = c->p;
	c->p += n;
	return 0;
}

/*
 * A string stored in a field of n bytes (NUL-padded): returns a pointer to
 * it when a NUL lies within the n bytes, NULL otherwise; steps over n.
 */
static inline const char *rp_cur_str(struct rp_cursor *c, uint64_t n)
{
	const void *s;

	if (rp_cur_bytes(c, n, &s) < 0 || n == 0 || !memchr(s, 0, (size_t)n))
		return NULL;
	return (const char *)s;
}

/* Whether the host is little-endian. */
static inline int rp_host_is_le(void)
{
	const uint16_t one = 1;
	uint8_t b;

	memcpy(&b, &one, 1);
	return b == 1;
}

#endif
