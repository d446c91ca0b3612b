/* SPDX-License-Identifier: MIT */
/*
 * rp-mkdata KIND OUT: writes a perf.data file (or pipe stream) of one of
 * the kinds below, made with the unit tests' builder (tests/unit/builder.c),
 * for the script tests that compare readperf with perf on files no
 * machine here records.  Each kind says where its layout comes from.
 *
 *   attr-flags   file mode, one cpu-clock attr of 128 bytes (VER7) with the
 *                flags perf 6.1 prints after cgroup (text_poke, build_id,
 *                inherit_thread, remove_on_exec, sigtrap) and sig_data,
 *                in the attr section and in EVENT_DESC.
 *                Format: perf_event.h struct perf_event_attr (bits 33-37,
 *                sig_data at byte 120); perf's header.c write_event_desc.
 *   lost-fork    threads sampled before their first COMM, without FORK
 *                (see mk_lost_fork).
 *   wild-stack   call stacks holding words that are no addresses, as in a
 *                program without frame pointers (see mk_wild_stack).
 *   two-dso      samples and call stacks in two ELF files of this machine,
 *                resolved and unresolved addresses mixed (see mk_two_dso).
 *   mmap2-early  MMAP2 records without prot and flags (Linux 3.12-3.15,
 *                3.10 with MMAP2 backported; see put_mmap2).
 *   mmap2-current  the same records in the layout of Linux 3.16 and later.
 *   pipe-legacy  a pipe stream with its header features as records 69-81
 *                (Google's perf 3.x, ChromeOS quipper; see mk_pipe).
 *   pipe-current the same stream with upstream HEADER_FEATURE records.
 *   bpf-events   KSYMBOL and BPF_EVENT records of BPF programs loaded and
 *                unloaded, samples in them (see mk_bpf_events).
 *   nonelf-frame samples and call stacks in a mapped file that is no ELF
 *                file (see mk_nonelf_frame).
 *
 * Exit status 0, or 2 with a message for an unknown kind.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builder.h"

/* A COMM record (perf_event.h PERF_RECORD_COMM) with its sample_id_all
 * trailer. */
static void put_comm(struct tb_buf *b, const struct rp_attr *a, uint32_t pid, uint32_t tid,
		     const char *comm, uint64_t time, int exec)
{
	struct tb_sample sid = { .pid = pid, .tid = tid, .time = time };
	size_t r = tb_rec_begin(b, RP_RECORD_COMM, exec ? RP_MISC_COMM_EXEC : 0);

	tb_u32(b, pid);
	tb_u32(b, tid);
	tb_str(b, comm, 8);
	tb_sample_id(b, a, &sid);
	tb_rec_end(b, r);
}

/* EVENT_DESC (perf's write_event_desc): nr, attr size, then per event the
 * attr, the number of ids, the name (a perf string) and the ids. */
static void put_event_desc(struct tb_file *f, const char *name)
{
	struct tb_buf *fb = tb_file_feat(f, RP_FEAT_EVENT_DESC);
	const struct tb_file_attr *fa = &f->attrs[0];

	tb_u32(fb, 1);
	tb_u32(fb, fa->attr.size);
	tb_attr(fb, &fa->attr, fa->attr.size);
	tb_u32(fb, (uint32_t)fa->nr_ids);
	tb_feat_string(fb, name);
	for (size_t i = 0; i < fa->nr_ids; i++)
		tb_u64(fb, fa->ids[i]);
}

static void put_common_features(struct tb_file *f)
{
	tb_feat_string(tb_file_feat(f, RP_FEAT_HOSTNAME), "rp-mkdata");
	tb_feat_string(tb_file_feat(f, RP_FEAT_OSRELEASE), "6.1.0-rp");
	tb_feat_string(tb_file_feat(f, RP_FEAT_VERSION), "6.1.0");
	tb_feat_string(tb_file_feat(f, RP_FEAT_ARCH), "x86_64");
}

/* Ends f, a file of one cpu-clock event, with the common features and its
 * EVENT_DESC, built into out; frees f.  Returns 0. */
static int cpu_clock_file_end(struct tb_file *f, struct tb_buf *out)
{
	put_common_features(f);
	put_event_desc(f, "cpu-clock");
	tb_file_build(f, out);
	tb_file_free(f);
	return 0;
}

