/* SPDX-License-Identifier: MIT */
/*
 * The options convention of the public API (include/readperf/output.h):
 * the first field of every options struct is `size_t sz`, the size of the
 * struct the caller was compiled with.
 */
#ifndef RP_COMMON_OPTS_H
#define RP_COMMON_OPTS_H

#include <stddef.h>
#include <string.h>

#include <readperf/error.h>

/*
 * Copies the caller's options (src, may be NULL: all defaults, i.e. zero)
 * into dst of size dst_size: the fields the caller knows, zeros for the
 * rest, then sets dst's sz to dst_size.  Returns 0, or RP_ERR_INVAL when
 * src->sz is smaller than the sz field itself or when the caller's struct
 * has non-zero bytes past dst_size (options this library does not know).
 */
static inline int rp_opts_copy(void *dst, size_t dst_size, const void *src)
{
	size_t sz;

	memset(dst, 0, dst_size);
	if (src) {
		memcpy(&sz, src, sizeof(sz));
		if (sz < sizeof(size_t))
			return RP_ERR_INVAL;
		for (size_t i = dst_size; i < sz; i++)
			if (((const unsigned char *)src)[i])
				return RP_ERR_INVAL;
		memcpy(dst, src, sz < dst_size ? sz : dst_size);
	}
	memcpy(dst, &dst_size, sizeof(dst_size));
	return 0;
}

#endif
