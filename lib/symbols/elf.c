/* SPDX-License-Identifier: MIT */
/*
 * Symbols of user DSOs from ELF files (libelf), as perf 6.1 loads them:
 * tools/perf/util/symbol.c dso__load() (the candidate files and how a
 * .symtab source is paired with the runtime file), dso.c
 * dso__read_binary_type_filename() (the candidate paths), symbol-elf.c
 * symsrc__init(), dso__load_sym() and dso__synthesize_plt_symbols(), and
 * build-id.c (the build-id cache layout).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/array.h"
#include "common/hex.h"
#include "symbols/symbols_int.h"

#define RP_PATH_MAX 4096

/* One candidate file opened (perf's struct symsrc). */
struct symsrc {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	char *path;
	Elf_Scn *symtab, *dynsym, *opd;
	GElf_Shdr symshdr, dynshdr;
	size_t dynsym_idx;
};

static int is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void elf_init(void)
{
	elf_version(EV_CURRENT);
}

/* libelf's one setting for the process, made once even when sessions of
 * several threads load symbols at the same time (readperf collapse A B). */
static void elf_init_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, elf_init);
}

static Elf_Scn *section_by_name(Elf *elf, const GElf_Ehdr *ehdr, GElf_Shdr *shp,
				const char *name, size_t *idx)
{
	Elf_Scn *sec = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		shstrndx = ehdr->e_shstrndx;
	while ((sec = elf_nextscn(elf, sec)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(sec, &sh))
			continue;
		const char *n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && strcmp(n, name) == 0) {
			if (shp)
				*shp = sh;
			if (idx)
				*idx = elf_ndxscn(sec);
			return sec;
		}
	}
	if (shp)
		memset(shp, 0, sizeof(*shp));
	return NULL;
}

/* perf's elf_read_build_id(): the first of .note.gnu.build-id, .notes,
 * .note holding an NT_GNU_BUILD_ID note named "GNU". */
static size_t elf_build_id(Elf *elf, uint8_t out[20])
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	GElf_Ehdr ehdr;
	Elf_Scn *sec = NULL;

	if (!gelf_getehdr(elf, &ehdr))
		return 0;
	for (size_t i = 0; i < 3 && !sec; i++)
		sec = section_by_name(elf, &ehdr, NULL, names[i], NULL);
	if (!sec)
		return 0;
	Elf_Data *data = elf_getdata(sec, NULL);
	if (!data)
		return 0;
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp((const char *)data->d_buf + name_off, "GNU", 4) == 0) {
			size_t n = nh.n_descsz;
			/* perf copies the 4-aligned descriptor size, at most 20. */
			n = (n + 3) & ~(size_t)3;
			if (n > 20)
				n = 20;
			if (n > nh.n_descsz) {
				memset(out, 0, 20);
				memcpy(out, (const char *)data->d_buf + desc_off, nh.n_descsz);
			} else {
				memcpy(out, (const char *)data->d_buf + desc_off, n);
			}
			return n;
		}
	}
	return 0;
}

size_t rp_file_build_id(const char *path, uint8_t out[20])
{
	elf_init_once();
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t n = 0;
	if (elf && elf_kind(elf) == ELF_K_ELF)
		n = elf_build_id(elf, out);
	if (elf)
		elf_end(elf);
	close(fd);
	return n;
}

int rp_build_id_equal(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz)
{
	if (asz > bsz && asz == 20) {
		/* A recorded build-id padded with zeros to 20 bytes. */
		if (memcmp(a, b, bsz) != 0)
			return 0;
		for (size_t i = bsz; i < asz; i++)
			if (a[i])
				return 0;
		return 1;
	}
	return asz == bsz && memcmp(a, b, asz) == 0;
}

