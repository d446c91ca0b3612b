/* SPDX-License-Identifier: MIT */
/*
 * Records of the data section: typed decoding of every record type, the
 * sample_id_all trailer (decoded into ev->sid and used to find the
 * evsel), records mapped to their evsel through IDENTIFIER or ID when
 * several attrs differ, unknown types stepped over, and framing errors
 * (a size below 8, a record past the data section) that stop the reader
 * after every earlier record was delivered.  Both byte orders.
 *
 * Format: perf_event.h enum perf_event_type (each record's layout, struct
 * sample_id); perf's tools/perf/util/event.h (user records 64 and up);
 * perf's evlist.c/evsel.c for id_pos/is_pos.
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

#include "builder.h"

#define TRAILER_BITS \
	(RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID | RP_SAMPLE_STREAM_ID | RP_SAMPLE_CPU)

static const uint8_t bid20[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
				   7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

/* The trailer values of record number k. */
static struct tb_sample trailer_of(unsigned k, uint64_t id)
{
	struct tb_sample t;

	memset(&t, 0, sizeof(t));
	t.pid = 100 + k;
	t.tid = 200 + k;
	t.time = 1000 + k;
	t.id = id;
	t.stream_id = 66;
	t.cpu = k % 4;
	return t;
}

static void end_kernel_record(struct tb_buf *b, size_t start, const struct rp_attr *a,
			      unsigned k)
{
	struct tb_sample t = trailer_of(k, 55);

	tb_zero(b, (8 - (b->len - start) % 8) % 8);
	tb_sample_id(b, a, &t);
	tb_rec_end(b, start);
}

static void check_trailer(const struct rp_event *ev, unsigned k)
{
	struct tb_sample t = trailer_of(k, 55);

	if ((ev->sid.present & TRAILER_BITS) != TRAILER_BITS)
		fail_msg("record %u (type %u): sid.present %#llx", k, ev->type,
			 (unsigned long long)ev->sid.present);
	assert_int_equal(ev->sid.pid, t.pid);
	assert_int_equal(ev->sid.tid, t.tid);
	assert_int_equal(ev->sid.time, t.time);
	assert_int_equal(ev->sid.id, t.id);
	assert_int_equal(ev->sid.stream_id, t.stream_id);
	assert_int_equal(ev->sid.cpu, t.cpu);
}

/* Reads the next event, stepping over the unknown types 30 and 200. */
static void next_known(struct rp_session *s, struct rp_event *ev)
{
	int rc;

	do {
		rc = rp_test_next(s, ev);
		if (rc != 1) {
			char line[512];

			fail_msg("rp_session_next: %d: %s", rc,
				 rp_error_format(rp_session_error(s), line, sizeof(line)));
		}
	} while (ev->type == 30 || ev->type == 200);
}

