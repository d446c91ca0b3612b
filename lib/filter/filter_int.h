/* SPDX-License-Identifier: MIT */
/* readperf: the filter's internals other modules of the library ask about. */
#ifndef READPERF_FILTER_INT_H
#define READPERF_FILTER_INT_H

#include <readperf/filter.h>

/* 1 when some entry filter (--comms, --pid, --tid, --dsos, --symbols) is
 * set; 0 for none or a NULL filter. */
int rp_filter_has_entry(const struct rp_filter *filter);

#endif
