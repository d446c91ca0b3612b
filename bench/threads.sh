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
# Environment:
#   RP_BENCH_DATA   recordings (default: fp and dwarf of gen.sh in
#                   $RP_BENCH_DIR, made when missing)
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

echo "| file | command | wall -j 1 | wall -j $N | speed-up | CPU -j 1 | CPU -j $N | RSS -j 1 | RSS -j $N | output |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
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
		printf '| %s | %s | %.2f s | %.2f s | %.2fx | %.2f s | %.2f s | %.0f MB | %.0f MB | %s |\n' \
			"$(basename "$f")" "$c" "$w1" "$wn" "$(awk -v a="$w1" -v b="$wn" 'BEGIN { print a / b }')" \
			"$c1" "$cn" "$m1" "$mn" "$same"
	done
done
