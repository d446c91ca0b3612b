/* SPDX-License-Identifier: MIT */
/*
 * The function overview of files with event groups (GROUP_DESC): one
 * section per group, one sub-column per member, as perf 6.1 prints it.
 * Sessions are built with a GROUP_DESC feature; samples and resolutions
 * are made by hand.  The expected texts follow docs/report.md, whose
 * group rules were checked against perf on recorded files.
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
#include "report/report_int.h"

#define HEAD "# To display the perf.data header info, please use --header/--header-only options.\n#\n"
#define LOST0 "#\n# Total Lost Samples: 0\n#\n"

enum { EV_CPU_CLOCK = 0, EV_TASK_CLOCK = 1, EV_PAGE_FAULTS = 2 };

struct group {
	const char *name;
	uint32_t leader, nr_members;
};

struct fixture {
	struct rp_session *session;
	struct rp_machine *machine;
	struct rp_dso dso_w, dso_libc;
	struct rp_symbol fa, fb;
	uint64_t nr;
};

static struct fixture fx;

/* Opens a session of software events `configs` (cpu-clock 0, task-clock
 * 1, page-faults 2), with a GROUP_DESC of `groups` unless nr_groups is 0. */
static void open_session(const uint64_t *configs, size_t nr, const struct group *groups,
			 size_t nr_groups)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_ID | RP_SAMPLE_CPU | RP_SAMPLE_PERIOD);

	tb_file_init(&f, 0);
	for (size_t i = 0; i < nr; i++) {
		uint64_t id = 100 + i;

		a.config = configs[i];
		tb_file_attr(&f, &a, &id, 1);
	}
	if (nr_groups) {
		struct tb_buf *b = tb_file_feat(&f, RP_FEAT_GROUP_DESC);

		tb_u32(b, (uint32_t)nr_groups);
		for (size_t i = 0; i < nr_groups; i++) {
			tb_feat_string(b, groups[i].name);
			tb_u32(b, groups[i].leader);
			tb_u32(b, groups[i].nr_members);
		}
	}
	fx.session = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(fx.session);
}

static void init_common(void)
{
	memset(&fx, 0, sizeof(fx));
	assert_int_equal(rp_machine_new(&fx.machine, NULL), 0);
	fx.dso_w.long_name = "/tmp/w";
	fx.dso_w.short_name = "w";
	fx.dso_libc.long_name = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	fx.dso_libc.short_name = "libc.so.6";
	fx.fa = (struct rp_symbol){ 0x1000, 0x1100, "fa", 1, 0, 2 };
	fx.fb = (struct rp_symbol){ 0x1100, 0x1200, "fb", 1, 0, 2 };
}

/* {cpu-clock,task-clock},page-faults */
static int setup_pair(void **state)
{
	static const uint64_t configs[] = { 0, 1, 2 };
	static const struct group g[] = { { "{anon_group}", 0, 2 } };

	(void)state;
	init_common();
	open_session(configs, 3, g, 1);
	return 0;
}

/* grp{cpu-clock,page-faults,task-clock} */
static int setup_triple(void **state)
{
	static const uint64_t configs[] = { 0, 2, 1 };
	static const struct group g[] = { { "grp", 0, 3 } };

	(void)state;
	init_common();
	open_session(configs, 3, g, 1);
	return 0;
}

/* cpu-clock,task-clock: no GROUP_DESC */
static int setup_nogroup(void **state)
{
	static const uint64_t configs[] = { 0, 1 };

	(void)state;
	init_common();
	open_session(configs, 2, NULL, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rp_machine_free(fx.machine);
	rp_session_close(fx.session);
	return 0;
}

struct smp {
	size_t evsel;
	struct rp_dso *dso;
	const struct rp_symbol *sym;
	uint64_t addr;
	uint64_t period;
};

/* `times` samples of thread 10 ("w") in evsel s->evsel. */
static void feed(struct rp_report *r, const struct smp *s, unsigned times)
{
	struct rp_consumer c = rp_report_consumer(r);
	static const struct rp_map *fake_map = (const struct rp_map *)&fx;
	struct rp_event ev;
	struct rp_resolved res;

	for (unsigned i = 0; i < times; i++) {
		memset(&ev, 0, sizeof(ev));
		memset(&res, 0, sizeof(res));
		ev.type = RP_RECORD_SAMPLE;
		ev.misc = RP_MISC_USER;
		ev.nr = fx.nr++;
		ev.evsel = rp_session_evsel(fx.session, s->evsel);
		assert_non_null(ev.evsel);
		ev.u.sample.sample_type = RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_PERIOD;
		ev.u.sample.ip = s->addr;
		ev.u.sample.pid = 10;
		ev.u.sample.tid = 10;
		ev.u.sample.period = s->period ? s->period : 1000;
		res.thread = rp_machine_findnew_thread(fx.machine, 10, 10);
		assert_non_null(res.thread);
		res.comm = "w";
		res.al.thread = res.thread;
		res.al.map = s->dso ? fake_map : NULL;
		res.al.dso = s->dso;
		res.al.sym = s->sym;
		res.al.ip = s->addr;
		res.al.addr = s->addr;
		res.al.level = '.';
		assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	}
}

static struct rp_report *new_report(const char *sort, const char *sep, double limit)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o), .field_sep = sep, .percent_limit = limit,
				     .field_order = sep ? "overhead,sample,period" : NULL };

	/* -F overhead,sample,period with the keys of --sort (comm,dso,sym) */
	assert_int_equal(rp_report_parse_sort(&o, sort ? sort : "comm,dso,sym"), 0);
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	return r;
}

