/* SPDX-License-Identifier: MIT */
/*
 * The container of a file-mode perf.data: perf_file_header, the attrs with
 * their ids, the legacy event_types section, the feature bitmap and the
 * feature sections after the data.
 *
 * Format: tools/perf/Documentation/perf.data-file-format.txt; perf's
 * util/header.c where the document is silent (attr entries are attr.size
 * bytes followed by the ids section; a header of 72 bytes has no features).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/cursor.h"
#include "common/error_int.h"
#include "format/features_int.h"
#include "format/session_int.h"

#define RP_MAGIC_PERFILE2 0x32454c4946524550ull /* "PERFILE2" read as LE */
#define RP_MAGIC_PERFFILE 0x454c494646524550ull /* "PERFFILE", version 1 */
#define RP_HEADER_SIZE 104u
#define RP_HEADER_SIZE_NO_FEATURES 72u
#define RP_PIPE_HEADER_SIZE 16u
#define RP_TRACE_EVENT_NAME_MAX 64u
#define RP_BUILD_ID_MISC_SIZE (1u << 15) /* PERF_RECORD_MISC_BUILD_ID_SIZE */

/* Checks that [off, off + size) lies within the file. */
static int rp_section_ok(const struct rp_session *s, uint64_t off, uint64_t size)
{
	return off <= s->size && size <= s->size - off;
}

static int rp_read_section(struct rp_cursor *c, uint64_t *off, uint64_t *size)
{
	if (rp_cur_u64(c, off) < 0 || rp_cur_u64(c, size) < 0)
		return -1;
	return 0;
}

/* Sets s->swap from the magic (8 bytes at p). */
static int rp_read_magic(struct rp_session *s, const uint8_t *p)
{
	uint64_t magic;

	memcpy(&magic, p, 8);
	if (!rp_host_is_le())
		magic = rp_bswap64(magic);
	if (magic == RP_MAGIC_PERFILE2) {
		s->swap = !rp_host_is_le();
	} else if (magic == rp_bswap64(RP_MAGIC_PERFILE2)) {
		s->swap = rp_host_is_le();
	} else if (magic == RP_MAGIC_PERFFILE || magic == rp_bswap64(RP_MAGIC_PERFFILE)) {
		return rp_error_set_at(&s->err, RP_ERR_UNSUPPORTED, 0,
				       "PERFFILE version 1 files are not supported");
	} else {
		return rp_error_set_at(&s->err, RP_ERR_BAD_MAGIC, 0,
				       "not a perf.data file (bad magic)");
	}
	return 0;
}

/* A streamed input (standard input, a pipe) can only be a pipe-mode
 * stream: its 16-byte header is read and consumed. */
static int rp_read_stream_header(struct rp_session *s)
{
	struct rp_input *in = &s->inputs[0];
	size_t avail;
	const uint8_t *p = rp_input_peek(s, in, RP_PIPE_HEADER_SIZE, &avail);
	int ret;

	if (!p)
		return RP_ERR_IO;
	if (avail < 8)
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, avail,
				       "input too short for a perf.data header (%zu bytes)", avail);
	if ((ret = rp_read_magic(s, p)) < 0)
		return ret;
	if (avail < 16)
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, 8, "truncated file header");
	s->header_size = rp_load64(p + 8, s->swap);
	if (s->header_size != RP_PIPE_HEADER_SIZE)
		return rp_error_set_at(&s->err, RP_ERR_UNSUPPORTED, 8,
				       "a file-mode perf.data (header of %llu bytes) cannot be read "
				       "from a pipe: give its path",
				       (unsigned long long)s->header_size);
	s->pipe = 1;
	rp_input_advance(in, RP_PIPE_HEADER_SIZE);
	s->data_off = RP_PIPE_HEADER_SIZE;
	return 0;
}

/*
 * Whether a file whose header says data size 0 holds a feature index right
 * at the data offset, as a finished recording without records would: one
 * section per feature bit, the first starting right after the index, each
 * within the file (or, without feature bits, nothing after the header).  A
 * recording cut short has records there instead (or nothing).
 */
