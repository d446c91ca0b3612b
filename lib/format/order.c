/* SPDX-License-Identifier: MIT */
/*
 * Time order as perf's ordered_events delivers it (tools/perf/util/
 * ordered-events.c): records are queued by time; at each FINISHED_ROUND the
 * records up to the largest time seen before the previous round are
 * delivered, sorted by time and, for equal times, in file order; the rest
 * waits.  A queue over its cap delivers its older half early.
 *
 * The queue is an array: new records are appended, and a flush sorts the
 * waiting records and marks a deliverable prefix.  Memory is bounded by
 * the records of about two rounds (or by the cap).
 */
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/error_int.h"
#include "format/session_int.h"

static int rp_qent_cmp(const void *a, const void *b)
{
	const struct rp_qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static void rp_order_sort(struct rp_order_queue *q)
{
	if (!q->sorted && q->nr > q->head) {
		qsort(q->ents + q->head, q->nr - q->head, sizeof(*q->ents), rp_qent_cmp);
		q->sorted = 1;
	}
}

void rp_order_flush(struct rp_session *s, uint64_t limit, int all)
{
	struct rp_order_queue *q = &s->queue;
	size_t i;

	rp_order_sort(q);
	if (all) {
		i = q->nr;
	} else {
		/* Binary search for the first entry with time > limit. */
		size_t lo = q->head, hi = q->nr;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (q->ents[mid].time <= limit)
				lo = mid + 1;
			else
				hi = mid;
		}
		i = lo;
	}
	q->flush_end = i;
	if (i > q->head)
		q->last_flush = q->ents[i - 1].time;
}

int rp_order_push(struct rp_session *s, const struct rp_qent *e)
{
	struct rp_order_queue *q = &s->queue;

	/* Delivered entries are gone: reuse their room. */
	if (q->head == q->nr) {
		q->head = q->nr = q->flush_end = 0;
	} else if (q->head > q->nr / 2 && q->head == q->flush_end) {
		memmove(q->ents, q->ents + q->head, (q->nr - q->head) * sizeof(*q->ents));
		q->nr -= q->head;
		q->head = q->flush_end = 0;
	}
	if (q->nr == q->head)
		q->max_timestamp = e->time;
	else if (e->time > q->max_timestamp)
		q->max_timestamp = e->time;
	if (e->time < q->last_flush)
		s->stats.nr_unordered++;
	if (RP_ARRAY_RESERVE(q->ents, q->alloc, q->nr + 1) < 0)
		return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory queueing records");
	if (q->nr > q->head && e->time < q->ents[q->nr - 1].time)
		q->sorted = 0;
	q->ents[q->nr++] = *e;

	if (q->nr - q->head >= q->max) {
		/* perf's OE_FLUSH__HALF: deliver up to the middle time. */
		rp_order_sort(q);
		uint64_t first = q->ents[q->head].time, last = q->ents[q->nr - 1].time;
		q->next_flush = first + (last - first) / 2;
		rp_order_flush(s, q->next_flush, 0);
		if (q->flush_end == q->head)
			rp_order_flush(s, q->ents[q->head].time, 0);
	}
	return 0;
}

const struct rp_qent *rp_order_pop(struct rp_session *s)
{
	struct rp_order_queue *q = &s->queue;

	if (q->head >= q->flush_end)
		return NULL;
	return &q->ents[q->head++];
}

int rp_order_empty(const struct rp_session *s)
{
	return s->queue.head == s->queue.nr;
}

void rp_order_release(struct rp_order_queue *q)
{
	free(q->ents);
	memset(q, 0, sizeof(*q));
}
