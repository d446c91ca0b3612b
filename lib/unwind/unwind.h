/* SPDX-License-Identifier: MIT */
/*
 * The unwinder: the user part of a sample's call stack from the registers
 * and stack bytes it carries (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER,
 * what `perf record --call-graph dwarf` writes), walked with elfutils'
 * libdwfl unwinder over the binaries' .eh_frame / .debug_frame.
 *
 * State is kept per address space (one Dwfl per struct rp_maps, its
 * modules reported once, when a walk first reaches them), never per
 * sample; each DSO's ELF file is the one the symbols stage chose for it
 * (the binary under --symfs, or its build-id cache copy).  Private to the
 * library; depends on machine and symbols (docs/unwind.md).
 */
#ifndef RP_UNWIND_UNWIND_H
#define RP_UNWIND_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/event.h>
#include <readperf/machine.h>
#include <readperf/symbols.h>

/* perf's default --max-stack (sysctl kernel.perf_event_max_stack): the
 * most user frames one walk delivers, the sampled ip included. */
#define RP_UNWIND_MAX_STACK 127u
/* Address spaces whose unwinding state is kept at once; past this every
 * state is dropped and rebuilt on demand (bounds the open files and the
 * CFI caches of an `-a` recording of many processes). */
#define RP_UNWIND_MAX_SPACES 256u

/* Fast walks' caches (x86-64, docs/unwind.md): the most DSOs one unwinder
 * keeps CFI state for, and the most addresses whose reduced CFI row one
 * DSO keeps; past either, that cache is emptied and refilled on demand.
 * A rule is 8 bytes and its key 8, in a hash table at most 3/4 full of
 * at most 256 Ki slots: at most 4 MiB per DSO and unwinder. */
#define RP_UNWIND_MAX_DSOS 256u
#define RP_UNWIND_MAX_RULES (128u * 1024u)

/* The frame perf 6.1 reports where a walk read a return address of 0
 * (from the stack bytes, or from a map without a file, as the stack's
 * own map beyond the bytes copied): 0 - 1, printed as an unknown address
 * (docs/unwind.md). */
#define RP_UNWIND_NO_RA UINT64_MAX

struct rp_unwinder;
struct rp_maps;

/* How rp_unwind_user() walks (internal switch, for tests and benches). */
enum rp_unwind_mode {
	/* The default: x86-64 samples whose every frame has a simple CFI row
	 * are walked over rows cached per DSO; any other sample goes through
	 * libdwfl.  Same frames as RP_UNWIND_LIBDWFL. */
	RP_UNWIND_AUTO,
	/* Every sample through libdwfl's unwinder. */
	RP_UNWIND_LIBDWFL,
};

/* What an unwinder did so far. */
struct rp_unwind_stats {
	uint64_t walks;     /* rp_unwind_user() calls that walked */
	uint64_t fast;      /* of them, done by the cached rows alone */
	uint64_t fallbacks; /* of them, handed to libdwfl by the fast walker */
	uint64_t rule_misses; /* rows looked up in libdw (cache misses) */
	/* Fallbacks by cause: a frame's map has no file the fast walker can
	 * use (or sits at a map's or module's edge), a row is not simple, a
	 * read falls outside the stack bytes. */
	uint64_t fb_module, fb_rule, fb_stack;
	/* Frames of fast walks whose CFA was a PLT entry's expression. */
	uint64_t plt_frames;
	/* Sampled PLT entries without CFI stepped over as libunwind does. */
	uint64_t plt_steps;
};

/*
 * A new unwinder over machine's address spaces, reading binaries through
 * symbols (neither may be NULL; both must outlive it).  Returns 0 or
 * RP_ERR_NOMEM.
 */
int rp_unwinder_new(struct rp_unwinder **out, struct rp_machine *machine,
		    struct rp_symbols *symbols);
void rp_unwinder_free(struct rp_unwinder *u);
/* The walk mode (RP_UNWIND_AUTO when made). */
void rp_unwinder_set_mode(struct rp_unwinder *u, enum rp_unwind_mode mode);
void rp_unwinder_stats(const struct rp_unwinder *u, struct rp_unwind_stats *out);

/* Whether sample d carries what a walk needs (user registers with an ip
 * and a stack pointer, and stack bytes), as perf's
 * thread__resolve_callchain_unwind() checks it. */
int rp_unwind_applies(const struct rp_sample *d);

/*
 * Walks the user stack of sample d of thread tid of process pid (-1:
 * unknown), whose address space at the sample's time is maps: writes the frames' addresses
 * into ips[0..n) in callee order (the sampled user ip first, then each
 * caller's return address minus one, as perf reports them), at most max,
 * and returns n.  A walk ends where the unwinder finds no CFI or no map,
 * at an undefined return address, at a zero address, or at max frames;
 * whatever was found before is kept, never an error.  Samples without
 * what rp_unwind_applies() checks give 0.  The result depends on d and
 * on maps alone, not on earlier walks.  Unwinders of one machine and
 * resolver may walk on several threads at once, each unwinder on one
 * thread at a time, while no one changes maps (the resolver's table
 * loads are locked: rp_symbols_table()).
 */
size_t rp_unwind_user(struct rp_unwinder *u, struct rp_maps *maps, int32_t pid, int32_t tid,
		      const struct rp_sample *d, uint64_t *ips, size_t max);

#endif
