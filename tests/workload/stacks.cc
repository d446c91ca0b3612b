/*
 * stacks: a C++ program to profile with `perf record --call-graph dwarf`:
 * built -O2 -fomit-frame-pointer, so that only DWARF CFI can walk its
 * stacks; several threads; templates and small functions the compiler
 * inlines; recursion; calls into a shared library of its own
 * (stacks_lib.c) that calls back, and into libstdc++ and libc.
 *
 * Usage: stacks [-t MS] [-j THREADS]   (defaults 300 ms, 2 threads)
 *
 * Build: c++ -O2 -g -fomit-frame-pointer -pthread -o stacks stacks.cc \
 *            -L. -lstacks -Wl,-rpath,'$ORIGIN'
 */
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

extern "C" uint64_t stacks_lib_mix(uint64_t x, unsigned rounds);
extern "C" uint64_t stacks_lib_each(uint64_t (*fn)(uint64_t, void *), void *arg, unsigned n);

static volatile uint64_t sink;

namespace {

template <typename T> struct Accumulator {
	T total{};
	// Small enough that -O2 inlines it into every caller.
	inline void add(T v) { total += v * 2654435761u; }
};

inline uint64_t square_mix(uint64_t v)
{
	Accumulator<uint64_t> acc;
	for (unsigned i = 0; i < 64; i++)
		acc.add(v + i);
	return acc.total;
}

__attribute__((noinline)) uint64_t recurse(unsigned depth, uint64_t v)
{
	if (!depth)
		return stacks_lib_mix(v, 200);
	return recurse(depth - 1, square_mix(v)) + 1;
}

uint64_t callback(uint64_t i, void *arg)
{
	return square_mix(i ^ *static_cast<uint64_t *>(arg));
}

__attribute__((noinline)) uint64_t sort_strings(unsigned n, uint64_t seed)
{
	std::vector<std::string> v;
	v.reserve(n);
	for (unsigned i = 0; i < n; i++)
		v.push_back(std::to_string(stacks_lib_mix(seed + i, 3)));
	std::sort(v.begin(), v.end());
	return v.front().size() + v.back().size();
}

__attribute__((noinline)) uint64_t count_map(unsigned n, uint64_t seed)
{
	std::map<uint64_t, unsigned> m;
	for (unsigned i = 0; i < n; i++)
		m[stacks_lib_mix(seed ^ i, 2) % 512]++;
	return m.size();
}

__attribute__((noinline)) void worker(unsigned id, std::chrono::steady_clock::time_point end)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull * (id + 1);

	while (std::chrono::steady_clock::now() < end) {
		sink = sink + recurse(12, seed++);
		sink = sink + stacks_lib_each(callback, &seed, 400);
		sink = sink + sort_strings(300, seed);
		sink = sink + count_map(400, seed);
	}
}

} // namespace

int main(int argc, char **argv)
{
	unsigned ms = 300, nthreads = 2;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-t"))
			ms = (unsigned)atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-j"))
			nthreads = (unsigned)atoi(argv[i + 1]);
	}
	if (nthreads < 1 || nthreads > 64)
		nthreads = 2;
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
	std::vector<std::thread> threads;
	for (unsigned t = 1; t < nthreads; t++)
		threads.emplace_back(worker, t, end);
	worker(0, end);
	for (auto &t : threads)
		t.join();
	return 0;
}
