/* SPDX-License-Identifier: MIT */
/*
 * Inline chains from DWARF (libdw): what perf 6.1 gets from `addr2line -i
 * -f` for an address (util/srcline.c dso__parse_addr_inlines() and
 * inline_list__append_record()), found here in-process.
 *
 * For an address, the scopes that hold it (dwarf_getscopes) are walked
 * from the innermost out: each DW_TAG_inlined_subroutine is a frame, and
 * the first DW_TAG_subprogram the last one; of functions with equal
 * ranges the last in the unit is the innermost, as binutils picks it
 * (gas gives each label of glibc's assembly a subprogram: several at one
 * address).  A frame's name is the function's linkage name (through
 * DW_AT_abstract_origin and DW_AT_specification), demangled as perf
 * demangles, else its DW_AT_name, as binutils' addr2line prefers them,
 * but for a function without a linkage name in a unit of a language
 * that mangles, which addr2line names after a symbol the first time it
 * is innermost (parse_chain()); code outside any function of DWARF, and
 * any code of a DSO without DWARF, is named after a symbol too
 * (a2l_symbol(), symbol_chain()).  Its line is
 * the address's own for the innermost frame and the call site
 * (DW_AT_call_file/line) of the frame inside it for the others.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/linefile_int.h"
#include "symbols/symbols_int.h"

/* The cached chain of one address. */
struct rp_inline_node {
	uint32_t nr;
	struct rp_inline_frame frames[];
};

static int has_linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	       dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a);
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		name = dwarf_formstring(&a);
	if (!name && dwarf_attr_integrate(die, DW_AT_name, &a))
		name = dwarf_formstring(&a);
	return name;
}

/* Whether binutils 2.40 takes a DW_AT_name of cu's language as the
 * linkage name (languages that do not mangle; measured with addr2line on
 * one C unit relabelled with each language: Ada, Fortran 90 and later,
 * Modula-2 are not among them, gas's assembler units are). */
static int name_is_linkage(Dwarf_Die *cu)
{
	switch (dwarf_srclang(cu)) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_PLI:
	case DW_LANG_UPC:
	case DW_LANG_Mips_Assembler: /* gas's subprograms of labels */
		return 1;
	default:
		return 0;
	}
}

/* Whether die's code starts at vaddr: binutils compares the function's
 * first address range (a function split in hot and cold parts lists the
 * hot one first) with the symbol's value. */
static int starts_at(Dwarf_Die *die, uint64_t vaddr)
{
	Dwarf_Addr lowpc, rbase, end;

	if (dwarf_lowpc(die, &lowpc) != 0 && dwarf_ranges(die, 0, &rbase, &lowpc, &end) <= 0)
		return 0;
	return vaddr == lowpc;
}

/* The symbol of an inline frame named `name` whose code lies in base. */
static const struct rp_symbol *inline_sym(struct rp_symbols *s, struct rp_dso_symtab *t,
					  const struct rp_symbol *base, const char *name)
{
	char *demangled = NULL;

	if (!name)
		name = "??";
	if (!s->no_demangle && rp_demangle(name, &demangled) < 0)
		return NULL;
	if (demangled)
		name = demangled;
	if (base->name && !strcmp(name, base->name)) {
		free(demangled);
		return base;
	}
	uint64_t key = rp_hash_bytes(name, strlen(name)) ^ rp_hash64(base->start) ^ base->end;
	struct rp_symbol *sym = rp_hashmap_get(&t->inline_syms, key);

	if (sym && sym->start == base->start && sym->end == base->end && !strcmp(sym->name, name)) {
		free(demangled);
		return sym;
	}
	struct rp_symbol *n = rp_arena_alloc(&t->inline_arena, sizeof(*n));
	char *copy = rp_arena_strdup(&t->inline_arena, name);

	free(demangled);
	if (!n || !copy)
		return NULL;
	*n = (struct rp_symbol){ base->start, base->end, copy, base->binding, 1, 0 };
	if (!sym && rp_hashmap_put(&t->inline_syms, key, n) < 0)
		return NULL;
	return n;
}

