/* SPDX-License-Identifier: MIT */
#include "builder.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void tb_reserve(struct tb_buf *b, size_t n)
{
	if (b->len + n <= b->alloc)
		return;
	size_t a = b->alloc ? b->alloc : 256;
	while (a < b->len + n)
		a *= 2;
	b->data = realloc(b->data, a);
	if (!b->data)
		abort();
	b->alloc = a;
}

void tb_init(struct tb_buf *b, int swap)
{
	memset(b, 0, sizeof(*b));
	b->swap = swap;
}

void tb_free(struct tb_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

void tb_bytes(struct tb_buf *b, const void *p, size_t n)
{
	if (!n)
		return;
	tb_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void tb_zero(struct tb_buf *b, size_t n)
{
	if (!n)
		return;
	tb_reserve(b, n);
	memset(b->data + b->len, 0, n);
	b->len += n;
}

void tb_u8(struct tb_buf *b, uint8_t v) { tb_bytes(b, &v, 1); }

void tb_u16(struct tb_buf *b, uint16_t v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	tb_bytes(b, &v, 2);
}

void tb_u32(struct tb_buf *b, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	tb_bytes(b, &v, 4);
}

void tb_u64(struct tb_buf *b, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	tb_bytes(b, &v, 8);
}

void tb_str(struct tb_buf *b, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;
	size_t padded = align ? (n + align - 1) / align * align : n;

	tb_bytes(b, s, n);
	tb_zero(b, padded - n);
}

void tb_put_u64(struct tb_buf *b, size_t off, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	memcpy(b->data + off, &v, 8);
}

void tb_put_u32(struct tb_buf *b, size_t off, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	memcpy(b->data + off, &v, 4);
}

void tb_put_u16(struct tb_buf *b, size_t off, uint16_t v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	memcpy(b->data + off, &v, 2);
}

size_t tb_rec_begin(struct tb_buf *b, uint32_t type, uint16_t misc)
{
	size_t start = b->len;

	tb_u32(b, type);
	tb_u16(b, misc);
	tb_u16(b, 0);
	return start;
}

void tb_rec_end(struct tb_buf *b, size_t start)
{
	tb_zero(b, (8 - (b->len - start) % 8) % 8);
	tb_put_u16(b, start + 6, (uint16_t)(b->len - start));
}

void tb_rec_end_nopad(struct tb_buf *b, size_t start)
{
	tb_put_u16(b, start + 6, (uint16_t)(b->len - start));
}

char *tb_write_tmp(const struct tb_buf *b)
{
	char tmpl[] = "/tmp/readperf-test-XXXXXX";
	int fd = mkstemp(tmpl);

	if (fd < 0)
		abort();
	if (write(fd, b->data, b->len) != (ssize_t)b->len)
		abort();
	close(fd);
	return strdup(tmpl);
}

void tb_write_file(const struct tb_buf *b, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		abort();
	if (write(fd, b->data, b->len) != (ssize_t)b->len)
		abort();
	close(fd);
}

/* ---- perf_event_attr ---- */

const uint32_t tb_attr_sizes[9] = { 64, 72, 80, 96, 104, 112, 120, 128, 136 };

static uint8_t tb_bitrev8(uint8_t v)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++)
		if (v & (1u << i))
			r |= (uint8_t)(0x80u >> i);
	return r;
}

void tb_attr(struct tb_buf *b, const struct rp_attr *a, uint32_t bytes)
{
	struct tb_buf t;

	tb_init(&t, b->swap);
	tb_u32(&t, a->type);
	tb_u32(&t, a->size);
	tb_u64(&t, a->config);
	tb_u64(&t, a->sample_period);
	tb_u64(&t, a->sample_type);
	tb_u64(&t, a->read_format);
	for (int i = 0; i < 8; i++) {
		uint8_t byte = (uint8_t)(a->flags >> (8 * i));

		tb_u8(&t, b->swap ? tb_bitrev8(byte) : byte);
	}
	if (!b->swap) {
		/* The host's own layout: the bytes of the u64 as they are. */
		uint64_t f = a->flags;

		memcpy(t.data + 40, &f, 8);
	}
	tb_u32(&t, a->wakeup_events);
	tb_u32(&t, a->bp_type);
	tb_u64(&t, a->config1);
	tb_u64(&t, a->config2);
	tb_u64(&t, a->branch_sample_type);
	tb_u64(&t, a->sample_regs_user);
	tb_u32(&t, a->sample_stack_user);
	tb_u32(&t, (uint32_t)a->clockid);
	tb_u64(&t, a->sample_regs_intr);
	tb_u32(&t, a->aux_watermark);
	tb_u16(&t, a->sample_max_stack);
	tb_u16(&t, 0);
	tb_u32(&t, a->aux_sample_size);
	tb_u32(&t, a->aux_action);
	tb_u64(&t, a->sig_data);
	tb_u64(&t, a->config3);
	if (t.len != TB_ATTR_SIZE_MAX)
		abort();
	if (bytes <= TB_ATTR_SIZE_MAX) {
		tb_bytes(b, t.data, bytes);
	} else {
		tb_bytes(b, t.data, TB_ATTR_SIZE_MAX);
		tb_zero(b, bytes - TB_ATTR_SIZE_MAX);
	}
	tb_free(&t);
}

