/* SPDX-License-Identifier: MIT */
/*
 * readperf: the four CSV files of the 2011 readperf.
 *
 *   stat.csv       type,count
 *   overview.csv   nr,type,pid,tid,time,info   every record, in time order
 *   processes.csv  pid,name,mmaps,fork_time,exit_time,samples,period
 *   results.csv    function,source_file,dso,samples,period
 *
 * Fields are quoted as RFC 4180 requires; times are ns as in the file.
 * See docs/csv.md for each column.
 */
#ifndef READPERF_CSV_H
#define READPERF_CSV_H

#include <readperf/api.h>
#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_csv;

/*
 * Opens the four files in directory dir (created when missing; NULL means
 * the current directory).  symbols may be NULL (results.csv then has no
 * source files).  overview.csv is written while records stream through the
 * consumer; the others at rp_csv_finish().  Returns 0, RP_ERR_IO (see
 * errno) or RP_ERR_NOMEM.
 */
RP_API int rp_csv_new(struct rp_csv **out, const char *dir, const struct rp_session *session,
	       struct rp_symbols *symbols);
RP_API struct rp_consumer rp_csv_consumer(struct rp_csv *csv);
/* Writes stat.csv, processes.csv and results.csv and closes all four. */
RP_API int rp_csv_finish(struct rp_csv *csv);
RP_API void rp_csv_free(struct rp_csv *csv);

#ifdef __cplusplus
}
#endif

#endif
