/* SPDX-License-Identifier: MIT */
/*
 * perf report --stats: record counts by type and samples per event, as
 * perf 6.1 prints them (session.c events_stats__fprintf,
 * perf_session__fprintf_nr_events; evlist__fprintf_nr_events).
 */
#include <readperf/stats.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <readperf/error.h>

#include "common/error_int.h"
#include "common/hashmap.h"
#include "outputs/output_int.h"

/* perf 6.1 knows record types below this (PERF_RECORD_HEADER_MAX). */
#define RP_STATS_PERF61_TYPES 83u

struct rp_stats {
	const struct rp_session *session;
	size_t nr_evsels;
	uint64_t *samples;      /* per evsel index */
	uint64_t *lost_samples; /* per evsel index */
	int branch_mode;        /* the file has the BRANCH_STACK feature */
	/* PERF_SAMPLE_READ samples: the last value read per sample id. */
	struct rp_hashmap sids;      /* id -> struct rp_stats_sid */
	struct rp_stats_sid *slots;
	size_t nr_slots, sids_for;   /* sids_for: evsels they were built for */
};

/* One sample id of an event: perf's perf_sample_id (evsel, period). */
struct rp_stats_sid {
	size_t idx;    /* evsel index */
	uint64_t prev; /* the value the last sample read */
};

/* The names perf's perf_event__names[] knows: perf 6.1's, every type
 * below COMPRESSED2, and CALLCHAIN_DEFERRED, which came later (files of
 * perf 6.1 have none: a type that counts zero is not printed). */
const char *rp_stats_type_name(uint32_t type)
{
	if (type >= RP_STATS_PERF61_TYPES)
		return NULL;
	return rp_record_type_name(type);
}

int rp_stats_new(struct rp_stats **out, const struct rp_session *session)
{
	struct rp_stats *st = calloc(1, sizeof(*st));

	*out = NULL;
	if (!st)
		return RP_ERR_NOMEM;
	st->session = session;
	st->nr_evsels = rp_session_nr_evsels(session);
	st->branch_mode = rp_session_has_feature(session, RP_FEAT_BRANCH_STACK);
	/* One extra slot keeps calloc(0) out of the picture. */
	st->samples = calloc(st->nr_evsels + 1, sizeof(*st->samples));
	st->lost_samples = calloc(st->nr_evsels + 1, sizeof(*st->lost_samples));
	if (!st->samples || !st->lost_samples) {
		rp_stats_free(st);
		return RP_ERR_NOMEM;
	}
	*out = st;
	return 0;
}

void rp_stats_free(struct rp_stats *st)
{
	if (!st)
		return;
	free(st->samples);
	free(st->lost_samples);
	rp_hashmap_release(&st->sids);
	free(st->slots);
	free(st);
}

/* (Re)builds the id -> evsel map for the session's evsels.  0 or -1. */
static int rp_stats_build_sids(struct rp_stats *st)
{
	size_t nr_ev = rp_session_nr_evsels(st->session), total = 0, k = 0;

	rp_hashmap_release(&st->sids);
	free(st->slots);
	st->slots = NULL;
	st->nr_slots = 0;
	st->sids_for = nr_ev;
	for (size_t i = 0; i < nr_ev; i++) {
		size_t n;

		rp_evsel_ids(rp_session_evsel(st->session, i), &n);
		total += n;
	}
	st->slots = calloc(total + 1, sizeof(*st->slots));
	if (!st->slots)
		return -1;
	for (size_t i = 0; i < nr_ev; i++) {
		size_t n;
		const uint64_t *ids = rp_evsel_ids(rp_session_evsel(st->session, i), &n);

		for (size_t j = 0; j < n; j++) {
			if (rp_hashmap_get(&st->sids, ids[j]))
				continue;
			st->slots[k].idx = i;
			if (rp_hashmap_put(&st->sids, ids[j], &st->slots[k]) < 0)
				return -1;
			k++;
		}
	}
	st->nr_slots = k;
	return 0;
}

/*
 * perf's deliver_sample_group()/deliver_sample_value(): a sample with
 * PERF_SAMPLE_READ counts once for the event of each value read whose
 * id is known and whose value moved since that id's last sample.
 */
static void rp_stats_count_read(struct rp_stats *st, const struct rp_sample *s)
{
	if (st->sids_for != rp_session_nr_evsels(st->session) && rp_stats_build_sids(st) < 0)
		return;
	for (uint64_t i = 0; i < s->read.nr; i++) {
		struct rp_read_value v = rp_read_get(&s->read, i);
		uint64_t id = (s->read.read_format & RP_FORMAT_ID) ? v.id : 0;
		struct rp_stats_sid *sid = rp_hashmap_get(&st->sids, id);
		uint64_t delta;

		if (!sid)
			continue; /* perf counts an unknown id */
		delta = v.value - sid->prev;
		sid->prev = v.value;
		if (delta && sid->idx < st->nr_evsels)
			st->samples[sid->idx]++;
	}
}

