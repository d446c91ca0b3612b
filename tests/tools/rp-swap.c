/* SPDX-License-Identifier: MIT */
/*
 * rp-swap: rewrites a little-endian perf.data (file or pipe mode) in big-
 * endian byte order, field by field, as a big-endian perf would have
 * written it: the header, the attrs (the flag bitfield bytes bit-reversed),
 * the ids, every record by its layout (samples by their attr's
 * sample_type: u32 pairs swapped as u32s, RAW/AUX/stack bytes untouched,
 * branch flags as a big-endian bitfield; sample_id_all trailers), records
 * inside COMPRESSED/COMPRESSED2 (inflated, swapped, deflated again), and the
 * feature sections by each feature's layout.
 *
 *   rp-swap IN OUT
 *
 * A test tool: it trusts its input (a file perf just wrote) and exits 1
 * with a message on anything it does not understand.
 * Format: perf_event.h; perf.data-file-format.txt; perf's util/header.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define MAX_ATTRS 256
#define SAMPLE_TID (1u << 1)
#define SAMPLE_TIME (1u << 2)
#define SAMPLE_READ (1u << 4)
#define SAMPLE_CALLCHAIN (1u << 5)
#define SAMPLE_ID (1u << 6)
#define SAMPLE_CPU (1u << 7)
#define SAMPLE_STREAM_ID (1u << 9)
#define SAMPLE_RAW (1u << 10)
#define SAMPLE_BRANCH_STACK (1u << 11)
#define SAMPLE_REGS_USER (1u << 12)
#define SAMPLE_STACK_USER (1u << 13)
#define SAMPLE_IDENTIFIER (1u << 16)
#define SAMPLE_REGS_INTR (1u << 18)
#define SAMPLE_AUX (1u << 20)
#define SAMPLE_WEIGHT_STRUCT (1u << 24)
#define FMT_GROUP (1u << 3)

struct attr {
	uint64_t sample_type, read_format, branch_type, regs_user, regs_intr;
	int sample_id_all;
	uint64_t *ids;
	size_t nr_ids;
};

static struct attr attrs[MAX_ATTRS];
static size_t nr_attrs;
static uint32_t nr_cpus_avail;
static int pipe_mode;

static void die(const char *msg)
{
	fprintf(stderr, "rp-swap: %s\n", msg);
	exit(1);
}

static uint64_t ld64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t ld32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t ld16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static void sw64(uint8_t *p) { uint64_t v = __builtin_bswap64(ld64(p)); memcpy(p, &v, 8); }
static void sw32(uint8_t *p) { uint32_t v = __builtin_bswap32(ld32(p)); memcpy(p, &v, 4); }
static void sw16(uint8_t *p) { uint16_t v = __builtin_bswap16(ld16(p)); memcpy(p, &v, 2); }
static void sw64n(uint8_t *p, size_t n) { for (size_t i = 0; i < n; i++) sw64(p + 8 * i); }
static void sw32n(uint8_t *p, size_t n) { for (size_t i = 0; i < n; i++) sw32(p + 4 * i); }

static uint8_t bitrev8(uint8_t b)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			r |= (uint8_t)(0x80u >> i);
	return r;
}

/* perf_event_attr of len bytes, in place. */
static void swap_attr(uint8_t *p, size_t len)
{
	static const struct { uint16_t off, size; } f[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, /* 40: flags */
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 },
		{ 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 }, { 112, 4 }, { 116, 4 },
		{ 120, 8 }, { 128, 8 },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i].off + f[i].size > len)
			break;
		if (f[i].size == 8)
			sw64(p + f[i].off);
		else if (f[i].size == 4)
			sw32(p + f[i].off);
		else
			sw16(p + f[i].off);
	}
	if (len >= 48)
		for (int i = 0; i < 8; i++)
			p[40 + i] = bitrev8(p[40 + i]);
}

/* Remembers a native attr (before swapping). */
static struct attr *note_attr(const uint8_t *p, size_t len)
{
	struct attr *a;

