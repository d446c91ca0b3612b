/* SPDX-License-Identifier: MIT */
/*
 * The sort keys the report's entries and the diff's entries share (perf
 * 6.1's util/sort.c: comm, pid, tid, dso, sym, cpu, srcline, srcfile):
 * their fields, filled from a sample; equality and hashing (the hot path:
 * inline); the output order; column headers, widths and cells; perf's
 * elision of a key whose filter has one entry.  The report's other keys
 * (parent, weights, branch and memory keys, ...) stay in report.c.
 */
#ifndef RP_REPORT_KEYS_INT_H
#define RP_REPORT_KEYS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <readperf/report.h>

#include "common/hashmap.h"
#include "common/strbuf.h"
#include "common/strpool.h"

struct rp_dso;
struct rp_filter;
struct rp_resolved;
struct rp_sample;
struct rp_srctext;

/* perf prints unresolved addresses with BITS_PER_LONG / 4 digits. */
#define RP_KEY_ADDR_DIGITS 16

/* Whether a key is one of the shared keys (struct rp_ekey). */
#define RP_KEY_IS_COMMON(k) ((unsigned)(k) <= RP_SORT_SRCFILE)
/* Whether a dimension is one of perf's number columns (overhead, ...). */
#define RP_KEY_IS_HPP(k) ((k) >= RP_SORT_OVERHEAD && (k) <= RP_SORT_PERIOD)

/*
 * The shared keys of one entry.  Strings are interned in the owner's pool
 * (rp_key_names), so that equal texts have equal pointers; sym may be the
 * resolver's own name while a sample is looked up, and is interned when
 * an entry is made of it.
 */
struct rp_ekey {
	const char *comm;    /* the comm at the sample's time */
	const char *dso;     /* short name; NULL: no map */
	const char *sym;     /* name; NULL: unresolved */
	const char *srcline; /* srcline key: "file.c:12", "sym+off", ... */
	const char *srcfile; /* srcfile key: "file.c" or "" */
	uint64_t sym_start, sym_end;
	uint64_t ip;         /* al.addr: the address in the DSO's space (al.ip without a map) */
	int32_t tid;
	int32_t cpu;         /* -1: not sampled */
	char level;          /* perf's "[.]", "[k]", ... */
	uint8_t sym_inlined; /* an inlined function's frame (report --children) */
};

/*
 * How two entries' keys compare (perf's se_cmp where the sort key has no
 * se_collapse, else se_collapse), by flags:
 * 0                 the report's: symbols by address within their DSO
 *                   (inlined frames by name within overlapping
 *                   functions), source lines by text;
 * RP_EKEY_SRCLINE_ADDR  perf diff's input tree: source lines by address
 *                   and DSO;
 * RP_EKEY_SYM_NAME  perf diff's collapse: symbols by name (the two files
 *                   may come from different binaries), unresolved ones
 *                   all one.
 */
#define RP_EKEY_SRCLINE_ADDR 1u
#define RP_EKEY_SYM_NAME 2u

/* Whether a and b agree in key, a shared key (RP_KEY_IS_COMMON). */
static inline int rp_ekey_same(enum rp_sort_key key, const struct rp_ekey *a,
			       const struct rp_ekey *b, unsigned flags)
{
	switch (key) {
	case RP_SORT_COMM:
		return a->comm == b->comm;
	case RP_SORT_PID:
	case RP_SORT_TID:
		return a->tid == b->tid;
	case RP_SORT_DSO:
		return a->dso == b->dso;
	case RP_SORT_SYM:
		if (flags & RP_EKEY_SYM_NAME)
			return a->sym == b->sym;
		if (!a->sym || !b->sym)
			return !a->sym && !b->sym && a->ip == b->ip;
		if (a->dso != b->dso)
			return 0;
		if (a->sym_inlined || b->sym_inlined)
			/* perf's _sort__sym_cmp(): inlined frames by name,
			 * within overlapping functions. */
			return !strcmp(a->sym, b->sym) && a->sym_start <= b->sym_end &&
			       a->sym_end >= b->sym_start;
		return a->sym_start == b->sym_start && a->sym_end == b->sym_end;
	case RP_SORT_CPU:
		return a->cpu == b->cpu;
	case RP_SORT_SRCLINE:
		if (flags & RP_EKEY_SRCLINE_ADDR)
			return a->ip == b->ip && a->dso == b->dso;
		return a->srcline == b->srcline;
	case RP_SORT_SRCFILE:
		return a->srcfile == b->srcfile;
	default:
		return 1;
	}
}

/* The hash word of a shared key: keys rp_ekey_same() finds equal under
 * the same flags have equal words. */
