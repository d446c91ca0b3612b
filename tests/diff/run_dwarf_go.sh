#!/bin/bash
# DWARF call stacks of a Go program (tests/workload/gostacks.go, built
# now with `go build`), recorded with `perf record --call-graph dwarf`:
# where readperf and perf 6.1 differ, and why readperf's stacks are right.
#
#   run_dwarf_go.sh /path/to/readperf
#
# Go's linker writes its CFI into .debug_frame only.  perf 6.1 unwinds
# with libunwind, and Debian's x86-64 libunwind has no .debug_frame
# support (perf is built with NO_LIBUNWIND_DEBUG_FRAME): its
# find_proc_info() finds no .eh_frame_hdr and fails with -EINVAL, which
# ends the walk at the sampled frame.  perf's libdw unwinder
# (util/unwind-libdw.c) and readperf (libdw: .eh_frame, then .debug_frame)
# read .debug_frame and walk the whole stack (docs/unwind.md, "Where perf
# 6.1 is wrong").
# Checks: the binary has .debug_frame and no .eh_frame (the case); of
# every sample, readperf's first user frame is perf's; readperf's frames
# follow the program's calls (main.fib called by main.fib or
# main.spinFib, main.spinFib and main.spinSort by main.main, main.main by
# runtime.main, sort.Ints under main.spinSort), and >= 95 % of the
# samples in the program's code end in the runtime (runtime.goexit for a
# goroutine, the scheduler's frames on the system stack).  How many samples
# perf walked past the sampled frame is printed, not checked.  Samples in
# runtime.asyncPreempt (Go's preemption, entered through a return address
# the runtime pushes: the frame below it is at an interrupted instruction,
# which the walk reads as a call's return, docs/unwind.md) are counted and
# their calls left unchecked.
# Skips (exit 77) without perf, go or python3, unless RP_REQUIRE_PERF=1:
# then it fails.  The scratch directory is kept on failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
rp_take_binary "${1:?usage: run_dwarf_go.sh /path/to/readperf}"
require_perf
require_tool go "no go compiler (apt-get install golang-go)"
require_tool python3 "no python3"
rp_workdir rp-dwarf-go keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1

GOCACHE=$work/gocache GOPATH=$work/gopath GO111MODULE=off \
	go build -o gostacks "$root/tests/workload/gostacks.go" >cc.err 2>&1 ||
	{ cat cc.err >&2; echo "$rp_name: cannot build the Go program" >&2; exit 1; }
if ! readelf -SW gostacks | grep -q '\.debug_frame' || readelf -SW gostacks | grep -q '\.eh_frame'; then
	fail "gostacks: not the layout the test needs (.debug_frame, no .eh_frame; test problem)"
fi

rp_record_attached go.data 1.5 --call-graph dwarf -e cpu-clock -- ./gostacks -t 30000 ||
	rp_cannot_run "perf record --call-graph dwarf -p failed"
perf script -i go.data --no-inline >go.perf 2>/dev/null
"$RP" script --no-inline go.data >go.rp 2>/dev/null

python3 - go.perf go.rp <<'PY' || fail "Go stacks (see above)"
import sys

def samples(path):
    out, cur = [], None
    for line in open(path, errors="replace"):
        if line.startswith("\t"):
            f = line.split()
            cur.append((f[0], f[1].rsplit("+0x", 1)[0], f[-1]))
        elif line.strip():
            cur = []
            out.append(cur)
    return out

def user(frames):
    return [f for f in frames if not f[2].startswith("([kernel")]

perf, rp = samples(sys.argv[1]), samples(sys.argv[2])
if len(perf) != len(rp) or not perf:
    print(f"sample counts: perf {len(perf)}, readperf {len(rp)}")
    sys.exit(1)
callers = {"main.fib": {"main.fib", "main.spinFib"}, "main.spinFib": {"main.main"},
           "main.spinSort": {"main.main"}, "main.main": {"runtime.main"},
           "sort.Ints": {"main.spinSort"}}
bad, first_same, ours, complete, walked, checked, preempted = [], 0, 0, 0, 0, 0, 0
for p, r in zip(perf, rp):
    pu, ru = user(p), user(r)
    first_same += (pu[:1] == ru[:1])
    if not ru or not ru[0][2].endswith("/gostacks)"):
        continue
    ours += 1
    walked += len(pu) > 1
    names = [f[1] for f in ru]
    named = [n for n in names if n != "[unknown]"]
    complete += bool(named) and named[-1].startswith("runtime.")
    if any(n.startswith("runtime.asyncPreempt") for n in names):
        preempted += 1
        continue
    for callee, caller in zip(names, names[1:]):
        if callee in callers:
            checked += 1
            if caller not in callers[callee]:
                bad.append(f"{callee} called by {caller}: {' <- '.join(names)}")
print(f"first user frame equal to perf's: {first_same}/{len(perf)}")
print(f"samples in the program's code: {ours}; ending in the runtime: {complete}; "
      f"calls checked: {checked}, wrong: {len(bad)}")
print(f"perf walked past the sampled frame in {walked} of them")
print(f"samples in runtime.asyncPreempt, their calls not checked: {preempted}")
for b in bad[:5]:
    print("  " + b)
sys.exit(0 if first_same == len(perf) and ours and checked and not bad
         and complete >= 0.95 * ours else 1)
PY

rp_done "readperf walks Go's .debug_frame where perf 6.1 stops at the sampled frame"
