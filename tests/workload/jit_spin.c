/* SPDX-License-Identifier: MIT */
/*
 * A stand-in for a JIT (tests/diff/run_jitmap.sh): copies a small x86-64
 * loop twice into anonymous executable memory, names both copies in
 * /tmp/perf-PID.map (perf's convention for JIT code), then spins in them
 * for MS milliseconds and prints its pid.
 *
 *   jit_spin [0x|plain] [MS]
 *
 * "0x" writes the numbers with a 0x prefix, as the JVM does
 * (-XX:+DumpPerfMapAtExit, jcmd Compiler.perfmap); "plain" without.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* x86-64: mov rax, rdi; 1: sub rax, 1; jnz 1b; ret */
static const unsigned char spin[] = { 0x48, 0x89, 0xf8, 0x48, 0x83, 0xe8, 0x01, 0x75, 0xfa, 0xc3 };

int main(int argc, char **argv)
{
	const char *style = argc > 1 ? argv[1] : "0x";
	long ms = argc > 2 ? atol(argv[2]) : 300;
	unsigned char *mem = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *f;

	if (mem == MAP_FAILED)
		return 1;
	for (int i = 0; i < 2; i++)
		memcpy(mem + i * 4096, spin, sizeof(spin));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	if (!strcmp(style, "0x"))
		fprintf(f, "0x%lx 0x%zx jit_spin_one\n0x%lx 0x%zx jit_spin_two\n",
			(unsigned long)(uintptr_t)mem, sizeof(spin),
			(unsigned long)(uintptr_t)(mem + 4096), sizeof(spin));
	else
		fprintf(f, "%lx %zx jit_spin_one\n%lx %zx jit_spin_two\n",
			(unsigned long)(uintptr_t)mem, sizeof(spin),
			(unsigned long)(uintptr_t)(mem + 4096), sizeof(spin));
	fclose(f);
	void (*one)(uint64_t) = (void (*)(uint64_t))(uintptr_t)mem;
	void (*two)(uint64_t) = (void (*)(uint64_t))(uintptr_t)(mem + 4096);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		one(200000);
		two(100000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	printf("%d\n", (int)getpid());
	return 0;
}