	if (nr_attrs == MAX_ATTRS)
		die("too many attrs");
	a = &attrs[nr_attrs++];
	memset(a, 0, sizeof(*a));
	a->sample_type = ld64(p + 24);
	a->read_format = ld64(p + 32);
	a->sample_id_all = (ld64(p + 40) >> 18) & 1;
	if (len >= 80)
		a->branch_type = ld64(p + 72);
	if (len >= 88)
		a->regs_user = ld64(p + 80);
	if (len >= 104)
		a->regs_intr = ld64(p + 96);
	return a;
}

static void add_ids(struct attr *a, const uint8_t *ids, size_t n)
{
	a->ids = malloc(n * 8 + 8);
	if (!a->ids)
		die("out of memory");
	memcpy(a->ids, ids, n * 8);
	a->nr_ids = n;
}

static struct attr *attr_by_id(uint64_t id)
{
	for (size_t i = 0; i < nr_attrs; i++)
		for (size_t j = 0; j < attrs[i].nr_ids; j++)
			if (attrs[i].ids[j] == id)
				return &attrs[i];
	return nr_attrs ? &attrs[0] : NULL;
}

static int id_pos(uint64_t t)
{
	int pos = 0;

	if (t & SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & SAMPLE_ID))
		return -1;
	for (uint64_t b = 1; b < SAMPLE_ID; b <<= 1)
		if (b != SAMPLE_READ && b != SAMPLE_CALLCHAIN && (t & b))
			pos++;
	return pos;
}

static int is_pos(uint64_t t)
{
	int pos = 1;

	if (t & SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & SAMPLE_ID))
		return -1;
	if (t & SAMPLE_CPU)
		pos++;
	if (t & SAMPLE_STREAM_ID)
		pos++;
	return pos;
}

/* The attr of a native record. */
static struct attr *record_attr(const uint8_t *rec, uint32_t type, uint32_t size)
{
	if (nr_attrs <= 1)
		return nr_attrs ? &attrs[0] : NULL;
	uint64_t t = attrs[0].sample_type;
	size_t n = (size - 8) / 8;
	if (type == 9) {
		int pos = id_pos(t);
		if (pos < 0 || (size_t)pos >= n)
			return &attrs[0];
		return attr_by_id(ld64(rec + 8 + 8 * pos));
	}
	if (!attrs[0].sample_id_all)
		return &attrs[0];
	int pos = is_pos(t);
	if (pos < 0 || (size_t)pos > n)
		return &attrs[0];
	return attr_by_id(ld64(rec + 8 + 8 * (n - pos)));
}

static size_t trailer_size(uint64_t t)
{
	size_t n = 0;

	n += !!(t & SAMPLE_TID) + !!(t & SAMPLE_TIME) + !!(t & SAMPLE_ID);
	n += !!(t & SAMPLE_STREAM_ID) + !!(t & SAMPLE_CPU) + !!(t & SAMPLE_IDENTIFIER);
	return n * 8;
}

/* The sample_id_all trailer at p (u64 slots; TID and CPU are u32 pairs). */
static void swap_trailer(uint8_t *p, uint64_t t)
{
	if (t & SAMPLE_TID) { sw32n(p, 2); p += 8; }
	if (t & SAMPLE_TIME) { sw64(p); p += 8; }
	if (t & SAMPLE_ID) { sw64(p); p += 8; }
	if (t & SAMPLE_STREAM_ID) { sw64(p); p += 8; }
	if (t & SAMPLE_CPU) { sw32n(p, 2); p += 8; }
	if (t & SAMPLE_IDENTIFIER) { sw64(p); p += 8; }
}

static uint64_t branch_flags_to_be(uint64_t v)
{
	static const uint8_t fields[][2] = {
		{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 },
		{ 20, 4 }, { 24, 2 }, { 26, 4 }, { 30, 3 },
	};
	uint64_t out = 0;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned o = fields[i][0], w = fields[i][1];
		uint64_t mask = (1ull << w) - 1;

		out |= ((v >> o) & mask) << (64 - o - w);
	}
	return out;
}

static uint8_t *swap_read_values(uint8_t *p, uint64_t fmt)
{
	size_t per = 1 + !!(fmt & (1u << 2)) + !!(fmt & (1u << 4)); /* value, id, lost */

	if (fmt & FMT_GROUP) {
		uint64_t nr = ld64(p);
		size_t head = 1 + !!(fmt & 1u) + !!(fmt & 2u);
		sw64n(p, head);
		p += head * 8;
		sw64n(p, nr * per);
		return p + nr * per * 8;
	}
	size_t n = 1 + !!(fmt & 1u) + !!(fmt & 2u) + !!(fmt & (1u << 2)) + !!(fmt & (1u << 4));
	sw64n(p, n);
	return p + n * 8;
}

