/* SPDX-License-Identifier: MIT */
/*
 * perf's sample filters (see include/readperf/filter.h).  The lists are
 * parsed as perf's strlist/intlist parse them (comma separated, entries
 * taken as written, duplicates once), the CPU list as libperf's
 * perf_cpu_map__new(), the time ranges as util/time-utils.c.
 *
 * A verdict per comm string, DSO and symbol is cached by address: the
 * same few of them come back sample after sample.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/features.h>
#include <readperf/filter.h>
#include <readperf/machine.h>
#include <readperf/process.h>
#include <readperf/symbols.h>

#include "common/error_int.h"
#include "common/opts.h"
#include "filter/filter_int.h"

/* Entries of each verdict cache (a power of two). */
#define RP_FILTER_CACHE 64u
/* Most entries of one list. */
#define RP_FILTER_MAX_LIST 65536u

struct rp_strlist {
	char **s;
	size_t nr;
	int set; /* the option was given (an empty list still filters) */
};

struct rp_intlist {
	long *v;
	size_t nr;
	int set;
};

struct rp_vcache {
	const void *key;
	unsigned verdict; /* 1: passes, 2: rejected */
};

struct rp_filter {
	struct rp_strlist comms, dsos, syms;
	struct rp_intlist pids, tids;
	uint64_t *addrs; /* --symbols entries that are numbers */
	size_t nr_addrs;
	uint64_t *cpus;  /* bitmap of RP_FILTER_MAX_CPUS bits, or NULL */
	struct rp_time_range *ranges;
	size_t nr_ranges;
	char *time_str;
	int entry; /* some entry filter is set */
	struct rp_vcache comm_cache[RP_FILTER_CACHE];
	struct rp_vcache dso_cache[RP_FILTER_CACHE];
	struct rp_vcache sym_cache[RP_FILTER_CACHE];
};

/* ---- lists ------------------------------------------------------------- */

static void rp_strlist_release(struct rp_strlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->s[i]);
	free(l->s);
	memset(l, 0, sizeof(*l));
}

static int rp_strlist_has(const struct rp_strlist *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->s[i], s))
			return 1;
	return 0;
}

/* Adds e (taken over) to l; an entry already there is an error, as in
 * perf ("problems parsing comm list"). */
static int rp_strlist_add(struct rp_strlist *l, char *e, const char *what, const char *str,
			  struct rp_error *err)
{
	if (rp_strlist_has(l, e)) {
		free(e);
		return rp_error_set(err, RP_ERR_INVAL, "problems parsing %s list '%s'", what, str);
	}
	if (l->nr >= RP_FILTER_MAX_LIST) {
		free(e);
		return rp_error_set(err, RP_ERR_INVAL, "too many %s entries", what);
	}
	char **s = realloc(l->s, (l->nr + 1) * sizeof(*s));

	if (!s) {
		free(e);
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	}
	l->s = s;
	l->s[l->nr++] = e;
	return 0;
}

/*
 * perf's strlist__load(): a "file://PATH" entry stands for the lines of
 * PATH, each without its last character (the newline), at most
 * RP_FILTER_MAX_LINE bytes each.
 */
#define RP_FILTER_MAX_LINE 1024
static int rp_strlist_load(struct rp_strlist *l, const char *path, const char *what,
			   const char *str, struct rp_error *err)
{
	char line[RP_FILTER_MAX_LINE];
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f) {
		int e = errno;

		rc = rp_error_set(err, RP_ERR_IO, "cannot read the %s list %s: %s", what, path,
				  strerror(e));
		if (err)
			err->sys_errno = e;
		return rc;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		if (!len)
			continue;
		line[len - 1] = 0;
		char *e = strdup(line);

		rc = e ? rp_strlist_add(l, e, what, str, err)
		       : rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	}
	fclose(f);
	return rc;
}

/*
 * perf's strlist__new(): entries between commas, as written (an empty
 * entry counts, except after the last comma), or file://PATH.
 */
static int rp_strlist_parse(struct rp_strlist *l, const char *str, const char *what,
			    struct rp_error *err)
{
	const char *p = str;
	int rc;

