/* SPDX-License-Identifier: MIT */
/*
 * readperf: per-instruction sample percentages of functions, as
 * `perf annotate --stdio` prints them (perf 6.1, util/annotate.c
 * symbol__annotate_printf()): for each function with samples (hottest
 * first, per event) a header line, then its disassembly, each instruction
 * with the share of the function's period that fell on it, and the
 * source lines where the DSO has DWARF line tables.
 *
 * The output is called "annotate" behind the output contract
 * (include/readperf/output.h): rp_output_new(&o, "annotate", &env,
 * &opts, &target, &err) with a stream target.  The disassembly comes from
 * the DSO's ELF file on disk (capstone: x86-64 and i386 in AT&T syntax
 * spelled as objdump spells it, arm64 in capstone's syntax).  capstone is
 * not linked with the library: rp_output_new() loads it (dlopen, by the
 * SONAME of the one the build found) and the output unloads it when
 * freed.  Where it cannot be loaded, or the library was built without
 * capstone, rp_output_new() fails with RP_ERR_UNSUPPORTED, err naming the
 * library and its package, before anything is read.
 * docs/annotate.md states every rule and where the text differs from
 * objdump's.
 */
#ifndef READPERF_ANNOTATE_H
#define READPERF_ANNOTATE_H

#include <stddef.h>

#include <readperf/api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_annotate_opts {
	size_t sz;          /* sizeof(struct rp_annotate_opts) */
	/* Only the functions of this name (perf annotate -s / SYM); NULL:
	 * every function with samples, hottest first.  Borrowed: it must
	 * outlive the output. */
	const char *symbol;
	int no_source;      /* --no-source: no source lines interleaved */
	int show_nr_samples; /* -n: sample counts instead of percentages */
	/* Functions whose code could not be read (no ELF file, kernel
	 * without vmlinux, bad ELF, too large) are listed after the others
	 * as one line each, "readperf: cannot annotate SYM: REASON";
	 * 0 lists none (perf prints such notes on its standard error). */
	int list_skipped;
};

/* Largest function disassembled, bytes: a longer symbol is cut there
 * (docs/annotate.md). */
#define RP_ANNOTATE_MAX_SYMBOL_SIZE (4u << 20)

#ifdef __cplusplus
}
#endif

#endif