static void swap_sample(uint8_t *p, uint8_t *end, const struct attr *a)
{
	/* perf_event.h: the order of the fields in a sample. */
	static const uint8_t order[] = { 16, 0, 1, 2, 3, 6, 9, 7, 8, 4, 5, 10, 11, 12, 13,
					 14, 24, 15, 17, 18, 19, 20, 21, 22, 23 };
	uint64_t t = a->sample_type;

	for (size_t k = 0; k < sizeof(order); k++) {
		uint64_t b = 1ull << order[k];

		if (!(t & b) || p >= end)
			continue;
		switch (b) {
		case SAMPLE_TID:
		case SAMPLE_CPU:
			sw32n(p, 2);
			p += 8;
			break;
		case SAMPLE_READ:
			p = swap_read_values(p, a->read_format);
			break;
		case SAMPLE_CALLCHAIN: {
			uint64_t nr = ld64(p);
			sw64n(p, nr + 1);
			p += (nr + 1) * 8;
			break;
		}
		case SAMPLE_RAW: {
			uint32_t sz = ld32(p);
			sw32(p);
			p += 4 + sz; /* the bytes stay as they are */
			break;
		}
		case SAMPLE_BRANCH_STACK: {
			uint64_t nr = ld64(p);
			sw64(p);
			p += 8;
			if (a->branch_type & (1u << 17)) { /* HW_INDEX */
				sw64(p);
				p += 8;
			}
			for (uint64_t i = 0; i < nr; i++, p += 24) {
				uint64_t fl = branch_flags_to_be(ld64(p + 16));
				memcpy(p + 16, &fl, 8);
				sw64n(p, 3);
			}
			if (a->branch_type & (1u << 19)) { /* COUNTERS */
				sw64n(p, nr);
				p += nr * 8;
			}
			break;
		}
		case SAMPLE_REGS_USER:
		case SAMPLE_REGS_INTR: {
			uint64_t abi = ld64(p);
			uint64_t mask = b == SAMPLE_REGS_USER ? a->regs_user : a->regs_intr;
			size_t n = abi ? (size_t)__builtin_popcountll(mask) : 0;
			sw64n(p, 1 + n);
			p += (1 + n) * 8;
			break;
		}
		case SAMPLE_STACK_USER: {
			uint64_t sz = ld64(p);
			sw64(p);
			p += 8 + sz;
			if (sz) {
				sw64(p);
				p += 8;
			}
			break;
		}
		case SAMPLE_AUX: {
			uint64_t sz = ld64(p);
			sw64(p);
			p += 8 + sz;
			break;
		}
		case SAMPLE_WEIGHT_STRUCT:
			sw32(p);
			sw16(p + 4);
			sw16(p + 6);
			p += 8;
			break;
		default:
			sw64(p);
			p += 8;
		}
	}
}

static void swap_feature(unsigned feat, uint8_t *p, size_t size);

/* Swaps a string list entry: u32 len + bytes; returns the next. */
static uint8_t *swap_str(uint8_t *p)
{
	uint32_t len = ld32(p);
	sw32(p);
	return p + 4 + len;
}

static int compress_level = 1;
static void swap_compressed(uint8_t *rec, uint32_t type, uint8_t **out, size_t *out_len);

/* One native record at rec (size bytes), in place; a compressed record is
 * replaced (*out, *out_len) by a new one. */