/* The next value of a fixed LCG (Knuth's MMIX constants), in *x too. */
static uint64_t lcg_next(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x;
}

static int mk_attr_flags(struct tb_buf *out)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_PERIOD);
	uint64_t id = 11;

	a.size = 128;
	a.flags |= RP_ATTR_TEXT_POKE | RP_ATTR_BUILD_ID | RP_ATTR_INHERIT_THREAD |
		   RP_ATTR_REMOVE_ON_EXEC | RP_ATTR_SIGTRAP;
	a.sig_data = 0x1234;
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id, 1);
	put_comm(&f.data, &a, 100, 100, "flags", 1000, 1);
	for (int i = 0; i < 4; i++) {
		struct tb_sample s = { .ip = 0x401000 + 16u * (unsigned)i, .pid = 100, .tid = 100,
				       .time = 2000 + (uint64_t)i, .period = 250000 };

		tb_sample(&f.data, &a, RP_MISC_USER, &s);
	}
	return cpu_clock_file_end(&f, out);
}

/* An MMAP record (perf_event.h PERF_RECORD_MMAP) with its trailer. */
static void put_mmap(struct tb_buf *b, const struct rp_attr *a, uint32_t pid, uint64_t start,
		     uint64_t len, uint64_t pgoff, const char *name, uint64_t time)
{
	struct tb_sample sid = { .pid = pid, .tid = pid, .time = time };
	size_t r = tb_rec_begin(b, RP_RECORD_MMAP, RP_MISC_USER);

	tb_u32(b, pid);
	tb_u32(b, pid);
	tb_u64(b, start);
	tb_u64(b, len);
	tb_u64(b, pgoff);
	tb_str(b, name, 8);
	tb_sample_id(b, a, &sid);
	tb_rec_end(b, r);
}

/* A user-mode sample of period 100000 at ip with the callchain cc[0..n)
 * (perf_event.h PERF_SAMPLE_CALLCHAIN: context markers included). */
static void put_chain_sample(struct tb_buf *b, const struct rp_attr *a, uint32_t pid,
			     uint32_t tid, uint64_t time, uint64_t ip, const uint64_t *cc,
			     uint32_t n)
{
	struct tb_sample s = { .ip = ip, .pid = pid, .tid = tid, .time = time, .period = 100000,
			       .callchain_nr = n, .callchain = cc };

	tb_sample(b, a, RP_MISC_USER, &s);
}

/* A sample with a user call stack of three frames at ip, ip+0x100 (or
 * ip+0x180 for the other caller), ip+0x200. */
static void put_cc_sample(struct tb_buf *b, const struct rp_attr *a, uint32_t pid, uint32_t tid,
			  uint64_t time, uint64_t ip, int other_caller)
{
	const uint64_t cc[] = { RP_CONTEXT_USER, ip, ip + (other_caller ? 0x180 : 0x100),
				ip + 0x200 };

	put_chain_sample(b, a, pid, tid, time, ip, cc, 4);
}

/*
 * Starts f with one attr (its id *id): samples of ip, tid, time, period
 * and callchain at a fixed period of 100000, as perf record -g -c 100000
 * writes them (perf_event.h perf_event_attr).  Returns the attr, which
 * the records after it are written with.
 */
static struct rp_attr cc_file_init(struct tb_file *f, uint64_t *id)
{
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_PERIOD | RP_SAMPLE_CALLCHAIN);

	a.size = 128;
	a.flags &= ~RP_ATTR_FREQ;
	a.sample_period = 100000;
	tb_file_init(f, 0);
	tb_file_attr(f, &a, id, 1);
	return a;
}

/*
 * lost-fork: threads whose FORK record was lost (perf record -m too
 * small, or a recording that started after they were made) and that were
 * named only later: samples of pid 300 (tids 300 and 301) before any COMM,
 * then COMM "renamed" for 300 and "worker" for 301, then more samples;
 * pid 400 sampled without ever getting a COMM.  Call stacks of user
 * addresses in two files mapped by MMAP records, so that perf's call
 * graphs carry comm and dso.  Format: perf_event.h PERF_RECORD_COMM,
 * PERF_RECORD_MMAP, PERF_SAMPLE_CALLCHAIN.
 */
