/* SPDX-License-Identifier: MIT */
/*
 * The function overview: perf report's histogram (perf 6.1,
 * tools/perf/util/hist.c, sort.c, ui/stdio/hist.c, builtin-report.c).
 *
 * One histogram per evsel.  A sample goes to the entry whose sort keys
 * (comm, pid, dso, sym, cpu) equal its own, as perf merges entries; the
 * rows are then ordered and printed as `perf report --stdio --no-children
 * -g none` does.  An event group of the file (GROUP_DESC) is printed as one
 * section: the members' entries are linked into the leader's histogram
 * (perf's hists__match/hists__link) and each row shows every member's
 * share.  docs/report.md states every rule with its reason.
 */
#include "report/report_int.h"

#include <inttypes.h>
#include <pthread.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <readperf/error.h>
#include <readperf/features.h>
#include <readperf/filter.h>

#include "common/arena.h"
#include "common/array.h"
#include "common/hashmap.h"
#include "common/cursor.h"
#include "common/error_int.h"
#include "common/opts.h"
#include "common/strbuf.h"
#include "common/strpool.h"
#include "filter/filter_int.h"
#include "outputs/output_int.h"
#include "outputs/tracepoint.h"
#include "machine/machine_int.h"
#include "report/callchain_int.h"
#include "report/keys_int.h"
#include "report/memtext_int.h"
#include "report/rbsort.h"
#include "report/srctext_int.h"
#include "report/stacks_int.h"
#include "symbols/find_int.h"
#include "process_int.h"

/* Entries one evsel may hold: a file cannot make the report grow beyond. */
#define RP_REPORT_MAX_ENTRIES (64u << 20)
/* Evsels the report keeps histograms for (attrs of the file). */
#define RP_REPORT_MAX_EVSELS (1u << 16)

/* perf prints unresolved addresses with BITS_PER_LONG / 4 digits. */
#define RP_ADDR_DIGITS 16
/* perf formats a group's description into a buffer of this size. */
#define RP_GROUP_DESC_MAX 512
/* Fixed widths of perf's hpp columns (ui/hist.c), per group member. */
#define RP_WIDTH_OVERHEAD 8
#define RP_WIDTH_SAMPLES 12
#define RP_WIDTH_PERIOD 12
/* Partitions of the graphs at most (rp_report_opts.nr_threads), and the
 * distinct stacks a drain must hold to be done on several threads. */
#define RP_REPORT_MAX_PARTS 64u
#define RP_REPORT_PAR_MIN_STACKS 64u
/* Partitions per thread: a drain balances its threads' shares with them
 * (rp_report_assign_parts()). */
#define RP_REPORT_PARTS_PER_THREAD 4u
/* Every partition (a mask of rp_report_stack_part()). */
#define RP_REPORT_ALL_PARTS UINT64_MAX
/* Samples the replay log holds before their partitions take them (16
 * bytes each). */
#define RP_REPORT_REPLAY_LOG 65536u
/* perf's default call-graph threshold (percent). */
#define RP_CALL_THRESHOLD_DEFAULT 0.5

/* Keys and columns one report may have (perf's dimensions, each once). */
#define RP_MAX_DIMS 64
/* Longest --sort or -F string taken, bytes. */
#define RP_REPORT_MAX_ORDER 4096
/* perf's default --time-quantum for the time key: 100 ms, in ns. */
#define RP_TIME_QUANTUM 100000000ull
/* perf's default sort lists of branch mode and --mem-mode (util/sort.c;
 * local_p_stage_cyc, a key of other architectures, is skipped on x86). */
#define RP_BRANCH_SORT_DEFAULT "comm,dso_from,symbol_from,symbol_to,cycles"
#define RP_MEM_SORT_DEFAULT                                                          \
	"local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked," \
	"local_ins_lat,local_p_stage_cyc"
/* MAP_SHARED in an MMAP2 record's flags. */
#define RP_MAP_SHARED_FLAG 0x1u
/* perf's cacheline_size() where the machine does not say (bytes). */
#define RP_CACHELINE_DEFAULT 64u
/* An entry's mark of --symbol-filter, beside the RP_FILTERED_* of the
 * sample filters (filter.h). */
#define RP_FILTERED_SYMBOL_STR 0x100u
/* -T: READ records kept, events shown */
#define RP_REPORT_MAX_TREADS (16u << 20)
#define RP_REPORT_MAX_TCOLS 256u
/* perf's default -p pattern. */
#define RP_PARENT_DEFAULT "^sys_|^do_page_fault"

/* Slots of the per-sample entry cache (a power of two). */
#define RP_REPORT_ECACHE 1024u
/* Entries of the cache of source-line texts by location (a power of two). */

/* A group member's figures for one row of the leader. */
struct rp_pair {
	uint64_t period;
	uint64_t nr_samples;
	uint64_t acc_period; /* --children */
	/* by cpumode (--show-cpu-utilization, -F overhead_sys, ...) */
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
};

/*
 * One address of a branch or a memory sample, resolved (perf's
 * addr_map_symbol): what the branch and memory keys compare and print.
 * Symbols and DSOs belong to the resolver and the machine, which outlive
 * the report.
 */
struct rp_loc {
	uint64_t addr;        /* as sampled */
	uint64_t al_addr;     /* in its DSO's space; addr without a map */
	const char *dso_name; /* interned short name; NULL: no map */
	const struct rp_dso *dso;
	const struct rp_symbol *sym;
	uint64_t map_start, map_pgoff;
	uint32_t map_prot, map_flags;
	uint8_t has_map, identity;
	char level;
};

/* perf's branch_info: an entry of branch mode. */
struct rp_br_info {
	struct rp_loc from, to;
	uint64_t flags; /* perf_branch_entry's flags word */
	const char *srcline_from, *srcline_to; /* interned; when the keys ask */
	/* perf computes these texts only when a comparison reaches their
	 * key and prints "(null)" for an entry never compared so far:
	 * set by the comparisons (rp_cmp_brmem), which replay perf's. */
	uint8_t srcline_from_cmp, srcline_to_cmp;
};

/* perf's mem_info: an entry of --mem-mode. */
struct rp_mem_info {
	struct rp_loc daddr, iaddr;
	uint64_t data_src, phys_addr, data_page_size;
	uint8_t cpumode;
	int32_t pid; /* the thread's process (dcacheline) */
};

struct rp_hist_entry {
	struct rp_hist_entry *next; /* hash chain */
	/* In a linked group leader: one pair per member after the leader,
	 * zero where the member has no such entry; else NULL. */
	struct rp_pair *pairs;
	uint64_t hash;
	struct rp_ekey k;     /* comm, pid, dso, sym, cpu, srcline, srcfile (keys_int.h) */
	struct rp_thread *thread;
	/* perf's hist_entry.ms.map, no key: the map of the entry's last
	 * sample or frame, told apart as perf's struct map objects are (a
	 * process's maps are its own after a fork: the map with the address
	 * space it was found in, NULL for the kernel's), and its DSO
	 * (rp_hists_tree_findnew()). */
	const struct rp_map *map;
	const struct rp_maps *space;
	struct rp_dso *map_dso;
	uint64_t sample_ip;   /* the ip as sampled (addr key) */
	/* The keys below are set only when the report uses them. */
	const char *parent;   /* interned: the -p match; NULL: [other] */
	const char *trace;    /* interned tracepoint text; NULL: no tracepoint */
	uint64_t weight, transaction, time, code_page_size, cgroup, map_size;
	uint64_t cg_dev, cg_ino; /* cgroup_id */
	uint32_t ins_lat;
	int32_t socket;
	uint64_t period;
	uint64_t nr_samples;
	/* By the cpumode of the sample (overhead_sys, _us, _guest_*). */
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
	uint64_t acc_period;  /* --children: samples whose stack holds it */
	uint64_t acc_samples;
	struct rp_cnode *chain; /* the call paths, when graphs are built */
	/* The RP_FILTERED_* marks of the sample that made the entry: perf
	 * keeps those of the first sample and hides the row when set. */
	unsigned filtered;
	/* perf never made the tracepoint text before the widths were
	 * taken: the row shows it cut to the column (rp_mark_trace_cut). */
	int trace_cut;
	/* Branch mode and --mem-mode: the branch or the memory access (the
	 * report's arena); NULL otherwise. */
	const struct rp_br_info *br;
	const struct rp_mem_info *mem;
};

/* perf's sort__mode for the report. */
enum rp_report_mode {
	RP_MODE_NORMAL = 0,
	RP_MODE_BRANCH,
	RP_MODE_MEMORY,
};

struct rp_hists {
	struct rp_hashmap map; /* hash -> first entry of the chain */
	struct rp_hist_entry **entries;
	size_t nr_entries, alloc;
	uint64_t nr_samples;
	uint64_t total_period;
	/* perf's figures of the entries no filter hides (hists_stats'
	 * total_non_filtered_period, nr_non_filtered_samples and the
	 * callchain_non_filtered_period), for --percentage relative; the
	 * samples and the graphs' period leave --symbol-filter out, as perf
	 * counts them before its collapse runs that filter. */
	uint64_t nf_period, nf_samples, nf_cc_period;
	int linked; /* the members' entries are in this leader's table */
	/* perf's input tree, replayed when a key is not a total order
	 * (rp_report.nontotal): entries[i] is its node i. */
	struct rp_rbinc tree;
};

/* How one evsel is grouped, for the write. */
struct rp_evgroup {
	size_t leader;       /* hists index of the leader; itself when alone */
	uint32_t nr_members; /* leader included; 1 for an event on its own */
	const char *name;    /* the group's name; NULL: anonymous */
	int forced;          /* a --group of a file without groups */
};

struct rp_report {
	const struct rp_session *session;
	/* The entry keys: the sort keys of perf's sort list (hpp columns
	 * excluded), in its order; samples merge when all of them agree. */
	enum rp_sort_key keys[RP_MAX_DIMS];
	size_t nr_keys;
	/* perf's sort list and output columns (rp_report_lists()): the
	 * dimensions asked, and the final lists made at the first write. */
	uint8_t sort0[RP_MAX_DIMS], fields0[RP_MAX_DIMS];
	size_t nr_sort0, nr_fields0;
	uint8_t sortl[RP_MAX_DIMS], cols[RP_MAX_DIMS];
	size_t nr_sortl, nr_cols;
	int lists_children;          /* the lists were made for --children */
	int lists_made;
	int strict_fields;           /* -F without a leading '+' */
	int pre_overhead, pre_children; /* perf's setup_overhead() may prepend */
	int show_nr_samples, show_total_period, show_cpu_utilization;
	uint64_t need;               /* 1 << dim for every dimension in use */
	regex_t parent_re;
	int have_parent_re;
	regex_t ignore_re;           /* perf's --ignore-callees */
	int have_ignore_re;
	int exclude_other;
	struct rp_tp *tp;            /* trace key: tracepoint formats */
	FILE *trace_fp;              /* trace key: text of one sample */
	char *trace_buf;
	size_t trace_len;
	struct rp_hashmap cgroups;   /* cgroup id -> interned path */
	struct rp_hashmap nsmap;     /* tid -> struct rp_ns (cgroup_id) */
	const int32_t *sockets;      /* socket of each cpu (CPU_TOPOLOGY) */
	int32_t *sockets_own;
	size_t nr_sockets;
	char *field_sep;
	char *symbol_filter;         /* perf's --symbol-filter; NULL: none */
	int relative;                /* perf's --percentage relative */
	int symbol_filtered;         /* the first write marked the entries */
	double percent_limit;
	enum rp_report_group group_mode;
	uint64_t lost_samples;
	/* perf's -T: the READ records' values (show_threads) */
	int show_threads;
	struct rp_tread {
		uint32_t pid, tid;
		int evsel;
		uint64_t value;
	} *treads;
	size_t nr_treads, alloc_treads;
	struct rp_hists *hists;
	size_t nr_hists;
	struct rp_arena arena;
	struct rp_strpool pool;
	struct rp_key_names names;   /* comms and DSO names, in pool */
	int comms_overridden;        /* rp_report_override_default_comms() ran */
	/* The entries samples fell in lately, by a cheap hash of their key:
	 * a sample whose key matches one (rp_entry_same, same hists) needs
	 * no hashing and no table lookup. */
	struct {
		struct rp_hist_entry *e;
		size_t idx; /* hists index */
	} ecache[RP_REPORT_ECACHE];
	/* Call stacks (--children, call graphs). */
	int children;                /* --children asked */
	int graph;                   /* graphs built (and drawn when the file has callchains) */
	enum rp_report_call_graph graph_mode;
	int caller;                  /* drawing order: the outermost frame first */
	uint32_t max_stack;          /* perf's --max-stack (rp_chain_pick()) */
	enum rp_report_call_value call_value;
	/* -g's key (RP_CALL_KEY_*) when graphs are drawn, else function:
	 * address and srcline draw source lines */
	int call_key;
	/* (dso, address) -> struct rp_cg_src: a frame's source line for the
	 * address and srcline keys, made once per address (perf's
	 * dso->srclines) */
	struct rp_hashmap cg_srclines;
	double call_threshold;
	uint32_t call_print_limit;
	int sort_sym_first;          /* --sort starts with sym and no -F (graph) */
	struct rp_symbols *symbols;  /* for srcline, srcfile (opts) */
	int full_source_path;
	int want_srcline;            /* a key is srcline or srcfile */
	struct rp_srctext srctext;   /* srcline/srcfile texts, when want_srcline */
	int sort_cpu;                /* cpu is a sort key */
	struct rp_ctree ctree;
	/* The graphs in nr_parts partitions (RP_REPORT_PARTS_PER_THREAD for
	 * each of rp_report_opts.nr_threads): an entry's tree is built in
	 * partition rp_report_part_of(), whose ctree is r->ctree for 0 and
	 * parts[k].ctree (with an arena and a pool of its own) for the
	 * others, so that partitions can be built on threads of their own
	 * (rp_report_drain_parts(): nr_drain_threads, each with a share of
	 * the partitions balanced by the work each took at the last drain,
	 * part_work: frames added or graphs merged). */
	unsigned nr_parts, nr_drain_threads;
	uint64_t part_work[RP_REPORT_MAX_PARTS];
	struct rp_report_part {
		struct rp_arena arena;
		struct rp_strpool pool;
		struct rp_ctree ctree;
	} *parts;
	uint64_t nr_nodes; /* of every ctree */
	struct rp_stacks stacks;       /* the samples' stacks, not yet in the graphs */
	/* Replayed trees with partitions: the samples not yet added to the
	 * graphs, in record order (rp_report_replay_flush()). */
	struct rp_replay_item {
		const struct rp_stack *st; /* in stacks until the next drain */
		uint64_t period;
	} *replay_log;
	size_t nr_replay, alloc_replay;
	/* With partitions, the call graphs the collapse merges (kept gets
	 * item's), in its order, merged after it (rp_report_merge_graphs()). */
	struct rp_merge_item {
		struct rp_hist_entry *kept;
		const struct rp_hist_entry *item;
	} *merge_log;
	size_t nr_merges, alloc_merges;
	int defer_merges; /* rp_entry_merge() adds to merge_log */
	struct rp_cframe *path;        /* one sample's frames in drawing order */
	struct rp_hist_entry **seen;   /* entries one stack adds to (path_alloc + 1) */
	struct rp_stack_link *links;   /* one sample's, with a replayed input tree */
	uint32_t path_alloc;           /* frames path and links have room for */
	enum rp_report_mode mode;
	/* A key only tells equal from different (mispredict, in_tx,
	 * abort), perf computes it only when comparing (srcline_from,
	 * srcline_to), or its comparison is no order (sym without a dso
	 * key, inlined frames' entries): entries are found as perf's input
	 * tree finds them, with its comparisons. */
	int nontotal;
	int dso_key; /* dso is one of the keys */
	int need_collapse; /* perf's hists__has(need_collapse): a comm --sort key */
	int input_ordered; /* the entries are in the input tree's order */
	uint64_t cacheline_size;     /* bytes, a power of two (dcacheline) */
	char *sort_order_str;        /* --mem-mode's "# Sort order" line */
	int hierarchy;               /* perf's --hierarchy */
	unsigned hier_filters;       /* the entry filters set (RP_FILTERED_*), in hierarchy */
	/* perf's mispredict cell keeps the text of the last row it printed
	 * for a branch neither predicted nor mispredicted (a static in
	 * sort.c). */
	const char *mispredict_out;
	/* perf's branch_type_stat: branch mode's "Branch Statistics" */
	struct {
		uint64_t counts[16], new_counts[8];
		uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
	} brstat;
	/* From the filter (rp_report_set_filter): the only entry of
	 * --comms, --dsos, --symbols (perf leaves that column out), the
	 * --time string; NULL when not set. */
	struct rp_key_singles singles;
	char *time_str;
};

/* The kinds of perf's dimensions. */
enum rp_dim_kind {
	RP_DK_KEY,     /* a sort entry: entries merge by it */
	RP_DK_HPP,     /* a number column (overhead, sample, ...) */
	RP_DK_IGNORED, /* an architecture's key perf skips on x86 */
	RP_DK_BRANCH,  /* a branch-mode key: valid in branch mode only */
	RP_DK_MEM,     /* a --mem-mode key: valid with --mem-mode only */
};

/*
 * perf 6.1's dimensions in the order it tries them (util/sort.c: the
 * common keys, the hpp columns, the branch keys, the memory keys): a
 * word matches the first name it starts.  tid is readperf's own.
 */
static const struct rp_dim_name {
	const char *name;
	int dim;
	uint8_t kind;
} rp_dim_names[] = {
	{ "pid", RP_SORT_PID, RP_DK_KEY },
	{ "comm", RP_SORT_COMM, RP_DK_KEY },
	{ "dso", RP_SORT_DSO, RP_DK_KEY },
	{ "symbol", RP_SORT_SYM, RP_DK_KEY },
	{ "parent", RP_SORT_PARENT, RP_DK_KEY },
	{ "cpu", RP_SORT_CPU, RP_DK_KEY },
	{ "socket", RP_SORT_SOCKET, RP_DK_KEY },
	{ "srcline", RP_SORT_SRCLINE, RP_DK_KEY },
	{ "srcfile", RP_SORT_SRCFILE, RP_DK_KEY },
	{ "local_weight", RP_SORT_LOCAL_WEIGHT, RP_DK_KEY },
	{ "weight", RP_SORT_WEIGHT, RP_DK_KEY },
	{ "transaction", RP_SORT_TRANSACTION, RP_DK_KEY },
	{ "trace", RP_SORT_TRACE, RP_DK_KEY },
	{ "symbol_size", RP_SORT_SYM_SIZE, RP_DK_KEY },
	{ "dso_size", RP_SORT_DSO_SIZE, RP_DK_KEY },
	{ "cgroup", RP_SORT_CGROUP, RP_DK_KEY },
	{ "cgroup_id", RP_SORT_CGROUP_ID, RP_DK_KEY },
	{ "ipc_null", RP_SORT_IPC_NULL, RP_DK_KEY },
	{ "time", RP_SORT_TIME, RP_DK_KEY },
	{ "code_page_size", RP_SORT_CODE_PAGE_SIZE, RP_DK_KEY },
	{ "local_ins_lat", RP_SORT_LOCAL_INS_LAT, RP_DK_KEY },
	{ "ins_lat", RP_SORT_INS_LAT, RP_DK_KEY },
	{ "local_p_stage_cyc", -1, RP_DK_IGNORED },
	{ "p_stage_cyc", -1, RP_DK_IGNORED },
	{ "addr", RP_SORT_ADDR, RP_DK_KEY },
	{ "overhead", RP_SORT_OVERHEAD, RP_DK_HPP },
	{ "overhead_sys", RP_SORT_OVERHEAD_SYS, RP_DK_HPP },
	{ "overhead_us", RP_SORT_OVERHEAD_US, RP_DK_HPP },
	{ "overhead_guest_sys", RP_SORT_OVERHEAD_GUEST_SYS, RP_DK_HPP },
	{ "overhead_guest_us", RP_SORT_OVERHEAD_GUEST_US, RP_DK_HPP },
	{ "overhead_children", RP_SORT_OVERHEAD_CHILDREN, RP_DK_HPP },
	{ "sample", RP_SORT_SAMPLE, RP_DK_HPP },
	{ "period", RP_SORT_PERIOD, RP_DK_HPP },
	{ "dso_from", RP_SORT_DSO_FROM, RP_DK_BRANCH },
	{ "dso_to", RP_SORT_DSO_TO, RP_DK_BRANCH },
	{ "symbol_from", RP_SORT_SYM_FROM, RP_DK_BRANCH },
	{ "symbol_to", RP_SORT_SYM_TO, RP_DK_BRANCH },
	{ "mispredict", RP_SORT_MISPREDICT, RP_DK_BRANCH },
	{ "abort", RP_SORT_ABORT, RP_DK_BRANCH },
	{ "in_tx", RP_SORT_IN_TX, RP_DK_BRANCH },
	{ "cycles", RP_SORT_CYCLES, RP_DK_BRANCH },
	{ "srcline_from", RP_SORT_SRCLINE_FROM, RP_DK_BRANCH },
	{ "srcline_to", RP_SORT_SRCLINE_TO, RP_DK_BRANCH },
	{ "ipc_lbr", RP_SORT_IPC_LBR, RP_DK_BRANCH },
	{ "addr_from", RP_SORT_ADDR_FROM, RP_DK_BRANCH },
	{ "addr_to", RP_SORT_ADDR_TO, RP_DK_BRANCH },
	{ "symbol_daddr", RP_SORT_SYM_DADDR, RP_DK_MEM },
	{ "dso_daddr", RP_SORT_DSO_DADDR, RP_DK_MEM },
	{ "locked", RP_SORT_LOCKED, RP_DK_MEM },
	{ "tlb", RP_SORT_TLB, RP_DK_MEM },
	{ "mem", RP_SORT_MEM, RP_DK_MEM },
	{ "snoop", RP_SORT_SNOOP, RP_DK_MEM },
	{ "dcacheline", RP_SORT_DCACHELINE, RP_DK_MEM },
	{ "symbol_iaddr", RP_SORT_SYM_IADDR, RP_DK_MEM },
	{ "phys_daddr", RP_SORT_PHYS_DADDR, RP_DK_MEM },
	{ "data_page_size", RP_SORT_DATA_PAGE_SIZE, RP_DK_MEM },
	{ "blocked", RP_SORT_BLOCKED, RP_DK_MEM },
	{ "tid", RP_SORT_TID, RP_DK_KEY },
};

#define RP_NR_DIM_NAMES (sizeof(rp_dim_names) / sizeof(rp_dim_names[0]))

static int rp_dim_is_hpp(int dim)
{
	return dim >= RP_SORT_OVERHEAD && dim <= RP_SORT_PERIOD;
}

/* The dimension a word (len bytes) names, as perf matches it; NULL: none. */
static const struct rp_dim_name *rp_dim_lookup(const char *word, size_t len)
{
	for (size_t i = 0; i < RP_NR_DIM_NAMES; i++)
		if (len <= strlen(rp_dim_names[i].name) &&
		    !strncasecmp(word, rp_dim_names[i].name, len))
			return &rp_dim_names[i];
	return NULL;
}

/* Whether dimension d may be used in the report's mode (perf refuses
 * the branch keys outside branch mode, the memory keys outside
 * --mem-mode); mode -1 takes every key. */
static int rp_dim_allowed(const struct rp_dim_name *d, int mode)
{
	if (mode < 0)
		return 1;
	if (d->kind == RP_DK_BRANCH)
		return mode == RP_MODE_BRANCH;
	if (d->kind == RP_DK_MEM)
		return mode == RP_MODE_MEMORY;
	return 1;
}

/* The table row of a dimension. */
static const struct rp_dim_name *rp_dim_by_id(int dim)
{
	for (size_t i = 0; i < RP_NR_DIM_NAMES; i++)
		if (rp_dim_names[i].dim == dim)
			return &rp_dim_names[i];
	return NULL;
}

/*
 * Appends the dimensions of a perf list (words separated by any of
 * seps) to dims (each once, as perf takes a key once).  Returns 0 or
 * RP_ERR_INVAL (an unknown word, a key of another mode, too many).
 */
static int rp_dims_parse(const char *list, const char *seps, uint8_t *dims, size_t *nr, int mode)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, seps);

		if (!len) {
			p++;
			continue;
		}
		const struct rp_dim_name *d = rp_dim_lookup(p, len);

		p += len;
		if (!d || !rp_dim_allowed(d, mode))
			return RP_ERR_INVAL;
		if (d->kind == RP_DK_IGNORED)
			continue;
		size_t j;
		for (j = 0; j < *nr && dims[j] != d->dim; j++)
			;
		if (j < *nr)
			continue;
		if (*nr == RP_MAX_DIMS)
			return RP_ERR_INVAL;
		dims[(*nr)++] = (uint8_t)d->dim;
	}
	return 0;
}

int rp_report_parse_sort(struct rp_report_opts *opts, const char *list)
{
	uint8_t dims[RP_MAX_DIMS];
	size_t nr = 0;

	if (!opts || !list)
		return RP_ERR_INVAL;
	if (rp_dims_parse(list, ", ", dims, &nr, -1) < 0 || nr > RP_REPORT_MAX_KEYS)
		return RP_ERR_INVAL;
	for (size_t i = 0; i < nr; i++)
		opts->keys[i] = (enum rp_sort_key)dims[i];
	opts->nr_keys = nr;
	return 0;
}

/* Whether word (len bytes, not empty) starts name, as perf matches -g words. */
static int rp_word(const char *word, size_t len, const char *name)
{
	return len && len <= strlen(name) && !strncmp(word, name, len);
}

int rp_report_parse_call_graph(struct rp_report_opts *opts, const char *arg)
{
	struct rp_report_opts o;
	const char *p = arg;
	int nr_numbers = 0;

	if (!opts || !arg)
		return RP_ERR_INVAL;
	o = *opts;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (!len) {
			p++;
			continue;
		}
		/* perf tries the words in this order: modes, orders, keys,
		 * values, then numbers. */
		if (rp_word(p, len, "graph")) {
			o.call_graph = RP_CALL_GRAPH_GRAPH;
		} else if (rp_word(p, len, "flat")) {
			o.call_graph = RP_CALL_GRAPH_FLAT;
		} else if (rp_word(p, len, "fractal")) {
			o.call_graph = RP_CALL_GRAPH_FRACTAL;
		} else if (rp_word(p, len, "folded")) {
			o.call_graph = RP_CALL_GRAPH_FOLDED;
		} else if (rp_word(p, len, "none")) {
			o.call_graph = RP_CALL_GRAPH_NONE;
		} else if (rp_word(p, len, "callee")) {
			o.call_order = RP_CALL_ORDER_CALLEE;
		} else if (rp_word(p, len, "caller")) {
			o.call_order = RP_CALL_ORDER_CALLER;
		} else if (rp_word(p, len, "function")) {
			o.call_key = RP_CALL_KEY_FUNCTION;
		} else if (rp_word(p, len, "address")) {
			o.call_key = RP_CALL_KEY_ADDRESS;
		} else if (rp_word(p, len, "srcline")) {
			o.call_key = RP_CALL_KEY_SRCLINE;
		} else if (rp_word(p, len, "branch")) {
			return RP_ERR_INVAL;
		} else if (rp_word(p, len, "percent")) {
			o.call_value = RP_CALL_VALUE_PERCENT;
		} else if (rp_word(p, len, "period")) {
			o.call_value = RP_CALL_VALUE_PERIOD;
		} else if (rp_word(p, len, "count")) {
			o.call_value = RP_CALL_VALUE_COUNT;
		} else {
			char num[64], *end;

			if (len >= sizeof(num))
				return RP_ERR_INVAL;
			memcpy(num, p, len);
			num[len] = '\0';
			if (nr_numbers == 0) {
				double v = strtod(num, &end);

				if (end == num || *end || !(v >= 0.0 && v <= 100.0))
					return RP_ERR_INVAL;
				o.call_threshold = v;
				o.call_threshold_set = 1;
			} else if (nr_numbers == 1) {
				unsigned long v = strtoul(num, &end, 0);

				if (end == num || *end || v > UINT32_MAX)
					return RP_ERR_INVAL;
				o.call_print_limit = (uint32_t)v;
			} else {
				return RP_ERR_INVAL;
			}
			nr_numbers++;
		}
		p += len;
	}
	*opts = o;
	return 0;
}

