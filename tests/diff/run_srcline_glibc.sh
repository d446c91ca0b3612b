#!/bin/bash
# Source lines in glibc against the installed perf, whose addr2line
# (binutils) names some line-table rows of glibc's DWARF 5 units after the
# unit's file 0 (w_pow.c, w_exp.c, s_sincos-fma.c, libc-start.c) where the
# row gives file 1 (w_pow_template.c, ...): docs/unwind.md, "Source
# files of line-table rows".  A C program spending its time in libm's and
# libc's functions (tests/workload/glibc_lines.c) is built and recorded
# now with --call-graph dwarf (attached: -p); glibc's rows are kept.
#
#   run_srcline_glibc.sh /path/to/readperf
#
# Checks that these equal perf's, byte for byte:
#   - report --no-children -g none --sort srcline, srcfile, dso,srcline,
#     and srcline, srcfile with --full-source-path;
#   - report --children -g none --sort dso,srcline and dso,srcfile (but the
#     row of ld.so's _start, whose line perf prints as ":0", readperf as
#     "??:0": docs/unwind.md, and for srcfile the program's own rows);
# and that script -F +srcline agrees on every frame (ld.so's _start
# aside).  Needs glibc's debug files (libc6-dbg): the test checks that
# perf found source lines in libm.
#
# Skips (exit 77) without perf, a C compiler, python3 or glibc's debug
# files, unless RP_REQUIRE_PERF=1: then it fails.  The scratch directory is
# kept on failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_srcline_glibc.sh /path/to/readperf}"
require_perf
require_cc
require_tool python3 "no python3"
rp_workdir rp-srcline-glibc keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1

"${CC:-cc}" -O2 -g -fomit-frame-pointer -o glibc_lines "$root/tests/workload/glibc_lines.c" \
	-lm 2>cc.err || { cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }
# Recorded by attaching to it (-p, rp_record_attached), as run_dwarf.sh
# records: perf 6.1 keeps stale maps now and then for a program it
# started itself.  (It would run 20 s: it is stopped once perf is done.)
# User mode only: a kernel sample's srcline ("sym+off") may be longer than
# perf's Source:Line column, which perf cuts (docs/report.md); one CI run
# caught sched_balance_update_blocked_averages+1504.
rp_record_attached glibc.data 1.2 --call-graph dwarf -e cpu-clock:u -- ./glibc_lines -t 20000 ||
	rp_cannot_run "perf record --call-graph dwarf -p failed"

# ld.so's _start: perf ":0", readperf "??:0" (not what this test is about).
start_row='ld-linux-x86-64\.so\.2 +(\?\?)?:0$'

# report_same TAG PERF-REPORT-ARGS...
report_same() {
	local tag=$1
	shift
	perf report -i glibc.data --stdio "$@" 2>/dev/null | head -n -3 >"$tag.perf"
	"$RP" report "$@" glibc.data >"$tag.rp" 2>/dev/null
	grep -q '%' "$tag.perf" || fail "$tag: perf printed no rows (test problem)"
	grep -vE "$start_row|${drop_rows:-^\$^}" "$tag.perf" >"$tag.perf.kept"
	grep -vE "$start_row|${drop_rows:-^\$^}" "$tag.rp" >"$tag.rp.kept"
	if cmp -s "$tag.perf.kept" "$tag.rp.kept"; then
		echo "ok   $tag ($(wc -l <"$tag.perf.kept") lines)"
	else
		rp_same "$tag" "$tag.perf.kept" "$tag.rp.kept"
	fi
}

report_same srcline --no-children -g none --sort srcline
report_same srcfile --no-children -g none --sort srcfile
report_same dso-srcline --no-children -g none --sort dso,srcline
# The paths addr2line makes: glibc's comp_dir before its relative
# directories ("./malloc/./malloc/malloc.c": docs/unwind.md).
report_same full-srcline --no-children -g none --sort srcline --full-source-path
report_same full-srcfile --no-children -g none --sort srcfile --full-source-path
report_same children-srcline --children -g none --sort dso,srcline
# With --children perf gives the program's own self samples (main) the
# source file of whichever entry of its row it made first, at times none
# (not glibc's rows; not followed): its rows are left out here.
drop_rows='^ +[0-9.]+% +[0-9.]+% +glibc_lines ' \
	report_same children-srcfile --children -g none --sort dso,srcfile

# The comparison means something only where perf found glibc's lines.
grep -qE 'libm\.so\.6 +[^ ]+\.[ch]:[1-9]' dso-srcline.perf ||
	rp_cannot_run "perf shows no source lines in libm (glibc's debug files, libc6-dbg, missing?)" \
		"glibc's source lines were NOT compared with perf."

perf script -i glibc.data -F +srcline >script.perf 2>/dev/null
"$RP" script -F +srcline glibc.data >script.rp 2>/dev/null
python3 "$here/srcline_agree.py" script.perf script.rp --min-share 100 \
	--skip ' _start\+0x[0-9a-f]+ \(.*/ld-linux-x86-64\.so\.2\)$' ||
	fail "script -F +srcline differs from perf's"

[ "$failures" -eq 0 ] || { echo "$rp_name: $failures failure(s); kept $work" >&2; exit 1; }
echo "$rp_name: ok"
