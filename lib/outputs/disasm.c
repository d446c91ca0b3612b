/* SPDX-License-Identifier: MIT */
/*
 * Disassembly for annotate: code read from ELF files with libelf, decoded
 * with capstone, spelled as objdump -d spells it (docs/annotate.md lists
 * each rule and each difference that remains).
 */
#include "outputs/disasm.h"

#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error_int.h"

#ifdef RP_HAVE_CAPSTONE
#include <capstone/capstone.h>

#include "common/dlload_int.h"
#endif

/* Sections of one ELF file looked at, at most. */
#define RP_CODE_MAX_SECTIONS 65536u
/* Executable sections kept for address translation. */
#define RP_CODE_MAX_EXEC_SECTIONS 256u

void rp_code_release(struct rp_code *code)
{
	free(code->bytes);
	free(code->sects);
	memset(code, 0, sizeof(*code));
}

int rp_code_offset(const struct rp_code *code, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < code->nr_sects; i++)
		if (vaddr >= code->sects[i].lo && vaddr < code->sects[i].hi) {
			*off = (uint64_t)((int64_t)vaddr + code->sects[i].delta);
			return 0;
		}
	return -1;
}

int rp_code_read(struct rp_code *code, const char *path, uint64_t off, uint64_t len,
		 uint64_t max_len, const char **why)
{
	struct stat st;
	Elf *elf = NULL;
	GElf_Ehdr eh;
	size_t shnum = 0;
	int fd, found = 0, ret = -1;

	memset(code, 0, sizeof(*code));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		*why = "libelf cannot be initialised";
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*why = "cannot open its ELF file";
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*why = "its ELF file is not a regular file";
		goto out;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		*why = "not an ELF file";
		goto out;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		*why = "not an executable or shared object";
		goto out;
	}
	if (elf_getshdrnum(elf, &shnum) != 0 || shnum > RP_CODE_MAX_SECTIONS) {
		*why = "bad section headers";
		goto out;
	}
	code->machine = eh.e_machine;
	code->is64 = gelf_getclass(elf) == ELFCLASS64;
	code->sects = calloc(RP_CODE_MAX_EXEC_SECTIONS, sizeof(*code->sects));
	if (!code->sects) {
		*why = "out of memory";
		goto out;
	}
	for (size_t i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (scn && gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			code->has_symtab = 1;
		if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
			continue;
		/* A section that claims bytes past the end of the file is
		 * cut to the file. */
		if (sh.sh_offset >= (uint64_t)st.st_size)
			continue;
		uint64_t size = sh.sh_size;
		if (size > (uint64_t)st.st_size - sh.sh_offset)
			size = (uint64_t)st.st_size - sh.sh_offset;
		if (sh.sh_addr > UINT64_MAX - size)
			continue;
		if (code->nr_sects == RP_CODE_MAX_EXEC_SECTIONS)
			continue;
		struct rp_code_sect *cs = &code->sects[code->nr_sects++];
		size_t shstrndx;
		const char *name;

		*cs = (struct rp_code_sect){ sh.sh_addr, sh.sh_addr + size,
					     (int64_t)(sh.sh_offset - sh.sh_addr), "" };
		if (elf_getshdrstrndx(elf, &shstrndx) == 0 &&
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)))
			snprintf(cs->name, sizeof(cs->name), "%s", name);
		if (!found && off >= sh.sh_offset && off - sh.sh_offset < size) {
			code->vaddr = sh.sh_addr + (off - sh.sh_offset);
			found = 1;
		}
	}
	if (!found) {
		*why = "no executable section of its ELF file holds it (a debug-only file?)";
		goto out;
	}
	/*
	 * The range may run on into the next executable sections (a symbol
	 * without size, such as _init, ends where the next one starts, and
	 * objdump disassembles each section it crosses): the bytes of every
	 * section in it, the gaps between them left zero and never decoded
	 * (rp_disasm_next() skips them).
	 */
	uint64_t n = len < max_len ? len : max_len;
	if (n > UINT64_MAX - code->vaddr)
		n = UINT64_MAX - code->vaddr;
	uint64_t last = code->vaddr;
	for (size_t i = 0; i < code->nr_sects; i++) {
		const struct rp_code_sect *s = &code->sects[i];
		if (s->hi > code->vaddr && s->lo < code->vaddr + n && s->hi > last)
			last = s->hi < code->vaddr + n ? s->hi : code->vaddr + n;
	}
	n = last - code->vaddr;
	code->bytes = calloc(1, n ? n : 1);
	if (!code->bytes) {
		*why = "out of memory";
		goto out;
	}
	code->len = n;
	for (size_t i = 0; i < code->nr_sects; i++) {
		const struct rp_code_sect *s = &code->sects[i];
		uint64_t lo = s->lo > code->vaddr ? s->lo : code->vaddr;
		uint64_t hi = s->hi < code->vaddr + n ? s->hi : code->vaddr + n;

		if (lo >= hi)
			continue;
		if (pread(fd, code->bytes + (lo - code->vaddr), hi - lo,
			  (off_t)((int64_t)lo + s->delta)) != (ssize_t)(hi - lo)) {
			*why = "cannot read its code";
			goto out;
		}
	}
	ret = 0;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	if (ret < 0) {
		free(code->bytes);
		free(code->sects);
		code->bytes = NULL;
		code->sects = NULL;
		code->nr_sects = 0;
		code->len = 0;
	}
	return ret;
}

