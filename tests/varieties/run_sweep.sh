#!/bin/bash
# Every variety of perf.data that perf 6.1 records on this machine, read by
# readperf and compared with perf on the same file, view by view:
#
#   header     readperf header       perf report --header-only
#   header-I   readperf header -I    perf report --header-only -I
#   stats      readperf stats        perf report --stats
#   dump       readperf dump         perf report -D
#   report     readperf report --sort comm,dso,sym -t ';'
#              perf report --stdio --no-children --sort comm,dso,sym
#                   -F overhead,sample,period,comm,dso,sym -t ';' -g none
#              (blank lines, lone '#' lines and perf's random "Tip" line
#              dropped); on a perf stat record file: perf stat report
#
#   run_sweep.sh /path/to/readperf [VARIETY...]
#
# Prints one line per (variety, view): "ok", or "DIFF" with the first
# differing lines (perf's line first, then readperf's), or "PERF-FAILS"
# when perf itself cannot print that view of the file (then another
# reference is named on the line).  Varieties perf cannot record here are
# listed as "norec" and do not fail the test.  Then the same recording as
# a pipe stream (perf inject -o -) and as a byte-swapped copy
# (tests/tools/rp-swap.c) must give readperf the report of the plain file.
# docs/varieties.md holds the table of results.
#
# Exit 77 (skip) when perf cannot record at all, unless RP_REQUIRE_PERF=1
# (set by make check), which makes that a failure.  RP_SWEEP_KEEP=1 keeps
# the scratch directory.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_sweep.sh /path/to/readperf [VARIETY...]}"
shift
only=" $* "
require_perf
require_cc
if [ "${RP_SWEEP_KEEP:-0}" = 1 ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/rp-sweep.XXXXXX")
	echo "run_sweep: files in $tmp" >&2
else
	rp_workdir rp-sweep
	tmp=$rp_work_dir
fi
cd "$tmp" || exit 1
"$CC" -O1 -g -fno-omit-frame-pointer -o wl "$root/tests/workload/workload.c" -lm 2>cc.err ||
	rp_cannot_run "cannot build the workload: $(head -1 cc.err)"
"$CC" -O1 -o rp-swap "$root/tests/tools/rp-swap.c" -lzstd 2>/dev/null || rm -f rp-swap

WL="./wl -t 200 -q"
fails=0
declare -A result # variety/view -> ok, DIFF, ...
varieties=()
views="header header-I dump stats report"

wanted() { [ "$only" = "  " ] || [[ "$only" == *" $1 "* ]]; }

# Lines both tools print: blank lines, lone '#' and the Tip dropped.
report_filter() {
	grep -v '^$' | grep -v '^#$' | grep -v '^# \(To display\|(Tip\|Tip:\)' || true
}

perf_view() { # view file
	case $1 in
	header) perf report -i "$2" --header-only ;;
	header-I) perf report -i "$2" --header-only -I ;;
	stats) perf report -i "$2" --stats ;;
	# perf names a vDSO it has no build-id for after a temporary copy
	# (docs/dump.md): compared as "[vdso]".
	dump) perf report -i "$2" -D | sed 's|/tmp/perf-vdso\.so-[A-Za-z0-9]*|[vdso]|' ;;
	report)
		if [ -n "${statfile:-}" ]; then
			perf stat report -i "$2" 2>&1 >/dev/null
		else
			perf report -i "$2" --stdio --no-children --sort comm,dso,sym \
				-F overhead,sample,period,comm,dso,sym -t ';' -g none | report_filter
			return "${PIPESTATUS[0]}"
		fi
		;;
	esac
}

rp_view() { # view file
	case $1 in
	header) "$RP" header "$2" ;;
	header-I) "$RP" header -I "$2" ;;
	stats) "$RP" stats "$2" ;;
	dump) "$RP" dump "$2" ;;
	report)
		if [ -n "${statfile:-}" ]; then
			"$RP" report "$2"
		else
			"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' "$2" | report_filter
		fi
		;;
	esac
}

# The stats block at the end of perf report -D: the reference for --stats
# when perf report --stats fails on a file.
dump_stats() {
	sed -n '/^Aggregated stats:/,$p' | sed '1i\\'
}

note() { # variety view result text
	result[$1/$2]=$3
	printf '%-6s %-14s %-9s%s\n' "$3" "$1" "$2" "${4:+ $4}"
}

