/* SPDX-License-Identifier: MIT */
/*
 * Header feature sections, each decoded as perf's util/header.c process_*
 * reads it, with every read bounds-checked by the cursor and every count
 * capped.  See include/readperf/features.h and docs/features.md.
 */
#include <stdlib.h>
#include <string.h>

#include <readperf/features.h>

#include "common/arena.h"
#include "common/cursor.h"
#include "common/error_int.h"
#include "format/features_int.h"
#include "format/session_int.h"

#define RP_FEAT_STRING_ALIGN 64u      /* perf pads header strings to 64 */
#define RP_FEAT_BUILD_ID_HDR 36u      /* header, pid, 24 bytes of build-id */
#define RP_FEAT_BUILD_ID_SIZE_MISC (1u << 15)
#define RP_FEAT_BPF_INFO_MAX 256u     /* bytes of bpf_prog_info perf 6.1 knows */
#define RP_FEAT_PERF_ATTR_SIZE 128u   /* sizeof(perf_event_attr) in perf 6.1 */
#define RP_FEAT_SAMPLE_MAX (1ull << 25)  /* PERF_SAMPLE_MAX, perf 6.1 */
#define RP_FEAT_FORMAT_MAX (1ull << 5)   /* PERF_FORMAT_MAX */
#define RP_FEAT_BRANCH_MAX (1ull << 19)  /* PERF_SAMPLE_BRANCH_MAX */
#define RP_FEAT_ATTR_RESERVED1 (~0ull << 38) /* flag bits after sigtrap */
#define RP_FEAT_SAMPLE_BRANCH_STACK (1ull << 11)

struct rp_features_owner {
	struct rp_features pub;
	struct rp_arena arena;
};

static struct rp_arena *rp_feat_arena(struct rp_features *f)
{
	return &((struct rp_features_owner *)f)->arena;
}

int rp_features_new(struct rp_features **out)
{
	struct rp_features_owner *o = calloc(1, sizeof(*o));

	if (!o)
		return RP_ERR_NOMEM;
	*out = &o->pub;
	return 0;
}

void rp_features_free(struct rp_features *f)
{
	if (!f)
		return;
	rp_arena_release(rp_feat_arena(f));
	free(f);
}

/* A decoding pass over one section. */
struct rp_fdec {
	struct rp_cursor c;
	struct rp_features *f;
	struct rp_arena *arena;
	size_t size; /* bytes of the section */
	int err;     /* first failure, 0 while all is well */
};

static int rp_fd_fail(struct rp_fdec *d, int code)
{
	if (!d->err)
		d->err = code;
	return -1;
}

static int rp_fd_u32(struct rp_fdec *d, uint32_t *v)
{
	if (rp_cur_u32(&d->c, v) < 0)
		return rp_fd_fail(d, RP_ERR_TRUNCATED);
	return 0;
}

static int rp_fd_u64(struct rp_fdec *d, uint64_t *v)
{
	if (rp_cur_u64(&d->c, v) < 0)
		return rp_fd_fail(d, RP_ERR_TRUNCATED);
	return 0;
}

/* A count checked against its cap and against what is left, each entry
 * taking at least min_entry bytes. */
static int rp_fd_count(struct rp_fdec *d, uint64_t nr, uint64_t cap, uint64_t min_entry)
{
	if (nr > cap)
		return rp_fd_fail(d, RP_ERR_LIMIT);
	if (min_entry && nr > rp_cur_left(&d->c) / min_entry)
		return rp_fd_fail(d, RP_ERR_TRUNCATED);
	return 0;
}

static void *rp_fd_alloc(struct rp_fdec *d, uint64_t nr, size_t elem)
{
	void *p = rp_arena_alloc(d->arena, (size_t)nr * elem);

	if (!p) {
		rp_fd_fail(d, RP_ERR_NOMEM);
		return NULL;
	}
	memset(p, 0, (size_t)nr * elem);
	return p;
}

/*
 * A perf_header_string: u32 len, then len bytes that must hold a NUL.
 * *consumed (may be NULL) gets what perf counts for it in CPU_TOPOLOGY:
 * 4 + strlen + 1 rounded up to 64.
 */
