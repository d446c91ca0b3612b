/* SPDX-License-Identifier: MIT */
/*
 * perf script's lines: hand-built records and resolutions against the
 * exact text perf 6.1 prints for them (docs/script.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/process.h>
#include <readperf/script.h>

#include "builder.h"
#include "machine/dso.h"
#include "machine/machine_int.h"

/* The formatting threads every printer of a group gets (main()). */
static unsigned test_nr_threads = 1;
#define default_opts ((struct rp_script_opts){ .sz = sizeof(struct rp_script_opts), \
						.nr_threads = test_nr_threads })

/* A session of one cpu-clock event with the given sample_type. */
static struct rp_session *open_session(uint64_t sample_type, int two)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(sample_type);
	uint64_t id0 = 1, id1 = 2;
	struct rp_session *s;

	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id0, 1);
	if (two) {
		a.config = 1; /* task-clock */
		tb_file_attr(&f, &a, &id1, 1);
	}
	s = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(s);
	return s;
}

struct out {
	char *buf;
	size_t len;
	FILE *f;
};

static void out_open(struct out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	assert_non_null(o->f);
}

static void out_check(struct out *o, const char *want)
{
	fclose(o->f);
	if (strcmp(o->buf, want))
		fprintf(stderr, "--- want\n%s--- got\n%s---\n", want, o->buf);
	assert_string_equal(o->buf, want);
	free(o->buf);
}

static struct rp_dso dso_w, dso_k;
static struct rp_map map_w, map_k;
static struct rp_symbol sym_fa = { 0x1000, 0x1100, "fa", 1, 0, 2 };
static struct rp_symbol sym_k = { 0xffffffff81001000ull, 0xffffffff81001100ull, "kfunc", 1, 0, 2 };

static void init_dsos(void)
{
	dso_w.long_name = "/tmp/w";
	dso_w.short_name = "w";
	dso_k.long_name = "[kernel.kallsyms]";
	dso_k.short_name = "[kernel.kallsyms]";
	dso_k.kind = RP_DSO_KERNEL;
	map_w = (struct rp_map){ 0x400000, 0x402000, 0x1000, &dso_w, 5, 2, 0 };
	map_k = (struct rp_map){ 0xffffffff81000000ull, 0xffffffff82000000ull, 0, &dso_k, 5, 2, 1 };
}

static void sample_event(struct rp_event *ev, const struct rp_session *s, int evsel,
			 uint64_t ip, uint64_t time, uint64_t period)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = RP_RECORD_SAMPLE;
	ev->evsel = rp_session_evsel(s, (size_t)evsel);
	ev->u.sample.sample_type = rp_evsel_attr(ev->evsel)->sample_type;
	ev->u.sample.ip = ip;
	ev->u.sample.pid = ev->u.sample.tid = 42;
	ev->u.sample.time = time;
	ev->u.sample.period = period;
	ev->u.sample.cpu = 1;
	ev->sid.present = ev->u.sample.sample_type;
	ev->sid.pid = ev->sid.tid = 42;
	ev->sid.time = time;
	ev->sid.cpu = 1;
}

static void user_al(struct rp_addr_location *al, uint64_t ip, const struct rp_symbol *sym)
{
	memset(al, 0, sizeof(*al));
	al->map = &map_w;
	al->dso = &dso_w;
	al->sym = sym;
	al->ip = ip;
	al->addr = ip - map_w.start + map_w.pgoff;
	al->level = '.';
}

static void kernel_al(struct rp_addr_location *al, uint64_t ip, const struct rp_symbol *sym)
{
	memset(al, 0, sizeof(*al));
	al->map = &map_k;
	al->dso = &dso_k;
	al->sym = sym;
	al->ip = al->addr = ip;
	al->level = 'k';
}

