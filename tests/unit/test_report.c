/* SPDX-License-Identifier: MIT */
/*
 * The function overview (perf report --stdio --no-children -g none):
 * hand-built samples and resolutions, exact text as perf 6.1 prints it.
 * The expected texts follow the rules of docs/report.md, each checked
 * against perf on recorded files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/report.h>

#include "builder.h"
#include "report_check.h"
#include "machine/dso.h"

/* perf report -F overhead,sample,period,KEYS: the keys come from --sort */
#define RP_F_OLD "overhead,sample,period"

#define HEAD "# To display the perf.data header info, please use --header/--header-only options.\n#\n"

struct fixture {
	struct rp_session *session;
	struct rp_machine *machine;
	struct rp_dso dso_w, dso_libc, dso_kernel;
	struct rp_symbol fa, fb, clear_page;
	uint64_t nr;
};

static struct fixture fx;

static int setup(void **state)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_ID | RP_SAMPLE_CPU | RP_SAMPLE_PERIOD);
	uint64_t id0 = 1, id1 = 2, id2 = 3;

	(void)state;
	memset(&fx, 0, sizeof(fx));
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id0, 1);
	a.config = 1; /* task-clock */
	tb_file_attr(&f, &a, &id1, 1);
	a.config = 2; /* page-faults: no samples */
	tb_file_attr(&f, &a, &id2, 1);
	fx.session = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(fx.session);
	assert_int_equal(rp_machine_new(&fx.machine, NULL), 0);

	fx.dso_w.long_name = "/tmp/w";
	fx.dso_w.short_name = "w";
	fx.dso_libc.long_name = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	fx.dso_libc.short_name = "libc.so.6";
	fx.dso_kernel.long_name = "[kernel.kallsyms]";
	fx.dso_kernel.short_name = "[kernel.kallsyms]";
	fx.dso_kernel.kind = RP_DSO_KERNEL;
	fx.fa = (struct rp_symbol){ 0x1000, 0x1100, "fa", 1, 0, 2 };
	fx.fb = (struct rp_symbol){ 0x1100, 0x1200, "fb", 1, 0, 2 };
	fx.clear_page = (struct rp_symbol){ 0xffffffff81000000ull, 0xffffffff81000100ull,
					    "clear_page", 1, 0, 2 };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rp_machine_free(fx.machine);
	rp_session_close(fx.session);
	return 0;
}

static void set_comm(uint32_t pid, uint32_t tid, const char *comm)
{
	struct rp_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_COMM;
	ev.nr = fx.nr++;
	ev.u.comm.pid = pid;
	ev.u.comm.tid = tid;
	ev.u.comm.comm = comm;
	assert_int_equal(rp_machine_process(fx.machine, &ev), 0);
}

struct smp {
	size_t evsel;
	uint32_t pid, tid;
	const char *comm;
	struct rp_dso *dso;
	const struct rp_symbol *sym;
	uint64_t addr;
	char level;
	uint64_t period;
	int32_t cpu;
};

static void feed(struct rp_consumer c, const struct smp *s, unsigned times)
{
	struct rp_event ev;
	struct rp_resolved res;
	static const struct rp_map *fake_map = (const struct rp_map *)&fx;

	for (unsigned i = 0; i < times; i++) {
		memset(&ev, 0, sizeof(ev));
		memset(&res, 0, sizeof(res));
		ev.type = RP_RECORD_SAMPLE;
		ev.misc = s->level == 'k' ? RP_MISC_KERNEL : RP_MISC_USER;
		ev.nr = fx.nr++;
		ev.evsel = rp_session_evsel(fx.session, s->evsel);
		ev.u.sample.sample_type = RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_PERIOD |
					  (s->cpu >= 0 ? RP_SAMPLE_CPU : 0);
		ev.u.sample.ip = s->addr;
		ev.u.sample.pid = s->pid;
		ev.u.sample.tid = s->tid;
		ev.u.sample.cpu = (uint32_t)s->cpu;
		ev.u.sample.period = s->period ? s->period : 1000;
		res.thread = rp_machine_findnew_thread(fx.machine, s->pid, s->tid);
		assert_non_null(res.thread);
		res.comm = s->comm;
		res.al.thread = res.thread;
		res.al.map = s->dso ? fake_map : NULL;
		res.al.dso = s->dso;
		res.al.sym = s->sym;
		res.al.ip = s->addr;
		res.al.addr = s->addr;
		res.al.level = s->level ? s->level : '.';
		assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	}
}