static void symsrc_destroy(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* perf's symsrc__init(): 0, -1 when the file is unusable (not ELF, or
 * its build-id differs from the DSO's), or RP_ERR_NOMEM. */
static int symsrc_init(struct symsrc *ss, const char *path, const uint8_t *bid, size_t bid_size)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return -1;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr))
		goto fail;
	if (bid_size) {
		uint8_t fb[20];
		size_t n = elf_build_id(ss->elf, fb);
		if (n == 0 || !rp_build_id_equal(bid, bid_size, fb, n))
			goto fail;
	}
	ss->symtab = section_by_name(ss->elf, &ss->ehdr, &ss->symshdr, ".symtab", NULL);
	if (ss->symshdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = section_by_name(ss->elf, &ss->ehdr, &ss->dynshdr, ".dynsym", &ss->dynsym_idx);
	if (ss->dynshdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	GElf_Shdr opd;
	ss->opd = section_by_name(ss->elf, &ss->ehdr, &opd, ".opd", NULL);
	if (opd.sh_type != SHT_PROGBITS)
		ss->opd = NULL;
	ss->path = strdup(path);
	if (!ss->path) {
		symsrc_destroy(ss);
		return RP_ERR_NOMEM;
	}
	return 0;
fail:
	symsrc_destroy(ss);
	return -1;
}

/* perf's elf_read_program_header(): the PT_LOAD segment holding vaddr. */
static int load_segment_of(Elf *elf, uint64_t vaddr, GElf_Phdr *out)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph))
			return -1;
		if (ph.p_type != PT_LOAD)
			continue;
		uint64_t sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (!sz)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < sz) {
			*out = ph;
			return 0;
		}
	}
	return -1;
}

#define RP_STT_NOTYPE 0
#define RP_STT_OBJECT 1
#define RP_STT_FUNC 2
#define RP_STT_GNU_IFUNC 10

static const char *sec_name(Elf *elf, const GElf_Ehdr *ehdr, const GElf_Shdr *sh)
{
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		shstrndx = ehdr->e_shstrndx;
	const char *n = elf_strptr(elf, shstrndx, sh->sh_name);
	return n ? n : "";
}

/* The functions binutils' addr2line sees in a symbol table, gathered by
 * load_sym() (its elf_find_function(): which symbols count, and when a
 * function is named after the STT_FILE symbol before it). */
struct a2l_list {
	struct rp_a2l_fn *v;
	size_t nr, alloc;
	size_t nsec;     /* section indexes below this count */
	struct rp_arena *names;
	const char *file; /* the last STT_FILE's name (the ELF's string) */
	const char *file_copy; /* ... copied into names, once used */
	int state;       /* 0 nothing seen, 1 a symbol seen, 2 a file after one */
	int nomem;
};

static void a2l_add(struct a2l_list *l, const GElf_Sym *sym, size_t idx, const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info);
	int local = GELF_ST_BIND(sym->st_info) == STB_LOCAL;

	if (idx == 0)
		return; /* bfd leaves the null symbol out */
	if (type == STT_FILE) {
		l->file = name;
		l->file_copy = NULL;
		if (l->state == 1)
			l->state = 2;
		return;
	}
	if ((type == RP_STT_FUNC || type == RP_STT_GNU_IFUNC || type == RP_STT_NOTYPE) &&
	    sym->st_shndx != SHN_UNDEF && sym->st_shndx < l->nsec &&
	    !(type == RP_STT_NOTYPE && sym->st_size == 0 && local &&
	      GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN) &&
	    l->nr < RP_SYMBOLS_MAX_SYMS) {
		const char *file = NULL;

		if (l->file && (local || l->state != 2)) {
			if (!l->file_copy && !(l->file_copy = rp_arena_strdup(l->names, l->file)))
				l->nomem = 1;
			file = l->file_copy;
		}
		if (RP_ARRAY_RESERVE(l->v, l->alloc, l->nr + 1) < 0)
			l->nomem = 1;
		else
			l->v[l->nr++] = (struct rp_a2l_fn){ sym->st_value, sym->st_size, file,
							    (uint32_t)sym->st_shndx, (uint32_t)idx };
	}
	if (l->state == 0)
		l->state = 1;
}

/* perf's dso__load_sym() for a user DSO; a2l (or NULL) gets the
 * functions binutils sees. */
static int load_sym(struct symsrc *syms, struct symsrc *runtime, struct rp_symtab_builder *b,
		    struct a2l_list *a2l)
{
	Elf_Scn *sec = syms->symtab;
	GElf_Shdr shdr = syms->symshdr;
	int nr = 0;

