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

static void test_profile(void **state)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_CPU | RP_SAMPLE_PERIOD | RP_SAMPLE_CALLCHAIN);
	uint64_t id0 = 1, id1 = 2;
	struct rp_session *s;
	struct rp_machine *m;
	struct rp_pprof *pp;
	struct rp_event ev;
	struct rp_resolved res;
	struct rp_frame frames[2];
	struct rp_dso dso = { 0 };
	struct rp_map map = { 0x400000, 0x402000, 0x1000, &dso, 5, 2, 0 };
	struct rp_symbol sym = { 0x1000, 0x1100, "hot", 1, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id0, 1);
	a.config = 1; /* task-clock */
	tb_file_attr(&f, &a, &id1, 1);
	s = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(s);
	assert_int_equal(rp_machine_new(&m, NULL), 0);
	dso.long_name = "/tmp/w";
	dso.short_name = "w";
	dso.build_id_size = 2;
	dso.build_id[0] = 0xab;
	dso.build_id[1] = 0x01;

	assert_int_equal(rp_pprof_new(&pp, s), 0);
	struct rp_consumer c = rp_pprof_consumer(pp);
	memset(&ev, 0, sizeof(ev));
	memset(&res, 0, sizeof(res));
	memset(frames, 0, sizeof(frames));
	ev.type = RP_RECORD_SAMPLE;
	ev.sid.present = RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_CPU;
	ev.sid.cpu = 1;
	res.thread = rp_machine_findnew_thread(m, 5, 6);
	res.comm = "w";
	frames[0].al = (struct rp_addr_location){ .map = &map, .dso = &dso, .sym = &sym,
						  .ip = 0x400010, .addr = 0x1010 };
	frames[1].al = (struct rp_addr_location){ .map = &map, .dso = &dso, .ip = 0x401000,
						  .addr = 0x2000 };
	res.callchain = frames;
	res.nr_callchain = 2;
	/* two identical cpu-clock samples (merged), one task-clock sample */
	for (int i = 0; i < 3; i++) {
		ev.evsel = rp_session_evsel(s, i == 2 ? 1 : 0);
		ev.sid.time = 1000 + (uint64_t)i * 500;
		ev.u.sample.period = 250000;
		assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	}
	out = open_memstream(&buf, &len);
	assert_int_equal(rp_pprof_write(pp, out), 0);
	fclose(out);
	rp_pprof_free(pp);

	/* gunzip */
	assert_true(len > 18 && (uint8_t)buf[0] == 0x1f && (uint8_t)buf[1] == 0x8b);
	size_t cap = 1 << 20;
	uint8_t *raw = malloc(cap);
	z_stream z;
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
	assert_string_equal(str(p, 0), "");
	assert_int_equal(p->n_sample_type, 3);
	assert_string_equal(str(p, p->sample_type[0]->type), "samples");
	assert_string_equal(str(p, p->sample_type[0]->unit), "count");
	assert_string_equal(str(p, p->sample_type[1]->type), "cpu-clock");
	assert_string_equal(str(p, p->sample_type[1]->unit), "nanoseconds");
	assert_string_equal(str(p, p->sample_type[2]->type), "task-clock");
	assert_string_equal(str(p, p->default_sample_type), "cpu-clock");
	assert_int_equal(p->duration_nanos, 1000);
	assert_int_equal(p->n_sample, 2);
	assert_int_equal(p->sample[0]->n_value, 3);
	assert_int_equal(p->sample[0]->value[0], 2);
	assert_int_equal(p->sample[0]->value[1], 500000);
	assert_int_equal(p->sample[0]->value[2], 0);
	assert_int_equal(p->sample[1]->value[0], 1);
	assert_int_equal(p->sample[1]->value[2], 250000);
	assert_int_equal(p->sample[0]->n_location_id, 2);
	assert_string_equal(str(p, loc_func(p, p->sample[0]->location_id[0])->name), "hot");
	assert_string_equal(str(p, loc_func(p, p->sample[0]->location_id[1])->name),
			    "0x0000000000002000");
	assert_int_equal(p->sample[0]->n_label, 4);
	assert_string_equal(str(p, p->sample[0]->label[0]->key), "pid");
	assert_int_equal(p->sample[0]->label[0]->num, 5);
	assert_string_equal(str(p, p->sample[0]->label[1]->key), "tid");
	assert_int_equal(p->sample[0]->label[1]->num, 6);
	assert_string_equal(str(p, p->sample[0]->label[2]->key), "comm");
	assert_string_equal(str(p, p->sample[0]->label[2]->str), "w");
	assert_string_equal(str(p, p->sample[0]->label[3]->key), "cpu");
	assert_int_equal(p->sample[0]->label[3]->num, 1);
	assert_int_equal(p->n_mapping, 1);
	assert_int_equal(p->mapping[0]->memory_start, 0x400000);
	assert_int_equal(p->mapping[0]->memory_limit, 0x402000);
	assert_int_equal(p->mapping[0]->file_offset, 0x1000);
	assert_string_equal(str(p, p->mapping[0]->filename), "/tmp/w");
	assert_string_equal(str(p, p->mapping[0]->build_id), "ab01");
	assert_int_equal(p->n_location, 2);
	assert_int_equal(p->location[0]->address, 0x400010);
	assert_int_equal(p->location[0]->mapping_id, p->mapping[0]->id);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(raw);
	free(buf);
	rp_machine_free(m);
	rp_session_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile),
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
