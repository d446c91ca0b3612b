#!/bin/bash
# `readperf postgres` loads libpq and libcrypto when the export starts
# (dlopen, lib/outputs/pqload.c), not when the program starts: on a
# machine where they cannot be loaded the export fails with one clear
# line and writes nothing, and every other command works.  Provoked with
# LD_LIBRARY_PATH pointing to a directory that holds, under the names
# the binary loads, what the dynamic loader refuses:
#   - an empty libpq.so.N ("file too short"),
#   - an empty libcrypto.so.N (libcrypto is loaded first, and libpq needs
#     it too),
#   - a libpq.so.N built here with the right SONAME but none of libpq's
#     functions (dlsym fails),
# each time against a PostgreSQL server started here (tests/sql/pg_lib.sh):
# exit status 1, one `readperf: error:` line naming the library (and the
# missing function), and the database still without a table or a
# staging schema; `readperf report` in the same environment prints what
# it prints without it.  Then the same export without LD_LIBRARY_PATH
# succeeds (the failures were the libraries', not the server's).  The
# recording is the committed tests/golden/demo.perf.data: what matters
# here is the loading, which tests/sql/run_postgres.sh's exports (of
# recordings made now) exercise in its working case.
#
#   run_postgres_dlopen.sh /path/to/readperf
#
# Skips (exit 77) when PostgreSQL or a compiler is missing, unless
# RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/sql/pg_lib.sh
. "$here/pg_lib.sh"
# The binary itself: the library names it loads are read from it, and
# postgres runs once anyway (tests/jcheck.sh).
rp_take_binary "${1:?usage: run_postgres_dlopen.sh /path/to/readperf}" nocheck
require_cc
pg_require

pg_start rp-pg-dlopen perf
data=$root/tests/golden/demo.perf.data

# The names readperf dlopens: the SONAMEs its build found, compiled in.
mapfile -t pq_names < <(grep -aoE 'libpq\.so\.[0-9]+' "$RP" | sort -u)
mapfile -t crypto_names < <(grep -aoE 'libcrypto\.so\.[0-9]+' "$RP" | sort -u)
if [ ${#pq_names[@]} -eq 0 ] || [ ${#crypto_names[@]} -eq 0 ]; then
	echo "$rp_name: $RP names no libpq.so.N or libcrypto.so.N to load" >&2
	exit 1
fi

# What the database holds besides PostgreSQL's own schemas: nothing
# before the first export that works.
user_objects() {
	psql -qXAt -d perf -c "SELECT count(*) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
		  AND n.nspname !~ '^pg_toast'"
}
schemas() {
	psql -qXAt -d perf -c "SELECT count(*) FROM pg_namespace
		WHERE nspname ~ '^(rp_staging|recording)_'"
}

"$RP" report "$data" >report.expected 2>report.expected.err ||
	{ echo "$rp_name: readperf report $data failed" >&2; cat report.expected.err >&2; exit 1; }

# expect_refusal TAG DIR NAME WHAT: readperf postgres with
# LD_LIBRARY_PATH=DIR fails cleanly, its message naming NAME and WHAT;
# readperf report there is unaffected.
expect_refusal() {
	local tag=$1 dir=$2 name=$3 what=$4 rc

	LD_LIBRARY_PATH=$dir "$RP" postgres --dsn "$dsn" "$data" >"$tag.out" 2>"$tag.err"
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$tag: readperf postgres exited with $rc, not 1"
		cat "$tag.err" >&2
	elif [ "$(wc -l <"$tag.err")" -ne 1 ] || ! grep -q '^readperf: error: ' "$tag.err"; then
		fail "$tag: not one 'readperf: error:' line:"
		cat "$tag.err" >&2
	elif ! grep -qF "cannot load $name" "$tag.err" || ! grep -qF "$what" "$tag.err"; then
		fail "$tag: the message names neither $name nor '$what':"
		cat "$tag.err" >&2
	else
		echo "ok   $tag: $(cat "$tag.err")"
	fi
	[ -s "$tag.out" ] && fail "$tag: readperf postgres wrote to its standard output"
	local objects staging
	objects=$(user_objects)
	staging=$(schemas)
	if [ "$objects" != 0 ] || [ "$staging" != 0 ]; then
		fail "$tag: the database holds $objects tables, views or sequences and $staging" \
		     "recording schemas after the failed export"
	fi
	rp_report_unaffected "$tag" "$dir" libpq "$data"
}

# An empty file under each name libpq is loaded by.
mkdir empty-pq
for n in "${pq_names[@]}"; do : >"empty-pq/$n"; done
expect_refusal empty-libpq "$PWD/empty-pq" "${pq_names[0]}" "file too short"

# An empty libcrypto: named by the message, not libpq.
mkdir empty-crypto
for n in "${crypto_names[@]}"; do : >"empty-crypto/$n"; done
expect_refusal empty-libcrypto "$PWD/empty-crypto" "${crypto_names[0]}" "file too short"

# A libpq without libpq's functions: the first one looked up is missing.
mkdir fake-pq
echo 'int rp_not_libpq(void); int rp_not_libpq(void) { return 0; }' >fake-pq.c
for n in "${pq_names[@]}"; do
	"$CC" -shared -fPIC -o "fake-pq/$n" -Wl,-soname,"$n" fake-pq.c ||
		{ echo "$rp_name: cannot build a stand-in $n" >&2; exit 1; }
done
expect_refusal fake-libpq "$PWD/fake-pq" "${pq_names[0]}" "it has no PQ"

# The same export with the machine's libraries works.
if "$RP" postgres --dsn "$dsn" "$data" 2>works.err; then
	n=$(psql -qXAt -d perf -c "SELECT count(*) FROM recordings")
	if [ "$n" = 1 ]; then
		echo "ok   with the machine's libpq and libcrypto the export works"
	else
		fail "the export succeeded but the database has $n recordings, not 1"
	fi
else
	fail "readperf postgres fails with the machine's libraries:"
	cat works.err >&2
fi

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "$rp_name: without a loadable libpq or libcrypto only readperf postgres fails, cleanly"
exit 0
