/* SPDX-License-Identifier: MIT */
/*
 * The symbol resolver: one table per DSO, loaded on first use from the
 * source perf 6.1 would use (tools/perf/util/symbol.c dso__load()), and
 * source files from DWARF (libdw).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#ifdef RP_HAVE_LIBDEFLATE
#include <libdeflate.h>
#else
#include <zlib.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/array.h"
#include "common/opts.h"
#include "symbols/linefile_int.h"
#include "symbols/symbols_int.h"

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

int rp_symbols_new(struct rp_symbols **out, const struct rp_session *session,
		   const struct rp_symbols_opts *opts)
{
	struct rp_symbols_opts o;
	struct rp_symbols *s;

	*out = NULL;
	if (rp_opts_copy(&o, sizeof(o), opts) < 0)
		return RP_ERR_INVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return RP_ERR_NOMEM;
	pthread_mutexattr_t attr;

	if (pthread_mutexattr_init(&attr)) {
		free(s);
		return RP_ERR_NOMEM;
	}
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	int lock_err = pthread_mutex_init(&s->lock, &attr);

	pthread_mutexattr_destroy(&attr);
	if (lock_err) {
		free(s);
		return RP_ERR_NOMEM;
	}
	s->session = session;
	s->no_demangle = o.no_demangle;
	s->no_inline = o.no_inline;
	s->symfs = dup_or_empty(o.symfs);
	/* A perf record --kcore directory carries the kallsyms of its
	 * recording, which perf report then uses as with --kallsyms. */
	if (!o.kallsyms && session)
		o.kallsyms = rp_session_kcore_kallsyms(session);
	if (o.kallsyms)
		s->kallsyms = strdup(o.kallsyms);
	if (o.buildid_dir) {
		s->buildid_dir = strdup(o.buildid_dir);
	} else if (getenv("PERF_BUILDID_DIR") && *getenv("PERF_BUILDID_DIR")) {
		s->buildid_dir = strdup(getenv("PERF_BUILDID_DIR"));
	} else if (s->symfs && s->symfs[0]) {
		/* perf's --symfs moves the build-id cache to <symfs>/.debug. */
		size_t n = strlen(s->symfs) + sizeof("/.debug");
		s->buildid_dir = malloc(n);
		if (s->buildid_dir)
			snprintf(s->buildid_dir, n, "%s/.debug", s->symfs);
	} else {
		const char *home = getenv("HOME");
		size_t n = (home ? strlen(home) : 0) + sizeof("/.debug");
		s->buildid_dir = malloc(n);
		if (s->buildid_dir)
			snprintf(s->buildid_dir, n, "%s/.debug", home ? home : "");
		if (s->buildid_dir && !home)
			memmove(s->buildid_dir, s->buildid_dir + 1, n - 1);
	}
	/* perf takes a symfs that is the root ("/", "/tmp/..") for none, after
	 * it moved the build-id cache there: the kernel's symbols then come
	 * from the local kallsyms as without --symfs. */
	if (s->symfs && s->symfs[0]) {
		char *real = realpath(s->symfs, NULL);

		if (real && !strcmp(real, "/"))
			s->symfs[0] = '\0';
		free(real);
	}
	s->is_x86_64 = 1;
	if (session) {
		const struct rp_header_info *h = rp_session_header(session);
		if (h && h->arch)
			s->is_x86_64 = strcmp(h->arch, "x86_64") == 0;
	}
	if (!s->symfs || !s->buildid_dir || (o.kallsyms && !s->kallsyms)) {
		rp_symbols_free(s);
		return RP_ERR_NOMEM;
	}
	*out = s;
	return 0;
}

