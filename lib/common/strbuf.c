/* SPDX-License-Identifier: MIT */
#include "common/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <readperf/error.h>

int rp_strbuf_printf(struct rp_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->alloc - b->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return RP_ERR_IO;
	if (!b->p || b->len + (size_t)n + 1 > b->alloc) {
		size_t want = b->len + (size_t)n + 1;
		char *p;

		if (want < 256)
			want = 256;
		p = realloc(b->p, want);
		if (!p)
			return RP_ERR_NOMEM;
		b->p = p;
		b->alloc = want;
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->alloc - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return RP_ERR_IO;
	}
	b->len += (size_t)n;
	return 0;
}
