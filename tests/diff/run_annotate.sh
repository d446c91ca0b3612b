#!/bin/bash
# readperf annotate against perf annotate --stdio, on recordings made now.
#
#   run_annotate.sh /path/to/readperf
#
# Records tests/workload/workload.c (its own hot loops, libc, libm) with
# one event and with two (cpu-clock and task-clock), then compares for each
# recording `perf annotate --stdio` (every function with samples, hottest
# first) and, for the hottest functions of the workload itself,
# `perf annotate --stdio -s SYM` and `-n -s SYM`, with readperf's output
# (tests/diff/annotate_agree.py): the same functions in the same order,
# the same instruction addresses with the same percentages or sample
# counts, the same instruction text but for the spellings that
# docs/annotate.md lists (normalised in annotate_agree.py, each stated).
# Every line is compared: objdump -l -S's preamble, function names,
# FILE:LINE lines and source context as perf numbers them; for fib, the
# whole text byte for byte.  Then a C++ recording
# (tests/workload/annot_cxx.cc): template names in branch targets, a
# notrack jmp of a jump table, objdump's function lines with their
# parameters.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check, CI): then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_annotate.sh /path/to/readperf}"
agree=$here/annotate_agree.py
require_perf
require_cc
require_tool python3 "python3 is not installed (the comparison is a Python script)"
require_tool objdump "objdump is not installed (perf annotate runs it: apt-get install binutils)"
if ! "$RP" annotate --help >/dev/null 2>&1; then
	fail "readperf annotate --help failed"
	exit 1
fi
rp_workdir rp-annotate keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

record_workload one -e cpu-clock -F 2000 -- -t 400
record_workload two -e cpu-clock,task-clock -F 1000 -- -t 300

compare() { # [--insns-only] TAG PERF-ARGS...  (readperf gets the same arguments)
	local only=
	case $1 in --insns-only | --whole) only=$1 && shift ;; esac
	local tag=$1
	shift
	if ! perf annotate --stdio "$@" >"$tag.perf.txt" 2>"$tag.perf.err"; then
		cat "$tag.perf.err" >&2
		fail "$tag: perf annotate $* failed"
		return
	fi
	if ! "$RP" annotate "$@" >"$tag.rp.txt" 2>"$tag.rp.err"; then
		cat "$tag.rp.err" >&2
		fail "$tag: readperf annotate $* failed"
		return
	fi
	if python3 "$agree" $only "$tag.perf.txt" "$tag.rp.txt" >"$tag.agree.txt"; then
		echo "ok $tag: $(tail -1 "$tag.agree.txt")"
	else
		fail "$tag: readperf annotate $* differs from perf:"
		head -40 "$tag.agree.txt" >&2
	fi
}

for rec in one two; do
	compare "$rec.all" -i "$rec.data"
	# the workload's own hottest functions, as perf report ranks them
	syms=$(perf report -i "$rec.data" --stdio --no-children --sort dso,sym -F sym \
		--dsos workload -t ';' 2>/dev/null | grep -v '^#' | sed -n 's/^\[\.\] *//p' |
		sed 's/ *$//' | head -3)
	[ -n "$syms" ] || fail "$rec: perf report found no function of the workload"
	n=0
	while IFS= read -r sym; do
		[ -n "$sym" ] || continue
		n=$((n + 1))
		compare "$rec.s$n" -i "$rec.data" -s "$sym"
		[ $n -eq 1 ] && compare "$rec.n$n" -i "$rec.data" -n -s "$sym"
	done <<<"$syms"
done

# fib (recursion, no data, no libc): every line byte for byte, objdump's
# source context before "{" numbered from its FILE:LINE line as perf does
for rec in one two; do
	compare --whole "$rec.fib" -i "$rec.data" -s fib
	grep -q ': 6 *fib():$' "$rec.fib.perf.txt" ||
		fail "$rec.fib: perf printed no fib(): line (the case is not tested)"
done

# objdump's reading of source files, on a program written here: a
# function inlined from a header, comments that perf takes for FILE:LINE
# lines ("// x:7"), tabs inside lines; then, the binary built, the files
# rewritten with CR, LF CR and CR LF line ends, a NUL, a line cut short by
# a CR and a header whose last line has no end (objdump shows up to the
# first CR, LF or NUL, and never an unended last line)
printf '#define N 1000\nstatic inline int sq(int x)\n{\n\treturn x * x;\t/* sq:1 */\n}\n' >edge.h
{
	printf '#include "edge.h"\nvolatile long sink;\n'
	for i in 1 2 3 4 5 6 7 8; do printf '// x:7 looks like a FILE:LINE line\t(%s)\n' "$i"; done
	printf '__attribute__((noinline)) long work(int n)\n{\n\tlong s = 0;\t\t// acc\n'
	printf '\tfor (int i = 0; i < n; i++)   \n\t\ts += sq(i) %% 7 ? sq(i + 1) : i;\n\treturn s;\n}\n'
	printf 'int main(int argc, char **argv)\n{\n\tlong t = 0;\n\t(void)argv;\n'
	printf '\tfor (int k = 0; k < 3000; k++)\n\t\tt += work(argc * 20000 + k);\n\tsink = t;\n\treturn 0;\n}\n'
} >edge.c
if "${CC:-cc}" -O2 -g -o edge edge.c 2>edge.err &&
	perf record -q -e cpu-clock -F 2000 -o edge.data -- ./edge >edge.out 2>&1; then
	python3 - <<'PY' || fail "edge: cannot rewrite the sources"
