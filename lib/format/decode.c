/* SPDX-License-Identifier: MIT */
/*
 * Records to typed events: which evsel a record belongs to, its time, the
 * sample_id_all trailer, every PERF_SAMPLE_* field and the payload of each
 * record type.
 *
 * Format: perf_event.h (enum perf_event_type comments give each layout,
 * PERF_RECORD_SAMPLE gives the sample field order, struct sample_id the
 * trailer); perf's evlist.c (evlist__event2evsel) and evsel.c
 * (evsel__parse_sample, perf_evsel__parse_id_sample) for ids and trailers.
 */
#include <stdlib.h>
#include <string.h>

#include "common/cursor.h"
#include "common/error_int.h"
#include "format/session_int.h"

/* Caps on arrays inside one record (records are < 64 KiB anyway). */
#define RP_MAX_REGS 64u

const struct rp_evsel *rp_record_evsel(const struct rp_session *s, const uint8_t *rec,
				       uint32_t type, uint32_t size)
{
	const struct rp_evsel *first = s->nr_evsels ? s->evsels[0] : NULL;
	uint64_t n = (size - 8u) / 8u, id;

	if (s->nr_evsels <= 1)
		return first;
	if (type != RP_RECORD_SAMPLE && !s->sample_id_all)
		return first;
	if (type == RP_RECORD_SAMPLE) {
		if (s->id_pos < 0)
			return first;
		if ((uint64_t)s->id_pos >= n)
			return NULL;
		id = rp_load64(rec + 8 + 8 * (size_t)s->id_pos, s->swap);
	} else {
		if (s->is_pos < 0)
			return first;
		if ((uint64_t)s->is_pos > n)
			return NULL;
		id = rp_load64(rec + 8 + 8 * (size_t)(n - (uint64_t)s->is_pos), s->swap);
	}
	/* Synthesized records carry id 0. */
	if (!id)
		return first;
	return rp_hashmap_get(&s->id_map, id);
}

uint64_t rp_record_time(const struct rp_session *s, const struct rp_evsel *evsel,
			const uint8_t *rec, uint32_t type, uint32_t size)
{
	uint64_t t, n = (size - 8u) / 8u, pos;

	if (!evsel)
		return (uint64_t)-1;
	t = evsel->attr.sample_type;
	if (!(t & RP_SAMPLE_TIME))
		return (uint64_t)-1;
	if (type == RP_RECORD_SAMPLE) {
		pos = !!(t & RP_SAMPLE_IDENTIFIER) + !!(t & RP_SAMPLE_IP) + !!(t & RP_SAMPLE_TID);
		if (pos >= n)
			return (uint64_t)-1;
		return rp_load64(rec + 8 + 8 * pos, s->swap);
	}
	if (!(evsel->attr.flags & RP_ATTR_SAMPLE_ID_ALL))
		return (uint64_t)-1;
	/* Counted from the end: IDENTIFIER, CPU, STREAM_ID, ID, then TIME. */
	pos = 1 + !!(t & RP_SAMPLE_IDENTIFIER) + !!(t & RP_SAMPLE_CPU) +
	      !!(t & RP_SAMPLE_STREAM_ID) + !!(t & RP_SAMPLE_ID);
	if (pos > n)
		return (uint64_t)-1;
	return rp_load64(rec + 8 + 8 * (n - pos), s->swap);
}

/* Host-order, aligned u64 array of nr entries at p: the file's bytes when
 * they can be used as they are, else a copy in the session's scratch. */
static const uint64_t *rp_u64_array(struct rp_decoder *s, const uint8_t *p, uint64_t nr)
{
	if (!s->swap && ((uintptr_t)p & 7u) == 0)
		return (const uint64_t *)(const void *)p;
	/* The scratch was sized for the whole record before decoding. */
	uint64_t *out = s->scratch + s->scratch_used;
	s->scratch_used += (size_t)nr;
	for (uint64_t i = 0; i < nr; i++)
		out[i] = rp_load64(p + 8 * i, s->swap);
	return out;
}

static int rp_scratch_reserve(struct rp_decoder *s, size_t size)
{
	size_t want = size / 8 + 1;

	s->scratch_used = 0;
	if (want <= s->scratch_alloc)
		return 0;
	uint64_t *p = realloc(s->scratch, want * sizeof(*p) * 2);
	if (!p)
		return -1;
	s->scratch = p;
	s->scratch_alloc = want * 2;
	return 0;
}

