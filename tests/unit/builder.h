/* SPDX-License-Identifier: MIT */
/*
 * Test helper: builds perf.data bytes (headers, attrs, records, samples)
 * in either byte order, so that unit tests run on buffers they made.
 *
 * Byte order: a tb_buf with swap set writes every integer in the byte
 * order that is not the host's, the way a perf of the other endianness
 * writes it.  Two things are not plain integer swaps and the helpers
 * below do them the way such a writer lays them out:
 * - the perf_event_attr flag bitfield (the u64 after read_format): a
 *   big-endian compiler allocates bitfields from the most significant bit
 *   of each byte, so the bytes stay in order and the bits in each byte
 *   reverse (tb_attr);
 * - the perf_branch_entry flags bitfield: its fields keep their order but
 *   run from the most significant bit of the u64 (tb_branch_flags_file).
 *
 * Format: tools/perf/Documentation/perf.data-file-format.txt and the
 * kernel's include/uapi/linux/perf_event.h.
 */
#ifndef RP_TEST_BUILDER_H
#define RP_TEST_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/event.h>
#include <readperf/session.h>

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
/* Ends a record without padding (records perf writes unaligned). */
void tb_rec_end_nopad(struct tb_buf *b, size_t start);
/* Writes the buffer to a new temporary file; returns its malloc'd path. */
char *tb_write_tmp(const struct tb_buf *b);
/* Writes the buffer to `path` (created or truncated); aborts on failure. */
void tb_write_file(const struct tb_buf *b, const char *path);

/* ---- perf_event_attr ---- */

/* Size of each perf_event_attr layout perf has written (VER0 .. VER8). */
#define TB_ATTR_SIZE_VER0 64u
#define TB_ATTR_SIZE_MAX 136u
extern const uint32_t tb_attr_sizes[9];

/*
 * Writes `bytes` bytes of the attr's 136-byte layout (zeros past 136);
 * the size field written is a->size as given.  The flag bitfield follows
 * the writer's byte order as described above.
 */
void tb_attr(struct tb_buf *b, const struct rp_attr *a, uint32_t bytes);
/* A sampling attr as perf record makes it: cpu-clock, freq 4000, sample_id_all. */
struct rp_attr tb_attr_default(uint64_t sample_type);

/* ---- header feature bodies ---- */

/* perf's string: u32 length (NUL included, padded to 64) and the bytes. */
void tb_feat_string(struct tb_buf *b, const char *s);

/* ---- samples ---- */

/*
 * The fields of one PERF_RECORD_SAMPLE in host order; tb_sample writes
 * the fields whose bits are in attr->sample_type, in the kernel's order.
 */
struct tb_sample {
	uint64_t identifier; /* PERF_SAMPLE_IDENTIFIER; defaults to id */
	int has_identifier;  /* use `identifier` rather than id */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	/* READ: value (or group nr from read_nr), times, values */
	uint64_t read_time_enabled, read_time_running;
	uint64_t read_nr; /* entries with PERF_FORMAT_GROUP, else 1 */
	uint64_t read_value[8], read_id[8], read_lost[8];
	uint64_t callchain_nr;
	const uint64_t *callchain;
	uint32_t raw_size;
	const void *raw;
	uint64_t branch_nr, branch_hw_idx;
	const struct rp_branch_entry *branches; /* host-order flags */
	const uint64_t *branch_counters;
	uint64_t regs_user_abi;
	const uint64_t *regs_user; /* popcount(sample_regs_user) values */
	uint64_t stack_size;       /* bytes */
	const void *stack;
	uint64_t stack_dyn_size;
	uint64_t weight; /* WEIGHT, or WEIGHT_STRUCT's full u64 */
	uint64_t data_src, transaction;
	uint64_t regs_intr_abi;
	const uint64_t *regs_intr;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t aux_size;
	const void *aux;
};

/* Writes the sample body (no record header) for attr. */
void tb_sample_body(struct tb_buf *b, const struct rp_attr *attr, const struct tb_sample *s);
/* Writes a whole PERF_RECORD_SAMPLE; returns its offset in b. */
size_t tb_sample(struct tb_buf *b, const struct rp_attr *attr, uint16_t misc,
		 const struct tb_sample *s);

/* The branch flags word as the writer's byte order stores it, host order. */
uint64_t tb_branch_flags_file(uint64_t host_flags, int swap);

