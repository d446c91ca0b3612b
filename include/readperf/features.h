/* SPDX-License-Identifier: MIT */
/*
 * readperf: every header feature section (HEADER_TRACING_DATA ..
 * HEADER_CPU_DOMAIN_INFO) decoded, and the header printed as perf report
 * --header-only [-I] prints it.
 *
 * Format: tools/perf/Documentation/perf.data-file-format.txt and perf's
 * util/header.c (write_* / process_* of each feature) where the document
 * is silent.  Strings in sections are perf_header_string: u32 len, then len
 * bytes holding a NUL (padded to 64).  Counts are u32 unless said.
 *
 * A struct rp_features owns everything it points to: strings, arrays and
 * raw bytes are valid until rp_features_free().  Pointers into raw
 * sections (TRACING_DATA, BPF data, BTF) point into the session's mapping
 * when read with rp_features_read() and live as long as the session too.
 * All numbers are in host byte order.
 */
#ifndef READPERF_FEATURES_H
#define READPERF_FEATURES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <readperf/api.h>
#include <readperf/error.h>
#include <readperf/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Features 1..RP_FEATURES_LAST are decoded; index 0 is unused. */
#define RP_FEATURES_LAST 32

/* Caps on what a feature section can claim. */
#define RP_FEAT_MAX_ENTRIES 65536u   /* entries of any list (cpus, caches, ids..) */
#define RP_FEAT_MAX_IDS (1u << 20)   /* ids of one EVENT_DESC entry */
#define RP_FEAT_MAX_BITMAP_BITS (1u << 24) /* bits of one MEM_TOPOLOGY bitmap */
#define RP_FEAT_MAX_BLOB (64u << 20) /* bytes of one BPF or BTF blob */

enum rp_feat_state {
	RP_FEAT_ABSENT = 0,  /* the header's bit is clear */
	RP_FEAT_OK = 1,      /* decoded */
	RP_FEAT_DAMAGED = 2, /* bit set, section truncated or contradictory */
};

/* CPU_TOPOLOGY, per cpu (revision 2: core and socket; 3: die). */
struct rp_cpu_ids {
	uint32_t core_id, socket_id, die_id;
};

/* CACHE entry (version 1): sizes as sysfs writes them ("32K"). */
struct rp_cache_level {
	uint32_t level, line_size /* bytes */, sets, ways;
	const char *type, *size, *map;
};

/* NUMA_TOPOLOGY node. */
struct rp_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free; /* kB */
	const char *cpus;             /* cpu list as written ("0-3,8") */
};

/* PMU_MAPPINGS entry: perf_event_attr.type of a PMU. */
struct rp_pmu_mapping {
	uint32_t type;
	const char *name;
};

/* MEM_TOPOLOGY node: memory blocks of the node as a bitmap. */
struct rp_mem_node {
	uint64_t node;
	uint64_t size;    /* the writer's size field */
	uint64_t nr_bits; /* bits in the bitmap */
	const uint64_t *bits; /* nr_bits bits, bit i of word i/64 */
};

/* HYBRID_TOPOLOGY node. */
struct rp_hybrid_node {
	const char *pmu_name, *cpus;
};

/* CPU_PMU_CAPS / PMU_CAPS: "name=value" capabilities of one PMU. */
struct rp_pmu_caps {
	const char *pmu_name; /* "cpu" for CPU_PMU_CAPS */
	uint32_t nr_caps;
	const char *const *caps; /* "name=value" */
};

/* EVENT_DESC entry. */
struct rp_event_desc {
	struct rp_attr attr;
	uint16_t reserved_2; /* perf_event_attr.__reserved_2, for perf's check */
	const char *name;
	uint32_t nr_ids;
	const uint64_t *ids;
};

/* AUXTRACE index entry: where an AUXTRACE record lies in the file. */
struct rp_auxtrace_index {
	uint64_t file_offset, size; /* bytes */
};

/* BPF_PROG_INFO entry (perf_bpil: info_len, data_len, arrays, info, data). */
struct rp_bpf_prog {
	uint32_t info_len, data_len; /* bytes */
	uint64_t arrays;             /* bitmask of the arrays present in data */
	const uint8_t *info;         /* info_len bytes of struct bpf_prog_info */
	const uint8_t *data;         /* data_len bytes */
	/* Fields of bpf_prog_info (0 when info_len does not cover them). */
	uint32_t type, id, btf_id;
	uint8_t tag[8];
	char name[17];
	uint32_t nr_jited_ksyms, nr_jited_func_lens, nr_prog_tags;
	uint64_t jited_ksyms, jited_func_lens, prog_tags; /* offsets into data */
	uint32_t func_info_rec_size, nr_func_info; /* bytes, count */
	uint64_t func_info;                        /* offset into data */
};

/* BPF_BTF entry. */
struct rp_bpf_btf {
	uint32_t id, data_size; /* bytes */
	const uint8_t *data;
};

/* CPU_DOMAIN_INFO: one sched domain of a cpu. */
struct rp_sched_domain {
	uint32_t domain;
	const char *name;    /* NULL before schedstat version 17 */
	const char *cpumask; /* hex mask as /proc/schedstat prints it */
	const char *cpulist;
};

struct rp_cpu_domains {
	uint32_t cpu, nr_domains;
	const struct rp_sched_domain *domains;
};

