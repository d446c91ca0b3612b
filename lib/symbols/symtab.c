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
#include "common/rbtree.h"
#include "symbols/symbols_int.h"

#ifdef RP_HAVE_LIBIBERTY
#include <demangle.h>
#endif

#define RP_STB_LOCAL 0
#define RP_STB_GLOBAL 1
#define RP_STB_WEAK 2


/*
 * perf keeps symbols in a red-black tree (common/rbtree.h) keyed by
 * start, equal keys to the right.  Only the shape matters here: it
 * decides which of two overlapping symbols perf's descent meets first.
 */
#define NIL RP_RB_NIL

static void tree_insert(struct rp_symtree *t, uint32_t n)
{
	struct rp_rbtree rb = { t->n, t->root };
	uint32_t p = NIL, cur = t->root;
	int go_left = 0;

	while (cur != NIL) {
		p = cur;
		go_left = t->key[n] < t->key[cur];
		cur = go_left ? t->n[cur].child[0] : t->n[cur].child[1];
	}
	rp_rb_insert(&rb, n, p, go_left);
	t->root = rb.root;
}

static void tree_erase(struct rp_symtree *t, uint32_t n)
{
	struct rp_rbtree rb = { t->n, t->root };

	rp_rb_erase(&rb, n);
	t->root = rb.root;
}

static int tree_reserve(struct rp_symtree *t, size_t want)
{
	if (want <= t->alloc)
		return 0;
	size_t n = t->alloc ? t->alloc * 2 : 64;
	while (n < want)
		n *= 2;
	struct rp_rbnode *nodes = realloc(t->n, n * sizeof(*nodes));
	if (nodes)
		t->n = nodes;
	uint64_t *k = realloc(t->key, n * sizeof(*k));
	if (k)
		t->key = k;
	if (!nodes || !k)
		return -1;
	t->alloc = n;
	return 0;
}

static void tree_release(struct rp_symtree *t)
{
	free(t->n);
	free(t->key);
	memset(t, 0, sizeof(*t));
	t->root = NIL;
}

void rp_symb_init(struct rp_symtab_builder *b, struct rp_arena *names)
{
	memset(b, 0, sizeof(*b));
	b->names = names;
	b->tree.root = NIL;
}

void rp_symb_release(struct rp_symtab_builder *b)
{
	tree_release(&b->tree);
	free(b->v);
	b->v = NULL;
	b->nr = b->alloc = 0;
}

/* OCaml: "caml" + upper-case letter; "__" is ".", "$xx" a hex byte.
 * 0 with *res NULL when name is not an OCaml name, or RP_ERR_NOMEM. */
static int demangle_ocaml(const char *name, char **res)
{
	*res = NULL;
	if (strncmp(name, "caml", 4) != 0 || !isupper((unsigned char)name[4]))
		return 0;
	size_t len = strlen(name);
	char *out = malloc(len + 1);
	if (!out)
		return RP_ERR_NOMEM;
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
	*res = out;
	return 0;
}

#ifdef RP_HAVE_LIBIBERTY
/* The demangled text as libiberty's callbacks hand it out in pieces. */
struct rp_demangled {
	char *p;
	size_t len, cap;
	int failed; /* out of memory */
};

static void demangle_append(const char *piece, size_t n, void *opaque)
{
	struct rp_demangled *d = opaque;

	/* What a symbol name keeps (rp_symb_add() cuts there too). */
	if (n > RP_SYMBOLS_MAX_NAME - d->len)
		n = RP_SYMBOLS_MAX_NAME - d->len;
	if (d->failed || !n)
		return;
	if (d->len + n + 1 > d->cap) {
		size_t cap = d->cap ? d->cap : 64;
		char *p;

		while (cap < d->len + n + 1)
			cap *= 2;
		if (!(p = realloc(d->p, cap))) {
			d->failed = 1;
			return;
		}
		d->p = p;
		d->cap = cap;
	}
	memcpy(d->p + d->len, piece, n);
	d->len += n;
	d->p[d->len] = '\0';
}

/*
 * libiberty's demangler for one language through its callback form, so
 * that the text is built here with malloc: the forms that return a string
 * may allocate with xmalloc, which exits when memory runs out.  Returns
 * 1 (demangled into *d), 0 (not that language's name) or RP_ERR_NOMEM.
 */