#ifndef RP_HAVE_CAPSTONE

int rp_disasm_lib_load(struct rp_disasm_lib **out, struct rp_error *err)
{
	*out = NULL;
	return rp_error_set(err, RP_ERR_UNSUPPORTED,
			    "readperf was built without capstone (apt-get install libcapstone-dev,"
			    " then rebuild)");
}

void rp_disasm_lib_free(struct rp_disasm_lib *lib)
{
	(void)lib;
}

int rp_disasm_new(struct rp_disasm **out, const struct rp_disasm_lib *lib,
		  const struct rp_code *code, const char **why)
{
	(void)lib, (void)code;
	*out = NULL;
	*why = "readperf was built without capstone";
	return -1;
}

void rp_disasm_free(struct rp_disasm *d)
{
	(void)d;
}

int rp_disasm_next(struct rp_disasm *d, const struct rp_code *code, size_t *pos,
		   struct rp_insn *insn, rp_disasm_namer namer, void *ctx)
{
	(void)d, (void)code, (void)pos, (void)insn, (void)namer, (void)ctx;
	return 0;
}

#else

#ifndef RP_CAPSTONE_SONAME
#define RP_CAPSTONE_SONAME "libcapstone.so.4"
#endif
#ifndef RP_CAPSTONE_PACKAGE
#define RP_CAPSTONE_PACKAGE "libcapstone4"
#endif

/* Every capstone function this file calls: one X(name) each. */
#define RP_CS_FUNCS(X)                                                                      \
	X(cs_close) X(cs_disasm_iter) X(cs_free) X(cs_insn_name) X(cs_malloc) X(cs_open)    \
	X(cs_option)

/* The loaded library and its functions, each member named as the function
 * and of its type in capstone.h (lib->cs_open(arch, mode, &h)). */
struct rp_disasm_lib {
	void *handles[1];
#define RP_CS_MEMBER(f) __typeof__(f) *f;
	RP_CS_FUNCS(RP_CS_MEMBER)
#undef RP_CS_MEMBER
};

static const struct rp_dl_lib rp_cs_libs[] = {
	{ RP_CAPSTONE_SONAME, "the capstone disassembler", RP_CAPSTONE_PACKAGE },
};
#define RP_CS_SYM(f) RP_DL_SYM(struct rp_disasm_lib, 0, f)
static const struct rp_dl_sym rp_cs_syms[] = { RP_CS_FUNCS(RP_CS_SYM) };
#undef RP_CS_SYM
static const struct rp_dl_set rp_cs_set = { rp_cs_libs, 1, rp_cs_syms,
					    sizeof(rp_cs_syms) / sizeof(rp_cs_syms[0]) };

int rp_disasm_lib_load(struct rp_disasm_lib **out, struct rp_error *err)
{
	struct rp_disasm_lib *lib = calloc(1, sizeof(*lib));
	int ret;

	*out = NULL;
	if (!lib)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if ((ret = rp_dl_load(&rp_cs_set, lib->handles, lib, err)) < 0) {
		free(lib);
		return ret;
	}
	*out = lib;
	return 0;
}

void rp_disasm_lib_free(struct rp_disasm_lib *lib)
{
	if (!lib)
		return;
	rp_dl_unload(&rp_cs_set, lib->handles);
	free(lib);
}

