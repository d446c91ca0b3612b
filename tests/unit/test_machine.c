/* SPDX-License-Identifier: MIT */
/*
 * The machine: threads, comms, fork, exec, exit, user maps and their
 * clipping, DSO names, kernel maps, KSYMBOL, the BUILD_ID feature's DSOs
 * and rp_machine_find_map(), on struct rp_event values built by hand.
 *
 * Expectations follow perf 6.1 (tools/perf/util/machine.c, thread.c,
 * map.c, dso.c); the DSO names were checked against `perf report`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/machine.h>

#include "machine/machine_int.h"

#define U32(x) ((uint32_t)(x))
#define PROT_RX 0x5u

static struct rp_machine *new_machine(void)
{
	struct rp_machine *m = NULL;

	assert_int_equal(rp_machine_new(&m, NULL), 0);
	assert_non_null(m);
	return m;
}

static void ev_init(struct rp_event *ev, uint32_t type, uint16_t misc, uint64_t time)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->misc = misc;
	ev->sid.present = RP_SAMPLE_TIME | RP_SAMPLE_TID;
	ev->sid.time = time;
}

static void comm(struct rp_machine *m, uint32_t pid, uint32_t tid, const char *name, int exec,
		 uint64_t time)
{
	struct rp_event ev;

	ev_init(&ev, RP_RECORD_COMM, exec ? RP_MISC_COMM_EXEC : 0, time);
	ev.u.comm.pid = pid;
	ev.u.comm.tid = tid;
	ev.u.comm.exec = (uint8_t)exec;
	ev.u.comm.comm = name;
	assert_int_equal(rp_machine_process(m, &ev), 0);
}

static void task(struct rp_machine *m, uint32_t type, uint16_t misc, uint32_t pid, uint32_t tid,
		 uint32_t ppid, uint32_t ptid, uint64_t time)
{
	struct rp_event ev;

	ev_init(&ev, type, misc, time);
	ev.u.task.pid = pid;
	ev.u.task.tid = tid;
	ev.u.task.ppid = ppid;
	ev.u.task.ptid = ptid;
	ev.u.task.time = time;
	assert_int_equal(rp_machine_process(m, &ev), 0);
}

static void fork_(struct rp_machine *m, uint32_t pid, uint32_t tid, uint32_t ppid, uint32_t ptid)
{
	task(m, RP_RECORD_FORK, 0, pid, tid, ppid, ptid, 100);
}

static void mmap2(struct rp_machine *m, uint16_t cpumode, uint32_t pid, uint64_t start,
		  uint64_t len, uint64_t pgoff, uint32_t prot, const char *file)
{
	struct rp_event ev;

	ev_init(&ev, RP_RECORD_MMAP2, cpumode, 10);
	ev.u.mmap.pid = pid;
	ev.u.mmap.tid = pid;
	ev.u.mmap.start = start;
	ev.u.mmap.len = len;
	ev.u.mmap.pgoff = pgoff;
	ev.u.mmap.is_mmap2 = 1;
	ev.u.mmap.prot = prot;
	ev.u.mmap.filename = file;
	assert_int_equal(rp_machine_process(m, &ev), 0);
}

static void umap(struct rp_machine *m, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		 const char *file)
{
	mmap2(m, RP_MISC_USER, pid, start, len, pgoff, PROT_RX, file);
}

static struct rp_thread *thread(struct rp_machine *m, int32_t pid, int32_t tid)
{
	struct rp_thread *th = rp_machine_findnew_thread(m, U32(pid), U32(tid));

	assert_non_null(th);
	return th;
}

/* The short DSO name at ip in user mode, or NULL. */
static const char *dso_at(struct rp_machine *m, int32_t pid, uint64_t ip)
{
	struct rp_addr_location al;

	if (!rp_machine_find_map(m, thread(m, pid, pid), RP_MISC_USER, ip, &al))
		return NULL;
	return rp_dso_short_name(al.dso);
}

static uint64_t addr_at(struct rp_machine *m, int32_t pid, uint64_t ip)
{
	struct rp_addr_location al;

	assert_int_equal(rp_machine_find_map(m, thread(m, pid, pid), RP_MISC_USER, ip, &al), 1);
	return al.addr;
}

/* ------------------------------------------------------------ threads */

static void test_new_thread_default_comm(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_thread *th = thread(m, 42, 43);

	assert_string_equal(rp_thread_comm(th), ":43");
	assert_int_equal(rp_thread_pid(th), 42);
	assert_int_equal(rp_thread_tid(th), 43);
	/* The leader was made too, and the two share one address space. */
	struct rp_thread *leader = thread(m, 42, 42);

	assert_string_equal(rp_thread_comm(leader), ":42");
	assert_ptr_equal(th->maps, leader->maps);
	/* The same tid gives the same thread. */
	assert_ptr_equal(thread(m, 42, 43), th);
	rp_machine_free(m);
}

