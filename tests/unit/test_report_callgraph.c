/* SPDX-License-Identifier: MIT */
/*
 * Call stacks in the function overview: --children and the call graphs
 * (perf report --stdio -g), on hand-built samples with hand-built
 * callchains.  The expected texts follow docs/report.md ("Call stacks"),
 * whose rules were each checked against perf 6.1 on recorded files
 * (tests/outputs/run_callgraph.sh compares with perf itself).
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
#include "process_int.h"

#define HEAD "# To display the perf.data header info, please use --header/--header-only options.\n#\n"
#define TOP HEAD "#\n# Total Lost Samples: 0\n#\n" \
	"# Samples: 5  of event 'cpu-clock'\n# Event count (approx.): 5000\n#\n"

struct fixture {
	struct rp_session *session;
	struct rp_machine *machine;
	struct rp_dso dso_w, dso_kernel;
	struct rp_symbol main_, fa, fb, clear_page;
	uint64_t nr;
	int stack_ids; /* feed() gives each frames array a stack_id */
	int slots;     /* ... and a stack_slot, as the pipeline's cache does */
	struct rp_stack_slot slot[4];
	const struct rp_frame *slot_frames[4];
	int tid; /* feed()'s pid and tid; 0: 10 */
};

static struct fixture fx;

static int setup(void **state)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_ID | RP_SAMPLE_PERIOD | RP_SAMPLE_CALLCHAIN);
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
	fx.dso_w.idx = 1;
	fx.dso_kernel.long_name = "[kernel.kallsyms]";
	fx.dso_kernel.short_name = "[kernel.kallsyms]";
	fx.dso_kernel.kind = RP_DSO_KERNEL;
	fx.dso_kernel.idx = 0;
	fx.main_ = (struct rp_symbol){ 0x1000, 0x1100, "main", 1, 0, 2 };
	fx.fa = (struct rp_symbol){ 0x1100, 0x1200, "fa", 1, 0, 2 };
	fx.fb = (struct rp_symbol){ 0x1200, 0x1300, "fb", 1, 0, 2 };
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

/* One frame: a symbol of w, or of the kernel when k. */
static struct rp_frame frame(const struct rp_symbol *sym, int k)
{
	static const struct rp_map *fake_map = (const struct rp_map *)&fx;
	struct rp_frame f;

	memset(&f, 0, sizeof(f));
	f.al.map = fake_map;
	f.al.dso = k ? &fx.dso_kernel : &fx.dso_w;
	f.al.sym = sym;
	f.al.ip = sym->start + 0x10;
	f.al.addr = f.al.ip;
	f.al.level = k ? 'k' : '.';
	f.al.cpumode = k ? RP_MISC_KERNEL : RP_MISC_USER;
	return f;
}

/* Feeds a sample whose callchain is frames[0..nr) (leaf first). */
static void feed(struct rp_consumer c, const struct rp_frame *frames, size_t nr, unsigned times)
{
	struct rp_event ev;
	struct rp_resolved res;
	int tid = fx.tid ? fx.tid : 10;

	for (unsigned i = 0; i < times; i++) {
		memset(&ev, 0, sizeof(ev));
		memset(&res, 0, sizeof(res));
		ev.type = RP_RECORD_SAMPLE;
		ev.misc = frames[0].al.level == 'k' ? RP_MISC_KERNEL : RP_MISC_USER;
		ev.nr = fx.nr++;
		ev.evsel = rp_session_evsel(fx.session, 0);
		ev.u.sample.sample_type = RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_PERIOD |
					  RP_SAMPLE_CALLCHAIN;
		ev.u.sample.ip = frames[0].al.ip;
		ev.u.sample.pid = tid;
		ev.u.sample.tid = tid;
		ev.u.sample.period = 1000;
		res.thread = rp_machine_findnew_thread(fx.machine, tid, tid);
		assert_non_null(res.thread);
		res.comm = "w";
		res.al = frames[0].al;
		res.al.thread = res.thread;
		res.nr_callchain = nr;
		res.callchain = frames;
		/* The pipeline's promise: one id, one set of frames. */
		if (fx.stack_ids)
			res.stack_id = (uint64_t)(uintptr_t)frames;
		for (size_t k = 0; fx.slots && k < 4; k++) {
			if (!fx.slot_frames[k])
				fx.slot_frames[k] = frames;
			if (fx.slot_frames[k] == frames) {
				res.stack_slot = &fx.slot[k];
				break;
			}
		}
		assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	}
}

