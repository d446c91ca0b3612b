#!/bin/bash
# Differential test of readperf diff (docs/diff.md) against perf diff, on
# pairs of recordings made now.
#
#   run_perfdiff.sh /path/to/readperf
#
# tests/workload/diffwork.c runs in two modes whose profiles differ in
# known ways (a function that grows, one that shrinks, one of each mode
# only, a libm part).  Three pairs are recorded: old/new with perf's
# default event; old/new with several events in another order (an event of
# OLD that NEW lacks, one of NEW that OLD lacks); old/new system-wide with
# call stacks (many commands, pids, CPUs, DSOs, unresolved addresses).  For
# each option of perf diff readperf has (-c delta, delta-abs, ratio,
# wdiff:W1,W2; -p, -F, -b, -o, -q, -t, --sort keys, --percentage, the
# filters) `readperf diff OPTIONS OLD NEW` must print exactly what
# `perf diff OPTIONS OLD NEW` prints: every line, headers and padding
# included; no normalisation.  Options perf refuses are refused too.
#
# srcline and srcfile are compared on the workload's own DSO only: on
# other DSOs (inlined code of ld.so, node's builtins) readperf's source
# lines differ from perf's in the report as well (docs/diff.md); perf 6.1's
# diff aborts on a system-wide recording with --sort srcline, and with
# sym before srcfile in --sort.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check, CI): then it fails.
# The scratch directory is kept on failure and its path printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_perfdiff.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-perfdiff keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1

if ! "${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o diffwork \
	"$root/tests/workload/diffwork.c" -lm 2>cc.err; then
	cat cc.err >&2
	echo "$rp_name: cannot compile the workload" >&2
	exit 1
fi

# record NAME MODE PERF-RECORD-ARGS...: NAME.data of ./diffwork MODE.
record() {
	local name=$1 mode=$2
	shift 2
	if ! perf record -q "$@" -o "$name.data" -- ./diffwork "$mode" 250 \
		>"$name.record.out" 2>&1 || [ ! -s "$name.data" ]; then
		cat "$name.record.out" >&2
		rp_cannot_run "perf record $* failed (no permission? see perf_event_paranoid)"
	fi
}

n=0
# same OLD NEW OPTIONS...: perf diff and readperf diff print the same,
# exactly; both succeed and print rows.
same() {
	local old=$1 new=$2
	shift 2
	n=$((n + 1))
	local base="d$n" tag="${old%.data} ${new%.data} $*"

	if ! perf diff "$@" "$old" "$new" >"$base.perf.txt" 2>"$base.perf.err"; then
		fail "$tag: perf diff failed (test problem)"
		head -5 "$base.perf.err" >&2
		return
	fi
	if ! "$RP" diff "$@" "$old" "$new" >"$base.rp.txt" 2>"$base.rp.err"; then
		fail "$tag: readperf diff failed"
		head -5 "$base.rp.err" >&2
		return
	fi
	if ! grep -qv '^#' "$base.perf.txt"; then
		fail "$tag: perf diff printed no row (test problem)"
		return
	fi
	if [ -n "${unresolved_as_one:-}" ]; then
		sed -i -E 's/\[\.\] 0x[0-9a-f]+/[.] 0x(unresolved)/' "$base.perf.txt" "$base.rp.txt"
	fi
	if cmp -s "$base.perf.txt" "$base.rp.txt"; then
		echo "ok   $tag ($(grep -cv '^#' "$base.rp.txt") rows)"
	else
		fail "$tag: differs (- perf, + readperf):"
		diff -u "$base.perf.txt" "$base.rp.txt" | head -30 >&2
	fi
}

# srcfile_shares OLD NEW: perf 6.1's diff aborts with --sort srcfile (a
# double free) on these recordings; perf report's srcfile rows of OLD are
# the reference then: readperf diff's Baseline column must hold the same
# srcfile keys with the same shares (both 100 * period / total, "%.2f"),
# on the workload's DSO (see above).
srcfile_shares() {
	local old=$1 new=$2 base="sf${1%.data}"

	if ! perf report -i "$old" --stdio --no-children -g none -s srcfile \
		-F overhead,srcfile -t ';' -d diffwork --percentage absolute >"$base.perf.out" 2>"$base.perf.err"; then
		fail "perf report -s srcfile failed on $old (test problem)"
		return
	fi
	grep -v '^#' "$base.perf.out" | awk -F';' 'NF >= 2 {
		o = $1; gsub(/[ %]/, "", o); s = $2; sub(/ +$/, "", s); print o ";" s }' |
		LC_ALL=C sort >"$base.perf.txt"
	if ! "$RP" diff -s srcfile -t ';' -d diffwork "$old" "$new" >"$base.rp.out" 2>"$base.rp.err"; then
		fail "readperf diff -s srcfile $old $new failed"
		head -5 "$base.rp.err" >&2
		return
	fi
	grep -v '^#' "$base.rp.out" | awk -F';' 'NF >= 3 {
		b = $1; gsub(/ /, "", b); s = $3; sub(/ +$/, "", s); if (b != "") print b ";" s }' |
		LC_ALL=C sort >"$base.rp.txt"
	if [ ! -s "$base.perf.txt" ]; then
		fail "perf report printed no srcfile row for $old (test problem)"
	elif rp_same "srcfile shares of $old" "$base.perf.txt" "$base.rp.txt"; then
		echo "ok   -s srcfile $old $new: Baseline = perf report's srcfile rows" \
			"($(wc -l <"$base.rp.txt") rows)"
	fi
}

