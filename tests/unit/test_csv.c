/* SPDX-License-Identifier: MIT */
/*
 * The four CSV files: hand-built records and resolutions, exact contents
 * (docs/csv.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <readperf/csv.h>
#include <readperf/machine.h>
#include <readperf/process.h>

#include "builder.h"
#include "machine/dso.h"

static char *slurp(const char *dir, const char *name)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	unlink(path);
	return buf;
}

static void check_file(const char *dir, const char *name, const char *want)
{
	char *got = slurp(dir, name);

	if (strcmp(got, want))
		fprintf(stderr, "--- %s want\n%s--- got\n%s---\n", name, want, got);
	assert_string_equal(got, want);
	free(got);
}

static void test_four_files(void **state)
{
	char dir[] = "/tmp/rp_csv_XXXXXX";
	struct rp_csv *csv;
	struct rp_event ev;
	struct rp_resolved res;
	struct rp_dso w = { 0 }, libc = { 0 };
	struct rp_symbol fa = { 0x1000, 0x1100, "fa", 1, 0, 2 };
	struct rp_symbol odd = { 0x2000, 0x2100, "op,\"x\"", 1, 0, 2 };
	const struct rp_map *map = (const struct rp_map *)&w;

	(void)state;
	assert_non_null(mkdtemp(dir));
	w.long_name = "/tmp/w";
	w.short_name = "w";
	libc.long_name = "/usr/lib/libc.so.6";
	libc.short_name = "libc.so.6";
	assert_int_equal(rp_csv_new(&csv, dir, NULL, NULL), 0);
	struct rp_consumer c = rp_csv_consumer(csv);

	/* 0: FORK of process 10 from 1 */
	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_FORK;
	ev.nr = 0;
	ev.u.task = (struct rp_task_event){ 10, 1, 10, 1, 100 };
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	/* 1: COMM */
	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_COMM;
	ev.nr = 1;
	ev.sid.present = RP_SAMPLE_TID | RP_SAMPLE_TIME;
	ev.sid.pid = ev.sid.tid = 10;
	ev.sid.time = 150;
	ev.u.comm.pid = ev.u.comm.tid = 10;
	ev.u.comm.comm = "w";
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	/* 2: MMAP2 of a file whose name needs quoting, and a kernel MMAP */
	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_MMAP2;
	ev.nr = 2;
	ev.u.mmap.pid = ev.u.mmap.tid = 10;
	ev.u.mmap.start = 0x400000;
	ev.u.mmap.len = 8192;
	ev.u.mmap.pgoff = 0x1000;
	ev.u.mmap.is_mmap2 = 1;
	ev.u.mmap.filename = "/tmp/a,b";
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	ev.type = RP_RECORD_MMAP;
	ev.nr = 3;
	ev.u.mmap.pid = ev.u.mmap.tid = (uint32_t)-1;
	ev.u.mmap.start = 0xffffffff81000000ull;
	ev.u.mmap.len = 4096;
	ev.u.mmap.pgoff = 0;
	ev.u.mmap.is_mmap2 = 0;
	ev.u.mmap.filename = "[kernel.kallsyms]_text";
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	/* 4..7: samples */
	for (int i = 0; i < 4; i++) {
		memset(&ev, 0, sizeof(ev));
		memset(&res, 0, sizeof(res));
		ev.type = RP_RECORD_SAMPLE;
		ev.nr = 4 + (uint64_t)i;
		ev.u.sample.sample_type = RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					  RP_SAMPLE_PERIOD;
		ev.u.sample.pid = ev.u.sample.tid = 10;
		ev.u.sample.time = 200 + (uint64_t)i;
		ev.u.sample.period = 100 * (uint64_t)(i + 1);
		res.comm = "w";
		res.al.map = map;
		res.al.level = '.';
		if (i < 2) {
			ev.u.sample.ip = 0x401010;
			res.al.dso = &w;
			res.al.sym = &fa;
			res.al.addr = 0x1010;
		} else if (i == 2) {
			ev.u.sample.ip = 0x402000;
			res.al.dso = &w;
			res.al.sym = &odd;
			res.al.addr = 0x2000;
		} else {
			ev.u.sample.ip = 0x7f0000001234ull;
			res.al.dso = &libc;
			res.al.addr = 0x1234;
		}
		res.al.ip = ev.u.sample.ip;
		assert_int_equal(c.event(c.ctx, &ev, &res), 0);
	}
	/* 8: EXIT; 9: FINISHED_ROUND (no pid, no time) */
	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_EXIT;
	ev.nr = 8;
	ev.u.task = (struct rp_task_event){ 10, 1, 10, 1, 900 };
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_FINISHED_ROUND;
	ev.nr = 9;
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);
	/* A sample with no resolution: an unknown process, address 0. */
	memset(&ev, 0, sizeof(ev));
	ev.type = RP_RECORD_SAMPLE;
	ev.nr = 10;
	ev.u.sample.sample_type = RP_SAMPLE_IP | RP_SAMPLE_TID;
	ev.u.sample.pid = ev.u.sample.tid = 0;
	ev.u.sample.period = 1;
	assert_int_equal(c.event(c.ctx, &ev, NULL), 0);

	assert_int_equal(rp_csv_finish(csv), 0);
	rp_csv_free(csv);

	check_file(dir, "stat.csv",
		   "type,count\n"
		   "MMAP,1\n"
		   "COMM,1\n"
		   "EXIT,1\n"
		   "FORK,1\n"
		   "SAMPLE,5\n"
		   "MMAP2,1\n"
		   "FINISHED_ROUND,1\n");
	check_file(dir, "overview.csv",
		   "nr,type,pid,tid,time,info\n"
		   "0,FORK,10,10,100,1\n"
		   "1,COMM,10,10,150,w\n"
		   "2,MMAP2,10,10,,\"/tmp/a,b 0x400000 8192 0x1000\"\n"
		   "3,MMAP,-1,-1,,[kernel.kallsyms]_text 0xffffffff81000000 4096 0x0\n"
		   "4,SAMPLE,10,10,200,0x401010 100\n"
		   "5,SAMPLE,10,10,201,0x401010 200\n"
		   "6,SAMPLE,10,10,202,0x402000 300\n"
		   "7,SAMPLE,10,10,203,0x7f0000001234 400\n"
		   "8,EXIT,10,10,900,\n"
		   "9,FINISHED_ROUND,,,,\n"
		   "10,SAMPLE,0,0,,0x0 1\n");
	check_file(dir, "processes.csv",
		   "pid,name,mmaps,fork_time,exit_time,samples,period\n"
		   "-1,,1,,,0,0\n"
		   "0,,0,,,1,1\n"
		   "10,w,1,100,900,4,1000\n");
	check_file(dir, "results.csv",
		   "function,source_file,dso,samples,period\n"
		   "0x0000000000001234,,libc.so.6,1,400\n"
		   "fa,,w,2,300\n"
		   "\"op,\"\"x\"\"\",,w,1,300\n"
		   "0000000000000000,,[unknown],1,1\n");
	assert_int_equal(rmdir(dir), 0);
}

