#!/bin/bash
# Differential test of perf's sample filters (docs/filters.md): readperf
# against the installed perf, on files recorded now.
#
#   run_filters.sh /path/to/readperf
#
# Records the bundled workload three times: two events with call stacks
# (cpu-clock,task-clock -g, two worker processes, fork and exec children),
# system-wide (cpu-clock -a -g, whose samples carry the CPU), and one
# tracepoint system-wide (sched:sched_switch -a).  The
# filter values (commands, process and thread ids, shared objects,
# symbols, a sampled address, CPUs, absolute times) are taken from the
# recordings.  For each filter it compares
#   readperf report --sort KEYS -t ';' FILTER   with
#   perf report --stdio --no-children -g none --sort KEYS
#       -F overhead,sample,period,KEYS -t ';' FILTER
# row for row (perf_rows.awk), the whole aligned report (header lines,
# elided columns, "# comm: NAME", "(time slices: ...)") with perf's minus
# its tip, `readperf script` with `perf script` line for line, and
# `readperf collapse` with perf's stackcollapse script.  Filters perf
# refuses are refused by readperf too.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check, CI): then it fails.
# The scratch directory is kept on failure and its path printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_filters.sh /path/to/readperf}"
awkf=$here/perf_rows.awk
require_perf
require_cc
rp_workdir rp-filters keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

n=0
rows() { awk -v sep=';' -f "$awkf"; }

# empty TAG PERF-OUT RP-OUT: perf printed nothing for a filter (a sparse
# recording on a loaded machine: no sample in libc, in a 100 ms window);
# readperf must print nothing too.  Counted: too many make the test fail
# at the end (the recordings then checked little).
nr_empty=0
empty() {
	nr_empty=$((nr_empty + 1))
	if cmp -s "$2" "$3"; then
		echo "ok   $1 (nothing, as perf)"
	else
		fail "$1: perf printed nothing, readperf did:"
		head -5 "$3" >&2
	fi
}

# report_rows FILE KEYS FILTER...: the -t rows of both, exact (with
# allow_empty=1 in the environment, no rows at all is a result too).
report_rows() {
	local file=$1 keys=$2
	shift 2
	n=$((n + 1))
	local base="r$n" tag="${file%.data} --sort $keys $*"

	if ! perf report -i "$file" --stdio --no-children -g none --sort "$keys" \
		-F "overhead,sample,period,$keys" -t ';' "$@" >"$base.perf.txt" 2>"$base.perf.err"; then
		fail "$tag: perf report failed"
		head -5 "$base.perf.err" >&2
		return
	fi
	if ! "$RP" report --no-children -g none --sort "$keys" -F "overhead,sample,period,$keys" -t ';' "$@" "$file" >"$base.rp.txt" 2>"$base.rp.err"; then
		fail "$tag: readperf report failed"
		head -5 "$base.rp.err" >&2
		return
	fi
	rows <"$base.perf.txt" >"$base.perf.rows"
	rows <"$base.rp.txt" >"$base.rp.rows"
	if ! grep -qv '^@event ' "$base.perf.rows" && [ "${allow_empty:-0}" != 1 ]; then
		empty "$tag" "$base.perf.rows" "$base.rp.rows"
		return
	fi
	if cmp -s "$base.perf.rows" "$base.rp.rows"; then
		echo "ok   report rows $tag ($(grep -cv '^@event ' "$base.perf.rows") rows)"
	else
		fail "$tag: report rows differ (- perf, + readperf):"
		diff -u "$base.perf.rows" "$base.rp.rows" | head -30 >&2
	fi
}

