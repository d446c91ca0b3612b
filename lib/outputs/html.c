/* SPDX-License-Identifier: MIT */
/*
 * The HTML report (readperf/html.h): samples are aggregated into one
 * calling-context tree (node = parent + function) and weights per
 * (event, thread, selection bin, leaf node); the timeline gets the period
 * per (event, thread, fine bin) and (event, CPU, fine bin).  At the end
 * the page's template (web/report.html, with web/report.css and
 * web/report.js put in its place) is written with the data as deflated,
 * base64-coded JSON.  docs/html.md describes the data.
 *
 * Time bins: widths are powers of two nanoseconds from the first sample's
 * time (SAMPLE_TIME, else the first sample seen).  The fine bins (at most
 * opts.bins) are doubled in width when a sample falls past the last;
 * selection bins are a power-of-two multiple of the fine ones, doubled
 * when the weights pass opts.max_weights.  A time range the page selects
 * is a whole number of selection bins, so its totals are exact.
 */
#include <readperf/html.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>
#include <readperf/features.h>
#include <readperf/output.h>

#include "common/array.h"
#include "common/error_int.h"
#include "common/hashmap.h"
#include "common/opts.h"
#include "common/strpool.h"
#include "outputs/html_web.h"
#include "outputs/output_int.h"
#include "process_int.h"
#include "outputs/tracepoint.h"

#ifdef RP_HAVE_ZLIB
#include <zlib.h>
#endif

/* Caps, each set by the bits of the packed keys below. */
#define RP_HTML_MAX_STRINGS (1u << 26)
#define RP_HTML_MAX_FUNCS (1u << 24)
#define RP_HTML_MAX_NODES (1u << 24)
#define RP_HTML_MAX_THREADS (1u << 20)
#define RP_HTML_MAX_EVENTS 255u
#define RP_HTML_MAX_CPUS 4096u
/* Frames kept per stack, from the sampled one (deeper ones are cut). */
#define RP_HTML_MAX_DEPTH 1024u
/* Widest bin: 2^62 ns; the first fine width without SAMPLE_TIME: 2^14 ns. */
#define RP_HTML_MAX_SHIFT 62u
#define RP_HTML_FIRST_SHIFT 14u

struct rp_html_func {
	uint32_t name, dso;       /* string indices */
	char level;               /* '.', 'k', ... as perf prints */
	uint8_t inlined;
	int32_t file;             /* string index or -1 */
	uint32_t line;
	struct rp_dso *d;         /* for the source line, looked up at the end */
	uint64_t addr;            /* the symbol's start; 0 when unresolved */
	const char *src_file;     /* from an inline chain, or NULL */
	uint32_t src_line;
};

struct rp_html_thread {
	int32_t pid, tid;
	uint32_t comm;            /* string index: the last comm seen */
	const char *seen;         /* the pipeline's pointer to that comm */
};

/* The timeline of one (event, thread) or (event, CPU): the bins with a
 * period, in bin order (samples come in time order: a new bin is almost
 * always appended). */
struct rp_html_lane {
	uint32_t ev, who;
	uint32_t *bin;
	uint64_t *period;
	size_t nr, alloc;
};

struct rp_html_offcpu {
	uint64_t time;
	uint32_t thr, node;
};

struct rp_html {
	struct rp_html_opts opts;
	struct rp_session *session;
	struct rp_symbols *symbols;
	FILE *out;

	struct rp_strpool pool;
	struct rp_hashmap str_index; /* interned pointer -> index + 1 */
	const char **strs;
	size_t nr_strs, alloc_strs;

	struct rp_hashmap func_index; /* packed key -> index + 1 */
	struct rp_hashmap sym_index;  /* symbol pointer << 2 | level -> index + 1 */
	struct rp_html_func *funcs;
	size_t nr_funcs, alloc_funcs;

	struct rp_hashmap node_index; /* parent << 24 | func -> index + 1 */
	uint32_t *node_parent, *node_func;
	size_t nr_nodes, alloc_nodes;

	struct rp_hashmap thread_index; /* pid << 32 | tid -> index + 1 */
	struct rp_html_thread *threads;
	size_t nr_threads, alloc_threads;
	struct rp_thread *last_thread;  /* the machine's thread of last_thr */
	uint32_t last_thr;

	/* Events: the session's evsels, then off-CPU time when there is a
	 * sched:sched_switch evsel and its fields can be read. */
	size_t nr_evsels, nr_events;
	uint64_t *ev_samples, *ev_period;
	int offcpu_evsel;               /* evsel index of sched:sched_switch, -1 */
	struct rp_tp *tp;
	struct rp_hashmap offcpu_pending; /* tid -> struct rp_html_offcpu * */
	int64_t next_pid;               /* the field rp_tp_fields() found */

	/* Weights: packed (ev, sbin, thr, node) keys, their period and count. */
	struct rp_hashmap w_index;
	uint64_t *w_key, *w_period;
	uint32_t *w_count;
	size_t nr_w, alloc_w;

	/* Timeline lanes of threads and CPUs. */
	struct rp_hashmap lane_index;   /* kind << 63 | ev << 32 | who -> index + 1 */
	struct rp_html_lane *lanes;
	size_t nr_lanes, alloc_lanes;
	struct rp_html_lane *last_lane;
	uint64_t last_lane_key;

	uint64_t t0, t_first, t_last;
	int have_t0, have_time;
	unsigned fine_shift, sel_shift;
	uint32_t max_fine;              /* highest fine bin used + 1 */

	uint32_t *path;                 /* a stack's function indices */
	char num[64];
};

/* ---- interning ----------------------------------------------------------- */

static int rp_html_str(struct rp_html *h, const char *s, uint32_t *idx)
{
	const char *p = rp_strpool_intern_str(&h->pool, s ? s : "");
	void *v;

	if (!p)
		return RP_ERR_NOMEM;
	v = rp_hashmap_get(&h->str_index, (uint64_t)(uintptr_t)p);
	if (v) {
		*idx = (uint32_t)((uintptr_t)v - 1);
		return 0;
	}
	if (h->nr_strs >= RP_HTML_MAX_STRINGS)
		return RP_ERR_LIMIT;
	if (RP_ARRAY_RESERVE(h->strs, h->alloc_strs, h->nr_strs + 1) < 0)
		return RP_ERR_NOMEM;
	h->strs[h->nr_strs] = p;
	if (rp_hashmap_put(&h->str_index, (uint64_t)(uintptr_t)p,
			   (void *)(uintptr_t)(h->nr_strs + 1)) < 0)
		return RP_ERR_NOMEM;
	*idx = (uint32_t)h->nr_strs++;
	return 0;
}

