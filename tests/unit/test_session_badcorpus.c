/* SPDX-License-Identifier: MIT */
/*
 * The hand-made bad files of tests/corpus/bad: this program makes them
 * (bad_<reason>.data, and bad_<reason>.expect holding a fragment of the
 * error line readperf prints for it) and checks that readperf fails on
 * each with its error code and that fragment.
 *
 *   test_session_badcorpus               check (ctest runs this)
 *   test_session_badcorpus --write DIR   (re)write the files into DIR
 *
 * When tests/corpus/bad holds the files, the check also makes sure they
 * are the bytes this program makes, so the two cannot drift apart.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "builder.h"

struct bad_case {
	const char *reason;
	int code;            /* the error readperf must give */
	char fragment[128];  /* a part of rp_error_format()'s line */
	struct tb_buf bytes;
};

#define NR_CASES 20

/* A small good file; *sample_off gets each sample's offset in the data. */
static void base_file(struct tb_file *f, int swap)
{
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_PERIOD);
	struct tb_sample s;

	a.size = 128; /* what perf 6.1 writes, so that perf reads these files too */
	tb_file_init(f, swap);
	tb_file_attr(f, &a, NULL, 0);
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = 42;
	s.period = 1000;
	for (int i = 0; i < 3; i++) {
		s.ip = 0x401000 + 16 * (uint64_t)i;
		s.time = 1000000 + (uint64_t)i;
		tb_sample(&f->data, &a, RP_MISC_USER, &s);
	}
	tb_feat_string(tb_file_feat(f, RP_FEAT_HOSTNAME), "badhost");
}

/* A small good pipe-mode file (header of 16 bytes, one HEADER_ATTR, three
 * samples); *a gets the attr. */
static void base_pipe(struct tb_buf *b, int swap, struct rp_attr *a)
{
	struct tb_sample s;
	size_t st;

	*a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_PERIOD);
	a->size = 128;
	tb_init(b, swap);
	tb_u64(b, 0x32454c4946524550ull); /* "PERFILE2" in the writer's order */
	tb_u64(b, 16);
	st = tb_rec_begin(b, RP_RECORD_HEADER_ATTR, 0);
	tb_attr(b, a, 128);
	tb_u64(b, 7); /* its one id */
	tb_rec_end(b, st);
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = 42;
	s.period = 1000;
	for (int i = 0; i < 3; i++) {
		s.ip = 0x401000 + 16 * (uint64_t)i;
		s.time = 1000000 + (uint64_t)i;
		tb_sample(b, a, RP_MISC_USER, &s);
	}
}

/* A record of `type` whose payload is `n` bytes of `fill`. */
static size_t junk_record(struct tb_buf *b, uint32_t type, size_t n, uint8_t fill)
{
	size_t st = tb_rec_begin(b, type, 0);

	for (size_t i = 0; i < n; i++)
		tb_u8(b, fill);
	tb_rec_end_nopad(b, st);
	return st;
}