static const char *rp_fd_string(struct rp_fdec *d, uint64_t *consumed)
{
	uint32_t len;
	const char *s;

	if (rp_fd_u32(d, &len) < 0)
		return NULL;
	if (!rp_cur_need(&d->c, len)) {
		rp_fd_fail(d, RP_ERR_TRUNCATED);
		return NULL;
	}
	s = rp_cur_str(&d->c, len);
	if (!s) {
		rp_fd_fail(d, RP_ERR_CORRUPT);
		return NULL;
	}
	size_t n = strlen(s);
	if (consumed)
		*consumed += 4 + ((n + 1 + RP_FEAT_STRING_ALIGN - 1) / RP_FEAT_STRING_ALIGN) *
					 RP_FEAT_STRING_ALIGN;
	char *copy = rp_arena_strndup(d->arena, s, n);
	if (!copy)
		rp_fd_fail(d, RP_ERR_NOMEM);
	return copy;
}

/* u32 nr, then nr strings. */
static const char *const *rp_fd_strings(struct rp_fdec *d, uint32_t *nr_out, uint64_t *consumed)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 4) < 0)
		return NULL;
	if (consumed)
		*consumed += 4;
	const char **v = rp_fd_alloc(d, (uint64_t)nr + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < nr; i++)
		if (!(v[i] = rp_fd_string(d, consumed)))
			return NULL;
	*nr_out = nr;
	return v;
}

static int rp_dec_tracing_data(struct rp_fdec *d)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	/* The section is libtraceevent's; perf fails it without this start. */
	if (!rp_cur_need(&d->c, sizeof(magic)))
		return rp_fd_fail(d, RP_ERR_TRUNCATED);
	if (memcmp(d->c.p, magic, sizeof(magic)))
		return rp_fd_fail(d, RP_ERR_CORRUPT);
	d->f->tracing_data = d->c.p;
	d->f->tracing_data_size = d->size;
	return 0;
}

/* The entries before a damaged one are kept (the session's machine
 * takes their build-ids, as perf's reader adds each entry it reads). */
static int rp_dec_build_id(struct rp_fdec *d)
{
	struct rp_features *f = d->f;
	size_t nr = 0, whole = 0;
	int err = 0;

	/* Two passes: count the whole entries, then fill them. */
	for (int pass = 0; pass < 2; pass++) {
		struct rp_cursor it = d->c;
		struct rp_build_id_entry *ents = (struct rp_build_id_entry *)f->build_ids;

		for (nr = 0; rp_cur_need(&it, 8) && (pass == 0 || nr < whole); nr++) {
			const uint8_t *rec = it.p;
			uint16_t misc = rp_load16(rec + 4, it.swap);
			uint16_t size = rp_load16(rec + 6, it.swap);

			if (size < RP_FEAT_BUILD_ID_HDR + 1 || !rp_cur_need(&it, size)) {
				err = RP_ERR_TRUNCATED;
				break;
			}
			if (nr >= RP_MAX_BUILD_IDS) {
				err = RP_ERR_LIMIT;
				break;
			}
			const char *name = (const char *)rec + RP_FEAT_BUILD_ID_HDR;
			if (!memchr(name, 0, size - RP_FEAT_BUILD_ID_HDR)) {
				err = RP_ERR_CORRUPT;
				break;
			}
			if (pass == 1) {
				struct rp_build_id_entry *e = &ents[nr];

				e->pid = rp_load32(rec + 8, it.swap);
				e->misc = misc;
				e->size = 20;
				if ((misc & RP_FEAT_BUILD_ID_SIZE_MISC) && rec[32] > 0 && rec[32] <= 20)
					e->size = rec[32];
				memcpy(e->build_id, rec + 12, 20);
				e->filename = rp_arena_strdup(d->arena, name);
				if (!e->filename)
					return rp_fd_fail(d, RP_ERR_NOMEM);
			}
			it.p += size;
		}
		whole = nr;
		if (pass == 0 && !(f->build_ids = rp_fd_alloc(d, nr, sizeof(*f->build_ids))))
			return -1;
	}
	f->nr_build_ids = nr;
	return err ? rp_fd_fail(d, err) : 0;
}

static int rp_dec_string(struct rp_fdec *d, const char **out)
{
	const char *s = rp_fd_string(d, NULL);

	if (!s)
		return -1;
	*out = s;
	return 0;
}

