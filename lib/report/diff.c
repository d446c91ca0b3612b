/* SPDX-License-Identifier: MIT */
/*
 * The differential profile: perf diff (perf 6.1, tools/perf/builtin-diff.c;
 * pairing in util/hist.c hists__match/hists__link; keys in util/sort.c;
 * printing in ui/stdio/hist.c).  docs/diff.md states every rule.
 *
 * Each input keeps one histogram per evsel, its entries keyed as perf
 * diff's collapsed tree keys them: symbols by name (perf diff collapses
 * sym with sort__sym_sort: the files may come from different binaries),
 * DSOs by short name, commands by name, pids and CPUs by number, source
 * lines by their text.  Strings are interned in one pool for both inputs,
 * so that equal keys of the two files have equal pointers.  The write
 * pairs the histograms event by event and prints them.
 */
#include <readperf/diff.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>
#include <readperf/filter.h>

#include "common/arena.h"
#include "common/array.h"
#include "common/error_int.h"
#include "common/hashmap.h"
#include "common/opts.h"
#include "common/strbuf.h"
#include "common/strpool.h"
#include "outputs/output_int.h"
#include "report/keys_int.h"
#include "report/rbsort.h"
#include "report/srctext_int.h"

/* Entries one evsel of one input may hold. */
#define RP_DIFF_MAX_ENTRIES (64u << 20)
/* Evsels of one input the diff keeps histograms for. */
#define RP_DIFF_MAX_EVSELS (1u << 16)
/* perf formats each diff cell into a buffer of MAX_COL_WIDTH (70) bytes. */
#define RP_DIFF_CELL_MAX 70

/*
 * What the write shows of a thread (its comm at the end, its first comm),
 * kept up to date while its recording is read, as COMM and FORK records
 * change them: the machine may be gone by the write (output.h: an output
 * that merges reads the machine only while it consumes).
 */
struct rp_dthread {
	const struct rp_thread *th; /* while its input is consumed; NULL once copied */
	const char *comm;           /* interned: the thread's current comm */
	const char *first;          /* interned: rp_thread_first_comm() */
	int32_t tid;
};

/* The attr of an evsel of an input read without its session (merged). */
struct rp_devsel {
	uint32_t type;
	uint64_t config;
	int valid;
};

struct rp_dentry {
	struct rp_dentry *next; /* hash chain */
	uint64_t hash;
	/* The keys (keys_int.h), compared as perf diff's input tree does
	 * (symbols by address), then as its collapse (symbols by name);
	 * srcline and srcfile only with such a key. */
	struct rp_ekey k;
	/* Shown, not compared. */
	struct rp_dthread *thread;
	/* The RP_FILTERED_* marks of the first sample: perf hides the row
	 * when set and counts it in the totals. */
	unsigned filtered;
	uint64_t period;
	uint64_t nr_samples;
	uint32_t paired;        /* the write's section that paired it, plus one */
};

/*
 * One evsel's histogram, in two stages as perf's: the entries of its input
 * tree (samples merged by the keys' se_cmp: symbols by address), in the
 * order they were made; at the write, those entries collapsed (by the keys'
 * se_collapse: symbols by name), in the order of perf's collapsed tree.
 */
struct rp_dhists {
	struct rp_hashmap map; /* hash -> first entry of the chain */
	struct rp_dentry **entries;
	size_t nr_entries, alloc;
	struct rp_hashmap cmap; /* the collapsed entries, by hash */
	struct rp_dentry **coll;
	size_t nr_coll;
	uint64_t total_period; /* every sample's period */
	uint64_t total_nf;     /* the samples no entry filter rejected */
};

struct rp_diff_input {
	struct rp_diff *diff;
	/* The session that fed it; NULL for an input copied from another
	 * diff (rp_diff_output merge): its evsels' attrs are in evsels. */
	const struct rp_session *session;
	struct rp_devsel *evsels;
	size_t nr_evsels;
	struct rp_symbols *symbols;
	int added;
	struct rp_hashmap threads;     /* struct rp_thread * -> struct rp_dthread * */
	struct rp_hashmap thread_tids; /* tid -> the last struct rp_dthread of it */
	const struct rp_thread *last_th;
	struct rp_dthread *last_dt;
	struct rp_dhists *hists;
	size_t nr_hists;
	struct rp_key_names names;  /* comms and DSO names, in the diff's pool */
	struct rp_srctext srctext; /* srcline/srcfile texts, when want_srcline */
};

struct rp_diff {
	enum rp_sort_key keys[RP_REPORT_MAX_KEYS];
	uint8_t cols[RP_REPORT_MAX_KEYS]; /* the same, as columns (rp_key_elided()) */
	size_t nr_keys;
	enum rp_diff_compute compute;
	int64_t w1, w2;
	int show_period, show_formula, baseline_only, relative, baseline_order, quiet;
	int full_source_path;
	int want_srcline;
	int has_dso_key;
	char *field_sep;
	/* From the baseline's filter: the only entry of --comms, --dsos,
	 * --symbols (perf leaves that column out). */
	struct rp_key_singles singles;
	struct rp_diff_input in[2];
	struct rp_arena arena;
	struct rp_strpool pool;
	int written;
};

/* ---- options ------------------------------------------------------------ */

static int rp_diff_weight(const char *s, const char *end, int64_t *out)
{
	char buf[32], *stop;
	size_t n = (size_t)(end - s);

	if (!n || n >= sizeof(buf))
		return RP_ERR_INVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	long long v = strtoll(buf, &stop, 10);
	/* perf reads each weight with strtol and refuses a zero one. */
	if (stop == buf || *stop || !v)
		return RP_ERR_INVAL;
	*out = v;
	return 0;
}