static uint64_t load64(const void *p, int swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

/* Every record type, each followed by its trailer, in file order. */
static void test_record_types(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct tb_buf *b;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP |
						   RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID |
						   RP_SAMPLE_STREAM_ID | RP_SAMPLE_CPU |
						   RP_SAMPLE_PERIOD);
		const uint64_t ids[1] = { 55 };
		size_t st;
		unsigned k = 0;
		struct rp_session *s;
		struct rp_event ev;

		a.read_format = RP_FORMAT_TOTAL_TIME_ENABLED | RP_FORMAT_ID | RP_FORMAT_LOST;
		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, ids, 1);
		b = &f.data;

		/* 0 MMAP */
		st = tb_rec_begin(b, RP_RECORD_MMAP, RP_MISC_USER);
		tb_u32(b, 10), tb_u32(b, 11);
		tb_u64(b, 0x400000), tb_u64(b, 0x1000), tb_u64(b, 0x2000);
		tb_str(b, "/usr/bin/true", 8);
		end_kernel_record(b, st, &a, k++);
		/* 1 MMAP2 with device and inode */
		st = tb_rec_begin(b, RP_RECORD_MMAP2, RP_MISC_USER);
		tb_u32(b, 10), tb_u32(b, 11);
		tb_u64(b, 0x7f0000000000ull), tb_u64(b, 0x21000), tb_u64(b, 0x3000);
		tb_u32(b, 8), tb_u32(b, 1), tb_u64(b, 123456), tb_u64(b, 7);
		tb_u32(b, 5), tb_u32(b, 2);
		tb_str(b, "/lib/x86_64-linux-gnu/libc.so.6", 8);
		end_kernel_record(b, st, &a, k++);
		/* 2 MMAP2 with a 20-byte build-id */
		st = tb_rec_begin(b, RP_RECORD_MMAP2, RP_MISC_USER | RP_MISC_MMAP_BUILD_ID);
		tb_u32(b, 10), tb_u32(b, 12);
		tb_u64(b, 0x7f0000100000ull), tb_u64(b, 0x1000), tb_u64(b, 0);
		tb_u8(b, 20), tb_u8(b, 0), tb_u16(b, 0), tb_bytes(b, bid20, 20);
		tb_u32(b, 5), tb_u32(b, 2);
		tb_str(b, "/lib/libm.so.6", 8);
		end_kernel_record(b, st, &a, k++);
		/* 3 MMAP2 with a 12-byte build-id */
		st = tb_rec_begin(b, RP_RECORD_MMAP2, RP_MISC_USER | RP_MISC_MMAP_BUILD_ID);
		tb_u32(b, 10), tb_u32(b, 12);
		tb_u64(b, 0x7f0000200000ull), tb_u64(b, 0x1000), tb_u64(b, 0);
		tb_u8(b, 12), tb_u8(b, 0), tb_u16(b, 0), tb_bytes(b, bid20, 12), tb_zero(b, 8);
		tb_u32(b, 1), tb_u32(b, 0x1002);
		tb_str(b, "/tmp/x", 8);
		end_kernel_record(b, st, &a, k++);
		/* 4, 5 COMM with and without exec */
		st = tb_rec_begin(b, RP_RECORD_COMM, RP_MISC_COMM_EXEC);
		tb_u32(b, 10), tb_u32(b, 10);
		tb_str(b, "bash", 8);
		end_kernel_record(b, st, &a, k++);
		st = tb_rec_begin(b, RP_RECORD_COMM, 0);
		tb_u32(b, 10), tb_u32(b, 13);
		tb_str(b, "worker-thread", 8);
		end_kernel_record(b, st, &a, k++);
		/* 6 FORK, 7 EXIT */
		for (int i = 0; i < 2; i++) {
			st = tb_rec_begin(b, i ? RP_RECORD_EXIT : RP_RECORD_FORK, 0);
			tb_u32(b, 20), tb_u32(b, 10), tb_u32(b, 21), tb_u32(b, 11);
			tb_u64(b, 5000 + (uint64_t)i);
			end_kernel_record(b, st, &a, k++);
		}
		/* 8 LOST */
		st = tb_rec_begin(b, RP_RECORD_LOST, 0);
		tb_u64(b, 55), tb_u64(b, 17);
		end_kernel_record(b, st, &a, k++);
		/* 9 LOST_SAMPLES */
		st = tb_rec_begin(b, RP_RECORD_LOST_SAMPLES, 0);
		tb_u64(b, 23);
		end_kernel_record(b, st, &a, k++);
		/* 10 THROTTLE, 11 UNTHROTTLE */
		for (int i = 0; i < 2; i++) {
			st = tb_rec_begin(b, i ? RP_RECORD_UNTHROTTLE : RP_RECORD_THROTTLE, 0);
			tb_u64(b, 7000 + (uint64_t)i), tb_u64(b, 55), tb_u64(b, 66);
			end_kernel_record(b, st, &a, k++);
		}
		/* 12 READ: value, enabled, id, lost */
		st = tb_rec_begin(b, RP_RECORD_READ, 0);
		tb_u32(b, 10), tb_u32(b, 11);
		tb_u64(b, 1234), tb_u64(b, 99), tb_u64(b, 55), tb_u64(b, 3);
		end_kernel_record(b, st, &a, k++);
		/* 13 SWITCH out (preempted), 14 SWITCH in */
		st = tb_rec_begin(b, RP_RECORD_SWITCH,
				  RP_MISC_SWITCH_OUT | RP_MISC_SWITCH_OUT_PREEMPT);
		end_kernel_record(b, st, &a, k++);
		st = tb_rec_begin(b, RP_RECORD_SWITCH, 0);
		end_kernel_record(b, st, &a, k++);
		/* 15 SWITCH_CPU_WIDE */
		st = tb_rec_begin(b, RP_RECORD_SWITCH_CPU_WIDE, RP_MISC_SWITCH_OUT);
		tb_u32(b, 30), tb_u32(b, 31);
		end_kernel_record(b, st, &a, k++);
		/* 16 NAMESPACES */
		st = tb_rec_begin(b, RP_RECORD_NAMESPACES, 0);
		tb_u32(b, 10), tb_u32(b, 11), tb_u64(b, 2);
		tb_u64(b, 4), tb_u64(b, 0xeffffffbull), tb_u64(b, 4), tb_u64(b, 0xeffffffcull);
		end_kernel_record(b, st, &a, k++);
		/* 17 CGROUP */
		st = tb_rec_begin(b, RP_RECORD_CGROUP, 0);
		tb_u64(b, 0x1234);
		tb_str(b, "/user.slice/user-0.slice", 8);
		end_kernel_record(b, st, &a, k++);
		/* 18 KSYMBOL */
		st = tb_rec_begin(b, RP_RECORD_KSYMBOL, RP_MISC_KERNEL);
		tb_u64(b, 0xffffffffc0001000ull), tb_u32(b, 0x100), tb_u16(b, 1), tb_u16(b, 1);
		tb_str(b, "bpf_prog_6deef7357e7b4530", 8);
		end_kernel_record(b, st, &a, k++);
		/* 19 BPF_EVENT */
		st = tb_rec_begin(b, RP_RECORD_BPF_EVENT, 0);
		tb_u16(b, 1), tb_u16(b, 0), tb_u32(b, 42);
		tb_bytes(b, "\x6d\xee\xf7\x35\x7e\x7b\x45\x30", 8);
		end_kernel_record(b, st, &a, k++);
		/* 20 TEXT_POKE: 5 old bytes and 5 new, padded */
		st = tb_rec_begin(b, RP_RECORD_TEXT_POKE, RP_MISC_KERNEL);
		tb_u64(b, 0xffffffff81000000ull), tb_u16(b, 5), tb_u16(b, 5);
		tb_bytes(b, "\x0f\x1f\x44\x00\x00\xe8\x01\x02\x03\x04", 10);
		end_kernel_record(b, st, &a, k++);
		/* 21 AUX */
		st = tb_rec_begin(b, RP_RECORD_AUX, 0);
		tb_u64(b, 0x1000), tb_u64(b, 0x200), tb_u64(b, 1);
		end_kernel_record(b, st, &a, k++);
		/* 22 ITRACE_START */
		st = tb_rec_begin(b, RP_RECORD_ITRACE_START, 0);
		tb_u32(b, 10), tb_u32(b, 11);
		end_kernel_record(b, st, &a, k++);
		/* 23 AUX_OUTPUT_HW_ID */
		st = tb_rec_begin(b, RP_RECORD_AUX_OUTPUT_HW_ID, 0);
		tb_u64(b, 3);
		end_kernel_record(b, st, &a, k++);
		/* 24 FINISHED_ROUND, 25 FINISHED_INIT: user records, no trailer */
		st = tb_rec_begin(b, RP_RECORD_FINISHED_ROUND, 0);
		tb_rec_end(b, st);
		k++;
		st = tb_rec_begin(b, RP_RECORD_FINISHED_INIT, 0);
		tb_rec_end(b, st);
		k++;
		/* 26 ID_INDEX */
		st = tb_rec_begin(b, RP_RECORD_ID_INDEX, 0);
		tb_u64(b, 2);
		tb_u64(b, 55), tb_u64(b, 0), tb_u64(b, 1), tb_u64(b, 100);
		tb_u64(b, 56), tb_u64(b, 0), tb_u64(b, 2), tb_u64(b, (uint64_t)-1);
		tb_rec_end(b, st);
		k++;
		/* 27 THREAD_MAP */
		st = tb_rec_begin(b, RP_RECORD_THREAD_MAP, 0);
		tb_u64(b, 2);
		tb_u64(b, 100), tb_bytes(b, "a\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
		tb_u64(b, 101), tb_bytes(b, "bbbbbbbbbbbbbbb\0", 16);
		tb_rec_end(b, st);
		k++;
		/* 28 CPU_MAP: type 0 (a cpu list), nr 2, cpus 0 and 1 */
		st = tb_rec_begin(b, RP_RECORD_CPU_MAP, 0);
		tb_u16(b, 0), tb_u16(b, 2), tb_u16(b, 0), tb_u16(b, 1);
		tb_rec_end(b, st);
		k++;
		/* 29 EVENT_UPDATE: a NAME */
		st = tb_rec_begin(b, RP_RECORD_EVENT_UPDATE, 0);
		tb_u64(b, 2), tb_u64(b, 55);
		tb_str(b, "renamed", 8);
		tb_rec_end(b, st);
		k++;
		/* 30 TIME_CONV with the extended fields, 31 without */
		st = tb_rec_begin(b, RP_RECORD_TIME_CONV, 0);
		tb_u64(b, 10), tb_u64(b, 500), tb_u64(b, 123);
		tb_u64(b, 777), tb_u64(b, 0xffff), tb_u8(b, 1), tb_u8(b, 1), tb_zero(b, 6);
		tb_rec_end(b, st);
		k++;
		st = tb_rec_begin(b, RP_RECORD_TIME_CONV, 0);
		tb_u64(b, 11), tb_u64(b, 501), tb_u64(b, 124);
		tb_rec_end(b, st);
		k++;
		/* 32, 33 unknown types: a kernel one and a user one */
		st = tb_rec_begin(b, 30, 0);
		tb_u64(b, 1), tb_u64(b, 2);
		tb_rec_end(b, st);
		k++;
		st = tb_rec_begin(b, 200, 0);
		tb_u64(b, 3);
		tb_rec_end(b, st);
		k++;
		/* 34 HEADER_BUILD_ID, 100 bytes as perf writes it, last */
		st = tb_rec_begin(b, RP_RECORD_HEADER_BUILD_ID, RP_MISC_USER | (1u << 15));
		tb_u32(b, (uint32_t)-1), tb_bytes(b, bid20, 20), tb_u8(b, 20), tb_zero(b, 3);
		tb_str(b, "/usr/bin/true", 64);
		tb_rec_end_nopad(b, st);
		k++;

		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		const struct rp_evsel *e0 = rp_session_evsel(s, 0);
		k = 0;

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_MMAP);
		assert_int_equal(ev.nr, k);
		assert_int_equal(ev.offset, f.off_data);
		assert_ptr_equal(ev.evsel, e0);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.mmap.pid, 10);
		assert_int_equal(ev.u.mmap.tid, 11);
		assert_int_equal(ev.u.mmap.start, 0x400000);
		assert_int_equal(ev.u.mmap.len, 0x1000);
		assert_int_equal(ev.u.mmap.pgoff, 0x2000);
		assert_false(ev.u.mmap.is_mmap2);
		assert_string_equal(ev.u.mmap.filename, "/usr/bin/true");

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_MMAP2);
		assert_int_equal(ev.nr, k);
		check_trailer(&ev, k++);
		assert_true(ev.u.mmap.is_mmap2);
		assert_false(ev.u.mmap.has_build_id);
		assert_int_equal(ev.u.mmap.start, 0x7f0000000000ull);
		assert_int_equal(ev.u.mmap.len, 0x21000);
		assert_int_equal(ev.u.mmap.pgoff, 0x3000);
		assert_int_equal(ev.u.mmap.maj, 8);
		assert_int_equal(ev.u.mmap.min, 1);
		assert_int_equal(ev.u.mmap.ino, 123456);
		assert_int_equal(ev.u.mmap.ino_generation, 7);
		assert_int_equal(ev.u.mmap.prot, 5);
		assert_int_equal(ev.u.mmap.flags, 2);
		assert_string_equal(ev.u.mmap.filename, "/lib/x86_64-linux-gnu/libc.so.6");

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_MMAP2);
		check_trailer(&ev, k++);
		assert_true(ev.u.mmap.has_build_id);
		assert_int_equal(ev.u.mmap.build_id_size, 20);
		assert_memory_equal(ev.u.mmap.build_id, bid20, 20);
		assert_int_equal(ev.u.mmap.tid, 12);
		assert_int_equal(ev.u.mmap.prot, 5);
		assert_int_equal(ev.u.mmap.flags, 2);
		assert_string_equal(ev.u.mmap.filename, "/lib/libm.so.6");

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_MMAP2);
		check_trailer(&ev, k++);
		assert_true(ev.u.mmap.has_build_id);
		assert_int_equal(ev.u.mmap.build_id_size, 12);
		assert_memory_equal(ev.u.mmap.build_id, bid20, 12);
		assert_int_equal(ev.u.mmap.prot, 1);
		assert_int_equal(ev.u.mmap.flags, 0x1002);
		assert_string_equal(ev.u.mmap.filename, "/tmp/x");

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_COMM);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.comm.pid, 10);
		assert_int_equal(ev.u.comm.tid, 10);
		assert_true(ev.u.comm.exec);
		assert_string_equal(ev.u.comm.comm, "bash");
		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_COMM);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.comm.tid, 13);
		assert_false(ev.u.comm.exec);
		assert_string_equal(ev.u.comm.comm, "worker-thread");

		for (int i = 0; i < 2; i++) {
			next_known(s, &ev);
			assert_int_equal(ev.type, i ? RP_RECORD_EXIT : RP_RECORD_FORK);
			check_trailer(&ev, k++);
			assert_int_equal(ev.u.task.pid, 20);
			assert_int_equal(ev.u.task.ppid, 10);
			assert_int_equal(ev.u.task.tid, 21);
			assert_int_equal(ev.u.task.ptid, 11);
			assert_int_equal(ev.u.task.time, 5000 + i);
		}

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_LOST);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.lost.id, 55);
		assert_int_equal(ev.u.lost.lost, 17);
		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_LOST_SAMPLES);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.lost.lost, 23);

		for (int i = 0; i < 2; i++) {
			next_known(s, &ev);
			assert_int_equal(ev.type, i ? RP_RECORD_UNTHROTTLE : RP_RECORD_THROTTLE);
			check_trailer(&ev, k++);
			assert_int_equal(ev.u.throttle.time, 7000 + i);
			assert_int_equal(ev.u.throttle.id, 55);
			assert_int_equal(ev.u.throttle.stream_id, 66);
		}

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_READ);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.read.pid, 10);
		assert_int_equal(ev.u.read.tid, 11);
		assert_int_equal(ev.u.read.values.nr, 1);
		assert_int_equal(ev.u.read.values.time_enabled, 99);
		struct rp_read_value rv = rp_read_get(&ev.u.read.values, 0);
		assert_int_equal(rv.value, 1234);
		assert_int_equal(rv.id, 55);
		assert_int_equal(rv.lost, 3);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_SWITCH);
		check_trailer(&ev, k++);
		assert_true(ev.u.sw.out);
		assert_true(ev.u.sw.preempt);
		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_SWITCH);
		check_trailer(&ev, k++);
		assert_false(ev.u.sw.out);
		assert_false(ev.u.sw.preempt);
		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_SWITCH_CPU_WIDE);
		check_trailer(&ev, k++);
		assert_true(ev.u.sw.out);
		assert_false(ev.u.sw.preempt);
		assert_int_equal(ev.u.sw.next_prev_pid, 30);
		assert_int_equal(ev.u.sw.next_prev_tid, 31);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_NAMESPACES);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.namespaces.pid, 10);
		assert_int_equal(ev.u.namespaces.tid, 11);
		assert_int_equal(ev.u.namespaces.nr, 2);
		/* link_info is in file layout (see event.h) */
		assert_int_equal(load64((const uint8_t *)ev.u.namespaces.link_info + 8, swap),
				 0xeffffffbull);
		assert_int_equal(load64((const uint8_t *)ev.u.namespaces.link_info + 24, swap),
				 0xeffffffcull);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_CGROUP);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.cgroup.id, 0x1234);
		assert_string_equal(ev.u.cgroup.path, "/user.slice/user-0.slice");

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_KSYMBOL);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.ksymbol.addr, 0xffffffffc0001000ull);
		assert_int_equal(ev.u.ksymbol.len, 0x100);
		assert_int_equal(ev.u.ksymbol.ksym_type, 1);
		assert_int_equal(ev.u.ksymbol.flags, 1);
		assert_string_equal(ev.u.ksymbol.name, "bpf_prog_6deef7357e7b4530");

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_BPF_EVENT);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.bpf.type, 1);
		assert_int_equal(ev.u.bpf.flags, 0);
		assert_int_equal(ev.u.bpf.id, 42);
		assert_memory_equal(ev.u.bpf.tag, "\x6d\xee\xf7\x35\x7e\x7b\x45\x30", 8);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_TEXT_POKE);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.text_poke.addr, 0xffffffff81000000ull);
		assert_int_equal(ev.u.text_poke.old_len, 5);
		assert_int_equal(ev.u.text_poke.new_len, 5);
		assert_memory_equal(ev.u.text_poke.bytes, "\x0f\x1f\x44\x00\x00\xe8\x01\x02\x03\x04",
				    10);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_AUX);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.aux.aux_offset, 0x1000);
		assert_int_equal(ev.u.aux.aux_size, 0x200);
		assert_int_equal(ev.u.aux.flags, 1);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_ITRACE_START);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.itrace_start.pid, 10);
		assert_int_equal(ev.u.itrace_start.tid, 11);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_AUX_OUTPUT_HW_ID);
		check_trailer(&ev, k++);
		assert_int_equal(ev.u.aux_output_hw_id.hw_id, 3);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_FINISHED_ROUND);
		assert_int_equal(ev.nr, k++);
		assert_int_equal(ev.size, 8);
		assert_false(ev.sid.present & RP_SAMPLE_TIME);
		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_FINISHED_INIT);
		assert_int_equal(ev.nr, k++);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_ID_INDEX);
		assert_int_equal(ev.nr, k++);
		assert_int_equal(ev.u.id_index.nr, 2);
		struct rp_id_index_entry ie = rp_id_index_get(&ev.u.id_index, 1);
		assert_int_equal(ie.id, 56);
		assert_int_equal(ie.idx, 0);
		assert_int_equal(ie.cpu, 2);
		assert_int_equal(ie.tid, (uint64_t)-1);
		ie = rp_id_index_get(&ev.u.id_index, 0);
		assert_int_equal(ie.id, 55);
		assert_int_equal(ie.tid, 100);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_THREAD_MAP);
		assert_int_equal(ev.nr, k++);
		assert_int_equal(ev.u.thread_map.nr, 2);
		/* entries in file layout: {u64 pid; char comm[16]} */
		assert_int_equal(load64((const uint8_t *)ev.u.thread_map.entries + 24, swap), 101);
		assert_string_equal((const char *)ev.u.thread_map.entries + 32, "bbbbbbbbbbbbbbb");

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_CPU_MAP);
		assert_int_equal(ev.nr, k++);
		assert_int_equal(ev.u.payload.size, 8);
		assert_ptr_equal(ev.u.payload.data, (const uint8_t *)ev.data + 8);

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_EVENT_UPDATE);
		assert_int_equal(ev.nr, k++);
		assert_int_equal(ev.u.event_update.type, 2);
		assert_int_equal(ev.u.event_update.id, 55);
		assert_int_equal(ev.u.event_update.size, 8);
		assert_string_equal((const char *)ev.u.event_update.data, "renamed");

		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_TIME_CONV);
		assert_int_equal(ev.nr, k++);
		assert_int_equal(ev.u.time_conv.time_shift, 10);
		assert_int_equal(ev.u.time_conv.time_mult, 500);
		assert_int_equal(ev.u.time_conv.time_zero, 123);
		assert_true(ev.u.time_conv.has_ext);
		assert_int_equal(ev.u.time_conv.time_cycles, 777);
		assert_int_equal(ev.u.time_conv.time_mask, 0xffff);
		assert_int_equal(ev.u.time_conv.cap_user_time_zero, 1);
		assert_int_equal(ev.u.time_conv.cap_user_time_short, 1);
		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_TIME_CONV);
		assert_int_equal(ev.nr, k++);
		assert_int_equal(ev.u.time_conv.time_shift, 11);
		assert_int_equal(ev.u.time_conv.time_mult, 501);
		assert_int_equal(ev.u.time_conv.time_zero, 124);
		assert_false(ev.u.time_conv.has_ext);

		k += 2; /* the unknown records */
		next_known(s, &ev);
		assert_int_equal(ev.type, RP_RECORD_HEADER_BUILD_ID);
		assert_int_equal(ev.nr, k++);
		assert_int_equal(ev.size, 100);
		assert_int_equal(ev.u.build_id.pid, (uint32_t)-1);
		assert_int_equal(ev.u.build_id.build_id_size, 20);
		assert_memory_equal(ev.u.build_id.build_id, bid20, 20);
		assert_string_equal(ev.u.build_id.filename, "/usr/bin/true");

		assert_int_equal(rp_test_next(s, &ev), 0);
		assert_int_equal(rp_test_next(s, &ev), 0);

		const struct rp_session_stats *stt = rp_session_stats(s);
		assert_int_equal(stt->nr_unknown_records, 2);
		assert_int_equal(rp_session_nr_records(s, RP_RECORD_MMAP), 1);
		assert_int_equal(rp_session_nr_records(s, RP_RECORD_MMAP2), 3);
		assert_int_equal(rp_session_nr_records(s, RP_RECORD_COMM), 2);
		assert_int_equal(rp_session_nr_records(s, RP_RECORD_SWITCH), 2);
		assert_int_equal(rp_session_nr_records(s, RP_RECORD_TIME_CONV), 2);
		assert_int_equal(rp_session_nr_records(s, RP_RECORD_HEADER_BUILD_ID), 1);
		assert_int_equal(rp_session_nr_records(s, RP_RECORD_SAMPLE), 0);
		assert_int_equal(stt->nr_lost, 17);
		assert_int_equal(stt->nr_lost_samples, 23);
		assert_int_equal(stt->bytes_skipped, 0);
		assert_int_equal(rp_session_error(s)->code, 0);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/*
 * Two attrs with different sample_types, told apart by IDENTIFIER: each
 * sample decodes with its own layout; each trailer too.
 */
