#!/bin/bash
# Threads whose FORK record was lost: sampled under perf's ":<tid>" default
# comm until their first COMM, which perf applies in place (comm__override),
# so the rows and call-graph entries of the samples before it show the new
# comm and are one with those after it.  The file comes from
# `tests/tools/rp-mkdata lost-fork` (two threads named late, one never,
# call stacks whose callers differ before and after the COMM); perf reads
# it, and readperf must print what perf prints:
#   perf report --stdio with the children view, --no-children, caller
#   order, -g graph/fractal with count values, -n --show-total-period
#   (whole text, perf's tip left out); perf script; perf's stackcollapse.
#
# When perf is missing the test says so loudly and skips (exit 77), unless
# RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_lostfork.sh /path/to/readperf}"
require_perf
rp_workdir rp-lostfork keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_mkdata lost-fork lf.data || { echo "$rp_name: rp-mkdata lost-fork failed" >&2; exit 1; }

n=0
for opts in "" "--no-children" "--no-children -g caller" "-g caller" \
	"--no-children -g graph,0,caller,function,count" \
	"-g fractal,0.5,callee,function,count" "-n --show-total-period" \
	"--no-children -g none --show-cpu-utilization"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the options are words
	rp_report_agree lf.data "r$n" $opts
done
# The samples before the COMM are in the renamed rows (else the
# comparison above would not cover the override).
grep -q '^ *[0-9.]*% *[0-9.]*% *renamed ' r1.perf ||
	fail "perf's children view shows no 'renamed' row"
if grep -q ':300 ' r1.perf; then
	fail "perf's children view keeps ':300': the file does not test the override"
fi

perf script -i lf.data >script.perf 2>script.err || fail "perf script failed"
"$RP" script lf.data >script.rp 2>script.rp.err || fail "readperf script failed"
rp_same script script.perf script.rp && echo "ok   script"

if perf script report stackcollapse -i lf.data >collapse.perf 2>collapse.err; then
	"$RP" collapse lf.data >collapse.rp 2>collapse.rp.err || fail "readperf collapse failed"
	rp_same collapse collapse.perf collapse.rp && echo "ok   collapse"
else
	echo "perf's stackcollapse cannot run here (no Python scripting?): collapse not compared"
fi

rp_done passed
