/* SPDX-License-Identifier: MIT */
/*
 * perf's sample filters (readperf/filter.h): the --time parser and its
 * skip rule (perf's util/time-utils.c), the lists and the CPU list, the
 * entry verdicts on hand-made samples, and what a session decides (the
 * SAMPLE_TIME feature for percentages, --cpu on files without CPUs).
 * tests/diff/run_filters.sh compares the filters with perf itself.
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

#include <readperf/filter.h>
#include <readperf/process.h>

#include "builder.h"
#include "machine/dso.h"

#define S 1000000000ull

static int parse(const char *str, uint64_t first, uint64_t last, struct rp_time_range *r,
		 size_t *nr)
{
	return rp_time_ranges_parse(str, first, last, r, 16, nr);
}

static void test_time_absolute(void **state)
{
	struct rp_time_range r[16];
	size_t nr;

	(void)state;
	assert_int_equal(parse("1.5,2", 0, 0, r, &nr), 0);
	assert_int_equal(nr, 1);
	assert_true(r[0].start == 1500000000ull && r[0].end == 2 * S);
	/* Open ends. */
	assert_int_equal(parse("1.5,", 0, 0, r, &nr), 0);
	assert_true(nr == 1 && r[0].start == 1500000000ull && r[0].end == 0);
	assert_int_equal(parse(",2.000001", 0, 0, r, &nr), 0);
	assert_true(nr == 1 && r[0].start == 0 && r[0].end == 2 * S + 1000);
	/* Nine digits of fraction at most; shorter ones are padded. */
	assert_int_equal(parse("1.000000001,1.2", 0, 0, r, &nr), 0);
	assert_true(r[0].start == S + 1 && r[0].end == S + 200000000ull);
	assert_int_equal(parse("1.0000000001,2", 0, 0, r, &nr), RP_ERR_INVAL);
	/* Several ranges, separated by blanks. */
	assert_int_equal(parse("1,2 3,4  5,", 0, 0, r, &nr), 0);
	assert_int_equal(nr, 3);
	assert_true(r[0].start == S && r[0].end == 2 * S);
	assert_true(r[1].start == 3 * S && r[1].end == 4 * S);
	assert_true(r[2].start == 5 * S && r[2].end == 0);
	/* No comma, end before start, overlapping ranges, junk. */
	assert_int_equal(parse("1.5", 0, 0, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("2,1", 0, 0, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("1,2 2,3", 0, 0, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("1,2,3", 0, 0, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("a,b", 0, 0, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("1s,2", 0, 0, r, &nr), RP_ERR_INVAL);
	/* More ranges than room. */
	assert_int_equal(rp_time_ranges_parse("1,2 3,4", 0, 0, r, 1, &nr), RP_ERR_LIMIT);
}

static void test_time_percent(void **state)
{
	struct rp_time_range r[16];
	size_t nr;
	const uint64_t first = 1000, last = 2000;

	(void)state;
	/* The second 10 % slice: its end is one ns short, as in perf. */
	assert_int_equal(parse("10%/2", first, last, r, &nr), 0);
	assert_true(nr == 1 && r[0].start == 1100 && r[0].end == 1199);
	assert_int_equal(parse("0%-10%", first, last, r, &nr), 0);
	assert_true(nr == 1 && r[0].start == 1000 && r[0].end == 1099);
	assert_int_equal(parse("10%-20%,30%-40%", first, last, r, &nr), 0);
	assert_true(nr == 2 && r[0].start == 1100 && r[0].end == 1199 && r[1].start == 1300 &&
		    r[1].end == 1399);
	assert_int_equal(parse("10%/1,10%/3", first, last, r, &nr), 0);
	assert_true(nr == 2 && r[0].start == 1000 && r[0].end == 1099 && r[1].start == 1200);
	/* "P%" is the first slice; a slice ending at the last sample keeps it. */
	assert_int_equal(parse("50%", first, last, r, &nr), 0);
	assert_true(nr == 1 && r[0].start == 1000 && r[0].end == 1499);
	assert_int_equal(parse("50%/2", first, last, r, &nr), 0);
	assert_true(r[0].start == 1500 && r[0].end == 2000);
	/* Rounding to the nearest ns. */
	assert_int_equal(parse("33.35%/1", 0, 10, r, &nr), 0);
	assert_true(r[0].start == 0 && r[0].end == 2);
	/* Beyond 100 %, slice 0, zero percent, mixed forms, '%' inside. */
	assert_int_equal(parse("10%/11", first, last, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("10%/0", first, last, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("0%/1", first, last, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("10%/1,0%-10%", first, last, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("10%,20%", first, last, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("0%-110%", first, last, r, &nr), RP_ERR_INVAL);
	assert_int_equal(parse("0%-10%,30%", first, last, r, &nr), RP_ERR_INVAL);
	/* No first and last sample time: percentages cannot be placed. */
	assert_int_equal(parse("10%/2", 0, 0, r, &nr), RP_ERR_INVAL);
}

static void test_time_skip(void **state)
{
	struct rp_time_range one[1] = { { 100, 200 } };
	struct rp_time_range open[1] = { { 100, 0 } };
	struct rp_time_range two[2] = { { 100, 200 }, { 300, 0 } };

	(void)state;
	assert_int_equal(rp_time_ranges_skip(one, 1, 99), 1);
	assert_int_equal(rp_time_ranges_skip(one, 1, 100), 0);
	assert_int_equal(rp_time_ranges_skip(one, 1, 200), 0);
	assert_int_equal(rp_time_ranges_skip(one, 1, 201), 1);
	assert_int_equal(rp_time_ranges_skip(one, 1, 0), 0); /* no time: kept */
	assert_int_equal(rp_time_ranges_skip(open, 1, 1u << 30), 0);
	assert_int_equal(rp_time_ranges_skip(two, 2, 250), 1);
	assert_int_equal(rp_time_ranges_skip(two, 2, 150), 0);
	assert_int_equal(rp_time_ranges_skip(two, 2, 1u << 30), 0);
	assert_int_equal(rp_time_ranges_skip(NULL, 0, 5), 0);
}

static struct rp_event sample(uint32_t cpu, uint64_t time)
{
	struct rp_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_SAMPLE;
	ev.u.sample.sample_type = RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_CPU;
	ev.u.sample.cpu = cpu;
	ev.u.sample.time = time;
	return ev;
}

static void test_lists(void **state)
{
	struct rp_filter *f = NULL;
	struct rp_error err = { 0 };
	struct rp_filter_opts o = { .sz = sizeof(o) };

	(void)state;
	/* Nothing set: no filter. */
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), 0);
	assert_null(f);
	/* An entry given twice is an error, as in perf. */
	o.comms = "a,b,a";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), RP_ERR_INVAL);
	assert_null(f);
	o.comms = "a";
	o.pids = "1,2,1";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), RP_ERR_INVAL);
	o.pids = NULL;
	/* An empty entry after the last comma does not count; a hexadecimal
	 * entry is an address ("cafe" too, as in perf), so the symbol list
	 * has one name. */
	o.comms = "a,b";
	o.dsos = "libc.so.6,";
	o.symbols = "fib,0x400,cafe";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), 0);
	assert_non_null(f);
	assert_null(rp_filter_single(f, RP_FILTER_COMMS));
	assert_string_equal(rp_filter_single(f, RP_FILTER_DSOS), "libc.so.6");
	assert_string_equal(rp_filter_single(f, RP_FILTER_SYMBOLS), "fib");
	assert_null(rp_filter_time_str(f));
	rp_filter_free(f);
	/* One before the first comma does. */
	o.dsos = ",libc.so.6";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), 0);
	assert_null(rp_filter_single(f, RP_FILTER_DSOS));
	rp_filter_free(f);

	/* file://PATH: the file's lines (the last character of each cut). */
	char path[] = "/tmp/rp-test-filter.XXXXXX";
	int fd = mkstemp(path);
	char spec[64];

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "wl-fork\n", 8), 8);
	close(fd);
	snprintf(spec, sizeof(spec), "file://%s", path);
	o.dsos = NULL;
	o.symbols = NULL;
	o.comms = spec;
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), 0);
	assert_string_equal(rp_filter_single(f, RP_FILTER_COMMS), "wl-fork");
	rp_filter_free(f);
	/* With a name that is in the file too: given twice. */
	snprintf(spec, sizeof(spec), "wl-fork,file://%s", path);
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), RP_ERR_INVAL);
	unlink(path);
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), RP_ERR_IO);
	o.comms = NULL;

	/* Bad lists. */
	memset(&o, 0, sizeof(o));
	o.sz = sizeof(o);
	o.pids = "1,x";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), RP_ERR_INVAL);
	assert_null(f);
	o.pids = NULL;
	o.cpus = "2-1";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), RP_ERR_INVAL);
	o.cpus = "a";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), RP_ERR_INVAL);
	o.cpus = "0-2,5";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), 0);

	struct rp_event ev = sample(1, 10);

	assert_int_equal(rp_filter_drops(f, &ev), 0);
	ev = sample(3, 10);
	assert_int_equal(rp_filter_drops(f, &ev), 1);
	ev = sample(5, 10);
	assert_int_equal(rp_filter_drops(f, &ev), 0);
	ev.type = RP_RECORD_COMM; /* only samples are dropped */
	ev.u.sample.cpu = 3;
	assert_int_equal(rp_filter_drops(f, &ev), 0);
	rp_filter_free(f);

	/* A caller's struct with fields this library does not know. */
	struct {
		struct rp_filter_opts o;
		uint64_t more;
	} big = { { .sz = sizeof(big), .comms = "a" }, 1 };
	assert_int_equal(rp_filter_new(&f, NULL, &big.o, &err), RP_ERR_INVAL);
}