static void test_identifier_mapping(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP |
						   RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_CPU |
						   RP_SAMPLE_PERIOD);
		struct rp_attr b = tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP |
						   RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ADDR |
						   RP_SAMPLE_CALLCHAIN | RP_SAMPLE_PERIOD);
		const uint64_t ida[2] = { 11, 12 }, idb[2] = { 21, 22 };
		const uint64_t cc[3] = { RP_CONTEXT_USER, 0x401000, 0x402000 };
		struct tb_sample sm;
		struct rp_session *s;
		struct rp_event ev;
		size_t st;

		b.config = 1; /* task-clock */
		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, ida, 2);
		tb_file_attr(&f, &b, idb, 2);
		for (unsigned i = 0; i < 8; i++) {
			int isb = (i % 3) == 1;

			memset(&sm, 0, sizeof(sm));
			sm.id = isb ? idb[i % 2] : ida[i % 2];
			sm.ip = 0x1000 + i;
			sm.pid = 7;
			sm.tid = 8;
			sm.time = 100 + i;
			sm.cpu = 1;
			sm.addr = 0xadd0 + i;
			sm.period = 3000 + i;
			sm.callchain_nr = 3;
			sm.callchain = cc;
			tb_sample(&f.data, isb ? &b : &a, RP_MISC_USER, &sm);
			/* a COMM after each sample, its trailer in its evsel's layout */
			st = tb_rec_begin(&f.data, RP_RECORD_COMM, 0);
			tb_u32(&f.data, 7), tb_u32(&f.data, 8);
			tb_str(&f.data, "comm", 8);
			sm.time = 100 + i;
			tb_sample_id(&f.data, isb ? &b : &a, &sm);
			tb_rec_end(&f.data, st);
		}
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		for (unsigned i = 0; i < 8; i++) {
			int isb = (i % 3) == 1;
			const struct rp_evsel *want = rp_session_evsel(s, isb ? 1 : 0);

			assert_int_equal(rp_test_next(s, &ev), 1);
			assert_int_equal(ev.type, RP_RECORD_SAMPLE);
			assert_ptr_equal(ev.evsel, want);
			assert_int_equal(ev.u.sample.sample_type, isb ? b.sample_type : a.sample_type);
			assert_int_equal(ev.u.sample.id, isb ? idb[i % 2] : ida[i % 2]);
			assert_int_equal(ev.u.sample.ip, 0x1000 + i);
			assert_int_equal(ev.u.sample.time, 100 + i);
			assert_int_equal(ev.u.sample.period, 3000 + i);
			if (isb) {
				assert_int_equal(ev.u.sample.addr, 0xadd0 + i);
				assert_int_equal(ev.u.sample.callchain_nr, 3);
				assert_int_equal(ev.u.sample.callchain[2], 0x402000);
			} else {
				assert_int_equal(ev.u.sample.cpu, 1);
			}

			assert_int_equal(rp_test_next(s, &ev), 1);
			assert_int_equal(ev.type, RP_RECORD_COMM);
			assert_ptr_equal(ev.evsel, want);
			assert_string_equal(ev.u.comm.comm, "comm");
			assert_true(ev.sid.present & RP_SAMPLE_TIME);
			assert_int_equal(ev.sid.time, 100 + i);
			assert_int_equal(ev.sid.id, isb ? idb[i % 2] : ida[i % 2]);
			assert_int_equal(ev.sid.pid, 7);
			assert_int_equal(ev.sid.tid, 8);
			if (!isb) {
				assert_true(ev.sid.present & RP_SAMPLE_CPU);
				assert_int_equal(ev.sid.cpu, 1);
			} else {
				assert_false(ev.sid.present & RP_SAMPLE_CPU);
			}
		}
		assert_int_equal(rp_test_next(s, &ev), 0);
		assert_int_equal(rp_session_stats(s)->nr_unknown_id, 0);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/*
 * Two attrs with one sample_type and PERF_SAMPLE_ID (no IDENTIFIER): the
 * id sits at perf's id_pos in a sample and is_pos from a trailer's end.
 */
