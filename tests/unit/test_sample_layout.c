/* SPDX-License-Identifier: MIT */
/*
 * PERF_RECORD_SAMPLE decoding: every PERF_SAMPLE_* bit in the kernel's
 * order of output, alone and in combinations, with every read_format
 * combination, branch stacks with and without hw_idx and counters,
 * registers with and without an ABI, user stacks with and without data;
 * both byte orders.
 *
 * Format: perf_event.h, PERF_RECORD_SAMPLE and struct read_format; perf's
 * evsel__parse_sample() for the byte-order rules (u32 pairs, raw and aux
 * bytes kept as written, branch flag bitfields).
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

static const uint64_t all_bits[] = {
	RP_SAMPLE_IP,	       RP_SAMPLE_TID,		 RP_SAMPLE_TIME,
	RP_SAMPLE_ADDR,	       RP_SAMPLE_READ,		 RP_SAMPLE_CALLCHAIN,
	RP_SAMPLE_ID,	       RP_SAMPLE_CPU,		 RP_SAMPLE_PERIOD,
	RP_SAMPLE_STREAM_ID,   RP_SAMPLE_RAW,		 RP_SAMPLE_BRANCH_STACK,
	RP_SAMPLE_REGS_USER,   RP_SAMPLE_STACK_USER,	 RP_SAMPLE_WEIGHT,
	RP_SAMPLE_DATA_SRC,    RP_SAMPLE_IDENTIFIER,	 RP_SAMPLE_TRANSACTION,
	RP_SAMPLE_REGS_INTR,   RP_SAMPLE_PHYS_ADDR,	 RP_SAMPLE_AUX,
	RP_SAMPLE_CGROUP,      RP_SAMPLE_DATA_PAGE_SIZE, RP_SAMPLE_CODE_PAGE_SIZE,
	RP_SAMPLE_WEIGHT_STRUCT,
};
#define NR_BITS (sizeof(all_bits) / sizeof(all_bits[0]))

/* A small deterministic generator, so that failures reproduce. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

/* Storage behind the pointers of one tb_sample. */
struct sample_store {
	struct tb_sample s;
	uint64_t callchain[8];
	uint8_t raw[28];
	struct rp_branch_entry br[4];
	uint64_t br_cnt[4];
	uint64_t regs_user[64], regs_intr[64];
	uint8_t stack[64];
	uint8_t aux[40];
};

/*
 * Fills a sample with values derived from `seed`; `variant` picks the
 * layout choices inside fields (regs ABI 0 or not, empty stack, group
 * sizes, empty arrays).
 */