static int rp_decode_read(struct rp_cursor *c, uint64_t read_format, struct rp_read *r)
{
	uint32_t stride = 8;

	memset(r, 0, sizeof(*r));
	r->read_format = read_format;
	r->swap = c->swap;
	stride += (read_format & RP_FORMAT_ID) ? 8 : 0;
	stride += (read_format & RP_FORMAT_LOST) ? 8 : 0;
	r->stride = stride;
	if (read_format & RP_FORMAT_GROUP) {
		if (rp_cur_u64(c, &r->nr) < 0)
			return -1;
		if ((read_format & RP_FORMAT_TOTAL_TIME_ENABLED) && rp_cur_u64(c, &r->time_enabled) < 0)
			return -1;
		if ((read_format & RP_FORMAT_TOTAL_TIME_RUNNING) && rp_cur_u64(c, &r->time_running) < 0)
			return -1;
		if (r->nr > rp_cur_left(c) / stride)
			return -1;
		r->raw = c->p;
		c->p += (size_t)r->nr * stride;
		return 0;
	}
	/* One value: value, [enabled], [running], [id], [lost]; rp_read_get()
	 * knows this layout by stride 0. */
	r->nr = 1;
	r->stride = 0;
	r->raw = c->p;
	if (rp_cur_skip(c, 8) < 0)
		return -1;
	if ((read_format & RP_FORMAT_TOTAL_TIME_ENABLED) && rp_cur_u64(c, &r->time_enabled) < 0)
		return -1;
	if ((read_format & RP_FORMAT_TOTAL_TIME_RUNNING) && rp_cur_u64(c, &r->time_running) < 0)
		return -1;
	return rp_cur_skip(c, stride - 8);
}

struct rp_read_value rp_read_get(const struct rp_read *r, uint64_t i)
{
	struct rp_read_value v = { 0, 0, 0 };
	const uint8_t *p;

	if (!r->raw || i >= r->nr)
		return v;
	if (r->stride == 0) {
		/* Single value followed by the times, then id and lost. */
		p = r->raw;
		v.value = rp_load64(p, r->swap);
		p += 8;
		p += (r->read_format & RP_FORMAT_TOTAL_TIME_ENABLED) ? 8 : 0;
		p += (r->read_format & RP_FORMAT_TOTAL_TIME_RUNNING) ? 8 : 0;
	} else {
		p = (const uint8_t *)r->raw + i * r->stride;
		v.value = rp_load64(p, r->swap);
		p += 8;
	}
	if (r->read_format & RP_FORMAT_ID) {
		v.id = rp_load64(p, r->swap);
		p += 8;
	}
	if (r->read_format & RP_FORMAT_LOST)
		v.lost = rp_load64(p, r->swap);
	return v;
}

static int rp_decode_regs(struct rp_decoder *s, struct rp_cursor *c, uint64_t mask,
			  struct rp_regs *regs)
{
	regs->mask = mask;
	if (rp_cur_u64(c, &regs->abi) < 0)
		return -1;
	if (!regs->abi)
		return 0;
	regs->nr = (uint32_t)__builtin_popcountll(mask);
	if (!rp_cur_need(c, (uint64_t)regs->nr * 8))
		return -1;
	regs->regs = rp_u64_array(s, c->p, regs->nr);
	c->p += (size_t)regs->nr * 8;
	return 0;
}

/* The fields after the callchain and raw data: zeroed one by one (a memset
 * of a struct this size compiles to `rep stos`, whose start-up costs more
 * than decoding a whole sample). */
static inline void rp_sample_clear_tail(struct rp_sample *d)
{
	d->branch_nr = 0;
	d->branch_hw_idx = 0;
	d->branch_has_hw_idx = 0;
	d->branch_raw = NULL;
	d->branch_counters = NULL;
	d->regs_user.abi = 0;
	d->regs_user.mask = 0;
	d->regs_user.nr = 0;
	d->regs_user.regs = NULL;
	d->stack_user_size = 0;
	d->stack_user = NULL;
	d->stack_user_dyn_size = 0;
	d->weight = 0;
	d->weight_var1_dw = 0;
	d->weight_var2_w = 0;
	d->weight_var3_w = 0;
	d->data_src = 0;
	d->transaction = 0;
	d->regs_intr.abi = 0;
	d->regs_intr.mask = 0;
	d->regs_intr.nr = 0;
	d->regs_intr.regs = NULL;
	d->phys_addr = 0;
	d->aux_size = 0;
	d->aux = NULL;
	d->cgroup = 0;
	d->data_page_size = 0;
	d->code_page_size = 0;
}

