#!/bin/bash
# valgrind memcheck over the golden tests: every command on every golden
# file (and a cut copy of each, for the error paths) under memcheck; any
# invalid read or write, use of uninitialised memory, or definite leak
# fails.  Not part of `make check` (about 9 minutes: see
# docs/robustness.md); run it on a build without sanitizers:
#
#   tests/robust/valgrind.sh [build/readperf]
set -u
RP=${1:-build/readperf}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
[ -x "$RP" ] || { echo "valgrind.sh: $RP is not an executable" >&2; exit 1; }
work=$(mktemp -d /tmp/rp-valgrind.XXXXXX)
trap 'rm -rf "$work"' EXIT
VG=(valgrind -q --tool=memcheck --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite --show-leak-kinds=definite
    --track-origins=yes)
fails=0
runs=0
start=$(date +%s)
for f in "$root"/tests/golden/*.perf.data; do
	n=$(stat -c %s "$f")
	head -c $((n * 3 / 4)) "$f" >"$work/cut.data"
	head -c $((n / 6)) "$f" >"$work/cut2.data"
	for input in "$f" "$work/cut.data" "$work/cut2.data"; do
		for cmd in "report" "report --children" "csv -o $work/csv" "header -I" "dump" "stats" \
			   "script" "collapse" "json -o $work/out.json" "pprof -o $work/out.pb.gz"; do
			runs=$((runs + 1))
			# shellcheck disable=SC2086
			"${VG[@]}" --log-file="$work/vg.log" "$RP" $cmd "$input" >/dev/null 2>"$work/err"
			rc=$?
			if [ $rc -ne 0 ] && [ $rc -ne 2 ] || [ -s "$work/vg.log" ]; then
				fails=$((fails + 1))
				echo "FAIL readperf $cmd $(basename "$input") (from $(basename "$f")): exit $rc" >&2
				head -30 "$work/vg.log" >&2
			fi
		done
	done
done
echo "valgrind.sh: $runs runs in $(( $(date +%s) - start )) s; $fails failure(s)"
[ $fails -eq 0 ]
