#!/bin/bash
# Time readperf against perf on the benchmark recordings.
#
#   bench/run.sh [path/to/readperf]        (default: build/readperf)
#
# For every recording bench/gen.sh makes (made first when missing) and every
# command below, both tools run alternately (readperf, perf, readperf, perf,
# ...) under /usr/bin/time -f '%e %M %U %S', output to /dev/null; the table
# gives the medians of wall time, CPU time (user + system) and peak RSS, and
# the ratios readperf/perf (below 1: readperf is faster or smaller).
#
#   command  readperf                          perf
#   report   readperf report --no-children -g none --sort comm,dso,sym F
#                                              perf report -i F --stdio --no-children
#                                                --sort comm,dso,sym -g none
#   graph    readperf report --no-children F   perf report -i F --stdio --no-children
#            (the rows with their call graphs)
#   children readperf report F                 perf report -i F --stdio
#            (both tools' default for a file with call stacks: Children
#            column, caller graphs under every row)
#   Every readperf command line passes the options of perf's (readperf's
#   `report FILE` prints perf's default view, so the rows that are not
#   that view say --no-children and -g none as perf's line does).
#   script   readperf script F                 perf script -i F
#   stats    readperf stats F                  perf report -i F --stats
#   dump     readperf dump F                   perf report -i F -D
#   collapse readperf collapse F               perf script report stackcollapse -i F
#            (folded stacks: the outputs are compared sorted)
#   srcline  readperf report --no-children -g none --sort srcline F
#                                              perf report -i F --stdio --no-children
#                                                -g none --sort srcline
#   html     readperf html -o PAGE F           readperf report F (no perf
#            equivalent: the goal is a page in under twice readperf report's
#            time; the row gives the page's size; bench/html_view.sh times
#            its first view in chromium)
#
# Before the timed runs each row is checked, untimed: both tools must print
# the same thing (report: the -t ';' rows, normalised by
# tests/diff/perf_rows.awk; graph/children: the whole output but perf's
# closing "# (Tip: ...)" comment; script/stats/dump: the whole output,
# trailing blanks removed).  A row whose outputs differ says DIFFERENT OUTPUT and the
# number of differing lines; its times are still shown, but they do not
# count.  A command readperf does not have yet says "not available".
#
# Environment:
#   RP_BENCH_RUNS    timed runs of each tool per row (default 3)
#   RP_BENCH_CMDS    commands (default "report graph children script stats dump")
#   RP_BENCH_FILES   recordings of gen.sh (default "fp nocg sys dwarf cxx"; cxx:
#                    the C++ program of tests/workload/stacks.cc, -O2
#                    -fomit-frame-pointer, --call-graph dwarf, ~200 MB)
#   RP_BENCH_DATA    space-separated perf.data paths to use instead of gen.sh
#   RP_BENCH_SCALE   passed to gen.sh (default 1)
#   RP_BENCH_DIR     where gen.sh keeps the recordings (default /tmp/rp-bench);
#                    the work files and the result table go there too
#   RP_BENCH_BUDGET  seconds (default 60): when perf's first run of a row (the
#                    check run, else the first timed run) takes longer, perf
#                    is not run again for that row: its time is that one run
#                    (readperf still runs RP_BENCH_RUNS times); the row says
#                    "perf x1".  The check run writes its output to a file
#                    rather than to /dev/null, which costs perf a little;
#                    the row then says "perf x1 (check run)".
#   RP_BENCH_RP_ARGS options added to readperf's command lines but stats' (e.g.
#                    "-j 1" for one thread)
#   RP_BENCH_COMMIT  the commit to print for READPERF (default: the
#                    repository's, git describe --dirty)
#   RP_BENCH_CHECK   1 (default): compare outputs first; 0: skip the check
#                    (the row then says "not checked")
#
# The table (Markdown) is printed and written to $RP_BENCH_DIR/results.md.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
RP=${1:-$root/build/readperf}
case "$RP" in /*) ;; *) RP=$PWD/$RP ;; esac
RUNS=${RP_BENCH_RUNS:-3}
CMDS=${RP_BENCH_CMDS:-report graph children script stats dump}
BUDGET=${RP_BENCH_BUDGET:-60}
CHECK=${RP_BENCH_CHECK:-1}
read -r -a RP_ARGS <<<"${RP_BENCH_RP_ARGS:-}"
export RP_BENCH_DIR=${RP_BENCH_DIR:-/tmp/rp-bench}

[ -x "$RP" ] || { echo "bench: $RP is not an executable (build first: make build)" >&2; exit 1; }
command -v perf >/dev/null || { echo "bench: perf is not installed (apt-get install linux-perf)" >&2; exit 1; }
if [ ! -x /usr/bin/time ]; then
	echo "bench: installing the 'time' package for /usr/bin/time" >&2
	if [ "$(id -u)" = 0 ]; then apt-get install -y time || { apt-get update && apt-get install -y time; }
	else sudo apt-get install -y time; fi
fi

if [ -n "${RP_BENCH_DATA:-}" ]; then
	read -r -a files <<<"$RP_BENCH_DATA"
else
	mapfile -t files < <("$here/gen.sh") || exit 1
	[ "${#files[@]}" -gt 0 ] || { echo "bench: gen.sh made no file" >&2; exit 1; }
fi
mkdir -p "$RP_BENCH_DIR"
work=$(mktemp -d "$RP_BENCH_DIR/run.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The two command lines of a row, as arrays rp_cmd and pf_cmd.
cmdlines() { # command file
	case "$1" in
	report) rp_cmd=("$RP" report "${RP_ARGS[@]}" --no-children -g none --sort comm,dso,sym "$2")
		pf_cmd=(perf report -i "$2" --stdio --no-children --sort comm,dso,sym -g none) ;;
	graph)  rp_cmd=("$RP" report "${RP_ARGS[@]}" --no-children "$2"); pf_cmd=(perf report -i "$2" --stdio --no-children) ;;
	children) rp_cmd=("$RP" report "${RP_ARGS[@]}" "$2"); pf_cmd=(perf report -i "$2" --stdio) ;;
	script) rp_cmd=("$RP" script "${RP_ARGS[@]}" "$2"); pf_cmd=(perf script -i "$2") ;;
	stats)  rp_cmd=("$RP" stats "$2");  pf_cmd=(perf report -i "$2" --stats) ;;
	dump)   rp_cmd=("$RP" dump "${RP_ARGS[@]}" "$2");   pf_cmd=(perf report -i "$2" -D) ;;
	collapse) rp_cmd=("$RP" collapse "${RP_ARGS[@]}" "$2")
		pf_cmd=(perf script report stackcollapse -i "$2") ;;
	srcline) rp_cmd=("$RP" report "${RP_ARGS[@]}" --no-children -g none --sort srcline "$2")
		pf_cmd=(perf report -i "$2" --stdio --no-children -g none --sort srcline) ;;
	# perf has no such page: the other side is readperf's own report (the
	# goal of docs/html.md is a page written in under twice its time).
	html)   rp_cmd=("$RP" html "${RP_ARGS[@]}" -o "$work/page.html" "$2")
		pf_cmd=("$RP" report "${RP_ARGS[@]}" "$2") ;;
	*) echo "bench: unknown command '$1' (report graph children script stats dump collapse srcline html)" >&2; exit 1 ;;
	esac
}

# Lines that differ between two text files: diff when they are small,
# a line-by-line (positional) count otherwise, so that multi-GB outputs
# never have to fit in memory.
diffcount() { # a b
	if cmp -s "$1" "$2"; then echo 0; return; fi
	local sa sb
	sa=$(stat -c %s "$1"); sb=$(stat -c %s "$2")
	if [ $((sa + sb)) -lt $((400 * 1024 * 1024)) ]; then
		diff "$1" "$2" | grep -c '^[<>]'
	else
		# one pass, trailing blanks ignored
		paste -d '\n' "$1" "$2" | awk '{ sub(/[ \t]+$/, "") } NR % 2 { a = $0; next } a != $0 { n++ } END { print n + 0 }'
	fi
}

# The report text without perf's closing tip: the "# (Tip: ...)" line and
# the blank and "#" lines around it at the end.
notip() {
	awk '!/^# \(Tip:/ { l[++n] = $0 } END { while (n && (l[n] == "" || l[n] == "#")) n--; for (i = 1; i <= n; i++) print l[i] }'
}

# Untimed check of one row: sets check to "same", "DIFFERENT OUTPUT (N lines)",
# "readperf failed" or "not available".
check_row() { # command file
	local c=$1 f=$2 rc
	case "$c" in
	report)
		"$RP" report "${RP_ARGS[@]}" --no-children -g none -F overhead,sample,period,comm,dso,sym \
			--sort comm,dso,sym -t ';' "$f" 2>"$work/rp.err" \
			| awk -v sep=';' -f "$root/tests/diff/perf_rows.awk" >"$work/rp.out"
		rc=${PIPESTATUS[0]}
		perf report -i "$f" --stdio --no-children --sort comm,dso,sym \
			-F overhead,sample,period,comm,dso,sym -t ';' -g none 2>/dev/null \
			| awk -v sep=';' -f "$root/tests/diff/perf_rows.awk" >"$work/pf.out" ;;
	graph | children | srcline)
		cmdlines "$c" "$f"
		"${rp_cmd[@]}" 2>"$work/rp.err" | notip >"$work/rp.out"
		rc=${PIPESTATUS[0]}
		"${pf_cmd[@]}" 2>/dev/null | notip >"$work/pf.out" ;;
	html)
		cmdlines "$c" "$f"
		"${rp_cmd[@]}" >/dev/null 2>"$work/rp.err"
		rc=$?
		if [ "$rc" = 0 ]; then
			check="the perf columns are readperf report's; page $(awk -v b="$(stat -c %s "$work/page.html")" 'BEGIN { printf "%.2f", b / 1048576 }') MB"
		else
			check="readperf failed (exit $rc: $(head -c 120 "$work/rp.err" | tr '\n' ' '))"
		fi
		return ;;
	collapse)
		cmdlines "$c" "$f"
		"${rp_cmd[@]}" 2>"$work/rp.err" | LC_ALL=C sort >"$work/rp.out"
		rc=${PIPESTATUS[0]}
		"${pf_cmd[@]}" 2>/dev/null | LC_ALL=C sort >"$work/pf.out" ;;
	*)
		cmdlines "$c" "$f"
		# straight into files (timed: a slow perf row uses this run); the
		# trailing blanks are removed (untimed) only when they differ
		/usr/bin/time -f '%e %M %U %S' -o "$work/tc.rp" "${rp_cmd[@]}" >"$work/rp.out" 2>"$work/rp.err"
		rc=$?
		if grep -q 'not available' "$work/rp.err"; then check="not available"; rm -f "$work/rp.out"; return; fi
		/usr/bin/time -f '%e %M %U %S' -o "$work/tc.pf" "${pf_cmd[@]}" >"$work/pf.out" 2>/dev/null
		if [ "$rc" = 0 ] && ! cmp -s "$work/rp.out" "$work/pf.out" &&
			[ $(($(stat -c %s "$work/rp.out") + $(stat -c %s "$work/pf.out"))) -lt $((400 * 1024 * 1024)) ]; then
			sed -i 's/[ \t]*$//' "$work/rp.out" "$work/pf.out"
		fi ;;
	esac
	if grep -q 'not available' "$work/rp.err"; then check="not available"; return; fi
	if [ "$rc" != 0 ]; then check="readperf failed (exit $rc: $(head -c 120 "$work/rp.err" | tr '\n' ' '))"; return; fi
	local n
	n=$(diffcount "$work/pf.out" "$work/rp.out")
	if [ "$n" = 0 ]; then check="same ($(wc -l <"$work/pf.out") lines)"
	else
		local first
		first=$(cmp "$work/pf.out" "$work/rp.out" 2>/dev/null | sed -n 's/.* line \([0-9]*\).*/\1/p')
		check="DIFFERENT OUTPUT ($n lines differ, the first at line ${first:-?})"
		# kept for reading (moved, not copied: they can be gigabytes)
		mv "$work/pf.out" "$RP_BENCH_DIR/last-diff.$c.perf" 2>/dev/null
		mv "$work/rp.out" "$RP_BENCH_DIR/last-diff.$c.readperf" 2>/dev/null
	fi
	rm -f "$work/rp.out" "$work/pf.out"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

