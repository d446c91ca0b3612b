/* SPDX-License-Identifier: MIT */
/*
 * Call graphs of the function overview: one tree of call paths per
 * histogram entry, and its drawing as perf 6.1's `perf report --stdio -g`
 * (tools/perf/util/callchain.c builds, ui/stdio/hist.c draws).
 *
 * The tree here has one node per frame (a trie).  perf's tree compresses a
 * run of frames into one node until the paths diverge or one ends there;
 * the drawing rebuilds those runs from the trie (a frame starts a new run
 * when its parent ends a path or has more than one child), which gives
 * the same nodes, counts and order as perf's splitting tree.
 */
#ifndef RP_REPORT_CALLCHAIN_INT_H
#define RP_REPORT_CALLCHAIN_INT_H

#include <stdint.h>
#include <stdio.h>

#include <readperf/process.h>

#include "common/arena.h"
#include "common/hashmap.h"
#include "common/rbtree.h"
#include "common/strpool.h"

/* Nodes one report may hold in all its trees: a file cannot make the
 * graphs grow beyond. */
#define RP_CTREE_MAX_NODES (64u << 20)
/* Children of a node looked at one by one before the index is asked. */
#define RP_CTREE_SCAN_CHILDREN 4
/* perf draws the graph's nesting with the bits of an int (x86 shifts
 * modulo 32). */
#define RP_CTREE_MASK_BITS 32
/* perf formats a frame's name into a buffer of this size. */
#define RP_CTREE_NAME_MAX 1024

/* What a call graph takes from one resolved frame. */
struct rp_cframe {
	struct rp_dso *dso;          /* NULL: no map */
	const struct rp_symbol *sym; /* NULL: unresolved */
	uint64_t ip;                 /* as sampled */
	/* The map the frame was found in (NULL: none): with the sample's
	 * address space, what perf's struct map of the frame is
	 * (rp_hist_entry.map). */
	const struct rp_map *map;
	/* For the srcline and srcfile keys of --children rows: the line an
	 * inline chain's record carries (rp_frame.src_file, src_line; NULL,
	 * 0 for other frames), whether perf's inline lookup applied, and the
	 * address in the map's file (rp_addr_location.addr). */
	uint64_t addr;
	const char *src_file;
	/* The address key's source line of the frame (perf's
	 * callchain_srcline()); NULL without one or with the function key. */
	const char *srcline;
	uint32_t src_line;
	uint8_t inline_looked_up; /* rp_frame.inline_looked_up */
	uint8_t has_map;
	char level;                  /* the map's level, 0 when unknown */
};

struct rp_cnode {
	struct rp_cnode *parent;
	struct rp_cnode *child;   /* first child */
	struct rp_cnode *sibling; /* next child of parent */
	struct rp_cnode *hnext;   /* chain of the child index */
	/* chain of the name index; in a replayed ctree (rp_ctree.replay),
	 * the previous child in the tree's order, which the child/sibling
	 * list follows */
	struct rp_cnode *hnext_name;
	struct rp_dso *dso;       /* NULL: no map (owned by the machine) */
	const char *name;         /* interned symbol name; NULL: unresolved */
	uint8_t inlined;          /* an inlined function: " (inlined)" after the name */
	uint8_t by_name;          /* compared by name (an inlined frame, function key) */
	uint8_t by_line;          /* compared by srcline (srcline key, a text) */
	uint64_t key;             /* symbol start, or ip when unresolved */
	uint64_t ip;              /* the first frame's ip, as sampled */
	uint64_t hit;             /* period of the paths that end here */
	uint64_t children_hit;    /* period of the paths that go further */
	uint64_t count;           /* paths that end here */
	const char *srcline;      /* address key: drawn after the name (not owned) */
	uint64_t children_count;  /* paths that go further */
	uint32_t nr_children;
	uint32_t max_depth;       /* a root: its longest path (perf's max_depth) */
	/* A replayed ctree (rp_ctree.replay): the node's index in its
	 * children tree's nodes (RP_RB_NIL for a root), and the root of the
	 * tree its own children are in (RP_RB_NIL: none). */
	uint32_t rb_id, rb_root;
};

