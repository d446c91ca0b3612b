#!/bin/bash
# Profile one readperf command with perf and say where its time goes.
#
#   bench/profile.sh READPERF FILE [COMMAND [ARGS...]]     (default: report)
#
# READPERF should be built with symbols and frame pointers, e.g.
#   cmake -S . -B build-bench-prof -DCMAKE_BUILD_TYPE=Release \
#         -DCMAKE_C_FLAGS="-g -fno-omit-frame-pointer"
#   cmake --build build-bench-prof -j2 --target readperf-cli
#
# It records `READPERF COMMAND ARGS FILE > /dev/null` with
# `perf record -e cpu-clock -F 4999 --call-graph dwarf` (DWARF unwinding, so
# that leaf functions in libc without frame pointers keep their caller), then
# prints:
#   1. the top functions by self time (perf report --no-children --sort
#      dso,sym);
#   2. the share of samples per pipeline stage.  Each sample is charged to the
#      innermost frame that lies in readperf's own code (so time in memcpy,
#      qsort, malloc or in the kernel's page-fault handler counts for the
#      readperf function that called it), and that function's source file
#      gives the stage:
#        reading     lib/format/{session,input,pipe,zchunk}.c  (+ the kernel
#                    and libc below them)
#        decoding    lib/format/{decode,evsel,header,features,names}.c
#        ordering    lib/format/order.c
#        machine     lib/machine/*.c  (threads, maps: MMAP/COMM/FORK)
#        resolving   lib/symbols/*.c, lib/process.c
#        aggregating lib/report/*.c, lib/outputs/*.c (the consumer)
#        common      lib/common/*.c (hash maps, arenas, string pool)
#        cli         tools/
#        other       samples with no readperf frame (process start, exit)
#      plus, within each stage, the share that was spent below it in libc
#      and in the kernel.
#
# Environment: RP_PROF_DIR (work directory, default a temporary one, kept
# when set), RP_PROF_FREQ (default 4999).
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: bench/profile.sh READPERF FILE [COMMAND [ARGS...]]" >&2; exit 2; }
RP=$1; FILE=$2; shift 2
[ $# -gt 0 ] || set -- report
case "$RP" in /*) ;; *) RP=$PWD/$RP ;; esac
FREQ=${RP_PROF_FREQ:-4999}
if [ -n "${RP_PROF_DIR:-}" ]; then
	work=$RP_PROF_DIR; mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/rp-prof.XXXXXX"); trap 'rm -rf "$work"' EXIT
fi

cat "$FILE" >/dev/null
perf record -q -e cpu-clock -F "$FREQ" --call-graph dwarf -o "$work/prof.data" -- \
	"$RP" "$@" "$FILE" >/dev/null 2>"$work/record.err" || { cat "$work/record.err" >&2; exit 1; }

echo "== top functions by self time ($* on $(basename "$FILE"))"
perf report -i "$work/prof.data" --stdio --no-children --sort dso,sym -g none \
	--percent-limit 0.7 2>/dev/null | grep -v '^#' | grep -v '^$' | head -40

# symbol -> source file of the readperf binary
nm -l --defined-only "$RP" 2>/dev/null \
	| awk 'NF >= 4 && ($2 == "t" || $2 == "T") { f = $4; sub(/:[0-9]+$/, "", f); print $3 "\t" f }' \
	>"$work/symfile"

echo
echo "== share of samples per stage (innermost readperf frame; libc/kernel time below it charged to it)"
rpbase=$(basename "$RP")
perf script -i "$work/prof.data" -F ip,sym,dso 2>/dev/null | awk -v rp="$rpbase" -v map="$work/symfile" '
BEGIN {
	while ((getline line < map) > 0) {
		split(line, a, "\t"); file[a[1]] = a[2]
	}
}
function stage(sym,   f) {
	f = file[sym]
	if (f ~ /lib\/format\/(session|input|pipe|zchunk)\.c$/) return "reading"
	if (f ~ /lib\/format\/order\.c$/) return "ordering"
	if (f ~ /lib\/format\//) return "decoding"
	if (f ~ /lib\/machine\//) return "machine"
	if (f ~ /lib\/symbols\// || f ~ /lib\/process\.c$/) return "resolving"
	if (f ~ /lib\/report\// || f ~ /lib\/outputs\//) return "aggregating"
	if (f ~ /lib\/common\//) return "common"
	if (f ~ /tools\//) return "cli"
	return "other"
}
function finish() {
	if (nfr == 0) return
	total++
	st = "other"; below = "self"
	for (i = 1; i <= nfr; i++) {
		if (dso[i] ~ ("/" rp "$") || dso[i] == rp) {
			st = stage(sy[i])
			if (i > 1) below = (dso[1] ~ /kernel/) ? "kernel" : "libc/other"
			break
		}
	}
	n[st]++; nb[st, below]++
	nfr = 0
}
/^[ \t]*$/ { finish(); next }
{
	# "    addr sym+0xoff (dso)"
	d = $0; sub(/^.*\(/, "", d); sub(/\)[ \t]*$/, "", d)
	# an inlined frame has the address of the real frame that follows it:
	# the sample belongs to that function (and its source file)
	if (d == "inlined") next
	s = $2; sub(/\+0x[0-9a-f]+$/, "", s)
	nfr++; sy[nfr] = s; dso[nfr] = d
}
END {
	finish()
	printf "%-12s %7s %8s %8s %8s\n", "stage", "share", "self", "libc", "kernel"
	split("reading decoding ordering machine resolving aggregating common cli other", order, " ")
	for (k = 1; k <= 9; k++) {
		s = order[k]
		if (!(s in n)) continue
		printf "%-12s %6.1f%% %7.1f%% %7.1f%% %7.1f%%\n", s, 100 * n[s] / total,
			100 * nb[s, "self"] / total, 100 * nb[s, "libc/other"] / total, 100 * nb[s, "kernel"] / total
	}
	printf "(%d samples)\n", total
}'