static void make_cases(struct bad_case *c)
{
	struct tb_file f;
	size_t st;
	int i = 0;

	/* not a perf.data file */
	c[i].reason = "magic";
	c[i].code = RP_ERR_BAD_MAGIC;
	snprintf(c[i].fragment, sizeof(c[i].fragment), "not a perf.data file");
	tb_init(&c[i].bytes, 0);
	tb_str(&c[i].bytes, "#!/bin/sh\necho this is a shell script, not a perf.data file\n"
			    "exit 0\n", 8);
	i++;

	/* the first perf.data version */
	c[i].reason = "perffile_v1";
	c[i].code = RP_ERR_UNSUPPORTED;
	snprintf(c[i].fragment, sizeof(c[i].fragment), "PERFFILE");
	base_file(&f, 0);
	f.magic_v1 = 1;
	tb_file_build(&f, &c[i].bytes);
	tb_file_free(&f);
	i++;

	/* a header cut after 60 bytes */
	c[i].reason = "truncated_header";
	c[i].code = RP_ERR_TRUNCATED;
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset 0x3c");
	base_file(&f, 0);
	tb_file_build(&f, &c[i].bytes);
	c[i].bytes.len = 60;
	tb_file_free(&f);
	i++;

	/* the attr section runs past the end of the file */
	c[i].reason = "attrs_beyond_file";
	c[i].code = RP_ERR_TRUNCATED;
	base_file(&f, 0);
	tb_file_build(&f, &c[i].bytes);
	tb_put_u64(&c[i].bytes, 32, c[i].bytes.len);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx",
		 (unsigned long long)f.off_attrs);
	tb_file_free(&f);
	i++;

	/* an attr whose size is larger than its entry in the attr section */
	c[i].reason = "attr_size_beyond_stride";
	c[i].code = RP_ERR_CORRUPT;
	base_file(&f, 0);
	tb_file_build(&f, &c[i].bytes);
	tb_put_u32(&c[i].bytes, f.off_attrs + 4, 136);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx",
		 (unsigned long long)f.off_attrs);
	tb_file_free(&f);
	i++;

	/* a record of size 0 after three good samples */
	c[i].reason = "record_size_zero";
	c[i].code = RP_ERR_CORRUPT;
	base_file(&f, 0);
	st = tb_rec_begin(&f.data, RP_RECORD_MMAP2, RP_MISC_USER);
	tb_zero(&f.data, 64);
	tb_rec_end(&f.data, st);
	tb_put_u16(&f.data, st + 6, 0);
	tb_file_build(&f, &c[i].bytes);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: MMAP2 (10)",
		 (unsigned long long)(f.off_data + st));
	tb_file_free(&f);
	i++;

	/* a record running past the end of the data section */
	c[i].reason = "record_past_data";
	c[i].code = RP_ERR_CORRUPT;
	base_file(&f, 0);
	st = tb_rec_begin(&f.data, RP_RECORD_COMM, 0);
	tb_u32(&f.data, 42), tb_u32(&f.data, 42);
	tb_str(&f.data, "victim", 8);
	tb_rec_end(&f.data, st);
	tb_put_u16(&f.data, st + 6, 0x400);
	tb_zero(tb_file_feat(&f, RP_FEAT_OSRELEASE), 0x800); /* bytes after the data */
	tb_file_build(&f, &c[i].bytes);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: COMM (3)",
		 (unsigned long long)(f.off_data + st));
	tb_file_free(&f);
	i++;

	/* a sample shorter than its sample_type needs (perf 6.1 stops there) */
	c[i].reason = "short_sample";
	c[i].code = RP_ERR_CORRUPT;
	base_file(&f, 0);
	st = tb_rec_begin(&f.data, RP_RECORD_SAMPLE, RP_MISC_USER);
	tb_u64(&f.data, 0x401000);
	tb_u32(&f.data, 42), tb_u32(&f.data, 42);
	tb_rec_end(&f.data, st); /* no TIME, no PERIOD */
	tb_file_build(&f, &c[i].bytes);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: SAMPLE (9)",
		 (unsigned long long)(f.off_data + st));
	tb_file_free(&f);
	i++;

	/* a big-endian file whose FORK record claims 4 bytes */
	c[i].reason = "swapped_record_size";
	c[i].code = RP_ERR_CORRUPT;
	base_file(&f, 1);
	st = tb_rec_begin(&f.data, RP_RECORD_FORK, 0);
	tb_zero(&f.data, 24);
	tb_rec_end(&f.data, st);
	tb_put_u16(&f.data, st + 6, 4);
	tb_file_build(&f, &c[i].bytes);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: FORK (7)",
		 (unsigned long long)(f.off_data + st));
	tb_file_free(&f);
	i++;

	/* pipe mode: the last sample cut short by the end of the stream */
	for (int swap = 0; swap <= 1; swap++) {
		struct rp_attr a;
		struct tb_sample smp;

		c[i].reason = swap ? "pipe_swapped_truncated_record" : "pipe_truncated_record";
		c[i].code = RP_ERR_TRUNCATED;
		base_pipe(&c[i].bytes, swap, &a);
		memset(&smp, 0, sizeof(smp));
		smp.ip = 0x402000;
		st = tb_sample(&c[i].bytes, &a, RP_MISC_USER, &smp);
		c[i].bytes.len -= 12;
		snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: SAMPLE (9)",
			 (unsigned long long)st);
		i++;
	}

	/* pipe mode: an attr larger than its HEADER_ATTR record */
	{
		struct rp_attr a;

		c[i].reason = "pipe_attr_size";
		c[i].code = RP_ERR_CORRUPT;
		base_pipe(&c[i].bytes, 0, &a);
		tb_put_u32(&c[i].bytes, 16 + 8 + 4, 200);
		snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset 0x10: ATTR (64)");
		i++;
	}

	/* pipe mode: a HEADER_FEATURE record without its feature id */
	{
		struct rp_attr a;

		c[i].reason = "pipe_feature_short";
		c[i].code = RP_ERR_CORRUPT;
		base_pipe(&c[i].bytes, 0, &a);
		st = junk_record(&c[i].bytes, RP_RECORD_HEADER_FEATURE, 4, 0);
		snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: FEATURE (80)",
			 (unsigned long long)st);
		i++;
	}

	/* pipe mode: a HEADER_BUILD_ID record shorter than its fixed part */
	{
		struct rp_attr a;

		c[i].reason = "pipe_build_id_short";
		c[i].code = RP_ERR_CORRUPT;
		base_pipe(&c[i].bytes, 0, &a);
		st = junk_record(&c[i].bytes, RP_RECORD_HEADER_BUILD_ID, 8, 0);
		snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: BUILD_ID (67)",
			 (unsigned long long)st);
		i++;
	}

	/* a COMPRESSED record whose payload is not zstd data */
	c[i].reason = "compressed_not_zstd";
	c[i].code = RP_ERR_CORRUPT;
	base_file(&f, 0);
	st = junk_record(&f.data, RP_RECORD_COMPRESSED, 24, 0x5a);
	tb_file_build(&f, &c[i].bytes);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: COMPRESSED (81)",
		 (unsigned long long)(f.off_data + st));
	tb_file_free(&f);
	i++;

	/* a COMPRESSED2 record whose data size runs past the record */
	c[i].reason = "compressed2_size_beyond_record";
	c[i].code = RP_ERR_CORRUPT;
	base_file(&f, 0);
	st = tb_rec_begin(&f.data, RP_RECORD_COMPRESSED2, 0);
	tb_u64(&f.data, 4096);
	tb_zero(&f.data, 16);
	tb_rec_end(&f.data, st);
	tb_file_build(&f, &c[i].bytes);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: COMPRESSED2 (83)",
		 (unsigned long long)(f.off_data + st));
	tb_file_free(&f);
	i++;

	/* the data section claims more bytes than the file holds (a cut
	 * file): the records there are read, then the error */
	c[i].reason = "data_cut";
	c[i].code = RP_ERR_TRUNCATED;
	base_file(&f, 0);
	tb_file_build(&f, &c[i].bytes);
	c[i].bytes.len = f.off_data + f.data.len; /* no feature index, no features */
	tb_put_u64(&c[i].bytes, 48, f.data.len + 4096);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "the file is cut");
	tb_file_free(&f);
	i++;

	/* big-endian: an attr size near 4 GiB (it once wrapped the entry check) */
	c[i].reason = "swapped_attr_size_huge";
	c[i].code = RP_ERR_CORRUPT;
	base_file(&f, 1);
	tb_file_build(&f, &c[i].bytes);
	tb_put_u32(&c[i].bytes, f.off_attrs + 4, 0xfffffff8u);
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx",
		 (unsigned long long)f.off_attrs);
	tb_file_free(&f);
	i++;

	/* big-endian pipe mode: a record of size 4 */
	{
		struct rp_attr a;

		c[i].reason = "pipe_swapped_record_size";
		c[i].code = RP_ERR_CORRUPT;
		base_pipe(&c[i].bytes, 1, &a);
		st = junk_record(&c[i].bytes, RP_RECORD_COMM, 16, 0);
		tb_put_u16(&c[i].bytes, st + 6, 4);
		snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: COMM (3)",
			 (unsigned long long)st);
		i++;
	}

	/* the feature index points a section past the end: ignored, as perf
	 * ignores it, but the data section before it is cut inside a record */
	c[i].reason = "data_cut_inside_record";
	c[i].code = RP_ERR_TRUNCATED;
	base_file(&f, 0);
	tb_file_build(&f, &c[i].bytes);
	c[i].bytes.len = f.off_data + f.data.len - 8;
	snprintf(c[i].fragment, sizeof(c[i].fragment), "at offset %#llx: SAMPLE (9)",
		 (unsigned long long)(f.off_data + f.data.len - 40));
	tb_file_free(&f);
	i++;

	if (i != NR_CASES)
		abort();
}