/* The nodes of every tree of one report. */
struct rp_ctree {
	struct rp_arena *arena;   /* not owned */
	struct rp_strpool *pool;  /* not owned */
	struct rp_hashmap index;  /* (parent, frame) -> first node of chain */
	/* (parent, symbol name) -> first named node of chain: where an
	 * inlined frame meets a frame of the same name */
	struct rp_hashmap name_index;
	/* Nodes of every tree of the report, against RP_CTREE_MAX_NODES:
	 * shared by the ctrees of one report that are built on several
	 * threads at once (their own arena, pool and indexes each), so
	 * counted atomically. */
	uint64_t *nr_nodes;
	/* The keys of inlined functions' frames (a hash of the name) by
	 * symbol, computed once: direct-mapped, RP_CTREE_INL_KEYS entries,
	 * allocated at the first inlined frame. */
	struct rp_inl_key *inl_keys;
	/* perf's -g key (RP_CALL_KEY_*; set after rp_ctree_init(), before
	 * the first path): function; address, a frame's node by its DSO
	 * and ip as sampled (no name comparison); srcline, by its
	 * rp_cframe.srcline text where it has one, else by function.  With
	 * both, nodes are drawn with their rp_cframe.srcline. */
	int key;
	/*
	 * Replay perf's trees of children (set with the function key before
	 * the first path): perf keeps a node's children in a red-black tree
	 * ordered by match_chain(), which compares two frames by name when
	 * either is an inlined function's and by DSO and address otherwise;
	 * that is no order, so a descent can miss the child a path matches
	 * and make a second one of the same function.  Each node's children
	 * are then in such a tree (lib/common/rbtree.c, node i of rbn for
	 * rb_node[i]), found by perf's descent, and drawn with ties in its
	 * order.  Off, children are found by key (a hash index).
	 */
	int replay;
	struct rp_rbnode *rbn;
	struct rp_cnode **rb_node;
	uint32_t nr_rb;
	size_t alloc_rbn, alloc_rb_node;
};

/* Entries of a ctree's cache of inlined frames' keys (a power of two). */
#define RP_CTREE_INL_KEYS 1024u

/* nr_nodes: the report's count of nodes (see above), not owned. */
void rp_ctree_init(struct rp_ctree *t, struct rp_arena *arena, struct rp_strpool *pool,
		   uint64_t *nr_nodes);
void rp_ctree_release(struct rp_ctree *t);

/* A root (no frame) in the report's arena, or NULL (no memory). */
struct rp_cnode *rp_ctree_root(struct rp_ctree *t);

/*
 * Adds the path frames[0..nr) (in drawing order, the root's first child
 * first) of `count` samples of total `period` under root, as perf's
 * callchain_append() does for each of them.  An empty path adds nothing.
 * Returns 0, RP_ERR_NOMEM or RP_ERR_LIMIT.
 */
int rp_ctree_add(struct rp_ctree *t, struct rp_cnode *root, const struct rp_cframe *frames,
		 size_t nr, uint64_t period, uint64_t count);

/*
 * Adds the paths of from's tree (of the same ctree) to into's, with their
 * periods: with per_path 1 as perf's callchain_merge() does (each path
 * that ends at a node, with a period, counts one), with per_path 0 as if
 * from's samples had been added to into one by one (their counts).
 * into's max_depth stays (the caller takes from's when the samples are
 * into's own: the entry of a thread's samples taken before its first
 * COMM, which perf keeps as one entry with those taken after:
 * docs/report.md).  from is left as it was.  Returns 0, RP_ERR_NOMEM or
 * RP_ERR_LIMIT.
 */
int rp_ctree_merge(struct rp_ctree *t, struct rp_cnode *into, const struct rp_cnode *from,
		   int per_path);

/* perf's CHAIN_GRAPH_ABS (graph), CHAIN_GRAPH_REL (fractal), CHAIN_FLAT,
 * CHAIN_FOLDED */
enum rp_cgraph_mode { RP_CGRAPH_ABS, RP_CGRAPH_REL, RP_CGRAPH_FLAT, RP_CGRAPH_FOLDED };
enum rp_cgraph_value { RP_CGVAL_PERCENT, RP_CGVAL_PERIOD, RP_CGVAL_COUNT };

struct rp_cgraph_params {
	enum rp_cgraph_mode mode;
	enum rp_cgraph_value value;
	double min_percent;       /* threshold, percent */
	uint64_t min_hit;         /* graph mode: the threshold in period */
	uint64_t total;           /* the event's total period */
	uint64_t parent_samples;  /* the entry's period (Children's with --children) */
	uint32_t print_limit;     /* 0: no limit */
	int skip_first;           /* --sort starting with sym: the entry's own frame */
	int replay;               /* the tree's rp_ctree.replay */
	const char *fold_sep;     /* folded: between names (NULL: ";") */
};

/*
 * Draws root's graph under a row, as perf's callchain__fprintf_graph().
 * Returns 0, RP_ERR_NOMEM or RP_ERR_IO.
 */
int rp_ctree_fprint_graph(FILE *out, const struct rp_cnode *root,
			  const struct rp_cgraph_params *p);

/*
 * Writes root's paths as perf's callchain__fprintf_flat() (mode
 * RP_CGRAPH_FLAT) or callchain__fprintf_folded() (RP_CGRAPH_FOLDED) do:
 * each node where paths end with at least min_hit of period, larger
 * first.  Returns 0, RP_ERR_NOMEM or RP_ERR_IO.
 */
int rp_ctree_fprint_flat(FILE *out, const struct rp_cnode *root,
			 const struct rp_cgraph_params *p);

#endif
