/* SPDX-License-Identifier: MIT */
/*
 * The "postgres" output (postgres.h): perf's export-to-postgresql.py
 * schema (perf 6.1) with a recording_id in every table and a recordings
 * table, its rows from dbexport.c sent with libpq's binary COPY, one
 * transaction per recording.  The samples stream to the server while the
 * file is read; the other tables (far fewer rows) are kept in memory in
 * COPY's binary format and sent at the end.  docs/sql.md.
 */
#include <readperf/postgres.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <readperf/session.h>
#include <readperf/version.h>

#include "common/error_int.h"
#include "common/hex.h"
#include "common/opts.h"
#include "outputs/dbexport_int.h"
#include "outputs/linebuf.h"
#include "outputs/output_int.h"

#ifdef RP_HAVE_POSTGRES
#include "outputs/pqload_int.h"

/* Bytes of samples gathered before one PQputCopyData. */
#define RP_PG_CHUNK (1u << 20)
/* The other tables, held until the end: a file cannot make them grow
 * beyond this. */
#define RP_PG_MAX_HELD (4ull << 30)
/* The advisory lock that serializes the creation of the schema (an
 * export's own, while its staging schema exists, is minus its id). */
#define RP_PG_SCHEMA_LOCK "7526102020161107"
/* The samples go to the parts' connections in turn, 1 << RP_PG_SPAN_SHIFT
 * rows at a time (about 70 KiB: less than a socket buffer holds, so that
 * every part's server process has rows to work on while the others get
 * theirs); part k holds the rows whose (id >> RP_PG_SPAN_SHIFT) %
 * nr_parts is k. */
#define RP_PG_SPAN_SHIFT 8
#define RP_PG_MAX_PARTS 16

/* A growing text for the recordings row, cleaned to UTF-8. */
struct rp_text {
	char *p;
	size_t len, cap;
};

struct rp_pg;

/* A part of the samples, loaded by a connection of its own. */
struct rp_pg_part {
	PGconn *conn;
	struct rp_pg *pg;
	unsigned idx;
	int ret;
	struct rp_error err;
};

struct rp_pg {
	struct rp_pq pq;    /* libpq's and libcrypto's functions (pqload_int.h) */
	struct rp_postgres_opts opts;
	struct rp_dbx_opts dopts;
	struct rp_dbx *dbx;
	PGconn *conn;       /* the main connection: schema, final transaction */
	int copying;        /* the samples' COPY is open */
	int64_t recording;  /* its id in recordings */
	int64_t replaced;   /* the recording --replace replaces, or 0 */
	struct rp_linebuf held[RP_DBX_NR_TABLES];
	uint64_t held_bytes;
	struct rp_linebuf samples;
	char hash[65];
	unsigned nr_parts, cur; /* samples' parts; the one being sent */
	struct rp_pg_part part[RP_PG_MAX_PARTS];
	int staging;            /* rp_staging_N exists */
	int done;               /* committed */
	/* The recordings row (rp_pg_facts()): texts and numbers. */
#define RP_PG_REC_TEXTS 11
	struct rp_text rec_text[RP_PG_REC_TEXTS];
	char rec_num[6][32];
	int has_time;
};

/* ------------------------------------------------------------- helpers */

static int rp_pg_failc(const struct rp_pq *pq, PGconn *conn, struct rp_error *err,
		       const char *what, const PGresult *res)
{
	const char *msg = res ? pq->PQresultErrorMessage(res) : pq->PQerrorMessage(conn);
	char line[RP_ERROR_MSG_MAX];
	size_t n = strcspn(msg ? msg : "", "\n");

	snprintf(line, sizeof(line), "%.*s", (int)n, msg ? msg : "");
	return rp_error_set(err, RP_ERR_IO, "%s: %s", what, line);
}

static int rp_pg_fail(struct rp_pg *pg, struct rp_error *err, const char *what,
		      const PGresult *res)
{
	return rp_pg_failc(&pg->pq, pg->conn, err, what, res);
}

/* Runs sql on conn (no parameters, no rows wanted). */
static int rp_pg_execc(const struct rp_pq *pq, PGconn *conn, const char *sql,
		       struct rp_error *err)
{
	PGresult *res = pq->PQexec(conn, sql);
	int ok = pq->PQresultStatus(res) == PGRES_COMMAND_OK ||
		 pq->PQresultStatus(res) == PGRES_TUPLES_OK;
	int ret = ok ? 0 : rp_pg_failc(pq, conn, err, sql, res);

	pq->PQclear(res);
	return ret;
}

static int rp_pg_exec(struct rp_pg *pg, const char *sql, struct rp_error *err)
{
	return rp_pg_execc(&pg->pq, pg->conn, sql, err);
}

static inline void rp_put16(char *p, uint16_t v)
{
	p[0] = (char)(v >> 8);
	p[1] = (char)v;
}

static inline void rp_put32(char *p, uint32_t v)
{
	p[0] = (char)(v >> 24);
	p[1] = (char)(v >> 16);
	p[2] = (char)(v >> 8);
	p[3] = (char)v;
}

static inline void rp_put64(char *p, uint64_t v)
{
	rp_put32(p, (uint32_t)(v >> 32));
	rp_put32(p + 4, (uint32_t)v);
}

/* The bytes of the first max_chars characters of s (valid UTF-8). */
static size_t rp_utf8_prefix(const char *s, size_t len, uint32_t max_chars)
{
	size_t i = 0;
	uint32_t chars = 0;

	while (i < len && chars < max_chars) {
		i++;
		while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		chars++;
	}
	return i;
}

/* One row in COPY's binary format: the recording's id, then the values. */
static int rp_pg_encode(struct rp_pg *pg, struct rp_linebuf *b, const struct rp_dbx_table_def *def,
			const struct rp_dbx_value *v)
{
	size_t need = 2 + 12;

	for (size_t c = 0; c < def->nr_cols; c++)
		need += 4 + (def->cols[c].type == RP_DBX_TEXT ? v[c].len : 8);
	char *p = rp_lb_room(b, need), *start = p;
	if (!p)
		return RP_ERR_NOMEM;
	rp_put16(p, (uint16_t)(def->nr_cols + 1));
	rp_put32(p + 2, 8);
	rp_put64(p + 6, (uint64_t)pg->recording);
	p += 14;
	for (size_t c = 0; c < def->nr_cols; c++) {
		switch (def->cols[c].type) {
		case RP_DBX_BIGINT:
			rp_put32(p, 8);
			rp_put64(p + 4, (uint64_t)v[c].i);
			p += 12;
			break;
		case RP_DBX_INT:
			rp_put32(p, 4);
			rp_put32(p + 4, (uint32_t)v[c].i);
			p += 8;
			break;
		case RP_DBX_BOOL:
			rp_put32(p, 1);
			p[4] = (char)(v[c].i != 0);
			p += 5;
			break;
		case RP_DBX_TEXT: {
			/* varchar(n) counts characters: longer names (C++
			 * symbols past 2048) are cut to fit. */
			size_t n = rp_utf8_prefix(v[c].s, v[c].len, def->cols[c].max_chars);

			rp_put32(p, (uint32_t)n);
			memcpy(p + 4, v[c].s, n);
			p += 4 + n;
			break;
		}
		}
	}
	b->len += (size_t)(p - start);
	return 0;
}

