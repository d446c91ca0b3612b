#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs the non-graphical part of perf's exported-sql-viewer.py on a
database: its main window (event and table lists) and every report its
menus offer for that database (call graph, call tree, the branch view of
each event, a table view of each table, the time chart by CPU), on Qt's
offscreen platform, with every SQL statement the viewer executes logged
and checked.

  viewer_check.py VIEWER.py DB LOG

Exit status 0 when every statement succeeded (LOG lists them: OK or FAIL
and the statement), 1 otherwise.
"""
import importlib.util
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
viewer_path, dbname, log_path = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(viewer_path))
sys.argv = [viewer_path, dbname]
spec = importlib.util.spec_from_file_location("perf_viewer", viewer_path)
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)

log = open(log_path, "a")
Base = v.QSqlQuery


class LoggedQuery(Base):
    """QSqlQuery that writes each statement it executes, and its result."""

    def exec_(self, *args):
        ok = Base.exec_(self, *args)
        stmt = args[0] if args else self.lastQuery()
        err = "" if ok else " :: " + self.lastError().text()
        log.write("%s %s%s\n" % ("OK  " if ok else "FAIL", " ".join(stmt.split()), err))
        log.flush()
        return ok


v.QSqlQuery = LoggedQuery

dbref = v.DBRef(True, dbname)
db, dbname = dbref.Open("main")
glb = v.Glb(dbref, db, dbname)
app = v.QApplication(sys.argv)
glb.app = app
mw = v.MainWindow(glb)
glb.mainwindow = mw
if v.IsSelectable(glb.db, "calls"):
    mw.NewCallGraph()
if v.IsSelectable(glb.db, "calls", "WHERE parent_id >= 0"):
    mw.NewCallTree()
if v.IsSelectable(glb.db, "context_switches"):
    mw.TimeChartByCPU()
for dbid in v.GetEventList(glb.db) and range(1, len(v.GetEventList(glb.db)) + 1):
    mw.NewBranchView(dbid)
for table in v.GetTableList(glb):
    mw.NewTableView(table)
# Let the fetchers (threads and processes) run their queries.
v.QTimer.singleShot(3000, app.quit)
app.exec_()
glb.ShutdownInstances()
log.close()
bad = sum(1 for line in open(log_path) if line.startswith("FAIL"))
total = sum(1 for line in open(log_path))
print("%d statements, %d failed" % (total, bad))
sys.exit(1 if bad or not total else 0)