	l->set = 1;
	for (;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		char *e = malloc(len + 1);

		if (!e)
			return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
		memcpy(e, p, len);
		e[len] = 0;
		if (!c && !*e) {
			free(e);
			return 0;
		}
		if (!strncmp(e, "file://", 7)) {
			rc = rp_strlist_load(l, e + 7, what, str, err);
			free(e);
		} else {
			rc = rp_strlist_add(l, e, what, str, err);
		}
		if (rc || !c)
			return rc;
		p = c + 1;
	}
}

static int rp_long_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/*
 * perf's intlist__new(): decimal numbers separated by commas, as strtol()
 * reads them (an empty entry is 0); a number given twice is an error.
 * Kept sorted for a binary search per sample.
 */
static int rp_intlist_parse(struct rp_intlist *l, const char *str, const char *what,
			    struct rp_error *err)
{
	const char *s = str;
	char *sep;

	l->set = 1;
	do {
		long v = strtol(s, &sep, 10);

		if (*sep != ',' && *sep != '\0')
			return rp_error_set(err, RP_ERR_INVAL, "problems parsing %s list '%s'",
					    what, str);
		if (l->nr >= RP_FILTER_MAX_LIST)
			return rp_error_set(err, RP_ERR_INVAL, "too many %s entries", what);
		long *nv = realloc(l->v, (l->nr + 1) * sizeof(*nv));

		if (!nv)
			return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
		l->v = nv;
		l->v[l->nr++] = v;
		s = sep + 1;
	} while (*sep);
	qsort(l->v, l->nr, sizeof(l->v[0]), rp_long_cmp);
	for (size_t i = 1; i < l->nr; i++)
		if (l->v[i - 1] == l->v[i])
			return rp_error_set(err, RP_ERR_INVAL, "problems parsing %s list '%s'",
					    what, str);
	return 0;
}

static int rp_intlist_has(const struct rp_intlist *l, long v)
{
	return l->nr && bsearch(&v, l->v, l->nr, sizeof(l->v[0]), rp_long_cmp) != NULL;
}

/*
 * perf's setup_addrlist(): a --symbols entry that reads whole as a
 * hexadecimal number (strtoul base 16, "0x" optional, trailing blanks
 * allowed) leaves the name list for the address list.
 */
static int rp_symlist_split(struct rp_filter *f, struct rp_error *err)
{
	size_t kept = 0;

	for (size_t i = 0; i < f->syms.nr; i++) {
		char *s = f->syms.s[i], *end;

		errno = 0;
		unsigned long long v = strtoull(s, &end, 16);
		int number = !errno && end != s;

		if (number)
			while (*end && isspace((unsigned char)*end))
				end++;
		if (!number || *end) {
			f->syms.s[kept++] = s;
			continue;
		}
		uint64_t *a = realloc(f->addrs, (f->nr_addrs + 1) * sizeof(*a));

		if (!a)
			return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
		f->addrs = a;
		f->addrs[f->nr_addrs++] = v;
		free(s);
	}
	f->syms.nr = kept;
	return 0;
}

/* ---- cpus -------------------------------------------------------------- */

/* libperf's perf_cpu_map__new() syntax: N or N-M, comma separated. */
static int rp_cpus_parse(struct rp_filter *f, const char *str, uint32_t nr_cpus,
			 struct rp_error *err)
{
	const char *p = str;
	uint32_t limit = nr_cpus && nr_cpus < RP_FILTER_MAX_CPUS ? nr_cpus : RP_FILTER_MAX_CPUS;

	f->cpus = calloc(RP_FILTER_MAX_CPUS / 64, sizeof(uint64_t));
	if (!f->cpus)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (!isdigit((unsigned char)*p))
		return rp_error_set(err, RP_ERR_INVAL, "invalid cpu list '%s'", str);
	while (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long lo = strtoul(p, &end, 0), hi = lo;

		if (lo >= INT_MAX || (*end && *end != ',' && *end != '-'))
			return rp_error_set(err, RP_ERR_INVAL, "invalid cpu list '%s'", str);
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 0);
			if (end == p || hi >= INT_MAX || (*end && *end != ',') || hi < lo)
				return rp_error_set(err, RP_ERR_INVAL, "invalid cpu list '%s'",
						    str);
		}
		for (unsigned long c = lo; c <= hi; c++) {
			if (c >= limit)
				return rp_error_set(err, RP_ERR_INVAL,
						    "requested CPU %lu too large (the recording has %u)",
						    c, limit);
			f->cpus[c / 64] |= 1ull << (c % 64);
		}
		p = *end ? end + 1 : end;
	}
	if (*p)
		return rp_error_set(err, RP_ERR_INVAL, "invalid cpu list '%s'", str);
	return 0;
}

