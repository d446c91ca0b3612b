/* SPDX-License-Identifier: MIT */
/*
 * perf annotate --stdio (perf 6.1, builtin-annotate.c and util/annotate.c:
 * __symbol__inc_addr_samples(), calc_percent(), symbol__annotate_printf(),
 * annotation_line__print()): samples counted per (event, DSO, function,
 * offset in the function); at the end each function with samples is
 * disassembled from its ELF file (disasm.c) and printed with the share of
 * its period that fell on each instruction.  docs/annotate.md states the
 * rules.
 */
#include <readperf/annotate.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <readperf/error.h>
#include <readperf/output.h>

#include "common/arena.h"
#include "common/error_int.h"
#include "common/hashmap.h"
#include "common/opts.h"
#include "outputs/disasm.h"
#include "outputs/output_int.h"
#include "symbols/symbols_int.h"

/* Caps on what a recording can make the output hold. */
#define RP_ANNOTATE_MAX_FN_FILES 256u      /* source files shown per function */
#define RP_ANNOTATE_MAX_HISTS (1u << 20)     /* (event, function) pairs */
#define RP_ANNOTATE_MAX_ADDRS (64u << 20)    /* distinct sampled addresses */
#define RP_ANNOTATE_MAX_EVSELS 65536u
/* A source file read for interleaving, bytes and lines. */
#define RP_ANNOTATE_MAX_SOURCE (64u << 20)
#define RP_ANNOTATE_MAX_SOURCE_LINES (4u << 20)
#define RP_ANNOTATE_MAX_SOURCES 4096u

/* Samples of one address of a function. */
struct ann_addr {
	uint64_t offset; /* from the function's start */
	uint64_t samples, period;
};

/* One function's histogram for one event (perf's struct sym_hist). */
struct ann_hist {
	const struct rp_symbol *sym;
	struct rp_dso *dso;
	int evsel;
	uint64_t samples, period;
	struct rp_hashmap addrs; /* offset -> index + 1 into v */
	struct ann_addr *v;
	size_t nr, alloc;
};

/* A source file's lines, read once. */
struct ann_source {
	char *text;         /* NULL: unreadable */
	size_t *starts;     /* line i (from 1) starts at text + starts[i - 1] */
	size_t nr_lines;    /* objdump's count (index_file()) */
};

struct rp_annotate {
	struct rp_annotate_opts opts;
	struct rp_output_env env;
	FILE *out;
	struct rp_hashmap index; /* (sym, evsel) key -> struct ann_hist * */
	struct ann_hist **hists;
	size_t nr_hists, alloc_hists;
	uint64_t nr_addrs;
	/* The last function looked at, and whether -s keeps it. */
	const struct rp_symbol *last_sym;
	int last_keep;
	struct rp_hashmap sources; /* hash of path -> struct ann_source * */
	size_t nr_sources;
	struct rp_disasm_lib *disasm; /* capstone, loaded by ann_create() */
	struct rp_arena fn_names;     /* objdump's function lines (ann_fn_line()) */
};

static uint64_t ann_key(const struct rp_symbol *sym, int evsel)
{
	/* user-space pointers leave the top 16 bits clear */
	return (uint64_t)(uintptr_t)sym ^ ((uint64_t)(uint32_t)evsel << 48);
}

static struct ann_hist *ann_hist_get(struct rp_annotate *a, const struct rp_symbol *sym,
				     struct rp_dso *dso, int evsel, int *err)
{
	uint64_t key = ann_key(sym, evsel);
	struct ann_hist *h = rp_hashmap_get(&a->index, key);

