#!/bin/bash
# Call stacks that hold words of the stack rather than return addresses
# (a program without frame pointers recorded with -g, as gcc's cc1):
# perf's children view makes an unresolved entry of each and compares two
# of them by the u64 difference of their addresses taken as signed
# (util/sort.c _sort__addr_cmp), which is no order for addresses 2^63 or
# more apart, so rows that tie on every figure come in the order of
# perf's red-black trees (input tree fed in the order entries are made,
# collapsed tree, output tree), not in the order of their addresses.
# The file comes from `tests/tools/rp-mkdata wild-stack`; perf reads it,
# and readperf must print what perf prints (whole text, perf's tip left
# out), in the children view with and without graphs, in both call
# orders, and in the plain view.
#
# When perf is missing the test says so loudly and skips (exit 77), unless
# RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_wildstack.sh /path/to/readperf}"
require_perf
rp_workdir rp-wildstack keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_mkdata wild-stack ws.data || { echo "$rp_name: rp-mkdata wild-stack failed" >&2; exit 1; }

n=0
for opts in "" "-g none" "-g callee" "--sort dso,sym" "--no-children" \
	"--no-children -g none" "-n --show-total-period"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the options are words
	rp_report_agree ws.data "r$n" $opts
done

# The file tests the trees only if perf's tied unresolved rows are in
# neither the unsigned nor the signed order of their addresses (16 hex
# digits: as strings, the unsigned order; with the sign bit flipped, the
# signed one).
awk '$4 == "[unknown]" && $5 == "[.]" {
	key = $1 " " $2
	a = $6
	s = (substr(a, 3, 1) ~ /[0-7]/ ? "1" : "0") a
	if (key == last) {
		if (a < prev) unsigned_out++
		if (s < prevs) signed_out++
	}
	last = key; prev = a; prevs = s
} END { exit !(unsigned_out && signed_out) }' r2.perf ||
	fail "perf's tied rows of r2.perf are in address order: the file does not test the trees"

rp_done passed
