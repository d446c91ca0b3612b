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
#include "format/deferred.h"
#include "format/zchunk.h"

/* Caps on what the container can claim (bytes or counts). */
#define RP_MAX_ATTRS 65536u          /* perf_file_attr entries */
#define RP_MAX_IDS_PER_ATTR (1u << 20)
#define RP_MAX_FEATURE_SIZE (256u << 20) /* bytes of one feature section */
#define RP_MAX_STRINGS 65536u        /* CMDLINE argc, EVENT_DESC entries */
#define RP_MAX_BUILD_IDS (1u << 20)
#define RP_ATTR_SIZE_VER0 64u
#define RP_ATTR_SIZE_MAX 136u        /* newest perf_event_attr known */
#define RP_STREAM_BLOCK (1u << 20)   /* bytes read from a pipe at once */
#define RP_MAX_DIR_FILES 4096u       /* data.N files of a directory */
#define RP_DIR_TURN_BYTES (2u << 20) /* bytes read from one directory file
				      * before the next (perf's READER_MAX_SIZE) */
#define RP_MAX_PRIMED (1u << 20)     /* pipe header records read ahead at open */
/* Bytes of a mapped input kept in the process behind the read position:
 * between one and two windows (a power of two, a multiple of the page). */
#define RP_MAP_WINDOW (8u << 20)

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
	/* EVENT_UPDATE (pipe mode): unit (NULL when none) and scale. */
	const char *unit;
	double scale;
};

/*
 * One input of the session: the file (mapped), standard input or a pipe
 * (read in blocks into refcounted chunks), or one data.N file of a
 * directory.  Records are views into the mapping or into a block.
 */
struct rp_input {
	char *path;            /* for errors; owned */
	int fd;
	const uint8_t *map;    /* the whole file, NULL when streamed */
	uint64_t map_size;     /* bytes */
	uint64_t pos;          /* input offset of the next record */
	uint64_t end;          /* offset past the data (mapped inputs) */
	uint8_t stream;        /* read with read(2) */
	uint8_t eof;           /* nothing more to read (streamed) */
	uint8_t done;          /* all records read, inflated ones included */
	struct rp_zchunk *blk;    /* streamed: the block being read */
	struct rp_zchunk *blocks; /* streamed: every live block */
	uint64_t turn_bytes;   /* bytes read in this turn (directories) */
	/* Mapped: the position at which the window slides next (the end of
	 * the window holding pos; 0 before the first record). */
	uint64_t next_slide;
	struct rp_zreader z;   /* records inflated from COMPRESSED(2) */
};

/* A pipe header record read ahead at open, delivered first. */
struct rp_primed {
	const uint8_t *rec;
	uint64_t off, nr;
	struct rp_zchunk *chunk;
};

/* One record waiting for its turn in the time-order queue. */
struct rp_qent {
	uint64_t time;
	uint64_t nr;
	uint64_t offset;
	const uint8_t *rec;
	const struct rp_evsel *evsel;
	struct rp_zchunk *chunk; /* holding rec, or NULL for the file */
	uint32_t input;          /* index of the input it was read from */
};

struct rp_order_queue {
	struct rp_qent *ents; /* sorted [head, nr) once flushing */
	size_t head, nr, alloc;
	uint64_t max;         /* cap on queued entries */
	uint64_t next_flush;  /* deliver up to this time at a flush */
	uint64_t max_timestamp;
	uint64_t last_flush;  /* time of the last delivered record */
	size_t flush_end;     /* entries [head, flush_end) may be delivered */
	unsigned nr_threads;  /* a large sort is split among this many */
	uint8_t sorted;
};

/* What decoding needs: the byte order, and room for host-order copies
 * of the arrays of swapped or unaligned records. */
struct rp_decoder {
	int swap;
	/* A legacy pipe stream (rp_pipe_legacy_feature()): its feature
	 * records decode as HEADER_FEATURE. */
	int legacy_feats;
	uint64_t *scratch;
	size_t scratch_alloc, scratch_used; /* u64 entries */
};

struct rp_session {
	char *path;
	int fd;
	const uint8_t *map; /* the whole file, read-only; NULL for a stream */
	uint64_t size;      /* of the file (of what was read, for a stream) */
	uint8_t swap;
	uint8_t pipe;       /* pipe-mode stream (header of 16 bytes) */
	uint8_t is_dir;     /* a directory: data and data.N */
	char *kcore_kallsyms; /* DIR/kcore_dir/kallsyms when it exists */

	/* inputs[0] is the file (or stream); data.N follow. */
	struct rp_input *inputs;
	size_t nr_inputs, cur_input;

