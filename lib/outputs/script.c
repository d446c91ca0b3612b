/* SPDX-License-Identifier: MIT */
/*
 * perf script's text output (perf 6.1, tools/perf/builtin-script.c and
 * util/evsel_fprintf.c, util/event.c for the sideband lines).  Every width
 * below is perf's: comm %16s (or %s when the call stack follows), tid %5d,
 * cpu [%03d], time %12s of seconds.microseconds (truncated), period %10lu,
 * event name right-aligned to the longest name of the file, ip %16lx.
 * A sample's lines are formatted into a buffer (outputs/linebuf.h, no
 * printf) and written to the caller's FILE at once.
 */
#include <readperf/script.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <readperf/error.h>
#include <readperf/filter.h>

#include "common/cursor.h"
#include "common/error_int.h"
#include "common/hex.h"
#include "common/opts.h"
#include "outputs/dump_int.h"
#include "outputs/output_int.h"
#include "outputs/fmtpool.h"
#include "outputs/linebuf.h"
#include "outputs/tracepoint.h"
#include "process_int.h"
#include "report/memtext_int.h"
#include "symbols/srcline_int.h"

_Static_assert(RP_SCRIPT_NR_TYPES <= RP_SCRIPT_TYPE_SLOTS, "rp_script_opts slots");

/* Longest event name used for alignment, bytes. */
#define RP_SCRIPT_MAX_NAME_WIDTH 1024u

#define F_ALL_IP (RP_SCRIPT_IP | RP_SCRIPT_SYM | RP_SCRIPT_SYMOFF | RP_SCRIPT_DSO)

struct rp_script {
	FILE *f;
	const struct rp_session *session;
	struct rp_machine *machine;
	struct rp_symbols *symbols; /* the srcline field's lines, or NULL */
	const struct rp_filter *filter; /* rp_script_set_filter(), or NULL */
	uint32_t fields[RP_SCRIPT_NR_TYPES];
	unsigned show;
	int nanosecs;
	int time_mode;      /* RP_SCRIPT_TIME_* */
	uint64_t time_base; /* the first (REL) or last (DELTA) time shown; 0: none yet */
	int name_width;
	int is_x86; /* register names: the recording's arch is x86 */
	/* CLOCK_DATA (the tod field): clock_ok, the wall-clock time and the
	 * recording clock's time at one moment, ns */
	int clock_ok;
	uint64_t tod_ns, clockid_ns;
	uint32_t data_src_width; /* the longest data_src text so far */
	int use_callchain; /* some event records call stacks, and they are shown */
	struct rp_tp *tp;
	int tp_status;
	struct rp_linebuf lb; /* the record being printed */
	/* With a pool, records are gathered as items (below) and formatted
	 * on its threads; without, each item is formatted at once. */
	struct rp_fmtpool *pool;
	struct rp_sframe *frames; /* one sample's, when formatted at once */
	uint32_t frames_alloc;
	uint32_t max_stack; /* perf's --max-stack (rp_chain_pick()) */
};

/* A location: the address shown, "sym+0xoff (dso)". */
struct rp_sframe {
	uint64_t shown;
	uint64_t symoff;
	const char *sym; /* NULL: "[unknown]" */
	const char *dso;
	uint8_t inlined;  /* an inlined function's frame: " (inlined)" */
	/* The srcline field: RP_SRC_* and what it prints. */
	uint8_t src_kind;
	uint32_t src_line;
	const char *src;  /* a file (its base name printed) or a DSO name */
	uint64_t src_addr;
};

/*
 * One record of the output as the pipeline gathers it: what formatting
 * needs and nothing that changes after the record was delivered (names
 * are the machine's, the symbol tables' and the session's, which live as
 * long as the printer).  A sample item is followed by nr its frames; a
 * text item (a sideband line) by nr bytes.
 */
enum rp_sitem_kind { RP_SITEM_SAMPLE, RP_SITEM_TEXT };

struct rp_sitem {
	uint32_t kind;
	uint32_t nr;
	uint32_t fields; /* RP_SCRIPT_* of the event's type */
	uint8_t has_cg;  /* the event records call stacks */
	uint8_t cursor;  /* the frames are a call stack, one line each */
	int32_t pid, tid, cpu;
	uint32_t rtype; /* the record's type (RP_RECORD_*), for misc */
	uint16_t misc;  /* the record's header misc */
	uint64_t raw_time; /* the record's own time (tod), time before --reltime */
	uint64_t time, period, addr;
	/* weight, ins_lat, phys_addr, data_page_size, code_page_size */
	uint64_t weight, phys_addr, data_page_size, code_page_size;
	uint16_t ins_lat;
	/* data_src, and the width perf pads its text to (the longest so
	 * far, in record order: a static of perf's data_src__fprintf()) */
	uint64_t data_src;
	uint32_t data_src_width;
	/* A page fault's addr resolved (perf's sample_addr_correlates_sym()),
	 * printed after it as "sym+0xoff (dso)" when the fields ask. */
	uint8_t addr_resolved;
	struct rp_sframe addr_at;
	/* The iregs and uregs text, after the frames (bytes). */
	uint32_t regs_len;
	const char *comm;  /* NULL: ":-1" */
	const char *event; /* the event's name */
};

enum { RP_SRC_NONE, RP_SRC_LINE, RP_SRC_UNKNOWN, RP_SRC_DSO_ADDR };

/* Most frames printed for a sample: what one item of the formatting
 * pool holds (4,600; perf's default --max-stack keeps 127 and an
 * address's inlined frames). */
#define RP_SCRIPT_MAX_FRAMES \
	((uint32_t)((RP_FMTPOOL_BATCH - sizeof(struct rp_sitem)) / sizeof(struct rp_sframe)))

static int rp_script_format_batch(void *ctx, const void *data, size_t size,
				  struct rp_linebuf *out);

static const struct {
	const char *name;
	uint32_t bit;
} rp_script_field_names[] = {
	{ "comm", RP_SCRIPT_COMM },   { "tid", RP_SCRIPT_TID },     { "pid", RP_SCRIPT_PID },
	{ "time", RP_SCRIPT_TIME },   { "cpu", RP_SCRIPT_CPU },     { "event", RP_SCRIPT_EVENT },
	{ "trace", RP_SCRIPT_TRACE }, { "ip", RP_SCRIPT_IP },       { "sym", RP_SCRIPT_SYM },
	{ "dso", RP_SCRIPT_DSO },     { "addr", RP_SCRIPT_ADDR },   { "symoff", RP_SCRIPT_SYMOFF },
	{ "period", RP_SCRIPT_PERIOD }, { "srcline", RP_SCRIPT_SRCLINE },
	{ "weight", RP_SCRIPT_WEIGHT }, { "phys_addr", RP_SCRIPT_PHYS_ADDR },
	{ "data_page_size", RP_SCRIPT_DATA_PAGE_SIZE },
	{ "code_page_size", RP_SCRIPT_CODE_PAGE_SIZE }, { "ins_lat", RP_SCRIPT_INS_LAT },
	{ "iregs", RP_SCRIPT_IREGS }, { "uregs", RP_SCRIPT_UREGS },
	{ "misc", RP_SCRIPT_MISC }, { "tod", RP_SCRIPT_TOD },
	{ "data_src", RP_SCRIPT_DATA_SRC },
};

/* The "type:" prefixes of -F, by output type (NULL: no prefix names it). */
static const char *const rp_script_type_names[RP_SCRIPT_NR_TYPES] = {
	"hw", "sw", "trace", NULL, "raw", "break", "synth", NULL,
};

/* perf 6.1's event_type(): the type in its messages. */
static const char *rp_script_type_msg(unsigned type)
{
	switch (type) {
	case RP_TYPE_HARDWARE:
		return "hardware";
	case RP_TYPE_SOFTWARE:
		return "software";
	case RP_TYPE_TRACEPOINT:
		return "tracepoint";
	default:
		return "unknown";
	}
}

/* perf 6.1's output[] table: the default fields per output type. */
static uint32_t rp_script_default_fields(unsigned type)
{
	const uint32_t base = RP_SCRIPT_COMM | RP_SCRIPT_TID | RP_SCRIPT_CPU | RP_SCRIPT_TIME |
			      RP_SCRIPT_EVENT;

	switch (type) {
	case RP_TYPE_TRACEPOINT:
		return base | RP_SCRIPT_TRACE;
	case RP_TYPE_RAW:
		/* PMU events (perf mem record, -e rNNN, named core events) */
		return base | F_ALL_IP | RP_SCRIPT_PERIOD | RP_SCRIPT_ADDR | RP_SCRIPT_DATA_SRC |
		       RP_SCRIPT_WEIGHT | RP_SCRIPT_INS_LAT | RP_SCRIPT_PHYS_ADDR |
		       RP_SCRIPT_DATA_PAGE_SIZE | RP_SCRIPT_CODE_PAGE_SIZE;
	case RP_SCRIPT_TYPE_SYNTH:
		return base | F_ALL_IP;
	default:
		return base | F_ALL_IP | RP_SCRIPT_PERIOD;
	}
}