static void swap_record(uint8_t *rec, uint8_t **out, size_t *out_len)
{
	uint32_t type = ld32(rec);
	uint32_t size = ld16(rec + 6);
	uint16_t misc = ld16(rec + 4);
	uint8_t *b = rec + 8, *end = rec + size;
	struct attr *a = NULL;
	size_t trail = 0;

	*out = NULL;
	if (type == 81 || type == 83) {
		swap_compressed(rec, type, out, out_len);
		return;
	}
	if (type < 64) {
		a = record_attr(rec, type, size);
		if (a && type != 9 && a->sample_id_all)
			trail = trailer_size(a->sample_type);
		if (trail && trail <= size - 8u)
			swap_trailer(end - trail, a->sample_type);
	}
	switch (type) {
	case 1: /* MMAP */
		sw32n(b, 2);
		sw64n(b + 8, 3);
		break;
	case 2: /* LOST */
		sw64n(b, 2);
		break;
	case 3: /* COMM */
	case 12: /* ITRACE_START */
	case 15: /* SWITCH_CPU_WIDE */
		sw32n(b, 2);
		break;
	case 4: /* EXIT */
	case 7: /* FORK */
		sw32n(b, 4);
		sw64(b + 16);
		break;
	case 5:
	case 6: /* THROTTLE */
		sw64n(b, 3);
		break;
	case 8: /* READ */
		sw32n(b, 2);
		if (a)
			swap_read_values(b + 8, a->read_format);
		break;
	case 9:
		if (a)
			swap_sample(b, end, a);
		break;
	case 10: /* MMAP2 */
		sw32n(b, 2);
		sw64n(b + 8, 3);
		if (!(misc & (1u << 14))) {
			sw32n(b + 32, 2);
			sw64n(b + 40, 2);
		}
		sw32n(b + 56, 2);
		break;
	case 11: /* AUX */
		sw64n(b, 3);
		break;
	case 13: /* LOST_SAMPLES */
	case 19: /* CGROUP */
		sw64(b);
		break;
	case 16: { /* NAMESPACES */
		uint64_t nr = ld64(b + 8);
		sw32n(b, 2);
		sw64n(b + 8, 1 + 2 * nr);
		break;
	}
	case 17: /* KSYMBOL */
		sw64(b);
		sw32(b + 8);
		sw16(b + 12);
		sw16(b + 14);
		break;
	case 18: /* BPF_EVENT */
		sw16(b);
		sw16(b + 2);
		sw32(b + 4);
		break;
	case 20: /* TEXT_POKE */
		sw64(b);
		sw16(b + 8);
		sw16(b + 10);
		break;
	case 64: { /* HEADER_ATTR */
		uint32_t as = ld32(b + 4);
		if (!as)
			as = 64;
		struct attr *na = note_attr(b, as);
		size_t nids = (size - 8 - as) / 8;
		add_ids(na, b + as, nids);
		swap_attr(b, as);
		sw64n(b + as, nids);
		break;
	}
	case 65: /* HEADER_EVENT_TYPE */
		sw64(b);
		break;
	case 66: /* HEADER_TRACING_DATA: the payload follows, as it is */
		sw32(b);
		break;
	case 67: /* HEADER_BUILD_ID */
		sw32(b);
		break;
	case 69: { /* ID_INDEX */
		uint64_t nr = ld64(b);
		sw64n(b, (size - 8) / 8);
		(void)nr;
		break;
	}
	case 70: /* AUXTRACE_INFO */
		sw32n(b, 2);
		sw64n(b + 8, (size - 16) / 8);
		break;
	case 71: /* AUXTRACE */
		sw64n(b, 3);
		sw32n(b + 24, 4);
		break;
	case 73: { /* THREAD_MAP */
		uint64_t nr = ld64(b);
		sw64(b);
		for (uint64_t i = 0; i < nr; i++)
			sw64(b + 8 + i * 24);
		break;
	}
	case 75: /* STAT_CONFIG */
	case 76: /* STAT */
	case 77: /* STAT_ROUND */
	case 79: /* TIME_CONV (the two u8 flags are bytes anyway) */
		sw64n(b, (size - 8) / 8);
		break;
	case 78: { /* EVENT_UPDATE */
		uint64_t t = ld64(b);
		sw64n(b, 2);
		if (t == 1)
			sw64(b + 16);
		break;
	}
	case 80: { /* HEADER_FEATURE */
		uint64_t feat = ld64(b);
		sw64(b);
		swap_feature((unsigned)feat, b + 8, size - 16u);
		break;
	}
	default:
		break; /* FINISHED_ROUND, FINISHED_INIT, SWITCH: nothing */
	}
	sw32(rec);
	sw16(rec + 4);
	sw16(rec + 6);
}

/* Records of a native buffer [p, p + len), in place; returns the bytes
 * of whole records. */
