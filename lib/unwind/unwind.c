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
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

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
/* The same for i386. */
static const uint8_t i386_dwarf[9] = {
	RP_X86_AX, RP_X86_CX, RP_X86_DX, RP_X86_BX, RP_X86_SP,
	RP_X86_BP, RP_X86_SI, RP_X86_DI, RP_X86_IP,
};

enum rp_unwind_arch { RP_UW_NONE, RP_UW_X86_64, RP_UW_I386, RP_UW_ARM64 };

/* A module reported into an address space's Dwfl. */
struct rp_uw_module {
	const struct rp_dso *dso;
	uint64_t bias;
};

/* One address space's state. */
struct rp_uw_space {
	Dwfl *dwfl;
	struct rp_unwinder *u;
	int attached;
	int broken; /* dwfl_attach_state failed: no walks here */
	struct rp_uw_module *mods;
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
};

struct rp_unwinder {
	struct rp_machine *machine;
	struct rp_symbols *symbols;
	struct rp_hashmap spaces; /* struct rp_maps * -> struct rp_uw_space */
	struct rp_uw_walk walk;
	char *debuginfo_path; /* libdwfl's search path: NULL, its default */
	Dwfl_Callbacks callbacks;
};

static void space_free(struct rp_uw_space *sp)
{
	if (!sp)
		return;
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	free(sp->mods);
	free(sp);
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
	u->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
	u->callbacks.section_address = dwfl_offline_section_address;
	u->callbacks.debuginfo_path = &u->debuginfo_path;
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

void rp_unwinder_free(struct rp_unwinder *u)
{
	if (!u)
		return;
	spaces_clear(u);
	free(u);
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

/* A word of the module's file at addr, for memory below or above the
 * stack bytes (perf reads those from the DSO's file): the module was
 * reported for the map at addr. */
static bool read_module_word(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	Dwarf_Addr bias;
	Elf *elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		uint64_t va = addr - bias;

		if (va < ph.p_vaddr || va - ph.p_vaddr >= ph.p_filesz ||
		    ph.p_filesz - (va - ph.p_vaddr) < sizeof(*result))
			continue;
		Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)(ph.p_offset + (va - ph.p_vaddr)),
						   sizeof(*result), ELF_T_BYTE);

		if (!d || d->d_size < sizeof(*result))
			return false;
		memcpy(result, d->d_buf, sizeof(*result));
		return true;
	}
	return false;
}

enum report_result { REPORT_OK, REPORT_NONE, REPORT_STALE, REPORT_NOMEM };

static enum report_result report_module(struct rp_unwinder *u, struct rp_uw_space *sp,
					const struct rp_maps *maps, uint64_t pc);

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *dwfl_arg)
{
	struct rp_uw_space *sp = dwfl_arg;
	struct rp_uw_walk *w = &sp->u->walk;
	uint64_t size = w->d->stack_user_dyn_size;

	if (addr >= w->sp && addr - w->sp <= size && size - (addr - w->sp) >= sizeof(*result)) {
		memcpy(result, (const uint8_t *)w->d->stack_user + (addr - w->sp), sizeof(*result));
		return true;
	}
	/* The module of the map at addr, reported now if no walk of this
	 * Dwfl reached it yet: what a read finds depends on the maps alone,
	 * not on the walks this Dwfl did before (the unwinder's workers
	 * each have their own, lib/process.c). */
	enum report_result r = report_module(sp->u, sp, w->maps, addr);

	if (r == REPORT_STALE)
		w->stale = 1;
	if (r != REPORT_OK)
		return false;
	return read_module_word(dwfl, addr, result);
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
 * The load bias of map's DSO: what puts the PT_LOAD segment holding the
 * map's file offset at the map's start.  Without the file's segments,
 * start - pgoff (segments whose addresses equal their file offsets).
 */
static uint64_t map_bias(const struct rp_map *map, const struct rp_dso_symtab *t)
{
	for (size_t i = 0; i < t->nr_segs; i++) {
		const struct rp_segment *g = &t->segs[i];

		if (map->pgoff >= g->offset && map->pgoff - g->offset < g->size)
			return map->start - (g->vaddr + (map->pgoff - g->offset));
	}
	return map->start - map->pgoff;
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
	const struct rp_map *map = maps ? rp_maps_lookup(maps, pc) : NULL;

	/* Only files' maps: the tables of kernel DSOs are not loaded from a
	 * walk (their loading reads state the pipeline's thread writes). */
	if (!map || !map->dso || map->identity || map->dso->kind != RP_DSO_USER)
		return REPORT_NONE;
	struct rp_dso *dso = map->dso;
	struct rp_dso_symtab *t = rp_symbols_table(u->symbols, dso);

	if (!t || !t->elf_path)
		return REPORT_NONE;
	uint64_t bias = map_bias(map, t);
	Dwfl_Module *mod = dwfl_addrmodule(sp->dwfl, pc);

	if (mod) {
		void **userdata;

		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		size_t idx = (size_t)(uintptr_t)*userdata;

		if (idx && idx <= sp->nr_mods && sp->mods[idx - 1].dso == dso &&
		    sp->mods[idx - 1].bias == bias)
			return REPORT_OK;
		return REPORT_STALE;
	}
	if (sp->nr_mods == sp->alloc_mods) {
		size_t n = sp->alloc_mods ? sp->alloc_mods * 2 : 8;
		struct rp_uw_module *m = realloc(sp->mods, n * sizeof(*m));

		if (!m)
			return REPORT_NOMEM;
		sp->mods = m;
		sp->alloc_mods = n;
	}
	dwfl_report_begin_add(sp->dwfl);
	mod = dwfl_report_elf(sp->dwfl, rp_dso_short_name(dso), t->elf_path, -1, bias, true);
	dwfl_report_end(sp->dwfl, NULL, NULL);
	if (!mod)
		return REPORT_NONE;
	if (dwfl_addrmodule(sp->dwfl, pc) != mod)
		return REPORT_STALE; /* it overlaps what an older map left */
	void **userdata;

	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	sp->mods[sp->nr_mods++] = (struct rp_uw_module){ dso, bias };
	*userdata = (void *)(uintptr_t)sp->nr_mods;
	return REPORT_OK;
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
	/* A return address points after the call: perf reports the call. */
	w->ips[w->nr++] = activation ? pc : pc - 1;
	if (w->nr >= w->max || r == REPORT_NOMEM)
		return DWARF_CB_ABORT;
	return DWARF_CB_OK;
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

	w->nr = 0;
	w->stale = 0;
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
	dwfl_getthread_frames(sp->dwfl, w->tid > 0 ? w->tid : 1, frame_cb, sp);
	return w->stale;
}

size_t rp_unwind_user(struct rp_unwinder *u, struct rp_maps *maps, int32_t pid, int32_t tid,
		      const struct rp_sample *d, uint64_t *ips, size_t max)
{
	struct rp_uw_walk *w = &u->walk;
	uint64_t ip;

	if (!max || !maps || !rp_unwind_applies(d))
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
	for (int attempt = 0; attempt < 2; attempt++) {
		struct rp_uw_space *sp = space_get(u, maps);

		if (!sp || sp->broken)
			break;
		if (!walk_once(u, sp, ip))
			break;
		space_drop(u, maps);
		w->nr = 0;
	}
	/* perf reports the sampled ip even where no walk could start. */
	if (!w->nr) {
		ips[0] = ip;
		w->nr = 1;
	}
	w->maps = NULL;
	w->d = NULL;
	return w->nr;
}
