/* SPDX-License-Identifier: MIT */
/*
 * Internals of lib/symbols: the per-DSO symbol table, the builder that
 * applies perf's fix-ups, and the loaders (ELF, kallsyms, perf maps).
 * Private to the library; depends on common and machine/dso.h.
 *
 * Address spaces (see docs/symbols.md): user DSO symbols are file offsets
 * (st_value - (p_vaddr - p_offset) of the PT_LOAD segment holding them),
 * the space of a user map's map_ip; kernel (kallsyms) symbols are absolute
 * kernel addresses; perf-<pid>.map symbols are absolute addresses.
 */
#ifndef RP_SYMBOLS_INT_H
#define RP_SYMBOLS_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <readperf/symbols.h>

#include "common/arena.h"
#include "common/rbtree.h"
#include "common/hashmap.h"
#include "machine/dso.h"
#include "symbols/buildid_int.h"
#include "symbols/find_int.h"
#include "symbols/srcline_int.h"

/* Caps on what a file can make a table hold. */
#define RP_SYMBOLS_MAX_SYMS (16u << 20)      /* symbols per DSO */
#define RP_SYMBOLS_MAX_NAME (64u << 10)      /* bytes of one symbol name */
#define RP_SYMBOLS_MAX_KSYM_NAME 512u        /* kallsyms name, as perf's KSYM_NAME_LEN */
#define RP_SYMBOLS_MAX_PLT (1u << 20)        /* PLT relocations read */
#define RP_SYMBOLS_MAX_SEGMENTS 256u         /* PT_LOAD segments kept for DWARF */
#define RP_SYMBOLS_MAX_MAPFILE (256u << 20)  /* bytes of a perf-<pid>.map file */

/* A symbol while a table is built (perf's struct symbol, in order). */
struct rp_sym_raw {
	uint64_t start, end; /* end == start: no size (yet) */
	const char *name;    /* in the builder's arena */
	uint32_t seq;        /* insertion order, for perf's order of equal starts */
	uint8_t binding, type;
	uint8_t dead;
	uint8_t mangled;     /* name as the file has it: demangled when needed */
};

struct rp_symtab_builder {
	struct rp_sym_raw *v;
	size_t nr, alloc;
	struct rp_arena *names; /* owned by the table being built */
	uint32_t seq;
	/* perf keeps symbols in a red-black tree and answers lookups by
	 * descending it, so where symbols overlap its answer depends on the
	 * tree's shape: the builder replays perf's inserts and erases on a
	 * tree of its own (indexed by seq) when track_tree is set. */
	int track_tree;
	struct rp_symtree {
		struct rp_rbnode *n; /* common/rbtree.h, by seq */
		uint64_t *key;       /* start, by seq */
		uint32_t root;
		size_t alloc;
	} tree;
	int no_demangle;
	/* Names added while set are demangled when first needed: by the
	 * fix-ups where two symbols start at one address, else when a
	 * lookup returns the symbol (rp_symbols_find()). */
	int demangle;
	int nomem; /* a demangling ran out of memory */
};

/* A load segment of the ELF file that holds the DWARF, to turn a symbol's
 * file offset back into the link-time address DWARF speaks of. */
struct rp_segment {
	uint64_t vaddr, offset, size; /* p_vaddr, p_offset, max(p_filesz, p_memsz) */
	uint32_t flags;               /* p_flags: PF_X, PF_W, PF_R */
};