int rp_diff_parse_compute(struct rp_diff_opts *opts, const char *arg)
{
	const char *colon;

	if (!opts || !arg)
		return RP_ERR_INVAL;
	colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	if (n == 5 && !strncmp(arg, "wdiff", 5)) {
		const char *comma = colon ? strchr(colon + 1, ',') : NULL;
		int64_t w1, w2;

		if (!comma || rp_diff_weight(colon + 1, comma, &w1) ||
		    rp_diff_weight(comma + 1, comma + 1 + strlen(comma + 1), &w2))
			return RP_ERR_INVAL;
		opts->compute = RP_DIFF_WDIFF;
		opts->wdiff_w1 = w1;
		opts->wdiff_w2 = w2;
		return 0;
	}
	/* The other methods take no argument. */
	if (colon)
		return RP_ERR_INVAL;
	if (!strcmp(arg, "delta"))
		opts->compute = RP_DIFF_DELTA;
	else if (!strcmp(arg, "delta-abs"))
		opts->compute = RP_DIFF_DELTA_ABS;
	else if (!strcmp(arg, "ratio"))
		opts->compute = RP_DIFF_RATIO;
	else
		return RP_ERR_INVAL;
	return 0;
}

int rp_diff_new(struct rp_diff **out, const struct rp_diff_opts *opts)
{
	struct rp_diff_opts o;
	struct rp_diff *d;

	if (!out)
		return RP_ERR_INVAL;
	*out = NULL;
	if (rp_opts_copy(&o, sizeof(o), opts) < 0 || o.nr_keys > RP_REPORT_MAX_KEYS ||
	    (unsigned)o.compute > RP_DIFF_WDIFF ||
	    (o.compute == RP_DIFF_WDIFF && (!o.wdiff_w1 || !o.wdiff_w2)))
		return RP_ERR_INVAL;
	for (size_t i = 0; i < o.nr_keys; i++)
		if (o.keys[i] == RP_SORT_TID || (unsigned)o.keys[i] > RP_SORT_SRCFILE)
			return RP_ERR_INVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return RP_ERR_NOMEM;
	if (o.nr_keys) {
		memcpy(d->keys, o.keys, o.nr_keys * sizeof(o.keys[0]));
		d->nr_keys = o.nr_keys;
	} else {
		/* perf's default_diff_sort_order */
		d->keys[0] = RP_SORT_DSO;
		d->keys[1] = RP_SORT_SYM;
		d->nr_keys = 2;
	}
	for (size_t i = 0; i < d->nr_keys; i++) {
		d->cols[i] = (uint8_t)d->keys[i];
		d->want_srcline |= d->keys[i] == RP_SORT_SRCLINE || d->keys[i] == RP_SORT_SRCFILE;
		d->has_dso_key |= d->keys[i] == RP_SORT_DSO;
	}
	d->compute = o.compute;
	d->w1 = o.wdiff_w1;
	d->w2 = o.wdiff_w2;
	d->show_period = o.show_period;
	d->show_formula = o.show_formula;
	d->baseline_only = o.baseline_only;
	d->relative = o.relative;
	d->baseline_order = o.baseline_order;
	d->quiet = o.quiet;
	d->full_source_path = o.full_source_path;
	if (o.field_sep && !(d->field_sep = strdup(o.field_sep))) {
		free(d);
		return RP_ERR_NOMEM;
	}
	for (unsigned i = 0; i < 2; i++) {
		d->in[i].diff = d;
		rp_key_names_init(&d->in[i].names, &d->pool);
	}
	*out = d;
	return 0;
}

static void rp_diff_input_release(struct rp_diff_input *in)
{
	for (size_t i = 0; i < in->nr_hists; i++) {
		rp_hashmap_release(&in->hists[i].map);
		rp_hashmap_release(&in->hists[i].cmap);
		free(in->hists[i].entries);
		free(in->hists[i].coll);
	}
	free(in->hists);
	free(in->evsels);
	rp_hashmap_release(&in->threads);
	rp_hashmap_release(&in->thread_tids);
	rp_key_names_release(&in->names);
	rp_srctext_release(&in->srctext);
}

void rp_diff_free(struct rp_diff *diff)
{
	if (!diff)
		return;
	for (unsigned i = 0; i < 2; i++)
		rp_diff_input_release(&diff->in[i]);
	rp_strpool_release(&diff->pool);
	rp_arena_release(&diff->arena);
	free(diff->field_sep);
	rp_key_singles_release(&diff->singles);
	free(diff);
}

int rp_diff_add_input(struct rp_diff *diff, unsigned which, const struct rp_session *session,
		      struct rp_symbols *symbols, const struct rp_filter *filter)
{
	if (!diff || which > RP_DIFF_NEW || !session || diff->in[which].added)
		return RP_ERR_INVAL;
	struct rp_diff_input *in = &diff->in[which];

	if (diff->want_srcline &&
	    rp_srctext_init(&in->srctext, symbols, &diff->pool, diff->full_source_path) < 0)
		return RP_ERR_NOMEM;
	if (which == RP_DIFF_BASELINE && rp_key_singles_set(&diff->singles, filter))
		return RP_ERR_NOMEM;
	in->session = session;
	in->symbols = symbols;
	in->added = 1;
	return 0;
}

/* ---- entries ------------------------------------------------------------ */

/* Which of the two stages' keys (struct rp_dhists). */
enum rp_dstage {
	RP_DSTAGE_INPUT,    /* perf's se_cmp */
	RP_DSTAGE_COLLAPSE, /* perf diff's se_collapse */
};

/* The key comparison of a stage (keys_int.h). */
static unsigned rp_dstage_flags(enum rp_dstage stage)
{
	return stage == RP_DSTAGE_COLLAPSE ? RP_EKEY_SYM_NAME : RP_EKEY_SRCLINE_ADDR;
}

/* Whether a and b are one entry of the stage's tree. */
static int rp_dentry_same(const struct rp_diff *d, enum rp_dstage stage,
			  const struct rp_dentry *a, const struct rp_dentry *b)
{
	unsigned flags = rp_dstage_flags(stage);

	for (size_t i = 0; i < d->nr_keys; i++)
		if (!rp_ekey_same(d->keys[i], &a->k, &b->k, flags))
			return 0;
	return 1;
}

static uint64_t rp_dentry_hash(const struct rp_diff *d, enum rp_dstage stage,
			       const struct rp_dentry *e)
{
	unsigned flags = rp_dstage_flags(stage);
	uint64_t h = RP_EKEY_HASH_SEED;

	for (size_t i = 0; i < d->nr_keys; i++)
		h = rp_ekey_hash_mix(h, rp_ekey_word(d->keys[i], &e->k, flags), i);
	return h;
}

/* The entry of map equal to key in the stage's keys (key->hash set), or
 * NULL. */
