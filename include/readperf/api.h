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

/*
 * Declares an options struct with its sz set and the named fields given,
 * the rest zero (the defaults):
 *
 *   RP_OPTS(rp_collapse_opts, opts, .include_pid = 1);
 *
 * is `struct rp_collapse_opts opts = { .sz = sizeof(...), .include_pid = 1 }`.
 * Every options struct of the API starts with `size_t sz` (the size the
 * caller was compiled with; docs/api.md says how it is read).
 */
#define RP_OPTS(TYPE, NAME, ...) \
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }

#endif