static int rp_dec_nrcpus(struct rp_fdec *d)
{
	uint32_t avail, online;

	if (rp_fd_u32(d, &avail) < 0 || rp_fd_u32(d, &online) < 0)
		return -1;
	d->f->nr_cpus_avail = avail;
	d->f->nr_cpus_online = online;
	return 0;
}

static int rp_dec_cmdline(struct rp_fdec *d)
{
	uint32_t nr = 0;
	const char *const *v = rp_fd_strings(d, &nr, NULL);

	if (!v)
		return -1;
	d->f->nr_cmdline = nr;
	d->f->cmdline = v;
	return 0;
}

/* perf's perf_attr_check() for perf 6.1: reserved or unknown bits make it
 * refuse the whole EVENT_DESC. */
static int rp_attr_known(const struct rp_event_desc *e)
{
	const struct rp_attr *a = &e->attr;

	if ((a->flags & RP_FEAT_ATTR_RESERVED1) || e->reserved_2 || a->aux_action)
		return 0;
	if (a->sample_type & ~(RP_FEAT_SAMPLE_MAX - 1))
		return 0;
	if (a->read_format & ~(RP_FEAT_FORMAT_MAX - 1))
		return 0;
	if ((a->sample_type & RP_FEAT_SAMPLE_BRANCH_STACK) &&
	    (a->branch_sample_type & ~(RP_FEAT_BRANCH_MAX - 1)))
		return 0;
	return 1;
}

/*
 * The entries before a damaged one are kept (the session names its
 * evsels from them), and so are those with attr bits perf 6.1 does not
 * know; event_desc_ok says whether perf would read the section.
 */
static int rp_dec_event_desc(struct rp_fdec *d)
{
	struct rp_features *f = d->f;
	uint32_t nr, sz;
	int unknown = 0;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_u32(d, &sz) < 0)
		return -1;
	if (nr > RP_FEAT_MAX_ENTRIES)
		return rp_fd_fail(d, RP_ERR_LIMIT);
	/* Room only for the entries the section can hold. */
	uint64_t fit = rp_cur_left(&d->c) / ((uint64_t)sz + 8);
	uint32_t n = nr < fit ? nr : (uint32_t)fit;
	struct rp_event_desc *ev = rp_fd_alloc(d, n, sizeof(*ev));
	if (!ev)
		return -1;
	f->events = ev;
	for (uint32_t i = 0; i < n; i++) {
		struct rp_event_desc *e = &ev[i];
		uint8_t buf[RP_ATTR_SIZE_MAX] = { 0 };
		size_t take = sz < RP_FEAT_PERF_ATTR_SIZE ? sz : RP_FEAT_PERF_ATTR_SIZE;

		if (!rp_cur_need(&d->c, sz))
			return rp_fd_fail(d, RP_ERR_TRUNCATED);
		memcpy(buf, d->c.p, take);
		rp_attr_decode(&e->attr, buf, take, d->c.swap);
		if (take >= 112)
			e->reserved_2 = rp_load16(buf + 110, d->c.swap);
		d->c.p += sz;
		unknown |= !rp_attr_known(e);
		if (rp_fd_u32(d, &e->nr_ids) < 0 || !(e->name = rp_fd_string(d, NULL)))
			return -1;
		if (rp_fd_count(d, e->nr_ids, RP_FEAT_MAX_IDS, 8) < 0)
			return -1;
		uint64_t *ids = rp_fd_alloc(d, e->nr_ids, sizeof(*ids));
		if (!ids)
			return -1;
		for (uint32_t j = 0; j < e->nr_ids; j++)
			ids[j] = rp_cur_get64(&d->c);
		e->ids = ids;
		f->nr_events = i + 1;
	}
	if (n < nr)
		return rp_fd_fail(d, RP_ERR_TRUNCATED);
	if (unknown)
		return rp_fd_fail(d, RP_ERR_CORRUPT);
	f->event_desc_ok = 1;
	return 0;
}

/*
 * CPU_TOPOLOGY in its three revisions: the sibling lists; then core and
 * socket ids for nr_cpus_avail cpus when the section is longer than the
 * lists (perf measures the lists with 64-byte string padding); then the
 * die lists and die ids when it is longer still.
 */