static void test_id_mapping(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
						   RP_SAMPLE_ADDR | RP_SAMPLE_ID |
						   RP_SAMPLE_STREAM_ID | RP_SAMPLE_CPU |
						   RP_SAMPLE_PERIOD);
		struct rp_attr b = a;
		const uint64_t ida[1] = { 0x1111 }, idb[3] = { 0x2221, 0x2222, 0x2223 };
		struct tb_sample sm;
		struct rp_session *s;
		struct rp_event ev;
		size_t st;

		b.config = 1;
		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, ida, 1);
		tb_file_attr(&f, &b, idb, 3);
		for (unsigned i = 0; i < 6; i++) {
			memset(&sm, 0, sizeof(sm));
			sm.id = i % 2 ? idb[i % 3] : ida[0];
			sm.ip = 0x1000 + i;
			sm.time = 50 + i;
			sm.stream_id = 0x77;
			sm.cpu = 3;
			tb_sample(&f.data, &a, RP_MISC_KERNEL, &sm);
			st = tb_rec_begin(&f.data, RP_RECORD_EXIT, 0);
			tb_u32(&f.data, 1), tb_u32(&f.data, 2), tb_u32(&f.data, 3), tb_u32(&f.data, 4);
			tb_u64(&f.data, 9);
			tb_sample_id(&f.data, &a, &sm);
			tb_rec_end(&f.data, st);
		}
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		for (unsigned i = 0; i < 6; i++) {
			const struct rp_evsel *want = rp_session_evsel(s, i % 2);

			assert_int_equal(rp_test_next(s, &ev), 1);
			assert_int_equal(ev.type, RP_RECORD_SAMPLE);
			assert_ptr_equal(ev.evsel, want);
			assert_int_equal(ev.u.sample.ip, 0x1000 + i);
			assert_int_equal(ev.u.sample.stream_id, 0x77);
			assert_int_equal(rp_test_next(s, &ev), 1);
			assert_int_equal(ev.type, RP_RECORD_EXIT);
			assert_ptr_equal(ev.evsel, want);
			assert_int_equal(ev.sid.time, 50 + i);
			assert_int_equal(ev.sid.cpu, 3);
			assert_int_equal(ev.sid.stream_id, 0x77);
			assert_int_equal(ev.u.task.time, 9);
		}
		assert_int_equal(rp_test_next(s, &ev), 0);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/*
 * Ids that match no attr leave evsel NULL and are counted; id 0 (perf's
 * synthesized records) belongs to the first attr.
 */
