#!/bin/bash
# Hermetic golden test: readperf's whole text of every view of the golden
# files against perf's, committed beside them (NAME.VIEW.txt, written by
# regen.sh), byte for byte.  Needs no perf and reads nothing of the
# machine: the views, the conditions and the one normalisation (symbols
# out of the JSON) are in hermetic.sh, shared with regen.sh.
#
# To prove it, the test runs readperf with a PATH of its own that holds
# only the tools it calls (no perf), in an environment emptied by env -i.
#
#   run_hermetic.sh /path/to/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/golden/hermetic.sh
. "$here/hermetic.sh"
rp_take_binary "${1:?usage: run_hermetic.sh /path/to/readperf}" nocheck
rp_workdir rp-hermetic keep-on-failure
work=$rp_work_dir
checked=0

# PATH: a directory with the tools this script and hermetic.sh use.
mkdir -p "$work/bin"
for t in awk basename cat cmp cp diff env head mkdir rm sed touch wc; do
	p=$(command -v "$t") || { echo "$rp_name: $t is not installed" >&2; exit 1; }
	ln -s "$p" "$work/bin/$t"
done
PATH=$work/bin
hash -r
if command -v perf >/dev/null 2>&1; then
	echo "$rp_name: perf is reachable from the test's PATH" >&2
	exit 1
fi

shopt -s nullglob
files=("$here"/*.perf.data)
[ ${#files[@]} -gt 0 ] || { echo "$rp_name: no golden files in $here" >&2; exit 1; }

for f in "${files[@]}"; do
	name=${f%.perf.data}
	short=$(basename "$name")
	out=$work/$short
	copy=$(hv_prepare "$f" "$out") || { fail "$short: cannot copy the file"; continue; }
	for view in $hv_views; do
		checked=$((checked + 1))
		expected=$name.$view.txt
		[ -f "$expected" ] || { fail "$short $view: $expected missing (run regen.sh)"; continue; }
		(cd "$out" && hv_readperf "$RP" "$view" "$copy" "$view.rp" 2>"$view.err")
		rc=$?
		if [ $rc -ne 0 ]; then
			fail "$short $view: readperf exit status $rc"
			head -3 "$out/$view.err" >&2
			continue
		fi
		hv_normalise "$view" <"$out/$view.rp" >"$out/$view.txt"
		rp_same "$short $view" "$expected" "$out/$view.txt" &&
			echo "ok   $short $view ($(wc -l <"$expected") lines)"
	done
done

if [ $failures -ne 0 ]; then
	echo "$rp_name: $failures of $checked views differ from perf's; outputs kept in $work" >&2
	exit 1
fi
echo "$rp_name: all $checked views equal perf's text, byte for byte, without perf"
