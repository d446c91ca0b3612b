#!/bin/bash
# JIT symbols from /tmp/perf-PID.map, against perf.
#
#   run_jitmap.sh /path/to/readperf
#
# tests/workload/jit_spin.c runs code it copied into anonymous executable
# memory and names it in /tmp/perf-PID.map, with the numbers written as
# the JVM writes them ("0x7f... 0xa name") and without the prefix.  For
# a recording of each, readperf report (--sort comm,dso,sym), the JIT
# rows' srclines (--sort sym,srcline: sym+OFFSET) and script must print
# what perf prints, and the JIT symbols must be there (jit_spin_one,
# jit_spin_two).  x86-64 only (the copied code).
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check, CI): then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_jitmap.sh /path/to/readperf}"
awkf=$here/perf_rows.awk
if [ "$(uname -m)" != x86_64 ]; then
	echo "$rp_name: SKIPPED: the JIT stand-in is x86-64 code" >&2
	exit 77
fi
require_perf
require_cc
rp_workdir rp-jitmap keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
"${CC:-cc}" -O1 -o jit_spin "$root/tests/workload/jit_spin.c" 2>cc.err || {
	cat cc.err >&2
	fail "cannot compile jit_spin"
	exit 1
}
maps=()
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	local rc=$?

	rm -f "${maps[@]}"
	(exit "$rc")
	rp_workdir_exit
}
trap cleanup EXIT

rows() { awk -v sep=';' -f "$awkf"; }

for style in 0x plain; do
	if ! perf record -q -e cpu-clock -o "$style.data" -- ./jit_spin "$style" 300 \
		>"$style.out" 2>"$style.err" || [ ! -s "$style.data" ]; then
		cat "$style.err" >&2
		rp_cannot_run "perf record of jit_spin failed"
	fi
	pid=$(tail -1 "$style.out")
	maps+=("/tmp/perf-$pid.map")
	[ -s "/tmp/perf-$pid.map" ] || fail "$style: jit_spin wrote no /tmp/perf-$pid.map"

	perf report -i "$style.data" --stdio --no-children --sort comm,dso,sym \
		-F overhead,sample,period,comm,dso,sym -t ';' -g none \
		>"$style.perf.txt" 2>"$style.perf.err" || fail "$style: perf report failed"
	"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' "$style.data" >"$style.rp.txt" 2>"$style.rp.err" ||
		fail "$style: readperf report failed"
	rows <"$style.perf.txt" >"$style.perf.rows"
	rows <"$style.rp.txt" >"$style.rp.rows"
	rp_same "$style report rows" "$style.perf.rows" "$style.rp.rows" &&
		echo "ok   $style report ($(grep -cv '^@event ' "$style.rp.rows") rows)"
	for sym in jit_spin_one jit_spin_two; do
		grep -q "\] $sym\$" "$style.rp.rows" || fail "$style: no $sym row in readperf's report"
	done

	# The srcline of a JIT map's rows: perf runs no addr2line on
	# /tmp/perf-PID.map (its dso__name() gives none) and shows sym+OFFSET.
	perf report -i "$style.data" --stdio --no-children --sort sym,srcline -g none -t ';' \
		2>/dev/null | grep 'jit_spin_' >"$style.perf.src" || fail "$style: perf printed no JIT srcline row"
	"$RP" report --no-children --sort sym,srcline -g none -t ';' "$style.data" 2>/dev/null |
		grep 'jit_spin_' >"$style.rp.src"
	rp_same "$style srcline rows" "$style.perf.src" "$style.rp.src" &&
		echo "ok   $style srcline rows ($(wc -l <"$style.rp.src") rows)"

	perf script -i "$style.data" >"$style.perf.script" 2>/dev/null ||
		fail "$style: perf script failed"
	"$RP" script "$style.data" >"$style.rp.script" 2>/dev/null ||
		fail "$style: readperf script failed"
	rp_same "$style script" "$style.perf.script" "$style.rp.script" &&
		echo "ok   $style script ($(wc -l <"$style.rp.script") lines)"
done

if [ $failures -ne 0 ]; then
	echo "$rp_name: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "$rp_name: JIT symbols of both perf map forms agree with perf"
exit 0
