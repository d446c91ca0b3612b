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
 * Usage: nocfi [-t MS]   (default 500 ms)
 * Build: cc -O2 -g -fomit-frame-pointer -o nocfi nocfi.c
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

__attribute__((noinline)) static void round_of_spins(void)
{
	spin_framed(2000000);
	spin_zero(2000000);
	spin_near(2000000);
	spin_far(2000000);
}

int main(int argc, char **argv)
{
	long ms = 500;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "-t"))
			ms = atol(argv[i + 1]);
	long end = now_ms() + ms;
	while (now_ms() < end)
		round_of_spins();
	return 0;
}
