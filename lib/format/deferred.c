/* SPDX-License-Identifier: MIT */
/*
 * Samples held for their deferred user callchain, and their merging with
 * the PERF_RECORD_CALLCHAIN_DEFERRED record of their thread (see
 * deferred.h for perf's rules, which this follows).
 *
 * The held samples are kept in arrival order in `ents`, their record bytes
 * in `pool` (8-byte aligned copies: the view of a mapped file or of a
 * stream block does not last, and a copy is what pins no block).  A
 * deferred record marks the entries it releases; rp_session_next() then
 * hands them out one per call before reading on.  Delivered entries stay
 * in place until a later hold needs room: the pool is compacted then,
 * which never moves the copy of the event the caller holds (that one was
 * delivered by an earlier call, so its view has ended).
 */
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/error_int.h"
#include "format/session_int.h"

enum {
	RP_DFR_HELD = 1, /* waiting for its deferred record */
	RP_DFR_MERGE,    /* released by its deferred record */
	RP_DFR_PLAIN,    /* released without one */
	RP_DFR_DONE,     /* delivered */
};

/* Smallest pool allocation (bytes). */
#define RP_DFR_POOL_MIN (64u << 10)

static size_t rp_align8(size_t n)
{
	return (n + 7u) & ~(size_t)7u;
}

void rp_deferred_init(struct rp_deferred *d, int on, uint64_t max)
{
	memset(d, 0, sizeof(*d));
	d->on = !!on;
	d->max = max;
}

void rp_deferred_release(struct rp_deferred *d)
{
	free(d->ents);
	free(d->pool);
	free(d->ips);
	free(d->chain);
	memset(d, 0, sizeof(*d));
}

/* The thread a sample or record names; perf takes -1 when it has none. */
static uint32_t rp_sample_tid(const struct rp_sample *smp)
{
	return (smp->sample_type & RP_SAMPLE_TID) ? smp->tid : (uint32_t)-1;
}

/*
 * Whether a sample waits for a deferred callchain, and its cookie: the
 * event asked for deferred callchains and the callchain ends with
 * PERF_CONTEXT_USER_DEFERRED and the cookie (perf's evsel__parse_sample).
 */
static int rp_sample_waits(const struct rp_event *ev, uint64_t *cookie)
{
	const struct rp_sample *smp = &ev->u.sample;

	if (!ev->evsel || !(ev->evsel->attr.flags & RP_ATTR_DEFER_CALLCHAIN))
		return 0;
	if (!(smp->sample_type & RP_SAMPLE_CALLCHAIN) || smp->callchain_nr < 2 ||
	    smp->callchain[smp->callchain_nr - 2] != RP_CONTEXT_USER_DEFERRED)
		return 0;
	*cookie = smp->callchain[smp->callchain_nr - 1];
	return 1;
}

/* Drops delivered entries and their copies.  Only while nothing is marked
 * for release (entries keep their order, scan restarts). */
static void rp_deferred_compact(struct rp_deferred *d)
{
	size_t j = 0, used = 0;

	for (size_t i = 0; i < d->nr; i++) {
		struct rp_dfr_ent e = d->ents[i];
		size_t len = rp_align8(e.size);

		if (e.state == RP_DFR_DONE)
			continue;
		if (e.pos != used)
			memmove(d->pool + used, d->pool + e.pos, len);
		e.pos = used;
		used += len;
		d->ents[j++] = e;
	}
	d->nr = j;
	d->pool_used = used;
	d->scan = 0;
}

/* Keeps a copy of the sample ev.  Returns 0 (held), 1 (over the cap:
 * deliver it now) or RP_ERR_NOMEM. */
static int rp_deferred_hold(struct rp_session *s, const struct rp_event *ev, uint64_t cookie)
{
	struct rp_deferred *d = &s->deferred;
	size_t len = rp_align8(ev->size);

	if (d->live >= d->max || d->pool_live + len > RP_DEFERRED_MAX_BYTES) {
		s->stats.nr_deferred_over_cap++;
		return 1;
	}
	if (d->live == 0) {
		d->nr = 0;
		d->pool_used = 0;
		d->scan = 0;
	}
	if ((d->nr == d->alloc || d->pool_used + len > d->pool_alloc) && d->nr > d->live)
		rp_deferred_compact(d);
	if (RP_ARRAY_RESERVE(d->ents, d->alloc, d->nr + 1) < 0)
		goto nomem;
	if (d->pool_used + len > d->pool_alloc) {
		/* After compaction the pool holds live bytes only, so it never
		 * grows past RP_DEFERRED_MAX_BYTES. */
		size_t want = d->pool_alloc ? d->pool_alloc * 2 : RP_DFR_POOL_MIN;

		if (want > RP_DEFERRED_MAX_BYTES)
			want = RP_DEFERRED_MAX_BYTES;
		if (want < d->pool_used + len)
			want = d->pool_used + len;
		uint8_t *p = realloc(d->pool, want);

		if (!p)
			goto nomem;
		d->pool = p;
		d->pool_alloc = want;
	}
	memcpy(d->pool + d->pool_used, ev->data, ev->size);
	if (len > ev->size)
		memset(d->pool + d->pool_used + ev->size, 0, len - ev->size);
	d->ents[d->nr++] = (struct rp_dfr_ent){
		.offset = ev->offset,
		.nr = ev->nr,
		.cookie = cookie,
		.pos = d->pool_used,
		.evsel = ev->evsel,
		.tid = rp_sample_tid(&ev->u.sample),
		.input = ev->input,
		.size = ev->size,
		.state = RP_DFR_HELD,
	};
	d->pool_used += len;
	d->pool_live += len;
	d->live++;
	return 0;
nomem:
	return rp_error_set_record(&s->err, RP_ERR_NOMEM, ev->offset, ev->type,
				   "out of memory holding a sample for its deferred callchain");
}

