#!/bin/bash
# Runs the libFuzzer targets, two at a time, each for SECONDS (default 600).
#
#   fuzz_campaign.sh BUILD_DIR [SECONDS] [TARGET...]
#
# BUILD_DIR was configured with CC=clang -DRP_FUZZ=ON (cmake/fuzz.cmake).
# Each target starts from tests/fuzz/corpus/<target> and the small files
# (under 64 KB) of the shared corpus (../shared/corpus, RP_CORPUS_DIR; read
# there, never copied), writes new inputs into $RP_FUZZ_WORK/<target>
# (default /tmp/rp-fuzz-work) and crash inputs beside it.  At the end one
# line per target: executions, coverage (cov, ft), crash files.  Merge the
# new inputs into the committed corpus with:
#   fuzz_T -merge=1 -max_len=65536 tests/fuzz/corpus/T $RP_FUZZ_WORK/T
set -u
B=${1:?usage: fuzz_campaign.sh BUILD_DIR [SECONDS] [TARGET...]}
SECS=${2:-600}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${RP_CORPUS_DIR:-$root/../shared/corpus}
# A checkout elsewhere (a CI clone) finds the corpus where this machine keeps it.
[ -d "$corpus" ] || [ ! -d /work/shared/corpus ] || corpus=/work/shared/corpus
work=${RP_FUZZ_WORK:-/tmp/rp-fuzz-work}
targets=${*:-open records pipe compressed swapped report csv dump stats header script collapse json pprof filter unwind}
mkdir -p "$work/shared"
# The shared corpus's small inputs, linked (not copied) into one directory.
if [ -d "$corpus" ]; then
	find "$corpus" -type f -size -64k ! -name '*.txt' ! -name '*.json' ! -name '*.rc' \
		! -name '*.md' -print0 | while IFS= read -r -d '' f; do
		ln -sf "$f" "$work/shared/$(echo "$f" | md5sum | cut -c1-16)"
	done
fi

# libtraceevent's own leaks on damaged event formats are not ours.
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$here/lsan.supp

run_one() {
	local t=$1 bin=$B/fuzz_$1 dict=$here/perf.dict
	# A target with a dictionary of its own (unwind.dict: ELF and DWARF).
	[ -f "$here/$1.dict" ] && dict=$here/$1.dict
	mkdir -p "$work/$t" "$work/$t-crashes"
	"$bin" -max_total_time="$SECS" -max_len=65536 -rss_limit_mb=2048 -timeout=20 \
		-dict="$dict" -print_final_stats=1 \
		-artifact_prefix="$work/$t-crashes/" \
		"$work/$t" "$here/corpus/$t" "$work/shared" >"$work/$t.log" 2>&1
	echo "$t exit $?" >>"$work/status"
}

set -- $targets
while [ $# -gt 0 ]; do
	run_one "$1" &
	p1=$!
	p2=
	if [ $# -gt 1 ]; then run_one "$2" & p2=$!; fi
	wait $p1 ${p2:+$p2}
	shift $(( $# > 1 ? 2 : 1 ))
done
for t in $targets; do
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t.log" | grep -o '[0-9]*$')
	last=$(grep -E '^#[0-9]+' "$work/$t.log" | tail -1)
	cov=$(echo "$last" | grep -o 'cov: [0-9]*')
	ft=$(echo "$last" | grep -o 'ft: [0-9]*')
	n=$(ls "$work/$t-crashes" 2>/dev/null | wc -l)
	echo "$t: execs ${execs:-?} ${cov:-cov: ?} ${ft:-ft: ?} crash files $n"
done
