/*
 * strings: a C program that spends its time in glibc's string functions
 * (memcpy, memmove, memset, strlen, strchr, strrchr, memchr, memcmp,
 * strcmp, strcpy, stpcpy, strncpy, strnlen, strcat) and in mprotect, on
 * sizes from a few bytes to 64 KiB, so that samples land in the
 * assembly variants glibc picks at run time (multiarch ifuncs: several
 * symbols at one address) and in a system call's wrapper.
 *
 * Usage: strings [-t MS]   (default 500 ms)
 *
 * Build: cc -O2 -g -fno-omit-frame-pointer -o strings strings.c
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BUF (96 * 1024)

static char *a, *b;
static volatile size_t sink;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

__attribute__((noinline)) static void copy_round(size_t n)
{
	memcpy(b, a, n);
	memmove(a + 1, a, n);
	memmove(b, b + 3, n);
}

__attribute__((noinline)) static void fill_round(size_t n)
{
	memset(a, 'x', n);
	memset(b, 0, n / 2);
	a[n] = '\0';
}

/* Inlined into scan_round. */
static inline size_t lengths(size_t n)
{
	return strlen(a) + strnlen(a, n / 2) + (size_t)(strchr(a, 'z') != NULL) +
	       (size_t)(strrchr(a, 'x') - a) + (size_t)(memchr(a, 'q', n) != NULL);
}

__attribute__((noinline)) static void scan_round(size_t n)
{
	memcpy(b, a, n + 1);
	sink += lengths(n);
	sink += (size_t)memcmp(a, b, n) + (size_t)strcmp(a, b);
}

__attribute__((noinline)) static void build_round(size_t n)
{
	size_t half = n / 2;

	a[half] = '\0';
	strcpy(b, a);
	sink += (size_t)(stpcpy(b, a) - b);
	strncpy(b, a, n);
	b[half] = '\0';
	strcat(b + half, "tail");
	a[half] = 'x';
}

__attribute__((noinline)) static void protect_round(char *page, long pagesz)
{
	mprotect(page, (size_t)pagesz, PROT_READ);
	mprotect(page, (size_t)pagesz, PROT_READ | PROT_WRITE);
}

int main(int argc, char **argv)
{
	long ms = 500;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "-t"))
			ms = atol(argv[i + 1]);
	long pagesz = sysconf(_SC_PAGESIZE);
	char *page = mmap(NULL, (size_t)pagesz, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	a = malloc(BUF + 64);
	b = malloc(BUF + 64);
	if (!a || !b || page == MAP_FAILED)
		return 1;
	memset(a, 'x', BUF);
	a[BUF] = '\0';
	long end = now_ms() + ms;
	size_t n = 7;

	while (now_ms() < end) {
		for (int k = 0; k < 64; k++) {
			fill_round(n);
			copy_round(n);
			scan_round(n);
			build_round(n);
			if (!(k & 7))
				protect_round(page, pagesz);
			n = n * 5 / 3 + 1;
			if (n > 64 * 1024)
				n = 7 + (size_t)k;
		}
	}
	return (int)(sink & 1);
}