struct rp_attr tb_attr_default(uint64_t sample_type)
{
	struct rp_attr a;

	memset(&a, 0, sizeof(a));
	a.type = RP_TYPE_SOFTWARE;
	a.size = TB_ATTR_SIZE_MAX;
	a.config = 0; /* cpu-clock */
	a.sample_period = 4000;
	a.sample_type = sample_type;
	a.flags = RP_ATTR_DISABLED | RP_ATTR_INHERIT | RP_ATTR_MMAP | RP_ATTR_COMM |
		  RP_ATTR_FREQ | RP_ATTR_ENABLE_ON_EXEC | RP_ATTR_TASK | RP_ATTR_SAMPLE_ID_ALL |
		  RP_ATTR_EXCLUDE_GUEST | RP_ATTR_MMAP2 | RP_ATTR_COMM_EXEC;
	return a;
}

/* ---- header feature bodies ---- */

void tb_feat_string(struct tb_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t len = (n + 63) / 64 * 64;

	tb_u32(b, (uint32_t)len);
	tb_bytes(b, s, n);
	tb_zero(b, len - n);
}

/* ---- samples ---- */

/* perf_branch_entry flag fields: host (little-endian bitfield) bit and width. */
static const struct {
	unsigned pos, width;
} tb_branch_fields[] = {
	{ 0, 1 },   /* mispred */
	{ 1, 1 },   /* predicted */
	{ 2, 1 },   /* in_tx */
	{ 3, 1 },   /* abort */
	{ 4, 16 },  /* cycles */
	{ 20, 4 },  /* type */
	{ 24, 2 },  /* spec */
	{ 26, 4 },  /* new_type */
	{ 30, 3 },  /* priv */
	{ 33, 31 }, /* reserved */
};

uint64_t tb_branch_flags_file(uint64_t host_flags, int swap)
{
	uint64_t out = 0;

	if (!swap)
		return host_flags;
	for (size_t i = 0; i < sizeof(tb_branch_fields) / sizeof(tb_branch_fields[0]); i++) {
		unsigned pos = tb_branch_fields[i].pos, w = tb_branch_fields[i].width;
		uint64_t mask = w == 64 ? ~0ull : ((1ull << w) - 1);
		uint64_t v = (host_flags >> pos) & mask;

		out |= v << (63 - (pos + w - 1));
	}
	return out;
}

static void tb_pad8(struct tb_buf *b)
{
	tb_zero(b, (8 - b->len % 8) % 8);
}

