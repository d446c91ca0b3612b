/* SPDX-License-Identifier: MIT */
/*
 * Shared libraries that one output alone needs, opened with dlopen when
 * that output starts rather than linked: a library named as DT_NEEDED is
 * mapped and relocated at every start of every readperf command (libpq
 * with the ~20 libraries it needs cost ~3.5 ms, capstone ~1 ms), for one
 * command that calls it.  The build compiles against their headers (types,
 * constants) and never links them; the functions are called through a
 * table of function pointers that the output keeps in its state (the
 * library holds no process-wide state; dlopen counts references, so
 * outputs of several recordings each load and unload their own).
 *
 * The users: the postgres output (libpq and libcrypto, pqload_int.h) and
 * annotate's disassembler (capstone, outputs/disasm.c).  Each describes
 * its libraries (by the SONAME the build found, cmake/soname.cmake) and
 * the functions it calls, each one a member of its table:
 *
 *     struct my_funcs { void *handles[1]; __typeof__(cs_open) *cs_open; };
 *     static const struct rp_dl_lib libs[] = {
 *             { "libcapstone.so.4", "the capstone disassembler", "libcapstone4" } };
 *     static const struct rp_dl_sym syms[] = {
 *             { 0, "cs_open", offsetof(struct my_funcs, cs_open) } };
 *     static const struct rp_dl_set set = { libs, 1, syms, 1 };
 *
 *     rp_dl_load(&set, f->handles, f, err);
 */
#ifndef RP_COMMON_DLLOAD_INT_H
#define RP_COMMON_DLLOAD_INT_H

#include <stddef.h>

#include "common/error_int.h"

/* A library to load: its SONAME, what it is (for the message), the Debian
 * package that holds it. */
struct rp_dl_lib {
	const char *soname, *what, *package;
};

/* A function to look up: the library (an index into rp_dl_set.libs), its
 * name, and where its address goes (offsetof the function pointer member
 * of the caller's table). */
struct rp_dl_sym {
	unsigned lib;
	const char *name;
	size_t offset;
};

struct rp_dl_set {
	const struct rp_dl_lib *libs; /* opened in this order */
	unsigned nr_libs;
	const struct rp_dl_sym *syms;
	unsigned nr_syms;
};

/* Expands to { lib, "f", offsetof(type, f) }: one rp_dl_sym per X(f) of an
 * X-macro list of function names. */
#define RP_DL_SYM(type, lib, f) { (lib), #f, offsetof(type, f) },

/*
 * Opens set's libraries in order into handles[0..nr_libs) (RTLD_NOW |
 * RTLD_LOCAL: a library one of them needs is missing now, not at the first
 * call) and stores each function's address in table.  Returns 0, or
 * RP_ERR_UNSUPPORTED with err saying "cannot load SONAME, WHAT (apt-get
 * install PACKAGE): " and dlerror()'s reason, or "it has no FUNCTION (...)";
 * nothing is left open then and the handles are NULL.
 */
int rp_dl_load(const struct rp_dl_set *set, void **handles, void *table, struct rp_error *err);

/* Closes what rp_dl_load() opened (in the reverse order) and clears the
 * handles; NULL handles are skipped, so it is idempotent. */
void rp_dl_unload(const struct rp_dl_set *set, void **handles);

#endif
