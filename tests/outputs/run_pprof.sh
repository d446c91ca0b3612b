#!/bin/bash
# Differential test: `readperf pprof` read back by `go tool pprof`, on files
# recorded now with perf: without and with -g, two events, -a.
#
# For every event of a file, `go tool pprof -top -sample_index=EVENT` must
# show the same flat total per function as `readperf report --sort sym`
# shows periods per symbol (summed by name: pprof merges functions of the
# same name), and `-sample_index=samples` the same sample counts.  The
# labels (pid, tid, comm, cpu with -a) and the build-ids of the mappings
# (against `perf buildid-list`) are checked too, and what the
# continuous-profiling engines need (docs/pprof.md):
# - `File:` names the program (the workload), not its loader;
# - labels of value 0 are kept: on the -a recording `-tagfocus=cpu=0` and
#   `-tagfocus=pid=0` select as many samples as perf script shows on cpu 0
#   and of pid 0 (swapper, when the machine idled while recording);
# The --call-graph dwarf recording is compared with `readperf pprof
# --no-inline`: with inlined frames (the default) pprof counts a sample's
# period to the innermost inlined function, perf report --sort sym to the
# symbol.
# - `-list` of the -g (frame pointer) and --call-graph dwarf recordings
#   shows, per source line of each workload function, the samples `perf
#   report --sort sym,srcline` shows;
# - time_nanos and duration_nanos: the first sample's wall-clock time
#   (from the header's reference time of a `perf record -k
#   CLOCK_MONOTONIC` recording; 0 without one) and the time from the first
#   to the last sample (perf script --ns; the header's times of the first
#   and last sample, to their microsecond).
#
# Missing perf or python3, or a perf that cannot record: loud skip (77), a
# failure under RP_REQUIRE_PERF=1.  Missing go (golang-go): loud skip, and
# a failure under RP_REQUIRE_PERF=1 (make check installs golang-go).
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_pprof.sh /path/to/readperf}"
require_perf
require_tool python3 "python3 is not installed"
require_tool go "go is not installed (apt-get install golang-go)"
require_cc
rp_workdir rp-pprof keep-on-failure
work=$rp_work_dir

# go needs a cache directory and must not fetch anything
export HOME=${HOME:-$work} GOCACHE=$work/gocache GOTOOLCHAIN=local GOFLAGS=-mod=mod
export PPROF_TMPDIR=$work

cd "$work" || exit 1
rp_compile_workload || exit 1