static void free_cases(struct bad_case *c)
{
	for (int i = 0; i < NR_CASES; i++)
		tb_free(&c[i].bytes);
}

/*
 * Reads path as the readperf command does: open, then every record;
 * returns the first error and its formatted line.
 */
static int read_all(const char *path, char *line, unsigned size)
{
	struct rp_session *s = NULL;
	struct rp_error err;
	struct rp_event ev;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = rp_session_open(&s, path, NULL, &err);
	if (rc < 0) {
		rp_error_format(&err, line, size);
		return rc;
	}
	while ((rc = rp_test_next(s, &ev)) == 1)
		;
	rp_error_format(rp_session_error(s), line, size);
	rp_session_close(s);
	return rc;
}

/* Returns 0 when readperf fails as expected, else prints why and -1. */
static int check_case(const struct bad_case *c)
{
	char line[512];
	char *path = tb_write_tmp(&c->bytes);
	int rc = read_all(path, line, sizeof(line));

	unlink(path);
	free(path);
	/* a record past the data section may also be called truncated */
	if (rc == RP_ERR_TRUNCATED && !strcmp(c->reason, "record_past_data"))
		rc = RP_ERR_CORRUPT;
	if (rc != c->code) {
		print_error("bad_%s: rc %d (\"%s\"), expected %d (%s)\n", c->reason, rc, line,
			    c->code, rp_strerror(c->code));
		return -1;
	}
	if (!strstr(line, c->fragment)) {
		print_error("bad_%s: \"%s\" lacks \"%s\"\n", c->reason, line, c->fragment);
		return -1;
	}
	return 0;
}

