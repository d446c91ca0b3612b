/* SPDX-License-Identifier: MIT */
/*
 * The rows of perf's database export (dbexport_int.h): ids for events,
 * the machine, threads, comms, DSOs, symbols and call paths given as
 * perf 6.1's db-export gives them, and one row per sample and per context
 * switch, handed to a backend.
 */
#include "outputs/dbexport_int.h"
#include "process_int.h"
#include "symbols/buildid_int.h"

#include <stdlib.h>
#include <string.h>

#include <readperf/machine.h>
#include <readperf/session.h>
#include <readperf/symbols.h>

#include "common/array.h"
#include "common/error_int.h"
#include "common/hashmap.h"
#include "common/hex.h"
#include "machine/machine_int.h"

/* perf's PERF_MAX_STACK_DEPTH: db-export resolves call chains with it,
 * root first, so the outermost frames are the ones kept. */
#define RP_DBX_MAX_STACK 127
/* Caps on the objects one export names (each is a row and a map entry). */
#define RP_DBX_MAX_CALL_PATHS (256u << 20)
#define RP_DBX_MAX_UNKNOWN_SYMBOLS (64u << 20)
/* perf's PERF_TYPE_TRACEPOINT: such samples go to the script's
 * tracepoint handlers, not to the samples table. */
#define RP_DBX_TYPE_TRACEPOINT 2u
#define RP_DBX_TYPE_SOFTWARE 1u
/* perf_event.h's PERF_MEM_DATA_SRC_NONE: op, level, snoop, lock and tlb
 * all "not available". */
#define RP_DBX_DATA_SRC_NONE 0x5080021
/* perf's PERF_IP_FLAG_* bits (util/event.h), for the branch types. */
#define RP_IPF_BRANCH 1u
#define RP_IPF_CALL 2u
#define RP_IPF_RETURN 4u
#define RP_IPF_CONDITIONAL 8u
#define RP_IPF_SYSCALLRET 16u
#define RP_IPF_ASYNC 32u
#define RP_IPF_INTERRUPT 64u
#define RP_IPF_TX_ABORT 128u
#define RP_IPF_TRACE_BEGIN 256u
#define RP_IPF_TRACE_END 512u
#define RP_IPF_VMENTRY 2048u
#define RP_IPF_VMEXIT 4096u

/* ------------------------------------------------------------- the tables */

#define COLS(a) a, sizeof(a) / sizeof(a[0])

static const struct rp_dbx_column rp_cols_selected_events[] = {
	{ "id", RP_DBX_BIGINT, 0 }, { "name", RP_DBX_TEXT, 80 },
};
static const struct rp_dbx_column rp_cols_machines[] = {
	{ "id", RP_DBX_BIGINT, 0 }, { "pid", RP_DBX_INT, 0 }, { "root_dir", RP_DBX_TEXT, 4096 },
};
static const struct rp_dbx_column rp_cols_threads[] = {
	{ "id", RP_DBX_BIGINT, 0 },	  { "machine_id", RP_DBX_BIGINT, 0 },
	{ "process_id", RP_DBX_BIGINT, 0 }, { "pid", RP_DBX_INT, 0 },
	{ "tid", RP_DBX_INT, 0 },
};
static const struct rp_dbx_column rp_cols_comms[] = {
	{ "id", RP_DBX_BIGINT, 0 },	  { "comm", RP_DBX_TEXT, 16 },
	{ "c_thread_id", RP_DBX_BIGINT, 0 }, { "c_time", RP_DBX_BIGINT, 0 },
	{ "exec_flag", RP_DBX_BOOL, 0 },
};
static const struct rp_dbx_column rp_cols_comm_threads[] = {
	{ "id", RP_DBX_BIGINT, 0 },
	{ "comm_id", RP_DBX_BIGINT, 0 },
	{ "thread_id", RP_DBX_BIGINT, 0 },
};
static const struct rp_dbx_column rp_cols_dsos[] = {
	{ "id", RP_DBX_BIGINT, 0 },	       { "machine_id", RP_DBX_BIGINT, 0 },
	{ "short_name", RP_DBX_TEXT, 256 }, { "long_name", RP_DBX_TEXT, 4096 },
	{ "build_id", RP_DBX_TEXT, 64 },
};
static const struct rp_dbx_column rp_cols_symbols[] = {
	{ "id", RP_DBX_BIGINT, 0 },	   { "dso_id", RP_DBX_BIGINT, 0 },
	{ "sym_start", RP_DBX_BIGINT, 0 }, { "sym_end", RP_DBX_BIGINT, 0 },
	{ "binding", RP_DBX_INT, 0 },	   { "name", RP_DBX_TEXT, 2048 },
};
static const struct rp_dbx_column rp_cols_branch_types[] = {
	{ "id", RP_DBX_INT, 0 },
	{ "name", RP_DBX_TEXT, 80 },
};
/* The samples' columns; with `branches` period, weight, transaction and
 * data_src are left out. */
#define RP_SAMPLE_COLS_HEAD                                                             \
	{ "id", RP_DBX_BIGINT, 0 }, { "evsel_id", RP_DBX_BIGINT, 0 },                   \
	{ "machine_id", RP_DBX_BIGINT, 0 }, { "thread_id", RP_DBX_BIGINT, 0 },          \
	{ "comm_id", RP_DBX_BIGINT, 0 }, { "dso_id", RP_DBX_BIGINT, 0 },                \
	{ "symbol_id", RP_DBX_BIGINT, 0 }, { "sym_offset", RP_DBX_BIGINT, 0 },          \
	{ "ip", RP_DBX_BIGINT, 0 }, { "time", RP_DBX_BIGINT, 0 }, { "cpu", RP_DBX_INT, 0 }, \
	{ "to_dso_id", RP_DBX_BIGINT, 0 }, { "to_symbol_id", RP_DBX_BIGINT, 0 },        \
	{ "to_sym_offset", RP_DBX_BIGINT, 0 }, { "to_ip", RP_DBX_BIGINT, 0 }
#define RP_SAMPLE_COLS_TAIL                                                             \
	{ "branch_type", RP_DBX_INT, 0 }, { "in_tx", RP_DBX_BOOL, 0 },                  \
	{ "call_path_id", RP_DBX_BIGINT, 0 }, { "insn_count", RP_DBX_BIGINT, 0 },       \
	{ "cyc_count", RP_DBX_BIGINT, 0 }, { "flags", RP_DBX_INT, 0 }