static const char rp_copy_header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

static int rp_pg_put(const struct rp_pq *pq, PGconn *conn, const char *p, size_t n,
		     struct rp_error *err)
{
	while (n) {
		int part = n > RP_PG_CHUNK ? (int)RP_PG_CHUNK : (int)n;

		if (pq->PQputCopyData(conn, p, part) != 1)
			return rp_pg_failc(pq, conn, err, "COPY", NULL);
		p += part;
		n -= (size_t)part;
	}
	return 0;
}

/* The recording's own schema, where its partitions and perf's views are;
 * the schema its tables are loaded in before (committed, but part of no
 * recording: the final transaction renames it). */
#define RP_PG_SCHEMA_FMT "recording_%" PRId64
#define RP_PG_STAGING_FMT "rp_staging_%" PRId64

/* "COPY rp_staging_N.name (recording_id, a, b, ...) ..." for table t:
 * into a table made in the same transaction, so FREEZE. */
static void rp_pg_copy_sql(const struct rp_pg *pg, enum rp_dbx_table t, const char *name,
			   char *sql, size_t size)
{
	const struct rp_dbx_table_def *def = rp_dbx_table(&pg->dopts, t);
	int n = snprintf(sql, size, "COPY " RP_PG_STAGING_FMT ".%s (recording_id", pg->recording,
			 name);

	for (size_t c = 0; c < def->nr_cols; c++)
		n += snprintf(sql + n, size - (size_t)n, ", %s", def->cols[c].name);
	snprintf(sql + n, size - (size_t)n, ") FROM STDIN (FORMAT binary, FREEZE)");
}

static int rp_pg_copy_begin(struct rp_pg *pg, PGconn *conn, enum rp_dbx_table t,
			    const char *name, struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	char sql[2048];
	PGresult *res;

	rp_pg_copy_sql(pg, t, name, sql, sizeof(sql));
	res = pq->PQexec(conn, sql);
	if (pq->PQresultStatus(res) != PGRES_COPY_IN) {
		int ret = rp_pg_failc(pq, conn, err, sql, res);

		pq->PQclear(res);
		return ret;
	}
	pq->PQclear(res);
	return rp_pg_put(pq, conn, rp_copy_header, sizeof(rp_copy_header), err);
}

static int rp_pg_copy_end(const struct rp_pq *pq, PGconn *conn, struct rp_error *err)
{
	static const char trailer[2] = { (char)0xff, (char)0xff };
	PGresult *res;
	int ret = rp_pg_put(pq, conn, trailer, sizeof(trailer), err);

	if (ret < 0)
		return ret;
	if (pq->PQputCopyEnd(conn, NULL) != 1)
		return rp_pg_failc(pq, conn, err, "COPY", NULL);
	while ((res = pq->PQgetResult(conn))) {
		if (!ret && pq->PQresultStatus(res) != PGRES_COMMAND_OK)
			ret = rp_pg_failc(pq, conn, err, "COPY", res);
		pq->PQclear(res);
	}
	return ret;
}

/* ------------------------------------------------------------- schema */

static const char rp_pg_recordings[] =
	"CREATE TABLE IF NOT EXISTS recordings ("
	" id bigserial PRIMARY KEY,"
	" content_hash varchar(64) NOT NULL UNIQUE,"
	" file_name text, file_size bigint, file_time timestamptz,"
	" hostname text, os_release text, arch text, cpu_desc text, nr_cpus integer,"
	" perf_version text, cmdline text,"
	" first_sample_time bigint, last_sample_time bigint,"
	" build_ids text, readperf_version text, options text,"
	" exported_at timestamptz NOT NULL DEFAULT now(),"
	" nr_samples bigint)";

