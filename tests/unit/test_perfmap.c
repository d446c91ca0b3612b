/* SPDX-License-Identifier: MIT */
/*
 * perf-<pid>.map files (JIT symbols): "START SIZE name" per line, both
 * numbers in hex, read as perf 6.1 reads them (strtoull base 16: leading
 * blanks and an optional 0x prefix, which the JVM writes with
 * -XX:+DumpPerfMapAtExit and jcmd Compiler.perfmap; the last byte of
 * each line dropped, the newline or, on a last line without one, its last
 * character).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "symbols/symbols_int.h"

struct loaded {
	struct rp_arena names;
	struct rp_dso_symtab t;
	int nr;
};

static void load(struct loaded *l, const char *text)
{
	char path[] = "/tmp/rp-perfmap.XXXXXX";
	int fd = mkstemp(path);
	struct rp_symtab_builder b;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(l, 0, sizeof(*l));
	l->names = (struct rp_arena)RP_ARENA_INIT;
	rp_symb_init(&b, &l->names);
	l->nr = rp_load_perf_map(path, &b);
	assert_int_equal(rp_symb_finish(&b, &l->t), 0);
	rp_symb_release(&b);
	unlink(path);
}

static void unload(struct loaded *l)
{
	free(l->t.syms);
	free(l->t.max_end);
	rp_arena_release(&l->names);
}

static void expect(const struct loaded *l, uint64_t addr, const char *name, uint64_t start,
		   uint64_t end)
{
	const struct rp_symbol *sym = rp_symtab_find(&l->t, addr);

	if (!name) {
		if (sym)
			fail_msg("%#llx: found %s, expected nothing", (unsigned long long)addr,
				 sym->name);
		return;
	}
	if (!sym)
		fail_msg("%#llx: nothing found, expected %s", (unsigned long long)addr, name);
	assert_string_equal(sym->name, name);
	assert_int_equal(sym->start, start);
	assert_int_equal(sym->end, end);
}

/* The JVM's form: both numbers with 0x. */
static void test_hex_prefix(void **state)
{
	(void)state;
	struct loaded l;

	load(&l, "0x7f0000001000 0x40 Interpreter\n"
		 "0x7f0000002000 0x1a0 int java.lang.String.hashCode()\n"
		 "0X7f0000003000 0X20 upper_case_prefix\n");
	assert_int_equal(l.nr, 3);
	expect(&l, 0x7f0000001000, "Interpreter", 0x7f0000001000, 0x7f0000001040);
	expect(&l, 0x7f000000103f, "Interpreter", 0x7f0000001000, 0x7f0000001040);
	expect(&l, 0x7f0000001040, NULL, 0, 0);
	expect(&l, 0x7f000000219f, "int java.lang.String.hashCode()", 0x7f0000002000,
	       0x7f00000021a0);
	expect(&l, 0x7f0000003010, "upper_case_prefix", 0x7f0000003000, 0x7f0000003020);
	unload(&l);
}

/* The plain form, mixed with the prefixed one in one file. */
static void test_mixed(void **state)
{
	(void)state;
	struct loaded l;

	load(&l, "7f0000001000 40 plain\n"
		 "0x7f0000002000 10 prefixed_start\n"
		 "7f0000003000 0x10 prefixed_size\n"
		 "  7f0000004000 8 leading_blanks\n");
	assert_int_equal(l.nr, 4);
	expect(&l, 0x7f0000001001, "plain", 0x7f0000001000, 0x7f0000001040);
	expect(&l, 0x7f0000002001, "prefixed_start", 0x7f0000002000, 0x7f0000002010);
	expect(&l, 0x7f000000300f, "prefixed_size", 0x7f0000003000, 0x7f0000003010);
	expect(&l, 0x7f0000004000, "leading_blanks", 0x7f0000004000, 0x7f0000004008);
	unload(&l);
}

/* Lines with a name of fewer than 3 bytes are skipped; a last line without a newline
 * loses its last character, as in perf. */
static void test_edges(void **state)
{
	(void)state;
	struct loaded l;

	/* perf skips a line whose name is shorter than 3 bytes. */
	load(&l, "0x7f0000001000 0x10 ab\n"
		 "0x7f0000002000 0x10 abc\n"
		 "nothex\n" /* as perf: start 0, size 0, name "thex" */
		 "0x7f0000003000 0x10 lastx");
	assert_int_equal(l.nr, 3);
	expect(&l, 0x7f0000001000, NULL, 0, 0);
	expect(&l, 0x7f0000002000, "abc", 0x7f0000002000, 0x7f0000002010);
	expect(&l, 0x7f0000003000, "last", 0x7f0000003000, 0x7f0000003010);
	unload(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex_prefix),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
