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

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_dump_stats.sh /path/to/readperf}"
corpus=$(rp_corpus_dir "${RP_CORPUS:-}")
require_perf
rp_workdir rp-dump keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1

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
exit 0
