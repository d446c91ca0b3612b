/* SPDX-License-Identifier: MIT */
/*
 * Symbol tables: perf's fix-ups on hand-made tables, kallsyms parsing from
 * a small file, and ELF symbols of programs compiled at test time (a PIE,
 * a non-PIE, a shared object, C++) checked against nm, readelf and
 * objdump: file offsets, sizes, PLT entries, build-id checks, the build-id
 * cache, demangling and source files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <readperf/machine.h>
#include <readperf/symbols.h>

#include "machine/dso.h"
#include "machine/machine_int.h"
#include "symbols/symbols_int.h"

static char tmpdir[256];

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void make_dso(struct rp_dso *d, const char *path, enum rp_dso_kind kind)
{
	memset(d, 0, sizeof(*d));
	d->long_name = path;
	d->short_name = path;
	d->kind = kind;
}

static struct rp_symbols *new_resolver(const char *kallsyms)
{
	struct rp_symbols *s = NULL;
	char cache[300];
	struct rp_symbols_opts o = { sizeof(o), NULL, NULL, NULL, 0, 0 };

	/* An empty build-id cache of our own, so ~/.debug plays no part. */
	snprintf(cache, sizeof(cache), "%s/emptycache", tmpdir);
	mkdir(cache, 0700);
	o.buildid_dir = cache;
	o.kallsyms = kallsyms;
	assert_int_equal(rp_symbols_new(&s, NULL, &o), 0);
	return s;
}

/* ---- fix-ups on a hand-made table ---- */

static void test_fixups(void **state)
{
	(void)state;
	struct rp_arena names = RP_ARENA_INIT;
	struct rp_symtab_builder b;
	struct rp_dso_symtab t;

	memset(&t, 0, sizeof(t));
	rp_symb_init(&b, &names);
	b.track_tree = 1;
	/* Same start: a sized symbol beats a zero-sized one. */
	assert_int_equal(rp_symb_add(&b, 0x100, 0, 1, 2, "zero", 4), 0);
	assert_int_equal(rp_symb_add(&b, 0x100, 0x10, 1, 2, "sized", 5), 0);
	/* Same start and size: global beats weak, fewer underscores win. */
	assert_int_equal(rp_symb_add(&b, 0x200, 8, 2, 2, "weak", 4), 0);
	assert_int_equal(rp_symb_add(&b, 0x200, 8, 1, 2, "global", 6), 0);
	assert_int_equal(rp_symb_add(&b, 0x300, 8, 1, 2, "__x", 3), 0);
	assert_int_equal(rp_symb_add(&b, 0x300, 8, 1, 2, "_xy", 3), 0);
	/* Longer name wins when all else is equal. */
	assert_int_equal(rp_symb_add(&b, 0x400, 8, 0, 2, "ab", 2), 0);
	assert_int_equal(rp_symb_add(&b, 0x400, 8, 0, 2, "abc", 3), 0);
	/* Zero size: ends at the next symbol; the last one at the next
	 * page boundary plus a page. */
	assert_int_equal(rp_symb_add(&b, 0x500, 0, 1, 2, "open", 4), 0);
	assert_int_equal(rp_symb_add(&b, 0x900, 0, 1, 2, "last", 4), 0);
	rp_symb_sort(&b);
	rp_symb_fixup_end(&b, 0);
	rp_symb_fixup_duplicate(&b);
	assert_int_equal(rp_symb_finish(&b, &t), 0);
	rp_symb_release(&b);
	assert_int_equal(t.nr, 6);

	const struct rp_symbol *s = rp_symtab_find(&t, 0x105);
	assert_non_null(s);
	assert_string_equal(s->name, "sized");
	assert_null(rp_symtab_find(&t, 0x110));
	assert_null(rp_symtab_find(&t, 0xff));
	assert_string_equal(rp_symtab_find(&t, 0x204)->name, "global");
	assert_string_equal(rp_symtab_find(&t, 0x300)->name, "_xy");
	assert_string_equal(rp_symtab_find(&t, 0x407)->name, "abc");
	assert_null(rp_symtab_find(&t, 0x408));
	s = rp_symtab_find(&t, 0x8ff);
	assert_non_null(s);
	assert_string_equal(s->name, "open");
	assert_int_equal(s->end, 0x900);
	s = rp_symtab_find(&t, 0x1fff);
	assert_non_null(s);
	assert_string_equal(s->name, "last");
	assert_int_equal(s->end, 0x2000);
	assert_null(rp_symtab_find(&t, 0x2000));
	free(t.syms);
	free(t.max_end);
	free(t.tree_left);
	free(t.tree_right);
	rp_arena_release(&names);
}

