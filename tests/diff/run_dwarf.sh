#!/bin/bash
# Differential test of DWARF call stacks (perf record --call-graph dwarf)
# and inlined frames against the installed perf, on programs built and
# recorded now:
#
#   stacks    C++ -O2 -fomit-frame-pointer, three threads, a shared library
#             of its own that calls back, templates inlined at -O2
#             (tests/workload/stacks.cc, stacks_lib.c)
#   workload  C -O2 -fomit-frame-pointer, libc and libm, a forked child and
#             an exec'd one (tests/workload/workload.c)
#
#   run_dwarf.sh /path/to/readperf
#
# Checks, on stacks:
#   - script --no-inline equals perf script --no-inline, byte for byte;
#   - script (inlined frames) agrees with perf script on 100 % of the
#     samples' frame addresses and on >= 99 % of their text (perf names a
#     few assembly functions after another alias at the same address:
#     docs/unwind.md);
#   - report --no-children and --children (graphs), with --no-inline, equal
#     perf's; report --no-children with inlined frames equals perf's;
#   - report --sort srcline, srcfile,dso and sym,srcline equal perf's
#     (--no-children, and srcline and srcfile with --children, also on a
#     frame-pointer recording), and
#     script -F +srcline on >= 99 % of the frames (glibc's aside);
#   - go tool pprof -list on readperf's pprof shows stacks.cc's lines with
#     their figures;
#   - report --children has __libc_start_call_main in one row;
#   - collapse equals perf's stackcollapse on >= 99 % of the samples;
# on workload:
#   - the unwound stacks agree with perf's on >= 99 % of the samples of
#     every process but the exec'd child, whose stacks perf 6.1 loses
#     (docs/unwind.md: its .eh_frame_hdr base comes from a stale pre-exec
#     mapping of the same file); for that child readperf's stacks must
#     reach _start (pinned here).
#
# Skips (exit 77) without perf, a C++ compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_dwarf.sh /path/to/readperf}"
require_perf
require_cc
CXX=${CXX:-c++}
require_tool "$CXX" "no C++ compiler ($CXX)"
require_tool python3 "no python3"
rp_workdir rp-dwarf keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
agree="python3 $here/stacks_agree.py"

"${CC:-cc}" -O2 -g -fomit-frame-pointer -fPIC -shared -o libstacks.so \
	"$root/tests/workload/stacks_lib.c" 2>cc.err &&
	"$CXX" -O2 -g -fomit-frame-pointer -pthread -o stacks "$root/tests/workload/stacks.cc" \
		-L. -lstacks -Wl,-rpath,'$ORIGIN' 2>>cc.err &&
	"${CC:-cc}" -O2 -g -fomit-frame-pointer -o workload "$root/tests/workload/workload.c" \
		-lm 2>>cc.err &&
	"${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o workload-fp \
		"$root/tests/workload/workload.c" -lm 2>>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }

record() {
	local out=$1
	shift
	if ! perf record -q --call-graph dwarf -e cpu-clock -o "$out" "$@" \
		>"$out.record.out" 2>&1 || [ ! -s "$out" ]; then
		cat "$out.record.out" >&2
		rp_cannot_run "perf record --call-graph dwarf failed"
	fi
}
# The C++ program is recorded by attaching to it (-p): perf 6.1 loses the
# stacks of a process it started itself now and then (the maps it keeps
# from before the exec, see above), which would make byte-for-byte
# comparisons fail by chance.  The workload is started by perf.
./stacks -t 2600 -j 3 &
stacks_pid=$!
sleep 0.3
timeout -s INT 2 perf record -q --call-graph dwarf -e cpu-clock -o stacks.data \
	-p "$stacks_pid" >stacks.data.record.out 2>&1
