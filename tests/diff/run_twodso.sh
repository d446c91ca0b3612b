#!/bin/bash
# Sort lists with `sym` but no `dso` key, against perf, on a file whose
# unresolved and resolved addresses lie in two DSOs.  perf's
# sort__sym_cmp() compares two unresolved entries by address alone and
# any other pair by DSO first (util/sort.c; since 6.1.97 only when dso is
# not a key): that is no order, so perf's input tree (hists__findnew_entry)
# misses equal entries now and then and keeps two rows of one key, a found
# entry moves to the sample's map (its DSO changes), and with a comm key
# the collapse merges entries and call graphs the input tree kept apart.
# readperf replays those trees; it must print what perf prints (whole
# text, perf's tip left out) in the self and children views, with and
# without graphs.
# The file comes from `tests/tools/rp-mkdata two-dso`: this program and
# the C library of this machine mapped in one process, sampled at
# functions and at ELF header offsets no symbol covers.
#
# When perf is missing the test says so loudly and skips (exit 77), unless
# RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_twodso.sh /path/to/readperf}"
require_perf
rp_workdir rp-twodso keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_mkdata two-dso td.data || { echo "$rp_name: rp-mkdata two-dso failed" >&2; exit 1; }

n=0
for opts in "--sort sym" "--no-children --sort sym" "--no-children -g none --sort sym" \
	"--sort sym -g caller" "--sort comm,sym" "--no-children --sort comm,sym" \
	"--sort sym,comm" "--sort sym,dso" "--no-children --sort sym,dso" "--sort dso,sym"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the options are words
	rp_report_agree td.data "r$n" $opts
done

# The file tests the trees only if perf kept two rows of one symbol
# somewhere (r3: the self view without graphs).
awk '/%/ { n[$0 ~ /\[\.\] 0x/ ? "" : $3]++ } END { for (s in n) if (s != "" && n[s] > 1) d++; exit !d }' \
	r3.perf || fail "perf kept no symbol in two rows of r3.perf: the file does not test the trees"

rp_done passed