/* perf's views, each row joined within its recording. */
static const char *const rp_pg_views[] = {
	"CREATE OR REPLACE VIEW machines_view AS SELECT recording_id, id, pid, root_dir,"
	" CASE WHEN id = 0 THEN 'unknown' WHEN pid = -1 THEN 'host' ELSE 'guest' END"
	" AS host_or_guest FROM machines",

	"CREATE OR REPLACE VIEW dsos_view AS SELECT d.recording_id, d.id, d.machine_id,"
	" m.host_or_guest, d.short_name, d.long_name, d.build_id FROM dsos d"
	" LEFT JOIN machines_view m ON m.recording_id = d.recording_id AND m.id = d.machine_id",

	"CREATE OR REPLACE VIEW symbols_view AS SELECT s.recording_id, s.id, s.name,"
	" d.short_name AS dso, s.dso_id, s.sym_start, s.sym_end,"
	" CASE WHEN s.binding = 0 THEN 'local' WHEN s.binding = 1 THEN 'global' ELSE 'weak' END"
	" AS binding FROM symbols s"
	" LEFT JOIN dsos d ON d.recording_id = s.recording_id AND d.id = s.dso_id",

	"CREATE OR REPLACE VIEW threads_view AS SELECT t.recording_id, t.id, t.machine_id,"
	" m.host_or_guest, t.process_id, t.pid, t.tid FROM threads t"
	" LEFT JOIN machines_view m ON m.recording_id = t.recording_id AND m.id = t.machine_id",

	"CREATE OR REPLACE VIEW comm_threads_view AS SELECT ct.recording_id, ct.comm_id,"
	" c.comm AS command, ct.thread_id, t.pid, t.tid FROM comm_threads ct"
	" LEFT JOIN comms c ON c.recording_id = ct.recording_id AND c.id = ct.comm_id"
	" LEFT JOIN threads t ON t.recording_id = ct.recording_id AND t.id = ct.thread_id",

	"CREATE OR REPLACE VIEW call_paths_view AS SELECT c.recording_id, c.id,"
	" to_hex(c.ip) AS ip, c.symbol_id, cs.name AS symbol, cs.dso_id,"
	" cs.dso AS dso_short_name, c.parent_id, to_hex(p.ip) AS parent_ip,"
	" p.symbol_id AS parent_symbol_id, ps.name AS parent_symbol,"
	" ps.dso_id AS parent_dso_id, ps.dso AS parent_dso_short_name"
	" FROM call_paths c"
	" INNER JOIN call_paths p ON p.recording_id = c.recording_id AND p.id = c.parent_id"
	" LEFT JOIN symbols_view cs ON cs.recording_id = c.recording_id AND cs.id = c.symbol_id"
	" LEFT JOIN symbols_view ps ON ps.recording_id = c.recording_id AND ps.id = p.symbol_id",

	"CREATE OR REPLACE VIEW calls_view AS SELECT calls.recording_id, calls.id,"
	" calls.thread_id, t.pid, t.tid, c.comm AS command, calls.call_path_id,"
	" to_hex(cp.ip) AS ip, cp.symbol_id, s.name AS symbol, calls.call_time,"
	" calls.return_time, calls.return_time - calls.call_time AS elapsed_time,"
	" calls.branch_count, calls.insn_count, calls.cyc_count,"
	" CASE WHEN calls.cyc_count = 0 THEN CAST(0 AS NUMERIC(20, 2))"
	" ELSE CAST(CAST(calls.insn_count AS FLOAT) / calls.cyc_count AS NUMERIC(20, 2)) END AS IPC,"
	" calls.call_id, calls.return_id,"
	" CASE WHEN calls.flags = 0 THEN '' WHEN calls.flags = 1 THEN 'no call'"
	" WHEN calls.flags = 2 THEN 'no return' WHEN calls.flags = 3 THEN 'no call/return'"
	" WHEN calls.flags = 6 THEN 'jump' ELSE CAST(calls.flags AS VARCHAR(6)) END AS flags,"
	" calls.parent_call_path_id, calls.parent_id FROM calls"
	" INNER JOIN call_paths cp ON cp.recording_id = calls.recording_id"
	" AND cp.id = calls.call_path_id"
	" LEFT JOIN threads t ON t.recording_id = calls.recording_id AND t.id = calls.thread_id"
	" LEFT JOIN comms c ON c.recording_id = calls.recording_id AND c.id = calls.comm_id"
	" LEFT JOIN symbols s ON s.recording_id = calls.recording_id AND s.id = cp.symbol_id",

	"CREATE OR REPLACE VIEW samples_view AS SELECT s.recording_id, s.id, s.time, s.cpu,"
	" t.pid, t.tid, c.comm AS command, e.name AS event, to_hex(s.ip) AS ip_hex,"
	" sym.name AS symbol, s.sym_offset, d.short_name AS dso_short_name,"
	" to_hex(s.to_ip) AS to_ip_hex, tsym.name AS to_symbol, s.to_sym_offset,"
	" td.short_name AS to_dso_short_name, bt.name AS branch_type_name, s.in_tx,"
	" s.insn_count, s.cyc_count,"
	" CASE WHEN s.cyc_count = 0 THEN CAST(0 AS NUMERIC(20, 2))"
	" ELSE CAST(CAST(s.insn_count AS FLOAT) / s.cyc_count AS NUMERIC(20, 2)) END AS IPC,"
	" s.flags, s.period FROM samples s"
	" LEFT JOIN threads t ON t.recording_id = s.recording_id AND t.id = s.thread_id"
	" LEFT JOIN comms c ON c.recording_id = s.recording_id AND c.id = s.comm_id"
	" LEFT JOIN selected_events e ON e.recording_id = s.recording_id AND e.id = s.evsel_id"
	" LEFT JOIN symbols sym ON sym.recording_id = s.recording_id AND sym.id = s.symbol_id"
	" LEFT JOIN dsos d ON d.recording_id = s.recording_id AND d.id = s.dso_id"
	" LEFT JOIN symbols tsym ON tsym.recording_id = s.recording_id AND tsym.id = s.to_symbol_id"
	" LEFT JOIN dsos td ON td.recording_id = s.recording_id AND td.id = s.to_dso_id"
	" LEFT JOIN branch_types bt ON bt.recording_id = s.recording_id AND bt.id = s.branch_type",

	"CREATE OR REPLACE VIEW context_switches_view AS SELECT cs.recording_id, cs.id,"
	" cs.machine_id, cs.time, cs.cpu, t_out.pid AS pid_out, t_out.tid AS tid_out,"
	" c_out.comm AS comm_out, t_in.pid AS pid_in, t_in.tid AS tid_in, c_in.comm AS comm_in,"
	" CASE WHEN cs.flags = 0 THEN 'in' WHEN cs.flags = 1 THEN 'out'"
	" WHEN cs.flags = 3 THEN 'out preempt' ELSE CAST(cs.flags AS VARCHAR(11)) END AS flags"
	" FROM context_switches cs"
	" INNER JOIN threads t_out ON t_out.recording_id = cs.recording_id"
	" AND t_out.id = cs.thread_out_id"
	" INNER JOIN threads t_in ON t_in.recording_id = cs.recording_id"
	" AND t_in.id = cs.thread_in_id"
	" INNER JOIN comms c_out ON c_out.recording_id = cs.recording_id"
	" AND c_out.id = cs.comm_out_id"
	" INNER JOIN comms c_in ON c_in.recording_id = cs.recording_id AND c_in.id = cs.comm_in_id",
};

/* The views' names, in the order of rp_pg_views: each recording's schema
 * has them too, as perf's script defines them, on that recording alone. */
static const char *const rp_pg_view_names[] = {
	"machines_view", "dsos_view",      "symbols_view", "threads_view",	   "comm_threads_view",
	"call_paths_view", "calls_view", "samples_view", "context_switches_view",
};

/* "CREATE TABLE name (recording_id bigint NOT NULL<check>, id ... NOT
 * NULL, the columns of table t<end>" into sql: the same columns for the
 * partitioned table and each recording's partition (ATTACH PARTITION
 * wants them equal). */
static void rp_pg_table_sql(char *sql, size_t size, const char *name, enum rp_dbx_table t,
			    const char *check, const char *end)
{
	static const struct rp_dbx_opts full = { 0, 1, 1 };
	const struct rp_dbx_table_def *def = rp_dbx_table(&full, t);
	const struct rp_dbx_table_def id = { def->name, def->cols, 1 };
	int n = snprintf(sql, size, "CREATE TABLE %s (recording_id bigint NOT NULL%s", name, check);

	n += (int)rp_dbx_columns_sql(sql + n, size - (size_t)n, &id, 0, 0);
	n += snprintf(sql + n, size - (size_t)n, " NOT NULL");
	n += (int)rp_dbx_columns_sql(sql + n, size - (size_t)n, def, 1, 0);
	if (t == RP_DBX_COMMS)
		n += snprintf(sql + n, size - (size_t)n, ", has_calls boolean");
	snprintf(sql + n, size - (size_t)n, "%s", end);
}

