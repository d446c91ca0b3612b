/* SPDX-License-Identifier: MIT */
/*
 * readperf: the function overview, perf report's histogram.
 *
 * Aggregates samples per event into entries keyed by the sort keys, and
 * writes them as `perf report --stdio` does with the same options: the
 * header lines (# Total Lost Samples, # Samples, # Event count (approx.)),
 * the columns of perf's --sort, -F, -n, --show-total-period and
 * --children, aligned or joined by -t SEP, and the call graphs.  Format of
 * the rows: tools/perf/util/sort.c, hist.c, ui/hist.c, ui/stdio/hist.c.
 */
#ifndef READPERF_REPORT_H
#define READPERF_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>
#include <readperf/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rp_sort_key {
	RP_SORT_COMM,
	RP_SORT_PID,
	RP_SORT_TID,
	RP_SORT_DSO,
	RP_SORT_SYM,
	RP_SORT_CPU,
	RP_SORT_SRCLINE, /* "file.c:123" of the sample's address (perf's srcline) */
	RP_SORT_SRCFILE, /* its file (perf's srcfile) */
	/* perf 6.1's other sort keys (docs/report.md, "Keys, headers and
	 * cells"), by perf's names */
	RP_SORT_PARENT,         /* parent: the first caller matching -p */
	RP_SORT_SOCKET,         /* socket (CPU_TOPOLOGY) */
	RP_SORT_LOCAL_WEIGHT,   /* local_weight */
	RP_SORT_WEIGHT,         /* weight */
	RP_SORT_TRANSACTION,    /* transaction */
	RP_SORT_TRACE,          /* trace: the tracepoint's text */
	RP_SORT_SYM_SIZE,       /* symbol_size */
	RP_SORT_DSO_SIZE,       /* dso_size: the map's size */
	RP_SORT_CGROUP,         /* cgroup: its path (CGROUP records) */
	RP_SORT_CGROUP_ID,      /* cgroup_id: dev/inode (NAMESPACES records) */
	RP_SORT_IPC_NULL,       /* ipc_null */
	RP_SORT_TIME,           /* time, in 100 ms steps */
	RP_SORT_CODE_PAGE_SIZE, /* code_page_size */
	RP_SORT_LOCAL_INS_LAT,  /* local_ins_lat */
	RP_SORT_INS_LAT,        /* ins_lat */
	RP_SORT_ADDR,           /* addr: the sampled address */
	/* perf's number columns, as sort keys or -F fields */
	RP_SORT_OVERHEAD,           /* overhead */
	RP_SORT_OVERHEAD_SYS,       /* overhead_sys */
	RP_SORT_OVERHEAD_US,        /* overhead_us */
	RP_SORT_OVERHEAD_GUEST_SYS, /* overhead_guest_sys */
	RP_SORT_OVERHEAD_GUEST_US,  /* overhead_guest_us */
	RP_SORT_OVERHEAD_CHILDREN,  /* overhead_children */
	RP_SORT_SAMPLE,             /* sample */
	RP_SORT_PERIOD,             /* period */
	/* perf's --mem-mode keys (rp_report_opts.mem_mode) */
	RP_SORT_SYM_DADDR,      /* symbol_daddr: the data address's symbol */
	RP_SORT_SYM_IADDR,      /* symbol_iaddr: the instruction's */
	RP_SORT_DSO_DADDR,      /* dso_daddr: the data address's object */
	RP_SORT_LOCKED,         /* locked */
	RP_SORT_TLB,            /* tlb */
	RP_SORT_MEM,            /* mem: the memory level */
	RP_SORT_SNOOP,          /* snoop */
	RP_SORT_DCACHELINE,     /* dcacheline */
	RP_SORT_PHYS_DADDR,     /* phys_daddr */
	RP_SORT_DATA_PAGE_SIZE, /* data_page_size */
	RP_SORT_BLOCKED,        /* blocked */
	/* perf's branch-mode keys (files with branch stacks) */
	RP_SORT_DSO_FROM,     /* dso_from */
	RP_SORT_DSO_TO,       /* dso_to */
	RP_SORT_SYM_FROM,     /* symbol_from */
	RP_SORT_SYM_TO,       /* symbol_to */
	RP_SORT_MISPREDICT,   /* mispredict */
	RP_SORT_IN_TX,        /* in_tx */
	RP_SORT_ABORT,        /* abort */
	RP_SORT_CYCLES,       /* cycles */
	RP_SORT_SRCLINE_FROM, /* srcline_from */
	RP_SORT_SRCLINE_TO,   /* srcline_to */
	RP_SORT_IPC_LBR,      /* ipc_lbr */
	RP_SORT_ADDR_FROM,    /* addr_from */
	RP_SORT_ADDR_TO,      /* addr_to */
	RP_SORT_NR_KEYS_            /* the number of keys (not a key) */
};