/* One u64 field of a sample into *v when sample_type has it. */
#define RP_SAMPLE_U64(bit, v)                                    \
	do {                                                     \
		if (t & (bit)) {                                 \
			if (!rp_cur_need(c, 8))                  \
				return -1;                       \
			(v) = rp_cur_get64(c);                   \
		}                                                \
	} while (0)

/*
 * Decodes the sample into ev->u.sample and ev->sid.  Every field is set:
 * from the record, or to its default when sample_type leaves it out (0;
 * -1 for pid, tid, cpu and time; attr.sample_period for period); padding
 * is left as it is.  The fields before the callchain are read into locals
 * and stored once into both places (reading back what was just stored
 * field by field stalls on store forwarding).
 */
static int rp_decode_sample(struct rp_decoder *s, const struct rp_evsel *evsel,
			    struct rp_cursor *c, struct rp_event *ev)
{
	struct rp_sample *d = &ev->u.sample;
	const struct rp_attr *attr = &evsel->attr;
	uint64_t t = attr->sample_type;
	uint64_t id = 0, ip = 0, time = (uint64_t)-1, addr = 0, stream_id = 0;
	uint64_t period = attr->sample_period;
	uint32_t pid = (uint32_t)-1, tid = (uint32_t)-1, cpu = (uint32_t)-1;

	RP_SAMPLE_U64(RP_SAMPLE_IDENTIFIER, id);
	RP_SAMPLE_U64(RP_SAMPLE_IP, ip);
	if (t & RP_SAMPLE_TID) {
		if (!rp_cur_need(c, 8))
			return -1;
		pid = rp_cur_get32(c);
		tid = rp_cur_get32(c);
	}
	RP_SAMPLE_U64(RP_SAMPLE_TIME, time);
	RP_SAMPLE_U64(RP_SAMPLE_ADDR, addr);
	RP_SAMPLE_U64(RP_SAMPLE_ID, id);
	RP_SAMPLE_U64(RP_SAMPLE_STREAM_ID, stream_id);
	if (t & RP_SAMPLE_CPU) {
		if (!rp_cur_need(c, 8))
			return -1;
		cpu = rp_cur_get32(c);
		rp_cur_get32(c); /* res */
	}
	RP_SAMPLE_U64(RP_SAMPLE_PERIOD, period);

