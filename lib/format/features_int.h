/* SPDX-License-Identifier: MIT */
/* Feature sections inside the library (the public side is features.h). */
#ifndef RP_FORMAT_FEATURES_INT_H
#define RP_FORMAT_FEATURES_INT_H

#include <stddef.h>

#include <readperf/features.h>

struct rp_arena;

/* The first feature bit perf 6.1 does not know (its HEADER_LAST_FEATURE). */
#define RP_FEATURES_PERF61_LAST 32

/* An empty set of features, for rp_features_decode().  Returns 0 or
 * RP_ERR_NOMEM. */
int rp_features_new(struct rp_features **out);

/*
 * Decodes one section: data holds size bytes in the file's byte order
 * (swap set when it differs from the host's); data may be NULL when size
 * is 0.  CPU_TOPOLOGY and CPU_DOMAIN_INFO use the NRCPUS counts decoded
 * before on the same object, as perf does.  Pointers into data are kept
 * (TRACING_DATA, BPF, BTF): data must outlive f.
 * Returns 0; RP_ERR_TRUNCATED or RP_ERR_CORRUPT (state DAMAGED) when the
 * section is damaged; RP_ERR_LIMIT when a count exceeds its cap; RP_ERR_NOMEM;
 * RP_ERR_INVAL for a feature outside 1..RP_FEATURES_LAST.
 */
int rp_features_decode(struct rp_features *f, unsigned feat, const void *data, size_t size,
		       int swap);

/*
 * The same into any struct rp_features (zeroed before the first call, a
 * session's own, say), what it points to allocated in arena, which must
 * outlive f's use.  Of BUILD_ID and EVENT_DESC the entries before a
 * damaged one are kept (and of EVENT_DESC those perf 6.1 refuses for
 * unknown attr bits: event_desc_ok 0), so that the session keeps what
 * perf's reader keeps; other damaged sections leave their fields unset.
 */
int rp_features_decode_in(struct rp_features *f, struct rp_arena *arena, unsigned feat,
			  const void *data, size_t size, int swap);

#endif