static void test_idle_thread_is_swapper(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	assert_string_equal(rp_thread_comm(thread(m, 0, 0)), "swapper");
	rp_machine_free(m);
}

static void test_unknown_pid_learned_later(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_thread *th = thread(m, -1, 77);

	assert_int_equal(rp_thread_pid(th), -1);
	umap(m, 70, 0x1000, 0x1000, 0, "/bin/leader");
	/* Found again with its pid: it takes the leader's maps. */
	assert_ptr_equal(thread(m, 70, 77), th);
	assert_int_equal(rp_thread_pid(th), 70);
	assert_ptr_equal(th->maps, thread(m, 70, 70)->maps);
	/* An unknown pid afterwards changes nothing. */
	assert_ptr_equal(thread(m, -1, 77), th);
	assert_int_equal(rp_thread_pid(th), 70);
	rp_machine_free(m);
}

static void test_comm_and_history(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	comm(m, 5, 5, "bash", 0, 1000);
	struct rp_thread *th = thread(m, 5, 5);

	assert_string_equal(rp_thread_comm(th), "bash");
	comm(m, 5, 5, "ls", 1, 2000);
	assert_string_equal(rp_thread_comm(th), "ls");
	assert_int_equal(th->nr_comms, 2);
	assert_string_equal(rp_thread_comm_at(th, 1500), "bash");
	assert_string_equal(rp_thread_comm_at(th, 2000), "ls");
	assert_string_equal(rp_thread_comm_at(th, 5), "bash");
	/* A thread's comm is its own: another thread keeps ":tid". */
	assert_string_equal(rp_thread_comm(thread(m, 5, 6)), ":6");
	rp_machine_free(m);
}

/* ------------------------------------------------------------ fork, exit */

static void test_fork_copies_comm_and_maps(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	comm(m, 10, 10, "make", 0, 1);
	umap(m, 10, 0x400000, 0x10000, 0, "/usr/bin/make");
	fork_(m, 11, 11, 10, 10);

	struct rp_thread *child = thread(m, 11, 11);

	assert_string_equal(rp_thread_comm(child), "make");
	assert_int_equal(child->ppid, 10);
	assert_ptr_not_equal(child->maps, thread(m, 10, 10)->maps);
	assert_string_equal(dso_at(m, 11, 0x400100), "make");

	/* The copy is the child's own: the parent does not see its maps. */
	umap(m, 11, 0x400000, 0x10000, 0, "/usr/bin/cc");
	assert_string_equal(dso_at(m, 11, 0x400100), "cc");
	assert_string_equal(dso_at(m, 10, 0x400100), "make");
	rp_machine_free(m);
}

static void test_fork_of_parent_without_comm(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	fork_(m, 21, 21, 20, 20);
	/* The parent's ":20" is a default, not a comm: the child keeps its own. */
	assert_string_equal(rp_thread_comm(thread(m, 21, 21)), ":21");
	rp_machine_free(m);
}

static void test_new_thread_shares_maps(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	comm(m, 30, 30, "server", 0, 1);
	umap(m, 30, 0x1000, 0x1000, 0, "/srv/server");
	fork_(m, 30, 31, 30, 30);

	struct rp_thread *t = thread(m, 30, 31);

	assert_string_equal(rp_thread_comm(t), "server");
	assert_ptr_equal(t->maps, thread(m, 30, 30)->maps);
	/* A map added by either thread is seen by both. */
	umap(m, 30, 0x8000, 0x1000, 0, "/lib/libplugin.so");
	struct rp_addr_location al;

	assert_int_equal(rp_machine_find_map(m, t, RP_MISC_USER, 0x8004, &al), 1);
	assert_string_equal(rp_dso_short_name(al.dso), "libplugin.so");
	assert_ptr_equal(al.thread, t);
	rp_machine_free(m);
}

static void test_synthesized_fork_does_not_copy(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	comm(m, 40, 40, "init", 0, 1);
	umap(m, 40, 0x1000, 0x1000, 0, "/sbin/init");
	task(m, RP_RECORD_FORK, RP_MISC_FORK_EXEC, 41, 41, 40, 40, 0);
	assert_string_equal(rp_thread_comm(thread(m, 41, 41)), "init");
	assert_null(dso_at(m, 41, 0x1000));
	rp_machine_free(m);
}