/*
 * main -> fa (3 samples), main -> fa -> fb, main -> fb: fa 60% self,
 * fb 40% self; with --children main 100%, fa 80%, fb 40%.
 */
static void feed_set(struct rp_consumer c)
{
	struct rp_frame a[2] = { frame(&fx.fa, 0), frame(&fx.main_, 0) };
	struct rp_frame b[3] = { frame(&fx.fb, 0), frame(&fx.fa, 0), frame(&fx.main_, 0) };
	struct rp_frame d[2] = { frame(&fx.fb, 0), frame(&fx.main_, 0) };

	feed(c, a, 2, 3);
	feed(c, b, 3, 1);
	feed(c, d, 2, 1);
}

/* Variants of one report that must print the same: stacks found by their
 * frames or through the pipeline's stack_id and slot, and stacks built
 * into the graphs at the end or after every new stack (the smallest
 * cap, which also leaves slots naming drained stacks). */
enum variant { PLAIN, STACK_IDS, SLOTS, SLOTS_SMALL_CAP, SMALL_CAP, NR_VARIANTS };

static void check_variant(const struct rp_report_opts *o, const char *want, enum variant v)
{
	struct rp_report *r;

	assert_int_equal(rp_report_new(&r, fx.session, o), 0);
	fx.stack_ids = v == STACK_IDS || v == SLOTS || v == SLOTS_SMALL_CAP;
	fx.slots = v == SLOTS || v == SLOTS_SMALL_CAP;
	memset(fx.slot, 0, sizeof(fx.slot));
	memset(fx.slot_frames, 0, sizeof(fx.slot_frames));
	if (v == SMALL_CAP || v == SLOTS_SMALL_CAP)
		assert_int_equal(rp_report_set_stacks_cap(r, 1), 0);
	/* Callchains are resolved only for what shows them. */
	assert_int_equal(!!(rp_report_consumer(r).flags & RP_CONSUMER_CALLCHAIN),
			 o->call_graph != RP_CALL_GRAPH_NONE || o->children);
	feed_set(rp_report_consumer(r));
	assert_report_text(r, want);
	rp_report_free(r);
	fx.stack_ids = 0;
	fx.slots = 0;
}

static void check(const struct rp_report_opts *o, const char *want)
{
	for (int v = PLAIN; v < NR_VARIANTS; v++)
		check_variant(o, want, (enum variant)v);
}

/* The default: no Children column, a callee-order graph under each row. */
static void test_graph_callee(void **state)
{
	struct rp_report_opts o = { .sz = sizeof(o) };

	(void)state;
	check(&o, TOP
	      "# Overhead  Command  Shared Object  Symbol\n"
	      "# ........  .......  .............  ......\n"
	      "#\n"
	      "    60.00%  w        w              [.] fa\n"
	      "            |\n"
	      "            ---fa\n"
	      "               main\n"
	      "\n"
	      "    40.00%  w        w              [.] fb\n"
	      "            |\n"
	      "            ---fb\n"
	      "               |          \n"
	      "               |--20.00%--fa\n"
	      "               |          main\n"
	      "               |          \n"
	      "                --20.00%--main\n"
	      "\n"
	      "\n\n");
}

