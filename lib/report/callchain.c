/* SPDX-License-Identifier: MIT */
/*
 * Call-path trees of the function overview and their drawing as perf 6.1
 * draws them (`perf report --stdio -g graph` and `-g fractal`).  See
 * callchain_int.h for how the trie maps to perf's compressed tree, and
 * docs/report.md ("Call graphs") for every rule.
 */
#include "report/callchain_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>
#include <readperf/report.h>

#include "common/array.h"
#include "machine/dso.h"

void rp_ctree_init(struct rp_ctree *t, struct rp_arena *arena, struct rp_strpool *pool,
		   uint64_t *nr_nodes)
{
	memset(t, 0, sizeof(*t));
	t->arena = arena;
	t->pool = pool;
	t->nr_nodes = nr_nodes;
}

struct rp_inl_key {
	const struct rp_symbol *sym; /* NULL: empty */
	const char *name;            /* sym's, when the key was made */
	uint64_t key;
};

void rp_ctree_release(struct rp_ctree *t)
{
	rp_hashmap_release(&t->index);
	rp_hashmap_release(&t->name_index);
	free(t->inl_keys);
	t->inl_keys = NULL;
	free(t->rbn);
	free(t->rb_node);
	t->rbn = NULL;
	t->rb_node = NULL;
	t->nr_rb = 0;
	t->alloc_rbn = t->alloc_rb_node = 0;
}

struct rp_cnode *rp_ctree_root(struct rp_ctree *t)
{
	struct rp_cnode *n = rp_arena_alloc(t->arena, sizeof(*n));

	if (n) {
		memset(n, 0, sizeof(*n));
		n->rb_id = n->rb_root = RP_RB_NIL;
	}
	return n;
}

/* What makes two frames one node: perf's match_chain() with the
 * function key (the symbol's start in its DSO, or the ip without one;
 * an inlined function's frame, which shares its start with the function
 * it was inlined into, by its name). */
static void rp_frame_key(struct rp_ctree *t, const struct rp_cframe *f, const char **name,
			 uint64_t *key)
{
	*name = f->sym ? (f->sym->name ? f->sym->name : "") : NULL;
	int by_address = t->key == RP_CALL_KEY_ADDRESS;

	*key = f->sym && !by_address ? f->sym->start : f->ip;
	if (!f->sym || !f->sym->inlined || by_address)
		return;
	/* C++ names are long: hash each once (the symbols live as long as
	 * the tree is built; the name is checked in case one was not). */
	if (!t->inl_keys)
		t->inl_keys = calloc(RP_CTREE_INL_KEYS, sizeof(*t->inl_keys));
	struct rp_inl_key *c =
		t->inl_keys ? &t->inl_keys[rp_hash64((uint64_t)(uintptr_t)f->sym) &
					   (RP_CTREE_INL_KEYS - 1)]
			    : NULL;

	if (c && c->sym == f->sym && c->name == *name) {
		*key = c->key;
		return;
	}
	*key = rp_hash_bytes(*name, strlen(*name)) | (1ull << 63);
	if (c)
		*c = (struct rp_inl_key){ f->sym, *name, *key };
}

static uint64_t rp_cnode_hash(const struct rp_cnode *parent, const struct rp_dso *dso,
			      int has_sym, uint64_t key)
{
	uint64_t h = rp_hash64((uint64_t)(uintptr_t)parent);

	h = rp_hash64(h ^ (uint64_t)(uintptr_t)dso);
	return rp_hash64(h ^ key) + (uint64_t)has_sym;
}

static struct rp_cnode *rp_ctree_new_child(struct rp_ctree *t, struct rp_cnode *parent,
					   struct rp_dso *dso, const char *name, uint64_t key,
					   int inlined, uint64_t ip, const char *srcline, int indexed,
					   struct rp_cnode *first, uint64_t h, uint64_t hn, int *err);

/*
 * The child of parent for a frame of (dso, name, key), made when missing.
 * name NULL: unresolved; inlined: the frame is an inlined function's.
 */