/* perf_session__cpu_bitmap(): the first event of each type must record
 * the CPU. */
static int rp_session_has_cpus(const struct rp_session *s)
{
	size_t nr = rp_session_nr_evsels(s);

	for (size_t i = 0; i < nr; i++) {
		const struct rp_attr *a = rp_evsel_attr(rp_session_evsel(s, i));
		int first = 1;

		for (size_t j = 0; j < i && first; j++)
			if (rp_evsel_attr(rp_session_evsel(s, j))->type == a->type)
				first = 0;
		if (first && !(a->sample_type & RP_SAMPLE_CPU))
			return 0;
	}
	return 1;
}

/* ---- time ranges ------------------------------------------------------- */

/* perf's parse_nsec_time(): seconds, then optionally '.' and at most nine
 * digits of fraction. */
static int rp_parse_nsec(const char *str, uint64_t *t)
{
	char *end;
	unsigned long sec = strtoul(str, &end, 10);
	unsigned long nsec = 0;

	if (*end != '.' && *end != '\0')
		return -1;
	if (*end == '.') {
		const char *frac = end + 1;
		size_t len = strlen(frac);
		char buf[10];

		if (len > 9)
			return -1;
		memcpy(buf, frac, len);
		memset(buf + len, '0', 9 - len);
		buf[9] = 0;
		nsec = strtoul(buf, &end, 10);
		if (*end)
			return -1;
	}
	*t = (uint64_t)sec * 1000000000ull + nsec;
	return 0;
}

/* perf_time__parse_str(): "start,end" (in place: s is modified). */
static int rp_parse_range(char *s, struct rp_time_range *r)
{
	char *comma = strchr(s, ',');
	char *end_str = NULL;

	if (comma) {
		*comma = 0;
		end_str = comma + 1;
	}
	r->start = r->end = 0;
	if (*s && rp_parse_nsec(s, &r->start))
		return -1;
	if (end_str && *end_str && rp_parse_nsec(end_str, &r->end))
		return -1;
	if (r->end && r->end < r->start)
		return -1;
	return 0;
}

/* perf_time__parse_strs(): ranges separated by blanks; one comma each. */
static int rp_parse_abs_ranges(char *str, struct rp_time_range *ranges, size_t num)
{
	char *p = str;
	size_t i;

	for (i = 0; i + 1 < num; i++) {
		char *arg = p;

		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',')
				return -1;
		if (*p)
			*p++ = 0;
		if (rp_parse_range(arg, &ranges[i]))
			return -1;
	}
	if (rp_parse_range(p, &ranges[i]))
		return -1;
	for (i = 0; i + 1 < num; i++)
		if (ranges[i].end >= ranges[i + 1].start)
			return -1;
	return 0;
}

/* perf's parse_percent(): "N%" (what follows '%' is ignored), a share. */
static int rp_parse_percent(char *s, double *pct)
{
	char *c = s ? strchr(s, '%') : NULL;
	char *end;

	if (!c)
		return -1;
	*c = 0;
	*pct = strtod(s, &end);
	if (end != c)
		return -1;
	*pct /= 100.0;
	return 0;
}

/* perf's set_percent_time(). */
static int rp_percent_range(struct rp_time_range *r, double a, double b, uint64_t first,
			    uint64_t last)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -1;
	r->start = first + (uint64_t)round(a * (double)total);
	r->end = first + (uint64_t)round(b * (double)total);
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* "P%/N": the N-th slice of P percent. */
static int rp_percent_slash(char *s, struct rp_time_range *r, uint64_t first, uint64_t last)
{
	char *slash = strchr(s, '/'), *end;
	double pct;

	if (!slash)
		return -1;
	*slash = 0;
	if (rp_parse_percent(s, &pct))
		return -1;
	long n = strtol(slash + 1, &end, 10);

	if (*end || pct <= 0.0)
		return -1;
	return rp_percent_range(r, pct * (double)(n - 1), pct * (double)n, first, last);
}

