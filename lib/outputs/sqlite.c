/* SPDX-License-Identifier: MIT */
/*
 * The "sqlite" output: perf's export-to-sqlite.py schema (perf 6.1), its
 * rows from dbexport.c, written with SQLite's C library: one transaction,
 * one prepared INSERT per table, every value bound (names from the file
 * never become SQL text).  docs/sql.md.
 */
#include <readperf/sqlite.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error_int.h"
#include "common/opts.h"
#include "outputs/dbexport_int.h"
#include "outputs/linebuf.h"
#include "outputs/output_int.h"

#ifdef RP_HAVE_SQLITE
#include <sqlite3.h>

struct rp_sqlite {
	struct rp_sqlite_opts opts;
	struct rp_dbx_opts dopts;
	struct rp_dbx *dbx;
	sqlite3 *db;
	sqlite3_stmt *insert[RP_DBX_NR_TABLES];
	/* The numbers bound to each insert's parameters (bit c of bound:
	 * column c has one), to bind only those that change. */
	uint64_t bound[RP_DBX_NR_TABLES];
	int64_t last[RP_DBX_NR_TABLES][RP_DBX_MAX_COLS];
	char *path, *tmp; /* the database; the name it is written under */

	/* With nr_threads >= 2, the writer: a thread that inserts the rows
	 * while the caller's reads and resolves the file.  The rows reach it
	 * copied into buffers (rp_sqlite_put()), used in turn: the caller
	 * fills buf[produced % RP_SQ_BUFS], the writer empties
	 * buf[consumed % RP_SQ_BUFS]; at most RP_SQ_BUFS are full. */
	int threaded;
	pthread_t writer;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct rp_linebuf buf[4];
	uint64_t produced, consumed; /* buffers handed over, emptied */
	int stop;                    /* no more buffers will come */
	int abandon;                 /* stop inserting: the export is dropped */
	int werr;                    /* the writer's first error (0: none) */
	struct rp_error werr_info;
};

#define RP_SQ_BUFS 4
/* Bytes of rows handed to the writer at a time. */
#define RP_SQ_CHUNK (256u << 10)

static int rp_sqlite_fail(struct rp_sqlite *s, struct rp_error *err, const char *what)
{
	return rp_error_set(err, RP_ERR_IO, "%s: %s: %s", s->path, what,
			    s->db ? sqlite3_errmsg(s->db) : "cannot open");
}

static int rp_sqlite_exec(struct rp_sqlite *s, const char *sql, struct rp_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	rp_error_set(err, RP_ERR_IO, "%s: %s", s->path, msg ? msg : "SQL failed");
	sqlite3_free(msg);
	return RP_ERR_IO;
}

static int rp_sqlite_create_table(struct rp_sqlite *s, enum rp_dbx_table t, struct rp_error *err)
{
	const struct rp_dbx_table_def *def = rp_dbx_table(&s->dopts, t);
	char sql[4096];
	int n = snprintf(sql, sizeof(sql), "CREATE TABLE %s (id integer NOT NULL PRIMARY KEY",
			 def->name);

	n += (int)rp_dbx_columns_sql(sql + n, sizeof(sql) - (size_t)n, def, 1, 1);
	snprintf(sql + n, sizeof(sql) - (size_t)n, ")");
	int ret = rp_sqlite_exec(s, sql, err);
	if (ret < 0)
		return ret;

	n = snprintf(sql, sizeof(sql), "INSERT INTO %s VALUES (?", def->name);
	for (size_t c = 1; c < def->nr_cols; c++)
		n += snprintf(sql + n, sizeof(sql) - (size_t)n, ",?");
	snprintf(sql + n, sizeof(sql) - (size_t)n, ")");
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->insert[t], NULL) !=
	    SQLITE_OK)
		return rp_sqlite_fail(s, err, "cannot prepare an insert");
	return 0;
}

/* The views of perf's script, for the tables readperf fills: the same
 * names and columns (ip_hex and the like in hexadecimal). */
