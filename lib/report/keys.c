/* SPDX-License-Identifier: MIT */
/*
 * The sort keys the report and the diff share (keys_int.h): perf 6.1's
 * util/sort.c (se_cmp, se_sort, se_snprintf, sort__setup_elide) and
 * util/hist.c (hists__calc_col_len) for comm, pid, tid, dso, sym, cpu,
 * srcline and srcfile.
 */
#include "report/keys_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>
#include <readperf/filter.h>
#include <readperf/machine.h>
#include <readperf/process.h>

#include "report/srctext_int.h"

static int rp_key_max(int a, int b)
{
	return a > b ? a : b;
}

static int rp_key_cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

/* Two interned texts in strcmp order; NULL sorts as "". */
static int rp_key_cmp_text(const char *a, const char *b)
{
	if (a == b)
		return 0;
	int c = strcmp(a ? a : "", b ? b : "");

	return c < 0 ? -1 : c > 0 ? 1 : 0;
}

/* A NULL text after every other (perf's cmp_null() in se_sort). */
static int rp_key_cmp_last_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a ? 0 : 1) - (b ? 0 : 1);
	return rp_key_cmp_text(a, b);
}

int rp_ekey_cmp(enum rp_sort_key key, const struct rp_ekey *a, const struct rp_ekey *b)
{
	switch (key) {
	case RP_SORT_COMM:
		return rp_key_cmp_text(a->comm, b->comm);
	case RP_SORT_PID:
	case RP_SORT_TID:
		return rp_key_cmp_i64(a->tid, b->tid);
	case RP_SORT_DSO:
		/* by short name, entries without a map last */
		return rp_key_cmp_last_null(a->dso, b->dso);
	case RP_SORT_SYM:
		/* by name; resolved symbols before unresolved addresses,
		 * which tie with each other */
		return rp_key_cmp_last_null(a->sym, b->sym);
	case RP_SORT_CPU:
		return rp_key_cmp_i64(a->cpu, b->cpu);
	/* --children rows of callchain frames have none (NULL): printed
	 * as "", they sort as "". */
	case RP_SORT_SRCLINE:
		return rp_key_cmp_text(a->srcline, b->srcline);
	case RP_SORT_SRCFILE:
		return rp_key_cmp_text(a->srcfile, b->srcfile);
	default:
		return 0;
	}
}

/* ---- names ---------------------------------------------------------------- */

void rp_key_names_init(struct rp_key_names *n, struct rp_strpool *pool)
{
	memset(n, 0, sizeof(*n));
	n->pool = pool;
}

void rp_key_names_release(struct rp_key_names *n)
{
	rp_hashmap_release(&n->dsos);
	n->last_comm_in = n->last_comm = NULL;
	n->last_dso = NULL;
	n->last_dso_name = NULL;
}

const char *rp_key_names_comm(struct rp_key_names *n, const char *comm)
{
	/* Consecutive samples mostly carry the same comm: skip the pool then.
	 * The machine interns comms and never frees or changes them, so the
	 * same pointer is the same string. */
	if (comm == n->last_comm_in && n->last_comm)
		return n->last_comm;
	const char *s = rp_strpool_intern_str(n->pool, comm);
	if (s) {
		n->last_comm_in = comm;
		n->last_comm = s;
	}
	return s;
}

const char *rp_key_names_dso(struct rp_key_names *n, const struct rp_dso *dso)
{
	if (dso == n->last_dso && n->last_dso_name)
		return n->last_dso_name;
	const char *s = rp_hashmap_get(&n->dsos, (uint64_t)(uintptr_t)dso);

	if (!s) {
		const char *name = rp_dso_short_name(dso);

		s = rp_strpool_intern_str(n->pool, name ? name : "");
		if (!s || rp_hashmap_put(&n->dsos, (uint64_t)(uintptr_t)dso, (void *)s) < 0)
			return NULL;
	}
	n->last_dso = dso;
	n->last_dso_name = s;
	return s;
}