wait "$stacks_pid"
grep -q . <(perf script -i stacks.data 2>/dev/null | head -1) || {
	cat stacks.data.record.out >&2
	rp_cannot_run "perf record --call-graph dwarf -p failed"
}
record workload.data -- ./workload -q -t 1000
# Frame-pointer stacks (-g), for --children's source lines of callers
# that no unwinding looked up.
perf record -q -g -e cpu-clock -o fp.data -- ./workload-fp -q -t 500 >fp.data.record.out 2>&1 &&
	[ -s fp.data ] || { cat fp.data.record.out >&2; rp_cannot_run "perf record -g failed"; }

# same TAG FILE-PERF FILE-RP: exact comparison.
same() {
	if cmp -s "$2" "$3"; then
		echo "ok   $1 ($(wc -l <"$2") lines)"
	else
		rp_same "$1" "$2" "$3"
	fi
}

# report_same TAG FILE "READPERF ARGS" PERF ARGS...
report_same() {
	local tag=$1 file=$2 rpargs=$3
	shift 3
	perf report -i "$file" --stdio "$@" 2>/dev/null | head -n -3 >"$tag.perf"
	# shellcheck disable=SC2086
	"$RP" report "$@" "$file" >"$tag.rp" 2>/dev/null
	grep -q '%' "$tag.perf" || fail "$tag: perf printed no rows (test problem)"
	if [ -n "${RP_DWARF_SKIP:-}" ]; then
		# (the column widths follow the rows left out: the header too)
		grep -vE "$RP_DWARF_SKIP|^#" "$tag.perf" | sed 's/ *$//' >"$tag.perf.kept"
		grep -vE "$RP_DWARF_SKIP|^#" "$tag.rp" | sed 's/ *$//' >"$tag.rp.kept"
		same "$tag (without $RP_DWARF_SKIP)" "$tag.perf.kept" "$tag.rp.kept"
	else
		same "$tag" "$tag.perf" "$tag.rp"
	fi
}

# --- stacks ---------------------------------------------------------------
perf script -i stacks.data --no-inline >stacks.noinl.perf 2>/dev/null
"$RP" script --no-inline stacks.data >stacks.noinl.rp 2>/dev/null
same "stacks script --no-inline" stacks.noinl.perf stacks.noinl.rp

perf script -i stacks.data >stacks.perf 2>/dev/null
"$RP" script stacks.data >stacks.rp 2>/dev/null
$agree stacks.perf stacks.rp --min-share 100 ||
	fail "stacks script: frame addresses differ from perf's"
$agree stacks.perf stacks.rp --text --min-share 99 ||
	fail "stacks script: inlined frames' text differs from perf's"

perf script -i stacks.data -F +srcline >stacks.srcl.perf 2>/dev/null
"$RP" script -F +srcline stacks.data >stacks.srcl.rp 2>/dev/null
python3 "$here/srcline_agree.py" stacks.srcl.perf stacks.srcl.rp --min-share 99 \
	--skip '(libc|libm|ld-linux-x86-64)\.so' ||
	fail "stacks script -F +srcline differs from perf's"

report_same stacks.graph.noinl stacks.data "--no-inline" --no-children --no-inline
report_same stacks.children.noinl stacks.data "--children --no-inline" --children --no-inline
report_same stacks.graph stacks.data "" --no-children
# Source lines: glibc's rows are left out (binutils names some lines of
# glibc's multiarch wrapper units after the wrapper, libdw after the file
# the line table gives), and PLT rows (perf cuts some of their sym+off
# texts short): docs/unwind.md.
RP_DWARF_SKIP='(libc|libm|ld-linux-x86-64)\.so|@plt'
report_same stacks.srcline stacks.data "--sort dso,srcline -g none" --no-children --sort dso,srcline -g none
report_same stacks.srcfile stacks.data "--sort dso,srcfile -g none" --no-children --sort dso,srcfile -g none
report_same stacks.sym-srcline stacks.data "--sort dso,sym,srcline -g none" --no-children --sort dso,sym,srcline -g none
# The same keys in perf's default view: every frame of a stack is a row,
# with an inline record's own line, and perf's lookup at the sampled ip
# (no srcfile in a relocated file, "dso[ip]" without a symbol).
report_same stacks.children-srcline stacks.data "--children --sort dso,srcline -g none" --children --sort dso,srcline -g none
report_same stacks.children-srcfile stacks.data "--children --sort dso,srcfile -g none" --children --sort dso,srcfile -g none
# ... and with frame-pointer stacks: perf looks callers up at the sampled
# ip as if it were the map's address ("sym+OFFSET" in a relocated file).
report_same fp.children-srcline fp.data "--children --sort dso,srcline -g none" --children --sort dso,srcline -g none
report_same fp.children-srcfile fp.data "--children --sort dso,srcfile -g none" --children --sort dso,srcfile -g none
RP_DWARF_SKIP=

