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
# /usr/bin/time.  RP_BENCH_RUNS (default 3) runs of each command, the two
# of a pair in turn; medians.  The server runs with its defaults (fsync
# on); RP_BENCH_PG_OPTS adds settings ("-c wal_level=minimal -c
# max_wal_senders=0", ...).
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

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# pair A B: the shell commands A and B, RUNS times each in turn, timed by
# /usr/bin/time; prints the median wall and CPU seconds of each and A/B.
pair() {
	rm -f times.a times.b
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %U %S' -a -o times.a sh -c "$1" >/dev/null 2>&1
		/usr/bin/time -f '%e %U %S' -a -o times.b sh -c "$2" >/dev/null 2>&1
	done
	local wa wb ca cb
	wa=$(awk '{ print $1 }' times.a | median)
	wb=$(awk '{ print $1 }' times.b | median)
	ca=$(awk '{ print $2 + $3 }' times.a | median)
	cb=$(awk '{ print $2 + $3 }' times.b | median)
	awk -v wa="$wa" -v wb="$wb" -v ca="$ca" -v cb="$cb" 'BEGIN {
		printf "   A: %.2f s wall, %.2f s cpu;  B: %.2f s wall, %.2f s cpu;  A/B: wall %.3f, cpu %.3f\n",
			wa, ca, wb, cb, wa / wb, (cb > 0 ? ca / cb : 0) }'
}

echo "== file: $FILE ($(du -m "$FILE" | cut -f1) MB, $("$RP" report "$FILE" 2>/dev/null |
	grep -m1 '^# Samples' | cut -d' ' -f3) samples)"

for variant in plain callchains; do
	if [ $variant = plain ]; then pa=""; ra=""; else pa="all calls callchains"; ra="--calls --callchains"; fi
	echo "== sqlite, $variant: readperf (A) vs perf's export-to-sqlite.py (B)"
	pair "rm -f rp.db; exec $RP sqlite $ra -o rp.db $FILE" \
		"rm -f perf.db; exec perf script -i $FILE -s $scripts/export-to-sqlite.py perf.db $pa"
	echo "== sqlite, $variant: readperf (A) vs the floor: the same rows inserted by sqlite_floor (B; whole process, rows read into memory first)"
	pair "rm -f rp.db; exec $RP sqlite $ra -o rp.db $FILE" "./sqlite_floor rp.db floor.db"
	for _ in $(seq "$RUNS"); do ./sqlite_floor rp.db floor.db; done
done

# PostgreSQL, started here.
as=()
[ "$(id -u)" = 0 ] && as=(runuser -u nobody --)
mkdir pg sock
[ ${#as[@]} -eq 0 ] || chown nobody pg sock
"${as[@]}" "$pgbin/initdb" -D "$work/pg" -A trust -U rp -E UTF8 --no-sync >/dev/null
"${as[@]}" "$pgbin/pg_ctl" -D "$work/pg" -w -l "$work/pg/log" \
	-o "-k $work/sock -c listen_addresses='' ${RP_BENCH_PG_OPTS:-}" start >/dev/null
trap '"${as[@]}" "$pgbin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null; cd /; rm -rf "$work"' EXIT
export PGHOST=$work/sock PGUSER=rp
psql -qX -d postgres -c "CREATE DATABASE perf"
dsn="host=$work/sock user=rp dbname=perf"
"$RP" postgres --dsn "$dsn" --callchains "$FILE"
id=$(psql -qXAt -d perf -c "SELECT max(id) FROM recordings")
tables="samples selected_events machines threads comms comm_threads dsos symbols branch_types call_paths calls context_switches"
# The floor: the rows readperf wrote for the recording, copied out, then
# back in as perf's script loads them (and as readperf does): binary COPY
# into new tables without keys, in one transaction, primary keys added
# after the rows.
{
	echo "\\set QUIET on"
	for t in $tables; do echo "DROP TABLE IF EXISTS floor_$t;"; done
	echo "BEGIN;"
	for t in $tables; do
		psql -qX -d perf -c "\\copy (SELECT * FROM recording_$id.$t) TO '$work/$t.bin' (FORMAT binary)"
		echo "CREATE TABLE floor_$t (LIKE $t);"
		echo "\\copy floor_$t FROM '$work/$t.bin' (FORMAT binary)"
	done
	for t in $tables; do echo "ALTER TABLE floor_$t ADD PRIMARY KEY (id);"; done
	echo "COMMIT;"
} >floor.sql
echo "== postgres server: $(psql -qXAt -d perf -c "SELECT string_agg(name || '=' || setting, ' ') FROM pg_settings
	WHERE name IN ('fsync', 'synchronous_commit', 'wal_level', 'shared_buffers')")"
echo "== postgres, callchains: readperf (A, the recording replaced) vs perf's export-to-postgresql.py (B)"
pair "exec $RP postgres --dsn '$dsn' --replace --callchains $FILE" \
	"dropdb --if-exists pb; rm -rf pb-perf-data; exec perf script -i $FILE -s $scripts/export-to-postgresql.py pb all calls callchains"
echo "== postgres, callchains: readperf (A) vs a bare COPY of the same rows into tables without keys, keys after (B)"
pair "exec $RP postgres --dsn '$dsn' --replace --callchains $FILE" \
	"psql -qX -v ON_ERROR_STOP=1 -d perf -f floor.sql"