static int mk_lost_fork(struct tb_buf *out)
{
	struct tb_file f;
	uint64_t id = 21, t = 1000;
	struct rp_attr a = cc_file_init(&f, &id);

	put_comm(&f.data, &a, 100, 100, "parent", t++, 1);
	put_mmap(&f.data, &a, 300, 0x400000, 0x10000, 0, "/rp-mkdata/lost-fork-app", t++);
	put_mmap(&f.data, &a, 400, 0x500000, 0x10000, 0, "/rp-mkdata/lost-fork-other", t++);
	/* Two callers of each function, in other proportions before and
	 * after the COMM, so that the graphs branch and their counts show. */
	for (int i = 0; i < 3; i++) {
		put_cc_sample(&f.data, &a, 300, 300, t++, 0x401000, i == 2);
		put_cc_sample(&f.data, &a, 300, 301, t++, 0x402000, i == 0);
		put_cc_sample(&f.data, &a, 400, 400, t++, 0x501000, 0);
	}
	put_comm(&f.data, &a, 300, 300, "renamed", t++, 0);
	put_comm(&f.data, &a, 300, 301, "worker", t++, 0);
	for (int i = 0; i < 4; i++) {
		put_cc_sample(&f.data, &a, 300, 300, t++, 0x401000, i != 0);
		put_cc_sample(&f.data, &a, 300, 301, t++, i == 3 ? 0x402000 : 0x403000, 1);
	}
	return cpu_clock_file_end(&f, out);
}

/*
 * wild-stack: call stacks of a program without frame pointers, as perf
 * records them (perf record -g of gcc's cc1): after the sampled ip and its
 * caller, words of the stack that are no return addresses, anywhere in
 * the 64-bit space, in no map.  perf's children view makes an entry of
 * each, unresolved, and compares two of them by the u64 difference of
 * their addresses taken as signed (util/sort.c _sort__addr_cmp), which is
 * no order for addresses 2^63 or more apart: rows that tie on every
 * figure come in the order of perf's trees.  Each sample's period is the
 * same, so the entries of the words of one sample tie.  The words come
 * from a fixed LCG (lcg_next()), PERF_CONTEXT_* values (from -4095 up)
 * left out.  Format: perf_event.h PERF_SAMPLE_CALLCHAIN.
 */
static int mk_wild_stack(struct tb_buf *out)
{
	struct tb_file f;
	uint64_t id = 51, t = 1000, x = 0x5eed;
	struct rp_attr a = cc_file_init(&f, &id);

	put_comm(&f.data, &a, 700, 700, "wild", t++, 1);
	put_mmap(&f.data, &a, 700, 0x400000, 0x10000, 0, "/rp-mkdata/wild-app", t++);
	for (unsigned i = 0; i < 64; i++) {
		uint64_t cc[2 + 8 + 1];
		uint32_t n = 0;
		uint64_t ip = 0x401000 + 0x40u * (i % 8);

		cc[n++] = RP_CONTEXT_USER;
		cc[n++] = ip;
		for (unsigned k = 0; k < 2 + i % 7; k++) {
			while (lcg_next(&x) >= (uint64_t)-4095)
				;
			cc[n++] = x;
		}
		cc[n++] = 0x402000 + 0x10u * (i % 3);
		put_chain_sample(&f.data, &a, 700, 700, t++, ip, cc, n);
	}
	return cpu_clock_file_end(&f, out);
}

/* A mapping of a whole ELF file of this machine for mk_two_dso(). */
struct two_dso_file {
	char path[PATH_MAX];
	uint64_t start, len;
	uintptr_t base; /* where the file is loaded in this process */
};

static int two_dso_file(struct two_dso_file *m, const void *fn, uint64_t start)
{
	Dl_info di;
	struct stat st;

	if (!dladdr(fn, &di) || !di.dli_fname || !realpath(di.dli_fname, m->path) ||
	    stat(m->path, &st) < 0) {
		fprintf(stderr, "rp-mkdata: two-dso: no file for a function\n");
		return -1;
	}
	m->base = (uintptr_t)di.dli_fbase;
	m->start = start;
	m->len = ((uint64_t)st.st_size + 0xfff) & ~0xfffull;
	return 0;
}