static const struct rp_dbx_column rp_cols_samples[] = {
	RP_SAMPLE_COLS_HEAD,
	{ "period", RP_DBX_BIGINT, 0 },
	{ "weight", RP_DBX_BIGINT, 0 },
	{ "transaction", RP_DBX_BIGINT, 0 },
	{ "data_src", RP_DBX_BIGINT, 0 },
	RP_SAMPLE_COLS_TAIL,
};
#define RP_SAMPLE_COL_PERIOD 15 /* period, weight, transaction, data_src */
#define RP_SAMPLE_NR_COLS 25
static const struct rp_dbx_column rp_cols_samples_branches[] = {
	RP_SAMPLE_COLS_HEAD,
	RP_SAMPLE_COLS_TAIL,
};
static const struct rp_dbx_column rp_cols_call_paths[] = {
	{ "id", RP_DBX_BIGINT, 0 },
	{ "parent_id", RP_DBX_BIGINT, 0 },
	{ "symbol_id", RP_DBX_BIGINT, 0 },
	{ "ip", RP_DBX_BIGINT, 0 },
};
static const struct rp_dbx_column rp_cols_calls[] = {
	{ "id", RP_DBX_BIGINT, 0 },	       { "thread_id", RP_DBX_BIGINT, 0 },
	{ "comm_id", RP_DBX_BIGINT, 0 },       { "call_path_id", RP_DBX_BIGINT, 0 },
	{ "call_time", RP_DBX_BIGINT, 0 },     { "return_time", RP_DBX_BIGINT, 0 },
	{ "branch_count", RP_DBX_BIGINT, 0 },  { "call_id", RP_DBX_BIGINT, 0 },
	{ "return_id", RP_DBX_BIGINT, 0 },     { "parent_call_path_id", RP_DBX_BIGINT, 0 },
	{ "flags", RP_DBX_INT, 0 },	       { "parent_id", RP_DBX_BIGINT, 0 },
	{ "insn_count", RP_DBX_BIGINT, 0 },    { "cyc_count", RP_DBX_BIGINT, 0 },
};
static const struct rp_dbx_column rp_cols_context_switches[] = {
	{ "id", RP_DBX_BIGINT, 0 },	       { "machine_id", RP_DBX_BIGINT, 0 },
	{ "time", RP_DBX_BIGINT, 0 },	       { "cpu", RP_DBX_INT, 0 },
	{ "thread_out_id", RP_DBX_BIGINT, 0 }, { "comm_out_id", RP_DBX_BIGINT, 0 },
	{ "thread_in_id", RP_DBX_BIGINT, 0 },  { "comm_in_id", RP_DBX_BIGINT, 0 },
	{ "flags", RP_DBX_INT, 0 },
};

static const struct rp_dbx_table_def rp_dbx_tables[RP_DBX_NR_TABLES] = {
	[RP_DBX_SELECTED_EVENTS] = { "selected_events", COLS(rp_cols_selected_events) },
	[RP_DBX_MACHINES] = { "machines", COLS(rp_cols_machines) },
	[RP_DBX_THREADS] = { "threads", COLS(rp_cols_threads) },
	[RP_DBX_COMMS] = { "comms", COLS(rp_cols_comms) },
	[RP_DBX_COMM_THREADS] = { "comm_threads", COLS(rp_cols_comm_threads) },
	[RP_DBX_DSOS] = { "dsos", COLS(rp_cols_dsos) },
	[RP_DBX_SYMBOLS] = { "symbols", COLS(rp_cols_symbols) },
	[RP_DBX_BRANCH_TYPES] = { "branch_types", COLS(rp_cols_branch_types) },
	[RP_DBX_SAMPLES] = { "samples", COLS(rp_cols_samples) },
	[RP_DBX_CALL_PATHS] = { "call_paths", COLS(rp_cols_call_paths) },
	[RP_DBX_CALLS] = { "calls", COLS(rp_cols_calls) },
	[RP_DBX_CONTEXT_SWITCHES] = { "context_switches", COLS(rp_cols_context_switches) },
};
static const struct rp_dbx_table_def rp_dbx_samples_branches = {
	"samples", COLS(rp_cols_samples_branches)
};

/* The options whose tables have every column. */
static const struct rp_dbx_opts rp_dbx_all_columns = { 0, 1, 1 };

const struct rp_dbx_table_def *rp_dbx_table(const struct rp_dbx_opts *opts, enum rp_dbx_table t)
{
	if (t == RP_DBX_SAMPLES && opts->branches)
		return &rp_dbx_samples_branches;
	return &rp_dbx_tables[t];
}

const char *rp_dbx_table_name(enum rp_dbx_table t)
{
	return rp_dbx_tables[t].name;
}

size_t rp_dbx_columns_sql(char *sql, size_t size, const struct rp_dbx_table_def *def, size_t first,
			  int sqlite)
{
	size_t n = 0;

	for (size_t c = first; c < def->nr_cols && n < size; c++) {
		const struct rp_dbx_column *col = &def->cols[c];
		/* `transaction` is a keyword in SQLite: perf's script names
		 * the column transaction_ there. */
		const char *name = sqlite && !strcmp(col->name, "transaction") ? "transaction_"
										 : col->name;
		static const char *const types[] = { [RP_DBX_BIGINT] = "bigint",
						     [RP_DBX_INT] = "integer",
						     [RP_DBX_BOOL] = "boolean" };
		int k = col->type == RP_DBX_TEXT
				? snprintf(sql + n, size - n, ", %s varchar(%u)", name, col->max_chars)
				: snprintf(sql + n, size - n, ", %s %s", name, types[col->type]);

		n += k > 0 ? (size_t)k : 0;
	}
	return n < size ? n : size ? size - 1 : 0;
}

int rp_dbx_has_table(const struct rp_dbx_opts *opts, enum rp_dbx_table t)
{
	if (t == RP_DBX_CALL_PATHS)
		return opts->calls || opts->callchains;
	if (t == RP_DBX_CALLS)
		return opts->calls;
	return 1;
}

/* ------------------------------------------------------------- text */

