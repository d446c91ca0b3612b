#!/bin/bash
# Differential test of `readperf report --hierarchy` (docs/report.md,
# "Hierarchy"): readperf against the installed perf's
# `perf report --stdio --hierarchy`, whole text (perf's tip left out), on
# files recorded now.
#
#   run_hierarchy.sh /path/to/readperf
#
# Records the bundled workload five ways: cpu-clock -g, two events
# (cpu-clock,task-clock), a group ({cpu-clock,task-clock} -g),
# system-wide with call stacks (-a -g) and a tracepoint.  Compares perf's
# defaults (comm, dso, sym levels, graphs in caller order), --no-children
# (callee order), --children (perf turns it off), -g none, graph kinds
# and orders, -n, --show-total-period, --show-cpu-utilization, -t SEP,
# --percent-limit (the "no entry" lines), several sort lists (one key,
# two, four, pid, cpu, parent), the group view and --no-group, a
# tracepoint file's trace key; perf's config (report.children,
# call-graph.*, report.percent-limit); --comms, --dsos, --symbols,
# --symbol-filter and -x (perf filters level by level), also with
# --percentage relative; sort lists with sym but no dso on
# `rp-mkdata two-dso` (perf's level trees keep rows of one key apart);
# branch mode's default keys on a file of tests/tools/rp-gen-lbrmem.c;
# and that -F is refused, as perf refuses it.
#
# Skips loudly (77) when perf is missing or cannot record, unless
# RP_REQUIRE_PERF=1.  The scratch directory is kept on failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_hierarchy.sh /path/to/readperf}"
require_perf
require_cc
# tests/tools/rp-gen-lbrmem (built beside the tests, where ctest runs
# them; RP_GEN overrides): a file with branch stacks
gen=${RP_GEN:-$PWD/rp-gen-lbrmem}
case "$gen" in /*) ;; *) gen=$PWD/$gen ;; esac
rp_workdir rp-hierarchy keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

perf record -q -g -e cpu-clock -o g.data ./workload -q -t 150 >/dev/null 2>&1 ||
	rp_cannot_run "perf record -g failed"
perf record -q -e cpu-clock,task-clock -o two.data ./workload -q -t 150 >/dev/null 2>&1 ||
	rp_cannot_run "perf record of two events failed"
perf record -q -g -e '{cpu-clock,task-clock}' -o grp.data ./workload -q -t 150 >/dev/null 2>&1 ||
	rp_cannot_run "perf record of a group failed"
perf record -q -a -g -e cpu-clock -o ag.data ./workload -q -t 150 >/dev/null 2>&1 ||
	rp_cannot_run "perf record -a -g failed"
perf record -q -e sched:sched_switch -o tp.data ./workload -q -t 150 >/dev/null 2>&1 ||
	rp_cannot_run "perf record -e sched:sched_switch failed (no tracefs?)"

n=0
# same FILE ARGS...: perf report --stdio --hierarchy ARGS and readperf
# report --hierarchy ARGS, whole text.  No perf config file counts
# unless the caller sets cfg (PERF_CONFIG's value).
same() {
	local file=$1
	shift
	n=$((n + 1))
	local tag="${file%.data} --hierarchy $*"

	PERF_CONFIG=${cfg-} perf report -i "$file" --stdio --hierarchy "$@" >"h$n.perf.full" \
		2>"h$n.perf.err"
	PERF_CONFIG=${cfg-} "$RP" report --hierarchy "$@" "$file" >"h$n.rp" 2>"h$n.rp.err"
	local rrc=$?
	# perf's last lines: "#", "# (Tip: ...)", "#"; perf 6.1 may add
	# " (inlined)" to a "[...]" line (docs/report.md)
	head -n -3 "h$n.perf.full" | sed 's/--\[\.\.\.\] (inlined)$/--[...]/' >"h$n.perf"
	if ! grep -q '%' "h$n.perf"; then
		fail "$tag: perf printed no rows (test problem)"
	elif [ $rrc -ne 0 ]; then
		fail "$tag: readperf exited $rrc: $(head -2 "h$n.rp.err")"
	elif rp_same "$tag" "h$n.perf" "h$n.rp"; then
		echo "ok   $tag ($(wc -l <"h$n.perf") lines)"
	fi
}

same g.data
same g.data -n --show-total-period --no-children
same g.data --children -g none --sort comm,pid,dso,sym
same g.data --percent-limit 5
same g.data --percent-limit 3 -n -t ';' -g none
same g.data --sort dso,sym
same g.data --sort sym,dso -g caller
same g.data -g fractal
same g.data -g callee,0.5,period
same g.data --show-cpu-utilization -g none
same g.data --sort cpu,comm -g none
same g.data -p main --sort parent,sym -g none
same grp.data
same grp.data -n --percent-limit 5 -g none
same grp.data --no-group -g none
# entry filters: perf marks entries level by level and keeps the hidden
# rows in the sums above them
same g.data --comms workload,wl-fork -n
same g.data --dsos libm.so.6
same g.data --dsos libm.so.6,libc.so.6 --sort dso,comm -g none
same g.data --symbols fib,checksum --sort sym,comm -g none
same grp.data --dsos libm.so.6 -g none -n
# --symbol-filter and -x: perf's marks of each new entry by its first
# row; rows only the group's members have are linked in unmarked
same g.data --symbol-filter fib --sort dso,sym
same grp.data --symbol-filter sin -g none
same grp.data -x -p main -g none
# perf's config: report.children (the graphs' order), call-graph.*,
# report.percent-limit
printf '[report]\n\tchildren = false\n' >nochildren.cfg
printf '[call-graph]\nprint-type = fractal\norder=callee\nthreshold = 5\n[report]\npercent-limit=3\n' >cg.cfg
cfg=$work/nochildren.cfg same g.data
cfg=$work/cg.cfg same g.data
unset cfg
# --percentage relative: perf's total of the shown first level
same g.data --percentage relative --dsos libm.so.6 -n
same g.data --percentage relative -x -p main -g none
same two.data -n --sort dso,comm
same tp.data --sort comm,trace -n
# system-wide: other processes' stacks and unresolved addresses (sym
# without dso: docs/report.md) are left out, as in run_columns.sh; a
# C++ compiler's symbols there can be longer than perf's dotted line
same ag.data -g none
same ag.data -g none --sort dso,sym -n
same ag.data -g none --percent-limit 1 -t ';'
same ag.data -g none --sort comm,sym
# sym without dso: perf's level trees (docs/report.md, "Row order"), on
# this machine's C library and the test program in one process
rp_mkdata two-dso td.data || fail "rp-mkdata two-dso failed"
same td.data
same td.data --sort sym
same td.data --sort comm,sym -g none

# branch mode (perf 6.1 crashes there with --sort, and with --mem-mode:
# docs/report.md): the default keys, and the branch statistics after
# perf's tip
if [ -x "$gen" ] && "$gen" branch b.data ./workload 3 >/dev/null 2>&1; then
	n=$((n + 1))
	PERF_CONFIG='' perf report -i b.data --stdio --hierarchy >"h$n.perf.full" 2>/dev/null
	rp_perf_text "h$n.perf.full" >"h$n.perf"
	PERF_CONFIG='' "$RP" report --hierarchy b.data >"h$n.rp" 2>/dev/null ||
		fail "b --hierarchy: readperf failed"
	rp_same "b --hierarchy (branch mode)" "h$n.perf" "h$n.rp" &&
		echo "ok   b --hierarchy (branch mode, $(wc -l <"h$n.perf") lines)"
else
	fail "no branch-stack file: rp-gen-lbrmem missing at $gen or failed (build the tests)"
fi

# perf refuses -F with --hierarchy (its error, exit status 0); readperf too
n=$((n + 1))
if "$RP" report --hierarchy -F overhead,sym g.data >"h$n.rp" 2>"h$n.rp.err"; then
	fail "--hierarchy -F: readperf did not refuse it"
elif ! grep -q 'hierarchy' "h$n.rp.err"; then
	fail "--hierarchy -F: readperf's message does not say why: $(head -1 "h$n.rp.err")"
else
	echo "ok   --hierarchy -F refused, as perf"
fi

# a number column in --sort: perf makes it a level (or, after a key,
# prints another layout); readperf refuses it (docs/report.md)
n=$((n + 1))
if "$RP" report --hierarchy --sort sample,comm g.data >"h$n.rp" 2>"h$n.rp.err"; then
	fail "--hierarchy --sort sample,comm: readperf did not refuse it"
else
	echo "ok   --hierarchy --sort sample,comm refused (not implemented)"
fi

if [ "$failures" -ne 0 ]; then
	echo "run_hierarchy: $failures of $n comparisons FAILED; recordings kept in $work" >&2
	exit 1
fi
echo "run_hierarchy: $n comparisons agree with perf"
