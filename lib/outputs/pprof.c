/* SPDX-License-Identifier: MIT */
/*
 * The pprof profile (see include/readperf/pprof.h).  While records stream,
 * mappings, functions, locations and samples are interned into hash maps
 * whose entries live in an arena (no allocation per sample beyond the
 * arena's blocks; identical samples merged).  Each entry holds its values
 * (addresses, string table indices), so that a profile can take in
 * another one made from another recording (rp_pprof_merge(), after
 * pprof's profile.Merge) and outlive that recording.  Entries are found
 * twice over: by the session's objects while consuming (map, DSO,
 * symbol pointers) and by their values when merging.  rp_pprof_write()
 * builds the protobuf-c message, packs it and gzips it with zlib.
 */
#include <readperf/pprof.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <readperf/error.h>
#include <readperf/features.h>

#include "common/error_int.h"
#include "format/features_int.h"
#include "common/hex.h"
#include "common/opts.h"
#include "outputs/output_int.h"

#ifdef RP_HAVE_PPROF

#include <zlib.h>

#include "common/arena.h"
#include "common/hashmap.h"
#include "common/strpool.h"
#include "machine/machine_int.h"
#include "profile.pb-c.h"
#include "process_int.h"

/* Bytes of deflate output per write. */
#define RP_PPROF_ZCHUNK (256u << 10)
/* pprof's rounding of a mapping's size when it merges (profile/merge.go). */
#define RP_PPROF_MAP_ROUND 0x1000u
/* The unit of the numeric labels: without one, pprof drops a label whose
 * value is 0 (cpu 0, pid 0) when it reads the profile. */
#define RP_PPROF_LABEL_UNIT "id"

struct rp_pprof_mapping {
	struct rp_pprof_mapping *next;  /* chain of the index by map */
	struct rp_pprof_mapping *mnext; /* chain of the index by value */
	const struct rp_map *map;       /* the session's map; NULL: merged in */
	size_t idx;                     /* position in mapping_v */
	uint64_t start, limit, offset;
	int64_t filename, build_id;     /* string table indices */
	uint64_t out_id;                /* while writing: id in the profile, 0: left out */
	uint8_t has_lines, has_inline;  /* while writing */
};

struct rp_pprof_function {
	struct rp_pprof_function *next, *mnext;
	const struct rp_dso *dso;
	const struct rp_symbol *sym; /* NULL: unresolved, keyed by addr */
	uint64_t addr;
	uint8_t own;                 /* keyed by the session's objects */
	uint64_t id;
	int64_t name, filename;      /* string table indices */
};

/* One line of a location: its function and source line (0: unknown). */
struct rp_pprof_line {
	uint64_t function_id;
	int64_t line;
};

struct rp_pprof_location {
	struct rp_pprof_location *next, *mnext;
	const struct rp_map *map;    /* the session's (own) or NULL */
	const struct rp_symbol *sym; /* the first frame's (inlined ones differ) */
	uint8_t own;
	uint64_t ip;                 /* the address, as in the profile */
	uint64_t id;
	struct rp_pprof_mapping *mapping; /* NULL: none */
	uint32_t nr_lines;
	struct rp_pprof_line *lines; /* innermost first, as pprof's Line list */
};

/* An executable: its mapping and the samples of the processes running it
 * (counted while writing), to choose the main binary. */
struct rp_pprof_exe {
	struct rp_pprof_exe *next, *mnext;
	const struct rp_dso *dso; /* the session's (own) or NULL */
	struct rp_pprof_mapping *mapping;
	size_t idx;
	int64_t samples;
};

/* A process (pid and comm) seen: its executable (NULL: none known). */
struct rp_pprof_proc {
	struct rp_pprof_proc *next;
	int32_t pid;
	const char *comm;
	struct rp_pprof_exe *exe;
};

struct rp_pprof_sample {
	struct rp_pprof_sample *next;
	uint64_t hash;
	int32_t pid, tid, cpu; /* 0 when the label is left out; cpu -1: none */
	int64_t comm;          /* string table index, 0: none */
	uint32_t nr_locs;
	uint32_t nr_vals;
	uint64_t *locs;        /* location ids, leaf first */
	int64_t *vals;         /* [0] samples, [1 + e] periods of event e */
	struct rp_pprof_exe *exe;
};

/* A growing array of pointers. */
struct rp_pprof_vec {
	void **v;
	size_t nr, alloc;
};

struct rp_pprof_event {
	int64_t name, unit; /* string table indices */
};

struct rp_pprof {
	const struct rp_session *session;
	struct rp_pprof_opts opts;
	struct rp_arena arena;
	struct rp_strpool pool;
	struct rp_hashmap str_idx; /* interned pointer -> index + 1 */
	struct rp_pprof_vec strings;
	struct rp_hashmap mappings, functions, locations, samples, exes, procs;
	struct rp_hashmap m_mappings, m_functions, m_locations, m_exes; /* by value */
	struct rp_pprof_vec mapping_v, function_v, location_v, sample_v, exe_v;
	/* The profile's events, and the session's evsel i as event own_ev[i]. */
	struct rp_pprof_event *events;
	size_t nr_events, alloc_events;
	uint32_t *own_ev;
	size_t nr_own, alloc_own;
	int64_t period; /* the first own event's fixed period, 0: frequency */
	uint64_t *scratch; /* location ids of the sample being added */
	size_t scratch_alloc;
	uint64_t first_time, last_time;
	int has_time;
	/* What merged profiles brought, combined as pprof combines headers. */
	int merged;
	int64_t m_time, m_duration, m_period;
	int error;
	struct rp_symbols *symbols; /* source files and lines; NULL: none */
};

static int rp_pprof_push(struct rp_pprof_vec *vec, void *p, size_t cap)
{
	if (vec->nr == vec->alloc) {
		size_t n = vec->alloc ? vec->alloc * 2 : 256;
		void **v;

		if (vec->nr >= cap)
			return RP_ERR_LIMIT;
		v = realloc(vec->v, n * sizeof(*v));
		if (!v)
			return RP_ERR_NOMEM;
		vec->v = v;
		vec->alloc = n;
	}
	vec->v[vec->nr++] = p;
	return 0;
}

/* The string table index of s (interned on first use). */
static int64_t rp_pprof_str(struct rp_pprof *p, const char *s)
{
	const char *in = rp_strpool_intern_str(&p->pool, s ? s : "");
	void *got;

	if (!in)
		return RP_ERR_NOMEM;
	got = rp_hashmap_get(&p->str_idx, (uint64_t)(uintptr_t)in);
	if (got)
		return (int64_t)(uintptr_t)got - 1;
	int ret = rp_pprof_push(&p->strings, (void *)(uintptr_t)in, RP_PPROF_MAX_STRINGS);
	if (ret < 0)
		return ret;
	if (rp_hashmap_put(&p->str_idx, (uint64_t)(uintptr_t)in,
			   (void *)(uintptr_t)p->strings.nr) < 0)
		return RP_ERR_NOMEM;
	return (int64_t)p->strings.nr - 1;
}

static const char *rp_pprof_unit(const struct rp_attr *attr)
{
	/* cpu-clock (0) and task-clock (1) count nanoseconds */
	if (attr->type == RP_TYPE_SOFTWARE && (attr->config == 0 || attr->config == 1))
		return "nanoseconds";
	return "count";
}

static int64_t rp_pprof_own_event(struct rp_pprof *p, size_t idx);

void rp_pprof_free(struct rp_pprof *pprof)
{
	if (!pprof)
		return;
	struct rp_hashmap *maps[] = { &pprof->str_idx,     &pprof->mappings,   &pprof->functions,
				      &pprof->locations,   &pprof->samples,    &pprof->exes,
				      &pprof->procs,       &pprof->m_mappings, &pprof->m_functions,
				      &pprof->m_locations, &pprof->m_exes };

	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		rp_hashmap_release(maps[i]);
	free(pprof->strings.v);
	free(pprof->mapping_v.v);
	free(pprof->function_v.v);
	free(pprof->location_v.v);
	free(pprof->sample_v.v);
	free(pprof->exe_v.v);
	free(pprof->events);
	free(pprof->own_ev);
	free(pprof->scratch);
	rp_strpool_release(&pprof->pool);
	rp_arena_release(&pprof->arena);
	free(pprof);
}