compare() { # variety file [stat]
	local v=$1 f=$2 view st
	statfile=${3:-}
	varieties+=("$v")
	for view in $views; do
		perf_view $view "$f" >"$v.$view.perf" 2>"$v.$view.perf.err"
		st=$?
		rp_view $view "$f" >"$v.$view.rp" 2>"$v.$view.rp.err"
		if [ "$view" = stats ] && { [ $st -ne 0 ] || [ ! -s "$v.$view.perf" ] ||
			grep -q "unexpected end of event stream\|failed to process\|Couldn't" "$v.$view.perf.err"; }; then
			# perf --stats fails on some files where -D does not
			# (pipe -z, pipe tracepoints): the stats block of -D is
			# the reference then (-D counts no lost samples per event).
			why="perf --stats fails ($(grep -v '^$' "$v.$view.perf.err" | head -1))"
			dump_stats <"$v.dump.perf" >"$v.$view.perf"
			grep -v '^ *LOST_SAMPLES events: *[0-9]*$' "$v.$view.rp" >"$v.$view.rp.nolost"
			if [ ! -s "$v.$view.perf" ]; then
				note "$v" $view PERF-FAILS "$why; no -D stats either"
			elif cmp -s "$v.$view.perf" "$v.$view.rp.nolost"; then
				note "$v" $view PERF-FAILS "$why; readperf = perf -D's stats block"
			else
				fails=$((fails + 1))
				note "$v" $view DIFF "$why; against perf -D's stats block: $(diff "$v.$view.perf" "$v.$view.rp.nolost" | grep '^[<>]' | head -2 | tr '\n' '|')"
			fi
			continue
		fi
		if [ ! -s "$v.$view.perf" ]; then
			if [ -s "$v.$view.rp" ]; then
				note "$v" $view PERF-FAILS "perf prints nothing ($(head -1 "$v.$view.perf.err"))"
			else
				note "$v" $view ok "(both print nothing: $(head -1 "$v.$view.rp.err"))"
			fi
		elif cmp -s "$v.$view.perf" "$v.$view.rp"; then
			note "$v" $view ok
		else
			fails=$((fails + 1))
			note "$v" $view DIFF "$(diff "$v.$view.perf" "$v.$view.rp" | grep '^[<>]' | head -4 | cut -c1-160 | tr '\n' '|')"
		fi
	done
	statfile=
}

norec() { # variety why
	varieties+=("$1")
	result[$1/record]=norec
	printf '%-6s %-14s %-9s %s\n' norec "$1" record "$2"
}

# rec variety perf-record-options...: record the workload into variety.data.
rec() {
	local v=$1
	shift
	wanted "$v" || return 0
	if perf record -q "$@" -o "$v.data" -- $WL >"$v.rec.err" 2>&1; then
		compare "$v" "$v.data"
	else
		norec "$v" "perf record $*: $(grep -v '^$' "$v.rec.err" | head -1)"
	fi
}

# pipe mode saved to a file (perf reads it with -i).
rec_pipe() {
	local v=$1
	shift
	wanted "$v" || return 0
	if perf record -q "$@" -o - -- $WL 2>"$v.rec.err" >"$v.data" && [ -s "$v.data" ]; then
		compare "$v" "$v.data"
	else
		norec "$v" "perf record $* -o -: $(grep -v '^$' "$v.rec.err" | head -1)"
	fi
}

# a perf subcommand that records: rec_cmd variety perf-args (with -o).
rec_cmd() {
	local v=$1
	shift
	wanted "$v" || return 0
	if perf "$@" >/dev/null 2>"$v.rec.err" && [ -e "$v.data" ]; then
		compare "$v" "$v.data"
	else
		norec "$v" "perf $*: $(grep -v '^$' "$v.rec.err" | head -1)"
	fi
}

