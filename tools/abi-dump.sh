#!/bin/sh
# abi-dump.sh LIBRARY OUT: libabigail's description (ABIXML) of the ABI of
# LIBRARY (a libreadperf.so.MAJOR built with debug information) into OUT:
# the exported functions, and every type include/readperf/ defines, also
# those reached only through a `const void *` (abi/public.abignore).
# Locations are file:line, without directories, so that a dump does not
# depend on where the tree was built.
#
#   make abi-dump                  refreshes abi/libreadperf.so.0.abi
#   tests/install/run_abi.sh       compares the baseline with a build
set -eu
lib=${1:?usage: abi-dump.sh LIBRARY OUT}
out=${2:?usage: abi-dump.sh LIBRARY OUT}
root=$(cd "$(dirname "$0")/.." && pwd)
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
	echo "abi-dump.sh: $lib has no debug information (build with -g: RelWithDebInfo)" >&2
	exit 1
fi
exec abidw --suppressions "$root/abi/public.abignore" --load-all-types \
	--drop-private-types --drop-undefined-syms \
	--no-corpus-path --no-comp-dir-path --short-locs --no-elf-needed \
	--type-id-style hash --out-file "$out" "$lib"
