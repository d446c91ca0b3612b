/* SPDX-License-Identifier: MIT */
/*
 * MMAP2 records in the early layout (Linux 3.12 to 3.15, and 3.10 kernels
 * with MMAP2 backported): pid, tid, addr, len, pgoff, maj, min, ino,
 * ino_generation, then the name, without the prot and flags that Linux
 * 3.16 (commit f972eb63b100) put before it.  Each name length from 1 to
 * 24 bytes, with and without a sample_id_all trailer, both byte orders,
 * next to the same records in the current layout (prot 0 to 7): the
 * early ones are read with no_prot set and their whole name, the current
 * ones as before.
 *
 * Format: perf_event.h PERF_RECORD_MMAP2 (current layout); the kernel's
 * perf_event_mmap_output() of 3.12 (early layout, name padded with NULs to
 * a multiple of 8 bytes).
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

#define NR_NAMES 24

/* A name of len bytes: "/" then letters, or "[vdso]"-like for short ones. */
static void make_name(char *out, size_t len)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz";

	out[0] = len % 2 ? '/' : '[';
	for (size_t i = 1; i < len; i++)
		out[i] = letters[i % 26];
	out[len] = 0;
}

static void put_mmap2(struct tb_buf *b, const struct rp_attr *a, int sid_all, const char *name,
		      int early, uint32_t prot, unsigned k)
{
	size_t r = tb_rec_begin(b, RP_RECORD_MMAP2, RP_MISC_USER);
	struct tb_sample sid = { .pid = 7, .tid = 7, .time = 100 + k };

	tb_u32(b, 7);
	tb_u32(b, 7);
	tb_u64(b, 0x400000 + 0x10000ull * k);
	tb_u64(b, 0x1000);
	tb_u64(b, 0x2000);
	tb_u32(b, 8);
	tb_u32(b, 1);
	tb_u64(b, 1234);
	tb_u64(b, 5);
	if (!early) {
		tb_u32(b, prot);
		tb_u32(b, 2); /* MAP_PRIVATE */
	}
	tb_str(b, name, 8);
	if (sid_all)
		tb_sample_id(b, a, &sid);
	tb_rec_end(b, r);
}

static void check_file(int swap, int sid_all)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME);
	uint64_t id = 1;
	char names[NR_NAMES + 1][NR_NAMES + 2];
	unsigned k = 0;

	if (!sid_all)
		a.flags &= ~RP_ATTR_SAMPLE_ID_ALL;
	tb_file_init(&f, swap);
	tb_file_attr(&f, &a, &id, 1);
	for (size_t len = 1; len <= NR_NAMES; len++) {
		make_name(names[len], len);
		put_mmap2(&f.data, &a, sid_all, names[len], 1, 0, k++);
		put_mmap2(&f.data, &a, sid_all, names[len], 0, (uint32_t)(len % 8), k++);
	}
	struct rp_session *s = tb_file_open(&f, RP_ORDER_FILE);
	assert_non_null(s);
	k = 0;
	for (size_t len = 1; len <= NR_NAMES; len++) {
		for (int early = 1; early >= 0; early--, k++) {
			struct rp_event ev;

			assert_int_equal(rp_test_next(s, &ev), 1);
			assert_int_equal(ev.type, RP_RECORD_MMAP2);
			assert_int_equal(ev.u.mmap.no_prot, early);
			assert_int_equal(ev.u.mmap.pid, 7);
			assert_int_equal(ev.u.mmap.start, 0x400000 + 0x10000ull * k);
			assert_int_equal(ev.u.mmap.pgoff, 0x2000);
			assert_int_equal(ev.u.mmap.ino, 1234);
			assert_int_equal(ev.u.mmap.ino_generation, 5);
			assert_int_equal(ev.u.mmap.prot, early ? 0 : len % 8);
			assert_int_equal(ev.u.mmap.flags, early ? 0 : 2);
			assert_string_equal(ev.u.mmap.filename, names[len]);
			if (sid_all)
				assert_int_equal(ev.sid.time, 100 + k);
		}
	}
	struct rp_event ev;
	assert_int_equal(rp_test_next(s, &ev), 0);
	rp_session_close(s);
	tb_file_free(&f);
}

static void test_early_host(void **state)
{
	(void)state;
	check_file(0, 1);
	check_file(0, 0);
}

static void test_early_swapped(void **state)
{
	(void)state;
	check_file(1, 1);
	check_file(1, 0);
}

/* A current-layout record whose name does not start with a printable
 * character is still read as current, and an early-looking record with a
 * NUL too early for its padding is not early. */
static void test_not_early(void **state)
{
	struct tb_file f;
	struct rp_attr a = tb_attr_default(RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME);
	uint64_t id = 1;
	struct rp_event ev;
	size_t r;

	(void)state;
	a.flags &= ~RP_ATTR_SAMPLE_ID_ALL;
	tb_file_init(&f, 0);
	tb_file_attr(&f, &a, &id, 1);
	/* prot 7, flags, a 16-byte name area */
	put_mmap2(&f.data, &a, 0, "/usr/lib/x.so", 0, 7, 0);
	/* 16 bytes after ino_generation: "ab\0" then padding: the NUL is
	 * not in the last 8 bytes, so these are prot and flags (garbage) and
	 * a name. */
	r = tb_rec_begin(&f.data, RP_RECORD_MMAP2, RP_MISC_USER);
	tb_zero(&f.data, 56);
	tb_bytes(&f.data, "ab\0\0\0\0\0\0name\0\0\0\0", 16);
	tb_rec_end(&f.data, r);
	struct rp_session *s = tb_file_open(&f, RP_ORDER_FILE);
	assert_non_null(s);
	assert_int_equal(rp_test_next(s, &ev), 1);
	assert_int_equal(ev.u.mmap.no_prot, 0);
	assert_int_equal(ev.u.mmap.prot, 7);
	assert_string_equal(ev.u.mmap.filename, "/usr/lib/x.so");
	assert_int_equal(rp_test_next(s, &ev), 1);
	assert_int_equal(ev.u.mmap.no_prot, 0);
	assert_string_equal(ev.u.mmap.filename, "name");
	assert_int_equal(rp_test_next(s, &ev), 0);
	rp_session_close(s);
	tb_file_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_early_host),
		cmocka_unit_test(test_early_swapped),
		cmocka_unit_test(test_not_early),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