static void make_sample(struct sample_store *st, const struct rp_attr *a, uint64_t seed,
			unsigned variant)
{
	struct tb_sample *s = &st->s;

	memset(st, 0, sizeof(*st));
	s->ip = 0xffffffff81000000ull + seed;
	s->pid = (uint32_t)(1000 + seed);
	s->tid = (uint32_t)(2000 + seed);
	s->time = 1000000000ull + seed * 1000;
	s->addr = 0x7f0000000000ull + seed * 8;
	s->id = a->sample_type & (RP_SAMPLE_ID | RP_SAMPLE_IDENTIFIER) ? 77 : 0;
	s->stream_id = 0x5000 + seed;
	s->cpu = (uint32_t)(seed % 7);
	s->period = 10000 + seed;
	s->read_time_enabled = 111 + seed;
	s->read_time_running = 99 + seed;
	s->read_nr = (a->read_format & RP_FORMAT_GROUP) ? (variant % 3) + 1 : 1;
	for (int i = 0; i < 8; i++) {
		s->read_value[i] = 0x100 * seed + (uint64_t)i;
		s->read_id[i] = 0x200 + (uint64_t)i;
		s->read_lost[i] = (uint64_t)i * 3;
	}
	s->callchain_nr = variant % 4 == 3 ? 0 : 5;
	st->callchain[0] = RP_CONTEXT_KERNEL;
	st->callchain[1] = 0xffffffff81234567ull;
	st->callchain[2] = RP_CONTEXT_USER;
	st->callchain[3] = 0x401000 + seed;
	st->callchain[4] = 0x402000;
	s->callchain = st->callchain;
	/* raw sizes that end the u32 + data on a u64 boundary, as the kernel does */
	s->raw_size = variant % 2 ? 20 : 4;
	for (size_t i = 0; i < sizeof(st->raw); i++)
		st->raw[i] = (uint8_t)(0xa0 + i + seed);
	s->raw = st->raw;
	s->branch_nr = variant % 3;
	s->branch_hw_idx = 0xfffffffffffffff0ull + seed % 8;
	for (int i = 0; i < 4; i++) {
		st->br[i].from = 0x400000 + 16 * (uint64_t)i;
		st->br[i].to = 0x500000 + 16 * (uint64_t)i;
		/* mispred, cycles=i+3, type=2, spec=1, priv=3 */
		st->br[i].flags = 1u | ((uint64_t)(i + 3) << 4) | (2ull << 20) | (1ull << 24) |
				  (3ull << 30);
		st->br_cnt[i] = 0xc0 + (uint64_t)i;
	}
	s->branches = st->br;
	s->branch_counters = st->br_cnt;
	s->regs_user_abi = variant % 2 ? 2 : 0; /* PERF_SAMPLE_REGS_ABI_64 or none */
	s->regs_intr_abi = variant % 2 ? 0 : 2;
	for (int i = 0; i < 64; i++) {
		st->regs_user[i] = 0x1000 + (uint64_t)i;
		st->regs_intr[i] = 0x2000 + (uint64_t)i;
	}
	s->regs_user = st->regs_user;
	s->regs_intr = st->regs_intr;
	s->stack_size = variant % 2 ? 0 : 64;
	s->stack_dyn_size = 40;
	for (size_t i = 0; i < sizeof(st->stack); i++)
		st->stack[i] = (uint8_t)(i * 7 + seed);
	s->stack = st->stack;
	/* var1_dw, var2_w, var3_w */
	s->weight = 0x00050004000000a0ull + seed;
	s->data_src = 0x29080142ull;
	s->transaction = 0x3ull | (seed << 32);
	s->phys_addr = 0x12345000ull + seed;
	s->cgroup = 0xc0c0 + seed;
	s->data_page_size = 4096;
	s->code_page_size = 2u << 20;
	s->aux_size = variant % 2 ? 40 : 16;
	for (size_t i = 0; i < sizeof(st->aux); i++)
		st->aux[i] = (uint8_t)(0x33 ^ i);
	s->aux = st->aux;
}