void tb_sample_body(struct tb_buf *b, const struct rp_attr *attr, const struct tb_sample *s)
{
	uint64_t t = attr->sample_type, rf = attr->read_format;

	if (t & RP_SAMPLE_IDENTIFIER)
		tb_u64(b, s->has_identifier ? s->identifier : s->id);
	if (t & RP_SAMPLE_IP)
		tb_u64(b, s->ip);
	if (t & RP_SAMPLE_TID) {
		tb_u32(b, s->pid);
		tb_u32(b, s->tid);
	}
	if (t & RP_SAMPLE_TIME)
		tb_u64(b, s->time);
	if (t & RP_SAMPLE_ADDR)
		tb_u64(b, s->addr);
	if (t & RP_SAMPLE_ID)
		tb_u64(b, s->id);
	if (t & RP_SAMPLE_STREAM_ID)
		tb_u64(b, s->stream_id);
	if (t & RP_SAMPLE_CPU) {
		tb_u32(b, s->cpu);
		tb_u32(b, s->cpu_res);
	}
	if (t & RP_SAMPLE_PERIOD)
		tb_u64(b, s->period);
	if (t & RP_SAMPLE_READ) {
		if (rf & RP_FORMAT_GROUP) {
			tb_u64(b, s->read_nr);
			if (rf & RP_FORMAT_TOTAL_TIME_ENABLED)
				tb_u64(b, s->read_time_enabled);
			if (rf & RP_FORMAT_TOTAL_TIME_RUNNING)
				tb_u64(b, s->read_time_running);
			for (uint64_t i = 0; i < s->read_nr; i++) {
				tb_u64(b, s->read_value[i]);
				if (rf & RP_FORMAT_ID)
					tb_u64(b, s->read_id[i]);
				if (rf & RP_FORMAT_LOST)
					tb_u64(b, s->read_lost[i]);
			}
		} else {
			tb_u64(b, s->read_value[0]);
			if (rf & RP_FORMAT_TOTAL_TIME_ENABLED)
				tb_u64(b, s->read_time_enabled);
			if (rf & RP_FORMAT_TOTAL_TIME_RUNNING)
				tb_u64(b, s->read_time_running);
			if (rf & RP_FORMAT_ID)
				tb_u64(b, s->read_id[0]);
			if (rf & RP_FORMAT_LOST)
				tb_u64(b, s->read_lost[0]);
		}
	}
	if (t & RP_SAMPLE_CALLCHAIN) {
		tb_u64(b, s->callchain_nr);
		for (uint64_t i = 0; i < s->callchain_nr; i++)
			tb_u64(b, s->callchain[i]);
	}
	if (t & RP_SAMPLE_RAW) {
		/* The kernel sizes raw data so that size + data end u64-aligned. */
		tb_u32(b, s->raw_size);
		if (s->raw_size)
			tb_bytes(b, s->raw, s->raw_size);
		tb_pad8(b);
	}
	if (t & RP_SAMPLE_BRANCH_STACK) {
		tb_u64(b, s->branch_nr);
		if (attr->branch_sample_type & RP_BRANCH_SAMPLE_HW_INDEX)
			tb_u64(b, s->branch_hw_idx);
		for (uint64_t i = 0; i < s->branch_nr; i++) {
			tb_u64(b, s->branches[i].from);
			tb_u64(b, s->branches[i].to);
			tb_u64(b, tb_branch_flags_file(s->branches[i].flags, b->swap));
		}
		if (attr->branch_sample_type & RP_BRANCH_SAMPLE_COUNTERS)
			for (uint64_t i = 0; i < s->branch_nr; i++)
				tb_u64(b, s->branch_counters[i]);
	}
	if (t & RP_SAMPLE_REGS_USER) {
		tb_u64(b, s->regs_user_abi);
		if (s->regs_user_abi)
			for (int i = 0; i < __builtin_popcountll(attr->sample_regs_user); i++)
				tb_u64(b, s->regs_user[i]);
	}
	if (t & RP_SAMPLE_STACK_USER) {
		tb_u64(b, s->stack_size);
		if (s->stack_size) {
			tb_bytes(b, s->stack, s->stack_size);
			tb_pad8(b);
			tb_u64(b, s->stack_dyn_size);
		}
	}
	if (t & (RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT))
		tb_u64(b, s->weight);
	if (t & RP_SAMPLE_DATA_SRC)
		tb_u64(b, s->data_src);
	if (t & RP_SAMPLE_TRANSACTION)
		tb_u64(b, s->transaction);
	if (t & RP_SAMPLE_REGS_INTR) {
		tb_u64(b, s->regs_intr_abi);
		if (s->regs_intr_abi)
			for (int i = 0; i < __builtin_popcountll(attr->sample_regs_intr); i++)
				tb_u64(b, s->regs_intr[i]);
	}
	if (t & RP_SAMPLE_PHYS_ADDR)
		tb_u64(b, s->phys_addr);
	if (t & RP_SAMPLE_CGROUP)
		tb_u64(b, s->cgroup);
	if (t & RP_SAMPLE_DATA_PAGE_SIZE)
		tb_u64(b, s->data_page_size);
	if (t & RP_SAMPLE_CODE_PAGE_SIZE)
		tb_u64(b, s->code_page_size);
	if (t & RP_SAMPLE_AUX) {
		tb_u64(b, s->aux_size);
		if (s->aux_size)
			tb_bytes(b, s->aux, s->aux_size);
		tb_pad8(b);
	}
}

