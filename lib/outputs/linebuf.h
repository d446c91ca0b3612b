/* SPDX-License-Identifier: MIT */
/*
 * A growing text buffer with the few printf conversions the text outputs
 * use on every line (%s, %*s, %-*s, %*d, %0*d, %*lu, %0*lu, %*lx),
 * written without printf's format parsing: the per-sample output of
 * `readperf script` spends most of its time formatting.  The text is the
 * same as printf's for the same conversion.
 *
 * Errors: an allocation failure sets `oom` and drops what follows; the
 * owner checks it when it writes the buffer out.
 */
#ifndef RP_OUTPUTS_LINEBUF_H
#define RP_OUTPUTS_LINEBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct rp_linebuf {
	char *p;
	size_t len, cap; /* bytes */
	int oom;         /* an allocation failed: text was dropped */
};

/* Room for n more bytes at p + len, or NULL (oom set). */
char *rp_lb_grow(struct rp_linebuf *b, size_t n);

static inline char *rp_lb_room(struct rp_linebuf *b, size_t n)
{
	if (b->cap - b->len >= n)
		return b->p + b->len;
	return rp_lb_grow(b, n);
}

static inline void rp_lb_putn(struct rp_linebuf *b, const char *s, size_t n)
{
	char *d = rp_lb_room(b, n);

	if (!d)
		return;
	memcpy(d, s, n);
	b->len += n;
}

static inline void rp_lb_puts(struct rp_linebuf *b, const char *s)
{
	rp_lb_putn(b, s, strlen(s));
}

static inline void rp_lb_putc(struct rp_linebuf *b, char c)
{
	char *d = rp_lb_room(b, 1);

	if (!d)
		return;
	*d = c;
	b->len++;
}

/* %*s (width > 0: right-aligned) and %-*s (width < 0: left-aligned) of
 * the n bytes at s. */
void rp_lb_pad_strn(struct rp_linebuf *b, const char *s, size_t n, int width);

static inline void rp_lb_pad_str(struct rp_linebuf *b, const char *s, int width)
{
	rp_lb_pad_strn(b, s, strlen(s), width);
}

/* %*PRIu64, or %0*PRIu64 when zero is set. */
void rp_lb_u64(struct rp_linebuf *b, uint64_t v, int width, int zero);

/* %*d (width > 0), %-*d (width < 0), or %0*d when zero is set. */
void rp_lb_i32(struct rp_linebuf *b, int32_t v, int width, int zero);

/* %*PRIx64 (lower case, right-aligned with blanks). */
void rp_lb_hex(struct rp_linebuf *b, uint64_t v, int width);

/* printf into the buffer, for lines too rare to be worth the above. */
void rp_lb_printf(struct rp_linebuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Writes the buffer to f and empties it.  Returns 0, or -1 when text was
 * dropped (oom, which is cleared) or f failed.
 */
int rp_lb_flush(struct rp_linebuf *b, FILE *f);

void rp_lb_release(struct rp_linebuf *b);

#endif