/* The sort: by start, equal starts in insertion order, whatever runs the
 * input holds (sorted, reversed, runs as kallsyms has them, random). */
static void test_sort(void **state)
{
	(void)state;
	static const size_t sizes[] = { 0, 1, 2, 3, 17, 1000, 4099 };
	unsigned seed = 12345;

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (int shape = 0; shape < 4; shape++) {
			struct rp_arena names = RP_ARENA_INIT;
			struct rp_symtab_builder b;
			size_t n = sizes[si];

			rp_symb_init(&b, &names);
			for (size_t i = 0; i < n; i++) {
				uint64_t start;
				seed = seed * 1103515245u + 12345u;
				switch (shape) {
				case 0: start = i; break;                 /* sorted */
				case 1: start = n - i; break;             /* reversed */
				case 2: start = (i % 300) * 16 + i / 300; break; /* runs */
				default: start = (seed >> 16) % 64; break; /* random, equal starts */
				}
				assert_int_equal(rp_symb_add(&b, start, 1, 1, 2, "s", 1), 0);
			}
			rp_symb_sort(&b);
			assert_int_equal(b.nr, n);
			for (size_t i = 1; i < n; i++) {
				const struct rp_sym_raw *p = &b.v[i - 1], *q = &b.v[i];
				assert_true(p->start < q->start || (p->start == q->start && p->seq < q->seq));
			}
			rp_symb_release(&b);
			rp_arena_release(&names);
		}
	}
}

/* Symbols added after the fix-ups may overlap (PLT entries over an
 * extended _init): the answer is the one perf's tree descent meets. */
static void test_overlap_tree(void **state)
{
	(void)state;
	struct rp_arena names = RP_ARENA_INIT;
	struct rp_symtab_builder b;
	struct rp_dso_symtab t;

	memset(&t, 0, sizeof(t));
	rp_symb_init(&b, &names);
	b.track_tree = 1;
	assert_int_equal(rp_symb_add(&b, 0x1000, 0, 1, 2, "_init", 5), 0);
	assert_int_equal(rp_symb_add(&b, 0x1100, 0x20, 1, 2, "_start", 6), 0);
	assert_int_equal(rp_symb_add(&b, 0x1120, 0x20, 1, 2, "main", 4), 0);
	rp_symb_sort(&b);
	rp_symb_fixup_end(&b, 0);
	rp_symb_fixup_duplicate(&b);
	rp_symb_compact(&b);
	/* Two PLT entries inside _init's extended range. */
	assert_int_equal(rp_symb_add(&b, 0x1030, 0x10, 1, 2, "a@plt", 5), 0);
	assert_int_equal(rp_symb_add(&b, 0x1040, 0x10, 1, 2, "b@plt", 5), 0);
	assert_int_equal(rp_symb_finish(&b, &t), 0);
	rp_symb_release(&b);
	assert_non_null(t.tree_left);
	/* The tree: _start at the root; a@plt under it, with _init and
	 * b@plt as its children.  The descent for 0x1045 passes a@plt and
	 * ends at b@plt; 0x1010 reaches _init, whose range (up to _start)
	 * also covers both entries. */
	assert_string_equal(rp_symtab_find(&t, 0x1045)->name, "b@plt");
	assert_string_equal(rp_symtab_find(&t, 0x1035)->name, "a@plt");
	assert_string_equal(rp_symtab_find(&t, 0x1010)->name, "_init");
	/* 0x1050 passes b@plt, whose end it equals, to an empty right
	 * subtree: no symbol, though _init's range covers it. */
	assert_null(rp_symtab_find(&t, 0x1050));
	assert_string_equal(rp_symtab_find(&t, 0x1125)->name, "main");
	free(t.syms);
	free(t.max_end);
	free(t.tree_left);
	free(t.tree_right);
	rp_arena_release(&names);
}

/* ---- kallsyms ---- */