/* Whether every evsel of the session is a tracepoint (perf's
 * SORT_MODE__TRACEPOINT, whose default sort is "trace"). */
static int rp_all_tracepoints(const struct rp_session *session)
{
	size_t n = session ? rp_session_nr_evsels(session) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct rp_attr *a = rp_evsel_attr(rp_session_evsel(session, i));

		if (!a || a->type != RP_TYPE_TRACEPOINT)
			return 0;
	}
	return n > 0;
}

/* Whether some evsel records call stacks (perf's combined sample_type). */
static int rp_has_callchains(const struct rp_session *session)
{
	size_t n = session ? rp_session_nr_evsels(session) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct rp_attr *a = rp_evsel_attr(rp_session_evsel(session, i));

		if (a && (a->sample_type & RP_SAMPLE_CALLCHAIN))
			return 1;
	}
	return 0;
}

/* Whether some evsel's sample_type has a bit of `bits`. */
static int rp_sample_type_any(const struct rp_session *session, uint64_t bits)
{
	size_t n = session ? rp_session_nr_evsels(session) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct rp_attr *a = rp_evsel_attr(rp_session_evsel(session, i));

		if (a && (a->sample_type & bits))
			return 1;
	}
	return 0;
}

/* perf report's has_br_stack: the BRANCH_STACK feature, unless an event
 * records user stacks. */
static int rp_report_has_branch_feature(const struct rp_session *session)
{
	return session && rp_session_has_feature(session, RP_FEAT_BRANCH_STACK) &&
	       !rp_sample_type_any(session, RP_SAMPLE_STACK_USER);
}

static int rp_dims_has(const uint8_t *dims, size_t nr, int dim)
{
	for (size_t i = 0; i < nr; i++)
		if (dims[i] == dim)
			return 1;
	return 0;
}

static int rp_dims_add(uint8_t *dims, size_t *nr, int dim)
{
	if (rp_dims_has(dims, *nr, dim))
		return 0;
	if (*nr == RP_MAX_DIMS)
		return RP_ERR_INVAL;
	dims[(*nr)++] = (uint8_t)dim;
	return 0;
}

/*
 * perf's setup_sorting() up to what does not depend on the file's call
 * stacks: the dimensions of --sort (with perf's rewrites of the string)
 * and of -F, and the entry keys.  Returns 0, RP_ERR_INVAL or
 * RP_ERR_NOMEM.
 */
static int rp_report_parse_lists(struct rp_report *r, const struct rp_report_opts *o)
{
	const char *deflt = rp_all_tracepoints(r->session)	? "trace"
			    : r->mode == RP_MODE_BRANCH		? RP_BRANCH_SORT_DEFAULT
			    : r->mode == RP_MODE_MEMORY		? RP_MEM_SORT_DEFAULT
								: "comm,dso,symbol";
	const char *fields = o->field_order;
	char *str = NULL;
	int rc = 0;

	r->strict_fields = fields && fields[0] != '+';
	if (fields && fields[0] == '+') {
		fields++;
		if (!*fields)
			return RP_ERR_INVAL;
	}
	if (o->sort_order) {
		const char *so = o->sort_order;
		size_t len = strlen(so);

		if (len > RP_REPORT_MAX_ORDER || strstr(so, "ipc"))
			return RP_ERR_INVAL;
		/* perf adds the IPC column to a list that names "symbol"
		 * (ipc_lbr in branch mode, where perf 6.1 then crashes:
		 * docs/report.md), then a leading '+' appends the list to
		 * the default one. */
		int ipc = strstr(so, "symbol") != NULL;
		int plus = so[0] == '+';

		if (plus && !so[1])
			return RP_ERR_INVAL;
		if (asprintf(&str, "%s%s%s%s", plus ? deflt : "", plus ? "," : "", so + plus,
			     !ipc ? "" : r->mode == RP_MODE_BRANCH ? ",ipc_lbr" : ",ipc_null") < 0)
			return RP_ERR_NOMEM;
		if (!(r->sort_order_str = strdup(str))) {
			free(str);
			return RP_ERR_NOMEM;
		}
		rc = rp_dims_parse(str, "{}, ", r->sort0, &r->nr_sort0, (int)r->mode);
	} else if (o->nr_keys) {
		for (size_t i = 0; i < o->nr_keys && !rc; i++) {
			const struct rp_dim_name *d = rp_dim_by_id((int)o->keys[i]);

			if ((unsigned)o->keys[i] >= RP_SORT_NR_KEYS_ || !d ||
			    !rp_dim_allowed(d, (int)r->mode))
				return RP_ERR_INVAL;
			rc = rp_dims_add(r->sort0, &r->nr_sort0, o->keys[i]);
		}
		if (!rc && !(str = strdup("")))
			return RP_ERR_NOMEM;
		/* the names, for setup_overhead()'s test below */
		for (size_t i = 0; i < r->nr_sort0 && str; i++)
			for (size_t j = 0; j < RP_NR_DIM_NAMES; j++)
				if (rp_dim_names[j].dim == r->sort0[i]) {
					char *t = NULL;

					if (asprintf(&t, "%s,%s", str, rp_dim_names[j].name) < 0)
						t = NULL;
					free(str);
					str = t;
					break;
				}
		if (!str)
			return RP_ERR_NOMEM;
	} else if (!r->strict_fields) {
		str = strdup(deflt);
		if (!str)
			return RP_ERR_NOMEM;
		rc = rp_dims_parse(str, "{}, ", r->sort0, &r->nr_sort0, (int)r->mode);
	}
	if (!rc && !r->sort_order_str) {
		/* the "# Sort order" line: the list as given, or perf's
		 * default with its keys of other architectures */
		const char *so = str && *str ? str + (*str == ',') : deflt;

		if (!(r->sort_order_str = strdup(so))) {
			free(str);
			return RP_ERR_NOMEM;
		}
	}
	/* perf's setup_overhead(): prepended unless the string holds them */
	if (!r->strict_fields) {
		r->pre_overhead = !str || !strstr(str, "overhead");
		r->pre_children = !str || !strstr(str, "overhead_children");
	}
	free(str);
	if (rc)
		return rc;
	if (o->parent_pattern && (rc = rp_dims_add(r->sort0, &r->nr_sort0, RP_SORT_PARENT)))
		return rc;
	if (fields) {
		if (strlen(fields) > RP_REPORT_MAX_ORDER)
			return RP_ERR_INVAL;
		rc = rp_dims_parse(fields, ", ", r->fields0, &r->nr_fields0, (int)r->mode);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < r->nr_sort0; i++)
		if (!rp_dim_is_hpp(r->sort0[i]))
			r->keys[r->nr_keys++] = (enum rp_sort_key)r->sort0[i];
	for (size_t i = 0; i < r->nr_fields0; i++) {
		size_t j;

		if (rp_dim_is_hpp(r->fields0[i]))
			continue;
		for (j = 0; j < r->nr_keys && r->keys[j] != r->fields0[i]; j++)
			;
		if (j == r->nr_keys)
			r->keys[r->nr_keys++] = (enum rp_sort_key)r->fields0[i];
	}
	for (size_t i = 0; i < r->nr_sort0; i++)
		r->need |= 1ull << r->sort0[i];
	for (size_t i = 0; i < r->nr_fields0; i++)
		r->need |= 1ull << r->fields0[i];
	if (r->show_cpu_utilization && !r->strict_fields)
		r->need |= 1ull << RP_SORT_OVERHEAD_SYS;
	return 0;
}

/*
 * The final sort list and columns, once the call-stack view is known:
 * perf's setup_overhead(), perf_hpp__init(), the -F columns,
 * perf_hpp__setup_output_field() and perf_hpp__append_sort_keys().
 */
static void rp_report_lists(struct rp_report *r, int children)
{
	size_t i;

	if (r->lists_made && r->lists_children == children)
		return;
	r->lists_made = 1;
	r->lists_children = children;
	r->nr_sortl = r->nr_cols = 0;
	if (!r->strict_fields) {
		if (children && r->pre_children)
			(void)rp_dims_add(r->sortl, &r->nr_sortl, RP_SORT_OVERHEAD_CHILDREN);
		if (r->pre_overhead)
			(void)rp_dims_add(r->sortl, &r->nr_sortl, RP_SORT_OVERHEAD);
	}
	for (i = 0; i < r->nr_sort0; i++)
		(void)rp_dims_add(r->sortl, &r->nr_sortl, r->sort0[i]);
	if (!r->strict_fields) {
		if (children)
			(void)rp_dims_add(r->cols, &r->nr_cols, RP_SORT_OVERHEAD_CHILDREN);
		(void)rp_dims_add(r->cols, &r->nr_cols, RP_SORT_OVERHEAD);
		if (r->show_cpu_utilization) {
			(void)rp_dims_add(r->cols, &r->nr_cols, RP_SORT_OVERHEAD_SYS);
			(void)rp_dims_add(r->cols, &r->nr_cols, RP_SORT_OVERHEAD_US);
		}
		if (r->show_nr_samples)
			(void)rp_dims_add(r->cols, &r->nr_cols, RP_SORT_SAMPLE);
		if (r->show_total_period)
			(void)rp_dims_add(r->cols, &r->nr_cols, RP_SORT_PERIOD);
	}
	for (i = 0; i < r->nr_fields0; i++)
		(void)rp_dims_add(r->cols, &r->nr_cols, r->fields0[i]);
	for (i = 0; i < r->nr_sortl; i++)
		(void)rp_dims_add(r->cols, &r->nr_cols, r->sortl[i]);
	for (i = 0; i < r->nr_cols; i++)
		(void)rp_dims_add(r->sortl, &r->nr_sortl, r->cols[i]);
}

/* The socket of each cpu, from CPU_TOPOLOGY (socket key). */
static int rp_report_load_sockets(struct rp_report *r)
{
	struct rp_features *f = NULL;
	int rc;

	if (!r->session)
		return 0;
	rc = rp_features_read(&f, r->session, NULL);
	if (rc < 0)
		return rc == RP_ERR_NOMEM ? rc : 0;
	if (f && f->topo_cpus && f->nr_topo_cpus) {
		r->sockets_own = calloc(f->nr_topo_cpus, sizeof(*r->sockets_own));
		if (!r->sockets_own) {
			rp_features_free(f);
			return RP_ERR_NOMEM;
		}
		for (uint32_t i = 0; i < f->nr_topo_cpus; i++)
			r->sockets_own[i] = (int32_t)f->topo_cpus[i].socket_id;
		r->sockets = r->sockets_own;
		r->nr_sockets = f->nr_topo_cpus;
	}
	rp_features_free(f);
	return 0;
}