/* tests/corpus/bad, found from this source file's path. */
static int corpus_dir(char *buf, size_t size)
{
	const char *me = __FILE__;
	const char *cut = strstr(me, "unit/test_session_badcorpus.c");

	if (!cut || me[0] != '/')
		return -1;
	snprintf(buf, size, "%.*scorpus/bad", (int)(cut - me), me);
	return access(buf, F_OK) == 0 ? 0 : -1;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *p;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	p = malloc((size_t)n + 1);
	if (!p || fread(p, 1, (size_t)n, fp) != (size_t)n) {
		free(p);
		fclose(fp);
		return NULL;
	}
	p[n] = 0;
	fclose(fp);
	*len = (size_t)n;
	return p;
}

static void test_generated_cases(void **state)
{
	(void)state;
	struct bad_case c[NR_CASES];

	int bad = 0;

	make_cases(c);
	for (int i = 0; i < NR_CASES; i++)
		bad += check_case(&c[i]) < 0;
	free_cases(c);
	if (bad)
		fail_msg("%d of %d bad files not refused as expected", bad, NR_CASES);
}

static void test_committed_corpus(void **state)
{
	(void)state;
	struct bad_case c[NR_CASES];
	char dir[1024], path[1200];

	if (corpus_dir(dir, sizeof(dir)) < 0)
		skip();
	make_cases(c);
	for (int i = 0; i < NR_CASES; i++) {
		size_t len;
		char *data;

		snprintf(path, sizeof(path), "%s/bad_%s.data", dir, c[i].reason);
		data = slurp(path, &len);
		if (!data)
			fail_msg("%s missing: run test_session_badcorpus --write %s", path, dir);
		if (len != c[i].bytes.len || memcmp(data, c[i].bytes.data, len))
			fail_msg("%s differs from what the generator makes", path);
		free(data);
		snprintf(path, sizeof(path), "%s/bad_%s.expect", dir, c[i].reason);
		data = slurp(path, &len);
		assert_non_null(data);
		if (len && data[len - 1] == '\n')
			data[--len] = 0;
		assert_string_equal(data, c[i].fragment);
		free(data);
	}
	free_cases(c);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write")) {
		struct bad_case c[NR_CASES];
		char path[1200];

		make_cases(c);
		for (int i = 0; i < NR_CASES; i++) {
			FILE *fp;

			snprintf(path, sizeof(path), "%s/bad_%s.data", argv[2], c[i].reason);
			tb_write_file(&c[i].bytes, path);
			snprintf(path, sizeof(path), "%s/bad_%s.expect", argv[2], c[i].reason);
			fp = fopen(path, "w");
			if (!fp || fprintf(fp, "%s\n", c[i].fragment) < 0 || fclose(fp)) {
				perror(path);
				return 1;
			}
		}
		free_cases(c);
		return 0;
	}

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_cases),
		cmocka_unit_test(test_committed_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
