#!/bin/bash
# The installed tree is enough to build on (docs/api.md, README "Install"):
#   1. DESTDIR=STAGE cmake --install BUILD --prefix /usr/local puts the
#      command, every public header, libreadperf.so.MAJOR (SONAME, links),
#      libreadperf.a, readperf.pc and the man pages under STAGE;
#      each installed header compiles alone (C11 -Wpedantic, C++11);
#   2. the installed readperf prints "readperf version X.Y.Z" (version.h);
#   3. examples/hottest.c builds against the staged tree with
#      `pkg-config --cflags --libs readperf` (PKG_CONFIG_SYSROOT_DIR=STAGE),
#      links libreadperf.so.MAJOR, and run (LD_LIBRARY_PATH into STAGE) on
#      tests/golden/demo.perf.data names as hottest the function that heads
#      `readperf report --sort sym -g none` of the same file;
#   4. cmake --install BUILD --prefix DIR (no DESTDIR) writes readperf.pc
#      with prefix=DIR, and hottest.c links libreadperf.a statically with
#      `pkg-config --static --cflags --libs readperf`, runs without
#      libreadperf.so and prints the same.
# BUILD is the directory of the readperf binary given.
#
#   run_install.sh /path/to/build/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_install.sh /path/to/build/readperf}" nocheck
build=$(dirname "$RP")
require_cc
require_tool pkg-config "pkg-config is not installed (apt-get install pkg-config)" \
	"the installed tree was NOT checked."
require_tool cmake "cmake is not installed" "the installed tree was NOT checked."
rp_workdir rp-install keep-on-failure
work=$rp_work_dir
data=$root/tests/golden/demo.perf.data
example=$root/examples/hottest.c

version_part() {
	sed -n "s/^#define RP_VERSION_$1  *\([0-9][0-9]*\)\$/\1/p" "$root/include/readperf/version.h"
}
major=$(version_part MAJOR)
version=$major.$(version_part MINOR).$(version_part PATCH)

# The flags the library was built with that a program linking it needs too:
# the sanitizers' runtimes (make check's build-asan/).
san_flags=()
if readelf -d "$build/libreadperf.so.$major" 2>/dev/null | grep -q 'libasan'; then
	san_flags=(-fsanitize=address,undefined)
fi
cflags=(-std=c11 -O1 -g -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
	-Wvla -Wformat=2 -Werror "${san_flags[@]}")

# The function heading `readperf report --sort sym`, as "[.] name".
"$RP" report --no-children --sort sym -g none "$data" 2>/dev/null | grep -v '^#' | sed -n '/[^ ]/{p;q}' |
	sed -E 's/^ *[0-9.]+% +//' >"$work/expected"
[ -s "$work/expected" ] || { echo "$rp_name: readperf report printed no row for $data" >&2; exit 1; }

# top_of OUTPUT: the function of hottest's first line "  21.43%   9  [.] name".
top_of() {
	sed -n 1p "$1" | sed -E 's/^ *[0-9.]+% +[0-9]+ +//'
}

# --- 1. DESTDIR install ---------------------------------------------------
stage=$work/stage
prefix=/usr/local
if ! DESTDIR=$stage cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then
	cat "$work/install.log" >&2
	echo "$rp_name: DESTDIR=$stage cmake --install $build failed" >&2
	exit 1
fi
root_dir=$stage$prefix
pc=$(find "$root_dir" -name readperf.pc -path '*/pkgconfig/*' | head -1)
[ -n "$pc" ] || { echo "$rp_name: no readperf.pc installed under $root_dir" >&2; exit 1; }
libdir=$(dirname "$(dirname "$pc")")

