/* SPDX-License-Identifier: MIT */
/*
 * Symbol tables: building them with perf's fix-ups (tools/perf/util/
 * symbol.c: symbols__fixup_end, symbols__fixup_duplicate,
 * choose_best_symbol) and looking addresses up by binary search.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "symbols/symbols_int.h"

#ifdef RP_HAVE_LIBIBERTY
#include <demangle.h>
#endif

#define RP_STB_LOCAL 0
#define RP_STB_GLOBAL 1
#define RP_STB_WEAK 2

void rp_symb_init(struct rp_symtab_builder *b, struct rp_arena *names)
{
	memset(b, 0, sizeof(*b));
	b->names = names;
}

void rp_symb_release(struct rp_symtab_builder *b)
{
	free(b->v);
	b->v = NULL;
	b->nr = b->alloc = 0;
}

/* OCaml: "caml" + upper-case letter; "__" is ".", "$xx" a hex byte. */
static char *demangle_ocaml(const char *name)
{
	if (strncmp(name, "caml", 4) != 0 || !isupper((unsigned char)name[4]))
		return NULL;
	size_t len = strlen(name);
	char *out = malloc(len + 1);
	if (!out)
		return NULL;
	size_t j = 0;
	for (size_t i = 4; i < len;) {
		if (name[i] == '_' && name[i + 1] == '_') {
			out[j++] = '.';
			i += 2;
		} else if (name[i] == '$' && isxdigit((unsigned char)name[i + 1]) &&
			   isxdigit((unsigned char)name[i + 2])) {
			char hex[3] = { name[i + 1], name[i + 2], 0 };
			out[j++] = (char)strtoul(hex, NULL, 16);
			i += 3;
		} else {
			out[j++] = name[i++];
		}
	}
	out[j] = 0;
	return out;
}

char *rp_demangle(const char *name)
{
	char *d = NULL;

#ifdef RP_HAVE_LIBIBERTY
	/* perf 6.1 without libbfd calls cplus_demangle(name, DMGL_NO_OPTS)
	 * unless -v: no parameter lists, no const qualifiers. */
	d = cplus_demangle(name, DMGL_NO_OPTS);
#endif
	if (!d)
		d = demangle_ocaml(name);
	return d;
}

int rp_symb_add(struct rp_symtab_builder *b, uint64_t start, uint64_t size,
		uint8_t binding, uint8_t type, const char *name, size_t len)
{
	char *dem = NULL;
	char tmp[256];
	const char *src = name;

	if (b->nr >= RP_SYMBOLS_MAX_SYMS)
		return RP_ERR_LIMIT;
	if (len > RP_SYMBOLS_MAX_NAME)
		len = RP_SYMBOLS_MAX_NAME;
	if (RP_ARRAY_RESERVE(b->v, b->alloc, b->nr + 1) < 0)
		return RP_ERR_NOMEM;
	if (b->demangle && !b->no_demangle && len > 0) {
		char *z = NULL;
		const char *cname = name;
		if (name[len] != 0) {
			/* Not NUL-terminated where we need it: copy. */
			if (len < sizeof(tmp)) {
				memcpy(tmp, name, len);
				tmp[len] = 0;
				cname = tmp;
			} else {
				z = malloc(len + 1);
				if (!z)
					return RP_ERR_NOMEM;
				memcpy(z, name, len);
				z[len] = 0;
				cname = z;
			}
		}
		dem = rp_demangle(cname);
		free(z);
		if (dem) {
			src = dem;
			len = strlen(dem);
			if (len > RP_SYMBOLS_MAX_NAME)
				len = RP_SYMBOLS_MAX_NAME;
		}
	}
	char *copy = rp_arena_strndup(b->names, src, len);
	free(dem);
	if (!copy)
		return RP_ERR_NOMEM;
	struct rp_sym_raw *r = &b->v[b->nr++];
	r->start = start;
	/* perf: end = start + len, or start when the size is unknown. */
	r->end = size ? start + size : start;
	if (r->end < start)
		r->end = UINT64_MAX;
	r->name = copy;
	r->seq = b->seq++;
	r->binding = binding;
	r->type = type;
	r->dead = 0;
	return 0;
}