/*
 * The function symbol binutils' addr2line (2.40) names an address after
 * where DWARF gives it no name of its own (_bfd_elf_find_function() on the
 * symbols of the file it reads, the DWARF file here), as measured on
 * hand-made files and on glibc: of the .symtab entries in the address's
 * section (the first SHF_ALLOC section holding it) that are not objects,
 * sections, files or TLS, and not hidden local untyped ones of size 0,
 * the one starting nearest at or below the address, whether or not its
 * size reaches it; among those starting there the largest (size 0 counts
 * as 1), and among equal sizes the first in the table (locals come
 * first).  Function and untyped symbols rank alike.
 */
struct rp_a2l_sym {
	uint64_t value, size;
	uint32_t shndx, idx, name;
};

struct rp_a2l_syms {
	struct rp_a2l_sym *v;
	size_t nr;
	size_t strscn; /* the string table of the names */
};

static int a2l_order(const void *pa, const void *pb)
{
	const struct rp_a2l_sym *a = pa, *b = pb;

	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1; /* the largest first */
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Reads e's .symtab into x; 0, or RP_ERR_NOMEM (x keeps nothing). */
static int a2l_syms_read(struct rp_a2l_syms *x, Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	/* Its .symtab, else (none) its .dynsym, as addr2line reads them. */
	for (int want = SHT_SYMTAB; !scn; want = SHT_DYNSYM) {
		while ((scn = elf_nextscn(e, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == (unsigned)want)
				break;
		if (want == SHT_DYNSYM)
			break;
	}
	if (!scn || !sh.sh_entsize || sh.sh_type == SHT_NOBITS)
		return 0;
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = d ? d->d_size / sh.sh_entsize : 0;

	if (n > RP_SYMBOLS_MAX_SYMS)
		n = RP_SYMBOLS_MAX_SYMS;
	if (n < 2)
		return 0;
	x->v = malloc(n * sizeof(*x->v));
	if (!x->v)
		return RP_ERR_NOMEM;
	x->strscn = sh.sh_link;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		int type;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_OBJECT || type == STT_SECTION || type == STT_FILE ||
		    type == STT_TLS || type == STT_COMMON || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx >= SHN_LORESERVE)
			continue;
		if (!sym.st_size && GELF_ST_BIND(sym.st_info) == STB_LOCAL && type == STT_NOTYPE &&
		    GELF_ST_VISIBILITY(sym.st_other) == STV_HIDDEN)
			continue;
		x->v[x->nr++] = (struct rp_a2l_sym){ sym.st_value, sym.st_size ? sym.st_size : 1,
						     sym.st_shndx, (uint32_t)i, sym.st_name };
	}
	if (x->nr)
		qsort(x->v, x->nr, sizeof(*x->v), a2l_order);
	return 0;
}

/* The name addr2line gives vaddr after the symbols of e (t's DWARF file,
 * else the file perf read symbols from), or NULL (none, or *err
 * RP_ERR_NOMEM); *start its value. */
static const char *a2l_symbol(struct rp_dso_symtab *t, Elf *e, uint64_t vaddr, uint64_t *start,
			      int *err)
{
	if (!e)
		return NULL;
	if (!t->a2l_syms_tried) {
		t->a2l_syms_tried = 1;
		struct rp_a2l_syms *x = calloc(1, sizeof(*x));

		if (!x || a2l_syms_read(x, e) < 0) {
			free(x);
			*err = RP_ERR_NOMEM;
			return NULL;
		}
		t->a2l_syms = x;
	}
	struct rp_a2l_syms *x = t->a2l_syms;

	if (!x || !x->nr)
		return NULL;
	/* The section: the first allocated one holding vaddr. */
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shndx = 0;

	while ((scn = elf_nextscn(e, scn))) {
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_addr <= vaddr &&
		    vaddr - sh.sh_addr < sh.sh_size) {
			shndx = elf_ndxscn(scn);
			break;
		}
	}
	if (!shndx)
		return NULL;
	/* The last entry of that section starting at or below vaddr. */
	size_t lo = 0, hi = x->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct rp_a2l_sym *m = &x->v[mid];

		if (m->shndx < shndx || (m->shndx == shndx && m->value <= vaddr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || x->v[lo - 1].shndx != shndx)
		return NULL;
	size_t i = lo - 1;

	/* The first of those starting there: the largest, first in the
	 * table. */
	while (i && x->v[i - 1].shndx == shndx && x->v[i - 1].value == x->v[i].value)
		i--;
	const char *name = elf_strptr(e, x->strscn, x->v[i].name);

	/* (A name longer than a symbol's may be is no name.) */
	if (!name || strnlen(name, RP_SYMBOLS_MAX_NAME + 1) > RP_SYMBOLS_MAX_NAME)
		return NULL;
	*start = x->v[i].value;
	return name;
}

/* The file of a DW_AT_call_file index in cu's line table, as addr2line
 * names it (rp_line_name()), or NULL. */
static const char *call_file(struct rp_dso_symtab *t, Dwarf *dw, Dwarf_Die *cu, Dwarf_Die *die,
			     int *err)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Files *files;
	size_t nr;

	if (!dwarf_attr(die, DW_AT_call_file, &a) || dwarf_formudata(&a, &idx) != 0)
		return NULL;
	if (dwarf_getsrcfiles(cu, &files, &nr) != 0 || idx >= nr)
		return NULL;
	return rp_line_name(dw, &t->line_files, cu, dwarf_filesrc(files, idx, NULL, NULL), err);
}