static int rp_dec_cpu_topology(struct rp_fdec *d)
{
	struct rp_features *f = d->f;
	uint64_t used = 0;
	uint32_t cpu_nr = f->nr_cpus_avail;

	if (!(f->sibling_cores = rp_fd_strings(d, &f->nr_sibling_cores, &used)) ||
	    !(f->sibling_threads = rp_fd_strings(d, &f->nr_sibling_threads, &used)))
		return -1;
	if (d->size <= used)
		return 0;
	if (rp_fd_count(d, cpu_nr, RP_FEAT_MAX_ENTRIES, 8) < 0)
		return -1;
	struct rp_cpu_ids *cpus = rp_fd_alloc(d, (uint64_t)cpu_nr + 1, sizeof(*cpus));
	if (!cpus)
		return -1;
	for (uint32_t i = 0; i < cpu_nr; i++) {
		cpus[i].core_id = rp_cur_get32(&d->c);
		cpus[i].socket_id = rp_cur_get32(&d->c);
		used += 8;
	}
	f->topo_cpus = cpus;
	f->nr_topo_cpus = cpu_nr;
	if (d->size <= used)
		return 0;
	if (!(f->sibling_dies = rp_fd_strings(d, &f->nr_sibling_dies, &used)))
		return -1;
	if (rp_fd_count(d, cpu_nr, RP_FEAT_MAX_ENTRIES, 4) < 0)
		return -1;
	for (uint32_t i = 0; i < cpu_nr; i++)
		cpus[i].die_id = rp_cur_get32(&d->c);
	f->topo_has_dies = 1;
	return 0;
}

static int rp_dec_numa_topology(struct rp_fdec *d)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 24) < 0)
		return -1;
	struct rp_numa_node *n = rp_fd_alloc(d, nr, sizeof(*n));
	if (!n)
		return -1;
	for (uint32_t i = 0; i < nr; i++)
		if (rp_fd_u32(d, &n[i].node) < 0 || rp_fd_u64(d, &n[i].mem_total) < 0 ||
		    rp_fd_u64(d, &n[i].mem_free) < 0 || !(n[i].cpus = rp_fd_string(d, NULL)))
			return -1;
	d->f->nr_numa_nodes = nr;
	d->f->numa_nodes = n;
	return 0;
}

static int rp_dec_pmu_mappings(struct rp_fdec *d)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 8) < 0)
		return -1;
	struct rp_pmu_mapping *m = rp_fd_alloc(d, nr, sizeof(*m));
	if (!m)
		return -1;
	for (uint32_t i = 0; i < nr; i++)
		if (rp_fd_u32(d, &m[i].type) < 0 || !(m[i].name = rp_fd_string(d, NULL)))
			return -1;
	d->f->nr_pmu_mappings = nr;
	d->f->pmu_mappings = m;
	return 0;
}

static int rp_dec_group_desc(struct rp_fdec *d)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 12) < 0)
		return -1;
	struct rp_group_desc *g = rp_fd_alloc(d, nr, sizeof(*g));
	if (!g)
		return -1;
	for (uint32_t i = 0; i < nr; i++)
		if (!(g[i].name = rp_fd_string(d, NULL)) || rp_fd_u32(d, &g[i].leader_idx) < 0 ||
		    rp_fd_u32(d, &g[i].nr_members) < 0)
			return -1;
	d->f->nr_groups = nr;
	d->f->groups = g;
	return 0;
}

static int rp_dec_auxtrace(struct rp_fdec *d)
{
	uint64_t nr;

	if (rp_fd_u64(d, &nr) < 0 || rp_fd_count(d, nr, RP_MAX_BUILD_IDS, 16) < 0)
		return -1;
	struct rp_auxtrace_index *x = rp_fd_alloc(d, nr, sizeof(*x));
	if (!x)
		return -1;
	for (uint64_t i = 0; i < nr; i++) {
		x[i].file_offset = rp_cur_get64(&d->c);
		x[i].size = rp_cur_get64(&d->c);
	}
	d->f->nr_auxtrace_index = nr;
	d->f->auxtrace_index = x;
	return 0;
}

