/*
 * recurse: a multi-threaded program with deep direct and mutual recursion
 * and a function called through dlopen (tests/diff/run_aggviews.sh).
 *
 * Three workers run for about MS milliseconds each: rec() recurses 10 to
 * 12 levels down to leaf(), every third level calling leaf() itself too,
 * and ping()/pong() call each other 7 to 9 levels deep.  The main thread
 * calls libm's cos() through dlsym meanwhile.  The graphs then hold the
 * same function many times on one path (perf's callchain keeps each
 * frame; --children counts an entry once per sample).
 *
 * Usage: recurse [-t MS]
 * Build: cc -O1 -g -fno-omit-frame-pointer -fno-inline -pthread -o recurse recurse.c -ldl
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile uint64_t sink;
static unsigned run_ms = 400;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static uint64_t leaf(uint64_t n)
{
	uint64_t s = 0;

	for (uint64_t i = 0; i < n; i++)
		s += i * i;
	return s;
}

__attribute__((noinline)) static uint64_t rec(int depth, uint64_t n)
{
	uint64_t r;

	if (depth == 0)
		return leaf(n);
	r = rec(depth - 1, n);
	if (depth % 3 == 0)
		r += leaf(n / 4);
	return r;
}

__attribute__((noinline)) static uint64_t pong(int depth);

__attribute__((noinline)) static uint64_t ping(int depth)
{
	if (depth <= 0)
		return leaf(20000);
	return pong(depth - 1) + 1;
}

__attribute__((noinline)) static uint64_t pong(int depth)
{
	if (depth <= 0)
		return leaf(30000);
	return ping(depth - 1) + 2;
}

static void *worker(void *arg)
{
	int k = (int)(intptr_t)arg;
	uint64_t end = now_ns() + (uint64_t)run_ms * 1000000u;

	while (now_ns() < end) {
		sink += rec(10 + k, 20000);
		sink += ping(7 + k);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[3];
	double (*fcos)(double) = NULL;
	void *h;
	double x = 0;
	uint64_t end;

	if (argc > 2 && !strcmp(argv[1], "-t"))
		run_ms = (unsigned)strtoul(argv[2], NULL, 10);
	h = dlopen("libm.so.6", RTLD_NOW);
	if (h)
		fcos = (double (*)(double))dlsym(h, "cos");
	for (int i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i))
			return 1;
	end = now_ns() + (uint64_t)run_ms * 1000000u / 4;
	for (int i = 0; fcos && now_ns() < end; i++)
		x += fcos(i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("%llu %f\n", (unsigned long long)sink, x);
	return 0;
}