static size_t swap_records(uint8_t *p, size_t len)
{
	size_t at = 0;

	while (len - at >= 8) {
		uint32_t sz = ld16(p + at + 6);
		uint8_t *o;
		size_t ol;

		if (sz < 8)
			die("bad record size inside compressed data");
		if (sz > len - at)
			break;
		swap_record(p + at, &o, &ol);
		if (o)
			die("compressed record inside compressed data");
		at += sz;
	}
	return at;
}

static ZSTD_DStream *dstream;
static uint8_t *zcarry;
static size_t zcarry_len;

static void swap_compressed(uint8_t *rec, uint32_t type, uint8_t **out, size_t *out_len)
{
	uint32_t size = ld16(rec + 6);
	const uint8_t *payload = rec + 8;
	size_t len = size - 8u;
	size_t cap = zcarry_len + (1u << 20) + len * 64;
	uint8_t *buf = malloc(cap);

	if (type == 83) {
		len = ld64(rec + 8);
		payload += 8;
	}
	if (!buf)
		die("out of memory");
	if (!dstream)
		dstream = ZSTD_createDStream();
	memcpy(buf, zcarry, zcarry_len);
	ZSTD_inBuffer in = { payload, len, 0 };
	ZSTD_outBuffer ob = { buf, cap, zcarry_len };
	while (in.pos < in.size) {
		size_t r = ZSTD_decompressStream(dstream, &ob, &in);
		if (ZSTD_isError(r))
			die("bad zstd data");
		if (ob.pos == ob.size)
			die("inflated data too large");
	}
	size_t whole = swap_records(buf, ob.pos);
	free(zcarry);
	zcarry_len = ob.pos - whole;
	zcarry = malloc(zcarry_len + 1);
	memcpy(zcarry, buf + whole, zcarry_len);

	size_t bound = ZSTD_compressBound(whole);
	size_t head = type == 83 ? 16 : 8;
	uint8_t *o = calloc(1, head + bound + 8);
	size_t clen = ZSTD_compress(o + head, bound, buf, whole, compress_level);
	if (ZSTD_isError(clen))
		die("zstd compression failed");
	size_t total = head + clen;
	if (type == 83)
		total = (total + 7) & ~(size_t)7;
	if (total > 0xffff)
		die("recompressed record too large");
	uint32_t t32 = __builtin_bswap32(type);
	uint16_t m16 = __builtin_bswap16(ld16(rec + 4)), s16 = __builtin_bswap16((uint16_t)total);
	memcpy(o, &t32, 4);
	memcpy(o + 4, &m16, 2);
	memcpy(o + 6, &s16, 2);
	if (type == 83) {
		uint64_t dl = __builtin_bswap64(clen);
		memcpy(o + 8, &dl, 8);
	}
	free(buf);
	*out = o;
	*out_len = total;
}

