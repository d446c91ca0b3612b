/* SPDX-License-Identifier: MIT */
/*
 * Ordering by red-black tree insertion, as perf orders its output.
 *
 * perf sorts a histogram by inserting its entries one by one into a
 * red-black tree (lib/rbtree.c, the textbook algorithm) and walking it in
 * order.  When its comparison is not a total order (perf report
 * --children compares graph depths only between entries of one thread),
 * the result depends on the tree's shape; rebuilding the same tree from
 * the same insertion order gives the same result.
 */
#ifndef RP_REPORT_RBSORT_H
#define RP_REPORT_RBSORT_H

#include <stddef.h>

/*
 * Inserts items[0..n) in that order into a red-black tree ordered by cmp
 * (called as qsort_r's, with pointers to two elements, the new one first, and ctx;
 * a negative value puts the new one to the left, anything else to the
 * right) and writes them back in the tree's order.  Returns 0 or
 * RP_ERR_NOMEM (items unchanged then).
 */
int rp_rbsort(void **items, size_t n, int (*cmp)(const void *, const void *, void *), void *ctx);

#endif
