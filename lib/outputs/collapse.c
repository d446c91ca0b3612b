/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks as perf's stackcollapse script prints them (perf 6.1,
 * tools/perf/scripts/python/stackcollapse.py run by perf script, which
 * hands it each sample's callchain resolved in callee order, at most
 * perf script's --max-stack (127) frames).  docs/collapse.md states the
 * rules.
 */
#include <readperf/collapse.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/error.h>

#include "common/error_int.h"
#include "common/hashmap.h"
#include "common/opts.h"
#include "common/strpool.h"
#include "outputs/output_int.h"
#include "process_int.h"

/* perf script's default --max-stack (PERF_MAX_STACK_DEPTH). */
#define RP_COLLAPSE_MAX_STACK 127
/* Distinct stacks kept: a file cannot make the table grow beyond. */
#define RP_COLLAPSE_MAX_STACKS (16u << 20)
/* Longest line built for one sample (names are cut to fit). */
#define RP_COLLAPSE_MAX_LINE (1u << 20)

struct rp_collapse {
	struct rp_collapse_opts opts;
	struct rp_strpool pool;     /* the stacks' texts */
	struct rp_hashmap index;    /* interned text -> index + 1 */
	const char **stacks;
	uint64_t *counts;
	size_t nr, alloc;
	int sorted;
	int ever_sorted;            /* stack indices moved: slots are stale */
	uint64_t total;
	char *line;                 /* one sample's text */
	size_t len, cap;
	int overflow;
	FILE *target;               /* rp_output_new()'s stream, else NULL */
};

int rp_collapse_new(struct rp_collapse **out, const struct rp_collapse_opts *opts)
{
	struct rp_collapse *c;

	if (!out)
		return RP_ERR_INVAL;
	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return RP_ERR_NOMEM;
	if (rp_opts_copy(&c->opts, sizeof(c->opts), opts) < 0) {
		free(c);
		return RP_ERR_INVAL;
	}
	/* The script refuses a pid or tid without the comm. */
	if (c->opts.no_comm && (c->opts.include_pid || c->opts.include_tid)) {
		free(c);
		return RP_ERR_INVAL;
	}
	*out = c;
	return 0;
}

void rp_collapse_free(struct rp_collapse *c)
{
	if (!c)
		return;
	rp_strpool_release(&c->pool);
	rp_hashmap_release(&c->index);
	free(c->stacks);
	free(c->counts);
	free(c->line);
	free(c);
}

static int rp_line_reserve(struct rp_collapse *c, size_t more)
{
	if (c->len + more + 1 <= c->cap)
		return 0;
	if (c->len + more + 1 > RP_COLLAPSE_MAX_LINE) {
		/* the rest of the line is dropped */
		c->overflow = 1;
		return 0;
	}
	size_t cap = c->cap ? c->cap : 256;
	while (cap < c->len + more + 1)
		cap *= 2;
	char *p = realloc(c->line, cap);
	if (!p)
		return RP_ERR_NOMEM;
	c->line = p;
	c->cap = cap;
	return 0;
}

static int rp_line_put(struct rp_collapse *c, const char *s, size_t n)
{
	int rc = rp_line_reserve(c, n);

	if (rc || c->overflow)
		return rc;
	memcpy(c->line + c->len, s, n);
	c->len += n;
	c->line[c->len] = '\0';
	return 0;
}

static int rp_line_puts(struct rp_collapse *c, const char *s)
{
	return rp_line_put(c, s, strlen(s));
}

/* The script's tidy_function_name(): ';' becomes ':', Java signatures
 * shortened on request, then the annotation. */
static int rp_put_frame(struct rp_collapse *c, const struct rp_addr_location *al)
{
	const char *sym = al->sym && al->sym->name ? al->sym->name : "[unknown]";
	size_t start = c->len;
	int rc;

	if (c->opts.tidy_java) {
		const char *s = sym;
		size_t n;

		/* '<' and '>' go first, then a leading 'L', then from '(' on. */
		char first = 0;
		for (const char *p = s; *p; p++)
			if (*p != '<' && *p != '>') {
				first = *p;
				break;
			}
		int skip_l = first == 'L';
		for (n = 0; s[n]; n++) {
			if (s[n] == '<' || s[n] == '>')
				continue;
			if (skip_l) {
				skip_l = 0;
				continue;
			}
			if (s[n] == '(')
				break;
			if ((rc = rp_line_put(c, &s[n], 1)))
				return rc;
		}
	} else if ((rc = rp_line_puts(c, sym))) {
		return rc;
	}
	for (size_t i = start; i < c->len; i++)
		if (c->line[i] == ';')
			c->line[i] = ':';
	if (c->opts.annotate_kernel && al->dso && rp_dso_is_kernel(al->dso)) {
		const char *name = rp_dso_long_name(al->dso);

		/* The script compares perf's DSO name with the kernel's. */
		if (name && !strcmp(name, "[kernel.kallsyms]"))
			return rp_line_puts(c, "_[k]");
	}
	if (c->opts.annotate_jit && al->dso) {
		const char *name = rp_dso_long_name(al->dso);
		const char *base = name ? strrchr(name, '/') : NULL;

		base = base ? base + 1 : name;
		/* perf's JIT symbol maps (/tmp/perf-PID.map) and the DSOs that
		 * perf inject --jit writes (jitted-PID-N.so). */
		if (base && ((!strncmp(name, "/tmp/perf-", 10) && strstr(base, ".map")) ||
			     !strncmp(base, "jitted-", 7)))
			return rp_line_puts(c, "_[j]");
	}
	return 0;
}

