#!/bin/bash
# Differential test: `readperf script` against `perf script`, line for line,
# on files recorded now with the installed perf:
#   plain     cpu-clock, with a fork/exec-heavy workload
#   callchain cpu-clock -g (frame pointers)
#   two       cpu-clock and task-clock
#   syswide   cpu-clock -a (cpu column)
#   tp        sched:sched_switch -a (trace field, libtraceevent)
#   switch    cpu-clock --switch-events
#   tpcallchain  sched:sched_switch -g (trace field, then the call stack)
#   dwarf     cpu-clock --call-graph dwarf, attached to the running
#             workload (perf 6.1 loses some stacks of the processes it
#             starts: docs/unwind.md), for the srcline field
#   bash, bashg  cpu-clock (and -g) of a bash loop: Debian's bash has no
#             debug info, its symbols' source lines are "??:0"
#   fixed-*   cpu-clock -c N, cpu-clock/period=N/ with task-clock,
#             page-faults: fixed periods, no PERIOD in the samples (perf
#             prints the attr's sample_period; -F period is allowed)
# and for each file the default output plus field lists (-F), the
# --show-task-events / --show-mmap-events / --show-switch-events lines,
# -G (--hide-call-graph), --reltime and --deltatime (with sideband lines,
# whose times move their base as the samples' do).
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check): then it fails.  The
# scratch directory is kept on failure and its path printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_script.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-script keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1



record_workload plain -e cpu-clock -- -t 300 -f 2
record_workload callchain -e cpu-clock -g -- -t 300
record_workload two -e cpu-clock,task-clock -- -t 300
record_workload syswide -e cpu-clock -a -- -t 300
record_workload tp -e sched:sched_switch -a -- -t 300
record_workload switch -e cpu-clock --switch-events -- -t 300 -f 1
record_workload tpcallchain -e sched:sched_switch -g -- -t 300 -f 1
for n in bash bashg; do
	opts=(-e cpu-clock)
	[ $n = bashg ] && opts+=(-g)
	# shellcheck disable=SC2016 # the recorded bash expands them
	perf record -q "${opts[@]}" -o $n.data -- \
		bash -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' >$n.record.out 2>&1 ||
		rp_cannot_run "perf record of bash failed"
done
rp_record_attached dwarf.data 0.3 -e cpu-clock --call-graph dwarf,4096 -- ./workload -q -t 2000 ||
	rp_cannot_run "perf record --call-graph dwarf -p failed"
# Fixed periods: no PERIOD in the samples; perf 6.1 prints the attr's
# sample_period, by default and with -F period.
record_workload fixed-c -e cpu-clock -c 100000 -- -t 200
record_workload fixed-term -e cpu-clock/period=200000/,task-clock -- -t 200
record_workload fixed-pf -e page-faults -- -t 200

for n in plain callchain two syswide tp switch tpcallchain; do
	rp_script_same "$n" default
done
rp_script_same plain tasks --show-task-events --show-mmap-events
rp_script_same callchain tasks --show-task-events --show-mmap-events
rp_script_same syswide tasks --show-task-events --show-mmap-events
rp_script_same switch switch --show-switch-events --show-task-events
rp_script_same plain f-comm-ip -F comm,ip
rp_script_same plain f-plus -F +pid,-period
rp_script_same callchain f-sym -F comm,tid,time,ip,sym
rp_script_same callchain f-dso -F ip,dso
rp_script_same two f-sw -F sw:comm,period,event
rp_script_same syswide f-minus -F -cpu,-period,+pid
rp_script_same tp f-trace -F comm,tid,cpu,time,trace
rp_script_same tp f-ip -F +ip,+sym
rp_script_same syswide ns --ns
rp_script_same callchain ns-f --ns -F comm,time,ip,sym
rp_script_same callchain hide -G
rp_script_same tpcallchain hide-tp --hide-call-graph
rp_script_same callchain reltime --reltime --show-task-events --show-mmap-events
rp_script_same syswide deltatime --deltatime --ns
rp_script_same switch deltatime-sb --deltatime --show-switch-events
rp_script_same callchain reltime-f --reltime -F comm,ip,sym
# srcline: perf prints "??:0" (libc without debug info) only for the line
# of an unwound frame's inline lookup; map__fprintf_srcline() drops it
# for the sample's own ip, recorded entries and --no-inline.
rp_script_same plain srcline -F +srcline
rp_script_same callchain srcline -F +srcline
rp_script_same bash srcline -F +srcline
rp_script_same bashg srcline -F +srcline
rp_script_same dwarf srcline -F +srcline
rp_script_same dwarf srcline-noinline --no-inline -F +srcline
for n in fixed-c fixed-term fixed-pf; do
	rp_script_same "$n" default
	rp_script_same "$n" f-period -F comm,tid,period,event,ip,sym
	rp_script_same "$n" f-plus-period -F +period
done
rp_script_refused plain e-cpu -F comm,cpu
rp_script_refused plain e-addr -F +addr
# The field lists perf refuses (builtin-script.c parse_output_fields(),
# perf_session__check_output_opt(), evsel__check_attr()), and the
# event a check names: the first of its type that is not a dummy (tp,
# recorded with -a, has a dummy:HG software event).
rp_script_refused plain e-symoff -F symoff
rp_script_refused plain e-nosym -F -sym
rp_script_refused plain e-srcline -F comm,tid,srcline
rp_script_refused plain e-srcline-noip -F +srcline,-ip
rp_script_refused plain e-mix -F comm,+pid
rp_script_refused plain e-mix-rev -F +pid,comm
rp_script_refused plain e-hwcache -F hw-cache:comm
rp_script_refused tp e-sw-trace -F sw:comm,tid,trace
rp_script_refused tp e-sw-missing -F sw:
rp_script_refused tp e-addr-tp -F +addr
# ... and those it takes: synth:, a type list with a field but no event of
# the type, a field a type list names that the event lacks (dropped).
rp_script_same plain f-synth -F synth:comm
rp_script_same plain f-absent-type -F trace:comm
rp_script_same plain f-typed-lacking -F sw:comm,cpu
# perf refuses --reltime with --deltatime (its own message); so must readperf.
if "$RP" script --reltime --deltatime plain.data >/dev/null 2>e-times.err ||
	! grep -q 'reltime and --deltatime' e-times.err; then
	echo "FAIL plain e-times: readperf script --reltime --deltatime should fail" >&2
	failures=$((failures + 1))
else
	echo "ok   plain e-times (refused)"
fi

if [ "$failures" -ne 0 ]; then
	echo "run_script: $failures comparison(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_script: readperf script equals perf script"
