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
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
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

/*
 * Runs the line program at off of f's .debug_line into x's ranges.
 * Returns 0 (also for a program it does not follow, which leaves no
 * ranges: the rows keep their own files), or -1 when out of memory.
 */
static int read_program(const struct rp_line_files *f, uint64_t off, struct line_cu *x)
{
	struct rp_cursor c;
	uint64_t len, hlen;
	uint32_t len32;
	int off64 = 0;

	if (off >= f->line_size)
		return 0;
	rp_cur_init(&c, f->line + off, f->line_size - (size_t)off, off, f->swap);
	if (rp_cur_u32(&c, &len32) < 0)
		return 0;
	len = len32;
	if (len32 == 0xffffffffu) {
		if (rp_cur_u64(&c, &len) < 0)
			return 0;
		off64 = 1;
	}
	if (!rp_cur_need(&c, len))
		return 0;
	c.end = c.p + len;
	if (!rp_cur_need(&c, 4))
		return 0;
	uint16_t version = rp_cur_get16(&c);

	if (version < 5)
		return 0;
	uint8_t addr_size = rp_cur_get8(&c);
	uint8_t seg_size = rp_cur_get8(&c);

	if ((addr_size != 4 && addr_size != 8) || seg_size != 0)
		return 0;
	if (off64 ? rp_cur_u64(&c, &hlen) < 0 : rp_cur_u32(&c, &len32) < 0)
		return 0;
	if (!off64)
		hlen = len32;
	if (!rp_cur_need(&c, hlen) || !rp_cur_need(&c, 6))
		return 0;
	const uint8_t *prog = c.p + hlen;
	uint8_t min_insn = rp_cur_get8(&c);
	uint8_t max_ops = rp_cur_get8(&c);

	(void)rp_cur_get8(&c); /* default_is_stmt */
	(void)rp_cur_get8(&c); /* line_base */
	uint8_t line_range = rp_cur_get8(&c);
	uint8_t opcode_base = rp_cur_get8(&c);
	const void *lengths;

	if (!line_range || !opcode_base || max_ops != 1 ||
	    rp_cur_bytes(&c, opcode_base - 1u, &lengths) < 0 || (const uint8_t *)c.p > prog)
		return 0;
	const uint8_t *nargs = lengths;

	c.p = prog;

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

static void line_cu_free(struct line_cu *x)
{
	if (!x || x == &no_rule)
		return;
	free(x->v);
	free(x);
}

/* cu's ranges, or NULL with *err RP_ERR_NOMEM. */
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
	const char *file0;

	x = &no_rule;
	if (f->line && dwarf_attr(cu, DW_AT_stmt_list, &a) && dwarf_formudata(&a, &off) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &nr) == 0 && nr > 1 &&
	    (file0 = dwarf_filesrc(files, 0, NULL, NULL))) {
		struct line_cu *y = calloc(1, sizeof(*y));

		if (!y || read_program(f, off, y) < 0) {
			line_cu_free(y);
			*err = RP_ERR_NOMEM;
			return NULL;
		}
		if (y->nr) {
			qsort(y->v, y->nr, sizeof(y->v[0]), cmp_range);
			y->file0 = file0;
			x = y;
		} else {
			line_cu_free(y);
		}
	}
	if (rp_hashmap_put(&f->cus, key, x) < 0) {
		line_cu_free(x);
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	return x;
}

const char *rp_line_file(Dwarf *dw, struct rp_line_files **fp, Dwarf_Die *cu, Dwarf_Line *line,
			 int *err)
{
	const char *own = dwarf_linesrc(line, NULL, NULL);
	Dwarf_Addr addr;

	if (!own || dwarf_lineaddr(line, &addr) != 0)
		return own;
	if (!*fp) {
		struct rp_line_files *f = calloc(1, sizeof(*f));

		if (!f) {
			*err = RP_ERR_NOMEM;
			return own;
		}
		f->line = debug_line(dw, &f->line_size, &f->swap);
		*fp = f;
	}
	struct line_cu *x = line_cu(*fp, cu, err);

	if (!x || !x->nr)
		return own;
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
	return own;
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
