/* SPDX-License-Identifier: MIT */
/*
 * The pprof profile: hand-built samples, written, gunzipped and decoded
 * again with protobuf-c (docs/pprof.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/output.h>
#include <readperf/pprof.h>

#include "builder.h"
#include "machine/dso.h"
#include "machine/machine_int.h"

#if __has_include("profile.pb-c.h")
#include <zlib.h>

#include "profile.pb-c.h"

static const char *str(const Perftools__Profiles__Profile *p, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < p->n_string_table);
	return p->string_table[i];
}

static const Perftools__Profiles__Function *loc_func(const Perftools__Profiles__Profile *p,
						      uint64_t loc_id)
{
	for (size_t i = 0; i < p->n_location; i++) {
		if (p->location[i]->id != loc_id)
			continue;
		assert_int_equal(p->location[i]->n_line, 1);
		for (size_t k = 0; k < p->n_function; k++)
			if (p->function[k]->id == p->location[i]->line[0]->function_id)
				return p->function[k];
	}
	fail();
	return NULL;
}

/* gunzips and decodes what rp_pprof_write() wrote into buf. */
static Perftools__Profiles__Profile *decode(char *buf, size_t len)
{
	assert_true(len > 18 && (uint8_t)buf[0] == 0x1f && (uint8_t)buf[1] == 0x8b);
	size_t cap = 1 << 20;
	uint8_t *raw = malloc(cap);
	z_stream z;

	assert_non_null(raw);
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len;
	z.next_out = raw;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	size_t rawlen = cap - z.avail_out;
	inflateEnd(&z);
	Perftools__Profiles__Profile *p = perftools__profiles__profile__unpack(NULL, rawlen, raw);
	assert_non_null(p);
	free(raw);
	free(buf);
	return p;
}

static Perftools__Profiles__Profile *write_decode(struct rp_pprof *pp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(rp_pprof_write(pp, out), 0);
	fclose(out);
	return decode(buf, len);
}

/* A recording with cpu-clock and task-clock: its session and machine. */
struct rec {
	struct rp_session *s;
	struct rp_machine *m;
	struct rp_dso dso, ld;
	struct rp_map map, ldmap;
	struct rp_symbol sym;
	struct rp_frame frames[2];
	struct rp_resolved res;
};

static void rec_open(struct rec *r, uint64_t base)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_CPU | RP_SAMPLE_PERIOD | RP_SAMPLE_CALLCHAIN);
	uint64_t id0 = 1, id1 = 2;

	memset(r, 0, sizeof(*r));
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id0, 1);
	a.config = 1; /* task-clock */
	tb_file_attr(&f, &a, &id1, 1);
	r->s = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(r->s);
	assert_int_equal(rp_machine_new(&r->m, NULL), 0);
	r->dso.long_name = "/tmp/w";
	r->dso.short_name = "w";
	r->dso.build_id_size = 2;
	r->dso.build_id[0] = 0xab;
	r->dso.build_id[1] = 0x01;
	r->ld.long_name = "/lib/ld.so";
	r->ld.short_name = "ld.so";
	/* the program above its loader: the main binary is chosen by name */
	r->map = (struct rp_map){ base, base + 0x2000, 0x1000, &r->dso, 5, 2, 0 };
	r->ldmap = (struct rp_map){ base - 0x10000, base - 0xf000, 0, &r->ld, 5, 2, 0 };
	r->sym = (struct rp_symbol){ 0x1000, 0x1100, "hot", 1, 0, 2 };
	r->res.thread = rp_machine_findnew_thread(r->m, 5, 6);
	assert_non_null(r->res.thread);
	assert_int_equal(rp_maps_insert(r->res.thread->maps, &r->ldmap), 0);
	assert_int_equal(rp_maps_insert(r->res.thread->maps, &r->map), 0);
	r->res.comm = "w";
	r->frames[0].al = (struct rp_addr_location){ .map = &r->map, .dso = &r->dso,
						     .sym = &r->sym, .ip = base + 0x10,
						     .addr = 0x1010 };
	r->frames[1].al = (struct rp_addr_location){ .map = &r->map, .dso = &r->dso,
						     .ip = base + 0x1000, .addr = 0x2000 };
	r->res.callchain = r->frames;
	r->res.nr_callchain = 2;
}

static void rec_close(struct rec *r)
{
	rp_machine_free(r->m);
	rp_session_close(r->s);
}