int rp_pprof_new_ext(struct rp_pprof **out, const struct rp_session *session,
		     const struct rp_pprof_opts *opts)
{
	struct rp_pprof *p;

	if (!out)
		return RP_ERR_INVAL;
	*out = NULL;
	if (!session)
		return RP_ERR_INVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return RP_ERR_NOMEM;
	if (rp_opts_copy(&p->opts, sizeof(p->opts), opts) < 0 ||
	    (p->opts.no_labels & ~(RP_PPROF_LABEL_PID | RP_PPROF_LABEL_TID | RP_PPROF_LABEL_COMM |
				   RP_PPROF_LABEL_CPU))) {
		free(p);
		return RP_ERR_INVAL;
	}
	p->session = session;
	/* index 0 must be the empty string */
	if (rp_pprof_str(p, "") != 0) {
		rp_pprof_free(p);
		return RP_ERR_NOMEM;
	}
	/* the events known now (pipe streams may add more while reading) */
	size_t nr = rp_session_nr_evsels(session);
	int64_t ret = nr ? rp_pprof_own_event(p, nr - 1) : 0;
	if (ret < 0) {
		rp_pprof_free(p);
		return (int)ret;
	}
	*out = p;
	return 0;
}

int rp_pprof_new(struct rp_pprof **out, const struct rp_session *session)
{
	return rp_pprof_new_ext(out, session, NULL);
}

/* Appends event (name, unit); its index or a negative rp_err. */
static int64_t rp_pprof_add_event(struct rp_pprof *p, int64_t name, int64_t unit)
{
	if (p->nr_events >= RP_PPROF_MAX_EVENTS)
		return RP_ERR_LIMIT;
	if (p->nr_events == p->alloc_events) {
		size_t n = p->alloc_events ? p->alloc_events * 2 : 8;
		struct rp_pprof_event *e = realloc(p->events, n * sizeof(*e));

		if (!e)
			return RP_ERR_NOMEM;
		p->events = e;
		p->alloc_events = n;
	}
	p->events[p->nr_events] = (struct rp_pprof_event){ name, unit };
	return (int64_t)p->nr_events++;
}

/* The profile's event of the session's evsel number idx, adding the
 * session's evsels up to it (pipe streams add evsels while reading). */
static int64_t rp_pprof_own_event(struct rp_pprof *p, size_t idx)
{
	while (p->nr_own <= idx) {
		const struct rp_evsel *e = rp_session_evsel(p->session, p->nr_own);
		int64_t name, unit, ev;

		if (!e)
			return RP_ERR_INVAL;
		const struct rp_attr *attr = rp_evsel_attr(e);
		if ((name = rp_pprof_str(p, rp_evsel_name(e))) < 0 ||
		    (unit = rp_pprof_str(p, rp_pprof_unit(attr))) < 0)
			return RP_ERR_NOMEM;
		if (p->nr_own == p->alloc_own) {
			size_t n = p->alloc_own ? p->alloc_own * 2 : 8;
			uint32_t *o = realloc(p->own_ev, n * sizeof(*o));

			if (!o)
				return RP_ERR_NOMEM;
			p->own_ev = o;
			p->alloc_own = n;
		}
		if ((ev = rp_pprof_add_event(p, name, unit)) < 0)
			return ev;
		if (ev == 0 && !(attr->flags & RP_ATTR_FREQ) && attr->sample_period <= INT64_MAX)
			p->period = (int64_t)attr->sample_period;
		p->own_ev[p->nr_own++] = (uint32_t)ev;
	}
	return p->own_ev[idx];
}

/* --- keys by value (merging) --- */

static uint64_t rp_pprof_mapping_vkey(const struct rp_pprof_mapping *m)
{
	uint64_t size = m->limit - m->start;

	size = size + RP_PPROF_MAP_ROUND - 1;
	size -= size % RP_PPROF_MAP_ROUND;
	/* the build-id names the file, else its path */
	uint64_t name = m->build_id ? (uint64_t)m->build_id | (1ull << 63) : (uint64_t)m->filename;
	return rp_hash64(size ^ rp_hash64(m->offset ^ rp_hash64(name)));
}

static int rp_pprof_mapping_veq(const struct rp_pprof_mapping *a,
				const struct rp_pprof_mapping *b)
{
	uint64_t sa = a->limit - a->start, sb = b->limit - b->start;

	sa = (sa + RP_PPROF_MAP_ROUND - 1) / RP_PPROF_MAP_ROUND;
	sb = (sb + RP_PPROF_MAP_ROUND - 1) / RP_PPROF_MAP_ROUND;
	if (sa != sb || a->offset != b->offset || a->build_id != b->build_id)
		return 0;
	return a->build_id || a->filename == b->filename;
}

static uint64_t rp_pprof_function_vkey(int64_t name, int64_t filename)
{
	return rp_hash64((uint64_t)name ^ rp_hash64((uint64_t)filename));
}

static uint64_t rp_pprof_location_vkey(const struct rp_pprof_mapping *m, uint64_t ip,
				       const struct rp_pprof_line *lines, uint32_t nr)
{
	uint64_t h = rp_hash64((m ? m->idx + 1 : 0) ^ rp_hash64(ip - (m ? m->start : 0)));

	return h ^ rp_hash_bytes(lines, nr * sizeof(*lines));
}

static struct rp_pprof_location *rp_pprof_location_vfind(struct rp_pprof *p,
							 const struct rp_pprof_mapping *m,
							 uint64_t ip,
							 const struct rp_pprof_line *lines,
							 uint32_t nr, uint64_t key)
{
	for (struct rp_pprof_location *l = rp_hashmap_get(&p->m_locations, key); l; l = l->mnext)
		if (l->mapping == m && l->ip - (m ? m->start : 0) == ip - (m ? m->start : 0) &&
		    l->nr_lines == nr && !memcmp(l->lines, lines, nr * sizeof(*lines)))
			return l;
	return NULL;
}

/* Puts entry e at the head of its chain (*mnext, its link) in an index
 * by value. */
static int rp_pprof_vindex(struct rp_hashmap *index, uint64_t key, void *e, void **mnext)
{
	*mnext = rp_hashmap_get(index, key);
	return rp_hashmap_put(index, key, e) < 0 ? RP_ERR_NOMEM : 0;
}

/* --- entries --- */

/* A new mapping with these values (map: the session's, or NULL). */
static struct rp_pprof_mapping *rp_pprof_mapping_add(struct rp_pprof *p,
						     const struct rp_pprof_mapping *v, int *err)
{
	struct rp_pprof_mapping *m = rp_arena_alloc(&p->arena, sizeof(*m));

	if (!m) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	*m = *v;
	m->next = m->mnext = NULL;
	m->idx = p->mapping_v.nr;
	if ((*err = rp_pprof_push(&p->mapping_v, m, RP_PPROF_MAX_MAPPINGS)) < 0)
		return NULL;
	if ((*err = rp_pprof_vindex(&p->m_mappings, rp_pprof_mapping_vkey(m), m,
				    (void **)&m->mnext)) < 0)
		return NULL;
	return m;
}

/* The mapping of the session's map. */
static struct rp_pprof_mapping *rp_pprof_mapping(struct rp_pprof *p, const struct rp_map *map,
						 int *err)
{
	uint64_t key = rp_hash64((uint64_t)(uintptr_t)map);
	struct rp_pprof_mapping *m = rp_hashmap_get(&p->mappings, key), *head = m;

	for (; m; m = m->next)
		if (m->map == map)
			return m;

	const struct rp_dso *dso = rp_map_dso(map);
	const uint8_t *bid;
	size_t bsize = dso ? rp_dso_build_id(dso, &bid) : 0;
	char hex[RP_BUILD_ID_HEX];
	struct rp_pprof_mapping v = { .map = map,
				      .start = rp_map_start(map),
				      .limit = rp_map_end(map),
				      .offset = rp_map_pgoff(map) };

	rp_build_id_hex(hex, bid, bsize);
	if ((v.filename = rp_pprof_str(p, dso ? rp_dso_long_name(dso) : "")) < 0 ||
	    (v.build_id = rp_pprof_str(p, hex)) < 0) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	if (!(m = rp_pprof_mapping_add(p, &v, err)))
		return NULL;
	m->next = head;
	if (rp_hashmap_put(&p->mappings, key, m) < 0) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	return m;
}