#define RP_REPORT_MAX_KEYS 8

/* The call graph under each row (perf's -g). */
enum rp_report_call_graph {
	/* a graph when the file has callchains (what `perf report --stdio`
	 * prints, with -t too) */
	RP_CALL_GRAPH_AUTO = 0,
	RP_CALL_GRAPH_NONE,    /* -g none */
	RP_CALL_GRAPH_GRAPH,   /* -g graph: values of the event's total */
	RP_CALL_GRAPH_FRACTAL, /* -g fractal: values of the parent's */
	/* -g flat: each path that ends in a function, from the root, with
	 * its cumulated value */
	RP_CALL_GRAPH_FLAT,
	/* -g folded: each such path on one line, its functions joined by
	 * ';' (by the -t separator when there is one), with the value of
	 * the samples that end there */
	RP_CALL_GRAPH_FOLDED,
};

enum rp_report_call_order {
	/* caller with --children, else callee (perf's defaults) */
	RP_CALL_ORDER_DEFAULT = 0,
	RP_CALL_ORDER_CALLER, /* the outermost function first */
	RP_CALL_ORDER_CALLEE, /* the sampled function first */
};

enum rp_report_call_value {
	RP_CALL_VALUE_PERCENT = 0,
	RP_CALL_VALUE_PERIOD,
	RP_CALL_VALUE_COUNT,
};

/*
 * What makes two frames of a call graph one node (perf's -g key,
 * callchain_param.key): values of rp_report_opts.call_key (macros, so
 * that the ABI only grows by the field).
 * - RP_CALL_KEY_FUNCTION: perf's function, the default: the symbol (its
 *   start in its DSO; an inlined function's frame by name), the address
 *   without one;
 * - RP_CALL_KEY_ADDRESS: perf's address: the DSO and the address as
 *   sampled; a node is drawn as its symbol and source line ("fib
 *   workload.c:61"), "+OFFSET" (decimal, from the symbol's start) where
 *   no line is known, as perf's callchain_list__sym_name() prints it;
 * - RP_CALL_KEY_SRCLINE: perf's srcline: frames with a source line
 *   ("file.c:12", "??:0") are one node when their lines are (whatever
 *   their functions), frames without one (kernel, no map) by function;
 *   a node with a line is drawn "name LINE".
 */
#define RP_CALL_KEY_FUNCTION 0
#define RP_CALL_KEY_ADDRESS 1
#define RP_CALL_KEY_SRCLINE 2

