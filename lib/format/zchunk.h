/* SPDX-License-Identifier: MIT */
/*
 * PERF_RECORD_COMPRESSED (81) and COMPRESSED2 (83): zstd-compressed runs of
 * records.  Each compressed record is inflated (one zstd stream for the
 * whole session, as perf writes it) into a chunk; records that straddle two
 * compressed records are reassembled by carrying the tail of one chunk into
 * the next.  A chunk lives until every record read from it was delivered.
 *
 * Format: perf's util/session.c (perf_session__process_compressed_event)
 * and util/event.h (struct perf_record_compressed, compressed2 with its
 * data_size field).
 */
#ifndef RP_FORMAT_ZCHUNK_H
#define RP_FORMAT_ZCHUNK_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/error.h>

/* Cap on the inflated size of one compressed record (bytes). */
#define RP_MAX_INFLATED (256u << 20)

struct rp_zchunk {
	struct rp_zchunk *next; /* in the session's list of chunks */
	size_t pending;         /* records queued or held from this chunk */
	size_t len, head;       /* bytes inflated; next record at head */
	size_t cap;             /* bytes of data[] */
	/* Inflated: file offset of the compressed record.  A block of a
	 * streamed input: input offset of data[0]. */
	uint64_t offset;
	_Alignas(8) uint8_t data[];
};

struct rp_zreader {
	void *dstream;           /* ZSTD_DStream, created on first use */
	struct rp_zchunk *cur;   /* the chunk being read */
	struct rp_zchunk *chunks; /* every live chunk, cur included */
};

/*
 * Inflates the payload of a compressed record (payload bytes at p, len
 * bytes) into a new current chunk, after the undelivered tail of the
 * previous one.  Returns 0, or RP_ERR_CORRUPT (bad zstd data),
 * RP_ERR_LIMIT, RP_ERR_NOMEM, RP_ERR_UNSUPPORTED (built without libzstd),
 * with err filled.
 */
int rp_zreader_inflate(struct rp_zreader *z, const uint8_t *p, size_t len, uint64_t offset,
		       uint32_t type, struct rp_error *err);
/* A new chunk of cap bytes (zeroed header), or NULL. */
struct rp_zchunk *rp_zchunk_new(size_t cap);
/* Frees chunks that are neither current nor pending. */
void rp_zreader_collect(struct rp_zreader *z);
void rp_zreader_release(struct rp_zreader *z);

#endif