/* The function of a frame: its symbol's name (or, unresolved, the address
 * as perf prints it in the symbol column), DSO and level. */
static int rp_html_func_of(struct rp_html *h, const struct rp_addr_location *al,
			   const char *src_file, uint32_t src_line, uint32_t *out)
{
	uint32_t name, dso;
	char level = al->level ? al->level : '.';
	int inl = al->sym && al->sym->inlined;
	uint64_t skey = al->sym ? ((uint64_t)(uintptr_t)al->sym << 2 | (level == 'k' ? 1 : level == '.' ? 0 : 2)) : 0;
	void *sv;
	int rc;

	/* A symbol seen before, in the same DSO: its function without
	 * interning its names again. */
	if (skey && (sv = rp_hashmap_get(&h->sym_index, skey)) &&
	    h->funcs[(uintptr_t)sv - 1].d == al->dso) {
		struct rp_html_func *f = &h->funcs[(uintptr_t)sv - 1];

		*out = (uint32_t)((uintptr_t)sv - 1);
		if (!f->src_file && src_file) {
			f->src_file = src_file;
			f->src_line = src_line;
		}
		return 0;
	}

	if (al->sym) {
		rc = rp_html_str(h, al->sym->name ? al->sym->name : "", &name);
	} else {
		/* perf's "%#.16llx" of the address in the DSO's space (the
		 * sampled address without a map): zero gets no "0x". */
		snprintf(h->num, sizeof(h->num), "%#.16" PRIx64, al->map ? al->addr : al->ip);
		rc = rp_html_str(h, h->num, &name);
	}
	if (rc || (rc = rp_html_str(h, al->dso ? rp_dso_short_name(al->dso) : "[unknown]", &dso)))
		return rc;
	uint64_t key = (uint64_t)name << 30 | (uint64_t)dso << 4 | (uint64_t)(inl ? 8 : 0) |
		       (uint64_t)(level == 'k' ? 1 : level == '.' ? 0 : 2);
	void *v = rp_hashmap_get(&h->func_index, key);

	if (v) {
		*out = (uint32_t)((uintptr_t)v - 1);
		struct rp_html_func *f = &h->funcs[*out];
		if (!f->src_file && src_file) {
			f->src_file = src_file;
			f->src_line = src_line;
		}
		if (skey && f->d == al->dso && rp_hashmap_put(&h->sym_index, skey, v) < 0)
			return RP_ERR_NOMEM;
		return 0;
	}
	if (h->nr_funcs >= RP_HTML_MAX_FUNCS)
		return RP_ERR_LIMIT;
	if (RP_ARRAY_RESERVE(h->funcs, h->alloc_funcs, h->nr_funcs + 1) < 0)
		return RP_ERR_NOMEM;
	h->funcs[h->nr_funcs] = (struct rp_html_func){
		.name = name, .dso = dso, .level = level, .inlined = (uint8_t)inl, .file = -1,
		.d = al->sym ? al->dso : NULL, .addr = al->sym ? al->sym->start : 0,
		.src_file = src_file, .src_line = src_line,
	};
	if (rp_hashmap_put(&h->func_index, key, (void *)(uintptr_t)(h->nr_funcs + 1)) < 0 ||
	    (skey && rp_hashmap_put(&h->sym_index, skey, (void *)(uintptr_t)(h->nr_funcs + 1)) < 0))
		return RP_ERR_NOMEM;
	*out = (uint32_t)h->nr_funcs++;
	return 0;
}

static int rp_html_node(struct rp_html *h, uint32_t parent, uint32_t func, uint32_t *out)
{
	uint64_t key = (uint64_t)parent << 24 | func;
	void *v = rp_hashmap_get(&h->node_index, key);

	if (v) {
		*out = (uint32_t)((uintptr_t)v - 1);
		return 0;
	}
	if (h->nr_nodes >= RP_HTML_MAX_NODES)
		return RP_ERR_LIMIT;
	if (RP_ARRAY_RESERVE(h->node_parent, h->alloc_nodes, h->nr_nodes + 1) < 0)
		return RP_ERR_NOMEM;
	size_t alloc = h->alloc_nodes;
	uint32_t *nf = realloc(h->node_func, alloc * sizeof(*nf));
	if (!nf)
		return RP_ERR_NOMEM;
	h->node_func = nf;
	h->node_parent[h->nr_nodes] = parent;
	h->node_func[h->nr_nodes] = func;
	if (rp_hashmap_put(&h->node_index, key, (void *)(uintptr_t)(h->nr_nodes + 1)) < 0)
		return RP_ERR_NOMEM;
	*out = (uint32_t)h->nr_nodes++;
	return 0;
}

static int rp_html_thread_of(struct rp_html *h, const struct rp_sample *s,
			     const struct rp_resolved *res, uint32_t *out)
{
	int32_t pid = res->thread ? rp_thread_pid(res->thread) : (int32_t)s->pid;
	int32_t tid = res->thread ? rp_thread_tid(res->thread) : (int32_t)s->tid;
	uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
	const char *comm = res->comm ? res->comm : res->thread ? rp_thread_comm(res->thread) : NULL;
	uint32_t cidx;
	void *v;
	int rc;

	if ((rc = rp_html_str(h, comm ? comm : "", &cidx)))
		return rc;
	v = rp_hashmap_get(&h->thread_index, key);
	if (v) {
		*out = (uint32_t)((uintptr_t)v - 1);
		h->threads[*out].comm = cidx;
		h->threads[*out].seen = comm;
		return 0;
	}
	if (h->nr_threads >= RP_HTML_MAX_THREADS)
		return RP_ERR_LIMIT;
	if (RP_ARRAY_RESERVE(h->threads, h->alloc_threads, h->nr_threads + 1) < 0)
		return RP_ERR_NOMEM;
	h->threads[h->nr_threads] = (struct rp_html_thread){ pid, tid, cidx, comm };
	if (rp_hashmap_put(&h->thread_index, key, (void *)(uintptr_t)(h->nr_threads + 1)) < 0)
		return RP_ERR_NOMEM;
	*out = (uint32_t)h->nr_threads++;
	return 0;
}

