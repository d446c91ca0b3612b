#!/bin/bash
# Varieties of the input: pipe mode (live on standard input and saved to a
# file), pipe mode compressed (-z), directories (perf record --threads,
# also compressed), each against perf 6.1 on the same recording.
#
#   run_varieties.sh /path/to/readperf
#
# For each recording: `readperf report --sort comm,dso,sym -t ';'` must
# print what `perf report ... -t ';' -g none` prints (perf's random "Tip"
# line and the lines readperf does not print dropped), and for directories
# the samples of overview.csv must come in the order (times in ns) of
# `perf script`.  A pipe stream read live from standard input must give
# what the same stream saved to a file gives, and a pipe recording must
# name the same events as the file-mode recording of the same kind.
# Exit 77 (skip) when perf cannot record here, unless RP_REQUIRE_PERF=1.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_varieties.sh /path/to/readperf}"
require_perf
rp_workdir rp-varieties
tmp=$rp_work_dir
cd "$tmp" || exit 1

WORK="dd if=/dev/urandom bs=1M count=8 2>/dev/null | gzip -c >/dev/null"
# The rows and header lines both tools print.
filter() {
	grep -v '^$' | grep -v '^#$' | grep -v '^# \(To display\|Total Lost\|(Tip\)' || true
}

perf_rows() {
	perf report -i "$1" --stdio --no-children --sort comm,dso,sym \
		-F overhead,sample,period,comm,dso,sym -t ';' -g none 2>/dev/null | filter
}

rp_rows() {
	"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' "$1" 2>"$2.err" | filter
}

events() {
	grep "^# Samples: .* of event" | sed "s/.* of event '\\(.*\\)'/\\1/" | sort
}

check() { # name input
	perf_rows "$2" >"$1.perf"
	rp_rows "$2" "$1" >"$1.rp"
	if [ ! -s "$1.perf" ]; then
		fail "$1: perf printed nothing"
	elif ! diff -u "$1.perf" "$1.rp" >"$1.diff"; then
		fail "$1: readperf report differs from perf report:"
		head -20 "$1.diff" >&2
	else
		echo "ok   $1"
	fi
}

order() { # name input: samples in perf script's order
	rm -rf "$1.csv"
	if ! "$RP" csv -o "$1.csv" "$2" 2>/dev/null; then
		fail "$1: readperf csv failed"
		return
	fi
	awk -F, '$2 == "SAMPLE" { print $5 }' "$1.csv/overview.csv" >"$1.rp.t"
	# perf prints seconds.nanoseconds with nine digits after the point:
	# without the point it is the time in ns.
	perf script -i "$2" -F time --ns 2>/dev/null | tr -d ' :.' | sed 's/^0*//' >"$1.perf.t"
	sed -i 's/^0*//' "$1.rp.t"
	if [ ! -s "$1.perf.t" ] || ! cmp -s "$1.perf.t" "$1.rp.t"; then
		fail "$1: sample order differs from perf script ($(wc -l <"$1.rp.t") vs $(wc -l <"$1.perf.t") samples; first difference: $(diff "$1.rp.t" "$1.perf.t" | head -4 | tr '\n' ' '))"
	else
		echo "ok   $1 (order of $(wc -l <"$1.rp.t") samples)"
	fi
}

record() { # output perf-record-options...
	local out=$1
	shift
	perf record -q "$@" -o "$out" -- sh -c "$WORK" >/dev/null 2>&1
}

record_pipe() { # output perf-record-options...
	local out=$1
	shift
	perf record -q "$@" -o - -- sh -c "$WORK" 2>/dev/null >"$out"
}

# Pipe mode, saved to a file and read back from standard input.
record_pipe pipe.data -e cpu-clock || fail "perf record -o - failed"
check pipe pipe.data
rp_rows - pipe-stdin <pipe.data >pipe-stdin.rp
cmp -s pipe.rp pipe-stdin.rp || fail "pipe: standard input gives another report than the file"

# Live: perf writes into readperf's standard input.
perf record -q -e cpu-clock -o - -- sh -c "$WORK" 2>/dev/null |
	tee live.data | "$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' - >live.rp 2>live.err
st=$?
if [ $st -ne 0 ] || ! grep -q "of event 'cpu-clock'" live.rp; then
	fail "live pipe: exit $st: $(head -2 live.err) (stream starts: $(head -c 16 live.data | od -An -c | tr -s " "))"
else
	echo "ok   live pipe"
fi
perf record -q -e cpu-clock -z -o - -- sh -c "$WORK" 2>/dev/null |
	"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' - >livez.rp 2>livez.err
st=$?
if [ $st -ne 0 ] || ! grep -q "of event 'cpu-clock'" livez.rp; then
	fail "live pipe -z: exit $st: $(head -2 livez.err)"
else
	echo "ok   live pipe -z"
fi

record_pipe pipe-g.data -e cpu-clock -g && check pipe-g pipe-g.data
record_pipe pipe-z.data -e cpu-clock -z && check pipe-z pipe-z.data
record_pipe pipe-2.data -e cpu-clock,task-clock && check pipe-2ev pipe-2.data
perf record -q -e sched:sched_switch -a -o - -- sleep 0.2 2>/dev/null >pipe-tp.data &&
	check pipe-tracepoint pipe-tp.data

# The same kinds in file mode name the same events.
record file-2.data -e cpu-clock,task-clock
rp_rows file-2.data file-2 | events >file-2.ev
events <pipe-2ev.rp >pipe-2.ev
cmp -s file-2.ev pipe-2.ev || fail "pipe and file mode name other events: $(tr '\n' ' ' <pipe-2.ev) vs $(tr '\n' ' ' <file-2.ev)"

# Directories: perf record --threads (data, data.N).
if record thr.dir -e cpu-clock --threads && [ -d thr.dir ]; then
	check threads thr.dir
	order threads thr.dir
	record thrz.dir -e cpu-clock -a --threads -z && check threads-z thrz.dir && order threads-z thrz.dir
else
	fail "perf record --threads failed"
fi

if [ $failures -ne 0 ]; then
	echo "run_varieties: $failures failure(s)" >&2
	exit 1
fi
echo "run_varieties: all passed"