/* Default fields of a software event: widths, time truncated to us. */
static void test_default_line(void **state)
{
	struct rp_session *s = open_session(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
						    RP_SAMPLE_PERIOD,
					    0);
	struct rp_script *sc;
	struct rp_event ev;
	struct rp_resolved res;
	struct out o;

	(void)state;
	init_dsos();
	out_open(&o);
	assert_int_equal(rp_script_new(&sc, o.f, s, &default_opts, NULL, 0), 0);
	struct rp_consumer c = rp_script_consumer(sc);
	assert_int_equal(c.flags, 0u);

	memset(&res, 0, sizeof(res));
	res.comm = "w";
	sample_event(&ev, s, 0, 0x400010, 1617295819999999ull, 250000);
	user_al(&res.al, 0x400010, &sym_fa);
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	/* an ip no map covers */
	sample_event(&ev, s, 0, 0x10, 5000, 1);
	memset(&res.al, 0, sizeof(res.al));
	res.comm = "a-very-long-command-name";
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	/* a kernel ip */
	sample_event(&ev, s, 0, 0xffffffff81001010ull, 1000000000ull, 250000);
	kernel_al(&res.al, 0xffffffff81001010ull, &sym_k);
	res.comm = "swapper";
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	rp_script_free(sc);
	out_check(&o,
		  "               w    42 1617295.819999:     250000 cpu-clock:            400010 fa+0x10 (/tmp/w)\n"
		  "a-very-long-command-name    42     0.000005:          1 cpu-clock:                10 [unknown] ([unknown])\n"
		  "         swapper    42     1.000000:     250000 cpu-clock:  ffffffff81001010 kfunc+0x10 ([kernel.kallsyms])\n");
	rp_session_close(s);
}

/* Call stacks: comm unpadded, one frame per line, DSO-relative user ips. */
static void test_callchain(void **state)
{
	struct rp_session *s = open_session(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
						    RP_SAMPLE_PERIOD | RP_SAMPLE_CALLCHAIN |
						    RP_SAMPLE_CPU,
					    0);
	struct rp_script *sc;
	struct rp_event ev;
	struct rp_resolved res;
	struct rp_frame frames[3];
	struct out o;

	(void)state;
	init_dsos();
	out_open(&o);
	assert_int_equal(rp_script_new(&sc, o.f, s, &default_opts, NULL, 0), 0);
	struct rp_consumer c = rp_script_consumer(sc);
	assert_int_equal(c.flags, RP_CONSUMER_CALLCHAIN);

	memset(&res, 0, sizeof(res));
	res.comm = "w";
	sample_event(&ev, s, 0, 0xffffffff81001010ull, 2000001000ull, 250000);
	kernel_al(&res.al, 0xffffffff81001010ull, &sym_k);
	kernel_al(&frames[0].al, 0xffffffff81001010ull, &sym_k);
	user_al(&frames[1].al, 0x400020, &sym_fa);
	memset(&frames[2].al, 0, sizeof(frames[2].al));
	frames[2].al.ip = 0x7f0000001234ull;
	res.callchain = frames;
	res.nr_callchain = 3;
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	rp_script_free(sc);
	out_check(&o, "w    42 [001]     2.000001:     250000 cpu-clock: \n"
		      "\tffffffff81001010 kfunc+0x10 ([kernel.kallsyms])\n"
		      "\t            1020 fa+0x20 (/tmp/w)\n"
		      "\t    7f0000001234 [unknown] ([unknown])\n"
		      "\n");
	rp_session_close(s);
}

