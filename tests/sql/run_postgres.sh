#!/bin/bash
# `readperf postgres` against a real PostgreSQL server started here
# (Debian's postgresql: initdb and pg_ctl, a scratch data directory and a
# Unix socket, as `nobody` when run as root; stopped on exit): three
# recordings made now (two builds of the workload, and a two-event file)
# go into one database; per recording and event, the samples and periods
# SQL counts must equal `readperf report`'s; the three queries of
# docs/sql.md run and agree with readperf report's periods; exporting a
# file again is refused (nothing duplicated) or, with --replace, replaces
# it; an export killed with SIGKILL in the middle leaves nothing a query
# of the recordings sees (its committed staging schema, unattached, is
# dropped by the next export).
#
#   run_postgres.sh /path/to/readperf
#
# Skips (exit 77) when perf, PostgreSQL or a compiler is missing, unless
# RP_REQUIRE_PERF=1: then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/sql/pg_lib.sh
. "$here/pg_lib.sh"
rp_take_binary "${1:?usage: run_postgres.sh /path/to/readperf}"
require_perf
require_cc
pg_require

pg_start rp-postgres perf
sql() { psql -qXAt -d perf -F '|' "$@"; }

# Two builds of the workload, and recordings of each.
rp_compile_workload || exit 1
"${CC:-cc}" -O2 -g -fno-omit-frame-pointer -o workload2 "$root/tests/workload/workload.c" -lm ||
	exit 1
record_workload a -e cpu-clock -g -- -t 300
perf record -e cpu-clock -g -o b.data -- ./workload2 -q -t 300 >b.record.out 2>&1 ||
	rp_cannot_run "perf record failed"
record_workload c -e cpu-clock -e task-clock -- -t 200 -f 2

for f in a b c; do
	"$RP" postgres --dsn "$dsn" --callchains "$f.data" 2>"$f.pg.err" ||
		{ fail "readperf postgres $f.data failed"; cat "$f.pg.err" >&2; }
done

# totals FILE: "event|samples|period" lines from readperf report, sorted:
# the per-command rows summed per event (the "# Samples" header rounds
# counts above 999 to "1K", as perf's does).
totals_report() {
	"$RP" report --no-children -g none -F sample,period,comm -t ';' "$1" 2>/dev/null | awk -F';' '
		/^# Samples: / { ev = $0; sub(/.*of event .?/, "", ev); sub(/.$/, "", ev); next }
		/^#/ || NF < 3 { next }
		{ n[ev] += $1; p[ev] += $2 }
		END { for (e in n) print e "|" n[e] "|" p[e] }' | sort
}
totals_sql() {
	sql -c "SELECT e.name, count(*), sum(s.period) FROM samples s
		JOIN selected_events e ON e.recording_id = s.recording_id AND e.id = s.evsel_id
		JOIN recordings r ON r.id = s.recording_id
		WHERE s.id > 0 AND r.file_name = '$1' GROUP BY e.name" | sort
}
check_totals() {
	totals_report "$1" >"$1.report.totals"
	totals_sql "$1" >"$1.sql.totals"
	if [ ! -s "$1.report.totals" ]; then
		fail "$1: readperf report printed no totals"
	elif rp_same "$1 totals" "$1.report.totals" "$1.sql.totals"; then
		echo "ok   $1: $(tr '\n' ' ' <"$1.sql.totals")"
	fi
}
for f in a b c; do check_totals "$f.data"; done
[ "$(sql -c 'SELECT count(*) FROM recordings')" = 3 ] || fail "not 3 recordings"

# The queries of docs/sql.md.
for q in top-functions share-over-time diff-builds; do
	awk -v q="$q" '$0 == "<!-- query: " q " -->" { on = 1; next }
		on && /^```sql/ { inside = 1; next } inside && /^```/ { exit } inside { print }' \
		"$root/docs/sql.md" >"$q.sql"
	[ -s "$q.sql" ] || fail "docs/sql.md has no query $q"
