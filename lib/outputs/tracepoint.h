/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint fields, formatted by libtraceevent from the formats stored in
 * the TRACING_DATA feature section (internal to lib/outputs).
 *
 * Format of the section: perf's tools/perf/util/trace-event-info.c (the
 * writer): "\x17\x08\x44tracing", a version string, endianness, long size,
 * page size, header_page, header_event, the ftrace formats, the event
 * formats per system, kallsyms, printk formats and (version >= 0.6) the
 * saved command lines.
 *
 * Without libtraceevent (RP_HAVE_TRACEEVENT unset) rp_tp_new() returns
 * RP_ERR_UNSUPPORTED and callers print no trace fields.
 */
#ifndef RP_OUTPUTS_TRACEPOINT_H
#define RP_OUTPUTS_TRACEPOINT_H

#include <stddef.h>
#include <stdio.h>

#include <readperf/event.h>
#include <readperf/session.h>

struct rp_tp;

/* Longest tracepoint format or string table read from the section, bytes. */
#define RP_TP_MAX_CHUNK (64u << 20)
/* Most systems and events per system in the section. */
#define RP_TP_MAX_SYSTEMS 4096u
#define RP_TP_MAX_EVENTS 65536u

/*
 * Parses the session's TRACING_DATA section.  Returns 0 (with *out NULL
 * when the file has no such section), RP_ERR_UNSUPPORTED (built without
 * libtraceevent), RP_ERR_CORRUPT (a damaged section) or RP_ERR_NOMEM.
 */
int rp_tp_new(struct rp_tp **out, const struct rp_session *session);
void rp_tp_free(struct rp_tp *tp);

/*
 * Resolves kernel function pointers of %pS/%ps arguments (kmem's
 * call_site, hrtimer's function, workqueue's function) to "sym+0xoff" and
 * "sym" from the machine's kernel maps and the kernel's symbols, as perf
 * script and perf report do (tep_set_function_resolver() with
 * machine__resolve_kernel_addr); without it they print as hex, as perf's
 * data convert --to-json leaves them.  Both must outlive tp; NULL tp,
 * machine or symbols: nothing to do.  Returns 0 or RP_ERR_NOMEM.
 */
struct rp_machine;
struct rp_symbols;
int rp_tp_set_kernel(struct rp_tp *tp, struct rp_machine *machine, struct rp_symbols *symbols);

/*
 * Writes the event's line as perf script's trace field does
 * (tep_print_event "%s" of TEP_PRINT_INFO).  Returns 1 when written, 0 when
 * the sample's evsel has no known format (nothing written).
 */
int rp_tp_print(struct rp_tp *tp, const struct rp_evsel *evsel, const struct rp_sample *sample,
		FILE *out);

/* Called once per field of the event's format, value formatted as text. */
typedef void (*rp_tp_field_fn)(void *ctx, const char *name, const char *value);

/*
 * Calls fn for each field of the sample's format in format order
 * (tep_print_field; the common_* fields are not included, as in perf).
 * Returns the number of fields.
 */
int rp_tp_fields(struct rp_tp *tp, const struct rp_evsel *evsel, const struct rp_sample *sample,
		 rp_tp_field_fn fn, void *ctx);

#endif
