/*
 * coldpart: a C++ program whose time goes to functions called from code
 * the compiler moved to main's cold part (main.cold): the handler of an
 * exception caught in a static function inlined into main.  DWARF gives
 * neither main nor the inlined function a linkage name, so binutils'
 * addr2line names their code after the symbol at the address the first
 * time and after the function later (docs/unwind.md).
 *
 * Usage: coldpart [-t MS]   (default 500 ms)
 *
 * Build: c++ -O2 -g -fomit-frame-pointer -o coldpart coldpart.cc
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>

static volatile double sink;

static long now_ms()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

__attribute__((noinline)) static double burn(long n, double x)
{
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 0.5 / (x + 1.0);
	return x;
}

__attribute__((noinline)) static void check(long k)
{
	if (k & 1)
		throw std::runtime_error("odd");
}

/* Inlined into main; its handler lands in main.cold. */
static inline double step(long k, double x)
{
	try {
		check(k);
		x = burn(20000, x);
	} catch (const std::exception &) {
		x = burn(30000, x);
		x = burn(10000, x + 1.0);
	}
	return x;
}

int main(int argc, char **argv)
{
	long ms = 500;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!std::strcmp(argv[i], "-t"))
			ms = std::atol(argv[i + 1]);
	long end = now_ms() + ms;
	double x = 1.0;

	for (long k = 0; now_ms() < end; k++)
		x = step(k, x);
	sink = x;
	std::printf("%d\n", (int)x & 1);
	return 0;
}