struct rp_disasm {
	const struct rp_disasm_lib *lib;
	csh cs;
	cs_insn *insn;
	int x86;
	int arm64;
};

int rp_disasm_new(struct rp_disasm **out, const struct rp_disasm_lib *lib,
		  const struct rp_code *code, const char **why)
{
	struct rp_disasm *d;
	cs_arch arch;
	cs_mode mode;

	*out = NULL;
	switch (code->machine) {
	case EM_X86_64:
		arch = CS_ARCH_X86;
		mode = code->is64 ? CS_MODE_64 : CS_MODE_32;
		break;
	case EM_386:
		arch = CS_ARCH_X86;
		mode = CS_MODE_32;
		break;
	case EM_AARCH64:
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
		break;
	default:
		*why = "an architecture readperf does not disassemble";
		return -1;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		*why = "out of memory";
		return -1;
	}
	d->lib = lib;
	if (lib->cs_open(arch, mode, &d->cs) != CS_ERR_OK) {
		free(d);
		*why = "capstone does not decode this architecture";
		return -1;
	}
	d->x86 = arch == CS_ARCH_X86;
	d->arm64 = arch == CS_ARCH_ARM64;
	if (d->x86)
		lib->cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	lib->cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = lib->cs_malloc(d->cs);
	if (!d->insn) {
		lib->cs_close(&d->cs);
		free(d);
		*why = "out of memory";
		return -1;
	}
	*out = d;
	return 0;
}

void rp_disasm_free(struct rp_disasm *d)
{
	if (!d)
		return;
	d->lib->cs_free(d->insn, 1);
	d->lib->cs_close(&d->cs);
	free(d);
}

/* A bounded string builder over rp_insn.text. */
struct sb {
	char *p;
	size_t len, cap;
};

