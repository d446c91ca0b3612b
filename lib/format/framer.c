/* SPDX-License-Identifier: MIT */
/*
 * Framing the data.N files of a directory on threads of their own.
 *
 * A `perf record --threads` directory is read as perf reads it: a turn of
 * RP_DIR_TURN_BYTES from one file, then from the next, every record
 * numbered in that order and queued for time order (session.c
 * rp_next_raw()).  That order is kept as it is; what moves to other
 * threads is the work done on each record before it is queued: finding
 * where it ends (the first read of its header, the window's page faults),
 * its evsel and its time.  Each mapped input gets a ring of framed records
 * (struct rp_frec) filled by one framer thread; the session's reader takes
 * a file's turn from its ring instead of framing the records itself, so
 * the records, their numbers, times and flushes are those of one thread.
 *
 * A framer frames only the plain records of a mapped file (any record
 * type but AUXTRACE and COMPRESSED(2), with a size that fits): at anything
 * else (the end of the input, a bad size, a payload, compressed data) it
 * stops, and the reader, once the ring is drained, reads the rest of that
 * input itself from where the framer stopped, with every check and error
 * of one thread.
 *
 * Memory: a framer runs at most RP_FRAME_RING records and RP_FRAME_AHEAD
 * bytes ahead of the reader in each of its inputs, and waits when all of
 * its inputs are that far ahead, so a file whose records come late in
 * time does not make the others buffer without bound.  The window of a
 * mapped input slides with the framer's position, which is at most
 * RP_FRAME_AHEAD (less than a window) ahead of the reader's.
 *
 * Threads: framer k serves the inputs i with i % nr_threads == k.  The
 * ring indexes are exchanged under one mutex, in batches of RP_FRAME_BATCH
 * records.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/cursor.h"
#include "format/session_int.h"

#define RP_FRAME_RING 2048u          /* records per input (a power of two) */
#define RP_FRAME_RING_TOTAL (1u << 20) /* records in all the rings */
#define RP_FRAME_AHEAD (2u << 20)    /* bytes framed ahead of the reader */
#define RP_FRAME_BATCH 256u          /* records published at once */

/* One input's ring.  p_* belong to the framer, c_* to the reader, the
 * rest is read and written under the lock. */
struct rp_fring {
	struct rp_frec *ents;
	uint64_t mask;
	uint64_t head, tail;             /* records published, released */
	uint64_t bytes_head, bytes_tail; /* their bytes */
	uint64_t stop_pos;               /* where the framer stopped */
	uint8_t ended;                   /* the framer is done with it */
	/* framer */
	uint64_t p_head, p_bytes, p_tail, p_btail;
	uint8_t p_ended;
	/* reader */
	uint64_t c_pos;                  /* input offset after the last taken */
	uint64_t c_head, c_next, c_bytes;
	uint8_t c_ended, attached;
};

struct rp_framer_thread {
	struct rp_framers *f;
	unsigned k;
	pthread_t tid;
};

struct rp_framers {
	struct rp_session *s;
	struct rp_fring *rings; /* one per input */
	struct rp_framer_thread *threads;
	unsigned nr_threads;
	pthread_mutex_t lock;
	pthread_cond_t ready; /* records or an end were published */
	pthread_cond_t space; /* records were released, or stop */
	int stop;
	int reader_waiting, framers_waiting;
};

/* Frames up to RP_FRAME_BATCH records of input i within the ring's room.
 * Returns the records framed; sets p_ended at the first record the
 * framer leaves to the reader. */
