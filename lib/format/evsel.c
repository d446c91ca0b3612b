/* SPDX-License-Identifier: MIT */
/*
 * Attrs and evsels: perf_event_attr decoding, where a record's sample id
 * sits, and the event names perf prints when the file has no EVENT_DESC.
 *
 * Format: perf_event.h struct perf_event_attr (sizes VER0 64 .. VER8 136);
 * id positions as perf's evsel.c (__evsel__calc_id_pos/is_pos).
 */
#include <stdio.h>
#include <string.h>

#include "common/cursor.h"
#include "format/session_int.h"

static uint8_t rp_bitrev8(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

void rp_attr_decode(struct rp_attr *attr, const uint8_t *p, size_t len, int swap)
{
	uint8_t buf[RP_ATTR_SIZE_MAX];

	memset(buf, 0, sizeof(buf));
	memcpy(buf, p, len < sizeof(buf) ? len : sizeof(buf));
	memset(attr, 0, sizeof(*attr));
	attr->type = rp_load32(buf + 0, swap);
	attr->size = rp_load32(buf + 4, swap);
	attr->config = rp_load64(buf + 8, swap);
	attr->sample_period = rp_load64(buf + 16, swap);
	attr->sample_type = rp_load64(buf + 24, swap);
	attr->read_format = rp_load64(buf + 32, swap);
	/*
	 * The flag bits are a C bitfield: a big-endian writer allocates them
	 * from the most significant bit of each byte, so the bytes keep their
	 * order and only the bits within each byte reverse.
	 */
	if (swap) {
		uint8_t f[8];

		for (int i = 0; i < 8; i++)
			f[i] = rp_bitrev8(buf[40 + i]);
		attr->flags = rp_load64(f, 0);
	} else {
		attr->flags = rp_load64(buf + 40, 0);
	}
	attr->wakeup_events = rp_load32(buf + 48, swap);
	attr->bp_type = rp_load32(buf + 52, swap);
	attr->config1 = rp_load64(buf + 56, swap);
	attr->config2 = rp_load64(buf + 64, swap);
	attr->branch_sample_type = rp_load64(buf + 72, swap);
	attr->sample_regs_user = rp_load64(buf + 80, swap);
	attr->sample_stack_user = rp_load32(buf + 88, swap);
	attr->clockid = (int32_t)rp_load32(buf + 92, swap);
	attr->sample_regs_intr = rp_load64(buf + 96, swap);
	attr->aux_watermark = rp_load32(buf + 104, swap);
	attr->sample_max_stack = rp_load16(buf + 108, swap);
	attr->aux_sample_size = rp_load32(buf + 112, swap);
	attr->aux_action = rp_load32(buf + 116, swap);
	attr->sig_data = rp_load64(buf + 120, swap);
	attr->config3 = rp_load64(buf + 128, swap);
}

void rp_evsel_setup(struct rp_evsel *evsel)
{
	uint64_t t = evsel->attr.sample_type;
	int pos;

	if (t & RP_SAMPLE_IDENTIFIER) {
		evsel->id_pos = 0;
	} else if (!(t & RP_SAMPLE_ID)) {
		evsel->id_pos = -1;
	} else {
		pos = 0;
		pos += !!(t & RP_SAMPLE_IP);
		pos += !!(t & RP_SAMPLE_TID);
		pos += !!(t & RP_SAMPLE_TIME);
		pos += !!(t & RP_SAMPLE_ADDR);
		evsel->id_pos = pos;
	}

	if (t & RP_SAMPLE_IDENTIFIER) {
		evsel->is_pos = 1;
	} else if (!(t & RP_SAMPLE_ID)) {
		evsel->is_pos = -1;
	} else {
		pos = 1;
		pos += !!(t & RP_SAMPLE_CPU);
		pos += !!(t & RP_SAMPLE_STREAM_ID);
		evsel->is_pos = pos;
	}

	uint32_t n = 0;
	if (evsel->attr.flags & RP_ATTR_SAMPLE_ID_ALL) {
		const uint64_t bits[] = { RP_SAMPLE_TID, RP_SAMPLE_TIME, RP_SAMPLE_ID,
					  RP_SAMPLE_STREAM_ID, RP_SAMPLE_CPU,
					  RP_SAMPLE_IDENTIFIER };

		for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			n += (t & bits[i]) ? 8 : 0;
	}
	evsel->trailer_size = n;
}

static const char *const rp_hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const rp_sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static const char *const rp_cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};
static const char *const rp_cache_ops[] = { "loads", "stores", "prefetches" };
static const char *const rp_cache_results[] = { "refs", "misses" };