static int rp_feature_index_at_data(const struct rp_session *s)
{
	uint64_t nr = 0, at = s->data_off;

	for (unsigned i = 0; i < 4; i++)
		nr += (uint64_t)__builtin_popcountll(s->features[i]);
	/* Without feature bits and bytes after the header, nothing tells a
	 * finished file from one cut short, and nothing is lost either way. */
	if (nr == 0)
		return at >= s->size;
	if (!rp_section_ok(s, at, nr * 16))
		return 0;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t off = rp_load64(s->map + at + i * 16, s->swap);
		uint64_t size = rp_load64(s->map + at + i * 16 + 8, s->swap);

		if ((i == 0 && off != at + nr * 16) || off < at + nr * 16 ||
		    !rp_section_ok(s, off, size))
			return 0;
	}
	return 1;
}

static int rp_read_file_header(struct rp_session *s)
{
	struct rp_cursor c;
	int ret;

	if (s->size < 8)
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, s->size,
				       "file too short for a perf.data header (%llu bytes)",
				       (unsigned long long)s->size);
	if ((ret = rp_read_magic(s, s->map)) < 0)
		return ret;

	rp_cur_init(&c, s->map, (size_t)s->size, 0, s->swap);
	rp_cur_skip(&c, 8);
	if (rp_cur_u64(&c, &s->header_size) < 0)
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, 8, "truncated file header");
	if (s->header_size == RP_PIPE_HEADER_SIZE) {
		if (s->is_dir)
			return rp_error_set_at(&s->err, RP_ERR_CORRUPT, 8,
					       "a pipe-mode header in a directory's data file");
		s->pipe = 1;
		s->data_off = RP_PIPE_HEADER_SIZE;
		s->data_size = s->size - RP_PIPE_HEADER_SIZE;
		return 0;
	}
	if (s->header_size != RP_HEADER_SIZE && s->header_size != RP_HEADER_SIZE_NO_FEATURES)
		return rp_error_set_at(&s->err, RP_ERR_CORRUPT, 8,
				       "bad file header size %llu",
				       (unsigned long long)s->header_size);
	if (s->size < s->header_size)
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, s->size,
				       "truncated file header (%llu of %llu bytes)",
				       (unsigned long long)s->size,
				       (unsigned long long)s->header_size);
	rp_cur_u64(&c, &s->attr_size);
	rp_read_section(&c, &s->attrs_off, &s->attrs_size);
	rp_read_section(&c, &s->data_off, &s->data_size);
	rp_read_section(&c, &s->event_types_off, &s->event_types_size);
	memset(s->features, 0, sizeof(s->features));
	if (s->header_size == RP_HEADER_SIZE)
		for (int i = 0; i < 4; i++)
			s->features[i] = rp_cur_get64(&c);

	if (!rp_section_ok(s, s->attrs_off, s->attrs_size))
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, s->attrs_off,
				       "attr section (%llu bytes) beyond the end of the file",
				       (unsigned long long)s->attrs_size);
	if (s->data_off > s->size)
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, s->data_off,
				       "data section (%llu bytes) beyond the end of the file (%llu bytes)",
				       (unsigned long long)s->data_size,
				       (unsigned long long)s->size);
	if (s->data_size == 0 && !rp_feature_index_at_data(s)) {
		/* perf record writes this header (and the attrs) before the
		 * first record with data size 0, and the real size and the
		 * feature sections after the data only when it finishes: a
		 * file still saying 0 was cut short.  Its records run from the
		 * data offset to the last whole one; there are no features. */
		s->cut_short = 1;
		s->stats.cut_short = 1;
		memset(s->features, 0, sizeof(s->features));
		return 0;
	}
	/* A cut file: the records that are there are read, then the reader
	 * stops with an error (rp_session_next()). */
	if (s->data_size > s->size - s->data_off)
		s->data_cut_end = s->data_size > UINT64_MAX - s->data_off ?
					  UINT64_MAX : s->data_off + s->data_size;
	return 0;
}