	if (h) {
		if (h->sym != sym || h->evsel != evsel) {
			*err = RP_ERR_LIMIT;
			return NULL;
		}
		return h;
	}
	if (a->nr_hists >= RP_ANNOTATE_MAX_HISTS) {
		*err = RP_ERR_LIMIT;
		return NULL;
	}
	if (a->nr_hists == a->alloc_hists) {
		size_t n = a->alloc_hists ? a->alloc_hists * 2 : 256;
		struct ann_hist **v = realloc(a->hists, n * sizeof(*v));

		if (!v) {
			*err = RP_ERR_NOMEM;
			return NULL;
		}
		a->hists = v;
		a->alloc_hists = n;
	}
	h = calloc(1, sizeof(*h));
	if (!h || rp_hashmap_put(&a->index, key, h) < 0) {
		free(h);
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	h->sym = sym;
	h->dso = dso;
	h->evsel = evsel;
	a->hists[a->nr_hists++] = h;
	return h;
}

static int ann_count(struct rp_annotate *a, struct ann_hist *h, uint64_t offset, uint64_t period)
{
	uintptr_t slot = (uintptr_t)rp_hashmap_get(&h->addrs, offset);

	if (!slot) {
		if (a->nr_addrs >= RP_ANNOTATE_MAX_ADDRS)
			return RP_ERR_LIMIT;
		if (h->nr == h->alloc) {
			size_t n = h->alloc ? h->alloc * 2 : 16;
			struct ann_addr *v = realloc(h->v, n * sizeof(*v));

			if (!v)
				return RP_ERR_NOMEM;
			h->v = v;
			h->alloc = n;
		}
		h->v[h->nr] = (struct ann_addr){ offset, 0, 0 };
		slot = ++h->nr;
		a->nr_addrs++;
		if (rp_hashmap_put(&h->addrs, offset, (void *)slot) < 0)
			return RP_ERR_NOMEM;
	}
	h->v[slot - 1].samples++;
	h->v[slot - 1].period += period;
	h->samples++;
	h->period += period;
	return 0;
}

static int ann_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_annotate *a = ctx;
	const struct rp_symbol *sym;
	int err = 0, idx;

	if (ev->type != RP_RECORD_SAMPLE || !ev->evsel || !res || !(sym = res->al.sym) ||
	    !res->al.dso)
		return 0;
	if (sym != a->last_sym) {
		a->last_sym = sym;
		a->last_keep = !a->opts.symbol || (sym->name && !strcmp(sym->name, a->opts.symbol));
	}
	if (!a->last_keep)
		return 0;
	/* perf's __symbol__inc_addr_samples() refuses addresses outside
	 * the symbol (ERANGE) */
	if (res->al.addr < sym->start || res->al.addr >= sym->end)
		return 0;
	idx = rp_evsel_idx(ev->evsel);
	if (idx < 0 || (unsigned)idx >= RP_ANNOTATE_MAX_EVSELS)
		return 0;
	struct ann_hist *h = ann_hist_get(a, sym, res->al.dso, idx, &err);
	if (!h)
		return err;
	return ann_count(a, h, res->al.addr - sym->start, ev->u.sample.period);
}

/* perf's hists sorted for output (perf annotate sorts by dso,sym): the
 * largest period first, then the DSO's short name, then the symbol's
 * name, ascending. */
static int ann_hist_cmp(const void *pa, const void *pb)
{
	const struct ann_hist *a = *(const struct ann_hist *const *)pa;
	const struct ann_hist *b = *(const struct ann_hist *const *)pb;
	const char *na, *nb;
	int c;

	if (a->evsel != b->evsel)
		return a->evsel < b->evsel ? -1 : 1;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	na = rp_dso_short_name(a->dso);
	nb = rp_dso_short_name(b->dso);
	if ((c = strcmp(na ? na : "", nb ? nb : "")))
		return c;
	na = a->sym->name;
	nb = b->sym->name;
	if ((c = strcmp(na ? na : "", nb ? nb : "")))
		return c;
	if (a->sym->start != b->sym->start)
		return a->sym->start < b->sym->start ? -1 : 1;
	return 0;
}