int rp_report_new(struct rp_report **out, const struct rp_session *session,
		  const struct rp_report_opts *opts)
{
	struct rp_report_opts o;
	struct rp_report *r;
	int rc;

	if (!out)
		return RP_ERR_INVAL;
	*out = NULL;
	if (rp_opts_copy(&o, sizeof(o), opts) < 0)
		return RP_ERR_INVAL;
	if (o.nr_keys > RP_REPORT_MAX_KEYS)
		return RP_ERR_INVAL;
	/* perf: "--hierarchy and --fields options cannot be used together" */
	if (o.hierarchy && o.field_order)
		return RP_ERR_INVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return RP_ERR_NOMEM;
	r->session = session;
	rp_key_names_init(&r->names, &r->pool);
	r->show_nr_samples = o.show_nr_samples;
	r->show_total_period = o.show_total_period;
	r->show_cpu_utilization = o.show_cpu_utilization;
	r->exclude_other = o.exclude_other && o.parent_pattern;
	r->mispredict_out = "N/A";
	r->cacheline_size = o.cacheline_size ? o.cacheline_size : RP_CACHELINE_DEFAULT;
	if (r->cacheline_size & (r->cacheline_size - 1)) {
		free(r);
		return RP_ERR_INVAL;
	}
	/* perf's cmd_report(): branch mode by default for a file with the
	 * BRANCH_STACK feature (not when it has user stacks), and never with
	 * --mem-mode. */
	int branch = o.branch_mode > 0 ||
		     (o.branch_mode == 0 && rp_report_has_branch_feature(session));
	if (o.mem_mode && branch) {
		free(r);
		return RP_ERR_INVAL;
	}
	r->mode = o.mem_mode ? RP_MODE_MEMORY : branch ? RP_MODE_BRANCH : RP_MODE_NORMAL;
	rc = rp_report_parse_lists(r, &o);
	if (!rc && session && !rp_session_is_pipe(session) &&
	    ((r->mode == RP_MODE_BRANCH && !rp_sample_type_any(session, RP_SAMPLE_BRANCH_STACK)) ||
	     (r->mode == RP_MODE_MEMORY && !rp_sample_type_any(session, RP_SAMPLE_DATA_SRC))))
		rc = RP_ERR_UNSUPPORTED; /* perf: "Selected -b but no branch data" */
	/* Not implemented: perf makes a number column of --sort a level of
	 * its own in hierarchy mode (or, after a key, prints another layout) */
	for (size_t i = 0; !rc && o.hierarchy && i < r->nr_sort0; i++)
		if (rp_dim_is_hpp(r->sort0[i]))
			rc = RP_ERR_UNSUPPORTED;
	if (rc) {
		free(r->sort_order_str);
		free(r);
		return rc;
	}
	if (r->need & (1ull << RP_SORT_PARENT)) {
		if (regcomp(&r->parent_re, o.parent_pattern ? o.parent_pattern : RP_PARENT_DEFAULT,
			    REG_EXTENDED | REG_NOSUB)) {
			free(r->sort_order_str);
			free(r);
			return RP_ERR_INVAL;
		}
		r->have_parent_re = 1;
		/* perf refuses the key without call stacks (file mode). */
		if (session && !rp_session_is_pipe(session) && !rp_has_callchains(session)) {
			regfree(&r->parent_re);
			free(r->sort_order_str);
			free(r);
			return RP_ERR_UNSUPPORTED;
		}
	}
	if (o.ignore_callees) {
		if (regcomp(&r->ignore_re, o.ignore_callees, REG_EXTENDED | REG_NOSUB)) {
			if (r->have_parent_re)
				regfree(&r->parent_re);
			free(r->sort_order_str);
			free(r);
			return RP_ERR_INVAL;
		}
		r->have_ignore_re = 1;
	}
	r->percent_limit = o.percent_limit;
	r->symbols = o.symbols;
	r->full_source_path = o.full_source_path;
	r->want_srcline = (r->need & ((1ull << RP_SORT_SRCLINE) | (1ull << RP_SORT_SRCFILE) |
				      (1ull << RP_SORT_SRCLINE_FROM) | (1ull << RP_SORT_SRCLINE_TO))) != 0;
	/* perf turns the children view off in branch and memory mode. */
	r->children = o.children && r->mode == RP_MODE_NORMAL && !o.hierarchy;
	r->hierarchy = o.hierarchy;
	r->graph_mode = o.call_graph;
	if (r->graph_mode == RP_CALL_GRAPH_AUTO)
		r->graph_mode = RP_CALL_GRAPH_GRAPH;
	r->graph = r->graph_mode != RP_CALL_GRAPH_NONE;
	r->caller = o.call_order == RP_CALL_ORDER_CALLER ||
		    (o.call_order == RP_CALL_ORDER_DEFAULT && o.children);
	r->max_stack = o.max_stack_set ? o.max_stack : RP_DEFAULT_MAX_STACK;
	r->call_value = o.call_value;
	/* The address key draws each frame's source line (perf's
	 * callchain_srcline()), only where frames are drawn. */
	r->call_key = r->graph && (o.call_key == RP_CALL_KEY_ADDRESS ||
				   o.call_key == RP_CALL_KEY_SRCLINE)
			      ? o.call_key
			      : RP_CALL_KEY_FUNCTION;
	/* perf's --percent-limit also sets the graph's threshold. */
	r->call_threshold = o.call_threshold_set ? o.call_threshold
			    : o.percent_limit > 0 ? o.percent_limit
						  : RP_CALL_THRESHOLD_DEFAULT;
	r->call_print_limit = o.call_print_limit;
	/* perf's callchain__fprintf_graph(): no -F, --sort starting with sym */
	r->sort_sym_first = !o.field_order &&
			    (o.sort_order ? !strncmp(o.sort_order, "sym", 3)
					  : o.nr_keys && o.keys[0] == RP_SORT_SYM);
	for (size_t i = 0; i < r->nr_keys; i++)
		if (r->keys[i] == RP_SORT_CPU)
			r->sort_cpu = 1;
	/* perf's hists__has(dso): set by a --sort key only (sort_dimension__add);
	 * a dso column of -F is appended to the sort list without it. */
	r->dso_key = rp_dims_has(r->sort0, r->nr_sort0, RP_SORT_DSO);
	/* perf's hists__has(need_collapse), likewise set by a --sort key
	 * (or the default list) with a collapse function: comm.  A strict
	 * -F without --sort gives perf no sort key, only the columns
	 * appended to the list, so it never collapses, and never runs the
	 * filters of its collapse (--symbol-filter). */
	r->need_collapse = rp_dims_has(r->sort0, r->nr_sort0, RP_SORT_COMM);
	int dso_before = 0; /* a dso key already compared equal */

	for (size_t i = 0; i < r->nr_keys; i++) {
		enum rp_sort_key key = r->keys[i];

		/* Without hists__has(dso), perf's sort__sym_cmp() compares
		 * two unresolved addresses alone and any other pair by DSO
		 * first: no order across DSOs, unless a dso key before it
		 * has made them equal. */
		if (key == RP_SORT_DSO)
			dso_before = 1;
		if (key == RP_SORT_MISPREDICT || key == RP_SORT_IN_TX || key == RP_SORT_ABORT ||
		    key == RP_SORT_SRCLINE_FROM || key == RP_SORT_SRCLINE_TO ||
		    ((key == RP_SORT_SYM || key == RP_SORT_IPC_NULL || key == RP_SORT_IPC_LBR) &&
		     !r->dso_key && !dso_before))
			r->nontotal = 1;
	}
	/* The children view of unwound stacks has entries of inlined
	 * frames, which perf's sort__sym_cmp() compares by name and other
	 * entries by address: no order either (perf then shows a function
	 * in two rows where a lookup missed its entry). */
	if (r->children && rp_sample_type_any(session, RP_SAMPLE_STACK_USER))
		r->nontotal = 1;
	rp_ctree_init(&r->ctree, &r->arena, &r->pool, &r->nr_nodes);
	r->ctree.key = r->call_key;
	/* Unwound stacks have inlined frames, where perf's trees of
	 * children are no order (callchain_int.h): replayed. */
	r->ctree.replay = r->call_key == RP_CALL_KEY_FUNCTION &&
			  rp_sample_type_any(session, RP_SAMPLE_STACK_USER);
	r->nr_parts = r->nr_drain_threads = 1;
	if (o.nr_threads >= 2 && r->graph | r->children) {
		unsigned threads = o.nr_threads < RP_REPORT_MAX_PARTS ? o.nr_threads
								      : RP_REPORT_MAX_PARTS;
		unsigned parts = threads * RP_REPORT_PARTS_PER_THREAD < RP_REPORT_MAX_PARTS
					 ? threads * RP_REPORT_PARTS_PER_THREAD
					 : RP_REPORT_MAX_PARTS;

		/* Without them the graphs are built on one thread. */
		r->parts = calloc(parts, sizeof(*r->parts));
		if (r->parts) {
			r->nr_parts = parts;
			r->nr_drain_threads = threads;
			for (unsigned k = 1; k < parts; k++) {
				struct rp_report_part *pt = &r->parts[k];

				pt->pool = (struct rp_strpool)RP_STRPOOL_INIT;
				rp_ctree_init(&pt->ctree, &pt->arena, &pt->pool, &r->nr_nodes);
				pt->ctree.key = r->call_key;
				pt->ctree.replay = r->ctree.replay;
			}
		}
	}
	rp_stacks_init(&r->stacks);
	/* Entries and graphs that see a frame's symbol, not its address;
	 * not in replayed trees, where a node a later sample makes takes
	 * that sample's addresses (rp_report_add_stack() adds a stack's
	 * frames sample by sample). */
	r->stacks.by_symbol = r->mode == RP_MODE_NORMAL && r->call_key == RP_CALL_KEY_FUNCTION &&
			      !r->want_srcline && !(r->need & (1ull << RP_SORT_ADDR)) &&
			      !r->ctree.replay;
	r->group_mode = o.group > 0 ? RP_REPORT_GROUP_FORCE
			: o.group < 0 ? RP_REPORT_GROUP_OFF : RP_REPORT_GROUP_AUTO;
	size_t n = session ? rp_session_nr_evsels(session) : 0;
	if (n > RP_REPORT_MAX_EVSELS)
		n = RP_REPORT_MAX_EVSELS;
	r->nr_hists = n;
	rc = 0;
	if (r->want_srcline || r->call_key != RP_CALL_KEY_FUNCTION)
		rc = rp_srctext_init(&r->srctext, r->symbols, &r->pool, r->full_source_path);
	if (!rc && o.field_sep && !(r->field_sep = strdup(o.field_sep)))
		rc = RP_ERR_NOMEM;
	if (!rc && o.symbol_filter && !(r->symbol_filter = strdup(o.symbol_filter)))
		rc = RP_ERR_NOMEM;
	r->relative = o.percentage_relative;
	r->show_threads = o.show_threads;
	if (!rc && n && !(r->hists = calloc(n, sizeof(*r->hists))))
		rc = RP_ERR_NOMEM;
	for (size_t i = 0; !rc && i < n; i++)
		rp_rbinc_init(&r->hists[i].tree);
	if (!rc && (r->need & (1ull << RP_SORT_TRACE))) {
		/* Without libtraceevent or formats the texts stay unknown. */
		int trc = rp_tp_new(&r->tp, session);

		if (!trc)
			trc = rp_tp_set_kernel(r->tp, o.machine, o.symbols);
		if (trc == RP_ERR_NOMEM)
			rc = trc;
		else if (!(r->trace_fp = open_memstream(&r->trace_buf, &r->trace_len)))
			rc = RP_ERR_NOMEM;
	}
	if (!rc && (r->need & (1ull << RP_SORT_SOCKET)))
		rc = rp_report_load_sockets(r);
	if (rc) {
		rp_report_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void rp_report_free(struct rp_report *report)
{
	if (!report)
		return;
	for (size_t i = 0; report->hists && i < report->nr_hists; i++) {
		rp_hashmap_release(&report->hists[i].map);
		rp_rbinc_release(&report->hists[i].tree);
		free(report->hists[i].entries);
	}
	free(report->hists);
	rp_ctree_release(&report->ctree);
	for (unsigned k = 1; report->parts && k < report->nr_parts; k++) {
		rp_ctree_release(&report->parts[k].ctree);
		rp_strpool_release(&report->parts[k].pool);
		rp_arena_release(&report->parts[k].arena);
	}
	free(report->parts);
	rp_stacks_release(&report->stacks);
	free(report->path);
	free(report->seen);
	free(report->links);
	free(report->replay_log);
	free(report->merge_log);
	rp_srctext_release(&report->srctext);
	rp_key_names_release(&report->names);
	rp_hashmap_release(&report->cgroups);
	rp_hashmap_release(&report->nsmap);
	rp_hashmap_release(&report->cg_srclines);
	rp_strpool_release(&report->pool);
	rp_arena_release(&report->arena);
	if (report->have_parent_re)
		regfree(&report->parent_re);
	if (report->have_ignore_re)
		regfree(&report->ignore_re);
	rp_tp_free(report->tp);
	if (report->trace_fp)
		fclose(report->trace_fp);
	free(report->trace_buf);
	free(report->sockets_own);
	free(report->field_sep);
	free(report->symbol_filter);
	free(report->treads);
	rp_key_singles_release(&report->singles);
	free(report->time_str);
	free(report->sort_order_str);
	free(report);
}

static int rp_dup_or_null(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? RP_ERR_NOMEM : 0;
}

int rp_report_set_filter(struct rp_report *report, const struct rp_filter *filter)
{
	if (!report)
		return RP_ERR_INVAL;
	/* perf's hierarchy filters level by level (rp_hier_filter()) */
	if (report->hierarchy)
		report->hier_filters = rp_filter_entry_types(filter);
	if (rp_key_singles_set(&report->singles, filter) ||
	    rp_dup_or_null(&report->time_str, rp_filter_time_str(filter)))
		return RP_ERR_NOMEM;
	return 0;
}

int rp_report_set_group(struct rp_report *report, enum rp_report_group mode)
{
	if (!report || (mode != RP_REPORT_GROUP_AUTO && mode != RP_REPORT_GROUP_FORCE &&
			mode != RP_REPORT_GROUP_OFF))
		return RP_ERR_INVAL;
	report->group_mode = mode;
	return 0;
}

size_t rp_report_nr_stacks(const struct rp_report *report)
{
	return report ? report->stacks.nr : 0;
}

int rp_report_set_stacks_cap(struct rp_report *report, size_t bytes)
{
	if (!report)
		return RP_ERR_INVAL;
	report->stacks.max_bytes = bytes;
	return 0;
}

/* The srcline and srcfile texts of a location into key (srctext_int.h).
 * 0 or RP_ERR_NOMEM. */
static int rp_report_srcline(struct rp_report *r, struct rp_hist_entry *key, struct rp_dso *dso,
			     const struct rp_symbol *sym, uint64_t addr, int has_map)
{
	return rp_srctext_get(&r->srctext, dso, sym, addr, has_map, &key->k.srcline,
			      &key->k.srcfile);
}

/*
 * The srcline and srcfile texts of a --children row's frame, as perf
 * makes them for the entries fill_callchain_info() adds, whose address
 * is the frame's ip as sampled, not the map's:
 * - srcline: where perf's inline lookup applied (unwound frames), the
 *   line it found: an inline record's own line, or the line at the
 *   frame's address, "??:0" in a file without one, "sym+OFFSET" from the
 *   sampled ip where perf's lookup cannot run (PLT entries, the vdso);
 *   elsewhere (frame-pointer and kernel entries, frames without a
 *   symbol) perf looks the sampled ip up as if it were the map's
 *   address: a line only where the two are the same (a file mapped at
 *   its link address, the kernel), else "sym+OFFSET" or "dso[ip]" from
 *   the sampled ip;
 * - srcfile: always that lookup at the sampled ip ("" without a line).
 * With the address and srcline keys, the srcline is the frame's graph
 * text where it has one (perf's fill_callchain_info() takes the node's).
 * 0 or RP_ERR_NOMEM.
 */
static int rp_report_frame_srcline(struct rp_report *r, struct rp_hist_entry *k,
				   const struct rp_cframe *f)
{
	const char *line = NULL, *file = NULL, *unused;
	int rc = 0;

	/* With the address and srcline keys perf's entry takes the text
	 * its callchain node has (rp_report_cg_srcline()), when it has one. */
	if (f->srcline)
		line = f->srcline;
	else if (f->src_file)
		rc = rp_srctext_line(&r->srctext, f->src_file, f->src_line, &line, &unused);
	else if (f->inline_looked_up)
		rc = rp_srctext_get_at(&r->srctext, f->dso, f->sym, f->addr, f->ip, f->has_map,
				       RP_SRCTEXT_ENTRY, &line, &unused);
	if (!rc && (!line || (r->need & (1ull << RP_SORT_SRCFILE))))
		rc = rp_srctext_get_at(&r->srctext, f->dso, f->sym, f->ip, f->ip, f->has_map,
				       RP_SRCTEXT_NO_LINE, line ? &unused : &line, &file);
	k->k.srcline = line;
	k->k.srcfile = file;
	return rc;
}

/* perf's symbol__size(): 0 for an entry without a symbol. */
static uint64_t rp_sym_size(const struct rp_hist_entry *e)
{
	return e->k.sym ? e->k.sym_end - e->k.sym_start : 0;
}

static const struct rp_br_info rp_no_br;
static const struct rp_mem_info rp_no_mem;
#define RP_BR(e) ((e)->br ? (e)->br : &rp_no_br)
#define RP_MEMI(e) ((e)->mem ? (e)->mem : &rp_no_mem)

/* The flags of a branch entry (perf_event.h, struct perf_branch_entry). */
#define RP_BR_MISPRED(f) ((f) & 1u)
#define RP_BR_PREDICTED(f) (((f) >> 1) & 1u)
#define RP_BR_IN_TX(f) (((f) >> 2) & 1u)
#define RP_BR_ABORT(f) (((f) >> 3) & 1u)
#define RP_BR_CYCLES(f) (((f) >> 4) & 0xffffu)

static int rp_cmp_dcacheline(const struct rp_report *r, const struct rp_hist_entry *a,
			     const struct rp_hist_entry *b);

/* Whether two locations' symbols are one for perf's sort__sym_from_cmp
 * (the symbol's bounds; the address when neither has a symbol). */
static int rp_loc_same_sym(const struct rp_loc *a, const struct rp_loc *b)
{
	if (!a->sym || !b->sym)
		return !a->sym && !b->sym && a->addr == b->addr;
	return a->sym == b->sym || (a->sym->start == b->sym->start && a->sym->end == b->sym->end);
}

/* rp_entry_same() for the branch and memory keys. */
static int rp_entry_same_brmem(const struct rp_report *r, enum rp_sort_key key,
			       const struct rp_hist_entry *a, const struct rp_hist_entry *b)
{
	const struct rp_br_info *ba = RP_BR(a), *bb = RP_BR(b);
	const struct rp_mem_info *ma = RP_MEMI(a), *mb = RP_MEMI(b);

	switch (key) {
	case RP_SORT_SYM_DADDR:
		return ma->daddr.addr == mb->daddr.addr;
	case RP_SORT_SYM_IADDR:
		return ma->iaddr.addr == mb->iaddr.addr;
	case RP_SORT_DSO_DADDR:
		return ma->daddr.dso_name == mb->daddr.dso_name;
	case RP_SORT_LOCKED:
		return RP_MEM_LOCK(ma->data_src) == RP_MEM_LOCK(mb->data_src);
	case RP_SORT_TLB:
		return RP_MEM_DTLB(ma->data_src) == RP_MEM_DTLB(mb->data_src);
	case RP_SORT_MEM:
		return RP_MEM_LVL(ma->data_src) == RP_MEM_LVL(mb->data_src);
	case RP_SORT_SNOOP:
		return RP_MEM_SNOOP(ma->data_src) == RP_MEM_SNOOP(mb->data_src);
	case RP_SORT_BLOCKED:
		return RP_MEM_BLK(ma->data_src) == RP_MEM_BLK(mb->data_src);
	case RP_SORT_DCACHELINE:
		return rp_cmp_dcacheline(r, a, b) == 0;
	case RP_SORT_PHYS_DADDR:
		return ma->phys_addr == mb->phys_addr;
	case RP_SORT_DATA_PAGE_SIZE:
		return ma->data_page_size == mb->data_page_size;
	case RP_SORT_DSO_FROM:
		return ba->from.dso_name == bb->from.dso_name;
	case RP_SORT_DSO_TO:
		return ba->to.dso_name == bb->to.dso_name;
	case RP_SORT_SYM_FROM:
		return rp_loc_same_sym(&ba->from, &bb->from);
	case RP_SORT_SYM_TO:
		return rp_loc_same_sym(&ba->to, &bb->to);
	case RP_SORT_MISPREDICT:
		return RP_BR_MISPRED(ba->flags) == RP_BR_MISPRED(bb->flags) &&
		       RP_BR_PREDICTED(ba->flags) == RP_BR_PREDICTED(bb->flags);
	case RP_SORT_IN_TX:
		return RP_BR_IN_TX(ba->flags) == RP_BR_IN_TX(bb->flags);
	case RP_SORT_ABORT:
		return RP_BR_ABORT(ba->flags) == RP_BR_ABORT(bb->flags);
	case RP_SORT_CYCLES:
		return RP_BR_CYCLES(ba->flags) == RP_BR_CYCLES(bb->flags);
	case RP_SORT_SRCLINE_FROM:
		return ba->srcline_from == bb->srcline_from;
	case RP_SORT_SRCLINE_TO:
		return ba->srcline_to == bb->srcline_to;
	case RP_SORT_ADDR_FROM:
		return ba->from.dso_name == bb->from.dso_name && ba->from.addr == bb->from.addr;
	case RP_SORT_ADDR_TO:
		return ba->to.dso_name == bb->to.dso_name && ba->to.addr == bb->to.addr;
	default:
		return 1;
	}
}

/* The hash word of a branch or memory key (equal keys, equal words). */
static uint64_t rp_entry_hash_brmem(const struct rp_report *r, enum rp_sort_key key,
				    const struct rp_hist_entry *e)
{
	const struct rp_br_info *b = RP_BR(e);
	const struct rp_mem_info *m = RP_MEMI(e);

	switch (key) {
	case RP_SORT_SYM_DADDR:
		return m->daddr.addr;
	case RP_SORT_SYM_IADDR:
		return m->iaddr.addr;
	case RP_SORT_DSO_DADDR:
		return (uint64_t)(uintptr_t)m->daddr.dso_name;
	case RP_SORT_LOCKED:
		return RP_MEM_LOCK(m->data_src);
	case RP_SORT_TLB:
		return RP_MEM_DTLB(m->data_src);
	case RP_SORT_MEM:
		return RP_MEM_LVL(m->data_src);
	case RP_SORT_SNOOP:
		return RP_MEM_SNOOP(m->data_src);
	case RP_SORT_BLOCKED:
		return RP_MEM_BLK(m->data_src);
	case RP_SORT_DCACHELINE:
		return (m->daddr.al_addr & ~(r->cacheline_size - 1)) ^ ((uint64_t)m->cpumode << 56) ^
		       m->daddr.has_map;
	case RP_SORT_PHYS_DADDR:
		return m->phys_addr;
	case RP_SORT_DATA_PAGE_SIZE:
		return m->data_page_size;
	case RP_SORT_DSO_FROM:
		return (uint64_t)(uintptr_t)b->from.dso_name;
	case RP_SORT_DSO_TO:
		return (uint64_t)(uintptr_t)b->to.dso_name;
	case RP_SORT_SYM_FROM:
		return b->from.sym ? rp_hash64(b->from.sym->start) ^ b->from.sym->end : ~b->from.addr;
	case RP_SORT_SYM_TO:
		return b->to.sym ? rp_hash64(b->to.sym->start) ^ b->to.sym->end : ~b->to.addr;
	case RP_SORT_MISPREDICT:
		return b->flags & 3u;
	case RP_SORT_IN_TX:
		return RP_BR_IN_TX(b->flags);
	case RP_SORT_ABORT:
		return RP_BR_ABORT(b->flags);
	case RP_SORT_CYCLES:
		return RP_BR_CYCLES(b->flags);
	case RP_SORT_SRCLINE_FROM:
		return (uint64_t)(uintptr_t)b->srcline_from;
	case RP_SORT_SRCLINE_TO:
		return (uint64_t)(uintptr_t)b->srcline_to;
	case RP_SORT_ADDR_FROM:
		return b->from.addr ^ (uint64_t)(uintptr_t)b->from.dso_name;
	case RP_SORT_ADDR_TO:
		return b->to.addr ^ (uint64_t)(uintptr_t)b->to.dso_name;
	case RP_SORT_IPC_LBR:
		return rp_ekey_word(RP_SORT_SYM, &e->k, 0);
	default:
		return 0;
	}
}

/* Whether a and b fall in one entry: perf's collapse functions return 0. */
static int rp_entry_same(const struct rp_report *r, const struct rp_hist_entry *a,
			 const struct rp_hist_entry *b)
{
	for (size_t i = 0; i < r->nr_keys; i++) {
		enum rp_sort_key key = r->keys[i];

		if (RP_KEY_IS_COMMON(key)) {
			if (!rp_ekey_same(key, &a->k, &b->k, 0))
				return 0;
			continue;
		}
		switch (key) {
		case RP_SORT_IPC_NULL: /* perf compares them as sym */
		case RP_SORT_IPC_LBR:
			if (!rp_ekey_same(RP_SORT_SYM, &a->k, &b->k, 0))
				return 0;
			break;
		case RP_SORT_PARENT:
			if (a->parent != b->parent)
				return 0;
			break;
		case RP_SORT_SOCKET:
			if (a->socket != b->socket)
				return 0;
			break;
		case RP_SORT_LOCAL_WEIGHT:
		case RP_SORT_WEIGHT:
			if (a->weight != b->weight)
				return 0;
			break;
		case RP_SORT_LOCAL_INS_LAT:
		case RP_SORT_INS_LAT:
			if (a->ins_lat != b->ins_lat)
				return 0;
			break;
		case RP_SORT_TRANSACTION:
			if (a->transaction != b->transaction)
				return 0;
			break;
		case RP_SORT_TRACE:
			if (a->trace != b->trace)
				return 0;
			break;
		case RP_SORT_SYM_SIZE:
			if (rp_sym_size(a) != rp_sym_size(b))
				return 0;
			break;
		case RP_SORT_DSO_SIZE:
			if (a->map_size != b->map_size)
				return 0;
			break;
		case RP_SORT_CGROUP:
			if (a->cgroup != b->cgroup)
				return 0;
			break;
		case RP_SORT_CGROUP_ID:
			if (a->cg_dev != b->cg_dev || a->cg_ino != b->cg_ino)
				return 0;
			break;
		case RP_SORT_TIME:
			if (a->time != b->time)
				return 0;
			break;
		case RP_SORT_CODE_PAGE_SIZE:
			if (a->code_page_size != b->code_page_size)
				return 0;
			break;
		case RP_SORT_ADDR:
			if (a->sample_ip != b->sample_ip)
				return 0;
			break;
		default:
			if (key >= RP_SORT_SYM_DADDR && !rp_entry_same_brmem(r, key, a, b))
				return 0;
			break;
		}
	}
	return 1;
}

static uint64_t rp_entry_hash(const struct rp_report *r, const struct rp_hist_entry *e)
{
	uint64_t h = RP_EKEY_HASH_SEED;

	for (size_t i = 0; i < r->nr_keys; i++) {
		enum rp_sort_key key = r->keys[i];
		uint64_t v = 0;

		if (RP_KEY_IS_COMMON(key)) {
			h = rp_ekey_hash_mix(h, rp_ekey_word(key, &e->k, 0), i);
			continue;
		}
		switch (key) {
		case RP_SORT_IPC_NULL:
			v = rp_ekey_word(RP_SORT_SYM, &e->k, 0);
			break;
		case RP_SORT_PARENT:
			v = (uint64_t)(uintptr_t)e->parent;
			break;
		case RP_SORT_SOCKET:
			v = (uint32_t)e->socket;
			break;
		case RP_SORT_LOCAL_WEIGHT:
		case RP_SORT_WEIGHT:
			v = e->weight;
			break;
		case RP_SORT_LOCAL_INS_LAT:
		case RP_SORT_INS_LAT:
			v = e->ins_lat;
			break;
		case RP_SORT_TRANSACTION:
			v = e->transaction;
			break;
		case RP_SORT_TRACE:
			v = (uint64_t)(uintptr_t)e->trace;
			break;
		case RP_SORT_SYM_SIZE:
			v = rp_sym_size(e);
			break;
		case RP_SORT_DSO_SIZE:
			v = e->map_size;
			break;
		case RP_SORT_CGROUP:
			v = e->cgroup;
			break;
		case RP_SORT_CGROUP_ID:
			v = e->cg_dev ^ rp_hash64(e->cg_ino);
			break;
		case RP_SORT_TIME:
			v = e->time;
			break;
		case RP_SORT_CODE_PAGE_SIZE:
			v = e->code_page_size;
			break;
		case RP_SORT_ADDR:
			v = e->sample_ip;
			break;
		default:
			v = rp_entry_hash_brmem(r, key, e);
			break;
		}
		h = rp_ekey_hash_mix(h, v, i);
	}
	return h;
}

/* The entry of h that key falls in (same hash, same keys), or NULL. */
static struct rp_hist_entry *rp_hists_find(const struct rp_report *r, const struct rp_hists *h,
					   const struct rp_hist_entry *key)
{
	struct rp_hist_entry *e;

	for (e = rp_hashmap_get(&h->map, key->hash); e; e = e->next)
		if (e->hash == key->hash && rp_entry_same(r, e, key))
			return e;
	return NULL;
}

/*
 * Adds a copy of key (hash set, no entry of h equal to it) to h with its
 * counts; *out gets the new entry.  Returns 0, RP_ERR_LIMIT or
 * RP_ERR_NOMEM.
 */
static int rp_hists_insert(struct rp_report *r, struct rp_hists *h,
			   const struct rp_hist_entry *key, struct rp_hist_entry **out)
{
	struct rp_hist_entry *e;

	if (h->nr_entries >= RP_REPORT_MAX_ENTRIES)
		return RP_ERR_LIMIT;
	if (RP_ARRAY_RESERVE(h->entries, h->alloc, h->nr_entries + 1) < 0)
		return RP_ERR_NOMEM;
	e = rp_arena_alloc(&r->arena, sizeof(*e));
	if (!e)
		return RP_ERR_NOMEM;
	*e = *key;
	if (key->br) {
		struct rp_br_info *bi = rp_arena_alloc(&r->arena, sizeof(*bi));

		if (!bi)
			return RP_ERR_NOMEM;
		*bi = *key->br;
		e->br = bi;
	}
	if (key->mem) {
		struct rp_mem_info *mi = rp_arena_alloc(&r->arena, sizeof(*mi));

		if (!mi)
			return RP_ERR_NOMEM;
		*mi = *key->mem;
		e->mem = mi;
	}
	if (key->k.sym) {
		e->k.sym = rp_strpool_intern_str(&r->pool, key->k.sym);
		if (!e->k.sym)
			return RP_ERR_NOMEM;
	}
	e->next = rp_hashmap_get(&h->map, key->hash);
	if (rp_hashmap_put(&h->map, key->hash, e) < 0)
		return RP_ERR_NOMEM;
	h->entries[h->nr_entries++] = e;
	*out = e;
	return 0;
}

/* Moves e from the hash chain of its old hash to that of e->hash. */
static int rp_hists_rehash(struct rp_hists *h, struct rp_hist_entry *e, uint64_t old_hash)
{
	struct rp_hist_entry *first = rp_hashmap_get(&h->map, old_hash);

	if (first == e) {
		if (e->next)
			rp_hashmap_put(&h->map, old_hash, e->next);
		else
			rp_hashmap_del(&h->map, old_hash);
	} else {
		for (struct rp_hist_entry *p = first; p; p = p->next)
			if (p->next == e) {
				p->next = e->next;
				break;
			}
	}
	e->next = rp_hashmap_get(&h->map, e->hash);
	return rp_hashmap_put(&h->map, e->hash, e) < 0 ? RP_ERR_NOMEM : 0;
}

static int rp_report_merge_graph(struct rp_report *r, struct rp_hist_entry *k,
				 const struct rp_hist_entry *e, int per_path);

/*
 * perf overrides a thread's ":<tid>" default comm in place when its first
 * COMM arrives, so rows of samples taken before then show that comm, and
 * merge with the rows of the same comm (perf's collapse compares comm
 * strings), call graphs included (rp_ctree_merge(): perf's entry of the
 * thread's samples is one, before and after the COMM, as the comm it
 * points to was changed in place).  Done once, before the first write.
 */
static int rp_report_override_default_comms(struct rp_report *r)
{
	char def[16];

	if (r->comms_overridden)
		return 0;
	r->comms_overridden = 1;
	for (size_t i = 0; i < r->nr_hists; i++) {
		struct rp_hists *h = &r->hists[i];
		size_t kept = 0;

		for (size_t j = 0; j < h->nr_entries; j++) {
			struct rp_hist_entry *e = h->entries[j];
			const char *first = e->thread ? rp_thread_first_comm(e->thread) : NULL;

			h->entries[kept++] = e;
			snprintf(def, sizeof(def), ":%d", (int)rp_thread_tid(e->thread));
			if (!first || strcmp(e->k.comm, def) || !strcmp(first, def))
				continue;
			struct rp_hist_entry k = *e;
			k.k.comm = rp_strpool_intern_str(&r->pool, first);
			if (!k.k.comm)
				return RP_ERR_NOMEM;
			k.hash = rp_entry_hash(r, &k);
			struct rp_hist_entry *f = rp_hists_find(r, h, &k);
			if (f) {
				f->period += e->period;
				f->nr_samples += e->nr_samples;
				f->period_sys += e->period_sys;
				f->period_us += e->period_us;
				f->period_guest_sys += e->period_guest_sys;
				f->period_guest_us += e->period_guest_us;
				f->acc_period += e->acc_period;
				f->acc_samples += e->acc_samples;
				if (e->chain) {
					/* The same samples of the same entry for
					 * perf: their counts. */
					int rc = rp_report_merge_graph(r, f, e, 0);

					if (rc < 0)
						return rc;
					if (e->chain->max_depth > f->chain->max_depth)
						f->chain->max_depth = e->chain->max_depth;
				}
				kept--; /* e is gone into f */
				continue;
			}
			uint64_t old_hash = e->hash;
			e->k.comm = k.k.comm;
			e->hash = k.hash;
			if (rp_hists_rehash(h, e, old_hash) < 0)
				return RP_ERR_NOMEM;
		}
		h->nr_entries = kept;
	}
	/* Cached entries may be gone. */
	memset(r->ecache, 0, sizeof(r->ecache));
	return 0;
}

/*
 * The entries on a stack, for --children: each entry on the stack gets
 * the period once per sample (perf's hist_entry_iter cumulative
 * callbacks: the first frame of an entry in drawing order counts, later
 * ones are skipped) and, for its graph, the path from that frame on.
 * frames[0..nr_frames) is the stack in drawing order, self the sample's
 * own entry and key its key (comm, thread, cpu are shared by the stack's
 * entries); links[] (room for nr_frames) and *nr_links get the entries.
 * With a replayed input tree (rp_report.nontotal) the entries are those
 * perf's tree finds at this sample, and a frame is skipped when its key
 * equals one the sample added before, as perf's he_cache does.
 */
static int rp_hists_tree_findnew(struct rp_report *r, struct rp_hists *h,
				 struct rp_hist_entry *key, struct rp_hist_entry **out);

/* The address space a map of this level was found in, as perf's struct
 * map objects tell maps apart: a process's own ('.': after a fork the
 * child's maps are copies), the machine's for the kernel's (NULL). */
static const struct rp_maps *rp_report_space(const struct rp_thread *thread, char level)
{
	return level == '.' && thread ? thread->maps : NULL;
}

/*
 * perf's hists__findnew_entry(), when the entry found was last seen in
 * another map than key's (with the sym key): the entry takes key's map,
 * and its symbol becomes the one at its start in that map's DSO
 * (map__find_symbol()).  That is the same symbol for a function; an
 * inlined function's frame (start and end of the function it was inlined
 * into) becomes that function, no longer inlined, or no symbol at all.
 * So a process after a fork turns the --children rows of inlined frames
 * that its parent made into their functions' rows.
 */
static void rp_entry_move_map(const struct rp_report *r, struct rp_hist_entry *e,
			      const struct rp_hist_entry *key)
{
	if (!(r->need & (1ull << RP_SORT_SYM)) || (e->map == key->map && e->space == key->space))
		return;
	if (e->k.sym && e->k.sym_inlined) {
		const struct rp_symbol *sym =
			rp_symbols_find_loaded(r->symbols, key->map_dso, e->k.sym_start);

		e->k.sym = sym ? (sym->name ? sym->name : "") : NULL;
		e->k.sym_start = sym ? sym->start : 0;
		e->k.sym_end = sym ? sym->end : 0;
		e->k.sym_inlined = sym ? sym->inlined : 0;
	}
	e->map = key->map;
	e->space = key->space;
	e->map_dso = key->map_dso;
}

static unsigned rp_report_part_of(const struct rp_report *r, const struct rp_hist_entry *e);

static int rp_report_link_frames(struct rp_report *r, struct rp_hists *h,
				 const struct rp_cframe *frames, uint32_t nr_frames,
				 struct rp_hist_entry *self, const struct rp_hist_entry *key,
				 struct rp_stack_link *links, uint32_t *nr_links)
{
	char level = key->k.level;
	int rc;
	/* perf compares each frame's entry with those the sample already
	 * added through a hist_entry that lacks the socket, time, weight,
	 * transaction, cgroup and page-size keys (0 there): where the
	 * sample's value is not 0 no entry matches, and every frame adds
	 * its period again. */
	int nodedupe = ((r->need & (1ull << RP_SORT_SOCKET)) && key->socket) ||
		       ((r->need & (1ull << RP_SORT_TIME)) && key->time) ||
		       ((r->need & ((1ull << RP_SORT_WEIGHT) | (1ull << RP_SORT_LOCAL_WEIGHT))) &&
			key->weight) ||
		       ((r->need & ((1ull << RP_SORT_INS_LAT) | (1ull << RP_SORT_LOCAL_INS_LAT))) &&
			key->ins_lat) ||
		       ((r->need & (1ull << RP_SORT_TRANSACTION)) && key->transaction) ||
		       ((r->need & (1ull << RP_SORT_CGROUP)) && key->cgroup) ||
		       ((r->need & (1ull << RP_SORT_CGROUP_ID)) && (key->cg_dev || key->cg_ino)) ||
		       ((r->need & (1ull << RP_SORT_CODE_PAGE_SIZE)) && key->code_page_size);

	uint32_t nr = 0;

	r->seen[0] = self;
	for (uint32_t i = 0; i < nr_frames; i++) {
		const struct rp_cframe *f = &frames[i];
		struct rp_hist_entry k = *key;
		struct rp_hist_entry *e;
		uint32_t j;

		k.k.dso = NULL;
		k.k.sym = NULL;
		k.k.sym_start = k.k.sym_end = 0;
		k.k.sym_inlined = 0;
		k.k.srcline = k.k.srcfile = NULL;
		/* perf's fill_callchain_info(): the frame's ip as sampled; the
		 * level is the map's, or stays the previous one without a map. */
		k.k.ip = f->ip;
		k.sample_ip = f->ip;
		k.map = f->map;
		k.space = rp_report_space(key->thread, f->level);
		k.map_dso = f->dso;
		if (f->has_map || f->sym)
			level = f->level ? f->level : '.';
		k.k.level = level;
		if (f->dso) {
			k.k.dso = rp_key_names_dso(&r->names, f->dso);
			if (!k.k.dso)
				return RP_ERR_NOMEM;
		}
		if (f->sym) {
			k.k.sym = f->sym->name ? f->sym->name : "";
			k.k.sym_start = f->sym->start;
			k.k.sym_inlined = f->sym->inlined;
			k.k.sym_end = f->sym->end;
		}
		if (r->want_srcline && (rc = rp_report_frame_srcline(r, &k, f)))
			return rc;
		k.period = k.nr_samples = k.acc_period = k.acc_samples = 0;
		k.chain = NULL;
		k.pairs = NULL;
		if (r->nontotal) {
			for (j = 0; !nodedupe && j <= nr && !rp_entry_same(r, r->seen[j], &k); j++)
				;
			if (!nodedupe && j <= nr)
				continue; /* recursion: counted once per sample */
			if ((rc = rp_hists_tree_findnew(r, h, &k, &e)))
				return rc;
		} else {
			k.hash = rp_entry_hash(r, &k);
			e = rp_hists_find(r, h, &k);
			if (e) {
				for (j = 0; !nodedupe && j <= nr && r->seen[j] != e; j++)
					;
				if (!nodedupe && j <= nr)
					continue; /* recursion: counted once per sample */
			} else if ((rc = rp_hists_insert(r, h, &k, &e))) {
				return rc;
			}
		}
		links[nr++] = (struct rp_stack_link){ e, i, rp_report_part_of(r, e) };
		r->seen[nr] = e;
	}
	*nr_links = nr;
	return 0;
}

/* Adds a path to an entry's graph. */
/* A frame's source line for the address and srcline keys, chained per
 * hash. */
struct rp_cg_src {
	const struct rp_dso *dso;
	uint64_t addr;
	const char *srcline;
	struct rp_cg_src *next;
};

/*
 * The text perf's callchain_srcline() gives a frame with the address or
 * srcline key (cframe's srcline; NULL without a map): an inline chain's
 * record its own line; else the line at the address in the map's file,
 * "??:0" in a file without it, and where no lookup runs "+OFFSET" from
 * the symbol (address key) or no text (srcline key).  As
 * perf keeps the first text of each address of a DSO (and counts a
 * failed lookup once), so does the report.  0 or RP_ERR_NOMEM.
 */
static int rp_report_cg_srcline(struct rp_report *r, struct rp_cframe *f)
{
	const char *unused;

	f->srcline = NULL;
	if (!f->has_map || !f->dso)
		return 0;
	if (f->src_file)
		return rp_srctext_line(&r->srctext, f->src_file, f->src_line, &f->srcline,
				       &unused);
	uint64_t h = rp_hash64((uint64_t)(uintptr_t)f->dso ^ rp_hash64(f->addr));
	struct rp_cg_src *first = rp_hashmap_get(&r->cg_srclines, h), *c;

	for (c = first; c; c = c->next)
		if (c->dso == f->dso && c->addr == f->addr) {
			f->srcline = c->srcline;
			return 0;
		}
	int rc = rp_srctext_get_at(&r->srctext, f->dso, f->sym, f->addr, f->addr, f->has_map,
				   r->call_key == RP_CALL_KEY_SRCLINE ? RP_SRCTEXT_CALLCHAIN_LINE
								       : RP_SRCTEXT_CALLCHAIN,
				   &f->srcline, &unused);

	if (rc)
		return rc;
	if (!(c = rp_arena_alloc(&r->arena, sizeof(*c))))
		return RP_ERR_NOMEM;
	*c = (struct rp_cg_src){ f->dso, f->addr, f->srcline, first };
	return rp_hashmap_put(&r->cg_srclines, h, c) < 0 ? RP_ERR_NOMEM : 0;
}

/* The partition of entry e's graph and --children sums: any function
 * of e that stays the same for the report's life. */
static unsigned rp_report_part_of(const struct rp_report *r, const struct rp_hist_entry *e)
{
	return r->nr_parts < 2 ? 0
			       : (unsigned)((rp_hash64((uint64_t)(uintptr_t)e) >> 16) % r->nr_parts);
}

/* The ctree e's graph is in (its partition's). */
static struct rp_ctree *rp_report_ctree_of(struct rp_report *r, const struct rp_hist_entry *e)
{
	unsigned k = rp_report_part_of(r, e);

	return k ? &r->parts[k].ctree : &r->ctree;
}

static int rp_report_graph_add(struct rp_report *r, struct rp_hist_entry *e,
			       const struct rp_cframe *frames, size_t nr, uint64_t period,
			       uint64_t count)
{
	struct rp_ctree *t = rp_report_ctree_of(r, e);

	if (!e->chain && !(e->chain = rp_ctree_root(t)))
		return RP_ERR_NOMEM;
	return rp_ctree_add(t, e->chain, frames, nr, period, count);
}

/*
 * A stack's samples (period and count) into the graphs and the
 * --children sums of its entries in the partitions of mask parts
 * (RP_REPORT_ALL_PARTS: every entry); the frames each partition adds
 * count into r->part_work.
 */
static int rp_report_stack_part(struct rp_report *r, const struct rp_stack *st, uint64_t period,
				uint64_t count, uint64_t parts)
{
	int rc;

	if (r->graph) {
		struct rp_hist_entry *self = (struct rp_hist_entry *)(uintptr_t)st->owner[0];
		unsigned k = rp_report_part_of(r, self);

		if (parts >> k & 1) {
			rc = rp_report_graph_add(r, self, st->frames, st->nr_frames, period, count);
			if (rc)
				return rc;
			r->part_work[k] += st->nr_frames;
		}
	}
	for (uint32_t i = 0; i < st->nr_links; i++) {
		const struct rp_stack_link *l = &st->links[i];
		struct rp_hist_entry *e = l->entry;

		if (!(parts >> l->part & 1))
			continue;
		e->acc_period += period;
		e->acc_samples += count;
		if (r->graph) {
			rc = rp_report_graph_add(r, e, st->frames + l->from, st->nr_frames - l->from,
						 period, count);
			if (rc)
				return rc;
			r->part_work[l->part] += st->nr_frames - l->from;
		}
	}
	return 0;
}

static int rp_report_stack_none(void *ctx, const struct rp_stack *st)
{
	(void)ctx;
	(void)st;
	return 0;
}

/* What a partition's thread takes. */
enum rp_drain_what {
	RP_DRAIN_STACKS, /* the table's stacks */
	RP_DRAIN_REPLAY, /* the replay log's samples */
	RP_DRAIN_MERGES, /* the collapse's merges of graphs */
};

/* One thread's share of a drain: the partitions of mask parts. */
struct rp_report_drain_job {
	struct rp_report *r;
	enum rp_drain_what what;
	uint64_t parts;
	int rc;
	pthread_t thread;
};

/* The job's partitions' share of what it takes, in the order it came. */
static void *rp_report_drain_main(void *arg)
{
	struct rp_report_drain_job *job = arg;
	struct rp_report *r = job->r;
	uint64_t parts = job->parts;

	job->rc = 0;
	for (unsigned k = 0; k < r->nr_parts; k++)
		if (parts >> k & 1)
			r->part_work[k] = 0;
	if (job->what == RP_DRAIN_MERGES) {
		for (size_t i = 0; i < r->nr_merges && job->rc >= 0; i++) {
			const struct rp_merge_item *m = &r->merge_log[i];
			unsigned k = rp_report_part_of(r, m->kept);

			if (parts >> k & 1) {
				job->rc = rp_report_merge_graph(r, m->kept, m->item, 1);
				r->part_work[k]++;
			}
		}
		return NULL;
	}
	if (job->what == RP_DRAIN_REPLAY) {
		for (size_t i = 0; i < r->nr_replay && job->rc >= 0; i++)
			job->rc = rp_report_stack_part(r, r->replay_log[i].st,
						       r->replay_log[i].period, 1, parts);
		return NULL;
	}
	for (size_t i = 0; i < r->stacks.nr && job->rc >= 0; i++) {
		const struct rp_stack *st = r->stacks.order[i];

		job->rc = rp_report_stack_part(r, st, st->period, st->count, parts);
	}
	return NULL;
}

/*
 * The partitions of each of n drain threads (masks into parts[]): by the
 * work each partition took at the last drain, the largest first to the
 * thread with the least so far (round robin before any work is known).
 * Which thread builds a partition does not change what it builds.
 */
static void rp_report_assign_parts(const struct rp_report *r, unsigned n, uint64_t *parts)
{
	uint64_t load[RP_REPORT_MAX_PARTS] = { 0 };
	uint64_t done = 0;

	for (unsigned t = 0; t < n; t++)
		parts[t] = 0;
	for (unsigned i = 0; i < r->nr_parts; i++) {
		unsigned big = 0, least = 0;
		int found = 0;

		for (unsigned k = 0; k < r->nr_parts; k++)
			if (!(done >> k & 1) && (!found || r->part_work[k] > r->part_work[big])) {
				big = k;
				found = 1;
			}
		for (unsigned t = 1; t < n; t++)
			if (load[t] < load[least])
				least = t;
		/* Equal loads (nothing known yet) go round robin. */
		if (!r->part_work[big])
			least = i % n;
		done |= 1ull << big;
		parts[least] |= 1ull << big;
		load[least] += r->part_work[big];
	}
}

/*
 * A drain on nr_drain_threads threads (the first is the caller's), each
 * with its share of the partitions; on the caller's thread alone for
 * fewer than RP_REPORT_PAR_MIN_STACKS items.  Every partition takes the
 * samples, stacks or merges in the order they came, so each entry's tree
 * and sums grow as with one thread (the drawing is the same).  An error
 * of any thread is the drain's (the first by thread).
 */
static int rp_report_drain_parts(struct rp_report *r, enum rp_drain_what what)
{
	struct rp_report_drain_job jobs[RP_REPORT_MAX_PARTS];
	uint64_t parts[RP_REPORT_MAX_PARTS];
	size_t nr = what == RP_DRAIN_REPLAY   ? r->nr_replay
		    : what == RP_DRAIN_MERGES ? r->nr_merges
					      : r->stacks.nr;
	unsigned n = nr < RP_REPORT_PAR_MIN_STACKS ? 1 : r->nr_drain_threads, started = 1;
	int rc = 0;

	rp_report_assign_parts(r, n, parts);
	for (unsigned t = 0; t < n; t++)
		jobs[t] = (struct rp_report_drain_job){ r, what, parts[t], 0, 0 };
	for (; started < n; started++)
		if (pthread_create(&jobs[started].thread, NULL, rp_report_drain_main,
				   &jobs[started]))
			break;
	/* Shares whose thread could not start run here, after the first. */
	rp_report_drain_main(&jobs[0]);
	for (unsigned t = started; t < n; t++)
		rp_report_drain_main(&jobs[t]);
	for (unsigned t = 1; t < started; t++)
		pthread_join(jobs[t].thread, NULL);
	for (unsigned t = 0; t < n && !rc; t++)
		rc = jobs[t].rc < 0 ? jobs[t].rc : 0;
	return rc;
}

/* The replay log's samples into the replayed trees, then an empty log. */
static int rp_report_replay_flush(struct rp_report *r)
{
	int rc = rp_report_drain_parts(r, RP_DRAIN_REPLAY);

	r->nr_replay = 0;
	return rc;
}

/*
 * Builds the graphs and --children sums of the stacks held so far (of
 * the samples the replay log holds, with replayed trees, whose stacks
 * keep no sums: rp_report_add_stack()), then empties the table of
 * stacks.
 */
static int rp_report_drain_stacks(struct rp_report *r)
{
	int rc = r->ctree.replay ? rp_report_replay_flush(r)
				 : rp_report_drain_parts(r, RP_DRAIN_STACKS);
	int drc = rp_stacks_drain(&r->stacks, rp_report_stack_none, NULL);

	return rc ? rc : drc;
}

/* Whether two stacks' links name the same entries from the same frames. */
static int rp_links_same(const struct rp_stack_link *a, uint32_t na, const struct rp_stack_link *b,
			 uint32_t nb)
{
	if (na != nb)
		return 0;
	for (uint32_t i = 0; i < na; i++)
		if (a[i].entry != b[i].entry || a[i].from != b[i].from)
			return 0;
	return 1;
}

/* Room for n frames in r->path, r->links and r->seen (n + 1). */
static int rp_report_path_reserve(struct rp_report *r, size_t n)
{
	size_t want = n > 128 ? n : 128;
	struct rp_cframe *path = realloc(r->path, want * sizeof(*path));

	if (!path)
		return RP_ERR_NOMEM;
	r->path = path;
	struct rp_stack_link *links = realloc(r->links, want * sizeof(*links));

	if (!links)
		return RP_ERR_NOMEM;
	r->links = links;
	struct rp_hist_entry **seen = realloc(r->seen, (want + 1) * sizeof(*seen));

	if (!seen)
		return RP_ERR_NOMEM;
	r->seen = seen;
	r->path_alloc = (uint32_t)want;
	return 0;
}

/*
 * The call stack of one sample, held in r->stacks (see stacks_int.h)
 * until the report needs it: its path goes into the graph of the sample's
 * entry, and with --children into the entries on it.  key is the sample's
 * own entry key.
 */
static int rp_report_add_stack(struct rp_report *r, struct rp_hists *h, struct rp_hist_entry *self,
			       const struct rp_hist_entry *key, const struct rp_resolved *res,
			       uint64_t period)
{
	/* What the stack's entries take from the sample: its cpu only
	 * when the entries are told apart by it (else an entry keeps the
	 * cpu of the sample that made it, with or without this table). */
	uint32_t cpu = r->sort_cpu ? (uint32_t)key->k.cpu : 0;
	uint64_t owner[RP_STACK_OWNER_WORDS] = {
		(uint64_t)(uintptr_t)self, (uint64_t)(uintptr_t)key->k.comm,
		(uint64_t)(uintptr_t)key->thread, ((uint64_t)(uint32_t)key->k.tid << 32) | cpu,
		(uint64_t)key->k.level
	};
	int rc;

	/* A replayed input tree may find other entries for the same frames
	 * as it grows: the entries are found per sample, and stacks that
	 * differ in them are told apart. */
	int per_sample = r->nontotal && r->children;
	struct rp_stack_slot *slot = res->stack_id && !per_sample ? res->stack_slot : NULL;
	struct rp_stack *st = slot ? rp_stacks_from_slot(&r->stacks, slot, owner) : NULL;
	uint32_t nr_links = 0;

	if (!st) {
		/* The frames --max-stack keeps, in drawing order. */
		struct rp_chain_pick pick;

		rp_chain_pick(&pick, res->callchain, res->nr_callchain, r->max_stack, r->caller);
		size_t n = pick.nr;

		if ((!r->path || n > r->path_alloc) && (rc = rp_report_path_reserve(r, n)) < 0)
			return rc;
		for (size_t i = 0; i < n; i++) {
			const struct rp_frame *fr =
				&res->callchain[rp_chain_pick_index(&pick, (uint32_t)i)];
			const struct rp_addr_location *al = &fr->al;

			r->path[i] = (struct rp_cframe){ .dso = al->dso,
							 .sym = al->sym,
							 .ip = al->ip,
							 .map = al->map,
							 .addr = al->addr,
							 .src_file = fr->src_file,
							 .src_line = fr->src_line,
							 .inline_looked_up = fr->inline_looked_up,
							 .has_map = al->map != NULL,
							 .level = al->level };
			if (r->call_key != RP_CALL_KEY_FUNCTION &&
			    (rc = rp_report_cg_srcline(r, &r->path[i])) < 0)
				return rc;
		}
		if (per_sample) {
			uint64_t lh = 0;

			if ((rc = rp_report_link_frames(r, h, r->path, (uint32_t)n, self, key,
							r->links, &nr_links)))
				return rc;
			for (uint32_t i = 0; i < nr_links; i++)
				lh = rp_hash64(lh ^ (uint64_t)(uintptr_t)r->links[i].entry ^
					       ((uint64_t)r->links[i].from << 48));
			owner[RP_STACK_OWNER_WORDS - 1] ^= lh << 8;
		}
		uint64_t hash = rp_stacks_hash(&r->stacks, owner, r->path, n);

		st = rp_stacks_find(&r->stacks, hash, owner, r->path, n);
		if (st && per_sample && !rp_links_same(st->links, st->nr_links, r->links, nr_links))
			st = NULL; /* the same frames and links hash, other links */
		if (!st) {
			if (rp_stacks_full(&r->stacks) && (rc = rp_report_drain_stacks(r)) < 0)
				return rc;
			st = rp_stacks_add(&r->stacks, hash, owner, r->path, n,
					   r->children ? n : 0);
			if (!st)
				return RP_ERR_NOMEM;
			if (per_sample) {
				for (uint32_t i = 0; i < nr_links; i++)
					st->links[i] = r->links[i];
				st->nr_links = nr_links;
			} else if (r->children &&
				   (rc = rp_report_link_frames(r, h, st->frames, st->nr_frames,
							       self, key, st->links,
							       &st->nr_links)) < 0) {
				return rc;
			}
		}
		if (slot)
			rp_stacks_to_slot(&r->stacks, slot, st);
	}
	if (r->ctree.replay) {
		/* perf descends its trees of children at every sample, and a
		 * path met before may now miss the node it found (the trees
		 * rotate; their order is none): each sample is added on its
		 * own, in record order; with partitions through the replay
		 * log, which their threads take at the next drain (the stack
		 * keeps no sums). */
		if (r->nr_parts < 2)
			return rp_report_stack_part(r, st, period, 1, RP_REPORT_ALL_PARTS);
		if (r->nr_replay >= RP_REPORT_REPLAY_LOG && (rc = rp_report_replay_flush(r)) < 0)
			return rc;
		if (RP_ARRAY_RESERVE(r->replay_log, r->alloc_replay, r->nr_replay + 1) < 0)
			return RP_ERR_NOMEM;
		r->replay_log[r->nr_replay++] = (struct rp_replay_item){ st, period };
		return 0;
	}
	st->period += period;
	st->count++;
	return 0;
}

/* The keys that need more than the sample's location. */
#define RP_NEED_EXTRA                                                                  \
	((1ull << RP_SORT_PARENT) | (1ull << RP_SORT_SOCKET) | (1ull << RP_SORT_LOCAL_WEIGHT) | \
	 (1ull << RP_SORT_WEIGHT) | (1ull << RP_SORT_TRANSACTION) | (1ull << RP_SORT_TRACE) |   \
	 (1ull << RP_SORT_CGROUP) | (1ull << RP_SORT_CGROUP_ID) | (1ull << RP_SORT_TIME) |     \
	 (1ull << RP_SORT_CODE_PAGE_SIZE) | (1ull << RP_SORT_LOCAL_INS_LAT) |                 \
	 (1ull << RP_SORT_INS_LAT))
#define RP_NEED_CPUMODE                                                                  \
	((1ull << RP_SORT_OVERHEAD_SYS) | (1ull << RP_SORT_OVERHEAD_US) |                    \
	 (1ull << RP_SORT_OVERHEAD_GUEST_SYS) | (1ull << RP_SORT_OVERHEAD_GUEST_US))

/* cgroup_id: a thread's cgroup namespace (NAMESPACES records). */
struct rp_ns {
	uint64_t dev, ino;
};

/* perf's index of the cgroup namespace in NAMESPACES link_info. */
#define RP_CGROUP_NS_INDEX 6

/* The trace key's text of a tracepoint sample, interned; NULL when the
 * evsel is no tracepoint (perf prints N/A then). */
static int rp_report_trace_text(struct rp_report *r, const struct rp_event *ev, const char **out)
{
	const struct rp_attr *a = rp_evsel_attr(ev->evsel);

	*out = NULL;
	if (!a || a->type != RP_TYPE_TRACEPOINT)
		return 0;
	if (!r->trace_fp)
		return 0;
	rewind(r->trace_fp);
	if (r->tp)
		(void)rp_tp_print(r->tp, ev->evsel, &ev->u.sample, r->trace_fp);
	if (fflush(r->trace_fp) != 0)
		return RP_ERR_NOMEM;
	off_t len = ftello(r->trace_fp);
	if (len < 0 || !r->trace_buf)
		return RP_ERR_NOMEM;
	*out = rp_strpool_intern(&r->pool, r->trace_buf, (size_t)len);
	return *out ? 0 : RP_ERR_NOMEM;
}

/*
 * The keys of perf's hist_entry that come from the sample's other
 * fields (weight, transaction, time, ...), its call stack (parent) or
 * the records before it (cgroup_id).
 */
static int rp_report_fill_extra(struct rp_report *r, struct rp_hist_entry *key,
				const struct rp_event *ev, const struct rp_resolved *res)
{
	const struct rp_sample *s = &ev->u.sample;
	uint64_t need = r->need;

	if (s->sample_type & RP_SAMPLE_WEIGHT_STRUCT) {
		key->weight = s->weight_var1_dw;
		key->ins_lat = s->weight_var2_w;
	} else if (s->sample_type & RP_SAMPLE_WEIGHT) {
		key->weight = s->weight;
	}
	if (s->sample_type & RP_SAMPLE_TRANSACTION)
		key->transaction = s->transaction;
	if (s->sample_type & RP_SAMPLE_CODE_PAGE_SIZE)
		key->code_page_size = s->code_page_size;
	if (s->sample_type & RP_SAMPLE_CGROUP)
		key->cgroup = s->cgroup;
	if (s->sample_type & RP_SAMPLE_TIME)
		key->time = s->time - s->time % RP_TIME_QUANTUM;
	if (key->k.cpu >= 0 && (size_t)key->k.cpu < r->nr_sockets)
		key->socket = r->sockets[key->k.cpu];
	if ((need & (1ull << RP_SORT_CGROUP_ID)) && key->thread) {
		const struct rp_ns *ns = rp_hashmap_get(&r->nsmap, (uint32_t)rp_thread_tid(key->thread));

		if (ns) {
			key->cg_dev = ns->dev;
			key->cg_ino = ns->ino;
		}
	}
	if (need & (1ull << RP_SORT_TRACE)) {
		int rc = rp_report_trace_text(r, ev, &key->trace);

		if (rc)
			return rc;
	}
	if ((need & (1ull << RP_SORT_PARENT)) && res && res->nr_callchain) {
		/* perf's add_callchain_ip(): the first frame, in the order the
		 * chain is walked (callee first unless caller order), whose
		 * symbol matches -p, of those --max-stack keeps. */
		struct rp_chain_pick pick;

		rp_chain_pick(&pick, res->callchain, res->nr_callchain, r->max_stack, r->caller);
		for (uint32_t i = 0; i < pick.nr; i++) {
			const struct rp_addr_location *al =
				&res->callchain[rp_chain_pick_index(&pick, i)].al;

			if (al->sym && al->sym->name && !regexec(&r->parent_re, al->sym->name, 0, NULL, 0)) {
				key->parent = rp_strpool_intern_str(&r->pool, al->sym->name);
				if (!key->parent)
					return RP_ERR_NOMEM;
				break;
			}
		}
	}
	return 0;
}

/* CGROUP and NAMESPACES records, for the cgroup and cgroup_id keys. */
static int rp_report_sideband(struct rp_report *r, const struct rp_event *ev)
{
	if (ev->type == RP_RECORD_CGROUP && (r->need & (1ull << RP_SORT_CGROUP))) {
		/* perf keeps the first path of an id (cgroup__findnew). */
		if (rp_hashmap_get(&r->cgroups, ev->u.cgroup.id) || !ev->u.cgroup.path)
			return 0;
		const char *p = rp_strpool_intern_str(&r->pool, ev->u.cgroup.path);

		if (!p || rp_hashmap_put(&r->cgroups, ev->u.cgroup.id, (void *)p) < 0)
			return RP_ERR_NOMEM;
		return 0;
	}
	if (ev->type == RP_RECORD_NAMESPACES && (r->need & (1ull << RP_SORT_CGROUP_ID))) {
		const struct rp_namespaces_event *n = &ev->u.namespaces;
		struct rp_ns *ns;

		if (n->nr <= RP_CGROUP_NS_INDEX || !n->link_info)
			return 0;
		ns = rp_hashmap_get(&r->nsmap, n->tid);
		if (!ns) {
			ns = rp_arena_alloc(&r->arena, sizeof(*ns));
			if (!ns || rp_hashmap_put(&r->nsmap, n->tid, ns) < 0)
				return RP_ERR_NOMEM;
		}
		const uint8_t *li = (const uint8_t *)n->link_info + RP_CGROUP_NS_INDEX * 16;
		ns->dev = rp_load64(li, n->swap);
		ns->ino = rp_load64(li + 8, n->swap);
	}
	return 0;
}

static int rp_entry_tree_cmp(void *ctx, const void *node, const void *key);
static int rp_entry_merge(void *ctx, void *kept, void *item);

/* A location of a branch or memory sample (see struct rp_loc). */
static int rp_loc_fill(struct rp_report *r, struct rp_loc *l, const struct rp_addr_location *al)
{
	const struct rp_map *m = al->map;

	memset(l, 0, sizeof(*l));
	l->addr = al->ip;
	l->al_addr = al->addr;
	l->level = al->level ? al->level : '.';
	l->dso = al->dso;
	l->sym = m ? al->sym : NULL;
	if (m) {
		l->has_map = 1;
		l->identity = m->identity;
		l->map_start = m->start;
		l->map_pgoff = m->pgoff;
		l->map_prot = m->prot;
		l->map_flags = m->flags;
		if (al->dso && !(l->dso_name = rp_key_names_dso(&r->names, al->dso)))
			return RP_ERR_NOMEM;
	}
	return 0;
}

/* perf's map__unmap_ip(): an address of the location's DSO back in the
 * address space. */
static uint64_t rp_loc_unmap(const struct rp_loc *l, uint64_t addr)
{
	return !l->has_map || l->identity ? addr : addr + l->map_start - l->map_pgoff;
}

/*
 * The entry perf's input tree of h finds for key (rp_report.nontotal),
 * made (a copy of key, its counts 0) when the search meets none: *out
 * gets it.  Returns 0, RP_ERR_LIMIT or RP_ERR_NOMEM.
 */
static int rp_hists_tree_findnew(struct rp_report *r, struct rp_hists *h,
				 struct rp_hist_entry *key, struct rp_hist_entry **out)
{
	size_t where[2];
	size_t at = rp_rbinc_find(&h->tree, (void *const *)h->entries, key, rp_entry_tree_cmp, r,
				  where);
	int rc;

	if (at != (size_t)-1) {
		struct rp_hist_entry *e = h->entries[at];

		/* perf's hists__findnew_entry() moves a found entry to the
		 * sample's map: without a dso key, an unresolved entry takes
		 * the DSO of the last sample at its address. */
		e->k.dso = key->k.dso;
		e->map_size = key->map_size;
		rp_entry_move_map(r, e, key);
		*out = e;
		return 0;
	}
	key->hash = rp_entry_hash(r, key);
	if ((rc = rp_hists_insert(r, h, key, out)))
		return rc;
	return rp_rbinc_add(&h->tree, where);
}

/*
 * Counts one sample (or branch) of `period` into the entry of hists idx
 * that key falls in, made when new; *out gets the entry.  Returns 0,
 * RP_ERR_LIMIT or RP_ERR_NOMEM.
 */
static int rp_report_account(struct rp_report *r, size_t idx, struct rp_hist_entry *key,
			     const struct rp_event *ev, uint64_t period, struct rp_hist_entry **out)
{
	struct rp_hists *h = &r->hists[idx];
	/* Any mix of the key's fields will do for the cache slot: a hit is
	 * checked with rp_entry_same(), as the table lookup checks it. */
	uint64_t ch = (uint64_t)(uintptr_t)key->k.comm ^ ((uint64_t)(uintptr_t)key->k.dso << 3) ^
		      (key->k.sym ? key->k.sym_start : key->k.ip) ^
		      ((uint64_t)(uint32_t)key->k.tid << 20) ^ ((uint64_t)(uint32_t)key->k.cpu << 40) ^
		      (uint64_t)idx;
	size_t slot = (size_t)((ch * 0x9e3779b97f4a7c15ull) >> 54) & (RP_REPORT_ECACHE - 1);
	struct rp_hist_entry *e = r->ecache[slot].e;

	if (r->nontotal) {
		int rc = rp_hists_tree_findnew(r, h, key, &e);

		if (rc)
			return rc;
	} else if (!e || r->ecache[slot].idx != idx || !rp_entry_same(r, e, key)) {
		key->hash = rp_entry_hash(r, key);
		e = rp_hists_find(r, h, key);
		if (!e) {
			int rc = rp_hists_insert(r, h, key, &e);

			if (rc)
				return rc;
		}
		r->ecache[slot].e = e;
		r->ecache[slot].idx = idx;
	}
	e->period += period;
	e->nr_samples++;
	if (r->need & RP_NEED_CPUMODE) {
		switch (ev->misc & RP_MISC_CPUMODE_MASK) {
		case RP_MISC_KERNEL:
			e->period_sys += period;
			break;
		case RP_MISC_USER:
			e->period_us += period;
			break;
		case RP_MISC_GUEST_KERNEL:
			e->period_guest_sys += period;
			break;
		case RP_MISC_GUEST_USER:
			e->period_guest_us += period;
			break;
		default:
			break;
		}
	}
	e->acc_period += period;
	e->acc_samples++;
	h->nr_samples++;
	h->total_period += period;
	*out = e;
	return 0;
}


/* perf's PERF_MEM_DATA_SRC_NONE: every field not available, what perf
 * gives a sample without PERF_SAMPLE_DATA_SRC. */
#define RP_MEM_DATA_SRC_NONE                                                   \
	(0x1ull | (0x1ull << 5) | (0x1ull << 19) | (0x1ull << 24) | (0x1ull << 26))

/* perf's sample__resolve_mem(): the memory keys of a sample. */
static int rp_report_mem_info(struct rp_report *r, struct rp_mem_info *mi,
			      const struct rp_event *ev, const struct rp_resolved *res)
{
	const struct rp_sample *s = &ev->u.sample;
	struct rp_addr_location none;
	int rc;

	memset(mi, 0, sizeof(*mi));
	memset(&none, 0, sizeof(none));
	none.level = '.';
	if ((rc = rp_loc_fill(r, &mi->daddr, res ? &res->data : &none)) < 0 ||
	    (rc = rp_loc_fill(r, &mi->iaddr, res ? &res->code : &none)) < 0)
		return rc;
	mi->data_src = (s->sample_type & RP_SAMPLE_DATA_SRC) ? s->data_src : RP_MEM_DATA_SRC_NONE;
	mi->phys_addr = (s->sample_type & RP_SAMPLE_PHYS_ADDR) ? s->phys_addr : 0;
	mi->data_page_size = (s->sample_type & RP_SAMPLE_DATA_PAGE_SIZE) ? s->data_page_size : 0;
	mi->cpumode = (uint8_t)(ev->misc & RP_MISC_CPUMODE_MASK);
	mi->pid = res && res->thread ? rp_thread_pid(res->thread) : (int32_t)s->pid;
	return 0;
}

/*
 * perf's branch_type_count(), as its report calls it for every branch:
 * with the branch of the entry the branch fell in (its first), not the
 * branch itself.  Types 0 (unknown) and sources 0 are not counted.
 */
static void rp_report_count_branch_type(struct rp_report *r, const struct rp_br_info *bi)
{
	unsigned type = (unsigned)(bi->flags >> 20) & 0xfu;
	uint64_t from = bi->from.addr, to = bi->to.addr;

	if (type == 0 || from == 0)
		return;
	if (type == 15) { /* PERF_BR_EXTEND_ABI: the new_type field */
		unsigned nt = (unsigned)(bi->flags >> 26) & 0xfu;

		if (nt < 8)
			r->brstat.new_counts[nt]++;
	} else
		r->brstat.counts[type]++;
	if (type == 1) { /* PERF_BR_COND */
		if (to > from)
			r->brstat.cond_fwd++;
		else
			r->brstat.cond_bwd++;
	}
	if ((from >> 21) != (to >> 21))
		r->brstat.cross_2m++;
	else if ((from >> 12) != (to >> 12))
		r->brstat.cross_4k++;
}

/*
 * perf's branch mode (hist_iter_branch): one entry per branch of the
 * sample's stack, keyed by its target's DSO and symbol (the level stays
 * the sample's, the ip is the target as recorded), period 1, and the
 * weight of the first branch's cycles (perf reads the first entry's
 * flags for every branch).  key is the sample's own key.
 */
static int rp_report_add_branches(struct rp_report *r, size_t idx, const struct rp_hist_entry *key,
				  const struct rp_event *ev, const struct rp_resolved *res)
{
	size_t n = res ? res->nr_branches : 0;
	struct rp_hist_entry *e;
	int rc;

	for (size_t i = 0; i < n; i++) {
		const struct rp_branch_location *b = &res->branches[i];
		struct rp_hist_entry k = *key;
		struct rp_br_info bi;
		uint64_t cycles0 = (res->branches[0].flags >> 4) & 0xffff;

		memset(&bi, 0, sizeof(bi));
		if ((rc = rp_loc_fill(r, &bi.from, &b->from)) < 0 ||
		    (rc = rp_loc_fill(r, &bi.to, &b->to)) < 0)
			return rc;
		bi.flags = b->flags;
		k.br = &bi;
		k.k.dso = bi.to.dso_name;
		k.k.sym = NULL;
		k.k.sym_start = k.k.sym_end = 0;
		k.k.sym_inlined = 0;
		if (bi.to.sym) {
			k.k.sym = bi.to.sym->name ? bi.to.sym->name : "";
			k.k.sym_start = bi.to.sym->start;
			k.k.sym_end = bi.to.sym->end;
		}
		k.k.ip = b->to.ip;
		k.sample_ip = rp_loc_unmap(&bi.to, b->to.ip);
		k.map_size = b->to.map ? rp_map_end(b->to.map) - rp_map_start(b->to.map) : 0;
		k.weight = cycles0 ? cycles0 : 1;
		k.k.srcline = k.k.srcfile = NULL;
		if (r->want_srcline) {
			struct rp_hist_entry t;

			if ((rc = rp_report_srcline(r, &k, b->to.dso, bi.to.sym, b->to.ip,
						    b->to.map != NULL)) < 0)
				return rc;
			if ((r->need & (1ull << RP_SORT_SRCLINE_FROM)) &&
			    (rc = rp_report_srcline(r, &t, b->from.dso, bi.from.sym, b->from.addr,
						    b->from.map != NULL)) < 0)
				return rc;
			bi.srcline_from = (r->need & (1ull << RP_SORT_SRCLINE_FROM)) ? t.k.srcline : NULL;
			if ((r->need & (1ull << RP_SORT_SRCLINE_TO)) &&
			    (rc = rp_report_srcline(r, &t, b->to.dso, bi.to.sym, b->to.addr,
						    b->to.map != NULL)) < 0)
				return rc;
			bi.srcline_to = (r->need & (1ull << RP_SORT_SRCLINE_TO)) ? t.k.srcline : NULL;
		}
		if ((rc = rp_report_account(r, idx, &k, ev, 1, &e)) < 0)
			return rc;
		rp_report_count_branch_type(r, RP_BR(e));
	}
	return 0;
}

/*
 * perf's --ignore-callees (add_callchain_ip()): walking the recorded
 * callchain in the report's order, a frame whose symbol matches the
 * regex becomes the sample's location and the frames met before it are
 * forgotten (in callee order its callees; the last match of the walk
 * wins).  A frame that first matches -p's regex is the parent instead.
 * Unwound frames (--call-graph dwarf) are not looked at, as perf's
 * unwinder appends them without this test.  Returns 1 with *out set
 * when a frame matched, else 0.
 */
static int rp_ignore_callees(const struct rp_report *r, const struct rp_resolved *res,
			     struct rp_resolved *out)
{
	struct rp_chain_pick pick;
	size_t n = res->nr_callchain, k = n;
	int parent = !(r->need & (1ull << RP_SORT_PARENT)) || !r->have_parent_re;

	/* perf's walk stops after --max-stack entries: the frames the
	 * drawing keeps, in drawing order (the walk's) */
	rp_chain_pick(&pick, res->callchain, n, r->max_stack, r->caller);
	for (uint32_t j = 0; j < pick.nr; j++) {
		size_t i = rp_chain_pick_index(&pick, j);
		const struct rp_frame *f = &res->callchain[i];
		const char *name = f->al.sym ? f->al.sym->name : NULL;

		if (f->unwound || !name)
			continue;
		if (!parent && !regexec(&r->parent_re, name, 0, NULL, 0))
			parent = 1;
		else if (!regexec(&r->ignore_re, name, 0, NULL, 0))
			k = i;
	}
	if (k == n)
		return 0;
	*out = *res;
	out->al = res->callchain[k].al;
	/* what the walk keeps after the match: the picked frames past it
	 * (one span of the recorded callchain; with unwound frames too,
	 * every frame past it, picked again by the drawing) */
	if (r->caller) {
		size_t lo = pick.nr_spans == 1 ? pick.span[0].lo : 0;

		out->callchain = res->callchain + lo;
		out->nr_callchain = k + 1 - lo;
	} else {
		size_t hi = pick.nr_spans == 1 ? pick.span[0].hi : n;

		out->callchain = res->callchain + k;
		out->nr_callchain = hi - k;
	}
	/* the cached stack's notes are of the whole callchain */
	out->stack_id = 0;
	out->stack_slot = NULL;
	return 1;
}

static int rp_report_add_sample(struct rp_report *r, const struct rp_event *ev,
				const struct rp_resolved *res)
{
	const struct rp_sample *s = &ev->u.sample;
	int idx = rp_evsel_idx(ev->evsel);
	struct rp_resolved ignored;

	if (idx < 0 || (size_t)idx >= r->nr_hists)
		return 0;
	/* perf resolves the callchain, where the regex is tried, only for
	 * graphs, --children or the parent key (sample__resolve_callchain) */
	if (r->have_ignore_re && res && res->nr_callchain &&
	    (r->graph || r->children || (r->need & (1ull << RP_SORT_PARENT))) &&
	    rp_ignore_callees(r, res, &ignored))
		res = &ignored;
	struct rp_hists *h = &r->hists[idx];
	struct rp_hist_entry key, *e;
	uint64_t period = s->period;
	int rc;

	/* perf's branch mode skips samples without a branch stack. */
	if (r->mode == RP_MODE_BRANCH && !(s->sample_type & RP_SAMPLE_BRANCH_STACK))
		return 0;

	/* Every field set one by one: cheaper than a memset per sample. */
	key.next = NULL;
	key.pairs = NULL;
	key.hash = 0;
	key.period = key.nr_samples = key.acc_period = key.acc_samples = 0;
	key.period_sys = key.period_us = key.period_guest_sys = key.period_guest_us = 0;
	key.parent = key.trace = NULL;
	key.weight = key.transaction = key.time = key.code_page_size = key.cgroup = 0;
	key.map_size = key.cg_dev = key.cg_ino = 0;
	key.ins_lat = 0;
	key.socket = -1;
	key.chain = NULL;
	key.br = NULL;
	key.mem = NULL;
	/* An entry filter's marks (perf's al.filtered) go with the entry
	 * this sample makes, and with --children with the entries of its
	 * stack: the row is hidden, its samples stay in the totals. */
	key.filtered = res ? res->filtered : 0;
	key.trace_cut = 0;
	key.thread = res ? res->thread : NULL;
	key.map = res ? res->al.map : NULL;
	key.space = rp_report_space(res ? res->thread : NULL, res ? res->al.level : 0);
	key.map_dso = res ? res->al.dso : NULL;
	key.sample_ip = s->ip;
	if ((rc = rp_ekey_fill(&key.k, &r->names, r->want_srcline ? &r->srctext : NULL, s, res)))
		return rc;
	if (res && res->al.map && (r->need & (1ull << RP_SORT_DSO_SIZE)))
		key.map_size = rp_map_end(res->al.map) - rp_map_start(res->al.map);
	if ((r->need & RP_NEED_EXTRA) && (rc = rp_report_fill_extra(r, &key, ev, res)))
		return rc;
	if (r->mode == RP_MODE_BRANCH)
		return rp_report_add_branches(r, (size_t)idx, &key, ev, res);
	struct rp_mem_info mi;

	if (r->mode == RP_MODE_MEMORY) {
		/* perf's iter_add_single_mem_entry(): the sample weighs its
		 * weight (1 without), as its period. */
		uint64_t w = (s->sample_type & RP_SAMPLE_WEIGHT_STRUCT) ? s->weight_var1_dw
			     : (s->sample_type & RP_SAMPLE_WEIGHT)      ? s->weight
									: 0;

		period = w ? w : 1;
		if ((rc = rp_report_mem_info(r, &mi, ev, res)) < 0)
			return rc;
		key.mem = &mi;
	}
	if ((rc = rp_report_account(r, (size_t)idx, &key, ev, period, &e)) < 0)
		return rc;
	if (!res || !res->nr_callchain || (!r->graph && !r->children))
		return 0;
	return rp_report_add_stack(r, h, e, &key, res, period);
}

static int rp_max(int a, int b)
{
	return a > b ? a : b;
}

/* perf's process_read_event() with -T: one value of a thread. */
static int rp_report_read(struct rp_report *r, const struct rp_event *ev)
{
	const struct rp_read *rd = &ev->u.read.values;

	if (!ev->evsel)
		return 0;
	if (r->nr_treads == r->alloc_treads) {
		size_t n = r->alloc_treads ? r->alloc_treads * 2 : 64;
		struct rp_tread *t;

		if (n > RP_REPORT_MAX_TREADS)
			return RP_ERR_LIMIT;
		t = realloc(r->treads, n * sizeof(*t));
		if (!t)
			return RP_ERR_NOMEM;
		r->treads = t;
		r->alloc_treads = n;
	}
	struct rp_tread *t = &r->treads[r->nr_treads++];

	t->pid = ev->u.read.pid;
	t->tid = ev->u.read.tid;
	t->evsel = rp_evsel_idx(ev->evsel);
	/* perf takes the record's first word after pid and tid: the value,
	 * or with PERF_FORMAT_GROUP the number of values */
	t->value = (rd->read_format & RP_FORMAT_GROUP) ? rd->nr
		   : rd->nr			     ? rp_read_get(rd, 0).value
						     : 0;
	return 0;
}

/*
 * perf's perf_read_values__display_pretty(): a row per thread (pid, tid)
 * and a column per event, each in the order first read, values added up.
 */
static int rp_report_write_threads(const struct rp_report *r, FILE *out)
{
	size_t nt = 0, nc = 0;
	size_t *trow = calloc(r->nr_treads + 1, sizeof(*trow));
	size_t *tcol = calloc(r->nr_treads + 1, sizeof(*tcol));
	size_t *first_t = calloc(r->nr_treads + 1, sizeof(*first_t));
	int *cevsel = calloc(r->nr_treads + 1, sizeof(*cevsel));
	uint64_t *v = NULL;
	int rc = RP_ERR_NOMEM;

	if (!trow || !tcol || !first_t || !cevsel)
		goto out;
	for (size_t i = 0; i < r->nr_treads; i++) {
		const struct rp_tread *t = &r->treads[i];
		size_t j;

		for (j = 0; j < nt; j++)
			if (r->treads[first_t[j]].pid == t->pid && r->treads[first_t[j]].tid == t->tid)
				break;
		if (j == nt)
			first_t[nt++] = i;
		trow[i] = j;
		for (j = 0; j < nc; j++)
			if (cevsel[j] == t->evsel)
				break;
		if (j == nc)
			cevsel[nc++] = t->evsel;
		tcol[i] = j;
	}
	if (nt && nc && !(v = calloc(nt * nc, sizeof(*v))))
		goto out;
	for (size_t i = 0; i < r->nr_treads; i++)
		v[trow[i] * nc + tcol[i]] += r->treads[i].value;

	int pw = 3, tw = 3, cw[RP_REPORT_MAX_TCOLS];
	const char *cname[RP_REPORT_MAX_TCOLS];
	char num[32];

	if (nc > RP_REPORT_MAX_TCOLS)
		nc = RP_REPORT_MAX_TCOLS;
	for (size_t j = 0; j < nc; j++) {
		cname[j] = rp_evsel_name(rp_session_evsel(r->session, (size_t)cevsel[j]));
		if (!cname[j])
			cname[j] = "";
		cw[j] = (int)strlen(cname[j]);
	}
	for (size_t i = 0; i < nt; i++) {
		const struct rp_tread *t = &r->treads[first_t[i]];

		pw = rp_max(pw, snprintf(num, sizeof(num), "%d", (int)t->pid));
		tw = rp_max(tw, snprintf(num, sizeof(num), "%d", (int)t->tid));
		for (size_t j = 0; j < nc; j++)
			cw[j] = rp_max(cw[j], snprintf(num, sizeof(num), "%" PRIu64, v[i * nc + j]));
	}
	fprintf(out, "# %*s  %*s", pw, "PID", tw, "TID");
	for (size_t j = 0; j < nc; j++)
		fprintf(out, "  %*s", cw[j], cname[j]);
	fputc('\n', out);
	for (size_t i = 0; i < nt; i++) {
		const struct rp_tread *t = &r->treads[first_t[i]];

		fprintf(out, "  %*d  %*d", pw, (int)t->pid, tw, (int)t->tid);
		for (size_t j = 0; j < nc; j++)
			fprintf(out, "  %*" PRIu64, cw[j], v[i * nc + j]);
		fputc('\n', out);
	}
	rc = 0;
out:
	free(trow);
	free(tcol);
	free(first_t);
	free(cevsel);
	free(v);
	return rc;
}

static int rp_report_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_report *r = ctx;

	switch (ev->type) {
	case RP_RECORD_SAMPLE:
		if (!ev->evsel)
			return 0;
		return rp_report_add_sample(r, ev, res);
	case RP_RECORD_LOST_SAMPLES:
		r->lost_samples += ev->u.lost.lost;
		return 0;
	case RP_RECORD_READ:
		return r->show_threads ? rp_report_read(r, ev) : 0;
	case RP_RECORD_CGROUP:
	case RP_RECORD_NAMESPACES:
		return rp_report_sideband(r, ev);
	default:
		return 0;
	}
}

struct rp_consumer rp_report_consumer(struct rp_report *report)
{
	struct rp_consumer c = { report, rp_report_event, RP_CONSUMER_FILTERED };

	if (report && (report->graph || report->children ||
		       (report->need & (1ull << RP_SORT_PARENT))))
		c.flags |= RP_CONSUMER_CALLCHAIN;
	if (report && report->mode == RP_MODE_BRANCH)
		c.flags |= RP_CONSUMER_BRANCHES;
	if (report && report->mode == RP_MODE_MEMORY)
		c.flags |= RP_CONSUMER_MEM;
	if (report && report->caller)
		c.flags |= RP_CONSUMER_CALLER_ORDER;
	/* The rows and stacks tables are the report's own: with two threads
	 * they fill on a thread of the pipeline's while it resolves later
	 * samples, unless a key looks up source lines (symbols are the
	 * pipeline's: a srcline sort key, or a call-graph key other than
	 * function, whose frames show their lines) or the mode needs
	 * branches or memory addresses. */
	if (report && report->mode == RP_MODE_NORMAL && !report->want_srcline &&
	    report->call_key == RP_CALL_KEY_FUNCTION)
		c.flags |= RP_CONSUMER_OWN_THREAD;

	return c;
}

/* ---- event groups ------------------------------------------------------- */

/*
 * Fills g (one per hists) with the file's groups, as perf rebuilds them
 * from GROUP_DESC: the leader gets the member count (which perf also uses
 * with --no-group, for "of events"), the evsels after it in attr order are
 * its members.  perf matches the descriptions in attr order, so one whose
 * leader lies inside an earlier group ends the matching; a group that does
 * not fit in the report's evsels is left out.  With --group (or
 * --no-group) and no group in the file, every evsel joins the first one's
 * group.
 */
static void rp_report_groups(const struct rp_report *r, struct rp_evgroup *g)
{
	const struct rp_header_info *hi = r->session ? rp_session_header(r->session) : NULL;
	size_t i, next = 0;

	for (i = 0; i < r->nr_hists; i++) {
		g[i].leader = i;
		g[i].nr_members = 1;
		g[i].name = NULL;
		g[i].forced = 0;
	}
	if (hi && hi->groups) {
		for (i = 0; i < hi->nr_groups; i++) {
			const struct rp_group_desc *d = &hi->groups[i];
			size_t lead = d->leader_idx;

			if (lead < next)
				break;
			if (d->nr_members < 2 || lead >= r->nr_hists ||
			    d->nr_members > r->nr_hists - lead)
				continue;
			g[lead].nr_members = d->nr_members;
			/* perf stores no name for "{anon_group}". */
			g[lead].name = d->name && strcmp(d->name, "{anon_group}") ? d->name : NULL;
			for (uint32_t m = 1; m < d->nr_members; m++)
				g[lead + m].leader = lead;
			next = lead + d->nr_members;
		}
	}
	/* perf forces the leader whenever --group or --no-group was given:
	 * with --no-group it only shows in the first event's "of events". */
	if (r->group_mode != RP_REPORT_GROUP_AUTO && (!hi || !hi->nr_groups) && r->nr_hists) {
		for (i = 0; i < r->nr_hists; i++)
			g[i].leader = 0;
		g[0].nr_members = (uint32_t)r->nr_hists;
		g[0].forced = 1;
	}
}

/* Whether evsel i is shown as a group: the group view is on and i leads
 * more than itself (perf's evsel__is_group_event). */
static int rp_is_group_event(const struct rp_report *r, const struct rp_evgroup *g, size_t i)
{
	return r->group_mode != RP_REPORT_GROUP_OFF && g[i].leader == i && g[i].nr_members > 1;
}

static struct rp_pair *rp_pairs_new(struct rp_report *r, uint32_t nr_members)
{
	size_t n = (size_t)(nr_members - 1) * sizeof(struct rp_pair);
	struct rp_pair *p = rp_arena_alloc(&r->arena, n);

	if (p)
		memset(p, 0, n);
	return p;
}

/*
 * Links the members of the group led by hists `lead` into its table, once:
 * a member's entry joins the leader's equal entry as its pair, or, when the
 * leader has none, an entry with no sample of the leader's own is added
 * for it (perf's hists__match and hists__link).  Returns 0, RP_ERR_LIMIT
 * or RP_ERR_NOMEM.
 */
static int rp_group_link(struct rp_report *r, size_t lead, uint32_t nr_members)
{
	struct rp_hists *h = &r->hists[lead];
	size_t i;

	if (h->linked)
		return 0;
	for (i = 0; i < h->nr_entries; i++) {
		h->entries[i]->pairs = rp_pairs_new(r, nr_members);
		if (!h->entries[i]->pairs)
			return RP_ERR_NOMEM;
	}
	for (uint32_t m = 1; m < nr_members; m++) {
		const struct rp_hists *mh = &r->hists[lead + m];

		for (i = 0; i < mh->nr_entries; i++) {
			const struct rp_hist_entry *me = mh->entries[i];
			struct rp_hist_entry *e = rp_hists_find(r, h, me);

			if (!e) {
				struct rp_hist_entry dummy = *me;
				int rc;

				dummy.period = 0;
				dummy.nr_samples = 0;
				dummy.period_sys = dummy.period_us = 0;
				dummy.period_guest_sys = dummy.period_guest_us = 0;
				dummy.acc_period = 0;
				dummy.acc_samples = 0;
				dummy.chain = NULL;
				dummy.pairs = rp_pairs_new(r, nr_members);
				if (!dummy.pairs)
					return RP_ERR_NOMEM;
				rc = rp_hists_insert(r, h, &dummy, &e);
				if (rc)
					return rc;
			}
			e->pairs[m - 1].period = me->period;
			e->pairs[m - 1].nr_samples = me->nr_samples;
			e->pairs[m - 1].acc_period = me->acc_period;
			e->pairs[m - 1].period_sys = me->period_sys;
			e->pairs[m - 1].period_us = me->period_us;
			e->pairs[m - 1].period_guest_sys = me->period_guest_sys;
			e->pairs[m - 1].period_guest_us = me->period_guest_us;
		}
	}
	h->linked = 1;
	return 0;
}

/*
 * perf's evsel__group_desc() in its 512-byte buffer: "NAME { a, b }" or
 * "anon group { a, b }", only "a, b" for a forced group.
 */
static void rp_group_desc(const struct rp_report *r, const struct rp_evgroup *g, size_t lead,
			  char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	/* m: 0 the name and brace, 1..nr_members the events, then the brace. */
	for (uint32_t m = 0; m <= g[lead].nr_members + 1; m++) {
		const char *name = "";
		const char *pre = m > 1 ? ", " : "";

		if (m == 0) {
			if (g[lead].forced)
				continue;
			pre = g[lead].name ? g[lead].name : "anon group";
			name = " { ";
		} else if (m > g[lead].nr_members) {
			if (g[lead].forced)
				break;
			pre = " }";
		} else {
			name = rp_evsel_name(rp_session_evsel(r->session, lead + m - 1));
			if (!name)
				name = "";
		}
		int n = snprintf(buf + len, size - len, "%s%s", pre, name);
		if (n < 0)
			break;
		len += (size_t)n;
		if (len >= size - 1) {
			len = size - 1;
			break;
		}
	}
}

/* ---- ordering ---------------------------------------------------------- */

static int rp_cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int rp_cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

/* perf's (int64_t)(right - left) > 0: a first when smaller, with the
 * wrap of the u64 difference. */
static int rp_cmp_asc_wrap(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(b - a);

	return d > 0 ? -1 : d < 0 ? 1 : 0;
}

/* perf's (int64_t)(left - right) > 0: a first when larger. */
static int rp_cmp_desc_wrap(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d > 0 ? -1 : d < 0 ? 1 : 0;
}

static int rp_cmp_key_collapse(const struct rp_report *r, enum rp_sort_key key,
			       const struct rp_hist_entry *a,
			       const struct rp_hist_entry *b);
static int rp_cmp_brmem(const struct rp_report *r, enum rp_sort_key key,
			const struct rp_hist_entry *a,
			const struct rp_hist_entry *b);

#define RP_STR_OR_EMPTY(s) ((s) ? (s) : "")

static int rp_cmp_str(const char *a, const char *b)
{
	int c = strcmp(a, b);

	return c < 0 ? -1 : c > 0 ? 1 : 0;
}

/*
 * The output order of one key (perf's se_sort, else se_cmp): a negative
 * value puts a first.
 */
static int rp_cmp_key_sort(const struct rp_report *r, enum rp_sort_key key,
			   const struct rp_hist_entry *a,
			   const struct rp_hist_entry *b)
{
	if (RP_KEY_IS_COMMON(key))
		return rp_ekey_cmp(key, &a->k, &b->k);
	switch (key) {
	case RP_SORT_PARENT:
		/* perf's cmp_null(): an entry without a parent goes last */
		if (!a->parent || !b->parent)
			return (a->parent ? 0 : 1) - (b->parent ? 0 : 1);
		return a->parent == b->parent ? 0 : rp_cmp_str(a->parent, b->parent);
	case RP_SORT_SOCKET:
		return rp_cmp_i64(a->socket, b->socket);
	case RP_SORT_LOCAL_WEIGHT:
	case RP_SORT_WEIGHT:
		return rp_cmp_desc_wrap(a->weight, b->weight);
	case RP_SORT_LOCAL_INS_LAT:
	case RP_SORT_INS_LAT:
		return rp_cmp_desc_wrap(a->ins_lat, b->ins_lat);
	case RP_SORT_TRANSACTION:
		return rp_cmp_desc_wrap(a->transaction, b->transaction);
	case RP_SORT_TRACE:
		/* only tracepoint entries have a text: others tie */
		if (!a->trace || !b->trace || a->trace == b->trace)
			return 0;
		return rp_cmp_str(a->trace, b->trace);
	case RP_SORT_SYM_SIZE: {
		uint64_t sa = rp_sym_size(a), sb = rp_sym_size(b);

		return sa < sb ? -1 : sa > sb ? 1 : 0;
	}
	case RP_SORT_DSO_SIZE:
		return a->map_size < b->map_size ? -1 : a->map_size > b->map_size ? 1 : 0;
	case RP_SORT_CGROUP:
		return rp_cmp_asc_wrap(a->cgroup, b->cgroup);
	case RP_SORT_CGROUP_ID: {
		int c = rp_cmp_asc_wrap(a->cg_dev, b->cg_dev);

		return c ? c : rp_cmp_asc_wrap(a->cg_ino, b->cg_ino);
	}
	case RP_SORT_IPC_NULL:
		return rp_cmp_key_collapse(r, RP_SORT_SYM, a, b);
	case RP_SORT_TIME:
		return rp_cmp_asc_wrap(a->time, b->time);
	case RP_SORT_CODE_PAGE_SIZE:
		return rp_cmp_asc_wrap(a->code_page_size, b->code_page_size);
	case RP_SORT_ADDR:
		return rp_cmp_asc_wrap(a->sample_ip, b->sample_ip);
	case RP_SORT_IPC_LBR:
		return rp_cmp_key_collapse(r, RP_SORT_SYM, a, b);
	default:
		if (key >= RP_SORT_SYM_DADDR)
			return rp_cmp_brmem(r, key, a, b);
		break;
	}
	return 0;
}

/* The order in which perf's collapsed tree holds the entries (se_cmp). */
static int rp_cmp_key_collapse(const struct rp_report *r, enum rp_sort_key key,
			       const struct rp_hist_entry *a,
			       const struct rp_hist_entry *b)
{
	int c;

	if (key != RP_SORT_SYM)
		return rp_cmp_key_sort(r, key, a, b);
	/* perf's _sort__addr_cmp(): the sign of the u64 difference, which
	 * is no order for addresses 2^63 or more apart (garbage frames of
	 * a stack without frame pointers): the trees' shapes decide. */
	if (!a->k.sym && !b->k.sym)
		return rp_cmp_asc_wrap(a->k.ip, b->k.ip);
	/* perf 6.1.97 and later compare the DSOs here only when dso is not
	 * a key of its own (commit "perf report: Fix condition in
	 * sort__sym_cmp()"). */
	if (!r->dso_key && (c = rp_ekey_cmp(RP_SORT_DSO, &a->k, &b->k)))
		return c;
	if (!a->k.sym || !b->k.sym)
		return (a->k.sym ? 0 : 1) - (b->k.sym ? 0 : 1);
	if (a->k.sym_inlined || b->k.sym_inlined) {
		/* inlined frames by name, equal within overlapping ranges */
		if ((c = rp_cmp_str(b->k.sym, a->k.sym)))
			return c;
		if (a->k.sym_start <= b->k.sym_end && a->k.sym_end >= b->k.sym_start)
			return 0;
	}
	c = rp_cmp_asc_wrap(a->k.sym_start, b->k.sym_start);
	return c ? c : rp_cmp_asc_wrap(a->k.sym_end, b->k.sym_end);
}

/* What the comparators of one sort need (qsort_r's and rp_rbsort's
 * context). */
struct rp_sorting {
	const struct rp_report *r;
	uint32_t pairs; /* of each entry: members after the leader (0: no group) */
	int children;
	int graph;
	uint64_t skip; /* bit i: sortl[i] left out of the output sort (rp_sort_skips()) */
};

/* perf's _sort__dso_cmp(left, right) as the branch and memory keys call
 * it: entries without a DSO first, then names from the largest. */
static int rp_cmp_dso_desc(const char *a, const char *b)
{
	if (!a || !b)
		return (a ? 1 : 0) - (b ? 1 : 0);
	return a == b ? 0 : -rp_cmp_str(a, b);
}

/* perf's sort__sym_from_cmp() on one end of two branches. */
static int rp_cmp_loc_sym(const struct rp_loc *a, const struct rp_loc *b)
{
	int c;

	if (!a->sym && !b->sym)
		return rp_cmp_asc_wrap(a->addr, b->addr);
	if (!a->sym || !b->sym)
		return (a->sym ? 0 : 1) - (b->sym ? 0 : 1);
	if (a->sym == b->sym)
		return 0;
	c = rp_cmp_asc_wrap(a->sym->start, b->sym->start);
	return c ? c : rp_cmp_asc_wrap(a->sym->end, b->sym->end);
}

static int rp_cmp_u64_asc(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

/* Whether a memory access's map is anonymous user memory, which perf's
 * dcacheline orders by process first. */
static int rp_mem_anon(const struct rp_mem_info *m)
{
	const struct rp_dso *d = m->daddr.dso;

	return m->cpumode != RP_MISC_KERNEL && !(m->daddr.map_flags & RP_MAP_SHARED_FLAG) &&
	       (!d || (!d->id_maj && !d->id_min && !d->id_ino && !d->id_ino_gen));
}

/* perf's sort__dcacheline_cmp(): by cpumode, map (none last), the DSO's
 * device and inode, the process for anonymous memory (left's), then the
 * cache line of the address in its DSO. */
static int rp_cmp_dcacheline(const struct rp_report *r, const struct rp_hist_entry *a,
			     const struct rp_hist_entry *b)
{
	const struct rp_mem_info *ma = RP_MEMI(a), *mb = RP_MEMI(b);
	uint64_t mask = ~(r->cacheline_size - 1);
	int c;

	if ((c = rp_cmp_u64_asc(ma->cpumode, mb->cpumode)))
		return c;
	if (ma->daddr.has_map || mb->daddr.has_map) {
		const struct rp_dso *da = ma->daddr.dso, *db = mb->daddr.dso;

		if (!ma->daddr.has_map)
			return 1;
		if (!mb->daddr.has_map)
			return -1;
		if (da && db &&
		    ((c = rp_cmp_u64_asc(da->id_maj, db->id_maj)) ||
		     (c = rp_cmp_u64_asc(da->id_min, db->id_min)) ||
		     (c = rp_cmp_u64_asc(da->id_ino, db->id_ino)) ||
		     (c = rp_cmp_u64_asc(da->id_ino_gen, db->id_ino_gen))))
			return c;
		if (rp_mem_anon(ma) && (c = rp_cmp_i64(ma->pid, mb->pid)))
			return c;
	}
	return rp_cmp_u64_asc(ma->daddr.al_addr & mask, mb->daddr.al_addr & mask);
}

/* The output order of a branch or memory key (perf's se_cmp, negated as
 * rp_cmp_key_sort() does). */
static int rp_cmp_brmem(const struct rp_report *r, enum rp_sort_key key,
			const struct rp_hist_entry *a,
			const struct rp_hist_entry *b)
{
	const struct rp_br_info *ba = RP_BR(a), *bb = RP_BR(b);
	const struct rp_mem_info *ma = RP_MEMI(a), *mb = RP_MEMI(b);
	int c;

	switch (key) {
	case RP_SORT_SYM_DADDR:
		return rp_cmp_asc_wrap(ma->daddr.addr, mb->daddr.addr);
	case RP_SORT_SYM_IADDR:
		return rp_cmp_asc_wrap(ma->iaddr.addr, mb->iaddr.addr);
	case RP_SORT_DSO_DADDR:
		return rp_cmp_dso_desc(ma->daddr.dso_name, mb->daddr.dso_name);
	case RP_SORT_LOCKED:
		return rp_cmp_u64_asc(RP_MEM_LOCK(ma->data_src), RP_MEM_LOCK(mb->data_src));
	case RP_SORT_TLB:
		return rp_cmp_u64_asc(RP_MEM_DTLB(ma->data_src), RP_MEM_DTLB(mb->data_src));
	case RP_SORT_MEM:
		return rp_cmp_u64_asc(RP_MEM_LVL(ma->data_src), RP_MEM_LVL(mb->data_src));
	case RP_SORT_SNOOP:
		return rp_cmp_u64_asc(RP_MEM_SNOOP(ma->data_src), RP_MEM_SNOOP(mb->data_src));
	case RP_SORT_BLOCKED:
		return rp_cmp_u64_asc(RP_MEM_BLK(ma->data_src), RP_MEM_BLK(mb->data_src));
	case RP_SORT_DCACHELINE:
		return rp_cmp_dcacheline(r, a, b);
	case RP_SORT_PHYS_DADDR:
		return rp_cmp_asc_wrap(ma->phys_addr, mb->phys_addr);
	case RP_SORT_DATA_PAGE_SIZE:
		return rp_cmp_asc_wrap(ma->data_page_size, mb->data_page_size);
	case RP_SORT_DSO_FROM:
		return rp_cmp_dso_desc(ba->from.dso_name, bb->from.dso_name);
	case RP_SORT_DSO_TO:
		return rp_cmp_dso_desc(ba->to.dso_name, bb->to.dso_name);
	case RP_SORT_SYM_FROM:
		return rp_cmp_loc_sym(&ba->from, &bb->from);
	case RP_SORT_SYM_TO:
		return rp_cmp_loc_sym(&ba->to, &bb->to);
	/* perf answers only "the same" (0) or "put left first" (1) */
	case RP_SORT_MISPREDICT:
		return (ba->flags & 3u) != (bb->flags & 3u) ? -1 : 0;
	case RP_SORT_IN_TX:
		return RP_BR_IN_TX(ba->flags) != RP_BR_IN_TX(bb->flags) ? -1 : 0;
	case RP_SORT_ABORT:
		return RP_BR_ABORT(ba->flags) != RP_BR_ABORT(bb->flags) ? -1 : 0;
	case RP_SORT_CYCLES:
		return rp_cmp_u64_desc(RP_BR_CYCLES(ba->flags), RP_BR_CYCLES(bb->flags));
	case RP_SORT_SRCLINE_FROM:
		/* the entries' texts now exist for perf (see rp_br_info) */
		((struct rp_br_info *)(uintptr_t)ba)->srcline_from_cmp = 1;
		((struct rp_br_info *)(uintptr_t)bb)->srcline_from_cmp = 1;
		return ba->srcline_from == bb->srcline_from
			       ? 0
			       : rp_cmp_str(RP_STR_OR_EMPTY(ba->srcline_from),
					    RP_STR_OR_EMPTY(bb->srcline_from));
	case RP_SORT_SRCLINE_TO:
		((struct rp_br_info *)(uintptr_t)ba)->srcline_to_cmp = 1;
		((struct rp_br_info *)(uintptr_t)bb)->srcline_to_cmp = 1;
		return ba->srcline_to == bb->srcline_to
			       ? 0
			       : rp_cmp_str(RP_STR_OR_EMPTY(ba->srcline_to),
					    RP_STR_OR_EMPTY(bb->srcline_to));
	case RP_SORT_ADDR_FROM:
		if ((c = rp_cmp_dso_desc(ba->from.dso_name, bb->from.dso_name)))
			return c;
		return rp_cmp_asc_wrap(ba->from.addr, bb->from.addr);
	case RP_SORT_ADDR_TO:
		if ((c = rp_cmp_dso_desc(ba->to.dso_name, bb->to.dso_name)))
			return c;
		return rp_cmp_asc_wrap(ba->to.addr, bb->to.addr);
	default:
		return 0;
	}
}

/*
 * perf's __hpp__sort for a group: the leader's figure, then each member's
 * in group order (0 where the member has no entry), larger first.
 */
static int rp_cmp_group_period(const struct rp_sorting *st, const struct rp_hist_entry *a,
			       const struct rp_hist_entry *b)
{
	int c = rp_cmp_u64_desc(a->period, b->period);

	for (uint32_t m = 0; !c && m < st->pairs && a->pairs && b->pairs; m++)
		c = rp_cmp_u64_desc(a->pairs[m].period, b->pairs[m].period);
	return c;
}

static int rp_cmp_group_samples(const struct rp_sorting *st, const struct rp_hist_entry *a,
				const struct rp_hist_entry *b)
{
	int c = rp_cmp_u64_desc(a->nr_samples, b->nr_samples);

	for (uint32_t m = 0; !c && m < st->pairs && a->pairs && b->pairs; m++)
		c = rp_cmp_u64_desc(a->pairs[m].nr_samples, b->pairs[m].nr_samples);
	return c;
}

/* An entry's or a member pair's period of one cpumode column. */
static uint64_t rp_mode_period(int dim, uint64_t sys, uint64_t us, uint64_t gsys, uint64_t gus)
{
	return dim == RP_SORT_OVERHEAD_SYS	    ? sys
	       : dim == RP_SORT_OVERHEAD_US	    ? us
	       : dim == RP_SORT_OVERHEAD_GUEST_SYS ? gsys
						   : gus;
}

/* perf's __hpp__sort() of a cpumode column: the leader's figure, then
 * each member's. */
static int rp_cmp_group_mode(const struct rp_sorting *st, int dim, const struct rp_hist_entry *a,
			     const struct rp_hist_entry *b)
{
	int c = rp_cmp_u64_desc(rp_mode_period(dim, a->period_sys, a->period_us,
					       a->period_guest_sys, a->period_guest_us),
				rp_mode_period(dim, b->period_sys, b->period_us,
					       b->period_guest_sys, b->period_guest_us));

	for (uint32_t m = 0; !c && m < st->pairs && a->pairs && b->pairs; m++) {
		const struct rp_pair *pa = &a->pairs[m], *pb = &b->pairs[m];

		c = rp_cmp_u64_desc(rp_mode_period(dim, pa->period_sys, pa->period_us,
						   pa->period_guest_sys, pa->period_guest_us),
				    rp_mode_period(dim, pb->period_sys, pb->period_us,
						   pb->period_guest_sys, pb->period_guest_us));
	}
	return c;
}

/* The order of perf's collapsed tree alone. */
static int rp_entry_collapse_order(const void *pa, const void *pb, void *ctx)
{
	const struct rp_hist_entry *a = *(const struct rp_hist_entry *const *)pa;
	const struct rp_hist_entry *b = *(const struct rp_hist_entry *const *)pb;
	const struct rp_report *r = ((const struct rp_sorting *)ctx)->r;
	int c;

	for (size_t i = 0; i < r->nr_keys; i++)
		if ((c = rp_cmp_key_collapse(r, r->keys[i], a, b)))
			return c;
	return 0;
}

/* perf's hist_entry__cmp(node, key) for rp_rbinc_find(): the entry
 * keys' order (a positive value: key before node). */
static int rp_entry_tree_cmp(void *ctx, const void *node, const void *key)
{
	const struct rp_report *r = ctx;
	int c;

	for (size_t i = 0; i < r->nr_keys; i++)
		if ((c = rp_cmp_key_collapse(r, r->keys[i], node, key)))
			return c;
	return 0;
}

/* e's call graph into k's: perf's callchain_merge() with per_path 1,
 * else as if e's samples were k's (rp_ctree_merge()).  Returns 0,
 * RP_ERR_NOMEM or RP_ERR_LIMIT. */
static int rp_report_merge_graph(struct rp_report *r, struct rp_hist_entry *k,
				 const struct rp_hist_entry *e, int per_path)
{
	struct rp_ctree *t = rp_report_ctree_of(r, k);

	if (!e->chain)
		return 0;
	if (!k->chain && !(k->chain = rp_ctree_root(t)))
		return RP_ERR_NOMEM;
	return rp_ctree_merge(t, k->chain, e->chain, per_path);
}

/*
 * The merges of call graphs a collapse deferred (rp_report.merge_log),
 * by partition (rp_report_drain_parts()): a kept entry's graph takes its
 * merges in the collapse's order, as without partitions (the graphs
 * merged from are only read).  Then an empty log.
 */
static int rp_report_merge_graphs(struct rp_report *r)
{
	int rc = rp_report_drain_parts(r, RP_DRAIN_MERGES);

	r->nr_merges = 0;
	return rc;
}

/* perf's hists__collapse_insert_entry() merge: item's figures and call
 * graph (callchain_merge()) go to kept.  Returns 0, RP_ERR_NOMEM or
 * RP_ERR_LIMIT. */
static int rp_entry_merge(void *ctx, void *kept, void *item)
{
	struct rp_report *r = ctx;
	struct rp_hist_entry *k = kept;
	const struct rp_hist_entry *e = item;
	int rc;

	if (e->chain && r->defer_merges) {
		if (RP_ARRAY_RESERVE(r->merge_log, r->alloc_merges, r->nr_merges + 1) < 0)
			return RP_ERR_NOMEM;
		r->merge_log[r->nr_merges++] = (struct rp_merge_item){ k, e };
	} else if ((rc = rp_report_merge_graph(r, k, e, 1)) < 0) {
		return rc;
	}
	k->period += e->period;
	k->nr_samples += e->nr_samples;
	k->period_sys += e->period_sys;
	k->period_us += e->period_us;
	k->period_guest_sys += e->period_guest_sys;
	k->period_guest_us += e->period_guest_us;
	k->acc_period += e->acc_period;
	k->acc_samples += e->acc_samples;
	return 0;
}

/* perf's sort of one hpp column: larger first. */
static int rp_cmp_hpp(const struct rp_sorting *st, int dim, const struct rp_hist_entry *a,
		      const struct rp_hist_entry *b)
{
	int c;

	switch (dim) {
	case RP_SORT_OVERHEAD:
	case RP_SORT_PERIOD:
		return rp_cmp_group_period(st, a, b);
	case RP_SORT_SAMPLE:
		return rp_cmp_group_samples(st, a, b);
	case RP_SORT_OVERHEAD_SYS:
	case RP_SORT_OVERHEAD_US:
	case RP_SORT_OVERHEAD_GUEST_SYS:
	case RP_SORT_OVERHEAD_GUEST_US:
		return rp_cmp_group_mode(st, dim, a, b);
	case RP_SORT_OVERHEAD_CHILDREN:
		if (!st->children)
			return 0;
		c = rp_cmp_u64_desc(a->acc_period, b->acc_period);
		/* perf puts a caller above its callee when both have the same
		 * Children period: by the depth of their graphs (only when
		 * graphs are built, for entries of one thread). */
		if (!c && st->graph && a->thread == b->thread) {
			uint32_t da = a->chain ? a->chain->max_depth : 0;
			uint32_t db = b->chain ? b->chain->max_depth : 0;

			c = da == db ? 0 : (da > db) == (st->r->caller != 0) ? -1 : 1;
		}
		return c;
	default:
		return 0;
	}
}

/*
 * The keys perf's hist_entry__sort() passes over (perf_hpp__should_skip()):
 * those sort__setup_elide() leaves out of the columns.  Elision marks the
 * column's format, which is the sort list's own unless the key is both in
 * --sort and in -F (then perf makes one format for each list, and the sort
 * list's stays unmarked).  perf's input and collapsed trees
 * (hist_entry__cmp(), hist_entry__collapse()) still compare every key.
 */
static uint64_t rp_sort_skips(const struct rp_report *r)
{
	uint64_t skip = 0;

	for (size_t i = 0; i < r->nr_sortl && i < 64; i++) {
		int dim = r->sortl[i];

		if (rp_dim_is_hpp(dim) || !rp_key_elided(&r->singles, r->cols, r->nr_cols, dim))
			continue;
		if (rp_dims_has(r->sort0, r->nr_sort0, dim) &&
		    rp_dims_has(r->fields0, r->nr_fields0, dim))
			continue;
		skip |= 1ull << i;
	}
	return skip;
}

/* perf's hist_entry__sort(): the sort list in order.  Ties are left to
 * the order the entries come in (perf's output tree, rp_rbsort()). */
static int rp_entry_order(const void *pa, const void *pb, void *ctx)
{
	const struct rp_hist_entry *a = *(const struct rp_hist_entry *const *)pa;
	const struct rp_hist_entry *b = *(const struct rp_hist_entry *const *)pb;
	const struct rp_sorting *st = ctx;
	const struct rp_report *r = st->r;
	int c;
	size_t i;

	for (i = 0; i < r->nr_sortl; i++) {
		int dim = r->sortl[i];

		if (st->skip >> i & 1)
			continue;
		c = rp_dim_is_hpp(dim) ? rp_cmp_hpp(st, dim, a, b)
				       : rp_cmp_key_sort(r, (enum rp_sort_key)dim, a, b);
		if (c)
			return c;
	}
	return 0;
}

/* ---- output ------------------------------------------------------------- */

static const char *rp_entry_final_comm(const struct rp_hist_entry *e)
{
	const char *c = e->thread ? rp_thread_comm(e->thread) : NULL;

	return c ? c : e->k.comm;
}

/* Whether the report hides the entry (entry filters, -x). */
static int rp_entry_hidden(const struct rp_report *r, const struct rp_hist_entry *e)
{
	return e->filtered || (r->exclude_other && !e->parent);
}

/*
 * perf's --symbol-filter (hists__filter_entry_by_symbol()): perf 6.1
 * gives the string to the first event's histogram alone and applies its
 * filters in the collapse, for entries that merged with none there, and
 * it collapses only with the comm key.  An entry without a symbol is
 * filtered too.
 */
static void rp_filter_symbol_str(const struct rp_report *r, struct rp_hists *h)
{
	if (!r->symbol_filter || !r->need_collapse)
		return;
	for (size_t i = 0; i < h->nr_entries; i++) {
		struct rp_hist_entry *e = h->entries[i];

		if (!e->k.sym || !strstr(e->k.sym, r->symbol_filter))
			e->filtered |= RP_FILTERED_SYMBOL_STR;
	}
}

/* The figures of the entries no filter hides (rp_hists.nf_*). */
static void rp_hists_nonfiltered(struct rp_hists *h)
{
	h->nf_period = h->nf_samples = h->nf_cc_period = 0;
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct rp_hist_entry *e = h->entries[i];

		if (e->filtered & ~RP_FILTERED_SYMBOL_STR)
			continue;
		h->nf_samples += e->nr_samples;
		h->nf_cc_period += e->period;
		if (!e->filtered)
			h->nf_period += e->period;
	}
}

/* perf's hists__total_period(): the total percentages are taken of. */
static uint64_t rp_shown_total(const struct rp_report *r, const struct rp_hists *h)
{
	return r->relative ? h->nf_period : h->total_period;
}

/* The cgroup key's text (perf's hist_entry__cgroup_snprintf). */
static const char *rp_cgroup_name(const struct rp_report *r, const struct rp_hist_entry *e)
{
	const char *name;

	if (!e->cgroup)
		return "N/A";
	name = rp_hashmap_get(&r->cgroups, e->cgroup);
	return name ? name : "unknown";
}

/* perf's transaction flags (PERF_TXN_*), with their texts. */
static const struct {
	uint64_t flag;
	const char *name;
} rp_txbits[] = {
	{ 1u << 0, "EL " },    { 1u << 1, "TX " },    { 1u << 2, "SYNC " },
	{ 1u << 3, "ASYNC " }, { 1u << 4, "RETRY " }, { 1u << 5, "CON " },
	{ 1u << 6, "CAP-WRITE " }, { 1u << 7, "CAP-READ " },
};

/* perf's hist_entry__transaction_len(): the flags that may show
 * together, and ":XX ". */
#define RP_TRANSACTION_LEN 32

/* The entry keys before trace (r->keys[0..n)), in perf's order. */
struct rp_trace_prefix {
	const struct rp_report *r;
	size_t n;
};

static int rp_trace_prefix_order(const void *pa, const void *pb, void *ctx)
{
	const struct rp_hist_entry *a = *(const struct rp_hist_entry *const *)pa;
	const struct rp_hist_entry *b = *(const struct rp_hist_entry *const *)pb;
	const struct rp_trace_prefix *p = ctx;
	int c;

	for (size_t i = 0; i < p->n; i++)
		if ((c = rp_cmp_key_collapse(p->r, p->r->keys[i], a, b)))
			return c;
	return 0;
}

/*
 * perf makes an entry's tracepoint text (hist_entry->trace_output) in
 * sort__trace_cmp, that is only when the entry is compared on the trace
 * key: when another sample of the evsel has the same values of the keys
 * before trace.  hists__calc_col_len() runs before the other entries'
 * texts are made (at print time), so those rows show their text cut to
 * the column's width.  Marks them (trace_cut).  Errors: RP_ERR_NOMEM.
 */
static int rp_mark_trace_cut(const struct rp_report *r, const struct rp_hists *h)
{
	struct rp_trace_prefix p = { .r = r, .n = 0 };
	struct rp_hist_entry **v;

	while (p.n < r->nr_keys && r->keys[p.n] != RP_SORT_TRACE)
		p.n++;
	if (p.n == r->nr_keys)
		return 0;
	if (!(v = malloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*v))))
		return RP_ERR_NOMEM;
	memcpy(v, h->entries, h->nr_entries * sizeof(*v));
	qsort_r(v, h->nr_entries, sizeof(*v), rp_trace_prefix_order, &p);
	for (size_t i = 0, j; i < h->nr_entries; i = j) {
		for (j = i + 1; j < h->nr_entries && !rp_trace_prefix_order(&v[i], &v[j], &p); j++)
			;
		if (j == i + 1 && v[i]->nr_samples < 2)
			v[i]->trace_cut = 1;
	}
	free(v);
	return 0;
}

