/* SPDX-License-Identifier: MIT */
/*
 * The rows of perf's database export, shared by the SQL outputs
 * (sqlite.c, postgres.c).
 *
 * perf's `perf script -s export-to-sqlite.py` / `export-to-postgresql.py`
 * run perf's db-export (tools/perf/util/db-export.c, fed by
 * scripting-engines/trace-event-python.c): every sample is given ids for
 * its event, machine, thread (and the process's main thread), the comm
 * its program was exec'd as, its DSO and symbol (an "unknown" symbol per
 * address where there is none) and, when call chains are exported, a node
 * of a tree of call paths; each object gets its id, and its row, the
 * first time a sample (or context switch) refers to it.  This layer does
 * the same from readperf's pipeline and hands each row to a backend as an
 * array of typed values, one per column of the table's definition below.
 * docs/sql.md states the rules and where readperf differs.
 */
#ifndef RP_OUTPUTS_DBEXPORT_INT_H
#define RP_OUTPUTS_DBEXPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/error.h>
#include <readperf/output.h>
#include <readperf/process.h>

/* The tables, in the order perf's scripts create them. */
enum rp_dbx_table {
	RP_DBX_SELECTED_EVENTS,
	RP_DBX_MACHINES,
	RP_DBX_THREADS,
	RP_DBX_COMMS,
	RP_DBX_COMM_THREADS,
	RP_DBX_DSOS,
	RP_DBX_SYMBOLS,
	RP_DBX_BRANCH_TYPES,
	RP_DBX_SAMPLES,
	RP_DBX_CALL_PATHS,
	RP_DBX_CALLS,
	RP_DBX_CONTEXT_SWITCHES,
	RP_DBX_NR_TABLES
};

enum rp_dbx_type {
	RP_DBX_BIGINT,  /* SQL bigint: 8 bytes */
	RP_DBX_INT,     /* SQL integer: 4 bytes */
	RP_DBX_BOOL,    /* SQL boolean */
	RP_DBX_TEXT,    /* SQL varchar(max_chars) */
};

struct rp_dbx_column {
	const char *name;
	enum rp_dbx_type type;
	uint32_t max_chars; /* RP_DBX_TEXT: the varchar's length */
};

/* The most columns a table has (samples: 25). */
#define RP_DBX_MAX_COLS 32

struct rp_dbx_table_def {
	const char *name;
	const struct rp_dbx_column *cols;
	size_t nr_cols;
};

/* One value: i for the numeric types, s (len bytes, valid UTF-8, no NUL)
 * for text.  Valid during the backend's row() call only. */
struct rp_dbx_value {
	int64_t i;
	const char *s;
	size_t len;
};

/* What the export writes (perf's script arguments). */
struct rp_dbx_opts {
	int branches;   /* "branches": samples without period, weight,
			 * transaction, data_src */
	int calls;      /* "calls": call_paths and calls tables */
	int callchains; /* "callchains": call_paths from the samples' stacks */
};

/* A backend: receives the rows. */
struct rp_dbx_backend {
	void *ctx;
	/* A row of table t: nr_cols values in the order of the table's
	 * columns.  Returns 0 or a negative enum rp_err (err filled). */
	int (*row)(void *ctx, enum rp_dbx_table t, const struct rp_dbx_value *v,
		   struct rp_error *err);
};

struct rp_dbx;

/* The table definitions for these options (samples' columns depend on
 * `branches`).  Static storage. */
const struct rp_dbx_table_def *rp_dbx_table(const struct rp_dbx_opts *opts, enum rp_dbx_table t);
/* Table t's name. */
const char *rp_dbx_table_name(enum rp_dbx_table t);
/* ", name type" for def's columns from number first on (SQL types:
 * bigint, integer, boolean, varchar(n); with sqlite, `transaction` named
 * transaction_ as perf's export-to-sqlite.py names it) into sql (NUL
 * terminated, cut at size).  Returns the length written. */
size_t rp_dbx_columns_sql(char *sql, size_t size, const struct rp_dbx_table_def *def, size_t first,
			  int sqlite);
/* Whether the export has table t (call_paths and calls only with the
 * options that make perf's scripts create them). */
int rp_dbx_has_table(const struct rp_dbx_opts *opts, enum rp_dbx_table t);

/* Creates the exporter; env must outlive it.  Returns 0, RP_ERR_NOMEM. */
int rp_dbx_new(struct rp_dbx **out, const struct rp_output_env *env,
	       const struct rp_dbx_opts *opts, const struct rp_dbx_backend *backend);
void rp_dbx_free(struct rp_dbx *dbx);

/* Writes the rows perf's scripts write before the first record: the id-0
 * "unknown" rows and the branch types.  Returns 0 or the backend's error. */
int rp_dbx_begin(struct rp_dbx *dbx);

/* The consumer that feeds it (RP_CONSUMER_CALLCHAIN when callchains). */
struct rp_consumer rp_dbx_consumer(struct rp_dbx *dbx);

/* The first error a row or the exporter met while consuming (0 if none),
 * with its details copied into err. */
int rp_dbx_error(const struct rp_dbx *dbx, struct rp_error *err);

/* Rows written so far, per table. */
uint64_t rp_dbx_rows(const struct rp_dbx *dbx, enum rp_dbx_table t);

/*
 * Makes s (n bytes, from the file: hostile) a valid UTF-8 text of at most
 * max_chars characters (0: no limit) and at most cap bytes in buf:
 * invalid bytes become '?'.  Returns the length written (no NUL).
 */
size_t rp_dbx_clean_text(char *buf, size_t cap, const char *s, size_t n, uint32_t max_chars);

#endif
