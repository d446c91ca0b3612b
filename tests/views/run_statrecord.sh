#!/bin/bash
# readperf report on `perf stat record` files against `perf stat report`.
#
#   run_statrecord.sh /path/to/readperf
#
# Records `perf stat record -e task-clock,context-switches,page-faults --
# sleep 0.1`, per task and system-wide (-a), and compares readperf report
# FILE (stdout) with perf stat report -i FILE (which writes to stderr),
# whole output; then readperf dump and stats on the same files with perf
# report -D / --stats.  Skips (77) without a working perf unless
# RP_REQUIRE_PERF=1.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_statrecord.sh /path/to/readperf}"
require_tool perf "perf is not installed (apt-get install linux-perf)"
rp_workdir rp-stat keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
events=task-clock,context-switches,page-faults
perf stat record -o task.data -e $events -- sleep 0.1 >/dev/null 2>&1 ||
	rp_cannot_run "perf stat record fails here"
perf stat record -a -o system.data -e $events -- sleep 0.1 >/dev/null 2>&1 ||
	fail "perf stat record -a failed"

for f in task.data system.data; do
	[ -f "$f" ] || continue
	perf stat report -i "$f" 2>"$f.perf" >/dev/null
	"$RP" report "$f" >"$f.rp" 2>"$f.err" || fail "readperf report $f exited $?"
	cmp -s "$f.perf" "$f.rp" || fail "stat report $f differs: $(diff "$f.perf" "$f.rp")"
	perf report -D -i "$f" >"$f.perf.dump" 2>/dev/null
	"$RP" dump "$f" >"$f.rp.dump" 2>/dev/null
	cmp -s "$f.perf.dump" "$f.rp.dump" ||
		fail "dump $f differs: $(diff "$f.perf.dump" "$f.rp.dump" | head -5)"
	perf report --stats -i "$f" >"$f.perf.stats" 2>/dev/null
	"$RP" stats "$f" >"$f.rp.stats" 2>/dev/null
	cmp -s "$f.perf.stats" "$f.rp.stats" ||
		fail "stats $f differs: $(diff "$f.perf.stats" "$f.rp.stats" | head -5)"
done

if [ "$failures" -gt 0 ]; then
	echo "run_statrecord: $failures failure(s); files kept in $work" >&2
	exit 1
fi
echo "run_statrecord: readperf agrees with perf stat report"
exit 0