static int rp_read_attrs(struct rp_session *s)
{
	if (s->attrs_size == 0)
		return rp_error_set_at(&s->err, RP_ERR_CORRUPT, 24, "no attrs in the file");
	if (s->attr_size < RP_ATTR_SIZE_VER0 + 16 || s->attr_size > (1u << 16))
		return rp_error_set_at(&s->err, RP_ERR_CORRUPT, 16, "bad attr size %llu",
				       (unsigned long long)s->attr_size);
	uint64_t nr = s->attrs_size / s->attr_size;
	if (nr == 0)
		return rp_error_set_at(&s->err, RP_ERR_CORRUPT, 16,
				       "attr size %llu larger than the attr section (%llu bytes)",
				       (unsigned long long)s->attr_size,
				       (unsigned long long)s->attrs_size);
	if (nr > RP_MAX_ATTRS)
		return rp_error_set_at(&s->err, RP_ERR_LIMIT, s->attrs_off,
				       "%llu attrs, more than the cap of %u",
				       (unsigned long long)nr, RP_MAX_ATTRS);
	for (uint64_t i = 0; i < nr; i++) {
		struct rp_evsel *ev = rp_session_add_evsel(s);
		if (!ev)
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for %llu attrs",
					    (unsigned long long)nr);
		uint64_t off = s->attrs_off + i * s->attr_size;
		const uint8_t *p = s->map + off;
		uint32_t asize = rp_load32(p + 4, s->swap);

		if (asize == 0)
			asize = RP_ATTR_SIZE_VER0;
		if (asize < RP_ATTR_SIZE_VER0 || (uint64_t)asize + 16 > s->attr_size)
			return rp_error_set_at(&s->err, RP_ERR_CORRUPT, off,
					       "attr %llu: size %u does not fit its entry of %llu bytes",
					       (unsigned long long)i, asize,
					       (unsigned long long)s->attr_size);
		rp_attr_decode(&ev->attr, p, asize, s->swap);
		ev->attr.size = asize;

		uint64_t ids_off = rp_load64(p + asize, s->swap);
		uint64_t ids_size = rp_load64(p + asize + 8, s->swap);
		if (!rp_section_ok(s, ids_off, ids_size))
			return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, off + asize,
					       "attr %llu: ids section beyond the end of the file",
					       (unsigned long long)i);
		uint64_t nr_ids = ids_size / 8;
		if (nr_ids > RP_MAX_IDS_PER_ATTR)
			return rp_error_set_at(&s->err, RP_ERR_LIMIT, ids_off,
					       "attr %llu: %llu ids, more than the cap of %u",
					       (unsigned long long)i, (unsigned long long)nr_ids,
					       RP_MAX_IDS_PER_ATTR);
		uint64_t *ids = rp_arena_alloc(&s->arena, (size_t)nr_ids * 8);
		if (!ids)
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for ids");
		for (uint64_t j = 0; j < nr_ids; j++) {
			ids[j] = rp_load64(s->map + ids_off + j * 8, s->swap);
			/* A later attr claiming the same id wins, as in perf. */
			if (rp_hashmap_put(&s->id_map, ids[j], ev) < 0)
				return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for ids");
		}
		ev->ids = ids;
		ev->nr_ids = (size_t)nr_ids;
		rp_evsel_setup(ev);
	}
	s->id_pos = s->evsels[0]->id_pos;
	s->is_pos = s->evsels[0]->is_pos;
	s->sample_id_all = !!(s->evsels[0]->attr.flags & RP_ATTR_SAMPLE_ID_ALL);
	return 0;
}

struct rp_evsel *rp_session_add_evsel(struct rp_session *s)
{
	struct rp_evsel *ev;

	if (s->nr_evsels >= RP_MAX_ATTRS)
		return NULL;
	if (RP_ARRAY_RESERVE(s->evsels, s->evsels_alloc, s->nr_evsels + 1) < 0)
		return NULL;
	ev = rp_arena_alloc(&s->arena, sizeof(*ev));
	if (!ev)
		return NULL;
	memset(ev, 0, sizeof(*ev));
	ev->idx = (int)s->nr_evsels;
	ev->scale = 1.0;
	s->evsels[s->nr_evsels++] = ev;
	return ev;
}

/* The feature section table follows the data section: one perf_file_section
 * per set bit, in bit order. */
static int rp_read_feature_index(struct rp_session *s)
{
	uint64_t off = s->data_off + s->data_size;
	unsigned nr = 0;

	for (unsigned bit = 0; bit < RP_FEAT_BITS; bit++) {
		if (!(s->features[bit / 64] >> (bit % 64) & 1))
			continue;
		uint64_t at = off + (uint64_t)nr * 16;
		nr++;
		if (!rp_section_ok(s, at, 16)) {
			/* perf reads the records of such a file, without
			 * features. */
			memset(s->features, 0, sizeof(s->features));
			return 0;
		}
		s->feat_off[bit] = rp_load64(s->map + at, s->swap);
		s->feat_size[bit] = rp_load64(s->map + at + 8, s->swap);
	}
	return 0;
}

