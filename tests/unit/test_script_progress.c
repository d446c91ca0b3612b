/* SPDX-License-Identifier: MIT */
/* The progress bar: silent off a terminal, one redrawn line when forced. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <readperf/progress.h>

#include "builder.h"

static void test_progress(void **state)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID);
	uint64_t id = 1;
	struct rp_session *s;
	struct rp_event ev;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id, 1);
	tb_zero(&f.data, 4096);
	s = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(s);

	/* a memory stream is no terminal: nothing at all */
	out = open_memstream(&buf, &len);
	assert_null(rp_progress_new(out, s, 0));
	struct rp_consumer c = rp_progress_consumer(NULL);
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	rp_progress_finish(NULL);
	rp_progress_free(NULL);
	fflush(out);
	assert_int_equal(len, 0);

	/* forced: redraws after 100 ms, erased at the end */
	struct rp_progress *p = rp_progress_new(out, s, RP_PROGRESS_FORCE);
	assert_non_null(p);
	c = rp_progress_consumer(p);
	struct timespec pause = { 0, 120000000 };
	nanosleep(&pause, NULL);
	ev.offset = rp_session_data_offset(s) + rp_session_data_size(s) / 2;
	for (int i = 0; i < 1024; i++)
		assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	fflush(out);
	assert_non_null(strstr(buf, "\r["));
	assert_non_null(strstr(buf, " 50%"));
	assert_non_null(strstr(buf, "1024 records"));
	rp_progress_finish(p);
	rp_progress_free(p);
	fclose(out);
	assert_non_null(strstr(buf, "\r\033[K"));
	free(buf);
	rp_session_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
