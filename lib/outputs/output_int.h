/* SPDX-License-Identifier: MIT */
/*
 * The output contract inside the library (the public side is
 * include/readperf/output.h).  Each output is one file of lib/outputs/
 * that defines one `const struct rp_output_def rp_output_NAME`, listed in
 * output.c's table.
 */
#ifndef RP_OUTPUTS_OUTPUT_INT_H
#define RP_OUTPUTS_OUTPUT_INT_H

#include <readperf/output.h>

struct rp_output_def {
	const char *name;
	unsigned flags;    /* RP_OUTPUT_* */
	/*
	 * Makes the output's state.  opts is the caller's options struct or
	 * NULL (copy it with rp_opts_copy(): the caller's sz may differ from
	 * the library's); env and target are complete (target->stream set
	 * for stream outputs, target->path for path outputs).  Returns 0 or
	 * a negative enum rp_err with err filled.
	 */
	int (*create)(void **state, const struct rp_output_env *env, const void *opts,
		      const struct rp_output_target *target, struct rp_error *err);
	struct rp_consumer (*consumer)(void *state);
	/*
	 * Adds what `from` (the state of another output of this kind, made
	 * from another recording) aggregated into state; from is only read
	 * and state keeps nothing of it.  NULL: the output cannot merge.
	 */
	int (*merge)(void *state, void *from, struct rp_error *err);
	/* Writes or commits what is left; NULL: nothing to do. */
	int (*finish)(void *state, struct rp_error *err);
	void (*destroy)(void *state);
	/* Not NULL: this build lacks the output's library, and says so
	 * (rp_output_new() fails with RP_ERR_UNSUPPORTED); no functions. */
	const char *unavailable;
	/* rp_output_warnings(); NULL: the output never has any. */
	const char *(*warnings)(void *state);
};

extern const struct rp_output_def rp_output_annotate;
extern const struct rp_output_def rp_output_report;
extern const struct rp_output_def rp_output_collapse;
extern const struct rp_output_def rp_output_flamegraph;
extern const struct rp_output_def rp_output_csv;
extern const struct rp_output_def rp_output_dump;
extern const struct rp_output_def rp_output_json;
extern const struct rp_output_def rp_output_script;
extern const struct rp_output_def rp_output_stats;
extern const struct rp_output_def rp_output_header;
extern const struct rp_output_def rp_output_html;
extern const struct rp_output_def rp_output_sqlite;
extern const struct rp_output_def rp_output_postgres;
extern const struct rp_output_def rp_output_pprof;
extern const struct rp_output_def rp_output_diff;

#endif