static void test_unknown_and_zero_id(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP |
						   RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_PERIOD);
		struct rp_attr b = a;
		const uint64_t ida[1] = { 5 }, idb[1] = { 6 };
		struct tb_sample sm;
		struct rp_session *s;
		struct rp_event ev = { 0 };
		size_t st;
		int rc;

		b.config = 1;
		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, ida, 1);
		tb_file_attr(&f, &b, idb, 1);
		memset(&sm, 0, sizeof(sm));
		sm.time = 10;
		/* a synthesized MMAP with id 0 */
		st = tb_rec_begin(&f.data, RP_RECORD_MMAP, RP_MISC_USER);
		tb_u32(&f.data, 1), tb_u32(&f.data, 1);
		tb_u64(&f.data, 0x400000), tb_u64(&f.data, 0x1000), tb_u64(&f.data, 0);
		tb_str(&f.data, "/bin/sh", 8);
		tb_sample_id(&f.data, &a, &sm);
		tb_rec_end(&f.data, st);
		/* a sample with an id nobody owns */
		sm.id = 99;
		sm.ip = 0xbad;
		tb_sample(&f.data, &a, RP_MISC_USER, &sm);
		/* a good one of the second attr */
		sm.id = 6;
		sm.ip = 0x600d;
		sm.time = 11;
		tb_sample(&f.data, &b, RP_MISC_USER, &sm);
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		assert_int_equal(rp_test_next(s, &ev), 1);
		assert_int_equal(ev.type, RP_RECORD_MMAP);
		assert_ptr_equal(ev.evsel, rp_session_evsel(s, 0));
		rc = rp_test_next(s, &ev);
		assert_int_equal(rc, 1);
		if (ev.type == RP_RECORD_SAMPLE && ev.u.sample.ip != 0x600d) {
			/* delivered without an evsel: fine, but it must say so */
			assert_null(ev.evsel);
			assert_int_equal(rp_test_next(s, &ev), 1);
		}
		assert_int_equal(ev.type, RP_RECORD_SAMPLE);
		assert_int_equal(ev.u.sample.ip, 0x600d);
		assert_ptr_equal(ev.evsel, rp_session_evsel(s, 1));
		assert_int_equal(rp_test_next(s, &ev), 0);
		assert_int_equal(rp_session_stats(s)->nr_unknown_id, 1);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/* Without sample_id_all, non-sample records have no trailer to read. */