/* The mixed set: resolved, unresolved in a DSO, no map at all. */
static void feed_mixed(struct rp_consumer c)
{
	set_comm(10, 10, "w");
	set_comm(20, 20, "ls");
	struct smp a = { 0, 10, 10, "w", &fx.dso_w, &fx.fa, 0x1010, '.', 0, -1 };
	struct smp b = { 0, 10, 10, "w", &fx.dso_w, &fx.fb, 0x1110, '.', 0, -1 };
	struct smp k = { 0, 20, 20, "ls", &fx.dso_kernel, &fx.clear_page, 0xffffffff81000010ull,
			 'k', 0, -1 };
	struct smp u = { 0, 10, 10, "w", &fx.dso_libc, NULL, 0x1234, '.', 0, -1 };
	struct smp n = { 0, 10, 10, "w", NULL, NULL, 0x7f00, 'k', 0, -1 };

	feed(c, &b, 1);
	feed(c, &n, 1);
	feed(c, &a, 2);
	feed(c, &u, 1);
	feed(c, &k, 1);
	feed(c, &a, 1);
}

static void test_default_keys(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o) };

	(void)state;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed_mixed(rp_report_consumer(r));
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 0\n#\n"
		    "# Samples: 7  of event 'cpu-clock'\n"
		    "# Event count (approx.): 7000\n"
		    "#\n"
		    "# Overhead  Command  Shared Object      Symbol                \n"
		    "# ........  .......  .................  ......................\n"
		    "#\n"
		    "    42.86%  w        w                  [.] fa\n"
		    "    14.29%  ls       [kernel.kallsyms]  [k] clear_page\n"
		    "    14.29%  w        libc.so.6          [.] 0x0000000000001234\n"
		    "    14.29%  w        w                  [.] fb\n"
		    "    14.29%  w        [unknown]          [k] 0x0000000000007f00\n"
		    "\n\n");
	rp_report_free(r);
}

static void test_field_sep(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o), .field_sep = ";", .field_order = RP_F_OLD,
				     .sort_order = "comm,dso,sym" };

	(void)state;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed_mixed(rp_report_consumer(r));
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 0\n#\n"
		    "# Samples: 7  of event 'cpu-clock'\n"
		    "# Event count (approx.): 7000\n"
		    "#\n"
		    "# Overhead;     Samples;      Period;Command;Shared Object    ;Symbol                \n"
		    " 14.29% ; 1          ; 1000       ;ls     ;[kernel.kallsyms];[k] clear_page\n"
		    " 14.29% ; 1          ; 1000       ;w      ;libc.so.6        ;[.] 0x0000000000001234\n"
		    " 42.86% ; 3          ; 3000       ;w      ;w                ;[.] fa\n"
		    " 14.29% ; 1          ; 1000       ;w      ;w                ;[.] fb\n"
		    " 14.29% ; 1          ; 1000       ;w      ;[unknown]        ;[k] 0x0000000000007f00\n"
		    "\n\n");
	rp_report_free(r);
}

/* No kernel DSO: an unresolved address widens Shared Object to 16, but
 * not with a field separator. */
