#!/bin/bash
# Recordings cut short: `perf record` killed with SIGKILL while it records
# leaves a file whose header says data size 0 and that has no feature
# sections.  perf 6.1 reads nothing from it ("failed to process sample");
# readperf reads it up to its last whole record with one warning.
#
#   run_cutshort.sh /path/to/readperf
#
# The oracle: tests/tools/rp-finish-header.py finishes the header of a copy
# of the same bytes the way perf record would have (data size = the whole
# records, no features; for -z the COMPRESSED feature of a finished -z
# recording, which perf needs to inflate), and perf reads that copy.  For
#   kill-g     perf record -e cpu-clock -g, killed once it wrote 256 KiB
#   kill-z     the same with -z (compressed records), killed at 32 KiB
#   cut-inside kill-g cut 20 bytes before its end (the last record is cut)
#   zeros      kill-g followed by 4 KiB of zeros (what a crash can leave)
# readperf on the cut file must print, against perf on the finished copy:
# the same report rows (--sort comm,dso,sym, see perf_rows.awk), the same
# perf script lines, exit status 0, and on stderr exactly one warning
# that names the bytes recovered and the bytes after them as the finisher
# counted them.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check, CI): then it fails.
# The scratch directory is kept on failure and its path printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_cutshort.sh /path/to/readperf}"
awkf=$here/perf_rows.awk
finish=$root/tests/tools/rp-finish-header.py
require_perf
require_cc
require_tool python3 "python3 is missing (the header finisher is a python script)"
rp_workdir rp-cutshort keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

rows() { awk -v sep=';' -f "$awkf"; }

# record_killed NAME MIN-BYTES PERF-RECORD-ARGS...: NAME.data, perf record
# of the workload killed with SIGKILL once the file holds MIN-BYTES (a
# small ring buffer, -m 16, makes perf write often; at most 20 s, so a
# loaded machine still gets records); the workload is stopped after perf.
record_killed() {
	local name=$1 min=$2 pid wl i size=0
	shift 2
	perf record -m 16 "$@" -o "$name.data" -- ./workload -q -t 30000 \
		>"$name.record.out" 2>&1 &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		sleep 0.1
		size=$(stat -c %s "$name.data" 2>/dev/null || echo 0)
		[ "$size" -ge "$min" ] && break
	done
	wl=$(pgrep -P "$pid")
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	[ -n "$wl" ] && kill "$wl" 2>/dev/null
	if [ "$size" -lt "$min" ]; then
		cat "$name.record.out" >&2
		rp_cannot_run "perf record $* wrote $size bytes in 20 s (fewer than $min)"
	fi
}

# check NAME [FINISHER-OPTIONS...]: NAME.data against perf on its
# finished copy NAME.fin.data.
check() {
	local name=$1 counts rec cut rc n
	shift
	if ! counts=$(python3 "$finish" "$@" "$name.data" "$name.fin.data"); then
		fail "$name: the finisher refused the file (not cut short?)"
		return
	fi
	read -r rec cut <<<"$counts"

	perf report -i "$name.fin.data" --stdio --no-children --sort comm,dso,sym \
		-F overhead,sample,period,comm,dso,sym -t ';' -g none \
		>"$name.perf.txt" 2>"$name.perf.err" || {
		cat "$name.perf.err" >&2
		fail "$name: perf report on the finished copy failed"
		return
	}
	"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' "$name.data" >"$name.rp.txt" 2>"$name.rp.err"
	rc=$?
	[ $rc -eq 0 ] || fail "$name: readperf report exit status $rc"
	rows <"$name.perf.txt" >"$name.perf.rows"
	rows <"$name.rp.txt" >"$name.rp.rows"
	n=$(grep -cv '^@event ' "$name.perf.rows")
	[ "$n" -gt 0 ] || fail "$name: perf printed no rows for the finished copy (test problem)"
	rp_same "$name report rows" "$name.perf.rows" "$name.rp.rows" &&
		echo "ok   $name report ($n rows)"

	# One warning, naming what the finisher counted.
	if [ "$(wc -l <"$name.rp.err")" -ne 1 ] ||
	   ! grep -q "cut short.*recovered $rec bytes of records.*($cut bytes after it)" \
		"$name.rp.err"; then
		fail "$name: expected one warning: cut short, $rec bytes recovered, $cut after; got:"
		cat "$name.rp.err" >&2
	else
		echo "ok   $name warning ($rec bytes recovered, $cut after)"
	fi

	# Every command warns the same way (stats reads records on its own).
	for c in stats dump csv; do
		"$RP" "$c" -o "$name.$c.out" "$name.data" >/dev/null 2>"$name.$c.err" ||
			"$RP" "$c" "$name.data" >/dev/null 2>"$name.$c.err" ||
			fail "$name: readperf $c failed"
		cmp -s "$name.rp.err" "$name.$c.err" ||
			fail "$name: readperf $c warned otherwise: $(cat "$name.$c.err")"
	done

	perf script -i "$name.fin.data" >"$name.perf.script" 2>"$name.perf.script.err" || {
		cat "$name.perf.script.err" >&2
		fail "$name: perf script on the finished copy failed"
		return
	}
	"$RP" script "$name.data" >"$name.rp.script" 2>/dev/null
	rc=$?
	[ $rc -eq 0 ] || fail "$name: readperf script exit status $rc"
	rp_same "$name script" "$name.perf.script" "$name.rp.script" &&
		echo "ok   $name script ($(wc -l <"$name.rp.script") lines)"

	# perf 6.1 itself reads nothing from the cut file (docs/robustness.md).
	perf report -i "$name.data" --stdio --no-children --sort comm,dso,sym \
		-F overhead,sample,period,comm,dso,sym -t ';' -g none \
		>"$name.perfcut.txt" 2>/dev/null
	n=$(rows <"$name.perfcut.txt" | grep -cv '^@event ')
	echo "note $name: perf report on the cut file itself printed $n rows"
}

start=$(date +%s)
record_killed kill-g 262144 -e cpu-clock -g
size0=$(python3 -c 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1],"rb").read(), 48)[0])' kill-g.data)
if [ "$size0" != 0 ]; then
	fail "kill-g: the killed perf record left data size $size0, not 0"
fi
check kill-g

# The last record cut by the end of the file.
read -r rec _ <<<"$(python3 "$finish" kill-g.data /dev/null)"
dataoff=$(python3 -c 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1],"rb").read(), 40)[0])' kill-g.data)
head -c $((dataoff + rec - 20)) kill-g.data >cut-inside.data
check cut-inside

# Zeros after the last record.
{ cat kill-g.data; head -c 4096 /dev/zero; } >zeros.data
check zeros

if perf record -q -z -e cpu-clock -o zdone.data -- true >/dev/null 2>&1 && [ -s zdone.data ]; then
	record_killed kill-z 32768 -z -e cpu-clock -g
	check kill-z --compressed-from zdone.data
else
	echo "note: perf record -z does not work here: the compressed case was not run" >&2
fi
echo "run_cutshort: $(( $(date +%s) - start )) s"

if [ $failures -ne 0 ]; then
	echo "run_cutshort: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_cutshort: readperf recovers the killed recordings as perf reads their finished copies"
exit 0
