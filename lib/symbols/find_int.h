/* SPDX-License-Identifier: MIT */
/*
 * A symbol lookup for the report's thread (lib/symbols/symbols.c).  Apart
 * from symbols_int.h, as srcline_int.h, so that the outputs see the
 * resolver's types as the public headers declare them (opaque).
 */
#ifndef RP_SYMBOLS_FIND_INT_H
#define RP_SYMBOLS_FIND_INT_H

#include <stdint.h>

struct rp_symbols;
struct rp_dso;
struct rp_symbol;

/*
 * The symbol at addr (the DSO's address space) of a DSO whose table a
 * lookup has loaded already, as perf's map__find_symbol(); NULL when none
 * is or the table is not loaded.  Unlike rp_symbols_find() it writes no
 * cache and loads no table, so a thread other than the pipeline's may
 * call it (a name still mangled is demangled under s's lock; left as it
 * is when s is NULL).
 */
const struct rp_symbol *rp_symbols_find_loaded(struct rp_symbols *s, const struct rp_dso *dso,
					       uint64_t addr);

#endif
