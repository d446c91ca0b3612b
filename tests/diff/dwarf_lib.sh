# shellcheck shell=bash
# What the DWARF call-stack tests share (run_dwarf.sh, run_dwarf_srcline.sh,
# run_dwarf_srcline_children.sh, run_dwarf_workload.sh, run_dwarf_edges.sh,
# run_dwarf_fork.sh, run_dwarf_lld.sh, run_inline_names.sh, run_srcline_stripped.sh; the
# ends of run_dwarf_nocfi.sh and run_dwarf_go.sh): the programs of
# tests/workload built and recorded with `perf record --call-graph dwarf`,
# and comparisons of readperf's output with perf's.
#
#   . "$(dirname "$0")/dwarf_lib.sh"
#   dwarf_setup PREFIX "${1:-}"   # readperf, perf, compilers, scratch dir
#   dwarf_build stacks workload   # what the test records
#   ...
#   rp_done "message"            # tests/lib.sh: exit 1 after failures
#
# Skips (exit 77) without perf, a C or C++ compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.

# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# dwarf_setup PREFIX READPERF: RP, the tools checked, a scratch directory
# (kept on failure) made the current one; work is its path, agree the
# frame comparison of stacks_agree.py.
dwarf_setup() {
	rp_take_binary "${2:?usage: $rp_name.sh /path/to/readperf}"
	require_perf
	require_cc
	CXX=${CXX:-c++}
	require_tool "$CXX" "no C++ compiler ($CXX)"
	require_tool python3 "no python3"
	rp_workdir "$1" keep-on-failure
	work=$rp_work_dir
	cd "$work" || exit 1
	# shellcheck disable=SC2034 # for the tests
	agree="python3 $here/stacks_agree.py"
}

# dwarf_build PROGRAM...: builds each in the scratch directory:
#   stacks       C++ -O2 -fomit-frame-pointer, three threads, a shared
#                library of its own that calls back, templates inlined
#                (tests/workload/stacks.cc, stacks_lib.c)
#   workload     C -O2 -fomit-frame-pointer, libc and libm, a forked
#                child and an exec'd one (tests/workload/workload.c)
#   workload-fp  the same, -O1 with frame pointers and no inlining
#   forkinl      C -O2 -fomit-frame-pointer: two processes of one name
#                (a fork), an inlined function mid-stack
#                (tests/workload/forkinl.c)
#   stacks-lld, workload-lld  stacks and workload linked by ld.lld
#                (-fuse-ld=lld): segments whose file offsets and
#                addresses differ by a page, several segments in a page
# exit 1 when a compiler fails.
dwarf_build() {
	local p ok=0

	: >cc.err
	for p in "$@"; do
		case $p in
		stacks)
			# shellcheck disable=SC2016 # $ORIGIN is the linker's
			"${CC:-cc}" -O2 -g -fomit-frame-pointer -fPIC -shared -o libstacks.so \
				"$root/tests/workload/stacks_lib.c" 2>>cc.err &&
				"$CXX" -O2 -g -fomit-frame-pointer -pthread -o stacks \
					"$root/tests/workload/stacks.cc" -L. -lstacks \
					-Wl,-rpath,'$ORIGIN' 2>>cc.err || ok=1 ;;
		workload)
			"${CC:-cc}" -O2 -g -fomit-frame-pointer -o workload \
				"$root/tests/workload/workload.c" -lm 2>>cc.err || ok=1 ;;
		stacks-lld)
			# shellcheck disable=SC2016 # $ORIGIN is the linker's
			"${CC:-cc}" -O2 -g -fomit-frame-pointer -fPIC -shared -fuse-ld=lld \
				-o libstacks.so "$root/tests/workload/stacks_lib.c" 2>>cc.err &&
				"$CXX" -O2 -g -fomit-frame-pointer -pthread -fuse-ld=lld -o stacks-lld \
					"$root/tests/workload/stacks.cc" -L. -lstacks \
					-Wl,-rpath,'$ORIGIN' 2>>cc.err || ok=1 ;;
		workload-lld)
			"${CC:-cc}" -O2 -g -fomit-frame-pointer -fuse-ld=lld -o workload-lld \
				"$root/tests/workload/workload.c" -lm 2>>cc.err || ok=1 ;;
		forkinl)
			"${CC:-cc}" -O2 -g -fomit-frame-pointer -o forkinl \
				"$root/tests/workload/forkinl.c" -lm 2>>cc.err || ok=1 ;;
		workload-fp)
			"${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o workload-fp \
				"$root/tests/workload/workload.c" -lm 2>>cc.err || ok=1 ;;
		*)
			echo "$rp_name: dwarf_build: no program $p" >&2
			exit 1 ;;
		esac
	done
	[ $ok -eq 0 ] || { cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }
}