void rp_symbols_free(struct rp_symbols *s)
{
	if (!s)
		return;
	struct rp_symtab_ref *refs = s->tables;
	for (size_t i = 0; i < s->nr_tables; i++) {
		/* The machine outlives the resolver: detach the table. */
		if (refs[i].dso->symtab == refs[i].t) {
			refs[i].dso->symtab = NULL;
			refs[i].dso->symtab_tried = 0;
			refs[i].dso->symtab_ready = 0;
		}
		rp_symtab_free(refs[i].t);
	}
	free(s->tables);
	free(s->buildid_dir);
	free(s->symfs);
	free(s->kallsyms);
	if (s->prefetching)
		pthread_join(s->prefetch, NULL);
	free(s->kallsyms_text);
	rp_arena_release(&s->scratch);
	rp_hashmap_release(&s->has_data);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

int rp_symbols_prefetch_kallsyms(struct rp_symbols *s)
{
	if (!s || s->prefetching || s->kallsyms_text || s->kallsyms || s->symfs[0])
		return 0;
	if (pthread_create(&s->prefetch, NULL, rp_kallsyms_prefetch_main, s) == 0)
		s->prefetching = 1;
	return 0;
}

static int is_perf_map(const char *name)
{
	size_t n = strlen(name);

	return strncmp(name, "/tmp/perf-", 10) == 0 && n > 4 && strcmp(name + n - 4, ".map") == 0;
}

/*
 * dso's table from its source.  A source that cannot be read, or holds
 * more than RP_SYMBOLS_MAX_SYMS symbols, gives an empty table (perf then
 * has no symbols); NULL means an allocation failed (RP_ERR_NOMEM).
 */
static struct rp_dso_symtab *load_table(struct rp_symbols *s, struct rp_dso *dso)
{
	struct rp_dso_symtab *t = calloc(1, sizeof(*t));
	struct rp_symtab_builder b;
	int nr = 0;

	if (!t)
		return NULL;
	t->dwarf_fd = -1;
	rp_symb_init(&b, &t->names);
	b.no_demangle = s->no_demangle;
	const char *name = dso->long_name ? dso->long_name : "";

	switch (dso->kind) {
	case RP_DSO_KERNEL:
	case RP_DSO_MODULE:
		nr = rp_load_kernel(s, dso, &b);
		break;
	case RP_DSO_BPF: {
		/* perf gives a KSYMBOL's DSO one symbol over the whole map,
		 * named like the DSO; the map bounds every lookup, so the
		 * symbol may cover the whole address space. */
		const char *n = dso->short_name ? dso->short_name : name;
		nr = rp_symb_add(&b, 0, UINT64_MAX, 1, 2, n, strlen(n));
		if (nr == 0)
			nr = 1;
		break;
	}
	default:
		if (is_perf_map(name))
			nr = rp_load_perf_map(name, &b);
		else
			nr = rp_load_user_dso(s, dso, &b, t);
		break;
	}
	if (nr > 0)
		nr = rp_symb_finish(&b, t);
	rp_symb_release(&b);
	if (nr == RP_ERR_NOMEM)
		goto nomem;
	if (nr < 0) {
		/* RP_ERR_LIMIT: no symbols, as for an unreadable file. */
		free(t->syms);
		free(t->max_end);
		free(t->mangled);
		t->syms = NULL;
		t->max_end = NULL;
		t->mangled = NULL;
		t->nr = 0;
	}
	if (t->nr) {
		t->src = calloc(t->nr, sizeof(*t->src));
		t->src_done = calloc(t->nr, 1);
		if (!t->src || !t->src_done)
			goto nomem;
	}
	return t;
nomem:
	rp_symtab_free(t);
	return NULL;
}

size_t rp_symbols_dso_build_id(const struct rp_dso *dso, const uint8_t **build_id)
{
	size_t n = rp_dso_build_id(dso, build_id);

	if (n || !__atomic_load_n(&dso->symtab_ready, __ATOMIC_ACQUIRE) || !dso->symtab)
		return n;
	*build_id = dso->symtab->file_build_id;
	return dso->symtab->file_build_id_size;
}

struct rp_dso_symtab *rp_symbols_table(struct rp_symbols *s, struct rp_dso *dso)
{
	if (__atomic_load_n(&dso->symtab_ready, __ATOMIC_ACQUIRE))
		return dso->symtab;
	pthread_mutex_lock(&s->lock);
	if (dso->symtab_tried) {
		/* Loaded meanwhile, or this thread is loading it. */
		struct rp_dso_symtab *tried = dso->symtab;

		pthread_mutex_unlock(&s->lock);
		return tried;
	}
	dso->symtab_tried = 1;
	struct rp_dso_symtab *t = NULL;
	if (RP_ARRAY_RESERVE(s->tables, s->alloc_tables, s->nr_tables + 1) == 0)
		t = load_table(s, dso);
	if (!t) {
		s->error = RP_ERR_NOMEM;
		__atomic_store_n(&dso->symtab_ready, 1, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&s->lock);
		return NULL;
	}
	s->tables[s->nr_tables].dso = dso;
	s->tables[s->nr_tables].t = t;
	s->nr_tables++;
	dso->symtab = t;
	__atomic_store_n(&dso->symtab_ready, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
	return t;
}

/* The name of t's symbol sym demangled, as perf prints it: names are
 * demangled when a lookup first returns them. */
static void rp_symbols_demangle(struct rp_symbols *s, struct rp_dso_symtab *t,
				const struct rp_symbol *sym)
{
	if (!sym || !t->mangled || !__atomic_load_n(&t->mangled[sym - t->syms], __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&s->lock);
	if (rp_symtab_demangle(t, (size_t)(sym - t->syms)) < 0)
		s->error = RP_ERR_NOMEM;
	pthread_mutex_unlock(&s->lock);
}

const struct rp_symbol *rp_symbols_find_loaded(struct rp_symbols *s, const struct rp_dso *dso,
					       uint64_t addr)
{
	if (!dso || !__atomic_load_n(&dso->symtab_ready, __ATOMIC_ACQUIRE) || !dso->symtab)
		return NULL;
	const struct rp_symbol *sym = rp_symtab_find(dso->symtab, addr);

	if (s)
		rp_symbols_demangle(s, dso->symtab, sym);
	return sym;
}

const struct rp_symbol *rp_symbols_find(struct rp_symbols *s, struct rp_dso *dso, uint64_t addr)
{
	if (!s || !dso)
		return NULL;
	for (unsigned i = 0; i < 4; i++)
		if (s->cache[i].dso == dso && s->cache[i].addr == addr)
			return s->cache[i].sym;
	struct rp_dso_symtab *t = rp_symbols_table(s, dso);
	const struct rp_symbol *sym = t ? rp_symtab_find(t, addr) : NULL;

	if (t)
		rp_symbols_demangle(s, t, sym);
	unsigned slot = s->cache_next++ & 3;
	s->cache[slot].dso = dso;
	s->cache[slot].addr = addr;
	s->cache[slot].sym = sym;
	return sym;
}

/*
 * Whether readperf reads a DWARF section: what inline chains and source
 * lines need (units, abbreviations, strings, line tables, address
 * ranges).  Location lists, macros, .debug_frame (the unwinder reads CFI
 * through libdwfl) and name indexes are never read through this handle.
 */
static int debug_section_used(const char *name)
{
	static const char *const used[] = {
		".debug_info", ".debug_abbrev", ".debug_str", ".debug_str_offsets",
		".debug_line", ".debug_line_str", ".debug_ranges", ".debug_rnglists",
		".debug_aranges", ".debug_addr", ".debug_types",
	};
	for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++)
		if (!strcmp(name, used[i]))
			return 1;
	return 0;
}

/* Inflates one SHF_COMPRESSED section into the Elf's section data;
 * returns 0, or -1 when it is left to libdw as it is. */
static int inflate_section(struct rp_dso_symtab *t, Elf *e, Elf_Scn *scn, GElf_Shdr *sh,
			   void *dc)
{
	GElf_Chdr ch;
	Elf_Data *raw;
	size_t hdr = gelf_fsize(e, ELF_T_CHDR, 1, EV_CURRENT);

	if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB || !hdr ||
	    ch.ch_size == 0 || ch.ch_size > RP_SYMBOLS_MAX_DEBUG_SECTION)
		return -1;
	raw = elf_rawdata(scn, NULL);
	if (!raw || !raw->d_buf || raw->d_size <= hdr)
		return -1;
	if (RP_ARRAY_RESERVE(t->dwarf_bufs, t->alloc_dwarf_bufs, t->nr_dwarf_bufs + 1) < 0)
		return -1;
	void *out = malloc(ch.ch_size);
	if (!out)
		return -1;
	size_t got = 0;
#ifdef RP_HAVE_LIBDEFLATE
	if (libdeflate_zlib_decompress(dc, (const char *)raw->d_buf + hdr, raw->d_size - hdr,
				       out, ch.ch_size, &got) != LIBDEFLATE_SUCCESS ||
	    got != ch.ch_size) {
		free(out);
		return -1;
	}
#else
	(void)dc;
	uLongf n = (uLongf)ch.ch_size;
	if (uncompress(out, &n, (const Bytef *)raw->d_buf + hdr, (uLong)(raw->d_size - hdr)) != Z_OK ||
	    n != ch.ch_size) {
		free(out);
		return -1;
	}
	got = n;
#endif
	/* What elf_compress(scn, 0, 0) would leave: the section's data
	 * inflated, its header without SHF_COMPRESSED. */
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d) {
		free(out);
		return -1;
	}
	t->dwarf_bufs[t->nr_dwarf_bufs++] = out;
	d->d_buf = out;
	d->d_size = got;
	d->d_type = ELF_T_BYTE;
	d->d_off = 0;
	d->d_align = ch.ch_addralign ? ch.ch_addralign : 1;
	sh->sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	sh->sh_size = got;
	sh->sh_addralign = d->d_align;
	gelf_update_shdr(scn, sh);
	return 0;
}

