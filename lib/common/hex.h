/* SPDX-License-Identifier: MIT */
/* Bytes as lowercase hex digits (build-ids, hashes, tags). */
#ifndef RP_COMMON_HEX_H
#define RP_COMMON_HEX_H

#include <stddef.h>
#include <stdint.h>

/* The longest build-id (bytes) perf keeps: BUILD_ID_SIZE. */
#define RP_BUILD_ID_MAX 20
/* Bytes of a build-id's hex text, NUL included. */
#define RP_BUILD_ID_HEX (2 * RP_BUILD_ID_MAX + 1)

/*
 * Writes the n bytes at p as 2n hex digits and a NUL into out, which
 * holds 2n + 1 bytes.  Returns out.
 */
static inline char *rp_hex(char *out, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = 0;
	return out;
}

/* A build-id of n bytes (at most RP_BUILD_ID_MAX are written) into out,
 * which holds RP_BUILD_ID_HEX bytes.  Returns out. */
static inline char *rp_build_id_hex(char out[RP_BUILD_ID_HEX], const uint8_t *bid, size_t n)
{
	return rp_hex(out, bid, n < RP_BUILD_ID_MAX ? n : RP_BUILD_ID_MAX);
}

#endif
