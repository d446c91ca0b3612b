#!/bin/bash
# Differential test: `readperf pprof` read back by `go tool pprof`, on files
# recorded now with perf: without and with -g, two events, -a.
#
# For every event of a file, `go tool pprof -top -sample_index=EVENT` must
# show the same flat total per function as `readperf report --sort sym`
# shows periods per symbol (summed by name: pprof merges functions of the
# same name), and `-sample_index=samples` the same sample counts.  The
# labels (pid, tid, comm, cpu with -a) and the build-ids of the mappings
# (against `perf buildid-list`) are checked too.
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

check() {
	local name=$1
	if ! "$RP" pprof -o "$name.pb.gz" "$name.data" 2>"$name.rp.err"; then
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

record_workload plain -e cpu-clock -- -t 300 -f 2
record_workload callchain -e cpu-clock -g -- -t 300
record_workload two -e cpu-clock,task-clock -- -t 300
record_workload syswide -e cpu-clock -a -- -t 300

check plain
check callchain
check two
check syswide

if [ "$failures" -ne 0 ]; then
	echo "run_pprof: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_pprof: go tool pprof shows readperf report's totals"