/* Checks a decoded event against what make_sample wrote. */
static void check_sample(const struct rp_event *ev, const struct rp_attr *a,
			 const struct tb_sample *w, const struct rp_evsel *evsel)
{
	const struct rp_sample *s = &ev->u.sample;
	uint64_t t = a->sample_type, rf = a->read_format;

	assert_int_equal(ev->type, RP_RECORD_SAMPLE);
	assert_ptr_equal(ev->evsel, evsel);
	assert_int_equal(s->sample_type, t);
	if (t & RP_SAMPLE_IP)
		assert_int_equal(s->ip, w->ip);
	if (t & RP_SAMPLE_TID) {
		assert_int_equal(s->pid, w->pid);
		assert_int_equal(s->tid, w->tid);
		assert_true(ev->sid.present & RP_SAMPLE_TID);
		assert_int_equal(ev->sid.pid, w->pid);
		assert_int_equal(ev->sid.tid, w->tid);
	}
	if (t & RP_SAMPLE_TIME) {
		assert_int_equal(s->time, w->time);
		assert_true(ev->sid.present & RP_SAMPLE_TIME);
		assert_int_equal(ev->sid.time, w->time);
	} else {
		assert_false(ev->sid.present & RP_SAMPLE_TIME);
	}
	if (t & RP_SAMPLE_ADDR)
		assert_int_equal(s->addr, w->addr);
	if (t & (RP_SAMPLE_ID | RP_SAMPLE_IDENTIFIER)) {
		assert_int_equal(s->id, w->id);
		assert_int_equal(ev->sid.id, w->id);
	}
	if (t & RP_SAMPLE_STREAM_ID) {
		assert_int_equal(s->stream_id, w->stream_id);
		assert_int_equal(ev->sid.stream_id, w->stream_id);
	}
	if (t & RP_SAMPLE_CPU) {
		assert_int_equal(s->cpu, w->cpu);
		assert_true(ev->sid.present & RP_SAMPLE_CPU);
		assert_int_equal(ev->sid.cpu, w->cpu);
	}
	if (t & RP_SAMPLE_PERIOD)
		assert_int_equal(s->period, w->period);
	if (t & RP_SAMPLE_READ) {
		const struct rp_read *r = &s->read;

		assert_int_equal(r->read_format, rf);
		if (rf & RP_FORMAT_TOTAL_TIME_ENABLED)
			assert_int_equal(r->time_enabled, w->read_time_enabled);
		if (rf & RP_FORMAT_TOTAL_TIME_RUNNING)
			assert_int_equal(r->time_running, w->read_time_running);
		assert_int_equal(r->nr, w->read_nr);
		for (uint64_t i = 0; i < r->nr; i++) {
			struct rp_read_value v = rp_read_get(r, i);

			assert_int_equal(v.value, w->read_value[i]);
			if (rf & RP_FORMAT_ID)
				assert_int_equal(v.id, w->read_id[i]);
			if (rf & RP_FORMAT_LOST)
				assert_int_equal(v.lost, w->read_lost[i]);
		}
	}
	if (t & RP_SAMPLE_CALLCHAIN) {
		assert_int_equal(s->callchain_nr, w->callchain_nr);
		for (uint64_t i = 0; i < w->callchain_nr; i++)
			assert_int_equal(s->callchain[i], w->callchain[i]);
	}
	if (t & RP_SAMPLE_RAW) {
		assert_int_equal(s->raw_size, w->raw_size);
		/* raw data is opaque: the file's bytes, never swapped */
		assert_memory_equal(s->raw, w->raw, w->raw_size);
	}
	if (t & RP_SAMPLE_BRANCH_STACK) {
		int hw = !!(a->branch_sample_type & RP_BRANCH_SAMPLE_HW_INDEX);

		assert_int_equal(s->branch_nr, w->branch_nr);
		assert_int_equal(s->branch_has_hw_idx, hw);
		if (hw)
			assert_int_equal(s->branch_hw_idx, w->branch_hw_idx);
		for (uint64_t i = 0; i < w->branch_nr; i++) {
			struct rp_branch_entry e = rp_sample_branch(s, i);

			assert_int_equal(e.from, w->branches[i].from);
			assert_int_equal(e.to, w->branches[i].to);
			assert_int_equal(e.flags, w->branches[i].flags);
		}
		if ((a->branch_sample_type & RP_BRANCH_SAMPLE_COUNTERS) && w->branch_nr) {
			assert_non_null(s->branch_counters);
			for (uint64_t i = 0; i < w->branch_nr; i++)
				assert_int_equal(s->branch_counters[i], w->branch_counters[i]);
		} else if (!(a->branch_sample_type & RP_BRANCH_SAMPLE_COUNTERS)) {
			assert_null(s->branch_counters);
		}
	}
	if (t & RP_SAMPLE_REGS_USER) {
		assert_int_equal(s->regs_user.abi, w->regs_user_abi);
		if (w->regs_user_abi) {
			uint32_t n = (uint32_t)__builtin_popcountll(a->sample_regs_user);

			assert_int_equal(s->regs_user.mask, a->sample_regs_user);
			assert_int_equal(s->regs_user.nr, n);
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal(s->regs_user.regs[i], w->regs_user[i]);
		} else {
			assert_int_equal(s->regs_user.nr, 0);
		}
	}
	if (t & RP_SAMPLE_STACK_USER) {
		assert_int_equal(s->stack_user_size, w->stack_size);
		if (w->stack_size) {
			assert_memory_equal(s->stack_user, w->stack, w->stack_size);
			assert_int_equal(s->stack_user_dyn_size, w->stack_dyn_size);
		} else {
			assert_int_equal(s->stack_user_dyn_size, 0);
		}
	}
	if (t & (RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT))
		assert_int_equal(s->weight, w->weight);
	if (t & RP_SAMPLE_WEIGHT_STRUCT) {
		assert_int_equal(s->weight_var1_dw, (uint32_t)w->weight);
		assert_int_equal(s->weight_var2_w, (uint16_t)(w->weight >> 32));
		assert_int_equal(s->weight_var3_w, (uint16_t)(w->weight >> 48));
	}
	if (t & RP_SAMPLE_DATA_SRC)
		assert_int_equal(s->data_src, w->data_src);
	if (t & RP_SAMPLE_TRANSACTION)
		assert_int_equal(s->transaction, w->transaction);
	if (t & RP_SAMPLE_REGS_INTR) {
		assert_int_equal(s->regs_intr.abi, w->regs_intr_abi);
		if (w->regs_intr_abi) {
			uint32_t n = (uint32_t)__builtin_popcountll(a->sample_regs_intr);

			assert_int_equal(s->regs_intr.mask, a->sample_regs_intr);
			assert_int_equal(s->regs_intr.nr, n);
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal(s->regs_intr.regs[i], w->regs_intr[i]);
		} else {
			assert_int_equal(s->regs_intr.nr, 0);
		}
	}
	if (t & RP_SAMPLE_PHYS_ADDR)
		assert_int_equal(s->phys_addr, w->phys_addr);
	if (t & RP_SAMPLE_CGROUP)
		assert_int_equal(s->cgroup, w->cgroup);
	if (t & RP_SAMPLE_DATA_PAGE_SIZE)
		assert_int_equal(s->data_page_size, w->data_page_size);
	if (t & RP_SAMPLE_CODE_PAGE_SIZE)
		assert_int_equal(s->code_page_size, w->code_page_size);
	if (t & RP_SAMPLE_AUX) {
		assert_int_equal(s->aux_size, w->aux_size);
		assert_memory_equal(s->aux, w->aux, w->aux_size);
	}
}

