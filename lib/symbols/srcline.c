/* SPDX-License-Identifier: MIT */
/*
 * Source lines of addresses from DWARF line tables (libdw): what perf 6.1
 * asks `addr2line` for (util/srcline.c __get_srcline()), found here
 * in-process and cached per (DSO, address).
 *
 * perf stops asking for a DSO's lines once its first A2L_FAIL_LIMIT (123)
 * lookups all failed (and keeps asking forever once one succeeded); the
 * same count decides here, so that the same addresses come out unknown.
 */
#include <string.h>

#include "symbols/symbols_int.h"

/* perf's A2L_FAIL_LIMIT. */
#define RP_SRCLINE_FAIL_LIMIT 123u

/* A cached line: file (arena copy, NULL: unknown) and line. */
struct rp_srcline_ent {
	const char *file;
	uint32_t line;
};

static struct rp_srcline_ent unknown_line;

/* One lookup of perf's __get_srcline() into its A2L_FAIL_LIMIT count of
 * the DSO (found: addr2line answered). */
static void srcline_count(struct rp_dso_symtab *t, int found)
{
	if (found)
		t->srcline_found = 1;
	else if (!t->srcline_found && ++t->srcline_fails >= RP_SRCLINE_FAIL_LIMIT)
		t->srcline_off = 1;
}

/* rp_symbols_srcline() without the count; *tp gets the DSO's table
 * where it has DWARF lines and still looks them up, else NULL. */
static int srcline_lookup(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
			  const char **file, uint32_t *line, struct rp_dso_symtab **tp)
{
	*file = NULL;
	*line = 0;
	*tp = NULL;
	if (!s || !dso)
		return 0;
	struct rp_dso_symtab *t = rp_symbols_table(s, dso);

	if (!t || !t->dwarf_path || t->srcline_off)
		return 0;
	*tp = t;
	struct rp_srcline_ent *e = rp_hashmap_get(&t->srclines, addr);

	if (!e) {
		uint64_t vaddr;
		uint32_t lineno = 0;
		const char *path = NULL;
		int err = 0;

		e = &unknown_line;
		if (t->srclines.nr < RP_SYMBOLS_MAX_INLINE_ADDRS &&
		    rp_symtab_vaddr(t, addr, &vaddr) == 0)
			path = rp_symtab_line(t, vaddr, &lineno, NULL, &err);
		if (err) {
			s->error = err;
			return err;
		}
		if (path) {
			e = rp_arena_alloc(&t->inline_arena, sizeof(*e));
			if (!e || !(e->file = rp_arena_strdup(&t->inline_arena, path))) {
				s->error = RP_ERR_NOMEM;
				return RP_ERR_NOMEM;
			}
			e->line = lineno;
		}
		if (t->srclines.nr < RP_SYMBOLS_MAX_INLINE_ADDRS &&
		    rp_hashmap_put(&t->srclines, addr, e) < 0) {
			s->error = RP_ERR_NOMEM;
			return RP_ERR_NOMEM;
		}
	}
	if (!e->file)
		return 0;
	*file = e->file;
	*line = e->line;
	return 1;
}

int rp_symbols_srcline(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr, const char **file,
		       uint32_t *line)
{
	struct rp_dso_symtab *t;
	int found = srcline_lookup(s, dso, addr, file, line, &t);

	if (found >= 0 && t)
		srcline_count(t, found);
	return found;
}

int rp_symbols_srcline_uncounted(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
				 const char **file, uint32_t *line)
{
	struct rp_dso_symtab *t;

	return srcline_lookup(s, dso, addr, file, line, &t);
}

int rp_symbols_objdump_line(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
			    const char **file, uint32_t *line, uint32_t *discr)
{
	*file = NULL;
	*line = 0;
	*discr = 0;
	if (!s || !dso)
		return 0;
	struct rp_dso_symtab *t = rp_symbols_table(s, dso);
	uint64_t vaddr;
	int err = 0;

	if (!t || !t->dwarf_path || rp_symtab_vaddr(t, addr, &vaddr) < 0)
		return 0;
	*file = rp_symtab_line(t, vaddr, line, discr, &err);
	if (err) {
		s->error = err;
		return err;
	}
	return *file ? 1 : 0;
}

void rp_symbols_a2l_count(struct rp_symbols *s, struct rp_dso *dso, int found)
{
	struct rp_dso_symtab *t = s && dso ? rp_symbols_table(s, dso) : NULL;

	if (t && !t->srcline_off)
		srcline_count(t, found);
}

int rp_symbols_a2l_off(struct rp_symbols *s, struct rp_dso *dso)
{
	struct rp_dso_symtab *t = s && dso ? rp_symbols_table(s, dso) : NULL;

	return t && t->srcline_off;
}

int rp_symbol_is_stub(const struct rp_symbol *sym)
{
	if (!sym || !sym->name)
		return 0;
	size_t n = strlen(sym->name);

	return (n >= 4 && !strcmp(sym->name + n - 4, "@plt")) || !strcmp(sym->name, "_init") ||
	       !strcmp(sym->name, "_fini");
}

int rp_symbols_addr_in_func(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
			    uint64_t *shown, const char **file)
{
	struct rp_dso_symtab *t = s && dso ? rp_symbols_table(s, dso) : NULL;

	*shown = addr;
	if (file)
		*file = NULL;
	if (!t)
		return 0;
	/* The address perf asks addr2line about. */
	uint64_t v = addr + t->text_offset;

	*shown = v;
	for (size_t i = 0; i < t->nr_fn_secs; i++) {
		const struct rp_fn_sec *f = &t->fn_secs[i];

		if (v < f->start || v >= f->end)
			continue;
		/* The last function at or before v. */
		size_t lo = 0, hi = f->nr;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (t->a2l_fns[f->first + mid].start <= v)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			return 0;
		if (file)
			*file = t->a2l_fns[f->first + lo - 1].file;
		return 1;
	}
	return 0;
}