rec file -e cpu-clock
rec_pipe pipe -e cpu-clock
rec dir -e cpu-clock --threads
rec z-file -e cpu-clock -z
rec_pipe z-pipe -e cpu-clock -z
rec z-dir -e cpu-clock -z --threads
rec_pipe pipe-fp -e cpu-clock -g
rec_pipe pipe-events -e cpu-clock,task-clock
rec_pipe pipe-tracepoint -e sched:sched_switch
rec fp -e cpu-clock -g
rec dwarf -e cpu-clock --call-graph dwarf,4096
rec events -e cpu-clock,task-clock
rec group-S -e '{cpu-clock,task-clock}' -S
rec group -e '{cpu-clock,task-clock}'
rec group-read -e '{cpu-clock,task-clock}:S'
rec syswide -e cpu-clock -a
rec switch -e cpu-clock --switch-events
rec namespaces -e cpu-clock --namespaces
rec cgroups -e cpu-clock --all-cgroups
rec data-d -e cpu-clock -d
rec sample-cpu -e cpu-clock --sample-cpu
rec phys-data -e cpu-clock --phys-data
rec data-pgsz -e cpu-clock --data-page-size
rec code-pgsz -e cpu-clock --code-page-size
rec user-regs -e cpu-clock --user-regs=ip,sp,bp,ax
rec intr-regs -e cpu-clock --intr-regs=ip,sp,bp,ax
rec tracepoint -e sched:sched_switch
rec tracepoint-a -e sched:sched_switch,sched:sched_wakeup -a
rec_cmd sched sched record -o sched.data -- $WL
rec_cmd kmem kmem record -o kmem.data -- $WL
rec_cmd lock lock record -o lock.data -- $WL
if wanted stat; then
	if perf stat record -o stat.data -- $WL >/dev/null 2>stat.rec.err; then
		compare stat stat.data stat
	else
		norec stat "perf stat record: $(head -1 stat.rec.err)"
	fi
fi
if wanted lost; then
	if perf record -q -e cpu-clock -c 10000 -m 1 -g -o lost.data -- ./wl -t 300 -j 2 -q >/dev/null 2>lost.rec.err; then
		compare lost lost.data
		grep -q 'LOST events:\|LOST_SAMPLES events:' lost.stats.rp ||
			echo "note   lost           record    no LOST record in this recording"
	else
		norec lost "perf record -m 1: $(head -1 lost.rec.err)"
	fi
fi
# perf inject: a copy, with build-ids of hit DSOs (-b), of all (--buildid-all).
if wanted inject || wanted inject-b || wanted inject-all; then
	perf record -q -e cpu-clock -g -o base.data -- $WL >/dev/null 2>&1
	wanted inject && rec_cmd inject inject -i base.data -o inject.data
	wanted inject-b && rec_cmd inject-b inject -b -i base.data -o inject-b.data
	wanted inject-all && rec_cmd inject-all inject --buildid-all -i base.data -o inject-all.data
fi

# One recording in other shapes: readperf's report must not change.
same() { # what file
	local out
	"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' "$2" >same.$1.rp 2>same.$1.err
	if [ ! -s same.$1.rp ]; then
		fails=$((fails + 1))
		out="DIFF   same-recording $1: readperf prints nothing: $(head -1 same.$1.err)"
	elif cmp -s same.plain.rp same.$1.rp; then
		out="ok     same-recording $1"
	else
		fails=$((fails + 1))
		out="DIFF   same-recording $1: $(diff same.plain.rp same.$1.rp | grep '^[<>]' | head -4 | tr '\n' '|')"
	fi
	echo "$out"
	result[same/$1]=${out%% *}
}
if wanted same; then
	perf record -q -e cpu-clock -g -o same.data -- $WL >/dev/null 2>&1
	"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' same.data >same.plain.rp 2>/dev/null
	perf inject -i same.data -o - >same.pipe.data 2>/dev/null && same pipe same.pipe.data
	if [ -x rp-swap ]; then
		./rp-swap same.data same.be.data && same swapped same.be.data
		./rp-swap same.pipe.data same.pipe.be.data && same swapped-pipe same.pipe.be.data
	else
		echo "note   same-recording: rp-swap not built (libzstd?)"
	fi
fi

# The table for docs/varieties.md.
if [ -n "${RP_SWEEP_TABLE:-}" ]; then
	{
		echo "| variety | $(echo $views | sed 's/ / | /g') |"
		echo "|---|$(for _ in $views; do printf -- '---|'; done)"
		for v in "${varieties[@]}"; do
			if [ -n "${result[$v/record]:-}" ]; then
				echo "| $v | not recorded here |||||"
				continue
			fi
			printf '| %s |' "$v"
			for view in $views; do printf ' %s |' "${result[$v/$view]:-}"; done
			echo
		done
	} >"$RP_SWEEP_TABLE"
fi

if [ $fails -ne 0 ]; then
	echo "run_sweep: $fails difference(s)" >&2
	exit 1
fi
echo "run_sweep: all agree"