#define NR_VARIANTS 6

/*
 * Writes NR_VARIANTS samples for attr `a` in the given byte order, reads
 * them back in file order and checks every field.
 */
static void roundtrip(const struct rp_attr *a, int swap)
{
	struct tb_file f;
	struct sample_store st[NR_VARIANTS];
	size_t off[NR_VARIANTS];
	struct rp_session *s;
	struct rp_event ev;
	const uint64_t ids[1] = { 77 };
	char what[160];

	snprintf(what, sizeof(what), "sample_type %#llx read_format %#llx branch %#llx swap %d",
		 (unsigned long long)a->sample_type, (unsigned long long)a->read_format,
		 (unsigned long long)a->branch_sample_type, swap);
	tb_file_init(&f, swap);
	tb_file_attr(&f, a, ids, 1);
	for (unsigned v = 0; v < NR_VARIANTS; v++) {
		make_sample(&st[v], a, v + 1, v);
		off[v] = tb_sample(&f.data, a, RP_MISC_USER, &st[v].s);
	}
	s = tb_file_open(&f, RP_ORDER_FILE);
	if (!s)
		fail_msg("open failed: %s", what);
	for (unsigned v = 0; v < NR_VARIANTS; v++) {
		int rc = rp_test_next(s, &ev);

		if (rc != 1) {
			char line[512];

			fail_msg("%s: sample %u: rc %d: %s", what, v, rc,
				 rp_error_format(rp_session_error(s), line, sizeof(line)));
		}
		assert_int_equal(ev.offset, f.off_data + off[v]);
		assert_int_equal(ev.misc, RP_MISC_USER);
		check_sample(&ev, a, &st[v].s, rp_session_evsel(s, 0));
	}
	assert_int_equal(rp_test_next(s, &ev), 0);
	assert_int_equal(rp_session_nr_records(s, RP_RECORD_SAMPLE), NR_VARIANTS);
	rp_session_close(s);
	tb_file_free(&f);
}

static struct rp_attr attr_for(uint64_t sample_type)
{
	struct rp_attr a = tb_attr_default(sample_type);

	a.read_format = RP_FORMAT_ID | RP_FORMAT_TOTAL_TIME_ENABLED;
	a.branch_sample_type = RP_BRANCH_SAMPLE_HW_INDEX | 0x1; /* any user branch */
	a.sample_regs_user = 0xff0fff; /* x86 general registers */
	a.sample_regs_intr = 0x1f0003;
	a.sample_stack_user = 64;
	return a;
}

