#!/bin/bash
# Differential test of DWARF call stacks through code without CFI, against
# the installed perf, on a program built and recorded now
# (tests/workload/nocfi.c: functions of hand-written x86-64 assembly with
# no FDE, spinning with rbp set four ways, a JIT's caller, a second map of
# the program).  Recorded by attaching (-p,
# rp_record_attached) with `--call-graph dwarf,32768`, so that the stack
# bytes reach 20 KiB above the stack pointer.
#
#   run_dwarf_nocfi.sh /path/to/readperf
#
# Where a frame has no CFI, perf 6.1's libunwind guesses the caller from
# rbp (the return address at rbp + 8) only when rbp is not 0, lies 0 to
# 16 KiB above the frame's CFA and the word at rbp can be read; libdwfl
# guesses further, and readperf follows perf (docs/unwind.md, "Where a
# walk ends"):
#   spin_framed  a frame record at rsp: the walk goes on to main;
#   spin_zero    rbp = 0: the walk ends at the sampled frame;
#   spin_near    a frame record 12 KiB above rsp: one guessed frame;
#   spin_far     the same 20 KiB above rsp: the walk ends (libdwfl alone
#                would report the guessed frame);
#   jit_callee   called from code in anonymous memory (a JIT's): perf's
#                walk ends at that caller, which has no file (libdwfl
#                would guess on from rbp);
#   spin_framed  called through a second map of the program's file
#                (ET_EXEC: built -no-pie) at another address: perf finds
#                no FDE there and guesses (libdwfl cannot place the file
#                twice).
# Checks: script --no-inline equals perf script --no-inline byte for
# byte; report --no-children --no-inline equals perf's; perf's stacks went
# through each case (a recording that missed one is made again, at most
# three times; then the test fails).
# Every readperf command runs with -j 4 and -j 1 (tests/jcheck.sh).
# Skips (exit 77) on other machines than x86-64, and without perf or a C
# compiler unless RP_REQUIRE_PERF=1: then it fails.  The scratch
# directory is kept on failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
rp_take_binary "${1:?usage: run_dwarf_nocfi.sh /path/to/readperf}"
[ "$(uname -m)" = x86_64 ] ||
	{ rp_banner "$rp_name SKIPPED: the workload is x86-64 assembly"; exit 77; }
require_perf
require_cc
rp_workdir rp-dwarf-nocfi keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1

"${CC:-cc}" -O2 -g -fomit-frame-pointer -no-pie -o nocfi "$root/tests/workload/nocfi.c" 2>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }
readelf --debug-dump=frames nocfi 2>/dev/null | grep -q FDE ||
	rp_cannot_run "readelf cannot list the program's FDEs"

# stacks FUNCTION: perf's stacks (script --no-inline) whose first frame
# is in FUNCTION, one line each: the frames' symbols, innermost first.
stacks() {
	awk -v fn="$1" '/^[^ \t]/ { if (s != "") print s; s = ""; first = 1; next }
		NF >= 2 { sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym)
			  if (first && sym != fn) { skip = 1 } else if (first) { skip = 0 }
			  first = 0; if (!skip) s = s (s == "" ? "" : " ") sym }
		END { if (s != "") print s }' nocfi.perf | sort | uniq -c | sort -rn
}

# top FUNCTION: perf's most frequent stack from FUNCTION.
top() {
	stacks "$1" | awk 'NR == 1 { $1 = ""; print substr($0, 2) }'
}

# covered: whether perf's stacks went through every case, as described
# above (the most frequent stack of each function; spin_framed's from
# both callers).
covered() {
	perf script -i nocfi.data --no-inline >nocfi.perf 2>/dev/null
	local zero near far jit framed
	framed=$(stacks spin_framed | awk '{ $1 = ""; print substr($0, 2) }')
	zero=$(top spin_zero) near=$(top spin_near) far=$(top spin_far) jit=$(top jit_callee)
	echo "perf's stacks: spin_framed: '$(echo "$framed" | head -2 | tr '\n' '|')';" \
		"spin_zero: '$zero'; spin_near: '$near'; spin_far: '$far'; jit_callee: '$jit'"
	grep -q '^spin_framed round_of_spins main' <<<"$framed" &&
		grep -q '^spin_framed round_of_remaps main' <<<"$framed" &&
		[ "$zero" = spin_zero ] && [ "$near" = "spin_near spin_near" ] &&
		[ "$far" = spin_far ] && [ "$jit" = "jit_callee [unknown]" ]
}

# A recording that missed a case is made again, at most three times.
for attempt in 1 2 3; do
	rp_record_attached nocfi.data 1.0 --call-graph dwarf,32768 -e cpu-clock -- \
		./nocfi -t 30000 || rp_cannot_run "perf record --call-graph dwarf,32768 -p failed"
	covered && break
	[ $attempt = 3 ] && fail "the recording missed a case the test needs (test problem)"
	echo "recorded again (attempt $((attempt + 1)))"
done

"$RP" script --no-inline nocfi.data >nocfi.rp 2>/dev/null
rp_same "script --no-inline" nocfi.perf nocfi.rp && echo "ok   script --no-inline"

perf report -i nocfi.data --stdio --no-children --no-inline 2>/dev/null | head -n -3 \
	>report.perf
"$RP" report --no-children --no-inline nocfi.data >report.rp 2>/dev/null
grep -q '%' report.perf || fail "perf report printed no rows (test problem)"
rp_same "report --no-children --no-inline" report.perf report.rp &&
	echo "ok   report --no-children --no-inline"

rp_done "readperf's walks through code without CFI end where perf's do"