static void sb_putn(struct sb *b, const char *s, size_t n)
{
	if (b->len + 1 >= b->cap)
		return;
	if (n > b->cap - 1 - b->len)
		n = b->cap - 1 - b->len;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_puts(struct sb *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

__attribute__((format(printf, 2, 3))) static void sb_printf(struct sb *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		sb_putn(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* "target <name>" as objdump prints a branch target or address comment. */
static void put_target(struct sb *b, uint64_t target, rp_disasm_namer namer, void *ctx)
{
	char name[160];

	sb_printf(b, "%" PRIx64, target);
	if (namer && namer(ctx, target, name, sizeof(name)))
		sb_printf(b, " <%s>", name);
}

static int is_string_op(unsigned id)
{
	switch (id) {
	case X86_INS_STOSB: case X86_INS_STOSW: case X86_INS_STOSD: case X86_INS_STOSQ:
	case X86_INS_LODSB: case X86_INS_LODSW: case X86_INS_LODSD: case X86_INS_LODSQ:
	case X86_INS_SCASB: case X86_INS_SCASW: case X86_INS_SCASD: case X86_INS_SCASQ:
		return 1;
	}
	return 0;
}

/*
 * capstone's AT&T operands as objdump writes them: no space after a
 * comma, numbers in hex (scale factors and x87 stack registers stay
 * decimal), the scale 1 of an index written, a zero displacement that
 * the encoding holds written as 0x0.
 */
static void x86_operands(struct sb *b, const char *ops, int zero_disp, const cs_x86_op *imm)
{
	int depth = 0, commas_in_paren = 0;

	for (const char *p = ops; *p;) {
		char c = *p;

		/* a negative immediate: objdump writes it in hex at the
		 * operand's size (0xffffffffffffff80 for -0x80 in 8 bytes) */
		if (c == '$' && p[1] == '-' && imm) {
			uint64_t v = (uint64_t)imm->imm;

			if (imm->size && imm->size < 8)
				v &= (UINT64_C(1) << (imm->size * 8)) - 1;
			sb_printf(b, "$0x%" PRIx64, v);
			p += 2;
			while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || *p == 'x')
				p++;
			continue;
		}

		if (c == ',' && p[1] == ' ') {
			sb_putn(b, ",", 1);
			if (depth)
				commas_in_paren++;
			p += 2;
			continue;
		}
		/* AVX-512 masks: objdump writes "%ymm21{%k4}{z}" */
		if (c == ' ' && p[1] == '{') {
			p++;
			continue;
		}
		if (c == '(') {
			/* x87 "%st(1)" keeps its decimal index */
			if (p >= ops + 3 && !strncmp(p - 3, "%st", 3)) {
				const char *e = strchr(p, ')');
				size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
				sb_putn(b, p, n);
				p += n;
				continue;
			}
			/* a memory operand: objdump writes "0x0(" when the
			 * encoding holds a displacement of zero */
			if (zero_disp && (p == ops || p[-1] == ' ' || p[-1] == ',' || p[-1] == ':'))
				sb_puts(b, "0x0");
			depth++;
			commas_in_paren = 0;
			sb_putn(b, p, 1);
			p++;
			continue;
		}
		if (c == ')') {
			if (commas_in_paren == 1)
				sb_puts(b, ",1");
			depth = depth ? depth - 1 : 0;
			sb_putn(b, p, 1);
			p++;
			continue;
		}
		if (c == ',' && depth)
			commas_in_paren++;
		if (c >= '0' && c <= '9' &&
		    (p == ops || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
				   (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '_'))) {
			const char *e = p;

			if (p[0] == '0' && p[1] == 'x') {
				e = p + 2;
				while ((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'f'))
					e++;
				sb_putn(b, p, (size_t)(e - p));
			} else {
				unsigned long long v = 0;

				while (*e >= '0' && *e <= '9')
					v = v * 10 + (unsigned)(*e++ - '0');
				if (depth && commas_in_paren == 2)
					sb_putn(b, p, (size_t)(e - p)); /* the scale */
				else
					sb_printf(b, "0x%llx", v);
			}
			p = e;
			continue;
		}
		sb_putn(b, p, 1);
		p++;
	}
}

static void x86_format(struct rp_disasm *d, const cs_insn *in, struct sb *b,
		       rp_disasm_namer namer, void *ctx)
{
	const cs_x86 *x = &in->detail->x86;
	const char *mn = in->mnemonic;
	const char *base = d->lib->cs_insn_name(d->cs, in->id);
	const char *sp = strrchr(mn, ' ');
	char prefix[32] = "", core[32], full[72];
	int has_reg = 0, is_branch = 0, rip_rel = 0, zero_disp = 0;
	int64_t rip_disp = 0;
	const cs_x86_op *imm = NULL;

	if (sp && (size_t)(sp - mn) < sizeof(prefix)) {
		memcpy(prefix, mn, (size_t)(sp - mn));
		prefix[sp - mn] = '\0';
		mn = sp + 1;
	}
	snprintf(core, sizeof(core), "%s", mn);
	for (uint8_t i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type == X86_OP_REG)
			has_reg = 1;
		if (op->type == X86_OP_IMM && !imm)
			imm = op;
		if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP) {
			rip_rel = 1;
			rip_disp = op->mem.disp;
		}
		if (op->type == X86_OP_MEM && op->mem.disp == 0 && op->mem.base != X86_REG_RIP) {
			unsigned mod = (unsigned)x->modrm >> 6;
			/* disp8 or disp32 encoded, or an index without a base
			 * (SIB base 5 with mod 0: a disp32) */
			if ((mod == 1 || mod == 2) ||
			    (op->mem.base == X86_REG_INVALID && op->mem.index != X86_REG_INVALID))
				zero_disp = 1;
		}
	}
	for (uint8_t g = 0; g < in->detail->groups_count; g++) {
		uint8_t grp = in->detail->groups[g];
		if (grp == CS_GRP_JUMP || grp == CS_GRP_CALL || grp == CS_GRP_RET ||
		    grp == CS_GRP_IRET)
			is_branch = 1;
	}
	size_t cl = strlen(core), bl = base ? strlen(base) : 0;
	int suffixed = base && cl == bl + 1 && !strncmp(core, base, bl) && strchr("bwlq", core[bl]);
	/*
	 * objdump drops the operand-size suffix where a register operand
	 * tells the size, and on the instructions whose size the 64-bit
	 * mode fixes (branches, push, pop, leave).
	 */
	if (suffixed && (has_reg || is_branch || in->id == X86_INS_PUSH || in->id == X86_INS_POP ||
			 in->id == X86_INS_LEAVE))
		core[bl] = '\0';
	else if (is_string_op(in->id) && cl > 1 &&
		 (strstr(in->op_str, "%al") || strstr(in->op_str, "%ax") ||
		  strstr(in->op_str, "%eax") || strstr(in->op_str, "%rax")))
		core[cl - 1] = '\0';
	/* capstone 4 spells the 64-bit GPR <-> xmm move (66 REX.W 0f 6e/7e)
	 * movd, objdump movq */
	if (!strcmp(core, "movd") && base && !strcmp(base, "movq"))
		snprintf(core, sizeof(core), "movq");
	/* 66 90 is objdump's "xchg %ax,%ax" */
	if (in->id == X86_INS_NOP && in->size == 2 && in->bytes[0] == 0x66 && in->bytes[1] == 0x90) {
		sb_puts(b, "xchg   %ax,%ax");
		return;
	}

	const char *ops = in->op_str;
	/* objdump writes a segment override that does nothing (the cs of
	 * the long nops) as a prefix, and each 0x66 beyond the one that
	 * makes the nop a nopw as "data16" */
	if (!strncmp(core, "nop", 3) && !strncmp(ops, "%cs:", 4)) {
		size_t n66 = 0;

		while (n66 < in->size && in->bytes[n66] == 0x66)
			n66++;
		for (size_t i = 1; i < n66 && strlen(prefix) + 8 < sizeof(prefix); i++)
			snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix), "%sdata16",
				 prefix[0] ? " " : "");
		snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix), "%scs",
			 prefix[0] ? " " : "");
		ops += 4;
	}
	/* the string instructions (a4-a7, aa-af): objdump names the implicit
	 * segments of their memory operands */
	char strops[128];
	if (x->opcode[0] >= 0xa4 && x->opcode[0] <= 0xaf && x->opcode[0] != 0xa8 &&
	    x->opcode[0] != 0xa9) {
		struct sb t = { strops, 0, sizeof(strops) };

		strops[0] = '\0';
		for (const char *p = ops; *p;) {
			if (!strncmp(p, "(%rsi)", 6) || !strncmp(p, "(%esi)", 6)) {
				if (p == ops || p[-1] != ':')
					sb_puts(&t, "%ds:");
			} else if (!strncmp(p, "(%rdi)", 6) || !strncmp(p, "(%edi)", 6)) {
				if (p == ops || p[-1] != ':')
					sb_puts(&t, "%es:");
			}
			sb_putn(&t, p, 1);
			p++;
		}
		ops = strops;
	}
	/*
	 * x87 register forms (d8-df with ModRM mod 3): objdump writes the
	 * implicit %st, capstone 4 leaves it out ("fadd %st(2)") or writes
	 * %st(0): st(i) op st for d8, da, db, df; st op st(i) for dc, de.
	 */
	char x87[64];
	uint8_t opc = x->opcode[0];
	if (opc >= 0xd8 && opc <= 0xdf && opc != 0xd9 && opc != 0xdd && (x->modrm >> 6) == 3 &&
	    !(opc == 0xdf && (x->modrm & 0xf8) == 0xc0) /* ffreep */ &&
	    !strncmp(ops, "%st", 3) && strlen(ops) < 24) {
		const char *two = strstr(ops, ", ");

		if (!two && (opc == 0xdc || opc == 0xde))
			snprintf(x87, sizeof(x87), "%%st, %.24s", ops);
		else if (!two)
			snprintf(x87, sizeof(x87), "%.24s, %%st", ops);
		else if (!strncmp(ops, "%st(0), ", 8))
			snprintf(x87, sizeof(x87), "%%st, %.24s", ops + 8);
		else if (!strcmp(two, ", %st(0)"))
			snprintf(x87, sizeof(x87), "%.*s, %%st", (int)(two - ops), ops);
		else
			snprintf(x87, sizeof(x87), "%.24s", ops);
		ops = x87;
	}
	/* the one-byte xchg with the accumulator (91-97): objdump writes
	 * the accumulator first, capstone 4 last */
	char swapped[64];
	const char *comma = strstr(ops, ", ");
	if (x->opcode[0] >= 0x91 && x->opcode[0] <= 0x97 && comma &&
	    strlen(ops) + 1 < sizeof(swapped)) {
		snprintf(swapped, sizeof(swapped), "%s, %.*s", comma + 2, (int)(comma - ops), ops);
		ops = swapped;
	}
	/* CET's notrack (a 3e prefix on an indirect jmp or call, ff /2 or
	 * /4): objdump writes it as a prefix, capstone 4 drops it */
	if (x->opcode[0] == 0xff && (((x->modrm >> 3) & 7) == 2 || ((x->modrm >> 3) & 7) == 4)) {
		for (size_t i = 0; i < in->size && i < 4; i++) {
			uint8_t c = in->bytes[i];

			if (c == 0x3e) {
				snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix),
					 "%snotrack", prefix[0] ? " " : "");
				break;
			}
			if (c != 0x66 && c != 0x67 && c != 0xf2 && c != 0xf3 && c != 0x2e &&
			    c != 0x36 && c != 0x26 && c != 0x64 && c != 0x65)
				break;
		}
	}
	/* the shift-by-one encodings (D0, D1) show no count in objdump */
	if ((x->opcode[0] == 0xd0 || x->opcode[0] == 0xd1) && !strncmp(ops, "$1, ", 4))
		ops += 4;
	snprintf(full, sizeof(full), "%s%s%s", prefix, prefix[0] ? " " : "", core);
	if (!*ops) {
		sb_puts(b, full);
		return;
	}
	sb_printf(b, "%-6s ", full);
	if (is_branch && x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
		put_target(b, (uint64_t)x->operands[0].imm, namer, ctx);
		return;
	}
	x86_operands(b, ops, zero_disp, imm);
	if (rip_rel) {
		sb_puts(b, "        # ");
		put_target(b, in->address + in->size + (uint64_t)rip_disp, namer, ctx);
	}
}