size_t rp_dbx_clean_text(char *buf, size_t cap, const char *s, size_t n, uint32_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0;
	uint32_t chars = 0;

	while (i < n && (!max_chars || chars < max_chars)) {
		unsigned c = p[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
								      : (c & 0xf8) == 0xf0 ? 4 : 0;
		int ok = len && i + len <= n && c != 0;

		/* Continuation bytes, no overlong forms, no surrogates, at
		 * most U+10FFFF (RFC 3629). */
		for (size_t k = 1; ok && k < len; k++)
			ok = (p[i + k] & 0xc0) == 0x80;
		if (ok && len == 2)
			ok = c >= 0xc2;
		if (ok && len == 3)
			ok = !(c == 0xe0 && p[i + 1] < 0xa0) && !(c == 0xed && p[i + 1] >= 0xa0);
		if (ok && len == 4)
			ok = !(c == 0xf0 && p[i + 1] < 0x90) && c <= 0xf4 &&
			     !(c == 0xf4 && p[i + 1] >= 0x90);
		if (!ok)
			len = 1;
		if (o + (ok ? len : 1) > cap)
			break;
		if (ok)
			memcpy(buf + o, p + i, len);
		else
			buf[o] = '?';
		o += ok ? len : 1;
		i += len;
		chars++;
	}
	return o;
}

/* Whether s (n bytes) is valid UTF-8 without NUL. */
static int rp_dbx_utf8_valid(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (unsigned char)s[i] < 0x80 && s[i])
		i++;
	if (i == n)
		return 1;
	char tmp[4];
	/* Slow path: clean one character at a time and compare. */
	while (i < n) {
		size_t len = 1;
		unsigned c = (unsigned char)s[i];

		if (c >= 0x80)
			len = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 1;
		if (i + len > n)
			return 0;
		if (rp_dbx_clean_text(tmp, sizeof(tmp), s + i, len, 1) != len ||
		    memcmp(tmp, s + i, len) != 0)
			return 0;
		i += len;
	}
	return 1;
}

/* ------------------------------------------------------------- state */

struct rp_dbx_thread {
	uint64_t id;
	uint64_t *comm_ids; /* by index in the thread's comm history; 0: none */
	size_t nr_comm_ids;
};

struct rp_dbx_dso {
	uint64_t id;
	struct rp_hashmap unknown; /* address -> id of its "unknown" symbol */
};

/* A node of the call path tree: (parent, symbol) or, without a symbol,
 * (parent, ip), as perf's call_path__findnew() keys them. */
struct rp_dbx_cp {
	uint64_t parent, sym, ip, id; /* id 0: empty slot */
};

/* Per-table id counters, as db-export's *_last_db_id. */
enum {
	RP_ID_EVSEL,
	RP_ID_MACHINE,
	RP_ID_THREAD,
	RP_ID_COMM,
	RP_ID_COMM_THREAD,
	RP_ID_DSO,
	RP_ID_SYMBOL,
	RP_ID_SAMPLE,
	RP_ID_CALL_PATH,
	RP_ID_SWITCH,
	RP_ID_NR
};

/* Room for the cleaned texts of one row (a quarter per column, at most
 * three text columns a row): longer invalid texts are cut. */
#define RP_DBX_TEXT_CAP (4u * 16384u)

struct rp_dbx {
	struct rp_output_env env;
	struct rp_dbx_opts opts;
	struct rp_dbx_backend be;
	int comm_exec; /* an event has attr.comm_exec: exec comms are kept apart */
	uint64_t last[RP_ID_NR];
	uint64_t rows[RP_DBX_NR_TABLES];
	uint64_t *evsel_ids;
	size_t evsel_alloc;
	uint64_t machine_id;
	struct rp_hashmap threads; /* struct rp_thread * -> struct rp_dbx_thread * */
	struct rp_dbx_dso **dsos;  /* by rp_dso idx */
	size_t dsos_alloc;
	struct rp_hashmap symbols; /* const struct rp_symbol * -> id */
	uint64_t nr_unknown;
	struct rp_dbx_cp *cps;
	size_t cps_cap, cps_nr;
	uint64_t root_cp; /* id of the call path root, 0 until exported */
	int err;
	struct rp_error error;
	char text[RP_DBX_TEXT_CAP];
};

static int rp_dbx_fail(struct rp_dbx *d, int code, const char *what)
{
	if (!d->err) {
		d->err = code;
		rp_error_set(&d->error, code, "%s", what);
	}
	return code;
}

static int rp_dbx_emit(struct rp_dbx *d, enum rp_dbx_table t, struct rp_dbx_value *v)
{
	const struct rp_dbx_table_def *def = rp_dbx_table(&d->opts, t);
	struct rp_dbx_value packed[RP_SAMPLE_NR_COLS];
	int ret;

	if (t == RP_DBX_SAMPLES && d->opts.branches) {
		/* Drop period, weight, transaction and data_src. */
		memcpy(packed, v, RP_SAMPLE_COL_PERIOD * sizeof(*v));
		memcpy(packed + RP_SAMPLE_COL_PERIOD, v + RP_SAMPLE_COL_PERIOD + 4,
		       (RP_SAMPLE_NR_COLS - RP_SAMPLE_COL_PERIOD - 4) * sizeof(*v));
		v = packed;
	}
	/* Text from the file that is not valid UTF-8 is cleaned (perf's
	 * Python strings always are); each text column has its slice of the
	 * buffer. */
	size_t used = 0;
	for (size_t c = 0; c < def->nr_cols; c++) {
		if (def->cols[c].type != RP_DBX_TEXT || rp_dbx_utf8_valid(v[c].s, v[c].len))
			continue;
		size_t cap = sizeof(d->text) / 4;
		size_t n = rp_dbx_clean_text(d->text + used, cap, v[c].s, v[c].len, 0);
		v[c].s = d->text + used;
		v[c].len = n;
		used += cap;
	}
	ret = d->be.row(d->be.ctx, t, v, &d->error);
	if (ret < 0) {
		if (!d->err)
			d->err = ret;
		return ret;
	}
	d->rows[t]++;
	return 0;
}

static void rp_val_i(struct rp_dbx_value *v, int64_t i)
{
	v->i = i;
	v->s = NULL;
	v->len = 0;
}

static void rp_val_s(struct rp_dbx_value *v, const char *s)
{
	v->i = 0;
	v->s = s ? s : "";
	v->len = strlen(v->s);
}

/* ------------------------------------------------------------- objects */

static int rp_dbx_machine(struct rp_dbx *d)
{
	struct rp_dbx_value v[3];

	if (d->machine_id)
		return 0;
	d->machine_id = ++d->last[RP_ID_MACHINE];
	/* The host machine: perf's HOST_KERNEL_ID pid and an empty root. */
	rp_val_i(&v[0], (int64_t)d->machine_id);
	rp_val_i(&v[1], -1);
	rp_val_s(&v[2], "");
	return rp_dbx_emit(d, RP_DBX_MACHINES, v);
}

