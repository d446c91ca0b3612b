/* SPDX-License-Identifier: MIT */
/*
 * readperf: symbols for DSOs: ELF symbol tables (libelf), kernel symbols
 * (kallsyms), demangling (libiberty) and source files (libdw).
 *
 * Follows perf's symbol lookup (tools/perf/util/symbol.c, symbol-elf.c,
 * map.c): a DSO is found on disk or in the build-id cache (~/.debug or
 * $PERF_BUILDID_DIR), and a file whose build-id differs from the recorded
 * one is not used; .symtab is preferred over .dynsym, PLT entries get
 * "name@plt" symbols; symbol addresses are in the DSO's file-offset space,
 * the space of rp_addr_location.addr.  Tables are loaded once per DSO, on
 * first use.
 */
#ifndef READPERF_SYMBOLS_H
#define READPERF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/api.h>
#include <readperf/machine.h>
#include <readperf/session.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_symbols;

/* A function (or object) of a DSO. */
struct rp_symbol {
	uint64_t start, end; /* [start, end) in the DSO's address space */
	const char *name;    /* demangled as perf prints it */
	uint8_t binding;     /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	/* An inlined function's frame (rp_symbols_inlines()): start and end
	 * are those of the function it was inlined into, as in perf. */
	uint8_t inlined;
	/* The ELF symbol type (STT_FUNC 2, STT_OBJECT 1, ...; kallsyms' data
	 * types give STT_OBJECT, as in perf): perf prints a data symbol
	 * with the offset of the address into it. */
	uint8_t type;
};

/*
 * One frame of the inline chain at an address (perf's inline_list entry):
 * the function, and the source line that frame is at (the address's own
 * line for the innermost, the call site for the others).
 */
struct rp_inline_frame {
	const struct rp_symbol *sym; /* owned by the resolver */
	const char *file;            /* full path as in DWARF, or NULL (??) */
	uint32_t line;               /* 0: unknown */
};

/*
 * Whether sym is a PLT entry ("name@plt", synthesized from the PLT) or
 * the .init/.fini code (_init, _fini): where perf 6.1 prints an unknown
 * source line as "sym+OFFSET" or "dso[addr]" rather than "??:0".
 */
RP_API int rp_symbol_is_stub(const struct rp_symbol *sym);

struct rp_symbols_opts {
	size_t sz; /* sizeof(struct rp_symbols_opts) */
	/* The build-id cache; NULL: $PERF_BUILDID_DIR, else ~/.debug. */
	const char *buildid_dir;
	/* Kernel symbols; NULL: the build-id cache's copy, else /proc/kallsyms
	 * when the file was recorded on the running kernel. */
	const char *kallsyms;
	/* Prefix for every DSO path (perf's --symfs); NULL for none. */
	const char *symfs;
	int no_demangle; /* keep mangled names */
	/* No inline chains: rp_symbols_inlines() finds none (perf's
	 * --no-inline). */
	int no_inline;
};

/*
 * Creates a symbol resolver for the DSOs of machine, recorded in session
 * (whose header tells the kernel release and build-ids).  Both must outlive
 * it.  opts may be NULL.  Returns 0 or RP_ERR_NOMEM.
 */
RP_API int rp_symbols_new(struct rp_symbols **out, const struct rp_session *session,
		   const struct rp_symbols_opts *opts);
RP_API void rp_symbols_free(struct rp_symbols *symbols);

/*
 * The symbol covering addr (in the DSO's address space, as in
 * rp_addr_location.addr), or NULL.  Loads the DSO's table on first use;
 * a DSO that cannot be read (missing or unreadable file, not ELF, another
 * build-id) has no symbols, as in perf.  When an allocation fails while
 * the table loads, the DSO has no symbols either and rp_symbols_error()
 * says RP_ERR_NOMEM: the results are then incomplete.  The symbol lives
 * as long as the resolver.
 */
RP_API const struct rp_symbol *rp_symbols_find(struct rp_symbols *symbols, struct rp_dso *dso,
					uint64_t addr);

/*
 * Resolves a sampled address fully: thread's map (rp_machine_find_map())
 * then symbol.  Returns 1 when a map was found, 0 when not, or
 * RP_ERR_NOMEM (al filled as far as it got, al->sym NULL where the
 * table was lost) when an allocation failed while a symbol table loaded,
 * in this call or an earlier one (rp_symbols_error()): the caller should
 * stop, as its results would lack those symbols.
 */
RP_API int rp_symbols_resolve(struct rp_symbols *symbols, struct rp_machine *machine,
		       struct rp_thread *thread, uint8_t cpumode, uint64_t ip,
		       struct rp_addr_location *al);

/*
 * The source file of sym's first address, from the DSO's DWARF (libdw),
 * or NULL when there is no debug info (or, with rp_symbols_error() then
 * RP_ERR_NOMEM, when its name could not be copied).  Valid as long as
 * the resolver.
 */
RP_API const char *rp_symbols_source_file(struct rp_symbols *symbols, struct rp_dso *dso,
				   const struct rp_symbol *sym);

/*
 * The inline chain at addr (in the DSO's address space, as al.addr) of
 * dso, whose symbol there is sym: the frames perf's addr2line-based
 * dso__parse_addr_inlines() gives, innermost first, ending with the
 * function the code belongs to.  Names come from DWARF (the linkage name,
 * demangled as perf demangles, else the name) through libdw, or, where
 * DWARF names no function (or the DSO has none), from the symbol binutils
 * picks (docs/unwind.md, "Inlined frames"); a frame whose name equals
 * sym's name is sym itself, any other is a symbol with `inlined` set and
 * sym's start and end.  Returns the number of frames (*out valid as long
 * as the resolver), 0 when there is none (the frame stays as it is), or
 * RP_ERR_NOMEM.  Cached per (dso, addr); the names of functions without
 * a linkage name depend on the order of the calls, as addr2line's do.
 */
RP_API int rp_symbols_inlines(struct rp_symbols *symbols, struct rp_dso *dso,
		       const struct rp_symbol *sym, uint64_t addr,
		       const struct rp_inline_frame **out);

/*
 * The source line of addr (in the DSO's address space, as al.addr) of
 * dso, from its DWARF line table: *file the full path as DWARF names it
 * (valid as long as the resolver), *line its number.  Returns 1, 0 when
 * unknown (no DWARF for addr, or, as perf, the DSO's first 123 lookups
 * all failed), or RP_ERR_NOMEM.  Cached per (dso, addr).
 */
RP_API int rp_symbols_srcline(struct rp_symbols *symbols, struct rp_dso *dso, uint64_t addr,
		       const char **file, uint32_t *line);

/*
 * Starts reading /proc/kallsyms on a thread of the resolver's own, when
 * kernel symbols may come from there (no kallsyms file or symfs given), so
 * that the kernel's slow formatting of that file (tens of ms) overlaps
 * with the reading of the records instead of delaying the first kernel
 * address.  Whether the text is then used is decided as without it (the
 * recording's kernel must be the running one).  Optional; call once,
 * before the first resolution.  Returns 0, also when nothing was started.
 */
RP_API int rp_symbols_prefetch_kallsyms(struct rp_symbols *symbols);

/*
 * 0, or RP_ERR_NOMEM once an allocation failed while a DSO's symbol
 * table (ELF symbols, kallsyms, a perf map, demangled names, sorting) or
 * a source file name loaded: every result since then may lack symbols,
 * and a report made from them would be wrong.  It stays set for the
 * resolver's lifetime.  symbols may be NULL (0).
 */
RP_API int rp_symbols_error(const struct rp_symbols *symbols);

#ifdef __cplusplus
}
#endif

#endif
