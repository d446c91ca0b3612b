/* SPDX-License-Identifier: MIT */
/*
 * readperf: opening a perf.data file and reading its records.
 *
 * Format: tools/perf/Documentation/perf.data-file-format.txt (the
 * container: perf_file_header, perf_file_attr, feature sections) and the
 * kernel's include/uapi/linux/perf_event.h (perf_event_attr, records).
 *
 * A session owns the mapping of the file, the attrs (one struct rp_evsel
 * per perf_file_attr), the decoded header features and the reader state.
 * rp_session_next() is a pull iterator over decoded records, in time order
 * by default (perf's FINISHED_ROUND rounds) or in file order.
 */
#ifndef READPERF_SESSION_H
#define READPERF_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/api.h>
#include <readperf/error.h>
#include <readperf/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* perf_event_attr bit flags (the u64 after read_format), by bit number. */
#define RP_ATTR_DISABLED (1ull << 0)
#define RP_ATTR_INHERIT (1ull << 1)
#define RP_ATTR_PINNED (1ull << 2)
#define RP_ATTR_EXCLUSIVE (1ull << 3)
#define RP_ATTR_EXCLUDE_USER (1ull << 4)
#define RP_ATTR_EXCLUDE_KERNEL (1ull << 5)
#define RP_ATTR_EXCLUDE_HV (1ull << 6)
#define RP_ATTR_EXCLUDE_IDLE (1ull << 7)
#define RP_ATTR_MMAP (1ull << 8)
#define RP_ATTR_COMM (1ull << 9)
#define RP_ATTR_FREQ (1ull << 10)
#define RP_ATTR_INHERIT_STAT (1ull << 11)
#define RP_ATTR_ENABLE_ON_EXEC (1ull << 12)
#define RP_ATTR_TASK (1ull << 13)
#define RP_ATTR_WATERMARK (1ull << 14)
#define RP_ATTR_PRECISE_IP_SHIFT 15 /* two bits */
#define RP_ATTR_MMAP_DATA (1ull << 17)
#define RP_ATTR_SAMPLE_ID_ALL (1ull << 18)
#define RP_ATTR_EXCLUDE_HOST (1ull << 19)
#define RP_ATTR_EXCLUDE_GUEST (1ull << 20)
#define RP_ATTR_EXCLUDE_CALLCHAIN_KERNEL (1ull << 21)
#define RP_ATTR_EXCLUDE_CALLCHAIN_USER (1ull << 22)
#define RP_ATTR_MMAP2 (1ull << 23)
#define RP_ATTR_COMM_EXEC (1ull << 24)
#define RP_ATTR_USE_CLOCKID (1ull << 25)
#define RP_ATTR_CONTEXT_SWITCH (1ull << 26)
#define RP_ATTR_WRITE_BACKWARD (1ull << 27)
#define RP_ATTR_NAMESPACES (1ull << 28)
#define RP_ATTR_KSYMBOL (1ull << 29)
#define RP_ATTR_BPF_EVENT (1ull << 30)
#define RP_ATTR_AUX_OUTPUT (1ull << 31)
#define RP_ATTR_CGROUP (1ull << 32)
#define RP_ATTR_TEXT_POKE (1ull << 33)
#define RP_ATTR_BUILD_ID (1ull << 34)
#define RP_ATTR_INHERIT_THREAD (1ull << 35)
#define RP_ATTR_REMOVE_ON_EXEC (1ull << 36)
#define RP_ATTR_SIGTRAP (1ull << 37)
#define RP_ATTR_DEFER_CALLCHAIN (1ull << 38) /* user callchains come deferred */
#define RP_ATTR_DEFER_OUTPUT (1ull << 39)    /* CALLCHAIN_DEFERRED records */

/* perf_event_attr.type values. */
#define RP_TYPE_HARDWARE 0u
#define RP_TYPE_SOFTWARE 1u
#define RP_TYPE_TRACEPOINT 2u
#define RP_TYPE_HW_CACHE 3u
#define RP_TYPE_RAW 4u
#define RP_TYPE_BREAKPOINT 5u

