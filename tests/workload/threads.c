/*
 * threads: a small multi-threaded program to profile (tests/browser).
 *
 * The main thread and N workers each spin in functions of their own for
 * about MS milliseconds of wall time: a checksum loop, a recursive
 * Fibonacci, a sort, one of them also sleeping in short naps (off-CPU
 * time for sched:sched_switch recordings).  Threads are named
 * "th-spin-I" (prctl PR_SET_NAME); -n NAME names the main thread, which
 * gives a process whose name is hostile text (15 bytes at most).
 *
 * Usage: threads [-t MS] [-j N] [-n NAME]
 * Build: cc -O1 -g -fno-omit-frame-pointer -fno-inline -pthread -o threads threads.c
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;
static unsigned run_ms = 300;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t checksum(const unsigned char *buf, size_t len)
{
	uint64_t h = 1469598103934665603u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ buf[i]) * 1099511628211u;
	return h;
}

static uint64_t fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void sort_round(uint32_t *v, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = seed = seed * 1103515245u + 12345u;
	qsort(v, n, sizeof(*v), cmp_u32);
}

static void nap(void)
{
	struct timespec ts = { 0, 2000000 };

	nanosleep(&ts, NULL);
}

/* Worker kinds: 0 checksum, 1 fib, 2 sort, 3 checksum with naps. */
static void spin(int kind)
{
	static unsigned char buf[1 << 15];
	uint32_t v[4096];
	uint64_t end = now_ns() + (uint64_t)run_ms * 1000000u;

	memset(buf, kind + 1, sizeof(buf));
	while (now_ns() < end) {
		switch (kind % 4) {
		case 0: sink += checksum(buf, sizeof(buf)); break;
		case 1: sink += fib(22); break;
		case 2: sort_round(v, 4096, (uint32_t)sink); sink += v[0]; break;
		default: sink += checksum(buf, sizeof(buf) / 4); nap(); break;
		}
	}
}

static void *worker(void *arg)
{
	int kind = (int)(intptr_t)arg;
	char name[16];

	snprintf(name, sizeof(name), "th-spin-%d", kind);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	spin(kind);
	return NULL;
}

int main(int argc, char **argv)
{
	int jobs = 3, opt;
	const char *name = NULL;
	pthread_t th[16];

	while ((opt = getopt(argc, argv, "t:j:n:")) != -1) {
		switch (opt) {
		case 't': run_ms = (unsigned)atoi(optarg); break;
		case 'j': jobs = atoi(optarg); break;
		case 'n': name = optarg; break;
		default:
			fprintf(stderr, "usage: threads [-t MS] [-j N] [-n NAME]\n");
			return 2;
		}
	}
	if (jobs < 0 || jobs > 16)
		jobs = 3;
	if (name)
		prctl(PR_SET_NAME, name, 0, 0, 0);
	for (int i = 0; i < jobs; i++)
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)(i + 1));
	spin(0);
	for (int i = 0; i < jobs; i++)
		pthread_join(th[i], NULL);
	return (int)(sink & 0);
}