static void swap_feature(unsigned feat, uint8_t *p, size_t size)
{
	uint8_t *end = p + size;

	switch (feat) {
	case 3: case 4: case 5: case 6: case 8: case 9: /* strings */
		swap_str(p);
		break;
	case 7: /* NRCPUS */
		nr_cpus_avail = ld32(p);
		sw32n(p, 2);
		break;
	case 10: case 21: case 23: case 24: case 18: case 22: /* u64s */
		sw64n(p, size / 8);
		break;
	case 11: { /* CMDLINE */
		uint32_t nr = ld32(p);
		sw32(p);
		p += 4;
		for (uint32_t i = 0; i < nr; i++)
			p = swap_str(p);
		break;
	}
	case 12: { /* EVENT_DESC */
		uint32_t nr = ld32(p), as = ld32(p + 4);
		sw32n(p, 2);
		p += 8;
		for (uint32_t i = 0; i < nr && p < end; i++) {
			swap_attr(p, as);
			p += as;
			uint32_t nids = ld32(p);
			sw32(p);
			p = swap_str(p + 4);
			sw64n(p, nids);
			p += 8 * nids;
		}
		break;
	}
	case 13: { /* CPU_TOPOLOGY */
		for (int l = 0; l < 2; l++) {
			uint32_t nr = ld32(p);
			sw32(p);
			p += 4;
			for (uint32_t i = 0; i < nr; i++)
				p = swap_str(p);
		}
		size_t n = nr_cpus_avail * 2u;
		if (p + n * 4 <= end) {
			sw32n(p, n);
			p += n * 4;
		}
		if (p + 4 <= end) {
			uint32_t nr = ld32(p);
			sw32(p);
			p += 4;
			for (uint32_t i = 0; i < nr; i++)
				p = swap_str(p);
			if (p + nr_cpus_avail * 4u <= end)
				sw32n(p, nr_cpus_avail);
		}
		break;
	}
	case 14: { /* NUMA_TOPOLOGY */
		uint32_t nr = ld32(p);
		sw32(p);
		p += 4;
		for (uint32_t i = 0; i < nr; i++) {
			sw32(p);
			sw64n(p + 4, 2);
			p = swap_str(p + 20);
		}
		break;
	}
	case 16: case 17: { /* PMU_MAPPINGS, GROUP_DESC */
		uint32_t nr = ld32(p);
		sw32(p);
		p += 4;
		for (uint32_t i = 0; i < nr; i++) {
			if (feat == 16) {
				sw32(p);
				p = swap_str(p + 4);
			} else {
				p = swap_str(p);
				sw32n(p, 2);
				p += 8;
			}
		}
		break;
	}
	case 20: { /* CACHE */
		uint32_t cnt = ld32(p + 4);
		sw32n(p, 2);
		p += 8;
		for (uint32_t i = 0; i < cnt; i++) {
			sw32n(p, 4);
			p += 16;
			for (int k = 0; k < 3; k++)
				p = swap_str(p);
		}
		break;
	}
	case 25: { /* BPF_PROG_INFO: counts and lengths */
		uint32_t nr = ld32(p);
		sw32(p);
		p += 4;
		for (uint32_t i = 0; i < nr && p < end; i++) {
			uint32_t il = ld32(p), dl = ld32(p + 4);
			sw32n(p, 2);
			p += 8 + il + dl;
		}
		break;
	}
	case 26: { /* BPF_BTF */
		uint32_t nr = ld32(p);
		sw32(p);
		p += 4;
		for (uint32_t i = 0; i < nr && p < end; i++) {
			uint32_t dl = ld32(p + 4);
			sw32n(p, 2);
			p += 8 + dl;
		}
		break;
	}
	case 27: /* COMPRESSED */
		sw32n(p, size / 4);
		break;
	case 28: case 30: { /* CPU_PMU_CAPS, HYBRID_TOPOLOGY */
		uint32_t nr = ld32(p);
		sw32(p);
		p += 4;
		for (uint32_t i = 0; i < 2 * nr; i++)
			p = swap_str(p);
		break;
	}
	case 29: /* CLOCK_DATA */
		sw32n(p, 2);
		sw64n(p + 8, 2);
		break;
	case 31: { /* PMU_CAPS */
		uint32_t nr = ld32(p);
		sw32(p);
		p += 4;
		for (uint32_t i = 0; i < nr && p < end; i++) {
			uint32_t nc = ld32(p);
			sw32(p);
			p += 4;
			for (uint32_t k = 0; k < 2 * nc; k++)
				p = swap_str(p);
			p = swap_str(p);
		}
		break;
	}
	case 2: /* BUILD_ID: records */
		while (p + 8 <= end) {
			uint16_t sz = ld16(p + 6);
			if (sz < 8)
				break;
			sw32(p);
			sw16(p + 4);
			sw16(p + 6);
			sw32(p + 8);
			p += sz;
		}
		break;
	default:
		break; /* TRACING_DATA, BRANCH_STACK, STAT: bytes or empty */
	}
}

static uint8_t *data;
static size_t data_len;

static void out_write(FILE *f, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, f) != n)
		die("write failed");
}

/* The records of [at, end) of the input, swapped, to f; returns bytes
 * written. */
