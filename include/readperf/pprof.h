/* SPDX-License-Identifier: MIT */
/*
 * readperf: a pprof profile (github.com/google/pprof, proto/profile.proto),
 * gzip'd, as `go tool pprof`, Pyroscope and Parca read it.
 *
 * Sample types: "samples"/"count", then one per event of the file: the
 * event's name with the unit of its period ("nanoseconds" for cpu-clock and
 * task-clock, "count" otherwise), so that `go tool pprof -sample_index=EVENT`
 * shows that event's periods.  A sample counts 1 in "samples" and its
 * period in its own event's column; samples with the same call stack and
 * labels are one pprof sample whatever their event.  The default sample
 * type and the period type are the first event.
 *
 * Locations are the sampled ip and its call stack (leaf first); each has a
 * line per frame of its inline chain, naming the function (the symbol, or
 * the DSO-space address as perf report prints an unresolved one) with its
 * source file and line from the DSO's DWARF when it has them (else the
 * DSO's path and line 0).  Mappings are the processes' maps with the DSO
 * path and build-id; the first one is the main binary: the executable
 * whose processes have the most samples (so that `go tool pprof` prints
 * `File: PROGRAM`).  Labels: pid, tid, cpu (numbers, kept when 0) and
 * comm.  time_nanos is the first sample's wall-clock time when the
 * recording relates its clock to wall-clock time (CLOCK_DATA: perf record
 * -k), duration_nanos the time from the first sample to the last.  See
 * docs/pprof.md.
 */
#ifndef READPERF_PPROF_H
#define READPERF_PPROF_H

#include <stddef.h>
#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rp_pprof_opts.no_labels: labels left out (their samples merge). */
#define RP_PPROF_LABEL_PID 1u
#define RP_PPROF_LABEL_TID 2u
#define RP_PPROF_LABEL_COMM 4u
#define RP_PPROF_LABEL_CPU 8u

struct rp_pprof_opts {
	size_t sz;          /* sizeof(struct rp_pprof_opts) */
	unsigned no_labels; /* RP_PPROF_LABEL_* bits; 0: every label */
};

struct rp_pprof;

/*
 * Creates the builder with the default options.  Returns 0, RP_ERR_NOMEM,
 * or RP_ERR_UNSUPPORTED when readperf was built without protobuf-c or
 * zlib.  session must outlive it.
 */
RP_API int rp_pprof_new(struct rp_pprof **out, const struct rp_session *session);
/*
 * rp_pprof_new() with options (opts may be NULL: the defaults).  Also
 * returns RP_ERR_INVAL for options this library does not know (non-zero
 * bytes past the fields it has) or unknown no_labels bits.
 */
RP_API int rp_pprof_new_ext(struct rp_pprof **out, const struct rp_session *session,
			    const struct rp_pprof_opts *opts);
/* The consumer (asks for callchains). */
RP_API struct rp_consumer rp_pprof_consumer(struct rp_pprof *pprof);
/*
 * Source files and lines from symbols' DWARF (which must outlive the
 * profile): each Function's filename is its source file and each Line has
 * its line number, so that `go tool pprof -list` and `-lines` work; the
 * frames of an inline chain become one Location with a Line each, and a
 * frame without a chain gets its function's own line at the address (the
 * call site, when code of another function was inlined there).  Without
 * (the default), filenames are the DSOs' paths and lines 0.
 */
RP_API void rp_pprof_set_symbols(struct rp_pprof *pprof, struct rp_symbols *symbols);
/*
 * Adds what `from` holds into `into`, as `go tool pprof` merges profiles
 * (profile.Merge): mappings of the same file (build-id, else path),
 * size and offset are one, their locations moved to its address; equal
 * functions (name, file), locations (mapping, address, lines) and samples
 * (stack, labels) are one, their values summed; events are matched by
 * name and unit (the k-th event of a name with the k-th), others added as
 * sample types; time_nanos is the earliest, duration_nanos the sum,
 * period the largest.  from is only read, and into keeps nothing of it,
 * of its session or of its symbols: all may be freed afterwards.  into
 * may go on consuming.  Returns 0, RP_ERR_INVAL (into == from, NULL),
 * RP_ERR_NOMEM, RP_ERR_LIMIT (the caps below), or the error either had
 * met while consuming.
 */
RP_API int rp_pprof_merge(struct rp_pprof *into, const struct rp_pprof *from);
/*
 * Encodes the profile and writes it gzip'd to f (the caller's).
 * Returns 0, RP_ERR_NOMEM, RP_ERR_LIMIT (more locations, functions or
 * samples than the caps) or RP_ERR_IO.
 */
RP_API int rp_pprof_write(struct rp_pprof *pprof, FILE *f);
RP_API void rp_pprof_free(struct rp_pprof *pprof);

/* Caps on what a file (or the files merged) can make the profile hold. */
#define RP_PPROF_MAX_LOCATIONS (16u << 20)
#define RP_PPROF_MAX_FUNCTIONS (16u << 20)
#define RP_PPROF_MAX_MAPPINGS (4u << 20)
#define RP_PPROF_MAX_SAMPLES (64u << 20)
#define RP_PPROF_MAX_STRINGS (16u << 20)
#define RP_PPROF_MAX_EVENTS 4096u

#ifdef __cplusplus
}
#endif

#endif