static void test_kallsyms(void **state)
{
	(void)state;
	char path[300];
	snprintf(path, sizeof(path), "%s/kallsyms", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff81000000 T _stext\n"
	      "ffffffff81001000 t local_fn\n"
	      "ffffffff81002000 r some_rodata\n"
	      "ffffffff81003000 W weak_fn\n"
	      "ffffffff81004000 D some_data\n"
	      "ffffffff81005000 T __entry_SYSCALL_64_trampoline\n"
	      "ffffffff81006000 T last_kernel_fn\n"
	      "0000000000000000 U undefined_one\n"
	      "garbage line\n"
	      "ffffffffc0001000 t mod_fn\t[mymod]\n"
	      "ffffffffc0002000 t bpf_prog_1234_x\t[bpf]\n",
	      f);
	fclose(f);

	struct rp_symbols *s = new_resolver(path);
	struct rp_dso k;
	make_dso(&k, "[kernel.kallsyms]", RP_DSO_KERNEL);

	const struct rp_symbol *sym = rp_symbols_find(s, &k, 0xffffffff81000010);
	assert_non_null(sym);
	/* _text and _stext share a start: the longer name wins. */
	assert_string_equal(sym->name, "_stext");
	sym = rp_symbols_find(s, &k, 0xffffffff81002010);
	assert_non_null(sym);
	/* 'r' is not kept: local_fn runs up to weak_fn. */
	assert_string_equal(sym->name, "local_fn");
	assert_int_equal(sym->end, 0xffffffff81003000);
	assert_int_equal(sym->binding, 0);
	sym = rp_symbols_find(s, &k, 0xffffffff81003000);
	assert_string_equal(sym->name, "weak_fn");
	assert_int_equal(sym->binding, 2);
	assert_string_equal(rp_symbols_find(s, &k, 0xffffffff81004000)->name, "some_data");
	/* The PTI trampoline symbol is dropped; some_data ended at it. */
	assert_null(rp_symbols_find(s, &k, 0xffffffff81005000));
	/* The last kernel symbol before module symbols ends a page later. */
	sym = rp_symbols_find(s, &k, 0xffffffff81006fff);
	assert_non_null(sym);
	assert_string_equal(sym->name, "last_kernel_fn");
	assert_int_equal(sym->end, 0xffffffff81007000);
	assert_null(rp_symbols_find(s, &k, 0xffffffff81007000));
	/* Module and BPF symbols are not the kernel's. */
	assert_null(rp_symbols_find(s, &k, 0xffffffffc0001000));

	struct rp_dso m;
	make_dso(&m, "[mymod]", RP_DSO_MODULE);
	sym = rp_symbols_find(s, &m, 0xffffffffc0001004);
	assert_non_null(sym);
	assert_string_equal(sym->name, "mod_fn");
	rp_symbols_free(s);
	assert_null(k.symtab);
}

/* perf loads the kernel's kallsyms when a lookup first finds the kernel
 * map and then stretches the map from the first kernel symbol to the end
 * of the last (dso__load_kernel_sym: map__fixup_start/end): addresses past
 * the recorded _etext (init code, data) resolve from then on, not before. */
