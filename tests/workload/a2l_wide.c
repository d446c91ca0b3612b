/* SPDX-License-Identifier: MIT */
/*
 * A program for perf's A2L_FAIL_LIMIT in a file with DWARF (a unit built
 * with -g) but no line for its hot code (this file, built without -g):
 * tests/diff/run_srcline_a2l.sh.  Its loop is long straight-line code,
 * so that its samples fall on hundreds of addresses where DWARF has no
 * line and binutils' addr2line names the function after the file's
 * STT_FILE symbol ("a2l_wide.c:?"): an answer for perf, which never
 * stops asking.
 *
 *   a2l_wide MS   (milliseconds of spinning)
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

#define S1 sink += 3;
#define S8 S1 S1 S1 S1 S1 S1 S1 S1
#define S64 S8 S8 S8 S8 S8 S8 S8 S8
#define S512 S64 S64 S64 S64 S64 S64 S64 S64

__attribute__((noinline)) static void spin_wide(double ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end) {
		S512 S512
	}
}

int main(int argc, char **argv)
{
	spin_wide(argc > 1 ? atof(argv[1]) : 400);
	return 0;
}