static const char *const rp_sqlite_views[] = {
	"CREATE VIEW machines_view AS SELECT id, pid, root_dir,"
	" CASE WHEN id = 0 THEN 'unknown' WHEN pid = -1 THEN 'host' ELSE 'guest' END"
	" AS host_or_guest FROM machines",

	"CREATE VIEW dsos_view AS SELECT id, machine_id,"
	" (SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest,"
	" short_name, long_name, build_id FROM dsos",

	"CREATE VIEW symbols_view AS SELECT id, name,"
	" (SELECT short_name FROM dsos WHERE id = dso_id) AS dso, dso_id, sym_start, sym_end,"
	" CASE WHEN binding = 0 THEN 'local' WHEN binding = 1 THEN 'global' ELSE 'weak' END"
	" AS binding FROM symbols",

	"CREATE VIEW threads_view AS SELECT id, machine_id,"
	" (SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest,"
	" process_id, pid, tid FROM threads",

	"CREATE VIEW comm_threads_view AS SELECT comm_id,"
	" (SELECT comm FROM comms WHERE id = comm_id) AS command, thread_id,"
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid FROM comm_threads",

	"CREATE VIEW samples_view AS SELECT id, time, cpu,"
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid,"
	" (SELECT comm FROM comms WHERE id = comm_id) AS command,"
	" (SELECT name FROM selected_events WHERE id = evsel_id) AS event,"
	" printf('%x', ip) AS ip_hex,"
	" (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, sym_offset,"
	" (SELECT short_name FROM dsos WHERE id = dso_id) AS dso_short_name,"
	" printf('%x', to_ip) AS to_ip_hex,"
	" (SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol, to_sym_offset,"
	" (SELECT short_name FROM dsos WHERE id = to_dso_id) AS to_dso_short_name,"
	" (SELECT name FROM branch_types WHERE id = branch_type) AS branch_type_name,"
	" in_tx, insn_count, cyc_count,"
	" CASE WHEN cyc_count = 0 THEN CAST(0 AS FLOAT)"
	" ELSE ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC,"
	" flags FROM samples",

	"CREATE VIEW context_switches_view AS SELECT cs.id, cs.machine_id, cs.time, cs.cpu,"
	" t_out.pid AS pid_out, t_out.tid AS tid_out, c_out.comm AS comm_out,"
	" t_in.pid AS pid_in, t_in.tid AS tid_in, c_in.comm AS comm_in,"
	" CASE WHEN cs.flags = 0 THEN 'in' WHEN cs.flags = 1 THEN 'out'"
	" WHEN cs.flags = 3 THEN 'out preempt' ELSE cs.flags END AS flags"
	" FROM context_switches cs"
	" INNER JOIN threads t_out ON t_out.id = cs.thread_out_id"
	" INNER JOIN threads t_in ON t_in.id = cs.thread_in_id"
	" INNER JOIN comms c_out ON c_out.id = cs.comm_out_id"
	" INNER JOIN comms c_in ON c_in.id = cs.comm_in_id",
};

static const char rp_sqlite_call_paths_view[] =
	"CREATE VIEW call_paths_view AS SELECT c.id, printf('%x', c.ip) AS ip, c.symbol_id,"
	" (SELECT name FROM symbols WHERE id = c.symbol_id) AS symbol,"
	" (SELECT dso_id FROM symbols WHERE id = c.symbol_id) AS dso_id,"
	" (SELECT dso FROM symbols_view WHERE id = c.symbol_id) AS dso_short_name,"
	" c.parent_id, printf('%x', p.ip) AS parent_ip, p.symbol_id AS parent_symbol_id,"
	" (SELECT name FROM symbols WHERE id = p.symbol_id) AS parent_symbol,"
	" (SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS parent_dso_id,"
	" (SELECT dso FROM symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name"
	" FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id";

static const char rp_sqlite_calls_view[] =
	"CREATE VIEW calls_view AS SELECT calls.id, thread_id,"
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid,"
	" (SELECT comm FROM comms WHERE id = comm_id) AS command,"
	" call_path_id, printf('%x', ip) AS ip, symbol_id,"
	" (SELECT name FROM symbols WHERE id = symbol_id) AS symbol,"
	" call_time, return_time, return_time - call_time AS elapsed_time,"
	" branch_count, insn_count, cyc_count,"
	" CASE WHEN cyc_count = 0 THEN CAST(0 AS FLOAT)"
	" ELSE ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC,"
	" call_id, return_id,"
	" CASE WHEN flags = 0 THEN '' WHEN flags = 1 THEN 'no call' WHEN flags = 2 THEN 'no return'"
	" WHEN flags = 3 THEN 'no call/return' WHEN flags = 6 THEN 'jump' ELSE flags END AS flags,"
	" parent_call_path_id, calls.parent_id"
	" FROM calls INNER JOIN call_paths ON call_paths.id = call_path_id";

static int rp_sqlite_row(void *ctx, enum rp_dbx_table t, const struct rp_dbx_value *v,
			 struct rp_error *err)
{
	struct rp_sqlite *s = ctx;
	const struct rp_dbx_table_def *def = rp_dbx_table(&s->dopts, t);
	sqlite3_stmt *st = s->insert[t];

