#!/bin/bash
# Event groups against perf in the children view (perf's default for
# files with call stacks), on the bundled workload recorded now: a group
# recorded as one (`-e '{cpu-clock,task-clock}' -g`, the GROUP_DESC
# feature) and two events shown as one with --group.  perf's group view
# has a sub-cell per member in the Children column as in Self, sorts by
# the leader's Children figure, then the members' Self figures, and draws
# the leader's call graph (docs/report.md, "Event groups").  readperf must
# print what perf prints (whole text, perf's tip left out), with graphs in
# both orders, without, with samples columns, and for other keys.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_groups.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-groups keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1
record_workload grp -e '{cpu-clock,task-clock}' -g -- -t 300
record_workload two -e cpu-clock,page-faults -g -- -t 300

n=0
for opts in "" "-g none" "-g caller -n" "--sort dso,sym" "--show-total-period -g none" \
	"--no-children" "--show-cpu-utilization --no-children -n -g none"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the options are words
	rp_report_agree grp.data "grp$n" $opts
	# shellcheck disable=SC2086
	rp_report_agree two.data "two$n" --group $opts
done
# The members' sys and usr sub-cells and their sort (perf's __hpp__sort:
# the leader's figure, then each member's); not on two.data, whose
# page-faults rows that tie at 0.00 come in the order of perf's trees,
# nor with --children, whose rows of frames tie at 0.00 likewise
# (docs/report.md, "Event groups").
rp_report_agree grp.data grp-cpumode -F overhead,overhead_sys,overhead_us,sym -g none --no-children
# The group view was shown: two sub-cells in the Children column.
if ! grep -q '^#  *Children  *Self' grp1.perf ||
	! grep -Eq '^ +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+%' grp1.perf; then
	fail "perf showed no group view with --children in grp1.perf (test problem)"
fi

rp_done passed