/* One sample of evsel `evsel` on cpu at time t into consumer c. */
static void rec_feed(struct rec *r, struct rp_consumer c, int evsel, uint32_t cpu, uint64_t t,
		     int in_loader)
{
	struct rp_event ev;
	struct rp_frame one[1];
	struct rp_resolved res = r->res;

	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_SAMPLE;
	ev.sid.present = RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_CPU;
	ev.sid.cpu = cpu;
	ev.sid.time = t;
	ev.evsel = rp_session_evsel(r->s, (size_t)evsel);
	ev.u.sample.period = 250000;
	if (in_loader) {
		memset(one, 0, sizeof(one));
		one[0].al = (struct rp_addr_location){ .map = &r->ldmap, .dso = &r->ld,
						       .ip = r->ldmap.start + 8, .addr = 8 };
		res.callchain = one;
		res.nr_callchain = 1;
	}
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
}

static void rec_sample(struct rec *r, struct rp_pprof *pp, int evsel, uint32_t cpu, uint64_t t,
		       int in_loader)
{
	rec_feed(r, rp_pprof_consumer(pp), evsel, cpu, t, in_loader);
}

static void test_profile(void **state)
{
	struct rec r;
	struct rp_pprof *pp;

	(void)state;
	rec_open(&r, 0x400000);
	assert_int_equal(rp_pprof_new(&pp, r.s), 0);
	/* first a sample in the loader: its mapping is made first */
	rec_sample(&r, pp, 0, 1, 900, 1);
	/* two identical cpu-clock samples and a task-clock one: one sample */
	for (int i = 0; i < 3; i++)
		rec_sample(&r, pp, i == 2 ? 1 : 0, 1, 1000 + (uint64_t)i * 500, 0);
	Perftools__Profiles__Profile *p = write_decode(pp);
	rp_pprof_free(pp);

	assert_string_equal(str(p, 0), "");
	assert_int_equal(p->n_sample_type, 3);
	assert_string_equal(str(p, p->sample_type[0]->type), "samples");
	assert_string_equal(str(p, p->sample_type[0]->unit), "count");
	assert_string_equal(str(p, p->sample_type[1]->type), "cpu-clock");
	assert_string_equal(str(p, p->sample_type[1]->unit), "nanoseconds");
	assert_string_equal(str(p, p->sample_type[2]->type), "task-clock");
	assert_string_equal(str(p, p->default_sample_type), "cpu-clock");
	assert_int_equal(p->duration_nanos, 1100);
	/* no CLOCK_DATA: no wall-clock time */
	assert_int_equal(p->time_nanos, 0);
	assert_int_equal(p->n_sample, 2);
	Perftools__Profiles__Sample *s = p->sample[1];
	assert_int_equal(s->n_value, 3);
	assert_int_equal(s->value[0], 3);
	assert_int_equal(s->value[1], 500000);
	assert_int_equal(s->value[2], 250000);
	assert_int_equal(s->n_location_id, 2);
	assert_string_equal(str(p, loc_func(p, s->location_id[0])->name), "hot");
	assert_string_equal(str(p, loc_func(p, s->location_id[1])->name), "0x0000000000002000");
	assert_int_equal(s->n_label, 4);
	assert_string_equal(str(p, s->label[0]->key), "pid");
	assert_int_equal(s->label[0]->num, 5);
	assert_string_equal(str(p, s->label[0]->num_unit), "id");
	assert_string_equal(str(p, s->label[1]->key), "tid");
	assert_int_equal(s->label[1]->num, 6);
	assert_string_equal(str(p, s->label[2]->key), "comm");
	assert_string_equal(str(p, s->label[2]->str), "w");
	assert_string_equal(str(p, s->label[3]->key), "cpu");
	assert_int_equal(s->label[3]->num, 1);
	/* the program first, though the loader's mapping was made before */
	assert_int_equal(p->n_mapping, 2);
	assert_int_equal(p->mapping[0]->memory_start, 0x400000);
	assert_int_equal(p->mapping[0]->memory_limit, 0x402000);
	assert_int_equal(p->mapping[0]->file_offset, 0x1000);
	assert_string_equal(str(p, p->mapping[0]->filename), "/tmp/w");
	assert_string_equal(str(p, p->mapping[0]->build_id), "ab01");
	assert_string_equal(str(p, p->mapping[1]->filename), "/lib/ld.so");
	assert_int_equal(p->n_location, 3);
	assert_int_equal(p->location[1]->address, 0x400010);
	assert_int_equal(p->location[1]->mapping_id, p->mapping[0]->id);
	assert_int_equal(p->location[0]->mapping_id, p->mapping[1]->id);
	perftools__profiles__profile__free_unpacked(p, NULL);
	rec_close(&r);
}