	if (!st)
		return 0; /* a table this export has not */
	for (size_t c = 0; c < def->nr_cols; c++) {
		/* A binding stays after sqlite3_reset(): a number the
		 * previous row of the table had in this column (most of a
		 * sample's are) is not bound again. */
		if (def->cols[c].type != RP_DBX_TEXT && (s->bound[t] >> c & 1) &&
		    s->last[t][c] == v[c].i)
			continue;
		s->bound[t] |= 1ull << c;
		s->last[t][c] = v[c].i;
		int rc = def->cols[c].type == RP_DBX_TEXT
				 ? sqlite3_bind_text(st, (int)c + 1, v[c].s, (int)v[c].len,
						     SQLITE_STATIC)
				 : sqlite3_bind_int64(st, (int)c + 1, v[c].i);

		if (rc != SQLITE_OK)
			return rp_sqlite_fail(s, err, "cannot bind a value");
	}
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return rp_sqlite_fail(s, err, "cannot insert");
	return 0;
}

/* ------------------------------------------------------------- the writer */

/* A row in a buffer: its table (one byte), then each column: a number in
 * 8 bytes, or a text's length in 4 bytes and its bytes.  Inserts the rows
 * of one buffer. */
static int rp_sqlite_rows(struct rp_sqlite *s, const char *p, size_t len, struct rp_error *err)
{
	const char *end = p + len;
	struct rp_dbx_value v[RP_DBX_MAX_COLS];

	while (p < end) {
		enum rp_dbx_table t = (enum rp_dbx_table)(unsigned char)*p++;
		const struct rp_dbx_table_def *def = rp_dbx_table(&s->dopts, t);

		for (size_t c = 0; c < def->nr_cols; c++) {
			if (def->cols[c].type == RP_DBX_TEXT) {
				uint32_t n;

				memcpy(&n, p, 4);
				v[c].s = p + 4;
				v[c].len = n;
				v[c].i = 0;
				p += 4 + n;
			} else {
				memcpy(&v[c].i, p, 8);
				p += 8;
			}
		}
		int ret = rp_sqlite_row(s, t, v, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void *rp_sqlite_writer(void *arg)
{
	struct rp_sqlite *s = arg;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (s->consumed == s->produced && !s->stop)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->consumed == s->produced)
			break;
		struct rp_linebuf *b = &s->buf[s->consumed % RP_SQ_BUFS];
		int skip = s->werr || s->abandon;

		pthread_mutex_unlock(&s->mu);
		struct rp_error e = { 0 };
		int ret = skip ? 0 : rp_sqlite_rows(s, b->p, b->len, &e);
		b->len = 0;
		pthread_mutex_lock(&s->mu);
		if (ret < 0 && !s->werr) {
			s->werr = ret;
			s->werr_info = e;
		}
		s->consumed++;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* Hands the buffer being filled to the writer and waits for a free one.
 * Returns 0 or the writer's error (err filled). */
static int rp_sqlite_handoff(struct rp_sqlite *s, struct rp_error *err)
{
	int ret;

	pthread_mutex_lock(&s->mu);
	s->produced++;
	pthread_cond_broadcast(&s->cv);
	while (s->produced - s->consumed >= RP_SQ_BUFS && !s->werr)
		pthread_cond_wait(&s->cv, &s->mu);
	ret = s->werr;
	if (ret < 0 && err)
		*err = s->werr_info;
	pthread_mutex_unlock(&s->mu);
	return ret;
}

static int rp_sqlite_put(void *ctx, enum rp_dbx_table t, const struct rp_dbx_value *v,
			 struct rp_error *err)
{
	struct rp_sqlite *s = ctx;
	const struct rp_dbx_table_def *def = rp_dbx_table(&s->dopts, t);
	struct rp_linebuf *b = &s->buf[s->produced % RP_SQ_BUFS];
	size_t need = 1;

	if (!s->insert[t])
		return 0; /* a table this export has not */
	for (size_t c = 0; c < def->nr_cols; c++)
		need += def->cols[c].type == RP_DBX_TEXT ? 4 + v[c].len : 8;
	char *p = rp_lb_room(b, need), *start = p;
	if (!p)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	*p++ = (char)t;
	for (size_t c = 0; c < def->nr_cols; c++) {
		if (def->cols[c].type == RP_DBX_TEXT) {
			uint32_t n = (uint32_t)v[c].len;

			memcpy(p, &n, 4);
			memcpy(p + 4, v[c].s, n);
			p += 4 + n;
		} else {
			memcpy(p, &v[c].i, 8);
			p += 8;
		}
	}
	b->len += (size_t)(p - start);
	return b->len >= RP_SQ_CHUNK ? rp_sqlite_handoff(s, err) : 0;
}

/* The last rows to the writer, and the writer's end: 0 or its error. */
static int rp_sqlite_join(struct rp_sqlite *s, int abandon, struct rp_error *err)
{
	int ret;

	if (!s->threaded)
		return 0;
	pthread_mutex_lock(&s->mu);
	if (!abandon && s->buf[s->produced % RP_SQ_BUFS].len)
		s->produced++;
	s->abandon |= abandon;
	s->stop = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->writer, NULL);
	s->threaded = 0;
	ret = s->werr;
	if (ret < 0 && err)
		*err = s->werr_info;
	return ret;
}

static int rp_sqlite_start(struct rp_sqlite *s, struct rp_error *err)
{
	for (int i = 0; i < RP_SQ_BUFS; i++)
		if (!rp_lb_grow(&s->buf[i], RP_SQ_CHUNK + 4096))
			return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (pthread_create(&s->writer, NULL, rp_sqlite_writer, s) != 0)
		return 0; /* no thread: the caller's inserts */
	s->threaded = 1;
	return 0;
}

static void rp_sqlite_free(struct rp_sqlite *s)
{
	if (!s)
		return;
	rp_sqlite_join(s, 1, NULL);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	for (int i = 0; i < RP_SQ_BUFS; i++)
		free(s->buf[i].p);
	rp_dbx_free(s->dbx);
	for (int t = 0; t < RP_DBX_NR_TABLES; t++)
		sqlite3_finalize(s->insert[t]);
	sqlite3_close(s->db);
	if (s->tmp)
		unlink(s->tmp);
	free(s->tmp);
	free(s->path);
	free(s);
}

static int rp_sqlite_create(void **state, const struct rp_output_env *env, const void *opts,
			    const struct rp_output_target *target, struct rp_error *err)
{
	struct rp_sqlite *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	if (rp_opts_copy(&s->opts, sizeof(s->opts), opts) < 0) {
		rp_sqlite_free(s);
		return rp_error_set(err, RP_ERR_INVAL, "bad options");
	}
	s->dopts.branches = s->opts.branches;
	s->dopts.calls = s->opts.calls;
	s->dopts.callchains = s->opts.callchains;
	size_t n = strlen(target->path);
	if (!n || !(s->path = strdup(target->path)) || !(s->tmp = malloc(n + 16))) {
		rp_sqlite_free(s);
		return n ? rp_error_set(err, RP_ERR_NOMEM, "out of memory")
			 : rp_error_set(err, RP_ERR_INVAL, "no database file named");
	}
	if (!s->opts.force && access(s->path, F_OK) == 0) {
		ret = rp_error_set(err, RP_ERR_INVAL, "%s already exists (--force replaces it)",
				   s->path);
		free(s->tmp);
		s->tmp = NULL;
		rp_sqlite_free(s);
		return ret;
	}
	/* Written under a name of its own beside the target, renamed when
	 * complete: a failed or interrupted export leaves no partial file
	 * under the name asked for. */
	snprintf(s->tmp, n + 16, "%s.tmp-XXXXXX", s->path);
	int fd = mkstemp(s->tmp);
	if (fd < 0) {
		ret = rp_error_set(err, RP_ERR_IO, "%s: cannot create: %s", s->tmp, strerror(errno));
		free(s->tmp);
		s->tmp = NULL;
		rp_sqlite_free(s);
		return ret;
	}
	close(fd);
	/* The connection is this export's alone: no mutex around each call
	 * (each bind and step took one). */
	if (sqlite3_open_v2(s->tmp, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		ret = rp_sqlite_fail(s, err, "cannot open");
		rp_sqlite_free(s);
		return ret;
	}
	/* One writer, no rollback journal: nothing to recover from (the file
	 * is renamed only when complete); 64 KiB pages (the samples are most
	 * of the file: fewer, fuller pages to fill). */
	if ((ret = rp_sqlite_exec(s, "PRAGMA page_size = 65536; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
				     " PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536;"
				     " BEGIN",
				  err)) < 0)
		goto fail;
	for (int t = 0; t < RP_DBX_NR_TABLES; t++)
		if (rp_dbx_has_table(&s->dopts, t) && (ret = rp_sqlite_create_table(s, t, err)) < 0)
			goto fail;
	for (size_t i = 0; i < sizeof(rp_sqlite_views) / sizeof(rp_sqlite_views[0]); i++)
		if ((ret = rp_sqlite_exec(s, rp_sqlite_views[i], err)) < 0)
			goto fail;
	if (rp_dbx_has_table(&s->dopts, RP_DBX_CALL_PATHS) &&
	    (ret = rp_sqlite_exec(s, rp_sqlite_call_paths_view, err)) < 0)
		goto fail;
	if (rp_dbx_has_table(&s->dopts, RP_DBX_CALLS) &&
	    (ret = rp_sqlite_exec(s, rp_sqlite_calls_view, err)) < 0)
		goto fail;

	/* With threads, the inserts go to the writer. */
	if (s->opts.nr_threads >= 2 && (ret = rp_sqlite_start(s, err)) < 0)
		goto fail;
	struct rp_dbx_backend be = { s, s->threaded ? rp_sqlite_put : rp_sqlite_row };
	if ((ret = rp_dbx_new(&s->dbx, env, &s->dopts, &be)) < 0) {
		rp_error_set(err, ret, "out of memory");
		goto fail;
	}
	if ((ret = rp_dbx_begin(s->dbx)) < 0) {
		rp_dbx_error(s->dbx, err);
		goto fail;
	}
	*state = s;
	return 0;
fail:
	rp_sqlite_free(s);
	return ret;
}

static struct rp_consumer rp_sqlite_consumer(void *state)
{
	struct rp_sqlite *s = state;

	return rp_dbx_consumer(s->dbx);
}

static int rp_sqlite_empty(struct rp_sqlite *s, const char *table)
{
	char sql[128];
	sqlite3_stmt *st;
	int empty = 0;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM %s LIMIT 1", table);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK)
		empty = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return empty;
}

static int rp_sqlite_finish(void *state, struct rp_error *err)
{
	struct rp_sqlite *s = state;
	int ret = rp_dbx_error(s->dbx, err);

	if (ret < 0)
		return ret;
	if ((ret = rp_sqlite_join(s, 0, err)) < 0)
		return ret;
	/* What perf's script does at the end: the calls indexes and
	 * comms.has_calls, and no context_switches table when there were
	 * none. */
	if (rp_dbx_has_table(&s->dopts, RP_DBX_CALLS) &&
	    (ret = rp_sqlite_exec(s, "CREATE INDEX pcpid_idx ON calls (parent_call_path_id);"
				     " CREATE INDEX pid_idx ON calls (parent_id);"
				     " ALTER TABLE comms ADD has_calls boolean;"
				     " UPDATE comms SET has_calls = 1 WHERE comms.id IN"
				     " (SELECT DISTINCT comm_id FROM calls)",
				  err)) < 0)
		return ret;
	if (rp_sqlite_empty(s, "context_switches") &&
	    (ret = rp_sqlite_exec(s, "DROP VIEW context_switches_view; DROP TABLE context_switches",
				  err)) < 0)
		return ret;
	if ((ret = rp_sqlite_exec(s, "COMMIT", err)) < 0)
		return ret;
	for (int t = 0; t < RP_DBX_NR_TABLES; t++) {
		sqlite3_finalize(s->insert[t]);
		s->insert[t] = NULL;
	}
	if (sqlite3_close(s->db) != SQLITE_OK)
		return rp_sqlite_fail(s, err, "cannot close");
	s->db = NULL;
	if (rename(s->tmp, s->path) != 0)
		return rp_error_set(err, RP_ERR_IO, "%s: cannot rename %s: %s", s->path, s->tmp,
				    strerror(errno));
	free(s->tmp);
	s->tmp = NULL;
	return 0;
}

static void rp_sqlite_destroy(void *state)
{
	rp_sqlite_free(state);
}

const struct rp_output_def rp_output_sqlite = {
	.name = "sqlite",
	.flags = RP_OUTPUT_PATH | RP_OUTPUT_SYMBOLS,
	.create = rp_sqlite_create,
	.consumer = rp_sqlite_consumer,
	.finish = rp_sqlite_finish,
	.destroy = rp_sqlite_destroy,
};

#else /* !RP_HAVE_SQLITE */

const struct rp_output_def rp_output_sqlite = {
	.name = "sqlite",
	.flags = RP_OUTPUT_PATH | RP_OUTPUT_SYMBOLS,
	.unavailable = "readperf was built without SQLite (apt-get install libsqlite3-dev)",
};

#endif
