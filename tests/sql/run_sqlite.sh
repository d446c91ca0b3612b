#!/bin/bash
# Differential test of `readperf sqlite` against perf's own
# export-to-sqlite.py (`perf script -s export-to-sqlite.py DB [branches]
# [calls] [callchains]`), on files recorded now: a workload with call
# stacks (-g) and fork/exec children, and a two-event file with context
# switches.  For each file and each of the script's options the two
# databases are compared table by table (tests/sql/compare_db.py: schema,
# row counts, every row with its ids replaced by what they name, samples
# per comm/dso/symbol, call paths as symbol paths), and perf's
# exported-sql-viewer.py runs its reports on readperf's database
# (tests/sql/viewer_check.py): every statement it issues must succeed
# where it succeeds on perf's.
#
#   run_sqlite.sh /path/to/readperf
#
# Skips (exit 77) when perf, its Python scripting, PySide2's QtSql or a
# compiler is missing, unless RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_sqlite.sh /path/to/readperf}"
require_perf
require_cc
scripts=$(perf version --build-options >/dev/null 2>&1; for d in /usr/libexec/perf-core /usr/lib/perf-core; do
	[ -f "$d/scripts/python/export-to-sqlite.py" ] && echo "$d/scripts/python" && break; done)
[ -n "$scripts" ] || rp_cannot_run "perf's export-to-sqlite.py is not installed"
# perf embeds the system's Python: PySide2 must be there, not in another
# python3 on PATH.
/usr/bin/python3 -c 'from PySide2.QtSql import QSqlDatabase' 2>/dev/null ||
	rp_cannot_run "PySide2's QtSql is missing (apt-get install python3-pyside2.qtsql)"
# Qt's SQLite driver is a package of its own (libqt5sql5 only recommends
# one of its drivers; with the PostgreSQL one installed apt takes no other).
QT_QPA_PLATFORM=offscreen /usr/bin/python3 -c '
import sys
from PySide2.QtSql import QSqlDatabase
sys.exit(0 if "QSQLITE" in QSqlDatabase.drivers() else 1)' 2>/dev/null ||
	rp_cannot_run "Qt's SQLite driver is missing (apt-get install libqt5sql5-sqlite)"
rp_workdir rp-sqlite keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

record_workload cg -e cpu-clock -g -- -t 300 -f 3
record_workload two -e cpu-clock -e task-clock --switch-events -- -t 200 -f 2

# export FILE TAG PERF-ARGS... -- READPERF-ARGS...
export_both() {
	local file=$1 tag=$2
	shift 2
	local -a pargs=() rargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do pargs+=("$1"); shift; done
	shift
	rargs=("$@")
	local base="${file%.data}.$tag"

	if ! perf script -i "$file" -s "$scripts/export-to-sqlite.py" "$base.perf.db" \
		"${pargs[@]}" >"$base.perf.out" 2>&1 || [ ! -s "$base.perf.db" ]; then
		cat "$base.perf.out" >&2
		rp_cannot_run "perf script -s export-to-sqlite.py failed (no Python scripting?)"
	fi
	if ! "$RP" sqlite "${rargs[@]}" -o "$base.rp.db" "$file" 2>"$base.rp.err"; then
		fail "${file%.data} $tag: readperf sqlite ${rargs[*]} failed"
		head -5 "$base.rp.err" >&2
		return
	fi
	if /usr/bin/python3 "$here/compare_db.py" "$base.perf.db" "$base.rp.db" >"$base.cmp" 2>&1; then
		echo "ok   ${file%.data} $tag: $(grep -c '^ok' "$base.cmp") tables equal"
	else
		fail "${file%.data} $tag: the databases differ:"
		grep -v '^ok' "$base.cmp" | head -30 >&2
	fi
}

# viewer DB-TAG: exported-sql-viewer.py's reports on both databases.
viewer() {
	local base=$1
	rm -f "$base.perf.viewer" "$base.rp.viewer"
	timeout 120 /usr/bin/python3 "$here/viewer_check.py" "$scripts/exported-sql-viewer.py" \
		"$base.perf.db" "$base.perf.viewer" >/dev/null 2>&1
	timeout 120 /usr/bin/python3 "$here/viewer_check.py" "$scripts/exported-sql-viewer.py" \
		"$base.rp.db" "$base.rp.viewer" >/dev/null 2>&1
	local ok fails
	ok=$(grep -c '^OK' "$base.rp.viewer" 2>/dev/null)
	# A statement may fail by design (the viewer probes for optional
	# tables): only one that works on perf's database may not fail.
	fails=$(grep '^FAIL' "$base.rp.viewer" | sed 's/ :: .*//' | sort -u |
		comm -23 - <(grep '^FAIL' "$base.perf.viewer" | sed 's/ :: .*//' | sort -u))
	if [ -n "$fails" ]; then
		fail "$base: exported-sql-viewer.py statements fail on readperf's database:"
		echo "$fails" | head -10 >&2
	elif [ "${ok:-0}" -lt 20 ] || ! grep -q '^OK   SELECT samples.id, .* FROM samples INNER JOIN' \
			"$base.rp.viewer"; then
		fail "$base: exported-sql-viewer.py ran too little (${ok:-0} statements; no branch view)"
	else
		echo "ok   $base: exported-sql-viewer.py ran $ok statements on readperf's database"
	fi
}

export_both cg.data all       -- 
export_both cg.data callchains all calls callchains -- --calls --callchains
# (perf 6.1's script fails with callchains but not calls.)
export_both cg.data branches  branches calls callchains -- --branches --calls --callchains
export_both two.data all      -- 
export_both two.data calls    all calls -- --calls
viewer cg.callchains
viewer two.all

# The file is written whole or not at all; an existing one is kept.
if "$RP" sqlite -o cg.all.rp.db cg.data 2>/dev/null; then
	fail "readperf sqlite replaced an existing database without --force"
fi
"$RP" sqlite -f -o cg.all.rp.db cg.data || fail "readperf sqlite --force failed"
ls ./*.tmp-* >/dev/null 2>&1 && fail "temporary files left: $(ls ./*.tmp-*)"

# Several recordings in one command: one database each, in the -o
# directory, the same as exporting them one at a time, whatever -j.
for j in 1 4; do
	rm -rf "multi$j"
	if ! "$RP" sqlite -j "$j" --callchains -o "multi$j" cg.data two.data 2>"multi$j.err"; then
		fail "readperf sqlite -j $j cg.data two.data failed: $(head -3 "multi$j.err")"
		continue
	fi
	for f in cg two; do
		rm -f "$f.single.db"
		"$RP" sqlite --callchains -o "$f.single.db" "$f.data" 2>/dev/null ||
			fail "readperf sqlite $f.data failed"
		if [ "$(sqlite3 "multi$j/$f.data.db" .dump)" = "$(sqlite3 "$f.single.db" .dump)" ]; then
			echo "ok   -j $j: $f.data's database of two recordings equals its own export"
		else
			fail "-j $j: multi$j/$f.data.db differs from $f.single.db"
		fi
	done
done

if [ "$failures" -ne 0 ]; then
	echo "run_sqlite: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_sqlite: readperf sqlite writes what perf's export-to-sqlite.py writes"
exit 0