static void test_each_bit_alone(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++)
		for (size_t i = 0; i < NR_BITS; i++) {
			struct rp_attr a = attr_for(all_bits[i]);

			roundtrip(&a, swap);
		}
}

static void test_every_bit_at_once(void **state)
{
	(void)state;
	uint64_t t = 0;

	for (size_t i = 0; i < NR_BITS; i++)
		t |= all_bits[i];
	for (int swap = 0; swap < 2; swap++) {
		struct rp_attr a = attr_for(t);

		roundtrip(&a, swap);
		a.branch_sample_type |= RP_BRANCH_SAMPLE_COUNTERS;
		roundtrip(&a, swap);
		a.read_format = RP_FORMAT_GROUP | RP_FORMAT_ID | RP_FORMAT_LOST |
				RP_FORMAT_TOTAL_TIME_ENABLED | RP_FORMAT_TOTAL_TIME_RUNNING;
		roundtrip(&a, swap);
	}
}

/* Random subsets of every bit: 300 sample_types in each byte order. */
static void test_random_combinations(void **state)
{
	(void)state;
	rng_state = 0x9e3779b97f4a7c15ull;
	for (int n = 0; n < 300; n++) {
		uint64_t r = rng(), t = 0;

		for (size_t i = 0; i < NR_BITS; i++)
			if (r >> i & 1)
				t |= all_bits[i];
		struct rp_attr a = attr_for(t);

		a.read_format = (r >> 32) & 0x1f;
		a.branch_sample_type = ((r >> 40) & 1 ? RP_BRANCH_SAMPLE_HW_INDEX : 0) |
				       ((r >> 41) & 1 ? RP_BRANCH_SAMPLE_COUNTERS : 0);
		a.sample_regs_user = rng() & 0xffffff;
		a.sample_regs_intr = rng();
		roundtrip(&a, n & 1);
	}
}

/* PERF_SAMPLE_READ with all 32 read_format combinations, around other bits. */
static void test_read_formats(void **state)
{
	(void)state;
	const uint64_t around[] = {
		0,
		RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID | RP_SAMPLE_PERIOD,
		RP_SAMPLE_IDENTIFIER | RP_SAMPLE_CALLCHAIN | RP_SAMPLE_CPU,
	};

	for (int swap = 0; swap < 2; swap++)
		for (size_t k = 0; k < sizeof(around) / sizeof(around[0]); k++)
			for (uint64_t rf = 0; rf < 32; rf++) {
				struct rp_attr a = attr_for(around[k] | RP_SAMPLE_READ);

				a.read_format = rf;
				roundtrip(&a, swap);
			}
}

/* Branch stacks: hw_idx and counters on and off, around a RAW field. */
static void test_branch_variants(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++)
		for (unsigned k = 0; k < 4; k++) {
			struct rp_attr a = attr_for(RP_SAMPLE_IP | RP_SAMPLE_RAW |
						    RP_SAMPLE_BRANCH_STACK | RP_SAMPLE_REGS_USER);

			a.branch_sample_type = 0x1 | (k & 1 ? RP_BRANCH_SAMPLE_HW_INDEX : 0) |
					       (k & 2 ? RP_BRANCH_SAMPLE_COUNTERS : 0);
			roundtrip(&a, swap);
		}
}

/* Register masks: empty, one register, all 64. */
static void test_regs_masks(void **state)
{
	(void)state;
	const uint64_t masks[] = { 0, 1, 0x8000000000000000ull, ~0ull };

	for (int swap = 0; swap < 2; swap++)
		for (size_t i = 0; i < 4; i++) {
			struct rp_attr a = attr_for(RP_SAMPLE_TID | RP_SAMPLE_REGS_USER |
						    RP_SAMPLE_STACK_USER | RP_SAMPLE_REGS_INTR |
						    RP_SAMPLE_PHYS_ADDR);

			a.sample_regs_user = masks[i];
			a.sample_regs_intr = masks[3 - i];
			roundtrip(&a, swap);
		}
}

/*
 * Without PERF_SAMPLE_PERIOD the period is the attr's sample_period
 * (perf record -c N).
 */