static void test_entry(void **state)
{
	struct rp_machine *m = NULL;
	struct rp_filter *f = NULL;
	struct rp_error err = { 0 };
	struct rp_filter_opts o = { .sz = sizeof(o) };
	struct rp_dso libc = { 0 }, kernel = { 0 };
	struct rp_symbol fib = { .start = 0x1000, .end = 0x1100, .name = "fib", .binding = 1 };
	struct rp_symbol other = { .start = 0x1100, .end = 0x1200, .name = "other", .binding = 1 };
	struct rp_resolved res;

	(void)state;
	libc.long_name = "/usr/lib/libc.so.6";
	libc.short_name = "libc.so.6";
	kernel.long_name = "[kernel.kallsyms]";
	kernel.short_name = "[kernel.kallsyms]";
	assert_int_equal(rp_machine_new(&m, NULL), 0);

	o.comms = "wl-fork";
	o.pids = "10,11";
	o.dsos = "/usr/lib/libc.so.6,[kernel.kallsyms]";
	o.symbols = "fib,0x7f00";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), 0);

	memset(&res, 0, sizeof(res));
	res.thread = rp_machine_findnew_thread(m, 10, 12);
	res.comm = "wl-fork";
	res.al.map = (const struct rp_map *)&libc; /* only its presence counts */
	res.al.dso = &libc;
	res.al.sym = &fib;
	res.al.ip = 0x401000;
	assert_int_equal(rp_filter_entry(f, &res), 0);
	/* Asked twice: the cached verdicts hold. */
	assert_int_equal(rp_filter_entry(f, &res), 0);

	res.comm = "workload";
	assert_int_equal(rp_filter_entry(f, &res), RP_FILTERED_THREAD);
	res.comm = "wl-fork";
	res.thread = rp_machine_findnew_thread(m, 20, 20);
	assert_int_equal(rp_filter_entry(f, &res), RP_FILTERED_THREAD);
	/* perf reads an empty pid as 0. */
	rp_filter_free(f);
	o.pids = "10,11,";
	assert_int_equal(rp_filter_new(&f, NULL, &o, &err), 0);
	res.thread = rp_machine_findnew_thread(m, 0, 0);
	assert_int_equal(rp_filter_entry(f, &res), 0);
	res.thread = rp_machine_findnew_thread(m, 11, 11);
	res.al.dso = &kernel;
	assert_int_equal(rp_filter_entry(f, &res), 0);
	res.al.dso = NULL;
	assert_int_equal(rp_filter_entry(f, &res), RP_FILTERED_DSO);
	res.al.dso = &libc;
	res.al.sym = &other;
	assert_int_equal(rp_filter_entry(f, &res), RP_FILTERED_SYMBOL);
	/* An address entry matches the sampled address. */
	res.al.ip = 0x7f00;
	assert_int_equal(rp_filter_entry(f, &res), 0);
	res.al.sym = NULL;
	res.al.dso = NULL;
	res.al.map = NULL;
	res.comm = "x";
	assert_int_equal(rp_filter_entry(f, &res),
			 RP_FILTERED_THREAD | RP_FILTERED_DSO | RP_FILTERED_SYMBOL);
	assert_int_equal(rp_filter_entry(NULL, &res), 0);
	rp_filter_free(f);
	rp_machine_free(m);
}

