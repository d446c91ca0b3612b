/*
 * workload: a small, deterministic-in-shape program to profile.
 *
 * It spends its time in a few hot functions of its own (a checksum loop, a
 * recursive Fibonacci, an insertion sort), in libc (memcpy, qsort, snprintf,
 * strlen) and in libm (sin, exp, log), and starts child processes: one that
 * only forks (and renames itself "wl-fork"), one that forks and execs this
 * program again ("wl-exec"), so that a recording holds FORK, COMM, EXIT and
 * several MMAP records besides the samples.
 *
 * Usage: workload [-t MS] [-j N] [-f N] [-q]
 *   -t MS   run for about MS milliseconds of wall time (default 300)
 *   -j N    run N worker processes in parallel (default 1)
 *   -f N    additionally fork+exec N short children, one after another,
 *           each running /bin/true and a short run of this program
 *           (a fork/exec-heavy run; default 0)
 *   -q      print nothing
 *   --child MS   internal: the exec'd child's entry point
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -fno-inline -o workload workload.c -lm
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BUF_BYTES = 64 * 1024, SORT_ITEMS = 2048, MAX_JOBS = 64, MAX_FORKS = 10000 };

static volatile uint64_t sink; /* keeps results alive */
static char self_path[4096];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Hot function 1: a byte checksum over a buffer. */
static uint64_t checksum(const unsigned char *buf, size_t len)
{
	uint64_t h = 1469598103934665603u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ buf[i]) * 1099511628211u;
	return h;
}

/* Hot function 2: recursion. */
static uint64_t fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* Hot function 3: insertion sort of a small array. */
static void insertion_sort(int *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int v = a[i];
		size_t j = i;

		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

/* libm: sin, exp, log on values the compiler cannot fold. */
static double math_work(unsigned rounds)
{
	double acc = 0.0;

	for (unsigned i = 1; i <= rounds; i++) {
		double x = (double)(i % 97) / 7.0 + (double)(sink & 1u);

		acc += sin(x) + exp(-x) + log(x + 1.0);
	}
	return acc;
}

/* libc: memcpy, qsort, snprintf, strlen. */
static uint64_t libc_work(unsigned char *a, unsigned char *b, int *items, unsigned seed)
{
	char text[128];
	uint64_t total = 0;

	for (int r = 0; r < 8; r++) {
		memcpy(b, a, BUF_BYTES);
		memcpy(a, b, BUF_BYTES);
	}
	for (size_t i = 0; i < SORT_ITEMS; i++)
		items[i] = (int)((seed * 2654435761u + i * 40503u) % 100000u);
	qsort(items, SORT_ITEMS, sizeof(items[0]), cmp_int);
	for (int i = 0; i < 200; i++) {
		snprintf(text, sizeof(text), "item %d of %u: %d", i, seed, items[i]);
		total += strlen(text);
	}
	return total;
}

/* One unit of work touching every kind of function above. */
static void work_unit(unsigned char *a, unsigned char *b, int *items, unsigned seed)
{
	int small[256];

	sink += checksum(a, BUF_BYTES);
	sink += fib(20 + seed % 3);
	for (size_t i = 0; i < 256; i++)
		small[i] = (int)((seed + i * 7919u) % 1000u);
	insertion_sort(small, 256);
	sink += (uint64_t)small[seed % 256];
	sink += (uint64_t)math_work(4000);
	sink += libc_work(a, b, items, seed);
}

static void run_for(unsigned ms)
{
	unsigned char *a = malloc(BUF_BYTES), *b = malloc(BUF_BYTES);
	int *items = malloc(SORT_ITEMS * sizeof(*items));
	uint64_t end = now_ns() + (uint64_t)ms * 1000000u;
	unsigned seed = (unsigned)getpid();

	if (!a || !b || !items) {
		fprintf(stderr, "workload: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < BUF_BYTES; i++)
		a[i] = (unsigned char)(i * 31u);
	do {
		work_unit(a, b, items, seed++);
	} while (now_ns() < end);
	free(a);
	free(b);
	free(items);
}

static void wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* A child that forks without exec and renames itself. */
static void fork_child(unsigned ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_NAME, "wl-fork", 0, 0, 0);
		run_for(ms);
		_exit(0);
	}
	if (pid > 0)
		wait_child(pid);
}

/* A child that execs this program again (entry point --child). */
static void exec_child(unsigned ms)
{
	char arg[32];
	pid_t pid;

	snprintf(arg, sizeof(arg), "%u", ms);
	pid = fork();
	if (pid == 0) {
		execl(self_path, self_path, "--child", arg, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		wait_child(pid);
}

static void exec_true(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		wait_child(pid);
}

static void one_job(unsigned ms)
{
	run_for(ms / 2);
	fork_child(ms / 4);
	exec_child(ms / 4);
}

static unsigned parse_uint(const char *s, unsigned max)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v > max) {
		fprintf(stderr, "workload: bad number '%s' (0..%u)\n", s, max);
		exit(2);
	}
	return (unsigned)v;
}

int main(int argc, char **argv)
{
	unsigned ms = 300, jobs = 1, forks = 0;
	int quiet = 0;
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);

	if (n <= 0)
		snprintf(self_path, sizeof(self_path), "%s", argv[0]);
	else
		self_path[n] = '\0';

	if (argc == 3 && strcmp(argv[1], "--child") == 0) {
		prctl(PR_SET_NAME, "wl-exec", 0, 0, 0);
		run_for(parse_uint(argv[2], 3600000));
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			ms = parse_uint(argv[++i], 3600000);
		else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc)
			jobs = parse_uint(argv[++i], MAX_JOBS);
		else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
			forks = parse_uint(argv[++i], MAX_FORKS);
		else if (strcmp(argv[i], "-q") == 0)
			quiet = 1;
		else {
			fprintf(stderr, "usage: workload [-t MS] [-j N] [-f N] [-q]\n");
			return 2;
		}
	}
	if (jobs < 1)
		jobs = 1;

	pid_t pids[MAX_JOBS];
	for (unsigned j = 1; j < jobs; j++) {
		pids[j] = fork();
		if (pids[j] == 0) {
			one_job(ms);
			_exit(0);
		}
	}
	one_job(ms);
	for (unsigned f = 0; f < forks; f++) {
		exec_true();
		exec_child(2);
	}
	for (unsigned j = 1; j < jobs; j++)
		if (pids[j] > 0)
			wait_child(pids[j]);
	if (!quiet)
		printf("workload: done (%u ms, %u jobs, %u extra forks)\n", ms, jobs, forks);
	return 0;
}