/* The tables, when missing: perf's, each LIST-partitioned on recording_id
 * (a recording's rows are its partitions, loaded without keys, keyed and
 * attached when complete: the partitions have perf's primary keys, the
 * partitioned tables none), and perf's views over all recordings; in a transaction of its own, one exporter at a time.  A
 * database that has them is left alone (its tables take no lock). */
static int rp_pg_schema(struct rp_pg *pg, struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	char sql[4096], name[64];
	int ret;

	if ((ret = rp_pg_exec(pg, "BEGIN", err)) < 0 ||
	    (ret = rp_pg_exec(pg, "SELECT pg_advisory_xact_lock(" RP_PG_SCHEMA_LOCK ")", err)) < 0)
		return ret;
	PGresult *res = pq->PQexec(pg->conn, "SELECT c.relkind FROM pg_class c"
					     " WHERE c.oid = to_regclass('samples')");
	if (pq->PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = rp_pg_fail(pg, err, "cannot look for the tables", res);
		pq->PQclear(res);
		return ret;
	}
	char kind = pq->PQntuples(res) ? pq->PQgetvalue(res, 0, 0)[0] : 0;
	pq->PQclear(res);
	if (kind == 'p')
		return rp_pg_exec(pg, "COMMIT", err);
	if (kind)
		return rp_error_set(err, RP_ERR_INVAL,
				    "the database has a samples table that is not"
				    " partitioned by recording (an earlier readperf's, or"
				    " perf's): export into another database");
	if ((ret = rp_pg_exec(pg, rp_pg_recordings, err)) < 0)
		return ret;
	for (int t = 0; t < RP_DBX_NR_TABLES; t++) {
		snprintf(name, sizeof(name), "%s", rp_dbx_table_name(t));
		rp_pg_table_sql(sql, sizeof(sql), name, t, "", ") PARTITION BY LIST (recording_id)");
		if ((ret = rp_pg_exec(pg, sql, err)) < 0)
			return ret;
	}
	for (size_t i = 0; i < sizeof(rp_pg_views) / sizeof(rp_pg_views[0]); i++)
		if ((ret = rp_pg_exec(pg, rp_pg_views[i], err)) < 0)
			return ret;
	return rp_pg_exec(pg, "COMMIT", err);
}

/* ------------------------------------------------------------- staging */

/* The name of samples part idx: the samples table itself when there is
 * one part. */
static void rp_pg_part_name(const struct rp_pg *pg, unsigned idx, char *name, size_t size)
{
	if (pg->nr_parts == 1)
		snprintf(name, size, "samples");
	else
		snprintf(name, size, "samples_p%u", idx);
}

/* "((id >> S) % W)": which part a sample row goes to. */
static void rp_pg_part_key(const struct rp_pg *pg, char *key, size_t size)
{
	snprintf(key, size, "((id >> %d) %% %u)", RP_PG_SPAN_SHIFT, pg->nr_parts);
}

/* rp_staging_N.name, table t's columns, without keys, each row's
 * recording_id checked (the partition's bound: ATTACH need not scan the
 * rows), with `more` (", CHECK (...)" or "") added. */
static int rp_pg_create_table(struct rp_pg *pg, PGconn *conn, enum rp_dbx_table t,
			      const char *name, const char *more, struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	char sql[4096], full[96], check[64], end[256];

	snprintf(full, sizeof(full), RP_PG_STAGING_FMT ".%s", pg->recording, name);
	snprintf(check, sizeof(check), " CHECK (recording_id = %" PRId64 ")", pg->recording);
	snprintf(end, sizeof(end), "%s)", more);
	rp_pg_table_sql(sql, sizeof(sql), full, t, check, end);
	return rp_pg_execc(pq, conn, sql, err);
}

static int rp_pg_connect(const struct rp_pq *pq, PGconn **out, const char *dsn,
			 struct rp_error *err)
{
	PGconn *conn = pq->PQconnectdb(dsn);

	*out = conn;
	if (!conn)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (pq->PQstatus(conn) != CONNECTION_OK)
		return rp_pg_failc(pq, conn, err, "cannot connect", NULL);
	if (pq->PQsetClientEncoding(conn, "UTF8") != 0)
		return rp_pg_failc(pq, conn, err, "cannot use UTF-8", NULL);
	return rp_pg_execc(pq, conn, "SET client_min_messages TO warning", err);
}

/* Staging schemas whose export is gone (killed, or its connection lost):
 * each export holds the advisory lock -N while its rp_staging_N exists,
 * so one whose lock is free is dropped. */
static int rp_pg_cleanup(struct rp_pg *pg, struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	PGresult *res = pq->PQexec(pg->conn, "SELECT substr(nspname, 12) FROM pg_namespace"
					     " WHERE nspname ~ '^rp_staging_[0-9]+$'");
	int ret = 0;

	if (pq->PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = rp_pg_fail(pg, err, "cannot look for staging schemas", res);
		pq->PQclear(res);
		return ret;
	}
	for (int i = 0; i < pq->PQntuples(res) && !ret; i++) {
		char sql[160];
		int64_t id = strtoll(pq->PQgetvalue(res, i, 0), NULL, 10);

		snprintf(sql, sizeof(sql), "SELECT pg_try_advisory_lock(%" PRId64 ")", -id);
		PGresult *r = pq->PQexec(pg->conn, sql);
		int free_ = pq->PQresultStatus(r) == PGRES_TUPLES_OK &&
			    pq->PQgetvalue(r, 0, 0)[0] == 't';

		pq->PQclear(r);
		if (!free_)
			continue;
		snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS " RP_PG_STAGING_FMT " CASCADE", id);
		ret = rp_pg_exec(pg, sql, err);
		snprintf(sql, sizeof(sql), "SELECT pg_advisory_unlock(%" PRId64 ")", -id);
		if (!ret)
			ret = rp_pg_exec(pg, sql, err);
	}
	pq->PQclear(res);
	return ret;
}

/* The recording's id (from the recordings' sequence), its lock, its
 * staging schema, and the samples' parts: each on its connection, in a
 * transaction that creates its table and COPYs into it. */
