#!/bin/bash
# No command's error repeats its prefix.  A library message says what went
# wrong, not where; the command puts WHERE in front once (docs/api.md):
# `readperf: error: WHERE: MESSAGE`, WHERE being the command's name for its
# output's errors, the recording's path for an error in reading it (and
# for an output's when one command exports several recordings each on its
# own).  Before, the postgres output's messages began with "postgres:" and
# the command added its name again ("postgres: postgres: cannot
# connect"), and a recording refused by a postgres export of several
# recordings was named twice.
#
# Each command is made to fail where it can: a missing recording, a file
# that is not one, an output that cannot be written (/dev/full, a missing
# directory), an SQLite file that exists, PostgreSQL without a server
# (one recording and two), libpq and capstone that cannot be loaded
# (LD_LIBRARY_PATH to a directory of empty files under their SONAMEs),
# flamegraph --diff and diff with one recording, merged outputs with one
# recording missing.  Each must exit non-zero with at least one
# `readperf: error:` line, and no such line may hold two equal
# ": "-separated fields in a row, or a later field that starts with the
# first and a space (tests/lib.sh: rp_error_prefix_repeated; checked first
# on lines that repeat, so that the check cannot pass by matching
# nothing).  The recording is made now with perf (what fails here is
# never its content).
#
#   run_error_prefix.sh /path/to/readperf
#
# Skips (exit 77) when perf cannot record or a compiler is missing, unless
# RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# The binary itself: the failures write temporary names (sqlite's
# NAME.tmp-XXXXXX) that differ from run to run, and nothing here depends
# on threads.
rp_take_binary "${1:?usage: run_error_prefix.sh /path/to/readperf}" nocheck
require_perf
require_cc
rp_workdir rp-error-prefix keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1
record_workload w -e cpu-clock -F 1000 -- -t 100
cp w.data w2.data

# The check itself finds what it is for.
printf '%s\n' 'readperf: error: postgres: postgres: cannot connect: x' \
	'readperf: error: w.data: w.data: already in the database' \
	'readperf: error: flamegraph: flamegraph --diff takes two recordings' >self.err
n=$(rp_error_prefix_repeated self.err | wc -l)
[ "$n" = 3 ] || fail "rp_error_prefix_repeated finds $n of 3 repeated prefixes"
printf '%s\n' 'readperf: error: postgres: cannot connect: x' \
	'readperf: error: w.data: /tmp/d/w.data.db already exists' >self-ok.err
rp_error_prefix_repeated self-ok.err >/dev/null && fail "rp_error_prefix_repeated flags a good line"

checked=0
# run TAG [ENV=VALUE...] [>FILE] -- ARGS...: readperf ARGS (standard
# output to FILE) fails with errors that do not repeat a prefix.
run() {
	local tag=$1 rc bad out
	shift
	local -a envs=()
	out=$tag.out
	while [ "$1" != -- ]; do
		case $1 in
		'>'*) out=${1#>} ;;
		*) envs+=("$1") ;;
		esac
		shift
	done
	shift
	env "${envs[@]}" "$RP" "$@" >"$out" 2>"$tag.err"
	rc=$?
	checked=$((checked + 1))
	if [ $rc -eq 0 ]; then
		fail "$tag: readperf $* did not fail"
	elif ! grep -q '^readperf: error: ' "$tag.err"; then
		fail "$tag: readperf $* (exit $rc) printed no 'readperf: error:' line: $(head -3 "$tag.err")"
	elif bad=$(rp_error_prefix_repeated "$tag.err"); then
		fail "$tag: readperf $* repeats a prefix: $bad"
	fi
}

: >notdata.txt
echo 'not a perf.data file' >notdata.txt
mkdir empty-cs empty-pq
for n in $(grep -aoE 'libcapstone\.so\.[0-9]+' "$RP" | sort -u); do : >"empty-cs/$n"; done
for n in $(grep -aoE 'lib(pq|crypto)\.so\.[0-9]+' "$RP" | sort -u); do : >"empty-pq/$n"; done
nodir=$work/no/such/dir
nopg="host=$work/no-server dbname=perf connect_timeout=2"

# Every command on a missing recording and on a file that is not one.
for c in report csv header dump stats script collapse flamegraph pprof json html annotate \
	sqlite postgres; do
	case $c in
	csv | sqlite) o=(-o "$work/$c.out") ;;
	postgres) o=(--dsn "$nopg") ;;
	*) o=() ;;
	esac
	run "$c-missing" -- "$c" "${o[@]}" missing.data
	run "$c-notdata" -- "$c" "${o[@]}" notdata.txt
done
run diff-missing -- diff missing.data w.data
run diff-notdata -- diff notdata.txt w.data

# Outputs that cannot be written.
for c in report script header dump stats collapse annotate json; do
	run "$c-full" '>/dev/full' -- "$c" w.data
done
for c in json html pprof flamegraph; do
	run "$c-o-full" -- "$c" -o /dev/full w.data
done
for c in json html pprof flamegraph csv sqlite; do
	run "$c-nodir" -- "$c" -o "$nodir/$c.out" w.data
done
: >exists.db
run sqlite-exists -- sqlite -o exists.db w.data
: >a-file
run sqlite-each-notdir -- sqlite -o a-file w.data w2.data

# PostgreSQL: no server, one recording and two (each exported on its own);
# libpq that cannot be loaded.
run postgres-noserver -- postgres --dsn "$nopg" w.data
run postgres-noserver-each -- postgres --dsn "$nopg" w.data w2.data
run postgres-nolibpq LD_LIBRARY_PATH="$work/empty-pq" -- postgres --dsn "$nopg" w.data
run postgres-nolibpq-each LD_LIBRARY_PATH="$work/empty-pq" -- postgres --dsn "$nopg" \
	w.data w2.data

# capstone that cannot be loaded.
run annotate-nocapstone LD_LIBRARY_PATH="$work/empty-cs" -- annotate w.data

# Two recordings needed, one given; merged outputs with one missing.
run flamegraph-diff-one -- flamegraph --diff w.data
run diff-one -- diff w.data
for c in collapse pprof flamegraph; do
	run "$c-merge-missing" -- "$c" w.data missing.data
done

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "$rp_name: $checked failing invocations, none repeats a prefix"
exit 0
