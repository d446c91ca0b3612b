/* SPDX-License-Identifier: MIT */
/*
 * What the outputs ask the resolver about source lines beyond
 * rp_symbols_srcline() (lib/symbols/srcline.c).  Apart from
 * symbols_int.h, so that the outputs see the resolver's types as the
 * public headers declare them (opaque).
 */
#ifndef RP_SYMBOLS_SRCLINE_INT_H
#define RP_SYMBOLS_SRCLINE_INT_H

#include <stdint.h>

struct rp_symbols;
struct rp_dso;
struct rp_hashmap;

/*
 * What perf 6.1 makes of addr (dso's address space, as al.addr) where
 * DWARF knows no line (docs/unwind.md, "Source lines"): *shown the
 * address its "dso[addr]" text shows (map__rip_2objdump(): addr plus the
 * .text section's address minus its file offset), which is also the
 * address it asks addr2line about.  Returns 1 when binutils' addr2line
 * finds a function there (a function symbol of the file's table at or
 * before it in its section): it then answers "FILE:?" (*file: the
 * STT_FILE the function is named after) or "??:?" (*file NULL), which
 * perf takes for the line FILE:0 or "??:0"; else 0 (it answers "??:0",
 * which perf takes for a failure).  file may be NULL.
 */
int rp_symbols_addr_in_func(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
			    uint64_t *shown, const char **file);

/*
 * perf's A2L_FAIL_LIMIT: rp_symbols_a2l_count() counts one lookup of
 * perf's __get_srcline() (found: addr2line answered a line, "??:?" or
 * "FILE:?"), for a caller that decides that itself (rp_symbols_srcline()
 * counts its own lookups: a line or none); once the first 123 all failed,
 * rp_symbols_a2l_off() answers 1 for dso from then on (perf clears
 * dso->has_srcline and shows "sym+OFFSET" or "dso[addr]"), and
 * rp_symbols_srcline() finds no line there.
 */
void rp_symbols_a2l_count(struct rp_symbols *s, struct rp_dso *dso, int found);
int rp_symbols_a2l_off(struct rp_symbols *s, struct rp_dso *dso);

/*
 * rp_symbols_srcline() without counting the lookup, for a caller that
 * counts what perf's addr2line would have answered
 * (rp_symbols_a2l_count()): where DWARF has no line, addr2line may still
 * name the function.
 */
int rp_symbols_srcline_uncounted(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
				 const char **file, uint32_t *line);

/*
 * The line binutils' objdump -l shows for addr (dso's address space, as
 * al.addr): *file (the path as addr2line prints it, valid while the
 * resolver lives), *line and *discr (the row's DWARF discriminator, 0:
 * none).  Uncached and outside perf's A2L_FAIL_LIMIT count (perf
 * annotate's objdump is no addr2line).  Returns 1, 0 when DWARF knows no
 * line there, or a negative rp_err.
 */
int rp_symbols_objdump_line(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
			    const char **file, uint32_t *line, uint32_t *discr);

/*
 * The innermost function (inlined ones too) DWARF places addr (dso's
 * address space) in, as objdump -l names it: *name its linkage name
 * (mangled, valid while the resolver lives) or its DW_AT_name (*plain
 * 1).  A function without linkage name in a language that mangles is
 * named as addr2line names it (rp_symbols_inlines()), with renamed (DIE
 * offset -> name; the caller's, released by it) as binutils' state: one
 * per objdump run.  Returns 1, 0 when DWARF names none there, or a
 * negative rp_err.
 */
int rp_symbols_objdump_fn(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr,
			  struct rp_hashmap *renamed, const char **name, int *plain);

#endif