# report_same PREFIX KIND FILE ARGS...: perf report --stdio ARGS and
# readperf report ARGS on FILE, whole (perf's closing tip left out).
report_same() {
	local prefix=$1 kind=$2 file=$3
	shift 3
	n=$((n + 1))
	local base="$prefix$n" tag="${file%.data} $*"

	perf report -i "$file" --stdio "$@" 2>"$base.perf.err" |
		sed '/^# (Tip:/,$d' >"$base.perf.txt"
	# perf ends with "#", the tip, "#": keep what comes before.
	sed -i '$ { /^#$/d }' "$base.perf.txt"
	if ! "$RP" report "$@" "$file" >"$base.rp.txt" 2>"$base.rp.err"; then
		fail "$tag: readperf report failed"
		head -5 "$base.rp.err" >&2
		return
	fi
	if ! grep -q '^# Samples' "$base.perf.txt"; then
		fail "$tag: perf report printed no header (test problem)"
		head -5 "$base.perf.err" >&2
		return
	fi
	if cmp -s "$base.perf.txt" "$base.rp.txt"; then
		echo "ok   report $kind $tag ($(wc -l <"$base.rp.txt") lines)"
	else
		fail "$tag: report $kind differs (- perf, + readperf):"
		diff -u "$base.perf.txt" "$base.rp.txt" | head -30 >&2
	fi
}

# report_text FILE FILTER...: the aligned report with call graphs, whole.
report_text() {
	local file=$1
	shift
	report_same t text "$file" --no-children --sort comm,dso,sym "$@"
}

# report_view FILE ARGS...: the file's own view (--children with call
# graphs, as perf's default for these recordings), whole, with ARGS
# alone: perf leaves an elided key out of its output sort.
report_view() {
	local file=$1
	shift
	report_same v view "$file" "$@"
}

# script FILE FILTER...: perf script and readperf script, exact.
script() {
	local file=$1
	shift
	n=$((n + 1))
	local base="s$n" tag="${file%.data} $*"

	if ! perf script -i "$file" "$@" >"$base.perf.txt" 2>"$base.perf.err"; then
		fail "$tag: perf script failed"
		head -5 "$base.perf.err" >&2
		return
	fi
	if ! "$RP" script "$@" "$file" >"$base.rp.txt" 2>"$base.rp.err"; then
		fail "$tag: readperf script failed"
		head -5 "$base.rp.err" >&2
		return
	fi
	if [ ! -s "$base.perf.txt" ]; then
		empty "$tag" "$base.perf.txt" "$base.rp.txt"
		return
	fi
	if cmp -s "$base.perf.txt" "$base.rp.txt"; then
		echo "ok   script $tag ($(wc -l <"$base.rp.txt") lines)"
	else
		fail "$tag: script differs (- perf, + readperf):"
		diff -u "$base.perf.txt" "$base.rp.txt" | head -20 >&2
	fi
}

# collapse FILE FILTER...: perf's stackcollapse script and readperf
# collapse, as sorted sets of lines.
collapse() {
	local file=$1
	shift
	n=$((n + 1))
	local base="c$n" tag="${file%.data} $*"

	if ! perf script report stackcollapse -i "$file" "$@" >"$base.perf.out" \
		2>"$base.perf.err"; then
		echo "skip collapse $tag: perf's stackcollapse script failed (no Python scripting?)"
		return
	fi
	LC_ALL=C sort "$base.perf.out" >"$base.perf.txt"
	if ! "$RP" collapse "$@" "$file" >"$base.rp.out" 2>"$base.rp.err"; then
		fail "$tag: readperf collapse failed"
		head -5 "$base.rp.err" >&2
		return
	fi
	LC_ALL=C sort "$base.rp.out" >"$base.rp.txt"
	if [ ! -s "$base.perf.txt" ]; then
		empty "$tag" "$base.perf.txt" "$base.rp.txt"
		return
	fi
	if cmp -s "$base.perf.txt" "$base.rp.txt"; then
		echo "ok   collapse $tag ($(wc -l <"$base.rp.txt") stacks)"
	else
		fail "$tag: collapse differs (- perf, + readperf):"
		diff -u "$base.perf.txt" "$base.rp.txt" | head -20 >&2
	fi
}

# refused FILE FILTER...: perf report and readperf report both refuse.
refused() {
	local file=$1
	shift
	local tag="${file%.data} $*"

	if perf report -i "$file" --stdio "$@" >/dev/null 2>&1 &&
		perf report -i "$file" --stdio "$@" 2>/dev/null | grep -q '^# Samples'; then
		fail "$tag: perf accepts it (test problem)"
		return
	fi
	if "$RP" report "$@" "$file" >/dev/null 2>refused.err; then
		fail "$tag: readperf accepts what perf refuses"
		return
	fi
	echo "ok   refused $tag ($(head -1 refused.err))"
}

