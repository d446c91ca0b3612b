/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from a kallsyms file and JIT symbols from perf-<pid>.map
 * files, as perf 6.1 reads them (tools/lib/symbol/kallsyms.c
 * kallsyms__parse; tools/perf/util/symbol.c map__process_kallsym_symbol,
 * symbol_type__filter, __dso__load_kallsyms, maps__split_kallsyms,
 * dso__find_kallsyms, dso__load_perf_map).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/hex.h"
#include "symbols/symbols_int.h"

#define RP_PATH_MAX 4096

/* The value of a hex digit, 0xff for any other byte. */
static const uint8_t hex_value[256] = {
	['0'] = 0,  ['1'] = 1,	['2'] = 2,  ['3'] = 3,	['4'] = 4,  ['5'] = 5,	['6'] = 6,
	['7'] = 7,  ['8'] = 8,	['9'] = 9,  ['a'] = 10, ['b'] = 11, ['c'] = 12, ['d'] = 13,
	['e'] = 14, ['f'] = 15, ['A'] = 10, ['B'] = 11, ['C'] = 12, ['D'] = 13, ['E'] = 14,
	['F'] = 15,
};

static inline int hex_digit(unsigned char c)
{
	return c == '0' || hex_value[c] ? hex_value[c] : -1;
}

/* Reads a hex number; returns the number of digits. */
static size_t get_hex(const char *p, const char *end, uint64_t *v)
{
	size_t n = 0;
	uint64_t x = 0;
	int d;

	while (p + n < end && (d = hex_digit((unsigned char)p[n])) >= 0) {
		x = (x << 4) | (uint64_t)d;
		n++;
	}
	*v = x;
	return n;
}

static inline int ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* Reads a number in base 16 as strtoull(3) does (leading blanks, a sign,
 * an optional 0x); returns the bytes it used, 0 when there is none. */
static size_t get_hex_strtoull(const char *p, uint64_t *v)
{
	char *endp;

	*v = strtoull(p, &endp, 16);
	return (size_t)(endp - p);
}

/*
 * Reads at most cap bytes of path into *out (malloc'ed, NUL-terminated,
 * the caller frees it), *len bytes.  Returns 0, -1 when the file cannot
 * be opened (*out NULL), or RP_ERR_NOMEM.
 */
static int read_file(const char *path, size_t cap, char **out, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n = 0, alloc = 0;

	*out = NULL;
	if (!f)
		return -1;
	for (;;) {
		if (n + 65536 + 1 > alloc) {
			size_t na = alloc ? alloc * 2 : 1 << 20;
			char *nb = realloc(buf, na);
			if (!nb) {
				free(buf);
				fclose(f);
				return RP_ERR_NOMEM;
			}
			buf = nb;
			alloc = na;
		}
		size_t r = fread(buf + n, 1, 65536, f);
		n += r;
		if (r == 0 || n > cap)
			break;
	}
	fclose(f);
	if (n > cap)
		n = cap;
	buf[n] = 0;
	*len = n;
	*out = buf;
	return 0;
}

#define RP_KALLSYMS_MAX_FILE (512u << 20)

/*
 * The address of the function `name` in a kallsyms file (perf's
 * kallsyms__get_function_start()), or 0 when absent.
 */
static int kallsyms_find(const char *buf, size_t len, const char *name, uint64_t *addr)
{
	const char *p = buf, *end = buf + len;
	size_t nl = strlen(name);

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		uint64_t a;
		size_t h = get_hex(p, eol, &a);
		if (h && p + h + 3 <= eol && p[h] == ' ' && p[h + 2] == ' ') {
			char t = (char)toupper((unsigned char)p[h + 1]);
			const char *n = p + h + 3;
			if ((t == 'T' || t == 'W') && (size_t)(eol - n) == nl && memcmp(n, name, nl) == 0) {
				*addr = a;
				return 0;
			}
		}
		p = eol + 1;
	}
	return -1;
}