/* "A%-B%". */
static int rp_percent_dash(char *s, struct rp_time_range *r, uint64_t first, uint64_t last)
{
	char *dash = strchr(s, '-');
	double a, b;

	if (!dash)
		return -1;
	*dash = 0;
	if (rp_parse_percent(s, &a) || rp_parse_percent(dash + 1, &b))
		return -1;
	return rp_percent_range(r, a, b, first, last);
}

int rp_time_ranges_parse(const char *str, uint64_t first, uint64_t last,
			 struct rp_time_range *ranges, size_t max, size_t *nr)
{
	size_t commas = 0;
	int rc = 0;

	*nr = 0;
	if (!str)
		return RP_ERR_INVAL;
	for (const char *c = str; *c; c++)
		commas += *c == ',';
	/* perf allocates one range per comma plus one. */
	if (commas + 1 > max)
		return RP_ERR_LIMIT;
	char *s = strdup(str);

	if (!s)
		return RP_ERR_NOMEM;
	memset(ranges, 0, (commas + 1) * sizeof(*ranges));
	if (strchr(s, '%')) {
		int (*one)(char *, struct rp_time_range *, uint64_t, uint64_t) = NULL;

		if (!first && !last) {
			rc = RP_ERR_INVAL;
		} else if (strchr(s, '/')) {
			one = rp_percent_slash;
		} else if (strchr(s, '-')) {
			one = rp_percent_dash;
		} else {
			/* "P%": '%' must end the string; it is "P%/1". */
			char *pct = strchr(s, '%');
			double p;

			if (pct[1] || rp_parse_percent(s, &p) || p <= 0.0 ||
			    rp_percent_range(&ranges[0], 0.0, p, first, last))
				rc = RP_ERR_INVAL;
			else
				*nr = 1;
		}
		if (one) {
			char *p = s;
			size_t i = 0;

			for (;;) {
				char *comma = strchr(p, ',');

				if (comma)
					*comma = 0;
				if (one(p, &ranges[i], first, last)) {
					rc = RP_ERR_INVAL;
					break;
				}
				i++;
				if (!comma || !comma[1])
					break;
				p = comma + 1;
			}
			if (!rc)
				*nr = i;
		}
	} else if (!commas || rp_parse_abs_ranges(s, ranges, commas)) {
		rc = RP_ERR_INVAL;
	} else {
		*nr = commas;
	}
	free(s);
	return rc;
}

int rp_time_ranges_skip(const struct rp_time_range *ranges, size_t nr, uint64_t t)
{
	if (!ranges || !nr || !t)
		return 0;
	if (nr == 1)
		return (ranges[0].start && t < ranges[0].start) || (ranges[0].end && t > ranges[0].end);
	for (size_t i = 0; i < nr; i++)
		if (t >= ranges[i].start && (t <= ranges[i].end || !ranges[i].end))
			return 0;
	return 1;
}

/* ---- the filter -------------------------------------------------------- */

static int rp_set(const char *s)
{
	return s && *s;
}

void rp_filter_free(struct rp_filter *f)
{
	if (!f)
		return;
	rp_strlist_release(&f->comms);
	rp_strlist_release(&f->dsos);
	rp_strlist_release(&f->syms);
	free(f->pids.v);
	free(f->tids.v);
	free(f->addrs);
	free(f->cpus);
	free(f->ranges);
	free(f->time_str);
	free(f);
}

/* The first and last sample times of the SAMPLE_TIME feature (0 and 0
 * when the file has none). */
static int rp_sample_times(const struct rp_session *s, uint64_t *first, uint64_t *last,
			   uint32_t *nr_cpus, struct rp_error *err)
{
	struct rp_features *feat = NULL;
	int rc = rp_features_read(&feat, s, err);

	*first = *last = 0;
	*nr_cpus = 0;
	if (rc < 0)
		return rc;
	if (rp_session_has_feature(s, RP_FEAT_SAMPLE_TIME)) {
		*first = feat->first_sample_time;
		*last = feat->last_sample_time;
	}
	if (rp_session_has_feature(s, RP_FEAT_NRCPUS))
		*nr_cpus = feat->nr_cpus_avail;
	rp_features_free(feat);
	return 0;
}

