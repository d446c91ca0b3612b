/* SPDX-License-Identifier: MIT */
/*
 * Test helper: builds perf.data bytes (headers, attrs, records, samples)
 * in either byte order, so that unit tests run on buffers they made.
 */
#ifndef RP_TEST_BUILDER_H
#define RP_TEST_BUILDER_H

#include <stddef.h>
#include <stdint.h>

struct tb_buf {
	uint8_t *data;
	size_t len, alloc;
	int swap; /* write in the non-host byte order */
};

void tb_init(struct tb_buf *b, int swap);
void tb_free(struct tb_buf *b);
void tb_u8(struct tb_buf *b, uint8_t v);
void tb_u16(struct tb_buf *b, uint16_t v);
void tb_u32(struct tb_buf *b, uint32_t v);
void tb_u64(struct tb_buf *b, uint64_t v);
void tb_bytes(struct tb_buf *b, const void *p, size_t n);
void tb_zero(struct tb_buf *b, size_t n);
/* A NUL-terminated string padded with NULs to a multiple of `align`. */
void tb_str(struct tb_buf *b, const char *s, size_t align);
/* Overwrites a u64/u32/u16 at byte offset off. */
void tb_put_u64(struct tb_buf *b, size_t off, uint64_t v);
void tb_put_u32(struct tb_buf *b, size_t off, uint32_t v);
void tb_put_u16(struct tb_buf *b, size_t off, uint16_t v);
/* Starts a record: writes the header with size 0 and returns its offset. */
size_t tb_rec_begin(struct tb_buf *b, uint32_t type, uint16_t misc);
/* Ends a record: pads to 8 bytes and patches the header size. */
void tb_rec_end(struct tb_buf *b, size_t start);
/* Writes the buffer to a new temporary file; returns its malloc'd path. */
char *tb_write_tmp(const struct tb_buf *b);

#endif