/* A new function (name, filename); dso, sym, addr and own key it to the
 * session's objects when own. */
static struct rp_pprof_function *rp_pprof_function_add(struct rp_pprof *p, int64_t name,
						       int64_t filename, int *err)
{
	struct rp_pprof_function *fn = rp_arena_alloc(&p->arena, sizeof(*fn));

	if (!fn) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	memset(fn, 0, sizeof(*fn));
	fn->name = name;
	fn->filename = filename;
	if ((*err = rp_pprof_push(&p->function_v, fn, RP_PPROF_MAX_FUNCTIONS)) < 0)
		return NULL;
	fn->id = p->function_v.nr;
	if ((*err = rp_pprof_vindex(&p->m_functions, rp_pprof_function_vkey(name, filename), fn,
				    (void **)&fn->mnext)) < 0)
		return NULL;
	return fn;
}

/* The function (name, filename) found by value, or NULL. */
static struct rp_pprof_function *rp_pprof_function_vfind(struct rp_pprof *p, int64_t name,
							 int64_t filename)
{
	struct rp_pprof_function *fn =
		rp_hashmap_get(&p->m_functions, rp_pprof_function_vkey(name, filename));

	for (; fn; fn = fn->mnext)
		if (fn->name == name && fn->filename == filename)
			return fn;
	return NULL;
}

/*
 * The function of al's symbol whose source is `file` (NULL: unknown, then
 * the DSO's path names it).
 */
static int64_t rp_pprof_function(struct rp_pprof *p, const struct rp_addr_location *al,
				 const char *file)
{
	uint64_t addr = al->sym ? 0 : al->addr;
	const char *fname = file ? file : al->dso ? rp_dso_long_name(al->dso) : "";
	int64_t filename = rp_pprof_str(p, fname), name;
	uint64_t key = rp_hash64((uint64_t)(uintptr_t)al->dso ^
				 rp_hash64((uint64_t)(uintptr_t)al->sym ^ rp_hash64(addr)));
	struct rp_pprof_function *fn, *head;
	char buf[32];
	int err = 0;

	if (filename < 0)
		return filename;
	key = rp_hash64(key ^ (uint64_t)filename);
	fn = head = rp_hashmap_get(&p->functions, key);
	for (; fn; fn = fn->next)
		if (fn->dso == al->dso && fn->sym == al->sym && fn->addr == addr &&
		    fn->filename == filename)
			return (int64_t)fn->id;
	if (al->sym) {
		name = rp_pprof_str(p, al->sym->name);
	} else {
		/* as perf report names an unresolved address */
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, al->map ? al->addr : al->ip);
		name = rp_pprof_str(p, buf);
	}
	if (name < 0)
		return name;
	if (!(fn = rp_pprof_function_add(p, name, filename, &err)))
		return err;
	fn->dso = al->dso;
	fn->sym = al->sym;
	fn->addr = addr;
	fn->own = 1;
	fn->next = head;
	if (rp_hashmap_put(&p->functions, key, fn) < 0)
		return RP_ERR_NOMEM;
	return (int64_t)fn->id;
}

/* A new location; lines are copied. */
static struct rp_pprof_location *rp_pprof_location_add(struct rp_pprof *p,
						       struct rp_pprof_mapping *m, uint64_t ip,
						       const struct rp_pprof_line *lines,
						       uint32_t nr, int *err)
{
	struct rp_pprof_location *loc = rp_arena_alloc(&p->arena, sizeof(*loc));
	struct rp_pprof_line *l = rp_arena_alloc(&p->arena, nr * sizeof(*l));

	if (!loc || !l) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	memset(loc, 0, sizeof(*loc));
	memcpy(l, lines, nr * sizeof(*l));
	loc->mapping = m;
	loc->ip = ip;
	loc->nr_lines = nr;
	loc->lines = l;
	if ((*err = rp_pprof_push(&p->location_v, loc, RP_PPROF_MAX_LOCATIONS)) < 0)
		return NULL;
	loc->id = p->location_v.nr;
	if ((*err = rp_pprof_vindex(&p->m_locations, rp_pprof_location_vkey(m, ip, l, nr), loc,
				    (void **)&loc->mnext)) < 0)
		return NULL;
	return loc;
}

/*
 * The file and line of frame f when the pipeline gave none: for an
 * address where code of other functions was inlined, the outermost
 * frame of its inline chain (the function's own line: the call site),
 * else the address's line.  *file NULL: unknown.
 */
static int rp_pprof_frame_line(struct rp_pprof *p, const struct rp_frame *f, const char **file,
			       uint32_t *line)
{
	const struct rp_inline_frame *inl;
	int n;

	*file = NULL;
	*line = 0;
	if (!p->symbols || !f->al.dso || !f->al.map)
		return 0;
	if (f->al.sym && !f->al.sym->inlined &&
	    (n = rp_symbols_inlines(p->symbols, f->al.dso, f->al.sym, f->al.addr, &inl)) != 0) {
		if (n < 0)
			return n;
		if (n > 1) {
			*file = inl[n - 1].file;
			*line = inl[n - 1].line;
			return 0;
		}
	}
	int found = rp_symbols_srcline(p->symbols, f->al.dso, f->al.addr, file, line);

	if (found < 0)
		return found;
	if (!found && f->al.sym)
		*file = rp_symbols_source_file(p->symbols, f->al.dso, f->al.sym);
	return 0;
}

/*
 * The location of frames[0..nr): one address, the frames of its inline
 * chain innermost first (one frame when it has none).  Each frame is a
 * Line with its function and source line.
 */
static int64_t rp_pprof_location(struct rp_pprof *p, const struct rp_frame *frames, size_t nr)
{
	const struct rp_addr_location *al = &frames[0].al;
	uint64_t key = rp_hash64((uint64_t)(uintptr_t)al->map ^ rp_hash64(al->ip)) ^
		       (uint64_t)(uintptr_t)al->sym;
	struct rp_pprof_location *loc = rp_hashmap_get(&p->locations, key), *head = loc;
	struct rp_pprof_mapping *m = NULL;
	int err = 0;

	for (; loc; loc = loc->next)
		if (loc->map == al->map && loc->ip == al->ip && loc->sym == al->sym &&
		    loc->nr_lines == nr)
			return (int64_t)loc->id;
	if (al->map && !(m = rp_pprof_mapping(p, al->map, &err)))
		return err;
	struct rp_pprof_line *lines = rp_arena_alloc(&p->arena, nr * sizeof(*lines));

	if (!lines)
		return RP_ERR_NOMEM;
	for (size_t i = 0; i < nr; i++) {
		const struct rp_frame *f = &frames[i];
		const char *file = f->src_file;
		uint32_t line = f->src_line;
		int64_t fid;

		if (!file && (err = rp_pprof_frame_line(p, f, &file, &line)) < 0)
			return err;
		struct rp_addr_location fal = f->al;
		/* The outermost frame of a chain is the function the code is in:
		 * DWARF may name it otherwise (an alias: __GI_x for x) than the
		 * symbol table names it where nothing was inlined; one name keeps
		 * the function one in the profile. */
		if (i == nr - 1 && fal.sym && fal.sym->inlined && p->symbols && fal.dso) {
			const struct rp_symbol *own = rp_symbols_find(p->symbols, fal.dso, fal.addr);

			if (own && !own->inlined)
				fal.sym = own;
		}
		if ((fid = rp_pprof_function(p, &fal, file)) < 0)
			return fid;
		lines[i] = (struct rp_pprof_line){ (uint64_t)fid, line };
	}
	if (!(loc = rp_pprof_location_add(p, m, al->ip, lines, (uint32_t)nr, &err)))
		return err;
	loc->map = al->map;
	loc->sym = al->sym;
	loc->own = 1;
	loc->next = head;
	if (rp_hashmap_put(&p->locations, key, loc) < 0)
		return RP_ERR_NOMEM;
	return (int64_t)loc->id;
}