static uint32_t rp_script_invalid_fields(unsigned type)
{
	return type == RP_TYPE_TRACEPOINT ? 0 : RP_SCRIPT_TRACE;
}

/* PERF_TYPE_SYNTH (perf's synthesized events: Intel PT's and others) */
#define RP_SCRIPT_ATTR_SYNTH 0x80000000u

/* perf's output_type(): the output type of an attr type. */
static unsigned rp_script_type_index(uint32_t attr_type)
{
	if (attr_type == RP_SCRIPT_ATTR_SYNTH)
		return RP_SCRIPT_TYPE_SYNTH;
	return attr_type <= RP_TYPE_BREAKPOINT ? attr_type : RP_SCRIPT_TYPE_OTHER;
}

static void rp_script_seterr(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void rp_script_seterr(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errsz)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

/*
 * perf 6.1's parse_output_fields(), step by step: a list without '+' or
 * '-' anywhere replaces the fields (of every type, or of the named one,
 * which then must exist unless a field follows); each field sets, adds or
 * removes, and a list that sets cannot add or remove, nor the reverse.
 * Fields named without a type are perf's user_set_fields (opts->named).
 */
int rp_script_parse_fields(struct rp_script_opts *opts, const char *spec, char *err,
			   size_t errsz)
{
	enum { CH_DEFAULT, CH_SET, CH_ADD, CH_REMOVE } change = CH_DEFAULT;
	char buf[1024];
	const char *list = spec;
	int type = -1;

	if (!opts || !spec)
		return RP_ERR_INVAL;
	const char *colon = strchr(spec, ':');
	if (colon) {
		size_t n = (size_t)(colon - spec);

		for (int t = 0; t < RP_SCRIPT_NR_TYPES; t++)
			if (rp_script_type_names[t] && strlen(rp_script_type_names[t]) == n &&
			    !strncmp(spec, rp_script_type_names[t], n))
				type = t;
		if (type < 0) {
			rp_script_seterr(err, errsz, "Invalid event type in field string.");
			return RP_ERR_INVAL;
		}
		list = colon + 1;
	} else if (!*list) {
		rp_script_seterr(err, errsz, "Cannot set fields to 'none' for all event types.");
		return RP_ERR_INVAL;
	}
	if (strlen(list) >= sizeof(buf)) {
		rp_script_seterr(err, errsz, "field list too long");
		return RP_ERR_INVAL;
	}
	/* perf edits the fields so far (the defaults at first) when '+' or
	 * '-' appears anywhere in the list, and replaces them otherwise. */
	int edit = strchr(list, '+') || strchr(list, '-');

	for (int t = 0; t < RP_SCRIPT_NR_TYPES; t++) {
		if (!opts->user_set[t])
			opts->fields[t] = rp_script_default_fields((unsigned)t);
		if (edit || (type >= 0 && t != type))
			continue;
		opts->fields[t] = 0;
		opts->user_set[t] = 1;
		opts->must_exist[t] = type >= 0;
	}
	memcpy(buf, list, strlen(list) + 1);
	for (char *tok = buf, *next; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = 0;
		if (!*tok)
			continue; /* strtok_r() skips empty fields */
		if (*tok == '+' || *tok == '-') {
			if (change == CH_SET)
				goto badmix;
			change = *tok == '+' ? CH_ADD : CH_REMOVE;
			tok++;
		} else {
			if (change != CH_SET && change != CH_DEFAULT)
				goto badmix;
			change = CH_SET;
		}
		uint32_t bit = 0;
		for (size_t i = 0; i < sizeof(rp_script_field_names) / sizeof(rp_script_field_names[0]);
		     i++)
			if (!strcmp(tok, rp_script_field_names[i].name))
				bit = rp_script_field_names[i].bit;
		if (!bit) {
			rp_script_seterr(err, errsz, "Invalid field requested: %s", tok);
			return RP_ERR_INVAL;
		}
		if (type >= 0 && (rp_script_invalid_fields((unsigned)type) & bit)) {
			rp_script_seterr(err, errsz, "'%s' not valid for %s events.", tok,
					 rp_script_type_msg((unsigned)type));
			return RP_ERR_INVAL;
		}
		for (int t = 0; t < RP_SCRIPT_NR_TYPES; t++) {
			if ((type >= 0 && t != type) || (rp_script_invalid_fields((unsigned)t) & bit))
				continue;
			if (change == CH_REMOVE)
				opts->fields[t] &= ~bit;
			else
				opts->fields[t] |= bit;
			if (type < 0) {
				if (change == CH_REMOVE)
					opts->named[t] &= ~bit;
				else
					opts->named[t] |= bit;
			}
			opts->user_set[t] = 1;
			opts->must_exist[t] = 0;
		}
	}
	return 0;
badmix:
	rp_script_seterr(err, errsz, "Cannot mix +-field with overridden fields");
	return RP_ERR_INVAL;
}

/*
 * perf's evsel__check_attr() for the fields readperf prints, in its
 * order: a field the event's sample_type lacks is an error when it was
 * named without a type (opts->named), else dropped; symoff without sym
 * and srcline without ip are errors whatever named them.
 */
static int rp_script_check(struct rp_script *s, const struct rp_script_opts *opts, unsigned t,
			   const struct rp_evsel *evsel, int allow_user_set, char *err,
			   size_t errsz)
{
	uint64_t st = rp_evsel_attr(evsel)->sample_type;
	uint32_t named = opts && opts->user_set[t] ? opts->named[t] : 0;
	/* perf's evsel__do_check_stype(): 1 when the field stays, 0 dropped,
	 * -1 an error (err filled). */
#define RP_CHECK_STYPE(field, need, attr, name, allow)                                      \
	do {                                                                                 \
		if ((s->fields[t] & (field)) && !(st & (need))) {                            \
			if ((named & (field)) && !(allow)) {                                 \
				rp_script_seterr(err, errsz,                                 \
						 "Samples for '%s' event do not have %s "    \
						 "attribute set. Cannot print '%s' field.",  \
						 rp_evsel_name(evsel), attr, name);          \
				return RP_ERR_INVAL;                                         \
			}                                                                    \
			if (!(named & (field)))                                              \
				s->fields[t] &= ~(uint32_t)(field);                          \
		}                                                                            \
	} while (0)

	RP_CHECK_STYPE(RP_SCRIPT_IP, RP_SAMPLE_IP, "IP", "ip", 0);
	RP_CHECK_STYPE(RP_SCRIPT_ADDR, RP_SAMPLE_ADDR, "ADDR", "addr", allow_user_set);
	RP_CHECK_STYPE(RP_SCRIPT_DATA_SRC, RP_SAMPLE_DATA_SRC, "DATA_SRC", "data_src", 0);
	RP_CHECK_STYPE(RP_SCRIPT_WEIGHT, RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT, "WEIGHT",
		       "weight", allow_user_set);
	if ((s->fields[t] & RP_SCRIPT_SYM) && !(st & (RP_SAMPLE_IP | RP_SAMPLE_ADDR))) {
		if (named & RP_SCRIPT_SYM) {
			rp_script_seterr(err, errsz,
					 "Display of symbols requested but neither sample IP nor "
					 "sample address\navailable. Hence, no addresses to "
					 "convert to symbols.");
			return RP_ERR_INVAL;
		}
		s->fields[t] &= ~(RP_SCRIPT_SYM | RP_SCRIPT_SYMOFF);
	}
	if ((s->fields[t] & RP_SCRIPT_SYMOFF) && !(s->fields[t] & RP_SCRIPT_SYM)) {
		/* sic: perf's message lacks the space */
		rp_script_seterr(err, errsz,
				 "Display of offsets requested but symbol is notselected.");
		return RP_ERR_INVAL;
	}
	if ((s->fields[t] & RP_SCRIPT_DSO) && !(st & (RP_SAMPLE_IP | RP_SAMPLE_ADDR))) {
		if (named & RP_SCRIPT_DSO) {
			rp_script_seterr(err, errsz,
					 "Display of DSO requested but no address to convert.");
			return RP_ERR_INVAL;
		}
		s->fields[t] &= ~RP_SCRIPT_DSO;
	}
	if ((s->fields[t] & RP_SCRIPT_SRCLINE) && !(s->fields[t] & RP_SCRIPT_IP)) {
		rp_script_seterr(err, errsz,
				 "Display of source line number requested but sample IP is not\n"
				 "selected. Hence, no address to lookup the source line number.");
		return RP_ERR_INVAL;
	}
	/* perf checks pid and tid as one field, which its message names ''. */
	RP_CHECK_STYPE(RP_SCRIPT_TID | RP_SCRIPT_PID, RP_SAMPLE_TID, "TID", "", 0);
	RP_CHECK_STYPE(RP_SCRIPT_TIME, RP_SAMPLE_TIME, "TIME", "time", 0);
	RP_CHECK_STYPE(RP_SCRIPT_CPU, RP_SAMPLE_CPU, "CPU", "cpu", allow_user_set);
	RP_CHECK_STYPE(RP_SCRIPT_IREGS, RP_SAMPLE_REGS_INTR, "IREGS", "iregs", allow_user_set);
	RP_CHECK_STYPE(RP_SCRIPT_UREGS, RP_SAMPLE_REGS_USER, "UREGS", "uregs", 0);
	RP_CHECK_STYPE(RP_SCRIPT_PHYS_ADDR, RP_SAMPLE_PHYS_ADDR, "PHYS_ADDR", "phys_addr",
		       allow_user_set);
	RP_CHECK_STYPE(RP_SCRIPT_DATA_PAGE_SIZE, RP_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE",
		       "data_page_size", 0);
	RP_CHECK_STYPE(RP_SCRIPT_CODE_PAGE_SIZE, RP_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE",
		       "code_page_size", 0);
	RP_CHECK_STYPE(RP_SCRIPT_INS_LAT, RP_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", "ins_lat", 0);
	/* last: tod needs the file's clock data */
	if ((s->fields[t] & RP_SCRIPT_TOD) && !s->clock_ok) {
		rp_script_seterr(err, errsz,
				 "Can't provide 'tod' time, missing clock data. Please record "
				 "with -k/--clockid option.");
		return RP_ERR_INVAL;
	}
	/* No check of PERIOD: perf 6.1 prints the attr's sample_period for
	 * events without it (-c N, a fixed period=N, page-faults), as the
	 * decoder fills it. */
#undef RP_CHECK_STYPE
	return 0;
}

/* perf's evsel__is_dummy_event(): software, PERF_COUNT_SW_DUMMY. */
#define RP_SW_DUMMY 9u /* perf_event.h's PERF_COUNT_SW_DUMMY */

static int rp_script_is_dummy(const struct rp_evsel *evsel)
{
	const struct rp_attr *a = rp_evsel_attr(evsel);

	return a->type == RP_TYPE_SOFTWARE && a->config == RP_SW_DUMMY;
}

int rp_script_new(struct rp_script **out, FILE *f, const struct rp_session *session,
		  const struct rp_script_opts *user_opts, char *err, size_t errsz)
{
	struct rp_script_opts o;
	const struct rp_script_opts *opts = &o;
	struct rp_script *s;
	size_t nr = rp_session_nr_evsels(session);
	int ret;

	if (!out || !f || !session)
		return RP_ERR_INVAL;
	*out = NULL;
	if (rp_opts_copy(&o, sizeof(o), user_opts) < 0)
		return RP_ERR_INVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return RP_ERR_NOMEM;
	s->f = f;
	s->session = session;
	s->show = opts->show;
	s->nanosecs = opts->nanosecs;
	s->time_mode = opts->time_mode;
	s->max_stack = opts->max_stack_set ? opts->max_stack : RP_DEFAULT_MAX_STACK;
	s->symbols = opts->symbols;
	/* CLOCK_DATA: u32 version, u32 clockid, u64 tod_ns, u64 clockid_ns */
	size_t csize = 0;
	const uint8_t *clk = rp_session_feature_data(session, RP_FEAT_CLOCK_DATA, &csize);

	if (clk && csize >= 24) {
		int swap = rp_session_needs_swap(session);

		s->clock_ok = 1;
		s->tod_ns = rp_load64(clk + 8, swap);
		s->clockid_ns = rp_load64(clk + 16, swap);
	}
	{
		/* Register names follow the recording's arch, as perf's. */
		const char *arch = rp_session_header(session)->arch;

		s->is_x86 = !arch || !strcmp(arch, "x86_64") || !strcmp(arch, "x86") ||
			    !strcmp(arch, "i386") || !strcmp(arch, "i686");
	}
	for (unsigned t = 0; t < RP_SCRIPT_NR_TYPES; t++)
		s->fields[t] = opts->user_set[t] ? opts->fields[t] : rp_script_default_fields(t);
	/* The first event of each type that is not a dummy decides, as
	 * perf_session__check_output_opt(); perf stat's files are not
	 * checked, AUXTRACE ones let named addr and cpu fields pass. */
	int stat = rp_session_has_feature(session, RP_FEAT_STAT);
	int allow_user_set = rp_session_has_feature(session, RP_FEAT_AUXTRACE);

	for (unsigned t = 0; t < RP_SCRIPT_NR_TYPES; t++) {
		const struct rp_evsel *first = NULL;

		for (size_t i = 0; i < nr && !first; i++) {
			const struct rp_evsel *ev = rp_session_evsel(session, i);

			if (rp_script_type_index(rp_evsel_attr(ev)->type) == t &&
			    !rp_script_is_dummy(ev))
				first = ev;
		}
		if (!first && opts->user_set[t] && opts->must_exist[t] &&
		    t != RP_SCRIPT_TYPE_SYNTH) {
			rp_script_seterr(err, errsz,
					 "%s events do not exist. Remove corresponding -F option "
					 "to proceed.",
					 rp_script_type_msg(t));
			free(s);
			return RP_ERR_INVAL;
		}
		if (!first || !s->fields[t] || stat)
			continue;
		if ((ret = rp_script_check(s, opts, t, first, allow_user_set, err, errsz)) < 0) {
			free(s);
			return ret;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		const struct rp_evsel *ev = rp_session_evsel(session, i);
		size_t len = strlen(rp_evsel_name(ev));

		if (len > RP_SCRIPT_MAX_NAME_WIDTH)
			len = RP_SCRIPT_MAX_NAME_WIDTH;
		if ((int)len > s->name_width)
			s->name_width = (int)len;
		if ((rp_evsel_attr(ev)->sample_type & RP_SAMPLE_CALLCHAIN) && !opts->hide_callchain)
			s->use_callchain = 1;
	}
	/* Tracepoints print their symbols only when they carry call stacks. */
	if (s->use_callchain && !(opts && opts->user_set[RP_TYPE_TRACEPOINT])) {
		for (size_t i = 0; i < nr; i++) {
			const struct rp_attr *a = rp_evsel_attr(rp_session_evsel(session, i));

			if (a->type == RP_TYPE_TRACEPOINT && (a->sample_type & RP_SAMPLE_CALLCHAIN)) {
				s->fields[RP_TYPE_TRACEPOINT] |= F_ALL_IP;
				break;
			}
		}
	}
	if (rp_session_has_feature(session, RP_FEAT_TRACING_DATA)) {
		s->tp_status = rp_tp_new(&s->tp, session);
		if (s->tp_status == RP_ERR_NOMEM) {
			free(s);
			return RP_ERR_NOMEM;
		}
	}
	/* Formatting on other threads, unless tracepoint fields are printed
	 * (libtraceevent writes them to the FILE itself) or the pool cannot
	 * start (then everything is formatted here). */
	unsigned nr_threads = opts->nr_threads;
	int has_tp = 0;
	for (size_t i = 0; i < nr; i++)
		if (rp_evsel_attr(rp_session_evsel(session, i))->type == RP_TYPE_TRACEPOINT)
			has_tp = 1;
	if (nr_threads >= 2 && !has_tp)
		rp_fmtpool_new(&s->pool, f, nr_threads, rp_script_format_batch, s);
	*out = s;
	return 0;
}

int rp_script_finish(struct rp_script *script)
{
	int rc = 0;

	if (!script)
		return RP_ERR_INVAL;
	if (script->pool) {
		rc = rp_fmtpool_finish(script->pool);
		rp_fmtpool_free(script->pool);
		script->pool = NULL;
	}
	if (!rc && script->lb.oom)
		rc = RP_ERR_NOMEM;
	return rc;
}

void rp_script_free(struct rp_script *script)
{
	if (!script)
		return;
	rp_fmtpool_free(script->pool);
	rp_tp_free(script->tp);
	rp_lb_release(&script->lb);
	free(script->frames);
	free(script);
}

int rp_script_trace_status(const struct rp_script *script)
{
	return script ? script->tp_status : 0;
}

/* ---- one line ----------------------------------------------------------- */

/* Writes out what the record's lines hold so far.  Returns 0, or
 * RP_ERR_NOMEM when text was dropped for want of memory. */
static int rp_script_flush(struct rp_script *s)
{
	int oom = s->lb.oom;

	if (rp_lb_flush(&s->lb, s->f) < 0 && oom)
		return RP_ERR_NOMEM;
	return 0; /* a failing FILE shows in ferror(), which the caller checks */
}

/* perf's "%5lu.%09lu: " (nanoseconds) or "%12s: " of the time in seconds
 * and microseconds, truncated. */
static void rp_script_time(struct rp_linebuf *b, uint64_t t, int nanosecs)
{
	char buf[32];
	char *end = buf + sizeof(buf), *p = end;
	uint64_t usecs = t / 1000, v;

	if (nanosecs) {
		rp_lb_u64(b, t / 1000000000u, 5, 0);
		rp_lb_putc(b, '.');
		rp_lb_u64(b, t % 1000000000u, 9, 1);
		rp_lb_putn(b, ": ", 2);
		return;
	}
	v = usecs % 1000000;
	for (int i = 0; i < 6; i++, v /= 10)
		*--p = (char)('0' + v % 10);
	*--p = '.';
	v = usecs / 1000000;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	rp_lb_pad_strn(b, p, (size_t)(end - p), 12);
	rp_lb_putn(b, ": ", 2);
}

/*
 * The time a record with `fields` shows, in record order (perf's
 * --reltime and --deltatime keep their base in statics that only records
 * printing a time move).
 */
static uint64_t rp_script_shown_time(struct rp_script *s, uint32_t fields, uint64_t t)
{
	uint64_t delta;

	if (!(fields & RP_SCRIPT_TIME) || s->time_mode == RP_SCRIPT_TIME_ABS)
		return t;
	if (s->time_mode == RP_SCRIPT_TIME_REL) {
		if (!s->time_base)
			s->time_base = t;
		return t - s->time_base;
	}
	delta = s->time_base ? t - s->time_base : 0;
	s->time_base = t;
	return delta;
}

/* perf_sample__fprintf_start()'s misc: the cpumode letters of the
 * header's misc, each tested as perf's has() does ((misc & m) == m: a
 * hypervisor record, cpumode 3, prints KUH), a record type's flag, then
 * padding to 6 columns. */
static void rp_script_misc(struct rp_linebuf *b, const struct rp_sitem *it)
{
	static const struct {
		uint16_t m;
		char c;
	} modes[] = { { 1, 'K' }, { 2, 'U' }, { 3, 'H' }, { 4, 'G' }, { 5, 'g' } };
	const uint16_t flag = 1u << 13; /* MMAP_DATA, COMM_EXEC, SWITCH_OUT */
	int n = 0;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((it->misc & modes[i].m) == modes[i].m) {
			rp_lb_putc(b, modes[i].c);
			n++;
		}
	switch (it->rtype) {
	case RP_RECORD_MMAP:
	case RP_RECORD_MMAP2:
		if (it->misc & flag) {
			rp_lb_putc(b, 'M');
			n++;
		}
		break;
	case RP_RECORD_COMM:
		if (it->misc & flag) {
			rp_lb_putc(b, 'E');
			n++;
		}
		break;
	case RP_RECORD_SWITCH:
	case RP_RECORD_SWITCH_CPU_WIDE:
		if (it->misc & flag) {
			rp_lb_putc(b, 'S');
			n++;
			if (it->misc & (1u << 14)) { /* SWITCH_OUT_PREEMPT */
				rp_lb_putc(b, 'p');
				n++;
			}
		}
		break;
	default:
		break;
	}
	/* printf's "%*s" of " ": at least the one space */
	do
		rp_lb_putc(b, ' ');
	while (++n < 6);
}

/* perf's tod_scnprintf(): the wall-clock time of t (the CLOCK_DATA
 * pair moved by t's distance from its clock reading), local time,
 * "%Y-%m-%d %H:%M:%S" and .usec (.nsec with --ns), then a space. */
static void rp_script_tod(const struct rp_script *s, struct rp_linebuf *b, uint64_t t)
{
	uint64_t tod = s->tod_ns;
	struct tm tm;
	char date[64];

	if (t > s->clockid_ns)
		tod += t - s->clockid_ns;
	else
		tod -= s->clockid_ns - t;
	time_t sec = (time_t)(tod / 1000000000u);
	uint64_t nsec = tod - (uint64_t)sec * 1000000000u;

	if (!localtime_r(&sec, &tm)) {
		rp_lb_putn(b, "failed ", 7);
		return;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	if (s->nanosecs)
		rp_lb_printf(b, "%s.%09" PRIu64 " ", date, nsec);
	else
		rp_lb_printf(b, "%s.%06" PRIu64 " ", date, nsec / 1000);
}

/* perf_sample__fprintf_start(): comm, pid/tid, cpu, misc, tod, time. */
static void rp_script_start(const struct rp_script *s, struct rp_linebuf *b,
			    const struct rp_sitem *it)
{
	uint32_t fields = it->fields;

	if (fields & RP_SCRIPT_COMM) {
		const char *comm = it->comm ? it->comm : ":-1";

		if ((fields & RP_SCRIPT_IP) && it->has_cg && s->use_callchain)
			rp_lb_puts(b, comm);
		else
			rp_lb_pad_str(b, comm, 16);
		rp_lb_putc(b, ' ');
	}
	if ((fields & RP_SCRIPT_PID) && (fields & RP_SCRIPT_TID)) {
		rp_lb_i32(b, it->pid, 5, 0);
		rp_lb_putc(b, '/');
		rp_lb_i32(b, it->tid, -5, 0);
		rp_lb_putc(b, ' ');
	} else if (fields & (RP_SCRIPT_PID | RP_SCRIPT_TID)) {
		rp_lb_i32(b, (fields & RP_SCRIPT_PID) ? it->pid : it->tid, 5, 0);
		rp_lb_putc(b, ' ');
	}
	if (fields & RP_SCRIPT_CPU) {
		rp_lb_putc(b, '[');
		rp_lb_i32(b, it->cpu, 3, 1);
		rp_lb_putn(b, "] ", 2);
	}
	if (fields & RP_SCRIPT_MISC)
		rp_script_misc(b, it);
	if (fields & RP_SCRIPT_TOD)
		rp_script_tod(s, b, it->raw_time);
	if (fields & RP_SCRIPT_TIME)
		rp_script_time(b, it->time, s->nanosecs);
}

static const char *rp_script_dso_name(const struct rp_addr_location *al)
{
	return al->dso ? rp_dso_long_name(al->dso) : "[unknown]";
}

/*
 * The srcline field of frame f (perf's map__fprintf_srcline(), or the
 * line of an inline chain's record): "file.c:12" from DWARF, else "??:0"
 * for a symbol of a file whose inline chain was looked up (other frames
 * print nothing then) ("file.c:0" where binutils names its function
 * after an STT_FILE symbol), "dso[addr]" in the kernel, a PLT entry, or
 * where a file has no symbol and binutils' addr2line finds no function
 * either (addr as perf's map__rip_2objdump() makes it); nothing without
 * a map or where addr2line finds a function perf has no symbol for
 * (what perf 6.1 prints: measured, docs/unwind.md).  0 or RP_ERR_NOMEM.
 */
static int rp_script_srcline(const struct rp_script *s, const struct rp_frame *f,
			     struct rp_sframe *out)
{
	const struct rp_addr_location *al = &f->al;
	const char *file = f->src_file;
	uint32_t line = f->src_line;
	int found = file != NULL;

	if (!al->map || !al->dso)
		return 0;
	if (!found && s->symbols) {
		found = rp_symbols_srcline(s->symbols, al->dso, al->addr, &file, &line);
		if (found < 0)
			return found;
	}
	if (found) {
		out->src_kind = RP_SRC_LINE;
		out->src = file;
		out->src_line = line;
	} else if (rp_dso_is_kernel(al->dso) || rp_dso_long_name(al->dso)[0] == '[') {
		out->src_kind = RP_SRC_DSO_ADDR;
		out->src = rp_dso_short_name(al->dso);
		out->src_addr = rp_dso_is_kernel(al->dso) ? al->ip : al->addr;
	} else {
		uint64_t shown;
		const char *a2l_file;
		int in_func =
			rp_symbols_addr_in_func(s->symbols, al->dso, al->addr, &shown, &a2l_file);

		if (rp_symbol_is_stub(al->sym) || (!al->sym && !in_func)) {
			out->src_kind = RP_SRC_DSO_ADDR;
			out->src = rp_dso_short_name(al->dso);
			out->src_addr = shown;
		} else if (al->sym && in_func && a2l_file) {
			/* addr2line's "FILE:?", named after an STT_FILE. */
			out->src_kind = RP_SRC_LINE;
			out->src = a2l_file;
			out->src_line = 0;
		} else if (al->sym && f->inline_looked_up) {
			/* perf keeps the inline lookup's line as the frame's
			 * (its srcline) and prints it as it is; elsewhere
			 * map__fprintf_srcline() drops a line starting with
			 * "??:0" (SRCLINE_UNKNOWN). */
			out->src_kind = RP_SRC_UNKNOWN;
		}
	}
	return 0;
}

/* A resolved location as a frame: the offset into its symbol as perf
 * computes it (relative to the map when the address lies past the
 * symbol). */
static struct rp_sframe rp_script_frame(const struct rp_addr_location *al, uint64_t shown)
{
	struct rp_sframe f = { shown, 0, NULL, rp_script_dso_name(al), 0, RP_SRC_NONE, 0, NULL, 0 };

	if (al->sym) {
		f.inlined = al->sym->inlined;
		f.sym = al->sym->name;
		f.symoff = al->addr < al->sym->end ?
				   al->addr - al->sym->start :
				   al->addr - (al->map ? rp_map_start(al->map) : 0) - al->sym->start;
	}
	return f;
}

/* One location: "sym+0xoff (dso)" as the chosen fields ask. */
static void rp_script_sym(struct rp_linebuf *b, uint32_t fields, const struct rp_sframe *f)
{
	if (fields & RP_SCRIPT_SYM) {
		rp_lb_putc(b, ' ');
		if (f->sym) {
			rp_lb_puts(b, f->sym);
			if (fields & RP_SCRIPT_SYMOFF) {
				rp_lb_putn(b, "+0x", 3);
				rp_lb_hex(b, f->symoff, 0);
			}
		} else {
			rp_lb_putn(b, "[unknown]", 9);
		}
	}
	/* perf's sample__fprintf_callchain(): an inlined frame says so after
	 * its source line, in place of its DSO. */
	if ((fields & RP_SCRIPT_DSO) && !f->inlined) {
		rp_lb_putn(b, " (", 2);
		rp_lb_puts(b, f->dso);
		rp_lb_putc(b, ')');
	}
	switch (f->src_kind) {
	case RP_SRC_LINE: {
		const char *slash = strrchr(f->src, '/');

		rp_lb_putn(b, "\n  ", 3);
		rp_lb_puts(b, slash ? slash + 1 : f->src);
		rp_lb_putc(b, ':');
		rp_lb_u64(b, f->src_line, 0, 0);
		break;
	}
	case RP_SRC_UNKNOWN:
		rp_lb_putn(b, "\n  ??:0", 7);
		break;
	case RP_SRC_DSO_ADDR:
		rp_lb_putn(b, "\n  ", 3);
		rp_lb_puts(b, f->src);
		rp_lb_putc(b, '[');
		rp_lb_hex(b, f->src_addr, 0);
		rp_lb_putc(b, ']');
		break;
	}
	if (f->inlined)
		rp_lb_putn(b, " (inlined)", 10);
}

/* A sample's line up to its tracepoint fields: start, period, event. */
static void rp_script_head(const struct rp_script *s, struct rp_linebuf *b,
			   const struct rp_sitem *it)
{
	rp_script_start(s, b, it);
	if (it->fields & RP_SCRIPT_PERIOD) {
		rp_lb_u64(b, it->period, 10, 0);
		rp_lb_putc(b, ' ');
	}
	if (it->fields & RP_SCRIPT_EVENT) {
		rp_lb_pad_str(b, it->event, s->name_width);
		rp_lb_putn(b, ": ", 2);
	}
}

/* perf's get_page_size_name(): "N/A" for 0, else the size in the
 * largest of B, K, M, G that leaves more than 1 (units.c's
 * unit_number__scnprintf(): 1024 stays "1024B"). */
static void rp_script_page_size(struct rp_linebuf *b, uint64_t bytes)
{
	static const char units[] = "BKMG";
	int i = 0;

	rp_lb_putc(b, ' ');
	if (!bytes) {
		rp_lb_putn(b, "N/A", 3);
		return;
	}
	while (bytes / 1024 > 1 && i < 3) {
		bytes /= 1024;
		i++;
	}
	rp_lb_u64(b, bytes, 0, 0);
	rp_lb_putc(b, units[i]);
}

/* perf's data_src__fprintf() text buffers (100 bytes: texts are cut
 * to 99 characters) */
#define RP_SCRIPT_DATA_SRC_TEXT 100

/* Appends part (n bytes) to buf (*len of RP_SCRIPT_DATA_SRC_TEXT) as
 * scnprintf() would, cut to 99. */
static void rp_ds_add(char *buf, size_t *len, const char *part, size_t n)
{
	size_t room = RP_SCRIPT_DATA_SRC_TEXT - 1 - *len;

	if (n > room)
		n = room;
	memcpy(buf + *len, part, n);
	*len += n;
	buf[*len] = '\0';
}

/*
 * perf's data_src__fprintf() text: "%16lx " then
 * perf_script__meminfo_scnprintf()'s "|OP x|LVL x|SNP x|TLB x|LCK x|BLK x"
 * (mem-events.c: the op is the first of N/A LOAD STORE PFETCH EXEC set,
 * else "No"; the others as perf report's mem keys print them), each cut
 * as perf's 100-byte buffers cut them.  Returns the length.
 */
static size_t rp_script_data_src(char *out, uint64_t ds)
{
	static const char *const ops[] = { "N/A", "LOAD", "STORE", "PFETCH", "EXEC" };
	static const struct {
		const char *tag;
		size_t (*text)(uint64_t, char *, size_t);
	} parts[] = {
		{ "|LVL ", rp_mem_lvl_text },  { "|SNP ", rp_mem_snoop_text },
		{ "|TLB ", rp_mem_tlb_text },  { "|LCK ", rp_mem_lock_text },
		{ "|BLK ", rp_mem_blk_text },
	};
	char decode[RP_SCRIPT_DATA_SRC_TEXT], part[RP_SCRIPT_DATA_SRC_TEXT];
	const char *op = "No";
	size_t len = 0, n;

	decode[0] = '\0';
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ds & (1u << i)) { /* PERF_MEM_OP_NA, _LOAD, ... */
			op = ops[i];
			break;
		}
	rp_ds_add(decode, &len, "|OP ", 4);
	rp_ds_add(decode, &len, op, strlen(op));
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		rp_ds_add(decode, &len, parts[i].tag, 5);
		n = parts[i].text(ds, part, sizeof(part));
		rp_ds_add(decode, &len, part, n);
	}
	n = (size_t)snprintf(out, RP_SCRIPT_DATA_SRC_TEXT, "%16" PRIx64 " %s", ds, decode);
	return n < RP_SCRIPT_DATA_SRC_TEXT ? n : RP_SCRIPT_DATA_SRC_TEXT - 1;
}

/* The rest of a sample: addr, weight, the ip or the call stack, then
 * phys_addr and the page sizes (after the stack, as perf), the
 * newline. */
static void rp_script_tail(struct rp_linebuf *b, const struct rp_sitem *it,
			   const struct rp_sframe *frames, const char *regs)
{
	if (it->fields & RP_SCRIPT_ADDR) {
		rp_lb_hex(b, it->addr, 16);
		if (it->addr_resolved)
			rp_script_sym(b, it->fields, &it->addr_at);
	}
	if (it->fields & RP_SCRIPT_DATA_SRC) {
		char text[RP_SCRIPT_DATA_SRC_TEXT];
		size_t n = rp_script_data_src(text, it->data_src);

		rp_lb_pad_strn(b, text, n, -(int)it->data_src_width);
	}
	if (it->fields & RP_SCRIPT_WEIGHT)
		rp_lb_u64(b, it->weight, 16, 0);
	if (it->fields & RP_SCRIPT_INS_LAT)
		rp_lb_u64(b, it->ins_lat, 16, 0);
	if (it->fields & RP_SCRIPT_IP) {
		rp_lb_putc(b, it->cursor ? '\n' : ' ');
		for (uint32_t i = 0; i < it->nr; i++) {
			if (it->cursor)
				rp_lb_putc(b, '\t');
			rp_lb_hex(b, frames[i].shown, 16);
			rp_script_sym(b, it->fields, &frames[i]);
			if (it->cursor)
				rp_lb_putc(b, '\n');
		}
	}
	rp_lb_putn(b, regs, it->regs_len);
	if (it->fields & RP_SCRIPT_PHYS_ADDR)
		rp_lb_hex(b, it->phys_addr, 16);
	if (it->fields & RP_SCRIPT_DATA_PAGE_SIZE)
		rp_script_page_size(b, it->data_page_size);
	if (it->fields & RP_SCRIPT_CODE_PAGE_SIZE)
		rp_script_page_size(b, it->code_page_size);
	rp_lb_putc(b, '\n');
}

/* Formats a batch of gathered items (the pool's function). */
static int rp_script_format_batch(void *ctx, const void *data, size_t size,
				  struct rp_linebuf *out)
{
	const struct rp_script *s = ctx;
	const uint8_t *p = data, *end = p + size;

	while (p < end) {
		const struct rp_sitem *it = (const struct rp_sitem *)(const void *)p;
		size_t tail = it->kind == RP_SITEM_TEXT ? it->nr
							: it->nr * sizeof(struct rp_sframe) + it->regs_len;

		if (it->kind == RP_SITEM_TEXT) {
			rp_lb_putn(out, (const char *)(it + 1), it->nr);
		} else {
			const struct rp_sframe *frames = (const struct rp_sframe *)(it + 1);

			rp_script_head(s, out, it);
			rp_script_tail(out, it, frames, (const char *)(frames + it->nr));
		}
		p += (sizeof(*it) + tail + 7) & ~(size_t)7;
	}
	return out->oom ? RP_ERR_NOMEM : 0;
}

/* The most bytes of one register set's text: " ABI:N " and 64
 * registers, "%5s:0x%lx " each. */
#define RP_SCRIPT_REGS_TEXT (32 + 64 * 32)

/*
 * perf's perf_sample__fprintf_regs(): " ABI:2 " then "   AX:0x1 " for
 * each register of the mask, names as perf_reg_name() gives them on the
 * recording's arch (x86: AX ... R15, XMM0 ...; an id without a name
 * prints "(null)", glibc's text for perf's NULL); nothing for a sample
 * without registers (ABI 0).  Writes at most RP_SCRIPT_REGS_TEXT bytes
 * into buf, no NUL; returns the count.
 */
static uint32_t rp_script_regs(char *buf, const struct rp_regs *r, int is_x86)
{
	size_t n = 0;
	uint32_t i = 0;

	if (!r->abi)
		return 0;
	n += (size_t)snprintf(buf, RP_SCRIPT_REGS_TEXT, " ABI:%" PRIu64 " ", r->abi);
	for (unsigned bit = 0; bit < 64 && i < r->nr && n < RP_SCRIPT_REGS_TEXT; bit++) {
		if (!(r->mask & (1ull << bit)))
			continue;
		const char *name = is_x86 ? rp_reg_name_x86(bit) : "unknown";
		int w = snprintf(buf + n, RP_SCRIPT_REGS_TEXT - n, "%5s:0x%" PRIx64 " ",
				 name ? name : "(null)", r->regs[i++]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
	return (uint32_t)(n < RP_SCRIPT_REGS_TEXT ? n : RP_SCRIPT_REGS_TEXT - 1);
}

/* perf's sample_addr_correlates_sym(): the addr of a page fault (BTS,
 * the other case, is an instruction trace readperf does not decode). */
static int rp_script_addr_correlates(const struct rp_attr *a)
{
	return a->type == RP_TYPE_SOFTWARE &&
	       (a->config == 2 || a->config == 5 || a->config == 6); /* PAGE_FAULTS{,_MIN,_MAJ} */
}

/* perf's perf_sample__fprintf_addr(): the sample's addr looked up as
 * thread__resolve() does (thread__find_map_fb(): in the sample's space,
 * then in the other one), objects' symbols included.  0 or
 * RP_ERR_NOMEM. */
static int rp_script_resolve_addr(struct rp_script *s, const struct rp_event *ev,
				  const struct rp_resolved *res, struct rp_sframe *out)
{
	const struct rp_sample *d = &ev->u.sample;
	struct rp_addr_location al;
	uint8_t mode = (uint8_t)(ev->misc & RP_MISC_CPUMODE_MASK);
	int found = 0;

	memset(&al, 0, sizeof(al));
	for (int pass = 0; pass < 2 && !found && s->machine && res->thread; pass++) {
		if (pass)
			mode = mode == RP_MISC_KERNEL ? RP_MISC_USER : RP_MISC_KERNEL;
		found = s->symbols ? rp_symbols_resolve(s->symbols, s->machine, res->thread, mode,
							d->addr, &al)
				   : rp_machine_find_map(s->machine, res->thread, mode, d->addr, &al);
		if (found < 0)
			return found;
	}
	if (!found)
		memset(&al, 0, sizeof(al));
	*out = rp_script_frame(&al, d->addr);
	return 0;
}

static int rp_script_sample(struct rp_script *s, const struct rp_event *ev,
			    const struct rp_resolved *res)
{
	const struct rp_sample *d = &ev->u.sample;
	const struct rp_attr *attr = rp_evsel_attr(ev->evsel);
	unsigned t = rp_script_type_index(attr->type);
	struct rp_sitem it = { .kind = RP_SITEM_SAMPLE, .fields = s->fields[t] };

	if (!it.fields)
		return 0; /* every field of this type was dropped, as in perf */
	it.has_cg = (attr->sample_type & RP_SAMPLE_CALLCHAIN) != 0;
	/* an empty stack too, as perf; but perf's unwinder refuses
	 * --max-stack 0 (-EINVAL) for a sample with a user stack to walk,
	 * and perf script then prints the sample as one without a stack */
	it.cursor = s->use_callchain && it.has_cg &&
		    !(s->max_stack == 0 &&
		      (attr->sample_type & (RP_SAMPLE_REGS_USER | RP_SAMPLE_STACK_USER)) ==
			      (RP_SAMPLE_REGS_USER | RP_SAMPLE_STACK_USER) &&
		      d->regs_user.abi && d->stack_user_dyn_size);
	it.pid = (int32_t)ev->sid.pid;
	it.tid = (int32_t)ev->sid.tid;
	it.cpu = (int32_t)ev->sid.cpu;
	it.time = rp_script_shown_time(s, it.fields, ev->sid.time);
	it.raw_time = ev->sid.time;
	it.rtype = ev->type;
	it.misc = ev->misc;
	it.period = d->period;
	it.addr = d->addr;
	/* perf's evsel__parse_sample(): WEIGHT_STRUCT's first part is the
	 * weight, its second the instruction latency */
	if (attr->sample_type & RP_SAMPLE_WEIGHT_STRUCT) {
		it.weight = d->weight_var1_dw;
		it.ins_lat = d->weight_var2_w;
	} else {
		it.weight = d->weight;
	}
	if (it.fields & RP_SCRIPT_DATA_SRC) {
		char text[RP_SCRIPT_DATA_SRC_TEXT];
		uint32_t n = (uint32_t)rp_script_data_src(text, d->data_src);

		if (n > s->data_src_width)
			s->data_src_width = n;
		it.data_src = d->data_src;
		it.data_src_width = s->data_src_width;
	}
	it.phys_addr = d->phys_addr;
	it.data_page_size = d->data_page_size;
	it.code_page_size = d->code_page_size;
	if ((it.fields & RP_SCRIPT_ADDR) && (it.fields & (RP_SCRIPT_SYM | RP_SCRIPT_DSO)) &&
	    rp_script_addr_correlates(attr)) {
		int rc = rp_script_resolve_addr(s, ev, res, &it.addr_at);

		if (rc < 0)
			return rc;
		it.addr_resolved = 1;
	}
	it.comm = res->comm;
	it.event = rp_evsel_name(ev->evsel);
	/* iregs and uregs as text, copied with the item (the record's
	 * bytes do not outlive it) */
	char regs[2 * RP_SCRIPT_REGS_TEXT];

	if (it.fields & RP_SCRIPT_IREGS)
		it.regs_len = rp_script_regs(regs, &d->regs_intr, s->is_x86);
	if (it.fields & RP_SCRIPT_UREGS)
		it.regs_len += rp_script_regs(regs + it.regs_len, &d->regs_user, s->is_x86);
	struct rp_chain_pick pick = { .nr = 0 };
	uint32_t max_frames = RP_SCRIPT_MAX_FRAMES - (it.regs_len + sizeof(struct rp_sframe) - 1) /
							     sizeof(struct rp_sframe);

	if ((it.fields & RP_SCRIPT_IP) && it.cursor)
		rp_chain_pick(&pick, res->callchain, res->nr_callchain, s->max_stack, 0);
	if (it.fields & RP_SCRIPT_IP)
		it.nr = !it.cursor ? 1 : pick.nr < max_frames ? pick.nr : max_frames;

	struct rp_sframe *frames;
	struct rp_sitem *at = NULL;
	if (s->pool) {
		at = rp_fmtpool_reserve(s->pool,
					sizeof(it) + it.nr * sizeof(*frames) + it.regs_len);
		if (!at)
			return rp_fmtpool_failure(s->pool);
		frames = (struct rp_sframe *)(at + 1);
		memcpy(frames + it.nr, regs, it.regs_len);
	} else {
		if (it.nr > s->frames_alloc) {
			uint32_t want = it.nr > 128 ? it.nr : 128;
			struct rp_sframe *v = realloc(s->frames, want * sizeof(*v));

			if (!v)
				return RP_ERR_NOMEM;
			s->frames = v;
			s->frames_alloc = want;
		}
		frames = s->frames;
	}
	if (it.cursor) {
		for (uint32_t i = 0; i < it.nr; i++) {
			const struct rp_frame *fr = &res->callchain[rp_chain_pick_index(&pick, i)];
			const struct rp_addr_location *al = &fr->al;
			/* user-space frames show the DSO-relative address */
			uint64_t shown = al->map && al->dso && !rp_dso_is_kernel(al->dso) ? al->addr
											   : al->ip;

			frames[i] = rp_script_frame(al, shown);
			int rc = (it.fields & RP_SCRIPT_SRCLINE) ?
					 rp_script_srcline(s, fr, &frames[i]) : 0;

			if (rc < 0)
				return rc;
		}
	} else if (it.nr) {
		struct rp_frame one = { .al = res->al };
		int rc;

		frames[0] = rp_script_frame(&res->al, d->ip);
		rc = (it.fields & RP_SCRIPT_SRCLINE) ? rp_script_srcline(s, &one, &frames[0]) : 0;
		if (rc < 0)
			return rc;
	}
	if (at) {
		*at = it;
		return 0;
	}
	rp_script_head(s, &s->lb, &it);
	if ((it.fields & RP_SCRIPT_TRACE) && d->raw) {
		int rc = rp_script_flush(s);

		if (rc < 0)
			return rc;
		rp_tp_print(s->tp, ev->evsel, d, s->f);
	}
	rp_script_tail(&s->lb, &it, frames, regs);
	return rp_script_flush(s);
}

/* ---- sideband (perf_event__fprintf) ------------------------------------- */

static void rp_script_side_body(struct rp_linebuf *b, const struct rp_event *ev)
{
	switch (ev->type) {
	case RP_RECORD_COMM:
		rp_lb_printf(b, "PERF_RECORD_COMM%s: %s:%d/%d\n", ev->u.comm.exec ? " exec" : "",
			ev->u.comm.comm, (int32_t)ev->u.comm.pid, (int32_t)ev->u.comm.tid);
		break;
	case RP_RECORD_FORK:
	case RP_RECORD_EXIT:
		rp_lb_printf(b, "PERF_RECORD_%s(%d:%d):(%d:%d)\n",
			ev->type == RP_RECORD_FORK ? "FORK" : "EXIT", (int32_t)ev->u.task.pid,
			(int32_t)ev->u.task.tid, (int32_t)ev->u.task.ppid, (int32_t)ev->u.task.ptid);
		break;
	case RP_RECORD_MMAP:
		rp_lb_printf(b, "PERF_RECORD_MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			(int32_t)ev->u.mmap.pid, (int32_t)ev->u.mmap.tid, ev->u.mmap.start,
			ev->u.mmap.len, ev->u.mmap.pgoff, (ev->misc & RP_MISC_MMAP_DATA) ? 'r' : 'x',
			ev->u.mmap.filename);
		break;
	case RP_RECORD_MMAP2: {
		const struct rp_mmap_event *m = &ev->u.mmap;
		char perms[5] = {
			(m->prot & 1) ? 'r' : '-', (m->prot & 2) ? 'w' : '-',
			(m->prot & 4) ? 'x' : '-', (m->flags & 1) ? 's' : 'p', 0,
		};

		rp_lb_printf(b, "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64,
			(int32_t)m->pid, (int32_t)m->tid, m->start, m->len, m->pgoff);
		if (m->has_build_id) {
			char hex[RP_BUILD_ID_HEX];

			rp_lb_printf(b, " <%s>", rp_build_id_hex(hex, m->build_id, m->build_id_size));
		} else {
			rp_lb_printf(b, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
				m->ino_generation);
		}
		rp_lb_printf(b, "]: %s %s\n", perms, m->filename);
		break;
	}
	case RP_RECORD_SWITCH:
	case RP_RECORD_SWITCH_CPU_WIDE: {
		const char *in_out = !ev->u.sw.out ? "IN         " :
				     !ev->u.sw.preempt ? "OUT        " :
							 "OUT preempt";

		if (ev->type == RP_RECORD_SWITCH)
			rp_lb_printf(b, "PERF_RECORD_SWITCH %s\n", in_out);
		else
			rp_lb_printf(b, "PERF_RECORD_SWITCH_CPU_WIDE %s  %s pid/tid: %5d/%-5d\n", in_out,
				ev->u.sw.out ? "next" : "prev", (int32_t)ev->u.sw.next_prev_pid,
				(int32_t)ev->u.sw.next_prev_tid);
		break;
	}
	case RP_RECORD_NAMESPACES: {
		static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
		const struct rp_namespaces_event *n = &ev->u.namespaces;
		const uint8_t *li = n->link_info;

		rp_lb_printf(b, "PERF_RECORD_NAMESPACES %d/%d - nr_namespaces: %" PRIu64 "\n\t\t[",
			(int32_t)n->pid, (int32_t)n->tid, n->nr);
		for (uint64_t i = 0; i < n->nr; i++) {
			if (i && i % 4 == 0)
				rp_lb_puts(b, "\n\t\t ");
			rp_lb_printf(b, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
				i < 7 ? ns[i] : "UNKNOWN", rp_load64(li + 16 * i, n->swap),
				rp_load64(li + 16 * i + 8, n->swap), i + 1 != n->nr ? ", " : "]\n");
		}
		break;
	}
	case RP_RECORD_CGROUP:
		rp_lb_printf(b, "PERF_RECORD_CGROUP cgroup: %" PRIu64 " %s\n", ev->u.cgroup.id,
			ev->u.cgroup.path);
		break;
	case RP_RECORD_LOST:
		rp_lb_printf(b, "PERF_RECORD_LOST lost %" PRIu64 "\n", ev->u.lost.lost);
		break;
	case RP_RECORD_FINISHED_ROUND:
		rp_lb_puts(b, "PERF_RECORD_FINISHED_ROUND\n");
		break;
	case RP_RECORD_KSYMBOL:
		rp_lb_printf(b,
			"PERF_RECORD_KSYMBOL addr %" PRIx64 " len %u type %u flags 0x%x name %s\n",
			ev->u.ksymbol.addr, ev->u.ksymbol.len, ev->u.ksymbol.ksym_type,
			ev->u.ksymbol.flags, ev->u.ksymbol.name);
		break;
	case RP_RECORD_BPF_EVENT:
		rp_lb_printf(b, "PERF_RECORD_BPF_EVENT type %u, flags %u, id %u\n", ev->u.bpf.type,
			ev->u.bpf.flags, ev->u.bpf.id);
		break;
	default:
		break;
	}
}

/* perf's binary__fprintf() with text_poke_printer(): 16 bytes a line,
 * "            Old bytes: 0f 1f ..." (or New). */
static void rp_script_poke_bytes(struct rp_linebuf *b, const uint8_t *p, uint32_t n,
				 const char *which)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i % 16 == 0)
			rp_lb_printf(b, "            %s bytes:", which);
		rp_lb_printf(b, " %02x", p[i]);
		if (i % 16 == 15 || i + 1 == n)
			rp_lb_putc(b, '\n');
	}
}

/*
 * perf's perf_event__fprintf_text_poke() with its machine: the address,
 * "sym+0xoff" when a kernel map holds it and it has a symbol there, the
 * lengths, then the old and the new bytes.  0 or RP_ERR_NOMEM.
 */
static int rp_script_text_poke(struct rp_script *s, struct rp_linebuf *b,
			       const struct rp_text_poke_event *tp)
{
	struct rp_addr_location al;
	int found = 0;

	rp_lb_printf(b, "PERF_RECORD_TEXT_POKE %" PRIx64 " ", tp->addr);
	memset(&al, 0, sizeof(al));
	if (s->machine)
		found = s->symbols ? rp_symbols_resolve(s->symbols, s->machine, NULL, RP_MISC_KERNEL,
							tp->addr, &al)
				   : rp_machine_find_map(s->machine, NULL, RP_MISC_KERNEL, tp->addr,
							 &al);
	if (found < 0)
		return found;
	if (found && al.sym) {
		struct rp_sframe f = rp_script_frame(&al, tp->addr);

		rp_lb_printf(b, "%s+0x%" PRIx64, f.sym, f.symoff);
	}
	rp_lb_printf(b, " old len %u new len %u\n", tp->old_len, tp->new_len);
	rp_script_poke_bytes(b, tp->bytes, tp->old_len, "Old");
	rp_script_poke_bytes(b, tp->bytes + tp->old_len, tp->new_len, "New");
	return 0;
}

/* Writes the line buffer's text of a sideband record (it: its start;
 * NULL: none), in turn with the samples. */
static int rp_script_side_text(struct rp_script *s, const struct rp_sitem *start)
{
	if (!s->pool)
		return rp_script_flush(s);
	/* In turn with the samples: as a text item. */
	if (s->lb.oom)
		return RP_ERR_NOMEM;
	struct rp_sitem *at = rp_fmtpool_reserve(s->pool, sizeof(*at) + s->lb.len);
	if (!at)
		return rp_fmtpool_failure(s->pool);
	struct rp_sitem it = start ? *start : (struct rp_sitem){ .kind = RP_SITEM_TEXT };

	it.nr = (uint32_t)s->lb.len;
	*at = it;
	memcpy(at + 1, s->lb.p, s->lb.len);
	s->lb.len = 0;
	return 0;
}

static int rp_script_sideband(struct rp_script *s, const struct rp_event *ev)
{
	unsigned want;
	int32_t pid = -1, tid = -1;
	uint64_t time = 0;

	switch (ev->type) {
	case RP_RECORD_COMM:
		want = RP_SCRIPT_SHOW_TASK;
		pid = (int32_t)ev->u.comm.pid;
		tid = (int32_t)ev->u.comm.tid;
		break;
	case RP_RECORD_FORK:
	case RP_RECORD_EXIT:
		want = RP_SCRIPT_SHOW_TASK;
		pid = (int32_t)ev->u.task.pid;
		tid = (int32_t)ev->u.task.tid;
		time = ev->u.task.time;
		break;
	case RP_RECORD_MMAP:
	case RP_RECORD_MMAP2:
		want = RP_SCRIPT_SHOW_MMAP;
		pid = (int32_t)ev->u.mmap.pid;
		tid = (int32_t)ev->u.mmap.tid;
		time = ev->sid.time;
		break;
	case RP_RECORD_SWITCH:
	case RP_RECORD_SWITCH_CPU_WIDE:
		want = RP_SCRIPT_SHOW_SWITCH;
		pid = (int32_t)ev->sid.pid;
		tid = (int32_t)ev->sid.tid;
		time = ev->sid.time;
		break;
	case RP_RECORD_NAMESPACES:
		/* perf's process_namespaces_event(): the comm of the record's
		 * thread, time 0 without a sample_id_all trailer */
		want = RP_SCRIPT_SHOW_NAMESPACE;
		pid = (int32_t)ev->u.namespaces.pid;
		tid = (int32_t)ev->u.namespaces.tid;
		break;
	case RP_RECORD_CGROUP:
	case RP_RECORD_LOST:
	case RP_RECORD_KSYMBOL:
	case RP_RECORD_BPF_EVENT:
	case RP_RECORD_TEXT_POKE:
		/* process_cgroup_event(), print_event(): the trailer's thread
		 * (none without one), time 0 without it; perf's
		 * --show-text-poke-events shows KSYMBOL too */
		want = ev->type == RP_RECORD_CGROUP	? RP_SCRIPT_SHOW_CGROUP :
		       ev->type == RP_RECORD_LOST	? RP_SCRIPT_SHOW_LOST :
		       ev->type == RP_RECORD_BPF_EVENT ? RP_SCRIPT_SHOW_BPF :
		       ev->type == RP_RECORD_KSYMBOL	? RP_SCRIPT_SHOW_BPF | RP_SCRIPT_SHOW_TEXT_POKE :
							  RP_SCRIPT_SHOW_TEXT_POKE;
		if (ev->sid.present & RP_SAMPLE_TID) {
			pid = (int32_t)ev->sid.pid;
			tid = (int32_t)ev->sid.tid;
		}
		break;
	case RP_RECORD_FINISHED_ROUND:
		/* perf's process_finished_round_event(): the record alone */
		if (!(s->show & RP_SCRIPT_SHOW_ROUND))
			return 0;
		rp_script_side_body(&s->lb, ev);
		return rp_script_side_text(s, NULL);
	default:
		return 0;
	}
	if (!(s->show & want))
		return 0;

	const struct rp_evsel *evsel = ev->evsel;
	if (!evsel && rp_session_nr_evsels(s->session) == 1)
		evsel = rp_session_evsel(s->session, 0);
	if (!evsel)
		return 0;
	const struct rp_attr *attr = rp_evsel_attr(evsel);
	struct rp_sample_id sid = ev->sid;
	if (!(attr->flags & RP_ATTR_SAMPLE_ID_ALL)) {
		/* no trailer: perf shows cpu 0 and the record's own ids */
		sid.cpu = 0;
		sid.time = time;
		sid.pid = (uint32_t)pid;
		sid.tid = (uint32_t)tid;
		sid.present |= RP_SAMPLE_CPU;
	}
	/* perf script's filter_cpu(): a record without a cpu is shown. */
	if ((sid.present & RP_SAMPLE_CPU) && rp_filter_cpu_drops(s->filter, sid.cpu))
		return 0;
	const char *comm = NULL;
	if (tid != -1 && s->machine) {
		struct rp_thread *th = rp_machine_findnew_thread(s->machine, (uint32_t)pid,
								  (uint32_t)tid);

		if (!th)
			return RP_ERR_NOMEM;
		comm = rp_thread_comm(th);
	}
	struct rp_sitem it = {
		.kind = RP_SITEM_TEXT,
		.fields = s->fields[rp_script_type_index(attr->type)],
		.has_cg = (attr->sample_type & RP_SAMPLE_CALLCHAIN) != 0,
		.pid = (int32_t)sid.pid,
		.tid = (int32_t)sid.tid,
		.cpu = (int32_t)sid.cpu,
		.comm = comm,
	};
	it.time = rp_script_shown_time(s, it.fields, sid.time);
	it.raw_time = sid.time;
	it.rtype = ev->type;
	it.misc = ev->misc;
	rp_script_start(s, &s->lb, &it);
	if (ev->type == RP_RECORD_TEXT_POKE) {
		int rc = rp_script_text_poke(s, &s->lb, &ev->u.text_poke);

		if (rc < 0)
			return rc;
	} else {
		rp_script_side_body(&s->lb, ev);
	}
	return rp_script_side_text(s, &it);
}

static int rp_script_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_script *s = ctx;

	if (ev->type == RP_RECORD_SAMPLE) {
		if (res && ev->evsel)
			return rp_script_sample(s, ev, res);
		return 0;
	}
	return rp_script_sideband(s, ev);
}