/* perf's hists__calc_col_len over every entry, then the header names. */
static void rp_calc_widths(const struct rp_report *r, const struct rp_hists *h,
			   struct rp_key_widths *wd)
{
	int parent = 0, trace = 0, cgroup = 0, txn = 0;
	int w_daddr = 0, w_dcl = 0, w_iaddr = 0, w_ddso = 0, w_phys = 0, unres_ddso = 0;
	int w_symf = 0, w_symt = 0, w_dsof = 0, w_dsot = 0, w_addrf = 0, w_addrt = 0;
	int w_slf = 0, w_slt = 0, unres_dsof = 0, unres_dsot = 0;
	int *w = wd->w;

	rp_key_widths_init(wd);
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct rp_hist_entry *e = h->entries[i];

		if (rp_entry_hidden(r, e))
			continue;
		rp_key_widths_add(wd, &e->k, rp_entry_final_comm(e));
		if (e->parent)
			parent = rp_max(parent, (int)strlen(e->parent));
		if (e->trace && !e->trace_cut)
			trace = rp_max(trace, (int)strlen(e->trace));
		if (e->cgroup)
			cgroup = rp_max(cgroup, (int)strlen(rp_cgroup_name(r, e)));
		if (e->transaction)
			txn = RP_TRANSACTION_LEN;
		/* perf's hists__calc_col_len() for mem_info and branch_info */
		if (e->mem) {
			const struct rp_loc *d = &e->mem->daddr, *c = &e->mem->iaddr;
			int unres = RP_ADDR_DIGITS + 4 + 2;

			if (d->sym && d->sym->name) {
				int len = (int)strlen(d->sym->name) + 4 + RP_ADDR_DIGITS + 2;

				w_daddr = rp_max(w_daddr, len);
				w_dcl = rp_max(w_dcl, len + 1);
			} else {
				w_daddr = rp_max(w_daddr, unres);
				w_dcl = rp_max(w_dcl, unres);
			}
			w_iaddr = rp_max(w_iaddr, c->sym && c->sym->name
							  ? (int)strlen(c->sym->name) + 4 + RP_ADDR_DIGITS + 2
							  : unres);
			if (d->has_map && d->dso_name)
				w_ddso = rp_max(w_ddso, (int)strlen(d->dso_name));
			else
				unres_ddso = 1;
			w_phys = unres;
		}
		if (e->br) {
			const struct rp_loc *f = &e->br->from, *t = &e->br->to;
			int unres = RP_ADDR_DIGITS + 4 + 2;

			if (f->sym) {
				w_symf = rp_max(w_symf, (int)strlen(RP_STR_OR_EMPTY(f->sym->name)) + 4);
				w_dsof = rp_max(w_dsof, (int)strlen(RP_STR_OR_EMPTY(f->dso_name)));
			} else {
				w_symf = rp_max(w_symf, unres);
				w_addrf = rp_max(w_addrf, unres);
				unres_dsof = 1;
			}
			if (t->sym) {
				w_symt = rp_max(w_symt, (int)strlen(RP_STR_OR_EMPTY(t->sym->name)) + 4);
				w_dsot = rp_max(w_dsot, (int)strlen(RP_STR_OR_EMPTY(t->dso_name)));
			} else {
				w_symt = rp_max(w_symt, unres);
				w_addrt = rp_max(w_addrt, unres);
				unres_dsot = 1;
			}
			if (e->br->srcline_from && e->br->srcline_from_cmp)
				w_slf = rp_max(w_slf, (int)strlen(e->br->srcline_from));
			if (e->br->srcline_to && e->br->srcline_to_cmp)
				w_slt = rp_max(w_slt, (int)strlen(e->br->srcline_to));
		}
	}
	if (!r->field_sep) {
		if (unres_ddso)
			w_ddso = rp_max(w_ddso, RP_ADDR_DIGITS);
		if (unres_dsof)
			w_dsof = rp_max(w_dsof, RP_ADDR_DIGITS);
		if (unres_dsot)
			w_dsot = rp_max(w_dsot, RP_ADDR_DIGITS);
	}
	w[RP_SORT_PARENT] = parent;
	w[RP_SORT_TRACE] = trace;
	w[RP_SORT_CGROUP] = cgroup;
	w[RP_SORT_TRANSACTION] = txn;
	w[RP_SORT_LOCAL_WEIGHT] = 12;
	w[RP_SORT_WEIGHT] = 12;
	w[RP_SORT_LOCAL_INS_LAT] = 13;
	w[RP_SORT_INS_LAT] = 13;
	w[RP_SORT_ADDR] = RP_ADDR_DIGITS + 2;
	w[RP_SORT_TIME] = 12;
	w[RP_SORT_CODE_PAGE_SIZE] = 6;
	w[RP_SORT_SYM_DADDR] = w_daddr;
	w[RP_SORT_DCACHELINE] = w_dcl;
	w[RP_SORT_SYM_IADDR] = w_iaddr;
	w[RP_SORT_DSO_DADDR] = w_ddso;
	w[RP_SORT_PHYS_DADDR] = w_phys;
	w[RP_SORT_DATA_PAGE_SIZE] = w_phys;
	w[RP_SORT_LOCKED] = 6;
	w[RP_SORT_TLB] = 22;
	w[RP_SORT_SNOOP] = 12;
	w[RP_SORT_MEM] = 21 + 3;
	w[RP_SORT_BLOCKED] = 10;
	w[RP_SORT_SYM_FROM] = w_symf;
	w[RP_SORT_SYM_TO] = w_symt;
	w[RP_SORT_DSO_FROM] = w_dsof;
	w[RP_SORT_DSO_TO] = w_dsot;
	w[RP_SORT_ADDR_FROM] = w_addrf;
	w[RP_SORT_ADDR_TO] = w_addrt;
	w[RP_SORT_SRCLINE_FROM] = w_slf;
	w[RP_SORT_SRCLINE_TO] = w_slt;
	rp_key_widths_end(wd, r->field_sep);
}