/*
 * The leaf node of a sample's stack: the sampled location (its symbol is
 * what perf's Self column counts), then the callers of the callchain,
 * outermost first into the tree.  Leading callchain entries at the
 * sampled address (the sample's own frame and its inline chain) are the
 * sampled location already.
 */
static int rp_html_stack(struct rp_html *h, const struct rp_sample *s,
			 const struct rp_resolved *res, uint32_t *leaf)
{
	size_t n = 0, first = 0;
	uint32_t node = 0;
	int rc;

	if (res->callchain) {
		while (first < res->nr_callchain && res->callchain[first].al.ip == s->ip)
			first++;
	}
	if ((rc = rp_html_func_of(h, &res->al, NULL, 0, &h->path[n++])))
		return rc;
	for (size_t i = first; i < res->nr_callchain && n < RP_HTML_MAX_DEPTH; i++) {
		const struct rp_frame *f = &res->callchain[i];

		if ((rc = rp_html_func_of(h, &f->al, f->src_file, f->src_line, &h->path[n++])))
			return rc;
	}
	while (n-- > 0)
		if ((rc = rp_html_node(h, node, h->path[n], &node)))
			return rc;
	*leaf = node;
	return 0;
}

/* ---- bins ------------------------------------------------------------------ */

static uint64_t rp_html_wkey(uint32_t ev, uint64_t sbin, uint32_t thr, uint32_t node)
{
	return (uint64_t)ev << 56 | sbin << 44 | (uint64_t)thr << 24 | node;
}

/* Puts the weights into bins of twice the width (sel_shift + by). */
static int rp_html_rebin_weights(struct rp_html *h, unsigned by)
{
	struct rp_hashmap m = RP_HASHMAP_INIT;
	size_t w = 0;

	h->sel_shift += by;
	for (size_t i = 0; i < h->nr_w; i++) {
		uint64_t k = h->w_key[i];
		uint64_t sbin = (k >> 44 & 0xfff) >> by;
		uint64_t nk = (k & ~(0xfffull << 44)) | sbin << 44;
		void *v = rp_hashmap_get(&m, nk);

		if (v) {
			size_t j = (uintptr_t)v - 1;
			h->w_period[j] += h->w_period[i];
			h->w_count[j] += h->w_count[i];
			continue;
		}
		h->w_key[w] = nk;
		h->w_period[w] = h->w_period[i];
		h->w_count[w] = h->w_count[i];
		if (rp_hashmap_put(&m, nk, (void *)(uintptr_t)(w + 1)) < 0) {
			rp_hashmap_release(&m);
			return RP_ERR_NOMEM;
		}
		w++;
	}
	rp_hashmap_release(&h->w_index);
	h->w_index = m;
	h->nr_w = w;
	return 0;
}

/* Fine bins twice as wide, until bin fits. */
static int rp_html_widen(struct rp_html *h, uint64_t delta)
{
	unsigned by = 0;

	while (h->fine_shift + by < RP_HTML_MAX_SHIFT && (delta >> (h->fine_shift + by)) >= h->opts.bins)
		by++;
	if (!by)
		return 0;
	for (size_t l = 0; l < h->nr_lanes; l++) {
		struct rp_html_lane *ln = &h->lanes[l];
		size_t w = 0;

		for (size_t i = 0; i < ln->nr; i++) {
			uint32_t b = ln->bin[i] >> by;

			if (w && ln->bin[w - 1] == b) {
				ln->period[w - 1] += ln->period[i];
				continue;
			}
			ln->bin[w] = b;
			ln->period[w++] = ln->period[i];
		}
		ln->nr = w;
	}
	h->fine_shift += by;
	if (h->max_fine)
		h->max_fine = ((h->max_fine - 1) >> by) + 1;
	if (h->sel_shift < h->fine_shift)
		return rp_html_rebin_weights(h, h->fine_shift - h->sel_shift);
	return 0;
}

static int rp_html_lane_add(struct rp_html *h, int cpu, uint32_t ev, uint32_t who, uint32_t bin,
			    uint64_t period)
{
	uint64_t key = (uint64_t)(cpu ? 1 : 0) << 63 | (uint64_t)ev << 32 | who;
	struct rp_html_lane *l = h->last_lane;

	if (!l || h->last_lane_key != key) {
		void *v = rp_hashmap_get(&h->lane_index, key);

		if (v) {
			l = &h->lanes[(uintptr_t)v - 1];
		} else {
			if (RP_ARRAY_RESERVE(h->lanes, h->alloc_lanes, h->nr_lanes + 1) < 0)
				return RP_ERR_NOMEM;
			l = &h->lanes[h->nr_lanes];
			memset(l, 0, sizeof(*l));
			l->ev = ev;
			l->who = who | (cpu ? 0x80000000u : 0);
			if (rp_hashmap_put(&h->lane_index, key, (void *)(uintptr_t)(h->nr_lanes + 1)) < 0)
				return RP_ERR_NOMEM;
			h->nr_lanes++;
		}
		h->last_lane = l;
		h->last_lane_key = key;
	}
	if (l->nr && l->bin[l->nr - 1] == bin) {
		l->period[l->nr - 1] += period;
		return 0;
	}
	/* Where the bin goes: at the end, unless a sample came out of order. */
	size_t lo = 0, hi = l->nr;
	if (l->nr && l->bin[l->nr - 1] > bin) {
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (l->bin[mid] < bin)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < l->nr && l->bin[lo] == bin) {
			l->period[lo] += period;
			return 0;
		}
	} else {
		lo = l->nr;
	}
	if (RP_ARRAY_RESERVE(l->bin, l->alloc, l->nr + 1) < 0)
		return RP_ERR_NOMEM;
	uint64_t *pp = realloc(l->period, l->alloc * sizeof(*pp));
	if (!pp)
		return RP_ERR_NOMEM;
	l->period = pp;
	memmove(l->bin + lo + 1, l->bin + lo, (l->nr - lo) * sizeof(*l->bin));
	memmove(l->period + lo + 1, l->period + lo, (l->nr - lo) * sizeof(*l->period));
	l->bin[lo] = bin;
	l->period[lo] = period;
	l->nr++;
	return 0;
}