static int demangle_with(int (*fn)(const char *, int, demangle_callbackref, void *),
			 const char *name, int options, struct rp_demangled *d)
{
	memset(d, 0, sizeof(*d));
	if (!fn(name, options, demangle_append, d)) {
		free(d->p);
		d->p = NULL;
		return 0;
	}
	if (!d->failed && !d->p && !(d->p = calloc(1, 1)))
		d->failed = 1;
	if (d->failed) {
		free(d->p);
		d->p = NULL;
		return RP_ERR_NOMEM;
	}
	return 1;
}
#endif

static int demangle_opts(const char *name, int options, int ocaml, char **out)
{
	*out = NULL;
#ifdef RP_HAVE_LIBIBERTY
	/*
	 * perf 6.1 without libbfd calls cplus_demangle(name, DMGL_NO_OPTS)
	 * unless -v: no parameter lists, no const qualifiers.  In libiberty's
	 * default (auto) style that is Rust first, then the C++ (GNU v3)
	 * demangler; Ada (GNAT) and D names stay as they are, which is what
	 * perf prints for them too.  The same two, by their callbacks.
	 */
	struct rp_demangled d;
	int ret = demangle_with(rust_demangle_callback, name, options, &d);

	if (!ret)
		ret = demangle_with(cplus_demangle_v3_callback, name, options, &d);
	if (ret < 0)
		return ret;
	if (ret) {
		*out = d.p;
		return 0;
	}
#else
	(void)options;
#endif
	return ocaml ? demangle_ocaml(name, out) : 0;
}

int rp_demangle(const char *name, char **out)
{
	return demangle_opts(name, DMGL_NO_OPTS, 1, out);
}

int rp_demangle_params(const char *name, char **out)
{
	*out = NULL;
#ifdef RP_HAVE_LIBIBERTY
	/* objdump -C's bfd_demangle(): cplus_demangle(DMGL_ANSI | DMGL_PARAMS) */
	return demangle_opts(name, DMGL_ANSI | DMGL_PARAMS, 0, out);
#else
	(void)name;
	return 0;
#endif
}

/*
 * name (NUL-terminated, at most RP_SYMBOLS_MAX_NAME bytes) demangled into
 * names; *out NULL when it is not mangled.  0 or RP_ERR_NOMEM.
 */
static int demangle_into(struct rp_arena *names, const char *name, const char **out)
{
	char *dem = NULL;
	int err = rp_demangle(name, &dem);

	*out = NULL;
	if (err < 0)
		return err;
	if (!dem)
		return 0;
	size_t len = strlen(dem);
	if (len > RP_SYMBOLS_MAX_NAME)
		len = RP_SYMBOLS_MAX_NAME;
	*out = rp_arena_strndup(names, dem, len);
	free(dem);
	return *out ? 0 : RP_ERR_NOMEM;
}

/* The fix-ups compare demangled names, as perf's (it demangles on load). */
static void raw_demangle(struct rp_symtab_builder *b, struct rp_sym_raw *r)
{
	const char *dem;

	if (!r->mangled)
		return;
	if (demangle_into(b->names, r->name, &dem) < 0) {
		b->nomem = 1;
		return;
	}
	if (dem)
		r->name = dem;
	r->mangled = 0;
}

int rp_symtab_demangle(struct rp_dso_symtab *t, size_t i)
{
	const char *dem;

	if (!t->mangled || i >= t->nr || !__atomic_load_n(&t->mangled[i], __ATOMIC_ACQUIRE))
		return 0;
	int err = demangle_into(&t->names, t->syms[i].name, &dem);

	if (err < 0)
		return err; /* stays mangled; asked again next time */
	if (dem)
		t->syms[i].name = dem;
	__atomic_store_n(&t->mangled[i], 0, __ATOMIC_RELEASE);
	return 0;
}

