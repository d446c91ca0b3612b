#!/bin/bash
# Differential test: readperf against the installed perf, on files recorded
# now, on this machine.
#
#   run_differential.sh /path/to/readperf
#
# Records the bundled workload (tests/workload/workload.c) with perf in five
# ways: cpu-clock without and with -g, two events at once, system-wide (-a)
# and a fork/exec-heavy run.  For each file it compares
#   readperf report --sort comm,dso,sym -t ';' FILE
# with
#   perf report -i FILE --stdio --no-children --sort comm,dso,sym \
#       -F overhead,sample,period,comm,dso,sym -t ';' -g none
# row for row and per event section (see perf_rows.awk for the
# normalisation), then the sets of rows for --sort dso,sym and --sort comm.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check, CI): then it fails.
# The scratch directory is kept on failure and its path printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_differential.sh /path/to/readperf}"
awkf=$here/perf_rows.awk
require_perf
require_cc
rp_workdir rp-diff keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

rows() { awk -v sep=';' -f "$awkf"; }
# Prefix every row with its event section, then sort: a set comparison.
as_set() { awk '/^@event /{ev=$0; next} {print ev "|" $0}' | LC_ALL=C sort; }

# compare FILE SORTKEYS MODE(exact|set)
compare() {
	local file=$1 keys=$2 mode=$3
	local tag="${file%.data} --sort $keys"
	local base="${file%.data}.${keys//,/_}"
	local rc

	perf report -i "$file" --stdio --no-children --sort "$keys" \
		-F "overhead,sample,period,$keys" -t ';' -g none \
		>"$base.perf.txt" 2>"$base.perf.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $tag: perf report exit $rc" >&2
		cat "$base.perf.err" >&2
		failures=$((failures + 1))
		return
	fi
	"$RP" report --no-children -g none --sort "$keys" -F "overhead,sample,period,$keys" -t ';' "$file" >"$base.rp.txt" 2>"$base.rp.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $tag: readperf exit status $rc" >&2
		head -5 "$base.rp.err" >&2
		failures=$((failures + 1))
		return
	fi
	rows <"$base.perf.txt" >"$base.perf.rows"
	rows <"$base.rp.txt" >"$base.rp.rows"
	if ! grep -qv '^@event ' "$base.perf.rows"; then
		echo "FAIL $tag: perf printed no rows (test problem)" >&2
		failures=$((failures + 1))
		return
	fi
	if [ "$mode" = set ]; then
		as_set <"$base.perf.rows" >"$base.perf.cmp"
		as_set <"$base.rp.rows" >"$base.rp.cmp"
	else
		cp "$base.perf.rows" "$base.perf.cmp"
		cp "$base.rp.rows" "$base.rp.cmp"
	fi
	if cmp -s "$base.perf.cmp" "$base.rp.cmp"; then
		echo "ok   $tag ($mode, $(grep -cv '^@event ' "$base.perf.rows") rows)"
	else
		echo "FAIL $tag ($mode): rows differ (- perf, + readperf):" >&2
		diff -u "$base.perf.cmp" "$base.rp.cmp" | head -80 >&2
		failures=$((failures + 1))
	fi
}

check_file() {
	compare "$1" comm,dso,sym exact
	compare "$1" dso,sym set
	compare "$1" comm set
}

start=$(date +%s)
record_workload cpu-clock      -e cpu-clock              -- -t 300
record_workload cpu-clock-g    -e cpu-clock -g           -- -t 300
record_workload two-events     -e cpu-clock,task-clock   -- -t 300
record_workload system-wide    -e cpu-clock -a           -- -t 2000 -j 2
record_workload fork-exec      -e cpu-clock -g           -- -t 100 -f 60

for f in cpu-clock.data cpu-clock-g.data two-events.data system-wide.data fork-exec.data; do
	check_file "$f"
done
echo "run_differential: $(( $(date +%s) - start )) s"

if [ $failures -ne 0 ]; then
	echo "run_differential: $failures comparison(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_differential: readperf agrees with perf on all recordings"
exit 0
