/* SPDX-License-Identifier: MIT */
/*
 * A program for perf's A2L_FAIL_LIMIT (tests/diff/run_srcline_a2l.sh):
 * built without -g, stripped, exporting only spin_exported().  First it
 * spins in code no symbol covers and that comes before every function of
 * its .dynsym (.text.hot is laid out before .text), where addr2line finds
 * no function: perf's lookups there fail; then in spin_exported(), where
 * addr2line finds that function ("??:?", a success) but only once perf
 * stopped asking.
 *
 *   a2l_limit MS1 MS2   (milliseconds in each phase)
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline, section(".text.hot.spin"))) static void spin_static(double ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end)
		for (unsigned long i = 0; i < 1000; i++)
			sink += i * 7;
}

__attribute__((noinline, visibility("default"))) void spin_exported(double ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end)
		for (unsigned long i = 0; i < 1000; i++)
			sink ^= i * 13;
}

int main(int argc, char **argv)
{
	spin_static(argc > 1 ? atof(argv[1]) : 500);
	spin_exported(argc > 2 ? atof(argv[2]) : 300);
	return 0;
}
