/* SPDX-License-Identifier: MIT */
/*
 * readperf sqlite / readperf postgres: perf's database export
 * (export-to-sqlite.py, export-to-postgresql.py) into an SQLite file or
 * a PostgreSQL database.
 */
#include "cli.h"

enum {
	OPT_BRANCHES = 256,
	OPT_CALLS,
	OPT_CALLCHAINS,
	OPT_REPLACE,
	OPT_NAME,
};

#define CLI_SQL_LONGOPTS                                                \
	{ "branches", no_argument, NULL, OPT_BRANCHES },                \
	{ "calls", no_argument, NULL, OPT_CALLS },                      \
	{ "callchains", no_argument, NULL, OPT_CALLCHAINS }

#define CLI_SQL_HELP                                                                       \
	"      --branches       perf's \"branches\": samples without the period, weight,\n"   \
	"                       transaction and data_src columns\n"                        \
	"      --calls          perf's \"calls\": the call_paths and calls tables\n"         \
	"      --callchains     perf's \"callchains\": call_paths from the samples' call\n"  \
	"                       stacks (samples.call_path_id)\n"

static const struct option sqlite_longopts[] = {
	{ "force", no_argument, NULL, 'f' },
	CLI_SQL_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static const struct option postgres_longopts[] = {
	{ "replace", no_argument, NULL, OPT_REPLACE },
	{ "name", required_argument, NULL, OPT_NAME },
	CLI_SQL_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* perf's script arguments, the same options in both commands. */
static int sql_option(int *branches, int *calls, int *callchains, int c)
{
	int *flag = c == OPT_BRANCHES ? branches : c == OPT_CALLS ? calls
		  : c == OPT_CALLCHAINS ? callchains : NULL;

	if (!flag)
		return 0;
	*flag = 1;
	return 1;
}

static int sqlite_option(void *o, int c, const char *arg)
{
	struct rp_sqlite_opts *opts = o;

	(void)arg;
	if (c == 'f') {
		opts->force = 1;
		return 1;
	}
	return sql_option(&opts->branches, &opts->calls, &opts->callchains, c);
}

/* -j: the SQLite writer's thread when there are two or more. */
static int sqlite_prepare(void *o, struct cli_input *in)
{
	struct rp_sqlite_opts *opts = o;

	(void)in;
	opts->nr_threads = cli_threads();
	return 0;
}

static int postgres_option(void *o, int c, const char *arg)
{
	struct rp_postgres_opts *opts = o;

	if (c == OPT_REPLACE) {
		opts->again = RP_POSTGRES_REPLACE;
		return 1;
	}
	if (c == OPT_NAME) {
		opts->file_name = arg;
		return 1;
	}
	return sql_option(&opts->branches, &opts->calls, &opts->callchains, c);
}

/* -j: the connections that load the samples of one recording.  Several
 * recordings (no input here) load at once, up to -j of them, each over
 * one connection: the connections in all stay about -j, well under
 * PostgreSQL's default max_connections. */
static int postgres_prepare(void *o, struct cli_input *in)
{
	struct rp_postgres_opts *opts = o;

	opts->nr_connections = in ? cli_threads() : 1;
	return 0;
}

static const struct cli_output_cmd sqlite_cmd = {
	.name = "sqlite",
	.help = "  an SQLite database in the schema of perf's export-to-sqlite.py\n"
		"  -o, --output DB      the database file (default perf.db); with several\n"
		"                       recordings a directory (default .) holding one\n"
		"                       database per recording, named after its path\n"
		"  -f, --force          replace DB when it exists\n"
		CLI_SQL_HELP,
	.longopts = sqlite_longopts,
	.shortopts = "f",
	.opts_size = sizeof(struct rp_sqlite_opts),
	.option = sqlite_option,
	.prepare = sqlite_prepare,
	.default_path = "perf.db",
	.each = 1,
	.each_in_dir = 1,
};

static const struct cli_output_cmd postgres_cmd = {
	.name = "postgres",
	.help = "  into an existing PostgreSQL database, in the schema of perf's\n"
		"  export-to-postgresql.py with a recordings table (docs/sql.md)\n"
		"      --dsn DSN        libpq connection string (default: libpq's defaults,\n"
		"                       PGHOST, PGDATABASE, ...)\n"
		"      --replace        replace a recording the database already holds\n"
		"                       (default: refuse it)\n"
		"      --name NAME      the recording's file_name (default FILE)\n"
		CLI_SQL_HELP,
	.longopts = postgres_longopts,
	.opts_size = sizeof(struct rp_postgres_opts),
	.option = postgres_option,
	.prepare = postgres_prepare,
	.default_path = "",
	.path_option = "dsn",
	.each = 1,
};

int cmd_sqlite(int argc, char **argv)
{
	return cli_output_main(&sqlite_cmd, argc, argv);
}

int cmd_postgres(int argc, char **argv)
{
	return cli_output_main(&postgres_cmd, argc, argv);
}
