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
 *
 * Records arrive as sorted runs (each CPU's ring buffer is written in time
 * order, and what a flush leaves is sorted), so the sort is a natural merge
 * sort: each pass merges neighbouring runs, and a queue of r runs is sorted
 * in ceil(log2 r) linear passes, with no comparison callback.  The key
 * (time, nr) is unique, so the order is the same as any stable sort by
 * time in file order.  The merge buffer lives in the same allocation as
 * the queue: q->alloc entries, then q->alloc more for merging.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_int.h"
#include "format/session_int.h"

/* A queue of at least this many unsorted records is sorted on several
 * threads (rp_session_set_threads()), at most this many. */
#define RP_SORT_PARALLEL_MIN (1u << 14)
#define RP_SORT_MAX_THREADS 8u

/* Whether a sorts before b: by time, then file order. */
static inline int rp_qent_before(const struct rp_qent *a, const struct rp_qent *b)
{
	return a->time < b->time || (a->time == b->time && a->nr < b->nr);
}

/* The end of the sorted run that starts at i (exclusive), at most n. */
static size_t rp_run_end(const struct rp_qent *v, size_t i, size_t n)
{
	while (i + 1 < n && !rp_qent_before(&v[i + 1], &v[i]))
		i++;
	return i + 1 < n ? i + 1 : n;
}

/* Merges the sorted runs a[0, na) and b[0, nb) into dst. */
static void rp_merge(struct rp_qent *dst, const struct rp_qent *a, size_t na,
		     const struct rp_qent *b, size_t nb)
{
	size_t i = 0, j = 0, k = 0;

	/* A run wholly before the other is copied as it is. */
	if (na && nb && !rp_qent_before(&b[0], &a[na - 1])) {
		memcpy(dst, a, na * sizeof(*a));
		memcpy(dst + na, b, nb * sizeof(*b));
		return;
	}
	while (i < na && j < nb) {
		if (rp_qent_before(&b[j], &a[i]))
			dst[k++] = b[j++];
		else
			dst[k++] = a[i++];
	}
	if (i < na)
		memcpy(dst + k, a + i, (na - i) * sizeof(*a));
	if (j < nb)
		memcpy(dst + k, b + j, (nb - j) * sizeof(*b));
}

/*
 * Sorts v[0, n) with tmp (room for n entries): passes merge neighbouring
 * runs from one buffer into the other until one run is left.
 */
static void rp_natural_sort(struct rp_qent *v, struct rp_qent *tmp, size_t n)
{
	struct rp_qent *src = v, *dst = tmp;

	for (;;) {
		size_t i = 0, runs = 0;

		while (i < n) {
			size_t m = rp_run_end(src, i, n);

			runs++;
			if (m == n) {
				if (runs == 1)
					goto done; /* sorted */
				memcpy(dst + i, src + i, (n - i) * sizeof(*src));
				break;
			}
			size_t e = rp_run_end(src, m, n);

			rp_merge(dst + i, src + i, m - i, src + m, e - m);
			i = e;
		}
		struct rp_qent *t = src;
		src = dst;
		dst = t;
	}
done:
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
}

/* One part of a sort on several threads. */
struct rp_sort_part {
	struct rp_qent *v, *tmp;
	size_t n;
	pthread_t tid;
};

static void *rp_sort_part_main(void *arg)
{
	struct rp_sort_part *p = arg;

	rp_natural_sort(p->v, p->tmp, p->n);
	return NULL;
}

/*
 * Sorts v[0, n) on up to `threads` threads: each sorts a slice of its own
 * (in its own part of tmp), then the calling thread merges neighbouring
 * slices until one is left (one pass with two threads).  The key (time, nr) is unique,
 * so the result is the one rp_natural_sort() gives.  Without threads (one
 * could not be made), the calling thread does that part's work.
 */
static void rp_parallel_sort(struct rp_qent *v, struct rp_qent *tmp, size_t n, unsigned threads)
{
	struct rp_sort_part part[RP_SORT_MAX_THREADS];
	unsigned k = threads < RP_SORT_MAX_THREADS ? threads : RP_SORT_MAX_THREADS;

	for (unsigned i = 0; i < k; i++) {
		size_t from = n * i / k, to = n * (i + 1) / k;

		part[i] = (struct rp_sort_part){ v + from, tmp + from, to - from, 0 };
	}
	/* Part 0 on this thread; a part whose thread was not made too. */
	int made[RP_SORT_MAX_THREADS] = { 0 };
	for (unsigned i = 1; i < k; i++)
		made[i] = pthread_create(&part[i].tid, NULL, rp_sort_part_main, &part[i]) == 0;
	rp_sort_part_main(&part[0]);
	for (unsigned i = 1; i < k; i++) {
		if (made[i])
			pthread_join(part[i].tid, NULL);
		else
			rp_sort_part_main(&part[i]);
	}
	/* Merge rounds: slices [a, b) and [b, c) into tmp, then back. */
	for (unsigned w = 1; w < k; w *= 2) {
		for (unsigned i = 0; i + w < k; i += 2 * w) {
			struct rp_sort_part *a = &part[i], *b = &part[i + w];
			size_t na = a->n, nb = b->n;

			rp_merge(a->tmp, a->v, na, b->v, nb);
			memcpy(a->v, a->tmp, (na + nb) * sizeof(*v));
			a->n = na + nb;
		}
	}
}

static void rp_order_sort(struct rp_order_queue *q)
{
	if (!q->sorted && q->nr > q->head) {
		size_t n = q->nr - q->head;

		if (q->nr_threads >= 2 && n >= RP_SORT_PARALLEL_MIN)
			rp_parallel_sort(q->ents + q->head, q->ents + q->alloc, n, q->nr_threads);
		else
			rp_natural_sort(q->ents + q->head, q->ents + q->alloc, n);
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

/* Doubles the queue's room (entries and merge buffer).  Returns 0 or -1. */
static int rp_order_grow(struct rp_order_queue *q)
{
	size_t n = q->alloc ? q->alloc * 2 : 1024;
	struct rp_qent *p;

	if (n < q->alloc || n > SIZE_MAX / 2 / sizeof(*p))
		return -1;
	p = realloc(q->ents, 2 * n * sizeof(*p));
	if (!p)
		return -1;
	q->ents = p;
	q->alloc = n;
	return 0;
}

int rp_order_push(struct rp_session *s, uint64_t time, uint64_t nr, uint64_t offset,
		  const uint8_t *rec, const struct rp_evsel *evsel, struct rp_zchunk *chunk,
		  uint32_t input)
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
		q->max_timestamp = time;
	else if (time > q->max_timestamp)
		q->max_timestamp = time;
	if (time < q->last_flush)
		s->stats.nr_unordered++;
	if (q->nr >= q->alloc && rp_order_grow(q) < 0)
		return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory queueing records");
	if (q->nr > q->head && time < q->ents[q->nr - 1].time)
		q->sorted = 0;
	/* Field by field: a copy of a struct built by the caller would read
	 * it back in wider loads than it was stored with. */
	struct rp_qent *e = &q->ents[q->nr++];
	e->time = time;
	e->nr = nr;
	e->offset = offset;
	e->rec = rec;
	e->evsel = evsel;
	e->chunk = chunk;
	e->input = input;

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

void rp_order_release(struct rp_order_queue *q)
{
	free(q->ents);
	memset(q, 0, sizeof(*q));
}