int rp_filter_new(struct rp_filter **out, const struct rp_session *session,
		  const struct rp_filter_opts *opts, struct rp_error *err)
{
	struct rp_filter_opts o = { 0 };
	int rc = 0;

	if (!out)
		return rp_error_set(err, RP_ERR_INVAL, "no filter to fill");
	*out = NULL;
	if (!opts)
		return 0;
	if (rp_opts_copy(&o, sizeof(o), opts) < 0)
		return rp_error_set(err, RP_ERR_INVAL,
				    "rp_filter_opts: a bad sz, or fields this library does not know");
	if (!rp_set(o.comms) && !rp_set(o.pids) && !rp_set(o.tids) && !rp_set(o.dsos) &&
	    !rp_set(o.symbols) && !rp_set(o.cpus) && !rp_set(o.time))
		return 0;

	struct rp_filter *f = calloc(1, sizeof(*f));

	if (!f)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (rp_set(o.comms))
		rc = rp_strlist_parse(&f->comms, o.comms, "comm", err);
	if (!rc && rp_set(o.pids))
		rc = rp_intlist_parse(&f->pids, o.pids, "pid", err);
	if (!rc && rp_set(o.tids))
		rc = rp_intlist_parse(&f->tids, o.tids, "tid", err);
	if (!rc && rp_set(o.dsos))
		rc = rp_strlist_parse(&f->dsos, o.dsos, "dso", err);
	if (!rc && rp_set(o.symbols)) {
		rc = rp_strlist_parse(&f->syms, o.symbols, "symbol", err);
		if (!rc)
			rc = rp_symlist_split(f, err);
	}
	f->entry = f->comms.set || f->pids.set || f->tids.set || f->dsos.set || f->syms.set;

	uint64_t first = 0, last = 0;
	uint32_t nr_cpus = 0;

	if (!rc && (rp_set(o.cpus) || rp_set(o.time)) && session)
		rc = rp_sample_times(session, &first, &last, &nr_cpus, err);
	if (!rc && rp_set(o.cpus)) {
		if (session && !rp_session_has_cpus(session))
			rc = rp_error_set(err, RP_ERR_INVAL,
					  "the file does not contain CPU events (remove -C)");
		else
			rc = rp_cpus_parse(f, o.cpus, nr_cpus, err);
	}
	if (!rc && rp_set(o.time)) {
		size_t commas = 0;

		for (const char *c = o.time; *c; c++)
			commas += *c == ',';
		if (commas + 1 > RP_FILTER_MAX_TIME_RANGES) {
			rc = rp_error_set(err, RP_ERR_INVAL, "too many time ranges in '%s'", o.time);
		} else {
			f->ranges = calloc(commas + 1, sizeof(*f->ranges));
			f->time_str = strdup(o.time);
			if (!f->ranges || !f->time_str)
				rc = rp_error_set(err, RP_ERR_NOMEM, "out of memory");
		}
		if (!rc && strchr(o.time, '%') && !first && !last)
			rc = rp_error_set(err, RP_ERR_INVAL,
					  "no first/last sample time in the file (the SAMPLE_TIME "
					  "feature) for the percentages of '%s'",
					  o.time);
		if (!rc) {
			rc = rp_time_ranges_parse(o.time, first, last, f->ranges, commas + 1,
						  &f->nr_ranges);
			if (rc == RP_ERR_NOMEM)
				rp_error_set(err, rc, "out of memory");
			else if (rc)
				rc = rp_error_set(err, RP_ERR_INVAL, "invalid time string '%s'",
						  o.time);
		}
	}
	if (rc) {
		rp_filter_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

int rp_filter_drops(const struct rp_filter *f, const struct rp_event *ev)
{
	if (!f || ev->type != RP_RECORD_SAMPLE)
		return 0;
	const struct rp_sample *s = &ev->u.sample;

	if (f->cpus) {
		if (!(s->sample_type & RP_SAMPLE_CPU) || s->cpu >= RP_FILTER_MAX_CPUS ||
		    !(f->cpus[s->cpu / 64] & (1ull << (s->cpu % 64))))
			return 1;
	}
	if (f->nr_ranges && (s->sample_type & RP_SAMPLE_TIME) &&
	    rp_time_ranges_skip(f->ranges, f->nr_ranges, s->time))
		return 1;
	return 0;
}

int rp_filter_cpu_drops(const struct rp_filter *f, uint32_t cpu)
{
	return f && f->cpus &&
	       (cpu >= RP_FILTER_MAX_CPUS || !(f->cpus[cpu / 64] & (1ull << (cpu % 64))));
}

static struct rp_vcache *rp_vcache_slot(struct rp_vcache *c, const void *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;

	return &c[(h >> 32) & (RP_FILTER_CACHE - 1)];
}

static int rp_dso_passes(const struct rp_filter *f, const struct rp_dso *dso)
{
	if (!dso)
		return 0;
	const char *s = rp_dso_short_name(dso), *l = rp_dso_long_name(dso);

	return (s && rp_strlist_has(&f->dsos, s)) || (l && rp_strlist_has(&f->dsos, l));
}

/* perf's machine__resolve(): the name, then (for address entries) the
 * sampled address.  perf's second test, the symbol's start address as
 * "0x..." text, can only meet entries that were numbers, which left the
 * name list. */
static int rp_sym_passes(struct rp_filter *f, const struct rp_addr_location *al)
{
	if (al->sym) {
		struct rp_vcache *c = rp_vcache_slot(f->sym_cache, al->sym);

		if (c->key != al->sym) {
			c->key = al->sym;
			c->verdict = al->sym->name && rp_strlist_has(&f->syms, al->sym->name) ? 1 : 2;
		}
		if (c->verdict == 1)
			return 1;
	}
	if (f->nr_addrs && al->map)
		for (size_t i = 0; i < f->nr_addrs; i++)
			if (f->addrs[i] == al->ip)
				return 1;
	return 0;
}

unsigned rp_filter_entry(struct rp_filter *f, const struct rp_resolved *res)
{
	unsigned m = 0;

	if (!f || !f->entry || !res)
		return 0;
	if (f->comms.set) {
		const char *comm = res->comm ? res->comm : rp_thread_comm(res->thread);
		struct rp_vcache *c = rp_vcache_slot(f->comm_cache, comm);

		if (!comm || c->key != comm) {
			c->key = comm;
			c->verdict = comm && rp_strlist_has(&f->comms, comm) ? 1 : 2;
		}
		if (c->verdict != 1)
			m |= RP_FILTERED_THREAD;
	}
	if (f->pids.set && (!res->thread || !rp_intlist_has(&f->pids, rp_thread_pid(res->thread))))
		m |= RP_FILTERED_THREAD;
	if (f->tids.set && (!res->thread || !rp_intlist_has(&f->tids, rp_thread_tid(res->thread))))
		m |= RP_FILTERED_THREAD;
	if (f->dsos.set) {
		struct rp_vcache *c = rp_vcache_slot(f->dso_cache, res->al.dso);

		if (c->key != res->al.dso || !res->al.dso) {
			c->key = res->al.dso;
			c->verdict = rp_dso_passes(f, res->al.dso) ? 1 : 2;
		}
		if (c->verdict != 1)
			m |= RP_FILTERED_DSO;
	}
	if (f->syms.set && !rp_sym_passes(f, &res->al))
		m |= RP_FILTERED_SYMBOL;
	return m;
}

const char *rp_filter_single(const struct rp_filter *f, enum rp_filter_list which)
{
	const struct rp_strlist *l;

	if (!f)
		return NULL;
	switch (which) {
	case RP_FILTER_COMMS:
		l = &f->comms;
		break;
	case RP_FILTER_DSOS:
		l = &f->dsos;
		break;
	case RP_FILTER_SYMBOLS:
		l = &f->syms;
		break;
	default:
		return NULL;
	}
	return l->nr == 1 ? l->s[0] : NULL;
}

const char *rp_filter_time_str(const struct rp_filter *f)
{
	return f ? f->time_str : NULL;
}

unsigned rp_filter_entry_types(const struct rp_filter *filter)
{
	if (!filter)
		return 0;
	return (filter->comms.set || filter->pids.set || filter->tids.set ? RP_FILTERED_THREAD : 0) |
	       (filter->dsos.set ? RP_FILTERED_DSO : 0) | (filter->syms.set ? RP_FILTERED_SYMBOL : 0);
}
