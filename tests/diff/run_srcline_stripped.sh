#!/bin/bash
# Differential test of source lines where DWARF knows none, against the
# installed perf (which asks binutils' addr2line): frames without a
# symbol in stripped binaries, symbols without a line, and executables
# linked at a fixed address (non-PIE), recorded now with perf record
# --call-graph dwarf, attached (user mode only):
#
#   wl-nopie          tests/workload/workload.c, -O2 -no-pie, no -g
#   wl-nopie-stripped the same, stripped (strip -s)
#   wl-pie-stripped   -O2, PIE, stripped
#   sqlite3           a recursive query (Debian's binary is stripped)
#   dash              a shell loop (stripped)
#   python3           a loop (/usr/bin/python3: Debian's is non-PIE)
#
#   run_srcline_stripped.sh /path/to/readperf
#
# Checks, on each (docs/unwind.md, "Source lines"):
#   - script -F +srcline equals perf's on every frame but glibc's
#     ("dso[addr]" where addr2line finds no function, nothing where it
#     finds one perf has no symbol for, "??:0" for a symbol);
#   - report --children --sort dso,srcline and --no-children --sort
#     dso,sym,srcline equal perf's but glibc's and PLT rows (--children
#     rows of callers show "dso[addr]" with the sampled ip plus the
#     .text section's address minus its file offset, as perf 6.1's
#     map__rip_2objdump() makes it).
#
# Skips (exit 77) without perf, a C compiler, strip, sqlite3, dash or
# python3, unless RP_REQUIRE_PERF=1: then it fails.  The scratch
# directory is kept on failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-srcline-stripped "${1:-}"
require_tool strip "no strip (binutils)"
require_tool sqlite3 "no sqlite3"
require_tool dash "no dash"
[ -x /usr/bin/python3 ] || rp_cannot_run "no /usr/bin/python3"

src=$root/tests/workload/workload.c
# Build-ids of their own, new on every run: a stripped copy with its
# original's build-id would find the original's symbols in the build-id
# cache (~/.debug) and be no stripped binary for perf.
bid() { od -An -tx1 -N20 /dev/urandom | tr -d ' \n'; }
{ "${CC:-cc}" -O2 -fomit-frame-pointer -fno-pie -no-pie -Wl,--build-id=0x"$(bid)" \
	-o wl-nopie "$src" -lm &&
	"${CC:-cc}" -O2 -fomit-frame-pointer -fno-pie -no-pie -Wl,--build-id=0x"$(bid)" \
		-o wl-nopie-full "$src" -lm &&
	strip -s -o wl-nopie-stripped wl-nopie-full &&
	"${CC:-cc}" -O2 -fomit-frame-pointer -fPIE -pie -Wl,--build-id=0x"$(bid)" \
		-o wl-pie "$src" -lm &&
	strip -s -o wl-pie-stripped wl-pie; } 2>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }

# Each attached for 0.4 s, then ended (dwarf_lib.sh; -N: the test's
# programs stay out of the build-id cache); --child MS: the
# workload's work without its forks and exec.
dwarf_record_attached nopie.data 0.4 -N -e cpu-clock:u -- ./wl-nopie --child 20000
dwarf_record_attached nopie-s.data 0.4 -N -e cpu-clock:u -- ./wl-nopie-stripped --child 20000
dwarf_record_attached pie-s.data 0.4 -N -e cpu-clock:u -- ./wl-pie-stripped --child 20000
dwarf_record_attached sqlite3.data 0.4 -e cpu-clock:u -- sqlite3 :memory: \
	'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000)
	 SELECT count(*), sum(x * x % 7) FROM c;'
# shellcheck disable=SC2016 # dash expands it
dwarf_record_attached dash.data 0.4 -e cpu-clock:u -- \
	dash -c 'i=0; while [ $i -lt 100000000 ]; do i=$((i + 1)); done'
dwarf_record_attached python.data 0.4 -e cpu-clock:u -- /usr/bin/python3 -c '
x = 0
for i in range(1000000000):
    x += i * i % 7'

glibc='(libc|libm|ld-linux-x86-64)\.so'
for f in nopie nopie-s pie-s sqlite3 dash python; do
	perf script -i "$f.data" -F +srcline >"$f.srcl.perf" 2>/dev/null
	"$RP" script -F +srcline "$f.data" >"$f.srcl.rp" 2>/dev/null
	echo "$f:"
	python3 "$here/srcline_agree.py" "$f.srcl.perf" "$f.srcl.rp" --min-share 100 \
		--max-stack-diff 1 --skip "$glibc" || fail "$f: script -F +srcline differs from perf's"
	# glibc's rows: docs/unwind.md; PLT rows and [vdso] rows (a
	# sym+OFFSET of 15 digits where a sample caught the vdso): perf
	# cuts some short (docs/report.md, the Source:Line column).
	RP_DWARF_SKIP="$glibc|@plt|\\[vdso\\]"
	report_same "$f.children-srcline" "$f.data" "" --children --sort dso,srcline -g none
	# ... and so are rows of a shared library's addresses without a
	# symbol (.plt.got), whose text perf never compared before sizing
	# its column (docs/report.md); executables' such rows are kept.
	RP_DWARF_SKIP="$glibc|@plt|\\[k\\] |\\.so[^ ]* +\\[\\.\\] 0x"
	report_same "$f.sym-srcline" "$f.data" "" --no-children --sort dso,sym,srcline -g none
	RP_DWARF_SKIP=
done
# What the recordings must hold for the checks to mean something.
grep -q '^  wl-nopie-stripped\[4' nopie-s.srcl.perf ||
	fail "wl-nopie-stripped: perf printed no dso[addr] line at a link-time address (test problem)"
grep -q '^  sqlite3\[' sqlite3.srcl.perf ||
	fail "sqlite3: perf printed no dso[addr] line (test problem)"
rp_done "readperf's source lines without DWARF agree with perf's"