struct rp_features {
	/* state[feat] for 1 <= feat <= RP_FEATURES_LAST. */
	uint8_t state[RP_FEATURES_LAST + 1];
	/*
	 * perf stops processing feature sections at the first one it fails
	 * to read; this is that feature (0 when none).  Later features stay
	 * unread in perf, which shows in what it prints.
	 */
	unsigned perf_stop_feat;

	/* TRACING_DATA: libtraceevent's format, kept raw. */
	const uint8_t *tracing_data;
	uint64_t tracing_data_size; /* bytes */
	/* BUILD_ID */
	size_t nr_build_ids;
	const struct rp_build_id_entry *build_ids;
	/* HOSTNAME .. CPUID */
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	/* NRCPUS */
	uint32_t nr_cpus_avail, nr_cpus_online;
	/* TOTAL_MEM, kB */
	uint64_t total_mem;
	/* CMDLINE: argv[0] is the perf binary */
	uint32_t nr_cmdline;
	const char *const *cmdline;
	/* EVENT_DESC; event_desc_ok 0 when perf would refuse the section
	 * (truncated, or an attr with reserved or unknown bits set). */
	uint32_t nr_events;
	const struct rp_event_desc *events;
	uint8_t event_desc_ok;
	/* CPU_TOPOLOGY: "sibling sockets" (package cpu lists), "sibling
	 * threads" (core cpu lists); cpus[nr_cpus] only in revision 2+ (NULL
	 * before); dies in revision 3. */
	uint32_t nr_sibling_cores, nr_sibling_threads, nr_sibling_dies;
	const char *const *sibling_cores, *const *sibling_threads, *const *sibling_dies;
	uint32_t nr_topo_cpus;
	const struct rp_cpu_ids *topo_cpus;
	uint8_t topo_has_dies;
	/* NUMA_TOPOLOGY */
	uint32_t nr_numa_nodes;
	const struct rp_numa_node *numa_nodes;
	/* PMU_MAPPINGS */
	uint32_t nr_pmu_mappings;
	const struct rp_pmu_mapping *pmu_mappings;
	/* GROUP_DESC as written (the session keeps the valid ones) */
	uint32_t nr_groups;
	const struct rp_group_desc *groups;
	/* AUXTRACE */
	uint64_t nr_auxtrace_index;
	const struct rp_auxtrace_index *auxtrace_index;
	/* CACHE */
	uint32_t cache_version, nr_caches;
	const struct rp_cache_level *caches;
	/* SAMPLE_TIME, ns */
	uint64_t first_sample_time, last_sample_time;
	/* MEM_TOPOLOGY */
	uint64_t mem_version, mem_block_size /* bytes */, nr_mem_nodes;
	const struct rp_mem_node *mem_nodes;
	/* CLOCKID: the clock's resolution field as written (perf calls it
	 * clockid_res_ns and prints it times 1000 as MHz) */
	uint64_t clockid_res_ns;
	/* DIR_FORMAT */
	uint64_t dir_version;
	/* BPF_PROG_INFO, BPF_BTF */
	uint32_t nr_bpf_progs, nr_bpf_btfs;
	const struct rp_bpf_prog *bpf_progs;
	const struct rp_bpf_btf *bpf_btfs;
	/* COMPRESSED: type 1 is zstd */
	uint32_t comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;
	/* CPU_PMU_CAPS */
	struct rp_pmu_caps cpu_pmu_caps;
	/* CLOCK_DATA: clock_tod_ns and clock_ns are the same instant (ns) */
	uint32_t clock_version, clock_clockid;
	uint64_t clock_tod_ns, clock_ns;
	/* HYBRID_TOPOLOGY */
	uint32_t nr_hybrid_nodes;
	const struct rp_hybrid_node *hybrid_nodes;
	/* PMU_CAPS */
	uint32_t nr_pmu_caps;
	const struct rp_pmu_caps *pmu_caps;
	/* CPU_DOMAIN_INFO */
	uint32_t schedstat_version, max_sched_domains, nr_cpu_domains;
	const struct rp_cpu_domains *cpu_domains;
};

/*
 * Decodes every feature the session's header announces, in bit order.
 * A damaged section marks its feature RP_FEAT_DAMAGED and is otherwise
 * ignored (as perf ignores it).  session is only read; the result may
 * point into its mapping, so free it before closing the session.
 * Returns 0, or RP_ERR_NOMEM / RP_ERR_INVAL (NULL argument), with err
 * (may be NULL) filled.
 */
RP_API int rp_features_read(struct rp_features **out, const struct rp_session *session,
		     struct rp_error *err);

/* Frees f and everything it owns.  NULL is allowed. */
RP_API void rp_features_free(struct rp_features *f);

/* Options of rp_header_fprintf(); sz is sizeof(struct rp_header_print_opts). */
struct rp_header_print_opts {
	size_t sz;
	int full;      /* -I: the topology, cache and memory features in full */
	time_t mtime;  /* "captured on": the input's modification time */
	int is_pipe;   /* a pipe-mode stream: no file sections, no missing list */
};

/*
 * Writes what perf 6.1's `perf report --header-only [-I]` writes for the
 * session: the "# ========" banner, captured on / header version / data
 * offset / data size / feat offset, one block per feature in bit order
 * (perf's print_* functions), "# missing features: ..." and the closing
 * banner.  features comes from rp_features_read() on the same session.
 * Returns 0 or RP_ERR_IO when writing fails.
 */
RP_API int rp_header_fprintf(FILE *fp, const struct rp_session *session,
		      const struct rp_features *features,
		      const struct rp_header_print_opts *opts);

#ifdef __cplusplus
}
#endif

#endif
