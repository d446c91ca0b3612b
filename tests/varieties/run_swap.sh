#!/bin/bash
# Foreign byte order: recordings made here (little-endian) are rewritten in
# big-endian order by tests/tools/rp-swap.c, field by field, and readperf
# must read both copies the same: `readperf report --sort comm,dso,sym -t
# ';'` and `readperf csv` (stat.csv, overview.csv) give identical output.
#
#   run_swap.sh /path/to/readperf
#
# Kinds: plain, -g, two events, -a, --switch-events, a tracepoint, -z,
# --call-graph dwarf, each in file mode, and plain, -g, -z in pipe mode.
# Exit 77 (skip) when perf cannot record or rp-swap cannot be built (cc,
# libzstd), unless RP_REQUIRE_PERF=1.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_swap.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-swap
tmp=$rp_work_dir
cd "$tmp" || exit 1
"$CC" -O1 -Wall -Wextra -o rp-swap "$root/tests/tools/rp-swap.c" -lzstd 2>cc.err ||
	rp_cannot_run "cannot build rp-swap: $(head -1 cc.err)"

WORK="dd if=/dev/urandom bs=1M count=4 2>/dev/null | gzip -c >/dev/null; ls -R /usr/lib >/dev/null"
compare() { # name native
	local name=$1 in=$2
	if ! ./rp-swap "$in" "$in.be" 2>"$name.swap.err"; then
		fail "$name: rp-swap: $(cat "$name.swap.err")"
		return
	fi
	for v in le be; do
		f=$in
		[ $v = be ] && f=$in.be
		"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' "$f" >"$name.$v.report" 2>"$name.$v.err"
		echo "exit $?" >>"$name.$v.report"
		rm -rf "$name.$v.csv"
		"$RP" csv -o "$name.$v.csv" "$f" >/dev/null 2>>"$name.$v.err"
		echo "exit $?" >>"$name.$v.report"
	done
	if ! grep -q "^# Samples" "$name.le.report"; then
		fail "$name: readperf report printed no samples for the native file"
	elif ! cmp -s "$name.le.report" "$name.be.report"; then
		fail "$name: report differs for the swapped copy:"
		diff "$name.le.report" "$name.be.report" | head -10 >&2
	elif ! cmp -s "$name.le.csv/stat.csv" "$name.be.csv/stat.csv"; then
		fail "$name: stat.csv differs for the swapped copy:"
		diff "$name.le.csv/stat.csv" "$name.be.csv/stat.csv" | head -10 >&2
	elif ! cmp -s "$name.le.csv/overview.csv" "$name.be.csv/overview.csv"; then
		fail "$name: overview.csv differs for the swapped copy:"
		diff "$name.le.csv/overview.csv" "$name.be.csv/overview.csv" | head -10 >&2
	else
		echo "ok   $name ($(grep -c . "$name.le.csv/overview.csv") records)"
	fi
}

record() { # name perf-record-options...
	local name=$1
	shift
	if perf record -q "$@" -o "$name.data" -- sh -c "$WORK" >/dev/null 2>&1; then
		compare "$name" "$name.data"
	else
		fail "$name: perf record $* failed"
	fi
}

record_pipe() { # name perf-record-options...
	local name=$1
	shift
	if perf record -q "$@" -o - -- sh -c "$WORK" 2>/dev/null >"$name.data"; then
		compare "$name" "$name.data"
	else
		fail "$name: perf record $* -o - failed"
	fi
}

record plain -e cpu-clock
record fp -e cpu-clock -g
record two -e cpu-clock,task-clock
record sys -e cpu-clock -a
record switch -e cpu-clock --switch-events
record zstd -e cpu-clock -z
record dwarf -e cpu-clock --call-graph dwarf,4096
if perf record -q -e sched:sched_switch -a -o tp.data -- sleep 0.2 >/dev/null 2>&1; then
	compare tracepoint tp.data
else
	fail "tracepoint: perf record -e sched:sched_switch failed"
fi
record_pipe pipe -e cpu-clock
record_pipe pipe-fp -e cpu-clock -g
record_pipe pipe-zstd -e cpu-clock -z

if [ $failures -ne 0 ]; then
	echo "run_swap: $failures failure(s)" >&2
	exit 1
fi
echo "run_swap: all passed"