	d->sample_type = t;
	d->swap = (uint8_t)s->swap;
	d->ip = ip;
	d->pid = pid;
	d->tid = tid;
	d->time = time;
	d->addr = addr;
	d->id = id;
	d->stream_id = stream_id;
	d->cpu = cpu;
	d->period = period;
	ev->sid.present = t & (RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID | RP_SAMPLE_STREAM_ID |
			       RP_SAMPLE_CPU | RP_SAMPLE_IDENTIFIER);
	if (ev->sid.present & RP_SAMPLE_IDENTIFIER)
		ev->sid.present |= RP_SAMPLE_ID;
	ev->sid.pid = pid;
	ev->sid.tid = tid;
	ev->sid.time = time;
	ev->sid.id = id;
	ev->sid.stream_id = stream_id;
	ev->sid.cpu = cpu;
	d->callchain_nr = 0;
	d->callchain = NULL;
	d->raw_size = 0;
	d->raw = NULL;
	rp_sample_clear_tail(d);
	if (!(t & RP_SAMPLE_READ)) {
		d->read.read_format = 0;
		d->read.time_enabled = 0;
		d->read.time_running = 0;
		d->read.nr = 0;
		d->read.raw = NULL;
		d->read.stride = 0;
		d->read.swap = 0;
	}
	if ((t & RP_SAMPLE_READ) && rp_decode_read(c, attr->read_format, &d->read) < 0)
		return -1;
	if (t & RP_SAMPLE_CALLCHAIN) {
		if (rp_cur_u64(c, &d->callchain_nr) < 0 ||
		    d->callchain_nr > rp_cur_left(c) / 8)
			return -1;
		d->callchain = rp_u64_array(s, c->p, d->callchain_nr);
		c->p += (size_t)d->callchain_nr * 8;
	}
	if (t & RP_SAMPLE_RAW) {
		if (rp_cur_u32(c, &d->raw_size) < 0 ||
		    rp_cur_bytes(c, d->raw_size, &d->raw) < 0)
			return -1;
	}
	if (t & RP_SAMPLE_BRANCH_STACK) {
		if (rp_cur_u64(c, &d->branch_nr) < 0)
			return -1;
		if (attr->branch_sample_type & RP_BRANCH_SAMPLE_HW_INDEX) {
			if (rp_cur_u64(c, &d->branch_hw_idx) < 0)
				return -1;
			d->branch_has_hw_idx = 1;
		}
		if (d->branch_nr > rp_cur_left(c) / 24)
			return -1;
		d->branch_raw = c->p;
		c->p += (size_t)d->branch_nr * 24;
		if (attr->branch_sample_type & RP_BRANCH_SAMPLE_COUNTERS) {
			if (d->branch_nr > rp_cur_left(c) / 8)
				return -1;
			d->branch_counters = rp_u64_array(s, c->p, d->branch_nr);
			c->p += (size_t)d->branch_nr * 8;
		}
	}
	if ((t & RP_SAMPLE_REGS_USER) &&
	    rp_decode_regs(s, c, attr->sample_regs_user, &d->regs_user) < 0)
		return -1;
	if (t & RP_SAMPLE_STACK_USER) {
		if (rp_cur_u64(c, &d->stack_user_size) < 0)
			return -1;
		if (d->stack_user_size) {
			if (rp_cur_bytes(c, d->stack_user_size, &d->stack_user) < 0 ||
			    rp_cur_u64(c, &d->stack_user_dyn_size) < 0)
				return -1;
			if (d->stack_user_dyn_size > d->stack_user_size)
				d->stack_user_dyn_size = d->stack_user_size;
		}
	}
	if (t & (RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT)) {
		if (rp_cur_u64(c, &d->weight) < 0)
			return -1;
		/* union perf_sample_weight: var1_dw is the low half on both
		 * byte orders. */
		d->weight_var1_dw = (uint32_t)d->weight;
		d->weight_var2_w = (uint16_t)(d->weight >> 32);
		d->weight_var3_w = (uint16_t)(d->weight >> 48);
	}
	if ((t & RP_SAMPLE_DATA_SRC) && rp_cur_u64(c, &d->data_src) < 0)
		return -1;
	if ((t & RP_SAMPLE_TRANSACTION) && rp_cur_u64(c, &d->transaction) < 0)
		return -1;
	if ((t & RP_SAMPLE_REGS_INTR) &&
	    rp_decode_regs(s, c, attr->sample_regs_intr, &d->regs_intr) < 0)
		return -1;
	if ((t & RP_SAMPLE_PHYS_ADDR) && rp_cur_u64(c, &d->phys_addr) < 0)
		return -1;
	if ((t & RP_SAMPLE_CGROUP) && rp_cur_u64(c, &d->cgroup) < 0)
		return -1;
	if ((t & RP_SAMPLE_DATA_PAGE_SIZE) && rp_cur_u64(c, &d->data_page_size) < 0)
		return -1;
	if ((t & RP_SAMPLE_CODE_PAGE_SIZE) && rp_cur_u64(c, &d->code_page_size) < 0)
		return -1;
	if (t & RP_SAMPLE_AUX) {
		if (rp_cur_u64(c, &d->aux_size) < 0 || rp_cur_bytes(c, d->aux_size, &d->aux) < 0)
			return -1;
	}
	return 0;
}

/*
 * The flags word of perf_branch_entry is a C bitfield.  A big-endian writer
 * allocates its fields from the most significant bit, so after the u64 swap
 * a field of width w at little-endian bit o sits at bit 64 - o - w.
 * Fields: mispred, predicted, in_tx, abort, cycles:16, type:4, spec:2,
 * new_type:4, priv:3 (perf_event.h).
 */
static uint64_t rp_branch_flags_from_be(uint64_t v)
{
	static const uint8_t fields[][2] = {
		{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 },
		{ 20, 4 }, { 24, 2 }, { 26, 4 }, { 30, 3 },
	};
	uint64_t out = 0;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned o = fields[i][0], w = fields[i][1];
		uint64_t mask = (1ull << w) - 1;

		out |= ((v >> (64 - o - w)) & mask) << o;
	}
	return out;
}

