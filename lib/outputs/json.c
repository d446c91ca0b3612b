/* SPDX-License-Identifier: MIT */
/*
 * perf data convert --to-json (perf's util/data-convert-json.c): the same
 * keys in the same order with the same layout: every value on its own line,
 * indented with tabs, the comma at the end of the previous line.
 */
#include <readperf/json.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <readperf/error.h>

#include "common/error_int.h"
#include "common/opts.h"
#include "outputs/output_int.h"
#include "outputs/tracepoint.h"

struct rp_json {
	FILE *f;
	const struct rp_session *session;
	struct rp_machine *machine; /* NULL: callchain entries without symbols */
	struct rp_symbols *symbols;
	uint64_t combined_sample_type;
	unsigned long long samples;
	int no_trace_fields;
	struct rp_tp *tp;
	int tp_status;
	int finished;
};

/* A JSON string: RFC 8259 escapes; bytes >= 0x80 pass through (UTF-8). */
static void rp_json_string(FILE *f, const char *s)
{
	putc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c <= 0x1f)
				fprintf(f, "\\u%04x", c);
			else
				putc(c, f);
		}
	}
	putc('"', f);
}

/* The separator before a value: ",", a newline, depth tabs. */
static void rp_json_delim(FILE *f, int comma, int depth)
{
	if (comma)
		putc(',', f);
	putc('\n', f);
	while (depth-- > 0)
		putc('\t', f);
}

static void rp_json_key(FILE *f, int comma, int depth, const char *key)
{
	rp_json_delim(f, comma, depth);
	rp_json_string(f, key);
	fputs(": ", f);
}

static void rp_json_key_str(FILE *f, int comma, int depth, const char *key, const char *v)
{
	rp_json_key(f, comma, depth, key);
	rp_json_string(f, v);
}

static void rp_json_key_u64(FILE *f, int comma, int depth, const char *key, uint64_t v)
{
	rp_json_key(f, comma, depth, key);
	fprintf(f, "%" PRIu64, v);
}