static uint32_t call_line(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word line;

	if (!dwarf_attr(die, DW_AT_call_line, &a) || dwarf_formudata(&a, &line) != 0)
		return 0;
	return line > UINT32_MAX ? 0 : (uint32_t)line;
}

/*
 * The address ranges of one compile unit's functions (DW_TAG_subprogram
 * and DW_TAG_inlined_subroutine, each range an entry), sorted by start,
 * each with the entry whose range holds it: built once per unit, so that
 * an address's chain is a binary search and a walk up, where
 * dwarf_getscopes() reads the unit's whole DIE tree every time.
 */
struct rp_fn_range {
	uint64_t lo, hi;   /* [lo, hi) */
	uint64_t die;      /* the function's DIE offset */
	uint32_t parent;   /* index of the enclosing range, UINT32_MAX: none */
};

struct rp_cu_index {
	struct rp_fn_range *v;
	size_t nr, alloc;
	int err; /* RP_ERR_NOMEM while it was built */
};

static void cu_index_add(struct rp_cu_index *x, Dwarf_Die *die)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (x->nr >= RP_SYMBOLS_MAX_CU_RANGES) {
			x->err = RP_ERR_LIMIT;
			return;
		}
		if (x->nr == x->alloc) {
			size_t n = x->alloc ? x->alloc * 2 : 64;
			struct rp_fn_range *v = realloc(x->v, n * sizeof(*v));

			if (!v) {
				x->err = RP_ERR_NOMEM;
				return;
			}
			x->v = v;
			x->alloc = n;
		}
		x->v[x->nr++] = (struct rp_fn_range){ lo, hi, dwarf_dieoffset(die), UINT32_MAX };
	}
}

/* Every function range under die, depth first (bounded nesting). */
static void cu_index_walk(struct rp_cu_index *x, Dwarf_Die *die, unsigned depth)
{
	Dwarf_Die child;

	if (depth > RP_SYMBOLS_MAX_DIE_DEPTH || dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			cu_index_add(x, &child);
		if (x->err)
			return;
		if (dwarf_haschildren(&child))
			cu_index_walk(x, &child, depth + 1);
	} while (!x->err && dwarf_siblingof(&child, &child) == 0);
}

static int range_order(const void *pa, const void *pb)
{
	const struct rp_fn_range *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi > b->hi ? -1 : 1; /* the enclosing one first */
	return a->die < b->die ? -1 : a->die > b->die;
}

/* Sorts the ranges and links each to the range that holds it. */
static int cu_index_finish(struct rp_cu_index *x)
{
	uint32_t *stack;
	size_t top = 0;

	if (x->nr) /* a unit without function ranges has no array */
		qsort(x->v, x->nr, sizeof(*x->v), range_order);
	stack = malloc((x->nr ? x->nr : 1) * sizeof(*stack));
	if (!stack)
		return RP_ERR_NOMEM;
	for (size_t i = 0; i < x->nr; i++) {
		while (top && x->v[stack[top - 1]].hi <= x->v[i].lo)
			top--;
		/* A range that starts inside another but ends past it (damaged
		 * DWARF) is nobody's child. */
		if (top && x->v[i].hi <= x->v[stack[top - 1]].hi)
			x->v[i].parent = stack[top - 1];
		stack[top++] = (uint32_t)i;
	}
	free(stack);
	return 0;
}

