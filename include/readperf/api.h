/* SPDX-License-Identifier: MIT */
/*
 * readperf: the marker of the exported API.
 *
 * libreadperf is compiled with -fvisibility=hidden: a function is exported
 * from libreadperf.so only when its declaration in include/readperf/ carries
 * RP_API, and lib/readperf.map names it (a version script, one node per
 * release).  tests/install/run_abi_symbols.sh checks that the exported
 * symbols and the RP_API declarations are the same set.  docs/api.md states
 * what is public and the ABI promise.
 */
#ifndef READPERF_API_H
#define READPERF_API_H

#if defined(__GNUC__) && __GNUC__ >= 4
#define RP_API __attribute__((visibility("default")))
#else
#define RP_API
#endif

#endif
