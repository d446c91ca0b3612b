/* SPDX-License-Identifier: MIT */
/*
 * readperf sqlite / readperf postgres: perf's database export
 * (export-to-sqlite.py, export-to-postgresql.py) into an SQLite file or
 * a PostgreSQL database.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_BRANCHES = 256,
	OPT_CALLS,
	OPT_CALLCHAINS,
	OPT_FORCE,
	OPT_DSN,
	OPT_REPLACE,
	OPT_NAME,
	OPT_SYMFS,
	OPT_KALLSYMS,
	OPT_NO_DEMANGLE,
};

#define CLI_SQL_COMMON_HELP                                                           \
	"  -i, --input FILE     the perf.data file (default perf.data)\n"                  \
	"      --branches       perf's \"branches\": samples without the period, weight,\n"   \
	"                       transaction and data_src columns\n"                        \
	"      --calls          perf's \"calls\": the call_paths and calls tables\n"         \
	"      --callchains     perf's \"callchains\": call_paths from the samples' call\n"  \
	"                       stacks (samples.call_path_id)\n"                           \
	"      --symfs DIR, --kallsyms FILE, --no-demangle   as for report\n"              \
	CLI_INLINE_HELP                                                                    \
	CLI_FILTER_USAGE                                                                   \
	"  -j, --threads N  threads: 1 reads and processes in one, 0 (default) one per CPU\n"

static void sqlite_usage(FILE *out)
{
	fputs("usage: readperf sqlite [options] [FILE]\n"
	      "  an SQLite database in the schema of perf's export-to-sqlite.py\n"
	      "  -o, --output DB      the database file (default perf.db)\n"
	      "  -f, --force          replace DB when it exists\n"
	      CLI_SQL_COMMON_HELP,
	      out);
}

static void postgres_usage(FILE *out)
{
	fputs("usage: readperf postgres [options] [FILE]\n"
	      "  into an existing PostgreSQL database, in the schema of perf's\n"
	      "  export-to-postgresql.py with a recordings table (docs/sql.md)\n"
	      "      --dsn DSN        libpq connection string (default: libpq's defaults,\n"
	      "                       PGHOST, PGDATABASE, ...)\n"
	      "      --replace        replace a recording the database already holds\n"
	      "                       (default: refuse it)\n"
	      "      --name NAME      the recording's file_name (default FILE)\n"
	      CLI_SQL_COMMON_HELP,
	      out);
}

struct cli_sql {
	int pg;
	struct rp_sqlite_opts sq;
	struct rp_postgres_opts po;
	const char *target;
};

static int cli_sql_option(int c, struct cli_sql *o, struct cli_symbol_opts *sym)
{
	switch (c) {
	case OPT_BRANCHES:
		o->sq.branches = o->po.branches = 1;
		return 1;
	case OPT_CALLS:
		o->sq.calls = o->po.calls = 1;
		return 1;
	case OPT_CALLCHAINS:
		o->sq.callchains = o->po.callchains = 1;
		return 1;
	case OPT_SYMFS:
		sym->symfs = optarg;
		return 1;
	case OPT_KALLSYMS:
		sym->kallsyms = optarg;
		return 1;
	case OPT_NO_DEMANGLE:
		sym->no_demangle = 1;
		return 1;
	case CLI_OPT_INLINE:
	case CLI_OPT_NO_INLINE:
		sym->no_inline = c == CLI_OPT_NO_INLINE;
		return 1;
	}
	if (!o->pg) {
		switch (c) {
		case 'o':
			o->target = optarg;
			return 1;
		case 'f':
			o->sq.force = 1;
			return 1;
		}
	} else {
		switch (c) {
		case OPT_DSN:
			o->target = optarg;
			return 1;
		case OPT_REPLACE:
			o->po.again = RP_POSTGRES_REPLACE;
			return 1;
		case OPT_NAME:
			o->po.file_name = optarg;
			return 1;
		}
	}
	return 0;
}

static int cmd_sql(int argc, char **argv, int pg)
{
	static const struct option sqlite_longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "branches", no_argument, NULL, OPT_BRANCHES },
		{ "calls", no_argument, NULL, OPT_CALLS },
		{ "callchains", no_argument, NULL, OPT_CALLCHAINS },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		CLI_INLINE_LONGOPTS,
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct option postgres_longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "dsn", required_argument, NULL, OPT_DSN },
		{ "replace", no_argument, NULL, OPT_REPLACE },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "branches", no_argument, NULL, OPT_BRANCHES },
		{ "calls", no_argument, NULL, OPT_CALLS },
		{ "callchains", no_argument, NULL, OPT_CALLCHAINS },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		CLI_INLINE_LONGOPTS,
		CLI_FILTER_LONGOPTS,
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = pg ? "postgres" : "sqlite";
	void (*usage)(FILE *) = pg ? postgres_usage : sqlite_usage;
	struct cli_sql o = { .pg = pg };
	struct cli_symbol_opts sym = { 0 };
	struct cli_filter filter = { 0 };
	const char *path = NULL;
	int c;

	o.sq.sz = sizeof(o.sq);
	o.po.sz = sizeof(o.po);
	o.target = pg ? "" : "perf.db";
	optind = 1;
	while ((c = getopt_long(argc, argv, pg ? "i:j:h" CLI_FILTER_SHORTOPTS
					       : "i:o:fj:h" CLI_FILTER_SHORTOPTS,
				pg ? postgres_longopts : sqlite_longopts, NULL)) != -1) {
		if (cli_filter_option(&filter, c, optarg))
			continue;
		if (cli_sql_option(c, &o, &sym))
			continue;
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 'j':
			if (cli_parse_threads(optarg))
				return RP_EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return RP_EXIT_OK;
		default:
			usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			usage(stderr);
			return RP_EXIT_USAGE;
		}
		path = argv[optind];
	}

	struct cli_input in;
	int status = cli_input_open(&in, path, RP_ORDER_TIME, &sym);
	if (!status && (status = cli_input_filter(&in, &filter)))
		cli_input_close(&in);
	if (status)
		return status;
	struct rp_output_env env = { .sz = sizeof(env), .session = in.session,
				     .machine = in.machine, .symbols = in.symbols,
				     .filter = in.filter };
	struct rp_output_target target = { .sz = sizeof(target), .path = o.target };
	struct rp_error err = { 0 };
	struct rp_output *out;
	if (rp_output_new(&out, name, &env, pg ? (const void *)&o.po : (const void *)&o.sq,
			  &target, &err) < 0) {
		cli_error(name, &err);
		cli_input_close(&in);
		return err.code == RP_ERR_INVAL || err.code == RP_ERR_UNSUPPORTED ? RP_EXIT_USAGE
										  : RP_EXIT_BAD_INPUT;
	}
	struct rp_consumer consumer = rp_output_consumer(out);
	status = cli_input_run(&in, &consumer, 1);
	/* What was read before a bad record is kept, as in every command
	 * (the exit status still says the input was bad). */
	if (rp_output_finish(out, &err) < 0) {
		cli_error(name, &err);
		status = status ? status : RP_EXIT_BAD_INPUT;
	}
	rp_output_free(out);
	cli_input_close(&in);
	return status;
}

int cmd_sqlite(int argc, char **argv)
{
	return cmd_sql(argc, argv, 0);
}

int cmd_postgres(int argc, char **argv)
{
	return cmd_sql(argc, argv, 1);
}
