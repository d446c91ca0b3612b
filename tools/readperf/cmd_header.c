/* SPDX-License-Identifier: MIT */
/* readperf header: perf report --header-only [-I]. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static void header_usage(FILE *out)
{
	fputs("usage: readperf header [-I] [-i FILE] [FILE]\n"
	      "  the header as perf report --header-only prints it;\n"
	      "  -I (--header-only -I) adds the topology, cache and memory features\n",
	      out);
}

int cmd_header(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "header-info", no_argument, NULL, 'I' },
		{ "show-info", no_argument, NULL, 'I' },
		{ "stdio", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL;
	int full = 0, c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:Ih", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			path = optarg;
			break;
		case 'I':
			full = 1;
			break;
		case 's':
			break;
		case 'h':
			header_usage(stdout);
			return RP_EXIT_OK;
		default:
			header_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (path || optind + 1 < argc) {
			header_usage(stderr);
			return RP_EXIT_USAGE;
		}
		path = argv[optind];
	}
	if (!path)
		path = "perf.data";

	struct rp_session_opts opts = { .sz = sizeof(opts), .order = RP_ORDER_FILE };
	struct rp_session *session;
	struct rp_error err = { 0 };
	struct rp_features *features;
	struct stat st;

	if (rp_session_open(&session, path, &opts, &err) < 0) {
		cli_error(path, &err);
		return RP_EXIT_BAD_INPUT;
	}
	if (rp_features_read(&features, session, &err) < 0) {
		cli_error(path, &err);
		rp_session_close(session);
		return RP_EXIT_BAD_INPUT;
	}
	/* perf prints the modification time of the file (of DIR/data for a
	 * directory) as "captured on". */
	char data_path[4096];
	const char *stat_path = strcmp(path, "-") ? path : "/dev/stdin";
	if (rp_session_is_dir(session) &&
	    (size_t)snprintf(data_path, sizeof(data_path), "%s/data", path) < sizeof(data_path))
		stat_path = data_path;
	struct rp_header_print_opts po = {
		.sz = sizeof(po),
		.full = full,
		.mtime = stat(stat_path, &st) == 0 ? st.st_mtime : 0,
		.is_pipe = rp_session_is_pipe(session),
	};
	if (rp_session_stats(session)->cut_short)
		cli_warnf("%s: the recording was cut short (data size 0 in its header: perf record "
			  "did not finish it); its header features were never written",
			  path);
	for (unsigned feat = 1; feat <= RP_FEATURES_LAST; feat++)
		if (features->state[feat] == RP_FEAT_DAMAGED)
			cli_warnf("%s: damaged %s feature section", path, rp_feature_name(feat));
	int ret = rp_header_fprintf(stdout, session, features, &po);
	rp_features_free(features);
	rp_session_close(session);
	if (ret < 0) {
		cli_errorf("cannot write the header: %s", rp_strerror(ret));
		return RP_EXIT_USAGE;
	}
	return RP_EXIT_OK;
}