static int rp_dec_cache(struct rp_fdec *d)
{
	struct rp_features *f = d->f;
	uint32_t version, nr;

	if (rp_fd_u32(d, &version) < 0)
		return -1;
	if (version != 1)
		return rp_fd_fail(d, RP_ERR_CORRUPT);
	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 28) < 0)
		return -1;
	struct rp_cache_level *c = rp_fd_alloc(d, nr, sizeof(*c));
	if (!c)
		return -1;
	for (uint32_t i = 0; i < nr; i++)
		if (rp_fd_u32(d, &c[i].level) < 0 || rp_fd_u32(d, &c[i].line_size) < 0 ||
		    rp_fd_u32(d, &c[i].sets) < 0 || rp_fd_u32(d, &c[i].ways) < 0 ||
		    !(c[i].type = rp_fd_string(d, NULL)) || !(c[i].size = rp_fd_string(d, NULL)) ||
		    !(c[i].map = rp_fd_string(d, NULL)))
			return -1;
	f->cache_version = version;
	f->nr_caches = nr;
	f->caches = c;
	return 0;
}

static int rp_dec_sample_time(struct rp_fdec *d)
{
	uint64_t first, last;

	if (rp_fd_u64(d, &first) < 0 || rp_fd_u64(d, &last) < 0)
		return -1;
	d->f->first_sample_time = first;
	d->f->last_sample_time = last;
	return 0;
}

static int rp_dec_mem_topology(struct rp_fdec *d)
{
	struct rp_features *f = d->f;
	uint64_t version, bsize, nr;

	if (rp_fd_u64(d, &version) < 0)
		return -1;
	if (version != 1)
		return rp_fd_fail(d, RP_ERR_CORRUPT);
	if (rp_fd_u64(d, &bsize) < 0 || rp_fd_u64(d, &nr) < 0 ||
	    rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 24) < 0)
		return -1;
	struct rp_mem_node *n = rp_fd_alloc(d, nr, sizeof(*n));
	if (!n)
		return -1;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t bits;

		if (rp_fd_u64(d, &n[i].node) < 0 || rp_fd_u64(d, &n[i].size) < 0 ||
		    rp_fd_u64(d, &bits) < 0)
			return -1;
		if (bits > RP_FEAT_MAX_BITMAP_BITS)
			return rp_fd_fail(d, RP_ERR_LIMIT);
		uint64_t words = (bits + 63) / 64;
		if (rp_fd_count(d, words, RP_FEAT_MAX_BITMAP_BITS, 8) < 0)
			return -1;
		uint64_t *w = rp_fd_alloc(d, words, sizeof(*w));
		if (!w)
			return -1;
		for (uint64_t j = 0; j < words; j++)
			w[j] = rp_cur_get64(&d->c);
		n[i].nr_bits = bits;
		n[i].bits = w;
	}
	f->mem_version = version;
	f->mem_block_size = bsize;
	f->nr_mem_nodes = nr;
	f->mem_nodes = n;
	return 0;
}

static const uint8_t *rp_fd_blob(struct rp_fdec *d, uint64_t len)
{
	const void *p;

	if (len > RP_FEAT_MAX_BLOB) {
		rp_fd_fail(d, RP_ERR_LIMIT);
		return NULL;
	}
	if (rp_cur_bytes(&d->c, len, &p) < 0) {
		rp_fd_fail(d, RP_ERR_TRUNCATED);
		return NULL;
	}
	return p;
}

/* bpf_prog_info fields perf prints, by offset (linux/bpf.h). */
static void rp_bpf_prog_fields(struct rp_bpf_prog *b, int swap)
{
	uint8_t info[RP_FEAT_BPF_INFO_MAX] = { 0 };

	memcpy(info, b->info, b->info_len < sizeof(info) ? b->info_len : sizeof(info));
	b->type = rp_load32(info + 0, swap);
	b->id = rp_load32(info + 4, swap);
	memcpy(b->tag, info + 8, 8);
	memcpy(b->name, info + 64, 16);
	b->name[16] = 0;
	b->nr_jited_ksyms = rp_load32(info + 104, swap);
	b->nr_jited_func_lens = rp_load32(info + 108, swap);
	b->jited_ksyms = rp_load64(info + 112, swap);
	b->jited_func_lens = rp_load64(info + 120, swap);
	b->btf_id = rp_load32(info + 128, swap);
	b->func_info_rec_size = rp_load32(info + 132, swap);
	b->func_info = rp_load64(info + 136, swap);
	b->nr_func_info = rp_load32(info + 144, swap);
	b->nr_prog_tags = rp_load32(info + 180, swap);
	b->prog_tags = rp_load64(info + 184, swap);
}

