/* SPDX-License-Identifier: MIT */
/*
 * Two processes of one name running the same stacks with inlined
 * functions in the middle: the program forks (no exec, no new name) after
 * a delay, and parent and child both call outer() -> mid() (inlined into
 * outer at -O2) -> leaf(), and outer's other callees in turn, until the
 * run time is over.  Recorded with
 * `perf record --call-graph dwarf`, every sample's stack holds the
 * inlined frame mid, and the two processes' samples find each other's
 * --children rows (same comm, same DSO and symbol), each process through
 * maps of its own (tests/diff/run_dwarf_fork.sh).
 *
 *   forkinl [SECONDS [DELAY_MS]]     (defaults 2 and 400)
 */
#include <math.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

__attribute__((noinline)) static double leaf(double x)
{
	for (int i = 0; i < 4000; i++)
		x = sin(x) * 0.5 + 1.0;
	return x;
}

static inline __attribute__((always_inline)) double mid(double x)
{
	double a = leaf(x);

	return a + leaf(a + 1.0) * 0.25;
}

/* Callees of outer() whose names and addresses are in opposite orders
 * (defined in the file's order, named backwards), and inlined wrappers
 * whose names lie between theirs: perf's tree of outer's children
 * compares the wrappers' frames by name and the others by address, which
 * is no order, so its descents miss children that are there
 * (docs/report.md, "Call stacks"). */
#define DIRECT(name, k)                                       \
	__attribute__((noinline)) static double name(double x) \
	{                                                     \
		return leaf(x + (k)) * 0.5;                   \
	}
DIRECT(f9_direct, 9)
DIRECT(f8_direct, 8)
DIRECT(f7_direct, 7)
DIRECT(f6_direct, 6)
DIRECT(f5_direct, 5)
DIRECT(f4_direct, 4)
DIRECT(f3_direct, 3)
DIRECT(f2_direct, 2)
DIRECT(f1_direct, 1)
DIRECT(f0_direct, 0)
#define WRAP(name, k)                                                       \
	static inline __attribute__((always_inline)) double name(double x) \
	{                                                                  \
		return leaf(x - (k)) + 1.0;                                \
	}
WRAP(f8_wrap, 8)
WRAP(f6_wrap, 6)
WRAP(f4_wrap, 4)
WRAP(f2_wrap, 2)
WRAP(f0_wrap, 0)

__attribute__((noinline)) static double outer(double x)
{
	static unsigned turn;

	switch (turn++ % 16) {
	case 0: return mid(x) + 2.0;
	case 1: return f9_direct(x);
	case 2: return f8_wrap(x);
	case 3: return f0_direct(x);
	case 4: return f5_direct(x);
	case 5: return f4_wrap(x);
	case 6: return f2_direct(x);
	case 7: return f7_direct(x);
	case 8: return f0_wrap(x);
	case 9: return f3_direct(x);
	case 10: return f6_wrap(x);
	case 11: return f8_direct(x);
	case 12: return f1_direct(x);
	case 13: return f2_wrap(x);
	case 14: return f6_direct(x);
	default: return f4_direct(x);
	}
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0;
	long delay_ms = argc > 2 ? atol(argv[2]) : 400;
	double end;
	pid_t pid;

	usleep((useconds_t)delay_ms * 1000);
	pid = fork();
	end = now() + secs;
	while (now() < end)
		sink += outer(sink);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return 0;
}
