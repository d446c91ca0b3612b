#!/bin/bash
# Differential test of call stacks in `readperf report`: --children rows
# and the call graphs, against the installed perf, on files recorded now
# with -g (frame pointers).
#
#   run_callgraph.sh /path/to/readperf
#
# For each recording it compares, exactly (perf's output minus its last
# three lines, the random tip):
#   readperf report --children --sort comm,dso,sym -t ';'
#     vs perf report --stdio --children -n --show-total-period
#                    --sort comm,dso,sym -t ';' -g none
#   readperf report --children          vs perf report --stdio --children
#   readperf report                     vs perf report --stdio --no-children
# and a few other call-graph settings (callee/caller, fractal, fractal with
# the count value (the "[...]" counts), flat, folded (with -t), threshold,
# print limit, period values, --sort sym, --sort dso,sym, --percent-limit),
# the address key (-g ...,address, call-graph.sort-key = address) in
# both views and orders, graph, fractal and folded, and the srcline key.
#
# When perf is missing or cannot record, the test skips (exit 77), unless
# RP_REQUIRE_PERF=1: then it fails.  The scratch directory is kept on
# failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_callgraph.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-callgraph keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

# compare FILE TAG "READPERF ARGS" PERF ARGS...
compare() {
	local file=$1 tag=$2 rpargs=$3
	shift 3
	local base="${file%.data}.$tag"

	if ! PERF_CONFIG=${cfg-} perf report -i "$file" --stdio "$@" >"$base.perf.full" 2>"$base.perf.err"; then
		echo "FAIL ${file%.data} $tag: perf report failed" >&2
		cat "$base.perf.err" >&2
		failures=$((failures + 1))
		return
	fi
	# perf 6.1 reads an uninitialized flag for the "[...]" line of
	# fractal graphs and may add " (inlined)" to it (docs/report.md).
	head -n -3 "$base.perf.full" | sed 's/--\[\.\.\.\] (inlined)$/--[...]/' >"$base.perf.txt"
	# shellcheck disable=SC2086
	if ! PERF_CONFIG=${cfg-} "$RP" report "$@" "$file" >"$base.rp.txt" 2>"$base.rp.err"; then
		echo "FAIL ${file%.data} $tag: readperf report $rpargs failed" >&2
		head -5 "$base.rp.err" >&2
		failures=$((failures + 1))
		return
	fi
	if ! grep -q '%' "$base.perf.txt"; then
		echo "FAIL ${file%.data} $tag: perf printed no rows (test problem)" >&2
		failures=$((failures + 1))
	elif cmp -s "$base.perf.txt" "$base.rp.txt"; then
		echo "ok   ${file%.data} $tag ($(wc -l <"$base.perf.txt") lines)"
	else
		echo "FAIL ${file%.data} $tag: output differs (- perf, + readperf):" >&2
		diff -u "$base.perf.txt" "$base.rp.txt" | head -40 >&2
		failures=$((failures + 1))
	fi
}

check_file() {
	local f=$1
	compare "$f" children-rows "--children --sort comm,dso,sym -t ;" \
		--children -n --show-total-period --sort comm,dso,sym -t ';' -g none
	compare "$f" children-graph "--children" --children
	compare "$f" graph "" --no-children
	compare "$f" caller "-g caller" --no-children -g caller
	compare "$f" children-callee "--children -g callee" --children -g callee
	compare "$f" fractal "-g fractal" --no-children -g fractal
	compare "$f" threshold "-g graph,2,callee" --no-children -g graph,2,callee
	compare "$f" limit "-g graph,0.5,2" --no-children -g graph,0.5,2
	compare "$f" period "--children -g graph,0.5,caller,function,period" \
		--children -g graph,0.5,caller,function,period
	# count: the "[...]" line carries the samples the threshold hid,
	# and is not drawn when there are none.
	compare "$f" fractal-count "-g fractal,0.5,caller,function,count" \
		--no-children -g fractal,0.5,caller,function,count
	compare "$f" fractal-count-callee "-g fractal,2,callee,function,count" \
		--no-children -g fractal,2,callee,function,count
	compare "$f" fractal-count-limit "-g fractal,0.5,caller,function,count,2" \
		--no-children -g fractal,0.5,caller,function,count,2
	compare "$f" children-fractal-count "--children -g fractal,1,caller,function,count" \
		--children -g fractal,1,caller,function,count
	# flat: every node where paths end (its cumulated value), folded:
	# the same paths on one line (the period that ends there), joined
	# by ';' or the -t separator; both ordered by that period, ties in
	# the order of perf's tree of children.
	compare "$f" flat "-g flat" --no-children -g flat
	compare "$f" children-flat "--children -g flat,0.5,callee,function,period,3" \
		--children -g flat,0.5,callee,function,period,3
	compare "$f" folded "-g folded" --no-children -g folded
	compare "$f" children-folded "--children -g folded,1,caller,function,count" \
		--children -g folded,1,caller,function,count
	compare "$f" folded-sep "-g folded,callee -t ," --no-children -g folded,callee -t ,
	compare "$f" sym "--sort sym" --no-children --sort sym
	compare "$f" dso-sym "--children --sort dso,sym" --children --sort dso,sym
	compare "$f" percent-limit "--children --percent-limit 2" --children --percent-limit 2
	# The address key: a node per address (DSO and ip as sampled),
	# drawn as "name file.c:LINE", "name +OFFSET" (kernel) or the hex
	# address; the same key from call-graph.sort-key in the config.
	compare "$f" address "-g address" --no-children -g address
	compare "$f" address-caller "-g graph,0.5,caller,address" \
		--no-children -g graph,0.5,caller,address
	compare "$f" children-address "--children -g graph,0.5,caller,address" \
		--children -g graph,0.5,caller,address
	compare "$f" children-address-callee "--children -g graph,0,callee,address" \
		--children -g graph,0,callee,address
	compare "$f" fractal-address-count "-g fractal,0.5,caller,address,count" \
		--no-children -g fractal,0.5,caller,address,count
	compare "$f" folded-address "-g folded,address" --no-children -g folded,address
	cfg=$work/sort-key.config compare "$f" address-config "--children (sort-key = address)" \
		--children
	# --children rows take the frame's graph text as their srcline
	# (perf's fill_callchain_info()).
	compare "$f" children-address-srcline "--children --sort dso,srcline -g caller,address" \
		--children --sort dso,srcline -g caller,address
	# The srcline key: nodes by their line ("file.c:LINE", "??:0")
	# where they have one (a frame without one, above those with one,
	# by function), drawn with it; kernel frames by name.
	compare "$f" srcline "-g graph,0,callee,srcline" --no-children -g graph,0,callee,srcline
	compare "$f" srcline-caller "-g graph,0,caller,srcline" \
		--no-children -g graph,0,caller,srcline
	compare "$f" children-srcline "--children -g graph,0.5,caller,srcline" \
		--children -g graph,0.5,caller,srcline
	compare "$f" children-srcline-callee "--children -g fractal,0,callee,srcline,count" \
		--children -g fractal,0,callee,srcline,count
}

printf '[call-graph]\n\tsort-key = address\n' >sort-key.config
start=$(date +%s)
record_workload cg        -e cpu-clock -g -- -t 300
record_workload cg-fork   -e cpu-clock -g -- -t 100 -f 20
for f in cg.data cg-fork.data; do
	check_file "$f"
done
echo "run_callgraph: $(( $(date +%s) - start )) s"

if [ $failures -ne 0 ]; then
	echo "run_callgraph: $failures comparison(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_callgraph: readperf agrees with perf on all call-stack views"
exit 0
