/* SPDX-License-Identifier: MIT */
#include "builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void tb_reserve(struct tb_buf *b, size_t n)
{
	if (b->len + n <= b->alloc)
		return;
	size_t a = b->alloc ? b->alloc : 256;
	while (a < b->len + n)
		a *= 2;
	b->data = realloc(b->data, a);
	if (!b->data)
		abort();
	b->alloc = a;
}

void tb_init(struct tb_buf *b, int swap)
{
	memset(b, 0, sizeof(*b));
	b->swap = swap;
}

void tb_free(struct tb_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

void tb_bytes(struct tb_buf *b, const void *p, size_t n)
{
	tb_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void tb_zero(struct tb_buf *b, size_t n)
{
	tb_reserve(b, n);
	memset(b->data + b->len, 0, n);
	b->len += n;
}

void tb_u8(struct tb_buf *b, uint8_t v) { tb_bytes(b, &v, 1); }

void tb_u16(struct tb_buf *b, uint16_t v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	tb_bytes(b, &v, 2);
}

void tb_u32(struct tb_buf *b, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	tb_bytes(b, &v, 4);
}

void tb_u64(struct tb_buf *b, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	tb_bytes(b, &v, 8);
}

void tb_str(struct tb_buf *b, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;
	size_t padded = align ? (n + align - 1) / align * align : n;

	tb_bytes(b, s, n);
	tb_zero(b, padded - n);
}

void tb_put_u64(struct tb_buf *b, size_t off, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	memcpy(b->data + off, &v, 8);
}

void tb_put_u32(struct tb_buf *b, size_t off, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	memcpy(b->data + off, &v, 4);
}

void tb_put_u16(struct tb_buf *b, size_t off, uint16_t v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	memcpy(b->data + off, &v, 2);
}

size_t tb_rec_begin(struct tb_buf *b, uint32_t type, uint16_t misc)
{
	size_t start = b->len;

	tb_u32(b, type);
	tb_u16(b, misc);
	tb_u16(b, 0);
	return start;
}

void tb_rec_end(struct tb_buf *b, size_t start)
{
	tb_zero(b, (8 - (b->len - start) % 8) % 8);
	tb_put_u16(b, start + 6, (uint16_t)(b->len - start));
}

char *tb_write_tmp(const struct tb_buf *b)
{
	char tmpl[] = "/tmp/readperf-test-XXXXXX";
	int fd = mkstemp(tmpl);

	if (fd < 0)
		abort();
	if (write(fd, b->data, b->len) != (ssize_t)b->len)
		abort();
	close(fd);
	return strdup(tmpl);
}