done
ida=$(sql -c "SELECT id FROM recordings WHERE file_name = 'a.data'")
idb=$(sql -c "SELECT id FROM recordings WHERE file_name = 'b.data'")
vars=(-v event=cpu-clock -v function=work_unit -v a="$ida" -v b="$idb")
sql "${vars[@]}" -f top-functions.sql >top.out || fail "the top-functions query failed"
sql "${vars[@]}" -f share-over-time.sql >share.out || fail "the share-over-time query failed"
sql "${vars[@]}" -f diff-builds.sql >diff.out || fail "the diff-builds query failed"
# top functions: the first row's period is the sum of that symbol's
# periods in that DSO in the three reports (a function of both builds is
# a row per build: work_unit of workload and of workload2)
read -r top_fn top_dso top_period < <(awk -F'|' 'NR == 1 { print $1, $2, $5 }' top.out)
want=0
for f in a b c; do
	p=$("$RP" report --no-children -g none -F overhead,sample,period,dso,sym -t ';' "$f.data" 2>/dev/null |
		awk -F';' -v fn="$top_fn" -v dso="$top_dso" '
		/^# Samples: / { ev = ($0 ~ /cpu-clock/) } /^#/ { next }
		ev { s = $5; sub(/^\[.\] /, "", s); d = $4; gsub(/^ +| +$/, "", d)
		     if (s == fn && d == dso) t += $3 } END { print t + 0 }')
	want=$((want + p))
done
if [ -n "$top_fn" ] && [ "$want" = "$top_period" ]; then
	echo "ok   top functions: $top_fn ($top_dso) $top_period"
else
	fail "top functions: '$top_fn' ($top_dso) $top_period in SQL, $want in readperf report"
fi
# share over time: per recording, work_unit's period and the total
for f in a b c; do
	id=$(sql -c "SELECT id FROM recordings WHERE file_name = '$f.data'")
	got=$(awk -F'|' -v id="$id" '$1 == id { print $4 "|" $5 }' share.out)
	want=$("$RP" report --no-children -g none -F overhead,sample,period,sym -t ';' "$f.data" 2>/dev/null | awk -F';' '
		/^# Samples: / { ev = ($0 ~ /cpu-clock/) } /^#/ { next }
		ev { s = $4; sub(/^\[.\] /, "", s); if (s == "work_unit") t += $3; all += $3 }
		END { print t + 0 "|" all + 0 }')
	[ "$got" = "$want" ] && echo "ok   share over time, $f.data: $got" ||
		fail "share over time, $f.data: SQL $got, readperf report $want"
done
# diff of two builds: share_a and share_b of work_unit are its shares in
# the share-over-time rows of a and b
got=$(awk -F'|' '$1 == "work_unit" { print $2 "|" $3 }' diff.out)
want=$(awk -F'|' -v a="$ida" -v b="$idb" '$1 == a { x = $6 } $1 == b { y = $6 }
	END { print x "|" y }' share.out)
[ -n "$got" ] && [ "$got" = "$want" ] && echo "ok   diff of two builds: work_unit $got" ||
	fail "diff of two builds: work_unit $got, shares $want"

# perf's schema on one recording: its schema recording_N holds its
# partitions and perf's views, so perf's queries (unqualified names) run
# on its rows alone with `SET search_path`: samples per command, DSO and
# symbol from perf's samples_view equal those of the views over all
# recordings, and readperf report's.
perf_query="SELECT command, dso_short_name, symbol, count(*) FROM samples_view WHERE id > 0
	GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
for f in a c; do
	id=$(sql -c "SELECT id FROM recordings WHERE file_name = '$f.data'")
	sql -c "SET search_path TO recording_$id" -c "$perf_query" >"$f.perfschema" ||
		fail "$f.data: perf's query on recording_$id failed"
	sql -c "SELECT command, dso_short_name, symbol, count(*) FROM samples_view
		WHERE recording_id = $id AND id > 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3" >"$f.allschema"
	n=$(sql -c "SET search_path TO recording_$id" -c "SELECT count(*) FROM samples s
		JOIN symbols y ON y.id = s.symbol_id JOIN dsos d ON d.id = s.dso_id WHERE s.id > 0")
	want=$(awk -F'|' '$1 ~ /cpu-clock|task-clock/ { t += $2 } END { print t + 0 }' "$f.data.sql.totals")
	if [ -s "$f.perfschema" ] && cmp -s "$f.perfschema" "$f.allschema" && [ "$n" = "$want" ]; then
		echo "ok   $f.data: perf's queries on recording_$id ($(wc -l <"$f.perfschema") rows, $n samples)"
	else
		fail "$f.data: perf's schema recording_$id: $n samples (want $want), view rows differ"
	fi
done

# Exporting a file again: refused, nothing duplicated; --replace replaces.
before=$(sql -c "SELECT count(*) FROM samples")
if "$RP" postgres --dsn "$dsn" --callchains a.data 2>again.err; then
	fail "a second export of a.data was not refused"
fi
grep -q "already in the database" again.err || fail "no message on a second export: $(cat again.err)"
bad=$(rp_error_prefix_repeated again.err) && fail "a second export: the error repeats a prefix: $bad"
[ "$(sql -c 'SELECT count(*) FROM samples')" = "$before" ] || fail "a refused export added samples"
cp a.data a-copy.data
"$RP" postgres --dsn "$dsn" a-copy.data 2>/dev/null && fail "a copy of a.data was not refused"
# Refused when exported together (each on its own; the first refusal
# stops the run), the error named by its recording once.
"$RP" postgres --dsn "$dsn" a.data a-copy.data 2>again-each.err &&
	fail "a second export of a.data with its copy was not refused"
grep -q '^readperf: error: a\(-copy\)\?\.data: .*already in the database' again-each.err ||
	fail "a second export of a.data with its copy: no error naming the recording: $(cat again-each.err)"
bad=$(rp_error_prefix_repeated again-each.err) &&
	fail "a second export of a.data with its copy: an error repeats a prefix: $bad"
[ "$(sql -c 'SELECT count(*) FROM samples')" = "$before" ] || fail "refused exports added samples"
"$RP" postgres --dsn "$dsn" --callchains --replace a.data 2>replace.err ||
	{ fail "--replace failed"; cat replace.err >&2; }
[ "$(sql -c 'SELECT count(*) FROM recordings')" = 3 ] || fail "--replace: not 3 recordings"
[ "$(sql -c 'SELECT count(*) FROM samples')" = "$before" ] || fail "--replace duplicated samples"
[ "$(sql -c "SELECT id FROM recordings WHERE file_name = 'a.data'")" != "$ida" ] ||
	fail "--replace kept the old recording"
check_totals a.data
old_schema=$(sql -c "SELECT count(*) FROM pg_namespace WHERE nspname = 'recording_$ida'")
[ "$old_schema" = 0 ] || fail "--replace left the old recording's schema recording_$ida"
echo "ok   a second export is refused; --replace replaces"

# SIGKILL in the middle: the export's rows are all on the server (in its
# own partitions, keyed) when it waits to attach them to the locked
# symbols table; killed there, nothing of it may stay.
record_workload d -e cpu-clock -g -- -t 200
counts() { sql -c "SELECT (SELECT count(*) FROM recordings), (SELECT count(*) FROM samples),
		(SELECT count(*) FROM symbols), (SELECT count(*) FROM call_paths)"; }
before=$(counts)
psql -qX -d perf -c "BEGIN" -c "LOCK TABLE symbols IN ACCESS EXCLUSIVE MODE" \
	-c "SELECT pg_sleep(20)" -c "COMMIT" >/dev/null 2>&1 &
locker=$!
sleep 0.5
"$RP" postgres --dsn "$dsn" --callchains d.data 2>/dev/null &
exporter=$!
waited=0
for _ in $(seq 100); do
	n=$(sql -d perf -c "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE c.relname = 'symbols' AND NOT l.granted")
	[ "$n" = 1 ] && { waited=1; break; }
	sleep 0.1
done
waiting=$(sql -c "SELECT query FROM pg_stat_activity WHERE wait_event_type = 'Lock'
	AND query LIKE 'ALTER TABLE symbols ATTACH PARTITION%'")
kill -9 "$exporter" 2>/dev/null
wait "$exporter" 2>/dev/null
# Release the lock: the server then finds the client gone.
sql -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep%'
	AND pid <> pg_backend_pid()" >/dev/null
wait "$locker" 2>/dev/null
for _ in $(seq 50); do
	[ "$(sql -c "SELECT count(*) FROM pg_stat_activity WHERE state <> 'idle'
		AND pid <> pg_backend_pid() AND datname = 'perf'")" = 0 ] && break
	sleep 0.1
done
[ "$waited" = 1 ] || fail "the export never waited for the lock (test problem)"
[ -n "$waiting" ] || fail "the export waited for the lock before it had sent its rows"
after=$(counts)
if [ "$before" = "$after" ]; then
	echo "ok   an export killed in the middle left nothing ($after)"
else
	fail "an export killed in the middle left rows: before $before, after $after"
fi
[ -z "$(sql -c "SELECT id FROM recordings WHERE file_name = 'd.data'")" ] ||
	fail "the killed export left its recording"
# Its tables were loaded and committed in a staging schema before the
# final transaction: they stay, unattached (no query of the recordings
# sees them: the counts above), until the next export drops them.
staging=$(sql -c "SELECT string_agg(nspname, ' ') FROM pg_namespace WHERE nspname LIKE 'rp_staging_%'")
[ -n "$staging" ] && echo "ok   the killed export left its staging schema $staging, unattached" ||
	fail "the killed export left no staging schema (test problem: killed too early?)"
n=$(sql -c "SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_class p ON p.oid = i.inhparent
	JOIN pg_namespace pn ON pn.oid = p.relnamespace
	WHERE n.nspname LIKE 'rp_staging_%' AND pn.nspname NOT LIKE 'rp_staging_%'")
[ "$n" = 0 ] || fail "a staging table is attached to the recordings' tables"
# And the file exports cleanly afterwards, the staging schema dropped.
"$RP" postgres --dsn "$dsn" --callchains d.data 2>/dev/null || fail "d.data after the kill"
check_totals d.data
left=$(sql -c "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'rp_staging_%'")
[ "$left" = 0 ] && echo "ok   the next export dropped the abandoned staging schema" ||
	fail "the next export left $left staging schema(s)"

# Several recordings in one command (-j 4: in parallel), into a second
# database: per recording the same rows as the exports one at a time.
psql -qX -d postgres -c "CREATE DATABASE perf2" || { echo "createdb failed" >&2; exit 1; }
"$RP" postgres -j 4 --dsn "host=$work/sock user=rp dbname=perf2" --callchains \
	a.data b.data c.data 2>multi.err || { fail "readperf postgres a b c failed"; cat multi.err >&2; }
# Per recording: its samples as (event, comm, dso, symbol, period) rows.
rows() {
	psql -qXAt -d "$1" -F '|' -c "SELECT e.name, c.comm, d.short_name, y.name, s.period
		FROM samples s JOIN recordings r ON r.id = s.recording_id
		JOIN selected_events e ON e.recording_id = s.recording_id AND e.id = s.evsel_id
		JOIN comms c ON c.recording_id = s.recording_id AND c.id = s.comm_id
		JOIN dsos d ON d.recording_id = s.recording_id AND d.id = s.dso_id
		JOIN symbols y ON y.recording_id = s.recording_id AND y.id = s.symbol_id
		WHERE r.file_name = '$2' AND s.id > 0 ORDER BY 1, 2, 3, 4, 5"
}
for f in a b c; do
	rows perf "$f.data" >"$f.one.rows"
	rows perf2 "$f.data" >"$f.multi.rows"
	if [ -s "$f.one.rows" ] && cmp -s "$f.one.rows" "$f.multi.rows"; then
		echo "ok   $f.data: exported with two others (-j 4), the same $(wc -l <"$f.one.rows") samples"
	else
		fail "$f.data: exported with two others, its samples differ (see $f.one.rows, $f.multi.rows)"
	fi
done

if [ "$failures" -ne 0 ]; then
	echo "run_postgres: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "run_postgres: readperf postgres agrees with readperf report, once per recording"
exit 0
