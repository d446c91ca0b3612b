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

#include "common/array.h"
#include "common/cursor.h"
#include "common/error_int.h"
#include "common/opts.h"
#include "format/session_int.h"

static int rp_pipe_prime(struct rp_session *s);

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
	if (rp_opts_copy(&s->opts, sizeof(s->opts), opts) < 0) {
		free(s->path);
		free(s);
		return rp_error_set(err, RP_ERR_INVAL,
				    "rp_session_opts has fields this library does not know");
	}
	if (!s->opts.max_queued)
		s->opts.max_queued = RP_QUEUE_MAX_DEFAULT;
	s->queue.max = s->opts.max_queued;
	for (uint32_t t = 0; t < RP_RECORD_MAX; t++)
		s->known_type[t] = rp_record_type_name(t) != NULL;
	if (!s->opts.max_deferred)
		s->opts.max_deferred = RP_DEFERRED_MAX_DEFAULT;
	rp_deferred_init(&s->deferred, !s->opts.no_merge_deferred, s->opts.max_deferred);

	ret = rp_inputs_open(s);
	for (size_t i = 0; ret == 0 && i < s->nr_inputs; i++)
		s->chunked |= s->inputs[i].stream;
	if (ret == 0)
		ret = rp_header_read(s);
	if (ret == 0 && s->pipe)
		ret = rp_pipe_prime(s);
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
	rp_framers_stop(s);
	rp_inputs_close(s);
	rp_order_release(&s->queue);
	rp_deferred_release(&s->deferred);
	free(s->primed);
	free(s->evsels);
	free(s->kcore_kallsyms);
	rp_hashmap_release(&s->id_map);
	rp_arena_release(&s->arena);
	rp_decoder_release(&s->dec);
	free(s->path);
	free(s);
}

/* Stops the reader on a framing error: nothing after it can be trusted. */
static void rp_session_stop(struct rp_session *s, int code)
{
	int first = !s->stop_code;

	/* The framers' inputs go back to the reader's position. */
	rp_framers_stop(s);
	s->stop_code = code;
	s->stop_err = s->err;
	s->eof = 1;
	s->stats.bytes_skipped = 0;
	for (size_t i = 0; i < s->nr_inputs; i++) {
		const struct rp_input *in = &s->inputs[i];

		if (!in->stream && !in->done && in->pos < in->end)
			s->stats.bytes_skipped += in->end - in->pos;
		/* What a recording cut short gave before the error. */
		if (first && s->cut_short && !in->stream && !in->done)
			s->stats.bytes_recovered += in->pos - (i == 0 ? s->data_off : 0);
	}
	/* The part of the data section that a cut file lacks. */
	if (s->data_cut_end > s->size)
		s->stats.bytes_skipped += s->data_cut_end - s->size;
}

/* A recording cut short ends at its first record that is not whole, or
 * not a record at all (the zeros a crash can leave): the bytes from there
 * on are counted in bytes_cut, the input ends there, and that is not an
 * error.  Returns 0 (the end of the input). */
static int rp_cut_short_end(struct rp_session *s, struct rp_input *in)
{
	if (!in->stream && in->end > in->pos) {
		s->stats.bytes_cut += in->end - in->pos;
		in->end = in->pos;
	}
	return 0;
}

/* Whether a record header read from a recording cut short can start a
 * record: no record has type 0, and records in a file are padded to 8
 * bytes, but for COMPRESSED (perf writes them unpadded: the next record
 * starts right after the zstd frame). */
static inline int rp_cut_short_plausible(uint32_t type, uint32_t size)
{
	return type != 0 && (!(size & 7) || type == RP_RECORD_COMPRESSED);
}

/* AUXTRACE and HEADER_TRACING_DATA records are followed by a payload
 * outside their own size: step over it (the tracing data of a pipe
 * stream is kept as the TRACING_DATA feature). */
