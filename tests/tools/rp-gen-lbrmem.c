/* SPDX-License-Identifier: MIT */
/*
 * rp-gen-lbrmem: writes perf.data files of the kinds no machine here can
 * record (no PMU in these virtual machines), for comparing readperf with
 * perf on them (tests/diff/run_memkeys.sh, run_branchkeys.sh).
 *
 *   rp-gen-lbrmem mem    OUT BINARY [SEED]
 *   rp-gen-lbrmem mem-raw OUT BINARY [SEED]
 *   rp-gen-lbrmem branch OUT BINARY [SEED]
 *   rp-gen-lbrmem branch-g OUT BINARY [SEED]
 *
 * Two processes map BINARY (an ELF executable of the test: its PT_LOAD
 * segments, as the loader maps them) so that sampled addresses resolve
 * to its functions and data objects; they also have a heap, a shared
 * memory map and addresses no map covers.
 *
 *   mem:      perf mem record's sample layout (IP, TID, TIME, ADDR, CPU,
 *             PERIOD, WEIGHT, DATA_SRC, PHYS_ADDR, DATA_PAGE_SIZE): data
 *             addresses in the binary's objects and functions, the heap,
 *             the shared map, nowhere, the kernel; data_src values of
 *             every PERF_MEM_* field (perf_event.h's union
 *             perf_mem_data_src), weights, physical addresses, page sizes.
 *   mem-raw:  the same samples from a PMU event (attr type PERF_TYPE_RAW,
 *             as perf mem record's cpu/mem-loads/ and every named core
 *             event of x86 write it), with WEIGHT_STRUCT (weight and
 *             instruction latency) in place of WEIGHT and CODE_PAGE_SIZE:
 *             perf script's default fields of raw events print them.
 *   branch:   an LBR recording (BRANCH_STACK with the BRANCH_STACK
 *             header feature, as perf record -b writes it): branches
 *             between the binary's functions (at offsets inside them),
 *             to and from unmapped and kernel addresses, with every
 *             flag (mispred, predicted, in_tx, abort, cycles).
 *   branch-g: the same with call stacks (perf record -b -g).
 *
 * Deterministic for a SEED (default 1).  Format: perf_event.h
 * (PERF_RECORD_MMAP2, PERF_RECORD_COMM, PERF_SAMPLE_*), the builder's
 * file layout (tests/unit/builder.h).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "builder.h"

#define MAX_SYMS 4096
#define MAX_SEGS 16
/* Where the binary is mapped when it is position independent. */
#define PIE_BASE 0x555555554000ull
#define HEAP_START 0x555556000000ull
#define HEAP_LEN 0x21000ull
#define SHM_START 0x7f0000000000ull
#define SHM_LEN 0x10000ull
#define KERNEL_ADDR 0xffffffff81000000ull

struct sym {
	uint64_t addr, size; /* runtime address, bytes */
	int is_func;
};

struct seg {
	uint64_t vaddr, memsz, offset;
	uint32_t flags; /* PF_* */
};

static struct sym syms[MAX_SYMS];
static size_t nr_syms, nr_funcs, nr_objs;
static struct seg segs[MAX_SEGS];
static size_t nr_segs;
static uint64_t base;
static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static uint64_t pick(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static void die(const char *msg)
{
	fprintf(stderr, "rp-gen-lbrmem: %s\n", msg);
	exit(2);
}

static void load_binary(const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	GElf_Ehdr eh;
	size_t n;

	if (fd < 0)
		die("cannot open the binary");
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &eh))
		die("not an ELF file");
	base = eh.e_type == ET_DYN ? PIE_BASE : 0;
	if (elf_getphdrnum(elf, &n) != 0)
		die("no program headers");
	for (size_t i = 0; i < n && nr_segs < MAX_SEGS; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			segs[nr_segs++] = (struct seg){ ph.p_vaddr, ph.p_memsz, ph.p_offset, ph.p_flags };
	}
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize && nr_syms < MAX_SYMS; i++) {
			GElf_Sym s;

			if (!gelf_getsym(d, (int)i, &s) || !s.st_size || s.st_shndx == SHN_UNDEF ||
			    s.st_shndx >= SHN_LORESERVE)
				continue;
			int t = GELF_ST_TYPE(s.st_info);

			if (t != STT_FUNC && t != STT_OBJECT)
				continue;
			syms[nr_syms++] = (struct sym){ base + s.st_value, s.st_size, t == STT_FUNC };
		}
	}
	/* functions first, then objects */
	for (size_t i = 0; i < nr_syms; i++)
		nr_funcs += syms[i].is_func;
	nr_objs = nr_syms - nr_funcs;
	for (size_t i = 0, j = 0; i < nr_syms; i++)
		if (syms[i].is_func) {
			struct sym t = syms[j];

			syms[j++] = syms[i];
			syms[i] = t;
		}
	if (!nr_funcs || !nr_segs)
		die("the binary has no functions or no PT_LOAD");
	elf_end(elf);
	close(fd);
}