struct rp_branch_entry rp_sample_branch(const struct rp_sample *d, uint64_t i)
{
	struct rp_branch_entry e = { 0, 0, 0 };

	if (!d->branch_raw || i >= d->branch_nr)
		return e;
	const uint8_t *p = (const uint8_t *)d->branch_raw + i * 24;
	e.from = rp_load64(p, d->swap);
	e.to = rp_load64(p + 8, d->swap);
	e.flags = rp_load64(p + 16, d->swap);
	if (d->swap)
		e.flags = rp_branch_flags_from_be(e.flags);
	return e;
}

struct rp_id_index_entry rp_id_index_get(const struct rp_id_index_event *ev, uint64_t i)
{
	struct rp_id_index_entry e = { 0, 0, 0, 0 };

	if (!ev->entries || i >= ev->nr)
		return e;
	const uint8_t *p = (const uint8_t *)ev->entries + i * 32;
	e.id = rp_load64(p, ev->swap);
	e.idx = rp_load64(p + 8, ev->swap);
	e.cpu = rp_load64(p + 16, ev->swap);
	e.tid = rp_load64(p + 24, ev->swap);
	return e;
}

/* The sample_id_all trailer at the end of a non-sample record. */
static void rp_decode_trailer(const struct rp_decoder *s, const struct rp_evsel *evsel,
			      const uint8_t *rec, uint32_t size, struct rp_sample_id *sid)
{
	uint64_t t = evsel->attr.sample_type;
	const uint8_t *p = rec + size - evsel->trailer_size;

	if (t & RP_SAMPLE_TID) {
		sid->pid = rp_load32(p, s->swap);
		sid->tid = rp_load32(p + 4, s->swap);
		p += 8;
	}
	if (t & RP_SAMPLE_TIME) {
		sid->time = rp_load64(p, s->swap);
		p += 8;
	}
	if (t & RP_SAMPLE_ID) {
		sid->id = rp_load64(p, s->swap);
		p += 8;
	}
	if (t & RP_SAMPLE_STREAM_ID) {
		sid->stream_id = rp_load64(p, s->swap);
		p += 8;
	}
	if (t & RP_SAMPLE_CPU) {
		sid->cpu = rp_load32(p, s->swap);
		p += 8;
	}
	if (t & RP_SAMPLE_IDENTIFIER)
		sid->id = rp_load64(p, s->swap);
	sid->present = t & (RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID |
			    RP_SAMPLE_STREAM_ID | RP_SAMPLE_CPU | RP_SAMPLE_IDENTIFIER);
	if (sid->present & RP_SAMPLE_IDENTIFIER)
		sid->present |= RP_SAMPLE_ID;
}

/* A string filling the rest of the payload: it must hold a NUL. */
static const char *rp_tail_str(struct rp_cursor *c)
{
	size_t n = rp_cur_left(c);
	const char *str = (const char *)c->p;

	if (!n || !memchr(str, 0, n))
		return NULL;
	c->p = c->end;
	return str;
}

/*
 * Whether the rest of an MMAP2 record (after ino_generation) is the name
 * itself, in the early layout (Linux 3.12 to 3.15, commit 13d7a2410fa6;
 * prot and flags came before the name from 3.16, commit f972eb63b100).
 * In the current layout those bytes are prot, at most 7 (PROT_READ,
 * PROT_WRITE, PROT_EXEC), whose first byte is below ' ' in either byte
 * order.  A name starts with a printable character and, as the kernel
 * and perf pad it (to a multiple of 8 bytes with NULs), its first NUL
 * lies in the last 8 bytes.
 */
static int rp_mmap2_is_early(const struct rp_cursor *c)
{
	size_t n = rp_cur_left(c);
	const uint8_t *nul;

	if (!n || n % 8 || c->p[0] < 0x20 || c->p[0] == 0x7f)
		return 0;
	nul = memchr(c->p, 0, n);
	return nul && (size_t)(nul - c->p) >= n - 8;
}