static int ann_addr_cmp(const void *pa, const void *pb)
{
	const struct ann_addr *a = pa, *b = pb;

	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* The lines of path, read once (NULL: unreadable or too large). */
static const struct ann_source *ann_source(struct rp_annotate *a, const char *path)
{
	uint64_t key = rp_hash_bytes(path, strlen(path));
	struct ann_source *s = rp_hashmap_get(&a->sources, key);
	struct stat st;
	FILE *f;

	if (s)
		return s->text ? s : NULL;
	if (a->nr_sources >= RP_ANNOTATE_MAX_SOURCES)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s || rp_hashmap_put(&a->sources, key, s) < 0) {
		free(s);
		return NULL;
	}
	a->nr_sources++;
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > RP_ANNOTATE_MAX_SOURCE) {
		fclose(f);
		return NULL;
	}
	size_t size = (size_t)st.st_size;
	char *text = malloc(size + 1);
	if (!text || fread(text, 1, size, f) != size) {
		free(text);
		fclose(f);
		return NULL;
	}
	fclose(f);
	text[size] = '\0';
	/*
	 * objdump's index_file(): a line ends at "\n", "\n\r", "\r" or
	 * "\r\n"; a last line without an end is no line.  Lines are shown up
	 * to their first '\n', '\r' or NUL (print_line()).
	 */
	size_t nr = 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t start = 0;

		nr = 0;
		for (size_t i = 0; i < size; i++) {
			if (text[i] == '\n' || text[i] == '\r') {
				if (i + 1 < size && text[i + 1] == (text[i] == '\n' ? '\r' : '\n'))
					i++;
			} else {
				continue;
			}
			if (pass)
				s->starts[nr] = start;
			nr++;
			start = i + 1;
		}
		if (pass)
			break;
		if (nr > RP_ANNOTATE_MAX_SOURCE_LINES) {
			free(text);
			return NULL;
		}
		s->starts = malloc((nr ? nr : 1) * sizeof(*s->starts));
		if (!s->starts) {
			free(text);
			return NULL;
		}
	}
	s->nr_lines = nr;
	s->text = text;
	return s;
}

/* The DSO being printed, for naming branch targets. */
struct ann_namer {
	struct rp_symbols *symbols;
	struct rp_dso *dso;
	const struct rp_code *code;
};

static int ann_name(void *ctx, uint64_t vaddr, char *buf, size_t size)
{
	struct ann_namer *n = ctx;
	uint64_t off;
	const struct rp_symbol *sym;

	if (rp_code_offset(n->code, vaddr, &off) < 0 ||
	    !(sym = rp_symbols_find(n->symbols, n->dso, off)) || !sym->name)
		return 0;
	if (off == sym->start)
		snprintf(buf, size, "%s", sym->name);
	else
		snprintf(buf, size, "%s+0x%" PRIx64, sym->name, off - sym->start);
	return 1;
}

/* perf's expand_tabs() of objdump's "ADDR:\tTEXT": spaces from the
 * colon to the next multiple of 8 columns (at least one). */
static int ann_pad(uint64_t addr)
{
	char tmp[24];
	int col = snprintf(tmp, sizeof(tmp), "%" PRIx64, addr) + 1;
	int n = 1;

	for (col++; col % 8; col++)
		n++;
	return n;
}

struct ann_line {
	struct rp_insn insn;
	const char *file; /* source position, NULL: none */
	uint32_t line, discr;
	const char *fn; /* objdump's "NAME():" line for the function there, NULL: none */
};

/*
 * perf's reading of objdump -l -S's output (util/annotate.c,
 * symbol__disassemble(), symbol__parse_objdump_line(),
 * annotation_line__print()): every line is trimmed (isspace at both ends)
 * and its tabs expanded to the next multiple of 8 columns; a line
 * "/FILE:N..." (an absolute path, no ':' in it, then digits) is not
 * printed but sets the number of the next line to N; every other line,
 * instructions too, takes the current number and adds one.  A blank line
 * prints no number.
 */
struct ann_objdump {
	FILE *out;
	int width; /* perf's addr_fmt_width: the last instruction's hex digits */
	long nr;   /* perf's line_nr */
};