/* perf's modifier suffix (":u", ":k", ":ppp", ":H" ...), evsel__add_modifiers. */
static size_t rp_attr_modifiers(const struct rp_attr *a, char *bf, size_t size)
{
	size_t r = 0, colon = 0;
	int excl_guest_default = 0;
	unsigned precise = (unsigned)(a->flags >> RP_ATTR_PRECISE_IP_SHIFT) & 3u;

#define RP_MOD(flag, c)                                   \
	do {                                              \
		if (!(a->flags & (flag)) && r + 2 < size) { \
			if (!colon)                       \
				colon = ++r;              \
			bf[r++] = (c);                    \
		}                                         \
	} while (0)

	if (a->flags & (RP_ATTR_EXCLUDE_KERNEL | RP_ATTR_EXCLUDE_USER | RP_ATTR_EXCLUDE_HV)) {
		RP_MOD(RP_ATTR_EXCLUDE_KERNEL, 'k');
		RP_MOD(RP_ATTR_EXCLUDE_USER, 'u');
		RP_MOD(RP_ATTR_EXCLUDE_HV, 'h');
		excl_guest_default = 1;
	}
	if (precise) {
		if (!colon)
			colon = ++r;
		for (unsigned i = 0; i < precise && r + 2 < size; i++)
			bf[r++] = 'p';
		excl_guest_default = 1;
	}
	if ((a->flags & RP_ATTR_EXCLUDE_HOST) ||
	    !!(a->flags & RP_ATTR_EXCLUDE_GUEST) == excl_guest_default) {
		RP_MOD(RP_ATTR_EXCLUDE_HOST, 'H');
		RP_MOD(RP_ATTR_EXCLUDE_GUEST, 'G');
	}
#undef RP_MOD
	if (colon)
		bf[colon - 1] = ':';
	bf[r < size ? r : size - 1] = '\0';
	return r;
}

const char *rp_evsel_default_name(struct rp_arena *arena, const struct rp_attr *attr)
{
	char bf[128];
	size_t n;
	uint64_t c = attr->config;

	switch (attr->type) {
	case RP_TYPE_HARDWARE:
		if (c < sizeof(rp_hw_names) / sizeof(rp_hw_names[0]))
			n = (size_t)snprintf(bf, sizeof(bf), "%s", rp_hw_names[c]);
		else
			n = (size_t)snprintf(bf, sizeof(bf), "unknown-hardware");
		break;
	case RP_TYPE_SOFTWARE:
		if (c < sizeof(rp_sw_names) / sizeof(rp_sw_names[0]))
			n = (size_t)snprintf(bf, sizeof(bf), "%s", rp_sw_names[c]);
		else
			n = (size_t)snprintf(bf, sizeof(bf), "unknown-software");
		break;
	case RP_TYPE_HW_CACHE: {
		uint64_t type = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;

		if (type < 7 && op < 3 && res < 2)
			n = (size_t)snprintf(bf, sizeof(bf), "%s-%s%s", rp_cache_names[type],
					     rp_cache_ops[op], res ? "-misses" : "");
		else
			n = (size_t)snprintf(bf, sizeof(bf), "unknown-ext-hardware-cache-type");
		(void)rp_cache_results;
		break;
	}
	case RP_TYPE_RAW:
		n = (size_t)snprintf(bf, sizeof(bf), "raw 0x%llx", (unsigned long long)c);
		break;
	case RP_TYPE_BREAKPOINT:
		n = (size_t)snprintf(bf, sizeof(bf), "mem:0x%llx:%s%s%s",
				     (unsigned long long)attr->config1,
				     (attr->bp_type & 1) ? "r" : "",
				     (attr->bp_type & 2) ? "w" : "",
				     (attr->bp_type & 4) ? "x" : "");
		break;
	case RP_TYPE_TRACEPOINT:
		n = (size_t)snprintf(bf, sizeof(bf), "unknown tracepoint");
		break;
	default:
		n = (size_t)snprintf(bf, sizeof(bf), "unknown attr type: %u", attr->type);
		break;
	}
	if (n >= sizeof(bf))
		n = sizeof(bf) - 1;
	if (attr->type != RP_TYPE_TRACEPOINT)
		n += rp_attr_modifiers(attr, bf + n, sizeof(bf) - n);
	return rp_arena_strndup(arena, bf, n < sizeof(bf) ? n : sizeof(bf) - 1);
}

int rp_evsel_idx(const struct rp_evsel *evsel)
{
	return evsel->idx;
}

const struct rp_attr *rp_evsel_attr(const struct rp_evsel *evsel)
{
	return &evsel->attr;
}

const char *rp_evsel_name(const struct rp_evsel *evsel)
{
	return evsel->name;
}

const uint64_t *rp_evsel_ids(const struct rp_evsel *evsel, size_t *nr)
{
	if (nr)
		*nr = evsel->nr_ids;
	return evsel->ids;
}

const char *rp_evsel_unit(const struct rp_evsel *evsel)
{
	return evsel->unit;
}

double rp_evsel_scale(const struct rp_evsel *evsel)
{
	return evsel->scale;
}