static unsigned rp_frame_batch(struct rp_framers *f, size_t i)
{
	struct rp_session *s = f->s;
	struct rp_input *in = &s->inputs[i];
	struct rp_fring *r = &f->rings[i];
	const int want_time = s->opts.order == RP_ORDER_TIME && s->sample_id_all;
	unsigned n = 0;

	while (n < RP_FRAME_BATCH && r->p_head - r->p_tail <= r->mask &&
	       r->p_bytes - r->p_btail < RP_FRAME_AHEAD) {
		uint64_t at = in->pos;

		if (at >= in->end || in->end - at < 8) {
			r->p_ended = 1;
			break;
		}
		const uint8_t *p = in->map + at;
		uint32_t type = rp_load32(p, s->swap);
		uint32_t sz = rp_load16(p + 6, s->swap);

		if (sz < 8 || sz > in->end - at || type == RP_RECORD_AUXTRACE ||
		    type == RP_RECORD_COMPRESSED || type == RP_RECORD_COMPRESSED2) {
			r->p_ended = 1;
			break;
		}
		struct rp_frec *e = &r->ents[r->p_head & r->mask];

		e->rec = p;
		e->size = sz;
		e->type = type;
		e->evsel = NULL;
		e->time = (uint64_t)-1;
		if (type < RP_RECORD_HEADER_ATTR && s->known_type[type]) {
			const struct rp_evsel *evsel = s->nr_evsels == 1 ?
							       s->evsels[0] :
							       rp_record_evsel(s, p, type, sz);
			e->evsel = evsel;
			if (want_time && evsel)
				e->time = rp_record_time(s, evsel, p, type, sz);
		}
		r->p_head++;
		r->p_bytes += sz;
		n++;
		in->pos = at + sz;
		if (in->pos >= in->next_slide)
			rp_input_slide(in, at);
	}
	return n;
}

static void *rp_framer_main(void *arg)
{
	struct rp_framer_thread *t = arg;
	struct rp_framers *f = t->f;
	size_t nr = f->s->nr_inputs;

	for (;;) {
		int live = 0, progress = 0;

		for (size_t i = t->k; i < nr; i += f->nr_threads) {
			struct rp_fring *r = &f->rings[i];

			if (!r->ents || r->p_ended)
				continue;
			live = 1;
			unsigned n = rp_frame_batch(f, i);

			if (!n && !r->p_ended)
				continue;
			progress = 1;
			pthread_mutex_lock(&f->lock);
			r->head = r->p_head;
			r->bytes_head = r->p_bytes;
			if (r->p_ended) {
				r->ended = 1;
				r->stop_pos = f->s->inputs[i].pos;
			}
			r->p_tail = r->tail;
			r->p_btail = r->bytes_tail;
			if (f->reader_waiting)
				pthread_cond_signal(&f->ready);
			int stop = f->stop;
			pthread_mutex_unlock(&f->lock);
			if (stop)
				return NULL;
		}
		if (!live)
			return NULL;
		if (progress)
			continue;
		/* Every input of this framer is as far ahead as it may be. */
		pthread_mutex_lock(&f->lock);
		for (;;) {
			int room = 0;

			for (size_t i = t->k; i < nr; i += f->nr_threads) {
				struct rp_fring *r = &f->rings[i];

				if (!r->ents || r->p_ended)
					continue;
				r->p_tail = r->tail;
				r->p_btail = r->bytes_tail;
				if (r->p_head - r->p_tail <= r->mask &&
				    r->p_bytes - r->p_btail < RP_FRAME_AHEAD)
					room = 1;
			}
			if (room || f->stop)
				break;
			f->framers_waiting++;
			pthread_cond_wait(&f->space, &f->lock);
			f->framers_waiting--;
		}
		int stop = f->stop;
		pthread_mutex_unlock(&f->lock);
		if (stop)
			return NULL;
	}
}

