/*
 * edges: a C++ program whose DWARF call stacks meet the ends of a walk
 * (`perf record --call-graph dwarf[,SIZE]`), built -O2
 * -fomit-frame-pointer:
 *
 *   - a SIGALRM handler that runs on an alternate signal stack
 *     (sigaltstack) and a SIGPROF handler on the thread's stack, both
 *     doing work: walks through glibc's __restore_rt signal frame, and
 *     from the alternate stack to a stack whose bytes were not copied;
 *   - C++ exceptions thrown through recursion (libgcc_s's unwinder,
 *     __cxa_throw, the personality routine);
 *   - recursion deeper than the stack bytes perf copies (8 KiB by
 *     default): walks that run out of stack;
 *   - a plugin loaded with dlopen() (edges_plugin.c) called through a
 *     function pointer, calling back through another;
 *   - a child forked a third of the way through, doing the same (without
 *     the timers' signals: a child has no interval timers).
 *
 * Usage: edges [-t MS] [-p PLUGIN.so]   (defaults 500 ms, no plugin)
 *
 * Build: c++ -O2 -g -fomit-frame-pointer -o edges edges.cc -ldl
 *        cc -O2 -g -fomit-frame-pointer -fPIC -shared -o edges_plugin.so \
 *            edges_plugin.c
 */
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <stdexcept>
#include <string>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;
static volatile unsigned long handler_sink;

static long now_ms()
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

__attribute__((noinline)) static void burn(int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += i * 0.5;
	sink = s;
}

__attribute__((noinline)) static void handler_work(int depth)
{
	if (depth) {
		handler_work(depth - 1);
		handler_sink = handler_sink + 1;
		return;
	}
	for (unsigned long i = 0; i < 150000; i++)
		handler_sink = handler_sink + i;
}

static void on_alarm(int)
{
	handler_work(4);
}

static void on_prof(int)
{
	handler_work(2);
}

__attribute__((noinline)) static int thrower(int d)
{
	burn(1500);
	if (d == 0)
		throw std::runtime_error("edges");
	return thrower(d - 1) + 1;
}

// Frames of about 300 bytes: 40 of them are more than 8 KiB of stack.
__attribute__((noinline)) static int deep(int d)
{
	volatile char pad[280];

	pad[0] = (char)d;
	pad[279] = (char)(d >> 1);
	if (d == 0) {
		burn(4000);
		return pad[0];
	}
	return deep(d - 1) + pad[279];
}

typedef double (*edges_cb)(double);
typedef double (*edges_entry)(edges_cb, double);

__attribute__((noinline)) static double callback(double x)
{
	double s = x;

	for (int i = 0; i < 3000; i++)
		s = s * 0.999 + i;
	return s;
}

// Forks once a third of the time is gone (a profiler that attached to
// the process at its start follows the child).  Not inlined: its code
// would be split between main and main.cold.
__attribute__((noinline)) static void run(long ms, edges_entry entry)
{
	long start = now_ms(), end = start + ms, n = 0;
	pid_t child = -1;

	while (now_ms() < end) {
		if (child < 0 && now_ms() >= start + ms / 3)
			child = fork(); /* the child (0) goes on to the same end */
		try {
			thrower(12);
		} catch (const std::exception &) {
			n++;
		}
		n += deep(60);
		if (entry)
			sink = entry(callback, (double)n);
	}
	if (child > 0)
		waitpid(child, nullptr, 0);
	std::printf("%ld\n", n % 7);
}

int main(int argc, char **argv)
{
	long ms = 500;
	const char *plugin = nullptr;
	int c;

	while ((c = getopt(argc, argv, "t:p:")) != -1) {
		if (c == 't')
			ms = std::atol(optarg);
		else if (c == 'p')
			plugin = optarg;
		else
			return 2;
	}
	edges_entry entry = nullptr;

	if (plugin) {
		void *h = dlopen(plugin, RTLD_NOW);

		if (!h || !(entry = (edges_entry)dlsym(h, "edges_plugin_entry"))) {
			std::fprintf(stderr, "edges: %s\n", dlerror());
			return 1;
		}
	}
	static char altstack[64 * 1024];
	stack_t ss = {};

	ss.ss_sp = altstack;
	ss.ss_size = sizeof(altstack);
	sigaltstack(&ss, nullptr);
	struct sigaction sa = {};

	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sigaction(SIGALRM, &sa, nullptr);
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPROF, &sa, nullptr);

	struct itimerval real = { { 0, 4000 }, { 0, 4000 } }, prof = { { 0, 7000 }, { 0, 7000 } };

	setitimer(ITIMER_REAL, &real, nullptr);
	setitimer(ITIMER_PROF, &prof, nullptr);
	run(ms, entry);
	return 0;
}
