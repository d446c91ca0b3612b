/* SPDX-License-Identifier: MIT */
/* The srcline and srcfile texts of a location (srctext_int.h). */
#include "report/srctext_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>
#include <readperf/machine.h>

#include "common/hashmap.h"
#include "symbols/srcline_int.h"

int rp_srctext_init(struct rp_srctext *t, struct rp_symbols *symbols, struct rp_strpool *pool,
		    int full_source_path)
{
	t->symbols = symbols;
	t->pool = pool;
	t->full_source_path = full_source_path;
	t->cache = calloc(RP_SRCTEXT_CACHE, sizeof(*t->cache));
	return t->cache ? 0 : RP_ERR_NOMEM;
}

void rp_srctext_release(struct rp_srctext *t)
{
	free(t->cache);
	t->cache = NULL;
}

/*
 * perf's get_srcfile() (util/sort.c): the srcline text up to its first
 * ':', "" for "??:0" (SRCLINE_UNKNOWN) and for a text without ':'.  Its
 * text is made without the symbol's name ("+OFFSET"), so only a line's
 * "file:line" and a "dso[addr]" whose DSO name has a ':' (a memfd's
 * "memfd:sealed-... (deleted)[addr]": "memfd") name a file.
 */
static const char *srcfile_of(struct rp_srctext *t, const char *srcline)
{
	const char *colon = strchr(srcline, ':');

	if (!colon || !strcmp(srcline, "??:0"))
		return rp_strpool_intern_str(t->pool, "");
	return rp_strpool_intern(t->pool, srcline, (size_t)(colon - srcline));
}

int rp_srctext_line(struct rp_srctext *t, const char *file, uint32_t line, const char **srcline,
		    const char **srcfile)
{
	const char *slash = t->full_source_path ? NULL : strrchr(file, '/');
	const char *file_txt = slash ? slash + 1 : file;
	char *line_txt = NULL;

	if (asprintf(&line_txt, "%s:%u", file_txt, line) < 0)
		return RP_ERR_NOMEM;
	*srcline = rp_strpool_intern_str(t->pool, line_txt);
	free(line_txt);
	*srcfile = *srcline ? srcfile_of(t, *srcline) : NULL;
	return *srcline && *srcfile ? 0 : RP_ERR_NOMEM;
}

int rp_srctext_get(struct rp_srctext *t, struct rp_dso *dso, const struct rp_symbol *sym,
		   uint64_t addr, int has_map, const char **srcline, const char **srcfile)
{
	return rp_srctext_get_at(t, dso, sym, addr, addr, has_map, RP_SRCTEXT_ENTRY, srcline,
				 srcfile);
}