/* Adds period (and count samples) at time t to every aggregate.  *hint
 * (may be NULL) is the index + 1 of the weight the same stack went to
 * last, checked before the table is asked, and set to this one's. */
static int rp_html_add(struct rp_html *h, uint32_t ev, const struct rp_sample *s, uint64_t t,
		       uint32_t thr, uint32_t node, uint64_t period, uint32_t count, uint64_t *hint)
{
	uint64_t delta = 0;
	int rc;

	if ((s->sample_type & RP_SAMPLE_TIME) && t) {
		if (!h->have_t0) {
			h->t0 = t;
			h->have_t0 = 1;
		}
		delta = t > h->t0 ? t - h->t0 : 0;
		if (!h->have_time || t < h->t_first)
			h->t_first = t;
		if (!h->have_time || t > h->t_last)
			h->t_last = t;
		h->have_time = 1;
		if ((delta >> h->fine_shift) >= h->opts.bins && (rc = rp_html_widen(h, delta)))
			return rc;
	}
	uint32_t fbin = (uint32_t)(delta >> h->fine_shift);
	uint64_t sbin = delta >> h->sel_shift;

	if (fbin + 1 > h->max_fine)
		h->max_fine = fbin + 1;
	if ((rc = rp_html_lane_add(h, 0, ev, thr, fbin, period)))
		return rc;
	if ((s->sample_type & RP_SAMPLE_CPU) && s->cpu < RP_HTML_MAX_CPUS &&
	    (rc = rp_html_lane_add(h, 1, ev, s->cpu, fbin, period)))
		return rc;

	uint64_t key = rp_html_wkey(ev, sbin, thr, node);
	size_t j = hint && *hint ? (size_t)*hint - 1 : SIZE_MAX;
	void *v;

	if (j >= h->nr_w || h->w_key[j] != key) {
		v = rp_hashmap_get(&h->w_index, key);
		j = v ? (uintptr_t)v - 1 : SIZE_MAX;
	}
	if (j != SIZE_MAX) {
		h->w_period[j] += period;
		h->w_count[j] += count;
		if (hint)
			*hint = j + 1;
		return 0;
	}
	if (RP_ARRAY_RESERVE(h->w_key, h->alloc_w, h->nr_w + 1) < 0)
		return RP_ERR_NOMEM;
	size_t alloc = h->alloc_w;
	uint64_t *wp = realloc(h->w_period, alloc * sizeof(*wp));
	if (!wp)
		return RP_ERR_NOMEM;
	h->w_period = wp;
	uint32_t *wc = realloc(h->w_count, alloc * sizeof(*wc));
	if (!wc)
		return RP_ERR_NOMEM;
	h->w_count = wc;
	h->w_key[h->nr_w] = key;
	h->w_period[h->nr_w] = period;
	h->w_count[h->nr_w] = count;
	if (rp_hashmap_put(&h->w_index, key, (void *)(uintptr_t)(h->nr_w + 1)) < 0)
		return RP_ERR_NOMEM;
	h->nr_w++;
	if (hint)
		*hint = h->nr_w;
	if (h->nr_w > h->opts.max_weights && h->sel_shift < RP_HTML_MAX_SHIFT)
		return rp_html_rebin_weights(h, 1);
	return 0;
}

/* ---- off-CPU time ------------------------------------------------------- */

static void rp_html_next_pid(void *ctx, const char *name, const char *value)
{
	struct rp_html *h = ctx;

	if (!strcmp(name, "next_pid"))
		h->next_pid = strtoll(value, NULL, 10);
}

/*
 * A sched:sched_switch sample: the thread it was taken in leaves the CPU
 * (its stack is where it waits); the thread of next_pid comes back, and
 * the time since it left is its off-CPU time, put at the time and stack
 * where it left.
 */
static int rp_html_switch(struct rp_html *h, const struct rp_sample *s, uint32_t thr,
			  uint32_t leaf)
{
	uint32_t ev = (uint32_t)h->nr_evsels;
	struct rp_html_offcpu *p;
	int rc;

	if (!(s->sample_type & RP_SAMPLE_TIME))
		return 0;
	h->next_pid = -1;
	rp_tp_fields(h->tp, rp_session_evsel(h->session, (size_t)h->offcpu_evsel), s,
		     rp_html_next_pid, h);
	if (h->next_pid > 0 && (p = rp_hashmap_del(&h->offcpu_pending, (uint64_t)h->next_pid))) {
		if (s->time >= p->time) {
			struct rp_sample at = *s;

			at.time = p->time;
			rc = rp_html_add(h, ev, &at, p->time, p->thr, p->node, s->time - p->time, 1,
					 NULL);
			h->ev_samples[ev]++;
			h->ev_period[ev] += s->time - p->time;
			free(p);
			if (rc)
				return rc;
		} else {
			free(p);
		}
	}
	if (!s->tid)
		return 0; /* the idle task */
	p = rp_hashmap_get(&h->offcpu_pending, s->tid);
	if (!p) {
		p = malloc(sizeof(*p));
		if (!p || rp_hashmap_put(&h->offcpu_pending, s->tid, p) < 0) {
			free(p);
			return RP_ERR_NOMEM;
		}
	}
	*p = (struct rp_html_offcpu){ s->time, thr, leaf };
	return 0;
}

/* ---- the consumer ------------------------------------------------------- */

