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

#include "common/rbtree.h"

/*
 * Inserts items[0..n) in that order into a red-black tree (rbtree.h) ordered by cmp
 * (called as qsort_r's, with pointers to two elements, the new one first, and ctx;
 * a negative value puts the new one to the left, anything else to the
 * right) and writes them back in the tree's order.  Returns 0,
 * RP_ERR_NOMEM or RP_ERR_LIMIT (4 Gi items; items unchanged then).
 */
int rp_rbsort(void **items, size_t n, int (*cmp)(const void *, const void *, void *), void *ctx);

/*
 * A red-black tree grown one item at a time, as perf's input tree of a
 * histogram (hists__findnew_entry): an item equal to one on the search
 * path is merged into it, anything else becomes a node.  When the
 * comparison is not a total order (perf's mispredict, in_tx and abort
 * keys only tell "equal" from "different"), the search may miss an equal
 * item elsewhere in the tree, and perf then keeps two entries for one
 * key: replaying the tree keeps them too.  Node i is items[i] of the
 * caller's array.
 */
struct rp_rbinc {
	struct rp_rbnode *n;
	size_t nr, alloc, root;
};

void rp_rbinc_init(struct rp_rbinc *t);
void rp_rbinc_release(struct rp_rbinc *t);
/*
 * Searches the tree for key: cmp(ctx, items[node], key) == 0 is a match,
 * a positive value goes left, anything else right.  Returns the matching
 * node's index, or (size_t)-1 (then *where tells rp_rbinc_add() where the
 * new node goes).
 */
size_t rp_rbinc_find(const struct rp_rbinc *t, void *const *items, const void *key,
		     int (*cmp)(void *ctx, const void *node, const void *key), void *ctx,
		     size_t where[2]);
/* Links node t->nr (the caller's next item) where rp_rbinc_find() said.
 * Returns 0, RP_ERR_NOMEM or RP_ERR_LIMIT (4 Gi nodes). */
int rp_rbinc_add(struct rp_rbinc *t, const size_t where[2]);

/* Writes items[0..t->nr) back in the tree's order.  Returns 0 or
 * RP_ERR_NOMEM (items unchanged then). */
int rp_rbinc_order(const struct rp_rbinc *t, void **items);

/*
 * perf's hists__collapse_resort(): inserts items[0..*n) in that order
 * into a new tree searched as rp_rbinc_find() does; an item that meets
 * an equal one is handed to merge(ctx, kept, item) and dropped.  Leaves
 * the kept items in the tree's order in items[0..*n).  Returns 0,
 * RP_ERR_NOMEM, or the first negative value merge returns (which stops it).
 */
int rp_rbmerge(void **items, size_t *n, int (*cmp)(void *ctx, const void *node, const void *key),
	       int (*merge)(void *ctx, void *kept, void *item), void *ctx);

#endif
