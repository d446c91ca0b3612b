#!/bin/bash
# Differential test of `readperf collapse` against perf's own stackcollapse
# script (`perf script report stackcollapse`), on files recorded now: the
# folded stacks must be equal line for line (after sorting), with each of
# the script's options.
#
#   run_collapse.sh /path/to/readperf
#
# Skips (exit 77) when perf, its Python scripting or a compiler is missing,
# unless RP_REQUIRE_PERF=1: then it fails.
set -u

RP=${1:?usage: run_collapse.sh /path/to/readperf}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-collapse.XXXXXX")
failures=0

cannot_run() {
	if [ "${RP_REQUIRE_PERF:-0}" = 1 ]; then
		echo "run_collapse: FAILED: $1 (RP_REQUIRE_PERF=1)" >&2
		exit 1
	fi
	echo "run_collapse: SKIPPED: $1; readperf was NOT compared with perf" >&2
	rm -rf "$work"
	exit 77
}

case "$RP" in /*) ;; *) RP=$PWD/$RP ;; esac
[ -x "$RP" ] || { echo "run_collapse: $RP is not an executable" >&2; exit 1; }
command -v perf >/dev/null 2>&1 || cannot_run "perf is not installed"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || cannot_run "no C compiler ($CC)"

cd "$work" || exit 1
"$CC" -O1 -g -fno-omit-frame-pointer -fno-inline -o workload \
	"$root/tests/workload/workload.c" -lm 2>cc.err || { cat cc.err >&2; exit 1; }

record() {
	local name=$1
	shift
	local -a pargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do pargs+=("$1"); shift; done
	shift
	if ! perf record "${pargs[@]}" -o "$name.data" -- ./workload -q "$@" \
		>"$name.record.out" 2>&1 || [ ! -s "$name.data" ]; then
		cat "$name.record.out" >&2
		cannot_run "perf record ${pargs[*]} failed"
	fi
}

# compare FILE TAG OPTIONS...
compare() {
	local file=$1 tag=$2
	shift 2
	local base="${file%.data}.$tag"

	if ! perf script report stackcollapse -i "$file" -- "$@" >"$base.perf.out" \
		2>"$base.perf.err"; then
		cat "$base.perf.err" >&2
		cannot_run "perf script report stackcollapse failed (no Python scripting?)"
	fi
	LC_ALL=C sort "$base.perf.out" >"$base.perf.txt"
	if ! "$RP" collapse "$@" "$file" >"$base.rp.out" 2>"$base.rp.err"; then
		echo "FAIL ${file%.data} $tag: readperf collapse $* failed" >&2
		head -5 "$base.rp.err" >&2
		failures=$((failures + 1))
		return
	fi
	LC_ALL=C sort "$base.rp.out" >"$base.rp.txt"
	if [ ! -s "$base.perf.txt" ]; then
		echo "FAIL ${file%.data} $tag: perf printed nothing (test problem)" >&2
		failures=$((failures + 1))
	elif cmp -s "$base.perf.txt" "$base.rp.txt"; then
		echo "ok   ${file%.data} $tag ($(wc -l <"$base.perf.txt") stacks)"
	else
		echo "FAIL ${file%.data} $tag: stacks differ (- perf, + readperf):" >&2
		diff -u "$base.perf.txt" "$base.rp.txt" | head -30 >&2
		failures=$((failures + 1))
	fi
}

record cg      -e cpu-clock -g -- -t 300
record cg-fork -e cpu-clock -g -- -t 100 -f 20
record flat    -e cpu-clock    -- -t 100
for f in cg.data cg-fork.data; do
	compare "$f" default
	compare "$f" kernel --kernel
	compare "$f" tid --include-tid
	compare "$f" pid-tid --include-pid --include-tid
	compare "$f" pid --include-pid
	compare "$f" no-comm --no-comm
	compare "$f" tidy-java --tidy-java
done
compare flat.data default

if [ $failures -ne 0 ]; then
	echo "run_collapse: $failures comparison(s) failed; files kept in $work" >&2
	exit 1
fi
rm -rf "$work"
echo "run_collapse: readperf collapse agrees with perf's stackcollapse"
exit 0