/* A leader-sampling group (cpu-clock + task-clock, :S): each sample
 * record reads both counters; the pipeline hands it to report-like
 * consumers once per value, but the CSV files list records. */
static void test_group_read_once(void **state)
{
	char dir[] = "/tmp/rp_csv_XXXXXX";
	struct tb_file f;
	struct rp_attr lead = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
					      RP_SAMPLE_ID | RP_SAMPLE_PERIOD | RP_SAMPLE_READ);
	struct rp_attr member = lead;
	uint64_t id_lead = 1, id_member = 2;

	(void)state;
	assert_non_null(mkdtemp(dir));
	lead.read_format = RP_FORMAT_GROUP | RP_FORMAT_ID;
	member.read_format = lead.read_format;
	member.config = 1; /* task-clock */
	tb_file_init(&f, 0);
	tb_file_attr(&f, &lead, &id_lead, 1);
	tb_file_attr(&f, &member, &id_member, 1);
	for (unsigned i = 0; i < 3; i++) {
		struct tb_sample smp = { .ip = 0x401000, .pid = 10, .tid = 10, .time = 100 + i,
					 .id = 1, .period = 1000, .read_nr = 2 };

		smp.read_id[0] = 1;
		smp.read_value[0] = 1000 * (i + 1);
		smp.read_id[1] = 2;
		smp.read_value[1] = 2000 * (i + 1);
		tb_sample(&f.data, &lead, RP_MISC_USER, &smp);
	}
	struct rp_session *s = tb_file_open(&f, RP_ORDER_TIME);
	tb_file_free(&f);
	assert_non_null(s);
	struct rp_machine *m = NULL;
	assert_int_equal(rp_machine_new(&m, s), 0);
	struct rp_csv *csv;
	assert_int_equal(rp_csv_new(&csv, dir, s, NULL), 0);
	struct rp_consumer c = rp_csv_consumer(csv);
	assert_int_equal(rp_process(s, m, NULL, &c, 1), 0);
	assert_int_equal(rp_csv_finish(csv), 0);
	rp_csv_free(csv);
	rp_machine_free(m);
	rp_session_close(s);
	check_file(dir, "stat.csv", "type,count\nSAMPLE,3\n");
	check_file(dir, "overview.csv",
		   "nr,type,pid,tid,time,info\n"
		   "0,SAMPLE,10,10,100,0x401000 1000\n"
		   "1,SAMPLE,10,10,101,0x401000 1000\n"
		   "2,SAMPLE,10,10,102,0x401000 1000\n");
	check_file(dir, "processes.csv",
		   "pid,name,mmaps,fork_time,exit_time,samples,period\n"
		   "10,:10,0,,,3,3000\n");
	check_file(dir, "results.csv",
		   "function,source_file,dso,samples,period\n"
		   "0x0000000000401000,,[unknown],3,3000\n");
	assert_int_equal(rmdir(dir), 0);
}

static void test_bad_dir(void **state)
{
	struct rp_csv *csv = NULL;

	(void)state;
	assert_int_equal(rp_csv_new(&csv, "/proc/no/such/dir", NULL, NULL), RP_ERR_IO);
	assert_null(csv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_files),
		cmocka_unit_test(test_group_read_once),
		cmocka_unit_test(test_bad_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