static int rp_dbx_evsel(struct rp_dbx *d, const struct rp_evsel *evsel, uint64_t *id)
{
	size_t idx = (size_t)rp_evsel_idx(evsel);

	if (idx >= d->evsel_alloc) {
		size_t old = d->evsel_alloc;

		if (RP_ARRAY_RESERVE(d->evsel_ids, d->evsel_alloc, idx + 1) < 0)
			return rp_dbx_fail(d, RP_ERR_NOMEM, "out of memory");
		memset(d->evsel_ids + old, 0, (d->evsel_alloc - old) * sizeof(*d->evsel_ids));
	}
	if (!d->evsel_ids[idx]) {
		struct rp_dbx_value v[2];

		d->evsel_ids[idx] = ++d->last[RP_ID_EVSEL];
		rp_val_i(&v[0], (int64_t)d->evsel_ids[idx]);
		rp_val_s(&v[1], rp_evsel_name(evsel));
		int ret = rp_dbx_emit(d, RP_DBX_SELECTED_EVENTS, v);
		if (ret < 0)
			return ret;
	}
	*id = d->evsel_ids[idx];
	return 0;
}

static struct rp_dbx_thread *rp_dbx_thread_state(struct rp_dbx *d, const struct rp_thread *th)
{
	struct rp_dbx_thread *t = rp_hashmap_get(&d->threads, (uint64_t)(uintptr_t)th);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t || rp_hashmap_put(&d->threads, (uint64_t)(uintptr_t)th, t) < 0) {
		free(t);
		rp_dbx_fail(d, RP_ERR_NOMEM, "out of memory");
		return NULL;
	}
	return t;
}

/* db_export__thread(): the thread's row, its process's main thread's id
 * (0 when none) as process_id. */
static int rp_dbx_thread(struct rp_dbx *d, const struct rp_thread *th, struct rp_dbx_thread *t,
			 const struct rp_dbx_thread *main_t)
{
	struct rp_dbx_value v[5];

	if (t->id)
		return 0;
	t->id = ++d->last[RP_ID_THREAD];
	rp_val_i(&v[0], (int64_t)t->id);
	rp_val_i(&v[1], (int64_t)d->machine_id);
	rp_val_i(&v[2], main_t ? (int64_t)main_t->id : 0);
	rp_val_i(&v[3], th->pid);
	rp_val_i(&v[4], th->tid);
	return rp_dbx_emit(d, RP_DBX_THREADS, v);
}

static int rp_dbx_comm_thread(struct rp_dbx *d, uint64_t comm_id, uint64_t thread_id)
{
	struct rp_dbx_value v[3];

	rp_val_i(&v[0], (int64_t)++d->last[RP_ID_COMM_THREAD]);
	rp_val_i(&v[1], (int64_t)comm_id);
	rp_val_i(&v[2], (int64_t)thread_id);
	return rp_dbx_emit(d, RP_DBX_COMM_THREADS, v);
}

/* The id of comm number idx of thread th (its row written the first
 * time, with owner's id as c_thread_id); *is_new tells whether it was. */
static int rp_dbx_comm(struct rp_dbx *d, const struct rp_thread *th, struct rp_dbx_thread *t,
		       uint32_t idx, const struct rp_dbx_thread *owner, uint64_t *id, int *is_new)
{
	*is_new = 0;
	if (idx >= t->nr_comm_ids) {
		size_t n = t->nr_comm_ids ? t->nr_comm_ids : 2;
		while (n <= idx)
			n *= 2;
		uint64_t *p = realloc(t->comm_ids, n * sizeof(*p));

		if (!p)
			return rp_dbx_fail(d, RP_ERR_NOMEM, "out of memory");
		memset(p + t->nr_comm_ids, 0, (n - t->nr_comm_ids) * sizeof(*p));
		t->comm_ids = p;
		t->nr_comm_ids = n;
	}
	if (!t->comm_ids[idx]) {
		const struct rp_comm *c = &th->comms[idx];
		struct rp_dbx_value v[5];

		t->comm_ids[idx] = ++d->last[RP_ID_COMM];
		*is_new = 1;
		rp_val_i(&v[0], (int64_t)t->comm_ids[idx]);
		rp_val_s(&v[1], c->str);
		rp_val_i(&v[2], (int64_t)owner->id);
		rp_val_i(&v[3], (int64_t)c->start);
		rp_val_i(&v[4], c->exec);
		int ret = rp_dbx_emit(d, RP_DBX_COMMS, v);
		if (ret < 0)
			return ret;
	}
	*id = t->comm_ids[idx];
	return 0;
}

/* perf's thread__exec_comm(): the latest comm set by an exec; without one
 * the oldest, unless that is a synthesized fork's copy of the parent's
 * comm (time 0) of a main thread, then the one after it. */
static uint32_t rp_dbx_exec_comm(const struct rp_dbx *d, const struct rp_thread *th)
{
	if (!d->comm_exec)
		return th->nr_comms - 1;
	for (uint32_t i = th->nr_comms; i > 0; i--)
		if (th->comms[i - 1].exec)
			return i - 1;
	if (th->nr_comms >= 2 && !th->comms[0].start && th->pid == th->tid)
		return 1;
	return 0;
}

/* perf's machine__find_thread(): no thread is created. */
static struct rp_thread *rp_dbx_find_thread(struct rp_dbx *d, int32_t pid, int32_t tid)
{
	struct rp_machine *m = d->env.machine;
	struct rp_thread *th = rp_hashmap_get(&m->threads, (uint64_t)(uint32_t)tid);

	(void)pid;
	return th;
}

/* perf's thread__main_thread(). */
static struct rp_thread *rp_dbx_main_thread(struct rp_dbx *d, struct rp_thread *th)
{
	if (th->pid == th->tid)
		return th;
	if (th->pid == -1)
		return NULL;
	struct rp_thread *m = rp_dbx_find_thread(d, th->pid, th->pid);

	return m && m->pid == th->pid ? m : NULL;
}

/*
 * db_export__threads(): the main thread, the comm its program was exec'd
 * as (and the pair in comm_threads), the thread (paired with that comm
 * the first time), and the thread's current comm.  *comm_id gets the
 * exec comm's id (0: none), *thread_id the thread's.
 */
static int rp_dbx_threads(struct rp_dbx *d, struct rp_thread *th, uint64_t *comm_id,
			  uint64_t *thread_id)
{
	struct rp_thread *main = rp_dbx_main_thread(d, th);
	struct rp_dbx_thread *t = rp_dbx_thread_state(d, th), *mt = NULL;
	int ret, is_new;
	uint64_t cid = 0, cur;

	if (!t)
		return d->err;
	if (main) {
		if (!(mt = rp_dbx_thread_state(d, main)))
			return d->err;
		if ((ret = rp_dbx_thread(d, main, mt, mt)) < 0)
			return ret;
		if ((ret = rp_dbx_comm(d, main, mt, rp_dbx_exec_comm(d, main), mt, &cid, &is_new)) < 0)
			return ret;
		if (is_new && (ret = rp_dbx_comm_thread(d, cid, mt->id)) < 0)
			return ret;
	}
	if (th != main) {
		int pair = cid && !t->id;

		if ((ret = rp_dbx_thread(d, th, t, mt)) < 0)
			return ret;
		if (pair && (ret = rp_dbx_comm_thread(d, cid, t->id)) < 0)
			return ret;
	}
	if ((ret = rp_dbx_comm(d, th, t, th->nr_comms - 1, t, &cur, &is_new)) < 0)
		return ret;
	*comm_id = cid;
	*thread_id = t->id;
	return 0;
}

