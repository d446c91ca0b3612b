/* SPDX-License-Identifier: MIT */
/*
 * The function overview: perf report's histogram (perf 6.1,
 * tools/perf/util/hist.c, sort.c, ui/stdio/hist.c, builtin-report.c).
 *
 * One histogram per evsel.  A sample goes to the entry whose sort keys
 * (comm, pid, dso, sym, cpu) equal its own, as perf merges entries; the
 * rows are then ordered and printed as `perf report --stdio --no-children
 * -g none` does.  An event group of the file (GROUP_DESC) is printed as one
 * section: the members' entries are linked into the leader's histogram
 * (perf's hists__match/hists__link) and each row shows every member's
 * share.  docs/report.md states every rule with its reason.
 */
#include "report/report_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <readperf/error.h>
#include <readperf/filter.h>

#include "common/arena.h"
#include "common/array.h"
#include "common/hashmap.h"
#include "common/strpool.h"
#include "report/callchain_int.h"
#include "report/rbsort.h"
#include "report/stacks_int.h"
#include "process_int.h"

/* Entries one evsel may hold: a file cannot make the report grow beyond. */
#define RP_REPORT_MAX_ENTRIES (64u << 20)
/* Evsels the report keeps histograms for (attrs of the file). */
#define RP_REPORT_MAX_EVSELS (1u << 16)

/* perf prints unresolved addresses with BITS_PER_LONG / 4 digits. */
#define RP_ADDR_DIGITS 16
/* perf formats a group's description into a buffer of this size. */
#define RP_GROUP_DESC_MAX 512
/* Fixed widths of perf's hpp columns (ui/hist.c), per group member. */
#define RP_WIDTH_OVERHEAD 8
#define RP_WIDTH_SAMPLES 12
#define RP_WIDTH_PERIOD 12
/* perf report's --max-stack default (the kernel's perf_event_max_stack):
 * frames of a call stack it looks at, counted from the drawing's root. */
#define RP_REPORT_MAX_STACK 127
/* perf's default call-graph threshold (percent). */
#define RP_CALL_THRESHOLD_DEFAULT 0.5

/* Slots of the per-sample entry cache (a power of two). */
#define RP_REPORT_ECACHE 1024u
/* Entries of the cache of source-line texts by location (a power of two). */
#define RP_REPORT_SRCCACHE 1024u

/* A group member's figures for one row of the leader. */
struct rp_pair {
	uint64_t period;
	uint64_t nr_samples;
};

struct rp_hist_entry {
	struct rp_hist_entry *next; /* hash chain */
	/* In a linked group leader: one pair per member after the leader,
	 * zero where the member has no such entry; else NULL. */
	struct rp_pair *pairs;
	uint64_t hash;
	const char *comm;     /* interned: the comm at the sample's time */
	struct rp_thread *thread;
	int32_t tid;
	int32_t cpu;
	const char *dso_name; /* interned short name; NULL: no map */
	const char *sym_name; /* interned; NULL: unresolved */
	uint64_t sym_start, sym_end;
	uint8_t sym_inlined;  /* an inlined function's frame (--children) */
	const char *srcline;  /* interned, srcline key: "file.c:12", "sym+off", ... */
	const char *srcfile;  /* interned, srcfile key: "file.c" or "" */
	uint64_t ip;          /* al.addr: the address in the DSO's space */
	char level;
	uint64_t period;
	uint64_t nr_samples;
	uint64_t acc_period;  /* --children: samples whose stack holds it */
	uint64_t acc_samples;
	struct rp_cnode *chain; /* the call paths, when graphs are built */
	/* The RP_FILTERED_* marks of the sample that made the entry: perf
	 * keeps those of the first sample and hides the row when set. */
	unsigned filtered;
};

struct rp_hists {
	struct rp_hashmap map; /* hash -> first entry of the chain */
	struct rp_hist_entry **entries;
	size_t nr_entries, alloc;
	uint64_t nr_samples;
	uint64_t total_period;
	int linked; /* the members' entries are in this leader's table */
};

/* How one evsel is grouped, for the write. */
struct rp_evgroup {
	size_t leader;       /* hists index of the leader; itself when alone */
	uint32_t nr_members; /* leader included; 1 for an event on its own */
	const char *name;    /* the group's name; NULL: anonymous */
	int forced;          /* a --group of a file without groups */
};

struct rp_report {
	const struct rp_session *session;
	enum rp_sort_key keys[RP_REPORT_MAX_KEYS];
	size_t nr_keys;
	char *field_sep;
	double percent_limit;
	enum rp_report_group group_mode;
	uint64_t lost_samples;
	struct rp_hists *hists;
	size_t nr_hists;
	struct rp_arena arena;
	struct rp_strpool pool;
	struct rp_hashmap dso_names; /* struct rp_dso * -> interned short name */
	const char *last_comm_in, *last_comm;
	int comms_overridden;        /* rp_report_override_default_comms() ran */
	struct rp_dso *last_dso;     /* the last DSO named, and its name */
	const char *last_dso_name;
	/* The entries samples fell in lately, by a cheap hash of their key:
	 * a sample whose key matches one (rp_entry_same, same hists) needs
	 * no hashing and no table lookup. */
	struct {
		struct rp_hist_entry *e;
		size_t idx; /* hists index */
	} ecache[RP_REPORT_ECACHE];
	/* Call stacks (--children, call graphs). */
	int children;                /* --children asked */
	int graph;                   /* graphs built (and drawn when the file has callchains) */
	enum rp_report_call_graph graph_mode;
	int caller;                  /* drawing order: the outermost frame first */
	enum rp_report_call_value call_value;
	double call_threshold;
	uint32_t call_print_limit;
	int sort_sym_first;          /* the keys were given and start with sym */
	struct rp_symbols *symbols;  /* for srcline, srcfile (opts) */
	int full_source_path;
	int want_srcline;            /* a key is srcline or srcfile */
	/* The texts of recent locations (RP_REPORT_SRCCACHE, made with the
	 * report when want_srcline): a sample's costs a lookup, not a
	 * formatting and two interning. */
	struct rp_srccache_ent {
		const struct rp_dso *dso;
		const struct rp_symbol *sym;
		uint64_t addr;
		int has_map;
		const char *srcline, *srcfile; /* NULL: empty slot */
	} *srccache;
	int sort_cpu;                /* cpu is a sort key */
	struct rp_ctree ctree;
	struct rp_stacks stacks;       /* the samples' stacks, not yet in the graphs */
	struct rp_cframe *path;        /* one sample's frames in drawing order */
	struct rp_hist_entry **seen;   /* entries one stack adds to */
	/* From the filter (rp_report_set_filter): the only entry of
	 * --comms, --dsos, --symbols (perf leaves that column out), the
	 * --time string; NULL when not set. */
	char *single_comm, *single_dso, *single_sym, *time_str;
};

static const struct {
	const char *name;
	enum rp_sort_key key;
} rp_sort_names[] = {
	{ "comm", RP_SORT_COMM }, { "pid", RP_SORT_PID },       { "tid", RP_SORT_TID },
	{ "dso", RP_SORT_DSO },   { "sym", RP_SORT_SYM },       { "symbol", RP_SORT_SYM },
	{ "cpu", RP_SORT_CPU },   { "srcline", RP_SORT_SRCLINE }, { "srcfile", RP_SORT_SRCFILE },
};

int rp_report_parse_sort(struct rp_report_opts *opts, const char *list)
{
	enum rp_sort_key keys[RP_REPORT_MAX_KEYS];
	size_t nr = 0;
	const char *p = list;

	if (!opts || !list)
		return RP_ERR_INVAL;
	while (*p) {
		size_t len = strcspn(p, ", ");
		size_t i, n = sizeof(rp_sort_names) / sizeof(rp_sort_names[0]);

		if (!len) {
			p++;
			continue;
		}
		for (i = 0; i < n; i++)
			if (strlen(rp_sort_names[i].name) == len &&
			    !strncasecmp(rp_sort_names[i].name, p, len))
				break;
		if (i == n)
			return RP_ERR_INVAL;
		/* perf takes a key once; a repeated key is ignored. */
		size_t j;
		for (j = 0; j < nr; j++)
			if (keys[j] == rp_sort_names[i].key)
				break;
		if (j == nr) {
			if (nr == RP_REPORT_MAX_KEYS)
				return RP_ERR_INVAL;
			keys[nr++] = rp_sort_names[i].key;
		}
		p += len;
	}
	memcpy(opts->keys, keys, nr * sizeof(keys[0]));
	opts->nr_keys = nr;
	return 0;
}

/* Whether word (len bytes, not empty) starts name, as perf matches -g words. */
static int rp_word(const char *word, size_t len, const char *name)
{
	return len && len <= strlen(name) && !strncmp(word, name, len);
}