/* --children: caller order; rows by Children; graphs from each frame. */
static void test_children_graph(void **state)
{
	struct rp_report_opts o = { .sz = sizeof(o), .children = 1 };

	(void)state;
	check(&o, TOP
	      "# Children      Self  Command  Shared Object  Symbol  \n"
	      "# ........  ........  .......  .............  ........\n"
	      "#\n"
	      "   100.00%     0.00%  w        w              [.] main\n"
	      "            |\n"
	      "            ---main\n"
	      "               |          \n"
	      "               |--80.00%--fa\n"
	      "               |          |          \n"
	      "               |           --20.00%--fb\n"
	      "               |          \n"
	      "                --20.00%--fb\n"
	      "\n"
	      "    80.00%    60.00%  w        w              [.] fa\n"
	      "            |          \n"
	      "            |--60.00%--main\n"
	      "            |          fa\n"
	      "            |          \n"
	      "             --20.00%--fa\n"
	      "                       fb\n"
	      "\n"
	      "    40.00%    40.00%  w        w              [.] fb\n"
	      "            |\n"
	      "            ---main\n"
	      "               |          \n"
	      "               |--20.00%--fb\n"
	      "               |          \n"
	      "                --20.00%--fa\n"
	      "                          fb\n"
	      "\n"
	      "\n\n");
}

/* --children -t: perf's -n --show-total-period -t form, no graph. */
static void test_children_rows(void **state)
{
	struct rp_report_opts o = { .sz = sizeof(o), .children = 1, .field_sep = ";",
				     .show_nr_samples = 1, .show_total_period = 1,
				     .call_graph = RP_CALL_GRAPH_NONE };

	(void)state;
	check(&o, TOP
	      "# Children;    Self;     Samples;      Period;Command;Shared Object;Symbol  \n"
	      " 100.00%; 0.00%  ; 0          ; 0          ;w      ;w            ;[.] main\n"
	      " 80.00% ; 60.00% ; 3          ; 3000       ;w      ;w            ;[.] fa\n"
	      " 40.00% ; 40.00% ; 2          ; 2000       ;w      ;w            ;[.] fb\n"
	      "\n\n");
}

/* A threshold above a branch hides it; fractal shows it as "[...]". */
static void test_threshold_fractal(void **state)
{
	struct rp_report_opts o = { .sz = sizeof(o) };

	(void)state;
	assert_int_equal(rp_report_parse_call_graph(&o, "fractal,30,callee"), 0);
	assert_int_equal(o.call_graph, RP_CALL_GRAPH_FRACTAL);
	assert_int_equal(o.call_order, RP_CALL_ORDER_CALLEE);
	assert_true(o.call_threshold_set && o.call_threshold == 30.0);
	check(&o, TOP
	      "# Overhead  Command  Shared Object  Symbol\n"
	      "# ........  .......  .............  ......\n"
	      "#\n"
	      "    60.00%  w        w              [.] fa\n"
	      "            |\n"
	      "            ---fa\n"
	      "               main\n"
	      "\n"
	      "    40.00%  w        w              [.] fb\n"
	      "            |\n"
	      "            ---fb\n"
	      "               |          \n"
	      "               |--50.00%--fa\n"
	      "               |          main\n"
	      "               |          \n"
	      "                --50.00%--main\n"
	      "\n"
	      "\n\n");
}