static struct rp_dbx_dso *rp_dbx_dso_state(struct rp_dbx *d, const struct rp_dso *dso)
{
	size_t idx = dso->idx;

	if (idx >= d->dsos_alloc) {
		size_t old = d->dsos_alloc;

		if (RP_ARRAY_RESERVE(d->dsos, d->dsos_alloc, idx + 1) < 0) {
			rp_dbx_fail(d, RP_ERR_NOMEM, "out of memory");
			return NULL;
		}
		memset(d->dsos + old, 0, (d->dsos_alloc - old) * sizeof(*d->dsos));
	}
	if (!d->dsos[idx] && !(d->dsos[idx] = calloc(1, sizeof(**d->dsos))))
		rp_dbx_fail(d, RP_ERR_NOMEM, "out of memory");
	return d->dsos[idx];
}

/* db_export__dso(): the DSO's row the first time, build-id in hex. */
static int rp_dbx_dso(struct rp_dbx *d, const struct rp_dso *dso, struct rp_dbx_dso **out)
{
	struct rp_dbx_dso *x = rp_dbx_dso_state(d, dso);

	if (!x)
		return d->err;
	*out = x;
	if (x->id)
		return 0;
	x->id = ++d->last[RP_ID_DSO];

	const uint8_t *bid;
	size_t n = rp_symbols_dso_build_id(dso, &bid);
	char hex[RP_BUILD_ID_HEX];

	rp_build_id_hex(hex, bid, n);

	struct rp_dbx_value v[5];
	rp_val_i(&v[0], (int64_t)x->id);
	rp_val_i(&v[1], (int64_t)d->machine_id);
	rp_val_s(&v[2], rp_dso_short_name(dso));
	rp_val_s(&v[3], rp_dso_long_name(dso));
	rp_val_s(&v[4], hex);
	return rp_dbx_emit(d, RP_DBX_DSOS, v);
}

static int rp_dbx_symbol_row(struct rp_dbx *d, uint64_t id, uint64_t dso_id, uint64_t start,
			     uint64_t end, int binding, const char *name)
{
	struct rp_dbx_value v[6];

	rp_val_i(&v[0], (int64_t)id);
	rp_val_i(&v[1], (int64_t)dso_id);
	rp_val_i(&v[2], (int64_t)start);
	rp_val_i(&v[3], (int64_t)end);
	rp_val_i(&v[4], binding);
	rp_val_s(&v[5], name);
	return rp_dbx_emit(d, RP_DBX_SYMBOLS, v);
}

/* db_export__symbol(): a symbol's id, its row the first time. */
static int rp_dbx_symbol(struct rp_dbx *d, const struct rp_symbol *sym, uint64_t dso_id,
			 uint64_t *id)
{
	uintptr_t known = (uintptr_t)rp_hashmap_get(&d->symbols, (uint64_t)(uintptr_t)sym);

	if (known) {
		*id = known;
		return 0;
	}
	*id = ++d->last[RP_ID_SYMBOL];
	if (rp_hashmap_put(&d->symbols, (uint64_t)(uintptr_t)sym, (void *)(uintptr_t)*id) < 0)
		return rp_dbx_fail(d, RP_ERR_NOMEM, "out of memory");
	return rp_dbx_symbol_row(d, *id, dso_id, sym->start, sym->end, sym->binding, sym->name);
}

/* The "unknown" symbol perf inserts into a DSO at an address that has no
 * symbol (db_ids_from_al(): start = end = addr, binding 0); create: make
 * it when there is none.  *id 0 when not found. */
static int rp_dbx_unknown(struct rp_dbx *d, struct rp_dbx_dso *x, uint64_t addr, int create,
			  uint64_t *id)
{
	uintptr_t known = (uintptr_t)rp_hashmap_get(&x->unknown, addr);

	*id = known;
	if (known || !create)
		return 0;
	if (d->nr_unknown >= RP_DBX_MAX_UNKNOWN_SYMBOLS)
		return rp_dbx_fail(d, RP_ERR_LIMIT, "too many addresses without a symbol");
	d->nr_unknown++;
	*id = ++d->last[RP_ID_SYMBOL];
	if (rp_hashmap_put(&x->unknown, addr, (void *)(uintptr_t)*id) < 0)
		return rp_dbx_fail(d, RP_ERR_NOMEM, "out of memory");
	return rp_dbx_symbol_row(d, *id, x->id, addr, addr, 0, "unknown");
}

/* db_ids_from_al() for a sampled address: DSO, symbol (or the unknown
 * one at its address) and the offset into it. */
static int rp_dbx_al(struct rp_dbx *d, const struct rp_addr_location *al, uint64_t *dso_id,
		     uint64_t *sym_id, uint64_t *offset)
{
	struct rp_dbx_dso *x;
	int ret;

	*dso_id = *sym_id = *offset = 0;
	if (!al->map || !al->dso)
		return 0;
	if ((ret = rp_dbx_dso(d, al->dso, &x)) < 0)
		return ret;
	*dso_id = x->id;
	if (al->sym) {
		*offset = al->addr - al->sym->start;
		return rp_dbx_symbol(d, al->sym, x->id, sym_id);
	}
	return rp_dbx_unknown(d, x, al->addr, 1, sym_id);
}

/* ------------------------------------------------------------- call paths */

static uint64_t rp_cp_hash(uint64_t parent, uint64_t sym, uint64_t ip)
{
	return rp_hash64(parent * 0x9e3779b97f4a7c15ull ^ rp_hash64(sym ^ rp_hash64(ip)));
}

static int rp_cp_grow(struct rp_dbx *d)
{
	size_t cap = d->cps_cap ? d->cps_cap * 2 : 4096;
	struct rp_dbx_cp *n = calloc(cap, sizeof(*n));

	if (!n)
		return rp_dbx_fail(d, RP_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < d->cps_cap; i++) {
		struct rp_dbx_cp *e = &d->cps[i];

		if (!e->id)
			continue;
		size_t j = rp_cp_hash(e->parent, e->sym, e->ip) & (cap - 1);
		while (n[j].id)
			j = (j + 1) & (cap - 1);
		n[j] = *e;
	}
	free(d->cps);
	d->cps = n;
	d->cps_cap = cap;
	return 0;
}