size_t tb_sample(struct tb_buf *b, const struct rp_attr *attr, uint16_t misc,
		 const struct tb_sample *s)
{
	size_t start = tb_rec_begin(b, RP_RECORD_SAMPLE, misc);

	tb_sample_body(b, attr, s);
	tb_rec_end(b, start);
	return start;
}

void tb_sample_id(struct tb_buf *b, const struct rp_attr *attr, const struct tb_sample *s)
{
	uint64_t t = attr->sample_type;

	if (!(attr->flags & RP_ATTR_SAMPLE_ID_ALL))
		return;
	if (t & RP_SAMPLE_TID) {
		tb_u32(b, s->pid);
		tb_u32(b, s->tid);
	}
	if (t & RP_SAMPLE_TIME)
		tb_u64(b, s->time);
	if (t & RP_SAMPLE_ID)
		tb_u64(b, s->id);
	if (t & RP_SAMPLE_STREAM_ID)
		tb_u64(b, s->stream_id);
	if (t & RP_SAMPLE_CPU) {
		tb_u32(b, s->cpu);
		tb_u32(b, s->cpu_res);
	}
	if (t & RP_SAMPLE_IDENTIFIER)
		tb_u64(b, s->has_identifier ? s->identifier : s->id);
}

size_t tb_callchain_deferred(struct tb_buf *b, const struct rp_attr *attr, uint64_t cookie,
			     uint64_t nr, const uint64_t *ips, const struct tb_sample *sid)
{
	size_t start = tb_rec_begin(b, RP_RECORD_CALLCHAIN_DEFERRED, RP_MISC_USER);

	tb_u64(b, cookie);
	tb_u64(b, nr);
	for (uint64_t i = 0; i < nr; i++)
		tb_u64(b, ips[i]);
	tb_sample_id(b, attr, sid);
	tb_rec_end(b, start);
	return start;
}

/* ---- whole files ---- */

void tb_file_init(struct tb_file *f, int swap)
{
	memset(f, 0, sizeof(*f));
	f->swap = swap;
	tb_init(&f->data, swap);
	for (unsigned i = 0; i < RP_FEAT_BITS; i++)
		tb_init(&f->feat[i], swap);
}

void tb_file_free(struct tb_file *f)
{
	tb_free(&f->data);
	for (unsigned i = 0; i < RP_FEAT_BITS; i++)
		tb_free(&f->feat[i]);
}

size_t tb_file_attr(struct tb_file *f, const struct rp_attr *attr, const uint64_t *ids,
		    size_t nr_ids)
{
	struct tb_file_attr *fa;

	if (f->nr_attrs >= TB_MAX_ATTRS || nr_ids > TB_MAX_IDS)
		abort();
	fa = &f->attrs[f->nr_attrs];
	memset(fa, 0, sizeof(*fa));
	fa->attr = *attr;
	if (nr_ids)
		memcpy(fa->ids, ids, nr_ids * sizeof(ids[0]));
	fa->nr_ids = nr_ids;
	return f->nr_attrs++;
}

struct tb_buf *tb_file_feat(struct tb_file *f, unsigned feat)
{
	if (feat >= RP_FEAT_BITS)
		abort();
	f->has_feat[feat] = 1;
	return &f->feat[feat];
}

static uint32_t tb_attr_bytes(const struct tb_file_attr *fa)
{
	if (fa->bytes)
		return fa->bytes;
	return fa->attr.size ? fa->attr.size : TB_ATTR_SIZE_VER0;
}