static int rp_key_width(enum rp_sort_key key, const struct rp_key_widths *w)
{
	return (unsigned)key < RP_SORT_NR_KEYS_ ? w->w[key] : 0;
}

/* An hpp column's width for one group member (perf's fmt->len, at
 * least its name). */
static int rp_hpp_unit(int dim)
{
	int len = dim == RP_SORT_SAMPLE || dim == RP_SORT_PERIOD ? 12 : 8;

	return rp_max(len, (int)strlen(rp_key_header((enum rp_sort_key)dim)));
}

/* Formats the key column of e into b (from b->len on), as perf's
 * se_snprintf functions do. */
/*
 * perf's _hist_entry__sym_snprintf() (addr_style 0) and
 * _hist_entry__addr_snprintf() (1) for a location at ip (an address
 * of its DSO for the branch keys, the sampled address for the memory
 * ones): "[level] " and the symbol, a data symbol with the offset of ip
 * in it, a function's name cut to the column (addr_style: then the
 * offset when not 0), or the address.
 */
static int rp_format_loc(struct rp_strbuf *b, const struct rp_loc *l, uint64_t ip, char level,
			 int width, int addr_style)
{
	int rc = rp_strbuf_printf(b, "[%c] ", level);
	int nw = width - 4;

	if (rc)
		return rc;
	if (l->sym && l->has_map) {
		const char *name = RP_STR_OR_EMPTY(l->sym->name);

		if (l->sym->type == 1 /* STT_OBJECT */)
			return rp_strbuf_printf(b, "%s+0x%" PRIx64, name,
					     ip - rp_loc_unmap(l, l->sym->start));
		rc = rp_strbuf_printf(b, "%.*s", nw < 0 ? 0 : nw, name);
		if (!rc && addr_style && ip != l->sym->start)
			rc = rp_strbuf_printf(b, "+0x%" PRIx64, ip - l->sym->start);
		if (!rc && !addr_style && l->sym->inlined)
			rc = rp_strbuf_printf(b, " (inlined)");
		return rc;
	}
	return rp_strbuf_printf(b, "%-#.*" PRIx64, RP_ADDR_DIGITS, ip);
}