static void ann_od_text(struct ann_objdump *o, const char *s, size_t n)
{
	size_t i, col = 0;

	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n && s[0] == '/') {
		for (i = 1; i < n && s[i] != ':'; i++)
			;
		if (i > 1 && i + 1 < n && isdigit((unsigned char)s[i + 1])) {
			long v = 0;

			/* atoi(): digits up to the first other byte */
			for (i++; i < n && isdigit((unsigned char)s[i]) && v < 100000000; i++)
				v = v * 10 + (s[i] - '0');
			o->nr = v;
			return;
		}
	}
	if (!n) {
		fprintf(o->out, "%9s:\n", "");
		o->nr++;
		return;
	}
	fprintf(o->out, "%9s: %-*ld ", "", o->width, o->nr);
	for (i = 0; i < n; i++) {
		if (s[i] == '\t') {
			do {
				fputc(' ', o->out);
			} while (++col % 8);
			continue;
		}
		fputc(s[i], o->out);
		col++;
	}
	fputc('\n', o->out);
	o->nr++;
}

static void ann_od_str(struct ann_objdump *o, const char *s)
{
	ann_od_text(o, s, strlen(s));
}

/* objdump -S's state of one source file (binutils 2.40 objdump.c,
 * struct print_file_list: max_printed, last_line), for one function:
 * perf runs objdump once per function. */
struct ann_od_file {
	const char *path;
	const struct ann_source *src; /* NULL: objdump cannot open it */
	uint32_t max_printed, last_line;
};

/*
 * objdump -l -S's show_line() before the instruction of lines[i]: the
 * function's name the first time a line is known, the "FILE:LINE" (and
 * " (discriminator N)") line when the line or discriminator changed,
 * then (with the source) the file's lines from the last one shown, or
 * up to SHOW_PRECEDING_CONTEXT_LINES (5) before, to this one.
 */
struct ann_od_state {
	struct ann_od_file files[RP_ANNOTATE_MAX_FN_FILES];
	size_t nr_files;
	int fn_shown;
	const char *prev_fn;
	int64_t prev_line; /* -1: none, as after a new function name */
	uint32_t prev_discr;
};

static void ann_od_show_line(struct rp_annotate *a, struct ann_objdump *o,
			     struct ann_od_state *st, const struct ann_line *l, const char *fn)
{
	char buf[4200];

	if (!l->file && !l->fn)
		return;
	if (l->fn)
		fn = l->fn;
	if (!st->fn_shown || strcmp(fn, st->prev_fn)) {
		ann_od_str(o, fn);
		st->fn_shown = 1;
		st->prev_fn = fn;
		st->prev_line = -1;
	}
	if (!l->file)
		return; /* bfd named the function from the symbol table alone */
	if (l->line && ((int64_t)l->line != st->prev_line || l->discr != st->prev_discr)) {
		if (l->discr)
			snprintf(buf, sizeof(buf), "%s:%" PRIu32 " (discriminator %" PRIu32 ")",
				 l->file, l->line, l->discr);
		else
			snprintf(buf, sizeof(buf), "%s:%" PRIu32, l->file, l->line);
		ann_od_str(o, buf);
	}
	if (!a->opts.no_source && l->line) {
		struct ann_od_file *f = NULL;

		for (size_t i = 0; i < st->nr_files && !f; i++)
			if (!strcmp(st->files[i].path, l->file))
				f = &st->files[i];
		if (!f && st->nr_files < RP_ANNOTATE_MAX_FN_FILES) {
			f = &st->files[st->nr_files++];
			*f = (struct ann_od_file){ l->file, ann_source(a, l->file), 0, 0 };
		}
		if (f && f->src && l->line != f->last_line) {
			uint32_t from = l->line - 5;

			if (from >= l->line)
				from = 1;
			if (f->max_printed >= from)
				from = f->max_printed < l->line ? f->max_printed + 1 : l->line;
			for (uint32_t n = from; n <= l->line && n - 1 < f->src->nr_lines; n++) {
				const char *t = f->src->text + f->src->starts[n - 1];

				ann_od_text(o, t, strcspn(t, "\n\r"));
			}
			if (f->max_printed < l->line)
				f->max_printed = l->line;
			f->last_line = l->line;
		}
	}
	if (l->line)
		st->prev_line = l->line;
	st->prev_discr = l->discr;
}