/*
 * The sample_id_all trailer of a non-sample record for attr (TID, TIME,
 * ID, STREAM_ID, CPU, IDENTIFIER), from the fields of s.  Writes nothing
 * when the attr has no sample_id_all.
 */
void tb_sample_id(struct tb_buf *b, const struct rp_attr *attr, const struct tb_sample *s);

/*
 * Writes a PERF_RECORD_CALLCHAIN_DEFERRED (misc PERF_RECORD_MISC_USER, as
 * the kernel writes it): cookie, nr, the nr ips, then the sample_id_all
 * trailer of attr from sid.  Returns its offset in b.
 * Format: perf_event.h (Linux 6.19), PERF_RECORD_CALLCHAIN_DEFERRED.
 */
size_t tb_callchain_deferred(struct tb_buf *b, const struct rp_attr *attr, uint64_t cookie,
			     uint64_t nr, const uint64_t *ips, const struct tb_sample *sid);

/* ---- whole files ---- */

#define TB_MAX_ATTRS 16
#define TB_MAX_IDS 16

struct tb_file_attr {
	struct rp_attr attr;
	uint32_t bytes; /* bytes of attr written; 0: attr.size (64 if 0) */
	uint64_t ids[TB_MAX_IDS];
	size_t nr_ids;
};

/*
 * A file-mode perf.data in the making.  Layout written by tb_file_build,
 * as perf writes it: header (104 bytes), the ids of every attr, the attrs
 * section, the data section, the feature index (one perf_file_section per
 * feature bit set, in bit order) and the feature bodies.
 */
struct tb_file {
	int swap;
	uint64_t attr_stride;   /* header.attr_size; 0: first attr's bytes + 16 */
	uint64_t header_size;   /* 0: 104 */
	int magic_v1;           /* write "PERFFILE" instead of PERFILE2 */
	struct tb_file_attr attrs[TB_MAX_ATTRS];
	size_t nr_attrs;
	struct tb_buf data;     /* the data section: records */
	struct tb_buf feat[RP_FEAT_BITS];
	uint8_t has_feat[RP_FEAT_BITS];
	/* Offsets in the built file, set by tb_file_build. */
	uint64_t off_ids, off_attrs, off_data, off_feat_index;
};

void tb_file_init(struct tb_file *f, int swap);
void tb_file_free(struct tb_file *f);
/* Adds an attr with its ids; returns its index. */
size_t tb_file_attr(struct tb_file *f, const struct rp_attr *attr, const uint64_t *ids,
		    size_t nr_ids);
/* The body buffer of feature `feat` (sets its bit). */
struct tb_buf *tb_file_feat(struct tb_file *f, unsigned feat);
/* Builds the file bytes into out (initialised here). */
void tb_file_build(struct tb_file *f, struct tb_buf *out);
/* Builds and writes to a temporary file; returns its malloc'd path. */
char *tb_file_write_tmp(struct tb_file *f);

/* ---- reading back ---- */

/* Opens path with the given order (and max_queued, 0 = default). */
struct rp_session *tb_open(const char *path, enum rp_order order, uint64_t max_queued);
/*
 * Builds f, opens it in file order and returns the session; the temporary
 * file is removed at once (the session keeps it mapped or open).
 */
struct rp_session *tb_file_open(struct tb_file *f, enum rp_order order);
/* Opens, expecting failure: returns the code and fills err. */
int tb_open_err(const char *path, struct rp_error *err);

/* What tb_collect keeps of each delivered event (the rest is a view). */
struct tb_seen {
	uint32_t type;
	uint16_t misc, size;
	uint64_t nr, offset;
	uint64_t present, time; /* ev->sid */
	uint64_t ip;            /* SAMPLE ip, else 0 */
	const struct rp_evsel *evsel;
};

/*
 * Reads events until the end or an error, keeping at most max of them;
 * returns how many were read (all of them, even past max) and stores the
 * last return of rp_session_next() in *rc.
 */
size_t tb_collect(struct rp_session *s, struct tb_seen *seen, size_t max, int *rc);

/*
 * rp_session_next() with the record copied into *ev, which the test owns
 * (rp_session_next() points into the session, valid until the next call).
 */
static inline int rp_test_next(struct rp_session *s, struct rp_event *ev)
{
	const struct rp_event *p;
	int ret = rp_session_next(s, &p);

	if (ret > 0)
		*ev = *p;
	return ret;
}

#endif
