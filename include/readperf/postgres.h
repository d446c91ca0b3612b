/* SPDX-License-Identifier: MIT */
/*
 * readperf: perf's database export into PostgreSQL, many recordings in
 * one database.
 *
 * The output "postgres" (output.h: rp_output_new()) writes the schema of
 * perf's export-to-postgresql.py (see sqlite.h for the tables) into an
 * existing database, with a column recording_id added first to every
 * table and a table `recordings` (one row per recording: its header
 * facts and a SHA-256 of the file's content), so that queries can
 * compare runs.  target.path is a libpq connection string ("" for
 * libpq's defaults: PGHOST, PGDATABASE, ...).  The tables and views are
 * created when missing.  A recording's rows go through COPY (binary)
 * into a staging schema (rp_staging_N) over nr_connections connections,
 * and rp_output_finish() makes them the recording in one final
 * transaction; until then no query of the recordings sees them.  An
 * output freed unfinished or a failure removes the staging schema; one
 * a killed process leaves is dropped by the next export.
 * docs/sql.md describes the schema and the queries it is made for.
 *
 * libpq and libcrypto are not linked with the library: rp_output_new()
 * loads them (dlopen, by the SONAMEs of those the build found) and the
 * output unloads them when freed.  Where they cannot be loaded it fails
 * with RP_ERR_UNSUPPORTED, err naming the library, before the file is
 * read or a connection made.
 */
#ifndef READPERF_POSTGRES_H
#define READPERF_POSTGRES_H

#include <stddef.h>

#include <readperf/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the postgres output does with a recording the database already
 * holds (the same content hash). */
enum rp_postgres_again {
	RP_POSTGRES_REFUSE = 0, /* fail with RP_ERR_INVAL; nothing changes */
	RP_POSTGRES_REPLACE,    /* delete the old one in the same transaction */
};

struct rp_postgres_opts {
	size_t sz;      /* sizeof(struct rp_postgres_opts) */
	int branches;   /* as in struct rp_sqlite_opts (sqlite.h) */
	int calls;
	int callchains;
	enum rp_postgres_again again;
	/* The recording's name in the recordings table; NULL: the session's
	 * path. */
	const char *file_name;
	/*
	 * Connections that load the samples in parallel (0 or 1: one; at most
	 * 16), each into a part of the recording's samples table; the
	 * database holds the same rows whatever the count.
	 */
	unsigned nr_connections;
};

#ifdef __cplusplus
}
#endif

#endif
