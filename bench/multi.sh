#!/bin/bash
# Several recordings at once (docs/multi.md): `readperf collapse` and
# `readperf pprof` of N system-wide recordings with call stacks, read one
# at a time (-j 1) and in parallel (-j 0: one per CPU), against perf's way
# for the folded stacks (perf script report stackcollapse, once per file,
# unmerged: a lower bound of perf's cost) and against converting each file
# alone then merging with `go tool pprof -proto` for the profile.  Wall
# seconds, CPU seconds and peak memory: the medians of N runs under
# /usr/bin/time.
#
#   bench/multi.sh build/readperf
#
# Recordings: $RP_BENCH_DIR/multi/perf.data.1..$RP_BENCH_FILES (default 4),
# each `perf record -a -g -F 4999` of the bundled workload (two workers,
# 4 s; about 5 MB), made when missing.  RP_BENCH_RUNS (default 5).  Needs perf (and
# root) to record; go for the pprof yardstick.
set -u
rp=${1:?usage: bench/multi.sh /path/to/readperf}
case "$rp" in /*) ;; *) rp=$PWD/$rp ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${RP_BENCH_DIR:-/tmp/rp-bench}/multi
nfiles=${RP_BENCH_FILES:-4}
runs=${RP_BENCH_RUNS:-5}

mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
if [ ! -x workload ]; then
	cc -O1 -g -fno-omit-frame-pointer -fno-inline -o workload \
		"$root/tests/workload/workload.c" -lm || exit 1
fi
for i in $(seq "$nfiles"); do
	[ -s "perf.data.$i" ] && continue
	perf record -q -e cpu-clock -F 4999 -a -g -o "perf.data.$i" -- \
		./workload -q -t 4000 -j 2 >/dev/null 2>&1 ||
		{ echo "multi.sh: perf record failed" >&2; exit 1; }
done
files=()
for i in $(seq "$nfiles"); do files+=("perf.data.$i"); done
export PPROF_TMPDIR=$dir

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# measure NAME CMD...: one table row (medians of the runs).
measure() {
	local name=$1
	shift
	rm -f "$dir/times"
	for _ in $(seq "$runs"); do
		/usr/bin/time -f "%e %U %S %M" -a -o "$dir/times" "$@" >/dev/null 2>&1
	done
	printf '| %s | %s | %.2f | %.1f |\n' "$name" \
		"$(awk '{ print $1 }' "$dir/times" | median)" \
		"$(awk '{ print $2 + $3 }' "$dir/times" | median)" \
		"$(awk '{ print $4 / 1024 }' "$dir/times" | median)"
}

echo "$nfiles recordings, $(du -ch "${files[@]}" | tail -1 | cut -f1) in all, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| command | wall s (median) | cpu s | peak MiB |"
echo "|---|---|---|---|"
measure "readperf collapse -j 1 (merged)" "$rp" collapse -j 1 "${files[@]}"
measure "readperf collapse -j 0 (merged)" "$rp" collapse -j 0 "${files[@]}"
measure "perf script report stackcollapse, each file" \
	sh -c 'for f in "$@"; do perf script report stackcollapse -i "$f"; done' sh "${files[@]}"
measure "readperf pprof -j 1 (merged)" "$rp" pprof -j 1 -o merged.pb.gz "${files[@]}"
measure "readperf pprof -j 0 (merged)" "$rp" pprof -j 0 -o merged.pb.gz "${files[@]}"
if command -v go >/dev/null 2>&1; then
	measure "readperf pprof each + go tool pprof -proto merge" sh -c '
		rp=$1; shift; n=0; list=""
		for f in "$@"; do n=$((n + 1)); "$rp" pprof -j 1 -o "one.$n.pb.gz" "$f" || exit 1
			list="$list one.$n.pb.gz"; done
		go tool pprof -proto $list >gomerged.pb.gz 2>/dev/null' sh "$rp" "${files[@]}"
fi
