/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding of user stacks with libdwfl (see unwind.h).
 *
 * One Dwfl per address space, attached once (dwfl_attach_state) with
 * callbacks that read the walk in progress from the unwinder: its sample's
 * registers become the initial frame, its stack bytes the memory at and
 * above the sampled stack pointer.  Modules are reported as a walk reaches
 * them (the sampled ip's before it starts, each caller's from the frame
 * callback, before libdwfl looks for that frame's CFI), with the bias that
 * puts the file's PT_LOAD segment at the map's start.  A module whose map
 * changed since (an exec or a new mmap over the same range) makes the
 * address space's Dwfl be dropped and the walk done again on a new one.
 *
 * Registers: perf's sample_regs_user numbering (arch/<arch>/include/uapi/
 * asm/perf_regs.h) mapped to the DWARF numbering of the psABI.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/hashmap.h"
#include "machine/machine_int.h"
#include "symbols/symbols_int.h"
#include "unwind/unwind.h"

/* perf_regs.h indexes (x86: also those of 32-bit processes). */
enum {
	RP_X86_AX = 0,
	RP_X86_BX = 1,
	RP_X86_CX = 2,
	RP_X86_DX = 3,
	RP_X86_SI = 4,
	RP_X86_DI = 5,
	RP_X86_BP = 6,
	RP_X86_SP = 7,
	RP_X86_IP = 8,
	RP_X86_R8 = 16,
	RP_ARM64_SP = 31,
	RP_ARM64_PC = 32,
};
#define RP_REGS_ABI_32 1u
#define RP_REGS_ABI_64 2u

/* DWARF register n of x86-64 is perf's register x86_64_dwarf[n]. */
static const uint8_t x86_64_dwarf[17] = {
	RP_X86_AX, RP_X86_DX, RP_X86_CX, RP_X86_BX,  RP_X86_SI,  RP_X86_DI,
	RP_X86_BP, RP_X86_SP, 16,	 17,	     18,	 19,
	20,	   21,	      22,	 23,	     RP_X86_IP,
};
/* x86-64's DWARF register numbers. */
enum {
	DW_X86_64_RBP = 6,
	DW_X86_64_RSP = 7,
	DW_X86_64_RA = 16,
};

/* The same for i386. */
static const uint8_t i386_dwarf[9] = {
	RP_X86_AX, RP_X86_CX, RP_X86_DX, RP_X86_BX, RP_X86_SP,
	RP_X86_BP, RP_X86_SI, RP_X86_DI, RP_X86_IP,
};

enum rp_unwind_arch { RP_UW_NONE, RP_UW_X86_64, RP_UW_I386, RP_UW_ARM64 };

/* A module reported into an address space's Dwfl: its libdwfl userdata
 * (uw_find_debuginfo() finds the DSO through it). */
struct rp_uw_module {
	struct rp_unwinder *u;
	struct rp_dso *dso;
	uint64_t bias;
};

/* One address space's state. */
struct rp_uw_space {
	Dwfl *dwfl;
	struct rp_unwinder *u;
	int attached;
	int broken; /* dwfl_attach_state failed: no walks here */
	struct rp_uw_module **mods;
	size_t nr_mods, alloc_mods;
};

/* The walk in progress. */
struct rp_uw_walk {
	struct rp_maps *maps;
	int32_t pid, tid;
	const struct rp_sample *d;
	enum rp_unwind_arch arch;
	uint64_t sp;
	uint64_t *ips;
	size_t nr, max;
	int stale; /* a module's map changed: rebuild and walk again */
	/* 1 when ips[0] is a PLT entry without CFI, stepped over as
	 * libunwind does (plt_step()): the walk starts at its caller, at
	 * start_pc with rsp start_sp. */
	size_t first;
	uint64_t start_pc, start_sp;
	uint64_t plt_frames; /* fast walk: frames by a PLT entry's CFA */
	/* libdwfl walks (x86-64): the last frame's rsp and rbp, or
	 * !have_regs where libdwfl holds either undefined. */
	int have_regs;
	uint64_t rsp, rbp;
	/* libdwfl walks: the last memory read since the last frame failed
	 * (libdwfl reads the return address last: see walk_once()). */
	int read_failed;
};

/* A DSO's state for fast walks (one per unwinder and DSO). */
struct rp_uw_dso {
	int ready; /* 1: CFI open; -1: none (walks reaching it fall back) */
	int fd;
	Elf *elf;
	Dwarf_CFI *cfi;  /* .eh_frame, what libdwfl tries first */
	int exec;        /* ET_EXEC: libdwfl ignores the load bias */
	uint64_t lo, hi; /* the module's span, file addresses (as libdwfl's) */
	/* The last map seen for it and the bias it gives. */
	uint64_t map_start, map_pgoff, bias;
	int have_map;
	/* File address -> packed rule (see rule_pack()), never NULL. */
	struct rp_hashmap rules;
};

struct rp_unwinder {
	struct rp_machine *machine;
	struct rp_symbols *symbols;
	struct rp_hashmap spaces; /* struct rp_maps * -> struct rp_uw_space */
	struct rp_hashmap dsos;   /* struct rp_dso * -> struct rp_uw_dso */
	enum rp_unwind_mode mode;
	struct rp_unwind_stats stats;
	struct rp_uw_walk walk;
	Dwfl_Callbacks callbacks;
};

static void space_free(struct rp_uw_space *sp)
{
	if (!sp)
		return;
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	for (size_t i = 0; i < sp->nr_mods; i++)
		free(sp->mods[i]);
	free(sp->mods);
	free(sp);
}

/*
 * libdwfl's find_debuginfo (it wants a module's DWARF for .debug_frame
 * when .eh_frame does not unwind a frame, as at the outermost one): the
 * separate debug file the symbol tables found for the module's DSO, by
 * perf's search (lib/symbols: the build-id cache, .gnu_debuglink,
 * /usr/lib/debug), else none.  Never dwfl_standard_find_debuginfo(),
 * which asks a debuginfod server when nothing local is found: it loads
 * libdebuginfod and its libraries (~5 ms a run), and downloads where
 * DEBUGINFOD_URLS is set, which a report must not wait for.
 */
