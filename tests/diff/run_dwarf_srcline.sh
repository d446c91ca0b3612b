#!/bin/bash
# Differential test of source lines on DWARF call stacks (perf record
# --call-graph dwarf) against the installed perf, on programs built and
# recorded now (tests/diff/dwarf_lib.sh): stacks (C++ -O2, inlined
# templates, a shared library) and, for --children's source lines of
# callers that no unwinding looked up, workload-fp recorded with
# frame-pointer stacks (-g).
#
#   run_dwarf_srcline.sh /path/to/readperf
#
# Checks:
#   - report --sort srcline, srcfile,dso and sym,srcline equal perf's
#     (--no-children; srcline and srcfile with --children on the
#     frame-pointer recording: on stacks, run_dwarf_srcline_children.sh),
#     glibc's and PLT rows aside;
#   - script -F +srcline on >= 99 % of the frames (glibc's aside).
#
# Skips (exit 77) without perf, a C++ compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-dwarf-srcline "${1:-}"
dwarf_build stacks workload-fp
dwarf_record_stacks -F 1000
# Frame-pointer stacks (-g), for --children's source lines of callers
# that no unwinding looked up.
perf record -q -g -e cpu-clock -o fp.data -- ./workload-fp -q -t 500 >fp.data.record.out 2>&1 &&
	[ -s fp.data ] || { cat fp.data.record.out >&2; rp_cannot_run "perf record -g failed"; }

perf script -i stacks.data -F +srcline >stacks.srcl.perf 2>/dev/null
"$RP" script -F +srcline stacks.data >stacks.srcl.rp 2>/dev/null
python3 "$here/srcline_agree.py" stacks.srcl.perf stacks.srcl.rp --min-share 99 \
	--skip '(libc|libm|ld-linux-x86-64)\.so' ||
	fail "stacks script -F +srcline differs from perf's"

# Source lines: glibc's rows are left out (binutils names some lines of
# glibc's multiarch wrapper units after the wrapper, libdw after the file
# the line table gives), and PLT rows (perf cuts some of their sym+off
# texts short): docs/unwind.md.
RP_DWARF_SKIP='(libc|libm|ld-linux-x86-64)\.so|@plt'
report_same stacks.srcline stacks.data "--sort dso,srcline -g none" --no-children --sort dso,srcline -g none
report_same stacks.srcfile stacks.data "--sort dso,srcfile -g none" --no-children --sort dso,srcfile -g none
report_same stacks.sym-srcline stacks.data "--sort dso,sym,srcline -g none" --no-children --sort dso,sym,srcline -g none
# --children (every frame of a stack is a row) with frame-pointer stacks:
# perf looks callers up at the sampled ip as if it were the map's address
# ("sym+OFFSET" in a relocated file).
report_same fp.children-srcline fp.data "--children --sort dso,srcline -g none" --children --sort dso,srcline -g none
report_same fp.children-srcfile fp.data "--children --sort dso,srcfile -g none" --children --sort dso,srcfile -g none
RP_DWARF_SKIP=

rp_done "readperf's source lines agree with perf's"