/*
 * struct perf_event_attr, host order, every field of the newest layout
 * (attr size 136).  Fields beyond the attr.size the file wrote are zero.
 */
struct rp_attr {
	uint32_t type;
	uint32_t size; /* bytes, as written (64 where the file wrote 0, as perf) */
	uint64_t config;
	uint64_t sample_period; /* or sample_freq, when flags & RP_ATTR_FREQ */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags; /* RP_ATTR_* */
	uint32_t wakeup_events;
	uint32_t bp_type;
	uint64_t config1; /* bp_addr, kprobe_func, uprobe_path */
	uint64_t config2; /* bp_len, kprobe_addr, probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user; /* bytes */
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size;
	uint32_t aux_action;
	uint64_t sig_data;
	uint64_t config3;
};

/* One event of the file: an attr, its sample ids and its name. */
struct rp_evsel;

/* Index of the evsel in the file's attr section, from 0. */
RP_API int rp_evsel_idx(const struct rp_evsel *evsel);
/* The attr; valid for the session's lifetime. */
RP_API const struct rp_attr *rp_evsel_attr(const struct rp_evsel *evsel);
/*
 * The event's name as perf prints it: from EVENT_DESC when the file has
 * it, else built from type and config ("cpu-clock", "cycles",
 * "raw 0x..."), with perf's modifier suffix (":u", ":k", ...).  Valid for
 * the session's lifetime.
 */
RP_API const char *rp_evsel_name(const struct rp_evsel *evsel);
/* The sample ids of this evsel (perf_file_attr.ids); *nr gets the count. */
RP_API const uint64_t *rp_evsel_ids(const struct rp_evsel *evsel, size_t *nr);
/*
 * The unit and scale a pipe stream's EVENT_UPDATE gave the event (perf
 * stat's "MiB", 1/1048576); NULL and 1.0 when none.  Valid for the
 * session's lifetime.
 */
RP_API const char *rp_evsel_unit(const struct rp_evsel *evsel);
RP_API double rp_evsel_scale(const struct rp_evsel *evsel);

/* Header feature bits: perf's HEADER_* (tools/perf/util/header.h). */
enum rp_feature {
	RP_FEAT_TRACING_DATA = 1,
	RP_FEAT_BUILD_ID = 2,
	RP_FEAT_HOSTNAME = 3,
	RP_FEAT_OSRELEASE = 4,
	RP_FEAT_VERSION = 5,
	RP_FEAT_ARCH = 6,
	RP_FEAT_NRCPUS = 7,
	RP_FEAT_CPUDESC = 8,
	RP_FEAT_CPUID = 9,
	RP_FEAT_TOTAL_MEM = 10,
	RP_FEAT_CMDLINE = 11,
	RP_FEAT_EVENT_DESC = 12,
	RP_FEAT_CPU_TOPOLOGY = 13,
	RP_FEAT_NUMA_TOPOLOGY = 14,
	RP_FEAT_BRANCH_STACK = 15,
	RP_FEAT_PMU_MAPPINGS = 16,
	RP_FEAT_GROUP_DESC = 17,
	RP_FEAT_AUXTRACE = 18,
	RP_FEAT_STAT = 19,
	RP_FEAT_CACHE = 20,
	RP_FEAT_SAMPLE_TIME = 21,
	RP_FEAT_MEM_TOPOLOGY = 22,
	RP_FEAT_CLOCKID = 23,
	RP_FEAT_DIR_FORMAT = 24,
	RP_FEAT_BPF_PROG_INFO = 25,
	RP_FEAT_BPF_BTF = 26,
	RP_FEAT_COMPRESSED = 27,
	RP_FEAT_CPU_PMU_CAPS = 28,
	RP_FEAT_CLOCK_DATA = 29,
	RP_FEAT_HYBRID_TOPOLOGY = 30,
	RP_FEAT_PMU_CAPS = 31,
	RP_FEAT_CPU_DOMAIN_INFO = 32,
	RP_FEAT_BITS = 256,
};

