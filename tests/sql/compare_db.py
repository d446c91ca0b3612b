#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares two databases in the schema of perf's export-to-sqlite.py
(perf's own, then readperf's) table by table: the same tables, views and
columns; the same row counts; the same content with every id replaced by
what it names (ids may differ, content may not).  Prints one line per
table; exit status 1 on the first difference of each table (all tables
are checked).

  compare_db.py PERF.db READPERF.db
"""
import sqlite3
import sys
from collections import Counter


def schema(db):
    out = {}
    for (name, kind) in db.execute(
            "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')"):
        cols = [(r[1], r[2]) for r in db.execute("PRAGMA table_info(%s)" % name)]
        out[name] = (kind, cols)
    return out


class Names:
    """Content for the ids of one database."""

    def __init__(self, db):
        self.db = db
        self.evsel = dict(db.execute("SELECT id, name FROM selected_events"))
        self.thread = {r[0]: (r[1], r[2]) for r in db.execute("SELECT id, pid, tid FROM threads")}
        self.comm = {r[0]: (r[1], r[2], r[3], self.thread.get(r[4]))
                     for r in db.execute("SELECT id, comm, c_time, exec_flag, c_thread_id FROM comms")}
        self.dso = {r[0]: (r[1], r[2], r[3])
                    for r in db.execute("SELECT id, short_name, long_name, build_id FROM dsos")}
        self.sym = {r[0]: (self.dso.get(r[1]), r[2], r[3], r[4], r[5]) for r in db.execute(
            "SELECT id, dso_id, sym_start, sym_end, binding, name FROM symbols")}
        self.cp = {}
        self.cp_rows = {}
        try:
            for r in db.execute("SELECT id, parent_id, symbol_id, ip FROM call_paths"):
                self.cp_rows[r[0]] = r[1:]
        except sqlite3.OperationalError:
            pass

    def sym_name(self, sid):
        s = self.sym.get(sid)
        # an "unknown" symbol's address depends on the map it came
        # through; its DSO and name are the content
        if s is None:
            return None
        if s[4] == "unknown":
            return (s[0][1] if s[0] else None, "unknown")
        return (s[0][1] if s[0] else None, s[1], s[2], s[3], s[4])

    def path(self, cid):
        if cid in self.cp:
            return self.cp[cid]
        out = []
        seen = 0
        c = cid
        while c and c in self.cp_rows and seen < 100000:
            parent, sym, ip = self.cp_rows[c]
            if parent == 0 and sym == 0 and ip == 0:
                break  # the root
            out.append(self.sym_name(sym) if sym else ("ip", ip))
            c = parent
            seen += 1
        self.cp[cid] = tuple(reversed(out))
        return self.cp[cid]


def rows(db, table):
    return [tuple(r) for r in db.execute("SELECT * FROM %s" % table)]


def content(n, table):
    db = n.db
    if table == "selected_events":
        return Counter(r[1] for r in rows(db, table))
    if table == "machines":
        return Counter(r for r in rows(db, table))
    if table == "threads":
        return Counter((r[3], r[4], n.thread.get(r[2]), r[1]) for r in rows(db, table))
    if table == "comms":
        return Counter(n.comm[r[0]] for r in rows(db, table))
    if table == "comm_threads":
        return Counter((n.comm.get(r[1]), n.thread.get(r[2])) for r in rows(db, table))
    if table == "dsos":
        return Counter(n.dso[r[0]] for r in rows(db, table))
    if table == "symbols":
        return Counter(n.sym_name(r[0]) for r in rows(db, table))
    if table == "branch_types":
        return Counter(rows(db, table))
    if table == "call_paths":
        return Counter(n.path(r[0]) for r in rows(db, table) if r[0])
    if table == "calls":
        return Counter(len(r) for r in rows(db, table))
    if table == "samples":
        cols = [c[1] for c in db.execute("PRAGMA table_info(samples)")]
        out = Counter()
        for r in rows(db, table):
            d = dict(zip(cols, r))
            if d["id"] == 0:
                out[("zero row",)] += 1
                continue
            key = (n.evsel.get(d["evsel_id"]), n.thread.get(d["thread_id"]),
                   n.comm.get(d["comm_id"]), n.dso.get(d["dso_id"]),
                   n.sym_name(d["symbol_id"]), d["sym_offset"], d["ip"], d["time"], d["cpu"],
                   n.dso.get(d["to_dso_id"]), n.sym_name(d["to_symbol_id"]),
                   d["to_sym_offset"], d["to_ip"], d.get("period"), d.get("weight"),
                   d.get("transaction_"), d.get("data_src"), d["branch_type"], d["in_tx"],
                   n.path(d["call_path_id"]) if d["call_path_id"] else None,
                   d["insn_count"], d["cyc_count"], d["flags"])
            out[key] += 1
        return out
    if table == "context_switches":
        return Counter((r[2], r[3], n.thread.get(r[4]), n.comm.get(r[5]), n.thread.get(r[6]),
                        n.comm.get(r[7]), r[8]) for r in rows(db, table))
    return Counter(rows(db, table))


def compare(a, b, sa, sb):
    """a, b: perf's and readperf's databases (sqlite3 connections); sa,
    sb: their schemas (schema()).  Returns the number of differences."""
    bad = 0
    if sa != sb:
        bad += 1
        for name in sorted(set(sa) | set(sb)):
            if sa.get(name) != sb.get(name):
                print("FAIL schema %s: perf %s, readperf %s" % (name, sa.get(name), sb.get(name)))
    na, nb = Names(a), Names(b)
    for name in sorted(sa):
        if sa[name][0] != "table" or name not in sb:
            continue
        ca = a.execute("SELECT count(*) FROM %s" % name).fetchone()[0]
        cb = b.execute("SELECT count(*) FROM %s" % name).fetchone()[0]
        if ca != cb:
            print("FAIL %s: %d rows in perf's, %d in readperf's" % (name, ca, cb))
            bad += 1
        xa, xb = content(na, name), content(nb, name)
        if xa != xb:
            bad += 1
            only_a = list((xa - xb).items())[:5]
            only_b = list((xb - xa).items())[:5]
            print("FAIL %s: content differs (%d rows only in perf's, %d only in readperf's)"
                  % (name, sum((xa - xb).values()), sum((xb - xa).values())))
            for r in only_a:
                print("  perf:     %r" % (r,))
            for r in only_b:
                print("  readperf: %r" % (r,))
        elif ca == cb:
            print("ok   %s: %d rows" % (name, ca))
    # Samples and periods per (event, comm, dso, symbol), as a report
    # groups them.
    q = ("SELECT (SELECT name FROM selected_events WHERE id = evsel_id),"
         " (SELECT comm FROM comms WHERE id = comm_id),"
         " (SELECT short_name FROM dsos WHERE id = dso_id),"
         " (SELECT name FROM symbols WHERE id = symbol_id), count(*), %s"
         " FROM samples WHERE id > 0 GROUP BY 1, 2, 3, 4")
    has_period = any(c[0] == "period" for c in sa["samples"][1])
    ga = set(a.execute(q % ("sum(period)" if has_period else "0")))
    gb = set(b.execute(q % ("sum(period)" if has_period else "0")))
    if ga != gb:
        bad += 1
        print("FAIL samples per event/comm/dso/symbol differ: perf %r, readperf %r"
              % (sorted(ga - gb)[:5], sorted(gb - ga)[:5]))
    else:
        print("ok   samples per event/comm/dso/symbol: %d groups" % len(ga))
    # The views give the same rows (ids aside, through the same names).
    for name in sorted(sa):
        if sa[name][0] != "view" or name not in sb:
            continue
        ca = a.execute("SELECT count(*) FROM %s" % name).fetchone()[0]
        cb = b.execute("SELECT count(*) FROM %s" % name).fetchone()[0]
        if ca != cb:
            print("FAIL view %s: %d rows in perf's, %d in readperf's" % (name, ca, cb))
            bad += 1
    return bad


def main():
    a = sqlite3.connect(sys.argv[1])
    b = sqlite3.connect(sys.argv[2])
    return 1 if compare(a, b, schema(a), schema(b)) else 0


if __name__ == "__main__":
    sys.exit(main())
