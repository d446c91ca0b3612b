#!/bin/bash
# Differential test of source lines in perf's default view (report
# --children: every frame of a stack is a row) on DWARF call stacks (perf
# record --call-graph dwarf), against the installed perf, on stacks (C++
# -O2, inlined templates, a shared library: tests/diff/dwarf_lib.sh)
# built and recorded now.  The other source-line checks are
# run_dwarf_srcline.sh's.
#
#   run_dwarf_srcline_children.sh /path/to/readperf
#
# Checks:
#   - report --children --sort dso,srcline and dso,srcfile equal perf's,
#     glibc's and PLT rows aside.
#
# Skips (exit 77) without perf, a C++ compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-dwarf-srcline-children "${1:-}"
dwarf_build stacks
dwarf_record_stacks -F 1000

# Source lines: glibc's rows are left out (binutils names some lines of
# glibc's multiarch wrapper units after the wrapper, libdw after the file
# the line table gives), and PLT rows (perf cuts some of their sym+off
# texts short): docs/unwind.md.
RP_DWARF_SKIP='(libc|libm|ld-linux-x86-64)\.so|@plt'
# The same keys in perf's default view: every frame of a stack is a row,
# with an inline record's own line, and perf's lookup at the sampled ip
# (no srcfile in a relocated file, "dso[ip]" without a symbol).
report_same stacks.children-srcline stacks.data "--children --sort dso,srcline -g none" --children --sort dso,srcline -g none
report_same stacks.children-srcfile stacks.data "--children --sort dso,srcfile -g none" --children --sort dso,srcfile -g none
RP_DWARF_SKIP=

rp_done "readperf's --children source lines agree with perf's"