static int rp_decode_payload(struct rp_decoder *s, struct rp_cursor *c, struct rp_event *ev)
{
	switch (ev->type) {
	case RP_RECORD_MMAP:
	case RP_RECORD_MMAP2: {
		struct rp_mmap_event *m = &ev->u.mmap;

		if (!rp_cur_need(c, 32))
			return -1;
		m->pid = rp_cur_get32(c);
		m->tid = rp_cur_get32(c);
		m->start = rp_cur_get64(c);
		m->len = rp_cur_get64(c);
		m->pgoff = rp_cur_get64(c);
		if (ev->type == RP_RECORD_MMAP2) {
			m->is_mmap2 = 1;
			if (!rp_cur_need(c, 32))
				return -1;
			if (ev->misc & RP_MISC_MMAP_BUILD_ID) {
				m->has_build_id = 1;
				m->build_id_size = c->p[0] <= 20 ? c->p[0] : 20;
				memcpy(m->build_id, c->p + 4, 20);
				c->p += 24;
			} else {
				m->maj = rp_cur_get32(c);
				m->min = rp_cur_get32(c);
				m->ino = rp_cur_get64(c);
				m->ino_generation = rp_cur_get64(c);
			}
			if (!m->has_build_id && rp_mmap2_is_early(c)) {
				m->no_prot = 1;
			} else {
				if (!rp_cur_need(c, 8))
					return -1;
				m->prot = rp_cur_get32(c);
				m->flags = rp_cur_get32(c);
			}
		}
		m->filename = rp_tail_str(c);
		return m->filename ? 0 : -1;
	}
	case RP_RECORD_COMM:
		if (!rp_cur_need(c, 8))
			return -1;
		ev->u.comm.pid = rp_cur_get32(c);
		ev->u.comm.tid = rp_cur_get32(c);
		ev->u.comm.exec = !!(ev->misc & RP_MISC_COMM_EXEC);
		ev->u.comm.comm = rp_tail_str(c);
		return ev->u.comm.comm ? 0 : -1;
	case RP_RECORD_FORK:
	case RP_RECORD_EXIT:
		if (!rp_cur_need(c, 24))
			return -1;
		ev->u.task.pid = rp_cur_get32(c);
		ev->u.task.ppid = rp_cur_get32(c);
		ev->u.task.tid = rp_cur_get32(c);
		ev->u.task.ptid = rp_cur_get32(c);
		ev->u.task.time = rp_cur_get64(c);
		return 0;
	case RP_RECORD_LOST:
		if (!rp_cur_need(c, 16))
			return -1;
		ev->u.lost.id = rp_cur_get64(c);
		ev->u.lost.lost = rp_cur_get64(c);
		return 0;
	case RP_RECORD_LOST_SAMPLES:
		return rp_cur_u64(c, &ev->u.lost.lost);
	case RP_RECORD_THROTTLE:
	case RP_RECORD_UNTHROTTLE:
		if (!rp_cur_need(c, 24))
			return -1;
		ev->u.throttle.time = rp_cur_get64(c);
		ev->u.throttle.id = rp_cur_get64(c);
		ev->u.throttle.stream_id = rp_cur_get64(c);
		return 0;
	case RP_RECORD_READ:
		if (!rp_cur_need(c, 8) || !ev->evsel)
			return -1;
		ev->u.read.pid = rp_cur_get32(c);
		ev->u.read.tid = rp_cur_get32(c);
		return rp_decode_read(c, ev->evsel->attr.read_format, &ev->u.read.values);
	case RP_RECORD_SWITCH:
		ev->u.sw.out = !!(ev->misc & RP_MISC_SWITCH_OUT);
		ev->u.sw.preempt = !!(ev->misc & RP_MISC_SWITCH_OUT_PREEMPT);
		return 0;
	case RP_RECORD_SWITCH_CPU_WIDE:
		if (!rp_cur_need(c, 8))
			return -1;
		ev->u.sw.out = !!(ev->misc & RP_MISC_SWITCH_OUT);
		ev->u.sw.preempt = !!(ev->misc & RP_MISC_SWITCH_OUT_PREEMPT);
		ev->u.sw.next_prev_pid = rp_cur_get32(c);
		ev->u.sw.next_prev_tid = rp_cur_get32(c);
		return 0;
	case RP_RECORD_NAMESPACES: {
		struct rp_namespaces_event *n = &ev->u.namespaces;

		if (!rp_cur_need(c, 16))
			return -1;
		n->pid = rp_cur_get32(c);
		n->tid = rp_cur_get32(c);
		n->nr = rp_cur_get64(c);
		if (n->nr > rp_cur_left(c) / 16)
			return -1;
		n->link_info = c->p;
		n->swap = s->swap;
		return 0;
	}
	case RP_RECORD_KSYMBOL:
		if (!rp_cur_need(c, 16))
			return -1;
		ev->u.ksymbol.addr = rp_cur_get64(c);
		ev->u.ksymbol.len = rp_cur_get32(c);
		ev->u.ksymbol.ksym_type = rp_cur_get16(c);
		ev->u.ksymbol.flags = rp_cur_get16(c);
		ev->u.ksymbol.name = rp_tail_str(c);
		return ev->u.ksymbol.name ? 0 : -1;
	case RP_RECORD_BPF_EVENT:
		if (!rp_cur_need(c, 16))
			return -1;
		ev->u.bpf.type = rp_cur_get16(c);
		ev->u.bpf.flags = rp_cur_get16(c);
		ev->u.bpf.id = rp_cur_get32(c);
		memcpy(ev->u.bpf.tag, c->p, 8);
		c->p += 8;
		return 0;
	case RP_RECORD_CGROUP:
		if (rp_cur_u64(c, &ev->u.cgroup.id) < 0)
			return -1;
		ev->u.cgroup.path = rp_tail_str(c);
		return ev->u.cgroup.path ? 0 : -1;
	case RP_RECORD_TEXT_POKE: {
		struct rp_text_poke_event *tp = &ev->u.text_poke;
		const void *bytes;

		if (!rp_cur_need(c, 12))
			return -1;
		tp->addr = rp_cur_get64(c);
		tp->old_len = rp_cur_get16(c);
		tp->new_len = rp_cur_get16(c);
		if (rp_cur_bytes(c, (uint64_t)tp->old_len + tp->new_len, &bytes) < 0)
			return -1;
		tp->bytes = bytes;
		return 0;
	}
	case RP_RECORD_AUX:
		if (!rp_cur_need(c, 24))
			return -1;
		ev->u.aux.aux_offset = rp_cur_get64(c);
		ev->u.aux.aux_size = rp_cur_get64(c);
		ev->u.aux.flags = rp_cur_get64(c);
		return 0;
	case RP_RECORD_ITRACE_START:
		if (!rp_cur_need(c, 8))
			return -1;
		ev->u.itrace_start.pid = rp_cur_get32(c);
		ev->u.itrace_start.tid = rp_cur_get32(c);
		return 0;
	case RP_RECORD_AUX_OUTPUT_HW_ID:
		return rp_cur_u64(c, &ev->u.aux_output_hw_id.hw_id);
	case RP_RECORD_CALLCHAIN_DEFERRED: {
		struct rp_callchain_deferred_event *cd = &ev->u.callchain_deferred;

		if (!rp_cur_need(c, 16))
			return -1;
		cd->cookie = rp_cur_get64(c);
		cd->nr = rp_cur_get64(c);
		if (cd->nr > rp_cur_left(c) / 8)
			return -1;
		cd->ips = rp_u64_array(s, c->p, cd->nr);
		return 0;
	}
	case RP_RECORD_ID_INDEX:
		if (rp_cur_u64(c, &ev->u.id_index.nr) < 0 ||
		    ev->u.id_index.nr > rp_cur_left(c) / 32)
			return -1;
		ev->u.id_index.entries = c->p;
		ev->u.id_index.swap = s->swap;
		return 0;
	case RP_RECORD_THREAD_MAP:
		if (rp_cur_u64(c, &ev->u.thread_map.nr) < 0 ||
		    ev->u.thread_map.nr > rp_cur_left(c) / 24)
			return -1;
		ev->u.thread_map.entries = c->p;
		ev->u.thread_map.swap = s->swap;
		return 0;
	case RP_RECORD_EVENT_UPDATE:
		if (!rp_cur_need(c, 16))
			return -1;
		ev->u.event_update.type = rp_cur_get64(c);
		ev->u.event_update.id = rp_cur_get64(c);
		ev->u.event_update.size = (uint32_t)rp_cur_left(c);
		ev->u.event_update.data = c->p;
		return 0;
	case RP_RECORD_TIME_CONV: {
		struct rp_time_conv_event *tc = &ev->u.time_conv;

		if (!rp_cur_need(c, 24))
			return -1;
		tc->time_shift = rp_cur_get64(c);
		tc->time_mult = rp_cur_get64(c);
		tc->time_zero = rp_cur_get64(c);
		if (rp_cur_need(c, 24)) {
			tc->time_cycles = rp_cur_get64(c);
			tc->time_mask = rp_cur_get64(c);
			tc->cap_user_time_zero = c->p[0];
			tc->cap_user_time_short = c->p[1];
			tc->has_ext = 1;
		}
		return 0;
	}
	case RP_RECORD_HEADER_BUILD_ID: {
		struct rp_build_id_event *b = &ev->u.build_id;

		if (!rp_cur_need(c, 28))
			return -1;
		b->pid = rp_cur_get32(c);
		memcpy(b->build_id, c->p, 20);
		b->build_id_size = 20;
		if ((ev->misc & (1u << 15)) && c->p[20] > 0 && c->p[20] <= 20)
			b->build_id_size = c->p[20];
		c->p += 24;
		b->filename = rp_tail_str(c);
		return b->filename ? 0 : -1;
	}
	default:
		ev->u.payload.size = (uint32_t)rp_cur_left(c);
		ev->u.payload.data = c->p;
		return 0;
	}
}