/* perf's unit_number__scnprintf() page size names (get_page_size_name). */
static void rp_page_size_name(uint64_t n, char *t, size_t size)
{
	int u = 0;

	if (!n) {
		snprintf(t, size, "N/A");
		return;
	}
	while (n / 1024 > 1 && u < 3) {
		n /= 1024;
		u++;
	}
	snprintf(t, size, "%" PRIu64 "%c", n, "BKMG"[u]);
}

/* The cells of the branch and memory keys (perf's se_snprintf). */
static int rp_format_brmem(struct rp_report *r, enum rp_sort_key key,
			   const struct rp_hist_entry *e, int width, struct rp_strbuf *b)
{
	const struct rp_br_info *bi = RP_BR(e);
	const struct rp_mem_info *mi = RP_MEMI(e);
	char t[128];

	switch (key) {
	case RP_SORT_SYM_DADDR:
		return rp_format_loc(b, &mi->daddr, mi->daddr.addr, e->k.level, width, 0);
	case RP_SORT_SYM_IADDR:
		return rp_format_loc(b, &mi->iaddr, mi->iaddr.addr, e->k.level, width, 0);
	case RP_SORT_DSO_DADDR:
		return rp_strbuf_printf(b, "%-*.*s", width, width,
				     mi->daddr.dso_name ? mi->daddr.dso_name : "[unknown]");
	case RP_SORT_LOCKED:
		rp_mem_lock_text(mi->data_src, t, 10);
		return rp_strbuf_printf(b, "%.*s", width, t);
	case RP_SORT_TLB:
		rp_mem_tlb_text(mi->data_src, t, 64);
		return rp_strbuf_printf(b, "%-*s", width, t);
	case RP_SORT_MEM:
		rp_mem_lvl_text(mi->data_src, t, 64);
		return rp_strbuf_printf(b, "%-*s", width, t);
	case RP_SORT_SNOOP:
		rp_mem_snoop_text(mi->data_src, t, 64);
		return rp_strbuf_printf(b, "%-*s", width, t);
	case RP_SORT_BLOCKED:
		rp_mem_blk_text(mi->data_src, t, 16);
		return rp_strbuf_printf(b, "%.*s", width, t);
	case RP_SORT_DCACHELINE: {
		/* [s]: shared data of a file; [X]: no map */
		const struct rp_loc *d = &mi->daddr;
		const struct rp_dso *dso = d->dso;
		char level = e->k.level;

		if (mi->cpumode != RP_MISC_KERNEL && d->has_map && !(d->map_prot & 0x4u) &&
		    (d->map_flags & RP_MAP_SHARED_FLAG) && dso &&
		    (dso->id_maj || dso->id_min || dso->id_ino || dso->id_ino_gen))
			level = 's';
		else if (!d->has_map)
			level = 'X';
		return rp_format_loc(b, d, d->al_addr & ~(r->cacheline_size - 1), level, width, 0);
	}
	case RP_SORT_PHYS_DADDR: {
		size_t start = b->len;
		int rc = rp_strbuf_printf(b, "[%c] %-#.*" PRIx64, e->k.level, RP_ADDR_DIGITS, mi->phys_addr);

		if (!rc && (int)(b->len - start) < width)
			rc = rp_strbuf_printf(b, "%*s", width - (int)(b->len - start), "");
		if (!rc && (int)(b->len - start) > width)
			b->len = start + (size_t)width;
		return rc;
	}
	case RP_SORT_DATA_PAGE_SIZE:
		rp_page_size_name(mi->data_page_size, t, sizeof(t));
		return rp_strbuf_printf(b, "%-*s", width, t);
	case RP_SORT_DSO_FROM:
	case RP_SORT_DSO_TO: {
		const char *n = key == RP_SORT_DSO_FROM ? bi->from.dso_name : bi->to.dso_name;

		return rp_strbuf_printf(b, "%-*.*s", width, width, n ? n : "[unknown]");
	}
	case RP_SORT_SYM_FROM:
		return rp_format_loc(b, &bi->from, bi->from.al_addr, bi->from.level, width, 0);
	case RP_SORT_SYM_TO:
		return rp_format_loc(b, &bi->to, bi->to.al_addr, bi->to.level, width, 0);
	case RP_SORT_ADDR_FROM:
		return rp_format_loc(b, &bi->from, bi->from.al_addr, e->k.level, width, 1);
	case RP_SORT_ADDR_TO:
		return rp_format_loc(b, &bi->to, bi->to.al_addr, e->k.level, width, 1);
	case RP_SORT_MISPREDICT:
		/* perf keeps this text in a static: a branch neither
		 * predicted nor mispredicted shows the last row's */
		if (RP_BR_PREDICTED(bi->flags))
			r->mispredict_out = "N";
		else if (RP_BR_MISPRED(bi->flags))
			r->mispredict_out = "Y";
		return rp_strbuf_printf(b, "%-*.*s", width, width, r->mispredict_out);
	case RP_SORT_IN_TX:
		return rp_strbuf_printf(b, "%-*s", width, RP_BR_IN_TX(bi->flags) ? "T" : ".");
	case RP_SORT_ABORT:
		return rp_strbuf_printf(b, "%-*s", width, RP_BR_ABORT(bi->flags) ? "A" : ".");
	case RP_SORT_CYCLES:
		if (!RP_BR_CYCLES(bi->flags))
			return rp_strbuf_printf(b, "%-*s", width, "-");
		return rp_strbuf_printf(b, "%-*hd", width, (short)RP_BR_CYCLES(bi->flags));
	/* glibc prints a NULL string as "(null)" */
	case RP_SORT_SRCLINE_FROM:
		return rp_strbuf_printf(b, "%-*.*s", width, width,
				     bi->srcline_from_cmp ? RP_STR_OR_EMPTY(bi->srcline_from)
							  : "(null)");
	case RP_SORT_SRCLINE_TO:
		return rp_strbuf_printf(b, "%-*.*s", width, width,
				     bi->srcline_to_cmp ? RP_STR_OR_EMPTY(bi->srcline_to)
							: "(null)");
	default:
		return 0;
	}
}