static int rp_html_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_html *h = ctx;
	const struct rp_sample *s;
	uint32_t thr, leaf;
	int idx, rc;

	if (ev->type != RP_RECORD_SAMPLE || !ev->evsel || !res)
		return 0;
	idx = rp_evsel_idx(ev->evsel);
	if (idx < 0 || (size_t)idx >= h->nr_evsels || idx >= (int)RP_HTML_MAX_EVENTS)
		return 0;
	s = &ev->u.sample;
	/* A stack the pipeline has cached is one thread's: its leaf node,
	 * thread and last weight are noted in its slot (tag: thread in the
	 * low 20 bits, weight index + 1 above). */
	struct rp_stack_slot *slot = res->stack_id ? res->stack_slot : NULL;

	uint64_t hint = 0;

	if (slot && slot->ptr) {
		leaf = (uint32_t)((uintptr_t)slot->ptr - 1);
		thr = (uint32_t)(slot->tag & 0xfffff);
		hint = slot->tag >> 20;
		/* The comm may have changed since (exec). */
		struct rp_html_thread *t = &h->threads[thr];
		if (res->comm && res->comm != t->seen) {
			if ((rc = rp_html_str(h, res->comm, &t->comm)))
				return rc;
			t->seen = res->comm;
		}
	} else {
		if ((rc = rp_html_thread_of(h, s, res, &thr)) || (rc = rp_html_stack(h, s, res, &leaf)))
			return rc;
		if (slot) {
			slot->ptr = (void *)(uintptr_t)(leaf + 1);
			slot->tag = thr;
		}
	}
	h->ev_samples[idx]++;
	h->ev_period[idx] += s->period;
	if ((rc = rp_html_add(h, (uint32_t)idx, s, s->time, thr, leaf, s->period, 1, &hint)))
		return rc;
	if (slot)
		slot->tag = thr | hint << 20;
	if (idx == h->offcpu_evsel && h->tp)
		return rp_html_switch(h, s, thr, leaf);
	return 0;
}

/* ---- writing ---------------------------------------------------------------- */

/* The JSON text goes through deflate into a growing buffer. */
struct rp_jw {
	char buf[1 << 16];
	size_t len;
	int err;
#ifdef RP_HAVE_ZLIB
	z_stream z;
#endif
	unsigned char *out;
	size_t out_len, out_cap;
};

static void rp_jw_flush(struct rp_jw *j, int finish)
{
#ifdef RP_HAVE_ZLIB
	j->z.next_in = (Bytef *)j->buf;
	j->z.avail_in = (uInt)j->len;
	for (;;) {
		if (j->out_cap - j->out_len < 65536) {
			size_t cap = j->out_cap ? j->out_cap * 2 : 1 << 20;
			unsigned char *p = realloc(j->out, cap);

			if (!p) {
				j->err = RP_ERR_NOMEM;
				return;
			}
			j->out = p;
			j->out_cap = cap;
		}
		j->z.next_out = j->out + j->out_len;
		j->z.avail_out = (uInt)(j->out_cap - j->out_len);
		int zr = deflate(&j->z, finish ? Z_FINISH : Z_NO_FLUSH);
		j->out_len = j->out_cap - j->z.avail_out;
		if (zr == Z_STREAM_ERROR) {
			j->err = RP_ERR_NOMEM;
			return;
		}
		if (finish ? zr == Z_STREAM_END : j->z.avail_in == 0)
			break;
	}
#else
	(void)finish;
#endif
	j->len = 0;
}

static void rp_jw_put(struct rp_jw *j, const char *s, size_t n)
{
	while (n) {
		size_t room = sizeof(j->buf) - j->len, k = n < room ? n : room;

		memcpy(j->buf + j->len, s, k);
		j->len += k;
		s += k;
		n -= k;
		if (j->len == sizeof(j->buf))
			rp_jw_flush(j, 0);
	}
}

static void rp_jw_puts(struct rp_jw *j, const char *s)
{
	rp_jw_put(j, s, strlen(s));
}

static void rp_jw_u64(struct rp_jw *j, uint64_t v)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "%" PRIu64, v);

	rp_jw_put(j, b, (size_t)n);
}

static void rp_jw_i64(struct rp_jw *j, int64_t v)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "%" PRId64, v);

	rp_jw_put(j, b, (size_t)n);
}

/* Bytes of a valid UTF-8 sequence at s (at most n), 0 when not valid. */
static size_t rp_utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* A JSON string: quotes, backslashes, control characters and the HTML
 * specials escaped, bytes that are not UTF-8 replaced by U+FFFD. */
static void rp_jw_str(struct rp_jw *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s);
	char esc[8];

	rp_jw_put(j, "\"", 1);
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t k = rp_utf8_len(s + i, n - i);

		if (!k) {
			rp_jw_puts(j, "\\ufffd");
			i++;
			continue;
		}
		if (k > 1) {
			rp_jw_put(j, (const char *)s + i, k);
			i += k;
			continue;
		}
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			rp_jw_put(j, esc, 2);
		} else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7f) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			rp_jw_put(j, esc, 6);
		} else {
			rp_jw_put(j, (const char *)&c, 1);
		}
		i++;
	}
	rp_jw_put(j, "\"", 1);
}

static void rp_jw_key(struct rp_jw *j, const char *key)
{
	rp_jw_put(j, ",", 1);
	rp_jw_str(j, key);
	rp_jw_put(j, ":", 1);
}

static void rp_jw_kstr(struct rp_jw *j, const char *key, const char *v)
{
	rp_jw_key(j, key);
	if (v)
		rp_jw_str(j, v);
	else
		rp_jw_puts(j, "null");
}

static void rp_jw_ku64(struct rp_jw *j, const char *key, uint64_t v)
{
	rp_jw_key(j, key);
	rp_jw_u64(j, v);
}

