/* SPDX-License-Identifier: MIT */
/*
 * The session: opening and mapping the file, and rp_session_next(), which
 * walks the data section record by record (bounds-checked), routes kernel
 * records through the time-order queue and user records (FINISHED_ROUND,
 * ID_INDEX, ...) straight to the caller, as perf's session.c does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cursor.h"
#include "common/error_int.h"
#include "format/session_int.h"

static int rp_session_map(struct rp_session *s)
{
	struct stat st;

	s->fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		int e = errno;

		rp_error_set(&s->err, RP_ERR_IO, "cannot open: %s", strerror(e));
		s->err.sys_errno = e;
		return RP_ERR_IO;
	}
	if (fstat(s->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = errno;

		rp_error_set(&s->err, RP_ERR_IO, "not a regular file");
		s->err.sys_errno = e;
		return RP_ERR_IO;
	}
	s->size = (uint64_t)st.st_size;
	if (s->size == 0)
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, 0, "empty file");
	void *p = mmap(NULL, (size_t)s->size, PROT_READ, MAP_PRIVATE, s->fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		rp_error_set(&s->err, RP_ERR_IO, "cannot map: %s", strerror(e));
		s->err.sys_errno = e;
		return RP_ERR_IO;
	}
	s->map = p;
	madvise(p, (size_t)s->size, MADV_SEQUENTIAL);
	return 0;
}

int rp_session_open(struct rp_session **out, const char *path,
		    const struct rp_session_opts *opts, struct rp_error *err)
{
	struct rp_session *s;
	int ret;

	*out = NULL;
	if (opts && opts->sz < offsetof(struct rp_session_opts, max_queued))
		return rp_error_set(err, RP_ERR_INVAL, "bad rp_session_opts size");
	s = calloc(1, sizeof(*s));
	if (!s)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	s->fd = -1;
	s->path = strdup(path ? path : "perf.data");
	if (!s->path) {
		free(s);
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	}
	s->opts.sz = sizeof(s->opts);
	if (opts) {
		size_t n = opts->sz < sizeof(s->opts) ? opts->sz : sizeof(s->opts);

		memcpy(&s->opts, opts, n);
		s->opts.sz = sizeof(s->opts);
	}
	if (!s->opts.max_queued)
		s->opts.max_queued = RP_QUEUE_MAX_DEFAULT;
	s->queue.max = s->opts.max_queued;

	ret = rp_session_map(s);
	if (ret == 0)
		ret = rp_header_read(s);
	if (ret < 0) {
		if (err)
			*err = s->err;
		rp_session_close(s);
		return ret;
	}
	*out = s;
	return 0;
}

void rp_session_close(struct rp_session *s)
{
	if (!s)
		return;
	if (s->map)
		munmap((void *)s->map, (size_t)s->size);
	if (s->fd >= 0)
		close(s->fd);
	rp_order_release(&s->queue);
	rp_zreader_release(&s->z);
	rp_hashmap_release(&s->id_map);
	rp_arena_release(&s->arena);
	free(s->scratch);
	free(s->path);
	free(s);
}

/* Stops the reader on a framing error: nothing after it can be trusted. */
static void rp_session_stop(struct rp_session *s, int code)
{
	s->stop_code = code;
	s->stop_err = s->err;
	s->eof = 1;
	s->stats.bytes_skipped = s->data_end - s->pos;
}

/* Checks the framing of the record at p (avail bytes left); off is its
 * input offset for errors.  Returns 1 with *size, or a negative error. */
static int rp_check_framing(struct rp_session *s, const uint8_t *p, uint64_t avail,
			    uint64_t off, uint32_t *size)
{
	if (avail < 8) {
		rp_error_set_at(&s->err, RP_ERR_TRUNCATED, off,
				"data ends inside a record header");
		return RP_ERR_TRUNCATED;
	}
	uint32_t type = rp_load32(p, s->swap);
	uint32_t sz = rp_load16(p + 6, s->swap);

	if (sz < 8) {
		rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, type, "bad record size %u", sz);
		return RP_ERR_CORRUPT;
	}
	if (sz > avail) {
		rp_error_set_record(&s->err, RP_ERR_TRUNCATED, off, type,
				    "record of %u bytes runs past the end of the data", sz);
		return RP_ERR_TRUNCATED;
	}
	*size = sz;
	return 1;
}

/* An AUXTRACE record is followed by its trace data (auxtrace.size bytes,
 * outside the record's own size): step over it. */