static int rp_cp_row(struct rp_dbx *d, uint64_t id, uint64_t parent, uint64_t sym, uint64_t ip)
{
	struct rp_dbx_value v[4];

	rp_val_i(&v[0], (int64_t)id);
	rp_val_i(&v[1], (int64_t)parent);
	rp_val_i(&v[2], (int64_t)sym);
	rp_val_i(&v[3], (int64_t)ip);
	return rp_dbx_emit(d, RP_DBX_CALL_PATHS, v);
}

/* call_path__findnew() and db_export__call_path(): the child of parent
 * for (sym, ip), its id and row made the first time. */
static int rp_cp_findnew(struct rp_dbx *d, uint64_t parent, uint64_t sym, uint64_t ip,
			 uint64_t *id)
{
	int ret;

	if ((d->cps_nr + 1) * 4 > d->cps_cap * 3 && (ret = rp_cp_grow(d)) < 0)
		return ret;
	size_t mask = d->cps_cap - 1;
	for (size_t j = rp_cp_hash(parent, sym, ip) & mask;; j = (j + 1) & mask) {
		struct rp_dbx_cp *e = &d->cps[j];

		if (e->id && e->parent == parent && e->sym == sym && e->ip == ip) {
			*id = e->id;
			return 0;
		}
		if (e->id)
			continue;
		if (d->cps_nr >= RP_DBX_MAX_CALL_PATHS)
			return rp_dbx_fail(d, RP_ERR_LIMIT, "too many call paths");
		e->parent = parent;
		e->sym = sym;
		e->ip = ip;
		e->id = ++d->last[RP_ID_CALL_PATH];
		d->cps_nr++;
		*id = e->id;
		return rp_cp_row(d, e->id, parent, sym, ip);
	}
}

/* call_path_from_sample(): the sample's stack from the root (the
 * outermost 127 frames), each frame a node under the previous one. */
static int rp_dbx_call_path(struct rp_dbx *d, const struct rp_resolved *res, uint64_t *out)
{
	size_t n = res->nr_callchain;
	size_t first = n > RP_DBX_MAX_STACK ? n - RP_DBX_MAX_STACK : 0;
	uint64_t cur;
	int ret;

	*out = 0;
	if (!n)
		return 0;
	if (!d->root_cp) {
		/* The tree's root is exported with the first path under it. */
		d->root_cp = ++d->last[RP_ID_CALL_PATH];
		if ((ret = rp_cp_row(d, d->root_cp, 0, 0, 0)) < 0)
			return ret;
	}
	cur = d->root_cp;
	for (size_t i = n; i-- > first;) {
		const struct rp_addr_location *al = &res->callchain[i].al;
		uint64_t sym_id = 0, ip = al->ip;

		if (al->map && al->dso) {
			struct rp_dbx_dso *x;

			if ((ret = rp_dbx_dso(d, al->dso, &x)) < 0)
				return ret;
			if (al->sym) {
				ret = rp_dbx_symbol(d, al->sym, x->id, &sym_id);
			} else {
				/* perf looks the frame up at its file address
				 * (where a sample may have made an unknown
				 * symbol), then at the raw address, where it
				 * makes one. */
				ret = rp_dbx_unknown(d, x, al->addr, 0, &sym_id);
				if (!ret && !sym_id)
					ret = rp_dbx_unknown(d, x, al->ip, 1, &sym_id);
			}
			if (ret < 0)
				return ret;
			ip = 0;
		}
		if ((ret = rp_cp_findnew(d, cur, sym_id, ip, &cur)) < 0)
			return ret;
	}
	*out = cur;
	return 0;
}

/* ------------------------------------------------------------- records */

/* perf's sample_addr_correlates_sym(): page faults and BTS. */
static int rp_dbx_addr_correlates(const struct rp_attr *a)
{
	if (a->type == RP_DBX_TYPE_SOFTWARE && (a->config == 2 || a->config == 5 || a->config == 6))
		return 1;
	/* BTS: branch-instructions with a period of 1 (intel_pt's BTS). */
	return a->type == 0 && a->config == 4 && a->sample_period == 1 &&
	       !(a->flags & RP_ATTR_FREQ);
}

