/* SPDX-License-Identifier: MIT */
/*
 * The srcline and srcfile texts of a location, as perf's
 * hist_entry__srcline() and hist_entry__get_srcfile() make them, for the
 * report's and diff's sort keys (docs/report.md): "file:line" (the file's
 * base name unless full_source_path) and "file" when DWARF knows the
 * line; else "sym+OFFSET" (decimal) or "dso[addr]" and "" for kernel and
 * stub (PLT) locations, "??:0" and "" for a file's address without a
 * line and without a map (srcfile: perf's get_srcfile(), the srcline
 * text up to its first ':', so "dso[addr]" of a DSO named "a:b" gives
 * "a").  A DSO whose first 123 lookups failed gets "sym+OFFSET" or
 * "dso[addr]" from then on (perf's A2L_FAIL_LIMIT).  Texts are interned; recent locations are
 * cached, so that a sample costs a lookup, not a formatting.
 */
#ifndef RP_REPORT_SRCTEXT_INT_H
#define RP_REPORT_SRCTEXT_INT_H

#include <stdint.h>

#include <readperf/symbols.h>

#include "common/strpool.h"

/* Recent locations kept (a power of two). */
#define RP_SRCTEXT_CACHE 1024u

/* What a location without a line becomes (rp_srctext_get_at()). */
enum rp_srctext_mode {
	/* perf's hist entry of a sample, or the inline lookup of an unwound
	 * frame: "??:0" in a file, "sym+OFFSET" of a PLT entry or kernel
	 * symbol, "dso[addr]" without a symbol. */
	RP_SRCTEXT_ENTRY,
	/* perf's lookup that fails for want of a line at all (a --children
	 * entry of a frame perf looks up at its ip as sampled): "sym+OFFSET",
	 * or "dso[addr]" without a symbol, in files too. */
	RP_SRCTEXT_NO_LINE,
	/* perf's callchain_srcline() of a call graph's frame with the
	 * address key: as RP_SRCTEXT_ENTRY, but "+OFFSET" without the
	 * symbol's name. */
	RP_SRCTEXT_CALLCHAIN,
	/* The same with the srcline key (no address shown): a line or
	 * "??:0", else no text (*srcline NULL). */
	RP_SRCTEXT_CALLCHAIN_LINE,
};

struct rp_srctext_ent {
	const struct rp_dso *dso;
	const struct rp_symbol *sym;
	uint64_t addr, shown;
	int has_map;
	enum rp_srctext_mode mode;
	const char *srcline, *srcfile; /* NULL: empty slot */
	int found; /* perf's lookup succeeded (rp_symbols_a2l_count()) */
};

struct rp_srctext {
	struct rp_symbols *symbols; /* NULL: no line is known */
	struct rp_strpool *pool;    /* where the texts are interned */
	int full_source_path;
	struct rp_srctext_ent *cache;
};

/* 0 or RP_ERR_NOMEM. */
int rp_srctext_init(struct rp_srctext *t, struct rp_symbols *symbols, struct rp_strpool *pool,
		    int full_source_path);
void rp_srctext_release(struct rp_srctext *t);

/*
 * The texts of addr (in dso's address space; sym its symbol or NULL;
 * has_map: the sample's address had a map) into *srcline and *srcfile,
 * interned in t's pool.  0 or RP_ERR_NOMEM.
 */
int rp_srctext_get(struct rp_srctext *t, struct rp_dso *dso, const struct rp_symbol *sym,
		   uint64_t addr, int has_map, const char **srcline, const char **srcfile);


/*
 * The same, where addr is looked up and the "sym+OFFSET" and
 * "dso[addr]" texts are made from shown (perf's --children entries keep
 * the frame's ip as sampled), and mode says what a location without a
 * line becomes.  0 or RP_ERR_NOMEM.
 */
int rp_srctext_get_at(struct rp_srctext *t, struct rp_dso *dso, const struct rp_symbol *sym,
		      uint64_t addr, uint64_t shown, int has_map, enum rp_srctext_mode mode,
		      const char **srcline, const char **srcfile);

/*
 * The texts of a known line (an inline chain's record: file as DWARF
 * names it) into *srcline ("file:line", the base name unless
 * full_source_path) and *srcfile, interned in t's pool.  0 or
 * RP_ERR_NOMEM.
 */
int rp_srctext_line(struct rp_srctext *t, const char *file, uint32_t line, const char **srcline,
		    const char **srcfile);

#endif