static uint32_t rp_json_load32(const uint8_t *p, int swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t rp_json_load64(const uint8_t *p, int swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static void rp_json_headers(struct rp_json *j, const struct rp_json_opts *opts)
{
	const struct rp_header_info *h = rp_session_header(j->session);
	FILE *f = j->f;
	uint64_t off = rp_session_data_offset(j->session), size = rp_session_data_size(j->session);

	/* perf's header version for PERFILE2 files */
	rp_json_key_u64(f, 0, 2, "header-version", 1);
	if (opts && opts->captured_on >= 0) {
		time_t t = (time_t)opts->captured_on;
		struct tm tm;
		char buf[64];

		if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
			rp_json_key_str(f, 1, 2, "captured-on", buf);
	}
	rp_json_key_u64(f, 1, 2, "data-offset", off);
	rp_json_key_u64(f, 1, 2, "data-size", size);
	rp_json_key_u64(f, 1, 2, "feat-offset", off + size);
	rp_json_key_str(f, 1, 2, "hostname", h->hostname);
	rp_json_key_str(f, 1, 2, "os-release", h->osrelease);
	rp_json_key_str(f, 1, 2, "arch", h->arch);
	if (h->cpudesc)
		rp_json_key_str(f, 1, 2, "cpu-desc", h->cpudesc);
	rp_json_key_str(f, 1, 2, "cpuid", h->cpuid);
	rp_json_key_u64(f, 1, 2, "nrcpus-online", h->nr_cpus_online);
	rp_json_key_u64(f, 1, 2, "nrcpus-avail", h->nr_cpus_available);

	/* CLOCK_DATA: u32 version, u32 clockid, u64 tod_ns, u64 clockid_ns */
	size_t csize = 0;
	const uint8_t *clk = rp_session_feature_data(j->session, RP_FEAT_CLOCK_DATA, &csize);
	if (clk && csize >= 24) {
		int swap = rp_session_needs_swap(j->session);

		rp_json_key_u64(f, 1, 2, "clockid", rp_json_load32(clk + 4, swap));
		rp_json_key_u64(f, 1, 2, "clock-time", rp_json_load64(clk + 16, swap));
		rp_json_key_u64(f, 1, 2, "real-time", rp_json_load64(clk + 8, swap));
	}
	rp_json_key_str(f, 1, 2, "perf-version", h->version);
	rp_json_key(f, 1, 2, "cmdline");
	putc('[', f);
	for (uint32_t i = 0; i < h->cmdline_argc; i++) {
		rp_json_delim(f, i != 0, 3);
		rp_json_string(f, h->cmdline_argv[i]);
	}
	rp_json_delim(f, 0, 2);
	putc(']', f);
}

int rp_json_new(struct rp_json **out, FILE *f, const struct rp_session *session,
		const struct rp_json_opts *user_opts)
{
	struct rp_json_opts o;
	const struct rp_json_opts *opts = &o;
	struct rp_json *j;

	if (!out || !f || !session)
		return RP_ERR_INVAL;
	*out = NULL;
	if (rp_opts_copy(&o, sizeof(o), user_opts) < 0)
		return RP_ERR_INVAL;
	if (!user_opts)
		o.captured_on = -1;
	j = calloc(1, sizeof(*j));
	if (!j)
		return RP_ERR_NOMEM;
	j->f = f;
	j->session = session;
	j->no_trace_fields = opts->no_trace_fields;
	j->machine = opts->machine;
	j->symbols = opts->symbols;
	for (size_t i = 0; i < rp_session_nr_evsels(session); i++)
		j->combined_sample_type |= rp_evsel_attr(rp_session_evsel(session, i))->sample_type;
	if (!j->no_trace_fields && rp_session_has_feature(session, RP_FEAT_TRACING_DATA)) {
		j->tp_status = rp_tp_new(&j->tp, session);
		if (j->tp_status == RP_ERR_NOMEM) {
			free(j);
			return RP_ERR_NOMEM;
		}
	}
	putc('{', f);
	rp_json_delim(f, 0, 1);
	fputs("\"linux-perf-json-version\": 1", f);
	rp_json_delim(f, 1, 1);
	fputs("\"headers\": {", f);
	rp_json_headers(j, opts);
	rp_json_delim(f, 0, 1);
	putc('}', f);
	rp_json_delim(f, 1, 1);
	fputs("\"samples\": [", f);
	*out = j;
	return 0;
}

static void rp_json_frame(FILE *f, uint64_t ip, const struct rp_addr_location *al)
{
	rp_json_delim(f, 0, 4);
	putc('{', f);
	rp_json_key(f, 0, 5, "ip");
	fprintf(f, "\"0x%" PRIx64 "\"", ip);
	if (al && al->sym && al->sym->name && al->sym->name[0]) {
		rp_json_key_str(f, 1, 5, "symbol", al->sym->name);
		if (al->dso) {
			const char *name = rp_dso_short_name(al->dso);

			if (name && name[0])
				rp_json_key_str(f, 1, 5, "dso", name);
		}
	}
	rp_json_delim(f, 0, 4);
	putc('}', f);
}

static void rp_json_trace_field(void *ctx, const char *name, const char *value)
{
	rp_json_key_str(ctx, 1, 3, name, value);
}

/*
 * The recorded PERF_SAMPLE_CALLCHAIN entries, as data-convert-json.c
 * lists them: nothing is unwound (a --call-graph dwarf sample shows its
 * recorded kernel and user entries only), a context marker is skipped
 * and switches the cpumode of the entries after it (user until the
 * first; an unknown marker leaves it as it was, the chain goes on), and
 * each entry is looked up as thread__find_symbol() does: in that mode's
 * maps, without trying the other one.  Returns 0 or RP_ERR_NOMEM.
 */
static int rp_json_callchain(struct rp_json *j, const struct rp_sample *d,
			     struct rp_thread *thread)
{
	uint8_t cpumode = RP_MISC_USER;
	int first = 1;

	for (uint64_t i = 0; i < d->callchain_nr; i++) {
		uint64_t ip = d->callchain[i];
		struct rp_addr_location al;
		int found = 0;

		if (ip >= RP_CONTEXT_MAX) {
			if (ip == RP_CONTEXT_HV)
				cpumode = RP_MISC_HYPERVISOR;
			else if (ip == RP_CONTEXT_KERNEL)
				cpumode = RP_MISC_KERNEL;
			else if (ip == RP_CONTEXT_USER)
				cpumode = RP_MISC_USER;
			continue;
		}
		if (!first)
			putc(',', j->f);
		first = 0;
		if (j->machine && j->symbols)
			found = rp_symbols_resolve(j->symbols, j->machine, thread, cpumode, ip, &al);
		if (found < 0)
			return found;
		rp_json_frame(j->f, ip, found ? &al : NULL);
	}
	return 0;
}

static int rp_json_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_json *j = ctx;
	FILE *f = j->f;
	const struct rp_sample *d = &ev->u.sample;

	if (ev->type != RP_RECORD_SAMPLE || !res || !ev->evsel)
		return 0;
	if (j->samples++)
		putc(',', f);
	rp_json_delim(f, 0, 2);
	putc('{', f);
	rp_json_key(f, 0, 3, "timestamp");
	fprintf(f, "%" PRId64, (int64_t)ev->sid.time);
	rp_json_key(f, 1, 3, "pid");
	fprintf(f, "%d", rp_thread_pid(res->thread));
	rp_json_key(f, 1, 3, "tid");
	fprintf(f, "%d", rp_thread_tid(res->thread));
	if (j->combined_sample_type & RP_SAMPLE_CPU) {
		rp_json_key(f, 1, 3, "cpu");
		fprintf(f, "%d", (int32_t)ev->sid.cpu);
	}
	rp_json_key_str(f, 1, 3, "comm", res->comm);
	rp_json_key(f, 1, 3, "callchain");
	putc('[', f);
	if (rp_evsel_attr(ev->evsel)->sample_type & RP_SAMPLE_CALLCHAIN) {
		int ret = rp_json_callchain(j, d, res->thread);

		if (ret < 0)
			return ret;
	} else {
		rp_json_frame(f, d->ip, &res->al);
	}
	rp_json_delim(f, 0, 3);
	putc(']', f);
	if (!j->no_trace_fields && d->raw)
		rp_tp_fields(j->tp, ev->evsel, d, rp_json_trace_field, f);
	rp_json_delim(f, 0, 2);
	putc('}', f);
	return 0;
}

struct rp_consumer rp_json_consumer(struct rp_json *json)
{
	struct rp_consumer c = { json, rp_json_event, 0 };
	return c;
}

unsigned long long rp_json_finish(struct rp_json *json)
{
	if (!json->finished) {
		rp_json_delim(json->f, 0, 1);
		putc(']', json->f);
		rp_json_delim(json->f, 0, 0);
		fputs("}\n", json->f);
		json->finished = 1;
	}
	return json->samples;
}

int rp_json_trace_status(const struct rp_json *json)
{
	return json ? json->tp_status : 0;
}

void rp_json_free(struct rp_json *json)
{
	if (!json)
		return;
	rp_tp_free(json->tp);
	free(json);
}

static int rp_json_output_create(void **state, const struct rp_output_env *env, const void *opts,
				 const struct rp_output_target *target, struct rp_error *err)
{
	int ret = rp_json_new((struct rp_json **)state, target->stream, env->session, opts);

	if (ret == 0 && env->machine && env->symbols) {
		struct rp_json *j = *state;

		j->machine = env->machine;
		j->symbols = env->symbols;
	}

	return ret < 0 ? rp_error_set(err, ret, ret == RP_ERR_INVAL ? "bad options"
								    : "out of memory")
		       : 0;
}

static struct rp_consumer rp_json_output_consumer(void *state)
{
	return rp_json_consumer(state);
}

static int rp_json_output_finish(void *state, struct rp_error *err)
{
	struct rp_json *j = state;

	rp_json_finish(j);
	if (fflush(j->f) != 0 || ferror(j->f))
		return rp_error_set(err, RP_ERR_IO, "cannot write the output");
	return 0;
}

static void rp_json_output_destroy(void *state)
{
	rp_json_free(state);
}

static const char *rp_json_output_warnings(void *state)
{
	const struct rp_json *j = state;

	if (j->tp_status == RP_ERR_UNSUPPORTED)
		return "built without libtraceevent: tracepoint fields are not written";
	if (j->tp_status < 0)
		return "damaged TRACING_DATA section: tracepoint fields are not written";
	return NULL;
}

const struct rp_output_def rp_output_json = {
	.name = "json",
	.flags = RP_OUTPUT_SYMBOLS,
	.create = rp_json_output_create,
	.consumer = rp_json_output_consumer,
	.finish = rp_json_output_finish,
	.destroy = rp_json_output_destroy,
	.warnings = rp_json_output_warnings,
};
