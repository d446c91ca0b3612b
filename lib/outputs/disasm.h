/* SPDX-License-Identifier: MIT */
/*
 * Disassembly for annotate (lib/outputs/annotate.c): a function's bytes
 * read from an ELF file on disk (hostile input: every offset and size is
 * checked against the file and capped), decoded with capstone (loaded
 * when the output starts: rp_disasm_lib_load()) and spelled
 * as objdump -d --no-show-raw-insn spells it where docs/annotate.md says
 * so.  Private to the library.
 */
#ifndef RP_OUTPUTS_DISASM_H
#define RP_OUTPUTS_DISASM_H

#include <stddef.h>
#include <stdint.h>

/* A function's code as read from its ELF file. */
struct rp_code {
	uint8_t *bytes;     /* malloc'd; rp_code_release() frees */
	size_t len;         /* bytes from vaddr (cut to the sections and the cap) */
	uint64_t vaddr;     /* link-time address of bytes[0] (objdump's) */
	/* The file's executable sections, to turn a link-time address back
	 * into a file offset (the DSO's symbol space): delta = offset - vaddr
	 * for addresses in [lo, hi). */
	struct rp_code_sect {
		uint64_t lo, hi;
		int64_t delta;
		char name[64]; /* the section's name, cut ("" unknown) */
	} *sects;
	size_t nr_sects;
	unsigned machine;   /* ELF e_machine */
	int is64;           /* ELFCLASS64 */
	int has_symtab;     /* the file has a SHT_SYMTAB section (objdump's static symbols) */
};

/*
 * Reads len bytes at file offset off of the ELF file path, which must lie
 * in an executable SHT_PROGBITS section (a debug-only file's NOBITS .text
 * has no code).  len is cut to max_len and to the end of the last
 * executable section in the range; the range may cross several sections,
 * the bytes between them zero and skipped by rp_disasm_next().
 * Returns 0, or -1 with *why (static text) saying what failed.
 */
int rp_code_read(struct rp_code *code, const char *path, uint64_t off, uint64_t len,
		 uint64_t max_len, const char **why);
void rp_code_release(struct rp_code *code);

/* The file offset of a link-time address of code's file; -1 when no
 * executable section holds it. */
int rp_code_offset(const struct rp_code *code, uint64_t vaddr, uint64_t *off);

/* One decoded instruction. */
struct rp_insn {
	uint64_t addr;        /* link-time address */
	uint32_t size;        /* bytes */
	/* The instruction as objdump prints it after the address and tab:
	 * "mov    %rdi,%rdx", "je     12db <checksum+0x32>". */
	char text[256];
};

/*
 * Names a branch target or RIP-relative address (a link-time address) as
 * objdump's "<sym+0xoff>": writes "sym" or "sym+0xoff" into buf and
 * returns 1, or returns 0 when no symbol covers it.
 */
typedef int (*rp_disasm_namer)(void *ctx, uint64_t vaddr, char *buf, size_t size);

struct rp_disasm;
struct rp_error;

/*
 * capstone, loaded with dlopen when an annotate output starts rather than
 * linked (common/dlload_int.h: mapped at every start of every command, it
 * cost ~1 ms for one command that calls it).  The build compiles against
 * its headers and dlopens the SONAME it found (cmake/outputs.cmake:
 * RP_CAPSTONE_SONAME).  The output keeps it in its state.
 */
struct rp_disasm_lib;

/*
 * Loads capstone.  Returns 0, or RP_ERR_UNSUPPORTED with err naming the
 * library, its package and the loader's reason, or saying that readperf
 * was built without capstone.
 */
int rp_disasm_lib_load(struct rp_disasm_lib **out, struct rp_error *err);
/* Unloads it; NULL-safe.  Every decoder made with it is freed before. */
void rp_disasm_lib_free(struct rp_disasm_lib *lib);

/*
 * A decoder for code's architecture with lib's capstone.  Returns 0, or
 * -1 with *why set (an architecture capstone does not decode, no memory).
 */
int rp_disasm_new(struct rp_disasm **out, const struct rp_disasm_lib *lib,
		  const struct rp_code *code, const char **why);
void rp_disasm_free(struct rp_disasm *d);

/*
 * Decodes the next instruction at *pos of code (advancing *pos); returns
 * 1 with *insn filled, 0 at the end.  Bytes that decode to nothing are
 * shown as objdump shows them, "(bad)", one byte each.
 */
int rp_disasm_next(struct rp_disasm *d, const struct rp_code *code, size_t *pos,
		   struct rp_insn *insn, rp_disasm_namer namer, void *ctx);

#endif