static uint64_t func_addr(void)
{
	const struct sym *s = &syms[pick(nr_funcs > 12 ? 12 : nr_funcs)];

	return s->addr + pick(s->size);
}

static uint64_t obj_addr(void)
{
	if (!nr_objs)
		return HEAP_START + 0x40;
	const struct sym *s = &syms[nr_funcs + pick(nr_objs > 10 ? 10 : nr_objs)];

	return s->addr + pick(s->size);
}

static struct rp_attr attr;
static struct tb_file file;

static void sid_of(struct tb_sample *s, uint32_t pid, uint64_t time)
{
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = pid;
	s->time = time;
	s->cpu = pid & 1;
}

static void comm(uint32_t pid, const char *name, uint64_t time)
{
	struct tb_buf *b = &file.data;
	struct tb_sample sid;
	size_t at = tb_rec_begin(b, RP_RECORD_COMM, RP_MISC_COMM_EXEC);

	tb_u32(b, pid);
	tb_u32(b, pid);
	tb_str(b, name, 8);
	sid_of(&sid, pid, time);
	tb_sample_id(b, &attr, &sid);
	tb_rec_end(b, at);
}

static void mmap2(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, uint32_t maj,
		  uint32_t min, uint64_t ino, uint32_t prot, uint32_t flags, const char *name,
		  uint64_t time)
{
	struct tb_buf *b = &file.data;
	struct tb_sample sid;
	size_t at = tb_rec_begin(b, RP_RECORD_MMAP2, RP_MISC_USER);

	tb_u32(b, pid);
	tb_u32(b, pid);
	tb_u64(b, start);
	tb_u64(b, len);
	tb_u64(b, pgoff);
	tb_u32(b, maj);
	tb_u32(b, min);
	tb_u64(b, ino);
	tb_u64(b, 0); /* ino_generation */
	tb_u32(b, prot);
	tb_u32(b, flags);
	tb_str(b, name, 8);
	sid_of(&sid, pid, time);
	tb_sample_id(b, &attr, &sid);
	tb_rec_end(b, at);
}

/* The process: its comm, the binary's segments, a heap, a shared map. */
static void process(uint32_t pid, const char *name, const char *binary, uint64_t time)
{
	struct stat st;

	if (stat(binary, &st) != 0)
		die("cannot stat the binary");
	comm(pid, name, time);
	for (size_t i = 0; i < nr_segs; i++) {
		uint64_t start = (base + segs[i].vaddr) & ~0xfffull;
		uint64_t end = (base + segs[i].vaddr + segs[i].memsz + 0xfff) & ~0xfffull;
		uint32_t prot = 1 /* PROT_READ */ | ((segs[i].flags & PF_W) ? 2 : 0) |
				((segs[i].flags & PF_X) ? 4 : 0);

		mmap2(pid, start, end - start, segs[i].offset & ~0xfffull, major(st.st_dev),
		      minor(st.st_dev), st.st_ino, prot, 2 /* MAP_PRIVATE */, binary, time);
	}
	mmap2(pid, HEAP_START, HEAP_LEN, 0, 0, 0, 0, 3, 0x22, "[heap]", time);
	mmap2(pid, SHM_START, SHM_LEN, 0, 0, 0x17, 0x4242, 3, 1 /* MAP_SHARED */,
	      "/dev/shm/rp-gen-shm", time);
}