int rp_record_decode_with(struct rp_decoder *s, struct rp_error *err, const uint8_t *rec,
			  uint64_t offset, uint64_t nr, const struct rp_evsel *evsel,
			  struct rp_event *ev)
{
	struct rp_cursor c;
	uint32_t size = rp_load16(rec + 6, s->swap);

	/* Field by field (a memset here compiles to `rep stos`). */
	ev->type = rp_load32(rec, s->swap);
	/* A legacy pipe stream's feature record: its payload is the
	 * feature's section, without the feature id of HEADER_FEATURE. */
	if (s->legacy_feats && rp_pipe_legacy_feature(ev->type) >= 0)
		ev->type = RP_RECORD_HEADER_FEATURE;
	ev->misc = rp_load16(rec + 4, s->swap);
	ev->size = (uint16_t)size;
	ev->offset = offset;
	ev->nr = nr;
	ev->evsel = evsel;
	ev->data = rec;
	if (rp_scratch_reserve(s, size) < 0)
		return rp_error_set_record(err, RP_ERR_NOMEM, offset, ev->type,
					   "out of memory decoding a record");

	if (ev->type == RP_RECORD_SAMPLE && evsel) {
		/* rp_decode_sample() sets ev->sid as well. */
		rp_cur_init(&c, rec + 8, size - 8u, offset + 8, s->swap);
		if (rp_decode_sample(s, evsel, &c, ev) < 0)
			return rp_error_set_record(err, RP_ERR_CORRUPT, offset, ev->type,
						   "sample shorter than its sample_type needs");
		return 0;
	}
	ev->sid.present = 0;
	ev->sid.pid = ev->sid.tid = (uint32_t)-1;
	ev->sid.time = (uint64_t)-1;
	ev->sid.id = 0;
	ev->sid.stream_id = 0;
	ev->sid.cpu = (uint32_t)-1;
	if (ev->type == RP_RECORD_SAMPLE) {
		/* Unknown id: nothing is decoded; no stale fields either. */
		memset(&ev->u.sample, 0, sizeof(ev->u.sample));
		return 0;
	}