int rp_srctext_get_at(struct rp_srctext *t, struct rp_dso *dso, const struct rp_symbol *sym,
		      uint64_t addr, uint64_t shown, int has_map, enum rp_srctext_mode mode,
		      const char **srcline, const char **srcfile)
{
	uint64_t h = rp_hash64((uint64_t)(uintptr_t)dso ^ rp_hash64(addr) ^ shown ^ mode) ^
		     (uint64_t)(uintptr_t)sym;
	struct rp_srctext_ent *c = &t->cache[h & (RP_SRCTEXT_CACHE - 1)];
	/* perf runs its lookup (and counts it, rp_symbols_a2l_count()) for
	 * a location with a map, and gives up on a DSO whose first 123
	 * lookups failed: "sym+OFFSET" or "dso[addr]" from then on. */
	int lookup = has_map && dso && t->symbols;
	int off = lookup && rp_symbols_a2l_off(t->symbols, dso);

	if (!off && c->srcline && c->dso == dso && c->addr == addr && c->shown == shown &&
	    c->sym == sym && c->has_map == has_map && c->mode == mode) {
		*srcline = c->srcline;
		*srcfile = c->srcfile;
		if (lookup)
			rp_symbols_a2l_count(t->symbols, dso, c->found);
		return 0;
	}
	const char *file = NULL;
	uint32_t line = 0;
	char *line_txt = NULL;
	int with_sym = 0;
	int found = lookup && !off
			    ? rp_symbols_srcline_uncounted(t->symbols, dso, addr, &file, &line)
			    : 0;
	int n;

	if (found < 0)
		return found;
	if (found) {
		int rc = rp_srctext_line(t, file, line, srcline, srcfile);

		if (rc)
			return rc;
		rp_symbols_a2l_count(t->symbols, dso, 1);
		*c = (struct rp_srctext_ent){ dso,	 sym,	   addr,     shown, has_map,
					      mode,	 *srcline, *srcfile, 1 };
		return 0;
	}
	/* perf shows map__rip_2objdump() of the address in "dso[addr]". */
	uint64_t objdump = shown;
	const char *a2l_file = NULL;
	/* perf's dso__name(): no file for addr2line behind "[...]" names
	 * and JIT maps (/tmp/perf-PID.map) */
	int named = dso && rp_dso_long_name(dso)[0] != '[' &&
		    strncmp(rp_dso_long_name(dso), "/tmp/perf-", 10) != 0;
	int in_func = lookup && named ? rp_symbols_addr_in_func(t->symbols, dso, addr, &objdump,
								&a2l_file)
				      : 0;

	if (has_map && dso)
		objdump = shown + (objdump - addr);
	if (!off && in_func && a2l_file && !rp_symbol_is_stub(sym)) {
		/* addr2line's "FILE:?": its function is named after an
		 * STT_FILE symbol; perf reads the line as 0. */
		int rc = rp_srctext_line(t, a2l_file, 0, srcline, srcfile);

		if (rc)
			return rc;
		rp_symbols_a2l_count(t->symbols, dso, 1);
		*c = (struct rp_srctext_ent){ dso,	 sym,	   addr,     shown, has_map,
					      mode,	 *srcline, *srcfile, 1 };
		return 0;
	}
	int a2l_found = 0;

	if (!has_map || !dso ||
	    (!off && named && !rp_symbol_is_stub(sym) &&
	     (in_func || (mode != RP_SRCTEXT_NO_LINE && sym)))) {
		/* What perf 6.1 prints for a file's address without a line
		 * where binutils' addr2line finds a function: it answers
		 * "??:?" (docs/unwind.md). */
		n = asprintf(&line_txt, "??:0");
		a2l_found = 1;
	} else if (mode == RP_SRCTEXT_CALLCHAIN_LINE) {
		/* perf 6.1's get_srcline() without show_addr: NULL */
		if (lookup && !off)
			rp_symbols_a2l_count(t->symbols, dso, 0);
		*srcline = *srcfile = NULL;
		return 0;
	} else if (sym) {
		n = asprintf(&line_txt, "%s+%" PRIu64,
			     sym->name && mode != RP_SRCTEXT_CALLCHAIN ? sym->name : "",
			     shown - sym->start);
		with_sym = 1;
	} else {
		n = asprintf(&line_txt, "%s[%" PRIx64 "]", rp_dso_short_name(dso), objdump);
	}
	if (n < 0)
		return RP_ERR_NOMEM;
	*srcline = rp_strpool_intern_str(t->pool, line_txt);
	free(line_txt);
	/* srcfile's "+OFFSET" has no ':' */
	*srcfile = !*srcline ? NULL
		   : with_sym ? rp_strpool_intern_str(t->pool, "")
			      : srcfile_of(t, *srcline);
	if (!*srcline || !*srcfile)
		return RP_ERR_NOMEM;
	if (lookup && !off)
		rp_symbols_a2l_count(t->symbols, dso, a2l_found);
	*c = (struct rp_srctext_ent){ dso,	sym,	  addr,	    shown,    has_map,
				      mode,	*srcline, *srcfile, a2l_found };
	return 0;
}
