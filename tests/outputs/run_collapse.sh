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

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_collapse.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-collapse keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

# compare FILE TAG OPTIONS...
compare() {
	local file=$1 tag=$2
	shift 2
	local base="${file%.data}.$tag"

	if ! perf script report stackcollapse -i "$file" -- "$@" >"$base.perf.out" \
		2>"$base.perf.err"; then
		cat "$base.perf.err" >&2
		rp_cannot_run "perf script report stackcollapse failed (no Python scripting?)"
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

record_workload cg      -e cpu-clock -g -- -t 300
record_workload cg-fork -e cpu-clock -g -- -t 100 -f 20
record_workload flat    -e cpu-clock    -- -t 100
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
echo "run_collapse: readperf collapse agrees with perf's stackcollapse"
exit 0