static int uw_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			     Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			     GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const struct rp_uw_module *m = *userdata;
	struct rp_dso_symtab *t;
	int fd;

	(void)mod;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	if (!m || !(t = rp_symbols_table(m->u->symbols, m->dso)) || !t->dwarf_path ||
	    (t->elf_path && !strcmp(t->dwarf_path, t->elf_path)))
		return -1;
	if ((fd = open(t->dwarf_path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (!(*debuginfo_file_name = strdup(t->dwarf_path))) {
		close(fd);
		return -1;
	}
	return fd;
}

int rp_unwinder_new(struct rp_unwinder **out, struct rp_machine *machine,
		    struct rp_symbols *symbols)
{
	struct rp_unwinder *u = calloc(1, sizeof(*u));

	*out = NULL;
	if (!u)
		return RP_ERR_NOMEM;
	u->machine = machine;
	u->symbols = symbols;
	u->callbacks.find_elf = dwfl_build_id_find_elf;
	u->callbacks.find_debuginfo = uw_find_debuginfo;
	u->callbacks.section_address = dwfl_offline_section_address;
	*out = u;
	return 0;
}

static void spaces_clear(struct rp_unwinder *u)
{
	for (size_t i = 0; i < u->spaces.cap; i++)
		space_free(u->spaces.slots[i].value);
	rp_hashmap_release(&u->spaces);
	u->spaces = (struct rp_hashmap)RP_HASHMAP_INIT;
}

static void uw_dso_free(struct rp_uw_dso *ds)
{
	if (!ds)
		return;
	if (ds->cfi)
		dwarf_cfi_end(ds->cfi);
	if (ds->elf)
		elf_end(ds->elf);
	if (ds->fd >= 0)
		close(ds->fd);
	rp_hashmap_release(&ds->rules);
	free(ds);
}

static void dsos_clear(struct rp_unwinder *u)
{
	for (size_t i = 0; i < u->dsos.cap; i++)
		uw_dso_free(u->dsos.slots[i].value);
	rp_hashmap_release(&u->dsos);
	u->dsos = (struct rp_hashmap)RP_HASHMAP_INIT;
}

void rp_unwinder_free(struct rp_unwinder *u)
{
	if (!u)
		return;
	spaces_clear(u);
	dsos_clear(u);
	free(u);
}

void rp_unwinder_set_mode(struct rp_unwinder *u, enum rp_unwind_mode mode)
{
	u->mode = mode;
}

void rp_unwinder_stats(const struct rp_unwinder *u, struct rp_unwind_stats *out)
{
	*out = u->stats;
}

/* perf register `idx` of regs into *v: 0, or -1 when not sampled. */
static int perf_reg(const struct rp_regs *regs, unsigned idx, uint64_t *v)
{
	if (idx >= 64 || !(regs->mask & (1ull << idx)))
		return -1;
	unsigned pos = (unsigned)__builtin_popcountll(regs->mask & ((1ull << idx) - 1));

	if (pos >= regs->nr)
		return -1;
	*v = regs->regs[pos];
	return 0;
}

/* Which register layout the sample's registers follow.  The ABI tells a
 * 32-bit x86 process from a 64-bit one; the mask tells arm64 (PC bit)
 * from x86. */
static enum rp_unwind_arch sample_arch(const struct rp_regs *regs)
{
	if (regs->abi == RP_REGS_ABI_64 && (regs->mask & (1ull << RP_ARM64_PC)) &&
	    !(regs->mask & (1ull << RP_X86_R8)))
		return RP_UW_ARM64;
	if (regs->abi == RP_REGS_ABI_64)
		return RP_UW_X86_64;
	if (regs->abi == RP_REGS_ABI_32)
		return RP_UW_I386;
	return RP_UW_NONE;
}

static unsigned arch_ip(enum rp_unwind_arch a)
{
	return a == RP_UW_ARM64 ? RP_ARM64_PC : RP_X86_IP;
}

static unsigned arch_sp(enum rp_unwind_arch a)
{
	return a == RP_UW_ARM64 ? RP_ARM64_SP : RP_X86_SP;
}

int rp_unwind_applies(const struct rp_sample *d)
{
	uint64_t v;
	enum rp_unwind_arch a;

	if ((d->sample_type & (RP_SAMPLE_REGS_USER | RP_SAMPLE_STACK_USER)) !=
	    (RP_SAMPLE_REGS_USER | RP_SAMPLE_STACK_USER))
		return 0;
	if (!d->regs_user.abi || !d->regs_user.regs || !d->stack_user || !d->stack_user_dyn_size)
		return 0;
	a = sample_arch(&d->regs_user);
	return a != RP_UW_NONE && perf_reg(&d->regs_user, arch_ip(a), &v) == 0 &&
	       perf_reg(&d->regs_user, arch_sp(a), &v) == 0;
}

/* ---- libdwfl callbacks ---------------------------------------------- */

static bool cb_get_thread(Dwfl *dwfl, pid_t tid, void *dwfl_arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = dwfl_arg;
	return true;
}

static pid_t cb_next_thread(Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
	struct rp_uw_space *sp = dwfl_arg;

	if (*thread_argp)
		return 0;
	*thread_argp = dwfl_arg;
	return sp->u->walk.maps ? sp->u->walk.tid : dwfl_pid(dwfl);
}

/* n bytes of an ELF file at its address va (as its PT_LOAD segments
 * place the file's bytes): 0, or -1 where no segment holds them all. */
static int elf_read_vaddr(Elf *elf, uint64_t va, void *buf, size_t n)
{
	size_t nr;

	if (!elf || elf_getphdrnum(elf, &nr) != 0)
		return -1;
	for (size_t i = 0; i < nr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (va < ph.p_vaddr || va - ph.p_vaddr >= ph.p_filesz ||
		    ph.p_filesz - (va - ph.p_vaddr) < n)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)(ph.p_offset + (va - ph.p_vaddr)),
						   n, ELF_T_BYTE);

		if (!d || d->d_size < n)
			return -1;
		memcpy(buf, d->d_buf, n);
		return 0;
	}
	return -1;
}

/* A word of the module's file at addr, for memory below or above the
 * stack bytes (perf reads those from the DSO's file): the module was
 * reported for the map at addr. */
static bool read_module_word(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	Dwarf_Addr bias;
	Elf *elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;

	return elf && elf_read_vaddr(elf, addr - bias, result, sizeof(*result)) == 0;
}

enum report_result { REPORT_OK, REPORT_NONE, REPORT_STALE, REPORT_NOMEM };

static enum report_result report_module(struct rp_unwinder *u, struct rp_uw_space *sp,
					const struct rp_maps *maps, uint64_t pc);

/* Whether the word at addr is in the sample's stack bytes as perf 6.1
 * reads them (util/unwind-libunwind-local.c, access_mem()): from the
 * sampled stack pointer up to, but not including, the last word of the
 * stack_user_dyn_size bytes. */
static inline int in_stack(const struct rp_uw_walk *w, uint64_t addr)
{
	uint64_t size = w->d->stack_user_dyn_size;

	return addr >= w->sp && addr - w->sp < size && size - (addr - w->sp) > sizeof(uint64_t);
}

