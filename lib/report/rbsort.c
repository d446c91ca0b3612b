/* SPDX-License-Identifier: MIT */
/* Ordering by red-black tree insertion (see rbsort.h), on the one tree
 * of common/rbtree.h. */
#include "report/rbsort.h"

#include <stdlib.h>

#include <readperf/error.h>

#define RP_NIL ((size_t)-1)

/* rbtree.h's index of node i, or RP_RB_NIL for RP_NIL. */
static uint32_t rp_rb_idx(size_t i)
{
	return i == RP_NIL ? RP_RB_NIL : (uint32_t)i;
}

static size_t rp_rb_size(uint32_t i)
{
	return i == RP_RB_NIL ? RP_NIL : i;
}

/* items[] written back in the tree's order (the walk of its nr nodes);
 * 0 or RP_ERR_NOMEM (items unchanged then). */
static int rp_rb_order(const struct rp_rbtree *t, size_t nr, void *const *from, void **items)
{
	void **copy = malloc((nr ? nr : 1) * sizeof(*copy));
	size_t k = 0;

	if (!copy)
		return RP_ERR_NOMEM;
	for (uint32_t x = rp_rb_first(t); x != RP_RB_NIL; x = rp_rb_next(t, x))
		copy[k++] = from[x];
	for (size_t i = 0; i < k; i++)
		items[i] = copy[i];
	free(copy);
	return 0;
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
		cur = rp_rb_size(left ? t->n[cur].child[0] : t->n[cur].child[1]);
	}
	where[0] = parent;
	where[1] = (size_t)left;
	return RP_NIL;
}

int rp_rbinc_add(struct rp_rbinc *t, const size_t where[2])
{
	if (t->nr >= RP_RB_NIL)
		return RP_ERR_LIMIT;
	if (t->nr == t->alloc) {
		size_t a = t->alloc ? t->alloc * 2 : 64;
		struct rp_rbnode *n = realloc(t->n, a * sizeof(*n));

		if (!n)
			return RP_ERR_NOMEM;
		t->n = n;
		t->alloc = a;
	}
	struct rp_rbtree tt = { t->n, rp_rb_idx(t->root) };

	rp_rb_insert(&tt, (uint32_t)t->nr, rp_rb_idx(where[0]), (int)where[1]);
	t->root = rp_rb_size(tt.root);
	t->nr++;
	return 0;
}

int rp_rbinc_order(const struct rp_rbinc *t, void **items)
{
	struct rp_rbtree tt = { t->n, rp_rb_idx(t->root) };

	return rp_rb_order(&tt, t->nr, items, items);
}

int rp_rbmerge(void **items, size_t *n, int (*cmp)(void *ctx, const void *node, const void *key),
	       int (*merge)(void *ctx, void *kept, void *item), void *ctx)
{
	struct rp_rbinc t;
	void **kept = malloc((*n ? *n : 1) * sizeof(*kept));
	int rc = 0;

	rp_rbinc_init(&t);
	if (!kept)
		return RP_ERR_NOMEM;
	for (size_t i = 0; i < *n && !rc; i++) {
		size_t where[2];
		size_t at = rp_rbinc_find(&t, kept, items[i], cmp, ctx, where);

		if (at != RP_NIL) {
			rc = merge(ctx, kept[at], items[i]);
			continue;
		}
		kept[t.nr] = items[i];
		rc = rp_rbinc_add(&t, where);
	}
	if (!rc) {
		struct rp_rbtree tt = { t.n, rp_rb_idx(t.root) };

		if (!(rc = rp_rb_order(&tt, t.nr, kept, items)))
			*n = t.nr;
	}
	rp_rbinc_release(&t);
	free(kept);
	return rc;
}

int rp_rbsort(void **items, size_t n, int (*cmp)(const void *, const void *, void *), void *ctx)
{
	struct rp_rbtree t = { NULL, RP_RB_NIL };
	int rc;

	if (n < 2)
		return 0;
	if (n >= RP_RB_NIL)
		return RP_ERR_LIMIT;
	if (!(t.n = malloc(n * sizeof(*t.n))))
		return RP_ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t parent = RP_RB_NIL, cur = t.root;
		int left = 0;

		while (cur != RP_RB_NIL) {
			parent = cur;
			left = cmp(&items[i], &items[cur], ctx) < 0;
			cur = left ? t.n[cur].child[0] : t.n[cur].child[1];
		}
		rp_rb_insert(&t, i, parent, left);
	}
	rc = rp_rb_order(&t, n, items, items);
	free(t.n);
	return rc;
}
