/* SPDX-License-Identifier: MIT */
/*
 * perf data convert --to-json's document: hand-built samples against the
 * exact text (docs/json.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/json.h>

#include "builder.h"
#include "machine/dso.h"
#include "machine/machine_int.h"

static void test_document(void **state)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_CPU | RP_SAMPLE_PERIOD | RP_SAMPLE_CALLCHAIN);
	struct rp_attr b = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					   RP_SAMPLE_CPU | RP_SAMPLE_PERIOD);
	uint64_t id = 1, idb = 2;
	struct rp_session *s;
	struct rp_machine *m;
	struct rp_json *j;
	struct rp_event ev;
	struct rp_resolved res;
	struct rp_dso dso = { 0 };
	struct rp_map map = { 0x400000, 0x402000, 0, &dso, 5, 2, 0 };
	struct rp_symbol sym = { 0x10, 0x20, "f\"q\\\n", 1, 0, 2 };
	/* The recorded entries as data-convert-json.c lists them: markers
	 * skipped, an unknown one too (the entries after it still listed). */
	const uint64_t ips[] = { RP_CONTEXT_USER, 0x400010, 0xfffffffffffffed0ull, 0x7f00 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id, 1);
	tb_file_attr(&f, &b, &idb, 1);
	tb_feat_string(tb_file_feat(&f, RP_FEAT_HOSTNAME), "host");
	tb_feat_string(tb_file_feat(&f, RP_FEAT_VERSION), "6.1");
	s = tb_file_open(&f, RP_ORDER_FILE);
	tb_file_free(&f);
	assert_non_null(s);
	assert_int_equal(rp_machine_new(&m, NULL), 0);
	dso.long_name = "/tmp/w";
	dso.short_name = "w";

	out = open_memstream(&buf, &len);
	struct rp_json_opts opts = { .sz = sizeof(opts), .captured_on = 86400 };
	assert_int_equal(rp_json_new(&j, out, s, &opts), 0);
	struct rp_consumer c = rp_json_consumer(j);
	/* the recorded entries come with the event: no callchain asked for,
	 * so nothing is unwound */
	assert_int_equal(c.flags, 0);

	memset(&ev, 0, sizeof(ev));
	memset(&res, 0, sizeof(res));
	ev.type = RP_RECORD_SAMPLE;
	ev.evsel = rp_session_evsel(s, 0);
	ev.sid.present = RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_CPU;
	ev.sid.time = 123456789;
	ev.sid.cpu = 1;
	ev.u.sample.callchain = ips;
	ev.u.sample.callchain_nr = 4;
	res.thread = rp_machine_findnew_thread(m, 5, 6);
	res.comm = "c\t1";
	/* no machine in opts: the entries show their ip alone */
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	/* no PERF_SAMPLE_CALLCHAIN: the sampled ip, as the pipeline resolved it */
	ev.evsel = rp_session_evsel(s, 1);
	ev.u.sample.ip = 0x400010;
	res.al.ip = 0x400010;
	res.al.addr = 0x10;
	res.al.map = &map;
	res.al.dso = &dso;
	res.al.sym = &sym;
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	/* a chain of markers only: an empty list */
	ev.evsel = rp_session_evsel(s, 0);
	ev.u.sample.callchain_nr = 1;
	assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	assert_int_equal(rp_json_finish(j), 3);
	rp_json_free(j);
	fclose(out);

	const char *want =
		"{\n"
		"\t\"linux-perf-json-version\": 1,\n"
		"\t\"headers\": {\n"
		"\t\t\"header-version\": 1,\n"
		"\t\t\"captured-on\": \"1970-01-02T00:00:00Z\",\n";
	assert_memory_equal(buf, want, strlen(want));
	const char *tail =
		"\t\t\"hostname\": \"host\",\n"
		"\t\t\"os-release\": \"\",\n"
		"\t\t\"arch\": \"\",\n"
		"\t\t\"cpuid\": \"\",\n"
		"\t\t\"nrcpus-online\": 0,\n"
		"\t\t\"nrcpus-avail\": 0,\n"
		"\t\t\"perf-version\": \"6.1\",\n"
		"\t\t\"cmdline\": [\n"
		"\t\t]\n"
		"\t},\n"
		"\t\"samples\": [\n"
		"\t\t{\n"
		"\t\t\t\"timestamp\": 123456789,\n"
		"\t\t\t\"pid\": 5,\n"
		"\t\t\t\"tid\": 6,\n"
		"\t\t\t\"cpu\": 1,\n"
		"\t\t\t\"comm\": \"c\\t1\",\n"
		"\t\t\t\"callchain\": [\n"
		"\t\t\t\t{\n"
		"\t\t\t\t\t\"ip\": \"0x400010\"\n"
		"\t\t\t\t},\n"
		"\t\t\t\t{\n"
		"\t\t\t\t\t\"ip\": \"0x7f00\"\n"
		"\t\t\t\t}\n"
		"\t\t\t]\n"
		"\t\t},\n"
		"\t\t{\n"
		"\t\t\t\"timestamp\": 123456789,\n"
		"\t\t\t\"pid\": 5,\n"
		"\t\t\t\"tid\": 6,\n"
		"\t\t\t\"cpu\": 1,\n"
		"\t\t\t\"comm\": \"c\\t1\",\n"
		"\t\t\t\"callchain\": [\n"
		"\t\t\t\t{\n"
		"\t\t\t\t\t\"ip\": \"0x400010\",\n"
		"\t\t\t\t\t\"symbol\": \"f\\\"q\\\\\\n\",\n"
		"\t\t\t\t\t\"dso\": \"w\"\n"
		"\t\t\t\t}\n"
		"\t\t\t]\n"
		"\t\t},\n"
		"\t\t{\n"
		"\t\t\t\"timestamp\": 123456789,\n"
		"\t\t\t\"pid\": 5,\n"
		"\t\t\t\"tid\": 6,\n"
		"\t\t\t\"cpu\": 1,\n"
		"\t\t\t\"comm\": \"c\\t1\",\n"
		"\t\t\t\"callchain\": [\n"
		"\t\t\t]\n"
		"\t\t}\n"
		"\t]\n"
		"}\n";
	const char *at = strstr(buf, "\t\t\"hostname\"");
	assert_non_null(at);
	if (strcmp(at, tail))
		fprintf(stderr, "--- want\n%s--- got\n%s---\n", tail, at);
	assert_string_equal(at, tail);
	assert_non_null(strstr(buf, "\"feat-offset\": "));
	free(buf);
	rp_machine_free(m);
	rp_session_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