/*
 * two-dso: one process with two ELF files of this machine mapped whole at
 * file offset 0 (this program and the C library, found with dladdr(3)),
 * sampled at functions of each (resolved) and at offsets in each file's
 * ELF header, which no symbol covers (unresolved; the same offsets in
 * both files), with call stacks of such addresses.  Without a dso sort
 * key perf's sort__sym_cmp() compares two unresolved entries by address
 * alone and any other pair by DSO first, which is no order: perf's input
 * tree then misses equal entries now and then and keeps two rows of one
 * key, and the rows' order is the trees'.  Addresses and periods are
 * picked by two fixed LCGs (lcg_next()).  The periods differ (100000 plus 0
 * to 2^24 - 1) so that no two siblings of a call graph tie: perf orders
 * tied siblings of two DSOs by the addresses of its struct dso in its heap
 * (match_chain_dso_addresses()), which moves with the length of this
 * program's path (docs/report.md).  The file depends on this machine's
 * files: the tests compare perf and readperf on it, never a fixed text.
 * Format: perf_event.h PERF_RECORD_MMAP, PERF_SAMPLE_CALLCHAIN.
 */
static int mk_two_dso(struct tb_buf *out)
{
	/* Functions of the C library and of this program, by address. */
	const void *lib_fns[] = { (const void *)getenv, (const void *)qsort,
				  (const void *)fopen,	(const void *)fclose,
				  (const void *)puts,	(const void *)strtol,
				  (const void *)abort,	(const void *)realpath };
	const void *own_fns[] = { (const void *)put_comm, (const void *)put_mmap,
				  (const void *)put_cc_sample, (const void *)mk_wild_stack,
				  (const void *)mk_lost_fork, (const void *)two_dso_file };
	struct two_dso_file m[2];
	uint64_t pool[2 * 8 + 8 + 6];
	size_t np = 0;
	struct tb_file f;
	uint64_t id = 61, t = 1000, x = 0xd50, y = 0x5eed; /* addresses, periods */

	if (two_dso_file(&m[0], (const void *)put_comm, 0x555500000000ull) ||
	    two_dso_file(&m[1], (const void *)getenv, 0x7f0000000000ull))
		return -1;
	for (unsigned k = 0; k < 8; k++) {
		pool[np++] = m[0].start + 0x40 + 0x28u * k;
		pool[np++] = m[1].start + 0x40 + 0x28u * k;
	}
	for (size_t k = 0; k < sizeof(lib_fns) / sizeof(lib_fns[0]); k++)
		pool[np++] = m[1].start + ((uintptr_t)lib_fns[k] - m[1].base) + 4;
	for (size_t k = 0; k < sizeof(own_fns) / sizeof(own_fns[0]); k++)
		pool[np++] = m[0].start + ((uintptr_t)own_fns[k] - m[0].base) + 4;

	struct rp_attr a = cc_file_init(&f, &id);

	put_comm(&f.data, &a, 800, 800, "two-dso", t++, 1);
	put_mmap(&f.data, &a, 800, m[0].start, m[0].len, 0, m[0].path, t++);
	put_mmap(&f.data, &a, 800, m[1].start, m[1].len, 0, m[1].path, t++);
	for (unsigned i = 0; i < 400; i++) {
		uint64_t cc[1 + 5];
		uint32_t n = 0;

		cc[n++] = RP_CONTEXT_USER;
		for (unsigned k = 0; k < 1 + i % 5; k++)
			cc[n++] = pool[(lcg_next(&x) >> 33) % np];
		struct tb_sample s = { .ip = cc[1], .pid = 800, .tid = 800, .time = t++,
				       .period = 100000 + (lcg_next(&y) >> 40),
				       .callchain_nr = n, .callchain = cc };

		tb_sample(&f.data, &a, RP_MISC_USER, &s);
	}
	return cpu_clock_file_end(&f, out);
}

/*
 * An MMAP2 record (perf_event.h PERF_RECORD_MMAP2) of a file-backed
 * mapping: early (the layout of Linux 3.12 to 3.15 and of 3.10 kernels with
 * MMAP2 backported: no prot and flags, the name right after
 * ino_generation) or current (prot and flags before the name, since 3.16,
 * commit f972eb63b100).
 */