	if (!sec) {
		sec = syms->dynsym;
		shdr = syms->dynshdr;
	}
	if (!sec || shdr.sh_entsize == 0)
		return 0;
	Elf_Data *data = elf_getdata(sec, NULL);
	if (!data)
		return 0;
	Elf_Scn *strsec = elf_getscn(syms->elf, shdr.sh_link);
	Elf_Data *strs = strsec ? elf_getdata(strsec, NULL) : NULL;
	if (!strs)
		return 0;
	uint64_t nsyms = shdr.sh_size / shdr.sh_entsize;
	if (nsyms > RP_SYMBOLS_MAX_SYMS)
		nsyms = RP_SYMBOLS_MAX_SYMS;

	b->demangle = 1;
	for (uint64_t i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym))
			break;
		int type = GELF_ST_TYPE(sym.st_info);
		int vis = GELF_ST_VISIBILITY(sym.st_other);
		if (a2l)
			a2l_add(a2l, &sym, (size_t)i,
				sym.st_name < strs->d_size &&
						memchr((const char *)strs->d_buf + sym.st_name, 0,
						       strs->d_size - sym.st_name)
					? (const char *)strs->d_buf + sym.st_name
					: NULL);
		int is_label = type == RP_STT_NOTYPE && sym.st_name != 0 &&
			       sym.st_shndx != SHN_UNDEF && sym.st_shndx != SHN_ABS &&
			       vis != STV_HIDDEN && vis != STV_INTERNAL;
		int is_func = (type == RP_STT_FUNC || type == RP_STT_GNU_IFUNC) &&
			      sym.st_name != 0 && sym.st_shndx != SHN_UNDEF;
		int is_obj = type == RP_STT_OBJECT && sym.st_name != 0 &&
			     sym.st_shndx != SHN_UNDEF;
		if (!is_label && !is_func && !is_obj)
			continue;
		if (sym.st_name >= strs->d_size)
			continue;
		const char *name = (const char *)strs->d_buf + sym.st_name;
		size_t maxlen = strs->d_size - sym.st_name;
		size_t len = strnlen(name, maxlen);
		if (len == maxlen)
			continue;
		if ((syms->ehdr.e_machine == EM_ARM || syms->ehdr.e_machine == EM_AARCH64) &&
		    name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		    (name[2] == 0 || name[2] == '.'))
			continue;
		/* Symbols outside ordinary sections (SHN_ABS, SHN_COMMON,
		 * extended indexes) have no section to place them. */
		if (sym.st_shndx >= SHN_LORESERVE)
			continue;
		Elf_Scn *ssec = elf_getscn(syms->elf, sym.st_shndx);
		GElf_Shdr ssh;
		if (!ssec || !gelf_getshdr(ssec, &ssh))
			continue;
		/* Sections that occupy no memory at run time. */
		if (!(ssh.sh_flags & SHF_ALLOC))
			continue;
		Elf *secelf = syms->elf;
		GElf_Ehdr *sechdr = &syms->ehdr;
		/* A separate debug file has NOBITS where the runtime file has
		 * the bytes: take the runtime file's section header. */
		if (ssh.sh_type == SHT_NOBITS) {
			Elf_Scn *rsec = elf_getscn(runtime->elf, sym.st_shndx);
			if (!rsec || !gelf_getshdr(rsec, &ssh))
				continue;
			secelf = runtime->elf;
			sechdr = &runtime->ehdr;
		}
		if (is_label) {
			const char *sn = sec_name(secelf, sechdr, &ssh);
			if (!strstr(sn, "text") && !strstr(sn, "data"))
				continue;
		}
		uint64_t value = sym.st_value;
		if (syms->ehdr.e_machine == EM_ARM && type == RP_STT_FUNC && (value & 1))
			value--;
		GElf_Phdr ph;
		if (load_segment_of(runtime->elf, value, &ph) == 0)
			value -= ph.p_vaddr - ph.p_offset;
		else
			value -= ssh.sh_addr - ssh.sh_offset;
		int err = rp_symb_add(b, value, sym.st_size, (uint8_t)GELF_ST_BIND(sym.st_info),
				      (uint8_t)type, name, len);
		if (err < 0)
			return err;
		nr++;
	}
	return nr;
}

