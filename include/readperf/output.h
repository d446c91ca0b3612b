/* SPDX-License-Identifier: MIT */
/*
 * readperf: the output contract.
 *
 * Every consumer that turns processed samples into something a user keeps
 * (a report, folded stacks, a pprof, an HTML page, a database) is an
 * output, created by name and used in one shape:
 *
 *   struct rp_output *o;
 *   rp_output_new(&o, "collapse", &env, &opts, &target, &err);
 *   struct rp_consumer c = rp_output_consumer(o);
 *   rp_process_ext(session, machine, symbols, &c, 1, &popts);
 *   rp_output_finish(o, &err);   // writes what is left; may fail
 *   rp_output_free(o);
 *
 * rp_output_name() lists the outputs this library has; the readperf
 * command's subcommands of the same names are built from them.
 * Where each writes (a stream or a path) is rp_output_flags().  Each
 * output's options struct is declared in its own header (collapse.h:
 * struct rp_collapse_opts, ...) and follows the one options convention:
 * its first field is `size_t sz` = sizeof the struct the caller was built
 * with; a caller built against an older header passes a smaller sz and
 * gets the defaults for the fields it does not know; a larger sz with
 * non-zero bytes past what this library knows is refused (RP_ERR_INVAL).
 */
#ifndef READPERF_OUTPUT_H
#define READPERF_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include <readperf/api.h>
#include <readperf/error.h>
#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What an output reads while it is created and while it consumes.  The
 * pointers are borrowed: they must outlive the output, except that an
 * output that merges (RP_OUTPUT_MERGE) reads machine, symbols and filter
 * only while it consumes: once processing has ended they may be freed,
 * before rp_output_merge() and rp_output_finish() (session may not). */
struct rp_output_env {
	size_t sz;                  /* sizeof(struct rp_output_env) */
	struct rp_session *session; /* required: header facts, evsels */
	struct rp_machine *machine; /* may be NULL: threads, maps */
	struct rp_symbols *symbols; /* may be NULL: no symbol, srcline, inline */
	/* The filter the processing call applies (or NULL), for outputs that
	 * print what was filtered (perf's header lines). */
	const struct rp_filter *filter;
};

/* Where an output writes.  Stream outputs (rp_output_flags() without
 * RP_OUTPUT_PATH) write to stream, which stays the caller's; path outputs
 * create or open path (a file, a directory or a connection string, as the
 * output's header says). */
struct rp_output_target {
	size_t sz;    /* sizeof(struct rp_output_target) */
	FILE *stream;
	const char *path;
};

/* rp_output_flags() */
#define RP_OUTPUT_PATH 1u      /* writes to target.path, not to a stream */
#define RP_OUTPUT_SYMBOLS 2u   /* wants env.symbols (names in its output) */
/* Wants every record as the file holds it, not the pipeline's: a session
 * opened in RP_ORDER_FILE, each rp_session_next() record handed to the
 * consumer's event() with res NULL (no machine, no rp_process()). */
#define RP_OUTPUT_FILE_ORDER 4u
/* Reads no records: the header only (the consumer ignores everything;
 * nothing needs to be processed before rp_output_finish()). */
#define RP_OUTPUT_HEADER_ONLY 8u
#define RP_OUTPUT_MERGE 16u    /* rp_output_merge() works (it aggregates in memory) */

struct rp_output;

/* The name of this library's output number i (0, 1, ...; a fixed order),
 * or NULL past the last.  Static storage. */
RP_API const char *rp_output_name(size_t i);

/* RP_OUTPUT_* of the output called name, or RP_ERR_INVAL when there is no
 * such output. */
RP_API int rp_output_flags(const char *name);

/*
 * Creates the output called name.  opts is its options struct (NULL: the
 * defaults).  On failure *out is NULL, err (may be NULL) says why and the
 * return is RP_ERR_INVAL (no such output, a bad option or target),
 * RP_ERR_UNSUPPORTED (this build lacks the output's library: sqlite3,
 * libpq, capstone, zlib; or, for "postgres", libpq or libcrypto cannot be
 * loaded on this machine: see postgres.h; for "annotate", capstone),
 * RP_ERR_NOMEM or RP_ERR_IO (the target could not be opened or refused
 * the output).  The messages of this function, of rp_output_merge() and
 * of rp_output_finish() do not name the output (the caller did): a
 * program puts its name in front (docs/api.md).
 */
RP_API int rp_output_new(struct rp_output **out, const char *name,
			 const struct rp_output_env *env, const void *opts,
			 const struct rp_output_target *target, struct rp_error *err);

/* The consumer that feeds the output; valid as long as it. */
RP_API struct rp_consumer rp_output_consumer(struct rp_output *output);

/*
 * Adds what `from` aggregated into `into`: two outputs of one kind
 * (rp_output_flags() with RP_OUTPUT_MERGE), each fed from its own
 * recording, so that several recordings, processed one by one or in
 * parallel (one session, machine and symbols each), give one output.
 * The result is what one output fed from all of them would hold (collapse:
 * the counts of equal stacks summed; pprof: as `go tool pprof` merges
 * profiles, see pprof.h).  from is only read (not finished; free it
 * afterwards), and into keeps nothing of it nor of its env: from and its
 * session may be freed afterwards.  Merge in a fixed order for a
 * deterministic result.  Returns 0 or a negative enum rp_err with err
 * (may be NULL) filled: RP_ERR_INVAL (not two outputs of one kind, into
 * finished), RP_ERR_UNSUPPORTED (the output cannot merge), RP_ERR_NOMEM,
 * RP_ERR_LIMIT (a cap of the output).
 */
RP_API int rp_output_merge(struct rp_output *into, struct rp_output *from, struct rp_error *err);

/*
 * Completes the output after processing: writes what it aggregated,
 * commits, flushes.  Called once.  Returns 0 or a negative enum rp_err
 * with err (may be NULL) filled (RP_ERR_IO: the target could not be
 * written).
 */
RP_API int rp_output_finish(struct rp_output *output, struct rp_error *err);

/*
 * What the output cannot write as its options asked, for the caller to
 * show (a library never prints): lines without the final newline, such as
 * "built without libtraceevent: tracepoint fields are not written", or
 * NULL.  Known after rp_output_new(), more may come by rp_output_finish().
 * Valid until the next call on the output.
 */
RP_API const char *rp_output_warnings(struct rp_output *output);

/* Frees the output (NULL is allowed).  An output not finished discards
 * what it had: a path output removes or rolls back what it started. */
RP_API void rp_output_free(struct rp_output *output);

#ifdef __cplusplus
}
#endif

#endif
