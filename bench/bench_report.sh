#!/bin/bash
# Benchmark: `readperf report` against `perf report --stdio --no-children`
# on one large recording (about 100 MB, call stacks, both cores).
#
#   bench/bench_report.sh [/path/to/readperf]      (default: build/readperf)
#
# Environment: RP_BENCH_MB (target size, default 100), RP_BENCH_RUNS (timed
# runs of each tool, default 3), RP_BENCH_DATA (use this perf.data instead of
# recording one), RP_BENCH_DIR (where to keep the recording; default a
# temporary directory, removed at the end).
#
# The runs alternate (readperf, perf, readperf, perf, ...) so that both see
# the same page cache and machine load; /usr/bin/time gives wall time and
# peak RSS; the medians and their ratios are printed.  Before timing, both
# tools print the same report in -t mode and the rows are compared: a
# benchmark of different answers means nothing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
RP=${1:-$root/build/readperf}
MB=${RP_BENCH_MB:-100}
RUNS=${RP_BENCH_RUNS:-3}
case "$RP" in /*) ;; *) RP=$PWD/$RP ;; esac
[ -x "$RP" ] || { echo "bench: $RP is not an executable (build first: make build)" >&2; exit 1; }
command -v perf >/dev/null || { echo "bench: perf is not installed (apt-get install linux-perf)" >&2; exit 1; }

if [ ! -x /usr/bin/time ]; then
	echo "bench: installing the 'time' package for /usr/bin/time"
	if [ "$(id -u)" = 0 ]; then apt-get install -y time || { apt-get update && apt-get install -y time; }
	else sudo apt-get install -y time; fi
fi

if [ -n "${RP_BENCH_DIR:-}" ]; then
	work=$RP_BENCH_DIR
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/rp-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
data=${RP_BENCH_DATA:-$work/bench.perf.data}

if [ -z "${RP_BENCH_DATA:-}" ]; then
	"${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o "$work/workload" \
		"$root/tests/workload/workload.c" -lm
	rec() {
		perf record -e cpu-clock -F max -g -o "$1" -- "$work/workload" -q -j 2 -t "$2" \
			>"$work/record.log" 2>&1 || { cat "$work/record.log" >&2; exit 1; }
	}
	# Calibrate: bytes per second of recording on this machine.
	rec "$work/calib.data" 1000
	rate=$(stat -c %s "$work/calib.data")
	rm -f "$work/calib.data"
	ms=$(( MB * 1024 * 1024 * 1000 / (rate > 0 ? rate : 1) ))
	echo "bench: recording ~${MB} MB ($((ms / 1000)) s of the workload on 2 cores, cpu-clock -F max -g)"
	rec "$data" "$ms"
fi
size=$(stat -c %s "$data")
echo "bench: $data: $((size / 1024 / 1024)) MB"

# Same answers first (not timed).
rows() { awk -v sep=';' -f "$root/tests/diff/perf_rows.awk"; }
"$RP" report --sort comm,dso,sym -t ';' "$data" 2>/dev/null | rows >"$work/rp.rows"
perf report -i "$data" --stdio --no-children --sort comm,dso,sym \
	-F overhead,sample,period,comm,dso,sym -t ';' -g none 2>/dev/null | rows >"$work/perf.rows"
if cmp -s "$work/rp.rows" "$work/perf.rows"; then
	same="yes ($(wc -l <"$work/perf.rows") rows)"
else
	same="NO: the reports differ (- perf, + readperf):"
	diff -u "$work/perf.rows" "$work/rp.rows" | head -30 || true
fi

rp_t=() rp_m=() pf_t=() pf_m=()
for i in $(seq 1 "$RUNS"); do
	/usr/bin/time -f '%e %M' -o "$work/t" "$RP" report "$data" >/dev/null 2>"$work/rp.err"
	read -r t m <"$work/t"; rp_t+=("$t"); rp_m+=("$m")
	/usr/bin/time -f '%e %M' -o "$work/t" perf report -i "$data" --stdio --no-children \
		>/dev/null 2>"$work/perf.err"
	read -r t m <"$work/t"; pf_t+=("$t"); pf_m+=("$m")
	echo "bench: run $i: readperf ${rp_t[-1]} s ${rp_m[-1]} KB, perf ${pf_t[-1]} s ${pf_m[-1]} KB"
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
rt=$(median "${rp_t[@]}"); rm_=$(median "${rp_m[@]}")
pt=$(median "${pf_t[@]}"); pm=$(median "${pf_m[@]}")
echo
printf '%-10s %12s %16s\n' "" "wall (s)" "peak RSS (MB)"
awk -v rt="$rt" -v pt="$pt" -v rm="$rm_" -v pm="$pm" 'BEGIN {
	printf "%-10s %12s %16.1f\n", "readperf", rt, rm / 1024
	printf "%-10s %12s %16.1f\n", "perf", pt, pm / 1024 }'
awk -v rt="$rt" -v pt="$pt" -v rm="$rm_" -v pm="$pm" 'BEGIN {
	printf "ratio readperf/perf: wall %.3f, peak RSS %.3f (medians of '"$RUNS"' runs)\n",
		(pt > 0 ? rt / pt : 0), (pm > 0 ? rm / pm : 0) }'
echo "same rows (-t mode): $same"
case "$same" in yes*) ;; *) exit 1 ;; esac