/*
 * cpu-clock: fa x3, fb x1; task-clock: fa x2 and an unresolved libc
 * address x2 (a row of the member only); page-faults: fb once, period 5.
 */
static void feed_pair(struct rp_report *r)
{
	struct smp fa0 = { EV_CPU_CLOCK, &fx.dso_w, &fx.fa, 0x1010, 0 };
	struct smp fb0 = { EV_CPU_CLOCK, &fx.dso_w, &fx.fb, 0x1110, 0 };
	struct smp fa1 = { EV_TASK_CLOCK, &fx.dso_w, &fx.fa, 0x1020, 0 };
	struct smp u1 = { EV_TASK_CLOCK, &fx.dso_libc, NULL, 0x1234, 0 };
	struct smp pf = { EV_PAGE_FAULTS, &fx.dso_w, &fx.fb, 0x1120, 5 };

	feed(r, &fa0, 2);
	feed(r, &u1, 1);
	feed(r, &fb0, 1);
	feed(r, &fa1, 2);
	feed(r, &fa0, 1);
	feed(r, &pf, 1);
	feed(r, &u1, 1);
}

#define PAGE_FAULTS_SECTION                                                                      \
	"# Samples: 1  of event 'page-faults'\n"                                                 \
	"# Event count (approx.): 5\n"                                                           \
	"#\n"                                                                                    \
	"# Overhead  Command  Shared Object  Symbol\n"                                           \
	"# ........  .......  .............  ......\n"                                           \
	"#\n"                                                                                    \
	"   100.00%  w        w              [.] fb\n"                                           \
	"\n\n"

/* The group is one section: counts summed, the Overhead column 16 wide,
 * the member-only row at 0.00% for the leader, widths over all rows. */
static void test_pair_aligned(void **state)
{
	struct rp_report *r = new_report(NULL, NULL, 0);

	(void)state;
	feed_pair(r);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 8  of events 'anon group { cpu-clock, task-clock }'\n"
	      "# Event count (approx.): 8000\n"
	      "#\n"
	      "#         Overhead  Command  Shared Object     Symbol                \n"
	      "# ................  .......  ................  ......................\n"
	      "#\n"
	      "    75.00%  50.00%  w        w                 [.] fa\n"
	      "    25.00%   0.00%  w        w                 [.] fb\n"
	      "     0.00%  50.00%  w        libc.so.6         [.] 0x0000000000001234\n"
	      "\n\n" PAGE_FAULTS_SECTION);
	/* A second write prints the same (the members are linked once). */
	assert_report_text(r, HEAD LOST0
	      "# Samples: 8  of events 'anon group { cpu-clock, task-clock }'\n"
	      "# Event count (approx.): 8000\n"
	      "#\n"
	      "#         Overhead  Command  Shared Object     Symbol                \n"
	      "# ................  .......  ................  ......................\n"
	      "#\n"
	      "    75.00%  50.00%  w        w                 [.] fa\n"
	      "    25.00%   0.00%  w        w                 [.] fb\n"
	      "     0.00%  50.00%  w        libc.so.6         [.] 0x0000000000001234\n"
	      "\n\n" PAGE_FAULTS_SECTION);
	rp_report_free(r);
}

/* With -t: one figure per member in each of Overhead, Samples, Period,
 * each column padded to its unit width times the members; keys first. */