/* Memory as perf 6.1 reads it for libunwind: the stack bytes, else the
 * file of the map at the address.  Where no map is, the read fails (the
 * walk ends there); a map whose file cannot be read there (the stack's
 * own map beyond the bytes copied, anonymous memory) gives 0 and
 * succeeds (perf's access_dso_mem() fails with 1, which libunwind takes
 * for success, the value 0), so a return address read there is 0, which
 * perf reports as the frame 0 - 1. */
static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *dwfl_arg)
{
	struct rp_uw_space *sp = dwfl_arg;
	struct rp_uw_walk *w = &sp->u->walk;

	w->read_failed = 0;
	if (in_stack(w, addr)) {
		memcpy(result, (const uint8_t *)w->d->stack_user + (addr - w->sp), sizeof(*result));
		return true;
	}
	if (!rp_maps_lookup(w->maps, addr)) {
		w->read_failed = 1;
		return false;
	}
	/* The module of the map at addr, reported now if no walk of this
	 * Dwfl reached it yet: what a read finds depends on the maps alone,
	 * not on the walks this Dwfl did before (the unwinder's workers
	 * each have their own, lib/process.c). */
	enum report_result r = report_module(sp->u, sp, w->maps, addr);

	if (r == REPORT_STALE)
		w->stale = 1;
	if (r == REPORT_STALE || r == REPORT_NOMEM)
		return false;
	if (r != REPORT_OK || !read_module_word(dwfl, addr, result))
		*result = 0;
	return true;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct rp_uw_space *sp = thread_arg;
	const struct rp_uw_walk *w = &sp->u->walk;
	const struct rp_regs *regs = &w->d->regs_user;
	const uint8_t *map = NULL;
	unsigned nr = 0;
	uint64_t v;

	switch (w->arch) {
	case RP_UW_X86_64:
		map = x86_64_dwarf;
		nr = sizeof(x86_64_dwarf);
		break;
	case RP_UW_I386:
		map = i386_dwarf;
		nr = sizeof(i386_dwarf);
		break;
	case RP_UW_ARM64:
		for (unsigned r = 0; r <= RP_ARM64_SP; r++) {
			Dwarf_Word word;

			if (perf_reg(regs, r, &v) == 0) {
				word = v;
				if (!dwfl_thread_state_registers(thread, (int)r, 1, &word))
					return false;
			}
		}
		if (perf_reg(regs, RP_ARM64_PC, &v) < 0)
			return false;
		dwfl_thread_state_register_pc(thread, v);
		return true;
	default:
		return false;
	}
	for (unsigned r = 0; r < nr; r++) {
		Dwarf_Word word;

		if (perf_reg(regs, map[r], &v) < 0)
			continue;
		word = w->arch == RP_UW_I386 ? (uint32_t)v : v;
		if (w->first && r == DW_X86_64_RSP)
			word = w->start_sp;
		else if (w->first && r == DW_X86_64_RA)
			word = w->start_pc;
		if (!dwfl_thread_state_registers(thread, (int)r, 1, &word))
			return false;
	}
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = cb_next_thread,
	.get_thread = cb_get_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

/* ---- modules -------------------------------------------------------- */

/*
 * The load bias of map's DSO: what puts the PT_LOAD segment the map holds
 * at the map's start.  The loader maps a segment from its file offset
 * rounded down to a page, so a map at pgoff holds the segment that starts
 * in its first page (lld leaves p_offset and p_vaddr apart by a page and
 * lets segments share a page: the executable map at pgoff 0x15000 holds
 * the segment at offset 0x15da0, not the read-only one before it that
 * also spans 0x15000), else the one pgoff lies in (a map split by
 * mprotect).  Among those, a segment whose PF_X matches the map's
 * PROT_EXEC comes first.  Without the file's segments, start - pgoff
 * (segments whose addresses equal their file offsets).
 */
static uint64_t map_bias(const struct rp_map *map, const struct rp_dso_symtab *t)
{
	const uint64_t page = 64 * 1024; /* the largest page a loader rounds to */
	const struct rp_segment *best = NULL;
	int best_rank = -1;

	for (size_t i = 0; i < t->nr_segs; i++) {
		const struct rp_segment *g = &t->segs[i];
		int rank;

		if (g->offset >= map->pgoff && g->offset - map->pgoff < page &&
		    g->offset - map->pgoff < map->end - map->start)
			rank = 2; /* starts in the map's first page */
		else if (map->pgoff >= g->offset && map->pgoff - g->offset < g->size)
			rank = 0; /* holds pgoff */
		else
			continue;
		if (!(g->flags & PF_X) == !(map->prot & PROT_EXEC))
			rank += 4;
		if (rank > best_rank) {
			best = g;
			best_rank = rank;
		}
	}
	if (best)
		return map->start - map->pgoff - (best->vaddr - best->offset);
	return map->start - map->pgoff;
}

/*
 * The map holding pc and its DSO's table when the map is a user file's
 * whose ELF file the walkers can read (*mapp set), else NULL (no map,
 * anonymous memory, JIT code, a kernel DSO: their tables are not loaded
 * from a walk, as loading reads state the pipeline's thread writes).
 */
static struct rp_dso_symtab *map_file_table(struct rp_unwinder *u, const struct rp_maps *maps,
					    uint64_t pc, const struct rp_map **mapp)
{
	const struct rp_map *map = maps ? rp_maps_lookup(maps, pc) : NULL;
	struct rp_dso_symtab *t;

	if (!map || !map->dso || map->identity || map->dso->kind != RP_DSO_USER)
		return NULL;
	t = rp_symbols_table(u->symbols, map->dso);
	if (!t || !t->elf_path)
		return NULL;
	*mapp = map;
	return t;
}

/*
 * Makes sure the module of the map holding pc is reported in sp's Dwfl.
 * REPORT_NONE: no map, no file or libdwfl refused it (the walk stops
 * there); REPORT_STALE: a module reported earlier covers pc for another
 * file or bias.
 */
static enum report_result report_module(struct rp_unwinder *u, struct rp_uw_space *sp,
					const struct rp_maps *maps, uint64_t pc)
{
	const struct rp_map *map = NULL;
	struct rp_dso_symtab *t = map_file_table(u, maps, pc, &map);

	if (!t)
		return REPORT_NONE;
	struct rp_dso *dso = map->dso;
	uint64_t bias = map_bias(map, t);
	Dwfl_Module *mod = dwfl_addrmodule(sp->dwfl, pc);

	if (mod) {
		void **userdata;

		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		const struct rp_uw_module *m = *userdata;

		if (m && m->dso == dso && m->bias == bias)
			return REPORT_OK;
		return REPORT_STALE;
	}
	if (sp->nr_mods == sp->alloc_mods) {
		size_t n = sp->alloc_mods ? sp->alloc_mods * 2 : 8;
		struct rp_uw_module **v = realloc(sp->mods, n * sizeof(*v));

		if (!v)
			return REPORT_NOMEM;
		sp->mods = v;
		sp->alloc_mods = n;
	}
	struct rp_uw_module *m = malloc(sizeof(*m));

	if (!m)
		return REPORT_NOMEM;
	*m = (struct rp_uw_module){ u, dso, bias };
	dwfl_report_begin_add(sp->dwfl);
	mod = dwfl_report_elf(sp->dwfl, rp_dso_short_name(dso), t->elf_path, -1, bias, true);
	dwfl_report_end(sp->dwfl, NULL, NULL);
	if (!mod) {
		free(m);
		return REPORT_NONE;
	}
	sp->mods[sp->nr_mods++] = m;
	if (dwfl_addrmodule(sp->dwfl, pc) != mod)
		return REPORT_STALE; /* it overlaps what an older map left */
	void **userdata;

	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = m;
	return REPORT_OK;
}

static int reg_rule(Dwarf_Frame *fr, int regno, int64_t *off);

/* The CFI row libdwfl unwinds a frame with, at address at (the frame's
 * pc, less one in a caller frame): .eh_frame first, then .debug_frame.
 * Returns 1 and sets *signal (the row's CIE is a signal frame's) and
 * *ra_undef (the return address is undefined), or 0 without a row. */
static int dwfl_row(Dwfl *dwfl, uint64_t at, bool *signal, int *ra_undef)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, at);
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	int64_t off;

	if (!mod)
		return 0;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, at - bias, &fr) != 0) {
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, at - bias, &fr) != 0)
			return 0;
	}
	*signal = false;
	int ra = dwarf_frame_info(fr, NULL, NULL, signal);

	*ra_undef = ra >= 0 && reg_rule(fr, ra, &off) == 1;
	free(fr);
	return 1;
}

