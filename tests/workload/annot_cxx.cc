// annot_cxx: C++ for tests/diff/run_annotate.sh: calls between template
// functions (objdump names their targets with '<' and '>' of their own:
// Acc<long, 3>::run(...)), and a switch compiled to a jump table under
// -fcf-protection, whose indirect jump is "notrack jmp *%rax" in objdump.
//
// Usage: annot_cxx [MS]   (runs about MS milliseconds, default 300)
// Build: c++ -O2 -g -fno-omit-frame-pointer -fcf-protection=full -o annot_cxx annot_cxx.cc
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

static volatile long sink;

template <typename T, int N> struct Acc {
	__attribute__((noinline)) static T run(const std::vector<T> &v)
	{
		T s = 0;
		for (auto x : v)
			s += x * N;
		return s;
	}
};

__attribute__((noinline)) static long dispatch(long x)
{
	switch (x & 15) {
	case 0: return x * 3;
	case 1: return x ^ 0x55;
	case 2: return x + 17;
	case 3: return x >> 2;
	case 4: return x * 7 + 1;
	case 5: return ~x;
	case 6: return x - 99;
	case 7: return x << 3;
	case 8: return x * x;
	case 9: return x / 3;
	case 10: return x % 11;
	case 11: return x | 0x100;
	default: return x & 0xff;
	}
}

template <typename T> __attribute__((noinline)) long drive(const std::vector<T> &v, long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += dispatch(i * 2654435761L >> 7);
	return s + (long)Acc<T, 3>::run(v);
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 300;
	std::vector<long> v(20000, 3);
	std::vector<double> d(20000, 1.5);
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);

	while (std::chrono::steady_clock::now() < end) {
		sink += drive(v, 20000);
		sink += drive(d, 20000);
	}
	std::printf("%ld\n", (long)sink);
	return 0;
}