static struct rp_cnode *rp_ctree_child_of(struct rp_ctree *t, struct rp_cnode *parent,
					  struct rp_dso *dso, const char *name, uint64_t key,
					  int inlined, uint64_t ip, const char *srcline, int *err)
{
	struct rp_cnode *n = parent->child;

	if (t->key == RP_CALL_KEY_SRCLINE) {
		/* perf's match_chain() with the srcline key: the texts
		 * (interned) when either has one, else the function key.
		 * A scan, not the index (the default key's path stays as
		 * it was): a node with many children costs that many
		 * comparisons per frame. */
		for (; n; n = n->sibling)
			if (n->by_line || srcline ? n->by_line && n->srcline == srcline
			    : name && n->name && (n->by_name || inlined)
				? !strcmp(n->name, name)
				: n->dso == dso && !n->name == !name && n->key == key)
				return n;
		return rp_ctree_new_child(t, parent, dso, name, key, inlined, ip, srcline, 0,
					  NULL, 0, 0, err);
	}
	/* Most nodes have one child or a few: look at them before the
	 * index (whose table is too large to stay in the caches). */
	for (int i = 0; n && i < RP_CTREE_SCAN_CHILDREN; n = n->sibling, i++)
		if (n->dso == dso && !n->name == !name && n->key == key)
			return n;
	uint64_t h = rp_cnode_hash(parent, dso, name != NULL, key);
	struct rp_cnode *first = rp_hashmap_get(&t->index, h);

	for (n = first; n; n = n->hnext)
		if (n->parent == parent && n->dso == dso && !n->name == !name && n->key == key)
			return n;
	/* perf's match_chain(): when either frame is an inlined function's,
	 * the two are one if their names are. */
	uint64_t hn = 0;
	/* The address key compares addresses alone. */
	int by_address = t->key == RP_CALL_KEY_ADDRESS;

	if (name && !by_address) {
		hn = rp_hash64((uint64_t)(uintptr_t)parent ^ rp_hash_bytes(name, strlen(name)));
		for (n = rp_hashmap_get(&t->name_index, hn); n; n = n->hnext_name)
			if (n->parent == parent && (n->inlined || inlined) && !strcmp(n->name, name))
				return n;
	}
	return rp_ctree_new_child(t, parent, dso, name, key, inlined, ip, srcline, 1, first, h,
				  hn, err);
}

/* A new child of parent (rp_ctree_child_of()); indexed: put in the index
 * (h, before first) and, named but for the address key, the name index
 * (hn); the srcline key's nodes are in neither. */
static struct rp_cnode *rp_ctree_new_child(struct rp_ctree *t, struct rp_cnode *parent,
					   struct rp_dso *dso, const char *name, uint64_t key,
					   int inlined, uint64_t ip, const char *srcline, int indexed,
					   struct rp_cnode *first, uint64_t h, uint64_t hn, int *err)
{
	struct rp_cnode *n;
	int by_name = inlined && t->key != RP_CALL_KEY_ADDRESS;

	if (__atomic_fetch_add(t->nr_nodes, 1, __ATOMIC_RELAXED) >= RP_CTREE_MAX_NODES) {
		*err = RP_ERR_LIMIT;
		return NULL;
	}
	n = rp_arena_alloc(t->arena, sizeof(*n));
	if (!n) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	memset(n, 0, sizeof(*n));
	n->inlined = inlined != 0;
	n->by_name = by_name != 0;
	n->by_line = t->key == RP_CALL_KEY_SRCLINE && srcline;
	n->srcline = srcline;
	if (name) {
		n->name = rp_strpool_intern_str(t->pool, name);
		if (!n->name) {
			*err = RP_ERR_NOMEM;
			return NULL;
		}
	}
	n->parent = parent;
	n->dso = dso;
	n->key = key;
	n->ip = ip;
	n->rb_id = n->rb_root = RP_RB_NIL;
	if (!indexed) {
		n->sibling = parent->child;
		parent->child = n;
		parent->nr_children++;
		return n;
	}
	n->hnext = first;
	if (name && t->key != RP_CALL_KEY_ADDRESS) {
		n->hnext_name = rp_hashmap_get(&t->name_index, hn);
		if (rp_hashmap_put(&t->name_index, hn, n) < 0) {
			*err = RP_ERR_NOMEM;
			return NULL;
		}
	}
	if (rp_hashmap_put(&t->index, h, n) < 0) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	n->sibling = parent->child;
	parent->child = n;
	parent->nr_children++;
	return n;
}