static int rp_pg_staging(struct rp_pg *pg, const char *dsn, struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	char sql[256];
	PGresult *res =
		pq->PQexec(pg->conn, "SELECT nextval(pg_get_serial_sequence('recordings', 'id'))");
	int ret;

	if (pq->PQresultStatus(res) != PGRES_TUPLES_OK || pq->PQntuples(res) != 1) {
		ret = rp_pg_fail(pg, err, "cannot number the recording", res);
		pq->PQclear(res);
		return ret;
	}
	pg->recording = strtoll(pq->PQgetvalue(res, 0, 0), NULL, 10);
	pq->PQclear(res);
	snprintf(sql, sizeof(sql), "SELECT pg_advisory_lock(%" PRId64 ")", -pg->recording);
	if ((ret = rp_pg_exec(pg, sql, err)) < 0)
		return ret;
	snprintf(sql, sizeof(sql), "CREATE SCHEMA " RP_PG_STAGING_FMT, pg->recording);
	if ((ret = rp_pg_exec(pg, sql, err)) < 0)
		return ret;
	pg->staging = 1;
	for (unsigned k = 0; k < pg->nr_parts; k++) {
		char name[32], key[64], more[192] = "";
		PGconn *conn;

		ret = rp_pg_connect(&pg->pq, &pg->part[k].conn, dsn, err);
		if (ret < 0)
			return ret;
		conn = pg->part[k].conn;
		rp_pg_part_name(pg, k, name, sizeof(name));
		if (pg->nr_parts > 1) {
			/* The bound of the part in the recording's samples
			 * (LIST on the key), in the form ATTACH recognises. */
			rp_pg_part_key(pg, key, sizeof(key));
			snprintf(more, sizeof(more), ", CHECK (%s IS NOT NULL AND %s = %u)", key, key, k);
		}
		if ((ret = rp_pg_execc(pq, conn, "BEGIN", err)) < 0 ||
		    (ret = rp_pg_create_table(pg, conn, RP_DBX_SAMPLES, name, more, err)) < 0 ||
		    (ret = rp_pg_copy_begin(pg, conn, RP_DBX_SAMPLES, name, err)) < 0)
			return ret;
	}
	return 0;
}

static int rp_pg_primary_key(struct rp_pg *pg, PGconn *conn, const char *name,
			     struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	char sql[160];

	snprintf(sql, sizeof(sql), "ALTER TABLE " RP_PG_STAGING_FMT ".%s ADD PRIMARY KEY (id)",
		 pg->recording, name);
	return rp_pg_execc(pq, conn, sql, err);
}

/* A samples part to its end, in a thread of its own: the COPY ended, the
 * primary key built, the commit. */
static void *rp_pg_part_main(void *arg)
{
	struct rp_pg_part *part = arg;
	struct rp_pg *pg = part->pg;
	char name[32];

	rp_pg_part_name(pg, part->idx, name, sizeof(name));
	if ((part->ret = rp_pg_copy_end(&pg->pq, part->conn, &part->err)) < 0 ||
	    (part->ret = rp_pg_primary_key(pg, part->conn, name, &part->err)) < 0)
		return NULL;
	part->ret = rp_pg_execc(&pg->pq, part->conn, "COMMIT", &part->err);
	return NULL;
}

/* The other tables, on the main connection while the parts end: made,
 * COPY'd from memory and keyed in one transaction. */
static int rp_pg_small_tables(struct rp_pg *pg, struct rp_error *err)
{
	int ret;

	if ((ret = rp_pg_exec(pg, "BEGIN", err)) < 0)
		return ret;
	for (int t = 0; t < RP_DBX_NR_TABLES; t++) {
		const char *name = rp_dbx_table_name(t);

		if (t == RP_DBX_SAMPLES)
			continue;
		if ((ret = rp_pg_create_table(pg, pg->conn, t, name, "", err)) < 0)
			return ret;
		if (pg->held[t].len &&
		    ((ret = rp_pg_copy_begin(pg, pg->conn, t, name, err)) < 0 ||
		     (ret = rp_pg_put(&pg->pq, pg->conn, pg->held[t].p, pg->held[t].len, err)) < 0 ||
		     (ret = rp_pg_copy_end(&pg->pq, pg->conn, err)) < 0))
			return ret;
		free(pg->held[t].p);
		memset(&pg->held[t], 0, sizeof(pg->held[t]));
		if ((ret = rp_pg_primary_key(pg, pg->conn, name, err)) < 0)
			return ret;
	}
	if (pg->dopts.calls) {
		char sql[256];

		snprintf(sql, sizeof(sql),
			 "UPDATE " RP_PG_STAGING_FMT ".comms SET has_calls = TRUE WHERE id IN"
			 " (SELECT DISTINCT comm_id FROM " RP_PG_STAGING_FMT ".calls)",
			 pg->recording, pg->recording);
		if ((ret = rp_pg_exec(pg, sql, err)) < 0)
			return ret;
	}
	return rp_pg_exec(pg, "COMMIT", err);
}

/* In the final transaction: the parts made the recording's samples
 * table (LIST-partitioned on the part key; each part has its primary
 * key and its bound as a check, so attaching scans nothing), the staging
 * schema renamed recording_N, perf's views made in it (on its rows alone:
 * `SET search_path TO recording_N` and perf's queries run as on perf's
 * database), then, table by table, the replaced recording's partition
 * dropped and the new one attached (the same order in every exporter: no
 * deadlock). */