static int rp_dbx_sample(struct rp_dbx *d, const struct rp_event *ev, const struct rp_resolved *res)
{
	const struct rp_sample *s = &ev->u.sample;
	const struct rp_attr *attr = rp_evsel_attr(ev->evsel);
	struct rp_dbx_value v[RP_SAMPLE_NR_COLS];
	uint64_t evsel_id, comm_id = 0, thread_id = 0, dso_id, sym_id, off, cp = 0;
	uint64_t to_dso = 0, to_sym = 0, to_off = 0;
	int ret;

	if (attr->type == RP_DBX_TYPE_TRACEPOINT || !res->thread)
		return 0;
	if ((ret = rp_dbx_evsel(d, ev->evsel, &evsel_id)) < 0 || (ret = rp_dbx_machine(d)) < 0)
		return ret;
	if ((ret = rp_dbx_threads(d, res->thread, &comm_id, &thread_id)) < 0)
		return ret;
	uint64_t id = ++d->last[RP_ID_SAMPLE];
	if ((ret = rp_dbx_al(d, &res->al, &dso_id, &sym_id, &off)) < 0)
		return ret;
	if (d->opts.callchains && res->nr_callchain) {
		struct rp_stack_slot *slot = res->stack_id ? res->stack_slot : NULL;

		if (slot && slot->ptr) {
			cp = (uint64_t)(uintptr_t)slot->ptr;
		} else {
			if ((ret = rp_dbx_call_path(d, res, &cp)) < 0)
				return ret;
			if (slot)
				slot->ptr = (void *)(uintptr_t)cp;
		}
	}
	if ((s->sample_type & RP_SAMPLE_ADDR) && rp_dbx_addr_correlates(attr) && d->env.machine) {
		struct rp_addr_location al;
		uint8_t mode = (uint8_t)(ev->misc & RP_MISC_CPUMODE_MASK);
		int found;

		memset(&al, 0, sizeof(al));
		found = d->env.symbols ? rp_symbols_resolve(d->env.symbols, d->env.machine,
							    res->thread, mode, s->addr, &al)
				       : rp_machine_find_map(d->env.machine, res->thread, mode,
							     s->addr, &al);
		if (found == 0) {
			/* perf's thread__find_map_fb(): the other space */
			mode = mode == RP_MISC_KERNEL ? RP_MISC_USER : RP_MISC_KERNEL;
			found = d->env.symbols ? rp_symbols_resolve(d->env.symbols, d->env.machine,
								    res->thread, mode, s->addr, &al)
					       : rp_machine_find_map(d->env.machine, res->thread,
								     mode, s->addr, &al);
		}
		if (found < 0)
			return rp_dbx_fail(d, found, "out of memory");
		if (found && (ret = rp_dbx_al(d, &al, &to_dso, &to_sym, &to_off)) < 0)
			return ret;
	}
	rp_val_i(&v[0], (int64_t)id);
	rp_val_i(&v[1], (int64_t)evsel_id);
	rp_val_i(&v[2], (int64_t)d->machine_id);
	rp_val_i(&v[3], (int64_t)thread_id);
	rp_val_i(&v[4], (int64_t)comm_id);
	rp_val_i(&v[5], (int64_t)dso_id);
	rp_val_i(&v[6], (int64_t)sym_id);
	rp_val_i(&v[7], (int64_t)off);
	rp_val_i(&v[8], (int64_t)s->ip);
	rp_val_i(&v[9], (s->sample_type & RP_SAMPLE_TIME) ? (int64_t)s->time : -1);
	rp_val_i(&v[10], (s->sample_type & RP_SAMPLE_CPU) ? (int32_t)s->cpu : -1);
	rp_val_i(&v[11], (int64_t)to_dso);
	rp_val_i(&v[12], (int64_t)to_sym);
	rp_val_i(&v[13], (int64_t)to_off);
	rp_val_i(&v[14], (s->sample_type & RP_SAMPLE_ADDR) ? (int64_t)s->addr : 0);
	rp_val_i(&v[15], (int64_t)s->period);
	rp_val_i(&v[16], (int64_t)s->weight);
	rp_val_i(&v[17], (int64_t)s->transaction);
	/* Without the field perf's sample holds PERF_MEM_DATA_SRC_NONE. */
	rp_val_i(&v[18], (s->sample_type & RP_SAMPLE_DATA_SRC) ? (int64_t)s->data_src
							       : RP_DBX_DATA_SRC_NONE);
	/* branch_type, in_tx, insn and cycle counts and flags come from
	 * instruction-trace decoders, which readperf does not have. */
	for (int c = 19; c < RP_SAMPLE_NR_COLS; c++)
		rp_val_i(&v[c], 0);
	rp_val_i(&v[21], (int64_t)cp);
	return rp_dbx_emit(d, RP_DBX_SAMPLES, v);
}

/* db_export__pid_tid(): a switch's thread, when it is known and named. */
static int rp_dbx_switch_thread(struct rp_dbx *d, uint32_t pid, uint32_t tid, uint64_t *thread_id,
				uint64_t *comm_id, int *idle)
{
	struct rp_thread *th = rp_dbx_find_thread(d, (int32_t)pid, (int32_t)tid);

	*thread_id = *comm_id = 0;
	*idle = 0;
	if (!th || !th->comm_set)
		return 0;
	*idle = !th->pid && !th->tid;
	return rp_dbx_threads(d, th, comm_id, thread_id);
}

/* db_export__switch(). */
static int rp_dbx_switch(struct rp_dbx *d, const struct rp_event *ev)
{
	const struct rp_sample_id *sid = &ev->sid;
	uint64_t a_id = 0, a_comm = 0, b_id = 0, b_comm = 0;
	int a_idle = 0, b_idle = 0, ret;
	int out = !!(ev->misc & RP_MISC_SWITCH_OUT);
	int preempt = out && (ev->misc & RP_MISC_SWITCH_OUT_PREEMPT);
	struct rp_dbx_value v[9];

	if (!d->env.machine)
		return 0;
	if ((ret = rp_dbx_machine(d)) < 0)
		return ret;
	if ((sid->present & RP_SAMPLE_TID) &&
	    (ret = rp_dbx_switch_thread(d, sid->pid, sid->tid, &a_id, &a_comm, &a_idle)) < 0)
		return ret;
	if (ev->type == RP_RECORD_SWITCH_CPU_WIDE &&
	    (ret = rp_dbx_switch_thread(d, ev->u.sw.next_prev_pid,
					ev->u.sw.next_prev_tid, &b_id, &b_comm,
					&b_idle)) < 0)
		return ret;
	/* Neither thread known, or one unknown and the other idle. */
	if ((!a_id || a_idle) && (!b_id || b_idle))
		return 0;
	rp_val_i(&v[0], (int64_t)++d->last[RP_ID_SWITCH]);
	rp_val_i(&v[1], (int64_t)d->machine_id);
	rp_val_i(&v[2], (sid->present & RP_SAMPLE_TIME) ? (int64_t)sid->time : -1);
	rp_val_i(&v[3], (sid->present & RP_SAMPLE_CPU) ? (int32_t)sid->cpu : -1);
	rp_val_i(&v[4], (int64_t)(out ? a_id : b_id));
	rp_val_i(&v[5], (int64_t)(out ? a_comm : b_comm));
	rp_val_i(&v[6], (int64_t)(out ? b_id : a_id));
	rp_val_i(&v[7], (int64_t)(out ? b_comm : a_comm));
	rp_val_i(&v[8], out | (preempt << 1));
	return rp_dbx_emit(d, RP_DBX_CONTEXT_SWITCHES, v);
}

static int rp_dbx_event(void *ctx, const struct rp_event *ev, const struct rp_resolved *res)
{
	struct rp_dbx *d = ctx;
	int ret = 0;

	if (d->err)
		return d->err;
	if (ev->type == RP_RECORD_SAMPLE && ev->evsel && res)
		ret = rp_dbx_sample(d, ev, res);
	else if (ev->type == RP_RECORD_SWITCH || ev->type == RP_RECORD_SWITCH_CPU_WIDE)
		ret = rp_dbx_switch(d, ev);
	return ret < 0 ? (d->err ? d->err : ret) : 0;
}

/* ------------------------------------------------------------- lifecycle */

int rp_dbx_new(struct rp_dbx **out, const struct rp_output_env *env,
	       const struct rp_dbx_opts *opts, const struct rp_dbx_backend *backend)
{
	struct rp_dbx *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return RP_ERR_NOMEM;
	d->env = *env;
	d->opts = *opts;
	d->be = *backend;
	for (size_t i = 0; i < rp_session_nr_evsels(env->session); i++)
		if (rp_evsel_attr(rp_session_evsel(env->session, i))->flags & RP_ATTR_COMM_EXEC)
			d->comm_exec = 1;
	*out = d;
	return 0;
}