static void test_period_from_attr(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME);
		struct tb_file f;
		struct tb_sample smp;
		struct rp_session *s;
		struct rp_event ev;

		a.flags &= ~RP_ATTR_FREQ;
		a.sample_period = 250000;
		memset(&smp, 0, sizeof(smp));
		smp.ip = 0x401000;
		smp.time = 5;
		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, NULL, 0);
		tb_sample(&f.data, &a, RP_MISC_USER, &smp);
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		assert_int_equal(rp_test_next(s, &ev), 1);
		assert_int_equal(ev.u.sample.period, 250000);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/*
 * A sample shorter than its sample_type needs is corrupt; the samples
 * before it are delivered and the error names its offset and type.
 */
static void test_short_sample(void **state)
{
	(void)state;
	const uint64_t types[] = {
		RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_PERIOD,
		RP_SAMPLE_IP | RP_SAMPLE_CALLCHAIN,
		RP_SAMPLE_IP | RP_SAMPLE_RAW,
		RP_SAMPLE_IP | RP_SAMPLE_BRANCH_STACK,
		RP_SAMPLE_IP | RP_SAMPLE_REGS_USER,
		RP_SAMPLE_IP | RP_SAMPLE_STACK_USER,
		RP_SAMPLE_IP | RP_SAMPLE_READ,
		RP_SAMPLE_IP | RP_SAMPLE_AUX,
	};

	/* mode 0: the last 8 bytes cut off; mode 1: a count beyond the record */
	for (int mode = 0; mode < 2; mode++)
	for (int swap = 0; swap < 2; swap++)
		for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
			struct rp_attr a = attr_for(types[k]);
			struct sample_store st;
			struct tb_file f;
			struct rp_session *s;
			struct rp_event ev;
			size_t off;
			int rc;

			/* Mode 1 needs a count right after ip. */
			if (mode == 1 && (types[k] & (RP_SAMPLE_REGS_USER | RP_SAMPLE_TID)))
				continue;
			a.read_format = RP_FORMAT_GROUP | RP_FORMAT_ID;
			tb_file_init(&f, swap);
			tb_file_attr(&f, &a, NULL, 0);
			make_sample(&st, &a, 1, 0);
			tb_sample(&f.data, &a, RP_MISC_USER, &st.s);
			off = tb_sample(&f.data, &a, RP_MISC_USER, &st.s);
			if (mode == 0) {
				f.data.len -= 8;
				tb_put_u16(&f.data, off + 6, (uint16_t)(f.data.len - off));
			} else if (types[k] & RP_SAMPLE_RAW) {
				tb_put_u32(&f.data, off + 16, 0x7ffffff0u);
			} else {
				/* the u64 count right after ip; huge and merely too big */
				tb_put_u64(&f.data, off + 16, 0x1000000000000000ull);
			}
			/* A good sample after the bad one is never delivered. */
			tb_sample(&f.data, &a, RP_MISC_USER, &st.s);
			s = tb_file_open(&f, RP_ORDER_FILE);
			assert_non_null(s);
			assert_int_equal(rp_test_next(s, &ev), 1);
			check_sample(&ev, &a, &st.s, rp_session_evsel(s, 0));
			rc = rp_test_next(s, &ev);
			if (rc != RP_ERR_CORRUPT)
				fail_msg("mode %d sample_type %#llx swap %d: rc %d, expected corrupt",
					 mode, (unsigned long long)types[k], swap, rc);
			const struct rp_error *e = rp_session_error(s);
			assert_int_equal(e->code, RP_ERR_CORRUPT);
			assert_true(e->has_offset);
			assert_int_equal(e->offset, f.off_data + off);
			assert_true(e->has_record_type);
			assert_int_equal(e->record_type, RP_RECORD_SAMPLE);
			rp_session_close(s);
			tb_file_free(&f);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_bit_alone),
		cmocka_unit_test(test_every_bit_at_once),
		cmocka_unit_test(test_random_combinations),
		cmocka_unit_test(test_read_formats),
		cmocka_unit_test(test_branch_variants),
		cmocka_unit_test(test_regs_masks),
		cmocka_unit_test(test_period_from_attr),
		cmocka_unit_test(test_short_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