static void put_mmap2(struct tb_buf *b, const struct rp_attr *a, uint32_t pid, uint64_t start,
		      uint64_t len, uint64_t pgoff, uint32_t prot, const char *name, uint64_t time,
		      int early)
{
	struct tb_sample sid = { .pid = pid, .tid = pid, .time = time };
	size_t r = tb_rec_begin(b, RP_RECORD_MMAP2, RP_MISC_USER);

	tb_u32(b, pid);
	tb_u32(b, pid);
	tb_u64(b, start);
	tb_u64(b, len);
	tb_u64(b, pgoff);
	tb_u32(b, 8);          /* maj */
	tb_u32(b, 1);          /* min */
	tb_u64(b, 4242 + start); /* ino */
	tb_u64(b, 7);          /* ino_generation */
	if (!early) {
		tb_u32(b, prot);
		tb_u32(b, 2); /* MAP_PRIVATE */
	}
	tb_str(b, name, 8);
	tb_sample_id(b, a, &sid);
	tb_rec_end(b, r);
}

/*
 * mmap2-early / mmap2-current: the same recording with its MMAP2 records
 * in the early layout or the current one: a program, a library with a
 * long path, [vdso] (a name that fits in the 8 bytes where prot and flags
 * go) and //anon, each sampled.  perf reads the current one; readperf must
 * read the early one to the same result.  The kernel writes MMAP2 only for
 * code unless the record says PERF_RECORD_MISC_MMAP_DATA, so the current
 * file's prot is PROT_EXEC on every map (//anon: JIT code, rwx).
 */
static int mk_mmap2(struct tb_buf *out, int early)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_PERIOD);
	uint64_t id = 31, t = 1000;
	static const struct {
		uint64_t start, len, pgoff;
		uint32_t prot;
		const char *name;
	} maps[] = {
		{ 0x400000, 0x20000, 0, 5, "/rp-mkdata/early-app" },
		{ 0x7f0000100000, 0x40000, 0x1000, 5,
		  "/usr/lib/x86_64-linux-gnu/rp-mkdata-a-library-with-a-long-path.so.6" },
		{ 0x7fff00000000, 0x2000, 0, 5, "[vdso]" },
		{ 0x7f0000200000, 0x10000, 0, 7, "//anon" }, /* JIT code */
	};

	a.size = 96; /* VER3, as the perf of those kernels wrote */
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id, 1);
	put_comm(&f.data, &a, 500, 500, "early", t++, 1);
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		put_mmap2(&f.data, &a, 500, maps[i].start, maps[i].len, maps[i].pgoff, maps[i].prot,
			  maps[i].name, t++, early);
	for (unsigned i = 0; i < 10; i++) {
		const uint64_t off[] = { 0x1234, 0x5678, 0x0abc, 0x4321 };
		size_t m = i % 4;
		struct tb_sample s = { .ip = maps[m].start + off[m] + 16 * (i / 4), .pid = 500,
				       .tid = 500, .time = t++, .period = 10000 + i };

		tb_sample(&f.data, &a, RP_MISC_USER, &s);
	}
	return cpu_clock_file_end(&f, out);
}

static int mk_mmap2_early(struct tb_buf *out)
{
	return mk_mmap2(out, 1);
}

static int mk_mmap2_current(struct tb_buf *out)
{
	return mk_mmap2(out, 0);
}

/* The feature sections of the pipe streams below, by feature bit, in the
 * layouts of perf's header.c (write_hostname ... write_pmu_mappings). */