void rp_script_set_machine(struct rp_script *script, struct rp_machine *machine)
{
	script->machine = machine;
	/* Function pointers of tracepoint fields as perf script prints them
	 * (sym+off); should this allocation fail they stay hex. */
	(void)rp_tp_set_kernel(script->tp, machine, script->symbols);
}

void rp_script_set_filter(struct rp_script *script, const struct rp_filter *filter)
{
	script->filter = filter;
}

struct rp_consumer rp_script_consumer(struct rp_script *script)
{
	struct rp_consumer c = { script, rp_script_event,
				 script->use_callchain ? RP_CONSUMER_CALLCHAIN : 0 };
	return c;
}

static int rp_script_output_create(void **state, const struct rp_output_env *env,
				   const void *opts, const struct rp_output_target *target,
				   struct rp_error *err)
{
	struct rp_script_opts o;
	struct rp_script *s;
	char msg[RP_ERROR_MSG_MAX];
	int ret;

	if (rp_opts_copy(&o, sizeof(o), opts) < 0)
		return rp_error_set(err, RP_ERR_INVAL, "bad options");
	o.symbols = env->symbols;
	msg[0] = 0;
	ret = rp_script_new(&s, target->stream, env->session, &o, msg, sizeof(msg));
	if (ret < 0)
		return rp_error_set(err, ret, "%s", msg[0] ? msg : rp_strerror(ret));
	rp_script_set_machine(s, env->machine);
	rp_script_set_filter(s, env->filter);
	*state = s;
	return 0;
}