/*
 * Whether libunwind 1.6 (perf 6.1's unwinder) takes the frame libdwfl
 * found above a frame without CFI (rsp and rbp in w): both then guess
 * from rbp (the return address at rbp + 8), but libunwind only when rbp
 * is not 0, lies 0 to 16 KiB above the frame's CFA (its rsp) and the
 * word at rbp can be read; else its walk ends there.
 */
static int frame_guess_taken(struct rp_uw_space *sp, const struct rp_uw_walk *w)
{
	Dwarf_Word word;

	return w->have_regs && w->rbp && w->rbp >= w->rsp && w->rbp - w->rsp <= 0x4000 &&
	       cb_memory_read(sp->dwfl, w->rbp, &word, sp);
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct rp_uw_space *sp = arg;
	struct rp_unwinder *u = sp->u;
	struct rp_uw_walk *w = &u->walk;
	Dwarf_Addr pc;
	bool activation;

	if (w->stale || !dwfl_frame_pc(state, &pc, NULL) || !pc)
		return DWARF_CB_ABORT;
	/* This frame's module, before libdwfl looks for its CFI: asking
	 * whether the frame is an activation unwinds it already. */
	enum report_result r = report_module(u, sp, w->maps, pc);

	if (r == REPORT_STALE) {
		w->stale = 1;
		return DWARF_CB_ABORT;
	}
	if (!dwfl_frame_pc(state, &pc, &activation) || w->stale)
		return DWARF_CB_ABORT;
	/* A return address points after the call: perf reports the call,
	 * but where the callee is a signal frame (its caller was
	 * interrupted, not calling).  libdwfl's activation is also true for
	 * the signal frame itself, whose pc perf 6.1 (libunwind) does lower:
	 * the callee's row tells.  The address reported is the one libdwfl
	 * looked the frame's row up at. */
	if (w->nr > w->first) {
		bool signal = false;
		int ra_undef;
		int row = dwfl_row(sp->dwfl, w->ips[w->nr - 1], &signal, &ra_undef);

		/* Without a row below, libdwfl's frame is a guess from rbp. */
		if (!row && w->arch == RP_UW_X86_64 && !frame_guess_taken(sp, w))
			return DWARF_CB_ABORT;
		activation = activation && row && signal;
	} else if (w->first) {
		activation = false; /* the caller of a PLT entry (plt_step()) */
	}
	if (w->arch == RP_UW_X86_64) {
		Dwarf_Word rsp, rbp;

		w->have_regs = dwfl_frame_reg(state, DW_X86_64_RSP, &rsp) == 0 &&
			       dwfl_frame_reg(state, DW_X86_64_RBP, &rbp) == 0;
		w->rsp = w->have_regs ? rsp : 0;
		w->rbp = w->have_regs ? rbp : 0;
	}
	w->ips[w->nr++] = activation ? pc : pc - 1;
	/* perf 6.1's find_proc_info() fails for a pc without a map or whose
	 * map has no ELF file (JIT code, anonymous memory, a file gone):
	 * libunwind ends the walk after that frame, where libdwfl would go
	 * on from rbp. */
	if (w->nr >= w->max || r == REPORT_NOMEM || r == REPORT_NONE)
		return DWARF_CB_ABORT;
	w->read_failed = 0;
	return DWARF_CB_OK;
}

/* ---- the fast walker (x86-64) ----------------------------------------
 *
 * libdwfl evaluates every register's rule of every frame as a DWARF
 * expression (allocating its stack), and finds each frame's row again.
 * Most rows of compiled code are simple: CFA = rsp or rbp + offset, the
 * return address at CFA + offset (or undefined: the outermost frame), rbp
 * the same, undefined or at CFA + offset, rsp = CFA.  Those rows are
 * asked of libdw once per address and DSO (dwarf_cfi_addrframe,
 * dwarf_frame_cfa, dwarf_frame_register, dwarf_frame_info), packed in 8
 * bytes, and the walk steps over the sample's rsp, rbp and stack bytes
 * with them.  Anything else in a frame (an expression, another register
 * as the CFA's base, a signal frame, no FDE in .eh_frame, a read outside
 * the stack bytes, a map without a file, a frame at a map's edge) hands
 * the whole sample to libdwfl: the frames are libdwfl's either way.
 */

/* A packed rule: bit 0 always set (values are never NULL); bit 1: simple;
 * bit 2: CFA base rbp (else rsp); bit 3: return address undefined; bits
 * 4-5: rbp same (0), undefined (1), at CFA + offset (2); bit 6: the CFA
 * is a PLT entry's expression (below); bit 7: no row at all (no FDE
 * covers the address; never with bit 1); bits 8-31: CFA offset, 32-47:
 * return address offset, 48-63: rbp offset (signed), or for a PLT
 * expression (rbp then never at CFA + offset) its mask, bound and shift,
 * 5 bits each. */