void rp_framers_start(struct rp_session *s)
{
	struct rp_framers *f;
	size_t nr = 0, cap;
	unsigned want = s->nr_framers;

	s->nr_framers = 0; /* once */
	if (want < 2 || s->nr_inputs < 2 || s->pipe || s->cut_short)
		return;
	for (size_t i = 0; i < s->nr_inputs; i++)
		if (!s->inputs[i].stream && s->inputs[i].map && s->inputs[i].pos < s->inputs[i].end)
			nr++;
	if (nr < 2)
		return;
	if (want > nr)
		want = (unsigned)nr;
	cap = RP_FRAME_RING;
	while (cap > 256 && cap * nr > RP_FRAME_RING_TOTAL)
		cap /= 2;

	f = calloc(1, sizeof(*f));
	if (!f)
		return;
	f->s = s;
	f->rings = calloc(s->nr_inputs, sizeof(*f->rings));
	f->threads = calloc(want, sizeof(*f->threads));
	if (!f->rings || !f->threads)
		goto fail;
	for (size_t i = 0; i < s->nr_inputs; i++) {
		struct rp_input *in = &s->inputs[i];
		struct rp_fring *r = &f->rings[i];

		if (in->stream || !in->map || in->pos >= in->end)
			continue;
		r->ents = malloc(cap * sizeof(*r->ents));
		if (!r->ents)
			goto fail;
		r->mask = cap - 1;
		r->c_pos = in->pos;
		r->attached = 1;
	}
	if (pthread_mutex_init(&f->lock, NULL))
		goto fail;
	if (pthread_cond_init(&f->ready, NULL)) {
		pthread_mutex_destroy(&f->lock);
		goto fail;
	}
	if (pthread_cond_init(&f->space, NULL)) {
		pthread_cond_destroy(&f->ready);
		pthread_mutex_destroy(&f->lock);
		goto fail;
	}
	f->nr_threads = want;
	s->framers = f;
	for (unsigned k = 0; k < want; k++) {
		f->threads[k] = (struct rp_framer_thread){ f, k, 0 };
		if (pthread_create(&f->threads[k].tid, NULL, rp_framer_main, &f->threads[k])) {
			/* Fewer threads than inputs to serve: the ones made
			 * would leave some inputs to nobody.  Stop them all
			 * and read as one thread. */
			f->nr_threads = k;
			rp_framers_stop(s);
			return;
		}
	}
	return;
fail:
	if (f->rings)
		for (size_t i = 0; i < s->nr_inputs; i++)
			free(f->rings[i].ents);
	free(f->rings);
	free(f->threads);
	free(f);
}

/* Releases what the reader took since its last release (under the lock). */
static void rp_fring_release(struct rp_framers *f, struct rp_fring *r)
{
	r->tail = r->c_next;
	r->bytes_tail = r->c_bytes;
	if (f->framers_waiting)
		pthread_cond_broadcast(&f->space);
}

int rp_framed_next(struct rp_session *s, size_t i, struct rp_frec *out)
{
	struct rp_framers *f = s->framers;
	struct rp_fring *r;

	if (!f || !(r = &f->rings[i])->attached)
		return 0;
	if (r->c_next == r->c_head) {
		pthread_mutex_lock(&f->lock);
		rp_fring_release(f, r);
		while (r->head == r->c_next && !r->ended) {
			f->reader_waiting = 1;
			pthread_cond_wait(&f->ready, &f->lock);
			f->reader_waiting = 0;
		}
		r->c_head = r->head;
		r->c_ended = r->ended;
		uint64_t stop_pos = r->stop_pos;
		pthread_mutex_unlock(&f->lock);
		if (r->c_next == r->c_head) {
			/* Drained, and the framer is done with the input: the
			 * reader goes on from where the framer stopped. */
			s->inputs[i].pos = stop_pos;
			r->attached = 0;
			return 0;
		}
	}
	*out = r->ents[r->c_next & r->mask];
	r->c_next++;
	r->c_bytes += out->size;
	r->c_pos = (uint64_t)(out->rec - s->inputs[i].map) + out->size;
	if ((r->c_next & (RP_FRAME_BATCH - 1)) == 0 && r->c_next != r->c_head) {
		pthread_mutex_lock(&f->lock);
		rp_fring_release(f, r);
		pthread_mutex_unlock(&f->lock);
	}
	return 1;
}

void rp_framers_stop(struct rp_session *s)
{
	struct rp_framers *f = s->framers;

	if (!f)
		return;
	pthread_mutex_lock(&f->lock);
	f->stop = 1;
	pthread_cond_broadcast(&f->space);
	pthread_mutex_unlock(&f->lock);
	for (unsigned k = 0; k < f->nr_threads; k++)
		pthread_join(f->threads[k].tid, NULL);
	/* Inputs still fed by a ring: the reader's position is after the
	 * last record it took. */
	for (size_t i = 0; i < s->nr_inputs; i++) {
		struct rp_fring *r = &f->rings[i];

		if (r->attached)
			s->inputs[i].pos = r->c_pos;
		free(r->ents);
	}
	pthread_cond_destroy(&f->space);
	pthread_cond_destroy(&f->ready);
	pthread_mutex_destroy(&f->lock);
	free(f->rings);
	free(f->threads);
	free(f);
	s->framers = NULL;
}
