/* SPDX-License-Identifier: MIT */
/* Growing arrays.  Depends on nothing. */
#ifndef RP_COMMON_ARRAY_H
#define RP_COMMON_ARRAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Makes room for at least `want` elements of `elem` bytes in *items, whose
 * capacity is *alloc, growing geometrically.  Returns 0 or -1 (no memory
 * or overflow); *items is unchanged on failure.
 */
static inline int rp_array_reserve(void **items, size_t *alloc, size_t want, size_t elem)
{
	if (want <= *alloc)
		return 0;
	size_t n = *alloc ? *alloc : 8;
	while (n < want) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (n > SIZE_MAX / elem)
		return -1;
	void *p = realloc(*items, n * elem);
	if (!p)
		return -1;
	*items = p;
	*alloc = n;
	return 0;
}

#define RP_ARRAY_RESERVE(items, alloc, want) \
	rp_array_reserve((void **)&(items), &(alloc), (want), sizeof(*(items)))

#endif