static struct rp_dentry *rp_dmap_find(const struct rp_diff *d, enum rp_dstage stage,
				      const struct rp_hashmap *map, const struct rp_dentry *key)
{
	for (struct rp_dentry *e = rp_hashmap_get(map, key->hash); e; e = e->next)
		if (e->hash == key->hash && rp_dentry_same(d, stage, e, key))
			return e;
	return NULL;
}

/* perf's cmp_null(l, r). */
static int rp_cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

/* perf's sort__dso_cmp(left, right). */
static int64_t rp_se_dso(const struct rp_dentry *left, const struct rp_dentry *right)
{
	if (!right->k.dso || !left->k.dso)
		return rp_cmp_null(left->k.dso, right->k.dso);
	return strcmp(right->k.dso, left->k.dso);
}

/*
 * perf's hist_entry__cmp(left, right) over the keys' se_cmp, which builds
 * its input tree: left is the entry in the tree, right the new one, which
 * goes left of it when this is negative.  With sym and no dso key it is
 * not a total order: the tree's shape decides, so the tree is rebuilt
 * (rp_rbsort()).
 */
static int64_t rp_dentry_se_cmp(const struct rp_diff *d, const struct rp_dentry *left,
				const struct rp_dentry *right)
{
	int64_t c = 0;

	for (size_t i = 0; i < d->nr_keys && !c; i++) {
		switch (d->keys[i]) {
		case RP_SORT_COMM:
			c = left->k.comm == right->k.comm ? 0 : strcmp(right->k.comm, left->k.comm);
			break;
		case RP_SORT_PID:
		case RP_SORT_TID:
			c = (int64_t)right->k.tid - left->k.tid;
			break;
		case RP_SORT_DSO:
			c = rp_se_dso(left, right);
			break;
		case RP_SORT_SYM:
			if (!left->k.sym && !right->k.sym) {
				c = (int64_t)(right->k.ip - left->k.ip);
				break;
			}
			if (!d->has_dso_key && (c = rp_se_dso(left, right)))
				break;
			if (!left->k.sym || !right->k.sym)
				c = rp_cmp_null(left->k.sym, right->k.sym);
			else if (left->k.sym_start != right->k.sym_start)
				c = (int64_t)(right->k.sym_start - left->k.sym_start);
			else
				c = (int64_t)(right->k.sym_end - left->k.sym_end);
			break;
		case RP_SORT_CPU:
			c = (int64_t)right->k.cpu - left->k.cpu;
			break;
		case RP_SORT_SRCLINE:
			c = (int64_t)(right->k.ip - left->k.ip);
			if (!c)
				c = rp_se_dso(left, right);
			break;
		case RP_SORT_SRCFILE:
			c = left->k.srcfile == right->k.srcfile ? 0 : strcmp(right->k.srcfile, left->k.srcfile);
			break;
		default:
			break;
		}
	}
	return c;
}

/* rp_rbsort()'s comparison: pa the new entry, pb the one in the tree. */
static int rp_dentry_input_order(const void *pa, const void *pb, void *ctx)
{
	const struct rp_dentry *n = *(const struct rp_dentry *const *)pa;
	const struct rp_dentry *t = *(const struct rp_dentry *const *)pb;
	int64_t c = rp_dentry_se_cmp(ctx, t, n);

	return c < 0 ? -1 : c > 0 ? 1 : 0;
}

static int rp_dhists_insert(struct rp_diff *d, struct rp_dhists *h, const struct rp_dentry *key,
			    struct rp_dentry **out)
{
	struct rp_dentry *e;

	if (h->nr_entries >= RP_DIFF_MAX_ENTRIES)
		return RP_ERR_LIMIT;
	if (RP_ARRAY_RESERVE(h->entries, h->alloc, h->nr_entries + 1) < 0)
		return RP_ERR_NOMEM;
	e = rp_arena_alloc(&d->arena, sizeof(*e));
	if (!e)
		return RP_ERR_NOMEM;
	*e = *key;
	/* The symbol's name was the resolver's while the sample was looked
	 * up: the collapse compares names by pointer. */
	if (key->k.sym && !(e->k.sym = rp_strpool_intern_str(&d->pool, key->k.sym)))
		return RP_ERR_NOMEM;
	e->next = rp_hashmap_get(&h->map, key->hash);
	if (rp_hashmap_put(&h->map, key->hash, e) < 0)
		return RP_ERR_NOMEM;
	h->entries[h->nr_entries++] = e;
	*out = e;
	return 0;
}

/* Reads t's comms again from its thread (0 or RP_ERR_NOMEM). */
static int rp_dthread_refresh(struct rp_diff_input *in, struct rp_dthread *t)
{
	const char *comm = rp_thread_comm(t->th), *first = rp_thread_first_comm(t->th);

	t->comm = rp_key_names_comm(&in->names, comm ? comm : "");
	t->first = first ? rp_strpool_intern_str(&in->diff->pool, first) : NULL;
	return !t->comm || (first && !t->first) ? RP_ERR_NOMEM : 0;
}

/* The snapshot of th, made at its first sample; NULL when out of memory. */
static struct rp_dthread *rp_diff_thread(struct rp_diff_input *in, const struct rp_thread *th)
{
	struct rp_dthread *t;

	if (th == in->last_th)
		return in->last_dt;
	t = rp_hashmap_get(&in->threads, (uint64_t)(uintptr_t)th);
	if (!t) {
		t = rp_arena_alloc(&in->diff->arena, sizeof(*t));
		if (!t)
			return NULL;
		t->th = th;
		t->tid = rp_thread_tid(th);
		if (rp_dthread_refresh(in, t) < 0 ||
		    rp_hashmap_put(&in->threads, (uint64_t)(uintptr_t)th, t) < 0 ||
		    rp_hashmap_put(&in->thread_tids, (uint32_t)t->tid, t) < 0)
			return NULL;
	}
	in->last_th = th;
	in->last_dt = t;
	return t;
}

/*
 * After the machine applied a COMM or FORK record (the only ones that
 * change a thread's comms): the snapshot of the thread of that tid, if a
 * sample made one, reads them again.  A thread replaced by a newer one of
 * its tid no longer changes, so reading it again is harmless.
 */