static int rp_dec_bpf_prog_info(struct rp_fdec *d)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 16) < 0)
		return -1;
	struct rp_bpf_prog *b = rp_fd_alloc(d, nr, sizeof(*b));
	if (!b)
		return -1;
	for (uint32_t i = 0; i < nr; i++) {
		if (rp_fd_u32(d, &b[i].info_len) < 0 || rp_fd_u32(d, &b[i].data_len) < 0)
			return -1;
		if (b[i].info_len > RP_FEAT_BPF_INFO_MAX)
			return rp_fd_fail(d, RP_ERR_CORRUPT);
		if (rp_fd_u64(d, &b[i].arrays) < 0 || !(b[i].info = rp_fd_blob(d, b[i].info_len)) ||
		    !(b[i].data = rp_fd_blob(d, b[i].data_len)))
			return -1;
		rp_bpf_prog_fields(&b[i], d->c.swap);
	}
	d->f->nr_bpf_progs = nr;
	d->f->bpf_progs = b;
	return 0;
}

static int rp_dec_bpf_btf(struct rp_fdec *d)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 8) < 0)
		return -1;
	struct rp_bpf_btf *b = rp_fd_alloc(d, nr, sizeof(*b));
	if (!b)
		return -1;
	for (uint32_t i = 0; i < nr; i++)
		if (rp_fd_u32(d, &b[i].id) < 0 || rp_fd_u32(d, &b[i].data_size) < 0 ||
		    !(b[i].data = rp_fd_blob(d, b[i].data_size)))
			return -1;
	d->f->nr_bpf_btfs = nr;
	d->f->bpf_btfs = b;
	return 0;
}

static int rp_dec_compressed(struct rp_fdec *d)
{
	struct rp_features *f = d->f;

	return rp_fd_u32(d, &f->comp_ver) < 0 || rp_fd_u32(d, &f->comp_type) < 0 ||
	       rp_fd_u32(d, &f->comp_level) < 0 || rp_fd_u32(d, &f->comp_ratio) < 0 ||
	       rp_fd_u32(d, &f->comp_mmap_len) < 0 ? -1 : 0;
}

/* u32 nr, then nr (name, value) string pairs, kept as "name=value". */
static int rp_fd_pmu_caps(struct rp_fdec *d, struct rp_pmu_caps *pc)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 8) < 0)
		return -1;
	const char **caps = rp_fd_alloc(d, (uint64_t)nr + 1, sizeof(*caps));
	if (!caps)
		return -1;
	for (uint32_t i = 0; i < nr; i++) {
		const char *name = rp_fd_string(d, NULL), *value;

		if (!name || !(value = rp_fd_string(d, NULL)))
			return -1;
		size_t ln = strlen(name), lv = strlen(value);
		char *s = rp_arena_alloc(d->arena, ln + lv + 2);
		if (!s)
			return rp_fd_fail(d, RP_ERR_NOMEM);
		memcpy(s, name, ln);
		s[ln] = '=';
		memcpy(s + ln + 1, value, lv + 1);
		caps[i] = s;
	}
	pc->nr_caps = nr;
	pc->caps = caps;
	return 0;
}

static int rp_dec_cpu_pmu_caps(struct rp_fdec *d)
{
	d->f->cpu_pmu_caps.pmu_name = "cpu";
	return rp_fd_pmu_caps(d, &d->f->cpu_pmu_caps);
}

static int rp_dec_clock_data(struct rp_fdec *d)
{
	struct rp_features *f = d->f;
	uint32_t version;

	if (rp_fd_u32(d, &version) < 0)
		return -1;
	if (version != 1)
		return rp_fd_fail(d, RP_ERR_CORRUPT);
	if (rp_fd_u32(d, &f->clock_clockid) < 0 || rp_fd_u64(d, &f->clock_tod_ns) < 0 ||
	    rp_fd_u64(d, &f->clock_ns) < 0)
		return -1;
	f->clock_version = version;
	return 0;
}

static int rp_dec_hybrid_topology(struct rp_fdec *d)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 8) < 0)
		return -1;
	struct rp_hybrid_node *n = rp_fd_alloc(d, nr, sizeof(*n));
	if (!n)
		return -1;
	for (uint32_t i = 0; i < nr; i++)
		if (!(n[i].pmu_name = rp_fd_string(d, NULL)) || !(n[i].cpus = rp_fd_string(d, NULL)))
			return -1;
	d->f->nr_hybrid_nodes = nr;
	d->f->hybrid_nodes = n;
	return 0;
}