check() { # NAME [READPERF-PPROF-OPTIONS...]
	local name=$1
	shift
	if ! "$RP" pprof "$@" -o "$name.pb.gz" "$name.data" 2>"$name.rp.err"; then
		cat "$name.rp.err" >&2
		fail "$name: readperf pprof failed"
		return
	fi
	if ! gzip -t "$name.pb.gz"; then
		fail "$name: not a gzip file"
		return
	fi
	"$RP" report --no-children -g none --sort sym -F overhead,sample,period,sym -t ';' "$name.data" >"$name.report" 2>"$name.report.err" ||
		{ cat "$name.report.err" >&2; fail "$name: readperf report failed"; return; }
	perf buildid-list -i "$name.data" >"$name.buildids" 2>/dev/null
	local events
	events=$(sed -n "s/^# Samples: .* of event '\\(.*\\)'\$/\\1/p" "$name.report")
	local ev
	for ev in $events samples; do
		if ! timeout 300 go tool pprof -top -nodecount=1000000 -nodefraction=0 \
			-edgefraction=0 -unit=ns -sample_index="$ev" "$name.pb.gz" \
			>"$name.$ev.top" 2>"$name.$ev.top.err"; then
			cat "$name.$ev.top.err" >&2
			fail "$name: go tool pprof -sample_index=$ev failed"
			return
		fi
	done
	timeout 300 go tool pprof -tags "$name.pb.gz" >"$name.tags" 2>/dev/null
	timeout 300 go tool pprof -raw "$name.pb.gz" >"$name.raw" 2>/dev/null
	if python3 - "$name" $events <<'PY'; then
import re, sys
name, events = sys.argv[1], sys.argv[2:]
bad = []

def top(path):
    rows, started = {}, False
    for line in open(path):
        if line.lstrip().startswith("flat"):
            started = True
            continue
        if not started or not line.strip():
            continue
        m = re.match(r"\s*(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(.*?)\s*$", line)
        v = m.group(1)
        v = float(v[:-2]) if v.endswith("ns") else float(v)
        if v:
            rows[m.group(2)] = rows.get(m.group(2), 0) + v
    return rows

# readperf report: per event, name -> (samples, period), summed by name
report, ev = {}, None
for line in open(name + ".report"):
    m = re.match(r"# Samples: .* of event '(.*)'", line)
    if m:
        ev = m.group(1)
        report[ev] = {}
        continue
    if line.startswith("#") or not line.strip() or ev is None:
        continue
    cols = line.rstrip("\n").split(";")
    sym = re.sub(r"^\[.\] ", "", cols[3]).rstrip()
    n, p = int(cols[1]), int(cols[2])
    s0, p0 = report[ev].get(sym, (0, 0))
    report[ev][sym] = (s0 + n, p0 + p)

samples_all = {}
for ev in events:
    want = {k: float(v[1]) for k, v in report[ev].items() if v[1]}
    got = top("%s.%s.top" % (name, ev))
    for k in sorted(set(want) | set(got)):
        if abs(want.get(k, 0) - got.get(k, 0)) > 0.5:
            bad.append("%s: %s: report period %s, pprof flat %s" % (ev, k, want.get(k), got.get(k)))
    for k, v in report[ev].items():
        samples_all[k] = samples_all.get(k, 0) + v[0]
got = top("%s.samples.top" % name)
for k in sorted(set(samples_all) | set(got)):
    if abs(samples_all.get(k, 0) - got.get(k, 0)) > 0.5:
        bad.append("samples: %s: report %s, pprof %s" % (k, samples_all.get(k), got.get(k)))

tags = open(name + ".tags").read()
for key in ("comm", "pid", "tid"):
    if not re.search(r"^\s*%s: Total" % key, tags, re.M):
        bad.append("no %s label" % key)
if "workload" not in tags:
    bad.append("comm label lacks workload")
if name == "syswide" and not re.search(r"^\s*cpu: Total", tags, re.M):
    bad.append("no cpu label in a -a recording")

raw = open(name + ".raw").read()
ids = {}
for line in open(name + ".buildids"):
    parts = line.split(None, 1)
    if len(parts) == 2:
        ids[parts[1].strip()] = parts[0]
for m in re.finditer(r"^\d+: \S+ (\S+) (\S*)", raw.split("Mappings", 1)[-1], re.M):
    path, bid = m.group(1), m.group(2)
    if path in ids and ids[path] != bid:
        bad.append("mapping %s: build-id %s, perf buildid-list %s" % (path, bid, ids[path]))
if "/workload " not in raw:
    bad.append("no mapping of the workload")
# the program first (-a recordings: whatever ran most, not checked)
first = open("%s.samples.top" % name).readline().strip()
if name != "syswide" and first != "File: workload":
    bad.append("go tool pprof -top starts with %r, not 'File: workload'" % first)

for b in bad[:30]:
    print(b, file=sys.stderr)
print("%s: %d functions, %d samples compared" % (name, len(samples_all), sum(samples_all.values())))
sys.exit(1 if bad else 0)
PY
		echo "ok   $name pprof (events: $(echo $events))"
	else
		fail "$name: go tool pprof disagrees with readperf report"
	fi
}

