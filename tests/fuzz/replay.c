/* SPDX-License-Identifier: MIT */
/*
 * The fuzz regression driver: replays inputs through the fuzz targets
 * without libFuzzer (any compiler; the test suite runs it in the normal
 * and the sanitizer build).
 *
 *   rp-fuzz-replay [-t TARGET] PATH...
 *
 * Every file under each PATH (directories are walked, recursively) goes
 * through every target (or only TARGET).  A crash, a sanitizer report or
 * a leak ends the process with that tool's status; a normal end prints
 * how many files and runs were done and exits 0.  Before each run the
 * file's name is printed on stderr when RP_FUZZ_VERBOSE is set, so that a
 * crash names its input.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "targets.h"

static const char *only;
static unsigned long nr_files, nr_runs, nr_dups;
static int verbose;

/* FNV-1a hashes of the inputs replayed: a seed copied into several
 * targets' corpora runs once. */
static uint64_t *seen;
static size_t nr_seen, seen_alloc;

static int seen_before(const uint8_t *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	h ^= n;
	for (size_t i = 0; i < nr_seen; i++)
		if (seen[i] == h)
			return 1;
	if (nr_seen == seen_alloc) {
		size_t na = seen_alloc ? seen_alloc * 2 : 256;
		uint64_t *g = realloc(seen, na * sizeof(*g));

		if (!g)
			abort();
		seen = g;
		seen_alloc = na;
	}
	seen[nr_seen++] = h;
	return 0;
}

static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (!fp) {
		perror(path);
		return -1;
	}
	buf = malloc(RP_FUZZ_MAX_INPUT);
	if (!buf) {
		fclose(fp);
		return -1;
	}
	n = fread(buf, 1, RP_FUZZ_MAX_INPUT, fp);
	fclose(fp);
	if (seen_before(buf, n)) {
		nr_dups++;
		free(buf);
		return 0;
	}
	nr_files++;
	for (const struct rp_fuzz_target *t = rp_fuzz_targets; t->name; t++) {
		if (only && strcmp(only, t->name))
			continue;
		if (verbose)
			fprintf(stderr, "replay: %s %s\n", t->name, path);
		t->run(buf, n);
		nr_runs++;
	}
	free(buf);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return S_ISREG(st.st_mode) ? replay_file(path) : 0;

	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	if (!d) {
		perror(path);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (nr == alloc) {
			size_t na = alloc ? alloc * 2 : 64;
			char **g = realloc(names, na * sizeof(*g));

			if (!g)
				abort();
			names = g;
			alloc = na;
		}
		size_t len = strlen(path) + strlen(de->d_name) + 2;
		names[nr] = malloc(len);
		if (!names[nr])
			abort();
		snprintf(names[nr++], len, "%s/%s", path, de->d_name);
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), cmp_names);
	for (size_t i = 0; i < nr; i++) {
		if (replay_path(names[i]) < 0)
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	int i = 1, bad = 0;

	verbose = getenv("RP_FUZZ_VERBOSE") != NULL;
	if (argc > 2 && !strcmp(argv[1], "-t")) {
		only = argv[2];
		if (!rp_fuzz_find(only)) {
			fprintf(stderr, "rp-fuzz-replay: no target %s\n", only);
			return 1;
		}
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: rp-fuzz-replay [-t TARGET] PATH...\n");
		return 1;
	}
	for (; i < argc; i++)
		if (replay_path(argv[i]) < 0)
			bad = 1;
	printf("rp-fuzz-replay: %lu files (%lu duplicates skipped), %lu runs\n", nr_files, nr_dups,
	       nr_runs);
	free(seen);
	return bad;
}
