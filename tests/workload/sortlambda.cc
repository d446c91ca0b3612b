// SPDX-License-Identifier: MIT
// A C++ workload whose hot code is templates inlined into one another at
// -O2: std::sort with a lambda (introsort, partition, the comparison) and
// std::map with std::to_string.  Recorded with --call-graph dwarf, its
// stacks hold long inline chains in which the same functions are the
// innermost of some lookups and outer frames of others, so the names perf
// gives inlined frames depend on the order of its lookups
// (tests/diff/run_inline_names.sh).
//
//   sortlambda [-t MS]   run for about MS milliseconds (default 1000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

template <typename T> struct sum_squares {
	T v{};
	void add(T x) { v += x * x; }
};

template <typename T> static T sum_of_squares(const std::vector<T> &a)
{
	sum_squares<T> acc;
	for (T x : a)
		acc.add(x);
	return acc.v;
}

__attribute__((noinline)) static double sort_down(int n)
{
	std::vector<double> v(n);
	for (int i = 0; i < n; i++)
		v[i] = (i * 7919 % n) * 0.5;
	std::sort(v.begin(), v.end(), [](double a, double b) { return a > b; });
	return sum_of_squares(v);
}

__attribute__((noinline)) static long map_strings(int n)
{
	std::map<int, std::string> m;
	for (int i = 0; i < n; i++)
		m[i * 7 % n] = std::to_string(i);
	long s = 0;
	for (auto &p : m)
		s += (long)p.second.size();
	return s;
}

int main(int argc, char **argv)
{
	long ms = 1000;
	if (argc == 3 && !strcmp(argv[1], "-t"))
		ms = strtol(argv[2], nullptr, 10);
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
	double t = 0;
	long s = 0;
	while (std::chrono::steady_clock::now() < end) {
		t += sort_down(100000);
		s += map_strings(20000);
	}
	printf("%f %ld\n", t, s);
	return 0;
}
