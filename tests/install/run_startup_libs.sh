#!/bin/bash
# The libraries only one command needs are not loaded when a program
# starts: capstone (readperf annotate), libpq and libcrypto (readperf
# postgres) are opened by the output itself (dlopen, lib/common/dlload.c),
# because libpq and the ~20 libraries it needs (libssl, gnutls, krb5,
# ldap, sasl, ...) cost every command ~3.5 ms of start-up, capstone ~1 ms.
# Checked on the built command and libreadperf.so.MAJOR:
#   - readelf -d: no NEEDED entry for libcapstone, libpq, libssl or
#     libcrypto;
#   - ldd (everything the dynamic loader maps at start-up, NEEDED of
#     NEEDED included): none of them either, so that no other dependency
#     brings them back.
# tests/sql/run_postgres_dlopen.sh and tests/outputs/run_annotate_dlopen.sh
# check that the outputs load them and fail cleanly when they cannot.
#
#   run_startup_libs.sh /path/to/build/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_startup_libs.sh /path/to/readperf}" nocheck
build=$(dirname "$RP")
not_checked="the libraries loaded at start-up were NOT checked."
require_tool readelf "readelf is not installed (apt-get install binutils)" "$not_checked"
require_tool ldd "ldd is not installed (apt-get install libc-bin)" "$not_checked"

major=$(sed -n 's/^#define RP_VERSION_MAJOR  *\([0-9][0-9]*\)$/\1/p' "$root/include/readperf/version.h")
[ -n "$major" ] || { echo "$rp_name: no RP_VERSION_MAJOR in include/readperf/version.h" >&2; exit 1; }
lib=$build/libreadperf.so.$major
[ -f "$lib" ] || { echo "$rp_name: $lib was not built" >&2; exit 1; }

late='^lib(capstone|pq|ssl|crypto)\.so'
late_names='libcapstone, libpq, libssl, libcrypto'
for f in "$RP" "$lib"; do
	needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
	[ -n "$needed" ] || { fail "readelf -d $f lists no NEEDED entry at all"; continue; }
	bad=$(grep -E "$late" <<<"$needed")
	if [ -n "$bad" ]; then
		fail "$f has NEEDED entries for ${bad//$'\n'/ }: readperf annotate or postgres loads them itself"
	else
		echo "ok   $(basename "$f"): $(wc -l <<<"$needed") NEEDED, none of $late_names"
	fi
	loaded=$(ldd "$f" 2>&1 | awk '{ print $1 }')
	grep -q '^libc\.so' <<<"$loaded" || { fail "ldd $f lists no libc: $loaded"; continue; }
	bad=$(grep -E "$late" <<<"$loaded")
	if [ -n "$bad" ]; then
		fail "$f loads ${bad//$'\n'/ } at start-up"
	else
		echo "ok   $(basename "$f"): $(wc -l <<<"$loaded") libraries at start-up, none of $late_names"
	fi
done

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures check(s) failed" >&2
	exit 1
fi
echo "$rp_name: $late_names are loaded by readperf annotate and postgres alone"
exit 0
