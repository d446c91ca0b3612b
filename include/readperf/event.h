/* SPDX-License-Identifier: MIT */
/*
 * readperf: decoded records.
 *
 * Format: the kernel's include/uapi/linux/perf_event.h (PERF_RECORD_*,
 * PERF_SAMPLE_*, PERF_FORMAT_*) and tools/perf/util/event.h for the user
 * record types (64 and up) that perf itself writes.
 *
 * A struct rp_event is a view: its pointers point into the mapped file or
 * into a buffer of the reader, and stay valid until the next call to
 * rp_session_next() on the same session (or until the session is closed).
 * This holds for a sample whose callchain the session stitched together
 * with its PERF_RECORD_CALLCHAIN_DEFERRED record too: the merged callchain
 * and the copy of the sample record (`data`) live in session buffers that
 * the next call reuses.
 * Integers are already in host byte order.  Arrays behind pointers
 * (callchain ips, branch entries, registers, read values) are host-order,
 * 8-byte aligned copies when the file needed swapping or was unaligned, and
 * the file's own bytes otherwise.
 */
#ifndef READPERF_EVENT_H
#define READPERF_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record types: perf_event.h enum perf_event_type and perf's user types. */
enum rp_record_type {
	RP_RECORD_MMAP = 1,
	RP_RECORD_LOST = 2,
	RP_RECORD_COMM = 3,
	RP_RECORD_EXIT = 4,
	RP_RECORD_THROTTLE = 5,
	RP_RECORD_UNTHROTTLE = 6,
	RP_RECORD_FORK = 7,
	RP_RECORD_READ = 8,
	RP_RECORD_SAMPLE = 9,
	RP_RECORD_MMAP2 = 10,
	RP_RECORD_AUX = 11,
	RP_RECORD_ITRACE_START = 12,
	RP_RECORD_LOST_SAMPLES = 13,
	RP_RECORD_SWITCH = 14,
	RP_RECORD_SWITCH_CPU_WIDE = 15,
	RP_RECORD_NAMESPACES = 16,
	RP_RECORD_KSYMBOL = 17,
	RP_RECORD_BPF_EVENT = 18,
	RP_RECORD_CGROUP = 19,
	RP_RECORD_TEXT_POKE = 20,
	RP_RECORD_AUX_OUTPUT_HW_ID = 21,
	RP_RECORD_CALLCHAIN_DEFERRED = 22,
	RP_RECORD_KERNEL_MAX = 23,

	RP_RECORD_HEADER_ATTR = 64,
	RP_RECORD_HEADER_EVENT_TYPE = 65,
	RP_RECORD_HEADER_TRACING_DATA = 66,
	RP_RECORD_HEADER_BUILD_ID = 67,
	RP_RECORD_FINISHED_ROUND = 68,
	RP_RECORD_ID_INDEX = 69,
	RP_RECORD_AUXTRACE_INFO = 70,
	RP_RECORD_AUXTRACE = 71,
	RP_RECORD_AUXTRACE_ERROR = 72,
	RP_RECORD_THREAD_MAP = 73,
	RP_RECORD_CPU_MAP = 74,
	RP_RECORD_STAT_CONFIG = 75,
	RP_RECORD_STAT = 76,
	RP_RECORD_STAT_ROUND = 77,
	RP_RECORD_EVENT_UPDATE = 78,
	RP_RECORD_TIME_CONV = 79,
	RP_RECORD_HEADER_FEATURE = 80,
	RP_RECORD_COMPRESSED = 81,
	RP_RECORD_FINISHED_INIT = 82,
	RP_RECORD_COMPRESSED2 = 83,
	RP_RECORD_BPF_METADATA = 84,
	RP_RECORD_SCHEDSTAT_CPU = 85,
	RP_RECORD_SCHEDSTAT_DOMAIN = 86,
	RP_RECORD_MAX = 87,
};