static void test_exit_and_tid_reuse(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	comm(m, 50, 50, "sh", 0, 1);
	fork_(m, 51, 51, 50, 50);
	comm(m, 51, 51, "old", 1, 2);
	struct rp_thread *old = thread(m, 51, 51);

	task(m, RP_RECORD_EXIT, 0, 51, 51, 50, 50, 3);
	assert_true(old->dead);
	/* Samples after the exit still find the (dead) thread. */
	assert_ptr_equal(thread(m, 51, 51), old);

	/* The tid comes back in a new process: a new thread replaces it. */
	fork_(m, 51, 51, 50, 50);
	struct rp_thread *fresh = thread(m, 51, 51);

	assert_ptr_not_equal(fresh, old);
	assert_false(fresh->dead);
	assert_string_equal(rp_thread_comm(fresh), "sh");
	/* The old one lives on for whoever holds it. */
	assert_string_equal(rp_thread_comm(old), "old");
	assert_true(old->removed);
	rp_machine_free(m);
}

static void test_fork_replaces_wrong_parent(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	/* tid 61 known as a thread of process 60 ... */
	comm(m, 60, 61, "worker", 0, 1);
	/* ... forks as the leader of process 61: that thread was stale. */
	fork_(m, 62, 62, 61, 61);
	struct rp_thread *parent = thread(m, 61, 61);

	assert_int_equal(rp_thread_pid(parent), 61);
	assert_string_equal(rp_thread_comm(parent), ":61");
	assert_string_equal(rp_thread_comm(thread(m, 62, 62)), ":62");
	rp_machine_free(m);
}

/* ------------------------------------------------------------ exec */

static void test_exec_keeps_old_maps(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	comm(m, 70, 70, "sh", 0, 1);
	umap(m, 70, 0x10000, 0x10000, 0, "/bin/sh");
	umap(m, 70, 0x7f000000, 0x10000, 0, "/lib/libc-old.so");
	comm(m, 70, 70, "ls", 1, 2);
	assert_string_equal(rp_thread_comm(thread(m, 70, 70)), "ls");
	umap(m, 70, 0x18000, 0x10000, 0, "/bin/ls");
	/* perf 6.1 drops nothing at exec: the new program's maps clip the
	 * old ones, and what they leave uncovered still resolves. */
	assert_string_equal(dso_at(m, 70, 0x18000), "ls");
	assert_string_equal(dso_at(m, 70, 0x10000), "sh");
	assert_string_equal(dso_at(m, 70, 0x7f000010), "libc-old.so");
	rp_machine_free(m);
}

/* ------------------------------------------------------------ maps */