static int rp_skip_payload(struct rp_session *s, struct rp_input *in, const uint8_t *rec,
			   uint32_t size, uint32_t type, uint64_t off)
{
	uint64_t payload;
	uint8_t *keep = NULL;
	int ret;

	if (size < (type == RP_RECORD_AUXTRACE ? 16u : 12u)) {
		rp_error_set_record(&s->err, RP_ERR_CORRUPT, off, type,
				    "%s record too short (%u bytes)", rp_record_type_name(type), size);
		return RP_ERR_CORRUPT;
	}
	if (type == RP_RECORD_AUXTRACE) {
		payload = rp_load64(rec + 8, s->swap);
	} else {
		payload = rp_load32(rec + 8, s->swap);
		if (s->pipe && payload <= RP_MAX_FEATURE_SIZE &&
		    !s->feat_buf[RP_FEAT_TRACING_DATA]) {
			keep = rp_arena_alloc(&s->arena, (size_t)payload + 1);
			if (keep) {
				s->feat_buf[RP_FEAT_TRACING_DATA] = keep;
				s->feat_off[RP_FEAT_TRACING_DATA] = in->pos;
				s->feat_size[RP_FEAT_TRACING_DATA] = payload;
				s->features[0] |= 1ull << RP_FEAT_TRACING_DATA;
			}
		}
	}
	ret = rp_input_skip(s, in, payload, keep);
	if (ret == RP_ERR_TRUNCATED && s->cut_short && !in->stream) {
		/* The record is not whole without its payload. */
		in->pos = off;
		return rp_cut_short_end(s, in);
	}
	if (ret == RP_ERR_TRUNCATED) {
		rp_error_set_record(&s->err, RP_ERR_TRUNCATED, off, type,
				    "%s data of %llu bytes runs past the end of the data",
				    rp_record_type_name(type), (unsigned long long)payload);
		return RP_ERR_TRUNCATED;
	}
	if (ret < 0)
		return ret;
	in->turn_bytes += payload;
	return 1;
}

/* Inflates a COMPRESSED or COMPRESSED2 record into a new chunk. */
static int rp_inflate(struct rp_session *s, struct rp_input *in, const uint8_t *rec,
		      uint32_t size, uint32_t type, uint64_t off)
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
	s->chunked = 1;
	return rp_zreader_inflate(&in->z, payload, (size_t)len, off, type, &s->err);
}

/*
 * Reads the next record of one input: from its current inflated chunk
 * while that holds a whole record, else from the input (inflating
 * compressed records on the way).  Returns 1 with *rec, *size, *off
 * (input offset; for inflated records the compressed record's) and
 * *chunk (the block or inflated chunk holding the record, NULL for a
 * mapping) set, 0 at the end of the input, or a negative error.
 */
static int rp_input_next(struct rp_session *s, struct rp_input *in, const uint8_t **rec,
			 uint32_t *size, uint64_t *off, struct rp_zchunk **chunk)
{
	for (;;) {
		struct rp_zchunk *c = in->z.cur;

		/* A kernel record wholly inside a mapped input, with no
		 * inflated records waiting: read in place.  Anything else
		 * (user records, which may carry a payload or be compressed,
		 * a bad size, the end) takes the general path below. */
		if ((!c || c->head == c->len) && !in->stream && in->pos < in->end &&
		    in->end - in->pos >= 8) {
			const uint8_t *p = in->map + in->pos;
			uint32_t type = rp_load32(p, s->swap);
			uint32_t sz = rp_load16(p + 6, s->swap);
			uint64_t at = in->pos;

			if (type < RP_RECORD_HEADER_ATTR && sz >= 8 && sz <= in->end - at &&
			    (!s->cut_short || rp_cut_short_plausible(type, sz))) {
				in->pos = at + sz;
				in->turn_bytes += sz;
				if (in->pos >= in->next_slide)
					rp_input_slide(in, at);
				*rec = p;
				*size = sz;
				*off = at;
				*chunk = NULL;
				return 1;
			}
		}

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
		size_t avail;
		const uint8_t *p = rp_input_peek(s, in, 8, &avail);
		if (!p)
			return RP_ERR_IO;
		if (avail < 8) {
			if (c && c->head < c->len) {
				if (s->cut_short)
					return rp_cut_short_end(s, in);
				rp_error_set_at(&s->err, RP_ERR_TRUNCATED, c->offset,
						"compressed data ends inside a record");
				return RP_ERR_TRUNCATED;
			}
			if (avail == 0)
				return 0;
			/* Some pipe streams end with a few stray bytes; perf
			 * stops there quietly. */
			if (s->pipe) {
				s->stats.bytes_skipped += avail;
				return 0;
			}
			if (s->cut_short)
				return rp_cut_short_end(s, in);
			rp_error_set_at(&s->err, RP_ERR_TRUNCATED, in->pos,
					"data ends inside a record header");
			return RP_ERR_TRUNCATED;
		}
		uint32_t type = rp_load32(p, s->swap);
		uint32_t sz = rp_load16(p + 6, s->swap);
		uint64_t at = in->pos;

		if (s->cut_short && (sz < 8 || !rp_cut_short_plausible(type, sz)))
			return rp_cut_short_end(s, in);
		if (sz < 8) {
			rp_error_set_record(&s->err, RP_ERR_CORRUPT, at, type, "bad record size %u", sz);
			return RP_ERR_CORRUPT;
		}
		p = rp_input_peek(s, in, sz, &avail);
		if (!p)
			return RP_ERR_IO;
		if (avail < sz) {
			if (s->cut_short)
				return rp_cut_short_end(s, in);
			rp_error_set_record(&s->err, RP_ERR_TRUNCATED, at, type,
					    "record of %u bytes runs past the end of the %s", sz,
					    s->data_cut_end && in == &s->inputs[0] ?
						    "file (the file is cut)" : "data");
			return RP_ERR_TRUNCATED;
		}
		rp_input_advance(in, sz);
		in->turn_bytes += sz;
		/* A legacy stream's features (71: VERSION, 81: PMU_MAPPINGS)
		 * are neither AUXTRACE nor COMPRESSED. */
		int legacy = s->legacy_feats && rp_pipe_legacy_feature(type) >= 0;
		if (legacy || (type != RP_RECORD_COMPRESSED && type != RP_RECORD_COMPRESSED2)) {
			*rec = p;
			*size = sz;
			*off = at;
			*chunk = rp_input_block(in);
			if (legacy)
				return 1;
			if (type == RP_RECORD_AUXTRACE ||
			    (type == RP_RECORD_HEADER_TRACING_DATA && s->pipe))
				return rp_skip_payload(s, in, p, sz, type, at);
			return 1;
		}
		s->nr_records[type]++;
		s->nr_next++;
		int ret = rp_inflate(s, in, p, sz, type, at);
		if (ret < 0)
			return ret;
	}
}

