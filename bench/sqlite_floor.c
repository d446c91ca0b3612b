/* SPDX-License-Identifier: MIT */
/*
 * The floor of `readperf sqlite`: SQLite's own bulk-insert rate for the
 * same rows.  Reads every row of every table of a database readperf
 * wrote (SRC) into memory, then times creating DST with the same tables
 * and inserting those rows with one prepared INSERT per table, bound
 * values, in one transaction, with the pragmas readperf uses.  Prints
 * "rows N insert_s S".
 *
 *   cc -O2 -o sqlite_floor bench/sqlite_floor.c -lsqlite3
 *   sqlite_floor SRC.db DST.db
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct val {
	int type; /* SQLITE_INTEGER, SQLITE_TEXT, SQLITE_NULL */
	int64_t i;
	char *s;
	int n;
};

struct table {
	char *create, *insert;
	int ncols;
	size_t nrows, cap;
	struct val *v; /* nrows * ncols */
};

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "sqlite_floor: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
	exit(1);
}

int main(int argc, char **argv)
{
	sqlite3 *src, *dst;
	sqlite3_stmt *st;
	struct table t[64];
	int nt = 0;
	size_t rows = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: sqlite_floor SRC.db DST.db\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die(src, "open");
	if (sqlite3_prepare_v2(src, "SELECT name, sql FROM sqlite_master WHERE type = 'table'", -1,
			       &st, NULL) != SQLITE_OK)
		die(src, "schema");
	while (sqlite3_step(st) == SQLITE_ROW && nt < 64) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		struct table *x = &t[nt++];
		char sql[512];
		sqlite3_stmt *q;

		memset(x, 0, sizeof(*x));
		x->create = strdup((const char *)sqlite3_column_text(st, 1));
		snprintf(sql, sizeof(sql), "SELECT * FROM %s", name);
		if (sqlite3_prepare_v2(src, sql, -1, &q, NULL) != SQLITE_OK)
			die(src, "select");
		x->ncols = sqlite3_column_count(q);
		size_t n = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO %s VALUES (?", name);
		for (int c = 1; c < x->ncols; c++)
			n += (size_t)snprintf(sql + n, sizeof(sql) - n, ",?");
		snprintf(sql + n, sizeof(sql) - n, ")");
		x->insert = strdup(sql);
		while (sqlite3_step(q) == SQLITE_ROW) {
			if (x->nrows == x->cap) {
				x->cap = x->cap ? 2 * x->cap : 1024;
				x->v = realloc(x->v, x->cap * (size_t)x->ncols * sizeof(*x->v));
				if (!x->v)
					die(NULL, "out of memory");
			}
			for (int c = 0; c < x->ncols; c++) {
				struct val *v = &x->v[x->nrows * (size_t)x->ncols + (size_t)c];

				v->type = sqlite3_column_type(q, c);
				if (v->type == SQLITE_TEXT) {
					v->n = sqlite3_column_bytes(q, c);
					v->s = malloc((size_t)v->n + 1);
					memcpy(v->s, sqlite3_column_text(q, c), (size_t)v->n + 1);
				} else {
					v->i = sqlite3_column_int64(q, c);
				}
			}
			x->nrows++;
		}
		rows += x->nrows;
		sqlite3_finalize(q);
	}
	sqlite3_finalize(st);
	sqlite3_close(src);

	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	remove(argv[2]);
	if (sqlite3_open(argv[2], &dst) != SQLITE_OK)
		die(dst, "open");
	if (sqlite3_exec(dst, "PRAGMA page_size = 65536; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
			      " PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536; BEGIN",
			 NULL, NULL, NULL) != SQLITE_OK)
		die(dst, "begin");
	for (int i = 0; i < nt; i++) {
		struct table *x = &t[i];

		if (sqlite3_exec(dst, x->create, NULL, NULL, NULL) != SQLITE_OK)
			die(dst, "create");
		if (sqlite3_prepare_v3(dst, x->insert, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) !=
		    SQLITE_OK)
			die(dst, "prepare");
		for (size_t r = 0; r < x->nrows; r++) {
			for (int c = 0; c < x->ncols; c++) {
				struct val *v = &x->v[r * (size_t)x->ncols + (size_t)c];

				if (v->type == SQLITE_TEXT)
					sqlite3_bind_text(st, c + 1, v->s, v->n, SQLITE_STATIC);
				else if (v->type == SQLITE_NULL)
					sqlite3_bind_null(st, c + 1);
				else
					sqlite3_bind_int64(st, c + 1, v->i);
			}
			if (sqlite3_step(st) != SQLITE_DONE)
				die(dst, "insert");
			sqlite3_reset(st);
		}
		sqlite3_finalize(st);
	}
	if (sqlite3_exec(dst, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		die(dst, "commit");
	sqlite3_close(dst);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("rows %zu insert_s %.3f\n", rows,
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
