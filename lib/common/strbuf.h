/* SPDX-License-Identifier: MIT */
/* A growing text buffer with printf (the report's and diff's cells). */
#ifndef RP_COMMON_STRBUF_H
#define RP_COMMON_STRBUF_H

#include <stddef.h>

/* Text at p, len bytes (NUL-terminated once written), alloc allocated.
 * Zero-initialised is empty; free(p) releases it. */
struct rp_strbuf {
	char *p;
	size_t len, alloc;
};

/* Appends the printf text.  Returns 0, RP_ERR_NOMEM or RP_ERR_IO (a bad
 * format); the text is unchanged on failure. */
int rp_strbuf_printf(struct rp_strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