/* -g none and -t keep the plain rows; bad arguments are refused. */
static void test_parse(void **state)
{
	struct rp_report_opts o = { .sz = sizeof(o) };

	(void)state;
	assert_int_equal(rp_report_parse_call_graph(&o, "none"), 0);
	assert_int_equal(o.call_graph, RP_CALL_GRAPH_NONE);
	assert_int_equal(rp_report_parse_call_graph(&o, "g,0.5,caller,function,period"), 0);
	assert_int_equal(o.call_graph, RP_CALL_GRAPH_GRAPH);
	assert_int_equal(o.call_order, RP_CALL_ORDER_CALLER);
	assert_int_equal(o.call_value, RP_CALL_VALUE_PERIOD);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,0.5,7"), 0);
	assert_int_equal(o.call_print_limit, 7);
	assert_int_equal(rp_report_parse_call_graph(&o, "f"), 0);
	assert_int_equal(o.call_graph, RP_CALL_GRAPH_FLAT);
	assert_int_equal(rp_report_parse_call_graph(&o, "fo,callee"), 0);
	assert_int_equal(o.call_graph, RP_CALL_GRAPH_FOLDED);
	assert_int_equal(rp_report_parse_call_graph(&o, "fr"), 0);
	assert_int_equal(o.call_graph, RP_CALL_GRAPH_FRACTAL);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,address"), 0);
	assert_int_equal(o.call_key, RP_CALL_KEY_ADDRESS);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,fu"), 0);
	assert_int_equal(o.call_key, RP_CALL_KEY_FUNCTION);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,a"), 0);
	assert_int_equal(o.call_key, RP_CALL_KEY_ADDRESS);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,srcline"), 0);
	assert_int_equal(o.call_key, RP_CALL_KEY_SRCLINE);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,s"), 0);
	assert_int_equal(o.call_key, RP_CALL_KEY_SRCLINE);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,branch"), RP_ERR_INVAL);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,bogus"), RP_ERR_INVAL);
	assert_int_equal(rp_report_parse_call_graph(&o, "graph,1,2,3"), RP_ERR_INVAL);
	assert_int_equal(o.call_print_limit, 7); /* unchanged on error */

	struct rp_report_opts n = { .sz = sizeof(n), .call_graph = RP_CALL_GRAPH_NONE };
	check(&n, TOP
	      "# Overhead  Command  Shared Object  Symbol\n"
	      "# ........  .......  .............  ......\n"
	      "#\n"
	      "    60.00%  w        w              [.] fa\n"
	      "    40.00%  w        w              [.] fb\n"
	      "\n\n");
}

/* Recursion counts once per sample in Children; kernel frames. */
static void test_recursion_kernel(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o), .children = 1, .field_sep = ";",
				     .show_nr_samples = 1, .show_total_period = 1,
				     .call_graph = RP_CALL_GRAPH_NONE };
	struct rp_frame s[4] = { frame(&fx.clear_page, 1), frame(&fx.fa, 0), frame(&fx.fa, 0),
				 frame(&fx.main_, 0) };

	(void)state;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed(rp_report_consumer(r), s, 4, 2);
	const char *want =
		HEAD "#\n# Total Lost Samples: 0\n#\n"
		"# Samples: 2  of event 'cpu-clock'\n# Event count (approx.): 2000\n#\n"
		"# Children;    Self;     Samples;      Period;Command;Shared Object    ;Symbol        \n"
		" 100.00%; 100.00%; 2          ; 2000       ;w      ;[kernel.kallsyms];[k] clear_page\n"
		" 100.00%; 0.00%  ; 0          ; 0          ;w      ;w                ;[.] fa\n"
		" 100.00%; 0.00%  ; 0          ; 0          ;w      ;w                ;[.] main\n"
		"\n\n";
	assert_report_text(r, want);
	rp_report_free(r);
}

/*
 * The address key: one node per address (fa's two addresses are two
 * nodes), each drawn with its source line: "??:0" where no line is known
 * in a file (no symbols here), "+OFFSET" (decimal) from a kernel
 * symbol's start.
 */