static int32_t rp_dso_order(const struct rp_dso *dso);

/* perf's match_chain_dso_addresses(): DSOs (perf compares the pointers,
 * which follow creation order: rp_dso_order()), then addresses. */
static int rp_match_dso_addr(const struct rp_dso *l, uint64_t l_addr, const struct rp_dso *r,
			     uint64_t r_addr)
{
	if (l != r) {
		int32_t lo = rp_dso_order(l), ro = rp_dso_order(r);

		return lo != ro ? (lo < ro ? -1 : 1) : (l < r ? -1 : 1);
	}
	return l_addr < r_addr ? -1 : l_addr > r_addr;
}

/*
 * perf's match_chain(node, cnode) with the function key: c, a node (the
 * first frame of perf's node), against the frame (dso, name, key,
 * inlined, ip) of the path being added; -1 for MATCH_LT (c lower: the
 * descent goes left), 1 for MATCH_GT, 0 when they are one node.
 */
static int rp_match_chain(const struct rp_cnode *c, const struct rp_dso *dso, const char *name,
			  uint64_t key, int inlined, uint64_t ip)
{
	if (c->name && name) {
		if (c->inlined || inlined) {
			int x = strcmp(c->name, name);

			return x < 0 ? -1 : x > 0;
		}
		return rp_match_dso_addr(c->dso, c->key, dso, key);
	}
	return rp_match_dso_addr(c->dso, c->ip, dso, ip);
}

/*
 * The child of parent a path's next frame goes to, in a replayed ctree:
 * perf's append_chain_children() descends the children's tree, comparing
 * the frame with each child's, and adds a child where the descent ends
 * (split_add_child() adds it beside the only child of a node inside a
 * run the same way).  A child it missed stays missed.
 */
static struct rp_cnode *rp_ctree_replay_child(struct rp_ctree *t, struct rp_cnode *parent,
					      struct rp_dso *dso, const char *name, uint64_t key,
					      int inlined, uint64_t ip, int *err)
{
	uint32_t at = parent->rb_root, up = RP_RB_NIL;
	int left = 0;

	while (at != RP_RB_NIL) {
		struct rp_cnode *c = t->rb_node[at];
		int m = rp_match_chain(c, dso, name, key, inlined, ip);

		if (!m)
			return c;
		up = at;
		left = m < 0;
		at = t->rbn[at].child[left ? 0 : 1];
	}
	if (t->nr_rb == UINT32_MAX - 1) {
		*err = RP_ERR_LIMIT;
		return NULL;
	}
	if (RP_ARRAY_RESERVE(t->rbn, t->alloc_rbn, (size_t)t->nr_rb + 1) < 0 ||
	    RP_ARRAY_RESERVE(t->rb_node, t->alloc_rb_node, (size_t)t->nr_rb + 1) < 0) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	struct rp_cnode *n = rp_ctree_new_child(t, parent, dso, name, key, inlined, ip, NULL, 0,
						NULL, 0, 0, err);

	if (!n)
		return NULL;
	n->rb_id = t->nr_rb++;
	t->rb_node[n->rb_id] = n;

	struct rp_rbtree tree = { t->rbn, parent->rb_root };

	rp_rb_insert(&tree, n->rb_id, up, left);
	parent->rb_root = tree.root;
	/* The children list in the tree's order: a leaf's place is next to
	 * the node it hangs from (rotations keep the order).  n was put
	 * first; hnext_name links back. */
	if (up != RP_RB_NIL) {
		struct rp_cnode *u = t->rb_node[up];
		struct rp_cnode *prev = left ? u->hnext_name : u, *next = left ? u : u->sibling;

		parent->child = n->sibling;
		n->hnext_name = prev;
		n->sibling = next;
		if (prev)
			prev->sibling = n;
		else
			parent->child = n;
		if (next)
			next->hnext_name = n;
	}
	return n;
}

static struct rp_cnode *rp_ctree_child(struct rp_ctree *t, struct rp_cnode *parent,
				       const struct rp_cframe *f, int *err)
{
	const char *name;
	uint64_t key;

	rp_frame_key(t, f, &name, &key);
	if (t->replay)
		return rp_ctree_replay_child(t, parent, f->dso, name, key,
					     f->sym && f->sym->inlined, f->ip, err);
	return rp_ctree_child_of(t, parent, f->dso, name, key, f->sym && f->sym->inlined, f->ip,
				 f->srcline, err);
}