static void rp_html_write_meta(struct rp_html *h, struct rp_jw *j)
{
	struct rp_features *f = NULL;
	const struct rp_session_stats *st = rp_session_stats(h->session);
	uint64_t records = 0;

	rp_features_read(&f, h->session, NULL);
	rp_jw_puts(j, "{\"format\":1");
	rp_jw_kstr(j, "title", h->opts.title);
	rp_jw_kstr(j, "file", rp_session_path(h->session));
	rp_jw_ku64(j, "size", rp_session_size(h->session));
	if (f) {
		rp_jw_kstr(j, "host", f->hostname);
		rp_jw_kstr(j, "os", f->osrelease);
		rp_jw_kstr(j, "perf", f->version);
		rp_jw_kstr(j, "arch", f->arch);
		rp_jw_kstr(j, "cpu", f->cpudesc);
		rp_jw_ku64(j, "cpus_online", f->nr_cpus_online);
		rp_jw_ku64(j, "cpus_avail", f->nr_cpus_avail);
		rp_jw_ku64(j, "mem_kb", f->total_mem);
		rp_jw_key(j, "cmdline");
		rp_jw_put(j, "[", 1);
		for (uint32_t i = 0; i < f->nr_cmdline; i++) {
			if (i)
				rp_jw_put(j, ",", 1);
			rp_jw_str(j, f->cmdline[i]);
		}
		rp_jw_put(j, "]", 1);
		if (f->state[RP_FEAT_CLOCK_DATA] == RP_FEAT_OK && f->clock_ns) {
			/* Wall-clock time of the first sample. */
			rp_jw_ku64(j, "tod_ns", f->clock_tod_ns);
			rp_jw_ku64(j, "clock_ns", f->clock_ns);
		}
	}
	for (unsigned t = 1; t < RP_RECORD_MAX; t++)
		records += rp_session_nr_records(h->session, t);
	rp_jw_ku64(j, "records", records);
	rp_jw_ku64(j, "lost_samples", st->nr_lost_samples);
	rp_jw_ku64(j, "lost_records", rp_session_nr_records(h->session, RP_RECORD_LOST));
	rp_jw_ku64(j, "lost", st->nr_lost);
	if (h->have_time) {
		rp_jw_ku64(j, "first_ns", h->t_first);
		rp_jw_ku64(j, "last_ns", h->t_last);
	}
	rp_jw_put(j, "}", 1);
	rp_features_free(f);
}

struct rp_html_sorted {
	uint64_t key;
	size_t i;
};

static int rp_html_sorted_cmp(const void *pa, const void *pb)
{
	const struct rp_html_sorted *a = pa, *b = pb;

	return a->key < b->key ? -1 : a->key > b->key;
}

/* Source lines of the functions, looked up once each. */
static int rp_html_srclines(struct rp_html *h)
{
	for (size_t i = 0; i < h->nr_funcs; i++) {
		struct rp_html_func *f = &h->funcs[i];
		const char *file = f->src_file;
		uint32_t line = f->src_line, idx;
		int rc;

		if (!file && f->d && h->symbols && !h->opts.no_srcline && !rp_dso_is_kernel(f->d)) {
			rc = rp_symbols_srcline(h->symbols, f->d, f->addr, &file, &line);
			if (rc < 0)
				return rc;
			if (!rc)
				file = NULL;
		}
		if (file) {
			if ((rc = rp_html_str(h, file, &idx)))
				return rc;
			f->file = (int32_t)idx;
			f->line = line;
		}
	}
	return 0;
}

static void rp_html_write_data(struct rp_html *h, struct rp_jw *j,
			       const struct rp_html_sorted *w, size_t nr_w)
{
	rp_jw_puts(j, "{\"meta\":");
	rp_html_write_meta(h, j);

	rp_jw_key(j, "strings");
	rp_jw_put(j, "[", 1);
	for (size_t i = 0; i < h->nr_strs; i++) {
		if (i)
			rp_jw_put(j, ",", 1);
		rp_jw_str(j, h->strs[i]);
	}
	rp_jw_put(j, "]", 1);

	rp_jw_key(j, "events");
	rp_jw_put(j, "[", 1);
	for (size_t e = 0; e < h->nr_events; e++) {
		const struct rp_evsel *es = e < h->nr_evsels ? rp_session_evsel(h->session, e) : NULL;

		rp_jw_puts(j, e ? ",{\"name\":" : "{\"name\":");
		rp_jw_str(j, es ? rp_evsel_name(es) : "off-cpu");
		rp_jw_ku64(j, "samples", h->ev_samples[e]);
		rp_jw_ku64(j, "period", h->ev_period[e]);
		rp_jw_ku64(j, "offcpu", !es);
		rp_jw_put(j, "}", 1);
	}
	rp_jw_put(j, "]", 1);

	/* Functions, column by column. */
	static const char *const fcols[] = { "name", "dso", "file", "line", "inl" };
	rp_jw_key(j, "funcs");
	rp_jw_put(j, "{\"level\":\"", 10);
	for (size_t i = 0; i < h->nr_funcs; i++) {
		char c = h->funcs[i].level;

		/* perf's level letters; anything else is shown as '?'. */
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.'))
			c = '?';
		rp_jw_put(j, &c, 1);
	}
	rp_jw_put(j, "\"", 1);
	for (size_t c = 0; c < sizeof(fcols) / sizeof(fcols[0]); c++) {
		rp_jw_key(j, fcols[c]);
		rp_jw_put(j, "[", 1);
		for (size_t i = 0; i < h->nr_funcs; i++) {
			const struct rp_html_func *f = &h->funcs[i];

			if (i)
				rp_jw_put(j, ",", 1);
			switch (c) {
			case 0: rp_jw_u64(j, f->name); break;
			case 1: rp_jw_u64(j, f->dso); break;
			case 2: rp_jw_i64(j, f->file); break;
			case 3: rp_jw_u64(j, f->line); break;
			default: rp_jw_u64(j, f->inlined); break;
			}
		}
		rp_jw_put(j, "]", 1);
	}
	rp_jw_put(j, "}", 1);

	/* The tree: node 0 is the root; parents come before children. */
	rp_jw_key(j, "nodes");
	rp_jw_puts(j, "{\"parent\":[-1");
	for (size_t i = 1; i < h->nr_nodes; i++) {
		rp_jw_put(j, ",", 1);
		rp_jw_u64(j, h->node_parent[i]);
	}
	rp_jw_puts(j, "],\"func\":[-1");
	for (size_t i = 1; i < h->nr_nodes; i++) {
		rp_jw_put(j, ",", 1);
		rp_jw_u64(j, h->node_func[i]);
	}
	rp_jw_puts(j, "]}");

	rp_jw_key(j, "threads");
	for (int c = 0; c < 3; c++) {
		rp_jw_puts(j, c == 0 ? "{\"pid\":[" : c == 1 ? ",\"tid\":[" : ",\"comm\":[");
		for (size_t i = 0; i < h->nr_threads; i++) {
			const struct rp_html_thread *t = &h->threads[i];

			if (i)
				rp_jw_put(j, ",", 1);
			if (c == 2)
				rp_jw_u64(j, t->comm);
			else
				rp_jw_i64(j, c == 0 ? t->pid : t->tid);
		}
		rp_jw_put(j, "]", 1);
	}
	rp_jw_put(j, "}", 1);

	rp_jw_key(j, "time");
	rp_jw_puts(j, "{\"t0\":");
	rp_jw_u64(j, h->t0);
	rp_jw_ku64(j, "fine_ns", 1ull << h->fine_shift);
	rp_jw_ku64(j, "nfine", h->max_fine);
	rp_jw_ku64(j, "sel_ns", 1ull << h->sel_shift);
	rp_jw_ku64(j, "timed", (uint64_t)h->have_time);
	rp_jw_put(j, "}", 1);

	/* Lanes: kind (0 thread, 1 CPU), event, thread or CPU, the number
	 * of bins with a period, then (bin - previous bin, period) pairs. */
	rp_jw_key(j, "lanes");
	rp_jw_put(j, "[", 1);
	for (size_t l = 0; l < h->nr_lanes; l++) {
		const struct rp_html_lane *ln = &h->lanes[l];
		uint32_t prev = 0;

		if (l)
			rp_jw_put(j, ",", 1);
		rp_jw_u64(j, ln->who >> 31);
		rp_jw_put(j, ",", 1);
		rp_jw_u64(j, ln->ev);
		rp_jw_put(j, ",", 1);
		rp_jw_u64(j, ln->who & 0x7fffffffu);
		rp_jw_put(j, ",", 1);
		rp_jw_u64(j, ln->nr);
		for (size_t i = 0; i < ln->nr; i++) {
			rp_jw_put(j, ",", 1);
			rp_jw_u64(j, ln->bin[i] - prev);
			rp_jw_put(j, ",", 1);
			rp_jw_u64(j, ln->period[i]);
			prev = ln->bin[i];
		}
	}
	rp_jw_put(j, "]", 1);

	/* Weights in runs of one (event, selection bin, thread): the four,
	 * the run's length, then (node - previous node, period, count). */
	rp_jw_key(j, "weights");
	rp_jw_put(j, "[", 1);
	for (size_t i = 0; i < nr_w;) {
		uint64_t run = w[i].key >> 24;
		size_t e = i;
		uint32_t prev = 0;

		while (e < nr_w && w[e].key >> 24 == run)
			e++;
		if (i)
			rp_jw_put(j, ",", 1);
		rp_jw_u64(j, run >> 32);
		rp_jw_put(j, ",", 1);
		rp_jw_u64(j, run >> 20 & 0xfff);
		rp_jw_put(j, ",", 1);
		rp_jw_u64(j, run & 0xfffff);
		rp_jw_put(j, ",", 1);
		rp_jw_u64(j, e - i);
		for (; i < e; i++) {
			uint32_t node = (uint32_t)(w[i].key & 0xffffff);

			rp_jw_put(j, ",", 1);
			rp_jw_u64(j, node - prev);
			rp_jw_put(j, ",", 1);
			rp_jw_u64(j, h->w_period[w[i].i]);
			rp_jw_put(j, ",", 1);
			rp_jw_u64(j, h->w_count[w[i].i]);
			prev = node;
		}
	}
	rp_jw_puts(j, "]}");
}

