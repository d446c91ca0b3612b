#!/bin/bash
# `readperf annotate` loads capstone when its output starts (dlopen,
# lib/common/dlload.c via lib/outputs/disasm.c), not when the program
# starts: on a machine where it cannot be loaded annotate fails with one
# clear line naming the library and its package, writes nothing, and
# every other command works.  Provoked with LD_LIBRARY_PATH pointing to a
# directory that holds, under the name the binary loads, what the dynamic
# loader or the lookup refuses:
#   - an empty libcapstone.so.N ("file too short"),
#   - a libcapstone.so.N built here with the right SONAME but none of
#     capstone's functions (the first one looked up is missing),
#   - one with every function annotate calls but cs_insn_name (the
#     message names that one: each is looked up),
# each time on a recording made now: exit status 1, one `readperf: error:
# annotate: cannot load ...` line (the output's name once) naming the
# library and `apt-get install PACKAGE`, nothing on standard output; and
# `readperf report` in the same environment prints what it prints
# without it.  Then annotate with the machine's capstone disassembles the
# recording's hottest function of the workload (the working case, which
# tests/diff/run_annotate.sh compares with perf annotate).
#
#   run_annotate_dlopen.sh /path/to/readperf
#
# Skips (exit 77) when perf cannot record or a compiler is missing, unless
# RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# The binary itself: the library name it loads is read from it.
rp_take_binary "${1:?usage: run_annotate_dlopen.sh /path/to/readperf}" nocheck
require_perf
require_cc
rp_workdir rp-annotate-dlopen keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1
record_workload w -e cpu-clock -F 2000 -- -t 200
data=$work/w.data

# The name readperf dlopens: the SONAME its build found, compiled in.
mapfile -t cs_names < <(grep -aoE 'libcapstone\.so\.[0-9]+' "$RP" | sort -u)
if [ ${#cs_names[@]} -eq 0 ]; then
	if "$RP" annotate "$data" 2>&1 | grep -q 'built without capstone'; then
		rp_cannot_run "readperf was built without capstone" \
			"loading capstone at run time was NOT checked."
	fi
	echo "$rp_name: $RP names no libcapstone.so.N to load" >&2
	exit 1
fi
# The package the message asks for: the one that holds the machine's
# library (dpkg -S), else the name compiled in beside the SONAME.
package=
lib_path=$(ldconfig -p 2>/dev/null | awk -v n="${cs_names[0]}" '$1 == n { print $NF; exit }')
if [ -n "$lib_path" ] && command -v dpkg >/dev/null; then
	package=$(dpkg -S "$(readlink -f "$lib_path")" 2>/dev/null | sed -n '1s/[:,].*//p')
fi
[ -n "$package" ] || package=$(grep -aoE 'libcapstone[0-9][a-z0-9.+-]*' "$RP" | head -1)

"$RP" report "$data" >report.expected 2>report.expected.err ||
	{ echo "$rp_name: readperf report $data failed" >&2; cat report.expected.err >&2; exit 1; }

# expect_refusal TAG DIR WHAT: readperf annotate with LD_LIBRARY_PATH=DIR
# fails cleanly, its message naming the library, its package and WHAT;
# readperf report there is unaffected.
expect_refusal() {
	local tag=$1 dir=$2 what=$3 rc

	LD_LIBRARY_PATH=$dir "$RP" annotate "$data" >"$tag.out" 2>"$tag.err"
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$tag: readperf annotate exited with $rc, not 1"
		cat "$tag.err" >&2
	elif [ "$(wc -l <"$tag.err")" -ne 1 ] ||
		! grep -q '^readperf: error: annotate: cannot load ' "$tag.err"; then
		fail "$tag: not one 'readperf: error: annotate: cannot load' line:"
		cat "$tag.err" >&2
	elif ! grep -qF "cannot load ${cs_names[0]}" "$tag.err" ||
		! grep -qF "(apt-get install $package)" "$tag.err" || [ -z "$package" ] ||
		! grep -qF "$what" "$tag.err"; then
		fail "$tag: the message does not name ${cs_names[0]}, its package ('$package')" \
		     "and '$what':"
		cat "$tag.err" >&2
	else
		echo "ok   $tag: $(cat "$tag.err")"
	fi
	[ -s "$tag.out" ] && fail "$tag: readperf annotate wrote to its standard output"
	rp_report_unaffected "$tag" "$dir" capstone "$data"
}

# An empty file under each name capstone is loaded by.
mkdir empty
for n in "${cs_names[@]}"; do : >"empty/$n"; done
expect_refusal empty-libcapstone "$PWD/empty" "file too short"

# A library of that name without capstone's functions.
mkdir none
echo 'int rp_not_capstone(void); int rp_not_capstone(void) { return 0; }' >none.c
for n in "${cs_names[@]}"; do
	"$CC" -shared -fPIC -o "none/$n" -Wl,-soname,"$n" none.c ||
		{ echo "$rp_name: cannot build a stand-in $n" >&2; exit 1; }
done
expect_refusal no-functions "$PWD/none" "it has no cs_"

# Every function annotate calls but one: the message names the one.
mkdir partial
: >partial.c
for f in cs_open cs_option cs_malloc cs_free cs_close cs_disasm_iter; do
	echo "int $f(void); int $f(void) { return 0; }" >>partial.c
done
for n in "${cs_names[@]}"; do
	"$CC" -shared -fPIC -o "partial/$n" -Wl,-soname,"$n" partial.c ||
		{ echo "$rp_name: cannot build a stand-in $n" >&2; exit 1; }
done
expect_refusal no-cs_insn_name "$PWD/partial" "it has no cs_insn_name"

# With the machine's capstone annotate works: the first function of the
# workload it disassembles (hottest first) is the workload's hottest in
# perf report, and its instructions are decoded.
hottest=$(perf report -i "$data" --stdio --dsos workload --sort sym -q 2>/dev/null |
	awk '$2 == "[.]" && $3 !~ /@plt$/ { print $3; exit }')
[ -n "$hottest" ] || { echo "$rp_name: perf report names no function of the workload" >&2; exit 1; }
if ! "$RP" annotate "$data" >works.out 2>works.err; then
	fail "readperf annotate fails with the machine's capstone:"
	cat works.err >&2
else
	first=$(awk '/Disassembly of workload /{ w = 1; next }
		w && match($0, /<[^>]+>:$/) { print substr($0, RSTART + 1, RLENGTH - 3); exit }' works.out)
	if [ "$first" != "$hottest" ]; then
		fail "readperf annotate's first function of the workload is '$first'," \
		     "perf report's hottest '$hottest'"
	elif ! grep -qE '^ +[0-9]+\.[0-9]+ +: +[0-9a-f]+: +[a-z]' works.out; then
		fail "readperf annotate with the machine's capstone decoded no instruction:"
		head -20 works.out >&2
	else
		echo "ok   with the machine's capstone: $first disassembled first, as perf report" \
		     "ranks it"
	fi
fi

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "$rp_name: without a loadable capstone only readperf annotate fails, cleanly"
exit 0