d = open('edge.c', 'rb').read()
d = d.replace(b'\n', b'\r', 3).replace(b'(2)\n', b'(2)\r\n').replace(b'(3)\n', b'(3)\n\r')
d = d.replace(b'// acc', b'// a\rcc').replace(b'(4)', b'(\x004)')
open('edge.c', 'wb').write(d)
open('edge.h', 'wb').write(b'#define N 1000\r\nstatic inline int sq(int x)\n{\n\treturn x * x;')
PY
	compare --whole edge -i edge.data -s work
	grep -q ': [0-9]* *sq():$' edge.perf.txt ||
		fail "edge: perf shows no sq() line (the inlined header function is not tested)"
else
	cat edge.err edge.out >&2 2>/dev/null
	fail "edge: cannot build or record the program"
fi

# readperf's FILE SYM operands read as perf annotate's -i FILE -s SYM
sym=$(sed -n 's/.*<\([a-z_]*\)>:$/\1/p' one.s1.rp.txt | head -1)
if [ -n "$sym" ]; then
	"$RP" annotate one.data "$sym" >operands.txt 2>&1 || fail "readperf annotate FILE SYM failed"
	rp_same "FILE SYM operands" one.s1.rp.txt operands.txt
fi

# A function without size that runs on into the next sections: _init
# (crti.o gives it no size) ends where the next symbol starts, past .init,
# .plt and .plt.got, and perf's objdump disassembles every section it
# crosses.  No recording samples _init reliably, so one sample of one.data
# in the workload's code is moved there: its IP, found in the record by
# value, becomes the mapped address of _init's file offset.
init_off=$(readelf -SW workload | awk '$2 == ".init" { print $5 }')
map=$(perf report -D -i one.data 2>/dev/null |
	sed -n 's/.*PERF_RECORD_MMAP2* [0-9]*\/[0-9]*: \[\(0x[0-9a-f]*\)(\(0x[0-9a-f]*\)) @ \(0x[0-9a-f]*\) .*r-xp .*\/workload$/\1 \2 \3/p' | head -1)
sample=$(perf report -D -i one.data 2>/dev/null |
	sed -n 's/^[0-9]* \(0x[0-9a-f]*\) \[\(0x[0-9a-f]*\)\]: PERF_RECORD_SAMPLE([^)]*): [0-9]*\/[0-9]*: \(0x[0-9a-f]*\) .*/\1 \2 \3/p' |
	while read -r off size ip; do
		# the first sample in the workload's executable mapping
		set -- $map
		if [ $# -eq 3 ] && [ $((ip)) -ge $(($1)) ] && [ $((ip)) -lt $(($1 + $2)) ]; then
			echo "$off $size $ip $(($1 + 0x$init_off - $3))"
			break
		fi
	done)
if [ -z "$init_off" ] || [ -z "$sample" ]; then
	fail "init: no .init section or no sample in the workload's code to move there"
else
	python3 - one.data init.data $sample <<'PY' || fail "init: cannot move the sample"
import struct, sys
src, dst, off, size, ip, new = sys.argv[1:]
d = bytearray(open(src, 'rb').read())
off, size, ip, new = int(off, 0), int(size, 0), int(ip, 0), int(new)
rec = d[off:off + size]
at = next(i for i in range(8, size, 8) if struct.unpack_from('<Q', rec, i)[0] == ip)
struct.pack_into('<Q', d, off + at, new)
open(dst, 'wb').write(d)
PY
	compare init -i init.data -s _init
	grep -q 'Disassembly of section .plt' init.perf.txt ||
		fail "init: perf's _init did not run on into .plt (the case is not tested)"
fi

# C++ (tests/workload/annot_cxx.cc): branch targets that objdump names
# with the '<' and '>' of templates, and a switch's jump table under
# -fcf-protection, whose indirect jump objdump writes "notrack jmp"
# (capstone 4 drops the 3e prefix: readperf writes it back).
if command -v "${CXX:-c++}" >/dev/null 2>&1 &&
	"${CXX:-c++}" -O2 -g -fno-omit-frame-pointer -fcf-protection=full -o annot_cxx \
		"$root/tests/workload/annot_cxx.cc" 2>cxx.err; then
	if perf record -q -e cpu-clock -o cxx.data -- ./annot_cxx 400 >cxx.out 2>&1; then
		# The program's own functions: the recording also catches its
		# start and exit in libraries now and then (one sample in
		# libm's __do_global_dtors_aux, where perf prints a source-line
		# header readperf does not: docs/annotate.md).
		compare cxx.all -i cxx.data --dsos annot_cxx
		grep -q 'notrack jmp' cxx.all.perf.txt ||
			fail "cxx: perf annotate shows no notrack jmp (the case is not tested)"
		grep -q 'call .*<Acc<' cxx.all.perf.txt ||
			fail "cxx: perf annotate shows no call to Acc<...> (the case is not tested)"
	else
		cat cxx.out >&2
		fail "cxx: perf record failed"
	fi
else
	cat cxx.err >&2 2>/dev/null
	rp_cannot_run "no C++ compiler with -fcf-protection (${CXX:-c++})"
fi

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failure(s); recordings kept in $work" >&2
	exit 1
fi
echo "$rp_name: readperf annotate agrees with perf annotate"