int rp_load_kallsyms_file(const char *path, struct rp_symtab_builder *b,
			  const char *module, int is_x86_64, uint64_t ref_addr)
{
	size_t len;
	char *buf;
	int rc = read_file(path, RP_KALLSYMS_MAX_FILE, &buf, &len);

	if (rc < 0)
		return rc == RP_ERR_NOMEM ? rc : 0;
	rc = rp_load_kallsyms_text(buf, len, b, module, is_x86_64, ref_addr);
	free(buf);
	return rc;
}

void *rp_kallsyms_prefetch_main(void *arg)
{
	struct rp_symbols *s = arg;

	/* A failure leaves no text: the load reads the file itself. */
	if (read_file("/proc/kallsyms", RP_KALLSYMS_MAX_FILE, &s->kallsyms_text,
		      &s->kallsyms_len) < 0)
		s->kallsyms_text = NULL;
	__atomic_store_n(&s->prefetch_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int rp_symbols_kallsyms_pending(const struct rp_symbols *s)
{
	return s && s->prefetching && !__atomic_load_n(&s->prefetch_done, __ATOMIC_ACQUIRE);
}

int rp_load_kallsyms_text(const char *buf, size_t len, struct rp_symtab_builder *b,
			  const char *module, int is_x86_64, uint64_t ref_addr)
{
	int nr = 0;
	uint64_t delta = 0;
	if (ref_addr) {
		/* The kernel map names its reference symbol (_text); a file
		 * from another boot (KASLR) is shifted back by the difference,
		 * and a file without the symbol is not used. */
		uint64_t a;
		if (kallsyms_find(buf, len, "_text", &a) < 0 &&
		    kallsyms_find(buf, len, "_stext", &a) < 0)
			return 0;
		delta = a - ref_addr;
	}
	b->demangle = 0;
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		uint64_t start;
		size_t h = get_hex(p, eol, &start);
		const char *q = p + h;
		p = eol + 1;
		if (h == 0 || q + 3 > eol || q[0] != ' ' || q[2] != ' ')
			continue;
		char type = q[1];
		const char *name = q + 3;
		size_t nlen = name <= eol ? (size_t)(eol - name) : 0;
		/* perf reads at most KSYM_NAME_LEN + 1 bytes of a name. */
		if (nlen > RP_SYMBOLS_MAX_KSYM_NAME + 1)
			nlen = RP_SYMBOLS_MAX_KSYM_NAME + 1;
		char ut = (char)ascii_upper(type);
		if (ut != 'T' && ut != 'W' && ut != 'D' && ut != 'B')
			continue;
		if (nlen > 0 && name[0] == '$')
			continue;
		uint8_t binding = type == 'W' ? 2 : type == ut ? 1 : 0;
		uint8_t stype = (ut == 'T' || ut == 'W') ? 2 : 1;
		int err = rp_symb_add(b, start, 0, binding, stype, name, nlen);
		if (err < 0)
			return err;
		nr++;
	}
	if (nr == 0)
		return 0;
	rp_symb_sort(b);
	rp_symb_fixup_end(b, 1);
	rp_symb_fixup_duplicate(b);
	nr = 0;
	for (size_t i = 0; i < b->nr; i++) {
		struct rp_sym_raw *r = &b->v[i];
		if (r->dead)
			continue;
		char *tab = strchr(r->name, '\t');
		if (tab || module) {
			/* Module symbols ("name\t[module]") belong to their
			 * module's map, kernel symbols to the kernel's. */
			if (!tab || !module || strcmp(tab + 1, module) != 0) {
				r->dead = 1;
				continue;
			}
			*tab = 0;
		} else if (is_x86_64 && r->name[0] == '_' &&
			   strcmp(r->name, "__entry_SYSCALL_64_trampoline") == 0) {
			r->dead = 1;
			continue;
		} else {
			r->start -= delta;
			r->end -= delta;
		}
		nr++;
	}
	rp_symb_compact(b);
	return nr;
}

int rp_load_perf_map(const char *path, struct rp_symtab_builder *b)
{
	size_t len;
	char *buf;
	int nr = read_file(path, RP_SYMBOLS_MAX_MAPFILE, &buf, &len);

	if (nr < 0)
		return nr == RP_ERR_NOMEM ? nr : 0;
	b->demangle = 0;
	b->track_tree = 1;
	char *p = buf, *end = buf + len;
	while (p < end) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		char *line = p;
		size_t ll = (size_t)(eol - p);
		p = eol + 1;
		/* perf drops the last byte of each line it reads, the newline,
		 * or the last byte of a last line that has none. */
		if (eol == end && ll)
			ll--;
		line[ll] = '\0';
		/* "START SIZE name", both in hex, read as strtoull(3) reads
		 * base 16 (perf's hex2u64): blanks first, then an optional
		 * "0x" prefix, which the JVM writes ("0x7f... 0x1a0 name"). */
		uint64_t start, size;
		size_t n = get_hex_strtoull(line, &start) + 1;
		if (n + 2 >= ll)
			continue;
		n += get_hex_strtoull(line + n, &size) + 1;
		if (n + 2 >= ll)
			continue;
		int err = rp_symb_add(b, start, size, 1, 2, line + n, ll - n);
		if (err < 0) {
			free(buf);
			return err;
		}
		nr++;
	}
	free(buf);
	return nr;
}

