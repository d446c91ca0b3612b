/* SPDX-License-Identifier: MIT */
/*
 * readperf: one line per record, as `perf script` prints it.
 *
 * Samples: the fields perf 6.1 prints by default for the event's attr type
 * (tools/perf/builtin-script.c: comm, tid, cpu, time, period, event name,
 * then ip, sym+off and dso, or the call stack one frame per line, or the
 * tracepoint's fields formatted by libtraceevent), each field dropped when
 * the event's sample_type lacks it, with perf's exact widths.  -F selects
 * fields by perf's names.  Sideband records (COMM, FORK, EXIT, MMAP,
 * MMAP2, SWITCH) are shown on request, as perf's --show-*-events.
 * See docs/script.md.
 */
#ifndef READPERF_SCRIPT_H
#define READPERF_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <readperf/api.h>
#include <readperf/process.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fields, by perf script's -F names. */
#define RP_SCRIPT_COMM (1u << 0)   /* "comm" */
#define RP_SCRIPT_TID (1u << 1)    /* "tid" */
#define RP_SCRIPT_PID (1u << 2)    /* "pid" */
#define RP_SCRIPT_TIME (1u << 3)   /* "time" */
#define RP_SCRIPT_CPU (1u << 4)    /* "cpu" */
#define RP_SCRIPT_EVENT (1u << 5)  /* "event" */
#define RP_SCRIPT_TRACE (1u << 6)  /* "trace" */
#define RP_SCRIPT_IP (1u << 7)     /* "ip" (and the call stack) */
#define RP_SCRIPT_SYM (1u << 8)    /* "sym" */
#define RP_SCRIPT_DSO (1u << 9)    /* "dso" */
#define RP_SCRIPT_ADDR (1u << 10)  /* "addr" */
#define RP_SCRIPT_SYMOFF (1u << 11) /* "symoff" */
#define RP_SCRIPT_PERIOD (1u << 12) /* "period" */
#define RP_SCRIPT_SRCLINE (1u << 13) /* "srcline": a line "  file.c:12" after each frame */
#define RP_SCRIPT_WEIGHT (1u << 14)  /* "weight": WEIGHT, or WEIGHT_STRUCT's low 32 bits */
#define RP_SCRIPT_PHYS_ADDR (1u << 15) /* "phys_addr" */
#define RP_SCRIPT_DATA_PAGE_SIZE (1u << 16) /* "data_page_size": 4K, 2M, N/A */
#define RP_SCRIPT_CODE_PAGE_SIZE (1u << 17) /* "code_page_size" */
#define RP_SCRIPT_INS_LAT (1u << 18) /* "ins_lat": WEIGHT_STRUCT's second part */
#define RP_SCRIPT_IREGS (1u << 19) /* "iregs": " ABI:2    AX:0x1 ..." (REGS_INTR) */
#define RP_SCRIPT_UREGS (1u << 20) /* "uregs": the same of REGS_USER */
#define RP_SCRIPT_MISC (1u << 21) /* "misc": the record's cpumode and flags, K U H G g M E Sp */
#define RP_SCRIPT_TOD (1u << 22)  /* "tod": wall-clock time (needs CLOCK_DATA, perf record -k) */
#define RP_SCRIPT_DATA_SRC (1u << 23) /* "data_src": the word and "|OP ...|LVL ...|SNP ..." */

/* rp_script_opts.show: sideband records to print. */
#define RP_SCRIPT_SHOW_TASK 1u   /* COMM, FORK, EXIT (--show-task-events) */
#define RP_SCRIPT_SHOW_MMAP 2u   /* MMAP, MMAP2 (--show-mmap-events) */
#define RP_SCRIPT_SHOW_SWITCH 4u /* SWITCH, SWITCH_CPU_WIDE (--show-switch-events) */
#define RP_SCRIPT_SHOW_NAMESPACE 8u /* NAMESPACES (--show-namespace-events) */
#define RP_SCRIPT_SHOW_CGROUP 16u   /* CGROUP (--show-cgroup-events) */
#define RP_SCRIPT_SHOW_LOST 32u     /* LOST (--show-lost-events) */
/* FINISHED_ROUND (--show-round-events), a line of its own where the
 * record comes; perf then turns its time ordering off: for perf's text,
 * open the session in RP_ORDER_FILE. */
#define RP_SCRIPT_SHOW_ROUND 64u
#define RP_SCRIPT_SHOW_BPF 128u /* KSYMBOL, BPF_EVENT (--show-bpf-events) */
#define RP_SCRIPT_SHOW_TEXT_POKE 256u /* TEXT_POKE and KSYMBOL (--show-text-poke-events) */

/*
 * perf script's output types, the slots of rp_script_opts' per-type
 * arrays: the attr types RP_TYPE_HARDWARE .. RP_TYPE_BREAKPOINT (0..5),
 * then perf's synthesized events (attr type PERF_TYPE_SYNTH) and every
 * other attr type (dynamic PMUs), as perf's OUTPUT_TYPE_SYNTH and
 * OUTPUT_TYPE_OTHER.  -F's "type:" prefix names hw, sw, trace, raw, break
 * and synth (perf names no prefix for hw-cache nor the other types).
 */
#define RP_SCRIPT_TYPE_SYNTH 6
#define RP_SCRIPT_TYPE_OTHER 7
#define RP_SCRIPT_NR_TYPES 8
/* The slots of rp_script_opts' per-type arrays: fixed (at least
 * RP_SCRIPT_NR_TYPES) so that the struct's layout never moves. */
#define RP_SCRIPT_TYPE_SLOTS 8

