#!/bin/bash
# Records the seed corpus of the fuzz targets with the installed perf
# (as root) and writes it into tests/fuzz/corpus/<target>/seed-*.data.
#
#   make_seeds.sh [CORPUS_DIR]
#
# Small recordings of a shell loop: cpu-clock with frame-pointer and DWARF
# call stacks, an event group, a tracepoint (sched:sched_switch, with its
# TRACING_DATA), perf stat record, zstd compression (-z), pipe mode (-o -),
# and big-endian copies of some made with tests/tools/rp-swap.c.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

W='i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; ls / >/dev/null'
rec() { local o=$1; shift; perf record -q "$@" -o "$o" -- sh -c "$W" >/dev/null 2>&1; }
pip() { local o=$1; shift; perf record -q "$@" -o - -- sh -c "$W" 2>/dev/null >"$o"; }

rec cc.data -e cpu-clock -c 200000 -g
rec dw.data -e cpu-clock -c 200000 --call-graph dwarf,256
rec grp.data -e '{cpu-clock,task-clock}' -c 200000
rec z.data -e cpu-clock -c 200000 -z
pip pipe.data -e cpu-clock -c 200000
pip pipez.data -e cpu-clock -c 200000 -z
perf record -q -e sched:sched_switch -c 1 -o tp.data -- sleep 0.05 >/dev/null 2>&1
perf record -q -e sched:sched_switch -o - -- sleep 0.05 2>/dev/null >pipetp.data
perf stat record -o stat.data -- true >/dev/null 2>&1
cc -O1 -o rp-swap "$here/../tools/rp-swap.c" -lzstd
for f in cc pipe z tp; do ./rp-swap $f.data be-$f.data; done

put() { # target files...
	local t=$1; shift
	mkdir -p "$out/$t"
	for f in "$@"; do cp "$f.data" "$out/$t/seed-$f.data"; done
}
files="cc dw grp tp z stat pipe be-cc"
for t in open header records report csv dump stats script collapse json pprof; do
	put $t $files
done
put script pipetp
put json pipetp
put pipe pipe pipez pipetp be-pipe
put compressed z pipez cc be-z
put swapped be-cc be-pipe be-z be-tp
echo "make_seeds: seeds written under $out"