static void arm64_format(const cs_insn *in, struct sb *b, rp_disasm_namer namer, void *ctx)
{
	const cs_arm64 *a = &in->detail->arm64;
	int is_branch = 0;

	for (uint8_t g = 0; g < in->detail->groups_count; g++)
		if (in->detail->groups[g] == CS_GRP_JUMP || in->detail->groups[g] == CS_GRP_CALL)
			is_branch = 1;
	if (!in->op_str[0]) {
		sb_puts(b, in->mnemonic);
		return;
	}
	sb_printf(b, "%-6s ", in->mnemonic);
	/* a direct branch: its last operand is the target, written as
	 * objdump writes it */
	if (is_branch && a->op_count && a->operands[a->op_count - 1].type == ARM64_OP_IMM) {
		const char *hash = strrchr(in->op_str, '#');
		if (hash) {
			sb_putn(b, in->op_str, (size_t)(hash - in->op_str));
			put_target(b, (uint64_t)a->operands[a->op_count - 1].imm, namer, ctx);
			return;
		}
	}
	sb_puts(b, in->op_str);
}

/*
 * The length of a VEX (c4, c5) or EVEX (62) encoded x86 instruction at p,
 * from its encoding alone, or 0: capstone 4 does not know the AVX-512
 * BW/DQ instructions (kmovd, vpcmpb, vptestnmb, ... of glibc's *_evex
 * string functions), and without their length the instructions after
 * them would be decoded out of step.  Intel SDM vol. 2, 2.3 (VEX) and
 * 2.7 (EVEX): prefix, opcode, ModRM, SIB, displacement, imm8 (opcode
 * map 0F3A, and 0F 70-73, c2, c4-c6).
 */