/* Whether the input's inflated chunk still holds unread bytes. */
static int rp_input_inflated_left(const struct rp_input *in)
{
	return in->z.cur && in->z.cur->head < in->z.cur->len;
}

/* The next input that is not done, after cur (round robin); nr_inputs
 * when all are done. */
static void rp_next_input(struct rp_session *s)
{
	for (size_t k = 1; k <= s->nr_inputs; k++) {
		size_t i = (s->cur_input + k) % s->nr_inputs;

		if (!s->inputs[i].done) {
			s->cur_input = i;
			return;
		}
	}
	s->cur_input = s->nr_inputs;
}

/*
 * Reads the next raw record from the inputs.  A directory's files are read
 * as perf reads them: RP_DIR_TURN_BYTES from one, then from the next, all
 * into the one time-order queue.  Returns as rp_input_next().
 */
static int rp_next_raw(struct rp_session *s, const uint8_t **rec, uint32_t *size,
		       uint64_t *off, struct rp_zchunk **chunk, struct rp_frec *fr)
{
	if (fr)
		fr->rec = NULL;
	if (s->nr_framers && !s->priming)
		rp_framers_start(s);
	while (s->cur_input < s->nr_inputs) {
		struct rp_input *in = &s->inputs[s->cur_input];

		if (s->nr_inputs > 1 && in->turn_bytes >= RP_DIR_TURN_BYTES &&
		    !rp_input_inflated_left(in)) {
			in->turn_bytes = 0;
			rp_next_input(s);
			continue;
		}
		/* Framed by a framer thread: the same record, with its evsel
		 * and time. */
		struct rp_frec f;

		if (s->framers && rp_framed_next(s, s->cur_input, &f)) {
			in->turn_bytes += f.size;
			*rec = f.rec;
			*size = f.size;
			*off = (uint64_t)(f.rec - in->map);
			*chunk = NULL;
			if (fr)
				*fr = f;
			return 1;
		}
		int ret = rp_input_next(s, in, rec, size, off, chunk);
		if (ret != 0)
			return ret;
		in->done = 1;
		if (s->cut_short && !in->stream)
			s->stats.bytes_recovered += in->end - (s->cur_input == 0 ? s->data_off : 0);
		if (s->data_cut_end && s->cur_input == 0) {
			/* Every record that is there was read: the rest of the
			 * data section is missing. */
			rp_error_set_at(&s->err, RP_ERR_TRUNCATED, s->size,
					"the file is cut: its data section should end at %#llx, "
					"%llu bytes of records are missing",
					(unsigned long long)s->data_cut_end,
					(unsigned long long)(s->data_cut_end - s->size));
			return RP_ERR_TRUNCATED;
		}
		rp_next_input(s);
	}
	rp_framers_stop(s);
	return 0;
}

/* The type a record of raw type `type` is delivered as: a legacy pipe
 * stream's feature records are HEADER_FEATURE. */
static uint32_t rp_session_record_type(const struct rp_session *s, uint32_t type)
{
	if (s->legacy_feats && rp_pipe_legacy_feature(type) >= 0)
		return RP_RECORD_HEADER_FEATURE;
	return type;
}