int rp_ctree_add(struct rp_ctree *t, struct rp_cnode *root, const struct rp_cframe *frames,
		 size_t nr, uint64_t period, uint64_t count)
{
	struct rp_cnode *n = root;
	int err = 0;

	if (!nr)
		return 0;
	if (nr > root->max_depth)
		root->max_depth = (uint32_t)nr;
	for (size_t i = 0; i < nr; i++) {
		struct rp_cnode *c = rp_ctree_child(t, n, &frames[i], &err);

		if (!c)
			return err;
		n->children_hit += period;
		n->children_count += count;
		n = c;
	}
	n->hit += period;
	n->count += count;
	return 0;
}

/*
 * Whether paths end at n that a merge adds (rp_ctree_merge()), and the
 * count each adds: with per_path 1 the paths with a period, one count
 * (perf's merge_chain_branch() adds each as one path); else those with a
 * period or a count, their count.
 */
static int rp_merge_ends(const struct rp_cnode *n, int per_path, uint64_t *count)
{
	*count = per_path ? 1 : n->count;
	return per_path ? n->hit != 0 : (n->hit || n->count);
}

/* The nodes above the one a replayed merge is at. */
struct rp_merge_path {
	const struct rp_cnode **v;
	size_t alloc;
};

/*
 * rp_ctree_merge() in a replayed ctree, as perf's merge_chain_branch():
 * depth first, each node's own paths (those that end there) added to
 * into as one path from into's root by perf's descent, then its children
 * in the order of their tree.  path->v[0..depth) are the nodes from the
 * one below from's root down to n.
 */
static int rp_ctree_replay_merge(struct rp_ctree *t, struct rp_cnode *into,
				 const struct rp_cnode *n, struct rp_merge_path *path, size_t depth,
				 int per_path)
{
	uint64_t count;
	int err = 0;

	if (rp_merge_ends(n, per_path, &count)) {
		struct rp_cnode *d = into;

		for (size_t i = 0; i < depth; i++) {
			const struct rp_cnode *f = path->v[i];

			d->children_hit += n->hit;
			d->children_count += count;
			d = rp_ctree_replay_child(t, d, f->dso, f->name, f->key, f->inlined, f->ip,
						  &err);
			if (!d)
				return err;
		}
		d->hit += n->hit;
		d->count += count;
	}
	if (!n->nr_children)
		return 0;
	if (RP_ARRAY_RESERVE(path->v, path->alloc, depth + 1) < 0)
		return RP_ERR_NOMEM;
	/* A replayed ctree's children list is in its tree's order. */
	for (const struct rp_cnode *c = n->child; c && !err; c = c->sibling) {
		path->v[depth] = c;
		err = rp_ctree_replay_merge(t, into, c, path, depth + 1, per_path);
	}
	return err;
}

int rp_ctree_merge(struct rp_ctree *t, struct rp_cnode *into, const struct rp_cnode *from,
		   int per_path)
{
	if (t->replay) {
		struct rp_merge_path path = { NULL, 0 };
		int err = rp_ctree_replay_merge(t, into, from, &path, 0, per_path);

		free(path.v);
		return err;
	}
	const struct rp_cnode *src = from->child;
	struct rp_cnode *dparent = into; /* the node of into that matches src's parent */
	int err = 0;

	while (src) {
		struct rp_cnode *d = rp_ctree_child_of(t, dparent, src->dso, src->name, src->key,
						       src->inlined, src->ip, src->srcline, &err);

		uint64_t count;

		if (!d)
			return err;
		if (rp_merge_ends(src, per_path, &count)) {
			d->hit += src->hit;
			d->count += count;
			for (struct rp_cnode *p = d->parent; p; p = p->parent) {
				p->children_hit += src->hit;
				p->children_count += count;
			}
		}
		if (src->child) {
			dparent = d;
			src = src->child;
			continue;
		}
		while (src != from && !src->sibling) {
			src = src->parent;
			dparent = dparent->parent;
		}
		if (src == from)
			break;
		src = src->sibling;
	}
	return 0;
}

