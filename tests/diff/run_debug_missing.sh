#!/bin/bash
# Missing, mismatched and symbol-less binaries of a --call-graph dwarf
# recording, against perf 6.1 (docs/unwind.md, "Missing and mismatched
# files"):
#
#   mismatch  a program recorded (perf record -N: no build-id cache copy),
#             then built again with another build-id
#   stripped  a program without .symtab, recorded as it is
#   gone      the recorded program deleted
#   static    a static program deleted, read with an empty build-id cache:
#             perf shows no user frame of its samples (no file of the
#             process is found, so perf never unwinds it)
#
# For each: perf report and perf script print nothing on standard error
# without -v (checked: the finding this test pins), and neither does
# readperf (report, script): nothing per sample, nothing at the end; the
# rows (-g none) equal perf's.  For the mismatched program readperf's
# stacks stop at its first frame (its file is not the one recorded: no
# CFI is read from it), where perf's libunwind reads the file on disk
# whatever its build-id: pinned (no frame after one of the program's).
#
#   run_debug_missing.sh /path/to/readperf
#
# Skips (exit 77) without perf or a C compiler, unless RP_REQUIRE_PERF=1:
# then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_debug_missing.sh /path/to/readperf}"
awkf=$here/perf_rows.awk
require_perf
require_cc
rp_workdir rp-debug-missing keep-on-failure
cd "$rp_work_dir" || exit 1

cat >prog.c <<'EOF'
#include <stdlib.h>
#include <time.h>
__attribute__((noinline)) long work(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i * i % 7;
	return s;
}
__attribute__((noinline)) long outer(long n) { return work(n) + 1; }
int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 300, s = 0;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		s += outer(100000);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
	return s == 42;
}
EOF
"$CC" -O2 -g -fomit-frame-pointer -o mismatch prog.c 2>cc.err &&
	"$CC" -O2 -g -fomit-frame-pointer -o stripped prog.c 2>>cc.err && strip stripped &&
	"$CC" -O2 -g -fomit-frame-pointer -o gone prog.c 2>>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }

for p in mismatch stripped gone; do
	if ! perf record -N -q --call-graph dwarf -e cpu-clock -F 1000 -o $p.data -- ./$p 300 \
		>$p.record.out 2>&1 || [ ! -s $p.data ]; then
		cat $p.record.out >&2
		rp_cannot_run "perf record --call-graph dwarf failed"
	fi
done
# Another build-id for the same code; the recorded program gone.
"$CC" -O2 -g -fomit-frame-pointer -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567 \
	-o mismatch prog.c 2>cc.err || { cat cc.err >&2; exit 1; }
rm -f gone

rows() { awk -v sep=';' -f "$awkf"; }

for p in mismatch stripped gone; do
	perf report -i $p.data --stdio --no-children -g none --sort comm,dso,sym \
		-F overhead,sample,period,comm,dso,sym -t ';' 2>pf.rows.err | rows >pf.rows
	perf report -i $p.data --stdio --no-children >/dev/null 2>pf.report.err
	perf script -i $p.data >pf.script 2>pf.script.err
	"$RP" report --no-children -g none --sort comm,dso,sym \
		-F overhead,sample,period,comm,dso,sym -t ';' $p.data 2>rp.rows.err | rows >rp.rows
	"$RP" report --no-children $p.data >/dev/null 2>rp.report.err
	"$RP" script $p.data >rp.script 2>rp.script.err
	for e in pf.rows pf.report pf.script; do
		[ ! -s $e.err ] || fail "$p: perf printed on standard error without -v (the finding changed): $(head -c 200 $e.err)"
	done
	for e in rp.rows rp.report rp.script; do
		[ ! -s $e.err ] || fail "$p: readperf printed on standard error: $(head -c 200 $e.err)"
	done
	[ "$(grep -c . rp.rows)" -ge 2 ] || fail "$p: no rows (test problem)"
	rp_same "$p rows" pf.rows rp.rows
	grep -q "($rp_work_dir/$p)" rp.script || fail "$p: no frame of the program in readperf's script (test problem)"