/* --- the main binary --- */

static struct rp_pprof_exe *rp_pprof_exe_add(struct rp_pprof *p, struct rp_pprof_mapping *m,
					     int *err)
{
	struct rp_pprof_exe *x = rp_arena_alloc(&p->arena, sizeof(*x));

	if (!x) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	memset(x, 0, sizeof(*x));
	x->mapping = m;
	x->idx = p->exe_v.nr;
	if ((*err = rp_pprof_push(&p->exe_v, x, RP_PPROF_MAX_MAPPINGS)) < 0)
		return NULL;
	uint64_t key = rp_hash64((uint64_t)m->filename ^ rp_hash64((uint64_t)m->build_id));
	if ((*err = rp_pprof_vindex(&p->m_exes, key, x, (void **)&x->mnext)) < 0)
		return NULL;
	return x;
}

static struct rp_pprof_exe *rp_pprof_exe_vfind(struct rp_pprof *p,
					       const struct rp_pprof_mapping *m)
{
	uint64_t key = rp_hash64((uint64_t)m->filename ^ rp_hash64((uint64_t)m->build_id));

	for (struct rp_pprof_exe *x = rp_hashmap_get(&p->m_exes, key); x; x = x->mnext)
		if (x->mapping->filename == m->filename && x->mapping->build_id == m->build_id)
			return x;
	return NULL;
}

/*
 * The map of thread's executable: among its file-backed executable maps,
 * the lowest whose file name is the comm (the kernel names a process by
 * the first 15 bytes of its executable's name at exec), else the lowest
 * (programs are mapped below their shared libraries).  NULL: none.
 */
static const struct rp_map *rp_pprof_find_exe(const struct rp_thread *thread, const char *comm)
{
	const struct rp_maps *maps = thread ? thread->maps : NULL;
	const struct rp_map *lowest = NULL;
	size_t clen = comm ? strlen(comm) : 0;

	if (!maps)
		return NULL;
	for (size_t i = 0; i < maps->nr; i++) {
		const struct rp_map *m = maps->items[i];
		const char *name = m->dso ? rp_dso_long_name(m->dso) : NULL;
		const char *base;

		/* not "//anon", "[vdso]", "[kernel.kallsyms]" nor data */
		if (!name || name[0] != '/' || name[1] == '/' || !(m->prot & PROT_EXEC) ||
		    rp_dso_is_kernel(m->dso))
			continue;
		base = strrchr(name, '/') + 1;
		if (clen && (clen >= 15 ? !strncmp(base, comm, clen) : !strcmp(base, comm)))
			return m;
		if (!lowest)
			lowest = m;
	}
	return lowest;
}

/* The executable of the process of res (its pid and comm), found once. */
static int rp_pprof_proc_exe(struct rp_pprof *p, const struct rp_resolved *res, int32_t pid,
			     struct rp_pprof_exe **out)
{
	uint64_t key = rp_hash64((uint64_t)(uint32_t)pid ^ (uint64_t)(uintptr_t)res->comm);
	struct rp_pprof_proc *pr = rp_hashmap_get(&p->procs, key), *head = pr;
	int err = 0;

	for (; pr; pr = pr->next)
		if (pr->pid == pid && pr->comm == res->comm) {
			*out = pr->exe;
			return 0;
		}
	pr = rp_arena_alloc(&p->arena, sizeof(*pr));
	if (!pr)
		return RP_ERR_NOMEM;
	pr->pid = pid;
	pr->comm = res->comm;
	pr->exe = NULL;
	pr->next = head;
	const struct rp_map *map = rp_pprof_find_exe(res->thread, res->comm);
	if (map) {
		uint64_t xkey = rp_hash64((uint64_t)(uintptr_t)map->dso);
		struct rp_pprof_exe *x = rp_hashmap_get(&p->exes, xkey), *xhead = x;

		for (; x; x = x->next)
			if (x->dso == map->dso)
				break;
		if (!x) {
			struct rp_pprof_mapping *m = rp_pprof_mapping(p, map, &err);

			if (!m || !(x = rp_pprof_exe_add(p, m, &err)))
				return err;
			x->dso = map->dso;
			x->next = xhead;
			if (rp_hashmap_put(&p->exes, xkey, x) < 0)
				return RP_ERR_NOMEM;
		}
		pr->exe = x;
	}
	if (rp_hashmap_put(&p->procs, key, pr) < 0)
		return RP_ERR_NOMEM;
	*out = pr->exe;
	return 0;
}

/* --- samples --- */

/* pprof values are int64: a sum of periods (u64 in the file) saturates at
 * INT64_MAX instead of overflowing. */
static int64_t rp_pprof_add_period(int64_t sum, uint64_t period)
{
	if (sum < 0 || period > (uint64_t)INT64_MAX - (uint64_t)sum)
		return INT64_MAX;
	return sum + (int64_t)period;
}

/* Makes room in s for the values of event ev. */
static int rp_pprof_sample_grow(struct rp_pprof *p, struct rp_pprof_sample *s, size_t ev)
{
	if (1 + ev < s->nr_vals)
		return 0;
	size_t n = 1 + (p->nr_events > ev ? p->nr_events : ev + 1);
	int64_t *v = rp_arena_alloc(&p->arena, n * sizeof(*v));

	if (!v)
		return RP_ERR_NOMEM;
	memcpy(v, s->vals, s->nr_vals * sizeof(*v));
	memset(v + s->nr_vals, 0, (n - s->nr_vals) * sizeof(*v));
	s->vals = v;
	s->nr_vals = (uint32_t)n;
	return 0;
}

static uint64_t rp_pprof_sample_hash(int32_t pid, int32_t tid, int32_t cpu, int64_t comm,
				     const uint64_t *locs, size_t n)
{
	uint64_t h = rp_hash64((uint64_t)(uint32_t)pid);

	h = rp_hash64(h ^ ((uint64_t)(uint32_t)tid << 32) ^ (uint32_t)cpu);
	h = rp_hash64(h ^ (uint64_t)comm);
	return h ^ rp_hash_bytes(locs, n * sizeof(uint64_t));
}

/* The sample with these labels and the n location ids at p->scratch,
 * created (values 0) when new. */
static struct rp_pprof_sample *rp_pprof_sample(struct rp_pprof *p, int32_t pid, int32_t tid,
					       int32_t cpu, int64_t comm, size_t n, int *err)
{
	uint64_t h = rp_pprof_sample_hash(pid, tid, cpu, comm, p->scratch, n);
	struct rp_pprof_sample *s = rp_hashmap_get(&p->samples, h), *head = s;

	for (; s; s = s->next)
		if (s->hash == h && s->pid == pid && s->tid == tid && s->cpu == cpu &&
		    s->comm == comm && s->nr_locs == n &&
		    !memcmp(s->locs, p->scratch, n * sizeof(uint64_t)))
			return s;
	s = rp_arena_alloc(&p->arena, sizeof(*s));
	if (!s || !(s->locs = rp_arena_alloc(&p->arena, n * sizeof(uint64_t))) ||
	    !(s->vals = rp_arena_alloc(&p->arena, (1 + p->nr_events) * sizeof(int64_t)))) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	memcpy(s->locs, p->scratch, n * sizeof(uint64_t));
	memset(s->vals, 0, (1 + p->nr_events) * sizeof(int64_t));
	s->nr_vals = (uint32_t)(1 + p->nr_events);
	s->next = head;
	s->hash = h;
	s->pid = pid;
	s->tid = tid;
	s->cpu = cpu;
	s->comm = comm;
	s->nr_locs = (uint32_t)n;
	s->exe = NULL;
	if ((*err = rp_pprof_push(&p->sample_v, s, RP_PPROF_MAX_SAMPLES)) < 0)
		return NULL;
	if (rp_hashmap_put(&p->samples, h, s) < 0) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	return s;
}

