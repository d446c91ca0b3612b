#!/bin/bash
# The shared library exports the API and nothing else (docs/api.md):
#   - libreadperf.so.0's SONAME is libreadperf.so.RP_VERSION_MAJOR
#     (include/readperf/version.h);
#   - the symbols `nm -D --defined-only` lists are exactly the functions
#     declared with RP_API in include/readperf/*.h, each in a READPERF_*
#     version node (no internal rp_* helper, no protobuf-c code, no data);
#   - lib/readperf.map names exactly those functions;
#   - the command uses only that API: built again against libreadperf.so
#     alone (rp-readperf-shared, see CMakeLists.txt), it prints what the
#     command prints for tests/golden/demo.perf.data.
# The library is found beside the readperf binary (the build directory).
#
#   run_abi_symbols.sh /path/to/build/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_abi_symbols.sh /path/to/readperf}" nocheck
build=$(dirname "$RP")
require_tool nm "nm is not installed (apt-get install binutils)" "the exported symbols were NOT checked."
require_tool readelf "readelf is not installed (apt-get install binutils)" "the exported symbols were NOT checked."
rp_workdir rp-abi
work=$rp_work_dir

major=$(sed -n 's/^#define RP_VERSION_MAJOR  *\([0-9][0-9]*\)$/\1/p' "$root/include/readperf/version.h")
[ -n "$major" ] || { echo "$rp_name: no RP_VERSION_MAJOR in include/readperf/version.h" >&2; exit 1; }
lib=$build/libreadperf.so.$major
[ -f "$lib" ] || { echo "$rp_name: $lib was not built" >&2; exit 1; }

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
[ "$soname" = "libreadperf.so.$major" ] ||
	fail "SONAME of $lib is '$soname', not libreadperf.so.$major"

# The names declared with RP_API: declarations start at column 0 with
# RP_API and name the function before the first '('.
grep -h '^RP_API ' "$root"/include/readperf/*.h |
	sed -n 's/^RP_API [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' | sort -u >"$work/declared"
[ -s "$work/declared" ] || { echo "$rp_name: no RP_API declaration found" >&2; exit 1; }

# A function declared in a public header without RP_API would be hidden
# from the shared library: every top-level declaration of an rp_ function
# carries it.
grep -nE '^(const |unsigned |struct |enum )*[A-Za-z_][A-Za-z0-9_ ]*[ *]+\**rp_[a-z0-9_]+\(' \
	"$root"/include/readperf/*.h | grep -vE '^[^:]+:[0-9]+:(RP_API |#|typedef |static )' \
	>"$work/unmarked"
if [ -s "$work/unmarked" ]; then
	fail "public functions declared without RP_API (not exported; mark them and name them in lib/readperf.map):"
	sed "s|^$root/||; s/^/    /" "$work/unmarked" >&2
fi

# What the library exports: "NAME@@NODE" (or "NAME@NODE") of each defined
# dynamic symbol; the version nodes themselves are absolute symbols (A).
nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sort -u >"$work/exported.raw"
sed 's/@.*//' "$work/exported.raw" | sort -u >"$work/exported"
grep -v '@@\?READPERF_[0-9.]*$' "$work/exported.raw" >"$work/unversioned"
if [ -s "$work/unversioned" ]; then
	fail "exported without a READPERF_* version node:"
	cat "$work/unversioned" >&2
fi

comm -23 "$work/exported" "$work/declared" >"$work/extra"
if [ -s "$work/extra" ]; then
	fail "$(wc -l <"$work/extra") exported symbols are not RP_API functions of include/readperf/*.h" \
	     "(hide them: keep them out of lib/readperf.map):"
	sed 's/^/    /' "$work/extra" >&2
fi
comm -13 "$work/exported" "$work/declared" >"$work/missing"
if [ -s "$work/missing" ]; then
	fail "$(wc -l <"$work/missing") RP_API functions are not exported" \
	     "(define them, and name them in lib/readperf.map):"
	sed 's/^/    /' "$work/missing" >&2
fi

# The version script, comments aside: the names of its global: lists.
sed 's:/\*.*\*/::; /\/\*/,/\*\//d' "$root/lib/readperf.map" |
	tr -s ' \t\n' '\n' | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\);$/\1/p' | sort -u >"$work/mapped"
comm -3 "$work/mapped" "$work/declared" >"$work/mapdiff"
if [ -s "$work/mapdiff" ]; then
	fail "lib/readperf.map and the RP_API declarations differ (left: only in the map," \
	     "right: only in the headers):"
	sed 's/^/    /' "$work/mapdiff" >&2
fi

# The command on the shared library.
dyn=$build/rp-readperf-shared
data=$root/tests/golden/demo.perf.data
if [ ! -x "$dyn" ]; then
	fail "$dyn was not built (the command linked with libreadperf.so only)"
elif ! readelf -d "$dyn" | grep -q "NEEDED.*\[libreadperf.so.$major\]"; then
	fail "$dyn does not link libreadperf.so.$major"
else
	"$RP" report --sort dso,sym "$data" >"$work/static.out" 2>&1
	LD_LIBRARY_PATH=$build "$dyn" report --sort dso,sym "$data" >"$work/shared.out" 2>&1
	rp_same "readperf report on libreadperf.so" "$work/static.out" "$work/shared.out" &&
		echo "ok   the command built on libreadperf.so.$major alone prints the same report"
fi

n=$(wc -l <"$work/exported")
if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failures ($n symbols exported by $lib)" >&2
	exit 1
fi
echo "ok   $lib: SONAME $soname, $n symbols, all RP_API functions of include/readperf/"