/*
 * objdump -l's line naming a function (show_line()): the name demangled
 * with its parameters ("NAME(ARGS):", demangling gives the parentheses),
 * else "NAME():".  Interned in a->fn_names; *out valid until the output
 * is destroyed.  0 or RP_ERR_NOMEM.
 */
static int ann_fn_line(struct rp_annotate *a, const char *name, int plain, const char **out)
{
	char *dem = NULL;
	int err = plain ? 0 : rp_demangle_params(name, &dem);

	if (err < 0)
		return err;
	size_t n = strlen(dem ? dem : name);
	char *line = rp_arena_alloc(&a->fn_names, n + 4);
	if (!line) {
		free(dem);
		return RP_ERR_NOMEM;
	}
	snprintf(line, n + 4, "%s%s", dem ? dem : name, dem ? ":" : "():");
	free(dem);
	*out = line;
	return 0;
}

/* A symbol of t starting at off (the first of them), or NULL. */
static const struct rp_symbol *ann_sym_at(const struct rp_dso_symtab *t, uint64_t off)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nr && t->syms[lo].start == off ? &t->syms[lo] : NULL;
}

static void ann_skipped(struct rp_annotate *a, const struct ann_hist *h, const char *why)
{
	if (a->opts.list_skipped)
		fprintf(a->out, "readperf: cannot annotate %s: %s\n", h->sym->name ? h->sym->name : "?",
			why);
}