static void test_map_ip_and_pgoff(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	umap(m, 80, 0x7f0000001000, 0x2000, 0x26000, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_int_equal(addr_at(m, 80, 0x7f0000001010), 0x26010);
	assert_null(dso_at(m, 80, 0x7f0000003000)); /* end is exclusive */
	assert_null(dso_at(m, 80, 0x7f0000000fff));

	struct rp_addr_location al;

	assert_int_equal(rp_machine_find_map(m, thread(m, 80, 80), RP_MISC_USER, 0x7f0000001010,
					     &al), 1);
	assert_int_equal(al.level, '.');
	assert_int_equal(al.ip, 0x7f0000001010);
	assert_null(al.sym);
	assert_int_equal(rp_map_start(al.map), 0x7f0000001000);
	assert_int_equal(rp_map_end(al.map), 0x7f0000003000);
	assert_int_equal(rp_map_pgoff(al.map), 0x26000);
	assert_ptr_equal(rp_map_dso(al.map), al.dso);
	assert_string_equal(rp_dso_long_name(al.dso), "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(rp_dso_short_name(al.dso), "libc.so.6");
	assert_false(rp_dso_is_kernel(al.dso));
	rp_machine_free(m);
}

static void test_overlap_split(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	umap(m, 90, 0x10000, 0x10000, 0x1000, "/a");
	/* A map in the middle splits the old one in two. */
	umap(m, 90, 0x14000, 0x2000, 0, "/b");
	assert_string_equal(dso_at(m, 90, 0x13fff), "a");
	assert_string_equal(dso_at(m, 90, 0x14000), "b");
	assert_string_equal(dso_at(m, 90, 0x15fff), "b");
	assert_string_equal(dso_at(m, 90, 0x16000), "a");
	/* The part before keeps its pgoff, the part after advances it. */
	assert_int_equal(addr_at(m, 90, 0x13000), 0x4000);
	assert_int_equal(addr_at(m, 90, 0x16000), 0x7000);
	assert_int_equal(thread(m, 90, 90)->maps->nr, 3);
	rp_machine_free(m);
}

static void test_overlap_clip_and_cover(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	umap(m, 91, 0x10000, 0x4000, 0, "/a");
	umap(m, 91, 0x14000, 0x4000, 0, "/b");
	umap(m, 91, 0x18000, 0x4000, 0, "/c");
	/* Overlaps the end of a, all of b and the start of c. */
	umap(m, 91, 0x12000, 0x8000, 0, "/d");
	assert_string_equal(dso_at(m, 91, 0x11fff), "a");
	assert_string_equal(dso_at(m, 91, 0x12000), "d");
	assert_string_equal(dso_at(m, 91, 0x16000), "d");
	assert_string_equal(dso_at(m, 91, 0x19fff), "d");
	assert_string_equal(dso_at(m, 91, 0x1a000), "c");
	assert_int_equal(addr_at(m, 91, 0x1a000), 0x2000);
	assert_int_equal(thread(m, 91, 91)->maps->nr, 3);
	/* The same range again replaces the map exactly. */
	umap(m, 91, 0x12000, 0x8000, 0, "/e");
	assert_string_equal(dso_at(m, 91, 0x12000), "e");
	assert_int_equal(thread(m, 91, 91)->maps->nr, 3);
	/* Touching maps are left alone. */
	umap(m, 91, 0x1c000, 0x1000, 0, "/f");
	assert_string_equal(dso_at(m, 91, 0x1bfff), "c");
	assert_int_equal(thread(m, 91, 91)->maps->nr, 4);
	rp_machine_free(m);
}

static void test_many_maps_lookup(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	char name[32];

	for (int i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "/lib/l%d.so", i);
		umap(m, 92, 0x100000 + (uint64_t)i * 0x10000, 0x8000, 0, name);
	}
	for (int i = 199; i >= 0; i--) {
		snprintf(name, sizeof(name), "l%d.so", i);
		assert_string_equal(dso_at(m, 92, 0x100000 + (uint64_t)i * 0x10000 + 0x7fff), name);
		assert_null(dso_at(m, 92, 0x100000 + (uint64_t)i * 0x10000 + 0x8000));
	}
	rp_machine_free(m);
}

static void test_dso_shared_by_name(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_addr_location a1, a2;

	umap(m, 100, 0x1000, 0x1000, 0, "/lib/libm.so.6");
	umap(m, 101, 0x9000, 0x1000, 0, "/lib/libm.so.6");
	assert_int_equal(rp_machine_find_map(m, thread(m, 100, 100), RP_MISC_USER, 0x1000, &a1), 1);
	assert_int_equal(rp_machine_find_map(m, thread(m, 101, 101), RP_MISC_USER, 0x9000, &a2), 1);
	assert_ptr_equal(a1.dso, a2.dso);
	rp_machine_free(m);
}

static void test_dso_short_names(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	umap(m, 110, 0x1000, 0x1000, 0, "[vdso]");
	mmap2(m, RP_MISC_USER, 110, 0x2000, 0x1000, 0, 0x3, "[heap]");
	mmap2(m, RP_MISC_USER, 110, 0x3000, 0x1000, 0, 0x3, "[stack]");
	mmap2(m, RP_MISC_USER, 110, 0x4000, 0x1000, 0x4000, 0x3, "//anon");
	umap(m, 110, 0x5000, 0x1000, 0, "/memfd:jitcode (deleted)");
	umap(m, 110, 0x6000, 0x1000, 0, "/tmp/mach/del.bin (deleted)");
	assert_string_equal(dso_at(m, 110, 0x1000), "[vdso]");
	assert_string_equal(dso_at(m, 110, 0x2000), "[heap]");
	assert_string_equal(dso_at(m, 110, 0x3000), "[stack]");
	assert_string_equal(dso_at(m, 110, 0x4000), "anon");
	assert_string_equal(dso_at(m, 110, 0x5000), "memfd:jitcode (deleted)");
	assert_string_equal(dso_at(m, 110, 0x6000), "del.bin (deleted)");
	/* No-file maps translate addresses as they are. */
	assert_int_equal(addr_at(m, 110, 0x4010), 0x4010);
	assert_int_equal(addr_at(m, 110, 0x2010), 0x2010);
	rp_machine_free(m);
}

static void test_vdso_pgoff_ignored(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();

	umap(m, 111, 0x7fff0000, 0x2000, 0x5000, "[vdso]");
	assert_int_equal(addr_at(m, 111, 0x7fff0010), 0x10);
	rp_machine_free(m);
}

static void test_anon_exec_is_jit(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_addr_location al;

	comm(m, 120, 120, "java", 0, 1);
	fork_(m, 120, 121, 120, 120);
	/* Executable anonymous memory is JIT code of perf-<pid>.map. */
	mmap2(m, RP_MISC_USER, 120, 0x7000, 0x1000, 0x7000, 0x7, "//anon");
	assert_int_equal(rp_machine_find_map(m, thread(m, 120, 121), RP_MISC_USER, 0x7010, &al), 1);
	assert_string_equal(rp_dso_long_name(al.dso), "/tmp/perf-120.map");
	assert_string_equal(rp_dso_short_name(al.dso), "[JIT] tid 120");
	assert_int_equal(al.addr, 0x7010);
	/* MMAP (version 1) maps are code unless marked as data. */
	struct rp_event ev;

	ev_init(&ev, RP_RECORD_MMAP, RP_MISC_USER, 5);
	ev.u.mmap.pid = ev.u.mmap.tid = 120;
	ev.u.mmap.start = 0x9000;
	ev.u.mmap.len = 0x1000;
	ev.u.mmap.filename = "//anon";
	assert_int_equal(rp_machine_process(m, &ev), 0);
	assert_string_equal(dso_at(m, 120, 0x9000), "[JIT] tid 120");
	ev.misc |= RP_MISC_MMAP_DATA;
	ev.u.mmap.start = 0xa000;
	assert_int_equal(rp_machine_process(m, &ev), 0);
	/* Data maps are kept as maps too (perf inserts them). */
	assert_string_equal(dso_at(m, 120, 0xa000), "anon");
	rp_machine_free(m);
}

static void test_mmap2_build_id(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_event ev;

	ev_init(&ev, RP_RECORD_MMAP2, RP_MISC_USER | RP_MISC_MMAP_BUILD_ID, 5);
	ev.u.mmap.pid = ev.u.mmap.tid = 130;
	ev.u.mmap.start = 0x1000;
	ev.u.mmap.len = 0x1000;
	ev.u.mmap.is_mmap2 = 1;
	ev.u.mmap.has_build_id = 1;
	ev.u.mmap.build_id_size = 20;
	for (int i = 0; i < 20; i++)
		ev.u.mmap.build_id[i] = (uint8_t)(i + 1);
	ev.u.mmap.prot = PROT_RX;
	ev.u.mmap.filename = "/usr/bin/true";
	assert_int_equal(rp_machine_process(m, &ev), 0);

	struct rp_addr_location al;
	const uint8_t *bid = NULL;

	assert_int_equal(rp_machine_find_map(m, thread(m, 130, 130), RP_MISC_USER, 0x1000, &al), 1);
	assert_int_equal(rp_dso_build_id(al.dso, &bid), 20);
	assert_int_equal(bid[0], 1);
	assert_int_equal(bid[19], 20);
	rp_machine_free(m);
}

/* ------------------------------------------------------------ kernel */

static void kernel_mmap(struct rp_machine *m, uint64_t start, uint64_t len, uint64_t pgoff,
			const char *name)
{
	struct rp_event ev;

	ev_init(&ev, RP_RECORD_MMAP, RP_MISC_KERNEL, 0);
	ev.u.mmap.pid = U32(-1);
	ev.u.mmap.tid = 0;
	ev.u.mmap.start = start;
	ev.u.mmap.len = len;
	ev.u.mmap.pgoff = pgoff;
	ev.u.mmap.filename = name;
	assert_int_equal(rp_machine_process(m, &ev), 0);
}

static void test_kernel_map(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_thread *th = thread(m, 140, 140);
	struct rp_addr_location al;

	/* No kernel MMAP: kernel samples find nothing. */
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffff81000100, &al), 0);
	assert_int_equal(al.level, 'k');
	assert_null(al.dso);

	kernel_mmap(m, 0xffffffff81000000, 0x12090c8, 0xffffffff81000000,
		    "[kernel.kallsyms]_text");
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffff81000100, &al), 1);
	assert_int_equal(al.level, 'k');
	assert_int_equal(al.addr, 0xffffffff81000100); /* identity */
	assert_string_equal(rp_dso_short_name(al.dso), "[kernel.kallsyms]");
	assert_string_equal(rp_dso_long_name(al.dso), "[kernel.kallsyms]");
	assert_true(rp_dso_is_kernel(al.dso));
	assert_ptr_equal(rp_machine_kernel_map(m), al.map);
	assert_string_equal(m->kernel_ref_name, "_text");
	/* The map ends where the record says (perf: _etext). */
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffff822090c8, &al), 0);
	/* A kernel address sampled in user mode is looked up in user maps. */
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_USER, 0xffffffff81000100, &al), 0);
	assert_int_equal(al.level, '.');
	/* And a user address sampled in kernel mode in the kernel's. */
	umap(m, 140, 0x1000, 0x1000, 0, "/bin/x");
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0x1000, &al), 0);
	/* Guest and hypervisor modes find no map, level 'H'. */
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_GUEST_KERNEL, 0xffffffff81000100, &al),
			 0);
	assert_int_equal(al.level, 'H');
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_HYPERVISOR, 0x1000, &al), 0);
	assert_int_equal(al.level, 'H');
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_CPUMODE_UNKNOWN, 0x1000, &al), 0);
	assert_int_equal(al.level, 'H');
	/* Kernel maps are the same for every thread. */
	assert_int_equal(rp_machine_find_map(m, thread(m, 0, 0), RP_MISC_KERNEL, 0xffffffff81000000,
					     &al), 1);
	/* The kernel MMAP made no user map in pid -1's threads. */
	assert_int_equal(m->all_maps != NULL, 1);
	rp_machine_free(m);
}

