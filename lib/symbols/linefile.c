/* SPDX-License-Identifier: MIT */
/*
 * The file binutils' addr2line (bfd/dwarf2.c, 2.40) names for a line-table
 * row, where it differs from the row's own file.
 *
 * DWARF 5 starts each sequence of a line program with the file register
 * at 1; bfd starts it at file 0 in DWARF 5 units (at file 1 before), so
 * the rows a sequence emits before its first DW_LNS_set_file are named
 * after file 0 (the unit's primary file).  Rows after a DW_LNS_set_file,
 * even one that sets file 1, are named after the file they give.  GCC
 * and gas leave the register alone while the code comes from file 1, so
 * a unit whose first file entry is an included file (glibc's w_exp.c
 * including w_exp_template.c, libc-start.c including
 * libc_start_call_main.h) has rows that addr2line names after the
 * including file, at the same line numbers; perf shows those names.
 *
 * libdw does not say which rows a sequence emitted before its first
 * DW_LNS_set_file, so each DWARF 5 unit's line program is run once here
 * (only the registers that decide it: address and whether the file was
 * set), keeping per sequence the address range of those rows; a row of
 * libdw's table whose address falls in one is named after file 0.
 * Paths are bfd's too (concat_filename()): DW_AT_comp_dir goes before a
 * relative directory entry, which libdw leaves out (read_names()).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/cursor.h"
#include "symbols/linefile_int.h"
#include "symbols/symbols_int.h"

/* Rows a sequence emitted before its first DW_LNS_set_file: [lo, hi). */
struct line_range {
	uint64_t lo, hi;
};

/* One unit: its ranges sorted by lo, and file 0's name (NULL: no rule). */
struct line_cu {
	struct line_range *v;
	size_t nr, alloc;
	const char *file0;
	struct rp_hashmap names; /* libdw's names bfd makes otherwise */
};

struct rp_line_files {
	const uint8_t *line; /* .debug_line (inflated) */
	size_t line_size;
	int swap;
	struct rp_hashmap cus; /* unit DIE offset + 1 -> struct line_cu * */
};

/* Units without rows to rename share this (never freed). */
static struct line_cu no_rule;