static void test_no_sample_id_all(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		struct tb_file f;
		struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME);
		struct rp_session *s;
		struct rp_event ev;
		size_t st;

		a.flags &= ~RP_ATTR_SAMPLE_ID_ALL;
		tb_file_init(&f, swap);
		tb_file_attr(&f, &a, NULL, 0);
		st = tb_rec_begin(&f.data, RP_RECORD_COMM, RP_MISC_COMM_EXEC);
		tb_u32(&f.data, 4), tb_u32(&f.data, 4);
		tb_str(&f.data, "a-comm-of-16-chr", 8); /* fills its 24 bytes but one */
		tb_rec_end(&f.data, st);
		s = tb_file_open(&f, RP_ORDER_FILE);
		assert_non_null(s);
		assert_int_equal(rp_test_next(s, &ev), 1);
		assert_int_equal(ev.type, RP_RECORD_COMM);
		assert_string_equal(ev.u.comm.comm, "a-comm-of-16-chr");
		assert_false(ev.sid.present & RP_SAMPLE_TIME);
		assert_int_equal(rp_test_next(s, &ev), 0);
		rp_session_close(s);
		tb_file_free(&f);
	}
}

/*
 * Framing errors: a record size below 8, a record running past the data
 * section.  Every earlier record is delivered, then CORRUPT with the
 * offset and type of the bad record; bytes_skipped counts the rest.
 */