static int rp_pprof_scratch(struct rp_pprof *p, size_t want)
{
	if (want <= p->scratch_alloc)
		return 0;
	uint64_t *s = realloc(p->scratch, want * sizeof(*s));

	if (!s)
		return RP_ERR_NOMEM;
	p->scratch = s;
	p->scratch_alloc = want;
	return 0;
}

/* Counts one sample of event ev with this period in s. */
static int rp_pprof_count(struct rp_pprof *p, struct rp_pprof_sample *s, size_t ev,
			  uint64_t period)
{
	int ret = rp_pprof_sample_grow(p, s, ev);

	if (ret < 0)
		return ret;
	s->vals[0] = rp_pprof_add_period(s->vals[0], 1);
	s->vals[1 + ev] = rp_pprof_add_period(s->vals[1 + ev], period);
	return 0;
}

static int rp_pprof_add(struct rp_pprof *p, const struct rp_event *ev,
			const struct rp_resolved *res)
{
	const struct rp_attr *attr = rp_evsel_attr(ev->evsel);
	unsigned nol = p->opts.no_labels;
	size_t n = 0, want;
	int64_t id, comm, e = rp_pprof_own_event(p, (size_t)rp_evsel_idx(ev->evsel));
	int32_t cpu = (ev->sid.present & RP_SAMPLE_CPU) && !(nol & RP_PPROF_LABEL_CPU) ?
			      (int32_t)ev->sid.cpu :
			      -1;
	int err = 0;
	/* A call stack the pipeline has cached: its locations and thread (one
	 * stack_id is one thread) are those of the sample noted in its slot;
	 * the comm and cpu are checked. */
	struct rp_stack_slot *known = res->stack_id && res->nr_callchain &&
						      (attr->sample_type & RP_SAMPLE_CALLCHAIN) ?
					      res->stack_slot :
					      NULL;
	uint64_t tag = (uint64_t)(uintptr_t)res->comm;

	if (e < 0)
		return (int)e;
	if (known && known->ptr && known->tag == tag) {
		struct rp_pprof_sample *k = known->ptr;

		if (k->cpu == cpu)
			return rp_pprof_count(p, k, (size_t)e, ev->u.sample.period);
	}

	want = ((attr->sample_type & RP_SAMPLE_CALLCHAIN) && res->nr_callchain) ?
		       res->nr_callchain :
		       1;
	if ((err = rp_pprof_scratch(p, want)) < 0)
		return err;
	if ((attr->sample_type & RP_SAMPLE_CALLCHAIN) && res->nr_callchain) {
		for (size_t i = 0; i < res->nr_callchain;) {
			size_t k = i;

			/* An address's inline chain is one location. */
			while (k + 1 < res->nr_callchain && res->callchain[k].inlined_into_next)
				k++;
			if ((id = rp_pprof_location(p, &res->callchain[i], k - i + 1)) < 0)
				return (int)id;
			p->scratch[n++] = (uint64_t)id;
			i = k + 1;
		}
	} else {
		struct rp_frame one = { .al = res->al };

		if ((id = rp_pprof_location(p, &one, 1)) < 0)
			return (int)id;
		p->scratch[n++] = (uint64_t)id;
	}
	if ((comm = (nol & RP_PPROF_LABEL_COMM) ? 0 : rp_pprof_str(p, res->comm)) < 0)
		return (int)comm;

	int32_t rpid = rp_thread_pid(res->thread);
	int32_t pid = (nol & RP_PPROF_LABEL_PID) ? 0 : rpid;
	int32_t tid = (nol & RP_PPROF_LABEL_TID) ? 0 : rp_thread_tid(res->thread);
	struct rp_pprof_sample *s = rp_pprof_sample(p, pid, tid, cpu, comm, n, &err);

	if (!s)
		return err;
	if (!s->exe && (err = rp_pprof_proc_exe(p, res, rpid, &s->exe)) < 0)
		return err;
	if ((err = rp_pprof_count(p, s, (size_t)e, ev->u.sample.period)) < 0)
		return err;
	if (known) {
		known->ptr = s;
		known->tag = tag;
	}
	return 0;
}

static int rp_pprof_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_pprof *p = ctx;
	int ret;

	if (ev->type != RP_RECORD_SAMPLE || !res || !ev->evsel)
		return 0;
	if (p->error)
		return p->error;
	if (ev->sid.present & RP_SAMPLE_TIME) {
		if (!p->has_time || ev->sid.time < p->first_time)
			p->first_time = ev->sid.time;
		if (!p->has_time || ev->sid.time > p->last_time)
			p->last_time = ev->sid.time;
		p->has_time = 1;
	}
	ret = rp_pprof_add(p, ev, res);
	if (ret < 0)
		p->error = ret;
	return ret;
}

void rp_pprof_set_symbols(struct rp_pprof *pprof, struct rp_symbols *symbols)
{
	if (pprof)
		pprof->symbols = symbols;
}

struct rp_consumer rp_pprof_consumer(struct rp_pprof *pprof)
{
	struct rp_consumer c = { pprof, rp_pprof_event, RP_CONSUMER_CALLCHAIN };
	return c;
}

/* --- time --- */

/*
 * time_nanos and duration_nanos of what p consumed itself: the first
 * sample's time on the wall clock when the recording relates its clock to
 * it (CLOCK_DATA: the same instant on both clocks; perf record -k), else
 * 0; the time from the first sample to the last.
 */
static void rp_pprof_own_times(const struct rp_pprof *p, int64_t *time, int64_t *duration)
{
	const void *data;
	size_t size;
	struct rp_features *f;

	*time = *duration = 0;
	if (!p->has_time)
		return;
	*duration = (int64_t)(p->last_time - p->first_time);
	data = rp_session_feature_data(p->session, RP_FEAT_CLOCK_DATA, &size);
	if (!data || rp_features_new(&f) < 0)
		return;
	if (rp_features_decode(f, RP_FEAT_CLOCK_DATA, data, size,
			       rp_session_needs_swap(p->session)) == 0 &&
	    f->clock_tod_ns && f->clock_tod_ns <= INT64_MAX)
		*time = (int64_t)f->clock_tod_ns + ((int64_t)p->first_time - (int64_t)f->clock_ns);
	rp_features_free(f);
}

/* The header values of p with what was merged into it, combined as
 * pprof's combineHeaders() does, in the order of the merges. */
static void rp_pprof_times(const struct rp_pprof *p, int64_t *time, int64_t *duration,
			   int64_t *period)
{
	rp_pprof_own_times(p, time, duration);
	*period = p->period;
	if (!p->merged)
		return;
	if (*time == 0 || p->m_time < *time)
		*time = p->m_time;
	*duration += p->m_duration;
	if (*period == 0 || *period < p->m_period)
		*period = p->m_period;
}

/* --- merging --- */

struct rp_pprof_remap {
	int64_t *str;
	int64_t *ev;
	struct rp_pprof_mapping **map;
	uint64_t *fn, *loc;
	struct rp_pprof_exe **exe;
};

static int64_t rp_pprof_rstr(struct rp_pprof *into, const struct rp_pprof *from,
			     struct rp_pprof_remap *r, int64_t i)
{
	if (i < 0 || (size_t)i >= from->strings.nr)
		return 0;
	if (r->str[i] < 0)
		r->str[i] = rp_pprof_str(into, from->strings.v[i]);
	return r->str[i];
}

