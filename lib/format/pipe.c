/* SPDX-License-Identifier: MIT */
/*
 * Pipe mode: a stream that starts with a 16-byte header (magic, size 16)
 * and carries in records what a file-mode header holds in sections:
 * HEADER_ATTR (an attr and its ids), HEADER_FEATURE (one feature section
 * each), HEADER_TRACING_DATA (followed by its payload), HEADER_BUILD_ID,
 * HEADER_EVENT_TYPE (old writers) and EVENT_UPDATE (name, unit, scale,
 * cpus).  This file applies them to the session so that the evsels, the
 * feature data and the decoded header look as for a file-mode header.
 *
 * Format: perf's util/header.c (perf_event__process_attr,
 * perf_event__process_feature, perf_event__process_event_update,
 * perf_event__process_build_id), util/synthetic-events.c (the writer:
 * attrs first, then features, then tracing data) and util/event.h
 * (struct perf_record_header_attr, perf_record_header_feature,
 * perf_record_event_update).
 */
#include <string.h>

#include "common/cursor.h"
#include "common/error_int.h"
#include "format/session_int.h"

#define RP_EVENT_UPDATE_UNIT 0u
#define RP_EVENT_UPDATE_SCALE 1u
#define RP_EVENT_UPDATE_NAME 2u
#define RP_HEADER_LAST_FEATURE 32u /* perf's end-of-features mark (6.x) */
#define RP_TRACE_EVENT_NAME_MAX 64u

int rp_pipe_header_type(uint32_t type)
{
	switch (type) {
	case RP_RECORD_HEADER_ATTR:
	case RP_RECORD_HEADER_EVENT_TYPE:
	case RP_RECORD_HEADER_TRACING_DATA:
	case RP_RECORD_HEADER_BUILD_ID:
	case RP_RECORD_EVENT_UPDATE:
	case RP_RECORD_HEADER_FEATURE:
		return 1;
	default:
		return 0;
	}
}

/* Legacy record types: perf_internals.h of Google's perf 3.x (quipper):
 * PERF_RECORD_HEADER_HOSTNAME = 69 ... NUMA_TOPOLOGY = 80,
 * PMU_MAPPINGS = 81. */
#define RP_LEGACY_FEAT_FIRST 69u
#define RP_LEGACY_FEAT_LAST 80u
#define RP_LEGACY_PMU_MAPPINGS 81u

int rp_pipe_legacy_feature(uint32_t type)
{
	if (type >= RP_LEGACY_FEAT_FIRST && type <= RP_LEGACY_FEAT_LAST)
		return (int)(type - RP_LEGACY_FEAT_FIRST) + RP_FEAT_HOSTNAME;
	if (type == RP_LEGACY_PMU_MAPPINGS)
		return RP_FEAT_PMU_MAPPINGS;
	return -1;
}

int rp_pipe_legacy_first(uint32_t type)
{
	/* Not 80: upstream HEADER_FEATURE records may come first
	 * (quipper writes them before the attrs). */
	return type >= RP_LEGACY_FEAT_FIRST && type < RP_LEGACY_FEAT_LAST;
}

/* HEADER_ATTR: header, attr (attr.size bytes), then u64 ids to the end. */
static int rp_pipe_attr(struct rp_session *s, const uint8_t *rec, uint32_t size, uint64_t off)
{
	uint32_t asize;
	struct rp_evsel *ev;

	if (size < 8 + RP_ATTR_SIZE_VER0)
		return rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, RP_RECORD_HEADER_ATTR,
					   "HEADER_ATTR record too short (%u bytes)", size);
	asize = rp_load32(rec + 12, s->swap);
	if (asize == 0)
		asize = RP_ATTR_SIZE_VER0;
	if (asize < RP_ATTR_SIZE_VER0 || asize > size - 8u)
		return rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, RP_RECORD_HEADER_ATTR,
					   "attr size %u does not fit its record of %u bytes",
					   asize, size);
	ev = rp_session_add_evsel(s);
	if (!ev)
		return rp_error_set_record(&s->err, s->nr_evsels >= RP_MAX_ATTRS ? RP_ERR_LIMIT
										  : RP_ERR_NOMEM,
					   off, RP_RECORD_HEADER_ATTR,
					   "cannot add an attr (%zu already)", s->nr_evsels);
	rp_attr_decode(&ev->attr, rec + 8, asize, s->swap);
	ev->attr.size = asize;

	size_t nr_ids = (size - 8u - asize) / 8u;
	uint64_t *ids = rp_arena_alloc(&s->arena, nr_ids * 8 + 8);
	if (!ids)
		return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for ids");
	for (size_t j = 0; j < nr_ids; j++) {
		ids[j] = rp_load64(rec + 8 + asize + j * 8, s->swap);
		if (rp_hashmap_put(&s->id_map, ids[j], ev) < 0)
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for ids");
	}
	ev->ids = ids;
	ev->nr_ids = nr_ids;
	rp_evsel_setup(ev);
	if (s->nr_evsels == 1) {
		s->id_pos = ev->id_pos;
		s->is_pos = ev->is_pos;
		s->sample_id_all = !!(ev->attr.flags & RP_ATTR_SAMPLE_ID_ALL);
	}
	/* An attr added once records flow gets its name at once. */
	if (!s->priming)
		return rp_pipe_name_evsels(s);
	return 0;
}

