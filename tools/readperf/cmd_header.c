/* SPDX-License-Identifier: MIT */
/* readperf header: perf report --header-only [-I]. */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define HEADER_PIPE_SIZE 16 /* perf_pipe_file_header: magic, size */

static void header_usage(FILE *out)
{
	fputs("usage: readperf header [-I] [-i FILE] [FILE]\n"
	      "  the header as perf report --header-only prints it;\n"
	      "  -I (--header-only -I) adds the topology, cache and memory features\n",
	      out);
}

/* Whether the input is a pipe-mode stream (a 16-byte header). */
static int header_is_pipe(const char *path)
{
	unsigned char buf[HEADER_PIPE_SIZE];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != (ssize_t)sizeof(buf) || (memcmp(buf, "PERFILE2", 8) && memcmp(buf, "2ELIFREP", 8)))
		return 0;
	return (buf[8] == HEADER_PIPE_SIZE && !buf[15]) || (buf[15] == HEADER_PIPE_SIZE && !buf[8]);
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
	/* perf prints the file's modification time as "captured on". */
	struct rp_header_print_opts po = {
		.sz = sizeof(po),
		.full = full,
		.mtime = stat(strcmp(path, "-") ? path : "/dev/stdin", &st) == 0 ? st.st_mtime : 0,
		.is_pipe = strcmp(path, "-") ? header_is_pipe(path) : 1,
	};
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