struct rp_report_opts {
	size_t sz; /* sizeof(struct rp_report_opts) */
	enum rp_sort_key keys[RP_REPORT_MAX_KEYS];
	size_t nr_keys;        /* 0: comm,dso,sym */
	const char *field_sep; /* NULL: aligned columns; else perf's -t SEP */
	double percent_limit;  /* rows below this overhead (%) are not shown */
	/* 0: a file's event groups (GROUP_DESC) shown together, as perf does
	 * by default; 1: perf's --group; -1: perf's --no-group. */
	int group;
	/* 1: perf's --children: a Children column (the period of the
	 * samples whose call stack holds the entry, once per sample) before
	 * Self, rows ordered by it; files without callchains are shown as
	 * without it, as perf does. */
	int children;
	/* The call graph under each row (perf's -g; see
	 * rp_report_parse_call_graph()). */
	enum rp_report_call_graph call_graph;
	enum rp_report_call_order call_order;
	enum rp_report_call_value call_value;
	/* Branches below this share (percent) are not drawn; only when
	 * call_threshold_set, else 0.5 (or percent_limit when set). */
	double call_threshold;
	int call_threshold_set;
	uint32_t call_print_limit; /* branches drawn per level; 0: all */
	/* Source lines for the srcline and srcfile keys (NULL: every line
	 * unknown), and the names of --children rows of inlined frames that
	 * perf renames (docs/unwind.md, "Where perf 6.1 is wrong"); must
	 * outlive the report. */
	struct rp_symbols *symbols;
	int full_source_path; /* perf's --full-source-path: no basename */
	/*
	 * perf's --sort string (keys separated by commas or spaces, each a
	 * key name or its start; a leading '+' appends to the default
	 * keys); NULL: keys[] or, without keys, perf's default (comm,dso,sym;
	 * trace when every event is a tracepoint).  A list that names
	 * "symbol" gets perf's ipc_null column; one that names "ipc" is
	 * refused, as perf refuses it.
	 */
	const char *sort_order;
	/* perf's -F/--fields string (NULL: perf's default columns) */
	const char *field_order;
	int show_nr_samples;      /* perf's -n: a Samples column */
	int show_total_period;    /* perf's --show-total-period: a Period column */
	int show_cpu_utilization; /* perf's --show-cpu-utilization: sys, usr */
	/* perf's -p REGEX (POSIX extended): adds the parent key; NULL:
	 * perf's default, ^sys_|^do_page_fault, for --sort parent */
	const char *parent_pattern;
	int exclude_other;        /* perf's -x: only rows with a parent */
	/*
	 * perf's --mem-mode: an entry per sample with the memory keys (the
	 * default sort becomes perf's local_weight,mem,sym,dso,symbol_daddr,
	 * dso_daddr,snoop,tlb,locked,blocked,local_ins_lat), each sample
	 * weighing its weight (1 when 0); files without PERF_SAMPLE_DATA_SRC
	 * are refused, as in perf.
	 */
	int mem_mode;
	/*
	 * perf's branch mode: 0 (default) on when the file has the
	 * BRANCH_STACK feature (and no user stacks), as perf report decides;
	 * 1 perf's --branch-stack; -1 --no-branch-stack.  An entry per branch
	 * of each sample's branch stack (period 1), keyed by its target
	 * (dso, symbol) and the branch keys; the default sort becomes perf's
	 * comm,dso_from,symbol_from,symbol_to,cycles.
	 */
	int branch_mode;
	/* Bytes of a cache line for the dcacheline key (perf reads the
	 * machine's); 0: 64. */
	uint32_t cacheline_size;
	/* The machine the report's samples are resolved with: with symbols,
	 * the trace key's kernel function pointers (%pS: kmem's call_site,
	 * hrtimer's function) print as sym+off, as in perf; NULL: as hex.
	 * Must outlive the report. */
	struct rp_machine *machine;
	/*
	 * Threads that build the call graphs and --children sums (0 or 1:
	 * the caller's alone): rows are split between them, each row's graph
	 * built by one, in the order of its stacks, so the report is the
	 * same whatever the count (at most 64 are used).
	 */
	unsigned nr_threads;
	/*
	 * perf's --max-stack, only when max_stack_set (else the kernel's
	 * default, 127): how many frames of each call stack the graphs,
	 * --children and the parent key look at.  Of the recorded
	 * callchain, the first max_stack frames from the drawing's root
	 * (the outermost in caller order, the innermost in callee order);
	 * of the frames unwound from a --call-graph dwarf sample's user
	 * stack, the innermost max_stack; an address's inlined frames count
	 * as one.  0: no frames.
	 */
	uint32_t max_stack;
	int max_stack_set;
	/*
	 * perf's --symbol-filter: rows whose symbol's name does not contain
	 * this string (and rows without a symbol) are hidden, their samples
	 * still in the totals; NULL: none.  As perf 6.1 applies it: to the
	 * file's first event only, and only when the sort list has the comm
	 * key (perf filters in its collapse, which only comm asks for).
	 */
	const char *symbol_filter;
	/*
	 * perf's --percentage relative: percentages, the header's counts and
	 * --percent-limit of the rows the filters leave (the entry filters
	 * of filter.h, symbol_filter), not of every sample; the graphs'
	 * percentages stay of the whole (perf's stats.total_period), their
	 * threshold of the rows left.  0: perf's default, absolute.
	 */
	int percentage_relative;
	/*
	 * perf's -T (--threads): after the report, perf's table of the
	 * PERF_RECORD_READ values (perf record -s: each thread's counts at
	 * its exit), a row per thread and a column per event, in the order
	 * first read, values of one thread and event added up; only the
	 * header line when the file has none.
	 */
	int show_threads;
	/*
	 * perf's --ignore-callees REGEX (POSIX extended): a sample whose
	 * recorded call stack holds a function matching it is counted in
	 * that function (in callee order the outermost such frame, in caller
	 * order the innermost), and its stack starts there: the callees are
	 * forgotten.  NULL: none.  A bad regex makes rp_report_new() return
	 * RP_ERR_INVAL.
	 */
	const char *ignore_callees;
	/* perf's -g key: RP_CALL_KEY_FUNCTION (0), _ADDRESS or _SRCLINE */
	int call_key;
	/*
	 * perf's --hierarchy: a level per sort key (comm, then dso, then
	 * sym, ...), each entry's figures the sums of the rows below it,
	 * the siblings of each level ordered by their own figures, indented
	 * by their depth; call graphs under the last level.  No Children
	 * column (perf turns --children off; its default still chooses the
	 * graphs' caller order).  With field_order, rp_report_new() returns
	 * RP_ERR_INVAL, as perf refuses -F with --hierarchy; with a number
	 * column (overhead, sample, period, ...) in the sort list,
	 * RP_ERR_UNSUPPORTED (not implemented).
	 */
	int hierarchy;
};