/* The slot (index + 1) of stack text s (n bytes), made when new; or a
 * negative rp_err. */
static long rp_collapse_slot(struct rp_collapse *c, const char *s, size_t n)
{
	const char *key = rp_strpool_intern(&c->pool, s, n);
	if (!key)
		return RP_ERR_NOMEM;
	uintptr_t slot = (uintptr_t)rp_hashmap_get(&c->index, (uint64_t)(uintptr_t)key);
	if (!slot) {
		if (c->nr >= RP_COLLAPSE_MAX_STACKS)
			return RP_ERR_LIMIT;
		if (c->nr == c->alloc) {
			size_t na = c->alloc ? c->alloc * 2 : 1024;
			const char **st = realloc(c->stacks, na * sizeof(*st));

			if (!st)
				return RP_ERR_NOMEM;
			c->stacks = st;
			uint64_t *ct = realloc(c->counts, na * sizeof(*ct));
			if (!ct)
				return RP_ERR_NOMEM;
			c->counts = ct;
			c->alloc = na;
		}
		c->stacks[c->nr] = key;
		c->counts[c->nr] = 0;
		slot = ++c->nr;
		if (rp_hashmap_put(&c->index, (uint64_t)(uintptr_t)key, (void *)slot) < 0)
			return RP_ERR_NOMEM;
		c->sorted = 0;
	}
	return (long)slot;
}

static int rp_collapse_sample(struct rp_collapse *c, const struct rp_event *ev,
			      const struct rp_resolved *res)
{
	const struct rp_sample *s = &ev->u.sample;
	size_t n = res->nr_callchain < RP_COLLAPSE_MAX_STACK ? res->nr_callchain
							     : RP_COLLAPSE_MAX_STACK;
	char num[48];
	int rc, first = 1;
	/* A stack the pipeline has cached: its line is known when the comm
	 * is the same (one stack_id is one thread, so pid and tid are). */
	struct rp_stack_slot *known = res->stack_id && !c->ever_sorted ? res->stack_slot : NULL;
	uint64_t tag = (uint64_t)(uintptr_t)res->comm;

	if (known && known->ptr && known->tag == tag) {
		c->counts[(uintptr_t)known->ptr - 1]++;
		c->total++;
		return 0;
	}

	c->len = 0;
	c->overflow = 0;
	if ((rc = rp_line_reserve(c, 64)))
		return rc;
	c->line[0] = '\0';
	if (!c->opts.no_comm) {
		const char *comm = res->comm ? res->comm : "";
		size_t start = c->len;

		if ((rc = rp_line_puts(c, comm)))
			return rc;
		for (size_t i = start; i < c->len; i++)
			if (c->line[i] == ' ')
				c->line[i] = '_';
		const char *sep = "-";
		if (c->opts.include_pid) {
			snprintf(num, sizeof(num), "%s%" PRIu32, sep, s->pid);
			if ((rc = rp_line_puts(c, num)))
				return rc;
			sep = "/";
		}
		if (c->opts.include_tid) {
			snprintf(num, sizeof(num), "%s%" PRIu32, sep, s->tid);
			if ((rc = rp_line_puts(c, num)))
				return rc;
		}
		first = 0;
	}
	/* The script reverses perf's callee order: the outermost first.
	 * Without a callchain (none recorded, or one perf discards) the
	 * stack is the comm alone. */
	for (size_t i = n; i-- > 0;) {
		if (!first && (rc = rp_line_puts(c, ";")))
			return rc;
		first = 0;
		if ((rc = rp_put_frame(c, &res->callchain[i].al)))
			return rc;
	}

	long got = rp_collapse_slot(c, c->line, c->len);
	if (got < 0)
		return (int)got;
	uintptr_t slot = (uintptr_t)got;
	c->counts[slot - 1]++;
	c->total++;
	if (known) {
		known->ptr = (void *)slot;
		known->tag = tag;
	}
	return 0;
}

static int rp_collapse_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	if (ev->type != RP_RECORD_SAMPLE || !ev->evsel || !res)
		return 0;
	return rp_collapse_sample(ctx, ev, res);
}

struct rp_consumer rp_collapse_consumer(struct rp_collapse *collapse)
{
	/* The table is the collapse's own, and a sample's line is built from
	 * what the pipeline resolved (comm, names of symbols and DSOs, which
	 * only sideband changes, and the stage waits for those): with three
	 * threads or more it fills on the stage while the pipeline's thread
	 * resolves later samples. */
	struct rp_consumer c = { collapse, rp_collapse_event,
				 RP_CONSUMER_CALLCHAIN | RP_CONSUMER_OWN_THREAD };