static int raw_cmp(const void *pa, const void *pb)
{
	const struct rp_sym_raw *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void rp_symb_sort(struct rp_symtab_builder *b)
{
	if (b->nr > 1)
		qsort(b->v, b->nr, sizeof(*b->v), raw_cmp);
}

void rp_symb_fixup_end(struct rp_symtab_builder *b, int is_kallsyms)
{
	struct rp_sym_raw *prev, *curr = NULL;
	size_t i;

	for (i = 0; i < b->nr && b->v[i].dead; i++)
		;
	if (i == b->nr)
		return;
	curr = &b->v[i];
	for (i++; i < b->nr; i++) {
		if (b->v[i].dead)
			continue;
		prev = curr;
		curr = &b->v[i];
		if (prev->end != prev->start)
			continue;
		/* Kernel symbols just before module symbols (or after) end
		 * at the next page instead of spanning the gap. */
		if (is_kallsyms && (!strchr(prev->name, '[') != !strchr(curr->name, '[')))
			prev->end = ((prev->end + 4096) + 4095) & ~(uint64_t)4095;
		else
			prev->end = curr->start;
	}
	if (curr->end == curr->start)
		curr->end = ((curr->start + 4095) & ~(uint64_t)4095) + 4096;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): 0 keeps a, 1 keeps b. */
static int choose_best(const struct rp_sym_raw *a, const struct rp_sym_raw *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;

	if (lb == 0 && la > 0)
		return 0;
	if (la == 0 && lb > 0)
		return 1;
	int wa = a->binding == RP_STB_WEAK, wb = b->binding == RP_STB_WEAK;
	if (wb && !wa)
		return 0;
	if (wa && !wb)
		return 1;
	int ga = a->binding == RP_STB_GLOBAL, gb = b->binding == RP_STB_GLOBAL;
	if (ga && !gb)
		return 0;
	if (gb && !ga)
		return 1;
	size_t ua = leading_underscores(a->name), ub = leading_underscores(b->name);
	if (ub > ua)
		return 0;
	if (ua > ub)
		return 1;
	size_t na = strlen(a->name), nb = strlen(b->name);
	if (na > nb)
		return 0;
	if (na < nb)
		return 1;
	return 0;
}

void rp_symb_fixup_duplicate(struct rp_symtab_builder *b)
{
	size_t cur = SIZE_MAX;

	for (size_t i = 0; i < b->nr; i++) {
		if (b->v[i].dead)
			continue;
		if (cur == SIZE_MAX || b->v[cur].start != b->v[i].start) {
			cur = i;
			continue;
		}
		if (choose_best(&b->v[cur], &b->v[i]) == 0) {
			b->v[i].dead = 1;
		} else {
			b->v[cur].dead = 1;
			cur = i;
		}
	}
}

void rp_symb_compact(struct rp_symtab_builder *b)
{
	size_t j = 0;

	for (size_t i = 0; i < b->nr; i++)
		if (!b->v[i].dead)
			b->v[j++] = b->v[i];
	b->nr = j;
}

int rp_symb_finish(struct rp_symtab_builder *b, struct rp_dso_symtab *t)
{
	rp_symb_compact(b);
	rp_symb_sort(b);
	t->nr = 0;
	if (b->nr == 0)
		return 0;
	t->syms = calloc(b->nr, sizeof(*t->syms));
	t->max_end = calloc(b->nr, sizeof(*t->max_end));
	if (!t->syms || !t->max_end) {
		free(t->syms);
		free(t->max_end);
		t->syms = NULL;
		t->max_end = NULL;
		return RP_ERR_NOMEM;
	}
	uint64_t m = 0;
	for (size_t i = 0; i < b->nr; i++) {
		struct rp_symbol *s = &t->syms[i];
		s->start = b->v[i].start;
		s->end = b->v[i].end;
		s->name = b->v[i].name;
		s->binding = b->v[i].binding;
		/* A zero-size symbol still covers its first address, as
		 * perf's lookup does. */
		uint64_t e = s->end > s->start ? s->end : s->start + 1;
		if (e > m || i == 0)
			m = e;
		t->max_end[i] = m;
	}
	t->nr = b->nr;
	return 0;
}

static int covers(const struct rp_symbol *s, uint64_t addr)
{
	return addr >= s->start && (addr < s->end || addr == s->start);
}

const struct rp_symbol *rp_symtab_find(const struct rp_dso_symtab *t, uint64_t addr)
{
	if (!t || t->nr == 0 || addr < t->syms[0].start)
		return NULL;
	/* Last symbol with start <= addr. */
	size_t lo = 0, hi = t->nr;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].start <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* Overlaps exist only where perf adds symbols after its fix-ups
	 * (PLT entries) or where sizes overlap: walk back while an earlier
	 * symbol may still cover addr. */
	for (size_t i = lo + 1; i-- > 0;) {
		if (t->max_end[i] <= addr)
			break;
		if (covers(&t->syms[i], addr))
			return &t->syms[i];
	}
	return NULL;
}

void rp_symtab_free(struct rp_dso_symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->max_end);
	free(t->dwarf_path);
	free(t->segs);
	free(t->src);
	free(t->src_done);
	rp_arena_release(&t->names);
	free(t);
}