static int uleb(struct rp_cursor *c, uint64_t *v)
{
	uint64_t r = 0;
	unsigned shift = 0;

	for (;;) {
		if (!rp_cur_need(c, 1))
			return -1;
		uint8_t b = rp_cur_get8(c);

		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	*v = r;
	return 0;
}

static int add_range(struct line_cu *x, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return 0;
	if (x->nr >= RP_SYMBOLS_MAX_CU_RANGES)
		return 0; /* the cap keeps what was read */
	if (RP_ARRAY_RESERVE(x->v, x->alloc, x->nr + 1) < 0)
		return -1;
	x->v[x->nr++] = (struct line_range){ lo, hi };
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct line_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* A line program's header, as far as it is read here. */
struct line_head {
	struct rp_cursor c; /* at the directory table; c.end: the program's end */
	const uint8_t *prog;
	uint16_t version;
	uint8_t addr_size, min_insn, line_range, opcode_base;
	const uint8_t *nargs; /* standard_opcode_lengths */
};

/* Reads the header of the line program at off of f's .debug_line: 0, or
 * -1 for a header it does not follow. */
static int read_head(const struct rp_line_files *f, uint64_t off, struct line_head *h)
{
	struct rp_cursor *c = &h->c;
	uint64_t len, hlen;
	uint32_t len32;
	int off64 = 0;

	if (!f->line || off >= f->line_size)
		return -1;
	rp_cur_init(c, f->line + off, f->line_size - (size_t)off, off, f->swap);
	if (rp_cur_u32(c, &len32) < 0)
		return -1;
	len = len32;
	if (len32 == 0xffffffffu) {
		if (rp_cur_u64(c, &len) < 0)
			return -1;
		off64 = 1;
	}
	if (!rp_cur_need(c, len))
		return -1;
	c->end = c->p + len;
	if (!rp_cur_need(c, 2))
		return -1;
	h->version = rp_cur_get16(c);
	h->addr_size = 0;
	if (h->version >= 5) {
		if (!rp_cur_need(c, 2))
			return -1;
		h->addr_size = rp_cur_get8(c);
		if (rp_cur_get8(c) != 0) /* segment_selector_size */
			return -1;
	}
	if (off64 ? rp_cur_u64(c, &hlen) < 0 : rp_cur_u32(c, &len32) < 0)
		return -1;
	if (!off64)
		hlen = len32;
	if (!rp_cur_need(c, hlen) || !rp_cur_need(c, 5))
		return -1;
	h->prog = c->p + hlen;
	h->min_insn = rp_cur_get8(c);
	uint8_t max_ops = h->version >= 4 ? rp_cur_get8(c) : 1;

	if (!rp_cur_need(c, 4))
		return -1;
	(void)rp_cur_get8(c); /* default_is_stmt */
	(void)rp_cur_get8(c); /* line_base */
	h->line_range = rp_cur_get8(c);
	h->opcode_base = rp_cur_get8(c);
	const void *lengths;

	if (!h->line_range || !h->opcode_base || max_ops != 1 ||
	    rp_cur_bytes(c, h->opcode_base - 1u, &lengths) < 0 || (const uint8_t *)c->p > h->prog)
		return -1;
	h->nargs = lengths;
	return 0;
}

/*
 * Runs the line program at off of f's .debug_line into x's ranges.
 * Returns 0 (also for a program it does not follow, which leaves no
 * ranges: the rows keep their own files), or -1 when out of memory.
 */
static int read_program(const struct rp_line_files *f, uint64_t off, struct line_cu *x)
{
	struct line_head h;

	if (read_head(f, off, &h) < 0 || h.version < 5 ||
	    (h.addr_size != 4 && h.addr_size != 8))
		return 0;
	struct rp_cursor c = h.c;
	uint8_t addr_size = h.addr_size, min_insn = h.min_insn, line_range = h.line_range;
	uint8_t opcode_base = h.opcode_base;
	const uint8_t *nargs = h.nargs;

	c.p = h.prog;

	uint64_t addr = 0, lo = 0;
	int file_set = 0, have_lo = 0, closed = 0;

	/* A row: the first of the sequence opens its range while the file
	 * was not set; the first after a DW_LNS_set_file closes it. */
#define ROW()                                                   \
	do {                                                    \
		if (!file_set) {                                \
			if (!have_lo)                           \
				lo = addr, have_lo = 1;         \
		} else if (have_lo && !closed) {                \
			closed = 1;                             \
			if (add_range(x, lo, addr) < 0)         \
				return -1;                      \
		}                                               \
	} while (0)

	while (rp_cur_need(&c, 1)) {
		uint8_t op = rp_cur_get8(&c);
		uint64_t v;

		if (op >= opcode_base) {
			addr += (uint64_t)((op - opcode_base) / line_range) * min_insn;
			ROW();
			continue;
		}
		switch (op) {
		case 0: { /* extended */
			if (uleb(&c, &v) < 0 || !rp_cur_need(&c, v) || v == 0)
				return 0;
			const uint8_t *next = c.p + v;
			uint8_t sub = rp_cur_get8(&c);

			if (sub == DW_LNE_end_sequence) {
				/* The end row closes a range still open. */
				if (have_lo && !closed && add_range(x, lo, addr) < 0)
					return -1;
				addr = lo = 0;
				file_set = have_lo = closed = 0;
			} else if (sub == DW_LNE_set_address) {
				if (v - 1 != addr_size)
					return 0;
				addr = addr_size == 8 ? rp_cur_get64(&c) : rp_cur_get32(&c);
			}
			c.p = next;
			break;
		}
		case DW_LNS_copy:
			ROW();
			break;
		case DW_LNS_advance_pc:
			if (uleb(&c, &v) < 0)
				return 0;
			addr += v * min_insn;
			break;
		case DW_LNS_set_file:
			if (uleb(&c, &v) < 0)
				return 0;
			file_set = 1;
			break;
		case DW_LNS_const_add_pc:
			addr += (uint64_t)((255 - opcode_base) / line_range) * min_insn;
			break;
		case DW_LNS_fixed_advance_pc:
			if (!rp_cur_need(&c, 2))
				return 0;
			addr += rp_cur_get16(&c);
			break;
		default: /* operands of ULEB128s, as the header counts them */
			for (unsigned i = 0; i < nargs[op - 1]; i++)
				if (uleb(&c, &v) < 0)
					return 0;
			break;
		}
	}
#undef ROW
	return 0;
}

static const uint8_t *debug_line(Dwarf *dw, size_t *size, int *swap)
{
	Elf *e = dwarf_getelf(dw);
	size_t shstrndx;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;

	if (!e || elf_getshdrstrndx(e, &shstrndx) < 0 || !gelf_getehdr(e, &eh))
		return NULL;
	*swap = (eh.e_ident[EI_DATA] == ELFDATA2LSB) != rp_host_is_le();
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    (sh.sh_flags & SHF_COMPRESSED) ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)) || strcmp(name, ".debug_line"))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);

		if (!d || !d->d_buf)
			return NULL;
		*size = d->d_size;
		return d->d_buf;
	}
	return NULL;
}