static void test_kernel_map_zero_size(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_addr_location al;

	kernel_mmap(m, 0, 0, 0, "[kernel.kallsyms]");
	assert_int_equal(rp_machine_find_map(m, thread(m, 1, 1), RP_MISC_KERNEL, 0xffffffffa0000000,
					     &al), 1);
	assert_null(m->kernel_ref_name);
	rp_machine_free(m);
}

static void test_kernel_modules(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_thread *th = thread(m, 1, 1);
	struct rp_addr_location al;

	kernel_mmap(m, 0xffffffff81000000, 0x1000000, 0xffffffff81000000, "[kernel.kallsyms]_text");
	kernel_mmap(m, 0xffffffffc0000000, 0x5000, 0,
		    "/lib/modules/6.1.0/kernel/drivers/net/virtio-net.ko");
	kernel_mmap(m, 0xffffffffc0010000, 0x3000, 0, "[ext4]");
	kernel_mmap(m, 0xffffffffc0020000, 0x3000, 0, "/lib/modules/6.1.0/kernel/fs/xfs.ko.xz");
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffffc0000010, &al), 1);
	assert_string_equal(rp_dso_short_name(al.dso), "[virtio_net]");
	assert_string_equal(rp_dso_long_name(al.dso),
			    "/lib/modules/6.1.0/kernel/drivers/net/virtio-net.ko");
	assert_int_equal(al.addr, 0x10); /* relative to the module's start */
	assert_true(rp_dso_is_kernel(al.dso));
	assert_int_equal(al.dso->kind, RP_DSO_MODULE);
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffffc0010000, &al), 1);
	assert_string_equal(rp_dso_short_name(al.dso), "[ext4]");
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffffc0020000, &al), 1);
	assert_string_equal(rp_dso_short_name(al.dso), "[xfs]");
	rp_machine_free(m);
}