/* ---- drawing ------------------------------------------------------------ */

static uint64_t rp_cumul(const struct rp_cnode *n)
{
	return n->hit + n->children_hit;
}

static uint64_t rp_cumul_count(const struct rp_cnode *n)
{
	return n->count + n->children_count;
}

/* The last frame of the run that starts at n: perf's node ends where a
 * path ends or the paths divide. */
static const struct rp_cnode *rp_run_end(const struct rp_cnode *n)
{
	while (!n->count && n->nr_children == 1)
		n = n->child;
	return n;
}

static int32_t rp_dso_order(const struct rp_dso *dso)
{
	return dso ? (int32_t)(dso->idx & 0x7fffffff) : -1;
}

/*
 * perf keeps the children of a node in a tree ordered by match_chain(),
 * where a new path goes before an existing one that compares lower: the
 * DSO (readperf orders DSOs by creation, as perf allocates them) then the
 * symbol start (or ip), both descending; when either is an inlined
 * function's frame, the names, descending.  It then sorts them by cumulated
 * period, larger first, ties in that order.
 */
static int rp_child_tree_order(const struct rp_cnode *a, const struct rp_cnode *b)
{
	int32_t da, db;
	uint64_t ka, kb;

	/* The srcline key: texts by strcmp, a frame without one (only
	 * this key makes by_line nodes) above any text. */
	if (a->by_line || b->by_line) {
		int c = !a->by_line ? 1 : !b->by_line ? -1 : strcmp(a->srcline, b->srcline);

		return c > 0 ? -1 : c < 0 ? 1 : 0;
	}
	/* An inlined function's frame compares by name (strcmp), whatever
	 * the DSO (not with the address key). */
	if (a->name && b->name && (a->by_name || b->by_name)) {
		int c = strcmp(a->name, b->name);

		return c > 0 ? -1 : c < 0 ? 1 : 0;
	}
	da = rp_dso_order(a->dso);
	db = rp_dso_order(b->dso);
	if (da != db)
		return da > db ? -1 : 1;
	ka = a->name && b->name ? a->key : a->ip;
	kb = a->name && b->name ? b->key : b->ip;
	return ka > kb ? -1 : ka < kb ? 1 : 0;
}

static int rp_child_order(const void *pa, const void *pb)
{
	const struct rp_cnode *a = *(const struct rp_cnode *const *)pa;
	const struct rp_cnode *b = *(const struct rp_cnode *const *)pb;
	uint64_t ca = rp_cumul(a), cb = rp_cumul(b);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return rp_child_tree_order(a, b);
}

static int rp_child_tree_cmp(const void *pa, const void *pb)
{
	return rp_child_tree_order(*(const struct rp_cnode *const *)pa,
				   *(const struct rp_cnode *const *)pb);
}

struct rp_kids {
	const struct rp_cnode **v;
	size_t nr;
};

/* A child and its place in a replayed ctree's list. */
struct rp_kid {
	const struct rp_cnode *n;
	size_t i;
};