struct rp_script_opts {
	size_t sz; /* sizeof(struct rp_script_opts) */
	/*
	 * Per output type (RP_SCRIPT_NR_TYPES above): the fields the user
	 * chose (user_set[type] != 0), else perf's defaults.  Fill with
	 * rp_script_parse_fields().
	 */
	uint32_t fields[RP_SCRIPT_TYPE_SLOTS];
	uint8_t user_set[RP_SCRIPT_TYPE_SLOTS];
	/* The fields named in a list without "type:" (perf's
	 * user_set_fields): an event that cannot print one of these is an
	 * error; other fields it lacks are dropped silently. */
	uint32_t named[RP_SCRIPT_TYPE_SLOTS];
	unsigned show; /* RP_SCRIPT_SHOW_* */
	int nanosecs;  /* times as seconds.nanoseconds (perf's --ns) */
	/* Source lines for the srcline field (NULL: every line unknown);
	 * must outlive the printer. */
	struct rp_symbols *symbols;
	/* Threads that format samples (the printer's own pool, beside the
	 * pipeline's); 0 or 1: samples are formatted as they come. */
	unsigned nr_threads;
	/* perf's -G (--hide-call-graph): every sample on one line, with its
	 * own ip, symbol and DSO, as for events without call stacks. */
	int hide_callchain;
	/* The time field (RP_SCRIPT_TIME_*): as recorded, perf's --reltime
	 * (since the first record printed with a time) or --deltatime (since
	 * the previous one; 0 for the first).  ns, shown as the time is. */
	int time_mode;
	/*
	 * perf's --max-stack, only when max_stack_set (else 127): at most
	 * max_stack frames of each recorded callchain, the innermost, and
	 * at most max_stack frames unwound from a --call-graph dwarf
	 * sample's user stack, the innermost; an address's inlined frames
	 * count as one.  0: samples are printed with an empty stack.
	 */
	uint32_t max_stack;
	int max_stack_set;
	/*
	 * Per output type: set by a "type:" list that named no field (perf's
	 * user_set without wildcard_set): the file must then have an event
	 * of that type, else rp_script_new() fails with perf's "software
	 * events do not exist. Remove corresponding -F option to proceed."
	 * (never for synth).  Filled by rp_script_parse_fields().
	 */
	uint8_t must_exist[RP_SCRIPT_TYPE_SLOTS];
};

/* rp_script_opts.time_mode */
#define RP_SCRIPT_TIME_ABS 0
#define RP_SCRIPT_TIME_REL 1
#define RP_SCRIPT_TIME_DELTA 2

struct rp_script;

/*
 * Applies one perf -F argument to opts as perf 6.1's parse_output_fields()
 * does: "f1,f2" (every type), "type:f1,f2" (type is hw, sw, trace, raw,
 * break or synth), "+f" / "-f" (add to / remove from the fields so far).
 * err (may be NULL, size errsz bytes) receives perf's message for
 * RP_ERR_INVAL: an unknown type ("Invalid event type in field string."),
 * an empty list without type, a list mixing "+f"/"-f" with plain fields
 * ("Cannot mix +-field with overridden fields"), an unknown field, a field
 * invalid for the named type ("'trace' not valid for software events.").
 * Without "type:", a field invalid for a type (trace for sw) is left out
 * of that type, as perf does (perf warns).  opts may be partly changed
 * on error.
 */
RP_API int rp_script_parse_fields(struct rp_script_opts *opts, const char *spec, char *err,
			   size_t errsz);

/*
 * Creates the printer writing to out (the caller owns it; write errors
 * show in ferror(out)).  With opts->nr_threads two or more,
 * samples are formatted on that many threads of the printer's own and
 * written in order; nothing else may write to out until
 * rp_script_finish().  Tracepoint events are always formatted on the
 * pipeline's thread.  symbols may be NULL (no symbol names).  Checks
 * the chosen fields against the first event of each output type (dummy
 * events skipped) as perf's perf_session__check_output_opt() does, in
 * its order: a field the user asked for that the event does not record
 * fails with RP_ERR_INVAL and perf's message in err (errsz bytes), such as
 * "Samples for 'cpu-clock' event do not have CPU attribute set. Cannot
 * print 'cpu' field.", so do symoff without sym, srcline without ip and
 * a type required by opts->must_exist that no event has.  Returns 0,
 * RP_ERR_INVAL or RP_ERR_NOMEM.  session must outlive the printer.
 */
RP_API int rp_script_new(struct rp_script **out, FILE *f, const struct rp_session *session,
		  const struct rp_script_opts *opts, char *err, size_t errsz);
/*
 * The machine the records are applied to (rp_process()'s): sideband lines
 * show the comm of the thread they name, as perf does.  NULL: ":-1".
 */
RP_API void rp_script_set_machine(struct rp_script *script, struct rp_machine *machine);
struct rp_filter;
/*
 * The filter of the run (filter.h; NULL: none): its --cpu also hides the
 * side-band lines of other CPUs, as in perf script (the pipeline filters
 * the samples).  Not copied: it must outlive the run.
 */
RP_API void rp_script_set_filter(struct rp_script *script, const struct rp_filter *filter);
/* The consumer (asks for callchains when some event has them). */
RP_API struct rp_consumer rp_script_consumer(struct rp_script *script);
/* Whether tracepoint fields could not be formatted (no libtraceevent or a
 * damaged TRACING_DATA section): 0 fine, else a negative rp_err. */
RP_API int rp_script_trace_status(const struct rp_script *script);
/*
 * Writes what is still being formatted, after the last record (call it
 * after rp_process(), before looking at ferror(out)).  Returns 0,
 * RP_ERR_NOMEM, or RP_ERR_IO (out failed).
 */
RP_API int rp_script_finish(struct rp_script *script);
/* Finishes (ignoring errors) and frees.  NULL is allowed. */
RP_API void rp_script_free(struct rp_script *script);

#ifdef __cplusplus
}
#endif

#endif
