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

int rp_srctext_line(struct rp_srctext *t, const char *file, uint32_t line, const char **srcline,
		    const char **srcfile)
{
	const char *slash = t->full_source_path ? NULL : strrchr(file, '/');
	const char *file_txt = slash ? slash + 1 : file;
	char *line_txt = NULL;

	if (asprintf(&line_txt, "%s:%u", file_txt, line) < 0)
		return RP_ERR_NOMEM;
	*srcline = rp_strpool_intern_str(t->pool, line_txt);
	*srcfile = rp_strpool_intern_str(t->pool, file_txt);
	free(line_txt);
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

	if (c->srcline && c->dso == dso && c->addr == addr && c->shown == shown && c->sym == sym &&
	    c->has_map == has_map && c->mode == mode) {
		*srcline = c->srcline;
		*srcfile = c->srcfile;
		return 0;
	}
	const char *file = NULL;
	uint32_t line = 0;
	char *line_txt = NULL;
	int found = has_map && dso && t->symbols
			    ? rp_symbols_srcline(t->symbols, dso, addr, &file, &line)
			    : 0;
	int n;

	if (found < 0)
		return found;
	if (found) {
		int rc = rp_srctext_line(t, file, line, srcline, srcfile);

		if (rc)
			return rc;
		*c = (struct rp_srctext_ent){ dso, sym, addr, shown, has_map, mode, *srcline, *srcfile };
		return 0;
	}
	/* perf shows map__rip_2objdump() of the address in "dso[addr]". */
	uint64_t objdump = shown;
	const char *a2l_file = NULL;
	int in_func = has_map && dso && t->symbols && rp_dso_long_name(dso)[0] != '['
			      ? rp_symbols_addr_in_func(t->symbols, dso, addr, &objdump, &a2l_file)
			      : 0;

	if (has_map && dso)
		objdump = shown + (objdump - addr);
	if (in_func && a2l_file && !rp_symbol_is_stub(sym)) {
		/* addr2line's "FILE:?": its function is named after an
		 * STT_FILE symbol; perf reads the line as 0. */
		int rc = rp_srctext_line(t, a2l_file, 0, srcline, srcfile);

		if (rc)
			return rc;
		*c = (struct rp_srctext_ent){ dso, sym, addr, shown, has_map, mode, *srcline, *srcfile };
		return 0;
	}
	if (!has_map || !dso ||
	    (rp_dso_long_name(dso)[0] != '[' && !rp_symbol_is_stub(sym) &&
	     (in_func || (mode == RP_SRCTEXT_ENTRY && sym)))) {
		/* What perf 6.1 prints for a file's address without a line
		 * where binutils' addr2line finds a function: it answers
		 * "??:?" (docs/unwind.md). */
		n = asprintf(&line_txt, "??:0");
	} else if (sym) {
		n = asprintf(&line_txt, "%s+%" PRIu64, sym->name ? sym->name : "", shown - sym->start);
	} else {
		n = asprintf(&line_txt, "%s[%" PRIx64 "]", rp_dso_short_name(dso), objdump);
	}
	if (n < 0)
		return RP_ERR_NOMEM;
	*srcline = rp_strpool_intern_str(t->pool, line_txt);
	*srcfile = rp_strpool_intern_str(t->pool, "");
	free(line_txt);
	if (!*srcline || !*srcfile)
		return RP_ERR_NOMEM;
	*c = (struct rp_srctext_ent){ dso, sym, addr, shown, has_map, mode, *srcline, *srcfile };
	return 0;
}
