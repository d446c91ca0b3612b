/* SPDX-License-Identifier: MIT */
/* readperf: the filter's internals other modules of the library ask about. */
#ifndef READPERF_FILTER_INT_H
#define READPERF_FILTER_INT_H

#include <readperf/filter.h>

/* The entry filters set, as RP_FILTERED_* bits: THREAD for --comms,
 * --pid or --tid, DSO for --dsos, SYMBOL for --symbols; 0 for a NULL
 * filter. */
unsigned rp_filter_entry_types(const struct rp_filter *filter);

#endif