void tb_file_build(struct tb_file *f, struct tb_buf *out)
{
	uint64_t stride = f->attr_stride;
	uint64_t ids_off[TB_MAX_ATTRS];
	size_t nfeat = 0;

	if (!stride)
		stride = (f->nr_attrs ? tb_attr_bytes(&f->attrs[0]) : TB_ATTR_SIZE_MAX) + 16;
	tb_init(out, f->swap);

	/* The header; sections patched below. */
	if (f->magic_v1)
		tb_bytes(out, "PERFFILE", 8);
	else
		tb_u64(out, 0x32454c4946524550ull); /* "PERFILE2" read as a host u64 */
	tb_u64(out, f->header_size ? f->header_size : 104);
	tb_u64(out, stride);
	tb_zero(out, 104 - out->len);

	f->off_ids = out->len;
	for (size_t i = 0; i < f->nr_attrs; i++) {
		ids_off[i] = out->len;
		for (size_t j = 0; j < f->attrs[i].nr_ids; j++)
			tb_u64(out, f->attrs[i].ids[j]);
	}

	f->off_attrs = out->len;
	for (size_t i = 0; i < f->nr_attrs; i++) {
		const struct tb_file_attr *fa = &f->attrs[i];
		uint64_t room = stride >= 16 ? stride - 16 : 0;
		uint32_t bytes = tb_attr_bytes(fa);
		size_t start = out->len;

		if (bytes > room)
			bytes = (uint32_t)room;
		tb_attr(out, &fa->attr, bytes);
		tb_zero(out, room - bytes);
		tb_u64(out, fa->nr_ids ? ids_off[i] : 0);
		tb_u64(out, fa->nr_ids * 8);
		if (out->len - start != stride)
			abort();
	}
	tb_put_u64(out, 24, f->off_attrs);
	tb_put_u64(out, 32, (uint64_t)f->nr_attrs * stride);

	f->off_data = out->len;
	tb_bytes(out, f->data.data, f->data.len);
	tb_put_u64(out, 40, f->off_data);
	tb_put_u64(out, 48, f->data.len);

	/* Feature bitmap, then the index and the bodies after the data. */
	for (unsigned w = 0; w < 4; w++) {
		uint64_t bits = 0;

		for (unsigned k = 0; k < 64; k++)
			if (f->has_feat[w * 64 + k])
				bits |= 1ull << k;
		tb_put_u64(out, 72 + 8 * w, bits);
	}
	for (unsigned i = 0; i < RP_FEAT_BITS; i++)
		nfeat += f->has_feat[i];
	f->off_feat_index = out->len;
	tb_zero(out, nfeat * 16);
	size_t k = 0;
	for (unsigned i = 0; i < RP_FEAT_BITS; i++) {
		if (!f->has_feat[i])
			continue;
		tb_put_u64(out, f->off_feat_index + 16 * k, out->len);
		tb_put_u64(out, f->off_feat_index + 16 * k + 8, f->feat[i].len);
		tb_bytes(out, f->feat[i].data, f->feat[i].len);
		k++;
	}
}

char *tb_file_write_tmp(struct tb_file *f)
{
	struct tb_buf out;
	char *path;

	tb_file_build(f, &out);
	path = tb_write_tmp(&out);
	tb_free(&out);
	return path;
}

/* ---- reading back ---- */

struct rp_session *tb_open(const char *path, enum rp_order order, uint64_t max_queued)
{
	struct rp_session_opts opts;
	struct rp_session *s = NULL;
	struct rp_error err;
	int rc;

	memset(&opts, 0, sizeof(opts));
	memset(&err, 0, sizeof(err));
	opts.sz = sizeof(opts);
	opts.order = order;
	opts.max_queued = max_queued;
	rc = rp_session_open(&s, path, &opts, &err);
	if (rc < 0) {
		char line[512];

		fprintf(stderr, "tb_open: %s: %s\n", path, rp_error_format(&err, line, sizeof(line)));
		return NULL;
	}
	return s;
}

struct rp_session *tb_file_open(struct tb_file *f, enum rp_order order)
{
	char *path = tb_file_write_tmp(f);
	struct rp_session *s = tb_open(path, order, 0);

	unlink(path);
	free(path);
	return s;
}

int tb_open_err(const char *path, struct rp_error *err)
{
	struct rp_session *s = NULL;
	int rc;

	memset(err, 0, sizeof(*err));
	rc = rp_session_open(&s, path, NULL, err);
	if (rc == 0)
		rp_session_close(s);
	return rc;
}

size_t tb_collect(struct rp_session *s, struct tb_seen *seen, size_t max, int *rc)
{
	struct rp_event ev;
	size_t n = 0;
	int r;

	while ((r = rp_test_next(s, &ev)) == 1) {
		if (n < max) {
			struct tb_seen *o = &seen[n];

			memset(o, 0, sizeof(*o));
			o->type = ev.type;
			o->misc = ev.misc;
			o->size = ev.size;
			o->nr = ev.nr;
			o->offset = ev.offset;
			o->present = ev.sid.present;
			o->time = ev.sid.time;
			o->ip = ev.type == RP_RECORD_SAMPLE ? ev.u.sample.ip : 0;
			o->evsel = ev.evsel;
		}
		n++;
	}
	*rc = r;
	return n;
}
