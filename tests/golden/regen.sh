#!/bin/bash
# Regenerates the golden files of tests/golden with the installed perf.
#
#   tests/golden/regen.sh                 record new perf.data files, then
#                                         write their expected outputs
#   tests/golden/regen.sh --expect-only   keep the perf.data files, rewrite
#                                         only the expected outputs
#
# Each NAME.perf.data (a few KB: the bundled workload, 40 ms, cpu-clock at
# 1 kHz) gets three expectation files, all taken from perf and all
# independent of the binaries present on the machine that runs the test:
#   NAME.comm.expected   perf report --sort comm -F overhead,sample,period,comm
#                        -t ';' rows (per-command samples and periods)
#   NAME.dso.expected    the same with --sort dso (per shared object)
#   NAME.stats.expected  record counts by type (perf report --stats)
# and perf's whole text of every view hermetic.sh lists, one
# NAME.VIEW.txt each (report, report-sym, header, dump, stats, script,
# script-F, json), taken under the conditions hermetic.sh states (a copy
# with a fixed mtime, TZ=UTC, a clean environment, --symfs on an empty
# directory); tests/golden/run_hermetic.sh compares readperf with them
# without perf.
# demo.perf.data (with call stacks) is also what `make demo` reads when perf
# cannot record.  Run as root (or with perf_event_paranoid <= 1), then
# review `git diff --stat tests/golden` and commit.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rows_awk=$root/tests/diff/perf_rows.awk
stats_awk=$here/stats_rows.awk
# shellcheck source=tests/golden/hermetic.sh
. "$here/hermetic.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT

expect_only=0
case "${1:-}" in
	--expect-only) expect_only=1 ;;
	"") ;;
	*) echo "usage: $0 [--expect-only]" >&2; exit 2 ;;
esac

command -v perf >/dev/null || { echo "regen: perf is not installed" >&2; exit 1; }

if [ $expect_only = 0 ]; then
	"${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline \
		-o "$work/workload" "$root/tests/workload/workload.c" -lm
	rec() {
		local name=$1
		shift
		perf record "$@" -o "$work/$name.perf.data" -- "$work/workload" -q -t 40
		mv "$work/$name.perf.data" "$here/$name.perf.data"
		chmod 644 "$here/$name.perf.data"
	}
	rec cpu-clock  -e cpu-clock -F 1000
	rec demo       -e cpu-clock -F 1000 -g
	rec two-events -e cpu-clock,task-clock -F 1000
fi

for f in "$here"/*.perf.data; do
	name=${f%.perf.data}
	for key in comm dso; do
		perf report -i "$f" --stdio --no-children --sort "$key" \
			-F "overhead,sample,period,$key" -t ';' -g none 2>/dev/null |
			awk -v sep=';' -f "$rows_awk" >"$name.$key.expected"
	done
	perf report -i "$f" --stats 2>/dev/null | awk -f "$stats_awk" |
		LC_ALL=C sort >"$name.stats.expected"
	echo "regen: $(basename "$f") ($(stat -c %s "$f") bytes):" \
	     "$(wc -l <"$name.comm.expected") comm rows," \
	     "$(wc -l <"$name.dso.expected") dso rows," \
	     "$(wc -l <"$name.stats.expected") record types"

	# the hermetic views, in a directory of their own
	hw=$work/hermetic.$(basename "$name")
	copy=$(hv_prepare "$f" "$hw")
	nviews=0
	for view in $hv_views; do
		nviews=$((nviews + 1))
		(cd "$hw" && hv_perf "$view" "$copy" "$view.perf" 2>"$view.err") || {
			cat "$hw/$view.err" >&2
			echo "regen: perf failed on the $view view of $(basename "$f")" >&2
			exit 1
		}
		case $view in
		report|report-sym) hv_drop_tip <"$hw/$view.perf" ;;
		*)                 cat "$hw/$view.perf" ;;
		esac | hv_normalise "$view" >"$name.$view.txt"
	done
	echo "regen: $(basename "$f"): $(cat "$name".*.txt | wc -c) bytes of perf's text in" \
	     "$nviews views"
done
