/*
 * stacks_lib: the shared library of the stacks workload (stacks.cc), so
 * that its call stacks cross from the program into a library of its own
 * and back (a callback), as --call-graph dwarf recordings of real
 * programs do.
 *
 * Build: cc -O2 -g -fomit-frame-pointer -fPIC -shared -o libstacks.so stacks_lib.c
 */
#include <stdint.h>

/* A mixing loop the program's callers reach through the library. */
__attribute__((noinline)) uint64_t stacks_lib_mix(uint64_t x, unsigned rounds)
{
	for (unsigned i = 0; i < rounds; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

/* Calls back into the program: frames of the program above and below
 * frames of the library. */
__attribute__((noinline)) uint64_t stacks_lib_each(uint64_t (*fn)(uint64_t, void *), void *arg,
						   unsigned n)
{
	uint64_t acc = 0;

	for (unsigned i = 0; i < n; i++)
		acc += fn(i, arg);
	return acc;
}