static size_t x86_vex_length(const uint8_t *p, size_t n, int is64)
{
	size_t i = 0, map, op_at;

	while (i < n && i < 4 &&
	       (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xf2 || p[i] == 0xf3 || p[i] == 0x2e ||
		p[i] == 0x36 || p[i] == 0x3e || p[i] == 0x26 || p[i] == 0x64 || p[i] == 0x65))
		i++;
	if (i + 3 > n)
		return 0;
	if (!is64 && (p[i + 1] & 0xc0) != 0xc0)
		return 0; /* LES, LDS, BOUND in 32-bit code */
	if (p[i] == 0xc5) {
		map = 1;
		op_at = i + 2;
	} else if (p[i] == 0xc4) {
		map = p[i + 1] & 0x1f;
		op_at = i + 3;
	} else if (p[i] == 0x62) {
		map = p[i + 1] & 0x07;
		op_at = i + 4;
	} else {
		return 0;
	}
	if (map < 1 || map > 3 || op_at + 2 > n)
		return 0;
	uint8_t op = p[op_at], modrm = p[op_at + 1];
	size_t len = op_at + 2;
	unsigned mod = modrm >> 6, rm = modrm & 7;

	if (map == 1 && op == 0x77)
		return op_at + 1; /* vzeroupper, vzeroall: no ModRM */
	if (mod != 3 && rm == 4) {
		if (len >= n)
			return 0;
		if (mod == 0 && (p[len] & 7) == 5)
			len += 4;
		len++;
	}
	if (mod == 1)
		len += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		len += 4;
	if (map == 3 || (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 ||
				      (op >= 0xc4 && op <= 0xc6))))
		len += 1;
	return len <= n ? len : 0;
}