void rp_dbx_free(struct rp_dbx *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->threads.cap; i++) {
		struct rp_dbx_thread *t = d->threads.slots[i].value;

		if (t) {
			free(t->comm_ids);
			free(t);
		}
	}
	rp_hashmap_release(&d->threads);
	for (size_t i = 0; i < d->dsos_alloc; i++) {
		if (d->dsos[i]) {
			rp_hashmap_release(&d->dsos[i]->unknown);
			free(d->dsos[i]);
		}
	}
	free(d->dsos);
	rp_hashmap_release(&d->symbols);
	free(d->evsel_ids);
	free(d->cps);
	free(d);
}

/* perf's branch types (db-export.c's table): the name of each
 * combination of PERF_IP_FLAG_* bits. */
static const struct {
	uint32_t type;
	const char *name;
} rp_branch_types[] = {
	{ 0, "no branch" },
	{ RP_IPF_BRANCH | RP_IPF_CALL, "call" },
	{ RP_IPF_BRANCH | RP_IPF_RETURN, "return" },
	{ RP_IPF_BRANCH | RP_IPF_CONDITIONAL, "conditional jump" },
	{ RP_IPF_BRANCH, "unconditional jump" },
	{ RP_IPF_BRANCH | RP_IPF_CALL | RP_IPF_INTERRUPT, "software interrupt" },
	{ RP_IPF_BRANCH | RP_IPF_RETURN | RP_IPF_INTERRUPT, "return from interrupt" },
	{ RP_IPF_BRANCH | RP_IPF_CALL | RP_IPF_SYSCALLRET, "system call" },
	{ RP_IPF_BRANCH | RP_IPF_RETURN | RP_IPF_SYSCALLRET, "return from system call" },
	{ RP_IPF_BRANCH | RP_IPF_ASYNC, "asynchronous branch" },
	{ RP_IPF_BRANCH | RP_IPF_CALL | RP_IPF_ASYNC | RP_IPF_INTERRUPT, "hardware interrupt" },
	{ RP_IPF_BRANCH | RP_IPF_TX_ABORT, "transaction abort" },
	{ RP_IPF_BRANCH | RP_IPF_TRACE_BEGIN, "trace begin" },
	{ RP_IPF_BRANCH | RP_IPF_TRACE_END, "trace end" },
	{ RP_IPF_BRANCH | RP_IPF_CALL | RP_IPF_VMENTRY, "vm entry" },
	{ RP_IPF_BRANCH | RP_IPF_CALL | RP_IPF_VMEXIT, "vm exit" },
};

static int rp_dbx_branch_type(struct rp_dbx *d, uint32_t type, const char *name)
{
	struct rp_dbx_value v[2];

	rp_val_i(&v[0], type);
	rp_val_s(&v[1], name);
	return rp_dbx_emit(d, RP_DBX_BRANCH_TYPES, v);
}

int rp_dbx_begin(struct rp_dbx *d)
{
	struct rp_dbx_value v[RP_SAMPLE_NR_COLS];
	int ret;
	size_t nr = sizeof(rp_branch_types) / sizeof(rp_branch_types[0]);

	/* Id 0 means unknown: each table has a row for it, "unknown" in
	 * its names (bit c of the mask: column c), -1 as pid and tid. */
	static const struct {
		enum rp_dbx_table t;
		uint32_t unknown, minus_one;
	} zero[] = {
		{ RP_DBX_SELECTED_EVENTS, 1u << 1, 0 }, { RP_DBX_MACHINES, 1u << 2, 0 },
		{ RP_DBX_THREADS, 0, 3u << 3 },		 { RP_DBX_COMMS, 1u << 1, 0 },
		{ RP_DBX_DSOS, 3u << 2, 0 },		 { RP_DBX_SYMBOLS, 1u << 5, 0 },
		{ RP_DBX_SAMPLES, 0, 0 },		 { RP_DBX_CALL_PATHS, 0, 0 },
		{ RP_DBX_CALLS, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++) {
		const struct rp_dbx_table_def *def = rp_dbx_table(&rp_dbx_all_columns, zero[i].t);

		if (zero[i].t == RP_DBX_CALLS || !rp_dbx_has_table(&d->opts, zero[i].t))
			continue;
		for (size_t c = 0; c < def->nr_cols; c++) {
			if (def->cols[c].type == RP_DBX_TEXT)
				rp_val_s(&v[c], zero[i].unknown >> c & 1 ? "unknown" : "");
			else
				rp_val_i(&v[c], zero[i].minus_one >> c & 1 ? -1 : 0);
		}
		if ((ret = rp_dbx_emit(d, zero[i].t, v)) < 0)
			return ret;
		/* calls' id-0 row goes with call_paths' (perf's scripts make
		 * both tables for `calls` or `callchains`). */
		if (zero[i].t == RP_DBX_CALL_PATHS) {
			for (int c = 0; c < RP_SAMPLE_NR_COLS; c++)
				rp_val_i(&v[c], 0);
			if ((ret = rp_dbx_emit(d, RP_DBX_CALLS, v)) < 0)
				return ret;
		}
	}
	for (size_t i = 0; i < nr; i++)
		if ((ret = rp_dbx_branch_type(d, rp_branch_types[i].type, rp_branch_types[i].name)) < 0)
			return ret;
	/* The trace begin / end variants of the others. */
	for (size_t i = 0; i < nr; i++) {
		uint32_t t = rp_branch_types[i].type;
		char buf[64];

		if (t == RP_IPF_BRANCH || (t & (RP_IPF_TRACE_BEGIN | RP_IPF_TRACE_END)))
			continue;
		snprintf(buf, sizeof(buf), "trace begin / %s", rp_branch_types[i].name);
		if ((ret = rp_dbx_branch_type(d, t | RP_IPF_TRACE_BEGIN, buf)) < 0)
			return ret;
		snprintf(buf, sizeof(buf), "%s / trace end", rp_branch_types[i].name);
		if ((ret = rp_dbx_branch_type(d, t | RP_IPF_TRACE_END, buf)) < 0)
			return ret;
	}
	return 0;
}

struct rp_consumer rp_dbx_consumer(struct rp_dbx *d)
{
	struct rp_consumer c = { d, rp_dbx_event, d->opts.callchains ? RP_CONSUMER_CALLCHAIN : 0 };

	return c;
}

int rp_dbx_error(const struct rp_dbx *d, struct rp_error *err)
{
	if (d->err && err)
		*err = d->error;
	return d->err;
}

uint64_t rp_dbx_rows(const struct rp_dbx *d, enum rp_dbx_table t)
{
	return d->rows[t];
}
