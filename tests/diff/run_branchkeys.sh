#!/bin/bash
# Differential test of perf report's branch mode (docs/report.md,
# "Branch mode"): readperf against the installed perf on files with
# branch stacks, which no machine here records: tests/tools/
# rp-gen-lbrmem.c writes them (perf record -b's layout and BRANCH_STACK
# feature, branches between the bundled workload's functions, to and from
# unmapped and kernel addresses, every flag; one with call stacks), and
# the corpus's LBR recordings (../shared/corpus, when present).
#
#   run_branchkeys.sh /path/to/readperf
#
# Compares the whole text (the branch statistics after it included) for
# perf's default view of such files, --no-branch-stack, every branch key
# alone and after dso with -n -t, -F lists (perf 6.1 crashes on a --sort
# naming "symbol" in branch mode: symbol_from and symbol_to go through
# -F), the ordinary keys in branch mode, and the refusals: a branch key
# outside branch mode, -b on a file without branch stacks.  Skips loudly
# (77) when perf is missing, unless RP_REQUIRE_PERF=1.
set -u

. "$(dirname "$0")/brmem_lib.sh"
rp_take_binary "${1:?usage: run_branchkeys.sh /path/to/readperf}"
brmem_setup rp-branchkeys

brmem_gen branch b1.data 1
brmem_gen branch b2.data 11
brmem_gen branch-g bg.data 5
brmem_gen mem m.data 2

keys="dso_from dso_to mispredict in_tx abort cycles srcline_from srcline_to
addr_from addr_to"
for f in b1.data b2.data; do
	same "$f"
	same "$f" -n --show-total-period -t ';'
	same "$f" --no-branch-stack
	for k in $keys; do
		same "$f" --sort "$k"
		same "$f" --sort "dso,$k" -n -t ';'
	done
	same "$f" -F overhead,sample,symbol_from,symbol_to,mispredict
	same "$f" -F overhead,addr_from,addr_to,dso_to,srcline_to
	same "$f" -F overhead,srcline_from,dso_from -n
done
same b1.data --sort mispredict,abort,in_tx,cycles
same b1.data --sort sym,dso,comm,pid
same b1.data --sort local_weight,weight
same b1.data -F overhead,ipc_null
same bg.data
same bg.data --no-branch-stack
same bg.data --no-branch-stack --no-children -g none
# refusals
same b1.data --no-branch-stack --sort dso_from
same m.data -b
same b1.data --sort ipc_lbr
for f in $(brmem_corpus \
	google_perf_data_converter/src__quipper__testdata__perf.data.branch-3.4 \
	google_perf_data_converter/src__quipper__testdata__perf.data.branch-4.14 \
	google_perf_data_converter/src__quipper__testdata__perf.data.branch_stack_hw_index \
	google_perf_data_converter/src__quipper__testdata__perf.data.branch_stack_spec \
	google_perf_data_converter/src__quipper__testdata__perf.data.callgraph_and_branch-3.8 \
	google_perf_data_converter/src__quipper__testdata__perf.data.raw_callgraph_branch-3.4); do
	same "$f"
	same "$f" --sort dso_to,cycles,mispredict -n
	same "$f" --no-branch-stack --no-children -g none
done
brmem_end
