/* SPDX-License-Identifier: MIT */
/* The progress bar of long runs (see include/readperf/progress.h). */
#include <readperf/progress.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Redraw at most this often, ns. */
#define RP_PROGRESS_INTERVAL_NS 100000000ull
/* Records between two looks at the clock. */
#define RP_PROGRESS_CHECK_EVERY 1024u
/* Cells of the bar. */
#define RP_PROGRESS_WIDTH 30

struct rp_progress {
	FILE *out;
	uint64_t data_offset, data_size; /* bytes */
	uint64_t records;
	uint64_t last_offset;
	uint64_t start_ns, last_draw_ns;
	int drawn;
};

static uint64_t rp_progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct rp_progress *rp_progress_new(FILE *out, const struct rp_session *session,
				    unsigned flags)
{
	struct rp_progress *p;

	if (!out || !session)
		return NULL;
	if (!(flags & RP_PROGRESS_FORCE) && !isatty(fileno(out)))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->out = out;
	p->data_offset = rp_session_data_offset(session);
	p->data_size = rp_session_data_size(session);
	p->start_ns = p->last_draw_ns = rp_progress_now();
	return p;
}

static void rp_progress_draw(struct rp_progress *p, uint64_t now)
{
	uint64_t done = p->last_offset > p->data_offset ? p->last_offset - p->data_offset : 0;
	char bar[RP_PROGRESS_WIDTH + 1];
	unsigned pct, cells;

	if (p->data_size && done > p->data_size)
		done = p->data_size;
	pct = p->data_size ? (unsigned)(done * 100 / p->data_size) : 0;
	cells = pct * RP_PROGRESS_WIDTH / 100;
	for (unsigned i = 0; i < RP_PROGRESS_WIDTH; i++)
		bar[i] = i < cells ? '=' : i == cells ? '>' : ' ';
	bar[RP_PROGRESS_WIDTH] = 0;
	fprintf(p->out, "\r[%s] %3u%%  %.1f MiB of %.1f MiB  %" PRIu64 " records  %.1fs\033[K", bar,
		pct, (double)done / 1048576.0, (double)p->data_size / 1048576.0, p->records,
		(double)(now - p->start_ns) / 1e9);
	fflush(p->out);
	p->drawn = 1;
	p->last_draw_ns = now;
}

static int rp_progress_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_progress *p = ctx;

	(void)res;
	if (!p)
		return 0;
	p->records++;
	if (ev->offset > p->last_offset)
		p->last_offset = ev->offset;
	if (p->records % RP_PROGRESS_CHECK_EVERY == 0) {
		uint64_t now = rp_progress_now();

		if (now - p->last_draw_ns >= RP_PROGRESS_INTERVAL_NS)
			rp_progress_draw(p, now);
	}
	return 0;
}

struct rp_consumer rp_progress_consumer(struct rp_progress *progress)
{
	struct rp_consumer c = { progress, rp_progress_event, 0 };
	return c;
}

void rp_progress_finish(struct rp_progress *progress)
{
	if (!progress || !progress->drawn)
		return;
	fputs("\r\033[K", progress->out);
	fflush(progress->out);
	progress->drawn = 0;
}

void rp_progress_free(struct rp_progress *progress)
{
	free(progress);
}