/* Pipe mode: reads the header records at the start of the stream (attrs,
 * features, tracing data, ...) before the caller sees any record, so that
 * the evsels and the header are known at open as in file mode.  The
 * records read are kept (their blocks pinned) and delivered first. */
static int rp_pipe_prime(struct rp_session *s)
{
	s->priming = 1;
	while (s->nr_primed < RP_MAX_PRIMED) {
		const uint8_t *rec;
		uint32_t size;
		uint64_t off;
		struct rp_zchunk *chunk;
		int ret = rp_next_raw(s, &rec, &size, &off, &chunk, NULL);

		if (ret < 0)
			rp_session_stop(s, ret);
		if (ret <= 0)
			break;
		if (RP_ARRAY_RESERVE(s->primed, s->primed_alloc, s->nr_primed + 1) < 0) {
			s->priming = 0;
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory");
		}
		s->primed[s->nr_primed++] = (struct rp_primed){ rec, off, s->nr_next++, chunk };
		if (chunk)
			chunk->pending++;
		uint32_t type = rp_load32(rec, s->swap);
		/* Google's pre-upstream pipe writer numbered its header
		 * features 69..81; its streams start with one. */
		if (s->nr_primed == 1 && rp_pipe_legacy_first(type))
			s->legacy_feats = 1;
		type = rp_session_record_type(s, type);
		if (!rp_pipe_header_type(type))
			break;
		ret = rp_pipe_apply(s, rec, size, off);
		if (ret < 0) {
			rp_session_stop(s, ret);
			break;
		}
	}
	s->priming = 0;
	rp_header_decode_features(s);
	return rp_pipe_name_evsels(s);
}

/* Decodes a record for the caller.  A record whose contents contradict
 * its type stops the reader, as it stops perf.  Returns 1, or 0 (stopped,
 * or a sample held for its deferred callchain). */
/* Whether rp_deferred_filter() could do anything with ev: a sample of an
 * event with attr.defer_callchain, or a CALLCHAIN_DEFERRED record (a
 * cheap test for every record, which spares the call for the others). */
static inline int rp_deferred_concerns(const struct rp_event *ev)
{
	if (ev->type == RP_RECORD_SAMPLE)
		return ev->evsel && (ev->evsel->attr.flags & RP_ATTR_DEFER_CALLCHAIN);
	return ev->type == RP_RECORD_CALLCHAIN_DEFERRED;
}

static int rp_deliver(struct rp_session *s, const uint8_t *rec, uint64_t off, uint64_t nr,
		      const struct rp_evsel *evsel, uint32_t input, struct rp_event *ev)
{
	s->dec.swap = s->swap;
	s->dec.legacy_feats = s->legacy_feats;
	int ret = rp_record_decode_with(&s->dec, &s->err, rec, off, nr, evsel, ev);

	if (ret < 0) {
		rp_session_stop(s, ret);
		return 0;
	}
	ev->input = input;
	ev->deferred = 0;
	if (ev->type == RP_RECORD_SAMPLE && !evsel)
		s->stats.nr_unknown_id++;
	if (ev->type == RP_RECORD_LOST)
		s->stats.nr_lost += ev->u.lost.lost;
	else if (ev->type == RP_RECORD_LOST_SAMPLES)
		s->stats.nr_lost_samples += ev->u.lost.lost;
	if (s->deferred.on && rp_deferred_concerns(ev)) {
		ret = rp_deferred_filter(s, ev);
		if (ret < 0)
			rp_session_stop(s, ret);
		if (ret <= 0)
			return 0;
	}
	return 1;
}

static int rp_known_type(const struct rp_session *s, uint32_t type)
{
	return type < RP_RECORD_MAX && s->known_type[type];
}