#define RULE_NOT_SIMPLE 1ull
#define RULE_SIMPLE 2ull
#define RULE_CFA_RBP 4ull
#define RULE_RA_UNDEF 8ull
#define RULE_RBP_SHIFT 4
#define RULE_CFA_PLT 64ull
#define RULE_NO_ROW 128ull
enum { RBP_SAME = 0, RBP_UNDEF = 1, RBP_AT = 2 };

/*
 * The CFA of a PLT entry: the linkers' .eh_frame for .plt gives it as the
 * expression DW_OP_breg7 (rsp) OFF; DW_OP_breg16 (rip) 0; DW_OP_litMASK;
 * DW_OP_and; DW_OP_litBOUND; DW_OP_ge; DW_OP_litSHIFT; DW_OP_shl;
 * DW_OP_plus (binutils: 8, 15, 11, 3: rsp + 8, 8 more once the entry has
 * pushed its index), that is rsp + OFF + (((rip & MASK) >= BOUND) <<
 * SHIFT), with rip the frame's pc as libdwfl holds it (the sampled ip, or
 * the return address that made the frame).
 */
struct fast_rule {
	int cfa_rbp, ra_undef, rbp;
	int cfa_plt;
	unsigned plt_mask, plt_bound, plt_shift;
	int64_t cfa_off, ra_off, rbp_off;
};

static uint64_t rule_pack(const struct fast_rule *r)
{
	if (r->cfa_off < -(1 << 23) || r->cfa_off >= (1 << 23) || r->ra_off < INT16_MIN ||
	    r->ra_off > INT16_MAX || r->rbp_off < INT16_MIN || r->rbp_off > INT16_MAX)
		return RULE_NOT_SIMPLE;
	uint64_t high = (uint64_t)r->rbp_off & 0xffffull;

	if (r->cfa_plt) {
		if (r->rbp == RBP_AT || r->cfa_rbp || r->plt_mask > 31 || r->plt_bound > 31 ||
		    r->plt_shift > 31)
			return RULE_NOT_SIMPLE;
		high = r->plt_mask | r->plt_bound << 5 | r->plt_shift << 10;
	}
	return 1ull | RULE_SIMPLE | (r->cfa_rbp ? RULE_CFA_RBP : 0) |
	       (r->ra_undef ? RULE_RA_UNDEF : 0) | ((uint64_t)r->rbp << RULE_RBP_SHIFT) |
	       (r->cfa_plt ? RULE_CFA_PLT : 0) | (((uint64_t)r->cfa_off & 0xffffffull) << 8) |
	       (((uint64_t)r->ra_off & 0xffffull) << 32) | (high << 48);
}

static void rule_unpack(uint64_t v, struct fast_rule *r)
{
	r->cfa_rbp = !!(v & RULE_CFA_RBP);
	r->ra_undef = !!(v & RULE_RA_UNDEF);
	r->rbp = (int)((v >> RULE_RBP_SHIFT) & 3);
	r->cfa_plt = !!(v & RULE_CFA_PLT);
	r->cfa_off = (int32_t)((uint32_t)(v >> 8) << 8) >> 8;
	r->ra_off = (int16_t)(uint16_t)(v >> 32);
	r->rbp_off = (int16_t)(uint16_t)(v >> 48);
	r->plt_mask = (unsigned)(v >> 48) & 31;
	r->plt_bound = (unsigned)(v >> 53) & 31;
	r->plt_shift = (unsigned)(v >> 58) & 31;
}

/* Whether ops are a PLT entry's CFA expression (see struct fast_rule). */
static int cfa_is_plt(const Dwarf_Op *ops, size_t nops, struct fast_rule *r)
{
	if (nops != 9 || ops[0].atom != DW_OP_breg7 || ops[1].atom != DW_OP_breg16 ||
	    ops[1].number != 0 || ops[2].atom < DW_OP_lit0 || ops[2].atom > DW_OP_lit31 ||
	    ops[3].atom != DW_OP_and || ops[4].atom < DW_OP_lit0 || ops[4].atom > DW_OP_lit31 ||
	    ops[5].atom != DW_OP_ge || ops[6].atom < DW_OP_lit0 || ops[6].atom > DW_OP_lit31 ||
	    ops[7].atom != DW_OP_shl || ops[8].atom != DW_OP_plus)
		return 0;
	r->cfa_plt = 1;
	r->cfa_rbp = 0;
	r->cfa_off = (int64_t)ops[0].number;
	r->plt_mask = (unsigned)(ops[2].atom - DW_OP_lit0);
	r->plt_bound = (unsigned)(ops[4].atom - DW_OP_lit0);
	r->plt_shift = (unsigned)(ops[6].atom - DW_OP_lit0);
	return 1;
}

/* The CFA by r in a frame of pc, rsp and rbp. */
static inline uint64_t rule_cfa(const struct fast_rule *r, uint64_t pc, uint64_t rsp, uint64_t rbp)
{
	if (r->cfa_plt) {
		/* DW_OP_ge compares signed: both sides are below 32 here. */
		uint64_t big = (pc & r->plt_mask) >= r->plt_bound;

		return rsp + (uint64_t)r->cfa_off + (big << r->plt_shift);
	}
	return (r->cfa_rbp ? rbp : rsp) + (uint64_t)r->cfa_off;
}

/* A register's rule as dwarf_frame_register() gives it: 0 same value, 1
 * undefined, 2 at CFA + *off, -1 anything else. */
static int reg_rule(Dwarf_Frame *fr, int regno, int64_t *off)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;

	if (dwarf_frame_register(fr, regno, mem, &ops, &nops) != 0)
		return -1;
	if (nops == 0)
		return ops == mem ? 1 : ops == NULL ? 0 : -1;
	if (ops != mem || ops[0].atom != DW_OP_call_frame_cfa)
		return -1;
	if (nops == 1) {
		*off = 0;
		return 2;
	}
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*off = (int64_t)ops[1].number;
		return 2;
	}
	return -1;
}

/* rsp's rule is the ABI's: rsp = CFA (val_offset 0). */
static int rsp_is_cfa(Dwarf_Frame *fr)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;

	return dwarf_frame_register(fr, DW_X86_64_RSP, mem, &ops, &nops) == 0 && ops == mem &&
	       nops == 2 && ops[0].atom == DW_OP_call_frame_cfa &&
	       ops[1].atom == DW_OP_stack_value;
}