static int rp_diff_comm_changed(struct rp_diff_input *in, uint32_t tid)
{
	struct rp_dthread *t = rp_hashmap_get(&in->thread_tids, tid);

	return t && t->th ? rp_dthread_refresh(in, t) : 0;
}

static struct rp_dhists *rp_diff_hists(struct rp_diff_input *in, size_t idx)
{
	if (idx >= RP_DIFF_MAX_EVSELS)
		return NULL;
	if (idx >= in->nr_hists) {
		/* Pipe streams add evsels while they are read. */
		size_t n = idx + 1;
		struct rp_dhists *p = realloc(in->hists, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + in->nr_hists, 0, (n - in->nr_hists) * sizeof(*p));
		in->hists = p;
		in->nr_hists = n;
	}
	return &in->hists[idx];
}

static int rp_diff_add_sample(struct rp_diff_input *in, const struct rp_event *ev,
			      const struct rp_resolved *res)
{
	struct rp_diff *d = in->diff;
	const struct rp_sample *s = &ev->u.sample;
	int idx = rp_evsel_idx(ev->evsel);
	struct rp_dhists *h;
	struct rp_dentry key;
	int rc;

	if (idx < 0)
		return 0;
	h = rp_diff_hists(in, (size_t)idx);
	if (!h)
		return (size_t)idx >= RP_DIFF_MAX_EVSELS ? 0 : RP_ERR_NOMEM;
	memset(&key, 0, sizeof(key));
	key.filtered = res ? res->filtered : 0;
	if (res && res->thread && !(key.thread = rp_diff_thread(in, res->thread)))
		return RP_ERR_NOMEM;
	if ((rc = rp_ekey_fill(&key.k, &in->names, d->want_srcline ? &in->srctext : NULL, s, res)))
		return rc;
	if (d->want_srcline && !key.k.srcline) {
		key.k.srcline = rp_strpool_intern_str(&d->pool, "??:0");
		key.k.srcfile = rp_strpool_intern_str(&d->pool, "");
		if (!key.k.srcline || !key.k.srcfile)
			return RP_ERR_NOMEM;
	}
	key.hash = rp_dentry_hash(d, RP_DSTAGE_INPUT, &key);
	struct rp_dentry *e = rp_dmap_find(d, RP_DSTAGE_INPUT, &h->map, &key);
	if (!e && (rc = rp_dhists_insert(d, h, &key, &e)))
		return rc;
	e->period += s->period;
	e->nr_samples++;
	h->total_period += s->period;
	if (!key.filtered)
		h->total_nf += s->period;
	return 0;
}

static int rp_diff_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	if (ev->type == RP_RECORD_COMM)
		return rp_diff_comm_changed(ctx, ev->u.comm.tid);
	if (ev->type == RP_RECORD_FORK)
		return rp_diff_comm_changed(ctx, ev->u.task.tid);
	if (ev->type != RP_RECORD_SAMPLE || !ev->evsel)
		return 0;
	return rp_diff_add_sample(ctx, ev, res);
}

struct rp_consumer rp_diff_consumer(struct rp_diff *diff, unsigned which)
{
	struct rp_consumer c = { NULL, rp_diff_event, RP_CONSUMER_FILTERED };

	if (diff && which <= RP_DIFF_NEW)
		c.ctx = &diff->in[which];
	return c;
}

/*
 * Merges the entries of h that are equal in the stage's keys into the
 * first of them, in the order of h->entries; the survivors go to *out
 * (may be h->entries itself) and map.  Returns 0 or RP_ERR_NOMEM.
 */
static int rp_dhists_merge(const struct rp_diff *d, enum rp_dstage stage, struct rp_dhists *h,
			   struct rp_hashmap *map, struct rp_dentry **out, size_t *nr_out)
{
	size_t kept = 0;

	rp_hashmap_release(map);
	for (size_t j = 0; j < h->nr_entries; j++) {
		struct rp_dentry *e = h->entries[j];

		e->hash = rp_dentry_hash(d, stage, e);
		struct rp_dentry *f = rp_dmap_find(d, stage, map, e);
		if (f) {
			f->period += e->period;
			f->nr_samples += e->nr_samples;
			continue;
		}
		e->next = rp_hashmap_get(map, e->hash);
		if (rp_hashmap_put(map, e->hash, e) < 0)
			return RP_ERR_NOMEM;
		out[kept++] = e;
	}
	*nr_out = kept;
	return 0;
}

/*
 * Makes the collapsed entries of every histogram of an input, once, before
 * the write, as perf's hists__collapse_resort() does: its input tree's
 * entries in that tree's order, merged by the collapse keys into the first
 * of them (which keeps its address, level, thread and filter marks).
 *
 * Before, as perf overrides a thread's ":<tid>" default comm in place when
 * its first COMM arrives, entries of samples taken before show that comm
 * and, with a comm key, merge with the entries of the same comm.
 */
static int rp_diff_collapse(struct rp_diff *d, struct rp_diff_input *in)
{
	char def[16];
	int has_comm = 0, rc;

	for (size_t k = 0; k < d->nr_keys; k++)
		has_comm |= d->keys[k] == RP_SORT_COMM;
	for (size_t i = 0; i < in->nr_hists; i++) {
		struct rp_dhists *h = &in->hists[i];
		int changed = 0;

		for (size_t j = 0; has_comm && j < h->nr_entries; j++) {
			struct rp_dentry *e = h->entries[j];
			const char *first = e->thread ? e->thread->first : NULL;

			if (!first)
				continue;
			snprintf(def, sizeof(def), ":%d", (int)e->thread->tid);
			if (strcmp(e->k.comm, def) || !strcmp(first, def))
				continue;
			e->k.comm = rp_strpool_intern_str(&d->pool, first);
			if (!e->k.comm)
				return RP_ERR_NOMEM;
			changed = 1;
		}
		if (changed && (rc = rp_dhists_merge(d, RP_DSTAGE_INPUT, h, &h->map, h->entries,
						     &h->nr_entries)))
			return rc;
		rc = rp_rbsort((void **)h->entries, h->nr_entries, rp_dentry_input_order, d);
		if (rc)
			return rc;
		if (h->nr_entries && !(h->coll = malloc(h->nr_entries * sizeof(*h->coll))))
			return RP_ERR_NOMEM;
		/* The input entries become the collapsed ones: their periods
		 * now count there. */
		if ((rc = rp_dhists_merge(d, RP_DSTAGE_COLLAPSE, h, &h->cmap, h->coll, &h->nr_coll)))
			return rc;
		/* Its chains were rewritten for the collapsed map. */
		rp_hashmap_release(&h->map);
	}
	return 0;
}