static void test_address_key(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o), .call_key = RP_CALL_KEY_ADDRESS,
				     .call_order = RP_CALL_ORDER_CALLER };
	struct rp_frame a[2] = { frame(&fx.fa, 0), frame(&fx.main_, 0) };
	struct rp_frame b[2] = { frame(&fx.fa, 0), frame(&fx.main_, 0) };
	struct rp_frame k[3] = { frame(&fx.clear_page, 1), frame(&fx.fa, 0),
				 frame(&fx.main_, 0) };

	(void)state;
	b[0].al.ip = b[0].al.addr = fx.fa.start + 0x20;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed(rp_report_consumer(r), a, 2, 2);
	feed(rp_report_consumer(r), b, 2, 1);
	feed(rp_report_consumer(r), k, 3, 1);
	const char *want =
		HEAD "#\n# Total Lost Samples: 0\n#\n"
		"# Samples: 4  of event 'cpu-clock'\n# Event count (approx.): 4000\n#\n"
		"# Overhead  Command  Shared Object      Symbol        \n"
		"# ........  .......  .................  ..............\n"
		"#\n"
		"    75.00%  w        w                  [.] fa\n"
		"            |\n"
		"            ---main ??:0\n"
		"               |          \n"
		"               |--50.00%--fa ??:0\n"
		"               |          \n"
		"                --25.00%--fa ??:0\n"
		"\n"
		"    25.00%  w        [kernel.kallsyms]  [k] clear_page\n"
		"            |\n"
		"            ---main ??:0\n"
		"               fa ??:0\n"
		"               clear_page +16\n"
		"\n"
		"\n\n";
	assert_report_text(r, want);
	rp_report_free(r);
}

/*
 * The srcline key: frames merge by their text where they have one, so
 * fa and fb (both "??:0": no line is known here) are one node, drawn as
 * the frame that made it (fb's samples come first); a kernel frame has no
 * text and is drawn by name.
 */
static void test_srcline_key(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o), .call_key = RP_CALL_KEY_SRCLINE,
				     .call_order = RP_CALL_ORDER_CALLER,
				     .nr_keys = 1, .keys = { RP_SORT_COMM } };
	struct rp_frame a[2] = { frame(&fx.fa, 0), frame(&fx.main_, 0) };
	struct rp_frame b[2] = { frame(&fx.fb, 0), frame(&fx.main_, 0) };
	struct rp_frame k[3] = { frame(&fx.clear_page, 1), frame(&fx.fa, 0),
				 frame(&fx.main_, 0) };

	(void)state;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed(rp_report_consumer(r), b, 2, 1);
	feed(rp_report_consumer(r), a, 2, 2);
	feed(rp_report_consumer(r), k, 3, 1);
	const char *want =
		HEAD "#\n# Total Lost Samples: 0\n#\n"
		"# Samples: 4  of event 'cpu-clock'\n# Event count (approx.): 4000\n#\n"
		"# Overhead  Command\n"
		"# ........  .......\n"
		"#\n"
		"   100.00%  w      \n"
		"            |\n"
		"            ---main ??:0\n"
		"               fb ??:0\n"
		"               |          \n"
		"                --25.00%--clear_page\n"
		"\n"
		"\n\n";
	assert_report_text(r, want);
	rp_report_free(r);
}

/* A frame of a word of the stack that is no address: in no map. */
static struct rp_frame wild(uint64_t ip)
{
	struct rp_frame f;

	memset(&f, 0, sizeof(f));
	f.al.ip = ip;
	f.al.addr = ip;
	f.al.level = '.';
	f.al.cpumode = RP_MISC_USER;
	return f;
}

/*
 * Unresolved frames whose addresses are 2^63 or more apart: perf's
 * sort__sym_cmp() compares two unresolved entries by _sort__addr_cmp(),
 * the u64 difference taken as signed (x before y when (int64_t)(y - x)
 * > 0), which is no order.  With L = 0x10, A = 0x1000, B = 2^63 and
 * C = 0xc000000000000000: C<L, C<A, L<A, L<B, A<B, B<C (C<A<B<C is a
 * cycle).  perf makes the entries in the order L (the sample's own),
 * then the frames in caller order, A, B, C (L's frame is skipped: it is
 * L's entry), and inserts them so into its input tree (lib/rbtree.c,
 * ties and "greater" to the right):
 *   L; A right of L; B right of A, rotated: A(L, B); C left of L, the
 *   red uncle B recoloured: A(L(C, -), B).  In order: C L A B.
 * The comm key makes perf collapse: C L A B inserted again: C; L right
 * of C; A right of L, rotated: L(C, A); B right of A: L(C, A(-, B)).
 * In order: C L A B.  The output tree puts L first (its Self) and keeps
 * the tied C A B in that order (ties go right): not the unsigned order
 * (A B C) nor the signed one (B C A).
 */
