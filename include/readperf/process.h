/* SPDX-License-Identifier: MIT */
/*
 * readperf: the pipeline from records to consumers.
 *
 * rp_process() pulls records from a session in time order, applies the
 * sideband (COMM, FORK, EXIT, MMAP, MMAP2, KSYMBOL) to the machine, resolves
 * each sample's ip to thread, map and symbol, and hands every record to
 * each consumer in turn.  Consumers (report, csv, ...) only read.
 */
#ifndef READPERF_PROCESS_H
#define READPERF_PROCESS_H

#include <stddef.h>

#include <readperf/api.h>
#include <readperf/machine.h>
#include <readperf/session.h>
#include <readperf/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One resolved entry of a sample's call stack. */
struct rp_frame {
	struct rp_addr_location al; /* ip, cpumode, map, dso, sym, addr, level */
	/*
	 * A frame of an inline chain (rp_symbols_inlines(): the unwound
	 * entries of --call-graph dwarf samples): its source file (full path,
	 * NULL when unknown) and line (0: unknown), and whether the next
	 * frame is the next record of the same address's chain (this one was
	 * inlined into it).  NULL, 0, 0 for other frames.
	 */
	const char *src_file;
	uint32_t src_line;
	uint8_t inlined_into_next;
	/*
	 * 1 when this entry's inline chain was looked up (an unwound entry
	 * of a --call-graph dwarf sample with a symbol, inline frames on:
	 * perf's append_inlines()), whether or not code was inlined there:
	 * perf then keeps the line that lookup found as the frame's source
	 * line; 0 for other frames.
	 */
	uint8_t inline_looked_up;
	/*
	 * 1 for a frame unwound from the sample's copy of the user stack
	 * (--call-graph dwarf: perf's thread__resolve_callchain_unwind()),
	 * 0 for one of the recorded PERF_SAMPLE_CALLCHAIN.  Unwound frames
	 * come after the recorded ones.  (This field lies in what was the
	 * struct's padding: the size and the other offsets are unchanged.)
	 */
	uint8_t unwound;
};

/*
 * One entry of a sample's branch stack with both ends resolved, as perf's
 * sample__resolve_bstack() resolves them (tools/perf/util/machine.c,
 * ip__resolve_ams): the branch does not say in which mode an address
 * is, so each is looked up as a user address, then as a kernel one (perf
 * then tries the guest modes, which find nothing in perf report); an
 * address no map covers keeps map, dso and sym NULL, addr = ip and level
 * 'H'.
 */
struct rp_branch_location {
	struct rp_addr_location from, to;
	uint64_t flags; /* perf_branch_entry's flags word (rp_branch_entry.flags) */
};

/* A consumer's note on a cached call stack: see rp_resolved.stack_slot
 * (defined inside the library, for its own consumers). */
struct rp_stack_slot;

/* A sample resolved for consumers. */
struct rp_resolved {
	struct rp_thread *thread;
	const char *comm;          /* the thread's comm at the sample's time */
	struct rp_addr_location al; /* the sample ip's map and symbol */
	/*
	 * The PERF_SAMPLE_CALLCHAIN entries resolved as perf's
	 * thread__resolve_callchain_sample() does (callee order: leaf first;
	 * context markers switch the cpumode of the entries after them and
	 * are dropped; an invalid marker drops the whole chain, leaving
	 * nr_callchain 0 with callchain not NULL).  Only when a consumer asks
	 * with RP_CONSUMER_CALLCHAIN and the sample has a callchain; else 0 and
	 * NULL.  Valid until the consumer returns.
	 */
	size_t nr_callchain;
	const struct rp_frame *callchain;
	/*
	 * Nonzero when the callchain came from the pipeline's cache of
	 * recent call stacks: samples of one rp_process() run with the same
	 * stack_id have the same callchain frames (a consumer may key what
	 * it derives from the frames on it).  0: no such promise.
	 */
	uint64_t stack_id;
	/*
	 * With a nonzero stack_id, for the library's own consumers (else
	 * NULL; a consumer outside the library has no use for it): memory the pipeline keeps for this consumer alongside
	 * the cached stack, so that the consumer can note there what it
	 * derived from the frames and find it again without a lookup of its
	 * own.  Both words are 0 whenever the cache takes in a stack, so what
	 * a consumer finds there it wrote for a sample of the same stack_id.
	 */
	struct rp_stack_slot *stack_slot;
	/*
	 * 0, or the RP_FILTERED_* marks of the entry filters that reject the
	 * sample (filter.h); such samples reach only consumers with
	 * RP_CONSUMER_FILTERED.
	 */
	unsigned filtered;
	/*
	 * With RP_CONSUMER_BRANCHES, a sample with PERF_SAMPLE_BRANCH_STACK:
	 * its entries in the order recorded (the newest first), resolved
	 * (see struct rp_branch_location); else 0 and NULL.  Valid until the
	 * consumer returns.
	 */
	size_t nr_branches;
	const struct rp_branch_location *branches;
	/*
	 * With RP_CONSUMER_MEM (else zeroed): `data` is the sample's
	 * PERF_SAMPLE_ADDR (0 without it) looked up in the sample's own
	 * cpumode, as perf's ip__resolve_data() does for perf mem's data
	 * address; `code` is the sample's ip looked up as a branch address
	 * (struct rp_branch_location), perf's mem_info iaddr.
	 */
	struct rp_addr_location data, code;
};