/* A file name of a unit as libdw gives it, and as bfd makes it. */
struct line_name {
	const char *libdw, *bfd; /* both in this allocation */
};

static void line_cu_free(struct line_cu *x)
{
	if (!x || x == &no_rule)
		return;
	for (size_t i = 0; i < x->names.cap; i++)
		free(x->names.slots[i].value);
	rp_hashmap_release(&x->names);
	free(x->v);
	free(x);
}

/* A NUL-terminated string at c (advanced past it), or NULL. */
static const char *cur_cstr(struct rp_cursor *c)
{
	const char *s = (const char *)c->p;
	const char *nul = memchr(s, 0, rp_cur_left(c));

	if (!nul)
		return NULL;
	(void)rp_cur_skip(c, (uint64_t)(nul - s) + 1);
	return s;
}

/*
 * The file names of cu's line table (at off of f's .debug_line; files:
 * libdw's nr names) that bfd's concat_filename() makes differently from
 * libdw, into x->names.  libdw joins a relative name with its directory
 * entry (before DWARF 5, directory 0 is DW_AT_comp_dir); bfd puts
 * DW_AT_comp_dir before that too when the directory entry is relative
 * (in DWARF 5 also directory 0), so "./malloc" "./malloc" "malloc.c"
 * is "./malloc/./malloc/malloc.c" to addr2line, "./malloc/malloc.c" to
 * libdw.  0, or -1 when out of memory.
 */