static int rp_feature_cursor(const struct rp_session *s, unsigned feat, struct rp_cursor *c)
{
	if (!rp_session_has_feature(s, feat))
		return -1;
	uint64_t off = s->feat_off[feat], size = s->feat_size[feat];
	if (s->feat_buf[feat]) {
		rp_cur_init(c, s->feat_buf[feat], (size_t)size, off, s->swap);
		return 0;
	}
	if (!s->map)
		return -1;
	if (!rp_section_ok(s, off, size) || size > RP_MAX_FEATURE_SIZE)
		return -1;
	rp_cur_init(c, s->map + off, (size_t)size, off, s->swap);
	return 0;
}

/* The legacy event_types section names tracepoints by config. */
static const char *rp_event_type_name(struct rp_session *s, uint64_t config)
{
	uint64_t entry = 8 + RP_TRACE_EVENT_NAME_MAX;

	if (!s->map || !rp_section_ok(s, s->event_types_off, s->event_types_size))
		return NULL;
	for (uint64_t i = 0; i + entry <= s->event_types_size; i += entry) {
		const uint8_t *p = s->map + s->event_types_off + i;

		if (rp_load64(p, s->swap) != config)
			continue;
		if (!memchr(p + 8, 0, RP_TRACE_EVENT_NAME_MAX))
			return NULL;
		return rp_arena_strdup(&s->arena, (const char *)p + 8);
	}
	return NULL;
}

/* A NUL-terminated string at c, stepped over; NULL when none ends in c. */
static const char *rp_td_cstr(struct rp_cursor *c)
{
	const uint8_t *nul = memchr(c->p, 0, rp_cur_left(c));
	const char *str = (const char *)c->p;

	if (!nul)
		return NULL;
	c->p = nul + 1;
	return str;
}

/* The value of a "KEY: value" line of a tracepoint format text[0..n): its
 * start and length in *len, or NULL. */
static const char *rp_td_field(const char *text, size_t n, const char *key, size_t *len)
{
	size_t k = strlen(key);

	for (size_t i = 0; i + k <= n;) {
		const char *eol = memchr(text + i, '\n', n - i);
		size_t end = eol ? (size_t)(eol - text) : n;

		if (end - i >= k && !memcmp(text + i, key, k)) {
			*len = end - i - k;
			return text + i + k;
		}
		i = end + 1;
	}
	return NULL;
}

/* One list of formats of system sys at c (a count, then each format's
 * size and text): *name set to "sys:name" of the one whose ID is config.
 * 0, or -1 when the list is cut short. */
static int rp_td_formats(struct rp_session *s, struct rp_cursor *c, const char *sys,
			 uint64_t config, const char **name)
{
	uint32_t nr;
	uint64_t n;

	if (rp_cur_u32(c, &nr) < 0)
		return -1;
	for (uint32_t i = 0; i < nr; i++) {
		const void *text;
		const char *id, *ev;
		size_t id_len, ev_len;
		char buf[256];

		if (rp_cur_u64(c, &n) < 0 || rp_cur_bytes(c, n, &text) < 0)
			return -1;
		id = rp_td_field(text, (size_t)n, "ID: ", &id_len);
		ev = rp_td_field(text, (size_t)n, "name: ", &ev_len);
		if (!id || !ev || id_len == 0 || id_len >= 24)
			continue;
		memcpy(buf, id, id_len);
		buf[id_len] = '\0';
		char *end;
		errno = 0;
		unsigned long long v = strtoull(buf, &end, 10);
		if (*end || errno || v != config)
			continue;
		int len = snprintf(buf, sizeof(buf), "%s:%.*s", sys, (int)ev_len, ev);
		if (len < 0)
			return -1;
		*name = rp_arena_strndup(&s->arena, buf,
					 (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1);
		return 0;
	}
	return 0;
}

/*
 * "system:name" of the tracepoint format whose ID is config in the
 * TRACING_DATA section (perf's trace-event-read.c layout: magic, version,
 * byte order, long and page sizes, header_page, header_event, ftrace's
 * formats, then each system's), as perf 6.1's
 * evsel__prepare_tracepoint_event() names an evsel that has no name yet
 * (a pipe stream, whose EVENT_DESC comes before its attrs, or a file
 * without EVENT_DESC).  NULL when the section or the format is missing or
 * bad.
 */
const char *rp_tracing_data_name(struct rp_session *s, uint64_t config)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct rp_cursor c;
	const void *m;
	uint32_t nr_sys;
	uint64_t n;

	if (rp_feature_cursor(s, RP_FEAT_TRACING_DATA, &c) < 0 ||
	    rp_cur_bytes(&c, sizeof(magic), &m) < 0 || memcmp(m, magic, sizeof(magic)) ||
	    !rp_td_cstr(&c) || !rp_cur_need(&c, 2))
		return NULL;
	c.swap = (uint8_t)(!!c.p[0] != !rp_host_is_le());
	if (rp_cur_skip(&c, 2 + 4) < 0)
		return NULL;
	static const char *const heads[2] = { "header_page", "header_event" };
	for (int i = 0; i < 2; i++) {
		const char *h = rp_td_cstr(&c);

		if (!h || strcmp(h, heads[i]) || rp_cur_u64(&c, &n) < 0 || rp_cur_skip(&c, n) < 0)
			return NULL;
	}
	/* ftrace's own formats (system "ftrace"), then each system's */
	const char *name = NULL;
	if (rp_td_formats(s, &c, "ftrace", config, &name) < 0 || name)
		return name;
	if (rp_cur_u32(&c, &nr_sys) < 0)
		return NULL;
	for (uint32_t i = 0; i < nr_sys; i++) {
		const char *sys = rp_td_cstr(&c);

		if (!sys || rp_td_formats(s, &c, sys, config, &name) < 0 || name)
			return name;
	}
	return NULL;
}