static int rp_format_key(struct rp_report *r, enum rp_sort_key key,
			 const struct rp_hist_entry *e, int width, int last, struct rp_strbuf *b)
{
	size_t start = b->len;
	int rc = 0;

	if (RP_KEY_IS_COMMON(key))
		return rp_key_format(key, &e->k, rp_entry_final_comm(e), width, last, r->field_sep, b);
	switch (key) {
	case RP_SORT_PARENT:
		rc = rp_strbuf_printf(b, "%-*.*s", width, width, e->parent ? e->parent : "[other]");
		break;
	case RP_SORT_SOCKET:
		rc = rp_strbuf_printf(b, "%*.*d", width, width - 3, (int)e->socket);
		break;
	case RP_SORT_LOCAL_WEIGHT:
		rc = rp_strbuf_printf(b, "%-*" PRIu64, width, e->weight);
		break;
	case RP_SORT_WEIGHT:
		rc = rp_strbuf_printf(b, "%-*" PRIu64, width, e->weight * e->nr_samples);
		break;
	case RP_SORT_LOCAL_INS_LAT:
		rc = rp_strbuf_printf(b, "%-*u", width, (unsigned)e->ins_lat);
		break;
	case RP_SORT_INS_LAT:
		rc = rp_strbuf_printf(b, "%-*u", width, (unsigned)(e->ins_lat * e->nr_samples));
		break;
	case RP_SORT_TRANSACTION: {
		/* perf's hist_entry__transaction_snprintf() */
		char txt[128];
		size_t n = 0;
		uint64_t t = e->transaction;

		txt[0] = '\0';
		for (size_t i = 0; i < sizeof(rp_txbits) / sizeof(rp_txbits[0]); i++)
			if (t & rp_txbits[i].flag)
				n += (size_t)snprintf(txt + n, sizeof(txt) - n, "%s", rp_txbits[i].name);
		if (t && !(t & ((1u << 2) | (1u << 3))))
			n += (size_t)snprintf(txt + n, sizeof(txt) - n, "NEITHER ");
		if (t & 0xffffffff00000000ull)
			snprintf(txt + n, sizeof(txt) - n, ":%" PRIx64, t >> 32);
		rc = rp_strbuf_printf(b, "%-*s", width, txt);
		break;
	}
	case RP_SORT_TRACE:
		rc = rp_strbuf_printf(b, "%-.*s", width, e->trace ? e->trace : "N/A");
		break;
	case RP_SORT_SYM_SIZE:
		if (e->k.sym)
			rc = rp_strbuf_printf(b, "%*d", width, (int)rp_sym_size(e));
		else
			rc = rp_strbuf_printf(b, "%*s", width, "unknown");
		break;
	case RP_SORT_DSO_SIZE:
		if (e->k.dso)
			rc = rp_strbuf_printf(b, "%*d", width, (int)e->map_size);
		else
			rc = rp_strbuf_printf(b, "%*s", width, "unknown");
		break;
	case RP_SORT_CGROUP:
		rc = rp_strbuf_printf(b, "%s", rp_cgroup_name(r, e));
		break;
	case RP_SORT_CGROUP_ID:
		rc = rp_strbuf_printf(b, "%" PRIu64 "/0x%" PRIx64, e->cg_dev, e->cg_ino);
		break;
	case RP_SORT_IPC_NULL:
		rc = rp_strbuf_printf(b, "%-*s", width, "-      -");
		break;
	case RP_SORT_TIME: {
		char t[48];

		snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, (uint64_t)(e->time / 1000000000u),
			 (uint64_t)((e->time % 1000000000u) / 1000u));
		rc = rp_strbuf_printf(b, "%-.*s", width, t);
		break;
	}
	case RP_SORT_CODE_PAGE_SIZE: {
		/* perf's get_page_size_name(): unit_number__scnprintf */
		char t[32];
		uint64_t n = e->code_page_size;
		int u = 0;

		if (!n) {
			snprintf(t, sizeof(t), "N/A");
		} else {
			while (n / 1024 > 1 && u < 3) {
				n /= 1024;
				u++;
			}
			snprintf(t, sizeof(t), "%" PRIu64 "%c", n, "BKMG"[u]);
		}
		rc = rp_strbuf_printf(b, "%-*s", width, t);
		break;
	}
	case RP_SORT_ADDR:
		rc = rp_strbuf_printf(b, "%-#*" PRIx64, width, e->sample_ip);
		break;
	case RP_SORT_IPC_LBR:
		/* perf's sort_sym_ipc without its annotation: stdio never
		 * computes the IPC it would show */
		rc = rp_strbuf_printf(b, "%-*s", width, e->k.sym ? "0.00  [  0.0%]" : "-");
		break;
	default:
		if (key >= RP_SORT_SYM_DADDR)
			rc = rp_format_brmem(r, key, e, width, b);
		break;
	}
	if (rc)
		return rc;
	rp_key_sep_replace(r->field_sep, b, start);
	/* The unpadded texts are padded to the column but in the last one,
	 * as the symbol is. */
	if (!last && (key == RP_SORT_TRACE || key == RP_SORT_TIME || key == RP_SORT_CGROUP ||
		      key == RP_SORT_CGROUP_ID || key >= RP_SORT_SYM_DADDR) &&
	    (int)(b->len - start) < width)
		rc = rp_strbuf_printf(b, "%*s", width - (int)(b->len - start), "");
	return rc;
}

/* perf's convert_unit(): the "# Samples:" figure. */
static uint64_t rp_convert_unit(uint64_t v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

/* One figure per member of the row's group: the leader's (e's own), then
 * the pairs; a member without samples shows 0 (perf skips its pair and
 * fills the column with zero). */
struct rp_member_fig {
	uint64_t period, nr_samples, acc_period, total;
};

static struct rp_member_fig rp_member_figure(const struct rp_report *r, size_t lead,
					     const struct rp_hist_entry *e, uint32_t m)
{
	struct rp_member_fig f = { 0, 0, 0, rp_shown_total(r, &r->hists[lead + m]) };

	if (m == 0) {
		f.period = e->period;
		f.nr_samples = e->nr_samples;
		f.acc_period = e->acc_period;
	} else if (f.total && e->pairs) {
		f.period = e->pairs[m - 1].period;
		f.nr_samples = e->pairs[m - 1].nr_samples;
		f.acc_period = e->pairs[m - 1].acc_period;
	}
	return f;
}

static double rp_percent(uint64_t period, uint64_t total)
{
	return total ? 100.0 * (double)period / (double)total : 0.0;
}

/* Pads the cell that started at `start` with spaces to `width` (perf's
 * hist_entry__snprintf_alignment). */
static int rp_buf_pad(struct rp_strbuf *b, size_t start, int width)
{
	int have = (int)(b->len - start);

	return have < width ? rp_strbuf_printf(b, "%*s", width - have, "") : 0;
}

/* One member's figure of an hpp column. */
static uint64_t rp_hpp_value(const struct rp_report *r, size_t lead, const struct rp_hist_entry *e,
			     uint32_t m, int dim, uint64_t *total)
{
	struct rp_member_fig f = rp_member_figure(r, lead, e, m);

	*total = f.total;
	if (m == 0) {
		switch (dim) {
		case RP_SORT_OVERHEAD_SYS: return e->period_sys;
		case RP_SORT_OVERHEAD_US: return e->period_us;
		case RP_SORT_OVERHEAD_GUEST_SYS: return e->period_guest_sys;
		case RP_SORT_OVERHEAD_GUEST_US: return e->period_guest_us;
		case RP_SORT_OVERHEAD_CHILDREN: return e->acc_period;
		default: break;
		}
	} else if (dim == RP_SORT_OVERHEAD_CHILDREN) {
		return f.acc_period;
	} else if (dim == RP_SORT_OVERHEAD_SYS || dim == RP_SORT_OVERHEAD_US ||
		   dim == RP_SORT_OVERHEAD_GUEST_SYS || dim == RP_SORT_OVERHEAD_GUEST_US) {
		/* a member's sub-cell: its own figure (0 without the entry) */
		const struct rp_pair *pr = f.total && e->pairs ? &e->pairs[m - 1] : NULL;

		return pr ? rp_mode_period(dim, pr->period_sys, pr->period_us, pr->period_guest_sys,
					   pr->period_guest_us)
			  : 0;
	} else if (dim != RP_SORT_OVERHEAD && dim != RP_SORT_SAMPLE && dim != RP_SORT_PERIOD) {
		return 0;
	}
	return dim == RP_SORT_SAMPLE ? f.nr_samples : f.period;
}

/*
 * One hpp cell (perf's __hpp__fmt): a sub-cell per member shown, as
 * " %*.2f%%" or " %*llu" in the unit width (width 1 with -t), the whole
 * padded to the unit width times the members.
 */
static int rp_format_hpp(const struct rp_report *r, size_t lead, uint32_t nr_shown, int dim,
			 const struct rp_hist_entry *e, int last, struct rp_strbuf *b)
{
	int unit = rp_hpp_unit(dim);
	int pct = dim != RP_SORT_SAMPLE && dim != RP_SORT_PERIOD;
	size_t start = b->len;
	int rc = 0;

	for (uint32_t m = 0; !rc && m < nr_shown; m++) {
		uint64_t total, v = rp_hpp_value(r, lead, e, m, dim, &total);

		if (pct)
			rc = rp_strbuf_printf(b, " %*.2f%%", r->field_sep ? 1 : unit - 2,
					   rp_percent(v, total));
		else
			rc = rp_strbuf_printf(b, " %*" PRIu64, r->field_sep ? 1 : unit - 1, v);
	}
	/* with -t the last column is not padded */
	if (rc || (last && r->field_sep))
		return rc;
	return rp_buf_pad(b, start, unit * (int)nr_shown);
}

/* A column's width in this section. */
static int rp_col_width(int dim, const struct rp_key_widths *w, uint32_t nr_shown)
{
	if (rp_dim_is_hpp(dim))
		return rp_hpp_unit(dim) * (int)nr_shown;
	return rp_key_width((enum rp_sort_key)dim, w);
}

/* A section's "# Samples:" and "# Event count" lines. */
static void rp_write_counts(const struct rp_report *r, const struct rp_evgroup *g, size_t idx,
			    uint64_t nr_samples, uint64_t total, const char *name, FILE *out)
{
	char unit;

	nr_samples = rp_convert_unit(nr_samples, &unit);
	/* perf says "events" for any leader of a group, also with --no-group. */
	fprintf(out, "# Samples: %" PRIu64 "%c of event%s '%s'", nr_samples, unit,
		g[idx].nr_members > 1 ? "s" : "", name ? name : "");
	if (r->time_str)
		fprintf(out, " (time slices: %s)", r->time_str);
	fputc('\n', out);
	if (r->mode == RP_MODE_MEMORY) {
		/* perf's hists__fprintf_nr_sample_events() with --mem-mode */
		fprintf(out, "# Total weight : %" PRIu64 "\n", total);
		fprintf(out, "# Sort order   : %s\n", RP_STR_OR_EMPTY(r->sort_order_str));
	} else {
		fprintf(out, "# Event count (approx.): %" PRIu64 "\n", total);
	}
	fputs("#\n", out);
}

/* ---- --hierarchy (perf's hierarchy mode) --------------------------------- */

/*
 * perf's hierarchy mode (util/hist.c hierarchy_insert_entry(),
 * hists__hierarchy_output_resort(); ui/stdio/hist.c
 * hist_entry__hierarchy_fprintf(), hists__fprintf_hierarchy_headers()):
 * a level per sort key; the rows, in perf's input tree order, walk down
 * the levels through each node's tree of children (its level's collapse
 * comparison), merging into the child found or making one, a copy of the
 * row, that sums the rows under it; each node's children are then
 * ordered by inserting them into an output tree as rows are ordered
 * (their figures, then the sort keys).  Both trees are replayed, as
 * perf's comparisons are not always an order.  Each level is indented by
 * 3 more columns.  Only rp_report_write() pays for any of this.
 */
#define RP_HIER_INDENT 3
/* perf prints its dotted lines from a string of 207 dots, "%.*s": no
 * more (measured: a 1268-character C++ symbol) */
#define RP_HIER_DOTS 207
/* an entry's first row has no parent, with -x (perf's HIST_FILTER__PARENT) */
#define RP_FILTERED_HIER_PARENT 0x200u

struct rp_hnode {
	struct rp_hist_entry *e;         /* a copy (nodes[] of rp_hier's) */
	struct rp_hnode *parent;         /* NULL on the first level */
	const struct rp_hist_entry *first; /* the first row under it */
	struct rp_hnode **kids;
	size_t nr_kids, alloc_kids;
	struct rp_rbinc tree;            /* perf's hroot_in: node i is kids[i] */
	int own_chain;                   /* e->chain is the node's, not first's */
};

struct rp_hier {
	struct rp_report *r;
	const struct rp_sorting *st;
	enum rp_sort_key levels[RP_MAX_DIMS];
	size_t nr_levels;
	struct rp_hnode *nodes; /* every node; nodes[0] is the root */
	struct rp_hist_entry *copies;
	size_t nr_nodes;
	uint32_t nr_shown; /* the group's events shown (1: alone) */
	const char *symbol_filter; /* --symbol-filter, for this event */
};

struct rp_hier_cmp {
	const struct rp_report *r;
	enum rp_sort_key key;
};

/* perf's hierarchy_insert_entry() descent: the level's collapse of the
 * node's entry against the row (a positive value goes left). */
static int rp_hier_tree_cmp(void *ctx, const void *node, const void *key)
{
	const struct rp_hier_cmp *c = ctx;

	return rp_cmp_key_collapse(c->r, c->key, ((const struct rp_hnode *)node)->e, key);
}

static int rp_hier_node_order(const void *pa, const void *pb, void *ctx)
{
	const struct rp_hnode *a = *(const struct rp_hnode *const *)pa;
	const struct rp_hnode *b = *(const struct rp_hnode *const *)pb;

	return rp_entry_order(&a->e, &b->e, ctx);
}

static void rp_hier_release(struct rp_hier *hr)
{
	for (size_t i = 0; hr->nodes && i < hr->nr_nodes; i++) {
		free(hr->nodes[i].kids);
		rp_rbinc_release(&hr->nodes[i].tree);
	}
	free(hr->nodes);
	free(hr->copies);
}

/* A row of the leader's table that only members have (rp_group_link()). */
static int rp_hier_member_only(const struct rp_hier *hr, const struct rp_hist_entry *x)
{
	return hr->nr_shown > 1 && !x->nr_samples && !x->period;
}

/* Adds row x's figures (and its members') to node n's copy. */
static void rp_hier_add(const struct rp_hier *hr, struct rp_hnode *n, const struct rp_hist_entry *x)
{
	struct rp_hist_entry *e = n->e;

	e->period += x->period;
	e->nr_samples += x->nr_samples;
	e->period_sys += x->period_sys;
	e->period_us += x->period_us;
	e->period_guest_sys += x->period_guest_sys;
	e->period_guest_us += x->period_guest_us;
	for (uint32_t m = 0; e->pairs && x->pairs && m + 1 < hr->nr_shown; m++) {
		struct rp_pair *d = &e->pairs[m];
		const struct rp_pair *f = &x->pairs[m];

		d->period += f->period;
		d->nr_samples += f->nr_samples;
		d->period_sys += f->period_sys;
		d->period_us += f->period_us;
		d->period_guest_sys += f->period_guest_sys;
		d->period_guest_us += f->period_guest_us;
	}
}

/*
 * perf's hist_entry__check_and_remove_filter() for a new entry k of a
 * level whose key is `key`, for each entry filter set: an entry of the
 * filter's own key (comm, pid or tid for --comms, --pid, --tid; dso; sym)
 * keeps its first row's mark and, when unmarked, unmarks every entry
 * above it; any other entry is marked on the first level and takes its
 * parent's mark below.  The sums keep the marked rows.
 */
static void rp_hier_filter(const struct rp_hier *hr, struct rp_hnode *k, enum rp_sort_key key)
{
	static const unsigned types[] = { RP_FILTERED_THREAD, RP_FILTERED_DSO, RP_FILTERED_SYMBOL };

	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		unsigned bit = types[t];
		int own = bit == RP_FILTERED_THREAD ? key == RP_SORT_COMM || key == RP_SORT_PID ||
							      key == RP_SORT_TID
			  : bit == RP_FILTERED_DSO  ? key == RP_SORT_DSO
						    : key == RP_SORT_SYM;

		if (!(hr->r->hier_filters & bit))
			continue;
		if (own) {
			for (struct rp_hnode *a = k->parent; a && !(k->e->filtered & bit); a = a->parent)
				a->e->filtered &= ~bit;
		} else {
			k->e->filtered |= k->parent ? k->parent->e->filtered & bit : bit;
		}
	}
}

/* Row x into the levels below node n, level `level` first, as perf's
 * hierarchy_insert_entry() walks them. */
static int rp_hier_insert(struct rp_hier *hr, struct rp_hnode *n, size_t level,
			  const struct rp_hist_entry *x)
{
	struct rp_hier_cmp c = { hr->r, hr->levels[level] };
	size_t where[2];
	int last = level + 1 == hr->nr_levels, rc;
	size_t i = rp_rbinc_find(&n->tree, (void *const *)n->kids, x, rp_hier_tree_cmp, &c, where);
	struct rp_hnode *k;

	if (i != (size_t)-1) {
		k = n->kids[i];
		if (last) {
			/* perf's callchain_merge() into the entry it found */
			if (!k->own_chain) {
				k->e->chain = NULL;
				k->e->period = k->e->nr_samples = 0;
				k->e->period_sys = k->e->period_us = 0;
				k->e->period_guest_sys = k->e->period_guest_us = 0;
				k->own_chain = 1;
				if ((rc = rp_entry_merge(hr->r, k->e, (void *)k->first)))
					return rc;
			}
			struct rp_pair *pairs = k->e->pairs;

			k->e->pairs = NULL; /* rp_hier_add() sums them */
			rc = rp_entry_merge(hr->r, k->e, (void *)x);
			k->e->pairs = pairs;
			k->e->period -= x->period;
			k->e->nr_samples -= x->nr_samples;
			k->e->period_sys -= x->period_sys;
			k->e->period_us -= x->period_us;
			k->e->period_guest_sys -= x->period_guest_sys;
			k->e->period_guest_us -= x->period_guest_us;
			if (rc)
				return rc;
		}
		rp_hier_add(hr, k, x);
	} else {
		if (n->nr_kids == n->alloc_kids) {
			size_t na = n->alloc_kids ? 2 * n->alloc_kids : 4;
			struct rp_hnode **nk = realloc(n->kids, na * sizeof(*nk));

			if (!nk)
				return RP_ERR_NOMEM;
			n->kids = nk;
			n->alloc_kids = na;
		}
		k = &hr->nodes[hr->nr_nodes];
		k->e = &hr->copies[hr->nr_nodes++];
		*k->e = *x;
		k->first = x;
		k->e->pairs = NULL;
		k->e->period = k->e->nr_samples = k->e->acc_period = k->e->acc_samples = 0;
		k->e->period_sys = k->e->period_us = 0;
		k->e->period_guest_sys = k->e->period_guest_us = 0;
		if (!last)
			k->e->chain = NULL;
		if (hr->nr_shown > 1 && !(k->e->pairs = rp_pairs_new(hr->r, hr->nr_shown)))
			return RP_ERR_NOMEM;
		n->kids[n->nr_kids++] = k;
		if ((rc = rp_rbinc_add(&n->tree, where)))
			return rc;
		k->parent = n == &hr->nodes[0] ? NULL : n;
		/* an entry only members have is linked in after the leader's
		 * collapse (perf's hists__link_hierarchy(): a copy of the
		 * member's entry, with its marks): rp_write_hierarchy() inserts
		 * those rows last */
		int member_only = rp_hier_member_only(hr, x);

		if (!member_only)
			rp_hier_filter(hr, k, hr->levels[level]);
		/* perf's hists__apply_filters() on the new entry, by its first
		 * row: --symbol-filter (the first event's, perf's symbol bit),
		 * and -x (the row's parent mark) */
		k->e->filtered &= ~RP_FILTERED_SYMBOL_STR;
		if (hr->symbol_filter && !member_only &&
		    (!k->e->k.sym || !strstr(k->e->k.sym, hr->symbol_filter)))
			k->e->filtered |= RP_FILTERED_SYMBOL;
		if (hr->r->exclude_other && !k->e->parent)
			k->e->filtered |= RP_FILTERED_HIER_PARENT;
		rp_hier_add(hr, k, x);
	}
	return last ? 0 : rp_hier_insert(hr, k, level + 1, x);
}

/* Each node's children in perf's output order: its collapsed tree's
 * order inserted into the output tree (hierarchy_insert_output_entry()). */
static int rp_hier_order(struct rp_hier *hr, struct rp_hnode *n)
{
	int rc = 0;

	if (!n->nr_kids)
		return 0;
	if ((rc = rp_rbinc_order(&n->tree, (void **)n->kids)) ||
	    (rc = rp_rbsort((void **)n->kids, n->nr_kids, rp_hier_node_order, (void *)hr->st)))
		return rc;
	for (size_t i = 0; !rc && i < n->nr_kids; i++)
		rc = rp_hier_order(hr, n->kids[i]);
	return rc;
}

struct rp_hier_print {
	struct rp_hier *hr;
	size_t idx;
	const struct rp_key_widths *w;
	struct rp_cgraph_params *cg;
	uint64_t total;
	int graph;
	FILE *out;
	struct rp_strbuf *b;
	size_t overhead_width; /* perf's hists__overhead_width() */
};

static float rp_hier_percent(const struct rp_hier_print *p, const struct rp_hist_entry *e)
{
	return p->total ? (float)((double)e->period * 100.0 / (double)p->total) : 0.0f;
}