int rp_session_read(struct rp_session *s, struct rp_event *ev)
{
	s->started = 1;
	if (s->chunked)
		rp_inputs_collect(s);
	for (;;) {
		/* Samples a deferred callchain released come right after it. */
		if (rp_deferred_pending(&s->deferred)) {
			int ret = rp_deferred_next(s, ev);

			if (ret > 0)
				return 1;
			if (ret < 0)
				rp_session_stop(s, ret);
		}
		const struct rp_qent *q = rp_order_pop(s);

		if (q) {
			if (q->chunk)
				q->chunk->pending--;
			if (rp_deliver(s, q->rec, q->offset, q->nr, q->evsel, q->input, ev))
				return 1;
			continue;
		}
		if (s->held_rec) {
			const uint8_t *rec = s->held_rec;

			s->held_rec = NULL;
			if (s->held_chunk)
				s->held_chunk->pending--;
			if (rp_deliver(s, rec, s->held_off, s->held_nr, NULL, s->held_input, ev))
				return 1;
			continue;
		}
		if (s->eof && s->primed_head >= s->nr_primed) {
			if (!rp_order_empty(s)) {
				rp_order_flush(s, 0, 1);
				continue;
			}
			/* Then the samples still waiting for a deferred
			 * callchain, as they are (also after an error: they
			 * were read before it). */
			if (rp_deferred_end(s))
				continue;
			if (s->stop_code)
				s->err = s->stop_err;
			return s->stop_code;
		}

		const uint8_t *rec;
		uint32_t size;
		uint64_t off, nr;
		struct rp_zchunk *chunk;
		uint32_t input = 0;
		int applied = 0;
		struct rp_frec fr = { 0 };

		if (s->primed_head < s->nr_primed) {
			const struct rp_primed *pr = &s->primed[s->primed_head++];

			rec = pr->rec;
			off = pr->off;
			nr = pr->nr;
			chunk = pr->chunk;
			if (chunk)
				chunk->pending--;
			size = rp_load16(rec + 6, s->swap);
			applied = 1;
		} else {
			int ret = rp_next_raw(s, &rec, &size, &off, &chunk, &fr);

			if (ret <= 0) {
				if (ret < 0)
					rp_session_stop(s, ret);
				s->eof = 1;
				continue;
			}
			nr = s->nr_next++;
			input = (uint32_t)s->cur_input;
		}
		/* A framed record is not touched here: its framer read it. */
		uint32_t type = fr.rec ? fr.type :
					 rp_session_record_type(s, rp_load32(rec, s->swap));

		if (!rp_known_type(s, type)) {
			s->stats.nr_unknown_records++;
			continue;
		}
		s->nr_records[type]++;
		if (s->pipe && !applied && rp_pipe_header_type(type)) {
			int ret = rp_pipe_apply(s, rec, size, off);

			if (ret < 0) {
				rp_session_stop(s, ret);
				continue;
			}
		}

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
			s->held_input = input;
			if (chunk)
				chunk->pending++;
			continue;
		}

		/* One attr (the common case): every record is its. */
		const struct rp_evsel *evsel = fr.rec ? fr.evsel :
					       s->nr_evsels == 1 ? s->evsels[0] :
					       rp_record_evsel(s, rec, type, size);
		if (s->opts.order == RP_ORDER_TIME && s->sample_id_all && evsel) {
			uint64_t t = fr.rec ? fr.time : rp_record_time(s, evsel, rec, type, size);

			/* perf delivers records without a time, or with time 0
			 * (synthesized ones), at once. */
			if (t != (uint64_t)-1 && t != 0) {
				if (rp_order_push(s, t, nr, off, rec, evsel, chunk, input) < 0) {
					rp_session_stop(s, RP_ERR_NOMEM);
					continue;
				}
				if (chunk)
					chunk->pending++;
				continue;
			}
		}
		if (rp_deliver(s, rec, off, nr, evsel, input, ev))
			return 1;
	}
}

int rp_session_set_merge_deferred(struct rp_session *s, int merge)
{
	if (s->started)
		return rp_error_set(&s->err, RP_ERR_INVAL,
				   "merging of deferred callchains set after the first record");
	s->opts.no_merge_deferred = !merge;
	s->deferred.on = !!merge;
	return 0;
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
	return i < s->nr_evsels ? s->evsels[i] : NULL;
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

int rp_session_is_pipe(const struct rp_session *s)
{
	return s->pipe;
}

int rp_session_is_dir(const struct rp_session *s)
{
	return s->is_dir;
}

size_t rp_session_nr_data_files(const struct rp_session *s)
{
	return s->nr_inputs;
}

const char *rp_session_data_file(const struct rp_session *s, size_t i)
{
	return i < s->nr_inputs ? s->inputs[i].path : NULL;
}

const char *rp_session_kcore_kallsyms(const struct rp_session *s)
{
	return s->kcore_kallsyms;
}

void rp_session_set_threads(struct rp_session *s, unsigned n)
{
	if (!s->started) {
		s->nr_framers = n >= 2 ? n : 0;
		s->queue.nr_threads = n;
	}
}

int rp_session_next(struct rp_session *s, const struct rp_event **ev)
{
	int ret;

	*ev = NULL;
	ret = rp_session_read(s, &s->event);
	if (ret > 0)
		*ev = &s->event;
	return ret;
}

uint64_t rp_session_nr_records(const struct rp_session *s, uint32_t type)
{
	return type < RP_RECORD_MAX ? s->nr_records[type] : 0;
}