int rp_ekey_fill(struct rp_ekey *k, struct rp_key_names *n, struct rp_srctext *srctext,
		 const struct rp_sample *s, const struct rp_resolved *res)
{
	const struct rp_thread *th = res ? res->thread : NULL;
	const char *comm = res ? res->comm : NULL;

	/* Every field set one by one: cheaper than a memset per sample. */
	k->dso = NULL;
	k->sym = NULL;
	k->srcline = k->srcfile = NULL;
	k->sym_start = k->sym_end = 0;
	k->sym_inlined = 0;
	k->tid = th ? rp_thread_tid(th) : (int32_t)s->tid;
	k->cpu = (s->sample_type & RP_SAMPLE_CPU) ? (int32_t)s->cpu : -1;
	k->level = '.';
	k->ip = s->ip;
	if (!comm && th)
		comm = rp_thread_comm(th);
	if (!(k->comm = rp_key_names_comm(n, comm ? comm : "")))
		return RP_ERR_NOMEM;
	if (!res)
		return 0;

	const struct rp_addr_location *al = &res->al;

	k->level = al->level ? al->level : '.';
	k->ip = al->map ? al->addr : al->ip;
	if (al->dso && !(k->dso = rp_key_names_dso(n, al->dso)))
		return RP_ERR_NOMEM;
	if (al->sym) {
		k->sym = al->sym->name ? al->sym->name : "";
		k->sym_start = al->sym->start;
		k->sym_end = al->sym->end;
	}
	if (srctext)
		return rp_srctext_get(srctext, al->dso, al->sym, k->ip, al->map != NULL, &k->srcline,
				      &k->srcfile);
	return 0;
}

/* ---- widths --------------------------------------------------------------- */

void rp_key_widths_init(struct rp_key_widths *w)
{
	memset(w, 0, sizeof(*w));
}

void rp_key_widths_add(struct rp_key_widths *w, const struct rp_ekey *k, const char *final_comm)
{
	int *v = w->w;

	/* perf measures the thread's comm at the end, not the entry's. */
	v[RP_SORT_COMM] = rp_key_max(v[RP_SORT_COMM], (int)strlen(final_comm));
	if (k->dso)
		v[RP_SORT_DSO] = rp_key_max(v[RP_SORT_DSO], (int)strlen(k->dso));
	if (k->srcline)
		v[RP_SORT_SRCLINE] = rp_key_max(v[RP_SORT_SRCLINE], (int)strlen(k->srcline));
	if (k->srcfile)
		v[RP_SORT_SRCFILE] = rp_key_max(v[RP_SORT_SRCFILE], (int)strlen(k->srcfile));
	if (k->sym) {
		/* perf leaves " (inlined)" out of the width. */
		v[RP_SORT_SYM] = rp_key_max(v[RP_SORT_SYM], (int)strlen(k->sym) + 4);
	} else {
		v[RP_SORT_SYM] = rp_key_max(v[RP_SORT_SYM], RP_KEY_ADDR_DIGITS + 4 + 2);
		w->unresolved = 1;
	}
}

void rp_key_widths_end(struct rp_key_widths *w, const char *field_sep)
{
	int *v = w->w;

	if (w->unresolved && !field_sep)
		v[RP_SORT_DSO] = rp_key_max(v[RP_SORT_DSO], RP_KEY_ADDR_DIGITS);
	v[RP_SORT_PID] = v[RP_SORT_COMM] ? v[RP_SORT_COMM] + 8 : 0;
	/* every key column is at least as wide as its header */
	for (int k = 0; k < RP_SORT_NR_KEYS_; k++)
		if (!RP_KEY_IS_HPP(k))
			v[k] = rp_key_max(v[k], (int)strlen(rp_key_header((enum rp_sort_key)k)));
}