struct rp_report;

/*
 * Parses a perf --sort list ("comm,dso,sym") into opts->keys: each word
 * a key's name or its start, matched in perf's order ("s" is symbol),
 * "tid" exactly; the branch and memory keys are taken here and checked
 * against the report's mode by rp_report_new().  Returns 0 or
 * RP_ERR_INVAL (unknown key or too many keys).  opts->sort_order takes
 * perf's whole syntax.
 */
RP_API int rp_report_parse_sort(struct rp_report_opts *opts, const char *list);

/*
 * Parses perf's -g argument, comma separated: a mode (graph, fractal,
 * flat, folded, none), an order (caller, callee), a key
 * (function, address, srcline; branch is refused), a value (percent, period, count), then numbers: the
 * threshold (percent), the print limit.  Words may be cut short, as perf
 * takes them.  Returns 0 or RP_ERR_INVAL (opts unchanged then).
 */
RP_API int rp_report_parse_call_graph(struct rp_report_opts *opts, const char *arg);

/*
 * session must outlive the report.  Returns 0, RP_ERR_NOMEM,
 * RP_ERR_INVAL (an unknown or, for this file, invalid key in the sort
 * or field lists: a branch key outside branch mode, a memory key
 * without mem_mode; a bad -p regex; mem_mode on a file in branch mode;
 * a cacheline_size that is no power of two) or RP_ERR_UNSUPPORTED (the
 * parent key on a file without call stacks, branch mode on a file
 * without PERF_SAMPLE_BRANCH_STACK, mem_mode on one without
 * PERF_SAMPLE_DATA_SRC, which perf refuses; pipe streams are not
 * refused, as perf does not know their events in advance).
 */
RP_API int rp_report_new(struct rp_report **out, const struct rp_session *session,
		  const struct rp_report_opts *opts);
RP_API void rp_report_free(struct rp_report *report);

/* The consumer that feeds the report; valid as long as the report.  With
 * rp_process_mt() and 3 threads or more it may be called from a thread of
 * the pipeline's (see there). */
RP_API struct rp_consumer rp_report_consumer(struct rp_report *report);

/*
 * Writes the report to out.  The machine and symbols that fed it must
 * still exist (entries point to threads and DSOs).  Returns 0,
 * RP_ERR_NOMEM or RP_ERR_IO.
 */
RP_API int rp_report_write(struct rp_report *report, FILE *out);

struct rp_filter;

/*
 * Shows the report as perf does with these filters (filter.h; NULL: none):
 * a column whose --comms, --dsos or --symbols list has one entry is left
 * out (unless every column would be) and named in a "# comm: NAME" line;
 * "# Samples:" lines end with " (time slices: STR)" for --time.  The
 * filter itself is applied in the pipeline (rp_process_ext()); the
 * report's consumer takes the samples its entry filters reject into the
 * totals only.  What the report needs is copied.  Returns 0,
 * RP_ERR_INVAL (NULL report) or RP_ERR_NOMEM.
 */
RP_API int rp_report_set_filter(struct rp_report *report, const struct rp_filter *filter);

#ifdef __cplusplus
}
#endif

#endif
