/* SPDX-License-Identifier: MIT */
/*
 * perf mem's data source as text.  The words and the way they are joined
 * are perf 6.1's (util/mem-events.c, checked against its output on the
 * files tests/tools/rp-gen-lbrmem.c writes): the set bits of a field,
 * by bit position, joined by " or "; the hit and miss bits of the level
 * and TLB fields as a " hit" / " miss" suffix.
 */
#include "report/memtext_int.h"

#include <stdarg.h>
#include <stdio.h>

/* PERF_MEM_LVL_* by bit (HIT and MISS are the suffix). */
static const char *const rp_mem_lvl_names[] = {
	"N/A",	     "HIT",	"MISS",		   "L1",		  "LFB/MAB",
	"L2",	     "L3",	"Local RAM",	   "Remote RAM (1 hop)",  "Remote RAM (2 hops)",
	"Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
};

/* PERF_MEM_LVLNUM_* by value; a value without a name prints "L%d". */
static const char *const rp_mem_lvlnum_names[16] = {
	[0x9] = "CXL", [0xa] = "I/O", [0xb] = "Any cache", [0xc] = "LFB/MAB",
	[0xd] = "RAM", [0xe] = "PMEM", [0xf] = "N/A",
};

/* PERF_MEM_HOPS_* (1..4): perf prints "Remote " before them. */
static const char *const rp_mem_hops_names[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};

static const char *const rp_mem_tlb_names[] = {
	"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault",
};

static const char *const rp_mem_snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM" };
static const char *const rp_mem_snoopx_names[] = { "Fwd", "Peer" };

#define RP_NAMES(a) (sizeof(a) / sizeof((a)[0]))

/* Appends to out (at *len, size bytes), cut to fit. */
static void rp_app(char *out, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void rp_app(char *out, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 1 >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(out + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

/* The set bits of m (by position, skipping `skip`) joined by " or ";
 * *printed counts the names written. */
static void rp_bits(char *out, size_t size, size_t *len, uint64_t m, uint64_t skip,
		    const char *const *names, size_t nr, int *printed)
{
	for (size_t i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1) || ((skip >> i) & 1))
			continue;
		rp_app(out, size, len, "%s%s", (*printed)++ ? " or " : "", names[i]);
	}
}

/* The end of the level and TLB texts: "N/A" for nothing, then the hit
 * (bit 1) and miss (bit 2) of m.  Returns the text's length. */
static size_t rp_hit_miss(char *out, size_t size, size_t len, uint64_t m)
{
	if (!len)
		rp_app(out, size, &len, "N/A");
	if (m & 0x2)
		rp_app(out, size, &len, " hit");
	if (m & 0x4)
		rp_app(out, size, &len, " miss");
	return len;
}

size_t rp_mem_lvl_text(uint64_t ds, char *out, size_t size)
{
	uint64_t m = RP_MEM_LVL(ds);
	size_t len = 0;
	int printed = 0;

	out[0] = '\0';
	if (RP_MEM_REMOTE(ds))
		rp_app(out, size, &len, "Remote ");
	/* With hops, the level bits are not printed. */
	if (RP_MEM_HOPS(ds))
		rp_app(out, size, &len, "%s ", rp_mem_hops_names[RP_MEM_HOPS(ds)]
						       ? rp_mem_hops_names[RP_MEM_HOPS(ds)]
						       : "");
	else
		rp_bits(out, size, &len, m, 0x6, rp_mem_lvl_names, RP_NAMES(rp_mem_lvl_names),
			&printed);
	if (RP_MEM_LVL_NUM(ds)) {
		unsigned n = (unsigned)RP_MEM_LVL_NUM(ds);

		rp_app(out, size, &len, "%s", printed++ ? " or " : "");
		if (rp_mem_lvlnum_names[n])
			rp_app(out, size, &len, "%s", rp_mem_lvlnum_names[n]);
		else
			rp_app(out, size, &len, "L%u", n);
	}
	return rp_hit_miss(out, size, len, m);
}

size_t rp_mem_tlb_text(uint64_t ds, char *out, size_t size)
{
	uint64_t m = RP_MEM_DTLB(ds);
	size_t len = 0;
	int printed = 0;

	out[0] = '\0';
	rp_bits(out, size, &len, m, 0x6, rp_mem_tlb_names, RP_NAMES(rp_mem_tlb_names), &printed);
	return rp_hit_miss(out, size, len, m);
}

size_t rp_mem_snoop_text(uint64_t ds, char *out, size_t size)
{
	size_t len = 0;
	int printed = 0;

	out[0] = '\0';
	rp_bits(out, size, &len, RP_MEM_SNOOP(ds), 0, rp_mem_snoop_names,
		RP_NAMES(rp_mem_snoop_names), &printed);
	rp_bits(out, size, &len, RP_MEM_SNOOPX(ds), 0, rp_mem_snoopx_names,
		RP_NAMES(rp_mem_snoopx_names), &printed);
	if (!len)
		rp_app(out, size, &len, "N/A");
	return len;
}

size_t rp_mem_lock_text(uint64_t ds, char *out, size_t size)
{
	uint64_t m = RP_MEM_LOCK(ds);
	size_t len = 0;

	out[0] = '\0';
	rp_app(out, size, &len, "%s", (m & 1) ? "N/A" : (m & 2) ? "Yes" : "No");
	return len;
}

size_t rp_mem_blk_text(uint64_t ds, char *out, size_t size)
{
	uint64_t m = RP_MEM_BLK(ds);
	size_t len = 0;

	out[0] = '\0';
	if (!m || (m & 1)) {
		rp_app(out, size, &len, " N/A");
		return len;
	}
	if (m & 2)
		rp_app(out, size, &len, " Data");
	if (m & 4)
		rp_app(out, size, &len, " Addr");
	return len;
}
