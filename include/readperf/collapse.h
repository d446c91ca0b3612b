/* SPDX-License-Identifier: MIT */
/*
 * readperf: folded stacks, one line per distinct call stack:
 *
 *   comm;outermost;...;sampled_function COUNT
 *
 * as perf's stackcollapse script prints them (`perf script report
 * stackcollapse`, tools/perf/scripts/python/stackcollapse.py; the input of
 * flamegraph.pl): COUNT is the number of samples, lines sorted by their
 * text.  See docs/collapse.md for every rule.
 */
#ifndef READPERF_COLLAPSE_H
#define READPERF_COLLAPSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_collapse_opts {
	size_t sz;           /* sizeof(struct rp_collapse_opts) */
	int no_comm;         /* --no-comm: no command as the first frame */
	int include_pid;     /* --include-pid: comm-PID */
	int include_tid;     /* --include-tid: comm-TID, or comm-PID/TID */
	int tidy_java;       /* --tidy-java: Java signatures shortened */
	int annotate_kernel; /* --kernel: kernel functions get "_[k]" */
	int annotate_jit;    /* --jit (readperf): JIT-compiled functions get "_[j]" */
};

/* What a frame of a folded stack is, from its annotation. */
enum rp_frame_kind {
	RP_FRAME_USER = 0,
	RP_FRAME_KERNEL,  /* ends with "_[k]" */
	RP_FRAME_JIT,     /* ends with "_[j]" */
	RP_FRAME_COMM,    /* the command (first frame unless no_comm) */
};

struct rp_collapse;

/*
 * Creates the aggregation.  opts may be NULL (perf's defaults).  Returns
 * 0, RP_ERR_INVAL (include_pid or include_tid without the comm, which the
 * script refuses) or RP_ERR_NOMEM.
 */
RP_API int rp_collapse_new(struct rp_collapse **out, const struct rp_collapse_opts *opts);
RP_API void rp_collapse_free(struct rp_collapse *collapse);

/* The consumer that feeds it (asks for callchains); valid as long as it.
 * With rp_process_mt() and 3 threads or more it may be called from a
 * thread of the pipeline's (see there). */
RP_API struct rp_consumer rp_collapse_consumer(struct rp_collapse *collapse);

/*
 * The distinct stacks, sorted by their text (byte order, as Python sorts
 * them); *stacks gets an array of NUL-terminated lines without the count,
 * *counts their sample counts.  Both stay valid until the next call or
 * rp_collapse_free().  Returns the number of stacks, or RP_ERR_NOMEM.
 */
RP_API long rp_collapse_stacks(struct rp_collapse *collapse, const char *const **stacks,
			const uint64_t **counts);

/* Writes "STACK COUNT\n" per stack.  Returns 0, RP_ERR_NOMEM or RP_ERR_IO. */
RP_API int rp_collapse_write(struct rp_collapse *collapse, FILE *out);

/*
 * Adds from's stacks into `into` (the counts of equal stacks summed), as if
 * into had consumed from's samples too: several recordings collapsed one
 * by one, or in parallel, give the folded stacks of all of them.  Both
 * must have been made with the same options.  from is only read; into
 * keeps nothing of it.  Returns 0, RP_ERR_INVAL (NULL, into == from,
 * different options), RP_ERR_NOMEM or RP_ERR_LIMIT (more distinct stacks
 * than a collapse holds).
 */
RP_API int rp_collapse_merge(struct rp_collapse *into, const struct rp_collapse *from);

/* Total samples seen (the sum of the counts). */
RP_API uint64_t rp_collapse_total(const struct rp_collapse *collapse);

#ifdef __cplusplus
}
#endif

#endif