/* A deferred record: every held sample of its thread leaves, merged when
 * the cookie is its own (perf's evlist__deliver_deferred_callchain). */
static int rp_deferred_match(struct rp_session *s, const struct rp_event *ev)
{
	struct rp_deferred *d = &s->deferred;
	const struct rp_callchain_deferred_event *cd = &ev->u.callchain_deferred;
	uint32_t tid = (ev->sid.present & RP_SAMPLE_TID) ? ev->sid.tid : (uint32_t)-1;
	int copied = 0;

	for (size_t i = 0; i < d->nr; i++) {
		struct rp_dfr_ent *e = &d->ents[i];

		if (e->state != RP_DFR_HELD || e->tid != tid)
			continue;
		if (e->cookie == cd->cookie) {
			/* The record is a view: its ips are copied for the
			 * samples handed out by the next calls. */
			if (!copied) {
				if (RP_ARRAY_RESERVE(d->ips, d->ips_alloc, cd->nr + 1) < 0)
					return rp_error_set_record(
						&s->err, RP_ERR_NOMEM, ev->offset, ev->type,
						"out of memory merging a deferred callchain");
				memcpy(d->ips, cd->ips, (size_t)cd->nr * sizeof(*d->ips));
				d->nr_ips = (size_t)cd->nr;
				copied = 1;
			}
			e->state = RP_DFR_MERGE;
		} else {
			e->state = RP_DFR_PLAIN;
		}
		if (d->nr_release++ == 0)
			d->scan = i;
	}
	return 1;
}

int rp_deferred_filter(struct rp_session *s, struct rp_event *ev)
{
	struct rp_deferred *d = &s->deferred;
	uint64_t cookie;

	if (ev->type == RP_RECORD_SAMPLE) {
		if (!rp_sample_waits(ev, &cookie))
			return 1;
		int ret = rp_deferred_hold(s, ev, cookie);

		if (ret == 1)
			ev->deferred = RP_DEFERRED_UNMERGED;
		return ret;
	}
	if (ev->type == RP_RECORD_CALLCHAIN_DEFERRED && d->live)
		return rp_deferred_match(s, ev);
	return 1;
}

int rp_deferred_next(struct rp_session *s, struct rp_event *ev)
{
	struct rp_deferred *d = &s->deferred;

	while (d->nr_release && d->scan < d->nr) {
		struct rp_dfr_ent *e = &d->ents[d->scan++];

		if (e->state != RP_DFR_MERGE && e->state != RP_DFR_PLAIN)
			continue;
		int merge = e->state == RP_DFR_MERGE;
		int ret = rp_record_decode(s, d->pool + e->pos, e->offset, e->nr, e->evsel, ev);

		e->state = RP_DFR_DONE;
		d->nr_release--;
		d->live--;
		d->pool_live -= rp_align8(e->size);
		if (ret < 0)
			return ret;
		ev->input = e->input;
		if (merge) {
			struct rp_sample *smp = &ev->u.sample;
			/* Everything but the cookie, then the deferred ips
			 * (perf's sample__merge_deferred_callchain). */
			size_t keep = (size_t)smp->callchain_nr - 1;

			if (RP_ARRAY_RESERVE(d->chain, d->chain_alloc, keep + d->nr_ips + 1) < 0)
				return rp_error_set_record(&s->err, RP_ERR_NOMEM, e->offset,
							   RP_RECORD_SAMPLE,
							   "out of memory merging a deferred callchain");
			memcpy(d->chain, smp->callchain, keep * sizeof(*d->chain));
			memcpy(d->chain + keep, d->ips, d->nr_ips * sizeof(*d->chain));
			smp->callchain = d->chain;
			smp->callchain_nr = keep + d->nr_ips;
			ev->deferred = RP_DEFERRED_MERGED;
			s->stats.nr_deferred_merged++;
		} else {
			ev->deferred = RP_DEFERRED_UNMERGED;
			s->stats.nr_deferred_unmatched++;
		}
		return 1;
	}
	d->nr_release = 0;
	return 0;
}

int rp_deferred_end(struct rp_session *s)
{
	struct rp_deferred *d = &s->deferred;

	if (!d->live || d->nr_release)
		return d->nr_release != 0;
	for (size_t i = 0; i < d->nr; i++) {
		if (d->ents[i].state != RP_DFR_HELD)
			continue;
		d->ents[i].state = RP_DFR_PLAIN;
		if (d->nr_release++ == 0)
			d->scan = i;
	}
	return d->nr_release != 0;
}