timed() { # out-var-prefix command...
	local p=$1; shift
	/usr/bin/time -f '%e %M %U %S' -o "$work/t" "$@" >/dev/null 2>"$work/err"
	local rc=$?
	read -r T M U S < <(tail -1 "$work/t")
	C=$(awk -v u="$U" -v s="$S" 'BEGIN { print u + s }')
	eval "${p}_rc=$rc"
}

table=$RP_BENCH_DIR/results.md
{
	echo "| file | MB | command | readperf s | perf s | wall ratio | readperf cpu s | perf cpu s | cpu ratio | readperf RSS MB | perf RSS MB | RSS ratio | output |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$work/table"

for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "bench: no file $f" >&2; continue; }
	mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { v = b / 1048576; printf (v < 10 ? "%.1f" : "%.0f"), v }')
	base=$(basename "$f")
	cat "$f" >/dev/null # warm the page cache; every run sees the same
	for c in $CMDS; do
		cmdlines "$c" "$f"
		check="not checked"
		if [ "$CHECK" = 1 ]; then
			echo "bench: $base $c: checking outputs" >&2
			check_row "$c" "$f"
		else
			"${rp_cmd[@]}" --help >/dev/null 2>"$work/rp.err"
			grep -q 'not available' "$work/rp.err" && check="not available"
		fi
		echo "bench: $base $c: $check" >&2
		if [ "$check" = "not available" ]; then
			echo "| $base | $mb | $c | not available | | | | | | | | | |" >>"$work/table"
			continue
		fi
		rt=() rm=() rc_=() pt=() pm=() pc=() note="" skip_pf=0
		if [ -s "$work/tc.pf" ]; then
			read -r T M U S < <(tail -1 "$work/tc.pf")
			if awk -v t="$T" -v b="$BUDGET" 'BEGIN { exit !(t > b) }'; then
				pt=("$T"); pm=("$M"); pc=("$(awk -v u="$U" -v s="$S" 'BEGIN { print u + s }')"); skip_pf=1; note=" perf x1 (check run, ${T} s > ${BUDGET} s);"
			fi
		fi
		rm -f "$work/tc.pf" "$work/tc.rp"
		for i in $(seq 1 "$RUNS"); do
			timed rp "${rp_cmd[@]}"; rt+=("$T"); rm+=("$M"); rc_+=("$C")
			[ "$rp_rc" = 0 ] || note="$note readperf exit $rp_rc;"
			if [ "$skip_pf" = 0 ] && { [ "$i" = 1 ] || [ "${#pt[@]}" -gt 1 ] || awk -v t="${pt[0]}" -v b="$BUDGET" 'BEGIN { exit !(t <= b) }'; }; then
				timed pf "${pf_cmd[@]}"; pt+=("$T"); pm+=("$M"); pc+=("$C")
				[ "$pf_rc" = 0 ] || note="$note perf exit $pf_rc;"
			fi
			echo "bench: $base $c run $i: readperf ${rt[-1]} s (cpu ${rc_[-1]} s) ${rm[-1]} KB, perf ${pt[-1]} s (cpu ${pc[-1]} s) ${pm[-1]} KB" >&2
		done
		[ "$skip_pf" = 0 ] && [ "${#pt[@]}" -lt "$RUNS" ] && note="$note perf x${#pt[@]} (first run > ${BUDGET} s);"
		r_t=$(median "${rt[@]}"); r_m=$(median "${rm[@]}")
		p_t=$(median "${pt[@]}"); p_m=$(median "${pm[@]}")
		r_c=$(median "${rc_[@]}"); p_c=$(median "${pc[@]}")
		awk -v f="$base" -v mb="$mb" -v c="$c" -v rt="$r_t" -v pt="$p_t" -v rm="$r_m" -v pm="$p_m" \
			-v rc="$r_c" -v pc="$p_c" -v chk="$check" -v note="$note" 'BEGIN {
			printf "| %s | %s | %s | %.2f | %.2f | %s | %.2f | %.2f | %s | %.1f | %.1f | %s | %s%s |\n",
				f, mb, c, rt, pt, (pt > 0 ? sprintf("%.3f", rt / pt) : "-"),
				rc, pc, (pc > 0 ? sprintf("%.3f", rc / pc) : "-"),
				rm / 1024, pm / 1024, (pm > 0 ? sprintf("%.3f", rm / pm) : "-"),
				chk, (note != "" ? ";" note : "") }' >>"$work/table"
	done
done

cp "$work/table" "$table"
echo
echo "readperf: $RP (commit ${RP_BENCH_COMMIT:-$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)}), $RUNS runs, medians; ratios readperf/perf"
cat "$table"
grep -q 'DIFFERENT OUTPUT\|failed' "$table" && exit 1
exit 0