/* perf_event_header.misc bits (perf_event.h). */
#define RP_MISC_CPUMODE_MASK 0x7u
#define RP_MISC_CPUMODE_UNKNOWN 0u
#define RP_MISC_KERNEL 1u
#define RP_MISC_USER 2u
#define RP_MISC_HYPERVISOR 3u
#define RP_MISC_GUEST_KERNEL 4u
#define RP_MISC_GUEST_USER 5u
#define RP_MISC_PROC_MAP_PARSE_TIMEOUT (1u << 12)
#define RP_MISC_MMAP_DATA (1u << 13)
#define RP_MISC_COMM_EXEC (1u << 13)
#define RP_MISC_FORK_EXEC (1u << 13)
#define RP_MISC_SWITCH_OUT (1u << 13)
#define RP_MISC_EXACT_IP (1u << 14)
#define RP_MISC_SWITCH_OUT_PREEMPT (1u << 14)
#define RP_MISC_MMAP_BUILD_ID (1u << 14)
#define RP_MISC_EXT_RESERVED (1u << 15)

/* perf_event_attr.sample_type bits, in the kernel's order of output. */
#define RP_SAMPLE_IP (1ull << 0)
#define RP_SAMPLE_TID (1ull << 1)
#define RP_SAMPLE_TIME (1ull << 2)
#define RP_SAMPLE_ADDR (1ull << 3)
#define RP_SAMPLE_READ (1ull << 4)
#define RP_SAMPLE_CALLCHAIN (1ull << 5)
#define RP_SAMPLE_ID (1ull << 6)
#define RP_SAMPLE_CPU (1ull << 7)
#define RP_SAMPLE_PERIOD (1ull << 8)
#define RP_SAMPLE_STREAM_ID (1ull << 9)
#define RP_SAMPLE_RAW (1ull << 10)
#define RP_SAMPLE_BRANCH_STACK (1ull << 11)
#define RP_SAMPLE_REGS_USER (1ull << 12)
#define RP_SAMPLE_STACK_USER (1ull << 13)
#define RP_SAMPLE_WEIGHT (1ull << 14)
#define RP_SAMPLE_DATA_SRC (1ull << 15)
#define RP_SAMPLE_IDENTIFIER (1ull << 16)
#define RP_SAMPLE_TRANSACTION (1ull << 17)
#define RP_SAMPLE_REGS_INTR (1ull << 18)
#define RP_SAMPLE_PHYS_ADDR (1ull << 19)
#define RP_SAMPLE_AUX (1ull << 20)
#define RP_SAMPLE_CGROUP (1ull << 21)
#define RP_SAMPLE_DATA_PAGE_SIZE (1ull << 22)
#define RP_SAMPLE_CODE_PAGE_SIZE (1ull << 23)
#define RP_SAMPLE_WEIGHT_STRUCT (1ull << 24)

/* perf_event_attr.read_format bits. */
#define RP_FORMAT_TOTAL_TIME_ENABLED (1ull << 0)
#define RP_FORMAT_TOTAL_TIME_RUNNING (1ull << 1)
#define RP_FORMAT_ID (1ull << 2)
#define RP_FORMAT_GROUP (1ull << 3)
#define RP_FORMAT_LOST (1ull << 4)

/* perf_event_attr.branch_sample_type bits that change the sample layout. */
#define RP_BRANCH_SAMPLE_HW_INDEX (1ull << 17)
#define RP_BRANCH_SAMPLE_COUNTERS (1ull << 19)

/* Callchain context markers (perf_event.h enum perf_callchain_context). */
#define RP_CONTEXT_HV ((uint64_t)-32)
#define RP_CONTEXT_KERNEL ((uint64_t)-128)
#define RP_CONTEXT_USER ((uint64_t)-512)
/* The user part of this callchain comes later in a CALLCHAIN_DEFERRED
 * record; the next (last) entry is the cookie that names it. */
#define RP_CONTEXT_USER_DEFERRED ((uint64_t)-640)
#define RP_CONTEXT_GUEST ((uint64_t)-2048)
#define RP_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define RP_CONTEXT_GUEST_USER ((uint64_t)-2560)
#define RP_CONTEXT_MAX ((uint64_t)-4095)

