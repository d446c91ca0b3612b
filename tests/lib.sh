# shellcheck shell=bash
# Helpers of the script tests (tests/*/run_*.sh), sourced first thing:
#
#   # shellcheck source=tests/lib.sh
#   . "$(dirname "$0")/../lib.sh"
#
# Sourcing sets
#   rp_name  the test's name for messages (run_json for run_json.sh)
#   here     the test's directory (absolute)
#   root     the repository (absolute)
#   failures 0 (the count fail keeps)
# and defines the functions below.  Nothing runs until a test calls them.
#
# Tests that need perf call require_perf (or rp_cannot_run for any other
# reason they cannot compare with perf): without a usable perf they skip
# loudly with exit 77, and under RP_REQUIRE_PERF=1 (make check and CI
# set it, so that no test needing perf is skipped there) they fail with
# exit 1 instead.

rp_name=$(basename "$0" .sh)
# shellcheck disable=SC2034 # here and root are for the tests
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# rp_banner LINE...: LINEs on standard error in a box of stars.
rp_banner() {
	echo "************************************************************" >&2
	printf '* %s\n' "$@" >&2
	echo "************************************************************" >&2
}

# rp_take_binary PATH [nocheck]: RP becomes PATH, made absolute; exit 1
# when it is not an executable.  When the test runs under
# tests/jcheck_run.sh (as ctest runs every script test), RP is instead
# tests/jcheck.sh, which runs each readperf command with -j 4 and with
# -j 1 and logs any difference (proof that threads change nothing);
# "nocheck" keeps the binary itself, for tests that need its path or
# time it, or compare -j themselves.
rp_take_binary() {
	RP=$1
	case "$RP" in /*) ;; *) RP=$PWD/$RP ;; esac
	[ -x "$RP" ] || { echo "$rp_name: $RP is not an executable" >&2; exit 1; }
	if [ -n "${RP_JCHECK_LOG:-}" ] && [ "${2:-}" != nocheck ]; then
		export RP_JCHECK_BINARY=$RP
		RP=$root/tests/jcheck.sh
	fi
}

# rp_cannot_run REASON [WHAT]: the test cannot do its comparison.  Exit 77
# (skip) with a banner saying REASON and WHAT was not checked (default:
# readperf was not compared with perf), or exit 1 under RP_REQUIRE_PERF=1.
rp_cannot_run() {
	if [ "${RP_REQUIRE_PERF:-0}" = 1 ]; then
		rp_banner "$rp_name FAILED: $1" \
			  "RP_REQUIRE_PERF=1 is set, so a missing or unusable perf" \
			  "(or a tool the test needs) is an error."
		exit 1
	fi
	rp_banner "$rp_name SKIPPED: $1" \
		  "${2:-readperf was NOT compared with perf.}" \
		  "Set RP_REQUIRE_PERF=1 to make this fatal."
	exit 77
}

# require_tool COMMAND REASON: rp_cannot_run REASON unless COMMAND exists.
require_tool() {
	command -v "$1" >/dev/null 2>&1 || rp_cannot_run "$2"
}

# require_cc: CC (default cc) must exist.
require_cc() {
	CC=${CC:-cc}
	require_tool "$CC" "no C compiler ($CC)"
}

# rp_perf_usable: status 0 when perf is installed and can record here (a
# cpu-clock recording of `true`); else 1, with the reason in
# rp_perf_reason.
rp_perf_usable() {
	local probe rc

	if ! command -v perf >/dev/null 2>&1; then
		rp_perf_reason="perf is not installed (apt-get install linux-perf)"
		return 1
	fi
	probe=$(mktemp "${TMPDIR:-/tmp}/rp-probe.XXXXXX") || {
		rp_perf_reason="cannot create a temporary file"
		return 1
	}
	perf record -q -e cpu-clock -o "$probe" -- true >/dev/null 2>&1 && [ -s "$probe" ]
	rc=$?
	rm -f "$probe" "$probe.old"
	if [ $rc -ne 0 ]; then
		rp_perf_reason="perf cannot record here (no permission? see perf_event_paranoid)"
		return 1
	fi
	return 0
}

# require_perf: perf is installed and can record, else rp_cannot_run.
require_perf() {
	rp_perf_usable || rp_cannot_run "$rp_perf_reason"
}

# rp_record_attached OUT SECONDS [PERF-OPTIONS...] -- COMMAND...: OUT,
# `perf record PERF-OPTIONS` attached (-p) to COMMAND for SECONDS once
# perf is set up (perf's own command is `sleep SECONDS`, so a loaded
# machine's slow start does not shorten it), from 0.3 s after COMMAND
# starts in a process group of its own; COMMAND must run longer, and its
# group is ended when perf has detached.  Attaching, because perf 6.1
# loses the stacks of a process it started itself now and then
# (docs/unwind.md).  A recording without samples (perf could not attach
# in time) is made again, at most three times; status 1 then, with
# perf's messages on standard error.
rp_record_attached() {
	local out=$1 secs=$2 pid attempt
	shift 2
	local -a popts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		popts+=("$1")
		shift
	done
	shift
	for attempt in 1 2 3; do
		setsid "$@" >"$out.command.out" 2>&1 &
		pid=$!
		sleep 0.3
		perf record -q "${popts[@]}" -o "$out" -p "$pid" -- sleep "$secs" \
			>"$out.record.out" 2>&1
		kill -- "-$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		grep -q . <(perf script -i "$out" 2>/dev/null | head -1) && return 0
		echo "$rp_name: $out: perf recorded nothing (attempt $attempt)" >&2
	done
	cat "$out.record.out" >&2
	return 1
}

# rp_collapse_agree NAME: perf's stackcollapse of NAME.data
# (NAME.folded.perf) against `readperf collapse` (NAME.folded.rp),
# compared by tests/diff/collapse_agree.py: status 0 when perf has samples
# and >= 99 % of them are in equal folded stacks.  rp_cannot_run when
# perf's script has no Python scripting.
rp_collapse_agree() {
	perf script report stackcollapse -i "$1.data" >"$1.folded.perf" 2>"$1.folded.err" ||
		rp_cannot_run "perf script report stackcollapse failed (no Python scripting?)"
	"$RP" collapse "$1.data" >"$1.folded.rp" 2>/dev/null
	python3 "$root/tests/diff/collapse_agree.py" "$1.folded.perf" "$1.folded.rp" "$1"
}

# rp_workdir PREFIX [keep-on-failure]: a new scratch directory
# ${TMPDIR:-/tmp}/PREFIX.XXXXXX, its path in rp_work_dir, removed when the test
# exits; with keep-on-failure it is kept when the test exits with a
# status other than 0 and 77 (the test says where).
rp_workdir() {
	rp_work_dir=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") ||
		{ echo "$rp_name: cannot create a scratch directory" >&2; exit 1; }
	rp_work_keep=${2:-}
	trap rp_workdir_exit EXIT
}

rp_workdir_exit() {
	local rc=$?

	if [ -z "$rp_work_keep" ] || [ $rc -eq 0 ] || [ $rc -eq 77 ]; then
		rm -rf "$rp_work_dir"
	fi
	return $rc
}

# rp_corpus_dir OVERRIDE: the public corpus: OVERRIDE when set, else
# shared/corpus beside the repository, else (a checkout elsewhere, as a
# CI clone) /work/shared/corpus when this machine has it.
rp_corpus_dir() {
	local c=${1:-$root/../shared/corpus}

	[ -d "$c" ] || [ ! -d /work/shared/corpus ] || c=/work/shared/corpus
	printf '%s\n' "$c"
}

# fail MESSAGE: prints FAIL MESSAGE and counts it in failures.
failures=0
fail() {
	echo "FAIL $*" >&2
	failures=$((failures + 1))
}

# rp_done MESSAGE: exit 1 after failures (saying where rp_workdir's files
# are kept), else print MESSAGE and exit 0.
rp_done() {
	if [ "$failures" -ne 0 ]; then
		echo "$rp_name: $failures check(s) failed; files kept in $rp_work_dir" >&2
		exit 1
	fi
	echo "$rp_name: $1"
	exit 0
}

# rp_same TAG EXPECTED ACTUAL: status 0 when the two files are equal;
# else fail and the first 40 lines of their diff (- EXPECTED,
# + ACTUAL).
rp_same() {
	cmp -s "$2" "$3" && return 0
	fail "$1: differs (- expected, + readperf):"
	diff -u "$2" "$3" | head -40 >&2
	return 1
}

# rp_report_agree DATA TAG [OPTS...]: `perf report --stdio OPTS` of DATA
# without perf's closing tip (3 lines) in TAG.perf, `readperf report OPTS`
# in TAG.rp; fail unless perf printed rows, readperf ran, and the two are
# equal.
rp_report_agree() {
	local data=$1 tag=$2
	shift 2
	if ! perf report -i "$data" --stdio "$@" >"$tag.full" 2>"$tag.err" ||
		! grep -q '%' "$tag.full"; then
		cat "$tag.err" >&2
		fail "perf report $* failed"
		return
	fi
	head -n -3 "$tag.full" >"$tag.perf"
	"$RP" report "$@" "$data" >"$tag.rp" 2>"$tag.rp.err" || fail "readperf report $* failed"
	rp_same "report $*" "$tag.perf" "$tag.rp" && echo "ok   report $*"
}

# rp_report_unaffected TAG DIR LIB DATA: `readperf report DATA` with
# LD_LIBRARY_PATH=DIR (where LIB, a library readperf loads on demand,
# cannot be loaded) prints report.expected (its output without DIR);
# fail otherwise.
rp_report_unaffected() {
	local tag=$1 dir=$2 lib=$3 data=$4
	if ! LD_LIBRARY_PATH=$dir "$RP" report "$data" >"$tag.report" 2>"$tag.report.err"; then
		fail "$tag: readperf report fails where $lib cannot be loaded:"
		cat "$tag.report.err" >&2
	else
		rp_same "$tag: readperf report" report.expected "$tag.report" &&
			echo "ok   $tag: readperf report is unaffected"
	fi
}

# rp_error_prefix_repeated FILE: the "readperf: error:" lines of FILE that
# repeat a prefix (docs/api.md: a library message does not say where, the
# command puts WHERE in front once), on standard output: two equal
# ": "-separated fields in a row ("postgres: postgres: ...", "a.data:
# a.data: ..."), or a later field that starts with the first one (the
# command's name or the recording's path) and a space ("flamegraph:
# flamegraph --diff ...").  Status 0 when there is one.
rp_error_prefix_repeated() {
	awk 'index($0, "readperf: error: ") == 1 {
		n = split(substr($0, 18), f, ": ")
		for (i = 1; i < n; i++)
			if (f[i] == f[i + 1]) { print; next }
		for (i = 2; i <= n; i++)
			if (index(f[i], f[1] " ") == 1) { print; next }
	}' "$1" | grep .
}

# rp_compile_workload: ./workload from tests/workload/workload.c, with
# frame pointers and without inlining (CC, see require_cc).  Status 0, or
# 1 with the compiler's messages on standard error.
rp_compile_workload() {
	"${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o workload \
		"$root/tests/workload/workload.c" -lm 2>cc.err && return 0
	cat cc.err >&2
	echo "$rp_name: cannot compile the workload" >&2
	return 1
}

# record_workload NAME PERF-RECORD-ARGS... -- WORKLOAD-ARGS...: NAME.data,
# perf record of ./workload -q WORKLOAD-ARGS (its output in
# NAME.record.out); rp_cannot_run when perf fails or writes nothing.
record_workload() {
	local name=$1
	shift
	local -a pargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do pargs+=("$1"); shift; done
	shift
	if ! perf record "${pargs[@]}" -o "$name.data" -- ./workload -q "$@" \
		>"$name.record.out" 2>&1 || [ ! -s "$name.data" ]; then
		cat "$name.record.out" >&2
		rp_cannot_run "perf record ${pargs[*]} failed (no permission? see perf_event_paranoid)"
	fi
}

# rp_script_same NAME TAG SCRIPT-ARGS...: perf script and readperf script
# of NAME.data with SCRIPT-ARGS, exact (files NAME.TAG.perf and .rp); a
# fail when perf fails or prints nothing, or readperf fails or differs.
rp_script_same() {
	local name=$1 tag=$2
	shift 2
	if ! perf script -i "$name.data" "$@" >"$name.$tag.perf" 2>"$name.$tag.perf.err" ||
		[ ! -s "$name.$tag.perf" ]; then
		cat "$name.$tag.perf.err" >&2
		fail "$name $tag: perf script $* failed or printed nothing"
		return
	fi
	if ! "$RP" script "$@" "$name.data" >"$name.$tag.rp" 2>"$name.$tag.rp.err"; then
		cat "$name.$tag.rp.err" >&2
		fail "$name $tag: readperf script $* failed"
		return
	fi
	rp_same "$name $tag: script $*" "$name.$tag.perf" "$name.$tag.rp" &&
		echo "ok   $name $tag ($(wc -l <"$name.$tag.rp") lines)"
}

# rp_script_refused NAME TAG SCRIPT-ARGS...: both refuse, readperf with
# perf's first message line.
rp_script_refused() {
	local name=$1 tag=$2 want
	shift 2
	if perf script -i "$name.data" "$@" >/dev/null 2>"$name.$tag.perf.err"; then
		fail "$name $tag: perf script $* did not fail: the test is wrong"
		return
	fi
	if "$RP" script "$@" "$name.data" >/dev/null 2>"$name.$tag.rp.err"; then
		fail "$name $tag: readperf script $* should fail"
		return
	fi
	want=$(grep -v '^ *$' "$name.$tag.perf.err" | head -1)
	if [ -z "$want" ] || ! grep -qF -- "$want" "$name.$tag.rp.err"; then
		fail "$name $tag: message differs: perf '$want', readperf '$(cat "$name.$tag.rp.err")'"
		return
	fi
	echo "ok   $name $tag (refused as perf)"
}

# rp_perf_text FILE: perf's report text without its tip ("#", "# (Tip:
# ...)", "#", wherever it is: branch mode prints its statistics after it),
# ending with a newline.
rp_perf_text() {
	awk '{ l[NR] = $0 }
	     END {
		for (i = 1; i <= NR; i++) {
			if (l[i] == "#" && i + 2 <= NR && l[i + 1] ~ /^# \(Tip: / && l[i + 2] == "#") {
				i += 2
				continue
			}
			print l[i]
		}
	     }' "$1"
}

# rp_wild_frames FILE: the unresolved call-stack frames at 2^63 or above
# in perf script's text of FILE.  A system-wide -g recording holds the
# stacks of whatever else runs (in make check, the other tests: programs
# without frame pointers, ASan's 0xbe fill), and such a frame makes
# perf's order of unresolved addresses no order (sort__sym_cmp() compares
# them by a difference that wraps; run_wildstack.sh tests that case):
# perf then keeps two rows of one key and orders ties by its trees'
# shapes.  Tests about other things record again (rp_calm_recording).
rp_wild_frames() {
	perf script -i "$1" 2>/dev/null |
		awk '$NF == "([unknown])" && length($1) == 16 && $1 ~ /^[89a-f]/ { n++ } END { print n + 0 }'
}

# rp_calm_recording FILE COMMAND...: runs COMMAND (which records FILE) up
# to five times, 3 s apart, until FILE has no rp_wild_frames; says so on
# standard error when it records again, and in a banner when the last
# try still has some.  COMMAND's failure is the caller's (it is run as
# given; rp_calm_recording returns its status).
rp_calm_recording() {
	local file=$1 try wild rc
	shift
	for try in 1 2 3 4 5; do
		"$@"
		rc=$?
		[ $rc -eq 0 ] || return $rc
		wild=$(rp_wild_frames "$file")
		[ "$wild" -eq 0 ] && return 0
		echo "$rp_name: $file (try $try): $wild unresolved frames at 2^63 or above from other processes" >&2
		[ $try -lt 5 ] && sleep 3
	done
	rp_banner "$rp_name: $file still has $wild unresolved frames at 2^63 or above after five tries:" \
		"its views may show perf's unordered rows (perf's sort__sym_cmp(), not what this test is about)"
	return 0
}

# rp_mkdata KIND OUT: OUT, a file of KIND made by tests/tools/rp-mkdata
# (the unit tests' builder; RP_MKDATA is its path under ctest, else it is
# looked for in the build beside readperf).  rp_cannot_run when the tool
# is missing; status 1 when it fails.
rp_mkdata() {
	local tool=${RP_MKDATA:-$(dirname "$RP")/tests/rp-mkdata}

	[ -x "$tool" ] || rp_cannot_run "rp-mkdata not found (build the tests: cmake --build build)" \
		"Files made by the builder were NOT compared."
	"$tool" "$1" "$2"
}
