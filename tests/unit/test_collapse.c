/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks (readperf/collapse.h) on hand-built samples: the rules of
 * perf's stackcollapse script (docs/collapse.md); tests/outputs/
 * run_collapse.sh compares with the script itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/collapse.h>

#include "builder.h"
#include "machine/dso.h"

struct fixture {
	struct rp_session *session;
	struct rp_machine *machine;
	struct rp_dso dso_w, dso_kernel, dso_jit;
	struct rp_symbol main_, fa, semi, java, clear_page, jitted;
};

static struct fixture fx;

static int setup(void **state)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_PERIOD |
					   RP_SAMPLE_CALLCHAIN);
	uint64_t id0 = 1;

	(void)state;
	memset(&fx, 0, sizeof(fx));
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id0, 1);
	fx.session = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(fx.session);
	assert_int_equal(rp_machine_new(&fx.machine, NULL), 0);
	fx.dso_w.long_name = "/tmp/w";
	fx.dso_w.short_name = "w";
	fx.dso_kernel.long_name = "[kernel.kallsyms]";
	fx.dso_kernel.short_name = "[kernel.kallsyms]";
	fx.dso_kernel.kind = RP_DSO_KERNEL;
	fx.dso_jit.long_name = "/tmp/perf-10.map";
	fx.dso_jit.short_name = "perf-10.map";
	fx.main_ = (struct rp_symbol){ 0x1000, 0x1100, "main", 1, 0, 2 };
	fx.fa = (struct rp_symbol){ 0x1100, 0x1200, "fa", 1, 0, 2 };
	fx.semi = (struct rp_symbol){ 0x1200, 0x1300, "ns;f", 1, 0, 2 };
	fx.java = (struct rp_symbol){ 0x1300, 0x1400,
				      "Lorg/x/Box;.<init>(Ljava/lang/Object;)V", 1, 0, 2 };
	fx.clear_page = (struct rp_symbol){ 0xffffffff81000000ull, 0xffffffff81000100ull,
					    "clear_page", 1, 0, 2 };
	fx.jitted = (struct rp_symbol){ 0x2000, 0x2100, "LJit;.run", 1, 0, 2 };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rp_machine_free(fx.machine);
	rp_session_close(fx.session);
	return 0;
}

static struct rp_frame frame(struct rp_dso *dso, const struct rp_symbol *sym, uint64_t ip)
{
	static const struct rp_map *fake_map = (const struct rp_map *)&fx;
	struct rp_frame f;

	memset(&f, 0, sizeof(f));
	f.al.map = dso ? fake_map : NULL;
	f.al.dso = dso;
	f.al.sym = sym;
	f.al.ip = ip;
	f.al.addr = ip;
	f.al.level = dso == &fx.dso_kernel ? 'k' : '.';
	return f;
}

static void feed(struct rp_consumer c, uint32_t pid, uint32_t tid, const char *comm,
		 const struct rp_frame *frames, size_t nr, unsigned times)
{
	struct rp_event ev;
	struct rp_resolved res;

	for (unsigned i = 0; i < times; i++) {
		memset(&ev, 0, sizeof(ev));
		memset(&res, 0, sizeof(res));
		ev.type = RP_RECORD_SAMPLE;
		ev.evsel = rp_session_evsel(fx.session, 0);
		ev.u.sample.sample_type = RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_CALLCHAIN;
		ev.u.sample.pid = pid;
		ev.u.sample.tid = tid;
		ev.u.sample.period = 1000;
		res.thread = rp_machine_findnew_thread(fx.machine, pid, tid);
		res.comm = comm;
		if (nr)
			res.al = frames[0].al;
		res.nr_callchain = nr;
		res.callchain = nr ? frames : NULL;
		assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	}
}

static void feed_set(struct rp_consumer c)
{
	struct rp_frame a[3] = { frame(&fx.dso_kernel, &fx.clear_page, 0xffffffff81000010ull),
				 frame(&fx.dso_w, &fx.fa, 0x1110), frame(&fx.dso_w, &fx.main_, 0x1010) };
	struct rp_frame b[3] = { frame(&fx.dso_w, &fx.semi, 0x1210), frame(NULL, NULL, 0x7f00),
				 frame(&fx.dso_w, &fx.main_, 0x1010) };
	struct rp_frame j[2] = { frame(&fx.dso_w, &fx.java, 0x1310),
				 frame(&fx.dso_jit, &fx.jitted, 0x2010) };

	feed(c, 10, 11, "my prog", a, 3, 2);
	feed(c, 10, 10, "my prog", b, 3, 1);
	feed(c, 20, 20, "java", j, 2, 1);
	feed(c, 30, 30, "flat", NULL, 0, 3);
}

