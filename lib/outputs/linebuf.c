/* SPDX-License-Identifier: MIT */
/* Fast text conversions into a growing buffer: see linebuf.h. */
#include "outputs/linebuf.h"

#include <stdarg.h>
#include <stdlib.h>

/* The longest conversion: 20 decimal digits of a u64, or a sign and 10. */
#define RP_LB_DIGITS 24

char *rp_lb_grow(struct rp_linebuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;

	if (b->oom)
		return NULL;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2) {
			b->oom = 1;
			return NULL;
		}
		cap *= 2;
	}
	char *p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return NULL;
	}
	b->p = p;
	b->cap = cap;
	return p + b->len;
}

/* The text s[0..n) in a field of |width|, blanks (or zeros after any
 * sign, for zero) filling it on the left, or on the right for a negative
 * width. */
static void rp_lb_field(struct rp_linebuf *b, const char *s, size_t n, int width, int zero)
{
	size_t w = width < 0 ? (size_t)-(int64_t)width : (size_t)width;
	size_t fill = w > n ? w - n : 0;
	char *d = rp_lb_room(b, n + fill);

	if (!d)
		return;
	if (width < 0) {
		memcpy(d, s, n);
		memset(d + n, ' ', fill);
	} else if (zero) {
		size_t sign = n && *s == '-';

		memcpy(d, s, sign);
		memset(d + sign, '0', fill);
		memcpy(d + sign + fill, s + sign, n - sign);
	} else {
		memset(d, ' ', fill);
		memcpy(d + fill, s, n);
	}
	b->len += n + fill;
}

void rp_lb_pad_strn(struct rp_linebuf *b, const char *s, size_t n, int width)
{
	rp_lb_field(b, s, n, width, 0);
}

/* The decimal digits of v, ending at end; returns their start. */
static char *rp_lb_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void rp_lb_u64(struct rp_linebuf *b, uint64_t v, int width, int zero)
{
	char buf[RP_LB_DIGITS];
	char *s = rp_lb_digits(buf + sizeof(buf), v);

	rp_lb_field(b, s, (size_t)(buf + sizeof(buf) - s), width, zero);
}

void rp_lb_i32(struct rp_linebuf *b, int32_t v, int width, int zero)
{
	char buf[RP_LB_DIGITS];
	uint64_t mag = v < 0 ? (uint64_t)(-(int64_t)v) : (uint64_t)v;
	char *s = rp_lb_digits(buf + sizeof(buf), mag);

	if (v < 0)
		*--s = '-';
	rp_lb_field(b, s, (size_t)(buf + sizeof(buf) - s), width, zero);
}

void rp_lb_hex(struct rp_linebuf *b, uint64_t v, int width)
{
	static const char hex[] = "0123456789abcdef";
	char buf[RP_LB_DIGITS];
	char *s = buf + sizeof(buf);

	do {
		*--s = hex[v & 15];
		v >>= 4;
	} while (v);
	rp_lb_field(b, s, (size_t)(buf + sizeof(buf) - s), width, 0);
}

void rp_lb_printf(struct rp_linebuf *b, const char *fmt, ...)
{
	va_list ap;
	char small[256];

	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		rp_lb_putn(b, small, (size_t)n);
		return;
	}
	char *d = rp_lb_room(b, (size_t)n + 1);
	if (!d)
		return;
	va_start(ap, fmt);
	vsnprintf(d, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

int rp_lb_flush(struct rp_linebuf *b, FILE *f)
{
	int rc = 0;

	if (b->len && fwrite(b->p, 1, b->len, f) != b->len)
		rc = -1;
	if (b->oom)
		rc = -1;
	b->len = 0;
	b->oom = 0;
	return rc;
}

void rp_lb_release(struct rp_linebuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