static void test_kernel_map_fixup(void **state)
{
	(void)state;
	char path[300];
	snprintf(path, sizeof(path), "%s/kallsyms-fixup", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff81000100 T text_fn\n"
	      "ffffffff81002000 T _etext\n"
	      "ffffffff81005000 T init_fn\n"
	      "ffffffff81006000 D last_data\n"
	      "ffffffffc0001000 t mod_fn\t[mymod]\n",
	      f);
	fclose(f);

	struct rp_machine *m = NULL;
	struct rp_event ev;
	struct rp_addr_location al;

	assert_int_equal(rp_machine_new(&m, NULL), 0);
	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_MMAP;
	ev.misc = RP_MISC_KERNEL;
	ev.u.mmap.pid = (uint32_t)-1;
	ev.u.mmap.start = 0xffffffff81000000;
	ev.u.mmap.len = 0x2000;
	ev.u.mmap.pgoff = 0xffffffff81000000;
	ev.u.mmap.filename = "[kernel.kallsyms]_text";
	assert_int_equal(rp_machine_process(m, &ev), 0);
	struct rp_thread *th = rp_machine_findnew_thread(m, 0, 0);
	struct rp_symbols *s = new_resolver(path);

	/* Before the first load: past _etext finds no map. */
	assert_int_equal(rp_symbols_resolve(s, m, th, RP_MISC_KERNEL, 0xffffffff81005010, &al), 0);
	assert_int_equal(rp_symbols_resolve(s, m, th, RP_MISC_KERNEL, 0xffffffff81000110, &al), 1);
	assert_non_null(al.sym);
	assert_string_equal(al.sym->name, "text_fn");
	assert_ptr_equal(al.map, rp_machine_kernel_map(m));
	assert_int_equal(rp_map_start(al.map), 0xffffffff81000000);
	/* The last kernel symbol (size 0, before a module's) ends a page on. */
	assert_int_equal(rp_map_end(al.map), 0xffffffff81007000);
	assert_int_equal(rp_symbols_resolve(s, m, th, RP_MISC_KERNEL, 0xffffffff81005010, &al), 1);
	assert_string_equal(al.sym->name, "init_fn");
	assert_string_equal(rp_dso_short_name(al.dso), "[kernel.kallsyms]");
	assert_int_equal(rp_symbols_resolve(s, m, th, RP_MISC_KERNEL, 0xffffffff81006fff, &al), 1);
	assert_string_equal(al.sym->name, "last_data");
	assert_int_equal(rp_symbols_resolve(s, m, th, RP_MISC_KERNEL, 0xffffffff81007000, &al), 0);
	/* User mode never looks in the kernel's maps. */
	assert_int_equal(rp_symbols_resolve(s, m, th, RP_MISC_USER, 0xffffffff81005010, &al), 0);
	rp_symbols_free(s);
	rp_machine_free(m);
}

/* Not the running kernel: the build-id cache's kallsyms; another boot's
 * addresses are moved by the difference of the recorded _text. */