/* The loaded table of one DSO (struct rp_dso_symtab of machine/dso.h). */
struct rp_dso_symtab {
	struct rp_symbol *syms; /* sorted by start */
	uint64_t *max_end;      /* max_end[i]: largest end of syms[0..i] */
	size_t nr;
	/* perf's tree over syms (indexes into syms; UINT32_MAX: none), kept
	 * only when symbols overlap, where its shape decides lookups. */
	uint32_t *tree_left, *tree_right;
	uint32_t tree_root;
	struct rp_arena names;
	/* Per symbol, 1 while its name is still mangled (NULL: none is);
	 * read and cleared atomically, demangled under the resolver's lock
	 * (rp_symbols_find()). */
	uint8_t *mangled;
	/* The build-id read from the DSO's file on disk when the recording
	 * gave none (perf's dso__load() sets the DSO's so): what exports
	 * show for it (rp_symbols_dso_build_id()). */
	uint8_t file_build_id[20];
	uint8_t file_build_id_size;
	/* Source files: the ELF file to read DWARF from (NULL: none). */
	char *dwarf_path;
	struct rp_segment *segs;
	size_t nr_segs;
	/* What perf 6.1's map__rip_2objdump() adds to an address of this
	 * space (a user ELF's .text address minus its file offset), the
	 * functions binutils' addr2line sees in the symbol file (by section,
	 * then address), and the file's allocated sections, each with its
	 * slice of them: what addr2line answers where it finds no line
	 * (srcline.c). */
	uint64_t text_offset;
	struct rp_a2l_fn {
		uint64_t start, size; /* link-time address */
		const char *file;     /* the STT_FILE it is named after, or NULL */
		uint32_t sec, idx;    /* section and symbol index */
	} *a2l_fns;
	size_t nr_a2l_fns;
	struct rp_fn_sec {
		uint64_t start, end; /* link-time addresses */
		size_t first, nr;    /* its functions: a2l_fns[first..first + nr) */
	} *fn_secs;
	size_t nr_fn_secs;
	const char **src; /* per symbol; NULL until looked up */
	uint8_t *src_done;
	void *dwarf;      /* Dwarf * of dwarf_path, opened on first use */
	void *dwarf_elf;  /* its Elf *, when opened by rp_symtab_dwarf() */
	void **dwarf_bufs; /* sections it inflated (freed after dwarf_end) */
	size_t nr_dwarf_bufs, alloc_dwarf_bufs;
	int dwarf_fd;
	uint8_t dwarf_tried;
	uint8_t addr_is_offset; /* symbols are file offsets (user ELF) */
	/* The ELF file the runtime symbols came from (the binary, or its
	 * build-id cache copy), for the unwinder's CFI; NULL: none. */
	char *elf_path;
	/* Inline chains by address (struct rp_inline_node *), and the
	 * inlined-function symbols made for them, by (name, base start). */
	struct rp_hashmap inlines;
	struct rp_hashmap inline_syms;
	/* Subprograms (by DIE offset) named after their entry symbol once
	 * they were the innermost function of a lookup (binutils keeps that
	 * name for later lookups, where they are outer frames). */
	struct rp_hashmap inline_renamed;
	/* Source lines by address (srcline.c), and perf's count of failed
	 * lookups before the first that found one. */
	struct rp_hashmap srclines;
	uint32_t srcline_fails;
	uint8_t srcline_found, srcline_off;
	/* Compile units' function ranges (DIE offset + 1 -> index). */
	struct rp_hashmap inline_cus;
	/* Line-table rows addr2line names after another file (linefile.c). */
	struct rp_line_files *line_files;
	/* The DWARF file's .symtab as binutils' addr2line picks a function
	 * symbol from it (inline.c), built on first use. */
	struct rp_a2l_syms *a2l_syms;
	uint8_t a2l_syms_tried;
	/* Without DWARF: the file perf gives addr2line (its symbol source),
	 * else NULL; opened on first use. */
	char *a2l_path;
	void *a2l_elf;   /* Elf * */
	int a2l_fd_plus1; /* its descriptor + 1; 0: none */
	uint8_t a2l_elf_tried;
	struct rp_arena inline_arena;
};

/* Most addresses whose inline chain one DSO keeps; past it, chains are
 * no longer looked up for that DSO (stated in docs/symbols.md). */
#define RP_SYMBOLS_MAX_INLINE_ADDRS (4u << 20)
/* Most frames of one inline chain kept. */
#define RP_SYMBOLS_MAX_INLINE_DEPTH 64u
/* Most function address ranges indexed per compile unit, and the deepest
 * DIE nesting walked. */
#define RP_SYMBOLS_MAX_CU_RANGES (4u << 20)
#define RP_SYMBOLS_MAX_DIE_DEPTH 256u

/*
 * The source file (full path) and line of vaddr (a link-time address) in
 * t's DWARF line table; NULL when unknown (lib/symbols/inline.c).  *err:
 * 0, or a negative rp_err.
 */
const char *rp_symtab_line(struct rp_dso_symtab *t, uint64_t vaddr, uint32_t *line,
			   uint32_t *discr, int *err);