/* One entry of the BUILD_ID feature (perf's build_id_event). */
struct rp_build_id_entry {
	uint32_t pid;  /* -1 (host kernel) or a process */
	uint16_t misc; /* cpumode of the dso (RP_MISC_KERNEL, RP_MISC_USER..) */
	uint8_t size;  /* bytes of build_id, 1..20 */
	uint8_t build_id[20];
	const char *filename;
};

/* One entry of the GROUP_DESC feature (perf record -e '{a,b}'). */
struct rp_group_desc {
	const char *name;    /* "{anon_group}" for a group without a name */
	uint32_t leader_idx; /* evsel index of the leader */
	uint32_t nr_members; /* leader included */
};

/*
 * Decoded header features.  Strings are NULL when the feature is absent;
 * all pointers are valid for the session's lifetime.
 */
struct rp_header_info {
	const char *hostname, *osrelease, *version, *arch;
	const char *cpudesc, *cpuid;
	uint32_t nr_cpus_available, nr_cpus_online; /* NRCPUS */
	uint64_t total_mem;                         /* kB, TOTAL_MEM */
	uint32_t cmdline_argc;
	const char *const *cmdline_argv;            /* CMDLINE */
	uint8_t has_sample_time;
	uint64_t sample_time_first, sample_time_last; /* ns, SAMPLE_TIME */
	size_t nr_build_ids;
	const struct rp_build_id_entry *build_ids;  /* BUILD_ID */
	/* GROUP_DESC, only groups of more than one member (as perf keeps
	 * them); nr_groups 0 when the file has no groups. */
	size_t nr_groups;
	const struct rp_group_desc *groups;
};

enum rp_order {
	RP_ORDER_TIME = 0, /* time order by rounds, as perf report delivers */
	RP_ORDER_FILE = 1, /* file order, nothing queued (dump, stats) */
};

/*
 * Options for rp_session_open().  sz must be sizeof(struct
 * rp_session_opts) of the caller's header, so that fields can be added.
 */
struct rp_session_opts {
	size_t sz;
	enum rp_order order;
	/*
	 * Most records queued for time ordering before the oldest half is
	 * delivered regardless of rounds (a writer that never emits
	 * FINISHED_ROUND); 0 selects RP_QUEUE_MAX_DEFAULT.
	 */
	uint64_t max_queued;
	/*
	 * Deferred callchains (perf_event_attr.defer_callchain, Linux 6.19):
	 * a sample whose callchain ends with RP_CONTEXT_USER_DEFERRED and a
	 * cookie is held until the CALLCHAIN_DEFERRED record of its thread
	 * arrives, then delivered with the user callchain appended, after that
	 * record (perf report and perf script do so by default).  Non-zero
	 * turns this off: every record is delivered as read (perf report -D,
	 * perf script --no-merge-callchains, perf inject).
	 */
	uint32_t no_merge_deferred;
	/*
	 * Most samples held waiting for their deferred callchain; a sample
	 * past it is delivered at once without merging (and counted in
	 * stats.nr_deferred_over_cap).  0 selects RP_DEFERRED_MAX_DEFAULT.
	 * The bytes held are capped by RP_DEFERRED_MAX_BYTES as well.
	 */
	uint64_t max_deferred;
};

/* Default cap on queued records: 2 Mi records (56 bytes each, and as much
 * again for the merge buffer: 224 MiB). */
#define RP_QUEUE_MAX_DEFAULT (2ull << 20)
/* Default cap on samples held for their deferred callchain. */
#define RP_DEFERRED_MAX_DEFAULT (64ull << 10)
/* Cap on the bytes of the samples held for their deferred callchain. */
#define RP_DEFERRED_MAX_BYTES (64ull << 20)

/*
 * What the reader met, for stats and diagnostics.  Counts are by record
 * type, records inside compressed records included.
 */
