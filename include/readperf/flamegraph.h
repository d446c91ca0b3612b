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

#ifdef __cplusplus
}
#endif

#endif