static void test_pair_field_sep(void **state)
{
	struct rp_report *r = new_report(NULL, ";", 0);

	(void)state;
	feed_pair(r);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 8  of events 'anon group { cpu-clock, task-clock }'\n"
	      "# Event count (approx.): 8000\n"
	      "#\n"
	      "#         Overhead;                 Samples;                  Period;"
	      "Command;Shared Object;Symbol                \n"
	      " 0.00% 50.00%   ; 0 2                    ; 0 2000                 ;"
	      "w      ;libc.so.6    ;[.] 0x0000000000001234\n"
	      " 75.00% 50.00%  ; 3 2                    ; 3000 2000              ;"
	      "w      ;w            ;[.] fa\n"
	      " 25.00% 0.00%   ; 1 0                    ; 1000 0                 ;"
	      "w      ;w            ;[.] fb\n"
	      "\n\n"
	      "# Samples: 1  of event 'page-faults'\n"
	      "# Event count (approx.): 5\n"
	      "#\n"
	      "# Overhead;     Samples;      Period;Command;Shared Object;Symbol\n"
	      " 100.00%; 1          ; 5          ;w      ;w            ;[.] fb\n"
	      "\n\n");
	rp_report_free(r);
}

/* The percent limit looks at the leader's share only: the member-only row
 * (0% of the leader) goes, the widths stay. */
static void test_pair_percent_limit(void **state)
{
	struct rp_report *r = new_report("dso,sym", NULL, 10.0);

	(void)state;
	feed_pair(r);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 8  of events 'anon group { cpu-clock, task-clock }'\n"
	      "# Event count (approx.): 8000\n"
	      "#\n"
	      "#         Overhead  Shared Object     Symbol                \n"
	      "# ................  ................  ......................\n"
	      "#\n"
	      "    75.00%  50.00%  w                 [.] fa\n"
	      "    25.00%   0.00%  w                 [.] fb\n"
	      "\n\n"
	      "# Samples: 1  of event 'page-faults'\n"
	      "# Event count (approx.): 5\n"
	      "#\n"
	      "# Overhead  Shared Object  Symbol\n"
	      "# ........  .............  ......\n"
	      "#\n"
	      "   100.00%  w              [.] fb\n"
	      "\n\n");
	rp_report_free(r);
}

/* --no-group: every event alone; the leader still says "events". */
static void test_pair_no_group(void **state)
{
	struct rp_report *r = new_report("sym", NULL, 0);

	(void)state;
	assert_int_equal(rp_report_set_group(r, RP_REPORT_GROUP_OFF), 0);
	feed_pair(r);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 4  of events 'cpu-clock'\n"
	      "# Event count (approx.): 4000\n"
	      "#\n"
	      "# Overhead  Symbol\n"
	      "# ........  ......\n"
	      "#\n"
	      "    75.00%  [.] fa\n"
	      "    25.00%  [.] fb\n"
	      "\n\n"
	      "# Samples: 4  of event 'task-clock'\n"
	      "# Event count (approx.): 4000\n"
	      "#\n"
	      "# Overhead  Symbol                \n"
	      "# ........  ......................\n"
	      "#\n"
	      "    50.00%  [.] fa\n"
	      "    50.00%  [.] 0x0000000000001234\n"
	      "\n\n"
	      "# Samples: 1  of event 'page-faults'\n"
	      "# Event count (approx.): 5\n"
	      "#\n"
	      "# Overhead  Symbol\n"
	      "# ........  ......\n"
	      "#\n"
	      "   100.00%  [.] fb\n"
	      "\n\n");
	assert_int_equal(rp_report_set_group(r, (enum rp_report_group)7), RP_ERR_INVAL);
	assert_int_equal(rp_report_set_group(NULL, RP_REPORT_GROUP_OFF), RP_ERR_INVAL);
	rp_report_free(r);
}

/*
 * Three members, named, the middle one without samples: its column is
 * 0.00% throughout.  Rows whose leader figures tie are ordered by the next
 * member's period (fb before fa), then the keys.
 */
static void test_triple_named(void **state)
{
	struct rp_report *r = new_report("sym", NULL, 0);
	struct smp fa0 = { 0, &fx.dso_w, &fx.fa, 0x1010, 0 };
	struct smp fb0 = { 0, &fx.dso_w, &fx.fb, 0x1110, 0 };
	struct smp fa2 = { 2, &fx.dso_w, &fx.fa, 0x1010, 0 };
	struct smp fb2 = { 2, &fx.dso_w, &fx.fb, 0x1110, 0 };

	(void)state;
	feed(r, &fa0, 1);
	feed(r, &fb0, 1);
	feed(r, &fa2, 1);
	feed(r, &fb2, 3);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 6  of events 'grp { cpu-clock, page-faults, task-clock }'\n"
	      "# Event count (approx.): 6000\n"
	      "#\n"
	      "#                 Overhead  Symbol\n"
	      "# ........................  ......\n"
	      "#\n"
	      "    50.00%   0.00%  75.00%  [.] fb\n"
	      "    50.00%   0.00%  25.00%  [.] fa\n"
	      "\n\n");
	rp_report_free(r);

	r = new_report("sym", ",", 0);
	feed(r, &fa0, 1);
	feed(r, &fb0, 1);
	feed(r, &fa2, 1);
	feed(r, &fb2, 3);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 6  of events 'grp { cpu-clock, page-faults, task-clock }'\n"
	      "# Event count (approx.): 6000\n"
	      "#\n"
	      "#                 Overhead,                             Samples,"
	      "                              Period,Symbol\n"
	      " 50.00% 0.00% 25.00%    , 1 0 1                              ,"
	      " 1000 0 1000                        ,[.] fa\n"
	      " 50.00% 0.00% 75.00%    , 1 0 3                              ,"
	      " 1000 0 3000                        ,[.] fb\n"
	      "\n\n");
	rp_report_free(r);
}

