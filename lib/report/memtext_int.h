/* SPDX-License-Identifier: MIT */
/*
 * The texts of perf mem's data source (perf_event.h's union
 * perf_mem_data_src), as perf 6.1's util/mem-events.c prints them for
 * the mem, tlb, snoop, locked and blocked sort keys.
 */
#ifndef RP_REPORT_MEMTEXT_INT_H
#define RP_REPORT_MEMTEXT_INT_H

#include <stddef.h>
#include <stdint.h>

/* The fields of a data_src word (perf_event.h, PERF_MEM_*_SHIFT). */
#define RP_MEM_LVL(ds) (((ds) >> 5) & 0x3fffu)
#define RP_MEM_SNOOP(ds) (((ds) >> 19) & 0x1fu)
#define RP_MEM_LOCK(ds) (((ds) >> 24) & 0x3u)
#define RP_MEM_DTLB(ds) (((ds) >> 26) & 0x7fu)
#define RP_MEM_LVL_NUM(ds) (((ds) >> 33) & 0xfu)
#define RP_MEM_REMOTE(ds) (((ds) >> 37) & 0x1u)
#define RP_MEM_SNOOPX(ds) (((ds) >> 38) & 0x3u)
#define RP_MEM_BLK(ds) (((ds) >> 40) & 0x7u)
#define RP_MEM_HOPS(ds) (((ds) >> 43) & 0x7u)

/* Each writes the text into out (size bytes, NUL-terminated, cut to
 * fit) and returns its length. */
size_t rp_mem_lvl_text(uint64_t data_src, char *out, size_t size);
size_t rp_mem_tlb_text(uint64_t data_src, char *out, size_t size);
size_t rp_mem_snoop_text(uint64_t data_src, char *out, size_t size);
size_t rp_mem_lock_text(uint64_t data_src, char *out, size_t size);
size_t rp_mem_blk_text(uint64_t data_src, char *out, size_t size);

#endif