int rp_report_parse_call_graph(struct rp_report_opts *opts, const char *arg)
{
	struct rp_report_opts o;
	const char *p = arg;
	int nr_numbers = 0;

	if (!opts || !arg)
		return RP_ERR_INVAL;
	o = *opts;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (!len) {
			p++;
			continue;
		}
		/* perf tries the words in this order: modes, orders, keys,
		 * values, then numbers. */
		if (rp_word(p, len, "graph")) {
			o.call_graph = RP_CALL_GRAPH_GRAPH;
		} else if (rp_word(p, len, "flat")) {
			return RP_ERR_INVAL;
		} else if (rp_word(p, len, "fractal")) {
			o.call_graph = RP_CALL_GRAPH_FRACTAL;
		} else if (rp_word(p, len, "folded")) {
			return RP_ERR_INVAL;
		} else if (rp_word(p, len, "none")) {
			o.call_graph = RP_CALL_GRAPH_NONE;
		} else if (rp_word(p, len, "callee")) {
			o.call_order = RP_CALL_ORDER_CALLEE;
		} else if (rp_word(p, len, "caller")) {
			o.call_order = RP_CALL_ORDER_CALLER;
		} else if (rp_word(p, len, "function")) {
			/* the only key readperf has */
		} else if (rp_word(p, len, "address") || rp_word(p, len, "srcline") ||
			   rp_word(p, len, "branch")) {
			return RP_ERR_INVAL;
		} else if (rp_word(p, len, "percent")) {
			o.call_value = RP_CALL_VALUE_PERCENT;
		} else if (rp_word(p, len, "period")) {
			o.call_value = RP_CALL_VALUE_PERIOD;
		} else if (rp_word(p, len, "count")) {
			o.call_value = RP_CALL_VALUE_COUNT;
		} else {
			char num[64], *end;

			if (len >= sizeof(num))
				return RP_ERR_INVAL;
			memcpy(num, p, len);
			num[len] = '\0';
			if (nr_numbers == 0) {
				double v = strtod(num, &end);

				if (end == num || *end || !(v >= 0.0 && v <= 100.0))
					return RP_ERR_INVAL;
				o.call_threshold = v;
				o.call_threshold_set = 1;
			} else if (nr_numbers == 1) {
				unsigned long v = strtoul(num, &end, 0);

				if (end == num || *end || v > UINT32_MAX)
					return RP_ERR_INVAL;
				o.call_print_limit = (uint32_t)v;
			} else {
				return RP_ERR_INVAL;
			}
			nr_numbers++;
		}
		p += len;
	}
	*opts = o;
	return 0;
}

int rp_report_new(struct rp_report **out, const struct rp_session *session,
		  const struct rp_report_opts *opts)
{
	struct rp_report_opts o;
	struct rp_report *r;

	if (!out)
		return RP_ERR_INVAL;
	*out = NULL;
	memset(&o, 0, sizeof(o));
	if (opts) {
		size_t sz = opts->sz && opts->sz < sizeof(o) ? opts->sz : sizeof(o);

		memcpy(&o, opts, sz);
	}
	if (o.nr_keys > RP_REPORT_MAX_KEYS)
		return RP_ERR_INVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return RP_ERR_NOMEM;
	r->session = session;
	if (o.nr_keys) {
		memcpy(r->keys, o.keys, o.nr_keys * sizeof(o.keys[0]));
		r->nr_keys = o.nr_keys;
	} else {
		r->keys[0] = RP_SORT_COMM;
		r->keys[1] = RP_SORT_DSO;
		r->keys[2] = RP_SORT_SYM;
		r->nr_keys = 3;
	}
	r->percent_limit = o.percent_limit;
	r->symbols = o.symbols;
	r->full_source_path = o.full_source_path;
	for (size_t i = 0; i < r->nr_keys; i++)
		r->want_srcline |= r->keys[i] == RP_SORT_SRCLINE || r->keys[i] == RP_SORT_SRCFILE;
	if (r->want_srcline && !(r->srccache = calloc(RP_REPORT_SRCCACHE, sizeof(*r->srccache)))) {
		free(r);
		return RP_ERR_NOMEM;
	}
	r->children = o.children;
	r->graph_mode = o.call_graph;
	if (r->graph_mode == RP_CALL_GRAPH_AUTO)
		r->graph_mode = o.field_sep ? RP_CALL_GRAPH_NONE : RP_CALL_GRAPH_GRAPH;
	r->graph = r->graph_mode != RP_CALL_GRAPH_NONE;
	r->caller = o.call_order == RP_CALL_ORDER_CALLER ||
		    (o.call_order == RP_CALL_ORDER_DEFAULT && o.children);
	r->call_value = o.call_value;
	/* perf's --percent-limit also sets the graph's threshold. */
	r->call_threshold = o.call_threshold_set ? o.call_threshold
			    : o.percent_limit > 0 ? o.percent_limit
						  : RP_CALL_THRESHOLD_DEFAULT;
	r->call_print_limit = o.call_print_limit;
	r->sort_sym_first = o.nr_keys && o.keys[0] == RP_SORT_SYM;
	for (size_t i = 0; i < r->nr_keys; i++)
		if (r->keys[i] == RP_SORT_CPU)
			r->sort_cpu = 1;
	rp_ctree_init(&r->ctree, &r->arena, &r->pool);
	rp_stacks_init(&r->stacks);
	r->group_mode = o.group > 0 ? RP_REPORT_GROUP_FORCE
			: o.group < 0 ? RP_REPORT_GROUP_OFF : RP_REPORT_GROUP_AUTO;
	if (o.field_sep) {
		r->field_sep = strdup(o.field_sep);
		if (!r->field_sep) {
			free(r->srccache);
			free(r);
			return RP_ERR_NOMEM;
		}
	}
	size_t n = session ? rp_session_nr_evsels(session) : 0;
	if (n > RP_REPORT_MAX_EVSELS)
		n = RP_REPORT_MAX_EVSELS;
	if (n) {
		r->hists = calloc(n, sizeof(*r->hists));
		if (!r->hists) {
			free(r->field_sep);
			free(r->srccache);
			free(r);
			return RP_ERR_NOMEM;
		}
	}
	r->nr_hists = n;
	*out = r;
	return 0;
}

void rp_report_free(struct rp_report *report)
{
	if (!report)
		return;
	for (size_t i = 0; i < report->nr_hists; i++) {
		rp_hashmap_release(&report->hists[i].map);
		free(report->hists[i].entries);
	}
	free(report->hists);
	rp_ctree_release(&report->ctree);
	rp_stacks_release(&report->stacks);
	free(report->path);
	free(report->seen);
	free(report->srccache);
	rp_hashmap_release(&report->dso_names);
	rp_strpool_release(&report->pool);
	rp_arena_release(&report->arena);
	free(report->field_sep);
	free(report->single_comm);
	free(report->single_dso);
	free(report->single_sym);
	free(report->time_str);
	free(report);
}

static int rp_dup_or_null(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? RP_ERR_NOMEM : 0;
}

int rp_report_set_filter(struct rp_report *report, const struct rp_filter *filter)
{
	if (!report)
		return RP_ERR_INVAL;
	if (rp_dup_or_null(&report->single_comm, rp_filter_single(filter, RP_FILTER_COMMS)) ||
	    rp_dup_or_null(&report->single_dso, rp_filter_single(filter, RP_FILTER_DSOS)) ||
	    rp_dup_or_null(&report->single_sym, rp_filter_single(filter, RP_FILTER_SYMBOLS)) ||
	    rp_dup_or_null(&report->time_str, rp_filter_time_str(filter)))
		return RP_ERR_NOMEM;
	return 0;
}

/* The single filter entry of a key's list (see rp_report_set_filter). */
static const char *rp_key_single(const struct rp_report *r, enum rp_sort_key key)
{
	switch (key) {
	case RP_SORT_COMM:
		return r->single_comm;
	case RP_SORT_DSO:
		return r->single_dso;
	case RP_SORT_SYM:
		return r->single_sym;
	default:
		return NULL;
	}
}

/*
 * perf's sort__setup_elide(): a key whose filter list has one entry is
 * left out of the columns, unless that would leave out every key.
 */
static int rp_key_elided(const struct rp_report *r, size_t k)
{
	for (size_t i = 0; i < r->nr_keys; i++)
		if (!rp_key_single(r, r->keys[i]))
			return rp_key_single(r, r->keys[k]) != NULL;
	return 0;
}

int rp_report_set_group(struct rp_report *report, enum rp_report_group mode)
{
	if (!report || (mode != RP_REPORT_GROUP_AUTO && mode != RP_REPORT_GROUP_FORCE &&
			mode != RP_REPORT_GROUP_OFF))
		return RP_ERR_INVAL;
	report->group_mode = mode;
	return 0;
}

int rp_report_set_stacks_cap(struct rp_report *report, size_t bytes)
{
	if (!report)
		return RP_ERR_INVAL;
	report->stacks.max_bytes = bytes;
	return 0;
}

static const char *rp_report_intern_comm(struct rp_report *r, const char *comm)
{
	/* Consecutive samples mostly carry the same comm: skip the pool then.
	 * The machine interns comms and never frees or changes them, so the
	 * same pointer is the same string. */
	if (comm == r->last_comm_in && r->last_comm)
		return r->last_comm;
	const char *s = rp_strpool_intern_str(&r->pool, comm);
	if (s) {
		r->last_comm_in = comm;
		r->last_comm = s;
	}
	return s;
}

/*
 * The srcline and srcfile texts of a location, as perf's
 * hist_entry__srcline() and hist_entry__get_srcfile() make them: "file:line"
 * (the file's base name unless full_source_path) and "file" when DWARF
 * knows the line; else "sym+OFFSET" (decimal) or "dso[addr]" and "", and
 * "??:0" without a map.  Interned into key.  0 or RP_ERR_NOMEM.
 */
