#!/usr/bin/env bash
# readperf header [-I] against perf report --header-only [-I], line for line.
#
#   1. Fresh recordings (plain, -g, -a, two events, a group, a tracepoint,
#      -z, --call-graph dwarf, -k monotonic_raw, --buildid-mmap, perf stat
#      record) and a file made by tests/tools/rp-mkdata with every attr
#      flag perf 6.1 prints: the whole output must be identical, "captured
#      on" (the file's mtime) included.
#   2. The public corpus (../shared/corpus, or $RP_CORPUS): every file whose
#      .header.txt holds a header printed by perf 6.1 (perf report
#      --header-only -I) is compared on its "#" lines, "captured on" left
#      out (the corpus files were touched since).  Files the reader refuses
#      to open are listed, not failed (docs/features.md).
#
# Usage: run_header.sh path/to/readperf.  Exit 77 (skip) when perf cannot
# record here, unless RP_REQUIRE_PERF=1, which makes that a failure.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_header.sh path/to/readperf}"
corpus=$(rp_corpus_dir "${RP_CORPUS:-}")
rp_workdir rp-header
tmp=$rp_work_dir
fail=0
compared=0

# Known differences: corpus file (relative path) and why.  Keep in step
# with docs/features.md.
known_diff() {
	case "$1" in
	# Legacy pipe streams (header features as records 69-80, Google's
	# perf 3.x; a fuzzed stream that starts with record 76): perf 6.1
	# stops at the first feature record and prints none; readperf prints
	# them (tests/varieties/run_pipe_legacy.sh compares those with perf on
	# the same stream with upstream feature records).
	google_perf_data_converter/quipper__testdata__perf.data.piped.host-3.2) return 0 ;;
	google_perf_data_converter_FUZZ/src__quipper__corpus__poc-62e91c55617092aa82376846d050d7353ed899748d8e5990f381c2143d090e53) return 0 ;;
	*) return 1 ;;
	esac
}

compare() { # name expected actual
	compared=$((compared + 1))
	if ! diff -u "$2" "$3" >"$tmp/diff.txt"; then
		echo "FAIL: $1"
		head -20 "$tmp/diff.txt"
		fail=1
	fi
}

# 1. Fresh recordings.
perf_ok=0
rp_perf_usable && perf_ok=1
if [ $perf_ok = 1 ]; then
	rec() { # name, perf record options...
		local name=$1
		shift
		if ! perf record -q -o "$tmp/$name.data" "$@" -- sleep 0.05 >/dev/null 2>&1; then
			echo "FAIL: perf record $* did not record"
			fail=1
		fi
	}
	rec plain -e cpu-clock
	rec callgraph -e cpu-clock -g
	rec syswide -e cpu-clock -a
	rec two -e cpu-clock -e task-clock
	rec group -e '{cpu-clock,task-clock}'
	rec tracepoint -e sched:sched_switch -a
	rec zstd -e cpu-clock -z
	rec dwarf -e cpu-clock --call-graph dwarf
	rec clock -e cpu-clock -k monotonic_raw
	# build_id = 1 among the attr flags (header -I).
	rec buildid-mmap -e cpu-clock --buildid-mmap
	# The flags perf 6.1 prints after cgroup (text_poke, build_id,
	# inherit_thread, remove_on_exec, sigtrap) and sig_data, which no
	# recording here sets: a file made by the builder.
	rp_mkdata attr-flags "$tmp/attr-flags.data" || {
		echo "FAIL: rp-mkdata attr-flags"
		fail=1
	}
	if ! perf stat record -o "$tmp/stat.data" -- true >/dev/null 2>&1; then
		echo "FAIL: perf stat record did not record"
		fail=1
	fi
	for f in "$tmp"/*.data; do
		[ "$f" = "$tmp/probe.data" ] && continue
		for opt in "" "-I"; do
			perf report -i "$f" --header-only $opt >"$tmp/perf.txt" 2>/dev/null
			"$RP" header $opt "$f" >"$tmp/rp.txt" 2>"$tmp/rp.err"
			compare "$(basename "$f") header $opt" "$tmp/perf.txt" "$tmp/rp.txt"
		done
	done
elif [ "${RP_REQUIRE_PERF:-0}" = 1 ]; then
	echo "FAIL: $rp_perf_reason and RP_REQUIRE_PERF=1"
	fail=1
fi

# 2. The corpus.
refused=0
if [ -d "$corpus" ]; then
	for ref in "$corpus"/*/*.header.txt; do
		data=${ref%.header.txt}
		rel=${data#"$corpus"/}
		[ -f "$data" ] || continue
		# perf refused the file (attr.size 136, COMPRESSED2, ...): no reference.
		grep -q '^# ========' "$ref" || continue
		known_diff "$rel" && continue
		grep '^#' "$ref" | grep -v '^# captured on' >"$tmp/perf.txt"
		if ! "$RP" header -I "$data" >"$tmp/rp.out" 2>"$tmp/rp.err"; then
			refused=$((refused + 1))
			echo "not opened by readperf: $rel: $(head -1 "$tmp/rp.err")"
			continue
		fi
		grep -v '^# captured on' "$tmp/rp.out" >"$tmp/rp.txt"
		compare "corpus $rel" "$tmp/perf.txt" "$tmp/rp.txt"
	done
fi

echo "run_header: $compared outputs compared, $refused corpus files not opened"
if [ $fail = 0 ] && [ $perf_ok = 0 ]; then
	rp_cannot_run "$rp_perf_reason" "Only the corpus was compared: fresh recordings were NOT."
fi
exit $fail
