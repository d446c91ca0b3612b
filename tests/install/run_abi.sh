#!/bin/bash
# The ABI of libreadperf.so.MAJOR against the committed baseline
# abi/libreadperf.so.MAJOR.abi (docs/api.md, "The ABI check"):
#   1. the check itself, on a small library of its own built twice: abidiff
#      with abi/minor.abignore lets through what a MINOR release may do (a
#      new function, a field added at the end of an options struct, a
#      change to a type no public header defines) and reports the rest (a
#      field inserted in the middle, a caller-allocated struct growing, a
#      removed function);
#   2. tools/abi-dump.sh describes the built library (abidw: exported
#      functions and the types of include/readperf/) and abidiff compares
#      the baseline with it: an incompatible change (abidiff's status bit
#      8), or any other change abi/minor.abignore does not allow (bit 4),
#      fails.  Allowed changes not yet in the baseline are listed (make
#      abi-dump records them).
# The library is found beside the readperf binary (the build directory) and
# needs its debug information (the default RelWithDebInfo build).
#
#   run_abi.sh /path/to/build/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_abi.sh /path/to/build/readperf}" nocheck
build=$(dirname "$RP")
require_cc
for t in abidw abidiff; do
	require_tool "$t" "$t is not installed (apt-get install abigail-tools)" "the ABI was NOT checked."
done
require_tool readelf "readelf is not installed (apt-get install binutils)" "the ABI was NOT checked."
rp_workdir rp-abi keep-on-failure
work=$rp_work_dir

major=$(sed -n 's/^#define RP_VERSION_MAJOR  *\([0-9][0-9]*\)$/\1/p' "$root/include/readperf/version.h")
[ -n "$major" ] || { echo "$rp_name: no RP_VERSION_MAJOR in include/readperf/version.h" >&2; exit 1; }
lib=$build/libreadperf.so.$major
baseline=$root/abi/libreadperf.so.$major.abi
minor=$root/abi/minor.abignore
[ -f "$lib" ] || { echo "$rp_name: $lib was not built" >&2; exit 1; }
if [ ! -f "$baseline" ]; then
	echo "$rp_name: no baseline $baseline for SONAME libreadperf.so.$major:" \
	     "make abi-dump writes it (docs/api.md, \"The ABI check\")" >&2
	exit 1
fi
readelf -S "$lib" | grep -q '\.debug_info' ||
	rp_cannot_run "$lib has no debug information (configure with -DCMAKE_BUILD_TYPE=RelWithDebInfo)" \
		"the ABI was NOT checked."

# abidiff's exit status: bit 1 an error, 2 a usage error, 4 an ABI change,
# 8 an incompatible ABI change.
# diff_status BASE NEW REPORT [abidiff options]: abidiff's status.
diff_status() {
	local base=$1 new=$2 report=$3
	shift 3
	abidiff --non-reachable-types "$@" "$base" "$new" >"$report" 2>&1
}