/* Keeps a feature's section, body[0..n) at input offset off. */
static int rp_pipe_set_feature(struct rp_session *s, uint64_t feat, const uint8_t *body,
			       uint32_t n, uint64_t off)
{
	uint8_t *copy = rp_arena_alloc(&s->arena, n + 1u);

	if (!copy)
		return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for a feature");
	memcpy(copy, body, n);
	s->features[feat / 64] |= 1ull << (feat % 64);
	s->feat_buf[feat] = copy;
	s->feat_off[feat] = off;
	s->feat_size[feat] = n;
	if (feat == RP_FEAT_EVENT_DESC && !s->event_desc_seen) {
		s->event_desc_seen = 1;
		s->event_desc_evsels = s->nr_evsels;
	}
	/* Features after the first records update the decoded header. */
	if (!s->priming)
		rp_header_decode_features(s);
	return 0;
}

/* HEADER_FEATURE: header, u64 feature id, the feature's section. */
static int rp_pipe_feature(struct rp_session *s, const uint8_t *rec, uint32_t size, uint64_t off)
{
	uint64_t feat;

	if (size < 16)
		return rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, RP_RECORD_HEADER_FEATURE,
					   "HEADER_FEATURE record too short (%u bytes)", size);
	feat = rp_load64(rec + 8, s->swap);
	/* The end-of-features mark, and bits readperf cannot hold. */
	if (feat == 0 || feat >= RP_FEAT_BITS || size == 16)
		return 0;
	return rp_pipe_set_feature(s, feat, rec + 16, size - 16u, off + 16);
}

/* HEADER_BUILD_ID: header (misc), pid, 24 bytes of build-id, filename. */
static int rp_pipe_build_id(struct rp_session *s, const uint8_t *rec, uint32_t size, uint64_t off)
{
	struct rp_build_id_entry *e;

	if (size < 8 + 4 + 24 + 1 || !memchr(rec + 36, 0, size - 36u))
		return rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, RP_RECORD_HEADER_BUILD_ID,
					   "bad HEADER_BUILD_ID record (%u bytes)", size);
	if (s->nr_pipe_bids >= RP_MAX_BUILD_IDS)
		return 0;
	if (s->nr_pipe_bids == s->pipe_bids_alloc) {
		/* Grown in the arena: arrays handed out earlier stay valid. */
		size_t na = s->pipe_bids_alloc ? s->pipe_bids_alloc * 2 : 64;
		struct rp_build_id_entry *n = rp_arena_alloc(&s->arena, na * sizeof(*n));

		if (!n)
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for build-ids");
		if (s->nr_pipe_bids)
			memcpy(n, s->pipe_bids, s->nr_pipe_bids * sizeof(*n));
		s->pipe_bids = n;
		s->pipe_bids_alloc = na;
	}
	e = &s->pipe_bids[s->nr_pipe_bids];
	memset(e, 0, sizeof(*e));
	e->misc = rp_load16(rec + 4, s->swap);
	e->pid = rp_load32(rec + 8, s->swap);
	e->size = 20;
	if ((e->misc & (1u << 15)) && rec[32] > 0 && rec[32] <= 20)
		e->size = rec[32];
	memcpy(e->build_id, rec + 12, 20);
	e->filename = rp_arena_strdup(&s->arena, (const char *)rec + 36);
	if (!e->filename)
		return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for build-ids");
	s->nr_pipe_bids++;
	s->info.build_ids = s->pipe_bids;
	s->info.nr_build_ids = s->nr_pipe_bids;
	return 0;
}

