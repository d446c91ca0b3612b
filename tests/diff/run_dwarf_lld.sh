#!/bin/bash
# Differential test of DWARF call stacks of programs linked by ld.lld,
# against the installed perf, on programs built and recorded now: the C++
# program of tests/workload/stacks.cc with its shared library, and the C
# workload, both linked with -fuse-ld=lld.
#
#   run_dwarf_lld.sh /path/to/readperf
#
# lld puts a segment at an address a page past its file offset and lets
# segments share a page, so the loader maps the executable segment from
# the page that also holds the end of the read-only one (or from offset 0
# in a small program): the load bias the unwinder looks CFI up with comes
# from the segment that starts in the map's first page, with the map's
# PROT_EXEC (docs/unwind.md, "Load bias").  With start - pgoff instead,
# every walk above the first frame read the wrong CFI (0.03-0.15 % of the
# stacks equal to perf's).
# lld also writes no CFI for .plt: perf 6.1's libunwind steps over a
# sample in a PLT entry's first instruction by its code (the return
# address at rsp), and readperf does the same.
# Checks: the binaries have the layout the test needs (an executable
# PT_LOAD whose address is not its file offset); samples in the PLT that
# perf walks on from; script --no-inline and
# script (inlined frames) equal perf's byte for byte; report
# --no-children equals perf's.
# Skips (exit 77) without perf, a C or C++ compiler, python3 or ld.lld,
# unless RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept
# on failure.
set -u

. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-dwarf-lld "${1:-}"
require_tool ld.lld "no ld.lld (apt-get install lld)"
dwarf_build stacks-lld workload-lld

# apart FILE: whether FILE has an executable PT_LOAD whose address is not
# its file offset.
apart() {
	local off va
	while read -r off va; do
		[ $((off)) -ne $((va)) ] && return 0
	done < <(readelf -lW "$1" | awk '$1 == "LOAD" && $(NF - 1) ~ /E/ { print $2, $3 }')
	return 1
}
for f in stacks-lld libstacks.so workload-lld; do
	apart "$f" || fail "$f: ld.lld kept the executable segment's address at its file offset (test problem)"
done

dwarf_record_attached stacks.data 2 ./stacks-lld -t 30000 -j 3
dwarf_record_attached workload.data 1.5 ./workload-lld -q -t 30000

# plt_callers FILE: samples of perf's script FILE whose first frame is in
# the program's PLT (no symbol there: "[unknown]" of the program) and
# that go on to a caller.
plt_callers() {
	awk '/^[^ \t]/ { first = 1; next }
		first && NF >= 2 { plt = ($2 == "[unknown]" && $3 ~ /lld\)$/); first = 0; next }
		plt && NF >= 2 { n++; plt = 0 }
		END { print n + 0 }' "$1"
}

# The PLT case needs a sample on a PLT entry's first instruction: the
# stacks program has dozens a run, the workload a few or none (chance), so
# the two recordings together must have one.
plt_total=0
for t in stacks workload; do
	perf script -i $t.data --no-inline >$t.perf 2>/dev/null
	"$RP" script --no-inline $t.data >$t.rp 2>/dev/null
	grep -q . $t.perf || fail "$t: perf printed no samples (test problem)"
	same "$t: script --no-inline" $t.perf $t.rp
	n=$(plt_callers $t.perf)
	echo "$t: $n samples in a PLT entry without CFI, walked on to the caller by perf"
	plt_total=$((plt_total + n))
	perf script -i $t.data >$t.inl.perf 2>/dev/null
	"$RP" script $t.data >$t.inl.rp 2>/dev/null
	same "$t: script (inlined frames)" $t.inl.perf $t.inl.rp
	report_same $t-report $t.data "" --no-children
done
[ "$plt_total" -gt 0 ] || fail "no sample in the PLT in either recording (test problem: the case is not covered)"

rp_done "readperf's DWARF call stacks of ld.lld-linked programs equal perf's"
