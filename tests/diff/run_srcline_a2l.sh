#!/bin/bash
# Source lines and files where perf 6.1's addr2line answers decide them,
# against the installed perf (docs/unwind.md, "What perf 6.1 does without
# a line"; docs/report.md, srcfile):
#   - A2L_FAIL_LIMIT: tests/workload/a2l_limit.c, built without -g and
#     stripped, spins first in code where addr2line finds no function,
#     then in its one exported function: perf stops asking once the
#     program's first 123 lookups failed and shows "spin_exported+OFF"
#     where it would have shown "??:0";
#   - the same count in a file with DWARF lines for none of its hot code
#     (tests/workload/a2l_wide.c built without -g, linked with a unit
#     built with -g): its samples fall on hundreds of addresses where
#     DWARF has no line and addr2line names the function ("FILE:?"), an
#     answer that perf counts as found, so it never stops asking;
#   - srcfile of "dso[addr]" whose DSO name has a ':' (the program is
#     named "a2l:limit", as a memfd's "memfd:sealed-..."): "a2l";
#   - --full-source-path: the same program built with -g, relative
#     directories (-fdebug-prefix-map to "."), DWARF 4 and DWARF 5: the
#     paths binutils' bfd makes (DW_AT_comp_dir before a relative
#     directory entry), libc's lines among them.
# Each is built and recorded now; report -g none --no-children --sort
# srcline, srcfile, dso,srcline, dso,sym,srcline (and
# the --full-source-path ones) must equal perf's byte for byte.
#
#   run_srcline_a2l.sh /path/to/readperf
#
# Skips (exit 77) without perf or a C compiler, unless RP_REQUIRE_PERF=1:
# then it fails.  The scratch directory is kept on failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_srcline_a2l.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-srcline-a2l keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1

prog='a2l:limit'
"${CC:-cc}" -O2 -Wl,--export-dynamic-symbol=spin_exported -o "$prog" \
	"$root/tests/workload/a2l_limit.c" 2>cc.err && strip "$prog" ||
	{ cat cc.err >&2; echo "$rp_name: cannot build $prog" >&2; exit 1; }
printf 'int rp_a2l_debug_unit(int x)\n{\n\treturn x + 1;\n}\n' >dbg.c
"${CC:-cc}" -O2 -c -o wide.o "$root/tests/workload/a2l_wide.c" 2>cc.err &&
	"${CC:-cc}" -O2 -g -c -o dbg.o dbg.c 2>>cc.err &&
	"${CC:-cc}" -o 'a2l:wide' wide.o dbg.o 2>>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot build a2l:wide" >&2; exit 1; }
mkdir -p src && cp "$root/tests/workload/a2l_limit.c" src/ || exit 1
for v in 4 5; do
	"${CC:-cc}" -O2 -g -gdwarf-$v -fdebug-prefix-map="$work"=. -o "dw$v" src/a2l_limit.c \
		2>cc.err || { cat cc.err >&2; echo "$rp_name: cannot build dw$v" >&2; exit 1; }
done

# record NAME ARGS...: NAME.data, user mode, of a run perf starts.
record() {
	local name=$1
	shift
	perf record -q -o "$name.data" -F 2000 -e cpu-clock:u -- "$@" >"$name.record.out" 2>&1 ||
		{ cat "$name.record.out" >&2; rp_cannot_run "perf record failed"; }
}
record limit "./$prog" 400 300
record wide './a2l:wide' 400
record dw4 ./dw4 150 100
record dw5 ./dw5 150 100

# report_same TAG FILE ARGS...
report_same() {
	local tag=$1 file=$2
	shift 2
	perf report -i "$file" --stdio "$@" 2>/dev/null | head -n -3 >"$tag.perf"
	"$RP" report "$@" "$file" >"$tag.rp" 2>/dev/null
	grep -q '%' "$tag.perf" || fail "$tag: perf printed no rows (test problem)"
	if cmp -s "$tag.perf" "$tag.rp"; then
		echo "ok   $tag ($(wc -l <"$tag.perf") lines)"
	else
		rp_same "$tag" "$tag.perf" "$tag.rp"
	fi
}

# (Not srcline,srcfile: perf sizes Source File from the texts it computed
# before sizing the column and cuts the others: docs/report.md.)
for keys in srcline srcfile dso,srcline dso,sym,srcline; do
	report_same "limit-$keys" limit.data --no-children -g none --sort "$keys"
done
# What the comparisons are about happened.
grep -qE ' spin_exported\+[0-9]+ *$' limit-srcline.perf ||
	rp_cannot_run "perf did not stop asking addr2line (no spin_exported+OFF row)"
grep -qE '%  a2l *$' limit-srcfile.perf ||
	rp_cannot_run "perf shows no srcfile 'a2l' for the program's addresses"

for keys in srcline srcfile dso,sym,srcline; do
	report_same "wide-$keys" wide.data --no-children -g none --sort "$keys"
done
grep -qE '%  a2l_wide\.c:0 *$' wide-srcline.perf ||
	rp_cannot_run "perf shows no a2l_wide.c:0 row (addr2line's answer changed?)"

for v in 4 5; do
	for keys in srcline srcfile; do
		report_same "dw$v-full-$keys" "dw$v.data" --no-children -g none --sort "$keys" \
			--full-source-path
	done
	grep -qE '%  \./src/a2l_limit\.c' "dw$v-full-srcfile.perf" ||
		rp_cannot_run "dw$v: perf shows no ./src/ path (addr2line's rule changed?)"
done

[ "$failures" -eq 0 ] || { echo "$rp_name: $failures failure(s); kept $work" >&2; exit 1; }
echo "$rp_name: ok"
