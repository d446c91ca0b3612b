#!/bin/bash
# Several recordings in one command (docs/multi.md): `readperf collapse`
# and `readperf pprof` of three recordings made now (two files and a
# `perf record --threads` directory, which is one recording) give what one
# at a time gives, merged:
# - collapse: the folded stacks of the three, counts summed per stack,
#   sorted (computed here from the three single-file outputs);
# - pprof: `go tool pprof -top` of the merged profile equals `go tool
#   pprof -top a.pb.gz b.pb.gz c.pb.gz` (pprof's own merge of the
#   single-file profiles), per event and for the sample counts;
# with -j 1 and -j 4 byte for byte the same, and a directory of the
# recordings (perf.data, perf.data.2, the --threads directory
# perf.data.t) the same as the three named in that order.
#
# Missing perf, python3 or a perf that cannot record: loud skip (77), a
# failure under RP_REQUIRE_PERF=1; missing go: the same (only the pprof
# half needs it, but make check installs golang-go).
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_multi.sh /path/to/readperf}"
require_perf
require_tool python3 "python3 is not installed"
require_tool go "go is not installed (apt-get install golang-go)"
require_cc
rp_workdir rp-multi keep-on-failure
work=$rp_work_dir

export HOME=${HOME:-$work} GOCACHE=$work/gocache GOTOOLCHAIN=local GOFLAGS=-mod=mod
export PPROF_TMPDIR=$work

cd "$work" || exit 1
rp_compile_workload || exit 1

record_workload a -e cpu-clock,task-clock -g -- -t 200
record_workload b -e cpu-clock,task-clock -g -- -t 200 -f 2
record_workload c -e cpu-clock,task-clock -g --threads -- -t 200
[ -d c.data ] && [ -f c.data/data ] || rp_cannot_run "perf record --threads wrote no directory"
mkdir recs
cp a.data recs/perf.data
cp b.data recs/perf.data.2
cp -r c.data recs/perf.data.t
# not recordings: ignored
echo x >recs/notes.txt
mkdir recs/other

run() { # TAG CMD...: runs readperf, fails the test on an error
	local tag=$1
	shift
	"$RP" "$@" 2>"$tag.err" || { cat "$tag.err" >&2; fail "$tag: readperf $* failed"; return 1; }
}

# --- collapse ---
for f in a.data b.data c.data; do
	run "collapse-$f" collapse "$f" >"$f.folded"
done
run collapse-j1 collapse -j 1 a.data b.data c.data >all.j1.folded
run collapse-j4 collapse -j 4 a.data -i b.data c.data >all.j4.folded
run collapse-dir collapse -j 4 recs >all.dir.folded
python3 - a.data.folded b.data.folded c.data.folded >all.want.folded <<'PY'
import sys
counts = {}
for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        counts[stack] = counts.get(stack, 0) + int(n)
# sorted by the stack's bytes, as readperf and the stackcollapse script sort
for stack in sorted(counts, key=lambda s: s.encode("utf-8", "surrogateescape")):
    sys.stdout.write("%s %d\n" % (stack, counts[stack]))
PY
if [ "$(wc -l <all.want.folded)" -lt 10 ]; then
	fail "collapse: fewer than 10 stacks in three recordings: nothing to compare"
fi
rp_same "collapse of three = the sum of each" all.want.folded all.j1.folded &&
	echo "ok   collapse a b c = sum of the three ($(wc -l <all.want.folded) stacks)"
rp_same "collapse -j 4 = -j 1" all.j1.folded all.j4.folded && echo "ok   collapse -j 4 = -j 1"
rp_same "collapse DIR = its recordings" all.j1.folded all.dir.folded &&
	echo "ok   collapse of the directory = of its three recordings"

# --- pprof ---
for f in a.data b.data c.data; do
	run "pprof-$f" pprof -o "$f.pb.gz" "$f"
done
run pprof-j1 pprof -j 1 -o all.j1.pb.gz a.data b.data c.data
run pprof-j4 pprof -j 4 -o all.j4.pb.gz a.data b.data c.data
run pprof-dir pprof -j 4 -o all.dir.pb.gz recs
if cmp -s all.j1.pb.gz all.j4.pb.gz; then
	echo "ok   pprof -j 4 = -j 1, byte for byte"
else
	fail "pprof -j 4 and -j 1 differ"
fi
if cmp -s all.j1.pb.gz all.dir.pb.gz; then
	echo "ok   pprof of the directory = of its three recordings"
else
	fail "pprof of the directory and of its recordings differ"
fi
for ev in samples cpu-clock task-clock; do
	go tool pprof -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -sample_index=$ev \
		all.j1.pb.gz >"merged.$ev.top" 2>"merged.$ev.err" ||
		{ cat "merged.$ev.err" >&2; fail "go tool pprof of the merged profile failed"; }
	go tool pprof -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -sample_index=$ev \
		a.data.pb.gz b.data.pb.gz c.data.pb.gz >"gomerge.$ev.top" 2>"gomerge.$ev.err" ||
		{ cat "gomerge.$ev.err" >&2; fail "go tool pprof of the three profiles failed"; }
	if [ "$(grep -c . "merged.$ev.top")" -lt 15 ]; then
		fail "pprof -sample_index=$ev: fewer than 10 functions: nothing to compare"
	fi
	rp_same "pprof -top -sample_index=$ev: go tool pprof A B C vs readperf pprof A B C" \
		"gomerge.$ev.top" "merged.$ev.top" &&
		echo "ok   pprof -top -sample_index=$ev of a b c = go tool pprof's merge" \
			"($(sed -n 's/^Showing nodes accounting for \([^,]*\),.*/\1/p' "merged.$ev.top"))"
done

# --- a recording that cannot be read: reported, the others kept ---
: >empty.data
"$RP" collapse a.data empty.data >partial.folded 2>partial.err
rc=$?
if [ $rc -ne 2 ] || ! grep -q "empty.data" partial.err; then
	fail "collapse with an unreadable recording: exit $rc (want 2 and its name)"
	cat partial.err >&2
else
	rp_same "collapse a + unreadable = collapse a" a.data.folded partial.folded &&
		echo "ok   an unreadable recording: exit 2, the others written"
fi

if [ "$failures" -ne 0 ]; then
	echo "run_multi: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_multi: several recordings give the merge of each one's output"