static int rp_report_srcline(struct rp_report *r, struct rp_hist_entry *key, struct rp_dso *dso,
			     const struct rp_symbol *sym, uint64_t addr, int has_map)
{
	uint64_t h = rp_hash64((uint64_t)(uintptr_t)dso ^ rp_hash64(addr)) ^ (uint64_t)(uintptr_t)sym;
	struct rp_srccache_ent *c = &r->srccache[h & (RP_REPORT_SRCCACHE - 1)];

	if (c->srcline && c->dso == dso && c->addr == addr && c->sym == sym && c->has_map == has_map) {
		key->srcline = c->srcline;
		key->srcfile = c->srcfile;
		return 0;
	}
	const char *file = NULL;
	uint32_t line = 0;
	char *line_txt = NULL;
	const char *file_txt = "";
	int found = has_map && dso ? rp_symbols_srcline(r->symbols, dso, addr, &file, &line) : 0;
	int n;

	if (found < 0)
		return found;
	if (found) {
		const char *slash = r->full_source_path ? NULL : strrchr(file, '/');

		file_txt = slash ? slash + 1 : file;
		n = asprintf(&line_txt, "%s:%u", file_txt, line);
	} else if (!has_map || !dso ||
		   (rp_dso_long_name(dso)[0] != '[' && !rp_symbol_is_stub(sym))) {
		/* What perf 6.1 prints for a file's address without a line
		 * (docs/unwind.md). */
		n = asprintf(&line_txt, "??:0");
	} else if (sym) {
		n = asprintf(&line_txt, "%s+%" PRIu64, sym->name ? sym->name : "", addr - sym->start);
	} else {
		n = asprintf(&line_txt, "%s[%" PRIx64 "]", rp_dso_short_name(dso), addr);
	}
	if (n < 0)
		return RP_ERR_NOMEM;
	key->srcline = rp_strpool_intern_str(&r->pool, line_txt);
	key->srcfile = rp_strpool_intern_str(&r->pool, file_txt);
	free(line_txt);
	if (!key->srcline || !key->srcfile)
		return RP_ERR_NOMEM;
	*c = (struct rp_srccache_ent){ dso, sym, addr, has_map, key->srcline, key->srcfile };
	return 0;
}

static const char *rp_report_dso_name(struct rp_report *r, struct rp_dso *dso)
{
	if (dso == r->last_dso && r->last_dso_name)
		return r->last_dso_name;
	const char *s = rp_hashmap_get(&r->dso_names, (uint64_t)(uintptr_t)dso);

	if (s) {
		r->last_dso = dso;
		r->last_dso_name = s;
		return s;
	}
	const char *name = rp_dso_short_name(dso);
	s = rp_strpool_intern_str(&r->pool, name ? name : "");
	if (!s || rp_hashmap_put(&r->dso_names, (uint64_t)(uintptr_t)dso, (void *)s) < 0)
		return NULL;
	return s;
}

/* Whether a and b fall in one entry: perf's collapse functions return 0. */
static int rp_entry_same(const struct rp_report *r, const struct rp_hist_entry *a,
			 const struct rp_hist_entry *b)
{
	for (size_t i = 0; i < r->nr_keys; i++) {
		switch (r->keys[i]) {
		case RP_SORT_COMM:
			if (a->comm != b->comm)
				return 0;
			break;
		case RP_SORT_PID:
		case RP_SORT_TID:
			if (a->tid != b->tid)
				return 0;
			break;
		case RP_SORT_DSO:
			if (a->dso_name != b->dso_name)
				return 0;
			break;
		case RP_SORT_SYM:
			if (!a->sym_name != !b->sym_name)
				return 0;
			if (!a->sym_name) {
				if (a->ip != b->ip)
					return 0;
			} else if (a->dso_name != b->dso_name) {
				return 0;
			} else if (a->sym_inlined || b->sym_inlined) {
				/* perf's _sort__sym_cmp(): inlined frames by
				 * name, within overlapping functions. */
				if (strcmp(a->sym_name, b->sym_name) || a->sym_start > b->sym_end ||
				    a->sym_end < b->sym_start)
					return 0;
			} else if (a->sym_start != b->sym_start || a->sym_end != b->sym_end) {
				return 0;
			}
			break;
		case RP_SORT_CPU:
			if (a->cpu != b->cpu)
				return 0;
			break;
		case RP_SORT_SRCLINE:
			if (a->srcline != b->srcline)
				return 0;
			break;
		case RP_SORT_SRCFILE:
			if (a->srcfile != b->srcfile)
				return 0;
			break;
		}
	}
	return 1;
}

static uint64_t rp_entry_hash(const struct rp_report *r, const struct rp_hist_entry *e)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < r->nr_keys; i++) {
		uint64_t v = 0;

		switch (r->keys[i]) {
		case RP_SORT_COMM:
			v = (uint64_t)(uintptr_t)e->comm;
			break;
		case RP_SORT_PID:
		case RP_SORT_TID:
			v = (uint32_t)e->tid;
			break;
		case RP_SORT_DSO:
			v = (uint64_t)(uintptr_t)e->dso_name;
			break;
		case RP_SORT_SYM:
			v = e->sym_name ? rp_hash64(e->sym_start) ^ (uint64_t)(uintptr_t)e->dso_name
					: ~e->ip;
			break;
		case RP_SORT_CPU:
			v = (uint32_t)e->cpu;
			break;
		case RP_SORT_SRCLINE:
			v = (uint64_t)(uintptr_t)e->srcline;
			break;
		case RP_SORT_SRCFILE:
			v = (uint64_t)(uintptr_t)e->srcfile;
			break;
		}
		h = rp_hash64(h ^ v) + i;
	}
	return h;
}

/* The entry of h that key falls in (same hash, same keys), or NULL. */
static struct rp_hist_entry *rp_hists_find(const struct rp_report *r, const struct rp_hists *h,
					   const struct rp_hist_entry *key)
{
	struct rp_hist_entry *e;

	for (e = rp_hashmap_get(&h->map, key->hash); e; e = e->next)
		if (e->hash == key->hash && rp_entry_same(r, e, key))
			return e;
	return NULL;
}

/*
 * Adds a copy of key (hash set, no entry of h equal to it) to h with its
 * counts; *out gets the new entry.  Returns 0, RP_ERR_LIMIT or
 * RP_ERR_NOMEM.
 */
static int rp_hists_insert(struct rp_report *r, struct rp_hists *h,
			   const struct rp_hist_entry *key, struct rp_hist_entry **out)
{
	struct rp_hist_entry *e;

	if (h->nr_entries >= RP_REPORT_MAX_ENTRIES)
		return RP_ERR_LIMIT;
	if (RP_ARRAY_RESERVE(h->entries, h->alloc, h->nr_entries + 1) < 0)
		return RP_ERR_NOMEM;
	e = rp_arena_alloc(&r->arena, sizeof(*e));
	if (!e)
		return RP_ERR_NOMEM;
	*e = *key;
	if (key->sym_name) {
		e->sym_name = rp_strpool_intern_str(&r->pool, key->sym_name);
		if (!e->sym_name)
			return RP_ERR_NOMEM;
	}
	e->next = rp_hashmap_get(&h->map, key->hash);
	if (rp_hashmap_put(&h->map, key->hash, e) < 0)
		return RP_ERR_NOMEM;
	h->entries[h->nr_entries++] = e;
	*out = e;
	return 0;
}

/* Moves e from the hash chain of its old hash to that of e->hash. */
static int rp_hists_rehash(struct rp_hists *h, struct rp_hist_entry *e, uint64_t old_hash)
{
	struct rp_hist_entry *first = rp_hashmap_get(&h->map, old_hash);

	if (first == e) {
		if (e->next)
			rp_hashmap_put(&h->map, old_hash, e->next);
		else
			rp_hashmap_del(&h->map, old_hash);
	} else {
		for (struct rp_hist_entry *p = first; p; p = p->next)
			if (p->next == e) {
				p->next = e->next;
				break;
			}
	}
	e->next = rp_hashmap_get(&h->map, e->hash);
	return rp_hashmap_put(&h->map, e->hash, e) < 0 ? RP_ERR_NOMEM : 0;
}

/*
 * perf overrides a thread's ":<tid>" default comm in place when its first
 * COMM arrives, so rows of samples taken before then show that comm, and
 * merge with the rows of the same comm (perf's collapse compares comm
 * strings).  Done once, before the first write.  Rows that carry call
 * graphs keep the default: their graphs cannot be merged.
 */
static int rp_report_override_default_comms(struct rp_report *r)
{
	char def[16];

	if (r->comms_overridden)
		return 0;
	r->comms_overridden = 1;
	for (size_t i = 0; i < r->nr_hists; i++) {
		struct rp_hists *h = &r->hists[i];
		size_t kept = 0;

		for (size_t j = 0; j < h->nr_entries; j++) {
			struct rp_hist_entry *e = h->entries[j];
			const char *first = e->thread ? rp_thread_first_comm(e->thread) : NULL;

			h->entries[kept++] = e;
			snprintf(def, sizeof(def), ":%d", (int)rp_thread_tid(e->thread));
			if (!first || e->chain || strcmp(e->comm, def) || !strcmp(first, def))
				continue;
			struct rp_hist_entry k = *e;
			k.comm = rp_strpool_intern_str(&r->pool, first);
			if (!k.comm)
				return RP_ERR_NOMEM;
			k.hash = rp_entry_hash(r, &k);
			struct rp_hist_entry *f = rp_hists_find(r, h, &k);
			if (f && !f->chain) {
				f->period += e->period;
				f->nr_samples += e->nr_samples;
				f->acc_period += e->acc_period;
				f->acc_samples += e->acc_samples;
				kept--; /* e is gone into f */
				continue;
			}
			if (f)
				continue;
			uint64_t old_hash = e->hash;
			e->comm = k.comm;
			e->hash = k.hash;
			if (rp_hists_rehash(h, e, old_hash) < 0)
				return RP_ERR_NOMEM;
		}
		h->nr_entries = kept;
	}
	/* Cached entries may be gone. */
	memset(r->ecache, 0, sizeof(r->ecache));
	return 0;
}