static void test_kernel_cache(void **state)
{
	(void)state;
	char dir[400], path[500];
	static const uint8_t bid[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
					 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

	snprintf(dir, sizeof(dir), "%s/kcache/[kernel.kallsyms]/deadbeef0102030405060708090a0b0c0d0e0f10",
		 tmpdir);
	assert_int_equal(run("mkdir -p '%s'", dir), 0);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff91000000 T _text\nffffffff91000100 T first\nffffffff91000200 T second\n", f);
	fclose(f);
	snprintf(dir, sizeof(dir), "%s/kcache", tmpdir);
	struct rp_symbols_opts o = { sizeof(o), dir, NULL, NULL, 0, 0 };
	struct rp_symbols *s = NULL;
	assert_int_equal(rp_symbols_new(&s, NULL, &o), 0);
	struct rp_dso k;
	make_dso(&k, "[kernel.kallsyms]", RP_DSO_KERNEL);
	memcpy(k.build_id, bid, 20);
	k.build_id_size = 20;
	assert_string_equal(rp_symbols_find(s, &k, 0xffffffff91000150)->name, "first");
	rp_symbols_free(s);

	/* Recorded with _text at ...81000000: the file is 0x10000000 off. */
	struct rp_arena names = RP_ARENA_INIT;
	struct rp_symtab_builder b;
	struct rp_dso_symtab t;
	memset(&t, 0, sizeof(t));
	rp_symb_init(&b, &names);
	assert_int_equal(rp_load_kallsyms_file(path, &b, NULL, 1, 0xffffffff81000000), 3);
	assert_int_equal(rp_symb_finish(&b, &t), 0);
	rp_symb_release(&b);
	const struct rp_symbol *sym = rp_symtab_find(&t, 0xffffffff81000250);
	assert_non_null(sym);
	assert_string_equal(sym->name, "second");
	assert_int_equal(sym->start, 0xffffffff81000200);
	free(t.syms);
	free(t.max_end);
	rp_arena_release(&names);

	/* A DSO whose build-id has no cached kallsyms: no symbols. */
	assert_int_equal(rp_symbols_new(&s, NULL, &o), 0);
	make_dso(&k, "[kernel.kallsyms]", RP_DSO_KERNEL);
	memcpy(k.build_id, bid, 20);
	k.build_id[19] ^= 1;
	k.build_id_size = 20;
	assert_null(rp_symbols_find(s, &k, 0xffffffff91000150));
	rp_symbols_free(s);
}

static void test_bpf(void **state)
{
	(void)state;
	struct rp_symbols *s = new_resolver(NULL);
	struct rp_dso d;
	make_dso(&d, "bpf_prog_6deef7357e7b4530_sd_fw_egress", RP_DSO_BPF);
	const struct rp_symbol *sym = rp_symbols_find(s, &d, 0x40);
	assert_non_null(sym);
	assert_string_equal(sym->name, "bpf_prog_6deef7357e7b4530_sd_fw_egress");
	rp_symbols_free(s);
}

static void test_perf_map(void **state)
{
	(void)state;
	char path[64];
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("7f0000001000 40 jitted_one\n7f0000002000 10 Lfoo;bar\n", f);
	fclose(f);
	struct rp_symbols *s = new_resolver(NULL);
	struct rp_dso d;
	make_dso(&d, path, RP_DSO_USER);
	assert_string_equal(rp_symbols_find(s, &d, 0x7f000000103f)->name, "jitted_one");
	assert_null(rp_symbols_find(s, &d, 0x7f0000001040));
	assert_string_equal(rp_symbols_find(s, &d, 0x7f0000002000)->name, "Lfoo;bar");
	rp_symbols_free(s);
	unlink(path);
}

/* ---- ELF files built now ---- */

static int have_tools(void)
{
	return run("command -v gcc >/dev/null && command -v nm >/dev/null && "
		   "command -v readelf >/dev/null && command -v objdump >/dev/null") == 0;
}

struct seg {
	uint64_t off, vaddr, size;
};

/* PT_LOAD segments of path, from readelf. */
static size_t load_segments(const char *path, struct seg *segs, size_t max)
{
	char cmd[600], line[512];
	size_t n = 0;

	snprintf(cmd, sizeof(cmd), "readelf -lW '%s'", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long off, va, pa, fsz, msz;
		if (sscanf(line, " LOAD 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx", &off, &va, &pa, &fsz,
			   &msz) == 5 &&
		    n < max) {
			segs[n].off = off;
			segs[n].vaddr = va;
			segs[n].size = msz > fsz ? msz : fsz;
			n++;
		}
	}
	pclose(p);
	return n;
}

static uint64_t to_offset(const struct seg *segs, size_t n, uint64_t vaddr)
{
	for (size_t i = 0; i < n; i++)
		if (vaddr >= segs[i].vaddr && vaddr - segs[i].vaddr < segs[i].size)
			return vaddr - (segs[i].vaddr - segs[i].off);
	fail_msg("no segment for %llx", (unsigned long long)vaddr);
	return 0;
}

static const char prog_c[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"volatile int sink;\n"
	"static int helper(int x) { return x * 3; }\n"
	"int work(int n) { int t = 0; for (int i = 0; i < n; i++) t += helper(i) + abs(i); return t; }\n"
	"int main(int argc, char **argv) { (void)argv; sink = work(argc) + (int)strlen(\"x\");\n"
	"  printf(\"%d\\n\", sink); return 0; }\n";

static const char lib_c[] = "int lib_add(int a, int b) { return a + b; }\n"
			    "static int lib_local(int a) { return a * 7; }\n"
			    "int lib_twice(int a) { return lib_local(a) + lib_add(a, a); }\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Checks every sized function nm lists at its file offset. */
static void check_against_nm(struct rp_symbols *s, struct rp_dso *d, const char *path)
{
	struct seg segs[16];
	size_t nseg = load_segments(path, segs, 16);
	char cmd[600], line[1024];
	int checked = 0;

	assert_true(nseg > 0);
	snprintf(cmd, sizeof(cmd), "nm --defined-only -S '%s'", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long va, size;
		char type, name[512];
		if (sscanf(line, "%llx %llx %c %511s", &va, &size, &type, name) != 4)
			continue;
		if (type != 'T' && type != 't')
			continue;
		uint64_t off = to_offset(segs, nseg, va);
		const struct rp_symbol *sym = rp_symbols_find(s, d, off);
		assert_non_null(sym);
		assert_string_equal(sym->name, name);
		assert_int_equal(sym->start, off);
		assert_int_equal(sym->end, off + size);
		sym = rp_symbols_find(s, d, off + size - 1);
		assert_non_null(sym);
		assert_string_equal(sym->name, name);
		checked++;
	}
	pclose(p);
	assert_true(checked >= 3);
}

/* Checks the "name@plt" entries objdump shows in .plt. */
static void check_plt(struct rp_symbols *s, struct rp_dso *d, const char *path)
{
	struct seg segs[16];
	size_t nseg = load_segments(path, segs, 16);
	char cmd[600], line[1024];
	int checked = 0;

	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt '%s'", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long va;
		char name[512];
		if (sscanf(line, "%llx <%511[^>]>:", &va, name) != 2 || !strstr(name, "@plt") ||
		    strchr(name, '+') || strchr(name, '-'))
			continue;
		uint64_t off = to_offset(segs, nseg, va);
		const struct rp_symbol *sym = rp_symbols_find(s, d, off + 4);
		assert_non_null(sym);
		assert_string_equal(sym->name, name);
		assert_int_equal(sym->start, off);
		checked++;
	}
	pclose(p);
	assert_true(checked >= 1);
}

static void test_elf_programs(void **state)
{
	(void)state;
	char src[300], pie[300], nopie[300], so[300], lsrc[300];

	if (!have_tools())
		skip();
	snprintf(src, sizeof(src), "%s/prog.c", tmpdir);
	snprintf(lsrc, sizeof(lsrc), "%s/lib.c", tmpdir);
	snprintf(pie, sizeof(pie), "%s/prog_pie", tmpdir);
	snprintf(nopie, sizeof(nopie), "%s/prog_nopie", tmpdir);
	snprintf(so, sizeof(so), "%s/libt.so", tmpdir);
	write_file(src, prog_c);
	write_file(lsrc, lib_c);
	assert_int_equal(run("gcc -O0 -g -fno-builtin -fPIE -pie -o %s %s", pie, src), 0);
	assert_int_equal(run("gcc -O0 -g -fno-builtin -fno-pie -no-pie -o %s %s", nopie, src), 0);
	assert_int_equal(run("gcc -O0 -g -shared -fPIC -o %s %s", so, lsrc), 0);

	const char *files[] = { pie, nopie, so };
	for (int i = 0; i < 3; i++) {
		struct rp_symbols *s = new_resolver(NULL);
		/* DSOs outlive their resolver, as the machine's do. */
		struct rp_dso d, sd;
		make_dso(&d, files[i], RP_DSO_USER);
		check_against_nm(s, &d, files[i]);
		if (i < 2) {
			/* In an unstripped file _init, extended over .plt, hides
			 * entries as in perf: check the PLT on a stripped copy
			 * (that exports its functions: perf makes PLT symbols
			 * only for files with some symbol of their own). */
			char stripped[320];
			snprintf(stripped, sizeof(stripped), "%s.stripped", files[i]);
			assert_int_equal(run("gcc -O0 -fno-builtin %s -rdynamic -o %s %s && strip %s",
					     i == 0 ? "-fPIE -pie" : "-fno-pie -no-pie", stripped,
					     src, stripped),
					 0);
			make_dso(&sd, stripped, RP_DSO_USER);
			check_plt(s, &sd, stripped);
		}
		/* Source file of main (or lib_add) from DWARF. */
		struct seg segs[16];
		size_t nseg = load_segments(files[i], segs, 16);
		char cmd[600], line[512];
		snprintf(cmd, sizeof(cmd), "nm '%s' | grep -E ' T (main|lib_add)$'", files[i]);
		FILE *p = popen(cmd, "r");
		unsigned long long va = 0;
		assert_true(fgets(line, sizeof(line), p) != NULL);
		pclose(p);
		sscanf(line, "%llx", &va);
		const struct rp_symbol *sym = rp_symbols_find(s, &d, to_offset(segs, nseg, va));
		assert_non_null(sym);
		const char *file = rp_symbols_source_file(s, &d, sym);
		assert_non_null(file);
		assert_non_null(strstr(file, i < 2 ? "prog.c" : "lib.c"));
		rp_symbols_free(s);
	}
}

static size_t parse_build_id(const char *path, uint8_t out[20])
{
	return rp_file_build_id(path, out);
}

static void test_build_ids(void **state)
{
	(void)state;
	char pie[300], cache[300], dir[700], link[800], linkdir[400];
	uint8_t bid[20];

	if (!have_tools())
		skip();
	snprintf(pie, sizeof(pie), "%s/prog_pie", tmpdir);
	if (access(pie, R_OK) != 0)
		skip();
	size_t n = parse_build_id(pie, bid);
	assert_int_equal(n, 20);

	/* A recorded build-id that the file does not have: no symbols. */
	struct rp_symbols *s = new_resolver(NULL);
	struct rp_dso d;
	make_dso(&d, pie, RP_DSO_USER);
	memcpy(d.build_id, bid, 20);
	d.build_id[0] ^= 0xff;
	d.build_id_size = 20;
	assert_null(rp_symbols_find(s, &d, 0x1000));
	assert_int_equal(d.symtab_tried, 1);
	rp_symbols_free(s);

	/* The build-id cache holds the file for a path that is gone. */
	snprintf(cache, sizeof(cache), "%s/cache", tmpdir);
	char hex[41];
	for (int i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	snprintf(dir, sizeof(dir), "%s/gone/prog/%s", cache, hex);
	assert_int_equal(run("mkdir -p %s && cp %s %s/elf", dir, pie, dir), 0);
	snprintf(linkdir, sizeof(linkdir), "%s/.build-id/%.2s", cache, hex);
	snprintf(link, sizeof(link), "%s/%s", linkdir, hex + 2);
	assert_int_equal(run("mkdir -p %s && ln -sf ../../gone/prog/%s %s", linkdir, hex, link), 0);

	struct rp_symbols_opts o = { sizeof(o), cache, NULL, NULL, 0, 0 };
	assert_int_equal(rp_symbols_new(&s, NULL, &o), 0);
	make_dso(&d, "/gone/prog", RP_DSO_USER);
	memcpy(d.build_id, bid, 20);
	d.build_id_size = 20;
	struct seg segs[16];
	size_t nseg = load_segments(pie, segs, 16);
	char cmd[600], line[512];
	snprintf(cmd, sizeof(cmd), "nm '%s' | grep ' T work$'", pie);
	FILE *p = popen(cmd, "r");
	unsigned long long va = 0;
	assert_true(fgets(line, sizeof(line), p) != NULL);
	pclose(p);
	sscanf(line, "%llx", &va);
	const struct rp_symbol *sym = rp_symbols_find(s, &d, to_offset(segs, nseg, va) + 1);
	assert_non_null(sym);
	assert_string_equal(sym->name, "work");
	rp_symbols_free(s);
}

static void test_cplusplus(void **state)
{
	(void)state;
	char src[300], bin[300];

	if (!have_tools() || run("command -v g++ >/dev/null") != 0)
		skip();
	snprintf(src, sizeof(src), "%s/t.cc", tmpdir);
	snprintf(bin, sizeof(bin), "%s/tcc", tmpdir);
	write_file(src, "namespace outer { namespace inner {\n"
			"template <typename T> struct Box { T v; T get(int k) const { return v + k; } };\n"
			"template <typename T> T twice(T x) { return x + x; }\n"
			"}}\n"
			"int main() { outer::inner::Box<double> b{1.5};\n"
			"  return (int)b.get(2) + outer::inner::twice<int>(3); }\n");
	assert_int_equal(run("g++ -O0 -g -o %s %s", bin, src), 0);
	struct rp_symbols *s = new_resolver(NULL);
	struct rp_dso d;
	make_dso(&d, bin, RP_DSO_USER);
	struct seg segs[16];
	size_t nseg = load_segments(bin, segs, 16);
	char cmd[600], line[512];
	/* perf 6.1 prints no parameters and no return types. */
	static const char *const want[][2] = {
		{ "_ZN5outer5inner5twiceIiEET_S2_", "outer::inner::twice<int>" },
		{ "_ZNK5outer5inner3BoxIdE3getEi", "outer::inner::Box<double>::get" },
	};
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "nm '%s' | grep ' %s$'", bin, want[i][0]);
		FILE *p = popen(cmd, "r");
		unsigned long long va = 0;
		assert_true(fgets(line, sizeof(line), p) != NULL);
		pclose(p);
		sscanf(line, "%llx", &va);
		const struct rp_symbol *sym = rp_symbols_find(s, &d, to_offset(segs, nseg, va));
		assert_non_null(sym);
		assert_string_equal(sym->name, want[i][1]);
	}
	rp_symbols_free(s);

	/* no_demangle keeps the mangled names. */
	struct rp_symbols_opts o = { sizeof(o), tmpdir, NULL, NULL, 1, 0 };
	assert_int_equal(rp_symbols_new(&s, NULL, &o), 0);
	make_dso(&d, bin, RP_DSO_USER);
	snprintf(cmd, sizeof(cmd), "nm '%s' | grep ' W _ZN5outer5inner5twiceIiEET_S2_$'", bin);
	FILE *p = popen(cmd, "r");
	unsigned long long va = 0;
	assert_true(fgets(line, sizeof(line), p) != NULL);
	pclose(p);
	sscanf(line, "%llx", &va);
	const struct rp_symbol *sym = rp_symbols_find(s, &d, to_offset(segs, nseg, va));
	assert_non_null(sym);
	assert_string_equal(sym->name, "_ZN5outer5inner5twiceIiEET_S2_");
	rp_symbols_free(s);
}

