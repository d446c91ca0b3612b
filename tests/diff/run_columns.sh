#!/bin/bash
# Differential test of perf report's columns, sort keys and defaults
# (docs/report.md): readperf against the installed perf, on files
# recorded now.
#
#   run_columns.sh /path/to/readperf
#
# Records the bundled workload four ways: one event with call stacks
# (cpu-clock -g), two events (cpu-clock,task-clock), system-wide with call
# stacks (-a -g), and a tracepoint (sched:sched_switch, of the workload
# only: every event a tracepoint, so perf sorts by trace).  Then compares
# the whole output of `readperf report ARGS FILE` with perf's
# `perf report --stdio ARGS` (minus its tip) for
#   - no options at all (perf's defaults: the children view with call
#     stacks, trace sorting for the tracepoint file), and perf's config
#     file (report.children, report.percent-limit, call-graph.*) through
#     $PERF_CONFIG, and PERF_CONFIG= (none);
#   - -n, --show-total-period, --show-cpu-utilization, -t SEP, -F lists
#     (strict and +appended), --sort +KEY;
#   - every sort key readperf has, alone (default view) and after dso
#     with -n -t ';' --no-children, and parent with -p REGEX and -x.
#
# Skips loudly (77) when perf is missing or cannot record, unless
# RP_REQUIRE_PERF=1.  The scratch directory is kept on failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_columns.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-columns keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

perf record -q -g -e cpu-clock -o g.data ./workload -q -t 150 >/dev/null 2>&1 ||
	rp_cannot_run "perf record -g failed"
perf record -q -e cpu-clock,task-clock -o two.data ./workload -q -t 150 >/dev/null 2>&1 ||
	rp_cannot_run "perf record of two events failed"
# other processes' wild stack words make perf's rows unordered (lib.sh)
record_ag() { perf record -q -a -g -e cpu-clock -o ag.data ./workload -q -t 150 >/dev/null 2>&1; }
rp_calm_recording ag.data record_ag || rp_cannot_run "perf record -a -g failed"
perf record -q -e sched:sched_switch -o tp.data ./workload -q -t 150 >/dev/null 2>&1 ||
	rp_cannot_run "perf record -e sched:sched_switch failed (no tracefs?)"
# One exec, then three: perf makes a tracepoint's text only when it
# compares the entry on the trace key, so a row alone in its group of
# the keys before trace shows its text cut to the column (docs/report.md).
perf record -q -e sched:sched_process_exec -o exec1.data /bin/true >/dev/null 2>&1 ||
	rp_cannot_run "perf record -e sched:sched_process_exec failed"
perf record -q -e sched:sched_process_exec -o exec3.data sh -c '/bin/true; /bin/true' >/dev/null 2>&1 ||
	rp_cannot_run "perf record -e sched:sched_process_exec failed"

n=0
# same FILE ARGS...: perf report --stdio ARGS and readperf report ARGS,
# whole text (perf's tip left out).  PERF_CONFIG is empty unless the
# caller sets it, so that a config of the machine does not count.
same() {
	local file=$1
	shift
	n=$((n + 1))
	local tag="${file%.data} $*"

	PERF_CONFIG=${cfg-} perf report -i "$file" --stdio "$@" >"c$n.perf.full" 2>"c$n.perf.err"
	local prc=$?
	PERF_CONFIG=${cfg-} "$RP" report "$@" "$file" >"c$n.rp" 2>"c$n.rp.err"
	local rrc=$?
	if [ $prc -ne 0 ]; then
		# perf refuses: readperf must refuse too
		if [ $rrc -ne 0 ]; then
			echo "ok   $tag (refused, as perf)"
		else
			fail "$tag: perf refused it (exit $prc), readperf did not"
		fi
		return
	fi
	# perf's last lines: "#", "# (Tip: ...)", "#"; perf 6.1 may add
	# " (inlined)" to a "[...]" line (docs/report.md)
	head -n -3 "c$n.perf.full" | sed 's/--\[\.\.\.\] (inlined)$/--[...]/' >"c$n.perf"
	if ! grep -q '%' "c$n.perf" && [ $rrc -ne 0 ]; then
		echo "ok   $tag (refused, as perf: $(grep -m1 -v '^$' "c$n.perf.err"))"
	elif ! grep -q '%' "c$n.perf"; then
		fail "$tag: perf printed no rows (test problem)"
	elif [ $rrc -ne 0 ]; then
		fail "$tag: readperf exited $rrc: $(head -2 "c$n.rp.err")"
	elif rp_same "$tag" "c$n.perf" "c$n.rp"; then
		echo "ok   $tag ($(wc -l <"c$n.perf") lines)"
	fi
}

# System-wide call stacks of other processes on the machine carry frames
# perf and readperf do not yet agree on (foreign stacks without frame
# pointers: a call graph's percentages differ when such a process, a
# compiler or linker, ran meanwhile): ag.data's columns are compared
# without the children view and without call graphs.
for f in g.data two.data ag.data tp.data; do
	v=""
	[ "$f" = ag.data ] && v="--no-children -g none"
	same "$f" $v
	same "$f" $v -n
	same "$f" $v --show-total-period -n -t ';'
	same "$f" $v -t '|'
	same "$f" $v --show-cpu-utilization
	same "$f" $v -F overhead,overhead_sys,overhead_us,sample,period,comm
	same "$f" $v -F overhead,comm --sort dso
	same "$f" $v -F +sample
	same "$f" $v --sort +pid -g none
done

# perf's config files
printf '[report]\n\tchildren = false\n' >nochildren.cfg
printf '[call-graph]\nprint-type = fractal\norder=callee\nthreshold = 5\n[report]\npercent-limit=3\n' >cg.cfg
printf '[report]\npercent-limit = 2\n' >limit.cfg
for c in nochildren cg limit; do
	cfg=$work/$c.cfg same g.data
done
cfg=$work/nochildren.cfg same ag.data -g none
mkdir -p home && cp cg.cfg home/.perfconfig
HOME=$work/home cfg= same g.data
unset cfg

# every sort key: alone, and after dso with -n -t (srcline and srcfile:
# tests/diff/run_dwarf.sh, where perf's addr2line is accounted for)
keys="pid comm dso sym parent cpu socket local_weight weight transaction
trace symbol_size dso_size cgroup cgroup_id time code_page_size
local_ins_lat ins_lat addr overhead sample period overhead_sys overhead_us"
for k in $keys; do
	same g.data --sort "$k" -g none --no-children
	same ag.data --sort "dso,$k" -n -t ';' --no-children -g none
done
# (--children with dso_size: docs/report.md, "What perf prints ...")
for k in socket time weight trace; do
	same g.data --sort "$k" -g none
done
for k in pid comm dso sym cpu trace time; do
	same two.data --sort "$k"
	same tp.data --sort "$k"
done
same tp.data --sort trace,comm -n
for f in exec1.data exec3.data; do
	for k in trace comm,trace trace,comm pid,trace; do
		same "$f" --sort "$k"
	done
done
same g.data --sort comm,symbol -g none
same g.data -p 'fib|run_for' -g none --no-children
same g.data -p 'fib|run_for' -x -g none --no-children
same g.data --sort parent,sym -p 'fib|run_for' -g none
same g.data --sort sym,symbol_size --no-children -g none
same two.data --sort ipc_null

if [ "$failures" -ne 0 ]; then
	echo "run_columns: $failures of $n comparisons FAILED; recordings kept in $work" >&2
	exit 1
fi
echo "run_columns: $n comparisons agree with perf"