start=$(date +%s)
record_workload two -e cpu-clock,task-clock -g -- -t 400 -j 2 -f 2
# other processes' wild stack words make perf's rows unordered (lib.sh)
rp_calm_recording sys.data record_workload sys -e cpu-clock -a -g -- -t 400 -j 2
record_workload tp -e sched:sched_switch -a -- -t 300 -j 2

# The values the filters take, from the recordings.
# most_common FILE FIELD [NTH]: the NTH most frequent value of perf
# script's FIELD among the samples.
most_common() {
	perf script -i "$1" -F "$2" 2>/dev/null | awk '{ print $1 }' | LC_ALL=C sort |
		uniq -c | sort -k1,1nr -k2 | awk -v nth="${3:-1}" 'NR == nth { print $2 }'
}
pid1=$(most_common two.data pid 1)
pid2=$(most_common two.data pid 2)
tid1=$(most_common two.data tid 1)
tid3=$(most_common two.data tid 3)
# A sampled address: the first sample's ip.
addr=0x$(perf script -i two.data -F ip -G 2>/dev/null | awk 'NF { print $1; exit }')
# Absolute times: the first sample's, and 100 ms steps after it.
t0=$(perf script -i two.data -F time 2>/dev/null | awk 'NF { sub(/:$/, "", $1); print $1; exit }')
at() { awk -v t="$t0" -v d="$1" 'BEGIN { printf "%.6f\n", t + d }'; }
t1=$(at 0.1)
t2=$(at 0.2)
t3=$(at 0.25)
if [ -z "$pid1" ] || [ -z "$pid2" ] || [ -z "$tid3" ] || [ -z "$t0" ]; then
	rp_cannot_run "perf script printed no pids, tids or times for two.data" \
		      "the filters were NOT compared with perf."
fi

filters_two=(
	"--comms wl-fork"
	"--comms wl-fork,wl-exec"
	"--comms wl-fork,"
	"--comms ,wl-exec"
	"--pid $pid1"
	"--pid $pid1,$pid2"
	"--tid $tid3"
	"--tid $tid1,$tid3"
	"--dsos libm.so.6"
	"--dsos workload,[kernel.kallsyms]"
	"-S fib"
	"--symbols fib,checksum,__sin_fma"
	"-S $addr"
	"--time $t1,$t2"
	"--time $t1,"
	"--time ,$t1"
	"--time 10%/2"
	"--time 0%-10%"
	"--time 10%-20%,30%-40%"
	"--time 10%/1,10%/3"
	"--time 50%"
	"--comms wl-fork --dsos workload"
	"--comms workload --time 0%-50% -S checksum"
)
for f in "${filters_two[@]}"; do
	# shellcheck disable=SC2086 # each filter is several words
	report_rows two.data comm,dso,sym $f
	# shellcheck disable=SC2086
	script two.data $f