static const char rp_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int rp_html_base64(FILE *out, const unsigned char *p, size_t n)
{
	char line[4096];
	size_t len = 0;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		line[len++] = rp_b64[v >> 18 & 63];
		line[len++] = rp_b64[v >> 12 & 63];
		line[len++] = i + 1 < n ? rp_b64[v >> 6 & 63] : '=';
		line[len++] = i + 2 < n ? rp_b64[v & 63] : '=';
		if (len + 4 > sizeof(line)) {
			if (fwrite(line, 1, len, out) != len)
				return RP_ERR_IO;
			len = 0;
		}
	}
	return fwrite(line, 1, len, out) == len ? 0 : RP_ERR_IO;
}

/* Writes the template with each @RP_NAME@ marker replaced. */
static int rp_html_write_page(struct rp_html *h, const unsigned char *data, size_t data_len)
{
	const char *t = (const char *)rp_web_report_html;
	const char *end = t + rp_web_report_html_len;
	FILE *out = h->out;

	while (t < end) {
		const char *m = memchr(t, '@', (size_t)(end - t));

		if (!m) {
			fwrite(t, 1, (size_t)(end - t), out);
			break;
		}
		fwrite(t, 1, (size_t)(m - t), out);
		t = m;
		if ((size_t)(end - t) >= 8 && !memcmp(t, "@RP_CSS@", 8)) {
			fwrite(rp_web_report_css, 1, rp_web_report_css_len, out);
			t += 8;
		} else if ((size_t)(end - t) >= 7 && !memcmp(t, "@RP_JS@", 7)) {
			fwrite(rp_web_report_js, 1, rp_web_report_js_len, out);
			t += 7;
		} else if ((size_t)(end - t) >= 9 && !memcmp(t, "@RP_DATA@", 9)) {
			if (rp_html_base64(out, data, data_len) < 0)
				return RP_ERR_IO;
			t += 9;
		} else {
			fputc('@', out);
			t++;
		}
	}
	return fflush(out) || ferror(out) ? RP_ERR_IO : 0;
}

static int rp_html_finish(void *state, struct rp_error *err)
{
	struct rp_html *h = state;
#ifdef RP_HAVE_ZLIB
	struct rp_html_sorted *w = NULL;
	struct rp_jw *j;
	int rc = rp_html_srclines(h);

	if (rc < 0)
		return rp_error_set(err, rc, "out of memory");
	if (h->nr_w && !(w = malloc(h->nr_w * sizeof(*w))))
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < h->nr_w; i++)
		w[i] = (struct rp_html_sorted){ h->w_key[i], i };
	if (h->nr_w)
		qsort(w, h->nr_w, sizeof(*w), rp_html_sorted_cmp);
	j = calloc(1, sizeof(*j));
	if (!j || deflateInit(&j->z, h->opts.level) != Z_OK) {
		free(j);
		free(w);
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	}
	rp_html_write_data(h, j, w, h->nr_w);
	rp_jw_flush(j, 1);
	deflateEnd(&j->z);
	free(w);
	rc = j->err;
	if (!rc)
		rc = rp_html_write_page(h, j->out, j->out_len);
	free(j->out);
	free(j);
	if (rc == RP_ERR_IO)
		return rp_error_set(err, rc, "cannot write the page");
	if (rc < 0)
		return rp_error_set(err, rc, "out of memory");
	return 0;