/* Section feat of the session decoded by features.c into f, in the
 * session's arena; nonzero when it was there to decode. */
static int rp_header_feature(struct rp_session *s, struct rp_features *f, unsigned feat)
{
	size_t size = 0;
	const void *data;

	if (!rp_session_has_feature(s, feat) || !(data = rp_session_feature_data(s, feat, &size)))
		return 0;
	/* A damaged section leaves its fields unset, but the build-ids and
	 * event descriptions before the damage (rp_features_decode_in()). */
	rp_features_decode_in(f, &s->arena, feat, data, size, s->swap);
	return 1;
}

/* EVENT_DESC names evsels by their first id, as perf does: in a pipe
 * stream, those that came before it. */
static void rp_header_name_evsels(struct rp_session *s, const struct rp_features *f)
{
	size_t known = s->event_desc_seen ? s->event_desc_evsels : s->nr_evsels;

	for (uint32_t i = 0; i < f->nr_events && known; i++) {
		const struct rp_event_desc *e = &f->events[i];
		/* Without ids perf ends up naming the first evsel (its lookup
		 * of id 0). */
		uint64_t id0 = e->nr_ids ? e->ids[0] : 0;
		struct rp_evsel *ev = s->nr_evsels == 1 || !id0 ? s->evsels[0]
								: rp_hashmap_get(&s->id_map, id0);

		if (ev && !ev->name && (size_t)ev->idx < known)
			ev->name = e->name;
	}
}

/* GROUP_DESC: only the groups that are whole within the attrs, as perf
 * keeps them. */
static void rp_header_groups(struct rp_session *s, const struct rp_features *f)
{
	struct rp_group_desc *g = rp_arena_alloc(&s->arena, f->nr_groups * sizeof(*g));
	size_t n = 0;

	if (!g)
		return;
	for (uint32_t i = 0; i < f->nr_groups; i++) {
		const struct rp_group_desc *d = &f->groups[i];

		if (d->nr_members < 2 || d->leader_idx >= s->nr_evsels ||
		    d->nr_members > s->nr_evsels - d->leader_idx)
			continue;
		g[n++] = *d;
	}
	s->info.groups = g;
	s->info.nr_groups = n;
}

/* The header's summary (struct rp_header_info) from the feature sections,
 * decoded by features.c. */