static int rp_pg_attach(struct rp_pg *pg, struct rp_error *err)
{
	char sql[4096];
	int ret;

	if (pg->nr_parts > 1) {
		char name[96], key[64], end[128];

		rp_pg_part_key(pg, key, sizeof(key));
		snprintf(name, sizeof(name), RP_PG_STAGING_FMT ".samples", pg->recording);
		snprintf(end, sizeof(end), ") PARTITION BY LIST (%s)", key);
		rp_pg_table_sql(sql, sizeof(sql), name, RP_DBX_SAMPLES, "", end);
		if ((ret = rp_pg_exec(pg, sql, err)) < 0)
			return ret;
		for (unsigned k = 0; k < pg->nr_parts; k++) {
			snprintf(sql, sizeof(sql),
				 "ALTER TABLE " RP_PG_STAGING_FMT ".samples ATTACH PARTITION "
				 RP_PG_STAGING_FMT ".samples_p%u FOR VALUES IN (%u)",
				 pg->recording, pg->recording, k, k);
			if ((ret = rp_pg_exec(pg, sql, err)) < 0)
				return ret;
		}
	}
	snprintf(sql, sizeof(sql), "ALTER SCHEMA " RP_PG_STAGING_FMT " RENAME TO " RP_PG_SCHEMA_FMT,
		 pg->recording, pg->recording);
	if ((ret = rp_pg_exec(pg, sql, err)) < 0)
		return ret;
	/* Each view: the columns of the view over all recordings but
	 * recording_id, from its rows of this recording. */
	for (size_t i = 0; i < sizeof(rp_pg_view_names) / sizeof(rp_pg_view_names[0]); i++) {
		snprintf(sql, sizeof(sql),
			 "DO $rp$ BEGIN EXECUTE format('CREATE VIEW " RP_PG_SCHEMA_FMT ".%s AS"
			 " SELECT %%s FROM %%I.%s WHERE recording_id = %" PRId64 "',"
			 " (SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum)"
			 " FROM pg_attribute WHERE attrelid = to_regclass('%s') AND attnum > 0"
			 " AND NOT attisdropped AND attname <> 'recording_id'),"
			 " (SELECT n.nspname FROM pg_class c JOIN pg_namespace n"
			 " ON n.oid = c.relnamespace WHERE c.oid = to_regclass('%s'))); END $rp$",
			 pg->recording, rp_pg_view_names[i], rp_pg_view_names[i], pg->recording,
			 rp_pg_view_names[i], rp_pg_view_names[i]);
		if ((ret = rp_pg_exec(pg, sql, err)) < 0)
			return ret;
	}
	for (int t = 0; t < RP_DBX_NR_TABLES; t++) {
		const char *name = rp_dbx_table_name(t);

		if (pg->replaced) {
			snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS " RP_PG_SCHEMA_FMT ".%s",
				 pg->replaced, name);
			if ((ret = rp_pg_exec(pg, sql, err)) < 0)
				return ret;
		}
		snprintf(sql, sizeof(sql),
			 "ALTER TABLE %s ATTACH PARTITION " RP_PG_SCHEMA_FMT ".%s"
			 " FOR VALUES IN (%" PRId64 ")",
			 name, pg->recording, name, pg->recording);
		if ((ret = rp_pg_exec(pg, sql, err)) < 0)
			return ret;
	}
	if (pg->replaced) {
		snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS " RP_PG_SCHEMA_FMT " CASCADE",
			 pg->replaced);
		if ((ret = rp_pg_exec(pg, sql, err)) < 0)
			return ret;
	}
	return 0;
}

/* ------------------------------------------------------------- the recording */

/* SHA-256 of the recording's bytes (every data file of a directory, in
 * order) into pg->hash. */
