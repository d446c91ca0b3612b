#!/bin/bash
# Differential test of DWARF call stacks (perf record --call-graph dwarf)
# and inlined frames against the installed perf, on a program built and
# recorded now: stacks, C++ -O2 -fomit-frame-pointer, three threads, a
# shared library of its own that calls back, templates inlined at -O2
# (tests/workload/stacks.cc, stacks_lib.c; tests/diff/dwarf_lib.sh).
# Source lines are run_dwarf_srcline.sh's, the C workload's stacks
# run_dwarf_workload.sh's.
#
#   run_dwarf.sh /path/to/readperf
#
# Checks:
#   - script --no-inline equals perf script --no-inline, byte for byte;
#   - script (inlined frames) agrees with perf script on 100 % of the
#     samples' frame addresses and on >= 99 % of their text (perf names a
#     few assembly functions after another alias at the same address:
#     docs/unwind.md);
#   - report --no-children and --children (graphs), with --no-inline, equal
#     perf's; report --no-children with inlined frames equals perf's;
#   - go tool pprof -list on readperf's pprof shows stacks.cc's lines with
#     their figures;
#   - report --children (inlined frames, perf's split rows) equals perf's;
#   - the same graphs with the address key (-g ...,address), both orders,
#     and with the srcline key;
#   - collapse equals perf's stackcollapse on >= 99 % of the samples.
#
# Skips (exit 77) without perf, a C++ compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-dwarf "${1:-}"
dwarf_build stacks
dwarf_record_stacks

perf script -i stacks.data --no-inline >stacks.noinl.perf 2>/dev/null
"$RP" script --no-inline stacks.data >stacks.noinl.rp 2>/dev/null
same "stacks script --no-inline" stacks.noinl.perf stacks.noinl.rp

perf script -i stacks.data >stacks.perf 2>/dev/null
"$RP" script stacks.data >stacks.rp 2>/dev/null
$agree stacks.perf stacks.rp --min-share 100 ||
	fail "stacks script: frame addresses differ from perf's"
$agree stacks.perf stacks.rp --text --min-share 99 ||
	fail "stacks script: inlined frames' text differs from perf's"

report_same stacks.graph.noinl stacks.data "--no-inline" --no-children --no-inline
report_same stacks.children.noinl stacks.data "--children --no-inline" --children --no-inline
report_same stacks.graph stacks.data "" --no-children
# --children with inlined frames: perf 6.1's input tree compares inlined
# symbols by name and others by address, misses entries and shows some
# functions in two rows; readperf replays that tree (docs/unwind.md).
report_same stacks.children stacks.data "" --children
# The address key (-g ...,address): a node per address, drawn with its
# source line (an inlined frame's own line).
report_same stacks.graph.address stacks.data "-g graph,0.5,callee,address" \
	--no-children -g graph,0.5,callee,address
report_same stacks.graph.address-caller stacks.data "-g graph,0.5,caller,address" \
	--no-children -g graph,0.5,caller,address
report_same stacks.children.address stacks.data "--children -g graph,0.5,caller,address" \
	--children -g graph,0.5,caller,address
report_same stacks.children.address-callee stacks.data "--children -g graph,0.5,callee,address" \
	--children -g graph,0.5,callee,address
# The srcline key: nodes by their line where they have one.
report_same stacks.graph.srcline stacks.data "-g graph,0,caller,srcline" \
	--no-children -g graph,0,caller,srcline
report_same stacks.children.srcline stacks.data "--children -g graph,0.5,callee,srcline" \
	--children -g graph,0.5,callee,srcline

# pprof: go tool pprof -list shows the source lines with their figures.
if command -v go >/dev/null 2>&1; then
	"$RP" pprof -o stacks.pb.gz stacks.data 2>/dev/null
	go tool pprof -list 'worker' stacks.pb.gz >stacks.list 2>stacks.list.err
	if grep -q "ROUTINE.*worker in .*stacks.cc" stacks.list &&
		grep -Eq '^ +(\.|[0-9.]+(ms|us|s)) +[0-9.]+(ms|us|s) +[0-9]+:' stacks.list; then
		echo "ok   pprof -list worker ($(grep -c ROUTINE stacks.list) routines)"
	else
		fail "go tool pprof -list worker: no source lines with figures"
		head -20 stacks.list stacks.list.err >&2
	fi
else
	rp_cannot_run "no go (golang-go) for go tool pprof"
fi

rp_collapse_agree stacks || fail "stacks collapse differs from perf's"

rp_done "readperf's DWARF call stacks agree with perf's"