static void test_ksymbol(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_thread *th = thread(m, 1, 1);
	struct rp_addr_location al;
	struct rp_event ev;

	kernel_mmap(m, 0xffffffff81000000, 0x1000000, 0xffffffff81000000, "[kernel.kallsyms]_text");
	ev_init(&ev, RP_RECORD_KSYMBOL, 0, 5);
	ev.u.ksymbol.addr = 0xffffffffc0400000;
	ev.u.ksymbol.len = 0x100;
	ev.u.ksymbol.ksym_type = 1;
	ev.u.ksymbol.name = "bpf_prog_6deef7357e7b4530_sd_fw_ingress";
	assert_int_equal(rp_machine_process(m, &ev), 0);
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffffc0400010, &al), 1);
	assert_string_equal(rp_dso_short_name(al.dso), "bpf_prog_6deef7357e7b4530_sd_fw_ingress");
	assert_int_equal(al.dso->kind, RP_DSO_BPF);
	assert_int_equal(al.addr, 0x10);
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffffc0400100, &al), 0);

	/* A symbol inside the kernel image makes no map. */
	ev.u.ksymbol.addr = 0xffffffff81000100;
	ev.u.ksymbol.name = "bpf_trampoline_6442";
	assert_int_equal(rp_machine_process(m, &ev), 0);
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffff81000100, &al), 1);
	assert_string_equal(rp_dso_short_name(al.dso), "[kernel.kallsyms]");
	/* Unregistering it leaves the kernel map alone. */
	ev.u.ksymbol.flags = 1;
	assert_int_equal(rp_machine_process(m, &ev), 0);
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffff81000100, &al), 1);

	/* Unregistering the program removes its map. */
	ev.u.ksymbol.addr = 0xffffffffc0400000;
	assert_int_equal(rp_machine_process(m, &ev), 0);
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffffc0400010, &al), 0);

	/* A trampoline outside the kernel: a BPF map with an empty long name. */
	ev.u.ksymbol.flags = 0;
	ev.u.ksymbol.addr = 0xffffffffc0500000;
	ev.u.ksymbol.name = "bpf_trampoline_6442";
	assert_int_equal(rp_machine_process(m, &ev), 0);
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffffc0500000, &al), 1);
	assert_string_equal(rp_dso_short_name(al.dso), "bpf_trampoline_6442");
	assert_string_equal(rp_dso_long_name(al.dso), "");
	rp_machine_free(m);
}

