#!/bin/bash
# Differential test of the names of inlined frames, against the installed
# perf, on programs built and recorded now.  perf 6.1 names the frames of
# an unwound entry after binutils' `addr2line -i -f`, run once per DSO
# for the whole recording (docs/unwind.md, "Inlined frames"):
#   - glibc's string functions are assembly whose DWARF (gas) has one
#     subprogram per label, several at one address: addr2line names the
#     address after the last of them (`__memcpy_avx512_unaligned_erms`
#     where the symbol perf keeps is `__memmove_avx512_unaligned_erms`,
#     `__GI_mprotect` for `__mprotect`), which perf prints as an inlined
#     frame;
#   - a C++ function that DWARF gives no linkage name is named after the
#     symbol at the address the first time it is the innermost function
#     of a lookup in the file, after its DWARF name every later time
#     (`step` inlined into main, its exception handler in main's cold
#     part `main.cold`: `step (inlined)` where the symbol is main.cold).
#   - in the children view (caller order) perf looks up a stack's inline
#     chains outermost first, which names other frames than callee order.
# Programs: tests/workload/strings.c (memcpy, memmove, memset, strlen,
# strchr, strcpy, ..., mprotect, on sizes from bytes to 64 KiB; -O2 -g)
# recorded with `--call-graph dwarf` and with `-g`, and
# tests/workload/coldpart.cc and sortlambda.cc (-O2 -g) with
# `--call-graph dwarf`, each
# attached to (-p) so that perf's stale-map bug cannot differ the stacks.
#
#   run_inline_names.sh /path/to/readperf
#
# Checks:
#   - script: the samples whose frame addresses agree with perf's (>= 99 %
#     of them) print the same text, names included, on 100 % of them;
#   - report --no-children (inlined frames in the graphs) equals perf's
#     byte for byte, and sortlambda's children view too;
#   - collapse equals perf's stackcollapse on >= 99 % of the samples;
#   - the recordings did go through the cases: perf prints inlined frames
#     of glibc's string functions, and of coldpart's cold part where its
#     compiler made one (else the test is wrong: fails).
#
# Every readperf command runs with -j 4 and -j 1 (tests/jcheck.sh).
# Skips (exit 77) without perf, a C or C++ compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-inline-names "${1:-}"

"${CC:-cc}" -O2 -g -fno-omit-frame-pointer -o strings "$root/tests/workload/strings.c" \
	2>cc.err &&
	"$CXX" -O2 -g -fomit-frame-pointer -o coldpart "$root/tests/workload/coldpart.cc" \
		2>>cc.err &&
	"$CXX" -O2 -g -fomit-frame-pointer -o sortlambda "$root/tests/workload/sortlambda.cc" \
		2>>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }

# record OUT CALL-GRAPH PROGRAM...: attached to a run of PROGRAM for
# 1.2 s (rp_record_attached).
record() {
	local out=$1 cg=$2
	shift 2
	rp_record_attached "$out" 1.2 --call-graph "$cg" -e cpu-clock -- "$@" ||
		rp_cannot_run "perf record --call-graph $cg -p failed"
}
record str.data dwarf ./strings -t 20000
record strfp.data fp ./strings -t 20000
record cold.data dwarf ./coldpart -t 20000
record lambda.data dwarf ./sortlambda -t 20000

# count PATTERN FILE: the frame lines of script output FILE matching
# PATTERN (an extended regular expression).
count() {
	grep -cE "$1" "$2"
}

for f in str strfp cold; do
	perf script -i $f.data >$f.perf 2>/dev/null
	"$RP" script $f.data >$f.rp 2>/dev/null
	$agree $f.perf $f.rp --min-share 99 --show 0 ||
		fail "$f: script: frame addresses differ from perf's"
	$agree $f.perf $f.rp --names --min-share 100 ||
		fail "$f: script: names differ from perf's"

	perf report -i $f.data --stdio --no-children 2>/dev/null | head -n -3 >$f.nc.perf
	"$RP" report --no-children $f.data >$f.nc.rp 2>/dev/null
	grep -q '%' $f.nc.perf || fail "$f: perf report printed no rows (test problem)"
	if cmp -s $f.nc.perf $f.nc.rp; then
		echo "ok   $f: report --no-children ($(wc -l <$f.nc.perf) lines)"
	else
		rp_same "$f: report --no-children" $f.nc.perf $f.nc.rp
	fi

	rp_collapse_agree $f || fail "$f: collapse differs from perf's"
done

# The children view draws stacks outermost first, and perf then looks up
# the unwound frames' inline chains outermost first: other names than in
# callee order (a program of nested templates: sortlambda.cc).
for v in "" --no-children; do
	tag=lambda.children
	[ -n "$v" ] && tag=lambda.nc
	perf report -i lambda.data --stdio $v 2>/dev/null | head -n -3 >$tag.perf
	"$RP" report $v lambda.data >$tag.rp 2>/dev/null
	grep -q '(inlined)' $tag.perf || fail "lambda: perf report shows no inlined frame (test problem)"
	if cmp -s $tag.perf $tag.rp; then
		echo "ok   lambda: report ${v:-(children view)} ($(wc -l <$tag.perf) lines)"
	else
		rp_same "lambda: report ${v:-(children view)}" $tag.perf $tag.rp
	fi
done

# What the recordings went through, by perf's frames.
strs=$(count '[ \t]__(mem|str|stp|wmem|raw)[a-z0-9_]*\+0x[0-9a-f]+ \(inlined\)$' str.perf)
echo "str: $strs frames of glibc's string functions named after another alias"
[ "$strs" -ge 1 ] || fail "str: perf printed no inlined string function (test problem)"

# Frames in main's cold part, if the compiler made one: perf prints those
# whose DWARF function is inlined code under that function's name.
cold=$(nm coldpart | awk '$3 == "main.cold" { print $1 }')
if [ -n "$cold" ]; then
	size=$(nm -S coldpart | awk '$4 == "main.cold" { print $2 }')
	inl=$(awk -v lo=$((16#$cold)) -v n=$((16#${size:-0})) '
		/^\t/ && / \(inlined\)$/ && $2 !~ /^main\.cold\+/ {
			a = 0
			for (i = 1; i <= length($1); i++)
				a = a * 16 + index("0123456789abcdef", substr($1, i, 1)) - 1
			if (a >= lo && a < lo + n) k++
		}
		END { print k + 0 }' cold.perf)
	echo "cold: $inl frames in main.cold named after the inlined function"
	[ "$inl" -ge 1 ] || fail "cold: no sample in main.cold's inlined code (test problem)"
else
	rp_banner "$CXX made no main.cold in coldpart: the cold-part names go unchecked here"
fi

rp_done "readperf names inlined frames as perf does"
