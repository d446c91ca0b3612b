#!/bin/bash
# The unwinder's cost per sample: every sample of each --call-graph dwarf
# recording walked by the fast walker and by libdwfl alone
# (tests/tools/rp-unwind-check: each mode on an unwinder of its own, the
# best of RUNS walks of each sample, CPU time of the walking thread), and
# the two results compared.
#
#   bench/unwind.sh [BUILD_DIR]   (default: build; needs its tests built)
#
# Environment: RP_BENCH_DIR (default /tmp/rp-bench), RP_BENCH_FILES
# (default "cxx dwarf": cxx-200M.data and dwarf-170M.data there),
# RP_BENCH_RUNS (default 3).
set -u
B=${1:-build}
check=$B/tests/rp-unwind-check
[ -x "$check" ] || { echo "unwind.sh: $check missing (cmake --build $B)" >&2; exit 1; }
dir=${RP_BENCH_DIR:-/tmp/rp-bench}
runs=${RP_BENCH_RUNS:-3}
echo "| file | samples | frames/sample | fast walks | rows asked of libdw | fast us/sample | libdwfl us/sample | ratio | frames differ |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in ${RP_BENCH_FILES:-cxx dwarf}; do
	data=$(ls "$dir/$f"-*.data 2>/dev/null | head -1)
	[ -n "$data" ] || { echo "unwind.sh: no $f recording in $dir (bench/gen.sh)" >&2; continue; }
	line=$("$check" "$data" "$runs")
	set -- $line
	declare -A v=()
	while [ $# -ge 2 ]; do v[$1]=$2; shift 2; done
	s=${v[samples]}
	awk -v f="$(basename "$data")" -v s="$s" -v fr="${v[frames]}" -v fa="${v[fast]}" \
		-v m="${v[rule_misses]}" -v nf="${v[ns_fast]}" -v nl="${v[ns_libdwfl]}" \
		-v d="${v[differ]}" -v r="$runs" 'BEGIN {
		printf "| %s | %d | %.1f | %.1f %% | %d | %.2f | %.2f | %.3f | %d |\n",
			f, s, fr / s, 100 * fa / r / s, m, nf / 1000, nl / 1000, nf / nl, d }'
	unset v
done
