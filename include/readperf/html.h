/* SPDX-License-Identifier: MIT */
/*
 * readperf: one self-contained HTML page of a recording (the output
 * "html" of include/readperf/output.h): flame graph and icicle, top-down
 * and bottom-up trees, caller/callee, a function table and a timeline of
 * threads, processes and CPUs, all of one event at a time and of the
 * threads and time range the reader selects in the page.
 *
 * The page holds its script and style (web/report.{html,css,js}, built
 * into the library) and the data: interned strings, functions, one
 * calling-context tree, and the period and sample count of each
 * (event, thread, time bin, leaf node), deflated (zlib) and base64-coded
 * in a <script type="application/octet-stream"> element that the page
 * inflates with the browser's DecompressionStream.  No name from the
 * file becomes markup: the page builds every text node from the data.
 * A Content-Security-Policy forbids every fetch.  docs/html.md describes
 * the data and the views.
 *
 * Stream output: it writes to rp_output_target.stream.  Needs zlib: a
 * library built without it has the output but rp_output_new() fails with
 * RP_ERR_UNSUPPORTED.
 */
#ifndef READPERF_HTML_H
#define READPERF_HTML_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_html_opts {
	size_t sz;     /* sizeof(struct rp_html_opts) */
	/* The page's title (NULL: "readperf: " and the input's name); text,
	 * never markup. */
	const char *title;
	/* Most (event, thread, bin, stack) weights kept for time-range
	 * selection (0: RP_HTML_WEIGHTS_DEFAULT): beyond it the selection
	 * bins are made twice as wide, until they fit. */
	uint64_t max_weights;
	/* Timeline bins drawn per lane (0: RP_HTML_BINS_DEFAULT; at most
	 * RP_HTML_BINS_MAX). */
	uint32_t bins;
	/* 1: no source file and line per function (saves the DWARF
	 * lookups). */
	int no_srcline;
	/* deflate level, 1..9 (0: 6). */
	int level;
};

#define RP_HTML_WEIGHTS_DEFAULT 400000u
#define RP_HTML_BINS_DEFAULT 1024u
#define RP_HTML_BINS_MAX 4096u

#ifdef __cplusplus
}
#endif

#endif