static void put_pipe_feature_body(struct tb_buf *b, unsigned feat, const struct rp_attr *a,
				  const uint64_t *ids, size_t nr_ids)
{
	switch (feat) {
	case RP_FEAT_HOSTNAME:
		tb_feat_string(b, "legacy-host");
		break;
	case RP_FEAT_OSRELEASE:
		tb_feat_string(b, "3.2.5-rp");
		break;
	case RP_FEAT_VERSION:
		tb_feat_string(b, "3.3.0-rp");
		break;
	case RP_FEAT_ARCH:
		tb_feat_string(b, "x86_64");
		break;
	case RP_FEAT_NRCPUS:
		tb_u32(b, 4); /* available */
		tb_u32(b, 2); /* online */
		break;
	case RP_FEAT_CPUDESC:
		tb_feat_string(b, "Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz");
		break;
	case RP_FEAT_CPUID:
		tb_feat_string(b, "GenuineIntel,6,45,7");
		break;
	case RP_FEAT_TOTAL_MEM:
		tb_u64(b, 65904800);
		break;
	case RP_FEAT_CMDLINE:
		tb_u32(b, 4);
		tb_feat_string(b, "/usr/bin/perf");
		tb_feat_string(b, "record");
		tb_feat_string(b, "-o");
		tb_feat_string(b, "-");
		break;
	case RP_FEAT_EVENT_DESC:
		tb_u32(b, 1);
		tb_u32(b, a->size);
		tb_attr(b, a, a->size);
		tb_u32(b, (uint32_t)nr_ids);
		tb_feat_string(b, "cpu-clock");
		for (size_t i = 0; i < nr_ids; i++)
			tb_u64(b, ids[i]);
		break;
	case RP_FEAT_CPU_TOPOLOGY:
		tb_u32(b, 1); /* sibling cores */
		tb_feat_string(b, "0-3");
		tb_u32(b, 2); /* sibling threads */
		tb_feat_string(b, "0,2");
		tb_feat_string(b, "1,3");
		break;
	case RP_FEAT_NUMA_TOPOLOGY:
		tb_u32(b, 1);
		tb_u32(b, 0);           /* node */
		tb_u64(b, 33479172);    /* total kB */
		tb_u64(b, 3996584);     /* free kB */
		tb_feat_string(b, "0-3");
		break;
	case RP_FEAT_PMU_MAPPINGS:
		tb_u32(b, 2);
		tb_u32(b, 4);
		tb_feat_string(b, "cpu");
		tb_u32(b, 1);
		tb_feat_string(b, "software");
		break;
	}
}

/*
 * pipe-legacy / pipe-current: one `perf record -a -o -` stream of a
 * cpu-clock event, with its header features as the records of Google's
 * perf 3.x (legacy: types 69..80 for HOSTNAME..NUMA_TOPOLOGY, 81 for
 * PMU_MAPPINGS, each payload the feature's section, all before the attr;
 * quipper's perf_internals.h) or as upstream HEADER_FEATURE records (80: u64
 * feature id, then the section; perf's util/event.h), after the attr.  The
 * records of both: COMM, MMAP, samples and an EXIT, with sample_id_all.
 * perf reads the current one; readperf must read the legacy one to the
 * same result.
 */
static int mk_pipe(struct tb_buf *out, int legacy)
{
	static const unsigned feats[] = {
		RP_FEAT_HOSTNAME, RP_FEAT_OSRELEASE, RP_FEAT_VERSION, RP_FEAT_ARCH,
		RP_FEAT_NRCPUS, RP_FEAT_CPUDESC, RP_FEAT_CPUID, RP_FEAT_TOTAL_MEM,
		RP_FEAT_CMDLINE, RP_FEAT_EVENT_DESC, RP_FEAT_CPU_TOPOLOGY,
		RP_FEAT_NUMA_TOPOLOGY, RP_FEAT_PMU_MAPPINGS,
	};
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_CPU | RP_SAMPLE_PERIOD);
	const uint64_t ids[] = { 41, 42 };
	uint64_t t = 5000;
	size_t r;

	a.size = 80; /* VER2, as perf 3.3 wrote */
	tb_init(out, 0);
	tb_u64(out, 0x32454c4946524550ull); /* "PERFILE2" */
	tb_u64(out, 16);
	if (legacy) {
		for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
			uint32_t type = feats[i] == RP_FEAT_PMU_MAPPINGS ? 81u : 66u + feats[i];

			r = tb_rec_begin(out, type, 0);
			put_pipe_feature_body(out, feats[i], &a, ids, 2);
			/* Not padded: perf's size of the section is the
			 * record's (Google's writer wrote them so). */
			tb_rec_end_nopad(out, r);
		}
	}
	r = tb_rec_begin(out, RP_RECORD_HEADER_ATTR, 0);
	tb_attr(out, &a, a.size);
	tb_u64(out, ids[0]);
	tb_u64(out, ids[1]);
	tb_rec_end(out, r);
	if (!legacy) {
		for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
			r = tb_rec_begin(out, RP_RECORD_HEADER_FEATURE, 0);
			tb_u64(out, feats[i]);
			put_pipe_feature_body(out, feats[i], &a, ids, 2);
			tb_rec_end_nopad(out, r);
		}
	}
	put_comm(out, &a, 600, 600, "legacy-app", t++, 1);
	put_mmap(out, &a, 600, 0x400000, 0x20000, 0, "/rp-mkdata/legacy-app", t++);
	put_mmap(out, &a, 600, 0x7f0000000000, 0x40000, 0, "/rp-mkdata/liblegacy.so", t++);
	for (unsigned i = 0; i < 12; i++) {
		struct tb_sample s = { .ip = (i % 3 ? 0x400000 : 0x7f0000000000) + 0x100 * i,
				       .pid = 600, .tid = 600 + i % 2, .time = t++, .cpu = i % 2,
				       .period = 250000 + i };

		tb_sample(out, &a, RP_MISC_USER, &s);
	}
	r = tb_rec_begin(out, RP_RECORD_EXIT, 0);
	tb_u32(out, 600);
	tb_u32(out, 1);
	tb_u32(out, 600);
	tb_u32(out, 1);
	tb_u64(out, t);
	{
		struct tb_sample sid = { .pid = 600, .tid = 600, .time = t };

		tb_sample_id(out, &a, &sid);
	}
	tb_rec_end(out, r);
	return 0;
}

