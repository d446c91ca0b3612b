/* SPDX-License-Identifier: MIT */
#include "format/zchunk.h"

#include <stdlib.h>
#include <string.h>

#include "common/error_int.h"

#ifdef RP_HAVE_ZSTD
#include <zstd.h>
#endif

struct rp_zchunk *rp_zchunk_new(size_t cap)
{
	struct rp_zchunk *c = malloc(sizeof(*c) + cap);

	if (c) {
		memset(c, 0, sizeof(*c));
		c->cap = cap;
	}
	return c;
}

#ifdef RP_HAVE_ZSTD
int rp_zreader_inflate(struct rp_zreader *z, const uint8_t *p, size_t len, uint64_t offset,
		       uint32_t type, struct rp_error *err)
{
	size_t carry = z->cur ? z->cur->len - z->cur->head : 0;
	size_t cap = carry + (len > 4096 ? len * 8 : 32768);
	struct rp_zchunk *c;

	if (!z->dstream) {
		z->dstream = ZSTD_createDStream();
		if (!z->dstream || ZSTD_isError(ZSTD_initDStream(z->dstream)))
			return rp_error_set_record(err, RP_ERR_NOMEM, offset, type,
						   "cannot create a zstd stream");
	}
	c = rp_zchunk_new(cap);
	if (!c)
		return rp_error_set_record(err, RP_ERR_NOMEM, offset, type,
					   "out of memory inflating a compressed record");
	if (carry)
		memcpy(c->data, z->cur->data + z->cur->head, carry);
	c->len = carry;
	c->offset = offset;

	ZSTD_inBuffer in = { p, len, 0 };
	for (;;) {
		if (c->len == cap) {
			if (cap >= RP_MAX_INFLATED) {
				free(c);
				return rp_error_set_record(err, RP_ERR_LIMIT, offset, type,
							   "compressed record inflates beyond %u bytes",
							   RP_MAX_INFLATED);
			}
			cap *= 2;
			struct rp_zchunk *g = realloc(c, sizeof(*c) + cap);
			if (!g) {
				free(c);
				return rp_error_set_record(err, RP_ERR_NOMEM, offset, type,
							   "out of memory inflating a compressed record");
			}
			c = g;
			c->cap = cap;
		}
		ZSTD_outBuffer out = { c->data, cap, c->len };
		size_t r = ZSTD_decompressStream(z->dstream, &out, &in);
		if (ZSTD_isError(r)) {
			free(c);
			return rp_error_set_record(err, RP_ERR_CORRUPT, offset, type,
						   "bad zstd data: %s", ZSTD_getErrorName(r));
		}
		c->len = out.pos;
		/* A full output buffer may leave inflated bytes inside zstd. */
		if (in.pos == in.size && out.pos < out.size)
			break;
	}
	/* The carried tail now lives in the new chunk. */
	if (z->cur)
		z->cur->head = z->cur->len;
	c->next = z->chunks;
	z->chunks = c;
	z->cur = c;
	rp_zreader_collect(z);
	return 0;
}
#else
int rp_zreader_inflate(struct rp_zreader *z, const uint8_t *p, size_t len, uint64_t offset,
		       uint32_t type, struct rp_error *err)
{
	(void)z;
	(void)p;
	(void)len;
	return rp_error_set_record(err, RP_ERR_UNSUPPORTED, offset, type,
				   "compressed records need libzstd (readperf was built without it)");
}
#endif

void rp_zreader_collect(struct rp_zreader *z)
{
	struct rp_zchunk **pp = &z->chunks;

	while (*pp) {
		struct rp_zchunk *c = *pp;

		if (c != z->cur && !c->pending) {
			*pp = c->next;
			free(c);
		} else {
			pp = &c->next;
		}
	}
}

void rp_zreader_release(struct rp_zreader *z)
{
	while (z->chunks) {
		struct rp_zchunk *c = z->chunks;

		z->chunks = c->next;
		free(c);
	}
#ifdef RP_HAVE_ZSTD
	ZSTD_freeDStream(z->dstream);
#endif
	memset(z, 0, sizeof(*z));
}
