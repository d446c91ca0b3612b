#!/bin/bash
# Differential test of DWARF call stacks (perf record --call-graph dwarf)
# against the installed perf, on a C program built and recorded now:
# workload, -O2 -fomit-frame-pointer, libc and libm, a forked child and
# an exec'd one (tests/workload/workload.c; tests/diff/dwarf_lib.sh).
#
#   run_dwarf_workload.sh /path/to/readperf
#
# Checks:
#   - the unwound stacks agree with perf's on >= 99 % of the samples of
#     every process but the exec'd child, whose stacks perf 6.1 loses
#     (docs/unwind.md: its .eh_frame_hdr base comes from a stale pre-exec
#     mapping of the same file); for that child readperf's stacks must
#     reach _start (pinned here).
#
# Skips (exit 77) without perf, a C compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-dwarf-workload "${1:-}"
dwarf_build workload
dwarf_record workload.data ./workload -q -t 1000

perf script -i workload.data --no-inline >workload.perf 2>/dev/null
"$RP" script --no-inline workload.data >workload.rp 2>/dev/null
$agree workload.perf workload.rp --exclude-comm wl-exec --min-share 99 ||
	fail "workload: unwound stacks differ from perf's"
python3 - workload.rp <<'EOF' || fail "workload: the exec'd child's stacks do not reach _start"
import sys
n = ok = 0
head = None
frames = []
def done():
    global n, ok
    if head and head.split()[0] == "wl-exec" and frames and not frames[0].split()[0].startswith("ffff"):
        n += 1
        ok += frames[-1].split()[1].startswith("_start")
for line in open(sys.argv[1]):
    if line.startswith("\t"):
        frames.append(line.strip())
    elif line.strip():
        done()
        head, frames = line, []
done()
print(f"exec'd child: {ok}/{n} user-mode stacks reach _start")
sys.exit(0 if n and ok >= 0.95 * n else 1)
EOF

rp_done "readperf's DWARF call stacks of the workload agree with perf's"