static int ann_print(struct rp_annotate *a, struct ann_hist *h)
{
	struct rp_symbols *symbols = a->env.symbols;
	const struct rp_symbol *sym = h->sym;
	struct rp_dso_symtab *t = rp_symbols_table(symbols, h->dso);
	struct rp_code code;
	struct rp_disasm *d = NULL;
	const char *why = NULL;
	struct ann_line *lines = NULL;
	size_t nr = 0, alloc = 0, pos = 0;
	struct rp_hashmap renamed = RP_HASHMAP_INIT; /* objdump's naming state */
	struct ann_od_state *ods = NULL;
	int ret = 0;

	if (!t || !t->elf_path || !t->addr_is_offset) {
		ann_skipped(a, h, "no ELF file of its DSO (a kernel without vmlinux?)");
		return 0;
	}
	if (sym->end <= sym->start) {
		ann_skipped(a, h, "the symbol has no size");
		return 0;
	}
	if (rp_code_read(&code, t->elf_path, sym->start, sym->end - sym->start,
			 RP_ANNOTATE_MAX_SYMBOL_SIZE, &why) < 0) {
		ann_skipped(a, h, why);
		return 0;
	}
	if (rp_disasm_new(&d, a->disasm, &code, &why) < 0) {
		rp_code_release(&code);
		ann_skipped(a, h, why);
		return 0;
	}
	struct ann_namer namer = { symbols, h->dso, &code };
	const char *prev_fname = NULL, *prev_fn = NULL;
	int prev_plain = 0;
	for (;;) {
		if (nr == alloc) {
			size_t n = alloc ? alloc * 2 : 64;
			struct ann_line *v = realloc(lines, n * sizeof(*v));

			if (!v) {
				ret = RP_ERR_NOMEM;
				goto out;
			}
			lines = v;
			alloc = n;
		}
		if (rp_disasm_next(d, &code, &pos, &lines[nr].insn, ann_name, &namer) <= 0)
			break;
		{
			/* back to the DSO's space: the function's own offset */
			uint64_t off = sym->start + (lines[nr].insn.addr - code.vaddr);
			int r = rp_symbols_objdump_line(symbols, h->dso, off, &lines[nr].file,
							&lines[nr].line, &lines[nr].discr);

			const char *fname = NULL;
			int plain = 1;

			if (r < 0) {
				ret = r;
				goto out;
			}
			lines[nr].fn = NULL;
			r = rp_symbols_objdump_fn(symbols, h->dso, off, &renamed, &fname, &plain);
			if (r < 0) {
				ret = r;
				goto out;
			}
			if (!lines[nr].file) {
				/* no DWARF line: bfd's find_nearest_line still
				 * names a function symbol at or before it in its
				 * section (what addr2line answers "FILE:?" or
				 * "??:?" for), from the static symbols objdump
				 * passes it (none in a stripped file: addr2line
				 * falls back to the dynamic ones, objdump not) */
				uint64_t shown;
				const struct rp_symbol *fs;

				if (code.has_symtab &&
				    rp_symbols_addr_in_func(symbols, h->dso, off, &shown, NULL) == 1 &&
				    (fs = rp_symbols_find(symbols, h->dso, off)) && fs->name)
					fname = fs->name, plain = 1;
				else
					fname = NULL;
			}
			/* DWARF's names are stable pointers: one line per run of them */
			if (fname && fname == prev_fname && plain == prev_plain) {
				lines[nr].fn = prev_fn;
			} else if (fname) {
				if ((r = ann_fn_line(a, fname, plain, &lines[nr].fn)) < 0) {
					ret = r;
					goto out;
				}
				prev_fname = fname;
				prev_plain = plain;
				prev_fn = lines[nr].fn;
			}
		}
		nr++;
	}
	if (!nr) {
		ann_skipped(a, h, "no instructions");
		goto out;
	}

	qsort(h->v, h->nr, sizeof(*h->v), ann_addr_cmp);
	const struct rp_evsel *evsel = rp_session_evsel(a->env.session, (size_t)h->evsel);
	const char *evname = evsel ? rp_evsel_name(evsel) : NULL;
	const char *dso_name = rp_dso_long_name(h->dso);
	const char *base = dso_name ? strrchr(dso_name, '/') : NULL;
	base = base ? base + 1 : dso_name ? dso_name : "";
	int len = fprintf(a->out,
			  " %-8.8s|\tSource code & Disassembly of %s for %s (%" PRIu64
			  " samples, percent: local period)\n",
			  a->opts.show_nr_samples ? "Samples" : "Percent", base,
			  evname ? evname : "", h->samples);
	for (int i = 0; i < len + 4; i++)
		fputc('-', a->out);
	fputc('\n', a->out);

	char tmp[24];
	int width = snprintf(tmp, sizeof(tmp), "%" PRIx64, lines[nr - 1].insn.addr);
	/* objdump's preamble: its blank line, "FILE:     file format ..."
	 * (perf skips the lines holding "FILE:"), the section's and the
	 * symbol's lines */
	struct ann_objdump od = { a->out, width, 0 };
	char buf[1200];
	ann_od_str(&od, "");
	ann_od_str(&od, "");
	ods = calloc(1, sizeof(*ods));
	if (!ods) {
		ret = RP_ERR_NOMEM;
		goto out;
	}

	const char *fallback;
	if ((ret = ann_fn_line(a, sym->name ? sym->name : "", 1, &fallback)) < 0)
		goto out;
	size_t ai = 0, cur_sect = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct rp_insn *in = &lines[i].insn;
		uint64_t off = in->addr - code.vaddr;
		uint64_t end = i + 1 < nr ? lines[i + 1].insn.addr - code.vaddr
					  : sym->end - sym->start;
		uint64_t samples = 0, period = 0;

		/* perf's calc_percent(): what fell in [this, next) */
		while (ai < h->nr && h->v[ai].offset < off)
			ai++;
		while (ai < h->nr && h->v[ai].offset < end) {
			samples += h->v[ai].samples;
			period += h->v[ai].period;
			ai++;
		}
		/* objdump's lines before each section it disassembles, and
		 * before each symbol that starts in it (the function's own
		 * name first; the names are its own choice: docs/annotate.md) */
		size_t sect = 0;
		while (sect < code.nr_sects &&
		       (in->addr < code.sects[sect].lo || in->addr >= code.sects[sect].hi))
			sect++;
		const struct rp_symbol *at = NULL;
		if (i == 0) {
			at = sym;
		} else {
			uint64_t doff;

			if (rp_code_offset(&code, in->addr, &doff) == 0)
				at = ann_sym_at(t, doff);
		}
		if (i == 0 || sect != cur_sect) {
			ann_od_str(&od, "");
			snprintf(buf, sizeof(buf), "Disassembly of section %s:",
				 sect < code.nr_sects ? code.sects[sect].name : "");
			ann_od_str(&od, buf);
		}
		if (at || i == 0 || sect != cur_sect) {
			/* "ADDR <NAME>:", printed whole (ann_od_text() would
			 * leave it as it is but for its length) */
			ann_od_str(&od, "");
			fprintf(a->out, "%9s: %-*ld %0*" PRIx64 " <%s>:\n", "", od.width, od.nr,
				code.is64 ? 16 : 8, in->addr, at && at->name ? at->name : "");
			od.nr++;
		}
		cur_sect = sect;
		ann_od_show_line(a, &od, ods, &lines[i], fallback);
		od.nr++; /* the instruction's own line */
		if (a->opts.show_nr_samples)
			fprintf(a->out, " %7" PRIu64 " : ", samples);
		else
			fprintf(a->out, " %7.2f : ",
				h->period ? 100.0 * (double)period / (double)h->period : 0.0);
		fprintf(a->out, "  %*" PRIx64 ":%*s%s\n", width, in->addr, ann_pad(in->addr), "",
			in->text);
	}