/* perf_event.h's union perf_mem_data_src, one value. */
static uint64_t data_src(void)
{
	static const uint64_t ops[] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x02 | 0x04 };
	/* PERF_MEM_LVL_*: NA, HIT|L1, HIT|LFB, HIT|L2, HIT|L3, MISS|L3,
	 * HIT|LOC_RAM, HIT|REM_RAM1, HIT|REM_RAM2, HIT|REM_CCE1, HIT|REM_CCE2,
	 * HIT|IO, HIT|UNC, MISS|L1|L2, 0 */
	static const uint64_t lvls[] = { 0x1,    0x2 | 0x8,    0x2 | 0x10,  0x2 | 0x20,
					 0x2 | 0x40, 0x4 | 0x40, 0x2 | 0x80, 0x2 | 0x100,
					 0x2 | 0x200, 0x2 | 0x400, 0x2 | 0x800, 0x2 | 0x1000,
					 0x2 | 0x2000, 0x4 | 0x8 | 0x20, 0 };
	/* PERF_MEM_SNOOP_*: NA, NONE, HIT, MISS, HITM, HIT|HITM, 0 */
	static const uint64_t snoops[] = { 0x1, 0x2, 0x4, 0x8, 0x10, 0x4 | 0x10, 0 };
	/* PERF_MEM_TLB_*: NA, HIT|L1, HIT|L2, MISS|WK, MISS|OS, HIT|L1|L2, 0 */
	static const uint64_t tlbs[] = { 0x1, 0x2 | 0x8, 0x2 | 0x10, 0x4 | 0x20, 0x4 | 0x40,
					 0x2 | 0x8 | 0x10, 0 };
	uint64_t v = 0;

	v |= ops[pick(6)];
	v |= lvls[pick(15)] << 5;
	v |= snoops[pick(7)] << 19;
	v |= (uint64_t)pick(4) << 24;      /* lock: 0, NA, LOCKED, both */
	v |= tlbs[pick(7)] << 26;
	if (pick(3) == 0)
		v |= (uint64_t)(1 + pick(14)) << 33; /* lvl_num 1..0xe */
	if (pick(4) == 0)
		v |= 1ull << 37; /* remote */
	if (pick(4) == 0)
		v |= (uint64_t)(1 + pick(3)) << 38; /* snoopx: FWD, PEER */
	v |= (uint64_t)pick(8) << 40; /* blk: NA, DATA, ADDR */
	if (pick(5) == 0)
		v |= (uint64_t)(1 + pick(4)) << 43; /* hops */
	return v;
}

static uint64_t data_addr(void)
{
	switch (pick(10)) {
	case 0: case 1: case 2: case 3:
		return obj_addr();
	case 4:
		return func_addr();
	case 5:
		return HEAP_START + pick(HEAP_LEN);
	case 6:
		return SHM_START + pick(SHM_LEN);
	case 7:
		return 0x1000 + pick(0x1000); /* no map */
	case 8:
		return KERNEL_ADDR + pick(0x100000);
	default:
		return 0;
	}
}

static void gen_mem(uint32_t pid, uint64_t *time)
{
	struct tb_sample s;

	sid_of(&s, pid, *time);
	s.ip = func_addr();
	s.period = 1000 + pick(3);
	s.addr = data_addr();
	s.weight = pick(4) == 0 ? 0 : 1 + pick(400);
	s.data_src = data_src();
	s.phys_addr = pick(3) == 0 ? 0 : (0x100000000ull + pick(1u << 30)) & ~0x7ull;
	static const uint64_t pages[] = { 0, 4096, 2u << 20, 1u << 30 };
	s.data_page_size = pages[pick(4)];
	s.code_page_size = pages[pick(4)];
	if (attr.sample_type & RP_SAMPLE_WEIGHT_STRUCT) /* var1_dw, var2_w (ins_lat), var3_w */
		s.weight |= (uint64_t)pick(300) << 32 | (uint64_t)pick(7) << 48;
	uint16_t misc = RP_MISC_USER;

	if (pick(12) == 0) {
		misc = RP_MISC_KERNEL;
		s.ip = KERNEL_ADDR + pick(0x100000);
	}
	tb_sample(&file.data, &attr, misc, &s);
	*time += 1000 + pick(100000);
}

static uint64_t branch_addr(void)
{
	switch (pick(12)) {
	case 0:
		return 0;
	case 1:
		return KERNEL_ADDR + pick(0x1000);
	case 2:
		return 0x2000 + pick(0x100); /* no map */
	default:
		return func_addr();
	}
}