int rp_symb_add(struct rp_symtab_builder *b, uint64_t start, uint64_t size,
		uint8_t binding, uint8_t type, const char *name, size_t len)
{
	if (b->nr >= RP_SYMBOLS_MAX_SYMS)
		return RP_ERR_LIMIT;
	if (len > RP_SYMBOLS_MAX_NAME)
		len = RP_SYMBOLS_MAX_NAME;
	if (RP_ARRAY_RESERVE(b->v, b->alloc, b->nr + 1) < 0)
		return RP_ERR_NOMEM;
	if (b->track_tree && tree_reserve(&b->tree, (size_t)b->seq + 1) < 0)
		return RP_ERR_NOMEM;
	/* Stored as it is; demangled when first needed (most never are:
	 * a table has thousands of names, a report prints a few). */
	char *copy = rp_arena_strndup(b->names, name, len);
	if (!copy)
		return RP_ERR_NOMEM;
	struct rp_sym_raw *r = &b->v[b->nr++];
	r->mangled = b->demangle && !b->no_demangle && len > 0;
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
	if (b->track_tree) {
		b->tree.key[r->seq] = start;
		tree_insert(&b->tree, r->seq);
	}
	return 0;
}

/* a before b: by start, equal starts by insertion order. */
static inline int raw_before(const struct rp_sym_raw *a, const struct rp_sym_raw *b)
{
	return a->start < b->start || (a->start == b->start && a->seq < b->seq);
}