static void cu_index_free(struct rp_cu_index *x)
{
	if (x) {
		free(x->v);
		free(x);
	}
}

void rp_symtab_inline_release(struct rp_dso_symtab *t)
{
	if (t->a2l_syms) {
		free(t->a2l_syms->v);
		free(t->a2l_syms);
		t->a2l_syms = NULL;
	}
	if (t->a2l_elf)
		elf_end(t->a2l_elf);
	t->a2l_elf = NULL;
	if (t->a2l_fd_plus1 > 0)
		close(t->a2l_fd_plus1 - 1);
	t->a2l_fd_plus1 = 0;
	for (size_t i = 0; i < t->inline_cus.cap; i++)
		cu_index_free(t->inline_cus.slots[i].value);
	rp_hashmap_release(&t->inline_cus);
}

/* The index of cu (built on first use), or NULL with *err set. */
static struct rp_cu_index *cu_index(struct rp_dso_symtab *t, Dwarf_Die *cu, int *err)
{
	uint64_t key = dwarf_dieoffset(cu) + 1;
	struct rp_cu_index *x = rp_hashmap_get(&t->inline_cus, key);

	if (x)
		return x;
	x = calloc(1, sizeof(*x));
	if (!x) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	cu_index_walk(x, cu, 0);
	/* A unit too large for the cap keeps the ranges read so far. */
	if (x->err == RP_ERR_NOMEM || cu_index_finish(x) < 0 ||
	    rp_hashmap_put(&t->inline_cus, key, x) < 0) {
		cu_index_free(x);
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	return x;
}

/* The innermost function range holding vaddr, or UINT32_MAX. */
static uint32_t innermost(const struct rp_cu_index *x, uint64_t vaddr)
{
	size_t lo = 0, hi = x->nr;

	while (lo < hi) { /* the first range starting past vaddr */
		size_t mid = lo + (hi - lo) / 2;

		if (x->v[mid].lo <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return UINT32_MAX;
	uint32_t i = (uint32_t)(lo - 1);
	unsigned steps = 0;

	while (i != UINT32_MAX && vaddr >= x->v[i].hi && steps++ < RP_SYMBOLS_MAX_DIE_DEPTH)
		i = x->v[i].parent;
	return i != UINT32_MAX && vaddr < x->v[i].hi ? i : UINT32_MAX;
}

/* One node of nr frames f (copied), or NULL with *err RP_ERR_NOMEM. */
static struct rp_inline_node *new_node(struct rp_dso_symtab *t, const struct rp_inline_frame *f,
				       uint32_t nr, int *err)
{
	struct rp_inline_node *node =
		rp_arena_alloc(&t->inline_arena, sizeof(*node) + nr * sizeof(node->frames[0]));

	if (!node) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	node->nr = nr;
	memcpy(node->frames, f, nr * sizeof(f[0]));
	return node;
}

/*
 * The chain of an address DWARF gives no function (no unit covers it, or
 * its unit's functions do not): addr2line still names it, after a symbol
 * of e (a2l_symbol()), with the unit's line if any.  NULL when no symbol
 * does (addr2line's "??": no frame), or with *err RP_ERR_NOMEM.
 */
static struct rp_inline_node *symbol_chain(struct rp_symbols *s, struct rp_dso_symtab *t,
					   const struct rp_symbol *base, Elf *e, uint64_t vaddr,
					   const char *file, uint32_t line, int *err)
{
	struct rp_inline_frame f = { NULL, NULL, line };
	uint64_t start;
	const char *name = a2l_symbol(t, e, vaddr, &start, err);

	if (!name)
		return NULL;
	if (!(f.sym = inline_sym(s, t, base, name)) ||
	    (file && !(f.file = rp_arena_strdup(&t->inline_arena, file)))) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	return new_node(t, &f, 1, err);
}

/* What inline_renamed keeps for a function looked up whose name stays
 * its DWARF name. */
static const char looked_up_marker[] = "";

/* The chain at vaddr, or NULL (none) with *err 0, or NULL with *err
 * RP_ERR_NOMEM. */
static struct rp_inline_node *parse_chain(struct rp_symbols *s, struct rp_dso_symtab *t,
					  const struct rp_symbol *base, uint64_t vaddr, int *err)
{
	Dwarf *dw = t->dwarf;
	Dwarf_Die cu;
	struct rp_inline_frame f[RP_SYMBOLS_MAX_INLINE_DEPTH];
	uint32_t nr = 0;

	*err = 0;
	if (!dwarf_addrdie(dw, vaddr, &cu))
		return symbol_chain(s, t, base, dwarf_getelf(dw), vaddr, NULL, 0, err);
	struct rp_cu_index *x = cu_index(t, &cu, err);

	if (!x)
		return NULL;
	uint32_t i = innermost(x, vaddr);
	Dwarf_Line *line = dwarf_getsrc_die(&cu, vaddr);
	const char *file = line ? rp_line_file(dw, &t->line_files, &cu, line, err) : NULL;
	int lineno = 0;

	if (*err)
		return NULL;

	if (line)
		dwarf_lineno(line, &lineno);
	if (i == UINT32_MAX)
		return symbol_chain(s, t, base, dwarf_getelf(dw), vaddr, file,
				    lineno > 0 ? (uint32_t)lineno : 0, err);
	for (; i != UINT32_MAX && nr < RP_SYMBOLS_MAX_INLINE_DEPTH; i = x->v[i].parent) {
		Dwarf_Die die;

		if (!dwarf_offdie(dw, x->v[i].die, &die))
			break;
		int tag = dwarf_tag(&die);
		const char *name = NULL;

		uint64_t off = x->v[i].die;

		if (!name_is_linkage(&cu) && !has_linkage_name(&die)) {
			/*
			 * binutils names a function that DWARF gives no
			 * linkage name after the symbol table's function at
			 * the address (a2l_symbol()) the first time it is the
			 * innermost function of a lookup in the file, and
			 * marks it looked up: every later lookup (and every
			 * outer frame) names it after its DWARF name, or
			 * after that symbol when the symbol starts where the
			 * function's first range does.
			 */
			const char *kept = rp_hashmap_get(&t->inline_renamed, off);

			if (kept) {
				name = kept == looked_up_marker ? NULL : kept;
			} else if (!nr) {
				uint64_t start = 0;

				name = a2l_symbol(t, dwarf_getelf(dw), vaddr, &start, err);
				if (*err)
					break;
				kept = name && starts_at(&die, start) ? name : looked_up_marker;
				if (rp_hashmap_put(&t->inline_renamed, off, (void *)kept) < 0) {
					*err = RP_ERR_NOMEM;
					break;
				}
			}
		}
		if (!name)
			name = die_name(&die);
		const struct rp_symbol *sym = inline_sym(s, t, base, name);

		if (!sym) {
			*err = RP_ERR_NOMEM;
			break;
		}
		f[nr].sym = sym;
		f[nr].file = file ? rp_arena_strdup(&t->inline_arena, file) : NULL;
		f[nr].line = lineno > 0 ? (uint32_t)lineno : 0;
		if (file && !f[nr].file) {
			*err = RP_ERR_NOMEM;
			break;
		}
		nr++;
		if (tag == DW_TAG_subprogram)
			break;
		file = call_file(t, dw, &cu, &die, err);
		lineno = (int)call_line(&die);
	}
	if (*err || !nr)
		return NULL;
	return new_node(t, f, nr, err);
}

/* The ELF file of t->a2l_path (opened on first use), or NULL. */
static Elf *a2l_elf(struct rp_dso_symtab *t)
{
	if (!t->a2l_elf_tried) {
		t->a2l_elf_tried = 1;
		int fd = open(t->a2l_path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			elf_version(EV_CURRENT);
			t->a2l_elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
			if (t->a2l_elf)
				t->a2l_fd_plus1 = fd + 1;
			else
				close(fd);
		}
	}
	return t->a2l_elf;
}

/* The node cached for addresses without a chain. */
static struct rp_inline_node no_chain;

int rp_symbols_inlines(struct rp_symbols *s, struct rp_dso *dso, const struct rp_symbol *sym,
		       uint64_t addr, const struct rp_inline_frame **out)
{
	*out = NULL;
	if (!s || s->no_inline || !dso || !sym || sym->inlined)
		return 0;
	struct rp_dso_symtab *t = rp_symbols_table(s, dso);

	if (!t || (!t->dwarf_path && !t->a2l_path))
		return 0;
	/* perf runs no addr2line for [vdso] and the like, nor JIT maps. */
	if (dso->long_name &&
	    (dso->long_name[0] == '[' || !strncmp(dso->long_name, "/tmp/perf-", 10)))
		return 0;
	struct rp_inline_node *node = rp_hashmap_get(&t->inlines, addr);

	if (!node) {
		uint64_t vaddr;
		int err = 0;

		if (t->inlines.nr >= RP_SYMBOLS_MAX_INLINE_ADDRS ||
		    rp_symtab_vaddr(t, addr, &vaddr) < 0)
			return 0;
		if (t->dwarf_path && !rp_symtab_dwarf(t))
			return 0;
		node = t->dwarf_path ? parse_chain(s, t, sym, vaddr, &err)
				     : symbol_chain(s, t, sym, a2l_elf(t), vaddr, NULL, 0, &err);
		if (err) {
			s->error = err;
			return err;
		}
		if (!node)
			node = &no_chain;
		if (rp_hashmap_put(&t->inlines, addr, node) < 0) {
			s->error = RP_ERR_NOMEM;
			return RP_ERR_NOMEM;
		}
	}
	*out = node->frames;
	return (int)node->nr;
}

const char *rp_symtab_line(struct rp_dso_symtab *t, uint64_t vaddr, uint32_t *line,
			   uint32_t *discr, int *err)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	int lineno = 0;
	unsigned int d = 0;

	*line = 0;
	*err = 0;
	if (discr)
		*discr = 0;
	if (!rp_symtab_dwarf(t) || !dwarf_addrdie(t->dwarf, vaddr, &cu) ||
	    !(l = dwarf_getsrc_die(&cu, vaddr)) || dwarf_lineno(l, &lineno) != 0)
		return NULL;
	*line = lineno > 0 ? (uint32_t)lineno : 0;
	if (discr && dwarf_linediscriminator(l, &d) == 0)
		*discr = d;
	return rp_line_file(t->dwarf, &t->line_files, &cu, l, err);
}

int rp_symbols_objdump_fn(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
			  struct rp_hashmap *renamed, const char **name, int *plain)
{
	*name = NULL;
	*plain = 0;
	if (!s || !dso)
		return 0;
	struct rp_dso_symtab *t = rp_symbols_table(s, dso);
	uint64_t vaddr;
	Dwarf_Die cu, die;
	int err = 0;

	if (!t || !t->dwarf_path || rp_symtab_vaddr(t, addr, &vaddr) < 0 || !rp_symtab_dwarf(t) ||
	    !dwarf_addrdie(t->dwarf, vaddr, &cu))
		return 0;
	struct rp_cu_index *x = cu_index(t, &cu, &err);

	if (!x)
		return err;
	uint32_t i = innermost(x, vaddr);

	if (i == UINT32_MAX || !dwarf_offdie(t->dwarf, x->v[i].die, &die))
		return 0;
	if (!name_is_linkage(&cu) && !has_linkage_name(&die)) {
		/* binutils' naming of a function without linkage name
		 * (parse_chain()), its state kept per objdump run */
		uint64_t off = x->v[i].die;
		const char *kept = rp_hashmap_get(renamed, off);

		if (kept) {
			*name = kept == looked_up_marker ? NULL : kept;
		} else {
			uint64_t start = 0;

			*name = a2l_symbol(t, dwarf_getelf(t->dwarf), vaddr, &start, &err);
			if (err)
				return err;
			kept = *name && starts_at(&die, start) ? *name : looked_up_marker;
			if (rp_hashmap_put(renamed, off, (void *)kept) < 0)
				return RP_ERR_NOMEM;
		}
		if (*name)
			return 1; /* a symbol's name, mangled or not */
	}
	*name = die_name(&die);
	/* bfd takes DW_AT_name for the linkage name in the languages that
	 * do not mangle (name_is_linkage()) and where DWARF gives none */
	*plain = name_is_linkage(&cu) || !has_linkage_name(&die);
	return *name ? 1 : 0;
}