static int rp_pprof_merge_events(struct rp_pprof *into, const struct rp_pprof *from,
				 struct rp_pprof_remap *r)
{
	for (size_t j = 0; j < from->nr_events; j++) {
		int64_t name = rp_pprof_rstr(into, from, r, from->events[j].name);
		int64_t unit = rp_pprof_rstr(into, from, r, from->events[j].unit);
		size_t k = 0, seen = 0;

		if (name < 0 || unit < 0)
			return RP_ERR_NOMEM;
		/* the k-th event of this name and unit in from */
		for (size_t i = 0; i < j; i++)
			k += from->events[i].name == from->events[j].name &&
			     from->events[i].unit == from->events[j].unit;
		r->ev[j] = -1;
		for (size_t i = 0; i < into->nr_events; i++)
			if (into->events[i].name == name && into->events[i].unit == unit &&
			    seen++ == k) {
				r->ev[j] = (int64_t)i;
				break;
			}
		if (r->ev[j] < 0 && (r->ev[j] = rp_pprof_add_event(into, name, unit)) < 0)
			return (int)r->ev[j];
	}
	return 0;
}

static int rp_pprof_merge_entries(struct rp_pprof *into, const struct rp_pprof *from,
				  struct rp_pprof_remap *r)
{
	int err = 0;

	for (size_t j = 0; j < from->mapping_v.nr; j++) {
		const struct rp_pprof_mapping *s = from->mapping_v.v[j];
		struct rp_pprof_mapping v = *s, *m;

		v.map = NULL;
		if ((v.filename = rp_pprof_rstr(into, from, r, s->filename)) < 0 ||
		    (v.build_id = rp_pprof_rstr(into, from, r, s->build_id)) < 0)
			return RP_ERR_NOMEM;
		for (m = rp_hashmap_get(&into->m_mappings, rp_pprof_mapping_vkey(&v)); m;
		     m = m->mnext)
			if (rp_pprof_mapping_veq(m, &v))
				break;
		/* the first mapping of a file is kept; later ones move to it */
		if (!m && !(m = rp_pprof_mapping_add(into, &v, &err)))
			return err;
		r->map[j] = m;
	}
	for (size_t j = 0; j < from->function_v.nr; j++) {
		const struct rp_pprof_function *s = from->function_v.v[j];
		int64_t name = rp_pprof_rstr(into, from, r, s->name);
		int64_t filename = rp_pprof_rstr(into, from, r, s->filename);
		struct rp_pprof_function *fn;

		if (name < 0 || filename < 0)
			return RP_ERR_NOMEM;
		if (!(fn = rp_pprof_function_vfind(into, name, filename)) &&
		    !(fn = rp_pprof_function_add(into, name, filename, &err)))
			return err;
		r->fn[j] = fn->id;
	}
	struct rp_pprof_line *lines = NULL;
	size_t alloc = 0;
	for (size_t j = 0; j < from->location_v.nr; j++) {
		const struct rp_pprof_location *s = from->location_v.v[j];
		struct rp_pprof_mapping *m = s->mapping ? r->map[s->mapping->idx] : NULL;
		/* the address moves with its mapping */
		uint64_t ip = m ? s->ip - s->mapping->start + m->start : s->ip;
		struct rp_pprof_location *loc;

		if (s->nr_lines > alloc) {
			struct rp_pprof_line *l = realloc(lines, s->nr_lines * sizeof(*l));

			if (!l) {
				free(lines);
				return RP_ERR_NOMEM;
			}
			lines = l;
			alloc = s->nr_lines;
		}
		for (uint32_t k = 0; k < s->nr_lines; k++) {
			lines[k].function_id = r->fn[s->lines[k].function_id - 1];
			lines[k].line = s->lines[k].line;
		}
		uint64_t key = rp_pprof_location_vkey(m, ip, lines, s->nr_lines);
		if (!(loc = rp_pprof_location_vfind(into, m, ip, lines, s->nr_lines, key)) &&
		    !(loc = rp_pprof_location_add(into, m, ip, lines, s->nr_lines, &err))) {
			free(lines);
			return err;
		}
		r->loc[j] = loc->id;
	}
	free(lines);
	for (size_t j = 0; j < from->exe_v.nr; j++) {
		const struct rp_pprof_exe *s = from->exe_v.v[j];
		struct rp_pprof_mapping *m = r->map[s->mapping->idx];
		struct rp_pprof_exe *x = rp_pprof_exe_vfind(into, m);

		if (!x && !(x = rp_pprof_exe_add(into, m, &err)))
			return err;
		r->exe[j] = x;
	}
	return 0;
}

static int rp_pprof_merge_samples(struct rp_pprof *into, const struct rp_pprof *from,
				  struct rp_pprof_remap *r)
{
	int err = 0;

	for (size_t j = 0; j < from->sample_v.nr; j++) {
		const struct rp_pprof_sample *s = from->sample_v.v[j];
		int64_t comm = s->comm ? rp_pprof_rstr(into, from, r, s->comm) : 0;
		struct rp_pprof_sample *d;

		if (comm < 0)
			return RP_ERR_NOMEM;
		if ((err = rp_pprof_scratch(into, s->nr_locs ? s->nr_locs : 1)) < 0)
			return err;
		for (uint32_t k = 0; k < s->nr_locs; k++)
			into->scratch[k] = r->loc[s->locs[k] - 1];
		if (!(d = rp_pprof_sample(into, s->pid, s->tid, s->cpu, comm, s->nr_locs, &err)))
			return err;
		if (!d->exe && s->exe)
			d->exe = r->exe[s->exe->idx];
		d->vals[0] = rp_pprof_add_period(d->vals[0], (uint64_t)s->vals[0]);
		for (uint32_t e = 1; e < s->nr_vals; e++) {
			size_t de = (size_t)r->ev[e - 1];

			if (!s->vals[e])
				continue;
			if ((err = rp_pprof_sample_grow(into, d, de)) < 0)
				return err;
			d->vals[1 + de] = rp_pprof_add_period(d->vals[1 + de], (uint64_t)s->vals[e]);
		}
	}
	return 0;
}

int rp_pprof_merge(struct rp_pprof *into, const struct rp_pprof *from)
{
	struct rp_pprof_remap r = { 0 };
	int ret = RP_ERR_NOMEM;

	if (!into || !from || into == from)
		return RP_ERR_INVAL;
	if (into->error)
		return into->error;
	if (from->error)
		return from->error;
	/* into's own events first, as rp_pprof_write() would put them */
	size_t nr_evsels = rp_session_nr_evsels(into->session);
	if (nr_evsels && (ret = (int)rp_pprof_own_event(into, nr_evsels - 1)) < 0)
		return ret;
	ret = RP_ERR_NOMEM;
	r.str = malloc((from->strings.nr + 1) * sizeof(*r.str));
	r.ev = malloc((from->nr_events + 1) * sizeof(*r.ev));
	r.map = malloc((from->mapping_v.nr + 1) * sizeof(*r.map));
	r.fn = malloc((from->function_v.nr + 1) * sizeof(*r.fn));
	r.loc = malloc((from->location_v.nr + 1) * sizeof(*r.loc));
	r.exe = malloc((from->exe_v.nr + 1) * sizeof(*r.exe));
	if (!r.str || !r.ev || !r.map || !r.fn || !r.loc || !r.exe)
		goto out;
	for (size_t i = 0; i < from->strings.nr; i++)
		r.str[i] = -1;
	if ((ret = rp_pprof_merge_events(into, from, &r)) < 0 ||
	    (ret = rp_pprof_merge_entries(into, from, &r)) < 0 ||
	    (ret = rp_pprof_merge_samples(into, from, &r)) < 0)
		goto out;

	int64_t t, d, per;
	rp_pprof_times(from, &t, &d, &per);
	if (!into->merged) {
		into->m_time = t;
		into->m_duration = d;
		into->m_period = per;
		into->merged = 1;
	} else {
		if (into->m_time == 0 || t < into->m_time)
			into->m_time = t;
		into->m_duration += d;
		if (into->m_period == 0 || into->m_period < per)
			into->m_period = per;
	}
	ret = 0;
out:
	free(r.str);
	free(r.ev);
	free(r.map);
	free(r.fn);
	free(r.loc);
	free(r.exe);
	if (ret < 0)
		into->error = ret;
	return ret;
}

/* --- writing --- */