static int mk_pipe_legacy(struct tb_buf *out)
{
	return mk_pipe(out, 1);
}

static int mk_pipe_current(struct tb_buf *out)
{
	return mk_pipe(out, 0);
}

/* A KSYMBOL record (perf_event.h PERF_RECORD_KSYMBOL: addr, len,
 * ksym_type, flags, name) with its trailer. */
static void put_ksymbol(struct tb_buf *b, const struct rp_attr *a, uint64_t addr, uint32_t len,
			uint16_t type, uint16_t flags, const char *name, uint64_t time)
{
	struct tb_sample sid = { .pid = 100, .tid = 100, .time = time };
	size_t r = tb_rec_begin(b, RP_RECORD_KSYMBOL, 0);

	tb_u64(b, addr);
	tb_u32(b, len);
	tb_u16(b, type);
	tb_u16(b, flags);
	tb_str(b, name, 8);
	tb_sample_id(b, a, &sid);
	tb_rec_end(b, r);
}

/* A BPF_EVENT record (perf_event.h PERF_RECORD_BPF_EVENT: type, flags,
 * id, tag[8]) with its trailer. */
static void put_bpf_event(struct tb_buf *b, const struct rp_attr *a, uint16_t type, uint32_t id,
			  uint64_t time)
{
	struct tb_sample sid = { .pid = 100, .tid = 100, .time = time };
	size_t r = tb_rec_begin(b, RP_RECORD_BPF_EVENT, 0);
	const uint8_t tag[8] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };

	tb_u16(b, type);
	tb_u16(b, 0);
	tb_u32(b, id);
	tb_bytes(b, tag, sizeof(tag));
	tb_sample_id(b, a, &sid);
	tb_rec_end(b, r);
}

/* A TEXT_POKE record (perf_event.h PERF_RECORD_TEXT_POKE: addr, old_len,
 * new_len, the old then the new bytes, padded to 8) with its trailer. */
static void put_text_poke(struct tb_buf *b, const struct rp_attr *a, uint64_t addr,
			  uint16_t old_len, uint16_t new_len, uint64_t time)
{
	struct tb_sample sid = { .pid = 100, .tid = 100, .time = time };
	size_t r = tb_rec_begin(b, RP_RECORD_TEXT_POKE, 0);

	tb_u64(b, addr);
	tb_u16(b, old_len);
	tb_u16(b, new_len);
	for (unsigned i = 0; i < (unsigned)old_len + new_len; i++)
		tb_u8(b, (uint8_t)(0x90 + i));
	tb_zero(b, (8 - (12 + (size_t)old_len + new_len) % 8) % 8);
	tb_sample_id(b, a, &sid);
	tb_rec_end(b, r);
}

/*
 * bpf-events: BPF programs loaded and unloaded while cpu-clock samples
 * fall in them, as perf record writes it on a machine that runs BPF
 * (this one's kernel writes none): KSYMBOL (type BPF, then unregister) and
 * BPF_EVENT (PROG_LOAD, PROG_UNLOAD) records, kernel samples in the
 * programs before and after the unregister, a user sample, TEXT_POKE
 * records in a program and outside any.  Format: perf_event.h
 * PERF_RECORD_KSYMBOL, PERF_RECORD_BPF_EVENT, PERF_RECORD_TEXT_POKE.
 */
