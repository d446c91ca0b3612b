#!/bin/bash
# readperf annotate against perf annotate --stdio on the same recording
# (docs/annotate.md): every function with samples, and one function
# (-s checksum); the best of N runs of each, wall seconds (perf's objdump
# children included), and perf's time over readperf's.
#
#   bench/annotate.sh build/readperf [FILE]
#
# FILE defaults to $RP_BENCH_DIR/annotate.data (default /tmp/rp-bench),
# recorded when missing: cpu-clock every 50 us (-c 50000), the bundled
# workload (tests/workload) with two workers for 10 s (about 400 000
# samples, 13 MB).
# RP_BENCH_RUNS (default 3) sets N.  Needs perf and objdump.
set -u
rp=${1:?usage: bench/annotate.sh /path/to/readperf [FILE]}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${RP_BENCH_DIR:-/tmp/rp-bench}
file=${2:-$dir/annotate.data}
runs=${RP_BENCH_RUNS:-3}

if [ ! -s "$file" ]; then
	mkdir -p "$dir" || exit 1
	cc -O1 -g -fno-omit-frame-pointer -fno-inline -o "$dir/annotate-workload" \
		"$root/tests/workload/workload.c" -lm || exit 1
	perf record -q -e cpu-clock -c 50000 -o "$file" -- \
		"$dir/annotate-workload" -q -t 10000 -j 2 >/dev/null 2>&1 || {
		echo "annotate.sh: perf record failed" >&2
		exit 1
	}
fi

# best CMD...: the least wall time of $runs runs, in seconds.
best() {
	local b="" t
	for _ in $(seq "$runs"); do
		t=$( { TIMEFORMAT="%R"; time "$@" >/dev/null 2>&1; } 2>&1)
		if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$t
		fi
	done
	echo "$b"
}

echo "| what | perf annotate --stdio (s) | readperf annotate (s) | perf / readperf |"
echo "|---|---|---|---|"
for args in "" "-s checksum"; do
	# shellcheck disable=SC2086 # args is several words
	p=$(best perf annotate --stdio -i "$file" $args)
	# shellcheck disable=SC2086
	r=$(best "$rp" annotate -i "$file" $args)
	echo "| ${args:-every function} | $p | $r | $(awk -v p="$p" -v r="$r" 'BEGIN { printf "%.1fx", p / r }') |"
done