# --- 1. the check on a library of its own -----------------------------------
self=$work/self
mkdir -p "$self/include/readperf" "$self/lib"
cat >"$self/include/readperf/t.h" <<'H'
#include <stddef.h>
struct rp_t_opts {		/* options: sz first, may grow at the end */
	size_t sz;
	int a;
#ifdef MID
	int mid;
#endif
	long b;
#ifdef END
	long end;
#endif
};
struct rp_t_box {		/* allocated by the caller: fixed */
	int x;
#ifdef GROW
	int y;
#endif
};
int rp_t_open(const struct rp_t_opts *opts);
int rp_t_fill(struct rp_t_box *box);
const void *rp_t_any(void);	/* reaches its private type through void * */
#ifndef REMOVED
int rp_t_gone(void);
#endif
#ifdef ADDED
int rp_t_new(void);
#endif
H
cat >"$self/lib/t_int.h" <<'H'
struct t_private {		/* the library's own */
	int p;
#ifdef PRIVATE
	double q;
#endif
};
H
cat >"$self/lib/t.c" <<'C'
#include <readperf/t.h>
#include "t_int.h"
static struct t_private priv;
int rp_t_open(const struct rp_t_opts *opts) { return opts->a; }
int rp_t_fill(struct rp_t_box *box) { box->x = 1; return 0; }
const void *rp_t_any(void) { return &priv; }
#ifndef REMOVED
int rp_t_gone(void) { return 0; }
#endif
#ifdef ADDED
int rp_t_new(void) { return 0; }
#endif
C
# self_lib NAME [-DVARIANT]: libt-NAME.so and its dump libt-NAME.abi.
self_lib() {
	local name=$1
	shift
	if ! "$CC" -g -O0 -shared -fPIC "$@" -I"$self/include" -I"$self/lib" -o "$self/libt-$name.so" \
		"$self/lib/t.c" 2>"$self/cc.err" ||
	   ! "$root/tools/abi-dump.sh" "$self/libt-$name.so" "$self/libt-$name.abi" 2>>"$self/cc.err"; then
		cat "$self/cc.err" >&2
		echo "$rp_name: cannot build the self-check library ($name)" >&2
		exit 1
	fi
}
self_lib base
# CASE VARIANT EXPECT: EXPECT is "allowed" (status 0) or "reported" (bit 4
# or 8 set; "incompatible": bit 8).
self_case() {
	local variant=$1 expect=$2 rc
	self_lib "$variant" "-D$variant"
	diff_status "$self/libt-base.abi" "$self/libt-$variant.abi" "$self/$variant.report" \
		--suppressions "$minor"
	rc=$?
	case "$expect:$rc" in
	allowed:0) ;;
	reported:4 | reported:12 | incompatible:12) ;;
	*)
		fail "the check itself: $variant should be $expect, abidiff's status is $rc:"
		sed 's/^/    /' "$self/$variant.report" | head -30 >&2
		return ;;
	esac
	self_checked=$((${self_checked:-0} + 1))
}
self_case ADDED allowed
self_case END allowed
self_case PRIVATE allowed
self_case MID reported
self_case GROW reported
self_case REMOVED incompatible
[ "$failures" -ne 0 ] || echo "ok   the check itself: $self_checked planted changes allowed or reported as docs/api.md says"

# --- 2. the library against the baseline ------------------------------------
if ! "$root/tools/abi-dump.sh" "$lib" "$work/current.abi" 2>"$work/abidw.err"; then
	cat "$work/abidw.err" >&2
	echo "$rp_name: abidw failed on $lib" >&2
	exit 1
fi
diff_status "$baseline" "$work/current.abi" "$work/report" --suppressions "$minor"
rc=$?
rel=abi/libreadperf.so.$major.abi
if [ $((rc & 3)) -ne 0 ]; then
	cat "$work/report" >&2
	fail "abidiff failed (status $rc)"
elif [ $rc -ne 0 ]; then
	if [ $((rc & 8)) -ne 0 ]; then
		fail "INCOMPATIBLE ABI change of libreadperf.so.$major against $rel (abidiff status $rc):"
	else
		fail "ABI change of libreadperf.so.$major against $rel that a MINOR release may not make" \
		     "(abidiff status $rc):"
	fi
	sed 's/^/    /' "$work/report" >&2
	{
		echo "    If the change is on purpose: before the first release, refresh the baseline"
		echo "    with 'make abi-dump' and commit $rel; after a release it needs a new"
		echo "    MAJOR (docs/api.md, \"Versions and the ABI promise\")."
	} >&2
else
	n=$(grep -c "<elf-symbol " "$work/current.abi")
	echo "ok   libreadperf.so.$major: $n exported symbols, no change against $rel that docs/api.md forbids"
	# What the baseline does not have yet (new functions, grown options).
	if ! diff_status "$baseline" "$work/current.abi" "$work/report.all"; then
		echo "note compatible changes since $rel (make abi-dump records them):"
		grep -E '^(Functions|Variables|Unreachable types) changes? summary|^  \[[ACD]\]' \
			"$work/report.all" | sed 's/^/    /'
	fi
fi

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failures (scratch: $work)" >&2
	exit 1
fi