/* -F: lists, +/-, type prefixes, errors as perf words them. */
static void test_fields(void **state)
{
	struct rp_session *s = open_session(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
						    RP_SAMPLE_PERIOD,
					    1);
	struct rp_script_opts opts = { .sz = sizeof(opts), .nr_threads = test_nr_threads };
	struct rp_script *sc;
	struct rp_event ev;
	struct rp_resolved res;
	struct out o;
	char err[256];

	(void)state;
	init_dsos();
	assert_int_equal(rp_script_parse_fields(&opts, "comm,pid,tid,event,ip", err, sizeof(err)), 0);
	out_open(&o);
	assert_int_equal(rp_script_new(&sc, o.f, s, &opts, err, sizeof(err)), 0);
	struct rp_consumer c = rp_script_consumer(sc);
	memset(&res, 0, sizeof(res));
	res.comm = "w";
	user_al(&res.al, 0x400010, &sym_fa);
	sample_event(&ev, s, 0, 0x400010, 1, 1);
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	sample_event(&ev, s, 1, 0x400010, 1, 1);
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	rp_script_free(sc);
	out_check(&o, "               w    42/42     cpu-clock:            400010\n"
		      "               w    42/42    task-clock:            400010\n");

	/* a named field the events lack */
	memset(&opts, 0, sizeof(opts));
	opts.sz = sizeof(opts);
	assert_int_equal(rp_script_parse_fields(&opts, "comm,cpu", err, sizeof(err)), 0);
	out_open(&o);
	assert_int_equal(rp_script_new(&sc, o.f, s, &opts, err, sizeof(err)), RP_ERR_INVAL);
	assert_string_equal(err, "Samples for 'cpu-clock' event do not have CPU attribute set. "
				 "Cannot print 'cpu' field.");
	out_check(&o, "");

	/* +field on top of the defaults: missing defaults drop silently */
	memset(&opts, 0, sizeof(opts));
	opts.sz = sizeof(opts);
	assert_int_equal(rp_script_parse_fields(&opts, "sw:+pid,-period,-ip", err, sizeof(err)), 0);
	out_open(&o);
	assert_int_equal(rp_script_new(&sc, o.f, s, &opts, err, sizeof(err)), 0);
	c = rp_script_consumer(sc);
	sample_event(&ev, s, 0, 0x400010, 3000000, 1);
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	rp_script_free(sc);
	out_check(&o, "               w    42/42        0.003000:  cpu-clock: \n");

	memset(&opts, 0, sizeof(opts));
	assert_int_equal(rp_script_parse_fields(&opts, "comm,bogus", err, sizeof(err)), RP_ERR_INVAL);
	assert_string_equal(err, "Invalid field requested: bogus");
	assert_int_equal(rp_script_parse_fields(&opts, "xx:comm", err, sizeof(err)), RP_ERR_INVAL);
	assert_string_equal(err, "Invalid event type in field string.");
	/* perf names no "hw-cache:" prefix, but "synth:" */
	assert_int_equal(rp_script_parse_fields(&opts, "hw-cache:comm", err, sizeof(err)),
			 RP_ERR_INVAL);
	assert_int_equal(rp_script_parse_fields(&opts, "synth:comm", err, sizeof(err)), 0);
	/* perf's parse_output_fields(): set, or add and remove, not both */
	assert_int_equal(rp_script_parse_fields(&opts, "comm,+pid", err, sizeof(err)), RP_ERR_INVAL);
	assert_string_equal(err, "Cannot mix +-field with overridden fields");
	assert_int_equal(rp_script_parse_fields(&opts, "+pid,comm", err, sizeof(err)), RP_ERR_INVAL);
	assert_int_equal(rp_script_parse_fields(&opts, "sw:comm,trace", err, sizeof(err)),
			 RP_ERR_INVAL);
	assert_string_equal(err, "'trace' not valid for software events.");
	assert_int_equal(rp_script_parse_fields(&opts, "", err, sizeof(err)), RP_ERR_INVAL);
	assert_string_equal(err, "Cannot set fields to 'none' for all event types.");

	/* the checks of perf_session__check_output_opt(), in its order */
	out_open(&o);
	static const struct {
		const char *spec, *err;
	} refused[] = {
		{ "trace:", "tracepoint events do not exist. Remove corresponding -F option to "
			    "proceed." },
		{ "symoff", "Display of offsets requested but symbol is notselected." },
		{ "-sym", "Display of offsets requested but symbol is notselected." },
		{ "comm,srcline", "Display of source line number requested but sample IP is not\n"
				  "selected. Hence, no address to lookup the source line number." },
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		memset(&opts, 0, sizeof(opts));
		opts.sz = sizeof(opts);
		assert_int_equal(rp_script_parse_fields(&opts, refused[i].spec, err, sizeof(err)), 0);
		assert_int_equal(rp_script_new(&sc, o.f, s, &opts, err, sizeof(err)), RP_ERR_INVAL);
		assert_string_equal(err, refused[i].err);
	}
	/* a type list with a field needs no event of the type; synth never */
	static const char *const accepted[] = { "trace:comm", "synth:", "sw:comm,cpu" };
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		memset(&opts, 0, sizeof(opts));
		opts.sz = sizeof(opts);
		assert_int_equal(rp_script_parse_fields(&opts, accepted[i], err, sizeof(err)), 0);
		assert_int_equal(rp_script_new(&sc, o.f, s, &opts, err, sizeof(err)), 0);
		rp_script_free(sc);
	}
	out_check(&o, "");
	rp_session_close(s);
}

