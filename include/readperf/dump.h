/* SPDX-License-Identifier: MIT */
/*
 * readperf: every record as `perf report -D` (perf 6.1) prints it.
 *
 * Format: tools/perf/util/session.c (dump_event, dump_sample and the
 * callchain, branch, register, read-format printers), event.c
 * (perf_event__fprintf_*), machine.c and the report tool's handlers, as
 * the installed perf 6.1 prints them: per record a header line
 * "0x<offset>@<file> [0x<size>]: event: <type>", the raw bytes in hex, the
 * decoded line "<cpu> <time> 0x<offset> [0x<size>]: PERF_RECORD_<NAME>..."
 * with the type's details, then the stats of `perf report --stats`.
 * Records come in perf's delivery order (time order by rounds; user
 * records when read).  docs/dump.md lists what differs from perf.
 */
#ifndef READPERF_DUMP_H
#define READPERF_DUMP_H

#include <stddef.h>
#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>
#include <readperf/session.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_dump;

struct rp_dump_opts {
	size_t sz; /* sizeof(struct rp_dump_opts) */
	/* The file name printed after '@' (perf prints the -i argument);
	 * NULL means rp_session_path(). */
	const char *label;
};

/*
 * Creates a dump of session's records to fp.  The session must be open
 * in RP_ORDER_TIME (perf's order), not yet read, and outlive the dump; the
 * dump turns its merging of deferred callchains off
 * (rp_session_set_merge_deferred()), as perf report -D prints records as
 * read.  Feed the records
 * through rp_dump_consumer() with rp_process() (the machine gives the
 * " ... thread:" and " ...... dso:" lines of samples).  Output is buffered
 * by the dump; nothing is written to fp before the first flush.
 * Returns 0, RP_ERR_NOMEM or RP_ERR_INVAL.
 */
RP_API int rp_dump_new(struct rp_dump **out, FILE *fp, struct rp_session *session,
		const struct rp_dump_opts *opts);
RP_API struct rp_consumer rp_dump_consumer(struct rp_dump *dump);
/*
 * Writes what is still held back and the stats block, and flushes.
 * Returns 0 or RP_ERR_IO.
 */
RP_API int rp_dump_finish(struct rp_dump *dump);
/* Frees the dump (without writing).  NULL is allowed. */
RP_API void rp_dump_free(struct rp_dump *dump);

#ifdef __cplusplus
}
#endif

#endif
