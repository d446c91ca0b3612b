/* SPDX-License-Identifier: MIT */
/*
 * The one red-black tree: the kernel's lib/rbtree.c algorithm (insert as
 * a leaf, then the classic recolouring and rotations; erase replacing a
 * node with two children by its successor), which perf keeps its
 * histograms and symbols in.  Where perf's comparison is not a total
 * order, the tree's shape decides what it prints, so readperf builds the
 * same shapes with the same algorithm.
 *
 * Nodes are indexes into an array the caller owns and grows (node i is
 * the caller's item i); the tree only links them.  Depends on nothing.
 */
#ifndef RP_COMMON_RBTREE_H
#define RP_COMMON_RBTREE_H

#include <stdint.h>

#define RP_RB_NIL UINT32_MAX

struct rp_rbnode {
	uint32_t child[2]; /* left, right */
	uint32_t parent;
	uint8_t red;
};

struct rp_rbtree {
	struct rp_rbnode *n; /* the caller's array */
	uint32_t root;       /* RP_RB_NIL: empty */
};

/* Links node z (not in the tree) as the left (left != 0) or right child
 * of parent (RP_RB_NIL: the root of an empty tree), then rebalances. */
void rp_rb_insert(struct rp_rbtree *t, uint32_t z, uint32_t parent, int left);

/* Unlinks node z and rebalances. */
void rp_rb_erase(struct rp_rbtree *t, uint32_t z);

/* The in-order walk: the first node (RP_RB_NIL: empty), and the one after
 * x (RP_RB_NIL: x was the last). */
uint32_t rp_rb_first(const struct rp_rbtree *t);
uint32_t rp_rb_next(const struct rp_rbtree *t, uint32_t x);

#endif
