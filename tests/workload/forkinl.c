/* SPDX-License-Identifier: MIT */
/*
 * Two processes of one name running the same stacks with an inlined
 * function in the middle: the program forks (no exec, no new name) after
 * a delay, and parent and child both call outer() -> mid() (inlined into
 * outer at -O2) -> leaf() until the run time is over.  Recorded with
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

__attribute__((noinline)) static double outer(double x)
{
	return mid(x) + 2.0;
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