static uint64_t swap_stream(FILE *f, uint64_t at, uint64_t end)
{
	uint64_t written = 0;

	while (end - at >= 8) {
		uint8_t *rec = data + at;
		uint32_t sz = ld16(rec + 6), type = ld32(rec);
		uint64_t payload = 0;
		uint8_t *o;
		size_t ol;

		if (sz < 8 || sz > end - at)
			die("bad record framing");
		if (type == 71)
			payload = ld64(rec + 8);
		else if (type == 66 && pipe_mode)
			payload = ld32(rec + 8);
		swap_record(rec, &o, &ol);
		if (o) {
			out_write(f, o, ol);
			written += ol;
			free(o);
		} else {
			out_write(f, rec, sz);
			written += sz;
		}
		at += sz;
		if (payload > end - at)
			die("payload past the end");
		out_write(f, data + at, payload);
		written += payload;
		at += payload;
	}
	/* Stray bytes at the end of old pipe streams stay. */
	out_write(f, data + at, end - at);
	return written + (end - at);
}

int main(int argc, char **argv)
{
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: rp-swap IN OUT\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f)
		die("cannot open input");
	fseek(f, 0, SEEK_END);
	data_len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc(data_len + 8);
	if (!data || fread(data, 1, data_len, f) != data_len)
		die("cannot read input");
	fclose(f);
	if (data_len < 16 || memcmp(data, "PERFILE2", 8))
		die("not a little-endian perf.data");
	f = fopen(argv[2], "wb");
	if (!f)
		die("cannot open output");

	uint64_t hsize = ld64(data + 8);
	if (hsize == 16) {
		pipe_mode = 1;
		sw64n(data, 2);
		out_write(f, data, 16);
		swap_stream(f, 16, data_len);
		fclose(f);
		return 0;
	}
	if (hsize != 104)
		die("unexpected header size");
	uint64_t attr_size = ld64(data + 16), attrs_off = ld64(data + 24),
		 attrs_size = ld64(data + 32), data_off = ld64(data + 40),
		 dsize = ld64(data + 48);
	uint64_t feats[4];
	memcpy(feats, data + 72, 32);

	/* NRCPUS first: CPU_TOPOLOGY needs it. */
	uint64_t fidx = data_off + dsize;
	unsigned nfeat = 0;
	uint64_t foff[256] = { 0 }, fsz[256] = { 0 };
	for (unsigned bit = 0; bit < 256; bit++) {
		if (!(feats[bit / 64] >> (bit % 64) & 1))
			continue;
		foff[bit] = ld64(data + fidx + 16 * nfeat);
		fsz[bit] = ld64(data + fidx + 16 * nfeat + 8);
		nfeat++;
	}
	if (feats[0] >> 7 & 1)
		nr_cpus_avail = ld32(data + foff[7]);

	for (uint64_t i = 0; i < attrs_size / attr_size; i++) {
		uint8_t *p = data + attrs_off + i * attr_size;
		uint32_t as = ld32(p + 4);
		if (!as)
			as = 64;
		struct attr *a = note_attr(p, as);
		uint64_t ioff = ld64(p + attr_size - 16), isz = ld64(p + attr_size - 8);
		add_ids(a, data + ioff, isz / 8);
		sw64n(data + ioff, isz / 8);
		swap_attr(p, as);
		sw64n(p + attr_size - 16, 2);
	}

	/* Header and everything before the data, then the data. */
	out_write(f, data, data_off);
	uint64_t new_dsize = swap_stream(f, data_off, data_off + dsize);
	int64_t delta = (int64_t)new_dsize - (int64_t)dsize;

	/* The feature index, then the sections, moved by delta. */
	uint8_t *idx = data + fidx;
	uint64_t sect_start = fidx + 16ull * nfeat;
	for (unsigned bit = 0, k = 0; bit < 256; bit++) {
		if (!(feats[bit / 64] >> (bit % 64) & 1))
			continue;
		uint64_t no = foff[bit] + (uint64_t)delta;
		memcpy(idx + 16 * k, &no, 8);
		sw64n(idx + 16 * k, 2);
		swap_feature(bit, data + foff[bit], (size_t)fsz[bit]);
		k++;
	}
	out_write(f, idx, 16ull * nfeat);
	out_write(f, data + sect_start, data_len - sect_start);

	/* The header, now that the data size is known. */
	uint8_t hdr[104];
	memcpy(hdr, data, 104);
	memcpy(hdr + 48, &new_dsize, 8);
	sw64n(hdr, 13);
	fseek(f, 0, SEEK_SET);
	out_write(f, hdr, 104);
	if (fclose(f))
		die("write failed");
	return 0;
}