static void insertion_sort(struct rp_sym_raw *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct rp_sym_raw x = v[i];
		size_t j = i;

		while (j > 0 && raw_before(&x, &v[j - 1])) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/*
 * A natural merge sort: runs already in order are found and merged in
 * pairs.  /proc/kallsyms lists the kernel's symbols in address order and
 * each module's after them (a handful of runs), and a table is sorted
 * again after its fix-ups, so most sorts are one pass that finds the
 * order already there; an ELF symbol table costs what a merge sort costs.
 * Without memory for the merge buffer, an insertion sort (in place).
 */
void rp_symb_sort(struct rp_symtab_builder *b)
{
	size_t n = b->nr;
	struct rp_sym_raw *v = b->v;

	if (n < 2)
		return;
	size_t i = 1;
	while (i < n && !raw_before(&v[i], &v[i - 1]))
		i++;
	if (i == n)
		return;
	struct rp_sym_raw *tmp = malloc(n * sizeof(*tmp));
	size_t *bound = malloc((n + 1) * sizeof(*bound));
	if (!tmp || !bound) {
		free(tmp);
		free(bound);
		insertion_sort(v, n);
		return;
	}
	/* Run boundaries, found once; each pass merges neighbours. */
	size_t nb = 0;
	bound[nb++] = 0;
	for (i = 1; i < n; i++)
		if (raw_before(&v[i], &v[i - 1]))
			bound[nb++] = i;
	bound[nb] = n; /* nb runs: [bound[k], bound[k + 1]) */
	struct rp_sym_raw *src = v, *dst = tmp;
	while (nb > 1) {
		size_t k, out = 0;
		for (k = 0; k + 1 < nb; k += 2) {
			size_t a = bound[k], ae = bound[k + 1], c = ae, ce = bound[k + 2], d = a;
			while (a < ae && c < ce)
				dst[d++] = raw_before(&src[c], &src[a]) ? src[c++] : src[a++];
			while (a < ae)
				dst[d++] = src[a++];
			while (c < ce)
				dst[d++] = src[c++];
			bound[out++] = bound[k];
		}
		if (k < nb) {
			memcpy(dst + bound[k], src + bound[k], (bound[k + 1] - bound[k]) * sizeof(*src));
			bound[out++] = bound[k];
		}
		bound[out] = n;
		nb = out;
		struct rp_sym_raw *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(bound);
	free(tmp);
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

/* perf's choose_best_symbol(): 0 keeps a, 1 keeps b.  The names, which
 * only the last two rules compare, are demangled first (as perf's are). */
static int choose_best(struct rp_symtab_builder *bld, struct rp_sym_raw *a, struct rp_sym_raw *b)
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
	raw_demangle(bld, a);
	raw_demangle(bld, b);
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
		size_t loser = i;
		if (choose_best(b, &b->v[cur], &b->v[i]) != 0) {
			loser = cur;
			cur = i;
		}
		b->v[loser].dead = 1;
		if (b->track_tree)
			tree_erase(&b->tree, b->v[loser].seq);
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
	/* Every field is set below. */
	t->syms = malloc(b->nr * sizeof(*t->syms));
	t->max_end = malloc(b->nr * sizeof(*t->max_end));
	if (!t->syms || !t->max_end) {
		free(t->syms);
		free(t->max_end);
		t->syms = NULL;
		t->max_end = NULL;
		return RP_ERR_NOMEM;
	}
	if (b->nomem)
		return RP_ERR_NOMEM;
	for (size_t i = 0; i < b->nr && !t->mangled; i++) {
		if (b->v[i].mangled && !(t->mangled = calloc(b->nr, 1)))
			return RP_ERR_NOMEM;
	}
	uint64_t m = 0;
	for (size_t i = 0; i < b->nr; i++) {
		struct rp_symbol *s = &t->syms[i];
		if (t->mangled)
			t->mangled[i] = b->v[i].mangled;
		s->start = b->v[i].start;
		s->end = b->v[i].end;
		s->name = b->v[i].name;
		s->binding = b->v[i].binding;
		s->inlined = 0;
		s->type = b->v[i].type;
		/* A zero-size symbol still covers its first address, as
		 * perf's lookup does. */
		uint64_t e = s->end > s->start ? s->end : s->start + 1;
		if (e > m || i == 0)
			m = e;
		t->max_end[i] = m;
	}
	t->nr = b->nr;
	t->tree_root = NIL;
	if (!b->track_tree)
		return 0;
	int overlap = 0;
	for (size_t i = 0; i + 1 < b->nr && !overlap; i++)
		overlap = t->syms[i].end > t->syms[i + 1].start ||
			  t->syms[i].start == t->syms[i + 1].start;
	if (!overlap)
		return 0;
	/* Keep perf's tree, renumbered from seq to positions in syms. */
	uint32_t *pos = malloc((size_t)b->seq * sizeof(*pos));
	t->tree_left = malloc(b->nr * sizeof(*t->tree_left));
	t->tree_right = malloc(b->nr * sizeof(*t->tree_right));
	if (!pos || !t->tree_left || !t->tree_right) {
		free(pos);
		free(t->tree_left);
		free(t->tree_right);
		t->tree_left = t->tree_right = NULL;
		/* Binary search would answer, but not always as perf does
		 * where symbols overlap. */
		return RP_ERR_NOMEM;
	}
	for (size_t i = 0; i < (size_t)b->seq; i++)
		pos[i] = NIL;
	for (size_t i = 0; i < b->nr; i++)
		pos[b->v[i].seq] = (uint32_t)i;
	for (size_t i = 0; i < b->nr; i++) {
		uint32_t q = b->v[i].seq;
		t->tree_left[i] = b->tree.n[q].child[0] == NIL ? NIL : pos[b->tree.n[q].child[0]];
		t->tree_right[i] = b->tree.n[q].child[1] == NIL ? NIL : pos[b->tree.n[q].child[1]];
	}
	t->tree_root = b->tree.root == NIL ? NIL : pos[b->tree.root];
	free(pos);
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
	if (t->tree_left) {
		/* perf's descent (symbols__find). */
		uint32_t n = t->tree_root;
		while (n != NIL) {
			const struct rp_symbol *s = &t->syms[n];
			if (addr < s->start)
				n = t->tree_left[n];
			else if (!covers(s, addr))
				n = t->tree_right[n];
			else
				return s;
		}
		return NULL;
	}
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
	rp_symtab_dwarf_close(t);
	free(t->syms);
	free(t->mangled);
	free(t->max_end);
	free(t->tree_left);
	free(t->tree_right);
	free(t->dwarf_path);
	free(t->a2l_path);
	free(t->elf_path);
	rp_hashmap_release(&t->inlines);
	rp_hashmap_release(&t->inline_syms);
	rp_hashmap_release(&t->inline_renamed);
	rp_symtab_inline_release(t);
	rp_hashmap_release(&t->srclines);
	rp_arena_release(&t->inline_arena);
	free(t->segs);
	free(t->fn_secs);
	free(t->a2l_fns);
	free(t->src);
	free(t->src_done);
	rp_arena_release(&t->names);
	free(t);
}