/* --show-*-events lines (perf_event__fprintf). */
static void test_sideband(void **state)
{
	struct rp_session *s = open_session(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
						    RP_SAMPLE_PERIOD,
					    0);
	struct rp_script_opts opts = { .sz = sizeof(opts), .nr_threads = test_nr_threads };
	struct rp_script *sc;
	struct rp_machine *m;
	struct rp_event ev;
	struct out o;

	(void)state;
	opts.show = RP_SCRIPT_SHOW_TASK | RP_SCRIPT_SHOW_MMAP | RP_SCRIPT_SHOW_SWITCH;
	assert_int_equal(rp_machine_new(&m, NULL), 0);
	out_open(&o);
	assert_int_equal(rp_script_new(&sc, o.f, s, &opts, NULL, 0), 0);
	rp_script_set_machine(sc, m);
	struct rp_consumer c = rp_script_consumer(sc);

	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_COMM;
	ev.misc = RP_MISC_COMM_EXEC;
	ev.evsel = rp_session_evsel(s, 0);
	ev.sid.present = RP_SAMPLE_TID | RP_SAMPLE_TIME;
	ev.sid.pid = ev.sid.tid = 7;
	ev.sid.time = 1500000000;
	ev.u.comm = (struct rp_comm_event){ 7, 7, 1, "prog" };
	assert_int_equal(rp_machine_process(m, &ev), 0);
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);

	memset(&ev.u, 0, sizeof(ev.u));
	ev.type = RP_RECORD_MMAP2;
	ev.misc = RP_MISC_USER;
	ev.u.mmap.pid = ev.u.mmap.tid = 7;
	ev.u.mmap.start = 0x400000;
	ev.u.mmap.len = 0x1000;
	ev.u.mmap.pgoff = 0;
	ev.u.mmap.is_mmap2 = 1;
	ev.u.mmap.maj = 0xfe;
	ev.u.mmap.ino = 12;
	ev.u.mmap.prot = 5;
	ev.u.mmap.flags = 2;
	ev.u.mmap.filename = "/bin/prog";
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);

	memset(&ev.u, 0, sizeof(ev.u));
	ev.type = RP_RECORD_FORK;
	ev.misc = 0;
	ev.u.task = (struct rp_task_event){ 8, 7, 8, 7, 1500000001 };
	assert_int_equal(rp_machine_process(m, &ev), 0);
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);

	memset(&ev.u, 0, sizeof(ev.u));
	ev.type = RP_RECORD_SWITCH;
	ev.misc = RP_MISC_SWITCH_OUT | RP_MISC_SWITCH_OUT_PREEMPT;
	ev.u.sw.out = ev.u.sw.preempt = 1;
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	ev.type = RP_RECORD_SWITCH_CPU_WIDE;
	ev.u.sw.out = ev.u.sw.preempt = 0;
	ev.u.sw.next_prev_pid = ev.u.sw.next_prev_tid = 9;
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);

	rp_script_free(sc);
	rp_machine_free(m);
	out_check(&o,
		  "            prog     7     1.500000: PERF_RECORD_COMM exec: prog:7/7\n"
		  "            prog     7     1.500000: PERF_RECORD_MMAP2 7/7: [0x400000(0x1000) @ 0 fe:00 12 0]: r-xp /bin/prog\n"
		  "            prog     7     1.500000: PERF_RECORD_FORK(8:8):(7:7)\n"
		  "            prog     7     1.500000: PERF_RECORD_SWITCH OUT preempt\n"
		  "            prog     7     1.500000: PERF_RECORD_SWITCH_CPU_WIDE IN           prev pid/tid:     9/9    \n");
	rp_session_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_line),
		cmocka_unit_test(test_callchain),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_sideband),
	};

	/* Formatted at once (one thread), then on the printer's pool of
	 * threads: the text must be the same. */
	test_nr_threads = 1;
	int failed = cmocka_run_group_tests_name("one thread", tests, NULL, NULL);
	test_nr_threads = 2;
	failed += cmocka_run_group_tests_name("formatting pool", tests, NULL, NULL);
	return failed;
}
