/* SPDX-License-Identifier: MIT */
/*
 * rp_symbols_resolve(): map then symbol, as perf's thread__find_symbol()
 * (tools/perf/util/event.c, map.c).  Apart from symbols.c so that users of
 * rp_symbols_find() alone need not link the machine.
 */
#include <string.h>

#include "machine/machine_int.h"
#include "symbols/symbols_int.h"

int rp_symbols_resolve(struct rp_symbols *s, struct rp_machine *machine, struct rp_thread *thread,
		       uint8_t cpumode, uint64_t ip, struct rp_addr_location *al)
{
	if (!rp_machine_find_map(machine, thread, cpumode, ip, al)) {
		al->sym = NULL;
		return s->error < 0 ? s->error : 0;
	}
	al->sym = NULL;
	struct rp_dso *dso = al->dso;
	if (!dso)
		return 1;
	if (dso->kind == RP_DSO_KERNEL && !dso->symtab_tried && al->map && !s->kernel_ref_addr &&
	    al->addr == al->ip) {
		/* The kernel map (the identity one, not an entry trampoline
		 * map of the same DSO) has as pgoff the recorded address of
		 * its reference symbol (_text), for a kallsyms file of
		 * another boot. */
		s->kernel_ref_addr = rp_map_pgoff(al->map);
	}
	if (dso->kind == RP_DSO_KERNEL && !dso->symtab_tried && al->map) {
		/* perf loads a kernel map's symbols as soon as a lookup finds
		 * the map (thread__find_map), and once kallsyms symbols are
		 * loaded it moves the map's bounds to the first symbol's start
		 * and the last one's end (dso__load_kernel_sym): from then on
		 * kernel addresses past _etext (init code, data) resolve. */
		struct rp_dso_symtab *t = rp_symbols_table(s, dso);
		int err;

		if (t && t->nr) {
			const struct rp_map *m = rp_machine_kernel_map_resize(
				machine, al->map, t->syms[0].start, t->syms[t->nr - 1].end, &err);

			if (m && m != al->map) {
				al->map = m;
				al->addr = m->identity ? ip : ip - m->start + m->pgoff;
			}
			/* RP_ERR_LIMIT keeps the map as it was (lookups still
			 * answer); a failed allocation is the caller's to know. */
			if (!m && err == RP_ERR_NOMEM)
				s->error = RP_ERR_NOMEM;
		}
	}
	/* Module symbols from kallsyms are absolute addresses. */
	uint64_t addr = dso->kind == RP_DSO_MODULE ? al->ip : al->addr;
	al->sym = rp_symbols_find(s, dso, addr);
	return s->error < 0 ? s->error : 1;
}