	/* Pipe header records read ahead at open. */
	struct rp_primed *primed;
	size_t nr_primed, primed_head, primed_alloc;
	uint8_t priming;  /* reading ahead at open */
	/* Header features as records 69-81 (rp_pipe_legacy_feature()). */
	uint8_t legacy_feats;
	/* A pipe stream's evsels when its EVENT_DESC came (event_desc_seen):
	 * perf names only those from it (perf 4.x wrote its features before
	 * its attrs). */
	size_t event_desc_evsels;
	uint8_t event_desc_seen;
	struct rp_session_opts opts;

	uint64_t header_size, attr_size;
	uint64_t attrs_off, attrs_size;
	uint64_t data_off, data_size;
	/* File mode: where the data section the header claims ends, when that
	 * is past the end of the file (a cut file); else 0.  The records that
	 * are there are read, then the reader stops with RP_ERR_TRUNCATED. */
	uint64_t data_cut_end;
	/* File mode: data size 0 in the header (a recording cut short): the
	 * data runs to the end of the file, up to its last whole record, and
	 * the features were never written (stats.cut_short says so). */
	uint8_t cut_short;
	uint64_t event_types_off, event_types_size;
	uint64_t features[4]; /* the 256-bit map */
	uint64_t feat_off[RP_FEAT_BITS], feat_size[RP_FEAT_BITS];
	/* Pipe mode: feature payloads copied from HEADER_FEATURE records. */
	const uint8_t *feat_buf[RP_FEAT_BITS];
	/* Pipe mode: entries of HEADER_BUILD_ID records. */
	struct rp_build_id_entry *pipe_bids;
	size_t nr_pipe_bids, pipe_bids_alloc;

	struct rp_evsel **evsels; /* each in the arena: pointers stay valid */
	size_t nr_evsels, evsels_alloc;
	struct rp_hashmap id_map; /* sample id -> evsel */
	int id_pos, is_pos;       /* of the first evsel, as perf's evlist */
	uint8_t sample_id_all;    /* of the first evsel */

	struct rp_header_info info;
	struct rp_arena arena;    /* names, strings, ids, build-ids */

	/* The record iterator (over the inputs). */
	uint64_t nr_next;  /* nr of the next record */
	int stop_code;     /* error that ended reading, 0 when none */
	struct rp_error stop_err; /* its details */
	uint8_t eof;       /* nothing more to read from the file */
	/* An input is streamed or had compressed records: there are blocks
	 * or inflated chunks to free as their records are delivered. */
	uint8_t chunked;

	struct rp_order_queue queue;
	/* A record that made the queue flush is delivered after it. */
	const uint8_t *held_rec;
	uint64_t held_off, held_nr;
	struct rp_zchunk *held_chunk;
	uint32_t held_input;

	/* Directories: framer threads asked for (rp_session_set_threads())
	 * and, once reading began, the framers (framer.c), NULL when none. */
	unsigned nr_framers;
	struct rp_framers *framers;

	/* Samples waiting for their deferred callchain (deferred.c). */
	struct rp_deferred deferred;
	uint8_t started; /* rp_session_next() was called */
	struct rp_event event; /* what rp_session_next() points to */
	uint64_t nr_records[RP_RECORD_MAX]; /* rp_session_nr_records() */

	/* The reader's decoder (its scratch). */
	struct rp_decoder dec;
	/* Record types with a name (rp_record_type_name), looked up once. */
	uint8_t known_type[RP_RECORD_MAX];

	struct rp_session_stats stats;
	struct rp_error err;
};

/* header.c: reads and checks the container; fills evsels and info. */
int rp_header_read(struct rp_session *s);
/* Decodes the feature sections into s->info (again when they change). */
void rp_header_decode_features(struct rp_session *s);
/* Appends an evsel (arena); NULL when out of memory or over the cap. */
struct rp_evsel *rp_session_add_evsel(struct rp_session *s);

/* pipe.c: applies a pipe header record (HEADER_ATTR, HEADER_FEATURE,
 * HEADER_BUILD_ID, HEADER_EVENT_TYPE, EVENT_UPDATE) to the session.
 * Returns 0 or a negative error with s->err set. */
int rp_pipe_apply(struct rp_session *s, const uint8_t *rec, uint32_t size, uint64_t off);
/* Whether a record type is one of the pipe header records. */
int rp_pipe_header_type(uint32_t type);
/*
 * The header feature bit a record of raw type `type` carries in the
 * legacy pipe streams of Google's perf 3.x (ChromeOS quipper's "piped"
 * format), whose header features came as records numbered before
 * upstream perf took those numbers (4.1 on: ID_INDEX = 69 ...
 * HEADER_FEATURE = 80): 69..80 are HOSTNAME..NUMA_TOPOLOGY (bits 3..14)
 * and 81 PMU_MAPPINGS (bit 16), each record's payload the feature's
 * section.  -1 for other types.
 */
int rp_pipe_legacy_feature(uint32_t type);
/*
 * Whether a pipe stream whose first record has raw type `type` is such a
 * legacy stream: upstream writers start with HEADER_ATTR or
 * HEADER_FEATURE, Google's with HEADER_HOSTNAME (69) and the other
 * features in bit order, all before its attrs.
 */
