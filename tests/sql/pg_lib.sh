# shellcheck shell=bash
# A PostgreSQL server of the test's own, for tests/sql/run_postgres*.sh
# (sourced after tests/lib.sh):
#
#   pg_require                the server's programs, psql and readperf's
#                             postgres command, else rp_cannot_run
#   pg_start PREFIX DATABASE  the test's scratch directory (rp_workdir
#                             PREFIX, kept on failure: work, the current
#                             directory), initdb in work/pg, a server on
#                             the Unix socket work/sock only (no TCP),
#                             stopped when the test exits; PGHOST and
#                             PGUSER set for libpq's clients; DATABASE
#                             created; dsn its libpq DSN
#
# As root the server runs as nobody (it refuses root), so the scratch
# directory is made reachable (mode 755: the server also reads files the
# tests write there for COPY).  fsync is off: the data is thrown away.

pg_require() {
	pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
	[ -n "$pgbin" ] && [ -x "$pgbin/initdb" ] && [ -x "$pgbin/pg_ctl" ] ||
		rp_cannot_run "PostgreSQL's server is not installed (apt-get install postgresql)" \
			      "readperf postgres was NOT tested."
	require_tool psql "psql is not installed (apt-get install postgresql-client)"
	"$RP" postgres --help >/dev/null 2>&1 || rp_cannot_run "readperf has no postgres command"
}

pg_stop() {
	local rc=$?

	"${pg_as[@]}" "$pgbin/pg_ctl" -D "$pg_dir/pg" -m immediate stop >/dev/null 2>&1
	(exit $rc)
	rp_workdir_exit
}

pg_start() {
	rp_workdir "$1" keep-on-failure
	work=$rp_work_dir
	pg_dir=$work
	chmod 755 "$work"
	cd "$work" || exit 1
	pg_as=()
	[ "$(id -u)" = 0 ] && pg_as=(runuser -u nobody --)
	mkdir "$pg_dir/pg" "$pg_dir/sock" || exit 1
	[ ${#pg_as[@]} -eq 0 ] || chown nobody "$pg_dir/pg" "$pg_dir/sock"
	trap pg_stop EXIT
	if ! "${pg_as[@]}" "$pgbin/initdb" -D "$pg_dir/pg" -A trust -U rp -E UTF8 --no-sync \
		>"$pg_dir/initdb.log" 2>&1; then
		cat "$pg_dir/initdb.log" >&2
		rp_cannot_run "initdb failed" "readperf postgres was NOT tested."
	fi
	if ! "${pg_as[@]}" "$pgbin/pg_ctl" -D "$pg_dir/pg" -w -l "$pg_dir/pg/server.log" \
		-o "-k $pg_dir/sock -c listen_addresses='' -c fsync=off" start >/dev/null 2>&1; then
		cat "$pg_dir/pg/server.log" >&2
		rp_cannot_run "the PostgreSQL server does not start" "readperf postgres was NOT tested."
	fi
	export PGHOST=$pg_dir/sock PGUSER=rp
	psql -qX -d postgres -c "CREATE DATABASE $2" || { echo "createdb failed" >&2; exit 1; }
	# shellcheck disable=SC2034 # for the test
	dsn="host=$pg_dir/sock user=rp dbname=$2"
}