static int mk_bpf_events(struct tb_buf *out)
{
	struct tb_file f;
	uint64_t id = 31, t = 1000;
	struct rp_attr a = cc_file_init(&f, &id);
	const uint64_t p1 = 0xffffffffc0001000ull, p2 = 0xffffffffc0003000ull;

	put_comm(&f.data, &a, 100, 100, "bpfload", t++, 1);
	put_mmap(&f.data, &a, 100, 0x400000, 0x10000, 0, "/rp-mkdata/bpfload", t++);
	put_ksymbol(&f.data, &a, p1, 0x200, 1, 0, "bpf_prog_deadbeef01020304_trace_open", t++);
	put_bpf_event(&f.data, &a, 1, 42, t++);
	put_ksymbol(&f.data, &a, p2, 0x80, 1, 0, "bpf_prog_0123456789abcdef_F", t++);
	put_bpf_event(&f.data, &a, 1, 43, t++);
	for (int i = 0; i < 4; i++) {
		const uint64_t ip = (i & 1 ? p2 : p1) + 0x10 * (uint64_t)i;
		const uint64_t cc[] = { RP_CONTEXT_KERNEL, ip, p1 + 0x1f0, RP_CONTEXT_USER, 0x401234 };
		struct tb_sample s = { .ip = ip, .pid = 100, .tid = 100, .time = t++,
				       .period = 100000, .callchain_nr = 5, .callchain = cc };

		tb_sample(&f.data, &a, RP_MISC_KERNEL, &s);
	}
	put_cc_sample(&f.data, &a, 100, 100, t++, 0x401000, 0);
	/* a jump label patched in one program, an address in none, 20
	 * bytes: two lines of new bytes */
	put_text_poke(&f.data, &a, p1 + 0x18, 5, 5, t++);
	put_text_poke(&f.data, &a, 0xffffffffc0100000ull, 2, 20, t++);
	put_ksymbol(&f.data, &a, p1, 0x200, 1, 1, "bpf_prog_deadbeef01020304_trace_open", t++);
	put_bpf_event(&f.data, &a, 2, 42, t++);
	{
		const uint64_t cc[] = { RP_CONTEXT_KERNEL, p1 + 0x20 };
		struct tb_sample s = { .ip = p1 + 0x20, .pid = 100, .tid = 100, .time = t++,
				       .period = 100000, .callchain_nr = 2, .callchain = cc };

		tb_sample(&f.data, &a, RP_MISC_KERNEL, &s);
	}
	return cpu_clock_file_end(&f, out);
}

/*
 * nonelf-frame: samples whose ip and call stack lie in a mapped file that
 * is no ELF file (/etc/passwd), as a frame-pointer walk of a program
 * without frame pointers lands in a mapped locale archive.  Format:
 * perf_event.h PERF_RECORD_MMAP, PERF_SAMPLE_CALLCHAIN.
 */
static int mk_nonelf_frame(struct tb_buf *out)
{
	struct tb_file f;
	uint64_t id = 41, t = 1000;
	struct rp_attr a = cc_file_init(&f, &id);

	put_comm(&f.data, &a, 200, 200, "nonelf", t++, 1);
	put_mmap(&f.data, &a, 200, 0x7f0000000000ull, 0x1000, 0, "/etc/passwd", t++);
	for (int i = 0; i < 3; i++)
		put_cc_sample(&f.data, &a, 200, 200, t++, 0x7f0000000010ull + 0x10 * (uint64_t)i,
			      i == 1);
	return cpu_clock_file_end(&f, out);
}

static const struct {
	const char *name;
	int (*make)(struct tb_buf *out);
} kinds[] = {
	{ "attr-flags", mk_attr_flags },
	{ "lost-fork", mk_lost_fork },
	{ "wild-stack", mk_wild_stack },
	{ "two-dso", mk_two_dso },
	{ "mmap2-early", mk_mmap2_early },
	{ "mmap2-current", mk_mmap2_current },
	{ "pipe-legacy", mk_pipe_legacy },
	{ "pipe-current", mk_pipe_current },
	{ "bpf-events", mk_bpf_events },
	{ "nonelf-frame", mk_nonelf_frame },
};

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: rp-mkdata KIND OUT\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct tb_buf out;

		if (strcmp(argv[1], kinds[i].name))
			continue;
		if (kinds[i].make(&out))
			return 2;
		tb_write_file(&out, argv[2]);
		tb_free(&out);
		return 0;
	}
	fprintf(stderr, "rp-mkdata: unknown kind '%s'\n", argv[1]);
	return 2;
}