void rp_stats_count(struct rp_stats *st, const struct rp_event *ev)
{
	int idx;

	if (!ev->evsel)
		return; /* perf counts such samples as unknown ids only */
	idx = rp_evsel_idx(ev->evsel);
	if (idx < 0 || (size_t)idx >= st->nr_evsels)
		return;
	if (ev->type == RP_RECORD_SAMPLE && (ev->u.sample.sample_type & RP_SAMPLE_READ)) {
		rp_stats_count_read(st, &ev->u.sample);
	} else if (ev->type == RP_RECORD_SAMPLE) {
		/* With branch stacks perf report works in branch mode: one
		 * histogram entry, and one counted sample, per branch. */
		if (st->branch_mode)
			st->samples[idx] += (ev->u.sample.sample_type & RP_SAMPLE_BRANCH_STACK)
						    ? ev->u.sample.branch_nr
						    : 0;
		else
			st->samples[idx]++;
	}
	else if (ev->type == RP_RECORD_LOST_SAMPLES)
		st->lost_samples[idx] += ev->u.lost.lost;
}

static int rp_stats_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	(void)res;
	rp_stats_count(ctx, ev);
	return 0;
}

struct rp_consumer rp_stats_consumer(struct rp_stats *st)
{
	struct rp_consumer c = { .ctx = st, .event = rp_stats_event, .flags = 0 };

	return c;
}

uint64_t rp_stats_samples(const struct rp_stats *st, size_t idx)
{
	return idx < st->nr_evsels ? st->samples[idx] : 0;
}

uint64_t rp_stats_lost_samples(const struct rp_stats *st, size_t idx)
{
	return idx < st->nr_evsels ? st->lost_samples[idx] : 0;
}

int rp_stats_write_counts(FILE *fp, const uint64_t *nr, size_t nr_types, int with_aux_note)
{
	uint64_t total = 0;
	size_t end = nr_types < RP_STATS_PERF61_TYPES ? nr_types : RP_STATS_PERF61_TYPES;

	for (uint32_t t = 1; t < end; t++)
		if (rp_stats_type_name(t))
			total += nr[t];
	fprintf(fp, "\nAggregated stats:%s\n",
		with_aux_note ? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)"
			      : "");
	/* perf keeps these counters in u32 and prints them with %d. */
	fprintf(fp, "%16s events: %10d\n", "TOTAL", (int)(uint32_t)total);
	for (uint32_t t = 1; t < end; t++) {
		const char *name = rp_stats_type_name(t);

		if (!name || !nr[t])
			continue;
		if ((uint32_t)total)
			fprintf(fp, "%16s events: %10d  (%4.1f%%)\n", name,
				(int)(uint32_t)nr[t], 100.0 * (uint32_t)nr[t] / (uint32_t)total);
		else
			fprintf(fp, "%16s events: %10d\n", name, (int)(uint32_t)nr[t]);
	}
	return ferror(fp) ? RP_ERR_IO : 0;
}

int rp_stats_write(const struct rp_stats *st, FILE *fp)
{
	uint64_t nr[RP_RECORD_MAX];

	for (uint32_t t = 0; t < RP_RECORD_MAX; t++)
		nr[t] = rp_session_nr_records(st->session, t);
	int ret = rp_stats_write_counts(fp, nr, RP_RECORD_MAX,
					rp_session_has_feature(st->session, RP_FEAT_AUXTRACE));

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < st->nr_evsels; i++) {
		/* perf report --stats skips events with neither (perf report
		 * -D counts no lost samples per event: its dump does not pass
		 * LOST_SAMPLES records here). */
		if (!st->samples[i] && !st->lost_samples[i])
			continue;
		fprintf(fp, "%s stats:\n", rp_evsel_name(rp_session_evsel(st->session, i)));
		if (st->samples[i])
			fprintf(fp, "%16s events: %10d\n", "SAMPLE", (int)(uint32_t)st->samples[i]);
		if (st->lost_samples[i])
			fprintf(fp, "%16s events: %10d\n", "LOST_SAMPLES",
				(int)(uint32_t)st->lost_samples[i]);
	}
	return ferror(fp) ? RP_ERR_IO : 0;
}

/* The stats output: the counts and where they go. */
struct rp_stats_output {
	struct rp_stats *stats;
	FILE *f;
};

static int rp_stats_output_create(void **state, const struct rp_output_env *env,
				  const void *opts, const struct rp_output_target *target,
				  struct rp_error *err)
{
	struct rp_stats_output *o = calloc(1, sizeof(*o));

	(void)opts;
	if (!o || rp_stats_new(&o->stats, env->session) < 0) {
		free(o);
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	}
	o->f = target->stream;
	*state = o;
	return 0;
}

static struct rp_consumer rp_stats_output_consumer(void *state)
{
	struct rp_stats_output *o = state;

	return rp_stats_consumer(o->stats);
}

static int rp_stats_output_finish(void *state, struct rp_error *err)
{
	struct rp_stats_output *o = state;

	if (rp_stats_write(o->stats, o->f) < 0 || fflush(o->f) != 0)
		return rp_error_set(err, RP_ERR_IO, "cannot write the stats");
	return 0;
}

static void rp_stats_output_destroy(void *state)
{
	struct rp_stats_output *o = state;

	rp_stats_free(o->stats);
	free(o);
}

const struct rp_output_def rp_output_stats = {
	.name = "stats",
	.flags = RP_OUTPUT_FILE_ORDER,
	.create = rp_stats_output_create,
	.consumer = rp_stats_output_consumer,
	.finish = rp_stats_output_finish,
	.destroy = rp_stats_output_destroy,
};