static void gen_branch(uint32_t pid, uint64_t *time, int with_chain)
{
	struct rp_branch_entry br[8];
	uint64_t chain[4];
	struct tb_sample s;
	size_t n = pick(9); /* 0 .. 8 entries */

	sid_of(&s, pid, *time);
	s.ip = func_addr();
	s.period = 100000 + pick(5);
	for (size_t i = 0; i < n; i++) {
		uint64_t f = 0;

		br[i].from = branch_addr();
		br[i].to = branch_addr();
		switch (pick(4)) {
		case 0: f |= 1; break;       /* mispred */
		case 1: f |= 2; break;       /* predicted */
		case 2: f |= 3; break;       /* both */
		default: break;
		}
		if (pick(5) == 0)
			f |= 4; /* in_tx */
		if (pick(7) == 0)
			f |= 8; /* abort */
		if (pick(3))
			f |= (uint64_t)pick(40) << 4; /* cycles */
		f |= (uint64_t)pick(16) << 20;        /* type */
		br[i].flags = f;
	}
	s.branch_nr = n;
	s.branches = br;
	if (with_chain) {
		chain[0] = 0xfffffffffffffe00ull; /* PERF_CONTEXT_USER */
		chain[1] = s.ip;
		chain[2] = func_addr();
		chain[3] = func_addr();
		s.callchain_nr = 4;
		s.callchain = chain;
	}
	tb_sample(&file.data, &attr, RP_MISC_USER, &s);
	*time += 1000 + pick(100000);
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: rp-gen-lbrmem mem|mem-raw|branch|branch-g OUT BINARY [SEED]\n");
		return 2;
	}
	const char *kind = argv[1];
	int raw = !strcmp(kind, "mem-raw");
	int mem = raw || !strcmp(kind, "mem");
	int chain = !strcmp(kind, "branch-g");

	if (!mem && strcmp(kind, "branch") && !chain)
		die("kind must be mem, mem-raw, branch or branch-g");
	rng_state = argc == 5 ? strtoull(argv[4], NULL, 0) : 1;
	if (!rng_state)
		rng_state = 1;
	load_binary(argv[3]);

	tb_file_init(&file, 0);
	if (mem) {
		attr = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ADDR |
				       RP_SAMPLE_CPU | RP_SAMPLE_PERIOD | RP_SAMPLE_WEIGHT |
				       RP_SAMPLE_DATA_SRC | RP_SAMPLE_PHYS_ADDR |
				       RP_SAMPLE_DATA_PAGE_SIZE);
		if (raw) {
			attr.sample_type ^= RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT |
					    RP_SAMPLE_CODE_PAGE_SIZE;
			attr.type = RP_TYPE_RAW;
			attr.config = 0x1cd; /* x86's MEM_TRANS_RETIRED.LOAD_LATENCY */
			attr.flags &= ~RP_ATTR_FREQ;
			attr.sample_period = 10009;
		}
	} else {
		attr = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_CPU |
				       RP_SAMPLE_PERIOD | RP_SAMPLE_BRANCH_STACK |
				       (chain ? RP_SAMPLE_CALLCHAIN : 0));
		attr.branch_sample_type = 0x8 /* PERF_SAMPLE_BRANCH_ANY */ | 0x1 /* USER */;
		tb_file_feat(&file, RP_FEAT_BRANCH_STACK);
	}
	/* perf 6.1 refuses attrs of 136 bytes: write perf 6.1's own size. */
	attr.size = 128;
	uint64_t id = 7;
	tb_file_attr(&file, &attr, &id, 1);

	uint64_t t = 1000000000ull;
	process(1000, "wl-main", argv[3], t);
	process(1001, "wl-other", argv[3], t + 10);
	t += 1000;
	for (int i = 0; i < 400; i++) {
		uint32_t pid = pick(3) ? 1000 : 1001;

		if (mem)
			gen_mem(pid, &t);
		else
			gen_branch(pid, &t, chain);
	}
	struct tb_buf out;

	tb_file_build(&file, &out);
	tb_write_file(&out, argv[2]);
	tb_free(&out);
	tb_file_free(&file);
	return 0;
}
