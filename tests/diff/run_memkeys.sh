#!/bin/bash
# Differential test of perf report --mem-mode (docs/report.md, "Memory
# mode"): readperf against the installed perf on perf mem files, which no
# machine here records: tests/tools/rp-gen-lbrmem.c writes them (samples
# of two processes mapping the bundled workload, with data addresses in
# its objects and functions, a heap, a shared map, no map and the kernel;
# data_src values of every PERF_MEM_* field; weights, physical
# addresses, page sizes), and the corpus's perf mem recording
# (weight_struct, when ../shared/corpus has it).
#
#   run_memkeys.sh /path/to/readperf
#
# Compares the whole text for --mem-mode with perf's default memory sort,
# every memory key alone and after dso with -n -t, -F lists, a --sort
# that names "symbol" (perf adds its IPC column), and the refusals: a
# memory key without --mem-mode, --mem-mode on a file without data_src
# or with branch stacks; and perf script's memory fields (data_src,
# weight, ins_lat, phys_addr, page sizes: the default fields of a PMU
# event, rp-gen-lbrmem mem-raw) whole text.  Skips loudly (77) when perf
# is missing, unless RP_REQUIRE_PERF=1.
set -u

. "$(dirname "$0")/brmem_lib.sh"
rp_take_binary "${1:?usage: run_memkeys.sh /path/to/readperf}"
brmem_setup rp-memkeys

brmem_gen mem m1.data 1
brmem_gen mem m2.data 7
brmem_gen branch b.data 3

keys="symbol_daddr symbol_iaddr dso_daddr locked tlb mem snoop dcacheline
phys_daddr data_page_size blocked"
for f in m1.data m2.data; do
	same "$f" --mem-mode
	same "$f" --mem-mode -n --show-total-period
	same "$f" --mem-mode -t ';'
	for k in $keys; do
		same "$f" --mem-mode --sort "$k"
		same "$f" --mem-mode --sort "dso,$k" -n -t ';'
	done
done
same m1.data --mem-mode --sort mem,snoop,tlb,locked,blocked,dcacheline
same m1.data --mem-mode --sort +phys_daddr
same m1.data --mem-mode --sort symbol,symbol_daddr
same m1.data --mem-mode -F overhead,sample,symbol_daddr,dso_daddr,mem
same m2.data --mem-mode --sort local_weight,weight,comm,pid -n
# refusals
same m1.data --sort mem
same m1.data -F overhead,symbol_daddr
same b.data --mem-mode
for f in $(brmem_corpus google_perf_data_converter/src__quipper__testdata__perf.data.weight_struct); do
	same "$f" --mem-mode
	for k in $keys; do
		same "$f" --mem-mode --sort "$k"
	done
done
# perf script on the same files: a PMU (raw) event's default fields are
# perf mem's (period, addr, data_src padded to the longest so far, weight,
# ins_lat, then after the symbol phys_addr and the page sizes); -F lists
# naming them, and their refusals where the sample lacks the field.
brmem_gen mem-raw r1.data 5
script_same() { # FILE ARGS...: perf script and readperf script, whole text or both refusing
	local file=$1
	shift
	n=$((n + 1))
	local tag="script $(basename "$file") $*"

	perf script -i "$file" "$@" >"s$n.perf" 2>"s$n.perf.err"
	local prc=$?
	"$RP" script "$@" "$file" >"s$n.rp" 2>"s$n.rp.err"
	local rrc=$?
	if [ $prc -ne 0 ] || [ $rrc -ne 0 ]; then
		local want
		want=$(grep -m1 -v '^$' "s$n.perf.err")
		if [ $prc -ne 0 ] && [ $rrc -ne 0 ] && grep -qF -- "$want" "s$n.rp.err"; then
			echo "ok   $tag (refused, as perf: $want)"
		else
			fail "$tag: perf exit $prc ($want), readperf exit $rrc ($(grep -m1 error "s$n.rp.err"))"
		fi
	elif [ ! -s "s$n.perf" ]; then
		fail "$tag: perf printed nothing (test problem)"
	elif rp_same "$tag" "s$n.perf" "s$n.rp"; then
		echo "ok   $tag ($(wc -l <"s$n.perf") lines)"
	fi
}
for f in r1.data m1.data; do
	script_same "$f"
	script_same "$f" -F +data_src,+weight,+phys_addr,+data_page_size
	script_same "$f" -F comm,data_src,weight,ip,sym
	script_same "$f" -F -period,-addr
	script_same "$f" -F ins_lat,code_page_size
done
script_same r1.data -F raw:comm,data_src,ins_lat
script_same r1.data -G
for f in $(brmem_corpus google_perf_data_converter/src__quipper__testdata__perf.data.weight_struct \
	google_perf_data_converter/src__quipper__testdata__perf.data.branch_stack_spec); do
	script_same "$f"
done
brmem_end
