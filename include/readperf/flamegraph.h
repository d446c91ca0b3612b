/* SPDX-License-Identifier: MIT */
/*
 * readperf: an interactive SVG flame graph, written directly (no external
 * tool): one box per frame of the folded stacks (readperf/collapse.h),
 * as wide as its samples, callers below callees.  The SVG embeds its
 * script: hovering shows a frame's function, samples and share; a click
 * zooms into a frame; Search (or Ctrl-F) highlights the frames whose name
 * matches a regular expression and shows their share of all samples.
 * Colours tell user (warm), kernel (blue) and JIT (green) frames
 * apart; the command frames are grey.  See docs/flamegraph.md.
 */
#ifndef READPERF_FLAMEGRAPH_H
#define READPERF_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <readperf/api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_flamegraph_opts {
	size_t sz;            /* sizeof(struct rp_flamegraph_opts) */
	const char *title;    /* NULL: "Flame Graph" */
	const char *subtitle; /* NULL: none; e.g. the event names */
	unsigned width;       /* image width in pixels; 0: 1200 */
	int has_comm;         /* the first frame of each stack is the command */
	/* rp_flamegraph_write_diff(): 1 compares the baseline's counts as
	 * they are; 0 (the default) scales them to the new profile's total
	 * first (difffolded.pl -n), so that colours show changes of shares */
	int no_normalize;
	/*
	 * The output "flamegraph" (output.h: a stream output) folds the
	 * stacks itself, as rp_collapse with these (kernel and JIT
	 * annotations always on: they choose the colours; has_comm follows
	 * no_comm there) and writes the SVG at rp_output_finish(), with the
	 * events of the recording as subtitle unless one is given.
	 */
	int include_tid;
	int include_pid;
	int no_comm;
	int tidy_java;
	/*
	 * That output as a differential flame graph: it takes two
	 * recordings, the first read the baseline, the one rp_output_merge()
	 * adds to it the new profile (rp_flamegraph_write_diff()).  Without
	 * diff, merging sums the stacks of several recordings (as collapse).
	 */
	int diff;
};

/* Pixels a frame must span to be drawn (as flamegraph.pl's --minwidth). */
#define RP_FLAMEGRAPH_MIN_WIDTH 0.1
/* Frames kept in the tree: a file cannot make it grow beyond. */
#define RP_FLAMEGRAPH_MAX_NODES (16u << 20)

/*
 * Writes the SVG of nr folded stacks (frames separated by ';', annotated
 * "_[k]" for kernel and "_[j]" for JIT functions, as rp_collapse writes
 * them with annotate_kernel and annotate_jit; the annotation is shown as
 * the colour, not as text) with their sample counts.  The root box holds
 * the sum of counts.  Returns 0, RP_ERR_INVAL, RP_ERR_NOMEM, RP_ERR_LIMIT
 * or RP_ERR_IO.
 */
RP_API int rp_flamegraph_write(FILE *out, const char *const *stacks, const uint64_t *counts, size_t nr,
			const struct rp_flamegraph_opts *opts);

/*
 * Writes the differential flame graph of two sets of folded stacks (as
 * rp_flamegraph_write() takes them), the baseline (old) and the new
 * profile, with Brendan Gregg's difffolded.pl + flamegraph.pl conventions:
 * the frames and their widths are the new profile's (the same boxes as
 * its own flame graph; stacks of the baseline only have no width); each
 * frame's colour is the change of the samples of the stack that ends at
 * it, new minus old (old scaled to the new total unless
 * opts->no_normalize): red when it grew, blue when it shrank, white when
 * unchanged, deeper as the change nears the largest change of a stack.
 * A frame's tooltip holds its samples and share in both profiles and the
 * change of its share; its <g> carries data-old (the baseline's samples
 * through the frame) and data-delta (the change that colours it).  The
 * default title is "Differential Flame Graph".  Returns 0, RP_ERR_INVAL,
 * RP_ERR_NOMEM, RP_ERR_LIMIT or RP_ERR_IO.
 */
RP_API int rp_flamegraph_write_diff(FILE *out, const char *const *old_stacks,
				    const uint64_t *old_counts, size_t nr_old,
				    const char *const *new_stacks, const uint64_t *new_counts,
				    size_t nr_new, const struct rp_flamegraph_opts *opts);

#ifdef __cplusplus
}
#endif

#endif