struct rp_session_stats {
	uint64_t nr_unknown_records; /* types readperf does not know */
	uint64_t nr_unknown_id;      /* records whose sample id matched no attr */
	uint64_t nr_unordered;       /* records older than the last flush */
	uint64_t bytes_skipped;      /* data bytes not read after an error */
	uint64_t nr_lost;            /* sum of LOST.lost */
	uint64_t nr_lost_samples;    /* sum of LOST_SAMPLES.lost */
	/* Samples waiting for a deferred callchain (CALLCHAIN_DEFERRED):
	 * delivered merged; delivered as they are (another cookie came for
	 * their thread, or the data ended); delivered at once because the held
	 * samples reached the cap (opts.max_deferred, RP_DEFERRED_MAX_BYTES). */
	uint64_t nr_deferred_merged;
	uint64_t nr_deferred_unmatched;
	uint64_t nr_deferred_over_cap;
	/*
	 * A recording cut short: a file-mode header whose data size is 0
	 * (perf record writes 0 first and the real size, with the feature
	 * sections after the data, only when it finishes: it was killed, the
	 * machine stopped, the disk filled).  cut_short is then 1, known from
	 * rp_session_open() on; the records are read from the data offset up to
	 * the last whole record, the header features are taken as absent, and
	 * the end of the data is not an error.  bytes_recovered: bytes of
	 * whole records read (every data file of a directory; after an error,
	 * up to and with the record that stopped the reader), counted as each
	 * data file ends; bytes_cut: bytes after the last whole record of each data
	 * file (a record the end of the file cut, or bytes that are no record:
	 * size below 8 or not a multiple of 8, type 0), not read.
	 */
	uint64_t cut_short;
	uint64_t bytes_recovered;
	uint64_t bytes_cut;
};

struct rp_session;

/*
 * Opens a perf.data file and reads its header, attrs, ids and feature
 * sections.  Three kinds of input:
 * - a file: file mode (PERFILE2 header of 104 bytes, mapped), or pipe mode
 *   written to a file (a header of 16 bytes: attrs, features, event names
 *   and build-ids come as records);
 * - "-": a pipe-mode stream on standard input (also any path that is a
 *   pipe or a character device), read in blocks, never seeked;
 * - a directory written by `perf record --threads` (or --kcore): its
 *   `data` file gives the header, its `data.N` files more records, all
 *   merged in time order as perf merges them.
 * In pipe mode the header records at the start of the stream are read at
 * open (and delivered first by rp_session_next()), so that the evsels and
 * rp_session_header() are known before the first record; attrs and
 * features that come later add to them as they are read
 * (rp_session_nr_evsels() may grow).
 *
 * path: the file, "-" or a directory; NULL means "perf.data".
 * opts: NULL for defaults.
 * out: receives the session, to be freed with rp_session_close().
 * err: may be NULL; receives details on failure (the session does not
 *      exist then).
 * Returns 0, or RP_ERR_IO, RP_ERR_BAD_MAGIC, RP_ERR_UNSUPPORTED (PERFFILE
 * version 1), RP_ERR_TRUNCATED, RP_ERR_CORRUPT, RP_ERR_LIMIT,
 * RP_ERR_NOMEM, RP_ERR_INVAL.
 */
RP_API int rp_session_open(struct rp_session **out, const char *path,
		    const struct rp_session_opts *opts, struct rp_error *err);

/* Frees the session and everything it returned.  NULL is allowed. */
RP_API void rp_session_close(struct rp_session *session);

/*
 * Reads the next record: *ev points to it, decoded, in memory the session
 * owns, valid until the next call or rp_session_close() (as libperf's
 * perf_mmap__read_event()); its pointers (raw data, callchain, names)
 * point into the file's mapping or the session's buffers, valid as long.
 * *ev is NULL when nothing was read.
 * Returns 1 for a record, 0 at the end of the data, or a negative enum
 * rp_err: a corrupt record stops the reader, but every record read before
 * it is delivered first; rp_session_error() then names the offset and the
 * record type, and stats->bytes_skipped the bytes left unread.  A
 * recording cut short (stats->cut_short) ends, without an error, at its
 * last whole record.
 */
RP_API int rp_session_next(struct rp_session *session, const struct rp_event **ev);

/*
 * Records of PERF_RECORD_* type `type` read so far (every data file of a
 * directory; records of types readperf does not know are counted in
 * rp_session_stats.nr_unknown_records instead).  0 for types above
 * RP_RECORD_MAX.
 */
