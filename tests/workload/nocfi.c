/*
 * nocfi: code without CFI (no FDE in .eh_frame), where an unwinder can
 * only guess the caller from rbp (`perf record --call-graph dwarf,65528`).
 * Functions of hand-written assembly spin with rbp set these ways:
 *
 *   spin_framed: a frame record as frame pointers make it (push rbp; mov
 *                rsp, rbp): the guess finds the caller;
 *   spin_zero:   rbp = 0, the outermost frame's mark;
 *   spin_near:   rbp 12 KiB above rsp, at a frame record of its own
 *                making (saved rbp 0, return address inside spin_near);
 *   spin_far:    the same 20 KiB above rsp: libunwind (perf 6.1) does not
 *                take rbp that far above the frame's CFA.
 *
 * and two cases where the code's map is not the program's own:
 *
 *   jit_callee:  a C function (with CFI) called from code copied into
 *                anonymous executable memory (a JIT's, without a file):
 *                perf 6.1's walk ends at that caller;
 *   spin_framed, called from round_of_remaps: the program's file mapped
 *                a second time (mmap of /proc/self/exe at the page of
 *                spin_framed, as node maps its builtins again), the copy
 *                called: a frame in a map of the program at another
 *                address (built -no-pie: an ET_EXEC file away from its
 *                own addresses).
 *
 * Usage: nocfi [-t MS]   (default 500 ms)
 * Build: cc -O2 -g -fomit-frame-pointer -no-pie -o nocfi nocfi.c
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

void spin_framed(unsigned long n);
void spin_zero(unsigned long n);
void spin_near(unsigned long n);
void spin_far(unsigned long n);

/* No .cfi_* directives: the assembler writes no FDE for these. */
#define SPIN_AT(name, off)                                                                  \
	".globl " #name "\n"                                                                \
	".type " #name ", @function\n" #name ":\n"                                          \
	"	push %rbp\n"                                                                 \
	"	sub $" #off "+16, %rsp\n"                                                    \
	"	xor %eax, %eax\n" /* the pages below touched: a sample's copy   */          \
	"3:	movq $0, (%rsp,%rax)\n" /* of the stack cannot fault them in */            \
	"	add $4096, %rax\n"                                                          \
	"	cmp $" #off ", %rax\n"                                                      \
	"	jb 3b\n"                                                                     \
	"	movq $0, " #off "(%rsp)\n"                                                   \
	"	lea 2f(%rip), %rax\n"                                                        \
	"	mov %rax, " #off "+8(%rsp)\n"                                                \
	"	lea " #off "(%rsp), %rbp\n"                                                  \
	"1:	dec %rdi\n"                                                                  \
	"	jnz 1b\n"                                                                    \
	"2:	add $" #off "+16, %rsp\n"                                                    \
	"	pop %rbp\n"                                                                  \
	"	ret\n"                                                                       \
	".size " #name ", .-" #name "\n"

__asm__(".text\n"
	".globl spin_framed\n"
	".type spin_framed, @function\n"
	"spin_framed:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	pop %rbp\n"
	"	ret\n"
	".size spin_framed, .-spin_framed\n"
	".globl spin_zero\n"
	".type spin_zero, @function\n"
	"spin_zero:\n"
	"	push %rbp\n"
	"	xor %ebp, %ebp\n"
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	pop %rbp\n"
	"	ret\n"
	".size spin_zero, .-spin_zero\n"
	SPIN_AT(spin_near, 0x3000)
	SPIN_AT(spin_far, 0x5000));

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* x86-64: push rbp; mov rsp, rbp; call *rsi; pop rbp; ret */
static const unsigned char jit_code[] = { 0x55, 0x48, 0x89, 0xe5, 0xff, 0xd6, 0x5d, 0xc3 };
static void (*jit_call)(unsigned long n, void (*fn)(unsigned long));
static void (*remapped_framed)(unsigned long n);

__attribute__((noinline)) void jit_callee(unsigned long n)
{
	while (n--)
		__asm__ volatile("");
}

/* The JIT copy and the second map of this program's file; exits on
 * failure. */
static void setup(void)
{
	uintptr_t fn = (uintptr_t)spin_framed, start, end, pgoff;
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "r");
	int fd = open("/proc/self/exe", O_RDONLY), found = 0;
	unsigned char *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!maps || fd < 0 || mem == MAP_FAILED)
		exit(2);
	memcpy(mem, jit_code, sizeof(jit_code));
	jit_call = (void (*)(unsigned long, void (*)(unsigned long)))(uintptr_t)mem;
	while (!found && fgets(line, sizeof(line), maps))
		found = sscanf(line, "%lx-%lx %*s %lx", &start, &end, &pgoff) == 3 &&
			fn >= start && fn < end;
	fclose(maps);
	if (!found)
		exit(2);
	uintptr_t off = fn - start + pgoff, page = off & ~(uintptr_t)4095;
	unsigned char *copy = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, (off_t)page);

	if (copy == MAP_FAILED)
		exit(2);
	close(fd);
	remapped_framed = (void (*)(unsigned long))(uintptr_t)(copy + (off - page));
}

__attribute__((noinline)) static void round_of_spins(void)
{
	spin_framed(2000000);
	spin_zero(2000000);
	spin_near(2000000);
	spin_far(2000000);
	jit_call(2000000, jit_callee);
}

static volatile unsigned long rounds;

__attribute__((noinline)) static void round_of_remaps(void)
{
	remapped_framed(2000000);
	rounds++; /* no tail call: this frame stays */
}

int main(int argc, char **argv)
{
	long ms = 500;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "-t"))
			ms = atol(argv[i + 1]);
	setup();
	long end = now_ms() + ms;
	while (now_ms() < end) {
		round_of_spins();
		round_of_remaps();
	}
	return 0;
}