static void test_framing_errors(void **state)
{
	(void)state;
	for (int order = 0; order < 2; order++)
		for (int kind = 0; kind < 4; kind++)
			for (int swap = 0; swap < 2; swap++) {
				struct tb_file f;
				struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID |
								   RP_SAMPLE_TIME |
								   RP_SAMPLE_PERIOD);
				struct tb_sample sm;
				struct tb_seen seen[16];
				struct rp_session *s;
				size_t bad = 0, n;
				char *path;
				int rc;

				tb_file_init(&f, swap);
				tb_file_attr(&f, &a, NULL, 0);
				memset(&sm, 0, sizeof(sm));
				for (unsigned i = 0; i < 6; i++) {
					size_t st;

					sm.ip = 0x100 + i;
					sm.time = 1000 - i; /* out of order: all queued */
					if (i < 4) {
						tb_sample(&f.data, &a, RP_MISC_USER, &sm);
						continue;
					}
					if (i == 4) {
						bad = f.data.len;
						st = tb_rec_begin(&f.data, RP_RECORD_MMAP2, 0);
						tb_zero(&f.data, 56);
						tb_rec_end(&f.data, st);
						if (kind == 0) /* size 0 */
							tb_put_u16(&f.data, st + 6, 0);
						else if (kind == 1) /* size 4 */
							tb_put_u16(&f.data, st + 6, 4);
						else /* past the data section (and, kind 2, the file) */
							tb_put_u16(&f.data, st + 6, 0x2000);
						continue;
					}
					tb_sample(&f.data, &a, RP_MISC_USER, &sm);
				}
				if (kind == 3) /* bytes after the data section */
					tb_zero(tb_file_feat(&f, RP_FEAT_HOSTNAME), 0x3000);
				path = tb_file_write_tmp(&f);
				s = tb_open(path, order ? RP_ORDER_FILE : RP_ORDER_TIME, 0);
				assert_non_null(s);
				n = tb_collect(s, seen, 16, &rc);
				/*
				 * A record running past the end of the data section
				 * may be called truncated as well as corrupt.
				 */
				int want_rc = kind >= 2 && rc == RP_ERR_TRUNCATED ? rc : RP_ERR_CORRUPT;
				if (rc != want_rc)
					fail_msg("order %d kind %d swap %d: rc %d", order, kind, swap, rc);
				assert_int_equal(n, 4);
				for (size_t i = 0; i < 4; i++) {
					assert_int_equal(seen[i].type, RP_RECORD_SAMPLE);
					/* time order reverses them, file order keeps them */
					assert_int_equal(seen[i].ip, order ? 0x100 + i : 0x103 - i);
				}
				const struct rp_error *e = rp_session_error(s);
				assert_int_equal(e->code, want_rc);
				assert_true(e->has_offset);
				assert_int_equal(e->offset, f.off_data + bad);
				assert_true(e->has_record_type);
				assert_int_equal(e->record_type, RP_RECORD_MMAP2);
				char line[512];
				rp_error_format(e, line, sizeof(line));
				char want[64];
				snprintf(want, sizeof(want), "0x%llx",
					 (unsigned long long)(f.off_data + bad));
				if (!strstr(line, want) || !strstr(line, "MMAP2"))
					fail_msg("error line \"%s\" lacks %s or MMAP2", line, want);
				assert_int_equal(rp_session_stats(s)->bytes_skipped, f.data.len - bad);
				/* the error stays */
				struct rp_event ev;
				assert_int_equal(rp_test_next(s, &ev), want_rc);
				rp_session_close(s);
				unlink(path);
				free(path);
				tb_file_free(&f);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_types),
		cmocka_unit_test(test_identifier_mapping),
		cmocka_unit_test(test_id_mapping),
		cmocka_unit_test(test_unknown_and_zero_id),
		cmocka_unit_test(test_no_sample_id_all),
		cmocka_unit_test(test_framing_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
