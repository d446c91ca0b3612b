/* SPDX-License-Identifier: MIT */
/* perf report -D's formatting pieces, inside the library. */
#ifndef RP_OUTPUTS_DUMP_INT_H
#define RP_OUTPUTS_DUMP_INT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Formatting helpers of the dump (tests/unit/test_dump_format.c checks them).
 *
 * rp_dump_hex(): perf's raw-event block for len bytes at p ("." line,
 * ". ... raw event: size N bytes", 16 bytes a line with offsets, hex and
 * printable characters, then an empty line).  Writes at most
 * rp_dump_hex_size(len) bytes into buf and returns the count written.
 */
size_t rp_dump_hex_size(size_t len);
size_t rp_dump_hex(char *buf, const void *p, size_t len);
/*
 * perf's cpu list (cpu_map__snprint): ascending runs as "a-b", others as
 * "a", comma separated; -1 prints as "-1".  Writes at most size bytes
 * including the NUL; returns the length it needed (as snprintf).
 */
size_t rp_dump_cpu_list(char *buf, size_t size, const int *cpus, size_t nr);
/* perf's unit_number__scnprintf(): "4K", "2M"; 0 gives "N/A". */
size_t rp_dump_page_size(char *buf, size_t size, uint64_t bytes);
/* perf's x86 register names (perf_reg_name() on x86: AX ... R15, XMM0
 * ... XMM15 at the even ids 32..62), NULL for other ids. */
const char *rp_reg_name_x86(unsigned id);

#endif
