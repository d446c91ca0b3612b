/* SPDX-License-Identifier: MIT */
/*
 * Pipe mode, both byte orders, from a file and from a real pipe on
 * standard input: HEADER_ATTR makes the evsels (one more after the first
 * sample), HEADER_FEATURE fills the header (one of them with a size that
 * is not a multiple of 8, as old writers made them), EVENT_UPDATE names an
 * event, HEADER_TRACING_DATA's payload is stepped over and kept as the
 * TRACING_DATA feature, HEADER_BUILD_ID reaches the build-id list, and a
 * few stray bytes at the end are ignored as perf ignores them.
 *
 * Format: perf's util/header.c (perf_event__process_attr, _feature,
 * _event_update, _tracing_data, _build_id), util/event.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "builder.h"

#define MAGIC 0x32454c4946524550ull

static void pipe_attr(struct tb_buf *b, const struct rp_attr *a, uint64_t id)
{
	size_t r = tb_rec_begin(b, RP_RECORD_HEADER_ATTR, 0);

	tb_attr(b, a, a->size);
	tb_u64(b, id);
	tb_rec_end(b, r);
}

static void pipe_sample(struct tb_buf *b, const struct rp_attr *a, uint64_t id, uint64_t t,
			uint64_t ip)
{
	struct tb_sample s;

	memset(&s, 0, sizeof(s));
	s.ip = ip;
	s.pid = s.tid = 42;
	s.time = t;
	s.id = id;
	s.period = 1000;
	tb_sample(b, a, 0, &s);
}

/* The stream of the test in the given byte order. */
static void build_stream(struct tb_buf *b, int swap)
{
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_ID | RP_SAMPLE_PERIOD);
	struct rp_attr a2 = a;
	size_t r;

	a.size = 128;
	a2.size = 128;
	a2.config = 2; /* page-faults */
	tb_init(b, swap);
	tb_u64(b, MAGIC);
	tb_u64(b, 16);
	pipe_attr(b, &a, 7);

	/* HOSTNAME, padded as perf writes it. */
	r = tb_rec_begin(b, RP_RECORD_HEADER_FEATURE, 0);
	tb_u64(b, RP_FEAT_HOSTNAME);
	tb_feat_string(b, "pipehost");
	tb_rec_end(b, r);
	/* NRCPUS, then OSRELEASE with a size that is not a multiple of 8. */
	r = tb_rec_begin(b, RP_RECORD_HEADER_FEATURE, 0);
	tb_u64(b, RP_FEAT_NRCPUS);
	tb_u32(b, 4);
	tb_u32(b, 2);
	tb_rec_end(b, r);
	r = tb_rec_begin(b, RP_RECORD_HEADER_FEATURE, 0);
	tb_u64(b, RP_FEAT_OSRELEASE);
	tb_u32(b, 6);
	tb_bytes(b, "6.1.0", 6);
	tb_rec_end_nopad(b, r);

	/* EVENT_UPDATE: the name. */
	r = tb_rec_begin(b, RP_RECORD_EVENT_UPDATE, 0);
	tb_u64(b, 2);
	tb_u64(b, 7);
	tb_str(b, "my-clock", 8);
	tb_rec_end(b, r);

	/* TRACING_DATA: a 12-byte record, then its 16 bytes of payload. */
	r = tb_rec_begin(b, RP_RECORD_HEADER_TRACING_DATA, 0);
	tb_u32(b, 16);
	tb_rec_end_nopad(b, r);
	tb_bytes(b, "\027\bTRACING0.6\0\0\0\0\0", 16);

	r = tb_rec_begin(b, RP_RECORD_HEADER_BUILD_ID, RP_MISC_USER);
	tb_u32(b, 42);
	tb_bytes(b, "0123456789abcdefghij\0\0\0\0", 24);
	tb_str(b, "/bin/true", 8);
	tb_rec_end(b, r);

	pipe_sample(b, &a, 7, 100, 0x1000);
	/* An attr added after the data started. */
	pipe_attr(b, &a2, 9);
	pipe_sample(b, &a2, 9, 200, 0x2000);
	tb_bytes(b, "xyz", 3);
}