const char *rp_key_header(enum rp_sort_key key)
{
	switch (key) {
	case RP_SORT_COMM: return "Command";
	case RP_SORT_PID: return "    Pid:Command";
	case RP_SORT_TID: return "    Tid";
	case RP_SORT_DSO: return "Shared Object";
	case RP_SORT_SYM: return "Symbol";
	case RP_SORT_CPU: return "CPU";
	case RP_SORT_SRCLINE: return "Source:Line";
	case RP_SORT_SRCFILE: return "Source File";
	case RP_SORT_PARENT: return "Parent symbol";
	case RP_SORT_SOCKET: return "Socket";
	case RP_SORT_LOCAL_WEIGHT: return "Local Weight";
	case RP_SORT_WEIGHT: return "Weight";
	case RP_SORT_TRANSACTION: return "Transaction                ";
	case RP_SORT_TRACE: return "Trace output";
	case RP_SORT_SYM_SIZE: return "Symbol size";
	case RP_SORT_DSO_SIZE: return "DSO size";
	case RP_SORT_CGROUP: return "Cgroup";
	case RP_SORT_CGROUP_ID: return "cgroup id (dev/inode)";
	case RP_SORT_IPC_NULL: return "IPC   [IPC Coverage]";
	case RP_SORT_TIME: return "Time";
	case RP_SORT_CODE_PAGE_SIZE: return "Code Page Size";
	case RP_SORT_LOCAL_INS_LAT: return "Local INSTR Latency";
	case RP_SORT_INS_LAT: return "INSTR Latency";
	case RP_SORT_ADDR: return "Address";
	case RP_SORT_OVERHEAD: return "Overhead";
	case RP_SORT_OVERHEAD_SYS: return "sys";
	case RP_SORT_OVERHEAD_US: return "usr";
	case RP_SORT_OVERHEAD_GUEST_SYS: return "guest sys";
	case RP_SORT_OVERHEAD_GUEST_US: return "guest usr";
	case RP_SORT_OVERHEAD_CHILDREN: return "Children";
	case RP_SORT_SAMPLE: return "Samples";
	case RP_SORT_PERIOD: return "Period";
	case RP_SORT_SYM_DADDR: return "Data Symbol";
	case RP_SORT_SYM_IADDR: return "Code Symbol";
	case RP_SORT_DSO_DADDR: return "Data Object";
	case RP_SORT_LOCKED: return "Locked";
	case RP_SORT_TLB: return "TLB access";
	case RP_SORT_MEM: return "Memory access";
	case RP_SORT_SNOOP: return "Snoop";
	case RP_SORT_DCACHELINE: return "Data Cacheline";
	case RP_SORT_PHYS_DADDR: return "Data Physical Address";
	case RP_SORT_DATA_PAGE_SIZE: return "Data Page Size";
	case RP_SORT_BLOCKED: return "Blocked";
	case RP_SORT_DSO_FROM: return "Source Shared Object";
	case RP_SORT_DSO_TO: return "Target Shared Object";
	case RP_SORT_SYM_FROM: return "Source Symbol";
	case RP_SORT_SYM_TO: return "Target Symbol";
	case RP_SORT_MISPREDICT: return "Branch Mispredicted";
	case RP_SORT_IN_TX: return "Branch in transaction";
	case RP_SORT_ABORT: return "Transaction abort";
	case RP_SORT_CYCLES: return "Basic Block Cycles";
	case RP_SORT_SRCLINE_FROM: return "From Source:Line";
	case RP_SORT_SRCLINE_TO: return "To Source:Line";
	case RP_SORT_IPC_LBR: return "IPC   [IPC Coverage]";
	case RP_SORT_ADDR_FROM: return "Source Address";
	case RP_SORT_ADDR_TO: return "Target Address";
	default: return "";
	}
}

/* ---- cells ---------------------------------------------------------------- */

void rp_key_sep_replace(const char *field_sep, struct rp_strbuf *b, size_t start)
{
	if (!field_sep || !field_sep[0])
		return;
	for (size_t i = start; i < b->len; i++)
		if (b->p[i] == field_sep[0])
			b->p[i] = '.';
}

