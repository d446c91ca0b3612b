/* SPDX-License-Identifier: MIT */
/*
 * readperf: perf's database export in SQLite and PostgreSQL.
 *
 * The outputs "sqlite" and "postgres" (output.h: rp_output_new()) write
 * the schema of perf's export-to-sqlite.py and export-to-postgresql.py
 * scripts (`perf script -s export-to-sqlite.py DB [branches] [calls]
 * [callchains]`, perf 6.1): the tables selected_events, machines,
 * threads, comms, comm_threads, dsos, symbols, branch_types, samples,
 * call_paths, calls and context_switches, with perf's views over them.
 * docs/sql.md describes both, and what readperf leaves out.
 *
 * "sqlite" is a path output: target.path names the database file, which
 * is written under a temporary name beside it and renamed when
 * rp_output_finish() succeeds (an output freed unfinished leaves
 * nothing).  "postgres": see postgres.h.
 */
#ifndef READPERF_SQLITE_H
#define READPERF_SQLITE_H

#include <stddef.h>

#include <readperf/api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_sqlite_opts {
	size_t sz;      /* sizeof(struct rp_sqlite_opts) */
	int branches;   /* perf's "branches": samples without period, weight,
			 * transaction and data_src columns */
	int calls;      /* perf's "calls": the call_paths and calls tables
			 * (calls stay empty: they come from instruction
			 * traces) */
	int callchains; /* perf's "callchains": call_paths from the samples'
			 * call stacks, samples.call_path_id set */
	int force;      /* replace an existing file (perf's script refuses) */
	/*
	 * Threads (0 or 1: the caller's alone).  2 or more: SQLite's inserts
	 * run in a thread of their own while the caller's thread reads and
	 * resolves the recording (the rows are copied to it); the database
	 * is the same whatever the count.
	 */
	unsigned nr_threads;
};

#ifdef __cplusplus
}
#endif

#endif