done
# Filters beside the other shared options (each takes its own option code).
script two.data --tid "$tid1" --no-inline
report_rows two.data comm,dso,sym --inline --pid "$pid2"
# A list from a file (perf's file://).
printf 'wl-fork\nwl-exec\n' >comms.list
report_rows two.data comm,dso,sym --comms "file://$work/comms.list"
script two.data --comms "file://$work/comms.list"
# Several absolute ranges are one argument with a space inside.
report_rows two.data comm,dso,sym --time "$t0,$t1 $t2,$t3"
script two.data --time "$t0,$t1 $t2,"
# Filters on keys that are not columns: perf hides a row by the first
# sample that made it, so that no row at all may be shown (a command's
# row only when its first sample was in libc, a function's only when its
# first sample was the process's).
allow_empty=1 report_rows two.data dso,sym --comms wl-fork
allow_empty=1 report_rows two.data dso,sym --pid "$pid2"
allow_empty=1 report_rows two.data sym --tid "$tid1"
allow_empty=1 report_rows two.data comm --dsos libc.so.6
report_rows two.data comm,dso --dsos libc.so.6
report_rows two.data pid,sym -S fib,checksum
# The aligned report: header lines, elided columns, call graphs.
report_text two.data --comms wl-fork
report_text two.data --dsos workload -S fib
report_text two.data --dsos workload -S fib --comms wl-exec
report_text two.data --pid "$pid1" -g none
report_text two.data --time 10%/2 -g none
report_text two.data --time "$t1,$t2"
report_text two.data --children --dsos libm.so.6 -g none
report_text two.data --children -S fib
# A list of one entry elides its key (sort__setup_elide()), and perf's
# output sort passes over an elided key (perf_hpp__should_skip() in
# hist_entry__sort()); its input and collapsed trees do not.  Seen where
# rows tie on every figure: --children rows of frames in other DSOs
# (their samples passed the filter), the filtered rows of other commands
# of one thread (exec) that share its graph-depth tie-break.
report_view two.data --dsos '[kernel.kallsyms]' -g none
report_view two.data --dsos '[kernel.kallsyms]'
report_view two.data --dsos libc.so.6
report_view two.data --comms workload
report_view two.data --comms wl-fork -g caller
report_view two.data -S fib
# The elided key last: the cell before it is padded (it is not the last
# format of perf's list).
report_view two.data --dsos '[kernel.kallsyms]' --sort sym,dso -g none
report_view two.data --comms wl-fork --sort sym,comm -g none
# A key in both --sort and -F: perf makes a format for each list and
# elides the column's only, so the sort still compares it.
report_view two.data --dsos '[kernel.kallsyms]' -g none \
	-F overhead_children,overhead,dso,sym --sort dso,sym
report_view sys.data --dsos '[kernel.kallsyms]'
report_view sys.data --comms workload
report_view sys.data --dsos '[kernel.kallsyms]' -g none \
	-F overhead_children,overhead,dso,sym --sort dso,sym
# Not a filter: a dso column of -F is no dso key for perf's
# sort__sym_cmp() (hists__has(dso) comes from --sort alone), so sym
# before it is no total order.
report_view sys.data -F +dso --sort sym -g none
report_view two.data -F +dso --sort sym
# Other commands: the same samples.
collapse two.data --comms wl-fork
collapse two.data --pid "$pid1" --time 20%-60%
collapse two.data -S fib,checksum

# CPUs: only a recording whose samples carry the CPU.  The workload's
# own CPU is the one most of its samples were taken on.
cpuw=$(perf script -i sys.data --comms workload -F cpu 2>/dev/null | tr -d '[] ' |
	LC_ALL=C sort | uniq -c | sort -k1,1nr | awk 'NR == 1 { print $2 + 0 }')
filters_sys=(
	"-C 0"
	"-C 0-1"
	"--cpu 1,0"
	"-C ${cpuw:-0} --comms workload"
	"-C 0 --time 0%-50%"
)
for f in "${filters_sys[@]}"; do
	# shellcheck disable=SC2086
	report_rows sys.data comm,dso,sym $f
	# shellcheck disable=SC2086
	script sys.data $f
done
report_rows sys.data cpu,comm -C 1
# perf script hides the side-band lines of other CPUs too (and only those).
script sys.data -C 1 --show-task-events --show-mmap-events
script two.data --comms wl-fork --time 10%-90% --show-task-events
report_text sys.data -C 0 -g none
collapse sys.data -C 1

# A tracepoint recording (one event, the trace field in script).
for f in "--comms workload" "-C 0" "--time 10%/2" "-S __schedule" "--dsos [kernel.kallsyms]"; do
	# shellcheck disable=SC2086
	report_rows tp.data comm,dso,sym $f
	# shellcheck disable=SC2086
	script tp.data $f
done

# What perf refuses.
refused two.data -C 0
refused two.data --time "$t1"
refused two.data --time "$t2,$t1"
refused two.data --time 10%/11
refused two.data --pid 12x
refused two.data --comms wl-fork,wl-fork
refused two.data --pid "$pid1,$pid1"
echo "run_filters: $(($(date +%s) - start)) s, $n comparisons, $nr_empty of them empty"
if [ $((nr_empty * 4)) -gt "$n" ]; then
	fail "more than a quarter of the comparisons had nothing to compare (recordings too sparse?)"
fi

if [ "$failures" -ne 0 ]; then
	echo "run_filters: $failures comparison(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_filters: readperf's filters agree with perf's"
exit 0