static int rp_pg_hash(struct rp_pg *pg, const struct rp_session *session, struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	EVP_MD_CTX *md = pq->EVP_MD_CTX_new();
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int dlen = 0;
	size_t nfiles = rp_session_is_dir(session) ? rp_session_nr_data_files(session) : 1;
	char *buf = malloc(1u << 20);
	int ret = 0;

	if (!md || !buf || pq->EVP_DigestInit_ex(md, pq->EVP_sha256(), NULL) != 1) {
		ret = rp_error_set(err, RP_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nfiles && !ret; i++) {
		const char *path = rp_session_is_dir(session) ? rp_session_data_file(session, i)
							      : rp_session_path(session);
		int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
		ssize_t n;

		if (fd < 0) {
			ret = rp_error_set(err, RP_ERR_IO, "%s: cannot read: %s", path ? path : "?",
					   strerror(errno));
			break;
		}
		while ((n = read(fd, buf, 1u << 20)) > 0)
			pq->EVP_DigestUpdate(md, buf, (size_t)n);
		if (n < 0)
			ret = rp_error_set(err, RP_ERR_IO, "%s: cannot read: %s", path,
					   strerror(errno));
		close(fd);
	}
	if (!ret && pq->EVP_DigestFinal_ex(md, digest, &dlen) != 1)
		ret = rp_error_set(err, RP_ERR_NOMEM, "SHA-256 failed");
	if (!ret)
		rp_hex(pg->hash, digest, dlen < 32 ? dlen : 32);
out:
	pq->EVP_MD_CTX_free(md);
	free(buf);
	return ret;
}


static void rp_text_add(struct rp_text *t, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (t->len + 4 * n + 2 > t->cap) {
		size_t cap = (t->len + 4 * n + 2) * 2;
		char *p = realloc(t->p, cap);

		if (!p)
			return;
		t->p = p;
		t->cap = cap;
	}
	t->len += rp_dbx_clean_text(t->p + t->len, t->cap - t->len - 1, s ? s : "", n, 0);
	t->p[t->len] = '\0';
}

/* The recordings row's facts, taken when the export starts (the
 * session need not outlive the consumption): pg->rec_text, pg->rec_num. */
static int rp_pg_facts(struct rp_pg *pg, const struct rp_output_env *env, struct rp_error *err)
{
	const struct rp_session *s = env->session;
	const struct rp_header_info *h = rp_session_header(s);
	const char *path = rp_session_path(s);
	struct rp_text *text = pg->rec_text;
	char (*num)[32] = pg->rec_num;
	struct stat st;

	pg->has_time = h && h->has_sample_time;
	rp_text_add(&text[0], pg->hash);
	rp_text_add(&text[1], pg->opts.file_name ? pg->opts.file_name : path);
	snprintf(num[0], sizeof(num[0]), "%" PRIu64, rp_session_size(s));
	num[1][0] = '\0';
	if (path && stat(path, &st) == 0) {
		struct tm tm;

		gmtime_r(&st.st_mtime, &tm);
		strftime(num[1], sizeof(num[1]), "%Y-%m-%d %H:%M:%S+00", &tm);
	}
	rp_text_add(&text[2], h ? h->hostname : NULL);
	rp_text_add(&text[3], h ? h->osrelease : NULL);
	rp_text_add(&text[4], h ? h->arch : NULL);
	rp_text_add(&text[5], h ? h->cpudesc : NULL);
	snprintf(num[2], sizeof(num[2]), "%u", h ? h->nr_cpus_online : 0);
	rp_text_add(&text[6], h ? h->version : NULL);
	for (uint32_t i = 0; h && i < h->cmdline_argc; i++) {
		if (i)
			rp_text_add(&text[7], " ");
		rp_text_add(&text[7], h->cmdline_argv[i]);
	}
	snprintf(num[3], sizeof(num[3]), "%" PRIu64, h && h->has_sample_time ? h->sample_time_first : 0);
	snprintf(num[4], sizeof(num[4]), "%" PRIu64, h && h->has_sample_time ? h->sample_time_last : 0);
	for (size_t i = 0; h && i < h->nr_build_ids; i++) {
		const struct rp_build_id_entry *b = &h->build_ids[i];
		char hex[RP_BUILD_ID_HEX];

		rp_build_id_hex(hex, b->build_id, b->size);
		rp_text_add(&text[8], hex);
		rp_text_add(&text[8], " ");
		rp_text_add(&text[8], b->filename);
		rp_text_add(&text[8], "\n");
	}
	rp_text_add(&text[9], rp_version());
	snprintf(num[5], sizeof(num[5]), "%s%s%s", pg->opts.branches ? "branches " : "",
		 pg->opts.calls ? "calls " : "", pg->opts.callchains ? "callchains" : "");
	rp_text_add(&text[10], num[5]);
	for (int i = 0; i < RP_PG_REC_TEXTS; i++)
		if (!text[i].p)
			rp_text_add(&text[i], "");
	for (int i = 0; i < RP_PG_REC_TEXTS; i++)
		if (!text[i].p)
			return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	return 0;
}

/* The recordings row, in the final transaction. */
static int rp_pg_recording(struct rp_pg *pg, struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	struct rp_text *text = pg->rec_text;
	char (*num)[32] = pg->rec_num;
	char id[32], count[32];
	PGresult *res;
	int ret = 0;

	snprintf(id, sizeof(id), "%" PRId64, pg->recording);
	snprintf(count, sizeof(count), "%" PRIu64, rp_dbx_rows(pg->dbx, RP_DBX_SAMPLES) - 1);
	const char *params[] = {
		text[0].p, text[1].p, num[0], num[1][0] ? num[1] : NULL, text[2].p, text[3].p,
		text[4].p, text[5].p, num[2], text[6].p, text[7].p,
		pg->has_time ? num[3] : NULL, pg->has_time ? num[4] : NULL,
		text[8].p, text[9].p, text[10].p, id, count,
	};
	res = pq->PQexecParams(pg->conn,
			       "INSERT INTO recordings (content_hash, file_name, file_size,"
			       " file_time, hostname, os_release, arch, cpu_desc, nr_cpus,"
			       " perf_version, cmdline, first_sample_time, last_sample_time,"
			       " build_ids, readperf_version, options, id, nr_samples) VALUES"
			       " ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
			       " $15, $16, $17, $18)",
			       18, NULL, params, NULL, NULL, 0);
	if (pq->PQresultStatus(res) != PGRES_COMMAND_OK)
		ret = rp_pg_fail(pg, err, "cannot add the recording", res);
	pq->PQclear(res);
	return ret;
}

/* The recording with our hash: refused, or deleted to be replaced. */
static int rp_pg_again(struct rp_pg *pg, int final, struct rp_error *err)
{
	const struct rp_pq *pq = &pg->pq;
	const char *params[1] = { pg->hash };
	PGresult *res = pq->PQexecParams(pg->conn,
					 final ? "SELECT id, file_name FROM recordings"
						 " WHERE content_hash = $1 FOR UPDATE"
					       : "SELECT id, file_name FROM recordings"
						 " WHERE content_hash = $1",
					 1, NULL, params, NULL, NULL, 0);
	int ret = 0;

	if (pq->PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = rp_pg_fail(pg, err, "cannot look for the recording", res);
	} else if (pq->PQntuples(res) == 1 && pg->opts.again != RP_POSTGRES_REPLACE) {
		char name[256];

		rp_dbx_clean_text(name, sizeof(name) - 1, pq->PQgetvalue(res, 0, 1),
				  strlen(pq->PQgetvalue(res, 0, 1)), 100);
		name[strcspn(name, "\n")] = '\0';
		ret = rp_error_set(err, RP_ERR_INVAL,
				   "the recording is already in the database as recording %s"
				   " (%.100s, the same SHA-256); --replace replaces it",
				   pq->PQgetvalue(res, 0, 0), name);
	} else if (pq->PQntuples(res) == 1 && final) {
		/* Its row goes now (the new one has the same hash), its
		 * partitions when the new ones are attached: until the commit
		 * the database shows the old recording whole. */
		const char *id[1] = { pq->PQgetvalue(res, 0, 0) };
		PGresult *r = pq->PQexecParams(pg->conn, "DELETE FROM recordings WHERE id = $1", 1,
					       NULL, id, NULL, NULL, 0);

		if (pq->PQresultStatus(r) != PGRES_COMMAND_OK)
			ret = rp_pg_fail(pg, err, "cannot delete the old recording", r);
		pq->PQclear(r);
		pg->replaced = strtoll(id[0], NULL, 10);
	}
	pq->PQclear(res);
	return ret;
}

static int rp_pg_row(void *ctx, enum rp_dbx_table t, const struct rp_dbx_value *v,
		     struct rp_error *err)
{
	struct rp_pg *pg = ctx;
	const struct rp_dbx_table_def *def = rp_dbx_table(&pg->dopts, t);

	if (t == RP_DBX_SAMPLES) {
		/* Column 0 is the id: its span's part. */
		unsigned k = (unsigned)(((uint64_t)v[0].i >> RP_PG_SPAN_SHIFT) % pg->nr_parts);
		int ret = 0;

		if (k != pg->cur) {
			ret = rp_pg_put(&pg->pq, pg->part[pg->cur].conn, pg->samples.p,
					pg->samples.len, err);
			pg->samples.len = 0;
			pg->cur = k;
			if (ret < 0)
				return ret;
		}
		if (rp_pg_encode(pg, &pg->samples, def, v) < 0)
			return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
		if (pg->samples.len >= RP_PG_CHUNK) {
			ret = rp_pg_put(&pg->pq, pg->part[k].conn, pg->samples.p, pg->samples.len,
					err);
			pg->samples.len = 0;
		}
		return ret;
	}
	if (!rp_dbx_has_table(&pg->dopts, t))
		return 0;
	size_t before = pg->held[t].len;
	if (rp_pg_encode(pg, &pg->held[t], def, v) < 0)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	pg->held_bytes += pg->held[t].len - before;
	if (pg->held_bytes > RP_PG_MAX_HELD)
		return rp_error_set(err, RP_ERR_LIMIT, "more than %llu bytes of rows",
				    (unsigned long long)RP_PG_MAX_HELD);
	return 0;
}

static void rp_pg_free(struct rp_pg *pg)
{
	if (!pg)
		return;

	const struct rp_pq *pq = &pg->pq;

	rp_dbx_free(pg->dbx);
	/* Not committed: closing the connections rolls back what was not
	 * committed; the staging schema goes too (if this process dies
	 * first, the next export drops it: its lock is gone). */
	for (unsigned k = 0; k < RP_PG_MAX_PARTS; k++)
		if (pg->part[k].conn)
			pq->PQfinish(pg->part[k].conn);
	if (pg->conn && pg->staging && !pg->done && pq->PQstatus(pg->conn) == CONNECTION_OK) {
		char sql[96];
		struct rp_error ignored;

		snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS " RP_PG_STAGING_FMT " CASCADE",
			 pg->recording);
		if (pq->PQtransactionStatus(pg->conn) != PQTRANS_IDLE)
			rp_pg_exec(pg, "ROLLBACK", &ignored);
		rp_pg_exec(pg, sql, &ignored);
	}
	if (pg->conn)
		pq->PQfinish(pg->conn);
	rp_pq_unload(&pg->pq);
	for (int t = 0; t < RP_DBX_NR_TABLES; t++)
		free(pg->held[t].p);
	for (int i = 0; i < RP_PG_REC_TEXTS; i++)
		free(pg->rec_text[i].p);
	free(pg->samples.p);
	free(pg);
}

