/*
 * bench workload: a fixed amount of CPU work, so that a cpu-clock recording
 * of it has about the same number of samples whatever else the machine runs
 * (cpu-clock samples only while the task is on a CPU).
 *
 * Each unit of work descends through a ring of eight functions (level_0 ..
 * level_7, each calling the next) to a depth of 8..31 frames and, at the
 * bottom, does one of four kinds of work: a byte checksum, libm (sin, exp,
 * log), libc (memcpy, qsort, snprintf), or an insertion sort.  Call stacks
 * are therefore 10..40 frames deep and many distinct.
 *
 * Usage: bench-workload [-j PROCS] [-n UNITS] [-t MS]
 *   -j PROCS  worker processes (default 2), each doing UNITS units
 *   -n UNITS  units of work per process (default 1000; one unit is about
 *             0.1 ms of CPU on the reference machine)
 *   -t MS     also stop after MS milliseconds of wall time (for system-wide
 *             recordings, whose size follows the wall time)
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -fno-inline -o bench-workload \
 *           bench/workload.c -lm
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BUF_BYTES = 16 * 1024, SORT_ITEMS = 512, MAX_PROCS = 64, RING = 8 };

static volatile uint64_t sink;
static unsigned char buf_a[BUF_BYTES], buf_b[BUF_BYTES];
static int items[SORT_ITEMS];

static uint64_t checksum(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211u;
	return h;
}

static double math_work(unsigned rounds, unsigned seed)
{
	double acc = 0.0;

	for (unsigned i = 1; i <= rounds; i++) {
		double x = (double)((i + seed) % 97) / 7.0;

		acc += sin(x) + exp(-x) + log(x + 1.0);
	}
	return acc;
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

static uint64_t libc_work(unsigned seed)
{
	char text[96];
	uint64_t total = 0;

	for (int r = 0; r < 4; r++) {
		memcpy(buf_b, buf_a, BUF_BYTES);
		memcpy(buf_a, buf_b, BUF_BYTES);
	}
	for (size_t i = 0; i < SORT_ITEMS; i++)
		items[i] = (int)((seed * 2654435761u + i * 40503u) % 100000u);
	qsort(items, SORT_ITEMS, sizeof(items[0]), cmp_int);
	for (int i = 0; i < 64; i++) {
		snprintf(text, sizeof(text), "unit %u item %d: %d", seed, i, items[i]);
		total += strlen(text);
	}
	return total;
}

static void insertion_sort(int *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int v = a[i];
		size_t j = i;

		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

static void bottom(unsigned seed)
{
	int small[200];

	switch (seed % 4) {
	case 0:
		sink += checksum(buf_a, BUF_BYTES);
		break;
	case 1:
		sink += (uint64_t)math_work(1500, seed);
		break;
	case 2:
		sink += libc_work(seed);
		break;
	default:
		for (size_t i = 0; i < 200; i++)
			small[i] = (int)((seed + i * 7919u) % 1000u);
		insertion_sort(small, 200);
		sink += (uint64_t)small[seed % 200];
		break;
	}
}

static void level(unsigned k, unsigned depth, unsigned seed);

/* Eight distinct functions so that the stacks have distinct frames. */
#define LEVEL_FN(n)                                                   \
	static void level_##n(unsigned depth, unsigned seed)          \
	{                                                             \
		if (depth == 0)                                       \
			bottom(seed);                                 \
		else                                                  \
			level(((n) + 1 + seed % 3) % RING, depth - 1, seed); \
		sink++;                                               \
	}
LEVEL_FN(0)
LEVEL_FN(1)
LEVEL_FN(2)
LEVEL_FN(3)
LEVEL_FN(4)
LEVEL_FN(5)
LEVEL_FN(6)
LEVEL_FN(7)

static void level(unsigned k, unsigned depth, unsigned seed)
{
	static void (*const fns[RING])(unsigned, unsigned) = {
		level_0, level_1, level_2, level_3, level_4, level_5, level_6, level_7,
	};

	fns[k % RING](depth, seed);
}

static uint64_t deadline_ns; /* 0: none */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void run_units(unsigned units, unsigned first)
{
	for (size_t i = 0; i < BUF_BYTES; i++)
		buf_a[i] = (unsigned char)(i * 31u);
	for (unsigned u = 0; u < units; u++) {
		unsigned seed = first + u;

		/* ~1 ms: a few descents of different depths and kinds */
		for (unsigned r = 0; r < 4; r++)
			level(seed % RING, 4 + (seed * 7 + r * 5) % 12, seed + r);
		if (deadline_ns && u % 64 == 0 && now_ns() > deadline_ns)
			break;
	}
}

static unsigned parse_uint(const char *s, unsigned max)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v > max) {
		fprintf(stderr, "bench-workload: bad number '%s' (0..%u)\n", s, max);
		exit(2);
	}
	return (unsigned)v;
}

int main(int argc, char **argv)
{
	unsigned procs = 2, units = 1000;
	pid_t pids[MAX_PROCS];

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-j") == 0 && i + 1 < argc)
			procs = parse_uint(argv[++i], MAX_PROCS);
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			units = parse_uint(argv[++i], 100000000);
		else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			deadline_ns = now_ns() + (uint64_t)parse_uint(argv[++i], 86400000) * 1000000u;
		else {
			fprintf(stderr, "usage: bench-workload [-j PROCS] [-n UNITS] [-t MS]\n");
			return 2;
		}
	}
	if (procs < 1)
		procs = 1;
	for (unsigned j = 1; j < procs; j++) {
		pids[j] = fork();
		if (pids[j] == 0) {
			run_units(units, j * 1000003u);
			_exit(0);
		}
	}
	run_units(units, 0);
	for (unsigned j = 1; j < procs; j++) {
		int status;

		if (pids[j] > 0)
			waitpid(pids[j], &status, 0);
	}
	return 0;
}