static int rp_hier_print(struct rp_hier_print *p, struct rp_hnode *const *kids, size_t nr,
			 size_t depth)
{
	struct rp_report *r = p->hr->r;
	const char *sep = r->field_sep;
	size_t nr_levels = p->hr->nr_levels;
	struct rp_strbuf *b = p->b;
	int rc = 0;

	for (size_t i = 0; i < nr && !rc; i++) {
		const struct rp_hnode *n = kids[i];
		enum rp_sort_key key = p->hr->levels[depth];
		size_t nr_hpp = 0, start;

		/* perf walks every entry (HMD_FORCE_CHILD): one not shown
		 * still has its levels below looked at */
		if (n->e->filtered || rp_hier_percent(p, n->e) < (float)r->percent_limit) {
			rc = rp_hier_print(p, n->kids, n->nr_kids, depth + 1);
			continue;
		}
		b->len = 0;
		rc = rp_strbuf_printf(b, "%*s", (int)(depth * RP_HIER_INDENT), "");
		for (size_t k = 0; !rc && k < r->nr_cols; k++) {
			int dim = r->cols[k];

			if (!rp_dim_is_hpp(dim))
				continue;
			rc = rp_strbuf_printf(b, "%s", sep ? (nr_hpp ? sep : "") : "  ");
			nr_hpp++;
			if (!rc)
				rc = rp_format_hpp(r, p->idx, p->hr->nr_shown, dim, n->e, 0, b);
		}
		if (!rc && !sep)
			rc = rp_strbuf_printf(b, "%*s", (int)((nr_levels - 1) * RP_HIER_INDENT), "");
		if (!rc)
			rc = rp_strbuf_printf(b, "%s", sep ? sep : "  ");
		start = b->len;
		/* perf prints the key as the last column (a symbol is not
		 * padded), without its leading blanks */
		if (!rc)
			rc = rp_format_key(r, key, n->e, rp_key_width(key, p->w), 1, b);
		if (rc)
			return rc;
		size_t lead = start;

		while (lead < b->len && b->p[lead] == ' ')
			lead++;
		fwrite(b->p, 1, start, p->out);
		fwrite(b->p + lead, 1, b->len - lead, p->out);
		fputc('\n', p->out);
		if (depth + 1 == nr_levels) {
			if (p->graph && n->e->chain) {
				p->cg->parent_samples = n->e->period;
				rc = p->cg->mode == RP_CGRAPH_FLAT || p->cg->mode == RP_CGRAPH_FOLDED
					     ? rp_ctree_fprint_flat(p->out, n->e->chain, p->cg)
					     : rp_ctree_fprint_graph(p->out, n->e->chain, p->cg);
			}
			continue;
		}
		/* perf's "no entry" line (hist_entry__has_hierarchy_children()):
		 * the first entry below that no filter hides is below the
		 * limit, or there is none */
		size_t f = 0;

		while (f < n->nr_kids && n->kids[f]->e->filtered)
			f++;
		if (f == n->nr_kids || rp_hier_percent(p, n->kids[f]->e) < (float)r->percent_limit) {
			if (!sep)
				fprintf(p->out, "%*s",
					(int)((nr_levels + depth) * RP_HIER_INDENT), "");
			fprintf(p->out, "%*sno entry >= %.2f%%\n", (int)p->overhead_width + 4, "",
				r->percent_limit);
		}
		rc = rp_hier_print(p, n->kids, n->nr_kids, depth + 1);
	}
	return rc;
}

/* The column header and rows of one event's section in hierarchy mode. */
static int rp_write_hierarchy(struct rp_report *r, const struct rp_evgroup *g, size_t idx,
			      uint32_t nr_shown, uint64_t nr_samples, uint64_t total,
			      const char *name, FILE *out, struct rp_strbuf *b,
			      const struct rp_key_widths *w, const struct rp_sorting *st,
			      struct rp_cgraph_params *cg, int graph)
{
	struct rp_hists *h = &r->hists[idx];
	const char *sep = r->field_sep;
	/* perf gives --symbol-filter to the first event's histogram alone */
	struct rp_hier hr = { .r = r, .st = st, .nr_shown = nr_shown,
			      .symbol_filter = idx == 0 ? r->symbol_filter : NULL };
	size_t header_width = 0, overhead_width = 0, nr_hpp = 0;
	struct rp_key_widths fw;
	int rc = 0;

	for (size_t k = 0; k < r->nr_cols; k++) {
		int dim = r->cols[k];

		/* perf keeps the level of a column a filter elides */
		if (rp_dim_is_hpp(dim) || dim == RP_SORT_IPC_NULL || dim == RP_SORT_IPC_LBR)
			continue;
		hr.levels[hr.nr_levels++] = (enum rp_sort_key)dim;
	}

	/* the root and at most a node per row and level */
	size_t cap = h->nr_entries * hr.nr_levels + 1;

	hr.nodes = calloc(cap, sizeof(*hr.nodes));
	hr.copies = calloc(cap, sizeof(*hr.copies));
	if (!hr.nodes || !hr.copies) {
		rc = RP_ERR_NOMEM;
		goto out;
	}
	hr.nr_nodes = 1;
	for (size_t i = 0; i < cap; i++)
		rp_rbinc_init(&hr.nodes[i].tree);
	/* the rows in perf's input tree order, level by level into the
	 * levels' trees (perf's hierarchy collapse) */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; !rc && hr.nr_levels && i < h->nr_entries; i++)
			if (rp_hier_member_only(&hr, h->entries[i]) == pass)
				rc = rp_hier_insert(&hr, &hr.nodes[0], 0, h->entries[i]);
	if (!rc)
		rc = rp_hier_order(&hr, &hr.nodes[0]);
	if (rc)
		goto out;
	/* perf's hierarchy_recalc_total_periods(): with --percentage
	 * relative, the total is that of the first level's entries no
	 * filter hides (the rows they hide included), the samples those of
	 * the rows no filter but --symbol-filter hides (-x's too) */
	uint64_t rel_period = 0, rel_samples = 0;

	for (size_t i = 0; i < hr.nodes[0].nr_kids; i++)
		if (!hr.nodes[0].kids[i]->e->filtered)
			rel_period += hr.nodes[0].kids[i]->e->period;
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct rp_hist_entry *x = h->entries[i];

		if (!rp_hier_member_only(&hr, x) && !(x->filtered & ~RP_FILTERED_SYMBOL_STR) &&
		    !(r->exclude_other && !x->parent))
			rel_samples += x->nr_samples;
	}
	if (r->relative) {
		total = total - h->nf_period + rel_period;
		nr_samples = nr_samples - h->nf_samples + rel_samples;
	}
	rp_write_counts(r, g, idx, nr_samples, total, name, out);
	/* perf takes the widths over the entries of every level that no
	 * filter hides (copies of their first rows): with filters, rows
	 * hidden below a shown entry count through it */
	if (r->hier_filters || hr.symbol_filter || r->exclude_other) {
		struct rp_hists shown;
		size_t nr = 0;

		memset(&shown, 0, sizeof(shown));
		shown.entries = malloc(hr.nr_nodes * sizeof(*shown.entries));
		if (!shown.entries) {
			rc = RP_ERR_NOMEM;
			goto out;
		}
		for (size_t i = 1; i < hr.nr_nodes; i++)
			if (!hr.nodes[i].e->filtered)
				shown.entries[nr++] = hr.nodes[i].e;
		shown.nr_entries = nr;
		rp_calc_widths(r, &shown, &fw);
		free(shown.entries);
		w = &fw;
	}

	/* The header: hpp names right-aligned, then the levels' names joined
	 * by " / "; the dots of the hpp columns, then of the widest level
	 * at its indentation (or of the names). */
	fputs("# ", out);
	if (!sep && hr.nr_levels)
		fprintf(out, "%*s", (int)((hr.nr_levels - 1) * RP_HIER_INDENT), "");
	for (size_t k = 0; k < r->nr_cols; k++) {
		int dim = r->cols[k];

		if (!rp_dim_is_hpp(dim))
			continue;
		fprintf(out, "%*s%s", rp_col_width(dim, w, nr_shown), rp_key_header((enum rp_sort_key)dim),
			sep ? sep : "  ");
	}
	for (size_t l = 0; l < hr.nr_levels; l++) {
		const char *hdr = rp_key_header(hr.levels[l]);
		size_t len;

		while (*hdr == ' ')
			hdr++;
		len = strlen(hdr);
		while (len && hdr[len - 1] == ' ')
			len--;
		header_width += (size_t)fprintf(out, "%s%.*s", l ? " / " : "", (int)len, hdr);
	}
	for (size_t l = 0; l < hr.nr_levels; l++) {
		size_t lw = l * RP_HIER_INDENT + (size_t)rp_key_width(hr.levels[l], w);

		if (lw > header_width)
			header_width = lw;
	}
	fputs("\n# ", out);
	if (!sep && hr.nr_levels)
		for (size_t d = 0; d < (hr.nr_levels - 1) * RP_HIER_INDENT; d++)
			fputc(d < RP_HIER_DOTS ? '.' : ' ', out);
	for (size_t k = 0; k < r->nr_cols; k++) {
		int dim = r->cols[k];

		if (!rp_dim_is_hpp(dim))
			continue;
		if (nr_hpp++) {
			fputs(sep ? sep : "..", out);
			overhead_width += 2;
		}
		int cw = rp_col_width(dim, w, nr_shown);

		for (int d = 0; d < cw && d < RP_HIER_DOTS; d++)
			fputc('.', out);
		overhead_width += (size_t)cw;
	}
	fputs(sep ? sep : "  ", out);
	for (size_t d = header_width < RP_HIER_DOTS ? header_width : RP_HIER_DOTS; d > 0; d--)
		fputc('.', out);
	fputs("\n#\n", out);
	if (hr.nr_levels) {
		uint64_t nf_period = h->nf_period;

		if (r->relative)
			h->nf_period = rel_period;

		struct rp_hier_print p = { .hr = &hr, .idx = idx, .w = w, .cg = cg,
					   .total = rp_shown_total(r, h), .graph = graph, .out = out,
					   .b = b, .overhead_width = overhead_width };

		rc = rp_hier_print(&p, hr.nodes[0].kids, hr.nodes[0].nr_kids, 0);
		h->nf_period = nf_period;
	}
out:
	rp_hier_release(&hr);
	return rc;
}

/*
 * Writes the section of hists `idx`: alone, or, when it leads a group in
 * the group view, with its members' figures beside its own.
 */
static int rp_write_hists(struct rp_report *r, const struct rp_evgroup *g, size_t idx, FILE *out,
			  struct rp_strbuf *b, int children, int graph)
{
	const char *sep = r->field_sep;
	struct rp_hists *h = &r->hists[idx];
	uint32_t nr_shown = rp_is_group_event(r, g, idx) ? g[idx].nr_members : 1;
	uint64_t nr_samples = r->relative ? h->nf_samples : h->nr_samples;
	uint64_t total = rp_shown_total(r, h);
	const char *name = rp_evsel_name(rp_session_evsel(r->session, idx));
	char desc[RP_GROUP_DESC_MAX];
	struct rp_key_widths w;
	size_t i, k;
	int rc;

	if (nr_shown > 1) {
		rc = rp_group_link(r, idx, nr_shown);
		if (rc)
			return rc;
		rp_group_desc(r, g, idx, desc, sizeof(desc));
		name = desc;
		/* The header counts every member's samples and periods. */
		for (uint32_t m = 1; m < nr_shown; m++) {
			const struct rp_hists *mh = &r->hists[idx + m];

			nr_samples += r->relative ? mh->nf_samples : mh->nr_samples;
			total += rp_shown_total(r, mh);
		}
	}
	/* in hierarchy mode once its levels are made (--percentage relative) */
	if (!r->hierarchy)
		rp_write_counts(r, g, idx, nr_samples, total, name, out);

	/* Widths cover the entries added for the members too. */
	if ((rc = rp_mark_trace_cut(r, h)))
		return rc;
	rp_calc_widths(r, h, &w);
	struct rp_sorting st = { .r = r, .pairs = nr_shown - 1, .children = children,
				 .graph = graph, .skip = rp_sort_skips(r) };
	/* perf inserts its entries, in the order they were created (with
	 * --children: a sample's own entry, then those of its stack's
	 * frames), into its input tree (se_cmp), and from that tree's order
	 * into its output tree, where ties go right.  The input comparison
	 * is not a total order with `sym` but no `dso` key (resolved
	 * entries compare by DSO first, unresolved ones by address only) nor
	 * for unresolved addresses 2^63 or more apart (perf's u64
	 * difference taken as signed: garbage frames of stacks without frame
	 * pointers), and the output comparison is not one with --children
	 * and graphs (graph depths only within a thread): the order of tied
	 * rows is the trees'.  h->entries is still in creation order here;
	 * replay the trees. */
	if (!r->input_ordered)
		rc = rp_rbsort((void **)h->entries, h->nr_entries, rp_entry_collapse_order, &st);
	/* A comm key makes perf collapse: a second tree, fed from the
	 * first, with the same comparison for the other keys.  (Strictly,
	 * a comm key of -F alone does not: docs/report.md, "Symbol
	 * filter"; the replay of the input tree alone does not give
	 * perf's rows there yet.) */
	int comm_key = 0;

	for (size_t j = 0; j < r->nr_keys; j++)
		comm_key |= r->keys[j] == RP_SORT_COMM;
	/* perf's hierarchy mode has a collapse of its own, level by level
	 * from the input tree (rp_write_hierarchy()) */
	if (!rc && comm_key && !r->hierarchy) {
		/* With a key that is no total order, perf's collapse merges
		 * entries its input tree kept apart, when it meets them. */
		if (r->nontotal) {
			/* The graphs merged with partitions after the
			 * collapse, on their threads. */
			r->defer_merges = r->nr_parts >= 2;
			rc = rp_rbmerge((void **)h->entries, &h->nr_entries, rp_entry_tree_cmp,
					rp_entry_merge, r);
			r->defer_merges = 0;
			int mrc = rp_report_merge_graphs(r);

			rc = rc ? rc : mrc;
		} else {
			rc = rp_rbsort((void **)h->entries, h->nr_entries,
				       rp_entry_collapse_order, &st);
		}
	}
	if (!rc && !r->hierarchy)
		rc = rp_rbsort((void **)h->entries, h->nr_entries, rp_entry_order, &st);
	if (rc)
		return rc;

	/* perf's min_callchain_hits: the threshold's share of the period of
	 * the samples with callchains (all of them, when the event has). */
	struct rp_cgraph_params cg;
	memset(&cg, 0, sizeof(cg));
	cg.mode = r->graph_mode == RP_CALL_GRAPH_FRACTAL  ? RP_CGRAPH_REL
		  : r->graph_mode == RP_CALL_GRAPH_FLAT   ? RP_CGRAPH_FLAT
		  : r->graph_mode == RP_CALL_GRAPH_FOLDED ? RP_CGRAPH_FOLDED
							  : RP_CGRAPH_ABS;
	cg.fold_sep = sep;
	cg.value = r->call_value == RP_CALL_VALUE_PERIOD  ? RP_CGVAL_PERIOD
		   : r->call_value == RP_CALL_VALUE_COUNT ? RP_CGVAL_COUNT
							  : RP_CGVAL_PERCENT;
	cg.min_percent = r->call_threshold;
	cg.min_hit = (uint64_t)((double)(r->relative ? h->nf_cc_period : h->total_period) *
				(r->call_threshold / 100.0));
	cg.total = h->total_period;
	cg.print_limit = r->call_print_limit;
	cg.skip_first = r->sort_sym_first;
	cg.replay = r->ctree.replay;

	if (r->hierarchy) {
		rc = rp_write_hierarchy(r, g, idx, nr_shown, nr_samples, total, name, out, b, &w,
					&st, &cg, graph);
		if (!rc)
			fputs("\n\n", out);
		return rc;
	}

	/* The column header (perf's hists__fprintf_headers): hpp names
	 * right-aligned, keys left-aligned, in their widths. */
	int self_name = children && !r->strict_fields;
	size_t nr_shown_cols = 0;
	fputs("# ", out);
	for (k = 0; k < r->nr_cols; k++) {
		int dim = r->cols[k];
		int cw = rp_col_width(dim, &w, nr_shown);
		const char *hdr = rp_key_header((enum rp_sort_key)dim);

		if (rp_key_elided(&r->singles, r->cols, r->nr_cols, dim))
			continue;
		if (nr_shown_cols++)
			fputs(sep ? sep : "  ", out);
		if (dim == RP_SORT_OVERHEAD && self_name)
			hdr = "Self";
		if (rp_dim_is_hpp(dim))
			fprintf(out, "%*s", cw, hdr);
		else
			fprintf(out, "%-*.*s", cw, cw, hdr);
	}
	fputc('\n', out);
	if (!sep) {
		fputs("# ", out);
		nr_shown_cols = 0;
		for (k = 0; k < r->nr_cols; k++) {
			int dim = r->cols[k];

			if (rp_key_elided(&r->singles, r->cols, r->nr_cols, dim))
				continue;
			if (nr_shown_cols++)
				fputs("  ", out);
			for (int d = rp_col_width(dim, &w, nr_shown); d > 0; d--)
				fputc('.', out);
		}
		fputs("\n#\n", out);
	}

	/* perf pads every cell but the last column's (an elided one
	 * included: hist_entry__snprintf_alignment() asks whether the
	 * format is the last of the list, shown or not). */
	size_t last_col = r->nr_cols;
	for (i = 0; i < h->nr_entries; i++) {
		const struct rp_hist_entry *e = h->entries[i];
		if (rp_entry_hidden(r, e))
			continue;
		/* perf compares the leader's share, as a float, with a float
		 * limit: a row of the members only has 0.  With --children the
		 * Children share. */
		uint64_t lp = children ? e->acc_period : e->period;
		uint64_t lt = rp_shown_total(r, h);
		float limit_pct = lt ? (float)((double)lp * 100.0 / (double)lt) : 0.0f;

		if (limit_pct < (float)r->percent_limit)
			continue;
		b->len = 0;
		rc = sep ? 0 : rp_strbuf_printf(b, "  ");
		size_t nr_cols = 0;
		int last_dim = -1;

		for (k = 0; !rc && k < r->nr_cols; k++) {
			int dim = r->cols[k];

			if (rp_key_elided(&r->singles, r->cols, r->nr_cols, dim))
				continue;
			if (nr_cols++)
				rc = rp_strbuf_printf(b, "%s", sep ? sep : "  ");
			last_dim = dim;
			if (rc)
				break;
			if (rp_dim_is_hpp(dim))
				rc = rp_format_hpp(r, idx, nr_shown, dim, e, k + 1 == last_col, b);
			else
				rc = rp_format_key(r, (enum rp_sort_key)dim, e,
						   rp_key_width((enum rp_sort_key)dim, &w),
						   k + 1 == last_col, b);
		}
		if (rc)
			return rc;
		if (sep && last_dim >= 0) {
			/* perf prints a row into a buffer of the columns'
			 * widths, two per gap and four more (hists__fprintf's
			 * linesz): with a short separator a row whose cells
			 * are wider than their columns (" (inlined)" is not
			 * counted in a symbol's width, memory levels and
			 * addresses can be longer than theirs) loses what
			 * does not fit. */
			size_t limit = 3;

			for (k = 0, nr_cols = 0; k < r->nr_cols; k++) {
				if (rp_key_elided(&r->singles, r->cols, r->nr_cols, r->cols[k]))
					continue;
				limit += (size_t)rp_col_width(r->cols[k], &w, nr_shown) +
					 (nr_cols++ ? 2 : 0);
			}
			if (b->len > limit)
				b->len = limit;
		}
		fwrite(b->p, 1, b->len, out);
		fputc('\n', out);
		if (graph && e->chain) {
			cg.parent_samples = children ? e->acc_period : e->period;
			rc = cg.mode == RP_CGRAPH_FLAT || cg.mode == RP_CGRAPH_FOLDED
				     ? rp_ctree_fprint_flat(out, e->chain, &cg)
				     : rp_ctree_fprint_graph(out, e->chain, &cg);
			if (rc)
				return rc;
		}
	}
	fputs("\n\n", out);
	return 0;
}

/* perf's branch_type_stat_display(): shares of the branch types, of
 * all the typed branches. */
static void rp_report_write_branch_stats(const struct rp_report *r, FILE *out)
{
	static const char *const names[16] = {
		"N/A",	 "COND",   "UNCOND",	"IND",	     "CALL",	 "IND_CALL",
		"RET",	 "SYSCALL", "SYSRET",	"COND_CALL", "COND_RET", "ERET",
		"IRQ",	 "SERROR", "NO_TX",	"(null)",
	};
	static const char *const new_names[8] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
		"ARCH_2",     "ARCH_3",	    "ARCH_4",	  "ARCH_5",
	};
	uint64_t total = 0;
	const double pct = 100.0;

	for (int i = 0; i < 16; i++)
		total += r->brstat.counts[i];
	if (!total)
		return;
	fputs("\n#\n# Branch Statistics:\n#", out);
	if (r->brstat.cond_fwd)
		fprintf(out, "\n%8s: %5.1f%%", "COND_FWD",
			pct * (double)r->brstat.cond_fwd / (double)total);
	if (r->brstat.cond_bwd)
		fprintf(out, "\n%8s: %5.1f%%", "COND_BWD",
			pct * (double)r->brstat.cond_bwd / (double)total);
	if (r->brstat.cross_4k)
		fprintf(out, "\n%8s: %5.1f%%", "CROSS_4K",
			pct * (double)r->brstat.cross_4k / (double)total);
	if (r->brstat.cross_2m)
		fprintf(out, "\n%8s: %5.1f%%", "CROSS_2M",
			pct * (double)r->brstat.cross_2m / (double)total);
	for (int i = 0; i < 16; i++)
		if (r->brstat.counts[i])
			fprintf(out, "\n%8s: %5.1f%%", names[i],
				pct * (double)r->brstat.counts[i] / (double)total);
	for (int i = 0; i < 8; i++)
		if (r->brstat.new_counts[i])
			fprintf(out, "\n%8s: %5.1f%%", new_names[i],
				pct * (double)r->brstat.new_counts[i] / (double)total);
	/* perf ends the text without a newline; a text file gets one. */
	fputc('\n', out);
}

int rp_report_write(struct rp_report *report, FILE *out)
{
	struct rp_strbuf b = { NULL, 0, 0 };
	struct rp_evgroup *g = NULL;
	uint64_t total = 0;
	int rc = 0;

	if (!report || !out)
		return RP_ERR_INVAL;
	rc = rp_report_drain_stacks(report);
	if (rc < 0)
		return rc;
	/* The entries of a replayed input tree (rp_report.nontotal) in its
	 * order, once: what follows moves and adds entries. */
	for (size_t i = 0; report->nontotal && !report->input_ordered && i < report->nr_hists;
	     i++) {
		struct rp_hists *h = &report->hists[i];

		if (h->tree.nr == h->nr_entries &&
		    (rc = rp_rbinc_order(&h->tree, (void **)h->entries)) < 0)
			return rc;
		rp_rbinc_release(&h->tree);
	}
	if (report->nontotal)
		report->input_ordered = 1;
	rc = rp_report_override_default_comms(report);
	if (rc < 0)
		return rc;
	if (report->nr_hists) {
		g = calloc(report->nr_hists, sizeof(*g));
		if (!g)
			return RP_ERR_NOMEM;
		rp_report_groups(report, g);
	}
	fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
	      out);
	/* perf counts the call stacks only when an event records them:
	 * --children falls back to the plain view, and no graph is drawn. */
	int has_chains = rp_has_callchains(report->session);
	int children = report->children && has_chains;
	int graph = report->graph && has_chains;

	rp_report_lists(report, children);
	/* Before a group's members are linked in: perf links them after
	 * its collapse, where the symbol filter ran. */
	if (!report->symbol_filtered && report->nr_hists)
		rp_filter_symbol_str(report, &report->hists[0]);
	report->symbol_filtered = 1;
	for (size_t i = 0; i < report->nr_hists; i++)
		rp_hists_nonfiltered(&report->hists[i]);
	/* perf names each filter whose column it leaves out (or would). */
	for (size_t k = 0; k < report->nr_cols; k++) {
		int dim = report->cols[k];
		const char *one = rp_dim_is_hpp(dim) ? NULL : rp_key_single(&report->singles, dim);

		if (one)
			fprintf(out, "# %s: %s\n",
				dim == RP_SORT_COMM  ? "comm"
				: dim == RP_SORT_DSO ? "dso"
						     : "symbol",
				one);
	}
	for (size_t i = 0; i < report->nr_hists; i++)
		total += report->hists[i].nr_samples;
	/* perf prints nothing more when no event has a sample. */
	if (total) {
		fprintf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", report->lost_samples);
		for (size_t i = 0; i < report->nr_hists && !rc; i++) {
			/* In the group view a member is shown in its leader's
			 * section; a group whose leader has no sample is not
			 * shown at all (perf's skip_empty looks at the leader). */
			if (report->group_mode != RP_REPORT_GROUP_OFF && g[i].leader != i)
				continue;
			if (!report->hists[i].nr_samples)
				continue;
			rc = rp_write_hists(report, g, i, out, &b, children, graph);
		}
	}
	if (!rc && report->mode == RP_MODE_BRANCH)
		rp_report_write_branch_stats(report, out);
	if (!rc && report->show_threads)
		rc = rp_report_write_threads(report, out);
	free(b.p);
	free(g);
	if (rc)
		return rc;
	if (fflush(out) != 0 || ferror(out))
		return RP_ERR_IO;
	return 0;
}

/* ---- the output "report" ------------------------------------------------ */

struct rp_report_output {
	struct rp_report *report;
	FILE *f;
};

/* Whether a --sort string names a number column (overhead, sample, ...). */
static int rp_sort_names_hpp(const char *sort)
{
	struct rp_report_opts t;

	memset(&t, 0, sizeof(t));
	t.sz = sizeof(t);
	if (!sort || rp_report_parse_sort(&t, sort[0] == '+' ? sort + 1 : sort) < 0)
		return 0;
	for (size_t k = 0; k < t.nr_keys; k++)
		if (rp_dim_is_hpp(t.keys[k]))
			return 1;
	return 0;
}

/* perf's words for what rp_report_new() refused. */
static int rp_report_refused(int rc, const struct rp_report_opts *o,
			     const struct rp_session *session, struct rp_error *err)
{
	int branch = o->branch_mode > 0 ||
		     (o->branch_mode == 0 && rp_report_has_branch_feature(session));

	if (rc == RP_ERR_UNSUPPORTED && o->hierarchy && rp_sort_names_hpp(o->sort_order))
		return rp_error_set(err, rc, "--hierarchy with a number column (overhead, sample, "
					     "period, ...) in --sort '%s' is not implemented",
				    o->sort_order);
	if (rc == RP_ERR_UNSUPPORTED && o->mem_mode)
		return rp_error_set(err, rc, "selected --mem-mode, but no memory data "
					     "(was perf record run without -d?)");
	if (rc == RP_ERR_UNSUPPORTED && branch)
		return rp_error_set(err, rc, "selected -b, but no branch data "
					     "(was perf record run without -b?)");
	if (rc == RP_ERR_UNSUPPORTED)
		return rp_error_set(err, rc, "selected --sort parent, but no callchain data "
					     "(was perf record run without -g?)");
	if (rc == RP_ERR_INVAL && o->hierarchy && o->field_order)
		return rp_error_set(err, rc, "--hierarchy and -F (--fields) cannot be used together");
	if (rc == RP_ERR_INVAL && o->mem_mode && branch)
		return rp_error_set(err, rc, "branch and mem mode incompatible (the file has "
					     "branch stacks: add --no-branch-stack)");
	if (rc == RP_ERR_INVAL)
		return rp_error_set(err, rc, "unknown or invalid key in --sort '%s' or -F '%s', or a "
					     "bad -p regex (see --help for the keys)",
				    o->sort_order ? o->sort_order : "",
				    o->field_order ? o->field_order : "");
	return rp_error_set(err, rc, "out of memory");
}

static void rp_report_output_destroy(void *state)
{
	struct rp_report_output *o = state;

	rp_report_free(o->report);
	free(o);
}

static int rp_report_output_create(void **state, const struct rp_output_env *env,
				   const void *opts, const struct rp_output_target *target,
				   struct rp_error *err)
{
	struct rp_report_output *o = calloc(1, sizeof(*o));
	struct rp_report_opts ro;
	int rc;

	if (!o)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (rp_opts_copy(&ro, sizeof(ro), opts) < 0) {
		free(o);
		return rp_error_set(err, RP_ERR_INVAL, "bad options");
	}
	if (!ro.symbols)
		ro.symbols = env->symbols;
	if (!ro.machine)
		ro.machine = env->machine;
	o->f = target->stream;
	if ((rc = rp_report_new(&o->report, env->session, &ro)) < 0) {
		free(o);
		return rp_report_refused(rc, &ro, env->session, err);
	}
	if (rp_report_set_filter(o->report, env->filter) < 0) {
		rp_report_output_destroy(o);
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	}
	*state = o;
	return 0;
}

static struct rp_consumer rp_report_output_consumer(void *state)
{
	return rp_report_consumer(((struct rp_report_output *)state)->report);
}

static int rp_report_output_finish(void *state, struct rp_error *err)
{
	struct rp_report_output *o = state;

	if (rp_report_write(o->report, o->f) < 0 || fflush(o->f) != 0)
		return rp_error_set(err, RP_ERR_IO, "cannot write the report");
	return 0;
}

const struct rp_output_def rp_output_report = {
	.name = "report",
	.flags = RP_OUTPUT_SYMBOLS,
	.create = rp_report_output_create,
	.consumer = rp_report_output_consumer,
	.finish = rp_report_output_finish,
	.destroy = rp_report_output_destroy,
};
