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

RP=${1:?usage: run_differential.sh /path/to/readperf}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
awkf=$here/perf_rows.awk
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-diff.XXXXXX")
failures=0

banner() {
	echo "************************************************************" >&2
	printf '* %s\n' "$@" >&2
	echo "************************************************************" >&2
}

cannot_run() {
	if [ "${RP_REQUIRE_PERF:-0}" = 1 ]; then
		banner "DIFFERENTIAL TEST FAILED: $1" \
		       "RP_REQUIRE_PERF=1 is set, so a missing or unusable perf is an error."
		exit 1
	fi
	banner "DIFFERENTIAL TEST SKIPPED: $1" \
	       "readperf was NOT compared with perf. Set RP_REQUIRE_PERF=1 to make this fatal."
	rm -rf "$work"
	exit 77
}

case "$RP" in /*) ;; *) RP=$PWD/$RP ;; esac
[ -x "$RP" ] || { echo "run_differential: $RP is not an executable" >&2; exit 1; }
command -v perf >/dev/null 2>&1 || cannot_run "perf is not installed (apt-get install linux-perf)"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || cannot_run "no C compiler ($CC) to build the workload"

cd "$work" || exit 1
if ! "$CC" -O1 -g -fno-omit-frame-pointer -fno-inline -o workload \
	"$root/tests/workload/workload.c" -lm 2>cc.err; then
	cat cc.err >&2
	echo "run_differential: cannot compile the workload" >&2
	exit 1
fi

# record NAME PERF-RECORD-ARGS... -- WORKLOAD-ARGS...
record() {
	local name=$1
	shift
	local -a pargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do pargs+=("$1"); shift; done
	shift
	if ! perf record "${pargs[@]}" -o "$name.data" -- ./workload -q "$@" \
		>"$name.record.out" 2>&1 || [ ! -s "$name.data" ]; then
		cat "$name.record.out" >&2
		cannot_run "perf record ${pargs[*]} failed (no permission? see perf_event_paranoid)"
	fi
}

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
	"$RP" report --sort "$keys" -t ';' "$file" >"$base.rp.txt" 2>"$base.rp.err"
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
record cpu-clock      -e cpu-clock              -- -t 300
record cpu-clock-g    -e cpu-clock -g           -- -t 300
record two-events     -e cpu-clock,task-clock   -- -t 300
record system-wide    -e cpu-clock -a           -- -t 2000 -j 2
record fork-exec      -e cpu-clock -g           -- -t 100 -f 60

for f in cpu-clock.data cpu-clock-g.data two-events.data system-wide.data fork-exec.data; do
	check_file "$f"
done
echo "run_differential: $(( $(date +%s) - start )) s"

if [ $failures -ne 0 ]; then
	echo "run_differential: $failures comparison(s) failed; files kept in $work" >&2
	exit 1
fi
rm -rf "$work"
echo "run_differential: readperf agrees with perf on all recordings"
exit 0
