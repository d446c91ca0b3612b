/* SPDX-License-Identifier: MIT */
/* Text formatted on worker threads, written in order: see fmtpool.h. */
#include "outputs/fmtpool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>

enum rp_fmtbatch_state { RP_FB_FREE, RP_FB_GATHER, RP_FB_READY, RP_FB_BUSY, RP_FB_DONE };

struct rp_fmtbatch {
	uint8_t *data;          /* RP_FMTPOOL_BATCH bytes */
	size_t size;            /* bytes gathered */
	struct rp_linebuf text; /* what the worker made of them */
	uint64_t seq;           /* the order of hand-over */
	enum rp_fmtbatch_state state;
};

struct rp_fmtpool {
	FILE *f;
	rp_fmtpool_fn fn;
	void *ctx;
	pthread_t workers[RP_FMTPOOL_MAX_WORKERS];
	unsigned nr_workers;
	pthread_mutex_t lock;
	pthread_cond_t work;  /* a batch is ready, or stop */
	pthread_cond_t space; /* a batch is free, or everything is written */
	struct rp_fmtbatch b[RP_FMTPOOL_BATCHES];
	struct rp_fmtbatch *cur; /* being gathered by the caller */
	uint64_t next_seq;       /* of the next batch handed over */
	uint64_t next_write;     /* of the next batch to write */
	int writing;             /* a worker is writing batches out */
	int stop;
	int err;                 /* the first error */
	int finished;
};

/* The lowest-numbered batch in state st, or NULL.  Under the lock. */
static struct rp_fmtbatch *rp_fmtpool_find(struct rp_fmtpool *p, enum rp_fmtbatch_state st)
{
	struct rp_fmtbatch *best = NULL;

	for (unsigned i = 0; i < RP_FMTPOOL_BATCHES; i++)
		if (p->b[i].state == st && (!best || p->b[i].seq < best->seq))
			best = &p->b[i];
	return best;
}

/* Writes the formatted batches that are next in order.  Under the lock,
 * which it drops while writing; one worker at a time. */
static void rp_fmtpool_write_ready(struct rp_fmtpool *p)
{
	if (p->writing)
		return;
	p->writing = 1;
	for (;;) {
		struct rp_fmtbatch *b = rp_fmtpool_find(p, RP_FB_DONE);

		if (!b || b->seq != p->next_write)
			break;
		int skip = p->err != 0; /* after an error nothing more is written */
		pthread_mutex_unlock(&p->lock);
		int bad = !skip && rp_lb_flush(&b->text, p->f) < 0;
		pthread_mutex_lock(&p->lock);
		if (bad && !p->err)
			p->err = ferror(p->f) ? RP_ERR_IO : RP_ERR_NOMEM;
		b->text.len = 0;
		b->size = 0;
		b->state = RP_FB_FREE;
		p->next_write++;
		pthread_cond_broadcast(&p->space);
	}
	p->writing = 0;
}

static void *rp_fmtpool_worker(void *arg)
{
	struct rp_fmtpool *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct rp_fmtbatch *b = rp_fmtpool_find(p, RP_FB_READY);

		if (!b) {
			if (p->stop)
				break;
			pthread_cond_wait(&p->work, &p->lock);
			continue;
		}
		b->state = RP_FB_BUSY;
		int skip = p->err != 0;
		pthread_mutex_unlock(&p->lock);
		int rc = skip ? 0 : p->fn(p->ctx, b->data, b->size, &b->text);
		pthread_mutex_lock(&p->lock);
		if (rc < 0 && !p->err)
			p->err = rc;
		b->state = RP_FB_DONE;
		rp_fmtpool_write_ready(p);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int rp_fmtpool_new(struct rp_fmtpool **out, FILE *f, unsigned nr_workers, rp_fmtpool_fn fn,
		   void *ctx)
{
	struct rp_fmtpool *p;

	*out = NULL;
	if (!f || !fn || !nr_workers || nr_workers > RP_FMTPOOL_MAX_WORKERS)
		return RP_ERR_INVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return RP_ERR_NOMEM;
	p->f = f;
	p->fn = fn;
	p->ctx = ctx;
	for (unsigned i = 0; i < RP_FMTPOOL_BATCHES; i++) {
		p->b[i].data = malloc(RP_FMTPOOL_BATCH);
		if (!p->b[i].data)
			goto nomem;
	}
	if (pthread_mutex_init(&p->lock, NULL))
		goto nomem;
	if (pthread_cond_init(&p->work, NULL)) {
		pthread_mutex_destroy(&p->lock);
		goto nomem;
	}
	if (pthread_cond_init(&p->space, NULL)) {
		pthread_cond_destroy(&p->work);
		pthread_mutex_destroy(&p->lock);
		goto nomem;
	}
	for (; p->nr_workers < nr_workers; p->nr_workers++)
		if (pthread_create(&p->workers[p->nr_workers], NULL, rp_fmtpool_worker, p))
			break;
	if (!p->nr_workers) {
		p->finished = 1;
		rp_fmtpool_free(p);
		return RP_ERR_NOMEM;
	}
	*out = p;
	return 0;
nomem:
	for (unsigned i = 0; i < RP_FMTPOOL_BATCHES; i++)
		free(p->b[i].data);
	free(p);
	return RP_ERR_NOMEM;
}

/* Hands the batch being gathered to the workers.  Under the lock. */
static void rp_fmtpool_hand_over(struct rp_fmtpool *p)
{
	if (!p->cur)
		return;
	p->cur->seq = p->next_seq++;
	p->cur->state = RP_FB_READY;
	p->cur = NULL;
	pthread_cond_signal(&p->work);
}

void *rp_fmtpool_reserve(struct rp_fmtpool *p, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (n > RP_FMTPOOL_BATCH)
		return NULL;
	if (p->cur && p->cur->size + n <= RP_FMTPOOL_BATCH) {
		void *at = p->cur->data + p->cur->size;

		p->cur->size += n;
		return at;
	}
	pthread_mutex_lock(&p->lock);
	rp_fmtpool_hand_over(p);
	struct rp_fmtbatch *b;
	while (!p->err && !(b = rp_fmtpool_find(p, RP_FB_FREE)))
		pthread_cond_wait(&p->space, &p->lock);
	if (p->err) {
		pthread_mutex_unlock(&p->lock);
		return NULL;
	}
	b->state = RP_FB_GATHER;
	b->size = n;
	p->cur = b;
	pthread_mutex_unlock(&p->lock);
	return b->data;
}

int rp_fmtpool_failure(struct rp_fmtpool *p)
{
	pthread_mutex_lock(&p->lock);
	int err = p->err ? p->err : RP_ERR_NOMEM;
	pthread_mutex_unlock(&p->lock);
	return err;
}

int rp_fmtpool_finish(struct rp_fmtpool *p)
{
	if (p->finished)
		return p->err;
	pthread_mutex_lock(&p->lock);
	rp_fmtpool_hand_over(p);
	while (p->next_write != p->next_seq)
		pthread_cond_wait(&p->space, &p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nr_workers; i++)
		pthread_join(p->workers[i], NULL);
	p->finished = 1;
	return p->err;
}

void rp_fmtpool_free(struct rp_fmtpool *p)
{
	if (!p)
		return;
	rp_fmtpool_finish(p);
	pthread_cond_destroy(&p->space);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	for (unsigned i = 0; i < RP_FMTPOOL_BATCHES; i++) {
		free(p->b[i].data);
		rp_lb_release(&p->b[i].text);
	}
	free(p);
}