static void check_session(struct rp_session *s, int swap)
{
	const struct rp_header_info *h = rp_session_header(s);
	struct rp_event ev;
	size_t nsamples = 0, size = 0;
	int rc;

	assert_true(rp_session_is_pipe(s));
	assert_int_equal(rp_session_needs_swap(s), swap);
	assert_int_equal(rp_session_nr_evsels(s), 1);
	assert_string_equal(rp_evsel_name(rp_session_evsel(s, 0)), "my-clock");
	assert_non_null(h->hostname);
	assert_string_equal(h->hostname, "pipehost");
	assert_string_equal(h->osrelease, "6.1.0");
	assert_int_equal(h->nr_cpus_available, 4);
	assert_int_equal(h->nr_cpus_online, 2);
	assert_true(rp_session_has_feature(s, RP_FEAT_HOSTNAME));
	assert_non_null(rp_session_feature_data(s, RP_FEAT_TRACING_DATA, &size));
	assert_int_equal(size, 16);
	while ((rc = rp_test_next(s, &ev)) == 1) {
		if (ev.type != RP_RECORD_SAMPLE)
			continue;
		assert_non_null(ev.evsel);
		assert_int_equal(ev.u.sample.ip, nsamples ? 0x2000 : 0x1000);
		assert_int_equal(rp_evsel_idx(ev.evsel), (int)nsamples);
		nsamples++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(nsamples, 2);
	assert_int_equal(rp_session_nr_evsels(s), 2);
	assert_string_equal(rp_evsel_name(rp_session_evsel(s, 1)), "page-faults");
	h = rp_session_header(s);
	assert_int_equal(h->nr_build_ids, 1);
	assert_string_equal(h->build_ids[0].filename, "/bin/true");
	assert_int_equal(h->build_ids[0].pid, 42);
	assert_int_equal(rp_session_nr_records(s, RP_RECORD_HEADER_FEATURE), 3);
}

static void test_pipe_file(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_buf b;
		char *path;
		struct rp_session *s;

		build_stream(&b, swap);
		path = tb_write_tmp(&b);
		s = tb_open(path, RP_ORDER_TIME, 0);
		check_session(s, swap);
		rp_session_close(s);
		unlink(path);
		free(path);
		tb_free(&b);
	}
}

/* The same stream through a real pipe on standard input ("-"), written
 * in small pieces so that records straddle the reader's reads. */
static void test_pipe_stdin(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_buf b;
		int fds[2], saved = dup(0);
		pid_t pid;
		struct rp_session *s;
		struct rp_session_opts o = { .sz = sizeof(o), .order = RP_ORDER_TIME };
		struct rp_error err;

		build_stream(&b, swap);
		assert_int_equal(pipe(fds), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			for (size_t i = 0; i < b.len; i += 5) {
				size_t n = b.len - i < 5 ? b.len - i : 5;

				if (write(fds[1], b.data + i, n) != (ssize_t)n)
					_exit(1);
			}
			_exit(0);
		}
		close(fds[1]);
		dup2(fds[0], 0);
		close(fds[0]);
		assert_int_equal(rp_session_open(&s, "-", &o, &err), 0);
		dup2(saved, 0);
		close(saved);
		check_session(s, swap);
		rp_session_close(s);
		waitpid(pid, NULL, 0);
		tb_free(&b);
	}
}

/* A file-mode file cannot come through a pipe: a clear error. */
static void test_pipe_file_mode_refused(void **state)
{
	struct tb_buf b;
	int fds[2], saved = dup(0);
	struct rp_session *s;
	struct rp_error err;

	(void)state;
	tb_init(&b, 0);
	tb_u64(&b, MAGIC);
	tb_u64(&b, 104);
	tb_zero(&b, 88);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], b.data, b.len), (ssize_t)b.len);
	close(fds[1]);
	dup2(fds[0], 0);
	close(fds[0]);
	assert_int_equal(rp_session_open(&s, "-", NULL, &err), RP_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "pipe"));
	dup2(saved, 0);
	close(saved);
	tb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_file),
		cmocka_unit_test(test_pipe_stdin),
		cmocka_unit_test(test_pipe_file_mode_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
