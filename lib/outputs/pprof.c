/* SPDX-License-Identifier: MIT */
/*
 * The pprof profile (see include/readperf/pprof.h).  While records stream,
 * mappings, functions, locations and samples are interned into hash maps
 * whose entries live in an arena (no allocation per sample beyond the
 * arena's blocks; identical samples merged); rp_pprof_write() builds the
 * protobuf-c message from them, packs it and gzips it with zlib.
 */
#include <readperf/pprof.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>

#ifdef RP_HAVE_PPROF

#include <zlib.h>

#include "common/arena.h"
#include "common/hashmap.h"
#include "common/strpool.h"
#include "profile.pb-c.h"
#include "process_int.h"

/* Bytes of deflate output per write. */
#define RP_PPROF_ZCHUNK (256u << 10)

struct rp_pprof_mapping {
	struct rp_pprof_mapping *next; /* hash chain */
	const struct rp_map *map;
	uint64_t id;
};

struct rp_pprof_function {
	struct rp_pprof_function *next;
	const struct rp_dso *dso;
	const struct rp_symbol *sym; /* NULL: unresolved, keyed by addr */
	uint64_t addr;
	uint64_t id;
	int64_t name, filename; /* string table indices */
};

/* One line of a location: its function and source line (0: unknown). */
struct rp_pprof_line {
	uint64_t function_id;
	int64_t line;
};

struct rp_pprof_location {
	struct rp_pprof_location *next;
	const struct rp_map *map;
	uint64_t ip;
	const struct rp_symbol *sym; /* the first frame's (inlined ones differ) */
	uint64_t id, mapping_id;
	uint32_t nr_lines;
	struct rp_pprof_line *lines; /* innermost first, as pprof's Line list */
};

struct rp_pprof_sample {
	struct rp_pprof_sample *next;
	uint64_t hash;
	uint32_t evsel_idx;
	int32_t pid, tid, cpu; /* cpu -1: not recorded */
	int64_t comm;          /* string table index */
	uint32_t nr_locs;
	uint64_t *locs;        /* location ids, leaf first */
	int64_t count, period;
};

/* A growing array of pointers. */
struct rp_pprof_vec {
	void **v;
	size_t nr, alloc;
};

struct rp_pprof {
	const struct rp_session *session;
	size_t nr_evsels;
	struct rp_arena arena;
	struct rp_strpool pool;
	struct rp_hashmap str_idx; /* interned pointer -> index + 1 */
	struct rp_pprof_vec strings;
	struct rp_hashmap mappings, functions, locations, samples;
	struct rp_pprof_vec mapping_v, function_v, location_v, sample_v;
	uint64_t *scratch; /* location ids of the sample being added */
	size_t scratch_alloc;
	uint64_t first_time, last_time;
	int has_time;
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

void rp_pprof_free(struct rp_pprof *pprof)
{
	if (!pprof)
		return;
	rp_hashmap_release(&pprof->str_idx);
	rp_hashmap_release(&pprof->mappings);
	rp_hashmap_release(&pprof->functions);
	rp_hashmap_release(&pprof->locations);
	rp_hashmap_release(&pprof->samples);
	free(pprof->strings.v);
	free(pprof->mapping_v.v);
	free(pprof->function_v.v);
	free(pprof->location_v.v);
	free(pprof->sample_v.v);
	free(pprof->scratch);
	rp_strpool_release(&pprof->pool);
	rp_arena_release(&pprof->arena);
	free(pprof);
}

int rp_pprof_new(struct rp_pprof **out, const struct rp_session *session)
{
	struct rp_pprof *p;

	if (!out || !session)
		return RP_ERR_INVAL;
	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return RP_ERR_NOMEM;
	p->session = session;
	p->nr_evsels = rp_session_nr_evsels(session);
	/* index 0 must be the empty string */
	if (rp_pprof_str(p, "") != 0) {
		rp_pprof_free(p);
		return RP_ERR_NOMEM;
	}
	*out = p;
	return 0;
}

static int64_t rp_pprof_mapping(struct rp_pprof *p, const struct rp_map *map)
{
	uint64_t key = rp_hash64((uint64_t)(uintptr_t)map);
	struct rp_pprof_mapping *m = rp_hashmap_get(&p->mappings, key), *head = m;
	int ret;

	for (; m; m = m->next)
		if (m->map == map)
			return (int64_t)m->id;
	m = rp_arena_alloc(&p->arena, sizeof(*m));
	if (!m)
		return RP_ERR_NOMEM;
	m->map = map;
	m->next = head;
	if ((ret = rp_pprof_push(&p->mapping_v, m, RP_PPROF_MAX_MAPPINGS)) < 0)
		return ret;
	m->id = p->mapping_v.nr;
	if (rp_hashmap_put(&p->mappings, key, m) < 0)
		return RP_ERR_NOMEM;
	return (int64_t)m->id;
}

/*
 * The function of al's symbol whose source is `file` (NULL: unknown, then
 * the DSO's path names it, as before debug information was read).
 */
static int64_t rp_pprof_function(struct rp_pprof *p, const struct rp_addr_location *al,
				 const char *file)
{
	uint64_t addr = al->sym ? 0 : al->addr;
	const char *fname = file ? file : al->dso ? rp_dso_long_name(al->dso) : "";
	int64_t filename = rp_pprof_str(p, fname);
	uint64_t key = rp_hash64((uint64_t)(uintptr_t)al->dso ^
				 rp_hash64((uint64_t)(uintptr_t)al->sym ^ rp_hash64(addr)));
	struct rp_pprof_function *fn, *head;
	char buf[32];
	int ret;

	if (filename < 0)
		return filename;
	key = rp_hash64(key ^ (uint64_t)filename);
	fn = head = rp_hashmap_get(&p->functions, key);
	for (; fn; fn = fn->next)
		if (fn->dso == al->dso && fn->sym == al->sym && fn->addr == addr &&
		    fn->filename == filename)
			return (int64_t)fn->id;
	fn = rp_arena_alloc(&p->arena, sizeof(*fn));
	if (!fn)
		return RP_ERR_NOMEM;
	fn->dso = al->dso;
	fn->sym = al->sym;
	fn->addr = addr;
	fn->next = head;
	if (al->sym) {
		fn->name = rp_pprof_str(p, al->sym->name);
	} else {
		/* as perf report names an unresolved address */
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, al->map ? al->addr : al->ip);
		fn->name = rp_pprof_str(p, buf);
	}
	fn->filename = filename;
	if (fn->name < 0)
		return RP_ERR_NOMEM;
	if ((ret = rp_pprof_push(&p->function_v, fn, RP_PPROF_MAX_FUNCTIONS)) < 0)
		return ret;
	fn->id = p->function_v.nr;
	if (rp_hashmap_put(&p->functions, key, fn) < 0)
		return RP_ERR_NOMEM;
	return (int64_t)fn->id;
}