static void test_children_wild_order(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o), .children = 1,
				     .call_graph = RP_CALL_GRAPH_NONE };
	/* leaf first: L, then C B A up to the outermost */
	struct rp_frame s[4] = { wild(0x10), wild(0xc000000000000000ull),
				 wild(0x8000000000000000ull), wild(0x1000) };

	(void)state;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed(rp_report_consumer(r), s, 4, 1);
	const char *want =
		HEAD "#\n# Total Lost Samples: 0\n#\n"
		"# Samples: 1  of event 'cpu-clock'\n# Event count (approx.): 1000\n#\n"
		"# Children      Self  Command  Shared Object     Symbol                \n"
		"# ........  ........  .......  ................  ......................\n"
		"#\n"
		"   100.00%   100.00%  w        [unknown]         [.] 0x0000000000000010\n"
		"   100.00%     0.00%  w        [unknown]         [.] 0xc000000000000000\n"
		"   100.00%     0.00%  w        [unknown]         [.] 0x0000000000001000\n"
		"   100.00%     0.00%  w        [unknown]         [.] 0x8000000000000000\n"
		"\n\n";
	assert_report_text(r, want);
	rp_report_free(r);
}

/*
 * Stacks that differ only in the addresses of frames with a symbol are
 * one distinct stack with the function key (the graphs and rows see
 * symbols), two with the address key; the one kept has the addresses of
 * its first sample, which the graph's nodes keep: here fa's node keeps
 * 0x1110, so the unresolved sibling 0x1150 (same period) is drawn first
 * (perf orders such ties by address, higher first).  Keeping fa's later
 * address 0x1190 would draw fa first.
 */
static void test_stacks_by_symbol(void **state)
{
	struct rp_report *r;
	struct rp_report_opts o = { .sz = sizeof(o) };
	struct rp_frame s1[3] = { frame(&fx.fb, 0), frame(&fx.fa, 0), frame(&fx.main_, 0) };
	struct rp_frame s2[3] = { frame(&fx.fb, 0), frame(&fx.fa, 0), frame(&fx.main_, 0) };
	struct rp_frame u[3] = { frame(&fx.fb, 0), frame(&fx.fa, 0), frame(&fx.main_, 0) };

	(void)state;
	s1[0].al.ip = s1[0].al.addr = 0x1210;
	s2[0].al.ip = s2[0].al.addr = 0x1220;
	s1[1].al.ip = s1[1].al.addr = 0x1110;
	s2[1].al.ip = s2[1].al.addr = 0x1190;
	u[1].al.sym = NULL;
	u[1].al.ip = u[1].al.addr = 0x1150;

	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed(rp_report_consumer(r), s1, 3, 1);
	feed(rp_report_consumer(r), s2, 3, 1);
	assert_int_equal(rp_report_nr_stacks(r), 1);
	feed(rp_report_consumer(r), u, 3, 2);
	assert_int_equal(rp_report_nr_stacks(r), 2);
	char *got = report_text(r);
	const char *lo = strstr(got, "0x1150"), *fa = strstr(got, "--fa");
	int unresolved_first = lo && fa && lo < fa;

	if (!unresolved_first)
		fprintf(stderr, "%s", got);
	free(got);
	assert_true(unresolved_first);
	rp_report_free(r);

	o.call_key = RP_CALL_KEY_ADDRESS;
	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	feed(rp_report_consumer(r), s1, 3, 1);
	feed(rp_report_consumer(r), s2, 3, 1);
	assert_int_equal(rp_report_nr_stacks(r), 2);
	rp_report_free(r);
}