/* A group whose leader has no sample is not shown, though its members
 * have some (perf skips empty sections by the leader's count). */
static void test_empty_leader(void **state)
{
	struct rp_report *r = new_report("sym", NULL, 0);
	struct smp fa2 = { 2, &fx.dso_w, &fx.fa, 0x1010, 0 };

	(void)state;
	feed(r, &fa2, 2);
	assert_report_text(r, HEAD LOST0);
	rp_report_free(r);
}

/* --group on a file without groups: all events form one group, named by
 * the events alone. */
static void test_forced_group(void **state)
{
	struct rp_report *r = new_report("sym", NULL, 0);
	struct smp fa0 = { 0, &fx.dso_w, &fx.fa, 0x1010, 0 };
	struct smp fb1 = { 1, &fx.dso_w, &fx.fb, 0x1110, 0 };

	(void)state;
	assert_int_equal(rp_report_set_group(r, RP_REPORT_GROUP_FORCE), 0);
	feed(r, &fa0, 1);
	feed(r, &fb1, 1);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 2  of events 'cpu-clock, task-clock'\n"
	      "# Event count (approx.): 2000\n"
	      "#\n"
	      "#         Overhead  Symbol\n"
	      "# ................  ......\n"
	      "#\n"
	      "   100.00%   0.00%  [.] fa\n"
	      "     0.00% 100.00%  [.] fb\n"
	      "\n\n");
	rp_report_free(r);

	/* --no-group on such a file: each event alone, but perf counts all
	 * of them as the first one's group, which then says "events". */
	r = new_report("sym", NULL, 0);
	assert_int_equal(rp_report_set_group(r, RP_REPORT_GROUP_OFF), 0);
	feed(r, &fa0, 1);
	feed(r, &fb1, 1);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 1  of events 'cpu-clock'\n"
	      "# Event count (approx.): 1000\n"
	      "#\n"
	      "# Overhead  Symbol\n"
	      "# ........  ......\n"
	      "#\n"
	      "   100.00%  [.] fa\n"
	      "\n\n"
	      "# Samples: 1  of event 'task-clock'\n"
	      "# Event count (approx.): 1000\n"
	      "#\n"
	      "# Overhead  Symbol\n"
	      "# ........  ......\n"
	      "#\n"
	      "   100.00%  [.] fb\n"
	      "\n\n");
	rp_report_free(r);

	/* Without either option such a file shows each event on its own. */
	r = new_report("sym", NULL, 0);
	feed(r, &fa0, 1);
	feed(r, &fb1, 1);
	assert_report_text(r, HEAD LOST0
	      "# Samples: 1  of event 'cpu-clock'\n"
	      "# Event count (approx.): 1000\n"
	      "#\n"
	      "# Overhead  Symbol\n"
	      "# ........  ......\n"
	      "#\n"
	      "   100.00%  [.] fa\n"
	      "\n\n"
	      "# Samples: 1  of event 'task-clock'\n"
	      "# Event count (approx.): 1000\n"
	      "#\n"
	      "# Overhead  Symbol\n"
	      "# ........  ......\n"
	      "#\n"
	      "   100.00%  [.] fb\n"
	      "\n\n");
	rp_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pair_aligned, setup_pair, teardown),
		cmocka_unit_test_setup_teardown(test_pair_field_sep, setup_pair, teardown),
		cmocka_unit_test_setup_teardown(test_pair_percent_limit, setup_pair, teardown),
		cmocka_unit_test_setup_teardown(test_pair_no_group, setup_pair, teardown),
		cmocka_unit_test_setup_teardown(test_triple_named, setup_triple, teardown),
		cmocka_unit_test_setup_teardown(test_empty_leader, setup_triple, teardown),
		cmocka_unit_test_setup_teardown(test_forced_group, setup_nogroup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