/* Frees t's inline lookup state (lib/symbols/inline.c). */
void rp_symtab_inline_release(struct rp_dso_symtab *t);

/* Opens t's DWARF on first use; NULL when it has none. */
void *rp_symtab_dwarf(struct rp_dso_symtab *t);
/* Closes what rp_symtab_dwarf() opened, and the line tables read from
 * it (rp_symtab_free() does it too). */
void rp_symtab_dwarf_close(struct rp_dso_symtab *t);
/* Most bytes one compressed debug section may inflate to (more: the
 * section is left to libdw, which then inflates it itself). */
#define RP_SYMBOLS_MAX_DEBUG_SECTION (1ull << 30)
/* addr (t's address space) as the link-time address DWARF speaks of;
 * -1 when no segment holds it. */
int rp_symtab_vaddr(const struct rp_dso_symtab *t, uint64_t addr, uint64_t *vaddr);

/* The resolver. */
struct rp_symbols {
	const struct rp_session *session;
	char *buildid_dir; /* never NULL */
	char *symfs;       /* "" when none */
	char *kallsyms;    /* opts->kallsyms, or NULL */
	int no_demangle;
	int no_inline;
	int is_x86_64;
	/* The kernel map's recorded address of its reference symbol (_text),
	 * from rp_symbols_resolve(); 0 when unknown. */
	uint64_t kernel_ref_addr;
	/* Tables of DSOs the caller asked about, freed with the resolver. */
	struct rp_symtab_ref {
		struct rp_dso *dso;
		struct rp_dso_symtab *t;
	} *tables;
	size_t nr_tables, alloc_tables;
	/* Last lookups, by (dso, addr). */
	struct {
		const struct rp_dso *dso;
		uint64_t addr;
		const struct rp_symbol *sym;
	} cache[4];
	unsigned cache_next;
	struct rp_arena scratch; /* source file names */
	/* rp_symbols_dso_has_data()'s answers: dso pointer -> 1 + answer. */
	struct rp_hashmap has_data;
	/* /proc/kallsyms read ahead (rp_symbols_prefetch_kallsyms()): the
	 * thread, until joined; then its text (NULL when it failed). */
	pthread_t prefetch;
	int prefetching;
	int prefetch_done; /* set by the thread when it ends (atomic) */
	char *kallsyms_text;
	size_t kallsyms_len;
	/* Held while a table loads (rp_symbols_table()), which the
	 * unwinder's workers may ask for at once with the pipeline's thread;
	 * recursive, as a loader may ask for another DSO's table. */
	pthread_mutex_t lock;
	/* 0, or RP_ERR_NOMEM once a table or a source file name could not
	 * be loaded for lack of memory (rp_symbols_error()). */
	int error;
};

/*
 * The symbol table of dso, loaded on the first call (a table with nr 0
 * when no symbols were found).  NULL when an allocation failed while it
 * loaded: s->error is then RP_ERR_NOMEM, and the DSO is not tried again.
 * Owned by s.  Threads may call it at once for user DSOs (loads are
 * serialized by s->lock); what a loaded table holds but its lazily
 * filled caches (sources, DWARF, inlines, lines) does not change after.
 */
struct rp_dso_symtab *rp_symbols_table(struct rp_symbols *s, struct rp_dso *dso);

/*
 * Whether perf 6.1 finds dso's data file, an ELF file: its build-id cache
 * copy (when the DSO has a build-id) or the file at its path under the
 * symfs, build-id unchecked, as perf's dso__type() opens it (dso.c:
 * try_to_open_dso(), binary_type_data[]); a [vdso] without a build-id
 * counts as found (perf copies its own).  perf's libunwind unwinds a
 * process's samples only once a map of such a DSO entered its address
 * space (unwind__prepare_access()).  Answers are kept per DSO.  Called
 * from one thread at a time (the pipeline's), never with a table loading
 * on another for the same call.  1 or 0.
 */
int rp_symbols_dso_has_data(struct rp_symbols *s, const struct rp_dso *dso);

/* Builder. */
void rp_symb_init(struct rp_symtab_builder *b, struct rp_arena *names);
void rp_symb_release(struct rp_symtab_builder *b);
/*
 * Adds a symbol of size bytes at start (size 0: unknown, fixed up by
 * rp_symb_fixup_end()); name of len bytes is copied (demangled first when
 * b->demangle is set).  Returns 0, RP_ERR_NOMEM or RP_ERR_LIMIT.
 */