out:
	free(ods);
	rp_hashmap_release(&renamed);
	free(lines);
	rp_disasm_free(d);
	rp_code_release(&code);
	return ret;
}

static int ann_finish(void *state, struct rp_error *err)
{
	struct rp_annotate *a = state;
	int ret;

	if (a->nr_hists)
		qsort(a->hists, a->nr_hists, sizeof(*a->hists), ann_hist_cmp);
	for (size_t i = 0; i < a->nr_hists; i++) {
		if (!a->hists[i]->samples)
			continue;
		if ((ret = ann_print(a, a->hists[i])) < 0)
			return rp_error_set(err, ret, "out of memory");
	}
	if (fflush(a->out) != 0 || ferror(a->out))
		return rp_error_set(err, RP_ERR_IO, "cannot write the output");
	return 0;
}

static void ann_destroy(void *state)
{
	struct rp_annotate *a = state;

	if (!a)
		return;
	for (size_t i = 0; i < a->nr_hists; i++) {
		rp_hashmap_release(&a->hists[i]->addrs);
		free(a->hists[i]->v);
		free(a->hists[i]);
	}
	free(a->hists);
	rp_hashmap_release(&a->index);
	for (size_t i = 0; i < a->sources.cap; i++) {
		struct ann_source *s = a->sources.slots[i].value;

		if (s) {
			free(s->text);
			free(s->starts);
			free(s);
		}
	}
	rp_hashmap_release(&a->sources);
	rp_disasm_lib_free(a->disasm);
	rp_arena_release(&a->fn_names);
	free(a);
}

static int ann_create(void **state, const struct rp_output_env *env, const void *opts,
		      const struct rp_output_target *target, struct rp_error *err)
{
	struct rp_annotate *a;
	int ret;

	if (!env->symbols)
		return rp_error_set(err, RP_ERR_INVAL, "needs symbols (env.symbols)");
	a = calloc(1, sizeof(*a));
	if (!a)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (rp_opts_copy(&a->opts, sizeof(a->opts), opts) < 0) {
		free(a);
		return rp_error_set(err, RP_ERR_INVAL, "bad options");
	}
	/* capstone: loaded by this output, not by every program on the
	 * library (disasm.h); a build or a machine without it fails here,
	 * before any record is read. */
	if ((ret = rp_disasm_lib_load(&a->disasm, err)) < 0) {
		free(a);
		return ret;
	}
	a->env = *env;
	a->out = target->stream;
	*state = a;
	return 0;
}

static struct rp_consumer ann_consumer(void *state)
{
	struct rp_consumer c = { state, ann_event, 0 };

	return c;
}

const struct rp_output_def rp_output_annotate = {
	.name = "annotate",
	.flags = RP_OUTPUT_SYMBOLS,
	.create = ann_create,
	.consumer = ann_consumer,
	.finish = ann_finish,
	.destroy = ann_destroy,
};