static int rp_kid_order(const void *pa, const void *pb)
{
	const struct rp_kid *a = pa, *b = pb;
	uint64_t ca = rp_cumul(a->n), cb = rp_cumul(b->n);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* The children of run end n that pass the threshold, in drawing order. */
static int rp_sorted_children(const struct rp_cnode *n, const struct rp_cgraph_params *p,
			      struct rp_kids *k)
{
	uint64_t min_hit = p->min_hit;
	size_t i = 0;

	k->v = NULL;
	k->nr = 0;
	if (!n->nr_children)
		return 0;
	if (p->mode == RP_CGRAPH_REL) {
		/* perf rounds this threshold up (ceil). */
		double v = (double)n->children_hit * (p->min_percent / 100.0);

		min_hit = (uint64_t)v;
		if ((double)min_hit < v)
			min_hit++;
	}
	k->v = malloc(n->nr_children * sizeof(*k->v));
	if (!k->v)
		return RP_ERR_NOMEM;
	for (const struct rp_cnode *c = n->child; c; c = c->sibling)
		if (rp_cumul(c) >= min_hit)
			k->v[i++] = c;
	k->nr = i;
	if (!p->replay) {
		qsort(k->v, k->nr, sizeof(*k->v), rp_child_order);
		return 0;
	}
	/* A replayed ctree's list is in its tree's order, which settles
	 * ties (perf's output tree puts an equal node after). */
	struct rp_kid *kv = malloc(k->nr * sizeof(*kv));

	if (!kv && k->nr) {
		free(k->v);
		k->v = NULL;
		return RP_ERR_NOMEM;
	}
	for (i = 0; i < k->nr; i++)
		kv[i] = (struct rp_kid){ k->v[i], i };
	qsort(kv, k->nr, sizeof(*kv), rp_kid_order);
	for (i = 0; i < k->nr; i++)
		k->v[i] = kv[i].n;
	free(kv);
	return 0;
}

static void rp_margin(FILE *out, int left_margin)
{
	fprintf(out, "            %*s", left_margin, "");
}

static int rp_bit(unsigned mask, int i)
{
	return (mask >> ((unsigned)i % RP_CTREE_MASK_BITS)) & 1u;
}

static unsigned rp_mask_bit(int i)
{
	return 1u << ((unsigned)i % RP_CTREE_MASK_BITS);
}

/* perf's callchain_list__sym_name(): the symbol (with the address and
 * srcline keys, and its source line when it has one), or the ip in hex. */
static void rp_frame_name(FILE *out, const struct rp_cnode *n)
{
	if (n->name && n->srcline) {
		char bf[RP_CTREE_NAME_MAX];

		snprintf(bf, sizeof(bf), "%s %s%s", n->name, n->srcline,
			 n->inlined ? " (inlined)" : "");
		fputs(bf, out);
	} else if (n->name)
		fprintf(out, "%.*s%s", RP_CTREE_NAME_MAX - 1, n->name, n->inlined ? " (inlined)" : "");
	else if (n->ip)
		fprintf(out, "%#" PRIx64, n->ip);
	else
		fputs("0", out);
}

static void rp_value(FILE *out, uint64_t period, uint64_t count, uint64_t total,
		     const struct rp_cgraph_params *p)
{
	switch (p->value) {
	case RP_CGVAL_PERIOD:
		fprintf(out, "%" PRIu64, period);
		break;
	case RP_CGVAL_COUNT:
		fprintf(out, "%u", (unsigned)count);
		break;
	case RP_CGVAL_PERCENT:
	default:
		fprintf(out, "%.2f%%", total ? (double)period * 100.0 / (double)total : 0.0);
		break;
	}
}

static void rp_graph_line(FILE *out, int depth, unsigned mask, int left_margin)
{
	rp_margin(out, left_margin);
	for (int i = 0; i < depth; i++)
		fputs(rp_bit(mask, i) ? "|          " : "           ", out);
	fputc('\n', out);
}

/* One frame line; the first of a run carries the run's value. */
static void rp_frame_line(FILE *out, const struct rp_cnode *frame, uint64_t period,
			  uint64_t count, int first, int depth, unsigned mask, uint64_t total,
			  int left_margin, const struct rp_cgraph_params *p)
{
	rp_margin(out, left_margin);
	for (int i = 0; i < depth; i++) {
		fputc(rp_bit(mask, i) ? '|' : ' ', out);
		if (first && i == depth - 1) {
			fputs("--", out);
			rp_value(out, period, count, total, p);
			fputs("--", out);
		} else {
			fputs("          ", out);
		}
	}
	if (frame)
		rp_frame_name(out, frame);
	else
		/* perf 6.1 leaves the inlined flag of its "[...]" symbol
		 * uninitialized, so it sometimes adds " (inlined)": readperf
		 * prints what perf means. */
		fputs("[...]", out);
	fputc('\n', out);
}

/* perf's __callchain__fprintf_graph() over the children of run end n. */
static int rp_graph_level(FILE *out, const struct rp_cnode *n, uint64_t total, int depth,
			  unsigned mask, int left_margin, const struct rp_cgraph_params *p,
			  int *printed)
{
	struct rp_kids k;
	uint64_t remaining = total;
	unsigned new_mask = mask;
	int rc = rp_sorted_children(n, p, &k);
	size_t i;
	uint32_t shown = 0;
	uint64_t shown_count = 0; /* samples under the children drawn */

	if (rc)
		return rc;
	for (i = 0; i < k.nr; i++) {
		const struct rp_cnode *c = k.v[i], *end = rp_run_end(c), *f;
		uint64_t cumul = rp_cumul(c);
		int first = 1;

		remaining -= cumul;
		shown_count += rp_cumul_count(c);
		/* The last child drops its level's pipe, unless fractal mode
		 * still has a remainder to draw. */
		if (i + 1 == k.nr && (p->mode != RP_CGRAPH_REL || !remaining))
			new_mask &= ~rp_mask_bit(depth - 1);
		rp_graph_line(out, depth, mask, left_margin);
		for (f = c;; f = f->child) {
			rp_frame_line(out, f, cumul, rp_cumul_count(c), first, depth, new_mask, total,
				      left_margin, p);
			first = 0;
			if (f == end)
				break;
		}
		*printed = 1;
		rc = rp_graph_level(out, end, p->mode == RP_CGRAPH_REL ? end->children_hit : total,
				    depth + 1, new_mask | rp_mask_bit(depth), left_margin, p, printed);
		if (rc)
			break;
		if (++shown == p->print_limit)
			break;
	}
	if (!rc && p->mode == RP_CGRAPH_REL && remaining && remaining != total) {
		/* perf's "[...]": what the threshold hid, as one more child.
		 * Its count is that of the samples under the children not
		 * drawn; with the count value perf draws no "[...]" when that
		 * is 0 (its __callchain__fprintf_graph). */
		uint64_t hidden = n->children_count > shown_count ? n->children_count - shown_count : 0;

		if (p->value != RP_CGVAL_COUNT || hidden) {
			new_mask &= ~rp_mask_bit(depth - 1);
			rp_frame_line(out, NULL, remaining, hidden, 1, depth, new_mask, total,
				      left_margin, p);
			*printed = 1;
		}
	}
	free(k.v);
	return rc;
}

int rp_ctree_fprint_graph(FILE *out, const struct rp_cnode *root,
			  const struct rp_cgraph_params *p)
{
	struct rp_kids k;
	const struct rp_cnode *level = root;
	uint64_t total = p->total;
	int left_margin = 0, printed = 0;
	int rc = rp_sorted_children(root, p, &k);

	if (rc)
		return rc;
	/* One root child holding all the entry's period: its run is drawn
	 * without a value, after "---", one level less deep. */
	if (k.nr == 1 && rp_cumul(k.v[0]) == p->parent_samples) {
		const struct rp_cnode *c = k.v[0], *end = rp_run_end(c), *f;
		uint32_t shown = 0;
		int i = 0, started = 0;

		for (f = c;; f = f->child) {
			if (!(i++ == 0 && p->skip_first)) {
				if (!started) {
					rp_margin(out, left_margin);
					fputs("|\n", out);
					rp_margin(out, left_margin);
					fputs("---", out);
					left_margin += 3;
					started = 1;
					printed = 1;
				} else {
					rp_margin(out, left_margin);
					printed = 1;
				}
				rp_frame_name(out, f);
				fputc('\n', out);
				if (++shown == p->print_limit)
					break;
			}
			if (f == end)
				break;
		}
		level = end;
	}
	free(k.v);
	if (p->mode == RP_CGRAPH_REL)
		total = p->parent_samples;
	rc = rp_graph_level(out, level, total, 1, 1, left_margin, p, &printed);
	if (rc)
		return rc;
	if (printed)
		fputc('\n', out);
	return ferror(out) ? RP_ERR_IO : 0;
}

/* ---- flat and folded ---------------------------------------------------- */

struct rp_flat_set {
	const struct rp_cnode **v;
	size_t nr, cap;
};

/*
 * perf's __sort_chain_flat(): the children first, in the order of perf's
 * tree of children (rb_root_in), then the node itself when paths end there
 * with at least min_hit.
 */
static int rp_flat_collect(const struct rp_cnode *n, uint64_t min_hit, int replay,
			   struct rp_flat_set *s)
{
	if (n->nr_children == 1) {
		int rc = rp_flat_collect(n->child, min_hit, replay, s);

		if (rc)
			return rc;
	} else if (n->nr_children) {
		const struct rp_cnode **kids = malloc(n->nr_children * sizeof(*kids));
		size_t i = 0;
		int rc = 0;

		if (!kids)
			return RP_ERR_NOMEM;
		for (const struct rp_cnode *c = n->child; c; c = c->sibling)
			kids[i++] = c;
		/* A replayed ctree's list is in its tree's order already. */
		if (!replay)
			qsort(kids, i, sizeof(*kids), rp_child_tree_cmp);
		for (size_t j = 0; !rc && j < i; j++)
			rc = rp_flat_collect(kids[j], min_hit, replay, s);
		free(kids);
		if (rc)
			return rc;
	}
	if (!n->parent || !n->hit || n->hit < min_hit)
		return 0;
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		const struct rp_cnode **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return RP_ERR_NOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->nr++] = n;
	return 0;
}