/* perf 6.1's dso__synthesize_plt_symbols(): one "name@plt" per .rela.plt
 * (or .rel.plt) entry, laid out from the start of .plt after a header
 * entry, in relocation order; offsets are .plt file offsets. */
static int synthesize_plt(struct symsrc *ss, struct rp_symtab_builder *b)
{
	GElf_Shdr rsh, psh;
	Elf_Scn *rsec;

	if (!ss->dynsym)
		return 0;
	rsec = section_by_name(ss->elf, &ss->ehdr, &rsh, ".rela.plt", NULL);
	if (!rsec) {
		rsec = section_by_name(ss->elf, &ss->ehdr, &rsh, ".rel.plt", NULL);
		if (!rsec)
			return 0;
	}
	if (rsh.sh_link != ss->dynsym_idx)
		return 0;
	if (!section_by_name(ss->elf, &ss->ehdr, &psh, ".plt", NULL))
		return 0;
	Elf_Data *rel = elf_getdata(rsec, NULL);
	Elf_Data *syms = elf_getdata(ss->dynsym, NULL);
	Elf_Scn *strsec = elf_getscn(ss->elf, ss->dynshdr.sh_link);
	Elf_Data *strs = strsec ? elf_getdata(strsec, NULL) : NULL;
	if (!rel || !syms || !strs || strs->d_size == 0 || rsh.sh_entsize == 0)
		return 0;

	uint64_t header, entry;
	switch (ss->ehdr.e_machine) {
	case EM_ARM:
		header = 20, entry = 12;
		break;
	case EM_AARCH64:
		header = 32, entry = 16;
		break;
	case EM_SPARC:
		header = 48, entry = 12;
		break;
	case EM_SPARCV9:
		header = 128, entry = 32;
		break;
	default:
		header = entry = psh.sh_entsize;
		break;
	}
	uint64_t off = psh.sh_offset + header;
	uint64_t n = rsh.sh_size / rsh.sh_entsize;
	if (n > RP_SYMBOLS_MAX_PLT)
		n = RP_SYMBOLS_MAX_PLT;
	int nr = 0;
	char namebuf[1024];

	b->demangle = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t info;
		if (rsh.sh_type == SHT_RELA) {
			GElf_Rela r;
			if (!gelf_getrela(rel, (int)i, &r))
				break;
			info = r.r_info;
		} else if (rsh.sh_type == SHT_REL) {
			GElf_Rel r;
			if (!gelf_getrel(rel, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			break;
		}
		GElf_Sym sym;
		const char *name = "";
		if (gelf_getsym(syms, (int)GELF_R_SYM(info), &sym) && sym.st_name < strs->d_size &&
		    memchr((const char *)strs->d_buf + sym.st_name, 0, strs->d_size - sym.st_name))
			name = (const char *)strs->d_buf + sym.st_name;
		char *dem = NULL;
		if (!b->no_demangle && rp_demangle(name, &dem) < 0)
			return RP_ERR_NOMEM;
		/* perf formats into a 1024-byte buffer. */
		int len = snprintf(namebuf, sizeof(namebuf), "%s@plt", dem ? dem : name);
		free(dem);
		if (len < 0)
			len = 0;
		if ((size_t)len >= sizeof(namebuf))
			len = sizeof(namebuf) - 1;
		int err = rp_symb_add(b, off, entry, 1 /* STB_GLOBAL */, RP_STT_FUNC, namebuf,
				      (size_t)len);
		if (err < 0)
			return err;
		off += entry;
		nr++;
	}
	return nr;
}

/* perf's dso__build_id_filename(): <dir>/.build-id/xx/rest, a file (old
 * layout) or a link to a directory holding `base`. */
static int build_id_cache_file(const struct rp_symbols *s, const uint8_t *bid, size_t n,
			       const char *base, char *out, size_t size)
{
	char hex[41];
	int len;

	rp_build_id_hex(hex, bid, n);
	len = snprintf(out, size, "%s/.build-id/%.2s/%s", s->buildid_dir, hex, hex + 2);
	if (len < 0 || (size_t)len >= size)
		return -1;
	if (is_regular_file(out))
		return 0;
	len = snprintf(out, size, "%s/.build-id/%.2s/%s/%s", s->buildid_dir, hex, hex + 2, base);
	return len < 0 || (size_t)len >= size ? -1 : 0;
}

/* The file named by .gnu_debuglink of path, copied into out. */
static int read_debuglink(const char *path, char *out, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret = -1;

	if (fd < 0)
		return -1;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh)) {
		Elf_Scn *sec = section_by_name(elf, &eh, NULL, ".gnu_debuglink", NULL);
		Elf_Data *d = sec ? elf_getdata(sec, NULL) : NULL;
		if (d && d->d_size > 0) {
			size_t n = strnlen(d->d_buf, d->d_size);
			if (n < size) {
				memcpy(out, d->d_buf, n);
				out[n] = 0;
				ret = 0;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

enum cand {
	CAND_DEBUGLINK,
	CAND_BUILD_ID_CACHE,
	CAND_BUILD_ID_CACHE_DEBUGINFO,
	CAND_FEDORA_DEBUGINFO,
	CAND_UBUNTU_DEBUGINFO,
	CAND_BUILDID_DEBUGINFO,
	CAND_SYSTEM_PATH_DSO,
	CAND_OPENEMBEDDED_DEBUGINFO,
	CAND_MIXEDUP_UBUNTU_DEBUGINFO,
	CAND_NR,
};

/* perf's dso__read_binary_type_filename() for user DSOs.  0 or -1. */
static int candidate_path(const struct rp_symbols *s, const char *long_name, int is_vdso,
			  const uint8_t *bid, size_t bid_size, enum cand c, char *out,
			  size_t size)
{
	char hex[41];
	int len = -1;

	switch (c) {
	case CAND_DEBUGLINK: {
		char file[RP_PATH_MAX], link[RP_PATH_MAX], dir[RP_PATH_MAX];
		len = snprintf(file, sizeof(file), "%s%s", s->symfs, long_name);
		if (len < 0 || (size_t)len >= sizeof(file) || !is_regular_file(file))
			return -1;
		const char *slash = strrchr(file, '/');
		size_t dl = slash ? (size_t)(slash - file) : 0;
		memcpy(dir, file, dl);
		dir[dl] = 0;
		if (read_debuglink(file, link, sizeof(link)) < 0)
			return -1;
		/* The places perf looks: the name itself, the DSO's directory,
		 * its .debug subdirectory, /usr/lib/debug + the directory. */
		for (int i = 0; i < 4; i++) {
			switch (i) {
			case 0:
				len = snprintf(out, size, "%s", link);
				break;
			case 1:
				len = snprintf(out, size, "%s/%s", dir, link);
				break;
			case 2:
				len = snprintf(out, size, "%s/.debug/%s", dir, link);
				break;
			default:
				len = snprintf(out, size, "/usr/lib/debug%s/%s", dir, link);
				break;
			}
			if (len >= 0 && (size_t)len < size && is_regular_file(out))
				return 0;
		}
		return -1;
	}
	case CAND_BUILD_ID_CACHE:
		if (!bid_size)
			return -1;
		return build_id_cache_file(s, bid, bid_size, is_vdso ? "vdso" : "elf", out, size);
	case CAND_BUILD_ID_CACHE_DEBUGINFO:
		if (!bid_size)
			return -1;
		return build_id_cache_file(s, bid, bid_size, "debug", out, size);
	case CAND_FEDORA_DEBUGINFO:
		len = snprintf(out, size, "%s/usr/lib/debug%s.debug", s->symfs, long_name);
		break;
	case CAND_UBUNTU_DEBUGINFO:
		len = snprintf(out, size, "%s/usr/lib/debug%s", s->symfs, long_name);
		break;
	case CAND_BUILDID_DEBUGINFO:
		if (!bid_size)
			return -1;
		rp_build_id_hex(hex, bid, bid_size);
		len = snprintf(out, size, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", s->symfs, hex,
			       hex + 2);
		break;
	case CAND_SYSTEM_PATH_DSO:
		len = snprintf(out, size, "%s%s", s->symfs, long_name);
		break;
	case CAND_OPENEMBEDDED_DEBUGINFO: {
		const char *slash = strrchr(long_name, '/');
		if (!slash)
			slash = long_name;
		int dl = (int)(slash - long_name) + 1;
		len = snprintf(out, size, "%s%.*s.debug%s", s->symfs, dl, long_name, slash);
		break;
	}
	case CAND_MIXEDUP_UBUNTU_DEBUGINFO:
		if (strncmp(long_name, "/usr/lib/", 9) != 0)
			return -1;
		len = snprintf(out, size, "%s/usr/lib/debug%s", s->symfs, long_name + 4);
		break;
	default:
		return -1;
	}
	return len < 0 || (size_t)len >= size ? -1 : 0;
}

/* Whether path is an ELF file (any class), as perf's dso__type_fd()
 * reads it. */
static int is_elf_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ok = 0;

	if (fd < 0)
		return 0;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		ok = elf_kind(elf) == ELF_K_ELF && gelf_getclass(elf) != ELFCLASSNONE;
		elf_end(elf);
	}
	close(fd);
	return ok;
}

int rp_symbols_dso_has_data(struct rp_symbols *s, const struct rp_dso *dso)
{
	void *known = rp_hashmap_get(&s->has_data, (uint64_t)(uintptr_t)dso);
	char path[RP_PATH_MAX];
	int is_vdso, found = 0;

	if (known)
		return (int)((uintptr_t)known - 1);
	if (dso->kind != RP_DSO_USER || !dso->long_name || !*dso->long_name)
		return 0;
	elf_init_once();
	is_vdso = strcmp(dso->long_name, "[vdso]") == 0;
	if (is_vdso && !dso->build_id_size)
		found = 1;
	else if (dso->build_id_size &&
		 candidate_path(s, dso->long_name, is_vdso, dso->build_id,
				dso->build_id_size > 20 ? 20 : dso->build_id_size, CAND_BUILD_ID_CACHE,
				path, sizeof(path)) == 0 &&
		 is_regular_file(path) && is_elf_file(path))
		found = 1;
	else if (candidate_path(s, dso->long_name, is_vdso, NULL, 0, CAND_SYSTEM_PATH_DSO, path,
				sizeof(path)) == 0 &&
		 is_regular_file(path) && is_elf_file(path))
		found = 1;
	/* Without memory the answer is found again next time. */
	(void)rp_hashmap_put(&s->has_data, (uint64_t)(uintptr_t)dso, (void *)(uintptr_t)(found + 1));
	return found;
}

/* The PT_LOAD segments of runtime, for source files: 0 or RP_ERR_NOMEM. */
static int keep_segments(struct symsrc *runtime, struct rp_dso_symtab *t)
{
	size_t n;

	if (elf_getphdrnum(runtime->elf, &n) != 0)
		return 0;
	if (n > RP_SYMBOLS_MAX_SEGMENTS)
		n = RP_SYMBOLS_MAX_SEGMENTS;
	t->segs = calloc(n ? n : 1, sizeof(*t->segs));
	if (!t->segs)
		return RP_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(runtime->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		uint64_t sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (!sz)
			continue;
		t->segs[t->nr_segs++] = (struct rp_segment){ ph.p_vaddr, ph.p_offset, sz, ph.p_flags };
	}
	return 0;
}

/* Order of binutils' functions: by section, address, size, and first
 * in the table first among equals (the last one at or before an address
 * is then the one binutils picks). */
static int a2l_cmp(const void *pa, const void *pb)
{
	const struct rp_a2l_fn *a = pa, *b = pb;

	if (a->sec != b->sec)
		return a->sec < b->sec ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a->idx > b->idx ? -1 : a->idx < b->idx;
}

/*
 * The allocated sections of syms (the file perf gives addr2line), each
 * with its slice of binutils' functions (a2l, handed over to t), and
 * perf's text_offset (runtime's .text address minus its file offset):
 * for the texts perf prints where no line is known
 * (rp_symbols_addr_in_func()).  0 or RP_ERR_NOMEM.
 */
static int keep_fn_sections(struct symsrc *syms, struct symsrc *runtime, struct rp_dso_symtab *t,
			    struct a2l_list *a2l)
{
	GElf_Shdr text;
	Elf_Scn *sec = NULL;
	size_t k = 0;

	if (section_by_name(runtime->elf, &runtime->ehdr, &text, ".text", NULL))
		t->text_offset = text.sh_addr - text.sh_offset;
	if (!a2l)
		return 0;
	if (a2l->nomem)
		return RP_ERR_NOMEM;
	if (a2l->nr)
		qsort(a2l->v, a2l->nr, sizeof(*a2l->v), a2l_cmp);
	t->a2l_fns = a2l->v;
	t->nr_a2l_fns = a2l->nr;
	a2l->v = NULL;
	while ((sec = elf_nextscn(syms->elf, sec)) != NULL) {
		size_t i = elf_ndxscn(sec);
		GElf_Shdr sh;

		if (!gelf_getshdr(sec, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		if (t->nr_fn_secs >= RP_SYMBOLS_MAX_SEGMENTS)
			break;
		if (!t->fn_secs &&
		    !(t->fn_secs = calloc(RP_SYMBOLS_MAX_SEGMENTS, sizeof(*t->fn_secs))))
			return RP_ERR_NOMEM;
		/* Sections come in index order, as the functions. */
		while (k < t->nr_a2l_fns && t->a2l_fns[k].sec < i)
			k++;
		size_t first = k;
		while (k < t->nr_a2l_fns && t->a2l_fns[k].sec == i)
			k++;
		t->fn_secs[t->nr_fn_secs++] =
			(struct rp_fn_sec){ sh.sh_addr, sh.sh_addr + sh.sh_size, first, k - first };
	}
	return 0;
}

static int has_debug_info(Elf *elf)
{
	GElf_Ehdr eh;
	GElf_Shdr sh;

	if (!gelf_getehdr(elf, &eh))
		return 0;
	return section_by_name(elf, &eh, &sh, ".debug_info", NULL) && sh.sh_type != SHT_NOBITS;
}

/* Largest vDSO image copied from this process, bytes. */
#define RP_VDSO_MAX (1u << 20)

/*
 * perf's vdso__get_filename(): a [vdso] the file names without a build-id
 * (pipe mode, --no-buildid) is read from the reading process's own vDSO,
 * copied to a file.  Here the copy is a memfd; *path gets its
 * /proc/self/fd name.  Returns the fd (the caller closes it) or -1.
 */
static int own_vdso_copy(char *path, size_t size)
{
	FILE *maps = fopen("/proc/self/maps", "re");
	char line[512];
	unsigned long start = 0, end = 0;
	int fd = -1;

	if (!maps)
		return -1;
	while (fgets(line, sizeof(line), maps)) {
		size_t n = strlen(line);

		while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
			line[--n] = 0;
		if (n >= 6 && !strcmp(line + n - 6, "[vdso]") &&
		    sscanf(line, "%lx-%lx", &start, &end) == 2)
			break;
		start = end = 0;
	}
	fclose(maps);
	if (end <= start || end - start > RP_VDSO_MAX)
		return -1;
	fd = memfd_create("rp-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, (const void *)(uintptr_t)start, end - start) != (ssize_t)(end - start) ||
	    snprintf(path, size, "/proc/self/fd/%d", fd) >= (int)size) {
		close(fd);
		return -1;
	}
	return fd;
}

int rp_load_user_dso(struct rp_symbols *s, const struct rp_dso *dso,
		     struct rp_symtab_builder *b, struct rp_dso_symtab *t)
{
	const char *long_name = dso->long_name;
	uint8_t bid[20];
	size_t bid_size = dso->build_id_size;
	char path[RP_PATH_MAX];
	struct symsrc ss[2];
	struct symsrc *syms = NULL, *runtime = NULL;
	int pos = 0, nr = 0;

	char vdso_path[64];
	int vdso_fd = -1;

	if (!long_name || !*long_name)
		return 0;
	elf_init_once();
	if (bid_size > 20)
		bid_size = 20;
	memcpy(bid, dso->build_id, bid_size);
	if (!bid_size && !strcmp(long_name, "[vdso]")) {
		vdso_fd = own_vdso_copy(vdso_path, sizeof(vdso_path));
		if (vdso_fd >= 0)
			long_name = vdso_path;
	}
	/* perf reads the build-id of the file on disk when none was
	 * recorded, so that the build-id locations can be tried. */
	if (!bid_size && is_regular_file(long_name)) {
		int len = snprintf(path, sizeof(path), "%s%s", s->symfs, long_name);
		if (len > 0 && (size_t)len < sizeof(path))
			bid_size = rp_file_build_id(path, bid);
		/* ... and keeps it as the DSO's (not our own [vdso] copy's). */
		if (vdso_fd < 0) {
			memcpy(t->file_build_id, bid, bid_size);
			t->file_build_id_size = (uint8_t)bid_size;
		}
	}
	int is_vdso = strcmp(dso->long_name, "[vdso]") == 0;

	for (int c = 0; c < CAND_NR; c++) {
		if (candidate_path(s, long_name, is_vdso, bid, bid_size, (enum cand)c, path,
				   sizeof(path)) < 0)
			continue;
		if (!is_regular_file(path))
			continue;
		struct symsrc *cur = &ss[pos];
		int err = symsrc_init(cur, path, bid, bid_size);
		if (err == RP_ERR_NOMEM) {
			nr = err;
			break;
		}
		if (err < 0)
			continue;
		int used = 0;
		if (!syms && cur->symtab) {
			syms = cur;
			used = 1;
		}
		if (!runtime && (cur->dynsym || cur->opd)) {
			runtime = cur;
			used = 1;
		}
		if (used) {
			pos++;
			if ((syms && runtime) || pos == 2)
				break;
		} else {
			symsrc_destroy(cur);
		}
	}
	if (nr < 0 || (!syms && !runtime)) {
		for (int i = 0; i < pos; i++)
			symsrc_destroy(&ss[i]);
		if (vdso_fd >= 0)
			close(vdso_fd);
		return nr;
	}
	if (!syms)
		syms = runtime;
	if (!runtime)
		runtime = syms;

	b->track_tree = 1;
	struct a2l_list a2l = { .names = &t->names };
	int with_a2l = elf_getshdrnum(syms->elf, &a2l.nsec) == 0;
	nr = load_sym(syms, runtime, b, with_a2l ? &a2l : NULL);
	if (nr >= 0) {
		int err = keep_fn_sections(syms, runtime, t, with_a2l ? &a2l : NULL);
		if (err < 0)
			nr = err;
	}
	free(a2l.v);
	if (nr > 0) {
		rp_symb_sort(b);
		rp_symb_fixup_end(b, 0);
		rp_symb_fixup_duplicate(b);
		rp_symb_compact(b);
		/* PLT entries come after the fix-ups, as in perf. */
		int np = synthesize_plt(runtime, b);
		if (np < 0)
			nr = np;
		else
			nr += np;
	}
	if (nr > 0) {
		t->addr_is_offset = 1;
		const char *dw = has_debug_info(syms->elf)	? syms->path
				 : has_debug_info(runtime->elf) ? runtime->path
								: NULL;
		if (keep_segments(runtime, t) < 0)
			nr = RP_ERR_NOMEM;
		else if (dw && !(t->dwarf_path = strdup(dw)))
			nr = RP_ERR_NOMEM;
		else if (!dw && vdso_fd < 0 && !(t->a2l_path = strdup(syms->path)))
			nr = RP_ERR_NOMEM;
		else if (vdso_fd < 0 && !(t->elf_path = strdup(runtime->path)))
			nr = RP_ERR_NOMEM;
	}
	for (int i = 0; i < pos; i++)
		symsrc_destroy(&ss[i]);
	if (vdso_fd >= 0)
		close(vdso_fd);
	return nr;
}
