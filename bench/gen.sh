#!/bin/bash
# Generate the benchmark recordings with the installed perf.
#
#   bench/gen.sh            (files go to $RP_BENCH_DIR, default /tmp/rp-bench)
#
# Four recordings of bench/workload.c (a fixed amount of CPU work in two
# processes, call stacks 10..40 frames deep through a ring of eight functions,
# leaves in its own code, libc and libm), one process per core:
#
#   name     perf record options                         size at scale 1
#   fp       -e cpu-clock -F 50000 -g                    ~600 MB
#   nocg     -e cpu-clock -F 50000                       ~130 MB
#   sys      -e cpu-clock -F 50000 -g -a                 ~180 MB
#   dwarf    -e cpu-clock -F 2000 --call-graph dwarf     ~170 MB
#
# The size is set by the amount of work (units per process, times
# RP_BENCH_SCALE), not by a duration: cpu-clock samples only while the task
# runs, so the same command gives about the same number of samples however
# busy the machine is.  sys is the exception: system-wide cpu-clock samples
# every CPU, busy or idle, so its size follows the wall time (12 s at scale
# 1), and it holds whatever else ran on the machine.
# A fixed -F rather than -F max: the kernel lowers perf_event_max_sample_rate
# on its own when interrupts take long, which would make "max" differ
# between runs.
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
FILES=${RP_BENCH_FILES:-fp nocg sys dwarf cxx}

command -v perf >/dev/null || { echo "gen: perf is not installed (apt-get install linux-perf)" >&2; exit 1; }
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
case "$DIR/" in "$root"/*) echo "gen: $DIR is inside the repository; choose another RP_BENCH_DIR" >&2; exit 1 ;; esac

wl=$DIR/bench-workload
if [ ! -x "$wl" ] || [ "$here/workload.c" -nt "$wl" ]; then
	"${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o "$wl" "$here/workload.c" -lm
fi
# The C++ program for cxx: -O2 -fomit-frame-pointer (only DWARF CFI walks
# its stacks), inlined templates, threads, a shared library of its own.
cxx=$DIR/bench-stacks
src=$root/tests/workload
if [ ! -x "$cxx" ] || [ "$src/stacks.cc" -nt "$cxx" ] || [ "$src/stacks_lib.c" -nt "$cxx" ]; then
	"${CC:-cc}" -O2 -g -fomit-frame-pointer -fPIC -shared -o "$DIR/libstacks.so" "$src/stacks_lib.c"
	"${CXX:-c++}" -O2 -g -fomit-frame-pointer -pthread -o "$cxx" "$src/stacks.cc" \
		-L"$DIR" -lstacks -Wl,-rpath,'$ORIGIN'
fi

# name  nominal-MB  units-per-process-at-scale-1 (or NNNms: wall time, for
# the system-wide one, where every CPU is sampled busy or idle)  perf-options
# (units measured on the 2-core reference machine of RESULTS.md)
spec() {
	case "$1" in
	fp)    echo "600 87000 -e cpu-clock -F 50000 -g" ;;
	nocg)  echo "130 139000 -e cpu-clock -F 50000" ;;
	sys)   echo "180 12000ms -e cpu-clock -F 50000 -g -a" ;;
	dwarf) echo "170 57000 -e cpu-clock -F 2000 --call-graph dwarf" ;;
	cxx)   echo "200 3100ms -e cpu-clock --call-graph dwarf" ;;
	*) echo "gen: unknown recording '$1' (fp nocg sys dwarf cxx)" >&2; return 1 ;;
	esac
}

for name in $FILES; do
	read -r mb units opts <<<"$(spec "$name")"
	mb=$(awk -v m="$mb" -v s="$SCALE" 'BEGIN { v = m * s; printf "%d", (v < 1 ? 1 : v + 0.5) }')
	prog=$wl
	case "$units" in
	*ms) t=$(awk -v u="${units%ms}" -v s="$SCALE" 'BEGIN { v = u * s; printf "%d", (v < 100 ? 100 : v) }')
	     wlargs=(-j 2 -n 100000000 -t "$t")
	     # the C++ program runs for a time, two threads
	     [ "$name" = cxx ] && { prog=$cxx; wlargs=(-t "$t" -j 2); } ;;
	*)   n=$(awk -v u="$units" -v s="$SCALE" 'BEGIN { v = u * s; printf "%d", (v < 10 ? 10 : v) }')
	     wlargs=(-j 2 -n "$n") ;;
	esac
	out=$DIR/$name-${mb}M.data
	if [ -s "$out" ]; then
		echo "$out"
		continue
	fi
	# shellcheck disable=SC2086 # opts is a list of options
	cmd=(perf record $opts -o "$out.tmp" -- "$prog" "${wlargs[@]}")
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