static int rp_pg_create(void **state, const struct rp_output_env *env, const void *opts,
			const struct rp_output_target *target, struct rp_error *err)
{
	struct rp_pg *pg = calloc(1, sizeof(*pg));
	int ret;

	if (!pg)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (rp_opts_copy(&pg->opts, sizeof(pg->opts), opts) < 0 ||
	    (pg->opts.again != RP_POSTGRES_REFUSE && pg->opts.again != RP_POSTGRES_REPLACE)) {
		free(pg);
		return rp_error_set(err, RP_ERR_INVAL, "bad options");
	}
	pg->dopts.branches = pg->opts.branches;
	pg->dopts.calls = pg->opts.calls;
	pg->dopts.callchains = pg->opts.callchains;
	if (rp_session_is_pipe(env->session)) {
		free(pg);
		return rp_error_set(err, RP_ERR_INVAL,
				    "a pipe cannot be exported (a recording is"
				    " recognised by its file's SHA-256)");
	}
	pg->nr_parts = pg->opts.nr_connections < 1 ? 1
		       : pg->opts.nr_connections > RP_PG_MAX_PARTS ? RP_PG_MAX_PARTS
		       : pg->opts.nr_connections;
	for (unsigned k = 0; k < RP_PG_MAX_PARTS; k++) {
		pg->part[k].pg = pg;
		pg->part[k].idx = k;
	}
	/* libpq and libcrypto: loaded by the export, not by every command
	 * (pqload_int.h); a machine without them fails here, before any
	 * connection. */
	if ((ret = rp_pq_load(&pg->pq, err)) < 0 || (ret = rp_pg_hash(pg, env->session, err)) < 0)
		goto fail;
	if ((ret = rp_pg_connect(&pg->pq, &pg->conn, target->path, err)) < 0 ||
	    (ret = rp_pg_schema(pg, err)) < 0 || (ret = rp_pg_cleanup(pg, err)) < 0)
		goto fail;
	/* Refused before any work when the database has it; checked again,
	 * locked, in the final transaction. */
	if ((ret = rp_pg_facts(pg, env, err)) < 0 || (ret = rp_pg_again(pg, 0, err)) < 0 ||
	    (ret = rp_pg_staging(pg, target->path, err)) < 0)
		goto fail;
	pg->copying = 1;

	struct rp_dbx_backend be = { pg, rp_pg_row };
	if ((ret = rp_dbx_new(&pg->dbx, env, &pg->dopts, &be)) < 0) {
		rp_error_set(err, ret, "out of memory");
		goto fail;
	}
	if ((ret = rp_dbx_begin(pg->dbx)) < 0) {
		rp_dbx_error(pg->dbx, err);
		goto fail;
	}
	*state = pg;
	return 0;
fail:
	rp_pg_free(pg);
	return ret;
}

static struct rp_consumer rp_pg_consumer(void *state)
{
	struct rp_pg *pg = state;

	return rp_dbx_consumer(pg->dbx);
}

static int rp_pg_finish(void *state, struct rp_error *err)
{
	struct rp_pg *pg = state;
	pthread_t threads[RP_PG_MAX_PARTS];
	int started[RP_PG_MAX_PARTS] = { 0 };
	int ret = rp_dbx_error(pg->dbx, err);

	if (ret < 0)
		return ret;
	ret = rp_pg_put(&pg->pq, pg->part[pg->cur].conn, pg->samples.p, pg->samples.len, err);
	if (ret < 0)
		return ret;
	pg->samples.len = 0;
	pg->copying = 0;
	/* The parts end (COPY, key, commit) each in its thread, on its
	 * connection, while the other tables go in on the main one. */
	for (unsigned k = 0; k < pg->nr_parts; k++)
		started[k] = pthread_create(&threads[k], NULL, rp_pg_part_main, &pg->part[k]) == 0;
	for (unsigned k = 0; k < pg->nr_parts; k++)
		if (!started[k])
			rp_pg_part_main(&pg->part[k]);
	ret = rp_pg_small_tables(pg, err);
	for (unsigned k = 0; k < pg->nr_parts; k++) {
		if (started[k])
			pthread_join(threads[k], NULL);
		if (!ret && pg->part[k].ret < 0) {
			ret = pg->part[k].ret;
			*err = pg->part[k].err;
		}
	}
	if (ret < 0)
		return ret;
	/* The final transaction: the recording appears whole, or not. */
	if ((ret = rp_pg_exec(pg, "BEGIN", err)) < 0 ||
	    (ret = rp_pg_again(pg, 1, err)) < 0 ||
	    (ret = rp_pg_attach(pg, err)) < 0 || (ret = rp_pg_recording(pg, err)) < 0 ||
	    (ret = rp_pg_exec(pg, "COMMIT", err)) < 0)
		return ret;
	pg->done = 1;
	return 0;
}

static void rp_pg_destroy(void *state)
{
	rp_pg_free(state);
}

const struct rp_output_def rp_output_postgres = {
	.name = "postgres",
	.flags = RP_OUTPUT_PATH | RP_OUTPUT_SYMBOLS,
	.create = rp_pg_create,
	.consumer = rp_pg_consumer,
	.finish = rp_pg_finish,
	.destroy = rp_pg_destroy,
};

#else /* !RP_HAVE_POSTGRES */

const struct rp_output_def rp_output_postgres = {
	.name = "postgres",
	.flags = RP_OUTPUT_PATH | RP_OUTPUT_SYMBOLS,
	.unavailable = "readperf was built without PostgreSQL (apt-get install libpq-dev "
		       "libssl-dev)",
};

#endif
