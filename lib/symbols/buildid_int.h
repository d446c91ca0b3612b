/* SPDX-License-Identifier: MIT */
/*
 * The build-id the exports give a DSO (lib/symbols/symbols.c).  Apart
 * from symbols_int.h, as srcline_int.h, so that the outputs see the
 * resolver's types as the public headers declare them (opaque).
 */
#ifndef RP_SYMBOLS_BUILDID_INT_H
#define RP_SYMBOLS_BUILDID_INT_H

#include <stddef.h>
#include <stdint.h>

struct rp_dso;

/*
 * dso's build-id as perf 6.1 holds it when a sample is exported: the
 * recorded one (rp_dso_build_id()), else, once the symbols stage loaded
 * the DSO's table, the one it read from the file on disk (perf's
 * dso__load() sets it so), else none.  Returns its size in bytes (0:
 * none) and points *build_id at it (valid while the DSO and the
 * resolver live).
 */
size_t rp_symbols_dso_build_id(const struct rp_dso *dso, const uint8_t **build_id);

#endif