static void test_unresolved_dso_width(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o) };

	(void)state;
	assert_int_equal(rp_report_parse_sort(&o, "dso,sym"), 0);
	set_comm(10, 10, "w");
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	struct smp u = { 0, 10, 10, "w", &fx.dso_libc, NULL, 0x1234, '.', 0, -1 };
	struct smp z = { 0, 10, 10, "w", &fx.dso_libc, NULL, 0, '.', 0, -1 };
	feed(rp_report_consumer(r), &u, 1);
	feed(rp_report_consumer(r), &z, 1);
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 0\n#\n"
		    "# Samples: 2  of event 'cpu-clock'\n"
		    "# Event count (approx.): 2000\n"
		    "#\n"
		    "# Overhead  Shared Object     Symbol                \n"
		    "# ........  ................  ......................\n"
		    "#\n"
		    "    50.00%  libc.so.6         [.] 0000000000000000\n"
		    "    50.00%  libc.so.6         [.] 0x0000000000001234\n"
		    "\n\n");
	rp_report_free(r);

	o.field_sep = ",";
	o.field_order = RP_F_OLD;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed(rp_report_consumer(r), &u, 1);
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 0\n#\n"
		    "# Samples: 1  of event 'cpu-clock'\n"
		    "# Event count (approx.): 1000\n"
		    "#\n"
		    "# Overhead,     Samples,      Period,Shared Object,Symbol                \n"
		    " 100.00%, 1          , 1000       ,libc.so.6    ,[.] 0x0000000000001234\n"
		    "\n\n");
	rp_report_free(r);
}

/* Column widths use the thread's last comm; the pid key prints it. */
static void test_comm_width_and_pid(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o) };
	struct smp s = { 0, 30, 30, "verylongname_pr", &fx.dso_w, &fx.fa, 0x1010, '.', 0, -1 };

	(void)state;
	assert_int_equal(rp_report_parse_sort(&o, "pid,comm"), 0);
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	set_comm(30, 30, "verylongname_pr");
	feed(rp_report_consumer(r), &s, 3);
	set_comm(30, 30, "w");
	s.comm = "w";
	feed(rp_report_consumer(r), &s, 1);
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 0\n#\n"
		    "# Samples: 4  of event 'cpu-clock'\n"
		    "# Event count (approx.): 4000\n"
		    "#\n"
		    "# Overhead      Pid:Command  Command\n"
		    "# ........  ...............  .......\n"
		    "#\n"
		    "    75.00%       30:w        verylon\n"
		    "    25.00%       30:w        w      \n"
		    "\n\n");
	rp_report_free(r);
}

/* Several events, an empty one skipped, lost samples, unit scaling, cpu. */
static void test_events_and_cpu(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o) };
	struct rp_event ev;

	(void)state;
	assert_int_equal(rp_report_parse_sort(&o, "cpu"), 0);
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	struct rp_consumer c = rp_report_consumer(r);
	set_comm(10, 10, "w");
	struct smp s0 = { 0, 10, 10, "w", &fx.dso_w, &fx.fa, 0x1010, '.', 1, 0 };
	struct smp s1 = { 0, 10, 10, "w", &fx.dso_w, &fx.fa, 0x1010, '.', 1, 1 };
	struct smp t = { 1, 10, 10, "w", &fx.dso_w, &fx.fa, 0x1010, '.', 5, -1 };
	feed(c, &s1, 1000);
	feed(c, &s0, 1);
	feed(c, &t, 2);
	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_LOST_SAMPLES;
	ev.u.lost.lost = 3;
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 6\n#\n"
		    "# Samples: 1K of event 'cpu-clock'\n"
		    "# Event count (approx.): 1001\n"
		    "#\n"
		    "# Overhead  CPU\n"
		    "# ........  ...\n"
		    "#\n"
		    "    99.90%  001\n"
		    "     0.10%  000\n"
		    "\n\n"
		    "# Samples: 2  of event 'task-clock'\n"
		    "# Event count (approx.): 10\n"
		    "#\n"
		    "# Overhead  CPU\n"
		    "# ........  ...\n"
		    "#\n"
		    "   100.00%  -001\n"
		    "\n\n");
	rp_report_free(r);
}

static void test_percent_limit_and_sep_char(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o), .percent_limit = 20.0, .field_sep = "|",
				     .field_order = RP_F_OLD };
	struct rp_symbol odd = { 0x2000, 0x2100, "a|b", 1, 0, 2 };
	struct rp_symbol longsym = { 0x3000, 0x3100, "a_rather_long_symbol_name", 1, 0, 2 };

	(void)state;
	assert_int_equal(rp_report_parse_sort(&o, "sym"), 0);
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	set_comm(10, 10, "w");
	struct smp a = { 0, 10, 10, "w", &fx.dso_w, &odd, 0x2000, '.', 0, -1 };
	struct smp b = { 0, 10, 10, "w", &fx.dso_w, &longsym, 0x3000, '.', 0, -1 };
	feed(rp_report_consumer(r), &a, 9);
	feed(rp_report_consumer(r), &b, 1);
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 0\n#\n"
		    "# Samples: 10  of event 'cpu-clock'\n"
		    "# Event count (approx.): 10000\n"
		    "#\n"
		    "# Overhead|     Samples|      Period|Symbol                       \n"
		    " 90.00% | 9          | 9000       |[.] a.b\n"
		    "\n\n");
	rp_report_free(r);
}

