#!/bin/bash
# readperf with -j 1 against -j N on the same file, runs alternating, and
# the outputs compared (they must be equal byte for byte).
#
#   bench/threads.sh build/readperf [N]      (N default 2)
#
# For each recording and command: RUNS runs of each thread count, one
# after the other (1, N, 1, N, ...), timed with /usr/bin/time; the
# medians of wall time, CPU time (user + system: on a machine shared with
# other work, the one figure that does not depend on the others' load)
# and peak RSS, and the speed-up (wall -j 1 / wall -j N).
#
# With perf installed, one more run of -j N under `perf record -e
# cpu-clock` gives each thread's share of the samples: the busiest
# thread's CPU time (its share of the median CPU time) is the critical
# path, and max(busiest, CPU / N) the wall time -j N takes with N free
# cores ("free-core estimate", and the speed-up it gives against CPU
# -j 1): what the wall figures show only on a machine nobody else uses.
#
# Environment:
#   RP_BENCH_DATA   recordings (default: fp and dwarf of gen.sh in
#                   $RP_BENCH_DIR, made when missing, and fpdir: the
#                   workload of fp under `perf record --threads`, a
#                   directory of one data.N file per CPU, ~250 MB, made
#                   here when missing; RP_BENCH_NODIR=1 leaves it out)
#   RP_BENCH_DIR    as gen.sh (default /tmp/rp-bench)
#   RP_BENCH_RUNS   runs of each thread count (default 5)
#   RP_BENCH_CMDS   rows (default "report graph children script collapse"):
#                   report = rows (-g none), graph = rows with graphs
#                   (--no-children), children = perf's default view
#
# The table (Markdown) is printed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
RP=${1:?usage: bench/threads.sh /path/to/readperf [N]}
case "$RP" in /*) ;; *) RP=$PWD/$RP ;; esac
N=${2:-2}
RUNS=${RP_BENCH_RUNS:-5}
CMDS=${RP_BENCH_CMDS:-report graph children script collapse}
export RP_BENCH_DIR=${RP_BENCH_DIR:-/tmp/rp-bench}
[ -x /usr/bin/time ] || { echo "threads: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

if [ -n "${RP_BENCH_DATA:-}" ]; then
	read -r -a files <<<"$RP_BENCH_DATA"
else
	mapfile -t files < <(RP_BENCH_FILES="fp dwarf" "$here/gen.sh")
	dir=$RP_BENCH_DIR/fpdir-250M.data
	if [ -z "${RP_BENCH_NODIR:-}" ] && [ ! -d "$dir" ]; then
		# gen.sh built the workload; half of fp's work.
		echo "threads: perf record --threads -o $dir" >&2
		perf record --threads -e cpu-clock -F 50000 -g -o "$dir.tmp" -- \
			"$RP_BENCH_DIR/bench-workload" -j 2 -n 43000 >"$RP_BENCH_DIR/fpdir.log" 2>&1 ||
			{ cat "$RP_BENCH_DIR/fpdir.log" >&2; rm -rf "$dir.tmp"; exit 1; }
		mv "$dir.tmp" "$dir"
	fi
	[ -n "${RP_BENCH_NODIR:-}" ] || files+=("$dir")
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-threads.XXXXXX")
trap 'rm -rf "$work"' EXIT

args() { # command
	case "$1" in
	report)   echo "report --no-children -g none" ;;
	graph)    echo "report --no-children" ;;
	children) echo "report --children" ;;
	script)   echo "script" ;;
	collapse) echo "collapse" ;;
	*) echo "threads: unknown command '$1'" >&2; exit 1 ;;
	esac
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# busiest PERF-DATA: the largest share of samples one thread has.
busiest() {
	perf script -i "$1" -F tid 2>/dev/null | sort | uniq -c |
		awk '{ n += $1; if ($1 > m) m = $1 } END { print (n ? m / n : 0) }'
}
have_perf=0
command -v perf >/dev/null && perf record -q -e cpu-clock -o "$work/probe.data" true \
	>/dev/null 2>&1 && have_perf=1

echo "| file | command | wall -j 1 | wall -j $N | speed-up | CPU -j 1 | CPU -j $N | busiest thread -j $N | free-core estimate | RSS -j 1 | RSS -j $N | output |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for f in "${files[@]}"; do
	for c in $CMDS; do
		read -r -a a <<<"$(args "$c")"
		"$RP" "${a[@]}" -j 1 "$f" >"$work/out.1" 2>/dev/null
		"$RP" "${a[@]}" -j "$N" "$f" >"$work/out.N" 2>/dev/null
		same=identical
		cmp -s "$work/out.1" "$work/out.N" || same=DIFFERENT
		rm -f "$work/out.1" "$work/out.N" "$work"/t.*
		for ((r = 0; r < RUNS; r++)); do
			for j in 1 "$N"; do
				/usr/bin/time -f '%e %U %S %M' -a -o "$work/t.$j" \
					"$RP" "${a[@]}" -j "$j" "$f" >/dev/null 2>&1
			done
		done
		for j in 1 "$N"; do
			read -r "w$j" <<<"$(awk '{ print $1 }' "$work/t.$j" | median)"
			read -r "c$j" <<<"$(awk '{ print $2 + $3 }' "$work/t.$j" | median)"
			read -r "m$j" <<<"$(awk '{ print $4 / 1024 }' "$work/t.$j" | median)"
		done
		w1=${w1:?}; c1=${c1:?}; m1=${m1:?}
		wn=$(eval echo "\$w$N"); cn=$(eval echo "\$c$N"); mn=$(eval echo "\$m$N")
		crit="n/a"; est="n/a"
		if [ "$have_perf" = 1 ] && perf record -q -e cpu-clock -F 2000 -o "$work/thr.data" \
			"$RP" "${a[@]}" -j "$N" "$f" >/dev/null 2>&1; then
			share=$(busiest "$work/thr.data")
			crit=$(awk -v s="$share" -v c="$cn" 'BEGIN { printf "%.2f s", s * c }')
			est=$(awk -v s="$share" -v c="$cn" -v n="$N" -v c1="$c1" \
				'BEGIN { t = s * c; if (c / n > t) t = c / n; printf "%.2f s (%.2fx)", t, c1 / t }')
			rm -f "$work/thr.data"
		fi
		printf '| %s | %s | %.2f s | %.2f s | %.2fx | %.2f s | %.2f s | %s | %s | %.0f MB | %.0f MB | %s |\n' \
			"$(basename "$f")" "$c" "$w1" "$wn" "$(awk -v a="$w1" -v b="$wn" 'BEGIN { print a / b }')" \
			"$c1" "$cn" "$crit" "$est" "$m1" "$mn" "$same"
	done
done