static void test_missing(void **state)
{
	(void)state;
	struct rp_symbols *s = new_resolver(NULL);
	struct rp_dso d;
	make_dso(&d, "/no/such/file", RP_DSO_USER);
	assert_null(rp_symbols_find(s, &d, 0x1000));
	make_dso(&d, "//anon", RP_DSO_USER);
	assert_null(rp_symbols_find(s, &d, 0x1000));
	assert_null(rp_symbols_find(s, NULL, 0x1000));
	assert_null(rp_symbols_source_file(s, &d, NULL));
	/* Files that cannot be read leave DSOs without symbols, quietly:
	 * no allocation failed. */
	make_dso(&d, tmpdir, RP_DSO_USER); /* a directory */
	assert_null(rp_symbols_find(s, &d, 0x1000));
	char notelf[300];
	snprintf(notelf, sizeof(notelf), "%s/notelf", tmpdir);
	assert_int_equal(run("echo 'not an ELF file' > '%s'", notelf), 0);
	make_dso(&d, notelf, RP_DSO_USER);
	assert_null(rp_symbols_find(s, &d, 0x1000));
	assert_int_equal(rp_symbols_error(s), 0);
	assert_int_equal(rp_symbols_error(NULL), 0);
	rp_symbols_free(s);
	rp_symbols_free(NULL);

	/* A kallsyms file that is missing: a kernel without symbols. */
	s = new_resolver("/no/such/kallsyms");
	make_dso(&d, "[kernel.kallsyms]", RP_DSO_KERNEL);
	assert_null(rp_symbols_find(s, &d, 0xffffffff81000000));
	assert_int_equal(rp_symbols_error(s), 0);
	rp_symbols_free(s);
}