/* A symbol that is not the last column is padded; with -t the padding is
 * not subject to the separator replacement. */
static void test_sym_not_last(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o), .field_sep = " ", .field_order = RP_F_OLD };
	struct rp_symbol sp = { 0x2000, 0x2100, "a b", 1, 0, 2 };

	(void)state;
	assert_int_equal(rp_report_parse_sort(&o, "sym,comm"), 0);
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	set_comm(10, 10, "w");
	struct smp a = { 0, 10, 10, "w", &fx.dso_w, &sp, 0x2000, '.', 0, -1 };
	feed(rp_report_consumer(r), &a, 1);
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 0\n#\n"
		    "# Samples: 1  of event 'cpu-clock'\n"
		    "# Event count (approx.): 1000\n"
		    "#\n"
		    "# Overhead      Samples       Period Symbol  Command\n"
		    " 100.00%  1            1000        [.].a.b w......\n"
		    "\n\n");
	rp_report_free(r);

	o.field_sep = NULL;
	o.field_order = NULL;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	struct smp b = { 0, 10, 10, "w", &fx.dso_w, &fx.fa, 0x1000, '.', 0, -1 };
	feed(rp_report_consumer(r), &b, 1);
	assert_report_text(r, HEAD "#\n# Total Lost Samples: 0\n#\n"
		    "# Samples: 1  of event 'cpu-clock'\n"
		    "# Event count (approx.): 1000\n"
		    "#\n"
		    "# Overhead  Symbol  Command\n"
		    "# ........  ......  .......\n"
		    "#\n"
		    "   100.00%  [.] fa  w      \n"
		    "\n\n");
	rp_report_free(r);
}

static void test_no_samples(void **state)
{
	struct rp_report *r;

	(void)state;
	assert_int_equal(rp_report_new(&r, fx.session, NULL), 0);
	assert_report_text(r, HEAD);
	rp_report_free(r);
}

static void test_parse_sort(void **state)
{
	struct rp_report_opts o = { .sz = sizeof(o) };

	(void)state;
	assert_int_equal(rp_report_parse_sort(&o, "comm,dso,sym"), 0);
	assert_int_equal(o.nr_keys, 3);
	assert_int_equal(o.keys[0], RP_SORT_COMM);
	assert_int_equal(o.keys[1], RP_SORT_DSO);
	assert_int_equal(o.keys[2], RP_SORT_SYM);
	assert_int_equal(rp_report_parse_sort(&o, "pid,tid,symbol,cpu,comm,comm"), 0);
	assert_int_equal(o.nr_keys, 5);
	assert_int_equal(o.keys[0], RP_SORT_PID);
	assert_int_equal(o.keys[1], RP_SORT_TID);
	assert_int_equal(o.keys[2], RP_SORT_SYM);
	assert_int_equal(o.keys[3], RP_SORT_CPU);
	assert_int_equal(o.keys[4], RP_SORT_COMM);
	assert_int_equal(rp_report_parse_sort(&o, "comm,bogus"), RP_ERR_INVAL);
	assert_int_equal(o.nr_keys, 5); /* unchanged on error */
	assert_int_equal(rp_report_parse_sort(&o, "DSO"), 0);
	assert_int_equal(o.keys[0], RP_SORT_DSO);
	assert_int_equal(rp_report_parse_sort(NULL, "dso"), RP_ERR_INVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_default_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_field_sep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unresolved_dso_width, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comm_width_and_pid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_events_and_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_percent_limit_and_sep_char, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sym_not_last, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_samples, setup, teardown),
		cmocka_unit_test(test_parse_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