# dwarf_record OUT [PERF-OPTIONS... --] COMMAND...: OUT, perf record
# --call-graph dwarf -e cpu-clock of COMMAND (more perf options before a
# "--"); rp_cannot_run when perf fails or writes nothing.
dwarf_record() {
	local out=$1
	shift
	local -a popts=()
	if printf '%s\n' "$@" | grep -qx -- --; then
		while [ "$1" != -- ]; do popts+=("$1"); shift; done
		shift
	fi
	if ! perf record -q --call-graph dwarf -e cpu-clock "${popts[@]}" -o "$out" -- "$@" \
		>"$out.record.out" 2>&1 || [ ! -s "$out" ]; then
		cat "$out.record.out" >&2
		rp_cannot_run "perf record --call-graph dwarf failed"
	fi
}

# dwarf_record_attached OUT SECONDS [PERF-OPTIONS... --] COMMAND...: OUT,
# perf record --call-graph dwarf -e cpu-clock attached (-p) to COMMAND for
# SECONDS (rp_record_attached in tests/lib.sh: COMMAND must run longer).
# perf 6.1 loses the stacks of a process it started itself now and then
# (the maps it keeps from before the exec, docs/unwind.md), and unwinds
# samples in exit handlers otherwise than readperf, which would make
# byte-for-byte comparisons fail by chance.
dwarf_record_attached() {
	local out=$1 secs=$2
	shift 2
	local -a popts=()
	if printf '%s\n' "$@" | grep -qx -- --; then
		while [ "$1" != -- ]; do popts+=("$1"); shift; done
		shift
	fi
	rp_record_attached "$out" "$secs" --call-graph dwarf -e cpu-clock "${popts[@]}" -- "$@" ||
		rp_cannot_run "perf record --call-graph dwarf -p failed ($out)"
}

# shellcheck disable=SC2120 # options are optional
# dwarf_record_stacks [PERF-OPTIONS...]: stacks.data, the C++ program
# recorded attached for 2 s.  The source-line tests record at -F 1000:
# perf looks every frame's line up with addr2line (1-2 min for a
# recording at the default rate).
dwarf_record_stacks() {
	if [ $# -gt 0 ]; then
		dwarf_record_attached stacks.data 2 "$@" -- ./stacks -t 30000 -j 3
	else
		dwarf_record_attached stacks.data 2 ./stacks -t 30000 -j 3
	fi
}

# same TAG FILE-PERF FILE-RP: exact comparison.
same() {
	if cmp -s "$2" "$3"; then
		echo "ok   $1 ($(wc -l <"$2") lines)"
	else
		rp_same "$1" "$2" "$3"
	fi
}

# report_same TAG FILE "READPERF ARGS" PERF ARGS...: perf report --stdio
# ARGS and readperf report ARGS on FILE, equal; with RP_DWARF_SKIP set
# (an extended regular expression), the rows it matches and the header
# are left out (the column widths follow the rows left out) and trailing
# blanks ignored.
report_same() {
	local tag=$1 file=$2
	shift 3
	perf report -i "$file" --stdio "$@" 2>/dev/null | head -n -3 >"$tag.perf"
	"$RP" report "$@" "$file" >"$tag.rp" 2>/dev/null
	grep -q '%' "$tag.perf" || fail "$tag: perf printed no rows (test problem)"
	if [ -n "${RP_DWARF_SKIP:-}" ]; then
		grep -vE "$RP_DWARF_SKIP|^#" "$tag.perf" | sed 's/ *$//' >"$tag.perf.kept"
		grep -vE "$RP_DWARF_SKIP|^#" "$tag.rp" | sed 's/ *$//' >"$tag.rp.kept"
		same "$tag (without $RP_DWARF_SKIP)" "$tag.perf.kept" "$tag.rp.kept"
	else
		same "$tag" "$tag.perf" "$tag.rp"
	fi
}