/* gzip (RFC 1952) of n bytes onto f. */
static int rp_pprof_gzip(const uint8_t *data, size_t n, FILE *f)
{
	z_stream z;
	uint8_t *out = malloc(RP_PPROF_ZCHUNK);
	int ret = 0, zr;

	if (!out)
		return RP_ERR_NOMEM;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(out);
		return RP_ERR_NOMEM;
	}
	z.next_in = (Bytef *)(uintptr_t)data;
	do {
		/* feed at most UINT_MAX bytes at a time (avail_in is an uInt) */
		size_t chunk = n > 0x40000000u ? 0x40000000u : n;
		z.avail_in = (uInt)chunk;
		n -= chunk;
		int flush = n ? Z_NO_FLUSH : Z_FINISH;
		do {
			z.next_out = out;
			z.avail_out = RP_PPROF_ZCHUNK;
			zr = deflate(&z, flush);
			size_t have = RP_PPROF_ZCHUNK - z.avail_out;
			if (have && fwrite(out, 1, have, f) != have)
				ret = RP_ERR_IO;
		} while (z.avail_out == 0 && ret == 0);
	} while (n && ret == 0);
	if (ret == 0 && zr != Z_STREAM_END)
		ret = RP_ERR_IO;
	deflateEnd(&z);
	free(out);
	return ret;
}

/*
 * The main binary's mapping: the executable whose processes have the
 * most samples (the first seen of those with as many), or NULL.
 */
static struct rp_pprof_mapping *rp_pprof_main(struct rp_pprof *p)
{
	struct rp_pprof_exe *best = NULL;

	for (size_t i = 0; i < p->exe_v.nr; i++)
		((struct rp_pprof_exe *)p->exe_v.v[i])->samples = 0;
	for (size_t i = 0; i < p->sample_v.nr; i++) {
		const struct rp_pprof_sample *s = p->sample_v.v[i];

		if (s->exe)
			s->exe->samples = rp_pprof_add_period(s->exe->samples, (uint64_t)s->vals[0]);
	}
	for (size_t i = 0; i < p->exe_v.nr; i++) {
		struct rp_pprof_exe *x = p->exe_v.v[i];

		if (x->samples && (!best || x->samples > best->samples))
			best = x;
	}
	return best ? best->mapping : NULL;
}

int rp_pprof_write(struct rp_pprof *p, FILE *f)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct rp_arena a = RP_ARENA_INIT; /* the message's parts */
	int ret = RP_ERR_NOMEM;

	if (!p || !f)
		return RP_ERR_INVAL;
	if (p->error)
		return p->error;
	/* Every event of the session is a sample type, samples or not. */
	size_t nr_evsels = rp_session_nr_evsels(p->session);
	if (nr_evsels && (ret = (int)rp_pprof_own_event(p, nr_evsels - 1)) < 0)
		return ret;
	ret = RP_ERR_NOMEM;
	size_t nvt = 1 + p->nr_events;

	/* strings the header needs, before the table is copied */
	int64_t s_samples = rp_pprof_str(p, "samples"), s_count = rp_pprof_str(p, "count");
	int64_t s_pid = rp_pprof_str(p, "pid"), s_tid = rp_pprof_str(p, "tid");
	int64_t s_comm = rp_pprof_str(p, "comm"), s_cpu = rp_pprof_str(p, "cpu");
	int64_t s_unit = rp_pprof_str(p, RP_PPROF_LABEL_UNIT);
	if (s_samples < 0 || s_count < 0 || s_pid < 0 || s_tid < 0 || s_comm < 0 || s_cpu < 0 ||
	    s_unit < 0)
		goto out;

	Perftools__Profiles__ValueType *vt = rp_arena_alloc(&a, nvt * sizeof(*vt));
	Perftools__Profiles__ValueType **vtp = rp_arena_alloc(&a, nvt * sizeof(*vtp));
	if (!vt || !vtp)
		goto out;
	for (size_t i = 0; i < nvt; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = i ? p->events[i - 1].name : s_samples;
		vt[i].unit = i ? p->events[i - 1].unit : s_count;
		vtp[i] = &vt[i];
	}
	prof.n_sample_type = nvt;
	prof.sample_type = vtp;
	if (p->nr_events) {
		prof.period_type = &vt[1];
		prof.default_sample_type = p->events[0].name;
	}
	rp_pprof_times(p, &prof.time_nanos, &prof.duration_nanos, &prof.period);

	/* mappings: the main binary first, then those locations use */
	struct rp_pprof_mapping *main_map = rp_pprof_main(p);
	size_t nm = 0, nmap = p->mapping_v.nr;
	for (size_t i = 0; i < nmap; i++) {
		struct rp_pprof_mapping *m = p->mapping_v.v[i];

		m->out_id = 0;
		m->has_lines = m->has_inline = 0;
	}
	for (size_t i = 0; i < p->location_v.nr; i++) {
		const struct rp_pprof_location *loc = p->location_v.v[i];
		struct rp_pprof_mapping *m = loc->mapping;

		if (!m)
			continue;
		m->out_id = 1;
		for (uint32_t k = 0; k < loc->nr_lines; k++)
			m->has_lines |= loc->lines[k].line != 0;
		m->has_inline |= loc->nr_lines > 1;
	}
	Perftools__Profiles__Mapping *mp = rp_arena_alloc(&a, nmap * sizeof(*mp) + 1);
	Perftools__Profiles__Mapping **mpp = rp_arena_alloc(&a, nmap * sizeof(*mpp) + 1);
	if (!mp || !mpp)
		goto out;
	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < nmap; i++) {
			struct rp_pprof_mapping *m = p->mapping_v.v[i];

			if (pass == 0 ? m != main_map : (m == main_map || !m->out_id))
				continue;
			perftools__profiles__mapping__init(&mp[nm]);
			m->out_id = nm + 1;
			mp[nm].id = m->out_id;
			mp[nm].memory_start = m->start;
			mp[nm].memory_limit = m->limit;
			mp[nm].file_offset = m->offset;
			mp[nm].filename = m->filename;
			mp[nm].build_id = m->build_id;
			/* the functions are resolved: pprof must not symbolize again */
			mp[nm].has_functions = 1;
			mp[nm].has_filenames = m->has_lines;
			mp[nm].has_line_numbers = m->has_lines;
			mp[nm].has_inline_frames = m->has_inline;
			mpp[nm] = &mp[nm];
			nm++;
		}
	}
	prof.n_mapping = nm;
	prof.mapping = mpp;

	/* functions */
	size_t nf = p->function_v.nr;
	Perftools__Profiles__Function *fp = rp_arena_alloc(&a, nf * sizeof(*fp) + 1);
	Perftools__Profiles__Function **fpp = rp_arena_alloc(&a, nf * sizeof(*fpp) + 1);
	if (!fp || !fpp)
		goto out;
	for (size_t i = 0; i < nf; i++) {
		const struct rp_pprof_function *fn = p->function_v.v[i];

		perftools__profiles__function__init(&fp[i]);
		fp[i].id = fn->id;
		fp[i].name = fn->name;
		/* no system_name: pprof then shows the name as is, not re-simplified */
		fp[i].filename = fn->filename;
		fpp[i] = &fp[i];
	}
	prof.n_function = nf;
	prof.function = fpp;

	/* locations, a line per frame of their inline chain */
	size_t nl = p->location_v.nr, nlines = 0;
	for (size_t i = 0; i < nl; i++)
		nlines += ((const struct rp_pprof_location *)p->location_v.v[i])->nr_lines;
	Perftools__Profiles__Location *lp = rp_arena_alloc(&a, nl * sizeof(*lp) + 1);
	Perftools__Profiles__Location **lpp = rp_arena_alloc(&a, nl * sizeof(*lpp) + 1);
	Perftools__Profiles__Line *ln = rp_arena_alloc(&a, nlines * sizeof(*ln) + 1);
	Perftools__Profiles__Line **lnp = rp_arena_alloc(&a, nlines * sizeof(*lnp) + 1);
	if (!lp || !lpp || !ln || !lnp)
		goto out;
	for (size_t i = 0, j = 0; i < nl; i++) {
		const struct rp_pprof_location *loc = p->location_v.v[i];

		perftools__profiles__location__init(&lp[i]);
		lp[i].id = loc->id;
		lp[i].mapping_id = loc->mapping ? loc->mapping->out_id : 0;
		lp[i].address = loc->ip;
		lp[i].n_line = loc->nr_lines;
		lp[i].line = &lnp[j];
		for (uint32_t k = 0; k < loc->nr_lines; k++, j++) {
			perftools__profiles__line__init(&ln[j]);
			ln[j].function_id = loc->lines[k].function_id;
			ln[j].line = loc->lines[k].line;
			lnp[j] = &ln[j];
		}
		lpp[i] = &lp[i];
	}
	prof.n_location = nl;
	prof.location = lpp;

	/* samples with their values and labels */
	size_t ns = p->sample_v.nr;
	unsigned nol = p->opts.no_labels;
	Perftools__Profiles__Sample *sp = rp_arena_alloc(&a, ns * sizeof(*sp) + 1);
	Perftools__Profiles__Sample **spp = rp_arena_alloc(&a, ns * sizeof(*spp) + 1);
	if (!sp || !spp)
		goto out;
	for (size_t i = 0; i < ns; i++) {
		const struct rp_pprof_sample *s = p->sample_v.v[i];
		int64_t *vals = rp_arena_alloc(&a, nvt * sizeof(int64_t));
		Perftools__Profiles__Label *lb = rp_arena_alloc(&a, 4 * sizeof(*lb));
		Perftools__Profiles__Label **lbp = rp_arena_alloc(&a, 4 * sizeof(*lbp));
		size_t nlab = 0;

		if (!vals || !lb || !lbp)
			goto out;
		memset(vals, 0, nvt * sizeof(int64_t));
		memcpy(vals, s->vals, (s->nr_vals < nvt ? s->nr_vals : nvt) * sizeof(int64_t));
		for (int k = 0; k < 4; k++)
			perftools__profiles__label__init(&lb[k]);
		/* numbers carry a unit, else pprof drops those that are 0 */
		if (!(nol & RP_PPROF_LABEL_PID)) {
			lb[nlab].key = s_pid;
			lb[nlab].num_unit = s_unit;
			lb[nlab++].num = s->pid;
		}
		if (!(nol & RP_PPROF_LABEL_TID)) {
			lb[nlab].key = s_tid;
			lb[nlab].num_unit = s_unit;
			lb[nlab++].num = s->tid;
		}
		if (!(nol & RP_PPROF_LABEL_COMM)) {
			lb[nlab].key = s_comm;
			lb[nlab++].str = s->comm;
		}
		if (s->cpu >= 0) {
			lb[nlab].key = s_cpu;
			lb[nlab].num_unit = s_unit;
			lb[nlab++].num = s->cpu;
		}
		for (size_t k = 0; k < nlab; k++)
			lbp[k] = &lb[k];
		perftools__profiles__sample__init(&sp[i]);
		sp[i].n_location_id = s->nr_locs;
		sp[i].location_id = s->locs;
		sp[i].n_value = nvt;
		sp[i].value = vals;
		sp[i].n_label = nlab;
		sp[i].label = lbp;
		spp[i] = &sp[i];
	}
	prof.n_sample = ns;
	prof.sample = spp;

	prof.n_string_table = p->strings.nr;
	prof.string_table = (char **)p->strings.v;

	size_t size = perftools__profiles__profile__get_packed_size(&prof);
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		goto out;
	perftools__profiles__profile__pack(&prof, buf);
	ret = rp_pprof_gzip(buf, size, f);
	free(buf);
