#!/bin/bash
# Several threads change nothing: every output, with -j 1 (one thread) and
# -j 4 (a reader thread, the pipeline's thread and three workers that walk
# --call-graph dwarf stacks: more threads than this machine's cores, to
# shake out races), is the same byte for byte, with the same messages and
# exit status.  Recordings made now with the installed perf:
#
#   fp      -g, a workload that forks and execs (sideband between samples)
#   dwarf   --call-graph dwarf of the same (-O2, no frame pointers)
#   dwarfz  the same, compressed (-z: records read as copies)
#   two     cpu-clock and task-clock, --call-graph dwarf
#   sysg    -a -g (every process of the machine)
#   sysd    -a --call-graph dwarf
#   cxx     C++ with inlined templates, three threads, a library of its
#           own (tests/workload/stacks.cc), --call-graph dwarf
#   dir     perf record --threads (a directory of data.N files), dwarf
#           (megabytes per data.N file: turns of 2 MiB, the framers' byte bound)
#   dirg    perf record --threads=cpu -g, 20 k samples a second (~20 k records,
#           queued at once and sorted on several threads; thousands
#           of records per data.N file: the framers' rings wrap)
#   dirz    perf record --threads -z (compressed: the framers stop at the
#           first COMPRESSED record, the reader goes on alone)
#
# Commands: report (perf's default view and the rows alone), script and
# collapse on every file; on dwarf and cxx also report --no-children
# (graphs) and --sort srcline, flamegraph, pprof, json, csv, html, and
# script -F +srcline on cxx.
#
# Under a ThreadSanitizer build (make check-tsan) a report of the
# sanitizer fails the test by name.  RP_PARALLEL_FILES limits the
# recordings (names above), RP_PARALLEL_J the thread count compared with
# -j 1 (default 4).
#
#   run_parallel.sh /path/to/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_parallel.sh /path/to/readperf}" nocheck
require_perf
require_cc
CXX=${CXX:-c++}
require_tool "$CXX" "no C++ compiler ($CXX)"
rp_workdir rp-parallel keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
J=${RP_PARALLEL_J:-4}
FILES=${RP_PARALLEL_FILES:-fp dwarf dwarfz two sysg sysd cxx dir dirg dirz}

"${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o workload \
	"$root/tests/workload/workload.c" -lm 2>cc.err &&
	"${CC:-cc}" -O2 -g -fomit-frame-pointer -o workload-o2 "$root/tests/workload/workload.c" \
		-lm 2>>cc.err &&
	"${CC:-cc}" -O2 -g -fomit-frame-pointer -fPIC -shared -o libstacks.so \
		"$root/tests/workload/stacks_lib.c" 2>>cc.err &&
	"$CXX" -O2 -g -fomit-frame-pointer -pthread -o stacks "$root/tests/workload/stacks.cc" \
		-L. -lstacks -Wl,-rpath,'$ORIGIN' 2>>cc.err ||
	{ cat cc.err >&2; echo "$rp_name: cannot compile the workloads" >&2; exit 1; }

# record NAME PERF-RECORD-ARGS... -- PROGRAM ARGS...
record() {
	local name=$1
	shift
	local -a pargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do pargs+=("$1"); shift; done
	shift
	if ! perf record -q "${pargs[@]}" -o "$name.data" -- "$@" >"$name.record.out" 2>&1 ||
		[ ! -e "$name.data" ]; then
		cat "$name.record.out" >&2
		rp_cannot_run "perf record ${pargs[*]} failed"
	fi
}