/* The packed rule of file address pc, from libdw. */
static uint64_t rule_lookup(Dwarf_CFI *cfi, uint64_t pc)
{
	Dwarf_Frame *fr = NULL;
	Dwarf_Op *ops;
	size_t nops;
	Dwarf_Addr start, end;
	bool signal = false;
	struct fast_rule r = { 0 };
	uint64_t v = RULE_NOT_SIMPLE;

	if (dwarf_cfi_addrframe(cfi, pc, &fr) != 0)
		return RULE_NOT_SIMPLE | RULE_NO_ROW;
	if (dwarf_frame_info(fr, &start, &end, &signal) != DW_X86_64_RA || signal)
		goto out;
	if (dwarf_frame_cfa(fr, &ops, &nops) != 0)
		goto out;
	if (nops == 1 && ops[0].atom == DW_OP_bregx &&
	    (ops[0].number == DW_X86_64_RSP || ops[0].number == DW_X86_64_RBP)) {
		r.cfa_rbp = ops[0].number == DW_X86_64_RBP;
		r.cfa_off = (int64_t)ops[0].number2;
	} else if (!cfa_is_plt(ops, nops, &r)) {
		goto out;
	}
	int ra = reg_rule(fr, DW_X86_64_RA, &r.ra_off);

	if (ra == 1)
		r.ra_undef = 1;
	else if (ra != 2)
		goto out;
	r.rbp = reg_rule(fr, DW_X86_64_RBP, &r.rbp_off);
	if (r.rbp < 0 || !rsp_is_cfa(fr))
		goto out;
	v = rule_pack(&r);
out:
	free(fr);
	return v;
}

/* The unwinder's state of dso, made on first use; NULL when out of
 * memory.  ready -1: no fast walks through it. */
static struct rp_uw_dso *uw_dso_get(struct rp_unwinder *u, struct rp_dso *dso,
				    const struct rp_dso_symtab *t)
{
	struct rp_uw_dso *ds = rp_hashmap_get(&u->dsos, (uint64_t)(uintptr_t)dso);

	if (ds)
		return ds;
	if (u->dsos.nr >= RP_UNWIND_MAX_DSOS)
		dsos_clear(u);
	ds = calloc(1, sizeof(*ds));
	if (!ds)
		return NULL;
	ds->fd = -1;
	ds->ready = -1;
	if (rp_hashmap_put(&u->dsos, (uint64_t)(uintptr_t)dso, ds) < 0) {
		free(ds);
		return NULL;
	}
	ds->fd = open(t->elf_path, O_RDONLY | O_CLOEXEC);
	if (ds->fd < 0)
		return ds;
	ds->elf = elf_begin(ds->fd, ELF_C_READ_MMAP, NULL);

	GElf_Ehdr eh;
	size_t n;

	if (!ds->elf || elf_kind(ds->elf) != ELF_K_ELF || !gelf_getehdr(ds->elf, &eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_DYN && eh.e_type != ET_EXEC) || elf_getphdrnum(ds->elf, &n) != 0)
		return ds;
	/* The module's span as dwfl_report_elf() computes it: from the first
	 * PT_LOAD's aligned address to the last one's end. */
	int first = 1;

	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(ds->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first)
			ds->lo = ph.p_vaddr & -ph.p_align;
		first = 0;
		if (ph.p_vaddr + ph.p_memsz > 0)
			ds->hi = ph.p_vaddr + ph.p_memsz;
	}
	if (first || ds->hi <= ds->lo)
		return ds;
	ds->exec = eh.e_type == ET_EXEC;
	ds->cfi = dwarf_getcfi_elf(ds->elf);
	if (ds->cfi)
		ds->ready = 1;
	return ds;
}

enum fast_result { FAST_DONE, FAST_FALLBACK };

/* The DSO state and bias of the map at pc, for a frame whose CFI is
 * looked up at `at` (pc, or pc - 1 for a caller): NULL where libdwfl
 * must decide. */
static struct rp_uw_dso *fast_module(struct rp_unwinder *u, const struct rp_maps *maps,
				     uint64_t pc, uint64_t at, uint64_t *bias)
{
	const struct rp_map *map = rp_maps_lookup(maps, pc);

	if (!map || !map->dso || map->identity || map->dso->kind != RP_DSO_USER)
		return NULL;
	if (at != pc && (at < map->start || at >= map->end))
		return NULL; /* the call is in another map */
	struct rp_uw_dso *ds = rp_hashmap_get(&u->dsos, (uint64_t)(uintptr_t)map->dso);

	if (!ds || !ds->have_map || ds->map_start != map->start || ds->map_pgoff != map->pgoff) {
		struct rp_dso_symtab *t = rp_symbols_table(u->symbols, map->dso);

		if (!t || !t->elf_path)
			return NULL;
		if (!ds)
			ds = uw_dso_get(u, map->dso, t);
		if (!ds || ds->ready != 1)
			return NULL;
		ds->bias = map_bias(map, t);
		ds->map_start = map->start;
		ds->map_pgoff = map->pgoff;
		ds->have_map = 1;
	}
	if (ds->ready != 1)
		return NULL;
	/* Both addresses in the module's span. */
	if (pc - ds->bias < ds->lo || pc - ds->bias >= ds->hi || at - ds->bias < ds->lo ||
	    at - ds->bias >= ds->hi)
		return NULL;
	*bias = ds->bias;
	return ds;
}

/* Reads the word at addr as cb_memory_read() does: 1 from the stack
 * bytes, or 0 from a map without a user file (the stack beyond the bytes
 * copied, anonymous memory); 0 where the read fails (no map); -1 where
 * it would read a module's file (libdwfl decides). */
static int stack_word(const struct rp_uw_walk *w, uint64_t addr, uint64_t *v)
{
	if (in_stack(w, addr)) {
		memcpy(v, (const uint8_t *)w->d->stack_user + (addr - w->sp), sizeof(*v));
		return 1;
	}
	const struct rp_map *map = rp_maps_lookup(w->maps, addr);

	*v = 0;
	if (!map)
		return 0;
	if (!map->dso || map->identity || map->dso->kind != RP_DSO_USER)
		return 1;
	return -1;
}

/* The packed rule of ds at file address key, looked up in libdw once
 * (then cached); 0 when out of memory. */
static uint64_t cached_rule(struct rp_unwinder *u, struct rp_uw_dso *ds, uint64_t key)
{
	uint64_t packed = (uint64_t)(uintptr_t)rp_hashmap_get(&ds->rules, key);

	if (!packed) {
		u->stats.rule_misses++;
		packed = rule_lookup(ds->cfi, key);
		if (ds->rules.nr >= RP_UNWIND_MAX_RULES)
			rp_hashmap_release(&ds->rules);
		if (rp_hashmap_put(&ds->rules, key, (void *)(uintptr_t)packed) < 0)
			return 0;
	}
	return packed;
}