/*
 * The bytes from *pos to the end of the executable section holding it, as
 * objdump decodes no instruction across a section's end; a *pos in a gap
 * between sections moves on to the next section's start.  0 at the end.
 */
static size_t code_left(const struct rp_code *code, size_t *pos)
{
	while (*pos < code->len) {
		uint64_t addr = code->vaddr + *pos, next = code->vaddr + code->len;

		for (size_t i = 0; i < code->nr_sects; i++) {
			const struct rp_code_sect *s = &code->sects[i];

			if (addr >= s->lo && addr < s->hi) {
				uint64_t end = s->hi < next ? s->hi : next;
				return (size_t)(end - addr);
			}
			if (s->lo > addr && s->lo < next)
				next = s->lo;
		}
		*pos = (size_t)(next - code->vaddr);
	}
	return 0;
}

int rp_disasm_next(struct rp_disasm *d, const struct rp_code *code, size_t *pos,
		   struct rp_insn *insn, rp_disasm_namer namer, void *ctx)
{
	struct sb b = { insn->text, 0, sizeof(insn->text) };

	size_t left = code_left(code, pos);

	if (!left)
		return 0;
	const uint8_t *p = code->bytes + *pos;
	uint64_t addr = code->vaddr + *pos;

	insn->text[0] = '\0';
	insn->addr = addr;
	if (!d->lib->cs_disasm_iter(d->cs, &p, &left, &addr, d->insn)) {
		size_t vex = d->x86 ? x86_vex_length(p, left, code->is64) : 0;

		/* 0f 01 ee/ef: rdpkru, wrpkru, unknown to capstone 4 */
		if (d->x86 && left >= 3 && p[0] == 0x0f && p[1] == 0x01 &&
		    (p[2] == 0xee || p[2] == 0xef)) {
			insn->size = 3;
			sb_puts(&b, p[2] == 0xee ? "rdpkru" : "wrpkru");
			*pos += 3;
			return 1;
		}

		if (vex) {
			/* known length, unknown name: the bytes, as data */
			insn->size = (uint32_t)vex;
			sb_puts(&b, ".byte  ");
			for (size_t i = 0; i < vex; i++)
				sb_printf(&b, "%s0x%02x", i ? "," : "", p[i]);
			*pos += vex;
			return 1;
		}
		/* objdump shows an undecodable byte as "(bad)" */
		insn->size = d->arm64 && left >= 4 ? 4 : 1;
		sb_puts(&b, d->arm64 ? ".inst" : "(bad)");
		*pos += insn->size;
		return 1;
	}
	insn->size = d->insn->size;
	/*
	 * objdump reads 9b (wait) followed by fnstcw, fnstsw, fnstenv,
	 * fnsave, fnclex, fninit as one instruction, the waiting form
	 * (fstcw, ...); capstone 4 as two.  A lone 9b is objdump's fwait.
	 */
	if (d->x86 && d->insn->id == X86_INS_WAIT) {
		const uint8_t *q = p;
		size_t qleft = left;
		uint64_t qaddr = addr;
		static const char *const waiting[] = { "fnstcw", "fnstsw", "fnstenv", "fnsave",
						       "fnclex", "fninit" };

		if (d->lib->cs_disasm_iter(d->cs, &q, &qleft, &qaddr, d->insn))
			for (size_t i = 0; i < sizeof(waiting) / sizeof(waiting[0]); i++)
				if (!strcmp(d->insn->mnemonic, waiting[i])) {
					char name[16];

					snprintf(name, sizeof(name), "f%s", waiting[i] + 2);
					snprintf(d->insn->mnemonic, sizeof(d->insn->mnemonic), "%s", name);
					insn->size += d->insn->size;
					x86_format(d, d->insn, &b, namer, ctx);
					*pos += insn->size;
					return 1;
				}
		sb_puts(&b, "fwait");
		*pos += insn->size;
		return 1;
	}
	if (d->x86)
		x86_format(d, d->insn, &b, namer, ctx);
	else
		arm64_format(d->insn, &b, namer, ctx);
	*pos += insn->size;
	return 1;
}

#endif