static void test_entry_trampoline(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_addr_location al;

	kernel_mmap(m, 0xffffffff81000000, 0x1000000, 0xffffffff81000000, "[kernel.kallsyms]_text");
	kernel_mmap(m, 0xfffffe0000006000, 0x1000, 0xffffffff81a00000,
		    "__entry_SYSCALL_64_trampoline");
	assert_int_equal(rp_machine_find_map(m, thread(m, 1, 1), RP_MISC_KERNEL, 0xfffffe0000006010,
					     &al), 1);
	assert_string_equal(rp_dso_short_name(al.dso), "[kernel.kallsyms]");
	assert_int_equal(al.addr, 0xffffffff81a00010);
	rp_machine_free(m);
}

/* ------------------------------------------------------------ caps */

static void test_thread_cap_and_bad_input(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_event ev;

	/* Records the machine ignores. */
	ev_init(&ev, RP_RECORD_SAMPLE, RP_MISC_USER, 1);
	assert_int_equal(rp_machine_process(m, &ev), 0);
	ev_init(&ev, RP_RECORD_FINISHED_ROUND, 0, 1);
	assert_int_equal(rp_machine_process(m, &ev), 0);
	/* An empty and a wrapping map change nothing. */
	umap(m, 150, 0x1000, 0x1000, 0, "/a");
	umap(m, 150, 0x1800, 0, 0, "/b");
	umap(m, 150, 0xfffffffffffff000, 0x2000, 0, "/c");
	assert_string_equal(dso_at(m, 150, 0x1800), "a");
	assert_int_equal(thread(m, 150, 150)->maps->nr, 1);
	/* NULL names. */
	comm(m, 150, 150, NULL, 0, 2);
	umap(m, 150, 0x5000, 0x1000, 0, NULL);
	assert_int_equal(rp_machine_process(m, NULL), RP_ERR_INVAL);
	/* The thread cap. */
	m->nr_threads = RP_MACHINE_MAX_THREADS;
	assert_null(rp_machine_findnew_thread(m, 9999, 9999));
	ev_init(&ev, RP_RECORD_COMM, 0, 1);
	ev.u.comm.pid = ev.u.comm.tid = 9999;
	ev.u.comm.comm = "x";
	assert_int_equal(rp_machine_process(m, &ev), RP_ERR_LIMIT);
	m->nr_maps = RP_MACHINE_MAX_MAPS;
	ev_init(&ev, RP_RECORD_MMAP2, RP_MISC_USER, 1);
	ev.u.mmap.pid = ev.u.mmap.tid = 150;
	ev.u.mmap.start = 0x8000;
	ev.u.mmap.len = 0x1000;
	ev.u.mmap.filename = "/d";
	assert_int_equal(rp_machine_process(m, &ev), RP_ERR_LIMIT);
	rp_machine_free(NULL);
	rp_machine_free(m);
}

