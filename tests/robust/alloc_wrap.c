/* SPDX-License-Identifier: MIT */
/*
 * Allocation failure injection for the readperf command, linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup (the
 * library and the command; libc, libelf and zstd keep their own).
 *
 *   RP_ALLOC_FAIL_AT=N   the Nth allocation (from 1) returns NULL, and
 *                        every one after it succeeds again
 *   RP_ALLOC_COUNT=1     prints "rp-alloc: N allocations" on stderr at exit
 *   RP_ALLOC_TRACE=1     prints the call stack of the failed allocation
 *
 * Used by tests/robust/run_allocfail.sh (cmake/fuzz.cmake builds it).
 */
#include <errno.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t nmemb, size_t n);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t nmemb, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static unsigned long nr_calls, fail_at;
static int inited, trace;

static void report(void)
{
	fprintf(stderr, "rp-alloc: %lu allocations\n", nr_calls);
}

/* Whether this call is the one to fail. */
static int should_fail(void)
{
	if (!inited) {
		const char *e = getenv("RP_ALLOC_FAIL_AT");

		inited = 1;
		fail_at = e ? strtoul(e, NULL, 10) : 0;
		trace = getenv("RP_ALLOC_TRACE") != NULL;
		if (getenv("RP_ALLOC_COUNT"))
			atexit(report);
	}
	if (++nr_calls == fail_at) {
		if (trace) {
			void *frames[16];
			int n = backtrace(frames, 16);

			backtrace_symbols_fd(frames, n, 2);
		}
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *__wrap_malloc(size_t n)
{
	return should_fail() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t nmemb, size_t n)
{
	return should_fail() ? NULL : __real_calloc(nmemb, n);
}

void *__wrap_realloc(void *p, size_t n)
{
	return should_fail() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return should_fail() ? NULL : __real_strdup(s);
}