# refused OPTIONS...: perf diff and readperf diff both refuse them.
refused() {
	local tag="$*"

	if perf diff "$@" old.data new.data 2>/dev/null | grep -qv '^#'; then
		fail "$tag: perf accepts it (test problem)"
		return
	fi
	if "$RP" diff "$@" old.data new.data >refused.out 2>refused.err; then
		fail "$tag: readperf accepts what perf refuses"
		return
	fi
	echo "ok   refused $tag ($(head -1 refused.err))"
}

start=$(date +%s)
record old old
record new new
record old2 old -e cpu-clock,page-faults,task-clock
record new2 new -e task-clock,cpu-clock
# other processes' wild stack words make perf's rows unordered (lib.sh)
rp_calm_recording sys-old.data record sys-old old -a -g
rp_calm_recording sys-new.data record sys-new new -a -g

# The first pair: every computation, column and key.
for opts in "" "-c delta" "-c ratio" "-c wdiff:2,3" "-c wdiff:1,-1" \
	"-p" "-F" "-c ratio -p -F" "-c wdiff:2,3 -F" "-c delta -p -F" \
	"-b -p -F" "-c ratio -b" "-o 0" "-c wdiff:3,1 -o 0" \
	"-q" "-s sym" "-s dso" "-s comm" "-s pid" "-s cpu" "-s sym,dso" \
	"-s dso,sym,comm,cpu"; do
	# shellcheck disable=SC2086 # the options are words
	same old.data new.data $opts
done
same old.data new.data -t ';'
same old.data new.data -t ';' -c ratio -p -F
same old.data new.data -t ',' -s comm,sym
same old.data new.data -s srcline -d diffwork
srcfile_shares old.data new.data
srcfile_shares new.data old.data
same old.data new.data -s sym,srcline -c delta -d diffwork

# The filters (perf diff's names: -C is --comms) and --percentage.
same old.data new.data -d diffwork
same old.data new.data -d diffwork,libm.so.6 -c delta
same old.data new.data --percentage relative -d diffwork
same old.data new.data --percentage absolute -d diffwork -p -F
same old.data new.data -S grows,shrinks,only_new,only_old
same old.data new.data -S grows
same old.data new.data --percentage relative -S grows,shrinks,only_new,only_old -F
same old.data new.data -C diffwork
# a baseline whose filter leaves nothing: a delta of 0/0, "-nan%" in
# perf's aligned cells (the color function's %f), "-NAN%" with -t (%F)
same old.data new.data --percentage relative -S only_new
same old.data new.data --percentage relative -S only_new -t ';'
new_pid=$(perf report -i new.data --stdio -F pid -s pid 2>/dev/null | grep diffwork | head -1 |
	sed 's/^ *\([0-9]*\):.*/\1/')
if [ -n "$new_pid" ]; then
	same old.data new.data --pid "$new_pid"
	same old.data new.data --tid "$new_pid" -s pid
else
	fail "no pid of diffwork in new.data (test problem)"
fi
same old.data new.data --time 0%-50%
same old.data new.data --time 0%-50%:50%-100%

# Several events, not in the same order; sections by event type and config.
same old2.data new2.data
same old2.data new2.data -c ratio -p
same old2.data new2.data -b -t ';'
same new2.data old2.data -c delta

# System-wide, with call stacks (perf diff ignores them).  Other
# processes of the machine (stripped tools another job ran meanwhile) have
# user addresses without a symbol; perf shows the several such addresses
# of one process and DSO as one row, under the address of whichever came
# first in its input tree, which is not a total order (docs/diff.md): the
# rows are compared with that address left out.
unresolved_as_one=1
for opts in "" "-s comm" "-s pid" "-s comm,dso,sym" "-s cpu,comm" "-c ratio -p" \
	"-c wdiff:2,3 -F" "-b -s pid,sym"; do
	# shellcheck disable=SC2086 # the options are words
	same sys-old.data sys-new.data $opts
done
same sys-old.data sys-new.data -t '|' -s pid,sym
same sys-old.data sys-new.data --percentage relative -C diffwork
same sys-old.data sys-new.data -d '[kernel.kallsyms]' -s comm,sym
same sys-old.data sys-new.data --cpu 0 -s cpu,comm
unresolved_as_one=

# perf diff's default files: perf.data.old and perf.data; one file is NEW.
mkdir -p defaults
cp old.data defaults/perf.data.old
cp new.data defaults/perf.data
(cd defaults && perf diff >perf.txt 2>/dev/null && "$RP" diff >rp.txt 2>rp.err) ||
	fail "diff without files failed"
rp_same "no files: perf.data.old perf.data" defaults/perf.txt defaults/rp.txt &&
	echo "ok   no files: perf.data.old perf.data"
(cd defaults && perf diff ../old.data >perf1.txt 2>/dev/null &&
	"$RP" diff ../old.data >rp1.txt 2>rp.err) || fail "diff with one file failed"
rp_same "one file: perf.data.old FILE" defaults/perf1.txt defaults/rp1.txt &&
	echo "ok   one file: perf.data.old FILE"

# What perf diff refuses.
refused -c cycles
refused -c nothing
refused -c wdiff:0,1
refused -c ratio:2
refused -s tid
refused -o 2
refused --cpu 0

end=$(date +%s)
echo "$rp_name: $n comparisons in $((end - start)) s"
if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failure(s); recordings kept in $work" >&2
	exit 1
fi
echo "$rp_name: readperf diff agrees with perf diff"