/*
 * A recording with user stacks (whose frames may be inlined functions'):
 * perf keeps a node's children in a red-black tree ordered by
 * match_chain(), by name where either frame is inlined and by address
 * otherwise, and its descents can miss a child that is there.  Nine
 * callers of fb (called by main), direct ones named against their
 * addresses' order and inlined ones named between, first met in this
 * order, leave perf's tree so that a later sample through f9d misses
 * f9d's node and makes a second one (the sequence was found by replaying
 * perf's insertions): fb's graph shows f9d twice.  The sequence then
 * repeated 210 times, with four threads (partitions that take the
 * samples from the replay log, in parallel once it holds enough), prints
 * the one thread's text, with and without --children; so it does with
 * the samples spread over 64 processes of one name, whose rows and
 * graphs the collapse merges (with --children, ~600 graphs: on the
 * partitions' threads).
 */
static char *replayed_text(const struct rp_symbol *syms, size_t nr_samples, unsigned threads,
			   int children, int nr_pids)
{
	static const char *const order[] = { "f8w", "f9d", "f7d", "f5d", "f0w",
					     "f4d", "f1d", "f2d", "f0d", "f9d" };
	struct rp_report_opts o = { .sz = sizeof(o),
				    .call_graph = RP_CALL_GRAPH_GRAPH,
				    .children = children,
				    .nr_threads = threads };
	struct rp_report *r;

	assert_int_equal(rp_report_new(&r, fx.session, &o), 0);
	for (size_t k = 0; k < nr_samples; k++) {
		const char *name = order[k % 10];
		int i = name[1] - '0' + (name[2] == 'w' ? 10 : 0);
		struct rp_frame s[3] = { frame(&fx.fb, 0), frame(&syms[i], 0),
					 frame(&fx.main_, 0) };

		fx.tid = 100 + (int)(k % (size_t)nr_pids);
		feed(rp_report_consumer(r), s, 3, 1);
	}
	fx.tid = 0;
	char *text = report_text(r);

	rp_report_free(r);
	return text;
}

static void test_replayed_children(void **state)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_ID | RP_SAMPLE_PERIOD | RP_SAMPLE_CALLCHAIN |
					   RP_SAMPLE_STACK_USER);
	uint64_t id0 = 1;
	struct rp_session *saved = fx.session;
	struct rp_symbol syms[20];
	char names[20][8];

	(void)state;
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id0, 1);
	fx.session = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(fx.session);
	/* fNd at 0x2000 - 0x100 * N, fNw inlined into a function at 0x1800. */
	for (int i = 0; i < 10; i++) {
		snprintf(names[i], sizeof(names[i]), "f%dd", i);
		syms[i] = (struct rp_symbol){ 0x2000u - 0x100u * (unsigned)i,
					      0x2000u - 0x100u * (unsigned)i + 0x80u, names[i],
					      1, 0, 2 };
		snprintf(names[10 + i], sizeof(names[10 + i]), "f%dw", i);
		syms[10 + i] = (struct rp_symbol){ 0x1800, 0x1880, names[10 + i], 1, 1, 2 };
	}
	char *got = replayed_text(syms, 10, 1, 0, 1);
	size_t nr = 0;

	for (const char *at = got; (at = strstr(at, "--f9d")); at++)
		nr++;
	if (nr != 2)
		fprintf(stderr, "%s", got);
	free(got);
	assert_int_equal(nr, 2);
	for (int i = 0; i < 4; i++) {
		int children = i & 1, nr_pids = i < 2 ? 1 : 64;
		char *one = replayed_text(syms, 2100, 1, children, nr_pids);
		char *four = replayed_text(syms, 2100, 4, children, nr_pids);

		assert_string_equal(four, one);
		free(one);
		free(four);
	}
	rp_session_close(fx.session);
	fx.session = saved;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graph_callee),
		cmocka_unit_test(test_children_graph),
		cmocka_unit_test(test_children_rows),
		cmocka_unit_test(test_threshold_fractal),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_address_key),
		cmocka_unit_test(test_srcline_key),
		cmocka_unit_test(test_recursion_kernel),
		cmocka_unit_test(test_children_wild_order),
		cmocka_unit_test(test_stacks_by_symbol),
		cmocka_unit_test(test_replayed_children),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