static void test_header_build_ids(void **state)
{
	(void)state;
	struct rp_machine *m = new_machine();
	struct rp_build_id_entry e[5];
	struct rp_header_info h;

	memset(e, 0, sizeof(e));
	memset(&h, 0, sizeof(h));
	e[0].pid = U32(-1);
	e[0].misc = RP_MISC_KERNEL;
	e[0].size = 20;
	e[0].build_id[0] = 0xaa;
	e[0].filename = "[kernel.kallsyms]";
	e[1].pid = U32(-1);
	e[1].misc = RP_MISC_USER;
	e[1].size = 20;
	e[1].build_id[0] = 0xbb;
	e[1].filename = "/usr/bin/true";
	e[2].pid = U32(-1);
	e[2].misc = RP_MISC_KERNEL;
	e[2].size = 20;
	e[2].build_id[0] = 0xcc;
	e[2].filename = "/lib/modules/6.1.0/kernel/fs/fuse/fuse-x.ko";
	e[3] = e[1];
	e[3].pid = 4242; /* a guest's: not the host's DSOs */
	e[3].filename = "/guest/bin";
	e[4] = e[1];
	e[4].misc = RP_MISC_HYPERVISOR; /* no address space: skipped */
	e[4].filename = "/hv/bin";
	h.nr_build_ids = 5;
	h.build_ids = e;
	assert_int_equal(rp_machine_add_build_ids(m, &h), 0);
	assert_int_equal(rp_machine_nr_dsos(m), 3);

	const uint8_t *bid;
	struct rp_addr_location al;
	struct rp_thread *th = thread(m, 1, 1);

	/* The kernel MMAP finds the header's kernel DSO. */
	kernel_mmap(m, 0xffffffff81000000, 0x1000000, 0xffffffff81000000, "[kernel.kallsyms]_text");
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffff81000000, &al), 1);
	assert_ptr_equal(al.dso, rp_machine_dso(m, 0));
	assert_int_equal(rp_dso_build_id(al.dso, &bid), 20);
	assert_int_equal(bid[0], 0xaa);
	/* A user MMAP finds the header's DSO by name. */
	umap(m, 1, 0x1000, 0x1000, 0, "/usr/bin/true");
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_USER, 0x1000, &al), 1);
	assert_ptr_equal(al.dso, rp_machine_dso(m, 1));
	assert_int_equal(rp_dso_build_id(al.dso, &bid), 20);
	assert_int_equal(bid[0], 0xbb);
	/* A module MMAP finds the header's module DSO by module name. */
	kernel_mmap(m, 0xffffffffc0000000, 0x5000, 0, "/lib/modules/6.1.0/kernel/fs/fuse/fuse-x.ko");
	assert_int_equal(rp_machine_find_map(m, th, RP_MISC_KERNEL, 0xffffffffc0000000, &al), 1);
	assert_ptr_equal(al.dso, rp_machine_dso(m, 2));
	assert_string_equal(rp_dso_short_name(al.dso), "[fuse_x]");
	assert_int_equal(al.dso->kind, RP_DSO_MODULE);
	assert_int_equal(rp_machine_nr_dsos(m), 3);
	assert_null(rp_machine_dso(m, 3));
	rp_machine_free(m);
}

static void test_kmod_names(void **state)
{
	(void)state;
	char buf[64];

	assert_int_equal(rp_kmod_name("/lib/modules/x/a-b.ko", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "[a_b]");
	assert_int_equal(rp_kmod_name("/lib/modules/x/a.ko.gz", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "[a]");
	assert_int_equal(rp_kmod_name("[nf_tables]", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "[nf_tables]");
	assert_int_equal(rp_kmod_name("[kernel.kallsyms]", buf, sizeof(buf)), 0);
	assert_int_equal(rp_kmod_name("[vdso]", buf, sizeof(buf)), 0);
	assert_int_equal(rp_kmod_name("/usr/lib/libc.so.6", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "libc.so.6");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_thread_default_comm),
		cmocka_unit_test(test_idle_thread_is_swapper),
		cmocka_unit_test(test_unknown_pid_learned_later),
		cmocka_unit_test(test_comm_and_history),
		cmocka_unit_test(test_fork_copies_comm_and_maps),
		cmocka_unit_test(test_fork_of_parent_without_comm),
		cmocka_unit_test(test_new_thread_shares_maps),
		cmocka_unit_test(test_synthesized_fork_does_not_copy),
		cmocka_unit_test(test_exit_and_tid_reuse),
		cmocka_unit_test(test_fork_replaces_wrong_parent),
		cmocka_unit_test(test_exec_keeps_old_maps),
		cmocka_unit_test(test_map_ip_and_pgoff),
		cmocka_unit_test(test_overlap_split),
		cmocka_unit_test(test_overlap_clip_and_cover),
		cmocka_unit_test(test_many_maps_lookup),
		cmocka_unit_test(test_dso_shared_by_name),
		cmocka_unit_test(test_dso_short_names),
		cmocka_unit_test(test_vdso_pgoff_ignored),
		cmocka_unit_test(test_anon_exec_is_jit),
		cmocka_unit_test(test_mmap2_build_id),
		cmocka_unit_test(test_kernel_map),
		cmocka_unit_test(test_kernel_map_zero_size),
		cmocka_unit_test(test_kernel_modules),
		cmocka_unit_test(test_ksymbol),
		cmocka_unit_test(test_entry_trampoline),
		cmocka_unit_test(test_thread_cap_and_bad_input),
		cmocka_unit_test(test_header_build_ids),
		cmocka_unit_test(test_kmod_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
