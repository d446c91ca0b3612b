#!/bin/bash
# The unwinder's fast walker (lib/unwind/unwind.c: CFI rows cached per
# DSO, x86-64) against libdwfl's walk, on recordings made now with
# `perf record --call-graph dwarf`:
#
#   workload  C -O2 -fomit-frame-pointer, libc and libm, a forked child and
#             an exec'd one, started by perf (tests/workload/workload.c)
#   stacks    C++ -O2 -fomit-frame-pointer, three threads, a shared library
#             of its own that calls back (tests/workload/stacks.cc,
#             stacks_lib.c)
#   threads   C -O2 -fomit-frame-pointer, four threads, recursion
#             (tests/workload/threads.c)
#   plt       C -O2, a loop calling a shared library's function through
#             its PLT entry (made here)
#
# PLT entries' rows, whose CFA is the linker's DWARF expression, are
# walked fast: at least one frame over the four files (on this project's
# VM, whose timer interrupts rarely land inside a PLT entry, the stacks
# file alone gives 5-10; on real hardware the plt file gives many).
#
# tests/tools/rp-unwind-check walks every sample's user stack with both
# (each on an unwinder of its own, at the sample's place in the pipeline)
# and counts the samples whose frames differ: 0 on every file.  The fast
# walker must also have done the walk alone on >= 90 % of the samples
# (else this compares libdwfl with itself).  perf is not the oracle here:
# tests/diff/run_dwarf.sh compares the stacks with perf's.
#
#   run_unwind_fast.sh /path/to/readperf
#
# Skips (exit 77) without perf, a C or C++ compiler, unless
# RP_REQUIRE_PERF=1: then it fails.  Off x86-64 the fast walker does not
# run: skips.  The scratch directory is kept on failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_unwind_fast.sh /path/to/readperf}" nocheck
[ "$(uname -m)" = x86_64 ] ||
	{ rp_banner "$rp_name SKIPPED: the fast walker is x86-64 only"; exit 77; }
check=$(dirname "$RP")/tests/rp-unwind-check
[ -x "$check" ] || { echo "$rp_name: $check missing (build the tests)" >&2; exit 1; }
require_perf
require_cc
CXX=${CXX:-c++}
require_tool "$CXX" "no C++ compiler ($CXX)" "The fast walker was NOT compared with libdwfl."
rp_workdir rp-unwind-fast keep-on-failure
cd "$rp_work_dir" || exit 1

w=$root/tests/workload
"$CC" -O2 -g -fomit-frame-pointer -fPIC -shared -o libstacks.so "$w/stacks_lib.c" 2>cc.err &&
	"$CXX" -O2 -g -fomit-frame-pointer -pthread -o stacks "$w/stacks.cc" \
		-L. -lstacks -Wl,-rpath,'$ORIGIN' 2>>cc.err &&
	"$CC" -O2 -g -fomit-frame-pointer -o workload "$w/workload.c" -lm 2>>cc.err &&
	"$CC" -O2 -g -fomit-frame-pointer -pthread -o threads "$w/threads.c" 2>>cc.err &&
	printf '%s\n' 'int plt_leaf(int x) { return x + 1; }' >plt_lib.c &&
	printf '%s\n' '#include <stdlib.h>' '#include <time.h>' 'int plt_leaf(int);' \
		'int main(int argc, char **argv) {' \
		'  long ms = argc > 1 ? atol(argv[1]) : 300; volatile int v = 0;' \
		'  struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);' \
		'  do { for (int i = 0; i < 100000; i++) v = plt_leaf(v);' \
		'       clock_gettime(CLOCK_MONOTONIC, &b);' \
		'  } while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);' \
		'  return v == 42; }' >plt.c &&
	"$CC" -O2 -g -fPIC -shared -o libplt.so plt_lib.c 2>>cc.err &&
	"$CC" -O2 -g -o plt plt.c -L. -lplt -Wl,-rpath,'$ORIGIN' 2>>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }

record() {
	local out=$1
	shift
	if ! perf record -q --call-graph dwarf -e cpu-clock -F 2000 -o "$out" -- "$@" \
		>"$out.record.out" 2>&1 || [ ! -s "$out" ]; then
		cat "$out.record.out" >&2
		rp_cannot_run "perf record --call-graph dwarf failed" \
			"The fast walker was NOT compared with libdwfl."
	fi
}
record workload.data ./workload -q -t 600
record stacks.data ./stacks -t 800 -j 3
record threads.data ./threads -t 400 -j 3
record plt.data ./plt 300

for f in workload stacks threads plt; do
	"$check" "$f.data" >"$f.check" 2>"$f.check.err"
	rc=$?
	cat "$f.check.err" >&2
	read -r -a kv <"$f.check"
	declare -A got=()
	for ((i = 0; i + 1 < ${#kv[@]}; i += 2)); do got[${kv[i]}]=${kv[i + 1]}; done
	samples=${got[samples]:-0} differ=${got[differ]:-?} fast=${got[fast]:-0}
	plt=${got[plt_frames]:-0}
	echo "$f: $(cat "$f.check")"
	if [ "$rc" -eq 2 ]; then
		fail "$f: rp-unwind-check failed"
		continue
	fi
	[ "$samples" -ge 50 ] || fail "$f: only $samples samples walked (test problem)"
	[ "$differ" = 0 ] && [ "$rc" -eq 0 ] ||
		fail "$f: $differ of $samples samples differ between the fast walker and libdwfl"
	[ $((fast * 100)) -ge $((samples * 90)) ] ||
		fail "$f: the fast walker finished only $fast of $samples walks (< 90 %)"
	plt_total=$((${plt_total:-0} + plt))
	unset got
done
[ "${plt_total:-0}" -ge 1 ] || fail "no frame was walked fast through a PLT entry's row"
[ "$failures" -eq 0 ] || { echo "$rp_name: $failures failure(s); kept $rp_work_dir" >&2; exit 1; }
echo "$rp_name: ok"
