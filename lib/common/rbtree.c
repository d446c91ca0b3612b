/* SPDX-License-Identifier: MIT */
/* The red-black tree (rbtree.h). */
#include "common/rbtree.h"

#define NIL RP_RB_NIL

static void rb_set_child(struct rp_rbtree *t, uint32_t parent, uint32_t old, uint32_t new_)
{
	if (parent == NIL)
		t->root = new_;
	else
		t->n[parent].child[t->n[parent].child[0] != old] = new_;
}

/* Rotates x down to side d (0: left, as the kernel's rotate_left; 1:
 * right): its child on the other side takes its place. */
static void rb_rotate(struct rp_rbtree *t, uint32_t x, int d)
{
	struct rp_rbnode *n = t->n;
	uint32_t y = n[x].child[!d], p = n[x].parent;

	n[x].child[!d] = n[y].child[d];
	if (n[y].child[d] != NIL)
		n[n[y].child[d]].parent = x;
	n[y].child[d] = x;
	n[x].parent = y;
	n[y].parent = p;
	rb_set_child(t, p, x, y);
}

static int rb_red(const struct rp_rbtree *t, uint32_t x)
{
	return x != NIL && t->n[x].red;
}

void rp_rb_insert(struct rp_rbtree *t, uint32_t z, uint32_t parent, int left)
{
	struct rp_rbnode *n = t->n;

	n[z].child[0] = n[z].child[1] = NIL;
	n[z].parent = parent;
	n[z].red = 1;
	if (parent == NIL)
		t->root = z;
	else
		n[parent].child[!left] = z;
	for (;;) {
		uint32_t p = n[z].parent;

		if (p == NIL) {
			n[z].red = 0;
			return;
		}
		if (!n[p].red)
			return;
		uint32_t g = n[p].parent;
		int d = p != n[g].child[0]; /* p's side of g */
		uint32_t u = n[g].child[!d];

		if (rb_red(t, u)) {
			n[u].red = n[p].red = 0;
			n[g].red = 1;
			z = g;
			continue;
		}
		if (z == n[p].child[!d]) {
			rb_rotate(t, p, d);
			p = z;
		}
		rb_rotate(t, g, !d);
		n[p].red = 0;
		n[g].red = 1;
		return;
	}
}

/* Restores the colours after erasing a black leaf below parent. */
static void rb_erase_color(struct rp_rbtree *t, uint32_t parent)
{
	struct rp_rbnode *n = t->n;
	uint32_t node = NIL;

	for (;;) {
		/* node's side of parent (node NIL and no right child: right,
		 * as the kernel reads it) and its sibling */
		int d = node == n[parent].child[1];
		uint32_t sib = n[parent].child[!d];

		if (rb_red(t, sib)) {
			rb_rotate(t, parent, d);
			n[sib].red = 0;
			n[parent].red = 1;
			sib = n[parent].child[!d];
		}
		if (!rb_red(t, n[sib].child[!d]) && !rb_red(t, n[sib].child[d])) {
			n[sib].red = 1;
			if (n[parent].red) {
				n[parent].red = 0;
			} else {
				node = parent;
				parent = n[node].parent;
				if (parent != NIL)
					continue;
			}
			return;
		}
		if (!rb_red(t, n[sib].child[!d])) {
			uint32_t near = n[sib].child[d];

			rb_rotate(t, sib, !d);
			n[near].red = 0;
			n[sib].red = 1;
			sib = near;
		}
		rb_rotate(t, parent, d);
		n[sib].red = n[parent].red;
		n[parent].red = 0;
		n[n[sib].child[!d]].red = 0;
		return;
	}
}

void rp_rb_erase(struct rp_rbtree *t, uint32_t z)
{
	struct rp_rbnode *n = t->n;
	uint32_t child = n[z].child[1], l = n[z].child[0], p = n[z].parent, rebalance = NIL;

	if (l == NIL) {
		rb_set_child(t, p, z, child);
		if (child != NIL) {
			n[child].parent = p;
			n[child].red = n[z].red;
		} else if (!n[z].red) {
			rebalance = p;
		}
	} else if (child == NIL) {
		rb_set_child(t, p, z, l);
		n[l].parent = p;
		n[l].red = n[z].red;
	} else {
		uint32_t succ = child, parent, child2;

		if (n[succ].child[0] == NIL) {
			parent = succ;
			child2 = n[succ].child[1];
		} else {
			do {
				parent = succ;
				succ = n[succ].child[0];
			} while (n[succ].child[0] != NIL);
			child2 = n[succ].child[1];
			n[parent].child[0] = child2;
			n[succ].child[1] = child;
			n[child].parent = succ;
		}
		n[succ].child[0] = l;
		n[l].parent = succ;
		rb_set_child(t, p, z, succ);
		if (child2 != NIL) {
			n[child2].parent = parent;
			n[child2].red = 0;
		} else if (!n[succ].red) {
			rebalance = parent;
		}
		n[succ].parent = p;
		n[succ].red = n[z].red;
	}
	if (rebalance != NIL)
		rb_erase_color(t, rebalance);
}

uint32_t rp_rb_first(const struct rp_rbtree *t)
{
	uint32_t x = t->root;

	if (x == NIL)
		return NIL;
	while (t->n[x].child[0] != NIL)
		x = t->n[x].child[0];
	return x;
}

uint32_t rp_rb_next(const struct rp_rbtree *t, uint32_t x)
{
	const struct rp_rbnode *n = t->n;

	if (n[x].child[1] != NIL) {
		x = n[x].child[1];
		while (n[x].child[0] != NIL)
			x = n[x].child[0];
		return x;
	}
	uint32_t p = n[x].parent;

	while (p != NIL && x == n[p].child[1]) {
		x = p;
		p = n[p].parent;
	}
	return p;
}
