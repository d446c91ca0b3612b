#!/bin/bash
# Differential test of aggregated report views the other tests leave
# out, on tests/workload/recurse.c (three threads in deep direct and
# mutual recursion, a function reached through dlopen) recorded now with
# -g, alone and as the group {cpu-clock,task-clock}.
#
#   run_aggviews.sh /path/to/readperf
#
# Compares `readperf report OPTS` with `perf report --stdio OPTS` minus
# its tip, whole text (rp_report_agree), for:
#   --symbol-filter: rows whose symbol does not contain the string are
#     hidden, as perf 6.1 does it: the first event only, and only with a
#     comm key of --sort or the default list (perf filters in its
#     collapse; a strict -F's columns are no sort keys); in the
#     group view the members' rows that the leader lacks stay;
#   --percentage relative with entry filters and --symbol-filter: the
#     header's counts, the rows' and --percent-limit's percentages of the
#     rows left, the graphs' of every sample (their threshold of the rows
#     left); groups;
#   -g flat and -g folded on recursive stacks.
#
# When perf is missing or cannot record, the test skips (exit 77), unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_aggviews.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-aggviews keep-on-failure
cd "$rp_work_dir" || exit 1
if ! "$CC" -O1 -g -fno-omit-frame-pointer -fno-inline -pthread -o recurse \
	"$root/tests/workload/recurse.c" -ldl 2>cc.err; then
	cat cc.err >&2
	fail "cannot compile tests/workload/recurse.c"
	rp_done ""
fi

# record NAME PERF-OPTIONS...: NAME.data of ./recurse -t 400.
record() {
	local name=$1
	shift
	if ! perf record -q "$@" -o "$name.data" -- ./recurse -t 400 >"$name.out" 2>&1 ||
		[ ! -s "$name.data" ]; then
		cat "$name.out" >&2
		rp_cannot_run "perf record $* failed"
	fi
}

record ag -e cpu-clock -g
record grp -e '{cpu-clock,task-clock}' -g

# --symbol-filter
rp_report_agree ag.data sf-children --symbol-filter=ping
rp_report_agree ag.data sf-self --no-children -g none --symbol-filter=e
rp_report_agree ag.data sf-graph --no-children --symbol-filter=rec
# no comm key: perf 6.1 does not filter
rp_report_agree ag.data sf-nocomm --no-children --sort sym --symbol-filter=rec
rp_report_agree ag.data sf-dso-comm --no-children -g none --sort dso,sym,comm --symbol-filter=leaf
# a comm column of a strict -F without --sort is no sort key: no filter
rp_report_agree ag.data sf-fields -g none -F overhead,comm,sym --symbol-filter=ping
rp_report_agree ag.data sf-fields-sort -g none -F overhead,comm,sym --sort comm --symbol-filter=ping
rp_report_agree ag.data sf-limit -g none --percent-limit 2 --symbol-filter=p
rp_report_agree grp.data sf-group --no-children --symbol-filter=ping
rp_report_agree grp.data sf-group-children -g none --symbol-filter=rec
rp_report_agree grp.data sf-nogroup --no-group -g none --no-children --symbol-filter=le

# --percentage relative
rp_report_agree ag.data rel-sym --percentage relative --no-children -S leaf -n --show-total-period
rp_report_agree ag.data rel-dso --percentage relative --dsos recurse --percent-limit 3
rp_report_agree ag.data rel-symfilter --percentage relative --symbol-filter=ping -g graph,1,callee
rp_report_agree grp.data rel-group --percentage relative --dsos recurse --no-children -n
rp_report_agree ag.data abs --percentage absolute --dsos recurse -g none

# flat and folded on recursive stacks
rp_report_agree ag.data flat --no-children -g flat
rp_report_agree ag.data folded-children -g folded,0.1,callee,function,count

rp_done "readperf agrees with perf on the aggregated views"