need() {
	checked_files=$((${checked_files:-0} + 1))
	[ -e "$1" ] || fail "not installed: ${1#"$stage"}"
}
need "$root_dir/bin/readperf"
for h in "$root"/include/readperf/*.h; do
	need "$root_dir/include/readperf/$(basename "$h")"
done
need "$libdir/libreadperf.so.$version"
need "$libdir/libreadperf.so.$major"
need "$libdir/libreadperf.so"
need "$libdir/libreadperf.a"
[ "$(readlink "$libdir/libreadperf.so")" = "libreadperf.so.$major" ] ||
	fail "libreadperf.so does not link to libreadperf.so.$major"
grep -qx "prefix=$prefix" "$pc" || fail "readperf.pc: prefix is not $prefix: $(grep '^prefix=' "$pc")"
grep -qx "Version: $version" "$pc" || fail "readperf.pc: Version is not $version"
if [ -d "$build/man" ]; then
	for src in "$root"/docs/man/*.scd; do
		page=$(basename "$src" .scd)
		need "$root_dir/share/man/man${page##*.}/$page"
	done
elif command -v scdoc >/dev/null 2>&1; then
	fail "scdoc is installed but $build has no man pages (reconfigure the build)"
fi

# Each installed header stands alone, in C11 and (when a C++ compiler is
# there) in C++11: it includes what it uses and declares extern "C".
for h in "$root_dir"/include/readperf/*.h; do
	name=readperf/$(basename "$h")
	printf '#include <%s>\nint rp_test_unit;\n' "$name" >"$work/hdr.c"
	"$CC" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
		-I"$root_dir/include" "$work/hdr.c" 2>"$work/hdr.err" ||
		{ fail "<$name> does not compile alone (C11):"; head -5 "$work/hdr.err" >&2; }
	if command -v "${CXX:-c++}" >/dev/null 2>&1; then
		"${CXX:-c++}" -std=c++11 -Wall -Wextra -Werror -fsyntax-only -x c++ \
			-I"$root_dir/include" "$work/hdr.c" 2>"$work/hdr.err" ||
			{ fail "<$name> does not compile alone (C++11):"; head -5 "$work/hdr.err" >&2; }
	fi
done

# --- 2. the installed command's version -----------------------------------
for opt in --version -V; do
	got=$("$root_dir/bin/readperf" "$opt" 2>&1)
	[ "$got" = "readperf version $version" ] ||
		fail "readperf $opt printed '$got', not 'readperf version $version'"
done

# --- 3. hottest.c against the staged tree, shared ---------------------------
stage_pc() {
	PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_PATH=$(dirname "$pc") pkg-config "$@" readperf
}
if ! stage_pc --exists; then
	fail "pkg-config does not find readperf in $(dirname "$pc")"
else
	read -ra flags <<<"$(stage_pc --cflags --libs)"
	if ! "$CC" "${cflags[@]}" -o "$work/hottest" "$example" "${flags[@]}" 2>"$work/cc.err"; then
		cat "$work/cc.err" >&2
		fail "hottest.c does not build with: pkg-config --cflags --libs readperf (${flags[*]})"
	elif ! readelf -d "$work/hottest" | grep -q "NEEDED.*\[libreadperf.so.$major\]"; then
		fail "hottest does not link libreadperf.so.$major"
	elif ! LD_LIBRARY_PATH=$libdir "$work/hottest" "$data" 5 >"$work/hottest.out" 2>"$work/hottest.err"; then
		cat "$work/hottest.err" >&2
		fail "hottest $data failed"
	elif [ "$(top_of "$work/hottest.out")" != "$(cat "$work/expected")" ]; then
		fail "hottest (shared) says '$(top_of "$work/hottest.out")' is hottest; readperf report: '$(cat "$work/expected")'"
	else
		echo "ok   hottest, libreadperf.so.$major from the staged tree: $(top_of "$work/hottest.out")"
	fi
fi

# --- 4. an install with --prefix, hottest.c linked statically ---------------
prefix2=$work/prefix
if ! cmake --install "$build" --prefix "$prefix2" >"$work/install2.log" 2>&1; then
	cat "$work/install2.log" >&2
	fail "cmake --install $build --prefix $prefix2 failed"
else
	pc2=$(find "$prefix2" -name readperf.pc -path '*/pkgconfig/*' | head -1)
	libdir2=$(dirname "$(dirname "$pc2")")
	grep -qx "prefix=$prefix2" "$pc2" || fail "readperf.pc of --prefix $prefix2: $(grep '^prefix=' "$pc2")"
	# -lreadperf would take the .so: name the archive instead, keep the rest
	# (Libs.private, Requires.private) as pkg-config --static gives them.
	read -ra flags <<<"$(PKG_CONFIG_PATH=$(dirname "$pc2") pkg-config --static --cflags --libs readperf |
		sed "s|-lreadperf\\b|$libdir2/libreadperf.a|")"
	if ! "$CC" "${cflags[@]}" -o "$work/hottest-static" "$example" "${flags[@]}" 2>"$work/cc2.err"; then
		cat "$work/cc2.err" >&2
		fail "hottest.c does not link statically with: pkg-config --static --cflags --libs readperf (${flags[*]})"
	elif readelf -d "$work/hottest-static" | grep -q 'NEEDED.*libreadperf'; then
		fail "hottest-static still needs libreadperf.so"
	elif ! "$work/hottest-static" "$data" 5 >"$work/hottest-static.out" 2>"$work/hottest-static.err"; then
		cat "$work/hottest-static.err" >&2
		fail "hottest-static $data failed"
	elif ! cmp -s "$work/hottest.out" "$work/hottest-static.out"; then
		fail "hottest static and shared differ:"
		diff "$work/hottest.out" "$work/hottest-static.out" >&2
	else
		echo "ok   hottest, libreadperf.a with pkg-config --static: $(top_of "$work/hottest-static.out")"
	fi
fi

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failures (scratch: $work)" >&2
	exit 1
fi
echo "ok   installed: $checked_files files, readperf $version; hottest agrees with readperf report"