/*
 * The location of frames[0..nr): one address, the frames of its inline
 * chain innermost first (one frame when it has none).  Each frame is a
 * Line with its function and source line (from the chain, else from the
 * DSO's line table).
 */
static int64_t rp_pprof_location(struct rp_pprof *p, const struct rp_frame *frames, size_t nr)
{
	const struct rp_addr_location *al = &frames[0].al;
	uint64_t key = rp_hash64((uint64_t)(uintptr_t)al->map ^ rp_hash64(al->ip)) ^
		       (uint64_t)(uintptr_t)al->sym;
	struct rp_pprof_location *loc = rp_hashmap_get(&p->locations, key), *head = loc;
	int64_t mid = 0;
	int ret;

	for (; loc; loc = loc->next)
		if (loc->map == al->map && loc->ip == al->ip && loc->sym == al->sym &&
		    loc->nr_lines == nr)
			return (int64_t)loc->id;
	if (al->map && (mid = rp_pprof_mapping(p, al->map)) < 0)
		return mid;
	loc = rp_arena_alloc(&p->arena, sizeof(*loc));
	struct rp_pprof_line *lines = rp_arena_alloc(&p->arena, nr * sizeof(*lines));

	if (!loc || !lines)
		return RP_ERR_NOMEM;
	for (size_t i = 0; i < nr; i++) {
		const struct rp_frame *f = &frames[i];
		const char *file = f->src_file;
		uint32_t line = f->src_line;
		int64_t fid;

		if (!file && p->symbols && f->al.dso && f->al.map) {
			int found = rp_symbols_srcline(p->symbols, f->al.dso, f->al.addr, &file, &line);

			if (found < 0)
				return found;
			if (!found && f->al.sym)
				file = rp_symbols_source_file(p->symbols, f->al.dso, f->al.sym);
		}
		if ((fid = rp_pprof_function(p, &f->al, file)) < 0)
			return fid;
		lines[i] = (struct rp_pprof_line){ (uint64_t)fid, line };
	}
	loc->map = al->map;
	loc->ip = al->ip;
	loc->sym = al->sym;
	loc->mapping_id = (uint64_t)mid;
	loc->nr_lines = (uint32_t)nr;
	loc->lines = lines;
	loc->next = head;
	if ((ret = rp_pprof_push(&p->location_v, loc, RP_PPROF_MAX_LOCATIONS)) < 0)
		return ret;
	loc->id = p->location_v.nr;
	if (rp_hashmap_put(&p->locations, key, loc) < 0)
		return RP_ERR_NOMEM;
	return (int64_t)loc->id;
}


/* pprof values are int64: a sum of periods (u64 in the file) saturates at
 * INT64_MAX instead of overflowing. */