static int is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The build-id in /sys/kernel/notes (the running kernel's). */
static size_t running_kernel_build_id(uint8_t out[20])
{
	FILE *f = fopen("/sys/kernel/notes", "re");
	uint8_t buf[4096];
	size_t n, off = 0;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		size_t na = ((size_t)namesz + 3) & ~(size_t)3;
		size_t da = ((size_t)descsz + 3) & ~(size_t)3;
		if (na > n - off || da > n - off - na)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && memcmp(buf + off, "GNU", 4) == 0) {
			size_t sz = da > 20 ? 20 : da;
			memset(out, 0, 20);
			memcpy(out, buf + off + na, sz < descsz ? sz : descsz);
			return sz;
		}
		off += na + da;
	}
	return 0;
}

int rp_load_kernel(struct rp_symbols *s, const struct rp_dso *dso, struct rp_symtab_builder *b)
{
	char path[RP_PATH_MAX];
	const char *file = NULL;

	if (s->kallsyms) {
		file = s->kallsyms;
	} else if (s->symfs[0]) {
		/* perf tries no local file when a symfs is given. */
		return 0;
	} else if (!dso->build_id_size) {
		file = "/proc/kallsyms";
	} else {
		uint8_t rb[20];
		size_t rn = running_kernel_build_id(rb);
		if (rn && rp_build_id_equal(dso->build_id, dso->build_id_size, rb, rn)) {
			file = "/proc/kallsyms";
		} else {
			char hex[RP_BUILD_ID_HEX];

			rp_build_id_hex(hex, dso->build_id, dso->build_id_size);
			int len = snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms",
					   s->buildid_dir, hex);
			if (len < 0 || (size_t)len >= sizeof(path) || !is_regular_file(path))
				return 0;
			file = path;
		}
	}
	const char *module = dso->kind == RP_DSO_MODULE ? dso->short_name : NULL;

	if (s->prefetching) {
		pthread_join(s->prefetch, NULL);
		s->prefetching = 0;
	}
	if (s->kallsyms_text && !strcmp(file, "/proc/kallsyms"))
		return rp_load_kallsyms_text(s->kallsyms_text, s->kallsyms_len, b, module,
					     s->is_x86_64, s->kernel_ref_addr);
	return rp_load_kallsyms_file(file, b, module, s->is_x86_64, s->kernel_ref_addr);
}