/*
 * libdw's dwarf_begin() inflates every compressed debug section of a
 * file when it opens it, with zlib: for glibc's debug file that is most
 * of what a DWARF report costs once.  Here the sections readperf reads
 * are inflated first (with libdeflate where it was found: about twice
 * zlib's speed) and the others are hidden from libdw (SHT_NOBITS, which
 * it skips), so libdw finds nothing left to inflate.  Anything unusual
 * (another compression, a section that does not inflate) is left to
 * libdw as it is.
 */
static Dwarf *open_dwarf(struct rp_dso_symtab *t, int fd)
{
	Elf *e;
	size_t shstrndx;
	void *dc = NULL;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e)
		return NULL;
	if (elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx) < 0) {
		elf_end(e);
		return NULL;
	}
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED) ||
		    sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_GROUP) ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)) || strncmp(name, ".debug_", 7))
			continue;
		if (!debug_section_used(name)) {
			sh.sh_type = SHT_NOBITS;
			gelf_update_shdr(scn, &sh);
			continue;
		}
#ifdef RP_HAVE_LIBDEFLATE
		if (!dc && !(dc = libdeflate_alloc_decompressor()))
			continue;
#endif
		inflate_section(t, e, scn, &sh, dc);
	}
#ifdef RP_HAVE_LIBDEFLATE
	if (dc)
		libdeflate_free_decompressor(dc);
