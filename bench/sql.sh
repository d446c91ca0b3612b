#!/bin/bash
# Times `readperf sqlite` and `readperf postgres` against perf's
# export-to-sqlite.py and export-to-postgresql.py on one recording, and
# against each database's floor for the same rows: SQLite's prepared
# inserts in one transaction (bench/sqlite_floor.c) and a bare binary
# COPY of the rows readperf exported.  Not a test: figures for
# bench/RESULTS.md.
#
#   bench/sql.sh /path/to/readperf FILE.data
#
# Needs perf with Python scripting, python3-pyside2.qtsql, sqlite3's
# headers, PostgreSQL's server (started here, as nobody when root) and
# farm-bench.  RP_BENCH_RUNS (default 3) runs of each command.
set -eu
RP=$(readlink -f "${1:?usage: sql.sh readperf FILE.data}")
FILE=$(readlink -f "${2:?usage: sql.sh readperf FILE.data}")
RUNS=${RP_BENCH_RUNS:-3}
here=$(cd "$(dirname "$0")" && pwd)
scripts=/usr/lib/perf-core/scripts/python
[ -d "$scripts" ] || scripts=/usr/libexec/perf-core/scripts/python
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d /tmp/rp-sqlbench.XXXXXX)
chmod 755 "$work"
cd "$work"
cc -O2 -o sqlite_floor "$here/sqlite_floor.c" -lsqlite3

echo "== file: $FILE ($(du -m "$FILE" | cut -f1) MB, $("$RP" report "$FILE" 2>/dev/null |
	grep -m1 '^# Samples' | cut -d' ' -f3) samples)"

for variant in plain callchains; do
	if [ $variant = plain ]; then pa=""; ra=""; else pa="all calls callchains"; ra="--calls --callchains"; fi
	echo "== sqlite, $variant: readperf (A) vs perf's export-to-sqlite.py (B)"
	farm-bench -n "$RUNS" --timeout 3600 \
		--vs "sh -c 'rm -f perf.db; exec perf script -i $FILE -s $scripts/export-to-sqlite.py perf.db $pa'" \
		-- sh -c "rm -f rp.db; exec $RP sqlite $ra -o rp.db $FILE"
	echo "== sqlite, $variant: readperf (A) vs the floor: the same rows inserted by sqlite_floor (B; whole process, rows read into memory first)"
	farm-bench -n "$RUNS" --timeout 3600 --vs "./sqlite_floor rp.db floor.db" \
		-- sh -c "rm -f rp.db; exec $RP sqlite $ra -o rp.db $FILE"
	for _ in $(seq "$RUNS"); do ./sqlite_floor rp.db floor.db; done
done

# PostgreSQL, started here.
as=()
[ "$(id -u)" = 0 ] && as=(runuser -u nobody --)
mkdir pg sock
[ ${#as[@]} -eq 0 ] || chown nobody pg sock
"${as[@]}" "$pgbin/initdb" -D "$work/pg" -A trust -U rp -E UTF8 --no-sync >/dev/null
"${as[@]}" "$pgbin/pg_ctl" -D "$work/pg" -w -l "$work/pg/log" \
	-o "-k $work/sock -c listen_addresses='' -c fsync=off -c synchronous_commit=off" start >/dev/null
trap '"${as[@]}" "$pgbin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null; cd /; rm -rf "$work"' EXIT
export PGHOST=$work/sock PGUSER=rp
psql -qX -d postgres -c "CREATE DATABASE perf"
dsn="host=$work/sock user=rp dbname=perf"
"$RP" postgres --dsn "$dsn" --callchains "$FILE"
tables="recordings samples selected_events machines threads comms comm_threads dsos symbols branch_types call_paths calls context_switches"
trunc="TRUNCATE $(echo $tables | tr ' ' ',')"
# The floor: the rows readperf wrote, copied out and back in (binary COPY
# through the client, one transaction), into the same tables.
{
	echo "BEGIN;"
	echo "$trunc;"
	for t in $tables; do
		psql -qX -d perf -c "\\copy (SELECT * FROM $t) TO '$work/$t.bin' (FORMAT binary)"
		echo "\\copy $t FROM '$work/$t.bin' (FORMAT binary)"
	done
	echo "COMMIT;"
} >floor.sql
echo "== postgres, callchains: readperf (A) vs perf's export-to-postgresql.py (B)"
farm-bench -n "$RUNS" --timeout 3600 \
	--vs "sh -c 'dropdb --if-exists pb; rm -rf pb-perf-data; exec perf script -i $FILE -s $scripts/export-to-postgresql.py pb all calls callchains'" \
	-- sh -c "psql -qX -d perf -c '$trunc' && exec $RP postgres --dsn '$dsn' --callchains $FILE"
echo "== postgres, callchains: readperf (A) vs a bare COPY of the same rows (B)"
farm-bench -n "$RUNS" --timeout 3600 --vs "psql -qX -d perf -f floor.sql" \
	-- sh -c "psql -qX -d perf -c '$trunc' && exec $RP postgres --dsn '$dsn' --callchains $FILE"
