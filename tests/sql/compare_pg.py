#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares perf's export-to-postgresql.py database with one recording of
readperf's PostgreSQL database (its schema recording_N, which holds the
recording's tables and perf's views under perf's names), table by table
as compare_db.py compares two SQLite files: both are copied into SQLite
(tables with their columns and PostgreSQL types, views as their rows)
and compared there.  readperf's tables have a first column recording_id,
and every table whatever the options (perf's script drops the empty
ones): those are left out; a table or column readperf has and perf's
has not must be empty (NULL), but for comms.has_calls and the views'
added columns.

  compare_pg.py PERF_DB READPERF_DB SCHEMA

The server is libpq's default (PGHOST, PGUSER); psql runs the queries.
"""
import os
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_db  # noqa: E402


def psql(db, schema, sql):
    return subprocess.run(["psql", "-qX", "-v", "ON_ERROR_STOP=1", "-d", db,
                           "-c", "SET search_path TO %s" % schema, "-c", sql],
                          check=True, capture_output=True, text=True).stdout


def pg_schema(db, schema):
    """{name: (kind, [(column, type)])}, recording_id left out."""
    out = {}
    text = psql(db, schema, "COPY (SELECT c.relname, c.relkind, a.attname,"
                " format_type(a.atttypid, a.atttypmod) FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " JOIN pg_attribute a ON a.attrelid = c.oid"
                " WHERE n.nspname = '%s' AND c.relkind IN ('r', 'p', 'v')"
                " AND NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class p"
                " ON p.oid = i.inhparent WHERE i.inhrelid = c.oid"
                " AND p.relnamespace = c.relnamespace)"
                " AND a.attnum > 0 AND NOT a.attisdropped AND a.attname <> 'recording_id'"
                " ORDER BY c.relname, a.attnum) TO STDOUT" % schema)
    for line in text.splitlines():
        name, kind, col, typ = line.split("\t")
        entry = out.setdefault(name, ("view" if kind == "v" else "table", []))
        entry[1].append((col, typ))
    return out


def unescape(v):
    if v == "\\N":
        return None
    if "\\" not in v:
        return v
    out, i = [], 0
    while i < len(v):
        if v[i] == "\\" and i + 1 < len(v):
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(v[i + 1], v[i + 1]))
            i += 2
        else:
            out.append(v[i])
            i += 1
    return "".join(out)


def value(v, typ):
    v = unescape(v)
    if v is None:
        return None
    if typ in ("bigint", "integer", "smallint"):
        return int(v)
    if typ == "boolean":
        return 1 if v == "t" else 0
    return v


def to_sqlite(db, schema, tables):
    """The rows of tables ({name: (kind, cols)}) in a new SQLite database."""
    lite = sqlite3.connect(":memory:")
    for name, (kind, cols) in tables.items():
        lite.execute("CREATE TABLE %s (%s)" % (name, ", ".join(
            '"%s" %s' % (c, t) for c, t in cols)))
        text = psql(db, schema, "COPY (SELECT %s FROM %s) TO STDOUT"
                    % (", ".join('"%s"' % c for c, _ in cols), name))
        rows = [[value(v, t) for v, (_, t) in zip(line.split("\t"), cols)]
                for line in text.splitlines()]
        lite.executemany("INSERT INTO %s VALUES (%s)" % (name, ", ".join("?" * len(cols))), rows)
    return lite


def main():
    perf_db, rp_db, schema = sys.argv[1:4]
    sa, sb = pg_schema(perf_db, "public"), pg_schema(rp_db, schema)
    bad = 0
    # readperf's own extras: tables perf's script dropped (empty), and
    # columns of the shared schema perf's options leave out.
    for name in sorted(set(sb) - set(sa)):
        if sb[name][0] == "table":
            n = int(psql(rp_db, schema, "COPY (SELECT count(*) FROM %s WHERE id > 0) TO STDOUT"
                         % name))
            if n:
                print("FAIL %s: %d rows in readperf's, no table in perf's" % (name, n))
                bad += 1
        del sb[name]
    for name in sorted(sb):
        if name not in sa:
            continue
        known = [c for c, _ in sa[name][1]]
        extra = [c for c, _ in sb[name][1] if c not in known]
        if sb[name][0] == "table":
            for c in extra:
                if (name, c) == ("comms", "has_calls"):
                    continue
                n = int(psql(rp_db, schema, 'COPY (SELECT count(*) FROM %s WHERE "%s" IS NOT NULL'
                             " AND id > 0) TO STDOUT" % (name, c)))
                if n:
                    print("FAIL %s.%s: %d values in readperf's, no column in perf's" % (name, c, n))
                    bad += 1
        sb[name] = (sb[name][0], [(c, t) for c, t in sb[name][1] if c in known])
    a, b = to_sqlite(perf_db, "public", sa), to_sqlite(rp_db, schema, sb)
    bad += compare_db.compare(a, b, sa, sb)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
