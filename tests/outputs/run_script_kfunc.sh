#!/bin/bash
# Tracepoint fields that hold kernel function pointers (%pS / %ps in the
# event's print format: kmem:kmalloc's call_site, timer:hrtimer_start's
# function, workqueue:workqueue_queue_work's function).  perf script and
# perf report give libtraceevent a resolver from the kernel's symbols
# (tep_set_function_resolver with machine__resolve_kernel_addr), so they
# print "sym+0xoff" and "sym" where the raw value is an address; readperf
# must print the same.  Recorded now with `perf record -a` on the events
# this kernel has; compared with perf on the same file:
#   perf script                          whole text
#   perf script -F comm,tid,cpu,trace    whole text
#   perf report --stdio --sort trace     whole text but perf's tip
# and perf's own output must show resolved names (else the comparison
# would prove nothing: the test fails).
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_script_kfunc.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-kfunc keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

# The events of the list this kernel has (perf can open them).
events=()
for e in kmem:kmalloc timer:hrtimer_start workqueue:workqueue_queue_work; do
	if perf record -q -e "$e" -o probe.data -- true >/dev/null 2>&1; then
		events+=(-e "$e")
	fi
done
[ ${#events[@]} -gt 0 ] ||
	rp_cannot_run "none of kmem:kmalloc, timer:hrtimer_start, workqueue:workqueue_queue_work can be recorded"

# The workload's fork, exec and sleep allocate memory and arm timers.
record_workload kf "${events[@]}" -a -- -t 300 -f 2

# compare TAG PERF-CMD... -- READPERF-ARGS...: both outputs, exact.
compare() {
	local tag=$1
	shift
	local -a pcmd=()
	while [ "$1" != -- ]; do pcmd+=("$1"); shift; done
	shift
	if ! "${pcmd[@]}" >"$tag.perf" 2>"$tag.perf.err" || [ ! -s "$tag.perf" ]; then
		cat "$tag.perf.err" >&2
		fail "$tag: ${pcmd[*]} failed or printed nothing"
		return
	fi
	if ! "$RP" "$@" >"$tag.rp" 2>"$tag.rp.err"; then
		cat "$tag.rp.err" >&2
		fail "$tag: readperf $* failed"
		return
	fi
	rp_same "$tag" "$tag.perf" "$tag.rp" && echo "ok   $tag ($(wc -l <"$tag.rp") lines)"
}

compare script perf script -i kf.data -- script kf.data
compare script-f perf script -i kf.data -F comm,tid,cpu,trace -- script -F comm,tid,cpu,trace kf.data
# perf's tip (its last three lines) left out.
if perf report -i kf.data --stdio --sort trace >report.full 2>report.err; then
	head -n -3 report.full >report.perf
	if "$RP" report --sort trace kf.data >report.rp 2>report.rp.err; then
		rp_same report-trace report.perf report.rp && echo "ok   report --sort trace"
	else
		cat report.rp.err >&2
		fail "report: readperf report --sort trace failed"
	fi
else
	cat report.err >&2
	fail "report: perf report --sort trace failed"
fi

# perf resolved some pointers to names: the comparison covered them.
resolved=$(grep -cE '(call_site|function)=[A-Za-z_][A-Za-z0-9_.]*(\+0x[0-9a-f]+)?( |$)' script.perf)
if [ "$resolved" -eq 0 ]; then
	fail "perf script shows no call_site=/function= field resolved to a name"
else
	echo "ok   $resolved lines with resolved kernel functions"
fi

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failure(s); files kept in $work" >&2
	exit 1
fi
echo "$rp_name: passed"