	uint32_t end = size;
	memset(&ev->u, 0, sizeof(ev->u));
	if (ev->type < RP_RECORD_HEADER_ATTR && evsel &&
	    (evsel->attr.flags & RP_ATTR_SAMPLE_ID_ALL)) {
		if (evsel->trailer_size > size - 8u)
			return rp_error_set_record(err, RP_ERR_CORRUPT, offset, ev->type,
						   "record too short for its sample_id_all trailer");
		rp_decode_trailer(s, evsel, rec, size, &ev->sid);
		end = size - evsel->trailer_size;
	}
	rp_cur_init(&c, rec + 8, end - 8u, offset + 8, s->swap);
	if (rp_decode_payload(s, &c, ev) < 0)
		return rp_error_set_record(err, RP_ERR_CORRUPT, offset, ev->type,
					   "record payload does not match its type");
	return 0;
}

int rp_record_decode(struct rp_session *s, const uint8_t *rec, uint64_t offset, uint64_t nr,
		     const struct rp_evsel *evsel, struct rp_event *ev)
{
	s->dec.swap = s->swap;
	return rp_record_decode_with(&s->dec, &s->err, rec, offset, nr, evsel, ev);
}

void rp_decoder_release(struct rp_decoder *d)
{
	free(d->scratch);
	d->scratch = NULL;
	d->scratch_alloc = d->scratch_used = 0;
}