/* ---- the write ---------------------------------------------------------- */

/* One row of a section: a baseline entry, or (dummy) an entry of the new
 * profile the baseline lacks, shown with an empty baseline. */
struct rp_drow {
	const struct rp_dentry *e;    /* its keys */
	const struct rp_dentry *pair; /* the new profile's entry, or NULL */
	uint64_t period;              /* the baseline's period (0: dummy) */
	int dummy;
	double delta, ratio;
	int64_t wdiff;
};

static int rp_cmp_desc_double(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int rp_cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

/* The computed values of two paired rows, larger first. */
static int rp_cmp_computed(const struct rp_diff *d, const struct rp_drow *a,
			   const struct rp_drow *b)
{
	switch (d->compute) {
	case RP_DIFF_DELTA:
		return rp_cmp_desc_double(a->delta, b->delta);
	case RP_DIFF_DELTA_ABS:
		return rp_cmp_desc_double(fabs(a->delta), fabs(b->delta));
	case RP_DIFF_RATIO:
		return rp_cmp_desc_double(a->ratio, b->ratio);
	case RP_DIFF_WDIFF:
		return -rp_cmp_i64(a->wdiff, b->wdiff);
	}
	return 0;
}

/*
 * perf diff's output order (hists__output_resort with the diff's sort
 * list): unless -o 0, first the computed column of the new profile
 * (hist_entry__cmp_*_idx: rows with a pair first; for ratio and wdiff the
 * empty-baseline rows after the others; larger values first), then
 * Baseline (larger first), then the computed column again (this time
 * without the empty-baseline rule), then the keys.  The keys tell every
 * two rows apart.
 */
static int rp_drow_order(const void *pa, const void *pb, void *ctx)
{
	const struct rp_drow *a = pa, *b = pb;
	const struct rp_diff *d = ctx;
	int c;

	if (!d->baseline_order) {
		if (!a->pair != !b->pair)
			return a->pair ? -1 : 1;
		if (a->pair && b->pair) {
			int skip = 0;

			if (d->compute == RP_DIFF_RATIO || d->compute == RP_DIFF_WDIFF) {
				if (a->dummy != b->dummy)
					return a->dummy ? 1 : -1;
				skip = a->dummy;
			}
			if (!skip && (c = rp_cmp_computed(d, a, b)))
				return c;
		}
	}
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (!a->pair != !b->pair)
		return a->pair ? -1 : 1;
	if (a->pair && b->pair && (c = rp_cmp_computed(d, a, b)))
		return c;
	for (size_t i = 0; i < d->nr_keys; i++)
		if ((c = rp_ekey_cmp(d->keys[i], &a->e->k, &b->e->k)))
			return c;
	return 0;
}

/* The columns before the keys, in perf diff's order. */
enum rp_dcol {
	RP_DCOL_BASELINE,
	RP_DCOL_BASE_PERIOD,
	RP_DCOL_COMPUTED,
	RP_DCOL_FORMULA,
	RP_DCOL_PERIOD,
};

static const char *rp_dcol_header(const struct rp_diff *d, enum rp_dcol col)
{
	switch (col) {
	case RP_DCOL_BASELINE: return "Baseline";
	case RP_DCOL_BASE_PERIOD: return "Base period";
	case RP_DCOL_FORMULA: return "Formula";
	case RP_DCOL_PERIOD: return "Period";
	case RP_DCOL_COMPUTED:
		switch (d->compute) {
		case RP_DIFF_DELTA: return "Delta";
		case RP_DIFF_DELTA_ABS: return "Delta Abs";
		case RP_DIFF_RATIO: return "Ratio";
		case RP_DIFF_WDIFF: return "Weighted diff";
		}
	}
	return "";
}

/* perf's column widths (builtin-diff.c columns[]), at least the header's. */
static int rp_dcol_width(const struct rp_diff *d, enum rp_dcol col)
{
	int w = 0;

	switch (col) {
	case RP_DCOL_BASELINE: w = 0; break;
	case RP_DCOL_BASE_PERIOD: w = 14; break;
	case RP_DCOL_FORMULA: w = RP_DIFF_CELL_MAX; break;
	case RP_DCOL_PERIOD: w = 14; break;
	case RP_DCOL_COMPUTED: w = d->compute == RP_DIFF_DELTA || d->compute == RP_DIFF_DELTA_ABS
					   ? 7
					   : 14;
		break;
	}
	int hl = (int)strlen(rp_dcol_header(d, col));
	return w > hl ? w : hl;
}

static const char *rp_dentry_final_comm(const struct rp_dentry *e)
{
	return e->thread ? e->thread->comm : e->k.comm;
}

/* perf's hists__calc_col_len over the rows shown, then the headers. */
static void rp_diff_widths(const struct rp_diff *d, const struct rp_drow *rows, size_t nr,
			   struct rp_key_widths *w)
{
	rp_key_widths_init(w);
	for (size_t i = 0; i < nr; i++)
		if (!rows[i].e->filtered)
			rp_key_widths_add(w, &rows[i].e->k, rp_dentry_final_comm(rows[i].e));
	rp_key_widths_end(w, d->field_sep);
}

static int rp_key_elided_at(const struct rp_diff *d, size_t k)
{
	return rp_key_elided(&d->singles, d->cols, d->nr_keys, d->cols[k]);
}

/* The totals of one histogram, as perf's hists__total_period() picks. */
static uint64_t rp_dhists_total(const struct rp_diff *d, const struct rp_dhists *h)
{
	return !h ? 0 : d->relative ? h->total_nf : h->total_period;
}

/*
 * The text of a diff column's cell (perf's hpp__entry_global: a buffer of
 * RP_DIFF_CELL_MAX bytes that holds " " when nothing is written).
 */
static void rp_diff_cell(const struct rp_diff *d, enum rp_dcol col, const struct rp_drow *r,
			 uint64_t base_total, uint64_t new_total, char *buf)
{
	const size_t size = RP_DIFF_CELL_MAX;

	buf[0] = ' ';
	buf[1] = '\0';
	switch (col) {
	case RP_DCOL_BASELINE:
		if (!r->dummy)
			snprintf(buf, size, d->field_sep ? "%.2f" : "%6.2f%%",
				 100.0 * (double)r->period / (double)base_total);
		return;
	case RP_DCOL_BASE_PERIOD:
		snprintf(buf, size, "%" PRIu64, r->period);
		return;
	default:
		break;
	}
	if (!r->pair)
		return;
	switch (col) {
	case RP_DCOL_COMPUTED:
		switch (d->compute) {
		case RP_DIFF_DELTA:
		case RP_DIFF_DELTA_ABS:
			/* perf prints aligned cells through the column's color
			 * function ("%+N.2f%%") and -t cells through its entry
			 * function ("%+4.2F%%"): the same figures, but a delta of
			 * two empty totals is "-nan%" in one, "-NAN%" in the
			 * other. */
			snprintf(buf, size, d->field_sep ? "%+4.2F%%" : "%+4.2f%%", r->delta);
			break;
		case RP_DIFF_RATIO:
			if (r->dummy)
				snprintf(buf, size, "N/A");
			else if (r->ratio > 0.0)
				snprintf(buf, size, "%14.6F", r->ratio);
			break;
		case RP_DIFF_WDIFF:
			if (r->dummy)
				snprintf(buf, size, "N/A");
			else
				snprintf(buf, size, "%14" PRId64, r->wdiff);
			break;
		}
		return;
	case RP_DCOL_FORMULA:
		switch (d->compute) {
		case RP_DIFF_DELTA:
		case RP_DIFF_DELTA_ABS:
			snprintf(buf, size,
				 "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
				 r->pair->period, new_total, r->period, base_total);
			break;
		case RP_DIFF_RATIO:
			snprintf(buf, size, "%.0F / %.0F", (double)r->pair->period, (double)r->period);
			break;
		case RP_DIFF_WDIFF:
			snprintf(buf, size, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
				 r->pair->period, d->w2, r->period, d->w1);
			break;
		}
		return;
	case RP_DCOL_PERIOD:
		snprintf(buf, size, "%" PRIu64, r->pair->period);
		return;
	default:
		return;
	}
}

/* The new profile's first evsel of the same attr type and config as the
 * baseline's evsel i (perf diff's evsel_match), or -1. */
static long rp_diff_match_evsel(const struct rp_diff *d, size_t i)
{
	const struct rp_evsel *be = rp_session_evsel(d->in[0].session, i);
	const struct rp_attr *ba = be ? rp_evsel_attr(be) : NULL;
	const struct rp_diff_input *in = &d->in[1];
	size_t n = in->session ? rp_session_nr_evsels(in->session) : in->nr_evsels;

	for (size_t j = 0; ba && j < n; j++) {
		if (!in->session) {
			if (in->evsels[j].valid && in->evsels[j].type == ba->type &&
			    in->evsels[j].config == ba->config)
				return (long)j;
			continue;
		}
		const struct rp_attr *a = rp_evsel_attr(rp_session_evsel(in->session, j));

		if (a && a->type == ba->type && a->config == ba->config)
			return (long)j;
	}
	return -1;
}

static int rp_diff_write_section(struct rp_diff *d, size_t i, uint32_t section, FILE *out,
				 struct rp_drow **rowsp, size_t *rows_alloc, struct rp_strbuf *b)
{
	const struct rp_dhists *base = i < d->in[0].nr_hists ? &d->in[0].hists[i] : NULL;
	long j = rp_diff_match_evsel(d, i);
	const struct rp_dhists *newh =
		j >= 0 && (size_t)j < d->in[1].nr_hists ? &d->in[1].hists[j] : NULL;
	size_t nr = 0, k;
	int rc;

	/* perf's hists__match(): each baseline entry with the new profile's
	 * entry of equal keys; hists__link(): the new profile's other
	 * entries as empty baseline rows (not with -b). */
	size_t want = (base ? base->nr_coll : 0) + (newh ? newh->nr_coll : 0);
	if (want && RP_ARRAY_RESERVE(*rowsp, *rows_alloc, want) < 0)
		return RP_ERR_NOMEM;
	struct rp_drow *rows = *rowsp;
	for (k = 0; base && k < base->nr_coll; k++) {
		struct rp_dentry *e = base->coll[k];
		struct rp_dentry *p = newh ? rp_dmap_find(d, RP_DSTAGE_COLLAPSE, &newh->cmap, e) : NULL;

		if (p)
			p->paired = section;
		else if (d->baseline_only)
			continue;
		rows[nr++] = (struct rp_drow){ .e = e, .pair = p, .period = e->period };
	}
	for (k = 0; newh && !d->baseline_only && k < newh->nr_coll; k++) {
		struct rp_dentry *p = newh->coll[k];

		if (p->paired != section)
			rows[nr++] = (struct rp_drow){ .e = p, .pair = p, .dummy = 1 };
	}

	/* perf's hists__precompute(), with the totals of every sample read
	 * (or of those the entry filters keep, with --percentage relative). */
	uint64_t base_in = rp_dhists_total(d, base), new_total = rp_dhists_total(d, newh);
	for (k = 0; k < nr; k++) {
		struct rp_drow *r = &rows[k];

		if (!r->pair)
			continue;
		uint64_t np = r->pair->period;
		switch (d->compute) {
		case RP_DIFF_DELTA:
		case RP_DIFF_DELTA_ABS: {
			double old_pct = ((double)r->period * 100.0) / (double)base_in;
			double new_pct = ((double)np * 100.0) / (double)new_total;

			r->delta = new_pct - old_pct;
			break;
		}
		case RP_DIFF_RATIO:
			r->ratio = (double)np / (double)(r->period ? r->period : 1);
			break;
		case RP_DIFF_WDIFF:
			r->wdiff = (int64_t)(np * (uint64_t)d->w2 - r->period * (uint64_t)d->w1);
			break;
		}
	}
	/* perf's hists__output_resort() counts the totals again from the
	 * entries left: Baseline shares (and the formula) use those. */
	uint64_t out_total = 0, out_nf = 0;
	for (k = 0; k < nr; k++) {
		out_total += rows[k].period;
		if (!rows[k].e->filtered)
			out_nf += rows[k].period;
	}
	uint64_t base_out = d->relative ? out_nf : out_total;

	qsort_r(rows, nr, sizeof(rows[0]), rp_drow_order, (void *)d);

	/* The columns. */
	enum rp_dcol cols[5];
	size_t nr_cols = 0;
	cols[nr_cols++] = RP_DCOL_BASELINE;
	if (d->show_period)
		cols[nr_cols++] = RP_DCOL_BASE_PERIOD;
	cols[nr_cols++] = RP_DCOL_COMPUTED;
	if (d->show_formula)
		cols[nr_cols++] = RP_DCOL_FORMULA;
	if (d->show_period)
		cols[nr_cols++] = RP_DCOL_PERIOD;
	struct rp_key_widths w;
	rp_diff_widths(d, rows, nr, &w);
	size_t last_key = d->nr_keys; /* the last key shown, plus one */
	while (last_key > 1 && rp_key_elided_at(d, last_key - 1))
		last_key--;
	/* perf formats a row into hists__sort_list_width() + 4 bytes. */
	long line_max = 3;
	size_t nr_shown = 0;
	for (k = 0; k < nr_cols; k++, nr_shown++)
		line_max += rp_dcol_width(d, cols[k]);
	for (k = 0; k < d->nr_keys; k++)
		if (!rp_key_elided_at(d, k)) {
			line_max += w.w[d->keys[k]];
			nr_shown++;
		}
	line_max += 2 * (long)(nr_shown - 1);

	const char *sep = d->field_sep;
	const char *name = rp_evsel_name(rp_session_evsel(d->in[0].session, i));
	if (!d->quiet) {
		fprintf(out, "%s# Event '%s'\n#\n", section > 1 ? "\n" : "", name ? name : "");
		fputs("# ", out);
		for (k = 0; k < nr_cols; k++)
			fprintf(out, "%s%*s", k ? (sep ? sep : "  ") : "", rp_dcol_width(d, cols[k]),
				rp_dcol_header(d, cols[k]));
		for (k = 0; k < d->nr_keys; k++) {
			int kw = w.w[d->keys[k]];

			if (!rp_key_elided_at(d, k))
				fprintf(out, "%s%-*.*s", sep ? sep : "  ", kw, kw,
					rp_key_header(d->keys[k]));
		}
		fputc('\n', out);
		if (!sep) {
			fputs("# ", out);
			for (k = 0; k < nr_cols + d->nr_keys; k++) {
				int cw;

				if (k < nr_cols) {
					cw = rp_dcol_width(d, cols[k]);
				} else {
					if (rp_key_elided_at(d, k - nr_cols))
						continue;
					cw = w.w[d->keys[k - nr_cols]];
				}
				if (k)
					fputs("  ", out);
				for (int dot = 0; dot < cw; dot++)
					fputc('.', out);
			}
			fputs("\n#\n", out);
		}
	}

	char cell[RP_DIFF_CELL_MAX];
	for (k = 0; k < nr; k++) {
		const struct rp_drow *r = &rows[k];

		if (r->e->filtered)
			continue;
		b->len = 0;
		rc = sep ? 0 : rp_strbuf_printf(b, "  ");
		for (size_t c = 0; !rc && c < nr_cols; c++) {
			size_t start;
			int cw = rp_dcol_width(d, cols[c]);

			if (c && (rc = rp_strbuf_printf(b, "%s", sep ? sep : "  ")))
				break;
			start = b->len;
			rp_diff_cell(d, cols[c], r, base_out, new_total, cell);
			rc = sep ? rp_strbuf_printf(b, "%s", cell) : rp_strbuf_printf(b, "%*s", cw, cell);
			/* perf pads every column but the last to its width. */
			if (!rc && (int)(b->len - start) < cw)
				rc = rp_strbuf_printf(b, "%*s", cw - (int)(b->len - start), "");
		}
		for (size_t kk = 0; !rc && kk < d->nr_keys; kk++) {
			if (rp_key_elided_at(d, kk))
				continue;
			rc = rp_strbuf_printf(b, "%s", sep ? sep : "  ");
			if (!rc)
				rc = rp_key_format(d->keys[kk], &r->e->k, rp_dentry_final_comm(r->e),
						   w.w[d->keys[kk]], kk + 1 == last_key, d->field_sep, b);
		}
		if (rc)
			return rc;
		if ((long)b->len > line_max)
			b->len = (size_t)line_max;
		fwrite(b->p, 1, b->len, out);
		fputc('\n', out);
	}
	return 0;
}

int rp_diff_write(struct rp_diff *diff, FILE *out)
{
	struct rp_drow *rows = NULL;
	size_t rows_alloc = 0;
	struct rp_strbuf b = { NULL, 0, 0 };
	int rc = 0;

	if (!diff || !out || !diff->in[0].added || !diff->in[1].added || diff->written)
		return RP_ERR_INVAL;
	diff->written = 1;
	for (unsigned f = 0; f < 2 && !rc; f++)
		rc = rp_diff_collapse(diff, &diff->in[f]);
	size_t n = rp_session_nr_evsels(diff->in[0].session);
	for (size_t i = 0; i < n && !rc; i++)
		rc = rp_diff_write_section(diff, i, (uint32_t)i + 1, out, &rows, &rows_alloc, &b);
	free(rows);
	free(b.p);
	if (rc)
		return rc;
	if (fflush(out) != 0 || ferror(out))
		return RP_ERR_IO;
	return 0;
}

/* ---- the output "diff" --------------------------------------------------- */

/* An interned copy in d's pool of s (NULL stays NULL); 0 or RP_ERR_NOMEM. */
static int rp_diff_reintern(struct rp_diff *d, const char **s)
{
	if (*s && !(*s = rp_strpool_intern_str(&d->pool, *s)))
		return RP_ERR_NOMEM;
	return 0;
}

/*
 * Makes dst (an input of d not added yet) a copy of src, an input of
 * another diff with the same keys whose recording has been read: its
 * entries in their order, their strings interned in d's pool (equal keys,
 * equal pointers), its threads' snapshots, and its evsels' attrs (src's
 * session may be freed afterwards).  Returns 0, RP_ERR_NOMEM or
 * RP_ERR_LIMIT.
 */
static int rp_diff_copy_input(struct rp_diff *d, struct rp_diff_input *dst,
			      const struct rp_diff_input *src)
{
	struct rp_hashmap threads = RP_HASHMAP_INIT; /* src's rp_dthread -> dst's */
	size_t ne = src->session ? rp_session_nr_evsels(src->session) : src->nr_evsels;
	int rc = RP_ERR_NOMEM;

	if (!(dst->evsels = calloc(ne ? ne : 1, sizeof(*dst->evsels))))
		return RP_ERR_NOMEM;
	dst->nr_evsels = ne;
	for (size_t j = 0; j < ne; j++) {
		const struct rp_attr *a =
			src->session ? rp_evsel_attr(rp_session_evsel(src->session, j)) : NULL;

		if (!src->session)
			dst->evsels[j] = src->evsels[j];
		else if (a)
			dst->evsels[j] = (struct rp_devsel){ a->type, a->config, 1 };
	}
	if (src->nr_hists && !(dst->hists = calloc(src->nr_hists, sizeof(*dst->hists))))
		return RP_ERR_NOMEM;
	dst->nr_hists = src->nr_hists;
	for (size_t i = 0; i < src->nr_hists; i++) {
		const struct rp_dhists *sh = &src->hists[i];
		struct rp_dhists *h = &dst->hists[i];

		h->total_period = sh->total_period;
		h->total_nf = sh->total_nf;
		for (size_t k = 0; k < sh->nr_entries; k++) {
			struct rp_dentry key = *sh->entries[k], *e;
			struct rp_dthread *t = key.thread;

			if (t && !(key.thread = rp_hashmap_get(&threads, (uint64_t)(uintptr_t)t))) {
				key.thread = rp_arena_alloc(&d->arena, sizeof(*key.thread));
				if (!key.thread)
					goto out;
				*key.thread = *t;
				key.thread->th = NULL;
				if (rp_diff_reintern(d, &key.thread->comm) ||
				    rp_diff_reintern(d, &key.thread->first) ||
				    rp_hashmap_put(&threads, (uint64_t)(uintptr_t)t, key.thread) < 0)
					goto out;
			}
			/* (the symbol's name is interned by the insertion) */
			if (rp_diff_reintern(d, &key.k.comm) || rp_diff_reintern(d, &key.k.dso) ||
			    rp_diff_reintern(d, &key.k.srcline) || rp_diff_reintern(d, &key.k.srcfile))
				goto out;
			/* Distinct entries of src stay distinct: interning keeps
			 * strings apart as src's pool did. */
			key.next = NULL;
			key.paired = 0;
			key.hash = rp_dentry_hash(d, RP_DSTAGE_INPUT, &key);
			if ((rc = rp_dhists_insert(d, h, &key, &e)))
				goto out;
			rc = RP_ERR_NOMEM;
		}
	}
	dst->added = 1;
	rc = 0;
out:
	rp_hashmap_release(&threads);
	return rc;
}

/* The output "diff" (output.h): one per recording, the first one read the
 * baseline; rp_output_merge() adds the new profile (perf diff OLD NEW). */
struct rp_diff_output {
	struct rp_diff *d;
	FILE *f;
	int merged;
};

static void rp_diff_output_destroy(void *state)
{
	struct rp_diff_output *o = state;

	rp_diff_free(o->d);
	free(o);
}

static int rp_diff_output_create(void **state, const struct rp_output_env *env, const void *opts,
				 const struct rp_output_target *target, struct rp_error *err)
{
	struct rp_diff_output *o = calloc(1, sizeof(*o));
	int ret;

	if (!o)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if ((ret = rp_diff_new(&o->d, opts)) < 0) {
		free(o);
		return rp_error_set(err, ret, ret == RP_ERR_INVAL ? "bad options" : "out of memory");
	}
	o->f = target->stream;
	if (rp_diff_add_input(o->d, RP_DIFF_BASELINE, env->session, env->symbols, env->filter) < 0) {
		rp_diff_output_destroy(o);
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	}
	*state = o;
	return 0;
}

static struct rp_consumer rp_diff_output_consumer(void *state)
{
	return rp_diff_consumer(((struct rp_diff_output *)state)->d, RP_DIFF_BASELINE);
}

static int rp_diff_output_merge(void *state, void *from, struct rp_error *err)
{
	struct rp_diff_output *o = state;
	const struct rp_diff_output *f = from;
	int ret;

	if (o->merged || f->merged)
		return rp_error_set(err, RP_ERR_INVAL, "takes two recordings: OLD NEW");
	if (o->d->nr_keys != f->d->nr_keys ||
	    memcmp(o->d->keys, f->d->keys, o->d->nr_keys * sizeof(o->d->keys[0])))
		return rp_error_set(err, RP_ERR_INVAL, "outputs of other sort keys");
	o->merged = 1;
	ret = rp_diff_copy_input(o->d, &o->d->in[RP_DIFF_NEW], &f->d->in[RP_DIFF_BASELINE]);
	if (ret == RP_ERR_LIMIT)
		return rp_error_set(err, ret, "too many entries");
	return ret < 0 ? rp_error_set(err, ret, "out of memory") : 0;
}

static int rp_diff_output_finish(void *state, struct rp_error *err)
{
	struct rp_diff_output *o = state;
	int ret;

	if (!o->merged)
		return rp_error_set(err, RP_ERR_INVAL, "takes two recordings: OLD NEW");
	ret = rp_diff_write(o->d, o->f);
	if (ret == RP_ERR_IO)
		return rp_error_set(err, ret, "cannot write the diff");
	return ret < 0 ? rp_error_set(err, ret, "%s", rp_strerror(ret)) : 0;
}

const struct rp_output_def rp_output_diff = {
	.name = "diff",
	.flags = RP_OUTPUT_SYMBOLS | RP_OUTPUT_MERGE,
	.create = rp_diff_output_create,
	.consumer = rp_diff_output_consumer,
	.merge = rp_diff_output_merge,
	.finish = rp_diff_output_finish,
	.destroy = rp_diff_output_destroy,
};