/* rp_consumer.flags */
#define RP_CONSUMER_CALLCHAIN 1u /* resolve each sample's callchain */
/*
 * A sample with PERF_SAMPLE_READ is handed to consumers once per value read
 * (as the value's event, with its increase as period), as perf delivers it;
 * a consumer with this flag gets each record once, as it is in the file.
 */
#define RP_CONSUMER_RECORDS 2u
/*
 * Also hand this consumer the samples an entry filter rejected (with
 * rp_resolved.filtered set), as perf report counts them in its totals
 * without showing them; other consumers never see them.
 */
#define RP_CONSUMER_FILTERED 4u

/* Resolve each sample's branch stack (rp_resolved.branches). */
#define RP_CONSUMER_BRANCHES 8u
/* Resolve each sample's data address and ip (rp_resolved.data, .code). */
#define RP_CONSUMER_MEM 16u
/*
 * This consumer draws call stacks outermost first (perf report's children
 * view, -g caller): perf then resolves a stack in that order, and the
 * inline chains of a --call-graph dwarf sample's unwound frames are looked
 * up outermost first, which names the inlined frames of later lookups
 * (docs/unwind.md, "Inlined frames").  The frames are delivered in callee
 * order all the same.  When consumers disagree, this order is used.
 */
#define RP_CONSUMER_CALLER_ORDER 32u

/* Most callchain entries resolved per sample (perf's PERF_MAX_STACK_DEPTH
 * is 127 by default; the kernel caps records far below this). */
#define RP_MAX_CALLCHAIN 65536u

/*
 * One consumer.  event() gets every record in delivery order; for samples
 * `res` is the resolution (NULL for other records).  A negative return
 * stops rp_process() with that value.
 */
struct rp_consumer {
	void *ctx;
	int (*event)(void *ctx, const struct rp_event *ev, const struct rp_resolved *res);
	unsigned flags; /* RP_CONSUMER_*; bits 16 and up are the library's own */
};

/*
 * Runs the pipeline to the end of the data.  symbols may be NULL (no symbol
 * lookup: al.sym stays NULL).  Returns 0, or the first error: a reader
 * error (after every record before it was delivered; see
 * rp_session_error()), or a consumer's or the machine's negative value.
 */
RP_API int rp_process(struct rp_session *session, struct rp_machine *machine,
	       struct rp_symbols *symbols, const struct rp_consumer *consumers,
	       size_t nr_consumers);

/*
 * rp_process() (which uses one thread: the caller's) with nr_threads
 * threads: 0 or 1 reads and processes in the caller's thread; 2 or more
 * adds a thread that reads the session (framing, decoding, time order)
 * while the caller's thread runs machine, symbols and consumers, and,
 * for samples with user registers and stack (--call-graph dwarf), up to
 * nr_threads - 1 threads that walk their stacks (at most 256), made at
 * the first such sample.  The consumers given here are always called from
 * the caller's thread, in the same order and with the same events as with
 * one thread; with 3 or more, the library's own report (rp_report_*,
 * report.h) and folded stacks (rp_collapse_*, collapse.h) may fill their
 * tables on one more thread, in record order, while the caller's thread
 * resolves later records (their output is the same).  Sessions whose records are copies (pipe streams, compressed or
 * byte-swapped files) are read with one thread and their stacks walked
 * in it.
 */
RP_API int rp_process_mt(struct rp_session *session, struct rp_machine *machine,
		  struct rp_symbols *symbols, const struct rp_consumer *consumers,
		  size_t nr_consumers, unsigned nr_threads);

struct rp_filter;

/* Options of rp_process_ext(). */
struct rp_process_opts {
	size_t sz;            /* sizeof(struct rp_process_opts) */
	unsigned nr_threads;  /* as rp_process_mt(); 0: one */
	/*
	 * The samples the consumers get (filter.h), or NULL: all.  Samples the
	 * sample filters drop reach no consumer and are not resolved; those an
	 * entry filter rejects reach only RP_CONSUMER_FILTERED consumers.  The
	 * filter is used (its caches written) during the call only.
	 */
	struct rp_filter *filter;
	/*
	 * perf's --max-stack as it applies to unwinding, only when
	 * max_stack_set (else 127, the most ever unwound): a --call-graph
	 * dwarf sample's callchain gets only the innermost max_stack frames
	 * of its user stack's walk, and only these are resolved and their
	 * inline chains looked up, as perf does (inline names depend on the
	 * lookups made before: docs/unwind.md).  The recorded frames are all
	 * delivered: which of them perf keeps depends on the order a
	 * consumer draws them in (rp_report_opts.max_stack).
	 */
	uint32_t max_stack;
	int max_stack_set;
};

/*
 * rp_process() with options (opts may be NULL: as rp_process()).  Returns
 * what rp_process() returns, or RP_ERR_INVAL for options this library
 * does not know (non-zero bytes past the fields it has).
 */
RP_API int rp_process_ext(struct rp_session *session, struct rp_machine *machine,
		   struct rp_symbols *symbols, const struct rp_consumer *consumers,
		   size_t nr_consumers, const struct rp_process_opts *opts);

#ifdef __cplusplus
}
#endif

#endif