static struct rp_consumer rp_script_output_consumer(void *state)
{
	return rp_script_consumer(state);
}

static int rp_script_output_finish(void *state, struct rp_error *err)
{
	struct rp_script *s = state;
	int ret = rp_script_finish(s);

	if (ret == RP_ERR_IO || fflush(s->f) != 0 || ferror(s->f))
		return rp_error_set(err, RP_ERR_IO, "cannot write the output");
	return ret < 0 ? rp_error_set(err, ret, "%s", rp_strerror(ret)) : 0;
}

static void rp_script_output_destroy(void *state)
{
	rp_script_free(state);
}

static const char *rp_script_output_warnings(void *state)
{
	const struct rp_script *s = state;

	if (s->tp_status == RP_ERR_UNSUPPORTED)
		return "built without libtraceevent: tracepoint fields are not shown";
	if (s->tp_status < 0)
		return "damaged TRACING_DATA section: tracepoint fields are not shown";
	return NULL;
}

const struct rp_output_def rp_output_script = {
	.name = "script",
	.flags = RP_OUTPUT_SYMBOLS,
	.create = rp_script_output_create,
	.consumer = rp_script_output_consumer,
	.finish = rp_script_output_finish,
	.destroy = rp_script_output_destroy,
	.warnings = rp_script_output_warnings,
};