static int64_t rp_pprof_add_period(int64_t sum, uint64_t period)
{
	if (period > (uint64_t)INT64_MAX - (uint64_t)sum)
		return INT64_MAX;
	return sum + (int64_t)period;
}

static int rp_pprof_add(struct rp_pprof *p, const struct rp_event *ev,
			const struct rp_resolved *res)
{
	const struct rp_attr *attr = rp_evsel_attr(ev->evsel);
	size_t n = 0, want;
	int64_t id, comm;
	uint32_t evsel_idx = (uint32_t)rp_evsel_idx(ev->evsel);
	int32_t cpu = (ev->sid.present & RP_SAMPLE_CPU) ? (int32_t)ev->sid.cpu : -1;
	/* A call stack the pipeline has cached: its locations, thread (one
	 * stack_id is one thread) are those of the sample noted in its slot;
	 * the comm, event and cpu are checked. */
	struct rp_stack_slot *known = res->stack_id && res->nr_callchain &&
						      (attr->sample_type & RP_SAMPLE_CALLCHAIN) ?
					      res->stack_slot :
					      NULL;
	uint64_t tag = (uint64_t)(uintptr_t)res->comm;

	if (known && known->ptr && known->tag == tag) {
		struct rp_pprof_sample *k = known->ptr;

		if (k->evsel_idx == evsel_idx && k->cpu == cpu) {
			k->count++;
			k->period = rp_pprof_add_period(k->period, ev->u.sample.period);
			return 0;
		}
	}

	want = ((attr->sample_type & RP_SAMPLE_CALLCHAIN) && res->nr_callchain) ?
		       res->nr_callchain :
		       1;
	if (want > p->scratch_alloc) {
		uint64_t *s = realloc(p->scratch, want * sizeof(*s));

		if (!s)
			return RP_ERR_NOMEM;
		p->scratch = s;
		p->scratch_alloc = want;
	}
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
	if ((comm = rp_pprof_str(p, res->comm)) < 0)
		return (int)comm;

	int32_t pid = rp_thread_pid(res->thread), tid = rp_thread_tid(res->thread);
	uint64_t h = rp_hash64(((uint64_t)evsel_idx << 32) ^ (uint32_t)pid);
	h = rp_hash64(h ^ ((uint64_t)(uint32_t)tid << 32) ^ (uint32_t)cpu);
	h = rp_hash64(h ^ (uint64_t)comm);
	h ^= rp_hash_bytes(p->scratch, n * sizeof(uint64_t));

	struct rp_pprof_sample *s = rp_hashmap_get(&p->samples, h), *head = s;
	for (; s; s = s->next) {
		if (s->hash == h && s->evsel_idx == evsel_idx && s->pid == pid && s->tid == tid &&
		    s->cpu == cpu && s->comm == comm && s->nr_locs == n &&
		    !memcmp(s->locs, p->scratch, n * sizeof(uint64_t))) {
			s->count++;
			s->period = rp_pprof_add_period(s->period, ev->u.sample.period);
			if (known) {
				known->ptr = s;
				known->tag = tag;
			}
			return 0;
		}
	}
	s = rp_arena_alloc(&p->arena, sizeof(*s));
	if (!s || !(s->locs = rp_arena_alloc(&p->arena, n * sizeof(uint64_t))))
		return RP_ERR_NOMEM;
	memcpy(s->locs, p->scratch, n * sizeof(uint64_t));
	s->next = head;
	s->hash = h;
	s->evsel_idx = evsel_idx;
	s->pid = pid;
	s->tid = tid;
	s->cpu = cpu;
	s->comm = comm;
	s->nr_locs = (uint32_t)n;
	s->count = 1;
	s->period = rp_pprof_add_period(0, ev->u.sample.period);
	int ret = rp_pprof_push(&p->sample_v, s, RP_PPROF_MAX_SAMPLES);
	if (ret < 0)
		return ret;
	if (rp_hashmap_put(&p->samples, h, s) < 0)
		return RP_ERR_NOMEM;
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

int rp_pprof_write(struct rp_pprof *p, FILE *f)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct rp_arena a = RP_ARENA_INIT; /* the message's parts */
	size_t nvt = 1 + p->nr_evsels;
	int ret = RP_ERR_NOMEM;

	if (p->error)
		return p->error;

	/* strings the header needs, before the table is copied */
	int64_t s_samples = rp_pprof_str(p, "samples"), s_count = rp_pprof_str(p, "count");
	int64_t s_pid = rp_pprof_str(p, "pid"), s_tid = rp_pprof_str(p, "tid");
	int64_t s_comm = rp_pprof_str(p, "comm"), s_cpu = rp_pprof_str(p, "cpu");
	int64_t *ev_name = rp_arena_alloc(&a, p->nr_evsels * sizeof(int64_t));
	int64_t *ev_unit = rp_arena_alloc(&a, p->nr_evsels * sizeof(int64_t));
	if (s_samples < 0 || s_count < 0 || s_pid < 0 || s_tid < 0 || s_comm < 0 || s_cpu < 0 ||
	    (p->nr_evsels && (!ev_name || !ev_unit)))
		goto out;
	for (size_t i = 0; i < p->nr_evsels; i++) {
		const struct rp_evsel *e = rp_session_evsel(p->session, i);

		ev_name[i] = rp_pprof_str(p, rp_evsel_name(e));
		ev_unit[i] = rp_pprof_str(p, rp_pprof_unit(rp_evsel_attr(e)));
		if (ev_name[i] < 0 || ev_unit[i] < 0)
			goto out;
	}
	/* build-ids as hex strings */
	int64_t *map_bid = rp_arena_alloc(&a, p->mapping_v.nr * sizeof(int64_t) + 1);
	if (!map_bid)
		goto out;
	for (size_t i = 0; i < p->mapping_v.nr; i++) {
		const struct rp_pprof_mapping *m = p->mapping_v.v[i];
		const uint8_t *bid;
		size_t bsize = rp_dso_build_id(rp_map_dso(m->map), &bid);
		char hex[2 * 20 + 1];

		if (bsize > 20)
			bsize = 20;
		for (size_t k = 0; k < bsize; k++)
			snprintf(hex + 2 * k, 3, "%02x", bid[k]);
		hex[2 * bsize] = 0;
		if ((map_bid[i] = rp_pprof_str(p, hex)) < 0)
			goto out;
	}

	Perftools__Profiles__ValueType *vt = rp_arena_alloc(&a, nvt * sizeof(*vt));
	Perftools__Profiles__ValueType **vtp = rp_arena_alloc(&a, nvt * sizeof(*vtp));
	if (!vt || !vtp)
		goto out;
	for (size_t i = 0; i < nvt; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = i ? ev_name[i - 1] : s_samples;
		vt[i].unit = i ? ev_unit[i - 1] : s_count;
		vtp[i] = &vt[i];
	}
	prof.n_sample_type = nvt;
	prof.sample_type = vtp;
	if (p->nr_evsels) {
		const struct rp_attr *a0 = rp_evsel_attr(rp_session_evsel(p->session, 0));

		prof.period_type = &vt[1];
		prof.default_sample_type = ev_name[0];
		if (!(a0->flags & RP_ATTR_FREQ))
			prof.period = (int64_t)a0->sample_period;
	}
	if (p->has_time)
		prof.duration_nanos = (int64_t)(p->last_time - p->first_time);

	/* mappings */
	size_t nm = p->mapping_v.nr;
	Perftools__Profiles__Mapping *mp = rp_arena_alloc(&a, nm * sizeof(*mp) + 1);
	Perftools__Profiles__Mapping **mpp = rp_arena_alloc(&a, nm * sizeof(*mpp) + 1);
	if (!mp || !mpp)
		goto out;
	for (size_t i = 0; i < nm; i++) {
		const struct rp_pprof_mapping *m = p->mapping_v.v[i];
		const struct rp_dso *dso = rp_map_dso(m->map);
		int64_t fname = rp_pprof_str(p, dso ? rp_dso_long_name(dso) : "");

		if (fname < 0)
			goto out;
		perftools__profiles__mapping__init(&mp[i]);
		mp[i].id = m->id;
		mp[i].memory_start = rp_map_start(m->map);
		mp[i].memory_limit = rp_map_end(m->map);
		mp[i].file_offset = rp_map_pgoff(m->map);
		mp[i].filename = fname;
		mp[i].build_id = map_bid[i];
		mp[i].has_functions = 1;
		mpp[i] = &mp[i];
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
		lp[i].mapping_id = loc->mapping_id;
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
		vals[0] = s->count;
		if (1 + (size_t)s->evsel_idx < nvt)
			vals[1 + s->evsel_idx] = s->period;
		for (int k = 0; k < 4; k++)
			perftools__profiles__label__init(&lb[k]);
		lb[nlab].key = s_pid;
		lb[nlab++].num = s->pid;
		lb[nlab].key = s_tid;
		lb[nlab++].num = s->tid;
		lb[nlab].key = s_comm;
		lb[nlab++].str = s->comm;
		if (s->cpu >= 0) {
			lb[nlab].key = s_cpu;
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

int rp_pprof_new(struct rp_pprof **out, const struct rp_session *session)
{
	(void)session;
	if (out)
		*out = NULL;
	return RP_ERR_UNSUPPORTED;
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
	if (pprof)
		pprof->symbols = symbols;
}

struct rp_consumer rp_pprof_consumer(struct rp_pprof *pprof)
{
	struct rp_consumer c = { pprof, rp_pprof_event, 0 };
	return c;
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