static int rp_skip_auxtrace(struct rp_session *s, const uint8_t *rec, uint32_t size,
			    uint64_t off)
{
	uint64_t payload;

	if (size < 16) {
		rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, RP_RECORD_AUXTRACE,
				    "AUXTRACE record too short (%u bytes)", size);
		return RP_ERR_CORRUPT;
	}
	payload = rp_load64(rec + 8, s->swap);
	if (payload > s->data_end - s->pos) {
		rp_error_set_record(&s->err, RP_ERR_TRUNCATED, off, RP_RECORD_AUXTRACE,
				    "AUXTRACE data of %llu bytes runs past the end of the data",
				    (unsigned long long)payload);
		return RP_ERR_TRUNCATED;
	}
	s->pos += payload;
	return 1;
}

/* Inflates a COMPRESSED or COMPRESSED2 record into a new chunk. */
static int rp_inflate(struct rp_session *s, const uint8_t *rec, uint32_t size, uint32_t type,
		      uint64_t off)
{
	const uint8_t *payload = rec + 8;
	uint64_t len = size - 8u;

	if (type == RP_RECORD_COMPRESSED2) {
		/* The payload is padded to 8 bytes; data_size tells its end. */
		if (len < 8 || rp_load64(payload, s->swap) > len - 8) {
			rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, type,
					    "compressed data size beyond its record");
			return RP_ERR_CORRUPT;
		}
		len = rp_load64(payload, s->swap);
		payload += 8;
	}
	return rp_zreader_inflate(&s->z, payload, (size_t)len, off, type, &s->err);
}

/*
 * Reads the next record: from the current inflated chunk while it holds a
 * whole record, else from the file (inflating compressed records on the
 * way).  Returns 1 with *rec, *size, *off (input offset; for inflated
 * records the compressed record's) and *chunk set, 0 at the end of the
 * data, or a negative error (the reader then stops).
 */
static int rp_next_raw(struct rp_session *s, const uint8_t **rec, uint32_t *size,
		       uint64_t *off, struct rp_zchunk **chunk)
{
	for (;;) {
		struct rp_zchunk *c = s->z.cur;

		if (c && c->len - c->head >= 8) {
			const uint8_t *p = c->data + c->head;
			uint32_t sz = rp_load16(p + 6, s->swap);

			if (sz >= 8 && sz <= c->len - c->head) {
				c->head += sz;
				*rec = p;
				*size = sz;
				*off = c->offset;
				*chunk = c;
				return 1;
			}
			if (sz < 8) {
				rp_error_set_record(&s->err, RP_ERR_CORRUPT, c->offset,
						    rp_load32(p, s->swap),
						    "bad record size %u inside compressed data", sz);
				return RP_ERR_CORRUPT;
			}
			/* A record continued in the next compressed record. */
		}
		if (s->pos >= s->data_end) {
			if (c && c->head < c->len) {
				rp_error_set_at(&s->err, RP_ERR_TRUNCATED, c->offset,
						"compressed data ends inside a record");
				return RP_ERR_TRUNCATED;
			}
			return 0;
		}
		const uint8_t *p = s->map + s->pos;
		uint32_t sz;
		int ret = rp_check_framing(s, p, s->data_end - s->pos, s->pos, &sz);
		if (ret < 0)
			return ret;
		uint32_t type = rp_load32(p, s->swap);
		if (type != RP_RECORD_COMPRESSED && type != RP_RECORD_COMPRESSED2) {
			*rec = p;
			*size = sz;
			*off = s->pos;
			*chunk = NULL;
			s->pos += sz;
			if (type == RP_RECORD_AUXTRACE)
				return rp_skip_auxtrace(s, p, sz, *off);
			return 1;
		}
		s->stats.nr_records[type]++;
		s->nr_next++;
		ret = rp_inflate(s, p, sz, type, s->pos);
		if (ret < 0)
			return ret;
		s->pos += sz;
	}
}

/* Decodes a record for the caller.  A record whose contents contradict
 * its type stops the reader, as it stops perf.  Returns 1 or 0 (stopped). */
static int rp_deliver(struct rp_session *s, const uint8_t *rec, uint64_t off, uint64_t nr,
		      const struct rp_evsel *evsel, struct rp_event *ev)
{
	int ret = rp_record_decode(s, rec, off, nr, evsel, ev);

	if (ret < 0) {
		rp_session_stop(s, ret);
		return 0;
	}
	if (ev->type == RP_RECORD_SAMPLE && !evsel)
		s->stats.nr_unknown_id++;
	if (ev->type == RP_RECORD_LOST)
		s->stats.nr_lost += ev->u.lost.lost;
	else if (ev->type == RP_RECORD_LOST_SAMPLES)
		s->stats.nr_lost_samples += ev->u.lost.lost;
	return 1;
}

