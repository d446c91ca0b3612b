/* SPDX-License-Identifier: MIT */
/*
 * readperf: the JSON of `perf data convert --to-json` (linux-perf-json-
 * version 1, perf's util/data-convert-json.c): a "headers" object (the
 * file's header and features) and a "samples" array, one object per
 * sample in time order with timestamp, pid, tid, cpu (when recorded), comm
 * and the call stack (ip, symbol, dso per frame), then the tracepoint's
 * fields formatted by libtraceevent.  The text is laid out as perf lays it
 * out (tabs, one value per line).  See docs/json.md.
 */
#ifndef READPERF_JSON_H
#define READPERF_JSON_H

#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_json;

struct rp_json_opts {
	size_t sz; /* sizeof(struct rp_json_opts) */
	/* Leave out the tracepoint fields (perf 6.1 does not write them). */
	int no_trace_fields;
	/* "captured-on": the input's modification time, s since the epoch;
	 * a negative value leaves the key out. */
	long long captured_on;
	/*
	 * Where the callchain entries are looked up (both or neither; NULL:
	 * entries show their ip alone): the machine and symbols the records
	 * are processed with (rp_process()'s); they must outlive the writer.
	 * The entries are the recorded PERF_SAMPLE_CALLCHAIN ones, each
	 * looked up here in the mode its context marker gives, as perf does:
	 * the consumer asks the pipeline for no callchain (nothing unwound).
	 * The output (rp_output_new("json")) takes them from its env.
	 */
	struct rp_machine *machine;
	struct rp_symbols *symbols;
};

/*
 * Starts the document on f (the caller's; write errors show in ferror(f))
 * with the headers of session.  opts may be NULL (captured_on then taken
 * as absent).  Returns 0 or RP_ERR_NOMEM.  session must outlive the writer.
 */
RP_API int rp_json_new(struct rp_json **out, FILE *f, const struct rp_session *session,
		const struct rp_json_opts *opts);
/* The consumer (asks for nothing beyond the sample's thread and ip). */
RP_API struct rp_consumer rp_json_consumer(struct rp_json *json);
/* Closes the samples array and the document.  Returns the number of
 * samples written. */
RP_API unsigned long long rp_json_finish(struct rp_json *json);
/* Whether tracepoint fields could not be formatted (see rp_script_trace_status). */
RP_API int rp_json_trace_status(const struct rp_json *json);
RP_API void rp_json_free(struct rp_json *json);

#ifdef __cplusplus
}
#endif

#endif
