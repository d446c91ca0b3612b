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

# compare NAME TAG SCRIPT-ARGS...: perf script and readperf script, exact.
compare() {
	local name=$1 tag=$2
	shift 2
	if ! perf script -i "$name.data" "$@" >"$name.$tag.perf" 2>"$name.$tag.perf.err"; then
		cat "$name.$tag.perf.err" >&2
		echo "FAIL $name $tag: perf script $* failed" >&2
		failures=$((failures + 1))
		return
	fi
	if ! "$RP" script "$@" "$name.data" >"$name.$tag.rp" 2>"$name.$tag.rp.err"; then
		cat "$name.$tag.rp.err" >&2
		echo "FAIL $name $tag: readperf script $* failed" >&2
		failures=$((failures + 1))
		return
	fi
	if [ ! -s "$name.$tag.perf" ]; then
		echo "FAIL $name $tag: perf script printed nothing" >&2
		failures=$((failures + 1))
		return
	fi
	if ! cmp -s "$name.$tag.perf" "$name.$tag.rp"; then
		echo "FAIL $name $tag: readperf script $* differs from perf script:" >&2
		diff "$name.$tag.perf" "$name.$tag.rp" | head -20 >&2
		failures=$((failures + 1))
		return
	fi
	echo "ok   $name $tag ($(wc -l <"$name.$tag.rp") lines)"
}

# compare_error NAME TAG SCRIPT-ARGS...: both refuse, with the same message
# (perf's first line of standard error; its usage text after it is not
# repeated).
compare_error() {
	local name=$1 tag=$2
	shift 2
	if perf script -i "$name.data" "$@" >/dev/null 2>"$name.$tag.perf.err"; then
		echo "FAIL $name $tag: perf script $* did not fail: the test is wrong" >&2
		failures=$((failures + 1))
		return
	fi
	if "$RP" script "$@" "$name.data" >/dev/null 2>"$name.$tag.rp.err"; then
		echo "FAIL $name $tag: readperf script $* should fail" >&2
		failures=$((failures + 1))
		return
	fi
	local want
	want=$(head -1 "$name.$tag.perf.err")
	if [ -z "$want" ] || ! grep -qF -- "$want" "$name.$tag.rp.err"; then
		echo "FAIL $name $tag: message differs: perf '$want', readperf '$(cat "$name.$tag.rp.err")'" >&2
		failures=$((failures + 1))
		return
	fi
	echo "ok   $name $tag (refused as perf)"
}

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
	compare "$n" default
done
compare plain tasks --show-task-events --show-mmap-events
compare callchain tasks --show-task-events --show-mmap-events
compare syswide tasks --show-task-events --show-mmap-events
compare switch switch --show-switch-events --show-task-events
compare plain f-comm-ip -F comm,ip
compare plain f-plus -F +pid,-period
compare callchain f-sym -F comm,tid,time,ip,sym
compare callchain f-dso -F ip,dso
compare two f-sw -F sw:comm,period,event
compare syswide f-minus -F -cpu,-period,+pid
compare tp f-trace -F comm,tid,cpu,time,trace
compare tp f-ip -F +ip,+sym
compare syswide ns --ns
compare callchain ns-f --ns -F comm,time,ip,sym
compare callchain hide -G
compare tpcallchain hide-tp --hide-call-graph
compare callchain reltime --reltime --show-task-events --show-mmap-events
compare syswide deltatime --deltatime --ns
compare switch deltatime-sb --deltatime --show-switch-events
compare callchain reltime-f --reltime -F comm,ip,sym
# srcline: perf prints "??:0" (libc without debug info) only for the line
# of an unwound frame's inline lookup; map__fprintf_srcline() drops it
# for the sample's own ip, recorded entries and --no-inline.
compare plain srcline -F +srcline
compare callchain srcline -F +srcline
compare bash srcline -F +srcline
compare bashg srcline -F +srcline
compare dwarf srcline -F +srcline
compare dwarf srcline-noinline --no-inline -F +srcline
for n in fixed-c fixed-term fixed-pf; do
	compare "$n" default
	compare "$n" f-period -F comm,tid,period,event,ip,sym
	compare "$n" f-plus-period -F +period
done
compare_error plain e-cpu -F comm,cpu
compare_error plain e-addr -F +addr
# The field lists perf refuses (builtin-script.c parse_output_fields(),
# perf_session__check_output_opt(), evsel__check_attr()), and the
# event a check names: the first of its type that is not a dummy (tp,
# recorded with -a, has a dummy:HG software event).
compare_error plain e-symoff -F symoff
compare_error plain e-nosym -F -sym
compare_error plain e-srcline -F comm,tid,srcline
compare_error plain e-srcline-noip -F +srcline,-ip
compare_error plain e-mix -F comm,+pid
compare_error plain e-mix-rev -F +pid,comm
compare_error plain e-hwcache -F hw-cache:comm
compare_error tp e-sw-trace -F sw:comm,tid,trace
compare_error tp e-sw-missing -F sw:
compare_error tp e-addr-tp -F +addr
# ... and those it takes: synth:, a type list with a field but no event of
# the type, a field a type list names that the event lacks (dropped).
compare plain f-synth -F synth:comm
compare plain f-absent-type -F trace:comm
compare plain f-typed-lacking -F sw:comm,cpu
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
