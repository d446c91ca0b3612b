/* SPDX-License-Identifier: MIT */
/* Ordering by red-black tree insertion (see rbsort.h). */
#include "report/rbsort.h"

#include <stdlib.h>

#include <readperf/error.h>

#define RP_NIL ((size_t)-1)

struct rp_rbnode {
	size_t left, right, parent;
	int red;
};

struct rp_rbtree {
	struct rp_rbnode *n;
	size_t root;
};

/* Makes c's child of p point to `to` in place of `from`. */
static void rp_rb_replace(struct rp_rbtree *t, size_t p, size_t from, size_t to)
{
	if (p == RP_NIL)
		t->root = to;
	else if (t->n[p].left == from)
		t->n[p].left = to;
	else
		t->n[p].right = to;
}

static void rp_rb_rotate_left(struct rp_rbtree *t, size_t x)
{
	size_t y = t->n[x].right;

	t->n[x].right = t->n[y].left;
	if (t->n[y].left != RP_NIL)
		t->n[t->n[y].left].parent = x;
	t->n[y].parent = t->n[x].parent;
	rp_rb_replace(t, t->n[x].parent, x, y);
	t->n[y].left = x;
	t->n[x].parent = y;
}

static void rp_rb_rotate_right(struct rp_rbtree *t, size_t x)
{
	size_t y = t->n[x].left;

	t->n[x].left = t->n[y].right;
	if (t->n[y].right != RP_NIL)
		t->n[t->n[y].right].parent = x;
	t->n[y].parent = t->n[x].parent;
	rp_rb_replace(t, t->n[x].parent, x, y);
	t->n[y].right = x;
	t->n[x].parent = y;
}

/* Restores the red-black properties after linking the red node z. */
static void rp_rb_fixup(struct rp_rbtree *t, size_t z)
{
	struct rp_rbnode *n = t->n;

	while (n[z].parent != RP_NIL && n[n[z].parent].red) {
		size_t p = n[z].parent, g = n[p].parent;

		if (p == n[g].left) {
			size_t u = n[g].right;

			if (u != RP_NIL && n[u].red) {
				n[p].red = 0;
				n[u].red = 0;
				n[g].red = 1;
				z = g;
				continue;
			}
			if (z == n[p].right) {
				rp_rb_rotate_left(t, p);
				z = p;
				p = n[z].parent;
			}
			n[p].red = 0;
			n[g].red = 1;
			rp_rb_rotate_right(t, g);
		} else {
			size_t u = n[g].left;

			if (u != RP_NIL && n[u].red) {
				n[p].red = 0;
				n[u].red = 0;
				n[g].red = 1;
				z = g;
				continue;
			}
			if (z == n[p].left) {
				rp_rb_rotate_right(t, p);
				z = p;
				p = n[z].parent;
			}
			n[p].red = 0;
			n[g].red = 1;
			rp_rb_rotate_left(t, g);
		}
	}
	n[t->root].red = 0;
}

int rp_rbsort(void **items, size_t n, int (*cmp)(const void *, const void *, void *), void *ctx)
{
	struct rp_rbtree t;
	void **out;
	size_t i, k = 0, cur;

	if (n < 2)
		return 0;
	t.n = malloc(n * sizeof(*t.n));
	out = malloc(n * sizeof(*out));
	if (!t.n || !out) {
		free(t.n);
		free(out);
		return RP_ERR_NOMEM;
	}
	t.root = RP_NIL;
	for (i = 0; i < n; i++) {
		size_t parent = RP_NIL, *link = &t.root;

		while (*link != RP_NIL) {
			parent = *link;
			link = cmp(&items[i], &items[parent], ctx) < 0 ? &t.n[parent].left
								  : &t.n[parent].right;
		}
		t.n[i].left = t.n[i].right = RP_NIL;
		t.n[i].parent = parent;
		t.n[i].red = 1;
		*link = i;
		rp_rb_fixup(&t, i);
	}
	/* In-order walk without a stack: down left, then up via parents. */
	cur = t.root;
	while (t.n[cur].left != RP_NIL)
		cur = t.n[cur].left;
	while (cur != RP_NIL) {
		out[k++] = items[cur];
		if (t.n[cur].right != RP_NIL) {
			cur = t.n[cur].right;
			while (t.n[cur].left != RP_NIL)
				cur = t.n[cur].left;
		} else {
			size_t p = t.n[cur].parent;

			while (p != RP_NIL && cur == t.n[p].right) {
				cur = p;
				p = t.n[p].parent;
			}
			cur = p;
		}
	}
	for (i = 0; i < n; i++)
		items[i] = out[i];
	free(out);
	free(t.n);
	return 0;
}