wl=(./workload -q -t 250 -j 2 -f 3)
wl2=(./workload-o2 -q -t 250 -j 2 -f 3)
for f in $FILES; do
	case $f in
	fp)     record fp -e cpu-clock -F 4000 -g -- "${wl[@]}" ;;
	dwarf)  record dwarf -e cpu-clock -F 2000 --call-graph dwarf -- "${wl2[@]}" ;;
	dwarfz) record dwarfz -z -e cpu-clock -F 2000 --call-graph dwarf -- "${wl2[@]}" ;;
	two)    record two -e cpu-clock,task-clock -F 1000 --call-graph dwarf,4096 -- "${wl2[@]}" ;;
	sysg)   record sysg -a -e cpu-clock -F 2000 -g -- "${wl[@]}" ;;
	sysd)   record sysd -a -e cpu-clock -F 500 --call-graph dwarf -- "${wl2[@]}" ;;
	cxx)    record cxx -e cpu-clock -F 2000 --call-graph dwarf -- ./stacks -t 300 -j 3 ;;
	dir)    record dir --threads -e cpu-clock -F 4000 --call-graph dwarf -- "${wl2[@]}" ;;
	dirg)   record dirg --threads=cpu -e cpu-clock -c 50000 -g -- ./workload -q -t 1500 -j 2 -f 3 ;;
	dirz)   record dirz --threads -z -e cpu-clock -F 4000 -g -- "${wl[@]}" ;;
	*)      echo "$rp_name: unknown recording '$f'" >&2; exit 1 ;;
	esac
done

# run TAG J COMMAND...: readperf COMMAND -j J in out.TAG.J/ (the command's
# files there too); its standard output, standard error and status kept.
run() {
	local tag=$1 j=$2
	shift 2
	rm -rf "out.$tag.$j"
	mkdir "out.$tag.$j"
	(cd "out.$tag.$j" && "$RP" "$@" -j "$j" >stdout 2>stderr; echo $? >status)
}

runs=0
for f in $FILES; do
	data=$work/$f.data
	# A directory of one data.N file would not run the framers (perf
	# writes one per CPU).
	case $f in
	dir*) [ "$(nproc)" -lt 2 ] || [ "$(find "$data" -name 'data.*' | wc -l)" -ge 2 ] ||
		fail "$f: perf record --threads wrote fewer than two data.N files" ;;
	esac
	# Every output on two files; the others (the same walks and
	# consumers on other kinds of input) with the main views.
	cmds=("report" "report --no-children -g none -F overhead,sample,period,comm,dso,sym -t ;"
	      "script" "collapse")
	case $f in
	dwarf | cxx)
		cmds+=("report --no-children" "report --no-children -g none --sort srcline"
		       "flamegraph -o out.svg" "pprof -o out.pb.gz" "json -o out.json" "csv -o csv"
		       "html -o out.html") ;;
	esac
	[ "$f" = cxx ] && cmds+=("script -F +srcline")
	for c in "${cmds[@]}"; do
		tag=$(printf '%s %s' "$f" "$c" | tr -c 'A-Za-z0-9\n' '_')
		# shellcheck disable=SC2086 # c holds the command and its options
		run "$tag" 1 $c -i "$data"
		# shellcheck disable=SC2086
		run "$tag" "$J" $c -i "$data"
		runs=$((runs + 1))
		if grep -q 'ThreadSanitizer' "out.$tag.$J/stderr" "out.$tag.1/stderr"; then
			fail "$f: readperf $c: ThreadSanitizer reported:"
			grep -h -A30 'WARNING: ThreadSanitizer' "out.$tag.$J/stderr" "out.$tag.1/stderr" |
				head -60 >&2
			continue
		fi
		if [ "$(cat "out.$tag.1/status")" != 0 ]; then
			fail "$f: readperf $c -j 1 failed: $(head -3 "out.$tag.1/stderr")"
			continue
		fi
		if ! diff -r "out.$tag.1" "out.$tag.$J" >"diff.$tag" 2>&1; then
			fail "$f: readperf $c: -j 1 and -j $J differ:"
			head -20 "diff.$tag" >&2
			continue
		fi
		# Something was compared: an output that says nothing proves
		# nothing.
		[ -n "$(find "out.$tag.1" -type f -size +0 ! -name status)" ] ||
			fail "$f: readperf $c: no output at all"
	done
done
echo "$rp_name: ${FILES// /, }: $runs commands, $failures failure(s) between -j 1 and -j $J"
[ "$failures" = 0 ]