struct rp_flat_item {
	const struct rp_cnode *n;
	size_t idx;
};

/* perf inserts the nodes into a tree by their own period, larger to the
 * left and ties to the right: larger first, ties in the order met. */
static int rp_flat_item_cmp(const void *pa, const void *pb)
{
	const struct rp_flat_item *a = pa, *b = pb;

	if (a->n->hit != b->n->hit)
		return a->n->hit > b->n->hit ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int rp_flat_sort(const struct rp_cnode **v, size_t nr)
{
	struct rp_flat_item *it = malloc(nr * sizeof(*it));

	if (!it)
		return RP_ERR_NOMEM;
	for (size_t i = 0; i < nr; i++) {
		it[i].n = v[i];
		it[i].idx = i;
	}
	qsort(it, nr, sizeof(*it), rp_flat_item_cmp);
	for (size_t i = 0; i < nr; i++)
		v[i] = it[i].n;
	free(it);
	return 0;
}

int rp_ctree_fprint_flat(FILE *out, const struct rp_cnode *root,
			 const struct rp_cgraph_params *p)
{
	struct rp_flat_set s = { 0 };
	const struct rp_cnode **path = NULL;
	size_t path_cap = 0;
	const char *sep = p->fold_sep ? p->fold_sep : ";";
	int folded = p->mode == RP_CGRAPH_FOLDED;
	int rc = rp_flat_collect(root, p->min_hit, p->replay, &s);

	if (!rc && s.nr > 1)
		rc = rp_flat_sort(s.v, s.nr);
	if (rc) {
		free(s.v);
		return rc;
	}
	for (size_t i = 0; i < s.nr; i++) {
		const struct rp_cnode *n = s.v[i];
		size_t depth = 0;

		for (const struct rp_cnode *f = n; f->parent; f = f->parent)
			depth++;
		if (depth > path_cap) {
			const struct rp_cnode **np = realloc(path, depth * sizeof(*np));

			if (!np) {
				rc = RP_ERR_NOMEM;
				break;
			}
			path = np;
			path_cap = depth;
		}
		size_t d = depth;
		for (const struct rp_cnode *f = n; f->parent; f = f->parent)
			path[--d] = f;
		/* perf's callchain_node__fprintf_value(): flat shows the
		 * node's cumulated period, folded the period that ends there.
		 * Both leave out frames at PERF_CONTEXT_MAX and above (the
		 * unwinder's 0 - 1 where a return address read 0), which the
		 * graph draws. */
		if (folded) {
			int first = 1;

			rp_value(out, n->hit, n->count, p->total, p);
			fputc(' ', out);
			for (d = 0; d < depth; d++) {
				if (path[d]->ip >= RP_CONTEXT_MAX)
					continue;
				if (!first)
					fputs(sep, out);
				rp_frame_name(out, path[d]);
				first = 0;
			}
			fputc('\n', out);
		} else {
			fputs("           ", out);
			rp_value(out, rp_cumul(n), rp_cumul_count(n), p->total, p);
			fputc('\n', out);
			for (d = 0; d < depth; d++) {
				if (path[d]->ip >= RP_CONTEXT_MAX)
					continue;
				fputs("                ", out);
				rp_frame_name(out, path[d]);
				fputc('\n', out);
			}
			fputc('\n', out);
		}
		if (i + 1 == p->print_limit)
			break;
	}
	free(path);
	free(s.v);
	if (rc)
		return rc;
	return ferror(out) ? RP_ERR_IO : 0;
}
