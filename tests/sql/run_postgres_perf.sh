#!/bin/bash
# Differential test of `readperf postgres` against perf's own
# export-to-postgresql.py (`perf script -s export-to-postgresql.py DB
# [calls] [callchains]`, through PySide2's QPSQL driver: Debian's
# python3-pyside2.qtsql and libqt5sql5-psql), on a PostgreSQL server
# started here (tests/sql/pg_lib.sh, as for run_postgres.sh) and files recorded now: a
# workload with call stacks (-g) and fork/exec children, and a two-event
# file with context switches.  perf's script writes one database per
# file; readperf writes both files into one database, each a recording;
# each recording's schema recording_N (its tables, perf's views) is
# compared with perf's database table by table (tests/sql/compare_pg.py:
# compare_db.py's comparison on copies of both: schema, row counts,
# every row with its ids replaced by what they name, samples per
# comm/dso/symbol, call paths as symbol paths, view row counts).
#
#   run_postgres_perf.sh /path/to/readperf
#
# Skips (exit 77) when perf, its Python scripting, PySide2's QtSql with the
# QPSQL driver, PostgreSQL or a compiler is missing, unless
# RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/sql/pg_lib.sh
. "$here/pg_lib.sh"
rp_take_binary "${1:?usage: run_postgres_perf.sh /path/to/readperf}"
require_perf
require_cc
scripts=$(for d in /usr/libexec/perf-core /usr/lib/perf-core; do
	[ -f "$d/scripts/python/export-to-postgresql.py" ] && echo "$d/scripts/python" && break; done)
[ -n "$scripts" ] || rp_cannot_run "perf's export-to-postgresql.py is not installed"
pg_require
# perf embeds the system's Python: PySide2 and its PostgreSQL driver must
# be there.
/usr/bin/python3 -c 'from PySide2.QtSql import QSqlDatabase
import sys
sys.exit(0 if "QPSQL" in QSqlDatabase.drivers() else 1)' 2>/dev/null ||
	rp_cannot_run "PySide2's QtSql or its QPSQL driver is missing" \
		      "(apt-get install python3-pyside2.qtsql libqt5sql5-psql)"

pg_start rp-pgperf rp

rp_compile_workload || exit 1
record_workload cg -e cpu-clock -g -- -t 300 -f 3
record_workload two -e cpu-clock -e task-clock --switch-events -- -t 200 -f 2

# export FILE PERF-DB PERF-ARGS... -- READPERF-ARGS...
export_both() {
	local file=$1 pdb=$2
	shift 2
	local -a pargs=() rargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do pargs+=("$1"); shift; done
	shift
	rargs=("$@")

	if ! perf script -i "$file" -s "$scripts/export-to-postgresql.py" "$pdb" "${pargs[@]}" \
		>"$pdb.perf.out" 2>&1 || ! grep -q Done "$pdb.perf.out"; then
		cat "$pdb.perf.out" >&2
		rp_cannot_run "perf script -s export-to-postgresql.py failed (no Python scripting?)"
	fi
	if ! "$RP" postgres --dsn "$dsn" "${rargs[@]}" "$file" 2>"$pdb.rp.err"; then
		fail "$file: readperf postgres ${rargs[*]} failed"
		head -5 "$pdb.rp.err" >&2
		return
	fi
	local id
	id=$(psql -qXAt -d rp -c "SELECT id FROM recordings WHERE file_name = '$file'")
	if /usr/bin/python3 "$here/compare_pg.py" "$pdb" rp "recording_$id" >"$pdb.cmp" 2>&1; then
		echo "ok   $file ${pargs[*]}: $(grep -c '^ok' "$pdb.cmp") tables equal (recording_$id)"
	else
		fail "$file ${pargs[*]}: perf's database $pdb and readperf's recording_$id differ:"
		grep -v '^ok' "$pdb.cmp" | head -30 >&2
	fi
}

# (perf 6.1's script fails with callchains but not calls.)
export_both cg.data pcg all calls callchains -- --calls --callchains
export_both two.data ptwo all -- 

if [ "$failures" -ne 0 ]; then
	echo "run_postgres_perf: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_postgres_perf: readperf postgres writes what perf's export-to-postgresql.py writes"
exit 0