/* Two recordings merged: as pprof merges, mappings of one file at other
 * addresses are one; a label of value 0 is kept; headers combined. */
static void test_merge(void **state)
{
	struct rec a, b;
	struct rp_pprof *pa, *pb;
	struct rp_pprof_opts o = { .sz = sizeof(o), .no_labels = RP_PPROF_LABEL_TID };

	(void)state;
	rec_open(&a, 0x400000);
	rec_open(&b, 0x500000);
	assert_int_equal(rp_pprof_new_ext(&pa, a.s, &o), 0);
	assert_int_equal(rp_pprof_new_ext(&pb, b.s, &o), 0);
	rec_sample(&a, pa, 0, 0, 1000, 0);
	rec_sample(&a, pa, 0, 0, 3000, 0);
	rec_sample(&b, pb, 1, 0, 500, 0);
	rec_sample(&b, pb, 0, 1, 600, 0);
	assert_int_equal(rp_pprof_merge(pa, pa), RP_ERR_INVAL);
	assert_int_equal(rp_pprof_merge(pa, pb), 0);
	rp_pprof_free(pb);
	rec_close(&b);
	Perftools__Profiles__Profile *p = write_decode(pa);
	rp_pprof_free(pa);

	/* the sum of the durations, as pprof merges: 2000 + 100 */
	assert_int_equal(p->duration_nanos, 2100);
	assert_int_equal(p->n_sample_type, 3);
	assert_int_equal(p->n_mapping, 1);
	assert_int_equal(p->n_location, 2);
	assert_int_equal(p->n_sample, 2);
	/* cpu 0: a's two and b's task-clock one */
	Perftools__Profiles__Sample *s0 = p->sample[0], *s1 = p->sample[1];
	assert_int_equal(s0->n_label, 3);
	assert_string_equal(str(p, s0->label[2]->key), "cpu");
	assert_int_equal(s0->label[2]->num, 0);
	assert_true(s0->label[2]->num_unit != 0);
	assert_int_equal(s0->value[0], 3);
	assert_int_equal(s0->value[1], 500000);
	assert_int_equal(s0->value[2], 250000);
	assert_int_equal(s1->label[2]->num, 1);
	assert_int_equal(s1->value[0], 1);
	assert_int_equal(s1->value[1], 250000);
	assert_int_equal(s0->location_id[0], s1->location_id[0]);
	perftools__profiles__profile__free_unpacked(p, NULL);
	rec_close(&a);
}

/* The output contract: pprof and collapse merge, only with their kind. */
static void test_output_merge(void **state)
{
	struct rec r;
	struct rp_output *a, *b, *c;
	struct rp_error err = { 0 };
	FILE *out = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(out);
	rec_open(&r, 0x400000);
	struct rp_output_env env = { .sz = sizeof(env), .session = r.s, .machine = r.m };
	struct rp_output_target t = { .sz = sizeof(t), .stream = out };
	assert_true(rp_output_flags("pprof") & RP_OUTPUT_MERGE);
	assert_true(rp_output_flags("collapse") & RP_OUTPUT_MERGE);
	assert_int_equal(rp_output_new(&a, "pprof", &env, NULL, &t, &err), 0);
	assert_int_equal(rp_output_new(&b, "pprof", &env, NULL, &t, &err), 0);
	assert_int_equal(rp_output_new(&c, "collapse", &env, NULL, &t, &err), 0);
	rec_feed(&r, rp_output_consumer(a), 0, 0, 1000, 0);
	rec_feed(&r, rp_output_consumer(b), 1, 0, 1000, 0);
	rec_feed(&r, rp_output_consumer(c), 0, 0, 1000, 0);
	assert_int_equal(rp_output_merge(a, b, &err), 0);
	assert_int_equal(rp_output_merge(a, c, &err), RP_ERR_INVAL);
	assert_int_equal(rp_output_merge(a, a, &err), RP_ERR_INVAL);
	assert_int_equal(rp_output_finish(a, &err), 0);
	assert_int_equal(rp_output_merge(a, b, &err), RP_ERR_INVAL);
	rp_output_free(a);
	rp_output_free(b);
	rp_output_free(c);
	fclose(out);
	rec_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_output_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
	fprintf(stderr, "test_pprof: readperf built without protobuf-c: nothing to test\n");
	return 0;
}

#endif