static int rp_dec_pmu_caps(struct rp_fdec *d)
{
	uint32_t nr;

	if (rp_fd_u32(d, &nr) < 0 || rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 8) < 0)
		return -1;
	struct rp_pmu_caps *p = rp_fd_alloc(d, nr, sizeof(*p));
	if (!p)
		return -1;
	for (uint32_t i = 0; i < nr; i++)
		if (rp_fd_pmu_caps(d, &p[i]) < 0 || !(p[i].pmu_name = rp_fd_string(d, NULL)))
			return -1;
	d->f->nr_pmu_caps = nr;
	d->f->pmu_caps = p;
	return 0;
}

/* CPU_DOMAIN_INFO: version, max domains, then per online cpu its id and
 * domains (a name from schedstat version 17 on, the mask, the list). */
static int rp_dec_cpu_domain_info(struct rp_fdec *d)
{
	struct rp_features *f = d->f;
	uint32_t version, max_domains, nr = f->nr_cpus_online;

	if (rp_fd_u32(d, &version) < 0 || rp_fd_u32(d, &max_domains) < 0)
		return -1;
	if (rp_fd_count(d, nr, RP_FEAT_MAX_ENTRIES, 8) < 0 ||
	    rp_fd_count(d, max_domains, RP_FEAT_MAX_ENTRIES, 0) < 0)
		return -1;
	struct rp_cpu_domains *cd = rp_fd_alloc(d, nr, sizeof(*cd));
	if (!cd)
		return -1;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t nd;

		if (rp_fd_u32(d, &cd[i].cpu) < 0 || rp_fd_u32(d, &nd) < 0)
			return -1;
		if (nd > max_domains)
			return rp_fd_fail(d, RP_ERR_CORRUPT);
		if (rp_fd_count(d, nd, RP_FEAT_MAX_ENTRIES, 12) < 0)
			return -1;
		struct rp_sched_domain *dom = rp_fd_alloc(d, nd, sizeof(*dom));
		if (!dom)
			return -1;
		for (uint32_t j = 0; j < nd; j++) {
			if (rp_fd_u32(d, &dom[j].domain) < 0)
				return -1;
			if (version >= 17 && !(dom[j].name = rp_fd_string(d, NULL)))
				return -1;
			if (!(dom[j].cpumask = rp_fd_string(d, NULL)) ||
			    !(dom[j].cpulist = rp_fd_string(d, NULL)))
				return -1;
		}
		cd[i].nr_domains = nd;
		cd[i].domains = dom;
	}
	f->schedstat_version = version;
	f->max_sched_domains = max_domains;
	f->nr_cpu_domains = nr;
	f->cpu_domains = cd;
	return 0;
}

int rp_features_decode(struct rp_features *f, unsigned feat, const void *data, size_t size,
		       int swap)
{
	if (!f)
		return RP_ERR_INVAL;
	return rp_features_decode_in(f, rp_feat_arena(f), feat, data, size, swap);
}