/*
 * libunwind's step over a PLT entry without CFI (perf 6.1's unwinder,
 * x86-64; GNU ld describes .plt in .eh_frame, lld does not): where the
 * sampled ip has no FDE in its module's .eh_frame and the code there is
 * a PLT entry's first instruction (jmp *GOT(%rip); push $index; jmp PLT0:
 * the bytes ff 25, then 68 at 6 and e9 at 11, read from the file), the
 * return address is at rsp, the caller's rsp 8 above, the other
 * registers unchanged.  Returns 1 with the walk set to go on from the
 * caller (ips[0] the sampled ip, w->first 1), 2 when the walk ends there
 * (the return address unreadable, or 0: then the frame 0 - 1 as
 * elsewhere), 0 where ip is no such entry.
 */
static int plt_step(struct rp_unwinder *u, uint64_t ip)
{
	struct rp_uw_walk *w = &u->walk;
	uint64_t bias, ra;
	uint8_t code[16];
	Dwarf_Frame *fr = NULL;
	struct rp_uw_dso *ds = fast_module(u, w->maps, ip, ip, &bias);

	if (!ds || !ds->elf || w->max < 2)
		return 0;
	/* The cached rule tells whether a row covers ip (the one lookup
	 * fast_walk() makes there too); out of memory, libdw does. */
	uint64_t packed = cached_rule(u, ds, ip - bias);

	if (packed && !(packed & RULE_NO_ROW))
		return 0;
	if (!packed && ds->cfi && dwarf_cfi_addrframe(ds->cfi, ip - bias, &fr) == 0) {
		free(fr);
		return 0;
	}
	if (elf_read_vaddr(ds->elf, ip - bias, code, sizeof(code)) < 0 || code[0] != 0xff ||
	    code[1] != 0x25 || code[6] != 0x68 || code[11] != 0xe9)
		return 0;
	int got = stack_word(w, w->sp, &ra);

	if (got < 0)
		return 0;
	w->ips[0] = ip;
	w->nr = 1;
	u->stats.plt_steps++;
	if (!got)
		return 2;
	if (!ra) {
		w->ips[w->nr++] = RP_UNWIND_NO_RA;
		return 2;
	}
	w->first = 1;
	w->start_pc = ra;
	w->start_sp = w->sp + 8;
	return 1;
}

enum guess_result { GUESS_CALLER, GUESS_END, GUESS_NO_RA, GUESS_FALLBACK };

/*
 * libunwind 1.6's step over a frame without CFI (x86-64 unw_step(), perf
 * 6.1's unwinder), for a frame at file address code in ds whose module
 * has no FDE there: the caller's return address at rbp + 8 and its rbp
 * at rbp, when rbp is set, not 0, lies 0 to 16 KiB above the frame's CFA
 * (*rsp) and the word at rbp can be read.  libunwind then moves its CFA
 * by 16 (not to rbp + 16), which is the caller's rsp for its next rule.
 * GUESS_CALLER sets *pc, *rsp and *rbp to the caller's; GUESS_END: the
 * walk ends after this frame; GUESS_NO_RA: the return address read was 0
 * (the frame 0 - 1 follows, as elsewhere); GUESS_FALLBACK: a signal
 * frame's or PLT entry's code, or a read of a module's file, which
 * libdwfl takes.
 */
static enum guess_result guess_step(struct rp_unwinder *u, const struct rp_uw_dso *ds,
				    uint64_t code, uint64_t *rsp, uint64_t *rbp, int *rbp_set,
				    uint64_t *pc)
{
	static const uint8_t restore_rt[9] = { 0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x05 };
	const struct rp_uw_walk *w = &u->walk;
	uint8_t c[16];
	uint64_t rbp1, ra;

	if (!ds->elf || elf_read_vaddr(ds->elf, code, c, sizeof(c)) < 0 ||
	    !memcmp(c, restore_rt, sizeof(restore_rt)) ||
	    (c[0] == 0xff && c[1] == 0x25 && c[6] == 0x68 && c[11] == 0xe9))
		return GUESS_FALLBACK;
	if (!*rbp_set || !*rbp)
		return GUESS_END;
	int got = stack_word(w, *rbp, &rbp1);

	if (got < 0)
		return GUESS_FALLBACK;
	if (!got || *rbp < *rsp || *rbp - *rsp > 0x4000)
		return GUESS_END;
	got = stack_word(w, *rbp + 8, &ra);
	if (got < 0)
		return GUESS_FALLBACK;
	if (!got)
		return GUESS_END;
	*rsp += 16;
	*rbp = rbp1;
	*rbp_set = 1;
	*pc = ra;
	return ra ? GUESS_CALLER : GUESS_NO_RA;
}

/* The fast walk from pc with rsp: the sampled frame (initial), else the
 * caller plt_step() left. */
static enum fast_result fast_walk(struct rp_unwinder *u, uint64_t pc, uint64_t rsp)
{
	struct rp_uw_walk *w = &u->walk;
	const struct rp_regs *regs = &w->d->regs_user;
	uint64_t rbp = 0;
	int rbp_set = perf_reg(regs, RP_X86_BP, &rbp) == 0;

