/* SPDX-License-Identifier: MIT */
/*
 * The DSO record shared by machine (which creates DSOs from MMAP, MMAP2,
 * KSYMBOL and the BUILD_ID feature) and symbols (which attaches a symbol
 * table to each, lazily).  Private to the library.
 */
#ifndef RP_MACHINE_DSO_H
#define RP_MACHINE_DSO_H

#include <stddef.h>
#include <stdint.h>

struct rp_dso_symtab; /* owned by lib/symbols */

enum rp_dso_kind {
	RP_DSO_USER = 0,   /* a file mapped by a process, [vdso], //anon ... */
	RP_DSO_KERNEL,     /* [kernel.kallsyms] */
	RP_DSO_MODULE,     /* a kernel module */
	RP_DSO_BPF,        /* a BPF program or other KSYMBOL */
};

struct rp_dso {
	const char *long_name;  /* as recorded; interned, lives with the machine */
	const char *short_name; /* as perf prints it */
	enum rp_dso_kind kind;
	uint8_t build_id_size;  /* 0: unknown */
	uint8_t build_id[20];
	uint32_t idx;           /* creation order, from 0 */
	/* perf's dso id: the device and inode of the first MMAP2 (without a
	 * build-id) that named it; zeros when unknown.  The dcacheline key
	 * orders data by it. */
	uint32_t id_maj, id_min;
	uint64_t id_ino, id_ino_gen;
	/* For lib/symbols: the loaded table (NULL until loaded), whether
	 * loading was tried, and whether symtab is final (stored with
	 * release order after symtab, read with acquire order: threads that
	 * see it set read symtab without the resolver's lock). */
	struct rp_dso_symtab *symtab;
	uint8_t symtab_tried;
	uint8_t symtab_ready;
};

#endif
