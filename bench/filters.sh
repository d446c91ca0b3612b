#!/bin/bash
# The cost of perf's filters (docs/filters.md): each readperf command that
# processes samples, unfiltered and with each filter, on one system-wide
# recording with call stacks; the best of N runs (CPU seconds, user +
# system: steadier than wall time on a shared machine; one
# thread), and the filtered run's time as a share of the unfiltered one.
#
#   bench/filters.sh build/readperf [FILE]
#
# FILE defaults to $RP_BENCH_DIR/filters.data (default /tmp/rp-bench),
# recorded when missing: cpu-clock at 10 kHz, -a -g, the bundled workload
# (tests/workload) with two workers for 6 s (about 120 000 samples).
# RP_BENCH_RUNS (default 5) sets N.  Needs perf (and root) to record.
set -u
rp=${1:?usage: bench/filters.sh /path/to/readperf [FILE]}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${RP_BENCH_DIR:-/tmp/rp-bench}
file=${2:-$dir/filters.data}
runs=${RP_BENCH_RUNS:-5}

if [ ! -s "$file" ]; then
	mkdir -p "$dir" || exit 1
	cc -O1 -g -fno-omit-frame-pointer -fno-inline -o "$dir/filters-workload" \
		"$root/tests/workload/workload.c" -lm || exit 1
	perf record -q -e cpu-clock -c 100000 -a -g -o "$file" -- \
		"$dir/filters-workload" -q -t 6000 -j 2 >/dev/null 2>&1 || {
		echo "filters.sh: perf record failed" >&2
		exit 1
	}
fi

# best CMD...: the least wall time of $runs runs, in seconds.
best() {
	local b="" t
	for _ in $(seq "$runs"); do
		t=$( { TIMEFORMAT="%U %S"; time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ printf "%.3f\n", $1 + $2 }')
		if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$t
		fi
	done
	echo "$b"
}

t0=$(perf script -i "$file" -F time 2>/dev/null | awk 'NF { sub(/:$/, "", $1); print $1; exit }')
mid=$(awk -v t="$t0" 'BEGIN { printf "%.6f\n", t + 3 }')
# The last two keep every sample: the pure cost of the test.
filters=("" "--comms workload" "--pid 1" "--dsos libc.so.6" "-S checksum" "-C 1"
	 "--time 0%-50%" "--time ,$mid" "--time 0%-100%" "-C 0-1")

echo "| command | filter | seconds | vs unfiltered |"
echo "|---|---|---|---|"
for cmd in "report -g none --no-children" "report --children" "script" "collapse"; do
	base=""
	for f in "${filters[@]}"; do
		# shellcheck disable=SC2086 # cmd and f are several words
		t=$(best "$rp" $cmd -j 1 $f "$file")
		[ -z "$base" ] && base=$t
		pct=$(awk -v t="$t" -v b="$base" 'BEGIN { printf "%+.0f %%", (t / b - 1) * 100 }')
		echo "| $cmd | ${f:-(none)} | $t | $pct |"
	done
done