int rp_pipe_legacy_first(uint32_t type);
/* Default names for evsels that have none yet. */
int rp_pipe_name_evsels(struct rp_session *s);
/* "system:name" of tracepoint format ID config in the session's
 * TRACING_DATA (header.c), in its arena; NULL when not found. */
const char *rp_tracing_data_name(struct rp_session *s, uint64_t config);

/* input.c */
/* Opens path ("-" for standard input, a directory, a file) into
 * s->inputs; reads nothing of the container. */
int rp_inputs_open(struct rp_session *s);
void rp_inputs_close(struct rp_session *s);
/* Makes n bytes at the input's position readable; returns a pointer to
 * them and *avail (bytes readable there, < n only at the end), or NULL
 * with s->err set on a read error. */
const uint8_t *rp_input_peek(struct rp_session *s, struct rp_input *in, size_t n,
			     size_t *avail);
/* Consumes n bytes that rp_input_peek made readable. */
void rp_input_advance(struct rp_input *in, size_t n);
/* Mapped input: called once pos reached next_slide (old: pos before the
 * step).  Drops the window before the previous one from the process and
 * maps in the rest of the window holding pos at once (one call instead of
 * a page fault per few pages). */
void rp_input_slide(struct rp_input *in, uint64_t old);
/* Consumes n bytes (a payload after a record), copying them to dst when
 * not NULL.  Returns 0, or a negative error (RP_ERR_TRUNCATED, RP_ERR_IO). */
int rp_input_skip(struct rp_session *s, struct rp_input *in, uint64_t n, uint8_t *dst);
/* The block holding the input's position (streamed), else NULL. */
struct rp_zchunk *rp_input_block(const struct rp_input *in);
/* Frees blocks and chunks that no record needs any more. */
void rp_inputs_collect(struct rp_session *s);

/* framer.c: the data.N files of a directory framed on threads. */
/* A record framed by a framer thread: where it is, its evsel and time as
 * the reader would find them (evsel NULL and time (uint64_t)-1 for a
 * record type the reader does not queue). */
struct rp_frec {
	const uint8_t *rec;
	const struct rp_evsel *evsel;
	uint64_t time;
	uint32_t size, type;
};
/* Lets the session read on up to n threads (n >= 2; 0 or 1: one): a
 * directory's files framed on threads of their own (made when reading
 * begins), a large time-order queue sorted in slices.  Before the first
 * record. */
void rp_session_set_threads(struct rp_session *s, unsigned n);
/* Starts the framers asked for, when the session has several mapped
 * inputs; without them (or when they cannot be made) nothing changes. */
void rp_framers_start(struct rp_session *s);
/* The next record of input i from its ring: 1 with *out set, 0 when the
 * input has no ring (any more): the reader reads it from inputs[i].pos.
 * May wait for the input's framer. */
int rp_framed_next(struct rp_session *s, size_t i, struct rp_frec *out);
/* Ends the framers: the inputs they fed are left at the reader's
 * position. */
void rp_framers_stop(struct rp_session *s);

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
/*
 * The same with a decoder of the caller's and the error into *err: reads
 * nothing of the session but its byte order, so that a second thread can
 * decode records the session has read while the session reads on.  The
 * event's arrays point into the record, or into d's scratch until d's
 * next decode.  Release d with rp_decoder_release().
 */
int rp_record_decode_with(struct rp_decoder *d, struct rp_error *err, const uint8_t *rec,
			  uint64_t offset, uint64_t nr, const struct rp_evsel *evsel,
			  struct rp_event *ev);
void rp_decoder_release(struct rp_decoder *d);

/* order.c */
/* Queues a record (the fields of struct rp_qent).  Returns 0, or
 * RP_ERR_NOMEM with s->err set. */
int rp_order_push(struct rp_session *s, uint64_t time, uint64_t nr, uint64_t offset,
		  const uint8_t *rec, const struct rp_evsel *evsel, struct rp_zchunk *chunk,
		  uint32_t input);
/* Makes entries with time <= limit deliverable (all with `all`). */
void rp_order_flush(struct rp_session *s, uint64_t limit, int all);
/* The next deliverable entry, or NULL. */
static inline const struct rp_qent *rp_order_pop(struct rp_session *s)
{
	struct rp_order_queue *q = &s->queue;

	if (q->head >= q->flush_end)
		return NULL;
	return &q->ents[q->head++];
}

static inline int rp_order_empty(const struct rp_session *s)
{
	return s->queue.head == s->queue.nr;
}
void rp_order_release(struct rp_order_queue *q);

/*
 * rp_session_next() into the caller's *ev: for the pipeline, which keeps
 * several decoded records (the reader thread's, the consumers').  Same
 * returns.
 */
int rp_session_read(struct rp_session *s, struct rp_event *ev);

#endif