# --children: one row for a function on every main-thread stack.  perf
# 6.1 splits such rows in two when inlined frames are about (its rb-tree
# compares inlined symbols by name, others by address: docs/unwind.md).
n=$("$RP" report --children -g none stacks.data 2>/dev/null | grep -c '\] __libc_start_call_main$')
if [ "$n" = 1 ]; then
	echo "ok   report --children: __libc_start_call_main in one row"
else
	fail "report --children: __libc_start_call_main in $n rows"
fi

# pprof: go tool pprof -list shows the source lines with their figures.
if command -v go >/dev/null 2>&1; then
	"$RP" pprof -o stacks.pb.gz stacks.data 2>/dev/null
	go tool pprof -list 'worker' stacks.pb.gz >stacks.list 2>stacks.list.err
	if grep -q "ROUTINE.*worker in .*stacks.cc" stacks.list &&
		grep -Eq '^ +(\.|[0-9.]+(ms|us|s)) +[0-9.]+(ms|us|s) +[0-9]+:' stacks.list; then
		echo "ok   pprof -list worker ($(grep -c ROUTINE stacks.list) routines)"
	else
		fail "go tool pprof -list worker: no source lines with figures"
		head -20 stacks.list stacks.list.err >&2
	fi
else
	rp_cannot_run "no go (golang-go) for go tool pprof"
fi

perf script report stackcollapse -i stacks.data >stacks.folded.perf 2>stacks.folded.err ||
	rp_cannot_run "perf script report stackcollapse failed (no Python scripting?)"
"$RP" collapse stacks.data >stacks.folded.rp 2>/dev/null
python3 - stacks.folded.perf stacks.folded.rp <<'EOF' || fail "stacks collapse differs from perf's"
import sys
def load(p):
    d = {}
    for line in open(p):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        d[stack] = d.get(stack, 0) + int(n)
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
total = sum(a.values())
same = sum(min(n, b.get(s, 0)) for s, n in a.items())
share = 100.0 * same / total if total else 0
print(f"collapse: {same}/{total} samples in equal folded stacks = {share:.2f}%")
sys.exit(0 if total and share >= 99 else 1)
EOF

# --- workload: fork, exec --------------------------------------------------
perf script -i workload.data --no-inline >workload.perf 2>/dev/null
"$RP" script --no-inline workload.data >workload.rp 2>/dev/null
$agree workload.perf workload.rp --exclude-comm wl-exec --min-share 99 ||
	fail "workload: unwound stacks differ from perf's"
python3 - workload.rp <<'EOF' || fail "workload: the exec'd child's stacks do not reach _start"
import sys
n = ok = 0
head = None
frames = []
def done():
    global n, ok
    if head and head.split()[0] == "wl-exec" and frames and not frames[0].split()[0].startswith("ffff"):
        n += 1
        ok += frames[-1].split()[1].startswith("_start")
for line in open(sys.argv[1]):
    if line.startswith("\t"):
        frames.append(line.strip())
    elif line.strip():
        done()
        head, frames = line, []
done()
print(f"exec'd child: {ok}/{n} user-mode stacks reach _start")
sys.exit(0 if n and ok >= 0.95 * n else 1)
EOF

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "$rp_name: readperf's DWARF call stacks agree with perf's"
exit 0
