#!/bin/bash
# Differential test of the --children rows of inlined frames in a
# recording of two processes of one name, against the installed perf, on
# a program built and recorded now (tests/workload/forkinl.c: it forks
# without exec or a new name, and both processes run outer() -> mid(),
# inlined into outer, -> leaf()).
#
#   run_dwarf_fork.sh /path/to/readperf
#
# perf 6.1's hists__findnew_entry(), finding a sample's entry last seen
# through another struct map (the other process's maps), gives the entry
# the symbol at its start in the new map: an inlined frame's row (mid)
# becomes its function's (outer), no longer inlined, and perf's collapse
# merges it with outer's own row, whose Children then passes 100 %
# (docs/report.md, "Where perf 6.1 is wrong").  readperf follows perf.
# Checks: perf's recording holds samples of two processes and a
# --children row over 100 % (the case happened); readperf's report
# equals perf's byte for byte in the default view (--children), with
# -g caller and with --no-children, and with counts for percentages
# (perf's collapse merges the two processes' graphs, each merged path
# counting one: merge_chain_branch()); `--sort pid,dso,sym`, where the
# processes share no row, shows mid (inlined) beside outer, in both.
# Every readperf command runs with -j 4 and -j 1 (tests/jcheck.sh).
# Skips (exit 77) without perf, a C or C++ compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-dwarf-fork "${1:-}"
dwarf_build forkinl

# The fork comes 700 ms after the start, after perf attached (0.3 s).
dwarf_record_attached fork.data 1.5 ./forkinl 3 700

pids=$(perf script -i fork.data -F pid 2>/dev/null | sort -u | wc -l)
[ "$pids" -ge 2 ] || fail "perf recorded $pids process(es), not the two the test needs (test problem)"

report_same fork.children fork.data "" --children
awk '$1 ~ /%$/ && $1 + 0 > 100 { found = 1 } END { exit !found }' fork.children.perf ||
	fail "perf's --children rows stay within 100 %: the case did not happen (test problem)"
report_same fork.children-caller fork.data "" --children -g caller
report_same fork.graph fork.data "" --no-children
report_same fork.count fork.data "" --children -g graph,0.5,caller,function,count
report_same fork.pid fork.data "" --children --sort pid,dso,sym -g none
grep -q 'mid (inlined)' fork.pid.rp || fail "--sort pid,dso,sym: no row of mid (inlined)"

rp_done "readperf's --children rows of two processes' inlined frames are perf's"