struct rp_evsel;

/*
 * The fields that identify a record's origin: from a SAMPLE's own fields,
 * or from the sample_id_all trailer of any other kernel record.  A field is
 * valid when its PERF_SAMPLE_* bit is set in `present`.
 */
struct rp_sample_id {
	uint64_t present; /* RP_SAMPLE_TID | RP_SAMPLE_TIME | ... */
	uint32_t pid, tid;
	uint64_t time;    /* ns, the perf clock of the recording */
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

/* PERF_SAMPLE_READ and PERF_RECORD_READ values (one counter). */
struct rp_read_value {
	uint64_t value;
	uint64_t id;   /* valid with PERF_FORMAT_ID */
	uint64_t lost; /* valid with PERF_FORMAT_LOST */
};

/*
 * A read_format block.  Without PERF_FORMAT_GROUP, nr is 1.  The values
 * are decoded lazily with rp_read_get() from `raw` (nr entries of
 * `stride` bytes each in file layout).
 */
struct rp_read {
	uint64_t read_format;
	uint64_t time_enabled; /* ns, with PERF_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running; /* ns, with PERF_FORMAT_TOTAL_TIME_RUNNING */
	uint64_t nr;
	const void *raw;
	uint32_t stride; /* bytes per entry with GROUP; 0 for a single value */
	uint8_t swap;
};

/* One PERF_SAMPLE_BRANCH_STACK entry (perf_branch_entry), flags unpacked. */
struct rp_branch_entry {
	uint64_t from, to;
	uint64_t flags; /* the raw third word: mispred, predicted, in_tx, ... */
};

/* Registers (REGS_USER / REGS_INTR): one u64 per bit set in mask. */
struct rp_regs {
	uint64_t abi; /* PERF_SAMPLE_REGS_ABI_*; 0 means no registers */
	uint64_t mask;
	uint32_t nr;
	const uint64_t *regs;
};

/*
 * A PERF_RECORD_SAMPLE, every PERF_SAMPLE_* field of perf_event.h.
 * A field is valid when its bit is in sample_type (the evsel's).
 */
struct rp_sample {
	uint64_t sample_type;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	/* The sample's period, or attr.sample_period when the file holds no
	 * PERF_SAMPLE_PERIOD (perf record -c N), as perf does. */
	uint64_t period;
	struct rp_read read;
	uint64_t callchain_nr;
	const uint64_t *callchain; /* callchain_nr ips, with context markers */
	uint32_t raw_size;         /* bytes */
	const void *raw;
	uint64_t branch_nr;
	uint64_t branch_hw_idx; /* valid when branch_has_hw_idx */
	uint8_t branch_has_hw_idx;
	const void *branch_raw; /* branch_nr perf_branch_entry, 24 bytes each */
	const uint64_t *branch_counters; /* branch_nr u64, or NULL */
	struct rp_regs regs_user;
	uint64_t stack_user_size;     /* bytes copied (the record's size field) */
	const void *stack_user;
	uint64_t stack_user_dyn_size; /* bytes valid, <= stack_user_size */
	uint64_t weight;              /* WEIGHT, or WEIGHT_STRUCT's full word */
	uint32_t weight_var1_dw;      /* WEIGHT_STRUCT parts */
	uint16_t weight_var2_w, weight_var3_w;
	uint64_t data_src;
	uint64_t transaction;
	struct rp_regs regs_intr;
	uint64_t phys_addr;
	uint64_t aux_size; /* bytes */
	const void *aux;
	uint64_t cgroup;
	uint64_t data_page_size, code_page_size; /* bytes */
	/* Copies of the branch entries in host order when the file needed
	 * swapping; see rp_sample_branch(). */
	uint8_t swap;
};

struct rp_mmap_event {
	uint32_t pid, tid;
	uint64_t start, len, pgoff; /* address, bytes, file offset (bytes) */
	/* MMAP2 only (is_mmap2): device/inode, or a build-id */
	uint8_t is_mmap2;
	uint8_t has_build_id;       /* PERF_RECORD_MISC_MMAP_BUILD_ID */
	uint8_t build_id_size;      /* bytes, <= 20 */
	uint8_t build_id[20];
	/* MMAP2 in the early layout of Linux 3.12 to 3.15 (and 3.10 kernels
	 * with MMAP2 backported): no prot and flags (both 0 here), the name
	 * right after ino_generation.  Told from the current layout by the
	 * name: the bytes where prot goes start a name (a printable
	 * character) whose NUL lies in the record's last 8 name bytes. */
	uint8_t no_prot;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	const char *filename; /* NUL-terminated within the record */
};

struct rp_comm_event {
	uint32_t pid, tid;
	uint8_t exec; /* PERF_RECORD_MISC_COMM_EXEC */
	const char *comm;
};

/* FORK and EXIT. */
struct rp_task_event {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time; /* ns */
};

struct rp_lost_event {
	uint64_t id;
	uint64_t lost; /* events lost (LOST) or samples lost (LOST_SAMPLES) */
};

struct rp_throttle_event {
	uint64_t time, id, stream_id;
};

struct rp_read_event {
	uint32_t pid, tid;
	struct rp_read values;
};

struct rp_switch_event {
	uint8_t out;     /* PERF_RECORD_MISC_SWITCH_OUT */
	uint8_t preempt; /* PERF_RECORD_MISC_SWITCH_OUT_PREEMPT */
	uint32_t next_prev_pid, next_prev_tid; /* SWITCH_CPU_WIDE only */
};

struct rp_namespaces_event {
	uint32_t pid, tid;
	uint64_t nr;
	const void *link_info; /* nr {dev, ino} u64 pairs, file layout */
	uint8_t swap;          /* the u64s need swapping (rp_load64) */
};

struct rp_cgroup_event {
	uint64_t id;
	const char *path;
};

struct rp_ksymbol_event {
	uint64_t addr;
	uint32_t len; /* bytes */
	uint16_t ksym_type;
	uint16_t flags; /* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER = 1 */
	const char *name;
};

struct rp_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct rp_text_poke_event {
	uint64_t addr;
	uint16_t old_len, new_len; /* bytes */
	const uint8_t *bytes;      /* old_len old bytes, then new_len new bytes */
};

struct rp_aux_event {
	uint64_t aux_offset, aux_size; /* bytes */
	uint64_t flags;
};

struct rp_itrace_start_event {
	uint32_t pid, tid;
};

struct rp_aux_output_hw_id_event {
	uint64_t hw_id;
};

/*
 * PERF_RECORD_CALLCHAIN_DEFERRED: the user callchain of the samples of a
 * thread (the record's sample_id tid) whose callchain ended with
 * RP_CONTEXT_USER_DEFERRED and this cookie.  ips start with
 * RP_CONTEXT_USER.
 */
struct rp_callchain_deferred_event {
	uint64_t cookie;
	uint64_t nr;
	const uint64_t *ips;
};

struct rp_id_index_entry {
	uint64_t id, idx, cpu, tid;
};

struct rp_id_index_event {
	uint64_t nr;
	const void *entries; /* nr entries of 32 bytes, file layout */
	uint8_t swap;
};

struct rp_thread_map_event {
	uint64_t nr;
	const void *entries; /* nr {u64 pid; char comm[16]} entries */
	uint8_t swap;        /* pid needs swapping */
};

/* CPU_MAP, EVENT_UPDATE, STAT*, AUXTRACE*, and others: the payload only.
 * HEADER_FEATURE: u64 feature id, then the feature's section; in the
 * legacy pipe streams of Google's perf 3.x (feature records numbered
 * 69..81, delivered as HEADER_FEATURE) the section alone. */
struct rp_payload_event {
	uint32_t size; /* bytes after the 8-byte record header */
	const void *data;
};

struct rp_event_update_event {
	uint64_t type; /* PERF_EVENT_UPDATE__UNIT=0, SCALE=1, NAME=2, CPUS=3 */
	uint64_t id;
	uint32_t size; /* bytes of data */
	const void *data;
};

struct rp_time_conv_event {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask; /* when has_ext */
	uint8_t cap_user_time_zero, cap_user_time_short;
	uint8_t has_ext;
};

struct rp_build_id_event {
	uint32_t pid;
	uint8_t build_id_size; /* bytes, <= 20 */
	uint8_t build_id[20];
	const char *filename;
};

/*
 * A decoded record.  `nr` counts records from 0 in file order (records
 * inside compressed records included); `offset` is the byte offset of the
 * record header in the file (of the enclosing compressed record for
 * records found inside one).
 */
struct rp_event {
	uint32_t type;  /* enum rp_record_type */
	uint16_t misc;
	uint16_t size;  /* bytes, header included */
	uint64_t offset;
	uint64_t nr;
	const struct rp_evsel *evsel; /* NULL when no event could be found */
	struct rp_sample_id sid;      /* from the sample or its trailer */
	const void *data;             /* the record's bytes (header included) */
	union {
		struct rp_sample sample;
		struct rp_mmap_event mmap; /* MMAP and MMAP2 */
		struct rp_comm_event comm;
		struct rp_task_event task; /* FORK and EXIT */
		struct rp_lost_event lost; /* LOST and LOST_SAMPLES */
		struct rp_throttle_event throttle;
		struct rp_read_event read;
		struct rp_switch_event sw; /* SWITCH and SWITCH_CPU_WIDE */
		struct rp_namespaces_event namespaces;
		struct rp_cgroup_event cgroup;
		struct rp_ksymbol_event ksymbol;
		struct rp_bpf_event bpf;
		struct rp_text_poke_event text_poke;
		struct rp_aux_event aux;
		struct rp_itrace_start_event itrace_start;
		struct rp_aux_output_hw_id_event aux_output_hw_id;
		struct rp_callchain_deferred_event callchain_deferred;
		struct rp_id_index_event id_index;
		struct rp_thread_map_event thread_map;
		struct rp_event_update_event event_update;
		struct rp_time_conv_event time_conv;
		struct rp_build_id_event build_id;
		struct rp_payload_event payload; /* every other type */
	} u;
	/*
	 * The data file the record was read from: 0 for the file (or a
	 * directory's `data`), i > 0 for the directory's i-th data.N file in
	 * the order the session reads them; rp_session_data_file() names it.
	 */
	uint32_t input;
	/*
	 * For a SAMPLE: RP_DEFERRED_MERGED when the session appended the user
	 * callchain of a later CALLCHAIN_DEFERRED record (the callchain keeps
	 * RP_CONTEXT_USER_DEFERRED, drops the cookie and goes on with the
	 * deferred ips, as perf merges them); RP_DEFERRED_UNMERGED when the
	 * callchain ends with a cookie that no deferred record matched (held,
	 * then delivered as it is); 0 otherwise.
	 */
	uint8_t deferred;
};

#define RP_DEFERRED_MERGED 1u
#define RP_DEFERRED_UNMERGED 2u

/* The perf name of a record type ("MMAP2", "FINISHED_ROUND"), or NULL. */
RP_API const char *rp_record_type_name(uint32_t type);

/*
 * Value i (0 <= i < read->nr) of a read_format block.
 * Format: perf_event.h, struct read_format.
 */
RP_API struct rp_read_value rp_read_get(const struct rp_read *read, uint64_t i);

/* Branch entry i (0 <= i < sample->branch_nr), host order. */
RP_API struct rp_branch_entry rp_sample_branch(const struct rp_sample *sample, uint64_t i);

/* Entry i of an ID_INDEX record, host order. */
RP_API struct rp_id_index_entry rp_id_index_get(const struct rp_id_index_event *ev, uint64_t i);

#ifdef __cplusplus
}
#endif

#endif
