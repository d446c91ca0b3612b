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

/* The in-order walk of t's nodes into out (indexes). */
static size_t rp_rb_walk(const struct rp_rbtree *t, size_t *out)
{
	size_t k = 0, cur = t->root;

	if (cur == RP_NIL)
		return 0;
	while (t->n[cur].left != RP_NIL)
		cur = t->n[cur].left;
	while (cur != RP_NIL) {
		out[k++] = cur;
		if (t->n[cur].right != RP_NIL) {
			cur = t->n[cur].right;
			while (t->n[cur].left != RP_NIL)
				cur = t->n[cur].left;
		} else {
			size_t p = t->n[cur].parent;

			while (p != RP_NIL && cur == t->n[p].right) {
				cur = p;
				p = t->n[p].parent;
			}
			cur = p;
		}
	}
	return k;
}

void rp_rbinc_init(struct rp_rbinc *t)
{
	t->n = NULL;
	t->nr = t->alloc = 0;
	t->root = RP_NIL;
}

void rp_rbinc_release(struct rp_rbinc *t)
{
	free(t->n);
	rp_rbinc_init(t);
}

size_t rp_rbinc_find(const struct rp_rbinc *t, void *const *items, const void *key,
		     int (*cmp)(void *ctx, const void *node, const void *key), void *ctx,
		     size_t where[2])
{
	size_t parent = RP_NIL, cur = t->root;
	int left = 0;

	while (cur != RP_NIL) {
		int c = cmp(ctx, items[cur], key);

		if (!c)
			return cur;
		parent = cur;
		left = c > 0;
		cur = left ? t->n[cur].left : t->n[cur].right;
	}
	where[0] = parent;
	where[1] = (size_t)left;
	return RP_NIL;
}

int rp_rbinc_add(struct rp_rbinc *t, const size_t where[2])
{
	size_t i = t->nr, parent = where[0];

	if (i == t->alloc) {
		size_t a = t->alloc ? t->alloc * 2 : 64;
		struct rp_rbnode *n = realloc(t->n, a * sizeof(*n));

		if (!n)
			return RP_ERR_NOMEM;
		t->n = n;
		t->alloc = a;
	}
	t->n[i].left = t->n[i].right = RP_NIL;
	t->n[i].parent = parent;
	t->n[i].red = 1;
	if (parent == RP_NIL)
		t->root = i;
	else if (where[1])
		t->n[parent].left = i;
	else
		t->n[parent].right = i;
	t->nr++;
	struct rp_rbtree tt = { t->n, t->root };

	rp_rb_fixup(&tt, i);
	t->root = tt.root;
	return 0;
}

int rp_rbinc_order(const struct rp_rbinc *t, void **items)
{
	struct rp_rbtree tt = { t->n, t->root };
	size_t *order = malloc((t->nr ? t->nr : 1) * sizeof(*order));
	void **copy = malloc((t->nr ? t->nr : 1) * sizeof(*copy));

	if (!order || !copy) {
		free(order);
		free(copy);
		return RP_ERR_NOMEM;
	}
	size_t k = rp_rb_walk(&tt, order);

	for (size_t i = 0; i < k; i++)
		copy[i] = items[order[i]];
	for (size_t i = 0; i < k; i++)
		items[i] = copy[i];
	free(order);
	free(copy);
	return 0;
}

int rp_rbmerge(void **items, size_t *n, int (*cmp)(void *ctx, const void *node, const void *key),
	       void (*merge)(void *ctx, void *kept, void *item), void *ctx)
{
	struct rp_rbinc t;
	void **kept = malloc((*n ? *n : 1) * sizeof(*kept));
	size_t *order = malloc((*n ? *n : 1) * sizeof(*order));
	int rc = 0;

	rp_rbinc_init(&t);
	if (!kept || !order) {
		free(kept);
		free(order);
		return RP_ERR_NOMEM;
	}
	for (size_t i = 0; i < *n && !rc; i++) {
		size_t where[2];
		size_t at = rp_rbinc_find(&t, kept, items[i], cmp, ctx, where);

		if (at != RP_NIL) {
			merge(ctx, kept[at], items[i]);
			continue;
		}
		kept[t.nr] = items[i];
		rc = rp_rbinc_add(&t, where);
	}
	if (!rc) {
		struct rp_rbtree tt = { t.n, t.root };
		size_t k = rp_rb_walk(&tt, order);

		for (size_t i = 0; i < k; i++)
			items[i] = kept[order[i]];
		*n = k;
	}
	rp_rbinc_release(&t);
	free(kept);
	free(order);
	return rc;
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