#endif
	Dwarf *dw = dwarf_begin_elf(e, DWARF_C_READ, NULL);
	if (!dw) {
		elf_end(e);
		return NULL;
	}
	t->dwarf_elf = e;
	return dw;
}

void *rp_symtab_dwarf(struct rp_dso_symtab *t)
{
	if (!t->dwarf_tried) {
		t->dwarf_tried = 1;
		if (t->dwarf_path) {
			t->dwarf_fd = open(t->dwarf_path, O_RDONLY | O_CLOEXEC);
			if (t->dwarf_fd >= 0) {
				t->dwarf = open_dwarf(t, t->dwarf_fd);
				if (!t->dwarf)
					rp_symtab_dwarf_close(t);
			}
		}
	}
	return t->dwarf;
}

void rp_symtab_dwarf_close(struct rp_dso_symtab *t)
{
	/* (It points into the DWARF's sections.) */
	rp_line_files_free(t->line_files);
	t->line_files = NULL;
	if (t->dwarf)
		dwarf_end(t->dwarf);
	t->dwarf = NULL;
	if (t->dwarf_elf)
		elf_end(t->dwarf_elf);
	t->dwarf_elf = NULL;
	for (size_t i = 0; i < t->nr_dwarf_bufs; i++)
		free(t->dwarf_bufs[i]);
	free(t->dwarf_bufs);
	t->dwarf_bufs = NULL;
	t->nr_dwarf_bufs = t->alloc_dwarf_bufs = 0;
	if (t->dwarf_fd >= 0)
		close(t->dwarf_fd);
	t->dwarf_fd = -1;
}

int rp_symtab_vaddr(const struct rp_dso_symtab *t, uint64_t addr, uint64_t *vaddr)
{
	*vaddr = addr;
	if (!t->addr_is_offset)
		return 0;
	for (size_t i = 0; i < t->nr_segs; i++) {
		const struct rp_segment *g = &t->segs[i];

		if (addr >= g->offset && addr - g->offset < g->size) {
			*vaddr = addr - g->offset + g->vaddr;
			return 0;
		}
	}
	return -1;
}

static const char *lookup_source(struct rp_symbols *s, struct rp_dso_symtab *t, uint64_t start)
{
	uint64_t vaddr;

	if (!rp_symtab_dwarf(t) || rp_symtab_vaddr(t, start, &vaddr) < 0)
		return NULL;
	Dwarf_Die cu;
	if (!dwarf_addrdie(t->dwarf, vaddr, &cu))
		return NULL;
	const char *file = NULL;
	Dwarf_Line *line = dwarf_getsrc_die(&cu, vaddr);
	int err = 0;
	if (line)
		file = rp_line_file(t->dwarf, &t->line_files, &cu, line, &err);
	if (err)
		s->error = err;
	if (!file)
		file = dwarf_diename(&cu);
	if (!file)
		return NULL;
	const char *copy = rp_arena_strdup(&s->scratch, file);
	if (!copy)
		s->error = RP_ERR_NOMEM;
	return copy;
}

const char *rp_symbols_source_file(struct rp_symbols *s, struct rp_dso *dso,
				   const struct rp_symbol *sym)
{
	if (!s || !dso || !sym)
		return NULL;
	struct rp_dso_symtab *t = rp_symbols_table(s, dso);
	if (!t || !t->src || sym < t->syms || sym >= t->syms + t->nr)
		return NULL;
	size_t i = (size_t)(sym - t->syms);
	if (!t->src_done[i]) {
		t->src_done[i] = 1;
		t->src[i] = lookup_source(s, t, sym->start);
	}
	return t->src[i];
}

int rp_symbols_error(const struct rp_symbols *s)
{
	return s ? s->error : 0;
}