/* A file of one event with sample_type st and, when first or last is
 * not 0, the SAMPLE_TIME feature. */
static struct rp_session *file(uint64_t st, uint64_t first, uint64_t last)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(st);
	uint64_t id = 1;
	struct rp_session *s;

	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id, 1);
	if (first || last) {
		struct tb_buf *b = tb_file_feat(&f, RP_FEAT_SAMPLE_TIME);

		tb_u64(b, first);
		tb_u64(b, last);
	}
	s = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(s);
	return s;
}

static void test_session(void **state)
{
	struct rp_filter *f = NULL;
	struct rp_error err = { 0 };
	struct rp_filter_opts o = { .sz = sizeof(o) };
	struct rp_session *s;
	struct rp_event ev;

	(void)state;
	/* Percentages need SAMPLE_TIME. */
	s = file(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME, 0, 0);
	o.time = "10%/2";
	assert_int_equal(rp_filter_new(&f, s, &o, &err), RP_ERR_INVAL);
	assert_non_null(strstr(err.msg, "SAMPLE_TIME"));
	/* --cpu on a file whose samples carry no CPU: refused, as in perf. */
	o.time = NULL;
	o.cpus = "0";
	assert_int_equal(rp_filter_new(&f, s, &o, &err), RP_ERR_INVAL);
	rp_session_close(s);

	s = file(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_CPU, 10 * S, 20 * S);
	o.cpus = NULL;
	o.time = "10%/2";
	assert_int_equal(rp_filter_new(&f, s, &o, &err), 0);
	assert_string_equal(rp_filter_time_str(f), "10%/2");
	ev = sample(0, 11 * S);
	assert_int_equal(rp_filter_drops(f, &ev), 0);
	ev = sample(0, 12 * S);
	assert_int_equal(rp_filter_drops(f, &ev), 1);
	ev = sample(0, 11 * S - 1);
	assert_int_equal(rp_filter_drops(f, &ev), 1);
	ev = sample(0, 0); /* no time: kept */
	assert_int_equal(rp_filter_drops(f, &ev), 0);
	ev.u.sample.sample_type &= ~RP_SAMPLE_TIME;
	ev.u.sample.time = 5;
	assert_int_equal(rp_filter_drops(f, &ev), 0);
	rp_filter_free(f);
	rp_session_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_absolute),
		cmocka_unit_test(test_time_percent),
		cmocka_unit_test(test_time_skip),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_session),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