# tagfocus NAME: on the -a recording, -tagfocus=cpu=0 and pid=0 select
# the samples perf script shows on cpu 0 and of pid 0.
tagfocus() {
	local name=$1
	perf script -i "$name.data" -F pid,cpu 2>/dev/null >"$name.pidcpu" ||
		{ fail "$name: perf script -F pid,cpu failed"; return; }
	local tag
	for tag in cpu=0 pid=0; do
		timeout 300 go tool pprof -top -nodecount=1000000 -nodefraction=0 \
			-sample_index=samples -tagfocus="$tag" "$name.pb.gz" \
			>"$name.$tag.top" 2>"$name.$tag.err" ||
			{ cat "$name.$tag.err" >&2; fail "$name: -tagfocus=$tag failed"; return; }
	done
	if python3 - "$name" <<'PY'; then
import re, sys
name = sys.argv[1]
want = {"cpu=0": 0, "pid=0": 0}
for line in open(name + ".pidcpu"):
    m = re.match(r"\s*(-?\d+)\s+\[(\d+)\]", line)
    if not m:
        continue
    want["pid=0"] += m.group(1) == "0"
    want["cpu=0"] += m.group(2) == "000" or int(m.group(2)) == 0
bad = []
for tag, n in want.items():
    got, started = 0, False
    for line in open("%s.%s.top" % (name, tag)):
        if line.lstrip().startswith("flat"):
            started = True
            continue
        if started and line.strip():
            got += float(line.split()[0])
    if not n and tag == "cpu=0":
        bad.append("%s: perf script shows no sample: nothing to compare" % tag)
    if not n and not got:
        # a busy machine never idles: no swapper sample to select
        print("%s: no sample with %s in this recording: not compared" % (name, tag))
    elif got != n:
        bad.append("-tagfocus=%s: %d samples, perf script %d" % (tag, got, n))
    else:
        print("%s: -tagfocus=%s selects %d samples, as perf script" % (name, tag, n))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
		echo "ok   $name -tagfocus=cpu=0, pid=0"
	else
		fail "$name: -tagfocus of labels valued 0"
	fi
}

# srclines NAME: `go tool pprof -list` of every workload function shows
# per source line the samples perf report shows per (sym, srcline).
srclines() {
	local name=$1
	perf report -i "$name.data" --stdio --no-children --sort sym,srcline \
		-F sample,sym,srcline -t ';' -g none 2>/dev/null >"$name.srcline" ||
		{ fail "$name: perf report --sort srcline failed"; return; }
	local funcs
	funcs=$(awk -F';' '$3 ~ /^workload\.c:[0-9]+$/ { sub(/^\[.\] /, "", $2);
		gsub(/ +$/, "", $2); print $2 }' "$name.srcline" | sort -u | paste -sd'|')
	[ -n "$funcs" ] || { fail "$name: perf report shows no workload.c line"; return; }
	"$RP" pprof -o "$name.lines.pb.gz" "$name.data" 2>"$name.lines.err" ||
		{ cat "$name.lines.err" >&2; fail "$name: readperf pprof failed"; return; }
	timeout 300 go tool pprof -sample_index=samples -list "^($funcs)\$" "$name.lines.pb.gz" \
		>"$name.list" 2>"$name.list.err" ||
		{ cat "$name.list.err" >&2; fail "$name: go tool pprof -list failed"; return; }
	if python3 - "$name" <<'PY'; then
import re, sys
name = sys.argv[1]
want = {}
for line in open(name + ".srcline"):
    cols = [c.strip() for c in line.split(";")]
    if len(cols) < 3 or line.startswith("#"):
        continue
    m = re.match(r"workload\.c:(\d+)$", cols[2])
    if not m:
        continue
    fn = re.sub(r"^\[.\] ", "", cols[1])
    key = (fn, int(m.group(1)))
    want[key] = want.get(key, 0) + int(cols[0])
got, fn = {}, None
for line in open(name + ".list"):
    m = re.match(r"ROUTINE =+ (\S+) in (\S+)", line)
    if m:
        fn = m.group(1) if m.group(2).endswith("/workload.c") else None
        continue
    m = re.match(r"\s*(\S+)\s+(\S+)\s+(\d+):", line)
    if fn and m and m.group(1) != ".":
        got[(fn, int(m.group(3)))] = got.get((fn, int(m.group(3))), 0) + int(m.group(1))
bad = ["%s:%d: perf report %s samples, pprof -list %s" % (k[0], k[1], want.get(k), got.get(k))
       for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]
for b in bad[:20]:
    print(b, file=sys.stderr)
print("%s: -list: %d source lines of %d functions compared"
      % (name, len(want), len(set(k[0] for k in want))))
sys.exit(1 if bad or not want else 0)
PY
		echo "ok   $name -list shows perf's samples per source line"
	else
		fail "$name: go tool pprof -list disagrees with perf report --sort srcline"
	fi
}