int rp_symb_add(struct rp_symtab_builder *b, uint64_t start, uint64_t size,
		uint8_t binding, uint8_t type, const char *name, size_t len);
/* Sorts by start, equal starts in insertion order (perf's rb-tree order). */
void rp_symb_sort(struct rp_symtab_builder *b);
/* perf's symbols__fixup_end(); is_kallsyms selects the kernel/module rule. */
void rp_symb_fixup_end(struct rp_symtab_builder *b, int is_kallsyms);
/* perf's symbols__fixup_duplicate() with choose_best_symbol(). */
void rp_symb_fixup_duplicate(struct rp_symtab_builder *b);
/* Drops the entries marked dead. */
void rp_symb_compact(struct rp_symtab_builder *b);
/*
 * Moves the builder's symbols into a new table (names stay in the arena
 * the builder was given, which the caller moves into the table).
 * Returns 0 or RP_ERR_NOMEM (t may then hold part of the table: free it
 * with rp_symtab_free()).
 */
int rp_symb_finish(struct rp_symtab_builder *b, struct rp_dso_symtab *t);

/* The symbol of t covering addr, or NULL. */
const struct rp_symbol *rp_symtab_find(const struct rp_dso_symtab *t, uint64_t addr);
void rp_symtab_free(struct rp_dso_symtab *t);

/* syms[i]'s name demangled now if it was still mangled (the caller holds
 * whatever keeps others from demangling it at once).  0 or RP_ERR_NOMEM. */
int rp_symtab_demangle(struct rp_dso_symtab *t, size_t i);

/*
 * Demangles name as perf 6.1 does for user symbols (libiberty's
 * cplus_demangle without options, which covers C++ and Rust; then
 * OCaml).  *out gets a malloc'ed string (the caller frees it), or NULL
 * when name is not mangled.  Returns 0 or RP_ERR_NOMEM (*out NULL).
 */
int rp_demangle(const char *name, char **out);
/* name demangled as objdump -C does (parameter lists, const, ...; no
 * OCaml); the same contract as rp_demangle(). */
int rp_demangle_params(const char *name, char **out);

/* Loaders: each fills b; returns the number of symbols (>= 0) or a
 * negative rp_err.  A source that cannot be read (missing, unreadable,
 * not ELF, another build-id) gives 0, as perf then has no symbols;
 * RP_ERR_NOMEM means an allocation failed and the table is incomplete,
 * RP_ERR_LIMIT that the source has more symbols than
 * RP_SYMBOLS_MAX_SYMS. */
int rp_load_user_dso(struct rp_symbols *s, const struct rp_dso *dso,
		     struct rp_symtab_builder *b, struct rp_dso_symtab *t);
/*
 * Reads a kallsyms file into b with perf's filters and fix-ups.  module:
 * NULL for the kernel's own symbols, else the "[name]" whose symbols to
 * keep.  ref_addr: the recorded address of _text (0: unknown), to undo a
 * different boot's relocation.
 */
int rp_load_kallsyms_file(const char *path, struct rp_symtab_builder *b,
			  const char *module, int is_x86_64, uint64_t ref_addr);
/* The same from the text of a kallsyms file (len bytes, NUL-terminated,
 * the caller's). */
int rp_load_kallsyms_text(const char *buf, size_t len, struct rp_symtab_builder *b,
			  const char *module, int is_x86_64, uint64_t ref_addr);
/* Whether /proc/kallsyms is being read ahead and not read yet: the
 * first kernel lookup would wait for it. */
int rp_symbols_kallsyms_pending(const struct rp_symbols *s);
/* The thread body of rp_symbols_prefetch_kallsyms(). */
void *rp_kallsyms_prefetch_main(void *arg);
int rp_load_kernel(struct rp_symbols *s, const struct rp_dso *dso,
		   struct rp_symtab_builder *b);
int rp_load_perf_map(const char *path, struct rp_symtab_builder *b);

/* Build-id of an ELF file: returns its size (1..20) or 0. */
size_t rp_file_build_id(const char *path, uint8_t out[20]);
/* perf's dso__build_id_equal(): trailing zero padding allowed. */
int rp_build_id_equal(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz);

#endif
