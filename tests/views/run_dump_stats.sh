#!/bin/bash
# readperf dump / stats against perf report -D / --stats (perf 6.1).
#
#   run_dump_stats.sh /path/to/readperf
#
# 1. Records small files now (cpu-clock; -g; -a; --switch-events;
#    sched:sched_switch; -z; two events) and compares `readperf dump` with
#    `perf report -D` and `readperf stats` with `perf report --stats`, line
#    for line, whole output.
# 2. On the corpus (../shared/corpus beside the repository, or
#    $RP_CORPUS): every file-mode file whose .rc says perf -D worked, the
#    tail of `readperf dump` against its .dump.txt (perf's startup warnings
#    dropped) and `readperf stats` against its .stats.txt.  perf names the
#    vDSO of old files after a temporary copy (/tmp/perf-vdso.so-XXXXXX);
#    those lines are compared as "[vdso]" (docs/dump.md).
#
# Without perf (or when it cannot record) the test skips (77), unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

RP=${1:?usage: run_dump_stats.sh /path/to/readperf}
case $RP in /*) ;; *) RP=$PWD/$RP ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${RP_CORPUS:-$root/../shared/corpus}
# A checkout elsewhere (a CI clone) finds the corpus where this machine keeps it.
[ -d "$corpus" ] || [ ! -d /work/shared/corpus ] || corpus=/work/shared/corpus
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-dump.XXXXXX")
failures=0

skip_or_fail() {
	echo "run_dump_stats: $*" >&2
	rm -rf "$work"
	if [ "${RP_REQUIRE_PERF:-0}" = 1 ]; then
		echo "run_dump_stats: RP_REQUIRE_PERF=1: failing instead of skipping" >&2
		exit 1
	fi
	exit 77
}

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

command -v perf >/dev/null 2>&1 || skip_or_fail "perf is not installed"
cd "$work" || exit 1
perf record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 ||
	skip_or_fail "perf cannot record here"

loop='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
rec() {
	local name=$1
	shift
	perf record -q -o "$name.data" "$@" >/dev/null 2>&1 ||
		fail "perf record $* failed"
}
rec basic -e cpu-clock -- sh -c "$loop; ls / >/dev/null"
rec callgraph -e cpu-clock -g -- sh -c "$loop"
rec syswide -e cpu-clock -a -- sleep 0.2
rec switches -e cpu-clock --switch-events -- sh -c "sleep 0.02; $loop"
rec tracepoint -e sched:sched_switch -- sh -c 'sleep 0.02; sleep 0.01'
rec zstd -z -e cpu-clock -- sh -c "$loop"
rec twoevents -e cpu-clock -e task-clock -- sh -c "$loop"

for f in *.data; do
	[ "$f" = probe.data ] && continue
	perf report -D -i "$f" >"$f.perf.dump" 2>/dev/null
	"$RP" dump "$f" >"$f.rp.dump" 2>"$f.rp.err" || fail "readperf dump $f exited $?"
	cmp -s "$f.perf.dump" "$f.rp.dump" ||
		fail "dump $f differs: $(diff "$f.perf.dump" "$f.rp.dump" | head -5)"
	perf report --stats -i "$f" >"$f.perf.stats" 2>/dev/null
	"$RP" stats "$f" >"$f.rp.stats" 2>&1 || fail "readperf stats $f exited $?"
	cmp -s "$f.perf.stats" "$f.rp.stats" ||
		fail "stats $f differs: $(diff "$f.perf.stats" "$f.rp.stats" | head -5)"
done

ncorp=0
if [ -d "$corpus" ]; then
	for t in "$corpus"/*/*.dump.txt; do
		[ -s "$t" ] || continue
		f=${t%.dump.txt}
		dir=$(dirname "$f")
		base=$(basename "$f")
		grep -q 'dump=0' "$f.rc" 2>/dev/null || continue
		# perf stopped on a damaged file (its error is in the capture).
		grep -q '^Error:' "$t" && continue
		# File mode only, until the reader takes pipe streams.
		[ "$(head -c 8 "$f")" = PERFILE2 ] || continue
		[ "$(od -An -tu8 -j8 -N8 "$f" | tr -d ' ')" = 104 ] || continue
		ncorp=$((ncorp + 1))
		# perf's warnings about restricted kernel maps come first.
		sed '/^Kernel address maps/,/^Samples in kernel modules/d' "$t" |
			sed '/./,$!d' | sed '1d' >"$work/expect" # it may start mid-line
		n=$(wc -l <"$work/expect")
		(cd "$dir" && "$RP" dump "$base" 2>/dev/null) | tail -n "$n" >"$work/got"
		sed -i 's|/tmp/perf-vdso\.so-[A-Za-z0-9]*|[vdso]|' "$work/expect" "$work/got"
		cmp -s "$work/expect" "$work/got" ||
			fail "corpus dump $base: $(diff "$work/expect" "$work/got" | head -4)"
		if [ -s "$f.stats.txt" ]; then
			# The saved .stats.txt is perf -D's closing block, which has no
			# per-event LOST_SAMPLES lines; perf report --stats (and
			# readperf stats) print them under "<event> stats:".
			(cd "$dir" && "$RP" stats "$base" 2>/dev/null) | tail -n +2 |
				awk '/ stats:$/ { ev = 1 } ev && /^ *LOST_SAMPLES events: *[0-9]+$/ { next } { print }' >"$work/got"
			cmp -s "$f.stats.txt" "$work/got" ||
				fail "corpus stats $base: $(diff "$f.stats.txt" "$work/got" | head -4)"
		fi
	done
	[ "$ncorp" -gt 0 ] || fail "no corpus file compared under $corpus"
else
	echo "run_dump_stats: no corpus at $corpus; fresh recordings only" >&2
fi

if [ "$failures" -gt 0 ]; then
	echo "run_dump_stats: $failures failure(s); files kept in $work" >&2
	exit 1
fi
echo "run_dump_stats: fresh recordings and $ncorp corpus files agree with perf"
rm -rf "$work"
exit 0