# times NAME: time_nanos and duration_nanos against the recording.
times() {
	local name=$1
	perf report -i "$name.data" --header-only >"$name.header" 2>/dev/null
	perf script -i "$name.data" -F time --ns 2>/dev/null >"$name.times" ||
		{ fail "$name: perf script -F time failed"; return; }
	if python3 - "$name" <<'PY'; then
import gzip, re, sys
name = sys.argv[1]

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return v, i

# the profile's top-level int64 fields 9 (time_nanos), 10 (duration_nanos)
b = gzip.open(name + ".pb.gz").read()
fields, i = {}, 0
while i < len(b):
    key, i = varint(b, i)
    wt = key & 7
    if wt == 0:
        v, i = varint(b, i)
        fields[key >> 3] = v
    elif wt == 2:
        n, i = varint(b, i)
        i += n
    elif wt == 1:
        i += 8
    elif wt == 5:
        i += 4
    else:
        sys.exit("bad wire type %d" % wt)
t, d = fields.get(9, 0), fields.get(10, 0)
ts = [int(x.replace(".", "")) for x in re.findall(r"(\d+\.\d{9}):", open(name + ".times").read())]
hdr = open(name + ".header").read()
bad = []
if d != max(ts) - min(ts):
    bad.append("duration_nanos %d, perf script's last - first sample %d" % (d, max(ts) - min(ts)))
first = re.search(r"time of first sample : (\d+)\.(\d+)", hdr)
last = re.search(r"time of last sample : (\d+)\.(\d+)", hdr)
us = lambda m: int(m.group(1)) * 10**6 + int(m.group(2))
if not first or not last:
    bad.append("no sample times in the header")
elif abs(d - (us(last) - us(first)) * 1000) > 2000:
    bad.append("duration_nanos %d, the header's last - first %d us" % (d, us(last) - us(first)))
ref = re.search(r"reference time: .* = (\d+)\.(\d+) \(TOD\) = (\d+)\.(\d{9}) \(", hdr)
if ref:
    tod = int(ref.group(1)) * 10**9 + int(ref.group(2).ljust(9, "0"))
    clk = int(ref.group(3)) * 10**9 + int(ref.group(4))
    want = tod + min(ts) - clk
    # the header prints the wall-clock reference to the microsecond
    if abs(t - want) >= 1000:
        bad.append("time_nanos %d, first sample on the wall clock %d" % (t, want))
elif t != 0:
    bad.append("time_nanos %d without a wall-clock reference in the recording" % t)
for x in bad:
    print(x, file=sys.stderr)
print("%s: time_nanos %d, duration_nanos %d%s" % (name, t, d, "" if ref else " (no reference time)"))
sys.exit(1 if bad else 0)
PY
		echo "ok   $name time_nanos, duration_nanos"
	else
		fail "$name: time_nanos or duration_nanos"
	fi
}

record_workload plain -e cpu-clock -- -t 300 -f 2
record_workload callchain -e cpu-clock -g -- -t 300
record_workload two -e cpu-clock,task-clock -- -t 300
record_workload syswide -e cpu-clock -a -- -t 300
record_workload clock -e cpu-clock -g -k CLOCK_MONOTONIC -- -t 200
record_workload dwarf -e cpu-clock --call-graph dwarf,8192 -- -t 150

check plain
check callchain
check two
check syswide
check clock
check dwarf --no-inline
tagfocus syswide
srclines callchain
srclines dwarf
times clock
times plain

if [ "$failures" -ne 0 ]; then
	echo "run_pprof: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_pprof: go tool pprof shows readperf report's totals, perf's lines, labels and times"