RP_API uint64_t rp_session_nr_records(const struct rp_session *session, uint32_t type);

/*
 * Turns merging of deferred callchains on (merge != 0) or off, as
 * opts.no_merge_deferred does at open, for a caller that gets the session
 * opened by someone else (a dump shows raw records).  Only before the
 * first rp_session_next().  Returns 0, or RP_ERR_INVAL after it.
 */
RP_API int rp_session_set_merge_deferred(struct rp_session *session, int merge);

/* The error of the last failed call; code 0 when none. */
RP_API const struct rp_error *rp_session_error(const struct rp_session *session);

RP_API const struct rp_header_info *rp_session_header(const struct rp_session *session);
RP_API const struct rp_session_stats *rp_session_stats(const struct rp_session *session);

RP_API size_t rp_session_nr_evsels(const struct rp_session *session);
/* Evsel i, 0 <= i < rp_session_nr_evsels(); NULL when out of range. */
RP_API const struct rp_evsel *rp_session_evsel(const struct rp_session *session, size_t i);

/* Whether the input is a pipe-mode stream or file (header of 16 bytes). */
RP_API int rp_session_is_pipe(const struct rp_session *session);
/* Whether the input is a directory (perf record --threads, --kcore). */
RP_API int rp_session_is_dir(const struct rp_session *session);
/* Files read: 1, or for a directory 1 + the number of data.N files. */
RP_API size_t rp_session_nr_data_files(const struct rp_session *session);
/*
 * The path of data file i (0 <= i < rp_session_nr_data_files(), the
 * rp_event.input of its records) as perf names it in `perf report -D`:
 * the path given to rp_session_open() for a file or a stream, and
 * "PATH/data", "PATH/data.N" for a directory.  NULL when i is out of
 * range.  Valid for the session's lifetime.
 */
RP_API const char *rp_session_data_file(const struct rp_session *session, size_t i);
/*
 * The path of DIR/kcore_dir/kallsyms when the input is a directory that
 * holds it (perf record --kcore): the kernel symbols of the recording
 * machine, for the symbols stage.  NULL otherwise.  Valid for the
 * session's lifetime.
 */
RP_API const char *rp_session_kcore_kallsyms(const struct rp_session *session);

/* The path given to rp_session_open (or "perf.data"). */
RP_API const char *rp_session_path(const struct rp_session *session);
/* Size of the input in bytes (of the main file for a directory; of what
 * was read so far for a stream). */
RP_API uint64_t rp_session_size(const struct rp_session *session);
/* File offset and size (bytes) of the data section (pipe mode: 16 and
 * the rest of the file, 0 for a stream). */
RP_API uint64_t rp_session_data_offset(const struct rp_session *session);
RP_API uint64_t rp_session_data_size(const struct rp_session *session);

/* Whether feature bit `feat` (0..255) is set in the header. */
RP_API int rp_session_has_feature(const struct rp_session *session, unsigned feat);
/*
 * The raw section of feature `feat`: *offset (file offset; pipe mode:
 * the input offset of the HEADER_FEATURE record's payload) and *size
 * (bytes).  Returns 0, or RP_ERR_INVAL when the bit is not set.
 */
RP_API int rp_session_feature_section(const struct rp_session *session, unsigned feat,
			       uint64_t *offset, uint64_t *size);
/*
 * The bytes of feature `feat`'s section, in the file's byte order (see
 * rp_session_needs_swap()); *size gets their count.  NULL when the bit is
 * not set or the section lies outside the file.  Valid for the session's
 * lifetime.
 */
RP_API const void *rp_session_feature_data(const struct rp_session *session, unsigned feat,
				    size_t *size);
/* Whether the file's byte order differs from the host's. */
RP_API int rp_session_needs_swap(const struct rp_session *session);
/* A feature's perf name ("HOSTNAME"), or NULL for unknown bits. */
RP_API const char *rp_feature_name(unsigned feat);

#ifdef __cplusplus
}
#endif

#endif