#else
	(void)h;
	return rp_error_set(err, RP_ERR_UNSUPPORTED, "readperf was built without zlib");
#endif
}

static void rp_html_destroy(void *state)
{
	struct rp_html *h = state;

	if (!h)
		return;
	rp_strpool_release(&h->pool);
	rp_hashmap_release(&h->str_index);
	free(h->strs);
	rp_hashmap_release(&h->func_index);
	rp_hashmap_release(&h->sym_index);
	free(h->funcs);
	rp_hashmap_release(&h->node_index);
	free(h->node_parent);
	free(h->node_func);
	rp_hashmap_release(&h->thread_index);
	free(h->threads);
	free(h->ev_samples);
	free(h->ev_period);
	for (size_t i = 0; i < h->offcpu_pending.cap; i++)
		free(h->offcpu_pending.slots[i].value);
	rp_hashmap_release(&h->offcpu_pending);
	rp_tp_free(h->tp);
	rp_hashmap_release(&h->w_index);
	free(h->w_key);
	free(h->w_period);
	free(h->w_count);
	for (size_t i = 0; i < h->nr_lanes; i++) {
		free(h->lanes[i].bin);
		free(h->lanes[i].period);
	}
	rp_hashmap_release(&h->lane_index);
	free(h->lanes);
	free(h->path);
	free(h);
}

static int rp_html_create(void **state, const struct rp_output_env *env, const void *opts,
			  const struct rp_output_target *target, struct rp_error *err)
{
	struct rp_html *h;
	uint32_t root_func = 0;

#ifndef RP_HAVE_ZLIB
	(void)env, (void)opts, (void)target, (void)root_func, (void)h;
	return rp_error_set(err, RP_ERR_UNSUPPORTED,
			    "readperf was built without zlib (apt-get install zlib1g-dev)");
#else
	h = calloc(1, sizeof(*h));
	if (!h)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (rp_opts_copy(&h->opts, sizeof(h->opts), opts) < 0) {
		free(h);
		return rp_error_set(err, RP_ERR_INVAL, "bad rp_html_opts");
	}
	if (!h->opts.max_weights)
		h->opts.max_weights = RP_HTML_WEIGHTS_DEFAULT;
	if (!h->opts.bins)
		h->opts.bins = RP_HTML_BINS_DEFAULT;
	if (h->opts.bins > RP_HTML_BINS_MAX || h->opts.level < 0 || h->opts.level > 9) {
		free(h);
		return rp_error_set(err, RP_ERR_INVAL, "bins above %u or a level past 9",
				    RP_HTML_BINS_MAX);
	}
	if (!h->opts.level)
		h->opts.level = 6;
	h->session = env->session;
	h->symbols = env->symbols;
	h->out = target->stream;
	h->offcpu_evsel = -1;
	h->nr_evsels = rp_session_nr_evsels(h->session);
	if (h->nr_evsels > RP_HTML_MAX_EVENTS - 1)
		h->nr_evsels = RP_HTML_MAX_EVENTS - 1;
	h->nr_events = h->nr_evsels;
	for (size_t i = 0; i < h->nr_evsels; i++) {
		const char *name = rp_evsel_name(rp_session_evsel(h->session, i));

		if (name && !strcmp(name, "sched:sched_switch")) {
			h->offcpu_evsel = (int)i;
			break;
		}
	}
	if (h->offcpu_evsel >= 0 && rp_session_has_feature(h->session, RP_FEAT_TRACING_DATA)) {
		int rc = rp_tp_new(&h->tp, h->session);

		if (rc == RP_ERR_NOMEM) {
			rp_html_destroy(h);
			return rp_error_set(err, rc, "out of memory");
		}
		if (rc < 0)
			h->tp = NULL;
		if (h->tp)
			h->nr_events++;
	}
	h->ev_samples = calloc(h->nr_events + 1, sizeof(*h->ev_samples));
	h->ev_period = calloc(h->nr_events + 1, sizeof(*h->ev_period));
	h->path = malloc(RP_HTML_MAX_DEPTH * sizeof(*h->path));
	if (!h->ev_samples || !h->ev_period || !h->path ||
	    RP_ARRAY_RESERVE(h->node_parent, h->alloc_nodes, 1) < 0 ||
	    !(h->node_func = malloc(h->alloc_nodes * sizeof(*h->node_func)))) {
		rp_html_destroy(h);
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	}
	/* Node 0: the root, whose function is none. */
	h->node_parent[0] = 0;
	h->node_func[0] = root_func;
	h->nr_nodes = 1;

	/* The bins fit the recording's span when the file says it. */
	struct rp_features *f = NULL;
	h->fine_shift = RP_HTML_FIRST_SHIFT;
	if (rp_features_read(&f, h->session, NULL) >= 0 && f &&
	    f->state[RP_FEAT_SAMPLE_TIME] == RP_FEAT_OK && f->first_sample_time &&
	    f->last_sample_time >= f->first_sample_time) {
		uint64_t span = f->last_sample_time - f->first_sample_time;

		h->t0 = f->first_sample_time;
		h->have_t0 = 1;
		h->fine_shift = 0;
		while (h->fine_shift < RP_HTML_MAX_SHIFT && (span >> h->fine_shift) >= h->opts.bins)
			h->fine_shift++;
	}
	rp_features_free(f);
	h->sel_shift = h->fine_shift;
	*state = h;
	return 0;
#endif
}

static struct rp_consumer rp_html_consumer(void *state)
{
	struct rp_consumer c = { state, rp_html_event, RP_CONSUMER_CALLCHAIN };

	return c;
}

const struct rp_output_def rp_output_html = {
	.name = "html",
	.flags = RP_OUTPUT_SYMBOLS,
	.create = rp_html_create,
	.consumer = rp_html_consumer,
	.finish = rp_html_finish,
	.destroy = rp_html_destroy,
};