int rp_key_format(enum rp_sort_key key, const struct rp_ekey *k, const char *final_comm,
		  int width, int last, const char *field_sep, struct rp_strbuf *b)
{
	size_t start = b->len;
	int rc = 0;

	switch (key) {
	case RP_SORT_COMM:
		rc = rp_strbuf_printf(b, "%-*.*s", width, width, k->comm);
		break;
	case RP_SORT_PID: {
		int cw = rp_key_max(7, width) - 8;

		rc = rp_strbuf_printf(b, "%7d:%-*.*s", (int)k->tid, cw < 0 ? 0 : cw, cw < 0 ? 0 : cw,
				      final_comm);
		break;
	}
	case RP_SORT_TID:
		rc = rp_strbuf_printf(b, "%*d", width, (int)k->tid);
		break;
	case RP_SORT_DSO:
		rc = rp_strbuf_printf(b, "%-*.*s", width, width, k->dso ? k->dso : "[unknown]");
		break;
	case RP_SORT_SRCLINE:
	case RP_SORT_SRCFILE: {
		const char *t = key == RP_SORT_SRCLINE ? k->srcline : k->srcfile;

		/* The last column is not padded. */
		rc = rp_strbuf_printf(b, "%-*.*s", last ? 0 : width, width, t ? t : "");
		break;
	}
	case RP_SORT_SYM:
		rc = rp_strbuf_printf(b, "[%c] ", k->level);
		if (rc)
			return rc;
		if (k->sym) {
			int nw = width - 4;

			rc = rp_strbuf_printf(b, "%.*s%s", nw < 0 ? 0 : nw, k->sym,
					      k->sym_inlined ? " (inlined)" : "");
		} else {
			/* "%#.16llx": zero gets no "0x", as in perf. */
			rc = rp_strbuf_printf(b, "%-#.*" PRIx64, RP_KEY_ADDR_DIGITS, k->ip);
		}
		if (rc)
			return rc;
		rp_key_sep_replace(field_sep, b, start);
		/* perf pads the symbol to the column width, outside the text the
		 * separator is replaced in, except in the last column. */
		if (!last && (int)(b->len - start) < width)
			rc = rp_strbuf_printf(b, "%*s", width - (int)(b->len - start), "");
		return rc;
	case RP_SORT_CPU:
		rc = rp_strbuf_printf(b, "%*.*d", width, width, (int)k->cpu);
		break;
	default:
		break;
	}
	if (rc)
		return rc;
	rp_key_sep_replace(field_sep, b, start);
	return 0;
}

/* ---- elision ------------------------------------------------------------ */

static int rp_key_dup(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? RP_ERR_NOMEM : 0;
}

int rp_key_singles_set(struct rp_key_singles *s, const struct rp_filter *filter)
{
	if (rp_key_dup(&s->comm, rp_filter_single(filter, RP_FILTER_COMMS)) ||
	    rp_key_dup(&s->dso, rp_filter_single(filter, RP_FILTER_DSOS)) ||
	    rp_key_dup(&s->sym, rp_filter_single(filter, RP_FILTER_SYMBOLS)))
		return RP_ERR_NOMEM;
	return 0;
}

void rp_key_singles_release(struct rp_key_singles *s)
{
	free(s->comm);
	free(s->dso);
	free(s->sym);
	s->comm = s->dso = s->sym = NULL;
}

const char *rp_key_single(const struct rp_key_singles *s, int dim)
{
	switch (dim) {
	case RP_SORT_COMM:
		return s->comm;
	case RP_SORT_DSO:
		return s->dso;
	case RP_SORT_SYM:
		return s->sym;
	default:
		return NULL;
	}
}

int rp_key_elided(const struct rp_key_singles *s, const uint8_t *cols, size_t nr, int dim)
{
	if (!rp_key_single(s, dim))
		return 0;
	for (size_t i = 0; i < nr; i++)
		if (!RP_KEY_IS_HPP(cols[i]) && !rp_key_single(s, cols[i]))
			return 1;
	return 0;
}
