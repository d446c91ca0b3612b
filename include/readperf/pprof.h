/* SPDX-License-Identifier: MIT */
/*
 * readperf: a pprof profile (github.com/google/pprof, proto/profile.proto),
 * gzip'd, as `go tool pprof` reads it.
 *
 * Sample types: "samples"/"count", then one per event of the file: the
 * event's name with the unit of its period ("nanoseconds" for cpu-clock and
 * task-clock, "count" otherwise); each sample counts 1 and its period in
 * its own event's column.  The default sample type is the first event.
 * Locations are the sampled ip and its call stack (leaf first); each has
 * one line naming its function (the symbol, or the DSO-space address as
 * perf report prints an unresolved one); mappings are the processes' maps
 * with the DSO path and build-id.  Labels: pid, tid, comm and, when
 * recorded, cpu.  Identical samples (same stack, event and labels) are
 * merged.  See docs/pprof.md.
 */
#ifndef READPERF_PPROF_H
#define READPERF_PPROF_H

#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_pprof;

/*
 * Creates the builder.  Returns 0, RP_ERR_NOMEM, or RP_ERR_UNSUPPORTED
 * when readperf was built without protobuf-c or zlib.  session must
 * outlive it.
 */
RP_API int rp_pprof_new(struct rp_pprof **out, const struct rp_session *session);
/* The consumer (asks for callchains). */
RP_API struct rp_consumer rp_pprof_consumer(struct rp_pprof *pprof);
/*
 * Source files and lines from symbols' DWARF (which must outlive the
 * profile): each Function's filename is its source file and each Line has
 * its line number, so that `go tool pprof -list` and `-lines` work; the
 * frames of an inline chain become one Location with a Line each.
 * Without (the default), filenames are the DSOs' paths and lines 0.
 */
RP_API void rp_pprof_set_symbols(struct rp_pprof *pprof, struct rp_symbols *symbols);
/*
 * Encodes the profile and writes it gzip'd to f (the caller's).
 * Returns 0, RP_ERR_NOMEM, RP_ERR_LIMIT (more locations, functions or
 * samples than the caps) or RP_ERR_IO.
 */
RP_API int rp_pprof_write(struct rp_pprof *pprof, FILE *f);
RP_API void rp_pprof_free(struct rp_pprof *pprof);

/* Caps on what a file can make the profile hold. */
#define RP_PPROF_MAX_LOCATIONS (16u << 20)
#define RP_PPROF_MAX_FUNCTIONS (16u << 20)
#define RP_PPROF_MAX_MAPPINGS (4u << 20)
#define RP_PPROF_MAX_SAMPLES (64u << 20)
#define RP_PPROF_MAX_STRINGS (16u << 20)

#ifdef __cplusplus
}
#endif

#endif