done

# The mismatched program: readperf's stacks end at its first frame; perf's
# go on (libunwind reads the file on disk whatever its build-id).
after() { # script: stacks with a frame after one of the mismatched program's
	awk -v d="($rp_work_dir/mismatch)" '
		/^[^ \t]/ { inprog = 0; next }
		/^$/ { inprog = 0; next }
		{ if (inprog) { n++; inprog = 0 } if (index($0, d)) inprog = 1 }
		END { print n + 0 }' "$1"
}
perf script -i mismatch.data >pf.script 2>/dev/null
"$RP" script mismatch.data >rp.script 2>/dev/null
[ "$(after rp.script)" = 0 ] || fail "mismatch: readperf walked on past the mismatched program ($(after rp.script) frames)"
echo "mismatch: frames after the program's: perf $(after pf.script), readperf $(after rp.script)"

# A static program deleted, its [vdso] not in the build-id cache: no map
# of the process has a file perf finds, so perf's libunwind never starts
# for it (unwind__prepare_access() registers no unwinder) and its samples
# have no user frame at all, not even the sampled ip; a dynamic program
# deleted (above) still has ld.so and libc, so its samples keep their ip.
# The program calls clock_gettime all the time, so that the [vdso] has
# samples and a build-id in the file (without one perf would use a copy
# of its own [vdso], a file it finds); both are read with an empty
# build-id cache ($HOME/.debug: perf sets PERF_BUILDID_DIR for its
# scripts but does not read it).
cat >static.c <<'EOF2'
#include <stdlib.h>
#include <time.h>
__attribute__((noinline)) long spin(long n)
{
	struct timespec t;
	long s = 0;
	for (long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		s += t.tv_nsec & 1;
	}
	return s;
}
int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 300, s = 0;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		s += spin(1000);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
	return s == 42;
}
EOF2
if ! "$CC" -O2 -g -static -o static static.c 2>cc.err; then
	cat cc.err >&2
	fail "static: cannot link a static program (libc6-dev's libc.a)"
elif ! perf record -N -q --call-graph dwarf -e cpu-clock -F 1000 -o static.data -- ./static 300 \
	>static.record.out 2>&1 || [ ! -s static.data ]; then
	cat static.record.out >&2
	fail "static: perf record --call-graph dwarf failed"
else
	rm -f static
	mkdir -p nobid
	home=$HOME
	export HOME=$rp_work_dir/nobid
	unset PERF_BUILDID_DIR
	perf script -i static.data >pf.script 2>/dev/null
	"$RP" script static.data >rp.script 2>rp.script.err
	rp_same "static script" pf.script rp.script
	for o in "" "--no-children" "-g caller" "--sort dso,sym"; do
		# shellcheck disable=SC2086
		perf report -i static.data --stdio $o 2>/dev/null | head -n -3 >pf.report
		# shellcheck disable=SC2086
		"$RP" report $o static.data >rp.report 2>/dev/null
		rp_same "static report $o" pf.report rp.report
	done
	export HOME=$home
	if perf buildid-list -i static.data 2>/dev/null | grep -q ' \[vdso\]$'; then
		# the finding: samples with no user frame (each stack is the
		# sample's header line then a blank line, or kernel frames)
		grep -q "($rp_work_dir/static)" pf.script &&
			fail "static: perf printed frames of the deleted static program (the finding changed)"
	else
		echo "static: the [vdso] had no samples, so no build-id: perf unwinds with its own copy (the case of no file is not reached this run)" >&2
	fi
fi

[ "$failures" -eq 0 ] || { echo "$rp_name: $failures failure(s); kept $rp_work_dir" >&2; exit 1; }
echo "$rp_name: ok"
