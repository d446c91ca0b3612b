#!/bin/bash
# Generate the benchmark recordings with the installed perf.
#
#   bench/gen.sh            (files go to $RP_BENCH_DIR, default /tmp/rp-bench)
#
# Four recordings of the bundled workload (tests/workload/workload.c: checksum,
# recursive Fibonacci -- call stacks up to ~25 frames deep --, insertion sort,
# libc and libm work, a fork and an exec child) running on both cores:
#
#   name     perf record options                         size at scale 1
#   fp       -e cpu-clock -F 50000 -g                    ~600 MB
#   nocg     -e cpu-clock -F 50000                       ~130 MB
#   sys      -e cpu-clock -F 50000 -g -a                 ~180 MB
#   dwarf    -e cpu-clock -F 1000 --call-graph dwarf     ~170 MB
#
# The size is set by how long the workload runs (a fixed number of seconds per
# file times RP_BENCH_SCALE), so the same command gives files of the same
# shape; the exact size depends on how much CPU the workload got (cpu-clock
# samples only while it runs).  A fixed -F rather than -F max: the kernel
# lowers perf_event_max_sample_rate on its own when interrupts take long,
# which would make "max" differ between runs.
#
# The file name carries the nominal size: fp-600M.data at scale 1,
# fp-60M.data at RP_BENCH_SCALE=0.1.  Files that exist are kept.
#
# Environment:
#   RP_BENCH_DIR    output directory (default /tmp/rp-bench; not inside the
#                   repository)
#   RP_BENCH_SCALE  size factor (default 1; 0.1 for a quick run)
#   RP_BENCH_FILES  which recordings (default "fp nocg sys dwarf")
#
# Prints, one per line, the paths of the files it made or found.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
DIR=${RP_BENCH_DIR:-/tmp/rp-bench}
SCALE=${RP_BENCH_SCALE:-1}
FILES=${RP_BENCH_FILES:-fp nocg sys dwarf}

command -v perf >/dev/null || { echo "gen: perf is not installed (apt-get install linux-perf)" >&2; exit 1; }
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
case "$DIR/" in "$root"/*) echo "gen: $DIR is inside the repository; choose another RP_BENCH_DIR" >&2; exit 1 ;; esac

wl=$DIR/workload
if [ ! -x "$wl" ] || [ "$root/tests/workload/workload.c" -nt "$wl" ]; then
	"${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o "$wl" \
		"$root/tests/workload/workload.c" -lm
fi

# name  nominal-MB  workload-seconds-at-scale-1  perf-options
# (seconds measured on the 2-core reference machine of RESULTS.md)
spec() {
	case "$1" in
	fp)    echo "600 50 -e cpu-clock -F 50000 -g" ;;
	nocg)  echo "130 30 -e cpu-clock -F 50000" ;;
	sys)   echo "180 15 -e cpu-clock -F 50000 -g -a" ;;
	dwarf) echo "170 10 -e cpu-clock -F 1000 --call-graph dwarf" ;;
	*) echo "gen: unknown recording '$1' (fp nocg sys dwarf)" >&2; return 1 ;;
	esac
}

for name in $FILES; do
	read -r mb secs opts <<<"$(spec "$name")"
	mb=$(awk -v m="$mb" -v s="$SCALE" 'BEGIN { v = m * s; printf "%d", (v < 1 ? 1 : v + 0.5) }')
	ms=$(awk -v t="$secs" -v s="$SCALE" 'BEGIN { v = t * s * 1000; printf "%d", (v < 100 ? 100 : v) }')
	out=$DIR/$name-${mb}M.data
	if [ -s "$out" ]; then
		echo "$out"
		continue
	fi
	# shellcheck disable=SC2086 # opts is a list of options
	cmd=(perf record $opts -o "$out.tmp" -- "$wl" -q -j 2 -t "$ms")
	echo "gen: ${cmd[*]}" >&2
	if ! "${cmd[@]}" >"$DIR/$name.log" 2>&1; then
		cat "$DIR/$name.log" >&2
		rm -f "$out.tmp"
		exit 1
	fi
	mv "$out.tmp" "$out"
	echo "${cmd[*]}" | sed "s|$out.tmp|$out|" >"$out.cmd"
	echo "gen: $out: $(( $(stat -c %s "$out") / 1024 / 1024 )) MB" >&2
	echo "$out"
done
