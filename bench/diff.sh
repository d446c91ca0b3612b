#!/bin/bash
# readperf diff against perf diff on the same two recordings
# (docs/diff.md): the default output, -c ratio -p -F, and --sort comm,dso,sym;
# the best of N runs of each, wall seconds, and perf's time over
# readperf's.
#
#   bench/diff.sh build/readperf [OLD NEW]
#
# OLD and NEW default to $RP_BENCH_DIR/diff-old.data and diff-new.data
# (default /tmp/rp-bench), recorded when missing: cpu-clock every 50 us
# (-c 50000) with call stacks (-g), tests/workload/diffwork.c in its two
# modes for 10 s each (about 200 000 samples each).
# RP_BENCH_RUNS (default 3) sets N.  Needs perf.
set -u
rp=${1:?usage: bench/diff.sh /path/to/readperf [OLD NEW]}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${RP_BENCH_DIR:-/tmp/rp-bench}
old=${2:-$dir/diff-old.data}
new=${3:-$dir/diff-new.data}
runs=${RP_BENCH_RUNS:-3}

if [ ! -s "$old" ] || [ ! -s "$new" ]; then
	mkdir -p "$dir" || exit 1
	cc -O1 -g -fno-omit-frame-pointer -fno-inline -o "$dir/diffwork" \
		"$root/tests/workload/diffwork.c" -lm || exit 1
	for mode in old new; do
		f=$old
		[ $mode = new ] && f=$new
		perf record -q -e cpu-clock -c 50000 -g -o "$f" -- "$dir/diffwork" $mode 10000 \
			>/dev/null 2>&1 || {
			echo "diff.sh: perf record failed" >&2
			exit 1
		}
	done
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

echo "| what | perf diff (s) | readperf diff (s) | perf / readperf |"
echo "|---|---|---|---|"
for args in "" "-c ratio -p -F" "-s comm,dso,sym"; do
	# shellcheck disable=SC2086 # args is several words
	cmp -s <(perf diff $args "$old" "$new" 2>/dev/null) <("$rp" diff $args "$old" "$new" 2>/dev/null) ||
		echo "diff.sh: readperf and perf differ for '${args}'" >&2
	# shellcheck disable=SC2086
	p=$(best perf diff $args "$old" "$new")
	# shellcheck disable=SC2086
	r=$(best "$rp" diff $args "$old" "$new")
	echo "| ${args:-default} | $p | $r | $(awk -v p="$p" -v r="$r" 'BEGIN { printf "%.1fx", p / r }') |"
done