/*
 * The entries on a new stack, for --children: each entry on the stack
 * gets the period once per sample (perf's hist_entry_iter cumulative
 * callbacks: the first frame of an entry in drawing order counts, later
 * ones are skipped) and, for its graph, the path from that frame on.
 * key is the sample's own entry key (comm, thread, cpu are shared by the
 * stack's entries).
 */
static int rp_report_link_stack(struct rp_report *r, struct rp_hists *h, struct rp_stack *st,
				const struct rp_hist_entry *key)
{
	char level = key->level;
	int rc;

	r->seen[0] = (struct rp_hist_entry *)(uintptr_t)st->owner[0];
	for (uint32_t i = 0; i < st->nr_frames; i++) {
		const struct rp_cframe *f = &st->frames[i];
		struct rp_hist_entry k = *key;
		struct rp_hist_entry *e;
		uint32_t j;

		k.dso_name = NULL;
		k.sym_name = NULL;
		k.sym_start = k.sym_end = 0;
		k.sym_inlined = 0;
		k.srcline = k.srcfile = NULL;
		/* perf's fill_callchain_info(): the frame's ip as sampled; the
		 * level is the map's, or stays the previous one without a map. */
		k.ip = f->ip;
		if (f->has_map || f->sym)
			level = f->level ? f->level : '.';
		k.level = level;
		if (f->dso) {
			k.dso_name = rp_report_dso_name(r, f->dso);
			if (!k.dso_name)
				return RP_ERR_NOMEM;
		}
		if (f->sym) {
			k.sym_name = f->sym->name ? f->sym->name : "";
			k.sym_start = f->sym->start;
			k.sym_inlined = f->sym->inlined;
			k.sym_end = f->sym->end;
		}
		k.hash = rp_entry_hash(r, &k);
		e = rp_hists_find(r, h, &k);
		if (e) {
			for (j = 0; j <= st->nr_links && r->seen[j] != e; j++)
				;
			if (j <= st->nr_links)
				continue; /* recursion: counted once per sample */
		} else {
			k.period = k.nr_samples = k.acc_period = k.acc_samples = 0;
			k.chain = NULL;
			k.pairs = NULL;
			rc = rp_hists_insert(r, h, &k, &e);
			if (rc)
				return rc;
		}
		st->links[st->nr_links++] = (struct rp_stack_link){ e, i };
		r->seen[st->nr_links] = e;
	}
	return 0;
}

/* Adds a path to an entry's graph. */
static int rp_report_graph_add(struct rp_report *r, struct rp_hist_entry *e,
			       const struct rp_cframe *frames, size_t nr, uint64_t period,
			       uint64_t count)
{
	if (!e->chain && !(e->chain = rp_ctree_root(&r->ctree)))
		return RP_ERR_NOMEM;
	return rp_ctree_add(&r->ctree, e->chain, frames, nr, period, count);
}

