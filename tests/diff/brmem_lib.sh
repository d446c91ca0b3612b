# shellcheck shell=bash
# What run_memkeys.sh and run_branchkeys.sh share: the files of
# tests/tools/rp-gen-lbrmem.c (no machine here records memory samples or
# branch stacks) and a comparison of `perf report --stdio` with
# `readperf report` on a file, whole text.
#
# brmem_setup NAME: a scratch directory (kept on failure), the workload
# compiled there (its functions and data objects are what the files
# sample), and GEN, the generator (built beside the tests, in the
# directory ctest runs them from; RP_GEN overrides).

# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

brmem_setup() {
	GEN=${RP_GEN:-$PWD/rp-gen-lbrmem}
	case "$GEN" in /*) ;; *) GEN=$PWD/$GEN ;; esac
	[ -x "$GEN" ] || { echo "$rp_name: no generator at $GEN (build the tests)" >&2; exit 1; }
	require_perf
	require_cc
	rp_workdir "$1" keep-on-failure
	cd "$rp_work_dir" || exit 1
	rp_compile_workload || exit 1
}

# brmem_gen KIND OUT SEED: a generated file; exit 1 when the generator fails.
brmem_gen() {
	"$GEN" "$1" "$2" ./workload "$3" || { echo "$rp_name: rp-gen-lbrmem $1 failed" >&2; exit 1; }
}

n=0
# same FILE ARGS...: perf report --stdio ARGS and readperf report ARGS.
# When perf refuses (exit status not 0, or no rows: perf 6.1 reports some
# refusals with status 0), readperf must refuse too.
same() {
	local file=$1
	shift
	n=$((n + 1))
	local tag="$(basename "$file") $*"

	PERF_CONFIG= perf report -i "$file" --stdio "$@" >"c$n.perf.full" 2>"c$n.perf.err"
	local prc=$?
	PERF_CONFIG= "$RP" report "$@" "$file" >"c$n.rp" 2>"c$n.rp.err"
	local rrc=$?
	if [ $prc -ne 0 ]; then
		if [ $rrc -ne 0 ]; then
			echo "ok   $tag (refused, as perf: $(grep -m1 -v '^$' "c$n.rp.err"))"
		else
			fail "$tag: perf refused it (exit $prc), readperf did not"
		fi
		return
	fi
	rp_perf_text "c$n.perf.full" >"c$n.perf"
	# perf 6.1 reports a refused key or mode and exits 0
	if ! grep -q '%' "c$n.perf" && [ $rrc -ne 0 ]; then
		echo "ok   $tag (refused, as perf: $(grep -m1 -v '^$' "c$n.rp.err"))"
	elif ! grep -q '%' "c$n.perf"; then
		fail "$tag: perf printed no rows (test problem)"
	elif [ $rrc -ne 0 ]; then
		fail "$tag: readperf exited $rrc: $(head -2 "c$n.rp.err")"
	elif rp_same "$tag" "c$n.perf" "c$n.rp"; then
		echo "ok   $tag ($(wc -l <"c$n.perf") lines)"
	fi
}

# brmem_corpus FILE...: the corpus files (basenames) that exist, with
# their directory; a loud note when the corpus is absent.
brmem_corpus() {
	local c f
	c=$(rp_corpus_dir "${RP_CORPUS_DIR:-}")
	if [ ! -d "$c" ]; then
		rp_banner "$rp_name: the public corpus ($c) is absent:" \
			  "its files were NOT compared with perf (only generated ones)."
		return
	fi
	for f in "$@"; do
		[ -f "$c/$f" ] && printf '%s\n' "$c/$f"
	done
}

brmem_end() {
	if [ "$failures" -ne 0 ]; then
		echo "$rp_name: $failures of $n comparisons FAILED; files kept in $rp_work_dir" >&2
		exit 1
	fi
	echo "$rp_name: $n comparisons agree with perf"
}