int rp_features_decode_in(struct rp_features *f, struct rp_arena *arena, unsigned feat,
			  const void *data, size_t size, int swap)
{
	struct rp_fdec d = { .f = f, .arena = arena, .size = size };
	int ret = 0;

	if (!f || !arena || feat < 1 || feat > RP_FEATURES_LAST || (!data && size))
		return RP_ERR_INVAL;
	rp_cur_init(&d.c, data ? data : "", size, 0, swap);

	switch (feat) {
	case RP_FEAT_TRACING_DATA: ret = rp_dec_tracing_data(&d); break;
	case RP_FEAT_BUILD_ID: ret = rp_dec_build_id(&d); break;
	case RP_FEAT_HOSTNAME: ret = rp_dec_string(&d, &f->hostname); break;
	case RP_FEAT_OSRELEASE: ret = rp_dec_string(&d, &f->osrelease); break;
	case RP_FEAT_VERSION: ret = rp_dec_string(&d, &f->version); break;
	case RP_FEAT_ARCH: ret = rp_dec_string(&d, &f->arch); break;
	case RP_FEAT_NRCPUS: ret = rp_dec_nrcpus(&d); break;
	case RP_FEAT_CPUDESC: ret = rp_dec_string(&d, &f->cpudesc); break;
	case RP_FEAT_CPUID: ret = rp_dec_string(&d, &f->cpuid); break;
	case RP_FEAT_TOTAL_MEM: ret = rp_fd_u64(&d, &f->total_mem); break;
	case RP_FEAT_CMDLINE: ret = rp_dec_cmdline(&d); break;
	case RP_FEAT_EVENT_DESC: ret = rp_dec_event_desc(&d); break;
	case RP_FEAT_CPU_TOPOLOGY: ret = rp_dec_cpu_topology(&d); break;
	case RP_FEAT_NUMA_TOPOLOGY: ret = rp_dec_numa_topology(&d); break;
	case RP_FEAT_BRANCH_STACK: break; /* no contents */
	case RP_FEAT_PMU_MAPPINGS: ret = rp_dec_pmu_mappings(&d); break;
	case RP_FEAT_GROUP_DESC: ret = rp_dec_group_desc(&d); break;
	case RP_FEAT_AUXTRACE: ret = rp_dec_auxtrace(&d); break;
	case RP_FEAT_STAT: break; /* no contents */
	case RP_FEAT_CACHE: ret = rp_dec_cache(&d); break;
	case RP_FEAT_SAMPLE_TIME: ret = rp_dec_sample_time(&d); break;
	case RP_FEAT_MEM_TOPOLOGY: ret = rp_dec_mem_topology(&d); break;
	case RP_FEAT_CLOCKID: ret = rp_fd_u64(&d, &f->clockid_res_ns); break;
	case RP_FEAT_DIR_FORMAT: ret = rp_fd_u64(&d, &f->dir_version); break;
	case RP_FEAT_BPF_PROG_INFO: ret = rp_dec_bpf_prog_info(&d); break;
	case RP_FEAT_BPF_BTF: ret = rp_dec_bpf_btf(&d); break;
	case RP_FEAT_COMPRESSED: ret = rp_dec_compressed(&d); break;
	case RP_FEAT_CPU_PMU_CAPS: ret = rp_dec_cpu_pmu_caps(&d); break;
	case RP_FEAT_CLOCK_DATA: ret = rp_dec_clock_data(&d); break;
	case RP_FEAT_HYBRID_TOPOLOGY: ret = rp_dec_hybrid_topology(&d); break;
	case RP_FEAT_PMU_CAPS: ret = rp_dec_pmu_caps(&d); break;
	case RP_FEAT_CPU_DOMAIN_INFO: ret = rp_dec_cpu_domain_info(&d); break;
	default: break;
	}
	if (ret < 0 || d.err) {
		f->state[feat] = RP_FEAT_DAMAGED;
		return d.err ? d.err : RP_ERR_CORRUPT;
	}
	f->state[feat] = RP_FEAT_OK;
	return 0;
}

/* Features whose failure makes perf stop reading the sections after it
 * (its process_* returns an error); BUILD_ID and EVENT_DESC never do,
 * BRANCH_STACK and STAT have nothing to read. */
static int rp_feat_failure_stops_perf(unsigned feat)
{
	return feat != RP_FEAT_BUILD_ID && feat != RP_FEAT_EVENT_DESC &&
	       feat != RP_FEAT_BRANCH_STACK && feat != RP_FEAT_STAT;
}

int rp_features_read(struct rp_features **out, const struct rp_session *session,
		     struct rp_error *err)
{
	struct rp_features *f;
	int swap;

	if (!out || !session)
		return rp_error_set(err, RP_ERR_INVAL, "no session");
	if (rp_features_new(&f) < 0)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory for features");
	swap = rp_session_needs_swap(session);
	for (unsigned feat = 1; feat <= RP_FEATURES_LAST; feat++) {
		size_t size = 0;
		const void *data;
		int ret;

		if (!rp_session_has_feature(session, feat))
			continue;
		data = rp_session_feature_data(session, feat, &size);
		if (!data)
			size = 0;
		ret = rp_features_decode(f, feat, data, size, swap);
		if (ret == RP_ERR_NOMEM) {
			rp_features_free(f);
			return rp_error_set(err, RP_ERR_NOMEM, "out of memory for feature %s",
					    rp_feature_name(feat));
		}
		if (ret < 0 && !f->perf_stop_feat && rp_feat_failure_stops_perf(feat))
			f->perf_stop_feat = feat;
	}
	*out = f;
	return 0;
}
