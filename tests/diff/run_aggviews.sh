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
#   --ignore-callees in both orders, with -p, in groups;
#   -T: perf's table of the threads' counts (perf record -s), one event
#     and a group, and a file without READ records;
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

# --symbol-filter (the self views filter on leaf: rec, ping and pong run
# few instructions of their own, and a recording may hold no sample there)
rp_report_agree ag.data sf-children --symbol-filter=ping
rp_report_agree ag.data sf-self --no-children -g none --symbol-filter=e
rp_report_agree ag.data sf-graph --no-children --symbol-filter=leaf
# no comm key: perf 6.1 does not filter
rp_report_agree ag.data sf-nocomm --no-children --sort sym --symbol-filter=rec
rp_report_agree ag.data sf-dso-comm --no-children -g none --sort dso,sym,comm --symbol-filter=leaf
# a comm column of a strict -F without --sort is no sort key: no filter
rp_report_agree ag.data sf-fields -g none -F overhead,comm,sym --symbol-filter=ping
rp_report_agree ag.data sf-fields-sort -g none -F overhead,comm,sym --sort comm --symbol-filter=ping
rp_report_agree ag.data sf-limit -g none --percent-limit 2 --symbol-filter=p
rp_report_agree grp.data sf-group --no-children --symbol-filter=leaf
rp_report_agree grp.data sf-group-children -g none --symbol-filter=rec
rp_report_agree grp.data sf-nogroup --no-group -g none --no-children --symbol-filter=le

# --percentage relative
rp_report_agree ag.data rel-sym --percentage relative --no-children -S leaf -n --show-total-period
rp_report_agree ag.data rel-dso --percentage relative --dsos recurse --percent-limit 3
rp_report_agree ag.data rel-symfilter --percentage relative --symbol-filter=ping -g graph,1,callee
rp_report_agree grp.data rel-group --percentage relative --dsos recurse --no-children -n
rp_report_agree ag.data abs --percentage absolute --dsos recurse -g none

# --ignore-callees: the sample counted in the matching caller, its
# callees forgotten: in callee order the outermost match (deep recursion:
# the outermost rec), in caller order the innermost; not applied where
# perf resolves no callchain (-g none --no-children); -p's match first
rp_report_agree ag.data ic-callee --no-children --ignore-callees=rec
rp_report_agree ag.data ic-children --ignore-callees='^(ping|pong)$'
rp_report_agree ag.data ic-caller --no-children -g caller --ignore-callees=pong
rp_report_agree ag.data ic-none --no-children -g none --ignore-callees=rec
rp_report_agree ag.data ic-parent --no-children --ignore-callees=rec -p ^worker
rp_report_agree grp.data ic-group --ignore-callees=worker -g folded
# perf's walk stops after --max-stack frames: matches beyond are not seen
rp_report_agree ag.data ic-max-stack --no-children --max-stack 4 --ignore-callees=worker
rp_report_agree ag.data ic-max-stack-caller --max-stack 5 -g caller --ignore-callees=rec

# -T: perf prints the threads' table after its tip, whose three lines
# (#, # (Tip: ...), #) are left out of perf's text here.
record rs -e cpu-clock -s -g
record rsg -e '{cpu-clock,task-clock}' -s
threads_agree() { # DATA TAG OPTS...
	local data=$1 tag=$2
	shift 2
	if ! perf report -i "$data" --stdio -T "$@" >"$tag.full" 2>"$tag.err" ||
		! grep -q '^#  *PID  *TID' "$tag.full"; then
		cat "$tag.err" >&2
		fail "perf report -T $* printed no threads' table"
		return
	fi
	awk '/^# \(Tip: / { drop = NR } { l[NR] = $0 }
	     END { for (i = 1; i <= NR; i++) if (!drop || i < drop - 1 || i > drop + 1) print l[i] }' \
		"$tag.full" >"$tag.perf"
	"$RP" report -T "$@" "$data" >"$tag.rp" 2>"$tag.rp.err" || fail "readperf report -T $* failed"
	rp_same "report -T $*" "$tag.perf" "$tag.rp" && echo "ok   report -T $*"
}
threads_agree rs.data T-self --no-children -g none
threads_agree rs.data T-children
threads_agree rsg.data T-group --no-children
threads_agree ag.data T-none --no-children -g none
grep -q '^ .* [1-9][0-9]*$' T-self.perf || fail "rs.data: perf's table shows no thread (test problem)"

# flat and folded on recursive stacks
rp_report_agree ag.data flat --no-children -g flat
rp_report_agree ag.data folded-children -g folded,0.1,callee,function,count

rp_done "readperf agrees with perf on the aggregated views"