out:
	rp_arena_release(&a);
	return ret;
}

#else /* !RP_HAVE_PPROF */

int rp_pprof_new_ext(struct rp_pprof **out, const struct rp_session *session,
		     const struct rp_pprof_opts *opts)
{
	(void)session;
	(void)opts;
	if (out)
		*out = NULL;
	return RP_ERR_UNSUPPORTED;
}

int rp_pprof_new(struct rp_pprof **out, const struct rp_session *session)
{
	return rp_pprof_new_ext(out, session, NULL);
}

static int rp_pprof_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	(void)ctx;
	(void)ev;
	(void)res;
	return 0;
}

void rp_pprof_set_symbols(struct rp_pprof *pprof, struct rp_symbols *symbols)
{
	(void)pprof;
	(void)symbols;
}

struct rp_consumer rp_pprof_consumer(struct rp_pprof *pprof)
{
	struct rp_consumer c = { pprof, rp_pprof_event, 0 };
	return c;
}

int rp_pprof_merge(struct rp_pprof *into, const struct rp_pprof *from)
{
	(void)into;
	(void)from;
	return RP_ERR_UNSUPPORTED;
}

int rp_pprof_write(struct rp_pprof *pprof, FILE *f)
{
	(void)pprof;
	(void)f;
	return RP_ERR_UNSUPPORTED;
}

void rp_pprof_free(struct rp_pprof *pprof)
{
	(void)pprof;
}

#endif

/* --- the output (include/readperf/output.h) --- */

struct rp_pprof_output {
	struct rp_pprof *pprof;
	FILE *target;
};

static int rp_pprof_output_create(void **state, const struct rp_output_env *env,
				  const void *opts, const struct rp_output_target *target,
				  struct rp_error *err)
{
	struct rp_pprof_output *o = calloc(1, sizeof(*o));
	int ret;

	if (!o)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	ret = rp_pprof_new_ext(&o->pprof, env->session, opts);
	if (ret < 0) {
		free(o);
		if (ret == RP_ERR_UNSUPPORTED)
			return rp_error_set(err, ret,
					    "readperf was built without protobuf-c or zlib (apt-get "
					    "install libprotobuf-c-dev protobuf-c-compiler "
					    "zlib1g-dev, then rebuild)");
		if (ret == RP_ERR_INVAL)
			return rp_error_set(err, ret, "bad options");
		return rp_error_set(err, ret, "out of memory");
	}
	rp_pprof_set_symbols(o->pprof, env->symbols);
	o->target = target->stream;
	*state = o;
	return 0;
}

static struct rp_consumer rp_pprof_output_consumer(void *state)
{
	return rp_pprof_consumer(((struct rp_pprof_output *)state)->pprof);
}

static int rp_pprof_output_merge(void *state, void *from, struct rp_error *err)
{
	int ret = rp_pprof_merge(((struct rp_pprof_output *)state)->pprof,
				 ((struct rp_pprof_output *)from)->pprof);

	if (ret == RP_ERR_LIMIT)
		return rp_error_set(err, ret, "the merged profile exceeds a cap");
	return ret < 0 ? rp_error_set(err, ret, "%s", rp_strerror(ret)) : 0;
}

static int rp_pprof_output_finish(void *state, struct rp_error *err)
{
	struct rp_pprof_output *o = state;
	int ret = rp_pprof_write(o->pprof, o->target);

	if (ret == 0 && (fflush(o->target) != 0 || ferror(o->target)))
		ret = RP_ERR_IO;
	if (ret == RP_ERR_IO)
		return rp_error_set(err, ret, "cannot write the profile");
	if (ret == RP_ERR_LIMIT)
		return rp_error_set(err, ret, "the profile exceeds a cap");
	return ret < 0 ? rp_error_set(err, ret, "%s", rp_strerror(ret)) : 0;
}

static void rp_pprof_output_destroy(void *state)
{
	struct rp_pprof_output *o = state;

	if (!o)
		return;
	rp_pprof_free(o->pprof);
	free(o);
}

const struct rp_output_def rp_output_pprof = {
	.name = "pprof",
	.flags = RP_OUTPUT_SYMBOLS,
	.create = rp_pprof_output_create,
	.consumer = rp_pprof_output_consumer,
	.merge = rp_pprof_output_merge,
	.finish = rp_pprof_output_finish,
	.destroy = rp_pprof_output_destroy,
};