static int read_names(const struct rp_line_files *f, uint64_t off, Dwarf_Die *cu,
		      Dwarf_Files *files, size_t nr, struct line_cu *x)
{
	Dwarf_Attribute a;
	const char *comp_dir = dwarf_attr(cu, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
	struct line_head h;
	uint8_t *dir0 = NULL; /* before DWARF 5: libdw's file i has directory 0 */
	size_t first = 0, nr_files = nr;

	if (!comp_dir || read_head(f, off, &h) < 0)
		return 0;
	if (h.version < 5) {
		struct rp_cursor *c = &h.c;
		const char *name;
		uint64_t v;

		/* include_directories, then file_names (name, directory,
		 * time, size), each list ended by an empty name. */
		while ((name = cur_cstr(c)) && *name)
			;
		if (!name || !(dir0 = calloc(nr + 1, 1)))
			return name ? -1 : 0;
		first = 1; /* libdw's file 0 is a placeholder */
		nr_files = 1;
		while (nr_files < nr && (name = cur_cstr(c)) && *name) {
			if (uleb(c, &v) < 0)
				break;
			dir0[nr_files++] = v == 0;
			if (uleb(c, &v) < 0 || uleb(c, &v) < 0)
				break;
		}
	}
	for (size_t i = first; i < nr_files; i++) {
		const char *own = dwarf_filesrc(files, i, NULL, NULL);

		if (!own || own[0] == '/' || (dir0 && dir0[i]))
			continue;
		uint64_t key = rp_hash_bytes(own, strlen(own));

		if (rp_hashmap_get(&x->names, key))
			continue;
		size_t n_own = strlen(own) + 1, n_bfd = strlen(comp_dir) + 1 + n_own;
		struct line_name *e = malloc(sizeof(*e) + n_own + n_bfd);

		if (!e) {
			free(dir0);
			return -1;
		}
		char *p = (char *)(e + 1);

		memcpy(p, own, n_own);
		e->libdw = p;
		p += n_own;
		snprintf(p, n_bfd, "%s/%s", comp_dir, own);
		e->bfd = p;
		if (rp_hashmap_put(&x->names, key, e) < 0) {
			free(e);
			free(dir0);
			return -1;
		}
	}
	free(dir0);
	return 0;
}

/* file, a name of x's unit as libdw gives it, as bfd makes it. */
static const char *bfd_name(const struct line_cu *x, const char *file)
{
	const struct line_name *e;

	if (!file || !x->names.nr ||
	    !(e = rp_hashmap_get(&x->names, rp_hash_bytes(file, strlen(file)))) ||
	    strcmp(e->libdw, file))
		return file;
	return e->bfd;
}

/* cu's ranges and names, or NULL with *err RP_ERR_NOMEM. */
static struct line_cu *line_cu(struct rp_line_files *f, Dwarf_Die *cu, int *err)
{
	uint64_t key = dwarf_dieoffset(cu) + 1;
	struct line_cu *x = rp_hashmap_get(&f->cus, key);

	if (x)
		return x;
	Dwarf_Attribute a;
	Dwarf_Word off;
	Dwarf_Files *files;
	size_t nr;

	x = &no_rule;
	if (f->line && dwarf_attr(cu, DW_AT_stmt_list, &a) && dwarf_formudata(&a, &off) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &nr) == 0 && nr > 0) {
		struct line_cu *y = calloc(1, sizeof(*y));
		const char *file0 = dwarf_filesrc(files, 0, NULL, NULL);

		if (!y || read_names(f, off, cu, files, nr, y) < 0 ||
		    (nr > 1 && file0 && read_program(f, off, y) < 0)) {
			line_cu_free(y);
			*err = RP_ERR_NOMEM;
			return NULL;
		}
		if (y->nr) {
			qsort(y->v, y->nr, sizeof(y->v[0]), cmp_range);
			y->file0 = bfd_name(y, file0);
		}
		if (y->nr || y->names.nr)
			x = y;
		else
			line_cu_free(y);
	}
	if (rp_hashmap_put(&f->cus, key, x) < 0) {
		line_cu_free(x);
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	return x;
}

static struct rp_line_files *line_files(Dwarf *dw, struct rp_line_files **fp, int *err)
{
	if (!*fp) {
		struct rp_line_files *f = calloc(1, sizeof(*f));

		if (!f) {
			*err = RP_ERR_NOMEM;
			return NULL;
		}
		f->line = debug_line(dw, &f->line_size, &f->swap);
		*fp = f;
	}
	return *fp;
}

const char *rp_line_name(Dwarf *dw, struct rp_line_files **fp, Dwarf_Die *cu, const char *file,
			 int *err)
{
	struct rp_line_files *f = file ? line_files(dw, fp, err) : NULL;
	struct line_cu *x = f ? line_cu(f, cu, err) : NULL;

	return x ? bfd_name(x, file) : file;
}

const char *rp_line_file(Dwarf *dw, struct rp_line_files **fp, Dwarf_Die *cu, Dwarf_Line *line,
			 int *err)
{
	const char *own = dwarf_linesrc(line, NULL, NULL);
	Dwarf_Addr addr;
	struct rp_line_files *f;

	if (!own || dwarf_lineaddr(line, &addr) != 0 || !(f = line_files(dw, fp, err)))
		return own;
	struct line_cu *x = line_cu(f, cu, err);

	if (!x)
		return own;
	if (!x->nr)
		return bfd_name(x, own);
	size_t lo = 0, hi = x->nr;

	while (lo < hi) { /* the first range starting past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (x->v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < x->v[lo - 1].hi)
		return x->file0;
	return bfd_name(x, own);
}

void rp_line_files_free(struct rp_line_files *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->cus.cap; i++)
		line_cu_free(f->cus.slots[i].value);
	rp_hashmap_release(&f->cus);
	free(f);
}