static void check(const struct rp_collapse_opts *o, const char *want)
{
	struct rp_collapse *col;
	char *buf = NULL;
	size_t len = 0;

	assert_int_equal(rp_collapse_new(&col, o), 0);
	assert_true(rp_collapse_consumer(col).flags & RP_CONSUMER_CALLCHAIN);
	feed_set(rp_collapse_consumer(col));
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(rp_collapse_write(col, out), 0);
	fclose(out);
	if (strcmp(buf, want))
		fprintf(stderr, "--- want\n%s--- got\n%s---\n", want, buf);
	assert_string_equal(buf, want);
	assert_int_equal(rp_collapse_total(col), 7);
	free(buf);
	rp_collapse_free(col);
}

/* comm with '_' for ' ', outermost first, ';' in names as ':', [unknown]. */
static void test_default(void **state)
{
	(void)state;
	check(NULL, "flat 3\n"
		    "java;LJit:.run;Lorg/x/Box:.<init>(Ljava/lang/Object:)V 1\n"
		    "my_prog;main;[unknown];ns:f 1\n"
		    "my_prog;main;fa;clear_page 2\n");
}

static void test_kernel_jit(void **state)
{
	struct rp_collapse_opts o = { .sz = sizeof(o), .annotate_kernel = 1, .annotate_jit = 1 };

	(void)state;
	check(&o, "flat 3\n"
		  "java;LJit:.run_[j];Lorg/x/Box:.<init>(Ljava/lang/Object:)V 1\n"
		  "my_prog;main;[unknown];ns:f 1\n"
		  "my_prog;main;fa;clear_page_[k] 2\n");
}

static void test_pid_tid(void **state)
{
	struct rp_collapse_opts o = { .sz = sizeof(o), .include_pid = 1, .include_tid = 1 };
	struct rp_collapse_opts t = { .sz = sizeof(t), .include_tid = 1 };

	(void)state;
	check(&o, "flat-30/30 3\n"
		  "java-20/20;LJit:.run;Lorg/x/Box:.<init>(Ljava/lang/Object:)V 1\n"
		  "my_prog-10/10;main;[unknown];ns:f 1\n"
		  "my_prog-10/11;main;fa;clear_page 2\n");
	check(&t, "flat-30 3\n"
		  "java-20;LJit:.run;Lorg/x/Box:.<init>(Ljava/lang/Object:)V 1\n"
		  "my_prog-10;main;[unknown];ns:f 1\n"
		  "my_prog-11;main;fa;clear_page 2\n");
}

/* --no-comm: a sample without a callchain has an empty stack. */
static void test_no_comm_tidy_java(void **state)
{
	struct rp_collapse_opts o = { .sz = sizeof(o), .no_comm = 1, .tidy_java = 1 };
	struct rp_collapse *col;
	struct rp_collapse_opts bad = { .sz = sizeof(bad), .no_comm = 1, .include_tid = 1 };

	(void)state;
	check(&o, " 3\n"
		  "Jit:.run;org/x/Box:.init 1\n"
		  "main;[unknown];ns:f 1\n"
		  "main;fa;clear_page 2\n");
	assert_int_equal(rp_collapse_new(&col, &bad), RP_ERR_INVAL);
}

/* Two aggregations merged: equal stacks summed, new ones added, sorted;
 * outputs of different options refuse. */
static void test_merge(void **state)
{
	struct rp_collapse_opts pid = { .sz = sizeof(pid), .include_pid = 1 };
	struct rp_collapse *a, *b, *c;
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(rp_collapse_new(&a, NULL), 0);
	assert_int_equal(rp_collapse_new(&b, NULL), 0);
	assert_int_equal(rp_collapse_new(&c, &pid), 0);
	feed_set(rp_collapse_consumer(a));
	feed_set(rp_collapse_consumer(b));
	/* into sorted, then more: the slots noted for the stacks stay right */
	const char *const *stacks;
	const uint64_t *counts;
	assert_int_equal(rp_collapse_stacks(a, &stacks, &counts), 4);
	assert_int_equal(rp_collapse_merge(a, b), 0);
	assert_int_equal(rp_collapse_merge(a, a), RP_ERR_INVAL);
	assert_int_equal(rp_collapse_merge(a, c), RP_ERR_INVAL);
	rp_collapse_free(b);
	assert_int_equal(rp_collapse_total(a), 14);
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(rp_collapse_write(a, out), 0);
	fclose(out);
	assert_string_equal(buf, "flat 6\n"
				 "java;LJit:.run;Lorg/x/Box:.<init>(Ljava/lang/Object:)V 2\n"
				 "my_prog;main;[unknown];ns:f 2\n"
				 "my_prog;main;fa;clear_page 4\n");
	free(buf);
	rp_collapse_free(a);
	rp_collapse_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_kernel_jit),
		cmocka_unit_test(test_pid_tid),
		cmocka_unit_test(test_no_comm_tidy_java),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