static inline uint64_t rp_ekey_word(enum rp_sort_key key, const struct rp_ekey *k, unsigned flags)
{
	switch (key) {
	case RP_SORT_COMM:
		return (uint64_t)(uintptr_t)k->comm;
	case RP_SORT_PID:
	case RP_SORT_TID:
		return (uint32_t)k->tid;
	case RP_SORT_DSO:
		return (uint64_t)(uintptr_t)k->dso;
	case RP_SORT_SYM:
		if (flags & RP_EKEY_SYM_NAME)
			return (uint64_t)(uintptr_t)k->sym;
		return k->sym ? rp_hash64(k->sym_start) ^ (uint64_t)(uintptr_t)k->dso : ~k->ip;
	case RP_SORT_CPU:
		return (uint32_t)k->cpu;
	case RP_SORT_SRCLINE:
		if (flags & RP_EKEY_SRCLINE_ADDR)
			return k->ip ^ (uint64_t)(uintptr_t)k->dso;
		return (uint64_t)(uintptr_t)k->srcline;
	case RP_SORT_SRCFILE:
		return (uint64_t)(uintptr_t)k->srcfile;
	default:
		return 0;
	}
}

/* The start of a hash of keys, and one key's word mixed in (i: its
 * place in the list). */
#define RP_EKEY_HASH_SEED 0x9e3779b97f4a7c15ull
static inline uint64_t rp_ekey_hash_mix(uint64_t h, uint64_t word, size_t i)
{
	return rp_hash64(h ^ word) + i;
}

/* The output order of a shared key (perf's se_sort, else se_cmp): a
 * negative value puts a first. */
int rp_ekey_cmp(enum rp_sort_key key, const struct rp_ekey *a, const struct rp_ekey *b);

/*
 * The names one reader of a recording gives its entries: comms and DSO
 * short names interned in pool (shared with other readers whose entries
 * must compare equal), cached by the machine's pointers.
 */
struct rp_key_names {
	struct rp_strpool *pool;
	struct rp_hashmap dsos; /* struct rp_dso * -> interned short name */
	const char *last_comm_in, *last_comm;
	const struct rp_dso *last_dso;
	const char *last_dso_name;
};

void rp_key_names_init(struct rp_key_names *n, struct rp_strpool *pool);
void rp_key_names_release(struct rp_key_names *n);
/* The interned comm (the machine's text); NULL when out of memory. */
const char *rp_key_names_comm(struct rp_key_names *n, const char *comm);
/* The interned short name of dso; NULL when out of memory. */
const char *rp_key_names_dso(struct rp_key_names *n, const struct rp_dso *dso);

/*
 * Fills k from a sample and its resolution (res may be NULL): comm and
 * DSO interned through n, sym the resolver's name (to be interned when an
 * entry is made), srcline and srcfile through srctext when not NULL (NULL
 * texts without a resolution).  Returns 0 or RP_ERR_NOMEM.
 */
int rp_ekey_fill(struct rp_ekey *k, struct rp_key_names *n, struct rp_srctext *srctext,
		 const struct rp_sample *s, const struct rp_resolved *res);

/* Column widths by key (perf's hists__calc_col_len), measured over the
 * rows shown. */
struct rp_key_widths {
	int w[RP_SORT_NR_KEYS_];
	int unresolved; /* a row without a symbol was measured */
};

void rp_key_widths_init(struct rp_key_widths *w);
/* Measures the shared keys of a row; final_comm is its thread's comm at
 * the end, which the pid column shows. */
void rp_key_widths_add(struct rp_key_widths *w, const struct rp_ekey *k, const char *final_comm);
/* Ends the measure: the dso column holds an address where a row has no
 * symbol (without -t), pid's comes from comm's, every key column is at
 * least as wide as its header. */
void rp_key_widths_end(struct rp_key_widths *w, const char *field_sep);

/* A key's (or number column's) header, as perf names it; "" for none. */
const char *rp_key_header(enum rp_sort_key key);

/*
 * Appends the cell of a shared key to b, as perf's se_snprintf functions
 * write it into a column of width bytes (last: the line's last column,
 * not padded); with -t (field_sep) the separator's first character
 * becomes '.' in the text.  Returns 0 or RP_ERR_NOMEM.
 */
int rp_key_format(enum rp_sort_key key, const struct rp_ekey *k, const char *final_comm,
		  int width, int last, const char *field_sep, struct rp_strbuf *b);

/* With -t, perf turns the separator's first character into '.' in the
 * text of a key cell from start on (perf's repsep_snprintf). */
void rp_key_sep_replace(const char *field_sep, struct rp_strbuf *b, size_t start);

/* The only entry of the --comms, --dsos and --symbols filters; NULL when
 * they have none or several. */
struct rp_key_singles {
	char *comm, *dso, *sym;
};

/* Copies filter's single entries (filter may be NULL).  0 or RP_ERR_NOMEM. */
int rp_key_singles_set(struct rp_key_singles *s, const struct rp_filter *filter);
void rp_key_singles_release(struct rp_key_singles *s);
/* The single filter entry of a key's list, or NULL. */
const char *rp_key_single(const struct rp_key_singles *s, int dim);
/* perf's sort__setup_elide(): whether column dim, one of cols[nr], is
 * left out (its filter has one entry), unless every key would be. */
int rp_key_elided(const struct rp_key_singles *s, const uint8_t *cols, size_t nr, int dim);

#endif