void rp_header_decode_features(struct rp_session *s)
{
	static const unsigned feats[] = {
		RP_FEAT_HOSTNAME, RP_FEAT_OSRELEASE,  RP_FEAT_VERSION,	  RP_FEAT_ARCH,
		RP_FEAT_CPUDESC,  RP_FEAT_CPUID,      RP_FEAT_NRCPUS,	  RP_FEAT_TOTAL_MEM,
		RP_FEAT_SAMPLE_TIME, RP_FEAT_CMDLINE, RP_FEAT_BUILD_ID,	  RP_FEAT_EVENT_DESC,
		RP_FEAT_GROUP_DESC,
	};
	struct rp_header_info *h = &s->info;
	struct rp_features f;
	int build_ids = 0;

	memset(&f, 0, sizeof(f));
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		if (rp_header_feature(s, &f, feats[i]) && feats[i] == RP_FEAT_BUILD_ID)
			build_ids = 1;
	h->hostname = f.hostname;
	h->osrelease = f.osrelease;
	h->version = f.version;
	h->arch = f.arch;
	h->cpudesc = f.cpudesc;
	h->cpuid = f.cpuid;
	if (f.state[RP_FEAT_NRCPUS] == RP_FEAT_OK) {
		h->nr_cpus_available = f.nr_cpus_avail;
		h->nr_cpus_online = f.nr_cpus_online;
	}
	if (f.state[RP_FEAT_TOTAL_MEM] == RP_FEAT_OK)
		h->total_mem = f.total_mem;
	if (f.state[RP_FEAT_SAMPLE_TIME] == RP_FEAT_OK) {
		h->sample_time_first = f.first_sample_time;
		h->sample_time_last = f.last_sample_time;
		h->has_sample_time = 1;
	}
	if (f.cmdline) {
		h->cmdline_argc = f.nr_cmdline;
		h->cmdline_argv = f.cmdline;
	}
	if (build_ids) {
		h->build_ids = f.build_ids;
		h->nr_build_ids = f.nr_build_ids;
	}
	if (s->nr_pipe_bids || (s->pipe && !s->info.nr_build_ids)) {
		s->info.build_ids = s->pipe_bids;
		s->info.nr_build_ids = s->nr_pipe_bids;
	}
	rp_header_name_evsels(s, &f);
	if (f.state[RP_FEAT_GROUP_DESC] == RP_FEAT_OK)
		rp_header_groups(s, &f);
}

int rp_header_read(struct rp_session *s)
{
	int ret;

	if (s->inputs[0].stream)
		return rp_read_stream_header(s);
	s->map = s->inputs[0].map;
	s->size = s->inputs[0].map_size;
	if ((ret = rp_read_file_header(s)) < 0)
		return ret;
	if (s->pipe) {
		s->inputs[0].pos = s->data_off;
		s->inputs[0].end = s->size;
		return 0;
	}
	if ((ret = rp_read_attrs(s)) < 0 ||
	    (!s->cut_short && (ret = rp_read_feature_index(s)) < 0))
		return ret;
	/* Feature contents are optional: a bad section is ignored, as perf
	 * ignores a feature it fails to read. */
	rp_header_decode_features(s);
	for (size_t i = 0; i < s->nr_evsels; i++) {
		struct rp_evsel *ev = s->evsels[i];

		if (!ev->name && ev->attr.type == RP_TYPE_TRACEPOINT)
			ev->name = rp_event_type_name(s, ev->attr.config);
		if (!ev->name && ev->attr.type == RP_TYPE_TRACEPOINT)
			ev->name = rp_tracing_data_name(s, ev->attr.config);
		if (!ev->name)
			ev->name = rp_evsel_default_name(&s->arena, &ev->attr);
		if (!ev->name)
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for names");
	}
	s->inputs[0].pos = s->data_off;
	s->inputs[0].end = s->data_cut_end || s->cut_short ? s->size : s->data_off + s->data_size;
	/* The data.N files of a directory are bare records. */
	for (size_t i = 1; i < s->nr_inputs; i++) {
		s->inputs[i].pos = 0;
		s->inputs[i].end = s->inputs[i].map_size;
	}
	return 0;
}

int rp_session_has_feature(const struct rp_session *s, unsigned feat)
{
	return feat < RP_FEAT_BITS && (s->features[feat / 64] >> (feat % 64) & 1);
}

int rp_session_feature_section(const struct rp_session *s, unsigned feat, uint64_t *offset,
			       uint64_t *size)
{
	if (!rp_session_has_feature(s, feat))
		return RP_ERR_INVAL;
	*offset = s->feat_off[feat];
	*size = s->feat_size[feat];
	return 0;
}

const void *rp_session_feature_data(const struct rp_session *s, unsigned feat, size_t *size)
{
	struct rp_cursor c;

	if (rp_feature_cursor(s, feat, &c) < 0)
		return NULL;
	*size = rp_cur_left(&c);
	return c.p;
}

int rp_session_needs_swap(const struct rp_session *s)
{
	return s->swap;
}