	w->nr = w->first;
	w->plt_frames = 0;
	for (int initial = !w->first;; initial = 0) {
		uint64_t at = initial ? pc : pc - 1, bias;
		struct rp_uw_dso *ds = fast_module(u, w->maps, pc, at, &bias);

		/* A caller where no map or no ELF file is (JIT code): perf
		 * 6.1's find_proc_info() fails there, and libunwind's walk
		 * ends after the frame. */
		const struct rp_map *unused;

		if (!ds && !initial && !map_file_table(u, w->maps, pc, &unused)) {
			w->ips[w->nr++] = at;
			return FAST_DONE;
		}
		if (!ds) {
			u->stats.fb_module++;
			return FAST_FALLBACK;
		}
		uint64_t packed = cached_rule(u, ds, at - bias);

		if (!packed)
			return FAST_FALLBACK;
		if (packed & RULE_NO_ROW) {
			enum guess_result g = guess_step(u, ds, pc - bias, &rsp, &rbp, &rbp_set, &pc);

			if (g == GUESS_FALLBACK) {
				u->stats.fb_rule++;
				return FAST_FALLBACK;
			}
			w->ips[w->nr++] = at;
			if (w->nr >= w->max || g == GUESS_END)
				return FAST_DONE;
			if (g == GUESS_NO_RA) {
				w->ips[w->nr++] = RP_UNWIND_NO_RA;
				return FAST_DONE;
			}
			continue;
		}
		if (!(packed & RULE_SIMPLE)) {
			u->stats.fb_rule++;
			return FAST_FALLBACK;
		}
		struct fast_rule r;

		rule_unpack(packed, &r);
		/* The frame: the sampled ip, then each call instruction. */
		w->ips[w->nr++] = at;
		if (w->nr >= w->max || r.ra_undef)
			return FAST_DONE;
		/* Without the CFA's base register libdwfl finds no CFA, hence no
		 * return address: the walk ends here. */
		if (r.cfa_rbp && !rbp_set)
			return FAST_DONE;
		uint64_t cfa = rule_cfa(&r, pc, rsp, rbp), ra = 0;

		w->plt_frames += (uint64_t)r.cfa_plt;
		int got = stack_word(w, cfa + (uint64_t)r.ra_off, &ra);

		if (got < 0) {
			u->stats.fb_stack++;
			return FAST_FALLBACK;
		}
		if (r.rbp == RBP_UNDEF) {
			rbp_set = 0;
		} else if (r.rbp == RBP_AT) {
			int b = stack_word(w, cfa + (uint64_t)r.rbp_off, &rbp);

			if (b < 0) {
				u->stats.fb_stack++;
				return FAST_FALLBACK;
			}
			rbp_set = b;
		}
		/* An unreadable return address ends the walk; one of 0 (read
		 * as such, or from a map without a file) too, but perf 6.1
		 * reports it as the frame 0 - 1 first. */
		if (!got)
			return FAST_DONE;
		if (!ra) {
			if (w->nr < w->max)
				w->ips[w->nr++] = RP_UNWIND_NO_RA;
			return FAST_DONE;
		}
		rsp = cfa;
		pc = ra;
	}
}

/* The address space's state, created when missing.  NULL when out of
 * memory. */
static struct rp_uw_space *space_get(struct rp_unwinder *u, struct rp_maps *maps)
{
	struct rp_uw_space *sp = rp_hashmap_get(&u->spaces, (uint64_t)(uintptr_t)maps);

	if (sp)
		return sp;
	if (u->spaces.nr >= RP_UNWIND_MAX_SPACES)
		spaces_clear(u);
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return NULL;
	sp->u = u;
	sp->dwfl = dwfl_begin(&u->callbacks);
	if (!sp->dwfl || rp_hashmap_put(&u->spaces, (uint64_t)(uintptr_t)maps, sp) < 0) {
		space_free(sp);
		return NULL;
	}
	return sp;
}

static void space_drop(struct rp_unwinder *u, struct rp_maps *maps)
{
	space_free(rp_hashmap_del(&u->spaces, (uint64_t)(uintptr_t)maps));
}

/* One walk on the space's current Dwfl.  Returns 0, or 1 when the space
 * must be rebuilt. */
static int walk_once(struct rp_unwinder *u, struct rp_uw_space *sp, uint64_t ip)
{
	struct rp_uw_walk *w = &u->walk;
	enum report_result r = report_module(u, sp, w->maps, ip);

	w->nr = w->first;
	w->stale = 0;
	w->read_failed = 0;
	if (r == REPORT_STALE)
		return 1;
	if (r != REPORT_OK)
		return 0;
	if (!sp->attached) {
		pid_t pid = w->pid > 0 ? w->pid : w->tid;

		if (!dwfl_attach_state(sp->dwfl, NULL, pid, &thread_callbacks, sp)) {
			sp->broken = 1;
			return 0;
		}
		sp->attached = 1;
	}
	int end = dwfl_getthread_frames(sp->dwfl, w->tid > 0 ? w->tid : 1, frame_cb, sp);

	/* The walk ended at a pc libdwfl takes for undefined.  Where the
	 * last frame's row defines the return address, it was 0 (read as
	 * such, or so from a map without a file) or could not be read (no
	 * map there): the last read of the step, after the registers saved
	 * below it.  perf 6.1 reports a 0 as the frame 0 - 1 and ends an
	 * unreadable one without it, as the fast walker does. */
	if (end == 0 && !w->stale && !w->read_failed && w->nr && w->nr < w->max) {
		bool signal;
		int ra_undef;

		if (dwfl_row(sp->dwfl, w->ips[w->nr - 1], &signal, &ra_undef) && !ra_undef)
			w->ips[w->nr++] = RP_UNWIND_NO_RA;
	}
	return w->stale;
}

size_t rp_unwind_user(struct rp_unwinder *u, struct rp_maps *maps, int32_t pid, int32_t tid,
		      const struct rp_sample *d, uint64_t *ips, size_t max)
{
	struct rp_uw_walk *w = &u->walk;
	uint64_t ip;

	/* perf 6.1 makes libunwind's address space of a process when its
	 * first map is inserted: a process without maps (a child whose FORK
	 * record came after its samples) gets no user frames at all, not
	 * even the sampled ip. */
	if (!max || !maps || !maps->nr || !rp_unwind_applies(d))
		return 0;
	if (max > RP_UNWIND_MAX_STACK)
		max = RP_UNWIND_MAX_STACK;
	w->arch = sample_arch(&d->regs_user);
	if (perf_reg(&d->regs_user, arch_ip(w->arch), &ip) < 0 ||
	    perf_reg(&d->regs_user, arch_sp(w->arch), &w->sp) < 0 || !ip)
		return 0;
	w->maps = maps;
	w->pid = pid;
	w->tid = tid;
	w->d = d;
	w->ips = ips;
	w->max = max;
	w->nr = 0;
	w->first = 0;
	u->stats.walks++;
	if (w->arch == RP_UW_X86_64 && plt_step(u, ip) == 2)
		goto done;
	uint64_t pc = w->first ? w->start_pc : ip;

	if (u->mode == RP_UNWIND_AUTO && w->arch == RP_UW_X86_64) {
		if (fast_walk(u, pc, w->first ? w->start_sp : w->sp) == FAST_DONE) {
			u->stats.fast++;
			u->stats.plt_frames += w->plt_frames;
			goto done;
		}
		u->stats.fallbacks++;
		w->nr = w->first;
	}
	for (int attempt = 0; attempt < 2; attempt++) {
		struct rp_uw_space *sp = space_get(u, maps);

		if (!sp || sp->broken)
			break;
		if (!walk_once(u, sp, pc))
			break;
		space_drop(u, maps);
		w->nr = w->first;
	}
	/* perf reports the sampled ip even where no walk could start. */
	if (!w->nr) {
		ips[0] = ip;
		w->nr = 1;
	}
done:
	w->maps = NULL;
	w->d = NULL;
	return w->nr;
}