	return c;
}

struct rp_stack_ref {
	const char *text;
	uint64_t count;
};

static int rp_stack_cmp(const void *pa, const void *pb)
{
	const struct rp_stack_ref *a = pa, *b = pb;

	return strcmp(a->text, b->text);
}

long rp_collapse_stacks(struct rp_collapse *c, const char *const **stacks,
			const uint64_t **counts)
{
	if (!c || !stacks || !counts)
		return RP_ERR_INVAL;
	if (!c->sorted && c->nr) {
		struct rp_stack_ref *v = malloc(c->nr * sizeof(*v));

		if (!v)
			return RP_ERR_NOMEM;
		for (size_t i = 0; i < c->nr; i++) {
			v[i].text = c->stacks[i];
			v[i].count = c->counts[i];
		}
		qsort(v, c->nr, sizeof(*v), rp_stack_cmp);
		for (size_t i = 0; i < c->nr; i++) {
			c->stacks[i] = v[i].text;
			c->counts[i] = v[i].count;
			/* Keep the index pointing to the new slots. */
			if (rp_hashmap_put(&c->index, (uint64_t)(uintptr_t)v[i].text,
					   (void *)(uintptr_t)(i + 1)) < 0) {
				free(v);
				return RP_ERR_NOMEM;
			}
		}
		free(v);
	}
	c->sorted = 1;
	c->ever_sorted = 1;
	*stacks = c->stacks;
	*counts = c->counts;
	return (long)c->nr;
}

int rp_collapse_write(struct rp_collapse *c, FILE *out)
{
	const char *const *stacks;
	const uint64_t *counts;
	long n = rp_collapse_stacks(c, &stacks, &counts);

	if (n < 0)
		return (int)n;
	for (long i = 0; i < n; i++)
		fprintf(out, "%s %" PRIu64 "\n", stacks[i], counts[i]);
	if (fflush(out) != 0 || ferror(out))
		return RP_ERR_IO;
	return 0;
}

int rp_collapse_merge(struct rp_collapse *into, const struct rp_collapse *from)
{
	if (!into || !from || into == from)
		return RP_ERR_INVAL;
	/* The same text from the same options: a merge of different ones
	 * would mix two formats. */
	if (into->opts.no_comm != from->opts.no_comm ||
	    into->opts.include_pid != from->opts.include_pid ||
	    into->opts.include_tid != from->opts.include_tid ||
	    into->opts.tidy_java != from->opts.tidy_java ||
	    into->opts.annotate_kernel != from->opts.annotate_kernel ||
	    into->opts.annotate_jit != from->opts.annotate_jit)
		return RP_ERR_INVAL;
	for (size_t i = 0; i < from->nr; i++) {
		long slot = rp_collapse_slot(into, from->stacks[i], strlen(from->stacks[i]));

		if (slot < 0)
			return (int)slot;
		into->counts[slot - 1] += from->counts[i];
	}
	into->total += from->total;
	return 0;
}

uint64_t rp_collapse_total(const struct rp_collapse *c)
{
	return c ? c->total : 0;
}

static int rp_collapse_output_create(void **state, const struct rp_output_env *env,
				     const void *opts, const struct rp_output_target *target,
				     struct rp_error *err)
{
	struct rp_collapse *c;
	int ret = rp_collapse_new(&c, opts);

	(void)env;
	if (ret == RP_ERR_INVAL)
		return rp_error_set(err, ret, "bad options (a pid or tid needs the comm)");
	if (ret < 0)
		return rp_error_set(err, ret, "out of memory");
	c->target = target->stream;
	*state = c;
	return 0;
}

static struct rp_consumer rp_collapse_output_consumer(void *state)
{
	return rp_collapse_consumer(state);
}

static int rp_collapse_output_finish(void *state, struct rp_error *err)
{
	struct rp_collapse *c = state;
	int ret = rp_collapse_write(c, c->target);

	if (ret == RP_ERR_IO)
		return rp_error_set(err, ret, "cannot write the folded stacks");
	return ret < 0 ? rp_error_set(err, ret, "out of memory") : 0;
}

static int rp_collapse_output_merge(void *state, void *from, struct rp_error *err)
{
	int ret = rp_collapse_merge(state, from);

	if (ret == RP_ERR_LIMIT)
		return rp_error_set(err, ret, "more than %u distinct stacks",
				    RP_COLLAPSE_MAX_STACKS);
	if (ret == RP_ERR_INVAL)
		return rp_error_set(err, ret, "outputs made with different options");
	return ret < 0 ? rp_error_set(err, ret, "out of memory") : 0;
}

static void rp_collapse_output_destroy(void *state)
{
	rp_collapse_free(state);
}

const struct rp_output_def rp_output_collapse = {
	.name = "collapse",
	.flags = RP_OUTPUT_SYMBOLS,
	.create = rp_collapse_output_create,
	.consumer = rp_collapse_output_consumer,
	.merge = rp_collapse_output_merge,
	.finish = rp_collapse_output_finish,
	.destroy = rp_collapse_output_destroy,
};
