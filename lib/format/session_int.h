/* SPDX-License-Identifier: MIT */
/*
 * The format stage inside: container (header.c), attrs and event names
 * (evsel.c), record decoding (decode.c), time order (order.c) and the
 * iterator that joins them (session.c).  Private to the library.
 */
#ifndef RP_FORMAT_SESSION_INT_H
#define RP_FORMAT_SESSION_INT_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/session.h>

#include "common/arena.h"
#include "common/hashmap.h"
#include "format/zchunk.h"

/* Caps on what the container can claim (bytes or counts). */
#define RP_MAX_ATTRS 65536u          /* perf_file_attr entries */
#define RP_MAX_IDS_PER_ATTR (1u << 20)
#define RP_MAX_FEATURE_SIZE (256u << 20) /* bytes of one feature section */
#define RP_MAX_STRINGS 65536u        /* CMDLINE argc, EVENT_DESC entries */
#define RP_MAX_BUILD_IDS (1u << 20)
#define RP_ATTR_SIZE_VER0 64u
#define RP_ATTR_SIZE_MAX 136u        /* newest perf_event_attr known */

struct rp_evsel {
	int idx;
	struct rp_attr attr;
	const char *name;
	const uint64_t *ids;
	size_t nr_ids;
	int id_pos; /* u64 index of the id in a SAMPLE, -1 when none */
	int is_pos; /* u64 index from the end of a sample_id_all trailer */
	/* Bytes of the sample_id_all trailer on non-sample records. */
	uint32_t trailer_size;
};

/* One record waiting for its turn in the time-order queue. */
struct rp_qent {
	uint64_t time;
	uint64_t nr;
	uint64_t offset;
	const uint8_t *rec;
	const struct rp_evsel *evsel;
	struct rp_zchunk *chunk; /* holding rec, or NULL for the file */
};

struct rp_order_queue {
	struct rp_qent *ents; /* sorted [head, nr) once flushing */
	size_t head, nr, alloc;
	uint64_t max;         /* cap on queued entries */
	uint64_t next_flush;  /* deliver up to this time at a flush */
	uint64_t max_timestamp;
	uint64_t last_flush;  /* time of the last delivered record */
	size_t flush_end;     /* entries [head, flush_end) may be delivered */
	uint8_t sorted;
};

struct rp_session {
	char *path;
	int fd;
	const uint8_t *map; /* the whole file, read-only */
	uint64_t size;
	uint8_t swap;
	struct rp_session_opts opts;

	uint64_t header_size, attr_size;
	uint64_t attrs_off, attrs_size;
	uint64_t data_off, data_size;
	uint64_t event_types_off, event_types_size;
	uint64_t features[4]; /* the 256-bit map */
	uint64_t feat_off[RP_FEAT_BITS], feat_size[RP_FEAT_BITS];

	struct rp_evsel *evsels;
	size_t nr_evsels;
	struct rp_hashmap id_map; /* sample id -> evsel */
	int id_pos, is_pos;       /* of the first evsel, as perf's evlist */
	uint8_t sample_id_all;    /* of the first evsel */

	struct rp_header_info info;
	struct rp_arena arena;    /* names, strings, ids, build-ids */

	/* The record iterator over the data section. */
	uint64_t pos;      /* file offset of the next record */
	uint64_t data_end; /* file offset past the data section */
	uint64_t nr_next;  /* nr of the next record */
	int stop_code;     /* error that ended reading, 0 when none */
	struct rp_error stop_err; /* its details */
	uint8_t eof;       /* nothing more to read from the file */

	struct rp_order_queue queue;
	/* A record that made the queue flush is delivered after it. */
	const uint8_t *held_rec;
	uint64_t held_off, held_nr;
	struct rp_zchunk *held_chunk;

	/* Records inflated from COMPRESSED/COMPRESSED2. */
	struct rp_zreader z;

	/* Host-order copies of arrays in swapped or unaligned records. */
	uint64_t *scratch;
	size_t scratch_alloc, scratch_used;

	struct rp_session_stats stats;
	struct rp_error err;
};

/* header.c: reads and checks the container; fills evsels and info. */
int rp_header_read(struct rp_session *s);

/* evsel.c */
void rp_evsel_setup(struct rp_evsel *evsel);
/* A name from type/config, perf's evsel__name() fallback, in the arena. */
const char *rp_evsel_default_name(struct rp_arena *arena, const struct rp_attr *attr);
/* Decodes attr bytes (len = bytes present, <= RP_ATTR_SIZE_MAX). */
void rp_attr_decode(struct rp_attr *attr, const uint8_t *p, size_t len, int swap);

/* decode.c */
/*
 * The evsel of a raw record (perf's evlist__event2evsel), or NULL when its
 * id matches no attr.  rec points at the header, size is the record size.
 */
const struct rp_evsel *rp_record_evsel(const struct rp_session *s, const uint8_t *rec,
				       uint32_t type, uint32_t size);
/* The record's time (ns), or (uint64_t)-1 when it has none. */
uint64_t rp_record_time(const struct rp_session *s, const struct rp_evsel *evsel,
			const uint8_t *rec, uint32_t type, uint32_t size);
/*
 * Decodes the record at rec (size bytes, checked against the data by the
 * caller) into ev.  Returns 0 or RP_ERR_CORRUPT / RP_ERR_NOMEM with the
 * session's error set.
 */
int rp_record_decode(struct rp_session *s, const uint8_t *rec, uint64_t offset, uint64_t nr,
		     const struct rp_evsel *evsel, struct rp_event *ev);

/* order.c */
int rp_order_push(struct rp_session *s, const struct rp_qent *e);
/* Makes entries with time <= limit deliverable (all with `all`). */
void rp_order_flush(struct rp_session *s, uint64_t limit, int all);
/* The next deliverable entry, or NULL. */
const struct rp_qent *rp_order_pop(struct rp_session *s);
int rp_order_empty(const struct rp_session *s);
void rp_order_release(struct rp_order_queue *q);

#endif
