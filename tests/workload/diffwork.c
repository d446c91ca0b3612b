/*
 * diffwork: a workload with two modes whose profiles differ in known ways,
 * for readperf diff and the differential flame graph (tests/diff/run_perfdiff.sh,
 * tests/outputs/run_flamegraph_diff.sh).
 *
 * Usage: diffwork old|new [MS]
 *   runs for about MS milliseconds (default 300) of rounds; each round
 *   does units of work (a multiply-add loop) in functions called from
 *   main through one caller, stage():
 *     grows()     1 unit in old, 4 in new
 *     shrinks()   4 units in old, 1 in new
 *     steady()    2 units in both
 *     only_old()  1 unit, old only
 *     only_new()  1 unit, new only
 *     libm_part() sin() over half a unit, in both (another DSO)
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -fno-inline -o diffwork diffwork.c -lm
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { UNIT = 20000 };

static volatile uint64_t sink; /* keeps results alive */
static volatile double fsink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Each function has its own loop, so that its samples are its own. */
#define WORK(units)                                                          \
	do {                                                                 \
		uint64_t h = 1;                                              \
		for (unsigned i = 0; i < (units) * UNIT; i++)                 \
			h = h * 6364136223846793005u + i;                    \
		sink += h;                                                   \
	} while (0)

__attribute__((noinline)) void grows(unsigned units) { WORK(units); }
__attribute__((noinline)) void shrinks(unsigned units) { WORK(units); }
__attribute__((noinline)) void steady(unsigned units) { WORK(units); }
__attribute__((noinline)) void only_old(unsigned units) { WORK(units); }
__attribute__((noinline)) void only_new(unsigned units) { WORK(units); }

__attribute__((noinline)) void libm_part(void)
{
	double s = 0;

	for (unsigned i = 0; i < UNIT / 8; i++)
		s += sin((double)i * 0.001);
	fsink += s;
}

/* One round, under one caller (a frame every stack shares). */
__attribute__((noinline)) void stage(int new_mode)
{
	grows(new_mode ? 4 : 1);
	shrinks(new_mode ? 1 : 4);
	steady(2);
	if (new_mode)
		only_new(1);
	else
		only_old(1);
	libm_part();
}

int main(int argc, char **argv)
{
	if (argc < 2 || (strcmp(argv[1], "old") && strcmp(argv[1], "new"))) {
		fprintf(stderr, "usage: diffwork old|new [MS]\n");
		return 2;
	}
	int new_mode = !strcmp(argv[1], "new");
	long ms = argc > 2 ? strtol(argv[2], NULL, 10) : 300;
	uint64_t end = now_ns() + (uint64_t)(ms > 0 ? ms : 300) * 1000000u;

	while (now_ns() < end)
		stage(new_mode);
	return 0;
}