/* EVENT_UPDATE: header, u64 type, u64 id, then by type a string (unit,
 * name), a double (scale) or a cpu map (cpus, not kept). */
static int rp_pipe_event_update(struct rp_session *s, const uint8_t *rec, uint32_t size,
				uint64_t off)
{
	uint64_t type, id;
	struct rp_evsel *ev;
	const char *str = NULL;

	if (size < 24)
		return rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, RP_RECORD_EVENT_UPDATE,
					   "EVENT_UPDATE record too short (%u bytes)", size);
	type = rp_load64(rec + 8, s->swap);
	id = rp_load64(rec + 16, s->swap);
	ev = rp_hashmap_get(&s->id_map, id);
	if (!ev)
		return 0; /* perf ignores updates of unknown ids */
	if (type == RP_EVENT_UPDATE_UNIT || type == RP_EVENT_UPDATE_NAME) {
		const char *p = (const char *)rec + 24;
		size_t n = strnlen(p, size - 24u);

		str = rp_arena_strndup(&s->arena, p, n);
		if (!str)
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for names");
		if (type == RP_EVENT_UPDATE_UNIT)
			ev->unit = str;
		else
			ev->name = str;
	} else if (type == RP_EVENT_UPDATE_SCALE && size >= 32) {
		uint64_t bits = rp_load64(rec + 24, s->swap);

		memcpy(&ev->scale, &bits, sizeof(ev->scale));
	}
	return 0;
}

/* HEADER_EVENT_TYPE (old writers): u64 config, char name[64]. */
static int rp_pipe_event_type(struct rp_session *s, const uint8_t *rec, uint32_t size)
{
	uint64_t config;
	const char *name = (const char *)rec + 16;

	if (size < 16 + RP_TRACE_EVENT_NAME_MAX)
		return 0;
	config = rp_load64(rec + 8, s->swap);
	if (!memchr(name, 0, RP_TRACE_EVENT_NAME_MAX))
		return 0;
	for (size_t i = 0; i < s->nr_evsels; i++) {
		struct rp_evsel *ev = s->evsels[i];

		if (ev->attr.type == RP_TYPE_TRACEPOINT && ev->attr.config == config &&
		    !ev->name) {
			ev->name = rp_arena_strdup(&s->arena, name);
			if (!ev->name)
				return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for names");
		}
	}
	return 0;
}

int rp_pipe_apply(struct rp_session *s, const uint8_t *rec, uint32_t size, uint64_t off)
{
	uint32_t type = rp_load32(rec, s->swap);

	if (s->legacy_feats && rp_pipe_legacy_feature(type) >= 0) {
		/* The record's payload is the section (no feature id). */
		if (size == 8)
			return 0;
		return rp_pipe_set_feature(s, (uint64_t)rp_pipe_legacy_feature(type), rec + 8,
					   size - 8u, off + 8);
	}
	switch (type) {
	case RP_RECORD_HEADER_ATTR:
		return rp_pipe_attr(s, rec, size, off);
	case RP_RECORD_HEADER_FEATURE:
		return rp_pipe_feature(s, rec, size, off);
	case RP_RECORD_HEADER_BUILD_ID:
		return rp_pipe_build_id(s, rec, size, off);
	case RP_RECORD_EVENT_UPDATE:
		return rp_pipe_event_update(s, rec, size, off);
	case RP_RECORD_HEADER_EVENT_TYPE:
		return rp_pipe_event_type(s, rec, size);
	default:
		return 0;
	}
}

int rp_pipe_name_evsels(struct rp_session *s)
{
	for (size_t i = 0; i < s->nr_evsels; i++) {
		struct rp_evsel *ev = s->evsels[i];

		if (ev->name)
			continue;
		if (ev->attr.type == RP_TYPE_TRACEPOINT)
			ev->name = rp_tracing_data_name(s, ev->attr.config);
		if (!ev->name)
			ev->name = rp_evsel_default_name(&s->arena, &ev->attr);
		if (!ev->name)
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory for names");
	}
	return 0;
}
