#!/bin/bash
# Differential test of DWARF call stacks where walks end early or cross a
# signal frame, against the installed perf, on a program built and
# recorded now (tests/workload/edges.cc, -O2 -fomit-frame-pointer):
# signal handlers on an alternate signal stack (SIGALRM) and on the
# thread's stack (SIGPROF) doing work, C++ exceptions thrown through
# recursion, recursion deeper than the stack bytes perf copies, a plugin
# loaded with dlopen() called through function pointers
# (edges_plugin.c), a forked child.  Recorded by attaching (-p) with
# `--call-graph dwarf` (8 KiB of stack) and `--call-graph dwarf,1024`.
#
#   run_dwarf_edges.sh /path/to/readperf
#
# What perf 6.1 (libunwind) does there, and readperf must do the same
# (docs/unwind.md, "Where a walk ends"):
#   - a return address it reads as 0, or cannot read (outside the stack
#     bytes, whose last word perf leaves out, and outside the maps'
#     files), is one more frame, 0 - 1, `ffffffffffffffff [unknown]`;
#   - glibc's __restore_rt signal frame is reported at its pc less one,
#     the interrupted frame above it at its own pc.
# Checks, on both recordings:
#   - script --no-inline equals perf script --no-inline, byte for byte;
#   - report --no-children and --children, with --no-inline, equal perf's,
#     and so do -g folded and -g flat (which leave out the 0 - 1 frames);
#   - script (inlined frames) agrees with perf's on the frame addresses of
#     every sample;
#   - collapse equals perf's stackcollapse on >= 99 % of the samples (the
#     names of glibc's assembly aliases aside, docs/unwind.md);
#   - the recordings did exercise the cases: perf's stacks have 0 - 1
#     frames, samples in the handlers (with 8 KiB of stack, some walked
#     through __restore_rt on to main), frames in the plugin and in
#     libgcc_s's unwinder (else the test is wrong: fails).
# On a third recording, started by perf, of page faults (-c 1), some
# samples carry no stack bytes (faults on the stack itself): perf script
# prints their empty call stack as an empty line after the sample's line;
# readperf's lines for those samples must equal perf's.
#
# Every readperf command runs with -j 4 and -j 1 (tests/jcheck.sh).
# Skips (exit 77) without perf, a C or C++ compiler or python3, unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/diff/dwarf_lib.sh
. "$(dirname "$0")/dwarf_lib.sh"
dwarf_setup rp-dwarf-edges "${1:-}"

"$CXX" -O2 -g -fomit-frame-pointer -o edges "$root/tests/workload/edges.cc" -ldl 2>cc.err &&
	"${CC:-cc}" -O2 -g -fomit-frame-pointer -fPIC -shared -o edges_plugin.so \
		"$root/tests/workload/edges_plugin.c" 2>>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot compile" >&2; exit 1; }

# count PATTERN FILE: the samples of script output FILE with a frame
# line matching PATTERN (an extended regular expression).
count() {
	awk -v re="$1" '/^[^ \t]/ { hit = 0; next } !hit && $0 ~ re { hit = 1; n++ }
		END { print n + 0 }' "$2"
}

# covered NAME: whether perf's stacks of NAME.data went through every
# case the test needs (NAME.noinl.perf is perf script --no-inline).
covered() {
	local f=$1 cut handler through plugin eh
	perf script -i $f.data --no-inline >$f.noinl.perf 2>/dev/null
	cut=$(count '^[ \t]+ffffffffffffffff ' $f.noinl.perf)
	handler=$(count ' handler_work\+' $f.noinl.perf)
	through=$(awk '/^[^ \t]/ { h = 0; next } / handler_work\+/ { h = 1 }
		h && / main\+/ { n++; h = 0 } END { print n + 0 }' $f.noinl.perf)
	plugin=$(count 'edges_plugin\.so\)$' $f.noinl.perf)
	eh=$(count '\(/.*libgcc_s\.so[^)]*\)$' $f.noinl.perf)
	echo "$f: perf's stacks: $cut cut short (0 - 1 frame), $handler in a handler" \
		"($through walked on to main), $plugin in the plugin, $eh in libgcc_s"
	# (with 1 KiB of stack no walk from a handler reaches main)
	[ "$cut" -ge 1 ] && [ "$handler" -ge 5 ] && { [ "$through" -ge 1 ] || [ $f = small ]; } &&
		[ "$plugin" -ge 1 ] && [ "$eh" -ge 1 ]
}

# A recording that missed a case (a loaded machine gives the program
# fewer samples) is made again, at most three times.
for spec in big:8192 small:1024; do
	f=${spec%%:*}
	for attempt in 1 2 3; do
		# (edges forks its child a third of the way through its run:
		# within the 1.4 s recorded)
		rp_record_attached $f.data 1.4 --call-graph "dwarf,${spec#*:}" -e cpu-clock -- \
			./edges -t 3000 -p ./edges_plugin.so ||
			rp_cannot_run "perf record --call-graph dwarf,${spec#*:} -p failed"
		covered $f && break
		[ $attempt = 3 ] && fail "$f: the recording missed a case the test needs (test problem)"
		echo "$f: recorded again (attempt $((attempt + 1)))"
	done
done

for f in big small; do
	"$RP" script --no-inline $f.data >$f.noinl.rp 2>/dev/null
	same "$f: script --no-inline" $f.noinl.perf $f.noinl.rp

	# -g folded and flat leave out the 0 - 1 frames the graph draws
	for view in --no-children --children "--no-children -g folded" "--children -g flat"; do
		tag=${view// /_}
		# shellcheck disable=SC2086 # the view is words
		perf report -i $f.data --stdio $view --no-inline 2>/dev/null | head -n -3 \
			>$f$tag.perf
		# shellcheck disable=SC2086
		"$RP" report $view --no-inline $f.data >$f$tag.rp 2>/dev/null
		grep -q '%' $f$tag.perf || fail "$f: perf report $view printed no rows (test problem)"
		same "$f: report $view --no-inline" $f$tag.perf $f$tag.rp
	done

	perf script -i $f.data >$f.perf 2>/dev/null
	"$RP" script $f.data >$f.rp 2>/dev/null
	$agree $f.perf $f.rp --min-share 100 ||
		fail "$f: script (inlined frames): frame addresses differ from perf's"

	rp_collapse_agree $f || fail "$f: collapse differs from perf's"
done

# Samples without stack bytes: an empty call stack.
perf record -q --call-graph dwarf -e page-faults -c 1 -o pf.data -- ./edges -t 150 \
	>pf.data.record.out 2>&1 && [ -s pf.data ] ||
	{ cat pf.data.record.out >&2; rp_cannot_run "perf record -e page-faults failed"; }
perf script -i pf.data --no-inline >pf.perf 2>/dev/null
"$RP" script --no-inline pf.data >pf.rp 2>/dev/null
# A sample's line and the line after it, for samples whose next line is
# empty in perf's output (no frame).
empty() {
	awk 'prev != "" && prev !~ /^[ \t]/ && $0 == "" { print prev }
		{ prev = $0 }' "$1"
}
empty pf.perf >pf.empty.perf
empty pf.rp >pf.empty.rp
echo "pf: $(wc -l <pf.empty.perf) samples without a call stack in perf's output"
same "pf: samples without a call stack" pf.empty.perf pf.empty.rp

rp_done "readperf's DWARF call stacks end where perf's do"