static int rp_known_type(uint32_t type)
{
	return rp_record_type_name(type) != NULL;
}

int rp_session_next(struct rp_session *s, struct rp_event *ev)
{
	rp_zreader_collect(&s->z);
	for (;;) {
		const struct rp_qent *q = rp_order_pop(s);

		if (q) {
			if (q->chunk)
				q->chunk->pending--;
			if (rp_deliver(s, q->rec, q->offset, q->nr, q->evsel, ev))
				return 1;
			continue;
		}
		if (s->held_rec) {
			const uint8_t *rec = s->held_rec;

			s->held_rec = NULL;
			if (s->held_chunk)
				s->held_chunk->pending--;
			if (rp_deliver(s, rec, s->held_off, s->held_nr, NULL, ev))
				return 1;
			continue;
		}
		if (s->eof) {
			if (!rp_order_empty(s)) {
				rp_order_flush(s, 0, 1);
				continue;
			}
			if (s->stop_code)
				s->err = s->stop_err;
			return s->stop_code;
		}

		const uint8_t *rec;
		uint32_t size;
		uint64_t off;
		struct rp_zchunk *chunk;
		int ret = rp_next_raw(s, &rec, &size, &off, &chunk);

		if (ret <= 0) {
			if (ret < 0)
				rp_session_stop(s, ret);
			s->eof = 1;
			continue;
		}
		uint64_t nr = s->nr_next++;
		uint32_t type = rp_load32(rec, s->swap);

		if (!rp_known_type(type)) {
			s->stats.nr_unknown_records++;
			continue;
		}
		s->stats.nr_records[type]++;

		if (type >= RP_RECORD_HEADER_ATTR) {
			if (s->opts.order == RP_ORDER_TIME && type == RP_RECORD_FINISHED_ROUND) {
				rp_order_flush(s, s->queue.next_flush, 0);
				s->queue.next_flush = s->queue.max_timestamp;
			} else if (s->opts.order == RP_ORDER_TIME && type == RP_RECORD_FINISHED_INIT) {
				/* Everything before it was synthesized. */
				rp_order_flush(s, 0, 1);
			}
			/* User records take effect at once, after what they
			 * flushed. */
			s->held_rec = rec;
			s->held_off = off;
			s->held_nr = nr;
			s->held_chunk = chunk;
			if (chunk)
				chunk->pending++;
			continue;
		}

		const struct rp_evsel *evsel = rp_record_evsel(s, rec, type, size);
		if (s->opts.order == RP_ORDER_TIME && s->sample_id_all && evsel) {
			uint64_t t = rp_record_time(s, evsel, rec, type, size);

			/* perf delivers records without a time, or with time 0
			 * (synthesized ones), at once. */
			if (t != (uint64_t)-1 && t != 0) {
				struct rp_qent e = { t, nr, off, rec, evsel, chunk };

				if (rp_order_push(s, &e) < 0) {
					rp_session_stop(s, RP_ERR_NOMEM);
					continue;
				}
				if (chunk)
					chunk->pending++;
				continue;
			}
		}
		if (rp_deliver(s, rec, off, nr, evsel, ev))
			return 1;
	}
}

const struct rp_error *rp_session_error(const struct rp_session *s)
{
	return &s->err;
}

const struct rp_header_info *rp_session_header(const struct rp_session *s)
{
	return &s->info;
}

const struct rp_session_stats *rp_session_stats(const struct rp_session *s)
{
	return &s->stats;
}

size_t rp_session_nr_evsels(const struct rp_session *s)
{
	return s->nr_evsels;
}

const struct rp_evsel *rp_session_evsel(const struct rp_session *s, size_t i)
{
	return i < s->nr_evsels ? &s->evsels[i] : NULL;
}

const char *rp_session_path(const struct rp_session *s)
{
	return s->path;
}

uint64_t rp_session_size(const struct rp_session *s)
{
	return s->size;
}

uint64_t rp_session_data_offset(const struct rp_session *s)
{
	return s->data_off;
}

uint64_t rp_session_data_size(const struct rp_session *s)
{
	return s->data_size;
}