/* rp_demangle(): 0 with NULL for plain names, 0 with the name otherwise
 * (its out-of-memory answer is what tests/robust/run_allocfail.sh sees). */
static void test_demangle(void **state)
{
	(void)state;
	char *out = (char *)1;

	assert_int_equal(rp_demangle("main", &out), 0);
	assert_null(out);
	assert_int_equal(rp_demangle("camlFoo__bar$2e", &out), 0);
	assert_non_null(out);
	assert_string_equal(out, "Foo.bar.");
	free(out);
	/* C++ where the library has libiberty. */
	assert_int_equal(rp_demangle("_ZN2ns3fooEv", &out), 0);
	if (out)
		assert_string_equal(out, "ns::foo");
	free(out);
	/* Looks mangled, is not: no demangled name, and no error. */
	assert_int_equal(rp_demangle("_Zbogus", &out), 0);
	assert_null(out);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/rp-symtest.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	if (tmpdir[0])
		run("rm -rf '%s'", tmpdir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixups),	     cmocka_unit_test(test_sort),
		cmocka_unit_test(test_overlap_tree),
		cmocka_unit_test(test_kallsyms),     cmocka_unit_test(test_kernel_cache),
		cmocka_unit_test(test_kernel_map_fixup),
		cmocka_unit_test(test_bpf),
		cmocka_unit_test(test_perf_map),     cmocka_unit_test(test_elf_programs),
		cmocka_unit_test(test_build_ids),    cmocka_unit_test(test_cplusplus),
		cmocka_unit_test(test_missing),	     cmocka_unit_test(test_demangle),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
