#!/bin/bash
# Golden test: readperf on the small perf.data files committed here, against
# what perf printed for them when they were recorded (see regen.sh).  Only
# figures that do not depend on the binaries of the machine are checked:
#   readperf report --sort comm -t ';'  vs NAME.comm.expected
#   readperf report --sort dso -t ';'   vs NAME.dso.expected
#   readperf csv (stat.csv)             vs NAME.stats.expected
# plus: `readperf report FILE` exits 0 and prints something.
#
#   run_golden.sh /path/to/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_golden.sh /path/to/readperf}"
rows_awk=$root/tests/diff/perf_rows.awk
stats_awk=$here/stats_rows.awk
rp_workdir rp-golden keep-on-failure
work=$rp_work_dir
checked=0

# same TAG EXPECTED ACTUAL
same() {
	checked=$((checked + 1))
	rp_same "$1" "$2" "$3" && echo "ok   $1"
}

shopt -s nullglob
files=("$here"/*.perf.data)
[ ${#files[@]} -gt 0 ] || { echo "run_golden: no golden files in $here" >&2; exit 1; }

for f in "${files[@]}"; do
	name=${f%.perf.data}
	short=$(basename "$name")
	out=$work/$short
	mkdir -p "$out"

	"$RP" report "$f" >"$out/report.txt" 2>"$out/report.err"
	rc=$?
	checked=$((checked + 1))
	if [ $rc -ne 0 ] || [ ! -s "$out/report.txt" ]; then
		fail "$short: readperf report exit status $rc, $(wc -c <"$out/report.txt") bytes of output"
		head -3 "$out/report.err" >&2
	else
		echo "ok   $short: readperf report"
	fi

	for key in comm dso; do
		[ -f "$name.$key.expected" ] || { fail "$short: $name.$key.expected missing (run regen.sh)"; continue; }
		"$RP" report --no-children -g none --sort "$key" -F "overhead,sample,period,$key" -t ';' "$f" >"$out/$key.txt" 2>"$out/$key.err"
		rc=$?
		if [ $rc -ne 0 ]; then
			fail "$short --sort $key: readperf exit status $rc"
			head -3 "$out/$key.err" >&2
			continue
		fi
		awk -v sep=';' -f "$rows_awk" <"$out/$key.txt" >"$out/$key.rows"
		same "$short --sort $key" "$name.$key.expected" "$out/$key.rows"
	done

	if [ -f "$name.stats.expected" ]; then
		"$RP" csv -o "$out/csv" "$f" >"$out/csv.out" 2>"$out/csv.err"
		rc=$?
		if [ $rc -ne 0 ] || [ ! -f "$out/csv/stat.csv" ]; then
			fail "$short: readperf csv exit status $rc, stat.csv $( [ -f "$out/csv/stat.csv" ] && echo present || echo missing)"
			head -3 "$out/csv.err" >&2
		else
			awk -f "$stats_awk" "$out/csv/stat.csv" | LC_ALL=C sort >"$out/stats.rows"
			same "$short record counts (stat.csv)" "$name.stats.expected" "$out/stats.rows"
		fi
	fi
done

if [ $failures -ne 0 ]; then
	echo "run_golden: $failures of $checked checks failed; outputs kept in $work" >&2
	exit 1
fi
echo "run_golden: all $checked checks agree with perf"