/* A distinct stack's samples into the graphs and the --children sums. */
static int rp_report_stack_drained(void *ctx, const struct rp_stack *st)
{
	struct rp_report *r = ctx;
	int rc;

	if (r->graph) {
		rc = rp_report_graph_add(r, (struct rp_hist_entry *)(uintptr_t)st->owner[0],
					 st->frames, st->nr_frames, st->period, st->count);
		if (rc)
			return rc;
	}
	for (uint32_t i = 0; i < st->nr_links; i++) {
		struct rp_hist_entry *e = st->links[i].entry;
		uint32_t from = st->links[i].from;

		e->acc_period += st->period;
		e->acc_samples += st->count;
		if (r->graph) {
			rc = rp_report_graph_add(r, e, st->frames + from, st->nr_frames - from,
						 st->period, st->count);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Builds the graphs and --children sums of the stacks held so far. */
static int rp_report_drain_stacks(struct rp_report *r)
{
	return rp_stacks_drain(&r->stacks, rp_report_stack_drained, r);
}

/*
 * The call stack of one sample, held in r->stacks (see stacks_int.h)
 * until the report needs it: its path goes into the graph of the sample's
 * entry, and with --children into the entries on it.  key is the sample's
 * own entry key.
 */
static int rp_report_add_stack(struct rp_report *r, struct rp_hists *h, struct rp_hist_entry *self,
			       const struct rp_hist_entry *key, const struct rp_resolved *res,
			       uint64_t period)
{
	size_t n = res->nr_callchain < RP_REPORT_MAX_STACK ? res->nr_callchain : RP_REPORT_MAX_STACK;
	/* What the stack's entries take from the sample: its cpu only
	 * when the entries are told apart by it (else an entry keeps the
	 * cpu of the sample that made it, with or without this table). */
	uint32_t cpu = r->sort_cpu ? (uint32_t)key->cpu : 0;
	uint64_t owner[RP_STACK_OWNER_WORDS] = {
		(uint64_t)(uintptr_t)self, (uint64_t)(uintptr_t)key->comm,
		(uint64_t)(uintptr_t)key->thread, ((uint64_t)(uint32_t)key->tid << 32) | cpu,
		(uint64_t)key->level
	};
	int rc;

	if (!r->path) {
		r->path = malloc(RP_REPORT_MAX_STACK * sizeof(*r->path));
		r->seen = malloc((RP_REPORT_MAX_STACK + 1) * sizeof(*r->seen));
		if (!r->path || !r->seen)
			return RP_ERR_NOMEM;
	}
	struct rp_stack_slot *slot = res->stack_id ? res->stack_slot : NULL;
	struct rp_stack *st = slot ? rp_stacks_from_slot(&r->stacks, slot, owner) : NULL;

	if (!st) {
		/* perf walks the stack from the drawing's root and stops after
		 * --max-stack frames: caller order keeps the outermost ones. */
		for (size_t i = 0; i < n; i++) {
			const struct rp_addr_location *al =
				r->caller ? &res->callchain[res->nr_callchain - 1 - i].al
					  : &res->callchain[i].al;

			r->path[i] = (struct rp_cframe){ al->dso, al->sym, al->ip, al->map != NULL,
							 al->level };
		}
		uint64_t hash = rp_stacks_hash(owner, r->path, n);

		st = rp_stacks_find(&r->stacks, hash, owner, r->path, n);
		if (!st) {
			if (rp_stacks_full(&r->stacks) && (rc = rp_report_drain_stacks(r)) < 0)
				return rc;
			st = rp_stacks_add(&r->stacks, hash, owner, r->path, n,
					   r->children ? n : 0);
			if (!st)
				return RP_ERR_NOMEM;
			if (r->children && (rc = rp_report_link_stack(r, h, st, key)) < 0)
				return rc;
		}
		if (slot)
			rp_stacks_to_slot(&r->stacks, slot, st);
	}
	st->period += period;
	st->count++;
	return 0;
}

static int rp_report_add_sample(struct rp_report *r, const struct rp_event *ev,
				const struct rp_resolved *res)
{
	const struct rp_sample *s = &ev->u.sample;
	int idx = rp_evsel_idx(ev->evsel);

	if (idx < 0 || (size_t)idx >= r->nr_hists)
		return 0;
	struct rp_hists *h = &r->hists[idx];
	struct rp_hist_entry key;

	/* Every field set one by one: cheaper than a memset per sample. */
	key.next = NULL;
	key.pairs = NULL;
	key.hash = 0;
	key.dso_name = NULL;
	key.sym_name = NULL;
	key.sym_start = key.sym_end = 0;
	key.sym_inlined = 0;
	key.srcline = key.srcfile = NULL;
	key.period = key.nr_samples = key.acc_period = key.acc_samples = 0;
	key.chain = NULL;
	/* An entry filter's marks (perf's al.filtered) go with the entry
	 * this sample makes, and with --children with the entries of its
	 * stack: the row is hidden, its samples stay in the totals. */
	key.filtered = res ? res->filtered : 0;
	key.thread = res ? res->thread : NULL;
	key.tid = key.thread ? rp_thread_tid(key.thread) : (int32_t)s->tid;
	key.cpu = (s->sample_type & RP_SAMPLE_CPU) ? (int32_t)s->cpu : -1;
	key.level = '.';
	key.ip = s->ip;
	const char *comm = res ? res->comm : NULL;
	if (!comm && key.thread)
		comm = rp_thread_comm(key.thread);
	key.comm = rp_report_intern_comm(r, comm ? comm : "");
	if (!key.comm)
		return RP_ERR_NOMEM;
	if (res) {
		const struct rp_addr_location *al = &res->al;

		key.level = al->level ? al->level : '.';
		key.ip = al->map ? al->addr : al->ip;
		if (al->dso) {
			key.dso_name = rp_report_dso_name(r, al->dso);
			if (!key.dso_name)
				return RP_ERR_NOMEM;
		}
		if (al->sym) {
			key.sym_name = al->sym->name ? al->sym->name : "";
			key.sym_start = al->sym->start;
			key.sym_end = al->sym->end;
		}
		if (r->want_srcline) {
			int rc = rp_report_srcline(r, &key, al->dso, al->sym, key.ip, al->map != NULL);

			if (rc)
				return rc;
		}
	}
	/* Any mix of the key's fields will do for the cache slot: a hit is
	 * checked with rp_entry_same(), as the table lookup checks it. */
	uint64_t ch = (uint64_t)(uintptr_t)key.comm ^ ((uint64_t)(uintptr_t)key.dso_name << 3) ^
		      (key.sym_name ? key.sym_start : key.ip) ^ ((uint64_t)(uint32_t)key.tid << 20) ^
		      ((uint64_t)(uint32_t)key.cpu << 40) ^ (uint64_t)idx;
	size_t slot = (size_t)((ch * 0x9e3779b97f4a7c15ull) >> 54) & (RP_REPORT_ECACHE - 1);
	struct rp_hist_entry *e = r->ecache[slot].e;

	if (!e || r->ecache[slot].idx != (size_t)idx || !rp_entry_same(r, e, &key)) {
		key.hash = rp_entry_hash(r, &key);
		e = rp_hists_find(r, h, &key);
		if (!e) {
			int rc = rp_hists_insert(r, h, &key, &e);

			if (rc)
				return rc;
		}
		r->ecache[slot].e = e;
		r->ecache[slot].idx = (size_t)idx;
	}
	e->period += s->period;
	e->nr_samples++;
	e->acc_period += s->period;
	e->acc_samples++;
	h->nr_samples++;
	h->total_period += s->period;
	if (!res || !res->nr_callchain || (!r->graph && !r->children))
		return 0;
	return rp_report_add_stack(r, h, e, &key, res, s->period);
}

static int rp_report_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_report *r = ctx;

	switch (ev->type) {
	case RP_RECORD_SAMPLE:
		if (!ev->evsel)
			return 0;
		return rp_report_add_sample(r, ev, res);
	case RP_RECORD_LOST_SAMPLES:
		r->lost_samples += ev->u.lost.lost;
		return 0;
	default:
		return 0;
	}
}

struct rp_consumer rp_report_consumer(struct rp_report *report)
{
	struct rp_consumer c = { report, rp_report_event, RP_CONSUMER_FILTERED };

	if (report && (report->graph || report->children))
		c.flags |= RP_CONSUMER_CALLCHAIN;

	return c;
}

/* ---- event groups ------------------------------------------------------- */

/*
 * Fills g (one per hists) with the file's groups, as perf rebuilds them
 * from GROUP_DESC: the leader gets the member count (which perf also uses
 * with --no-group, for "of events"), the evsels after it in attr order are
 * its members.  perf matches the descriptions in attr order, so one whose
 * leader lies inside an earlier group ends the matching; a group that does
 * not fit in the report's evsels is left out.  With --group (or
 * --no-group) and no group in the file, every evsel joins the first one's
 * group.
 */
static void rp_report_groups(const struct rp_report *r, struct rp_evgroup *g)
{
	const struct rp_header_info *hi = r->session ? rp_session_header(r->session) : NULL;
	size_t i, next = 0;

	for (i = 0; i < r->nr_hists; i++) {
		g[i].leader = i;
		g[i].nr_members = 1;
		g[i].name = NULL;
		g[i].forced = 0;
	}
	if (hi && hi->groups) {
		for (i = 0; i < hi->nr_groups; i++) {
			const struct rp_group_desc *d = &hi->groups[i];
			size_t lead = d->leader_idx;

			if (lead < next)
				break;
			if (d->nr_members < 2 || lead >= r->nr_hists ||
			    d->nr_members > r->nr_hists - lead)
				continue;
			g[lead].nr_members = d->nr_members;
			/* perf stores no name for "{anon_group}". */
			g[lead].name = d->name && strcmp(d->name, "{anon_group}") ? d->name : NULL;
			for (uint32_t m = 1; m < d->nr_members; m++)
				g[lead + m].leader = lead;
			next = lead + d->nr_members;
		}
	}
	/* perf forces the leader whenever --group or --no-group was given:
	 * with --no-group it only shows in the first event's "of events". */
	if (r->group_mode != RP_REPORT_GROUP_AUTO && (!hi || !hi->nr_groups) && r->nr_hists) {
		for (i = 0; i < r->nr_hists; i++)
			g[i].leader = 0;
		g[0].nr_members = (uint32_t)r->nr_hists;
		g[0].forced = 1;
	}
}

/* Whether evsel i is shown as a group: the group view is on and i leads
 * more than itself (perf's evsel__is_group_event). */
static int rp_is_group_event(const struct rp_report *r, const struct rp_evgroup *g, size_t i)
{
	return r->group_mode != RP_REPORT_GROUP_OFF && g[i].leader == i && g[i].nr_members > 1;
}

static struct rp_pair *rp_pairs_new(struct rp_report *r, uint32_t nr_members)
{
	size_t n = (size_t)(nr_members - 1) * sizeof(struct rp_pair);
	struct rp_pair *p = rp_arena_alloc(&r->arena, n);

	if (p)
		memset(p, 0, n);
	return p;
}

/*
 * Links the members of the group led by hists `lead` into its table, once:
 * a member's entry joins the leader's equal entry as its pair, or, when the
 * leader has none, an entry with no sample of the leader's own is added
 * for it (perf's hists__match and hists__link).  Returns 0, RP_ERR_LIMIT
 * or RP_ERR_NOMEM.
 */
static int rp_group_link(struct rp_report *r, size_t lead, uint32_t nr_members)
{
	struct rp_hists *h = &r->hists[lead];
	size_t i;

	if (h->linked)
		return 0;
	for (i = 0; i < h->nr_entries; i++) {
		h->entries[i]->pairs = rp_pairs_new(r, nr_members);
		if (!h->entries[i]->pairs)
			return RP_ERR_NOMEM;
	}
	for (uint32_t m = 1; m < nr_members; m++) {
		const struct rp_hists *mh = &r->hists[lead + m];

		for (i = 0; i < mh->nr_entries; i++) {
			const struct rp_hist_entry *me = mh->entries[i];
			struct rp_hist_entry *e = rp_hists_find(r, h, me);

			if (!e) {
				struct rp_hist_entry dummy = *me;
				int rc;

				dummy.period = 0;
				dummy.nr_samples = 0;
				dummy.acc_period = 0;
				dummy.acc_samples = 0;
				dummy.chain = NULL;
				dummy.pairs = rp_pairs_new(r, nr_members);
				if (!dummy.pairs)
					return RP_ERR_NOMEM;
				rc = rp_hists_insert(r, h, &dummy, &e);
				if (rc)
					return rc;
			}
			e->pairs[m - 1].period = me->period;
			e->pairs[m - 1].nr_samples = me->nr_samples;
		}
	}
	h->linked = 1;
	return 0;
}

/*
 * perf's evsel__group_desc() in its 512-byte buffer: "NAME { a, b }" or
 * "anon group { a, b }", only "a, b" for a forced group.
 */
static void rp_group_desc(const struct rp_report *r, const struct rp_evgroup *g, size_t lead,
			  char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	/* m: 0 the name and brace, 1..nr_members the events, then the brace. */
	for (uint32_t m = 0; m <= g[lead].nr_members + 1; m++) {
		const char *name = "";
		const char *pre = m > 1 ? ", " : "";

		if (m == 0) {
			if (g[lead].forced)
				continue;
			pre = g[lead].name ? g[lead].name : "anon group";
			name = " { ";
		} else if (m > g[lead].nr_members) {
			if (g[lead].forced)
				break;
			pre = " }";
		} else {
			name = rp_evsel_name(rp_session_evsel(r->session, lead + m - 1));
			if (!name)
				name = "";
		}
		int n = snprintf(buf + len, size - len, "%s%s", pre, name);
		if (n < 0)
			break;
		len += (size_t)n;
		if (len >= size - 1) {
			len = size - 1;
			break;
		}
	}
}

/* ---- ordering ---------------------------------------------------------- */

static int rp_cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int rp_cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

#define RP_STR_OR_EMPTY(s) ((s) ? (s) : "")

static int rp_cmp_str(const char *a, const char *b)
{
	int c = strcmp(a, b);

	return c < 0 ? -1 : c > 0 ? 1 : 0;
}

/* perf's dso order: by short name, entries without a map last. */
static int rp_cmp_dso(const struct rp_hist_entry *a, const struct rp_hist_entry *b)
{
	if (!a->dso_name || !b->dso_name)
		return (a->dso_name ? 0 : 1) - (b->dso_name ? 0 : 1);
	return a->dso_name == b->dso_name ? 0 : rp_cmp_str(a->dso_name, b->dso_name);
}

/*
 * The output order of one key (perf's se_sort, else se_cmp): a negative
 * value puts a first.
 */
static int rp_cmp_key_sort(enum rp_sort_key key, const struct rp_hist_entry *a,
			   const struct rp_hist_entry *b)
{
	switch (key) {
	case RP_SORT_COMM:
		return a->comm == b->comm ? 0 : rp_cmp_str(a->comm, b->comm);
	case RP_SORT_PID:
	case RP_SORT_TID:
		return rp_cmp_i64(a->tid, b->tid);
	case RP_SORT_DSO:
		return rp_cmp_dso(a, b);
	case RP_SORT_SYM:
		/* By name; resolved symbols before unresolved addresses, which
		 * tie with each other. */
		if (!a->sym_name || !b->sym_name)
			return (a->sym_name ? 0 : 1) - (b->sym_name ? 0 : 1);
		return a->sym_name == b->sym_name ? 0 : rp_cmp_str(a->sym_name, b->sym_name);
	case RP_SORT_CPU:
		return rp_cmp_i64(a->cpu, b->cpu);
	/* --children rows of callchain frames have none (NULL): printed
	 * as "", they sort as "". */
	case RP_SORT_SRCLINE:
		return a->srcline == b->srcline ? 0 : rp_cmp_str(RP_STR_OR_EMPTY(a->srcline),
								 RP_STR_OR_EMPTY(b->srcline));
	case RP_SORT_SRCFILE:
		return a->srcfile == b->srcfile ? 0 : rp_cmp_str(RP_STR_OR_EMPTY(a->srcfile),
								 RP_STR_OR_EMPTY(b->srcfile));
	}
	return 0;
}

/* The order in which perf's collapsed tree holds the entries (se_cmp). */
static int rp_cmp_key_collapse(enum rp_sort_key key, const struct rp_hist_entry *a,
			       const struct rp_hist_entry *b)
{
	int c;

	if (key != RP_SORT_SYM)
		return rp_cmp_key_sort(key, a, b);
	if (!a->sym_name && !b->sym_name)
		return rp_cmp_i64((int64_t)a->ip, (int64_t)b->ip);
	c = rp_cmp_dso(a, b);
	if (c)
		return c;
	if (!a->sym_name || !b->sym_name)
		return (a->sym_name ? 0 : 1) - (b->sym_name ? 0 : 1);
	c = rp_cmp_i64((int64_t)a->sym_start, (int64_t)b->sym_start);
	if (c)
		return c;
	return rp_cmp_i64((int64_t)a->sym_end, (int64_t)b->sym_end);
}

/* qsort has no context argument in C11: the report being sorted, and
 * the pairs of each entry (members after the leader; 0 outside a group). */
static const struct rp_report *rp_sorting;
static uint32_t rp_sorting_pairs;
static int rp_sorting_children;
static int rp_sorting_graph;
/* Ties are left to the order entries are given in (perf's output tree). */
static int rp_sorting_stable;

/*
 * perf's __hpp__sort for a group: the leader's figure, then each member's
 * in group order (0 where the member has no entry), larger first.
 */
static int rp_cmp_group_period(const struct rp_hist_entry *a, const struct rp_hist_entry *b)
{
	int c = rp_cmp_u64_desc(a->period, b->period);

	for (uint32_t m = 0; !c && m < rp_sorting_pairs && a->pairs && b->pairs; m++)
		c = rp_cmp_u64_desc(a->pairs[m].period, b->pairs[m].period);
	return c;
}

static int rp_cmp_group_samples(const struct rp_hist_entry *a, const struct rp_hist_entry *b)
{
	int c = rp_cmp_u64_desc(a->nr_samples, b->nr_samples);

	for (uint32_t m = 0; !c && m < rp_sorting_pairs && a->pairs && b->pairs; m++)
		c = rp_cmp_u64_desc(a->pairs[m].nr_samples, b->pairs[m].nr_samples);
	return c;
}

/* The order of perf's collapsed tree alone. */
static int rp_entry_collapse_order(const void *pa, const void *pb)
{
	const struct rp_hist_entry *a = *(const struct rp_hist_entry *const *)pa;
	const struct rp_hist_entry *b = *(const struct rp_hist_entry *const *)pb;
	int c;

	for (size_t i = 0; i < rp_sorting->nr_keys; i++)
		if ((c = rp_cmp_key_collapse(rp_sorting->keys[i], a, b)))
			return c;
	return 0;
}

static int rp_entry_order(const void *pa, const void *pb)
{
	const struct rp_hist_entry *a = *(const struct rp_hist_entry *const *)pa;
	const struct rp_hist_entry *b = *(const struct rp_hist_entry *const *)pb;
	const struct rp_report *r = rp_sorting;
	int c;
	size_t i;

	if (rp_sorting_children) {
		/* perf's --children puts overhead_children and overhead before
		 * the keys (no -F; -n and --show-total-period come after them,
		 * where entries never tie). */
		c = rp_cmp_u64_desc(a->acc_period, b->acc_period);
		/* perf puts a caller above its callee when both have the same
		 * Children period: by the depth of their graphs (only when
		 * graphs are built, for entries of one thread). */
		if (!c && rp_sorting_graph && a->thread == b->thread) {
			uint32_t da = a->chain ? a->chain->max_depth : 0;
			uint32_t db = b->chain ? b->chain->max_depth : 0;

			c = da == db ? 0 : (da > db) == (r->caller != 0) ? -1 : 1;
		}
		if (!c)
			c = rp_cmp_u64_desc(a->period, b->period);
		if (c)
			return c;
		for (i = 0; i < r->nr_keys; i++)
			if ((c = rp_cmp_key_sort(r->keys[i], a, b)))
				return c;
	} else if (!r->field_sep) {
		/* Without -F perf sorts by overhead first, then by the keys. */
		c = rp_cmp_group_period(a, b);
		if (c)
			return c;
		for (i = 0; i < r->nr_keys; i++)
			if ((c = rp_cmp_key_sort(r->keys[i], a, b)))
				return c;
	} else {
		/* With -F the keys come first, then overhead, sample, period. */
		for (i = 0; i < r->nr_keys; i++)
			if ((c = rp_cmp_key_sort(r->keys[i], a, b)))
				return c;
		c = rp_cmp_group_period(a, b);
		if (!c)
			c = rp_cmp_group_samples(a, b);
		if (c)
			return c;
	}
	if (rp_sorting_stable)
		return 0;
	/* Ties keep the order of perf's collapsed tree. */
	for (i = 0; i < r->nr_keys; i++)
		if ((c = rp_cmp_key_collapse(r->keys[i], a, b)))
			return c;
	return 0;
}

/* ---- output ------------------------------------------------------------- */

struct rp_widths {
	int comm, thread, tid, dso, sym, cpu, srcline, srcfile;
};

static const char *rp_entry_final_comm(const struct rp_hist_entry *e)
{
	const char *c = e->thread ? rp_thread_comm(e->thread) : NULL;

	return c ? c : e->comm;
}

static int rp_max(int a, int b)
{
	return a > b ? a : b;
}

/* perf's hists__calc_col_len over every entry, then the header names. */
static void rp_calc_widths(const struct rp_report *r, const struct rp_hists *h,
			   struct rp_widths *w)
{
	int comm = 0, dso = 0, sym = 0, unresolved = 0, srcline = 0, srcfile = 0;

	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct rp_hist_entry *e = h->entries[i];

		if (e->filtered)
			continue;
		/* perf measures the thread's comm at the end, not the entry's. */
		comm = rp_max(comm, (int)strlen(rp_entry_final_comm(e)));
		if (e->dso_name)
			dso = rp_max(dso, (int)strlen(e->dso_name));
		if (e->srcline)
			srcline = rp_max(srcline, (int)strlen(e->srcline));
		if (e->srcfile)
			srcfile = rp_max(srcfile, (int)strlen(e->srcfile));
		if (e->sym_name) {
			/* perf leaves " (inlined)" out of the width. */
			sym = rp_max(sym, (int)strlen(e->sym_name) + 4);
		} else {
			sym = rp_max(sym, RP_ADDR_DIGITS + 4 + 2);
			unresolved = 1;
		}
	}
	if (unresolved && !r->field_sep)
		dso = rp_max(dso, RP_ADDR_DIGITS);
	w->comm = rp_max(comm, 7);                       /* "Command" */
	w->thread = rp_max(comm ? comm + 8 : 0, 15);     /* "    Pid:Command" */
	w->tid = 7;                                      /* "    Tid" */
	w->dso = rp_max(dso, 13);                        /* "Shared Object" */
	w->sym = rp_max(sym, 6);                         /* "Symbol" */
	w->cpu = 3;                                      /* "CPU" */
	w->srcline = rp_max(srcline, 11);                /* "Source:Line" */
	w->srcfile = rp_max(srcfile, 11);                /* "Source File" */
}

static const char *rp_key_header(enum rp_sort_key key)
{
	switch (key) {
	case RP_SORT_COMM: return "Command";
	case RP_SORT_PID: return "    Pid:Command";
	case RP_SORT_TID: return "    Tid";
	case RP_SORT_DSO: return "Shared Object";
	case RP_SORT_SYM: return "Symbol";
	case RP_SORT_CPU: return "CPU";
	case RP_SORT_SRCLINE: return "Source:Line";
	case RP_SORT_SRCFILE: return "Source File";
	}
	return "";
}

static int rp_key_width(enum rp_sort_key key, const struct rp_widths *w)
{
	switch (key) {
	case RP_SORT_COMM: return w->comm;
	case RP_SORT_PID: return w->thread;
	case RP_SORT_TID: return w->tid;
	case RP_SORT_DSO: return w->dso;
	case RP_SORT_SYM: return w->sym;
	case RP_SORT_CPU: return w->cpu;
	case RP_SORT_SRCLINE: return w->srcline;
	case RP_SORT_SRCFILE: return w->srcfile;
	}
	return 0;
}

/* Room for one formatted key: names are capped by the width of the column,
 * which the longest name sets. */
struct rp_buf {
	char *p;
	size_t len, alloc;
};

static int rp_buf_printf(struct rp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int rp_buf_printf(struct rp_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->alloc - b->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return RP_ERR_IO;
	if (!b->p || b->len + (size_t)n + 1 > b->alloc) {
		size_t want = b->len + (size_t)n + 1;
		char *p;

		if (want < 256)
			want = 256;
		p = realloc(b->p, want);
		if (!p)
			return RP_ERR_NOMEM;
		b->p = p;
		b->alloc = want;
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->alloc - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return RP_ERR_IO;
	}
	b->len += (size_t)n;
	return 0;
}

/* With -t, perf turns the separator's first character into '.' in the
 * text of a key cell (perf's repsep_snprintf). */
static void rp_sep_replace(const struct rp_report *r, struct rp_buf *b, size_t start)
{
	if (!r->field_sep || !r->field_sep[0])
		return;
	for (size_t i = start; i < b->len; i++)
		if (b->p[i] == r->field_sep[0])
			b->p[i] = '.';
}

/* Formats the key column of e into b (from b->len on), as perf's
 * se_snprintf functions do. */
static int rp_format_key(const struct rp_report *r, enum rp_sort_key key,
			 const struct rp_hist_entry *e, int width, int last, struct rp_buf *b)
{
	size_t start = b->len;
	int rc = 0;

	switch (key) {
	case RP_SORT_COMM:
		rc = rp_buf_printf(b, "%-*.*s", width, width, e->comm);
		break;
	case RP_SORT_PID: {
		int cw = rp_max(7, width) - 8;

		rc = rp_buf_printf(b, "%7d:%-*.*s", (int)e->tid, cw < 0 ? 0 : cw,
				   cw < 0 ? 0 : cw, rp_entry_final_comm(e));
		break;
	}
	case RP_SORT_TID:
		rc = rp_buf_printf(b, "%*d", width, (int)e->tid);
		break;
	case RP_SORT_DSO:
		rc = rp_buf_printf(b, "%-*.*s", width, width,
				   e->dso_name ? e->dso_name : "[unknown]");
		break;
	case RP_SORT_SRCLINE:
	case RP_SORT_SRCFILE: {
		const char *t = key == RP_SORT_SRCLINE ? e->srcline : e->srcfile;

		/* The last column is not padded. */
		rc = rp_buf_printf(b, "%-*.*s", last ? 0 : width, width, t ? t : "");
		break;
	}
	case RP_SORT_SYM:
		rc = rp_buf_printf(b, "[%c] ", e->level);
		if (rc)
			break;
		if (e->sym_name) {
			int nw = width - 4;

			rc = rp_buf_printf(b, "%.*s%s", nw < 0 ? 0 : nw, e->sym_name,
					   e->sym_inlined ? " (inlined)" : "");
		} else {
			/* "%#.16llx": zero gets no "0x", as in perf. */
			rc = rp_buf_printf(b, "%-#.*" PRIx64, RP_ADDR_DIGITS, e->ip);
		}
		if (rc)
			break;
		rp_sep_replace(r, b, start);
		/* perf pads the symbol to the column width, outside the text the
		 * separator is replaced in, except in the last column. */
		if (!last && (int)(b->len - start) < width)
			rc = rp_buf_printf(b, "%*s", width - (int)(b->len - start), "");
		return rc;
	case RP_SORT_CPU:
		rc = rp_buf_printf(b, "%*.*d", width, width, (int)e->cpu);
		break;
	}
	if (rc)
		return rc;
	rp_sep_replace(r, b, start);
	return 0;
}

/* perf's convert_unit(): the "# Samples:" figure. */
static uint64_t rp_convert_unit(uint64_t v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

/* One figure per member of the row's group: the leader's (e's own), then
 * the pairs; a member without samples shows 0 (perf skips its pair and
 * fills the column with zero). */
struct rp_member_fig {
	uint64_t period, nr_samples, total;
};

static struct rp_member_fig rp_member_figure(const struct rp_report *r, size_t lead,
					     const struct rp_hist_entry *e, uint32_t m)
{
	struct rp_member_fig f = { 0, 0, r->hists[lead + m].total_period };

	if (m == 0) {
		f.period = e->period;
		f.nr_samples = e->nr_samples;
	} else if (f.total && e->pairs) {
		f.period = e->pairs[m - 1].period;
		f.nr_samples = e->pairs[m - 1].nr_samples;
	}
	return f;
}

static double rp_percent(uint64_t period, uint64_t total)
{
	return total ? 100.0 * (double)period / (double)total : 0.0;
}

/* Pads the cell that started at `start` with spaces to `width` (perf's
 * hist_entry__snprintf_alignment). */
static int rp_buf_pad(struct rp_buf *b, size_t start, int width)
{
	int have = (int)(b->len - start);

	return have < width ? rp_buf_printf(b, "%*s", width - have, "") : 0;
}

/*
 * The numeric cells of one row: Overhead (and Samples, Period with a
 * field separator), one sub-cell per shown member, each column padded to
 * its width (the unit width times the members).
 */
static int rp_format_numbers(const struct rp_report *r, size_t lead, uint32_t nr_shown,
			     int children, const struct rp_hist_entry *e, struct rp_buf *b)
{
	const char *sep = r->field_sep;
	size_t start = b->len;
	uint32_t m;
	int rc = 0;

	if (children) {
		/* The Children column, then the usual ones (Self). */
		double pct = rp_percent(e->acc_period, r->hists[lead].total_period);

		if (!sep)
			rc = rp_buf_printf(b, " %*.2f%%  ", RP_WIDTH_OVERHEAD - 2, pct);
		else if (!(rc = rp_buf_printf(b, " %.2f%%", pct)) &&
			 !(rc = rp_buf_pad(b, start, RP_WIDTH_OVERHEAD)))
			rc = rp_buf_printf(b, "%s", sep);
		if (rc)
			return rc;
		start = b->len;
	}

	if (!sep) {
		for (m = 0; !rc && m < nr_shown; m++) {
			struct rp_member_fig f = rp_member_figure(r, lead, e, m);

			rc = rp_buf_printf(b, " %*.2f%%", RP_WIDTH_OVERHEAD - 2,
					   rp_percent(f.period, f.total));
		}
		return rc ? rc : rp_buf_pad(b, start, RP_WIDTH_OVERHEAD * (int)nr_shown);
	}
	for (m = 0; !rc && m < nr_shown; m++) {
		struct rp_member_fig f = rp_member_figure(r, lead, e, m);

		rc = rp_buf_printf(b, " %.2f%%", rp_percent(f.period, f.total));
	}
	if (!rc)
		rc = rp_buf_pad(b, start, RP_WIDTH_OVERHEAD * (int)nr_shown);
	if (!rc)
		rc = rp_buf_printf(b, "%s", sep);
	start = b->len;
	for (m = 0; !rc && m < nr_shown; m++)
		rc = rp_buf_printf(b, " %" PRIu64, rp_member_figure(r, lead, e, m).nr_samples);
	if (!rc)
		rc = rp_buf_pad(b, start, RP_WIDTH_SAMPLES * (int)nr_shown);
	if (!rc)
		rc = rp_buf_printf(b, "%s", sep);
	start = b->len;
	for (m = 0; !rc && m < nr_shown; m++)
		rc = rp_buf_printf(b, " %" PRIu64, rp_member_figure(r, lead, e, m).period);
	if (!rc)
		rc = rp_buf_pad(b, start, RP_WIDTH_PERIOD * (int)nr_shown);
	return rc;
}

/*
 * Writes the section of hists `idx`: alone, or, when it leads a group in
 * the group view, with its members' figures beside its own.
 */
static int rp_write_hists(struct rp_report *r, const struct rp_evgroup *g, size_t idx, FILE *out,
			  struct rp_buf *b, int children, int graph)
{
	const char *sep = r->field_sep;
	struct rp_hists *h = &r->hists[idx];
	uint32_t nr_shown = rp_is_group_event(r, g, idx) ? g[idx].nr_members : 1;
	uint64_t nr_samples = h->nr_samples, total = h->total_period;
	const char *name = rp_evsel_name(rp_session_evsel(r->session, idx));
	char desc[RP_GROUP_DESC_MAX];
	struct rp_widths w;
	char unit;
	size_t i, k;
	int rc;

	if (nr_shown > 1) {
		rc = rp_group_link(r, idx, nr_shown);
		if (rc)
			return rc;
		rp_group_desc(r, g, idx, desc, sizeof(desc));
		name = desc;
		/* The header counts every member's samples and periods. */
		for (uint32_t m = 1; m < nr_shown; m++) {
			nr_samples += r->hists[idx + m].nr_samples;
			total += r->hists[idx + m].total_period;
		}
	}
	nr_samples = rp_convert_unit(nr_samples, &unit);
	/* perf says "events" for any leader of a group, also with --no-group. */
	fprintf(out, "# Samples: %" PRIu64 "%c of event%s '%s'", nr_samples, unit,
		g[idx].nr_members > 1 ? "s" : "", name ? name : "");
	if (r->time_str)
		fprintf(out, " (time slices: %s)", r->time_str);
	fputc('\n', out);
	fprintf(out, "# Event count (approx.): %" PRIu64 "\n", total);
	fputs("#\n", out);

	/* Widths cover the entries added for the members too. */
	rp_calc_widths(r, h, &w);
	rp_sorting = r;
	rp_sorting_pairs = nr_shown - 1;
	rp_sorting_children = children;
	rp_sorting_graph = graph;
	if (children && graph) {
		/* Not a total order then: build perf's output tree, fed in
		 * the order of its collapsed tree. */
		qsort(h->entries, h->nr_entries, sizeof(h->entries[0]), rp_entry_collapse_order);
		rc = rp_rbsort((void **)h->entries, h->nr_entries, rp_entry_order);
	} else if (!children) {
		/* perf inserts its entries, in the order they were created,
		 * into its input tree (se_cmp), and from that tree's order into
		 * its output tree, where ties go right.  With `sym` but no
		 * `dso` key the input comparison is not a total order
		 * (resolved entries compare by DSO first, unresolved ones by
		 * address only), so the order of tied rows is the trees':
		 * h->entries is still in creation order here; replay both. */
		rc = rp_rbsort((void **)h->entries, h->nr_entries, rp_entry_collapse_order);
		/* A comm key makes perf collapse: a second tree, fed from the
		 * first, with the same comparison for the other keys. */
		for (size_t j = 0; !rc && j < r->nr_keys; j++)
			if (r->keys[j] == RP_SORT_COMM) {
				rc = rp_rbsort((void **)h->entries, h->nr_entries,
					       rp_entry_collapse_order);
				break;
			}
		rp_sorting_stable = 1;
		if (!rc)
			rc = rp_rbsort((void **)h->entries, h->nr_entries, rp_entry_order);
		rp_sorting_stable = 0;
	} else {
		qsort(h->entries, h->nr_entries, sizeof(h->entries[0]), rp_entry_order);
		rc = 0;
	}
	rp_sorting = NULL;
	rp_sorting_pairs = 0;
	rp_sorting_children = 0;
	rp_sorting_graph = 0;
	if (rc)
		return rc;

	/* perf's min_callchain_hits: the threshold's share of the period of
	 * the samples with callchains (all of them, when the event has). */
	struct rp_cgraph_params cg;
	memset(&cg, 0, sizeof(cg));
	cg.mode = r->graph_mode == RP_CALL_GRAPH_FRACTAL ? RP_CGRAPH_REL : RP_CGRAPH_ABS;
	cg.value = r->call_value == RP_CALL_VALUE_PERIOD  ? RP_CGVAL_PERIOD
		   : r->call_value == RP_CALL_VALUE_COUNT ? RP_CGVAL_COUNT
							  : RP_CGVAL_PERCENT;
	cg.min_percent = r->call_threshold;
	cg.min_hit = (uint64_t)((double)h->total_period * (r->call_threshold / 100.0));
	cg.total = h->total_period;
	cg.print_limit = r->call_print_limit;
	/* perf leaves out the row's own frame when --sort starts with sym
	 * and no -F was given (readperf's -t is perf's -F, but not with
	 * --children). */
	cg.skip_first = r->sort_sym_first && (!sep || children);

	/* The column header; the number columns are as wide as their unit
	 * width times the members shown. */
	int ow = RP_WIDTH_OVERHEAD * (int)nr_shown;
	if (sep) {
		fputs("# ", out);
		if (children)
			fprintf(out, "%*s%s", RP_WIDTH_OVERHEAD, "Children", sep);
		fprintf(out, "%*s%s%*s%s%*s", ow, children ? "Self" : "Overhead", sep,
			RP_WIDTH_SAMPLES * (int)nr_shown, "Samples", sep,
			RP_WIDTH_PERIOD * (int)nr_shown, "Period");
		for (k = 0; k < r->nr_keys; k++) {
			int kw = rp_key_width(r->keys[k], &w);

			if (!rp_key_elided(r, k))
				fprintf(out, "%s%-*.*s", sep, kw, kw, rp_key_header(r->keys[k]));
		}
		fputc('\n', out);
	} else {
		fputs("# ", out);
		if (children)
			fprintf(out, "%*s  ", RP_WIDTH_OVERHEAD, "Children");
		fprintf(out, "%*s", ow, children ? "Self" : "Overhead");
		for (k = 0; k < r->nr_keys; k++) {
			int kw = rp_key_width(r->keys[k], &w);

			if (!rp_key_elided(r, k))
				fprintf(out, "  %-*.*s", kw, kw, rp_key_header(r->keys[k]));
		}
		fputs("\n# ", out);
		if (children)
			fprintf(out, "%.*s  ", RP_WIDTH_OVERHEAD, "........");
		for (k = 0; k <= r->nr_keys; k++) {
			int kw = k ? rp_key_width(r->keys[k - 1], &w) : ow;

			if (k && rp_key_elided(r, k - 1))
				continue;
			if (k)
				fputs("  ", out);
			for (int d = 0; d < kw; d++)
				fputc('.', out);
		}
		fputs("\n#\n", out);
	}

	size_t last_key = r->nr_keys; /* the last key shown, plus one */
	while (last_key > 1 && rp_key_elided(r, last_key - 1))
		last_key--;
	for (i = 0; i < h->nr_entries; i++) {
		const struct rp_hist_entry *e = h->entries[i];
		if (e->filtered)
			continue;
		/* perf compares the leader's share, as a float, with a float
		 * limit: a row of the members only has 0.  With --children the
		 * Children share. */
		uint64_t lp = children ? e->acc_period : e->period;
		float limit_pct = h->total_period
					  ? (float)((double)lp * 100.0 / (double)h->total_period)
					  : 0.0f;

		if (limit_pct < (float)r->percent_limit)
			continue;
		b->len = 0;
		rc = sep ? 0 : rp_buf_printf(b, "  ");
		if (!rc)
			rc = rp_format_numbers(r, idx, nr_shown, children, e, b);
		size_t nr_cols = 1, key_at = 0;

		for (size_t c = 0; sep && *sep && c + strlen(sep) <= b->len; c++)
			nr_cols += !memcmp(b->p + c, sep, strlen(sep));
		for (k = 0; !rc && k < r->nr_keys; k++) {
			if (rp_key_elided(r, k))
				continue;
			rc = rp_buf_printf(b, "%s", sep ? sep : "  ");
			key_at = b->len;
			if (!rc)
				rc = rp_format_key(r, r->keys[k], e, rp_key_width(r->keys[k], &w),
						   k + 1 == last_key, b);
		}
		if (rc)
			return rc;
		if (sep && r->nr_keys) {
			/* perf prints a row into a buffer of the columns'
			 * widths, two per gap and four more (hists__fprintf's
			 * linesz): with a one-character separator a last column
			 * wider than its width (" (inlined)" is not counted
			 * in it) loses what does not fit. */
			int kw = rp_key_width(r->keys[r->nr_keys - 1], &w);
			long slack = (long)(nr_cols + r->nr_keys - 1) * (2 - (long)strlen(sep)) + 3;
			long over = (long)(b->len - key_at) - kw;

			if (slack >= 0 && over > slack)
				b->len -= (size_t)(over - slack);
		}
		fwrite(b->p, 1, b->len, out);
		fputc('\n', out);
		if (graph && e->chain) {
			cg.parent_samples = children ? e->acc_period : e->period;
			rc = rp_ctree_fprint_graph(out, e->chain, &cg);
			if (rc)
				return rc;
		}
	}
	fputs("\n\n", out);
	return 0;
}

int rp_report_write(struct rp_report *report, FILE *out)
{
	struct rp_buf b = { NULL, 0, 0 };
	struct rp_evgroup *g = NULL;
	uint64_t total = 0;
	int rc = 0;

	if (!report || !out)
		return RP_ERR_INVAL;
	rc = rp_report_drain_stacks(report);
	if (rc < 0)
		return rc;
	rc = rp_report_override_default_comms(report);
	if (rc < 0)
		return rc;
	if (report->nr_hists) {
		g = calloc(report->nr_hists, sizeof(*g));
		if (!g)
			return RP_ERR_NOMEM;
		rp_report_groups(report, g);
	}
	fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
	      out);
	/* perf names each filter whose column it leaves out (or would). */
	for (size_t k = 0; k < report->nr_keys; k++) {
		const char *one = rp_key_single(report, report->keys[k]);

		if (one)
			fprintf(out, "# %s: %s\n",
				report->keys[k] == RP_SORT_COMM  ? "comm"
				: report->keys[k] == RP_SORT_DSO ? "dso"
								 : "symbol",
				one);
	}
	for (size_t i = 0; i < report->nr_hists; i++)
		total += report->hists[i].nr_samples;
	/* perf counts the call stacks only when an event records them:
	 * --children falls back to the plain view, and no graph is drawn. */
	int has_chains = 0;
	for (size_t i = 0; report->session && i < report->nr_hists; i++) {
		const struct rp_evsel *ev = rp_session_evsel(report->session, i);
		const struct rp_attr *a = ev ? rp_evsel_attr(ev) : NULL;

		if (a && (a->sample_type & RP_SAMPLE_CALLCHAIN))
			has_chains = 1;
	}
	int children = report->children && has_chains;
	int graph = report->graph && has_chains;
	enum rp_report_group saved_mode = report->group_mode;
	/* readperf shows --children without the group view. */
	if (children)
		report->group_mode = RP_REPORT_GROUP_OFF;
	/* perf prints nothing more when no event has a sample. */
	if (total) {
		fprintf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", report->lost_samples);
		for (size_t i = 0; i < report->nr_hists && !rc; i++) {
			/* In the group view a member is shown in its leader's
			 * section; a group whose leader has no sample is not
			 * shown at all (perf's skip_empty looks at the leader). */
			if (report->group_mode != RP_REPORT_GROUP_OFF && g[i].leader != i)
				continue;
			if (!report->hists[i].nr_samples)
				continue;
			rc = rp_write_hists(report, g, i, out, &b, children, graph);
		}
	}
	report->group_mode = saved_mode;
	free(b.p);
	free(g);
	if (rc)
		return rc;
	if (fflush(out) != 0 || ferror(out))
		return RP_ERR_IO;
	return 0;
}
