#!/bin/bash
# Differential test: `readperf json` against `perf data convert --to-json`
# on files recorded now: without and with -g, --call-graph dwarf (perf
# lists the recorded entries only: nothing unwound, no inline frames), two
# events, -a, a tracepoint (-a, and -g of one process).
#
# Files without tracepoints: the two documents are equal byte for byte.
# Tracepoint files: perf 6.1 writes no tracepoint fields and readperf does
# (as later perf versions do), so the documents are compared parsed, key
# by key, with `readperf json --no-trace-fields` byte for byte, and the
# sched_switch fields readperf writes are checked against what
# `perf script` prints for the same samples.
#
# When perf or python3 is missing or perf cannot record, the test says so
# loudly and skips (exit 77), unless RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_json.sh /path/to/readperf}"
require_perf
require_tool python3 "python3 is not installed"
require_cc
rp_workdir rp-json keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

# convert NAME: perf's and readperf's documents
convert() {
	local name=$1
	shift
	if ! perf data convert --force --to-json "$name.perf.json" -i "$name.data" \
		>/dev/null 2>"$name.perf.err"; then
		cat "$name.perf.err" >&2
		fail "$name: perf data convert failed"
		return 1
	fi
	if ! "$RP" json "$@" -o "$name.rp.json" "$name.data" 2>"$name.rp.err"; then
		cat "$name.rp.err" >&2
		fail "$name: readperf json failed"
		return 1
	fi
}

exact() {
	local name=$1
	shift
	convert "$name" "$@" || return
	if ! cmp -s "$name.perf.json" "$name.rp.json"; then
		fail "$name: readperf json $* differs from perf data convert --to-json:"
		diff "$name.perf.json" "$name.rp.json" | head -20 >&2
		return
	fi
	echo "ok   $name json $* ($(grep -c '"timestamp"' "$name.rp.json") samples, byte for byte)"
}

record_workload plain -e cpu-clock -- -t 300 -f 2
record_workload callchain -e cpu-clock -g -- -t 300
record_workload dwarf -e cpu-clock --call-graph dwarf,4096 -- -t 300
record_workload two -e cpu-clock,task-clock -- -t 300
record_workload syswide -e cpu-clock -a -- -t 300
record_workload tp -e sched:sched_switch -a -- -t 300
# Call stacks of one process only: idle stacks of -a -g runs go through
# the kernel's init text, past the kernel MMAP's end (see docs/json.md).
record_workload tpg -e sched:sched_switch -g -- -t 300 -f 1

exact plain
exact callchain
exact dwarf
exact two
exact syswide
exact tp --no-trace-fields
exact tpg --no-trace-fields

# Tracepoint fields: parsed comparison, then the fields against perf script.
for tp in tp tpg; do
if convert $tp; then
	perf script -i $tp.data -F trace >$tp.trace 2>/dev/null
	if python3 - $tp.perf.json $tp.rp.json $tp.trace <<'PY'; then
import json, re, sys
perf = json.load(open(sys.argv[1]))
rp = json.load(open(sys.argv[2]))
trace = [l.rstrip("\n") for l in open(sys.argv[3])]
bad = []
if perf["headers"] != rp["headers"]:
    bad.append("headers differ")
ps, rs = perf["samples"], rp["samples"]
if len(ps) != len(rs):
    bad.append("sample counts differ: perf %d, readperf %d" % (len(ps), len(rs)))
if len(trace) != len(rs):
    bad.append("perf script printed %d lines for %d samples" % (len(trace), len(rs)))
fields = ["prev_comm", "prev_pid", "prev_prio", "next_comm", "next_pid", "next_prio"]
for i, (p, r) in enumerate(zip(ps, rs)):
    for k, v in p.items():
        if r.get(k) != v:
            bad.append("sample %d key %s: perf %r readperf %r" % (i, k, v, r.get(k)))
    extra = [k for k in r if k not in p]
    if extra != fields + ["prev_state"] and extra != fields[:3] + ["prev_state"] + fields[3:]:
        bad.append("sample %d: extra keys %r" % (i, extra))
    if i < len(trace):
        # A value runs to the next " key=" (a comm may hold spaces:
        # "gdb worker").
        shown = dict(re.findall(r"(\w+)=(.*?)(?= \w+=|$)", trace[i].rstrip()))
        for k in fields:
            if shown.get(k) != r.get(k):
                bad.append("sample %d field %s: perf script %r readperf %r"
                           % (i, k, shown.get(k), r.get(k)))
    if len(bad) > 20:
        break
for b in bad[:20]:
    print(b, file=sys.stderr)
print("%d samples compared key by key" % len(rs))
sys.exit(1 if bad else 0)
PY
		echo "ok   $tp json (tracepoint fields)"
	else
		fail "$tp: tracepoint samples differ"
	fi
fi
done

if [ "$failures" -ne 0 ]; then
	echo "run_json: $failures comparison(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_json: readperf json equals perf data convert --to-json"
