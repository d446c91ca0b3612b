/* SPDX-License-Identifier: MIT */
/*
 * The pipeline: session -> machine -> (filter) -> unwind -> symbols ->
 * consumers.  Each record is applied to the machine before consumers see
 * it, so that a sample meets the threads, comms and maps valid at its time.
 * A sample with user registers and stack (--call-graph dwarf) gets its
 * user frames from the unwinder (lib/unwind), made at the first such
 * sample; they follow the recorded callchain behind PERF_CONTEXT_USER, and
 * their inline chains (rp_symbols_inlines()) become frames of their own.
 *
 * Three caches spare the lookups that repeat from sample to sample: the
 * thread of a (pid, tid), the resolution of an (ip, cpumode, thread,
 * address space), and the resolved frames of a whole call stack (its
 * entries as recorded plus the unwound ones, thread, address space).  They hold only while the
 * machine stays as it was: any sideband record (it may add maps, threads,
 * comms) and any lookup that made a map (the kernel map stretched over
 * its symbols) start a new generation, which empties them.
 *
 * With N >= 2 threads (rp_process_opts.nr_threads), one reads the session
 * (framing, decoding, time order) into a ring of batches of records while
 * the caller's thread decodes them again (with its own decoder) and runs
 * the machine, symbols and consumers on them, in the same order: the
 * output is the same as with one.  The reader also computes each recorded
 * stack's key in the call-stack cache, so that the pipeline fetches the
 * entry, and what it points at, a few records ahead of use.  The ring
 * carries where each record is in the mapping, which outlives the
 * session's iterator, rather than the decoded events (464 bytes each,
 * written by one core and read by the other); an event that points
 * elsewhere (a reader's copy) is handed over whole and alone, and the
 * reader waits until it was consumed.
 *
 * The walks of --call-graph dwarf samples, the one stage whose work grows
 * with the file and needs nothing but the sample and its address space,
 * are handed to N - 1 workers (struct rp_uw_pool), each with its own
 * unwinder.  The pipeline's thread reads up to RP_UW_AHEAD records ahead
 * of the one it processes; a sample there whose machine state is settled
 * (no record that may change the machine lies between it and the record
 * processed) gets its thread looked up, in record order, and its walk
 * queued.  Records are still processed one by one, in order, on the
 * pipeline's thread: a sample waits for its walk (or the pipeline's thread
 * walks it, or a later one, rather than wait), then is resolved (inline
 * chains too, whose names depend on the order of lookups) and handed to
 * the consumers.  A record that may change the machine stops the queueing
 * until it was applied, so no walk reads maps while they change.
 *
 * With N >= 3, consumers that may (the library's report and folded
 * stacks: RP_CONSUMER_OWN_THREAD) run on a thread of their own, the stage (struct
 * rp_stage): the pipeline's thread resolves a record, calls the other
 * consumers and adds the record, with its resolution, to a batch; the
 * stage's thread decodes the batch's records again and delivers them in
 * order.  What would change the state those records were resolved in
 * (sideband, a thread given its pid) waits until the stage has delivered
 * them.  The output is the same as with one thread (docs/performance.md,
 * "Threads").
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readperf/filter.h>
#include <readperf/process.h>

#include "common/hashmap.h"
#include "common/opts.h"
#include "format/session_int.h"
#include "machine/machine_int.h"
#include "symbols/symbols_int.h"
#include "unwind/unwind.h"
#include "process_int.h"

/* Entries of the resolution cache (a power of two). */
#define RP_RCACHE_SIZE 4096u
/* Entries of the call-stack cache (a power of two), the entries of one
 * set (a stack may sit in any entry of the set its key gives: two ways
 * left a third fewer misses than one on fp-600M.data's 50 k stacks), the
 * longest stack it keeps (entries as recorded, held in the entry so that
 * one look at it tells a hit), and the consumers that get a slot in it. */
#define RP_SCACHE_SIZE 16384u
#define RP_SCACHE_WAYS 2u
#define RP_SCACHE_MAX_IPS 64u
#define RP_SCACHE_SLOTS 2u
/* Entries of the thread cache (a power of two). */
#define RP_TCACHE_SIZE 64u
/* Events per batch of the ring, and batches in the ring.  A batch also
 * ends after RP_RING_BATCH_BYTES of records, so that the pipeline thread
 * reads records at most RP_RING_BATCHES of those behind the reader: within
 * the pages the reader's window keeps (RP_MAP_WINDOW), not pages it has
 * already given back, which would come in again and stay. */
#define RP_RING_BATCH 512u
#define RP_RING_BATCHES 8u
#define RP_RING_BATCH_BYTES (256u << 10)
/* Records ahead of the one decoded whose bytes are fetched early, and
 * the bytes fetched (a sample with a call stack is a few cache lines). */
#define RP_RING_PREFETCH 4u
#define RP_RING_PREFETCH_BYTES 256u
/* Records ahead of the one processed whose call-stack cache entry is
 * fetched (rp_scache_prefetch(); the entry's contents at half of it). */
#define RP_SCACHE_AHEAD 16u
/* A side that waits for the other sleeps until this many batches are
 * ready (or free), so that the threads do not wake each other for every
 * batch. */
#define RP_RING_WAKE 4u
/* Records read ahead of the one processed when walks are handed to
 * workers (a power of two), and the most workers. */
#define RP_UW_AHEAD 64u
#define RP_UW_MAX_WORKERS 256u
/* Queued walks that wake a sleeping worker: workers are woken in turns
 * of several walks rather than one futex call per sample (which cost the
 * pipeline's thread a sixth of its time with three workers). */
#define RP_UW_WAKE_AT 8u
/* The stage (struct rp_stage): records per batch, batches, and the
 * batches ready that wake its sleeping thread.  A batch also ends after
 * RP_STAGE_BATCH_BYTES of records, so that the stage reads records at
 * most RP_STAGE_BATCHES of those behind the pipeline's thread, inside the
 * pages the reader's window keeps. */
#define RP_STAGE_BATCH 256u
#define RP_STAGE_BATCHES 8u
#define RP_STAGE_BATCH_BYTES (128u << 10)
#define RP_STAGE_WAKE 2u
/* The fewest threads (rp_process_opts.nr_threads) that start the stage:
 * with two, its thread, the reader and the pipeline's share two cores,
 * and the report was 1.07-1.31x slower than without it (bench/RESULTS.md,
 * stop 25). */
#define RP_STAGE_MIN_THREADS 3u

struct rp_rcache_ent {
	uint64_t gen; /* 0: empty */
	uint64_t ip;
	const struct rp_thread *thread;
	const struct rp_maps *maps;
	uint8_t cpumode;
	struct rp_addr_location al;
};

/* One call stack: its entries as recorded and its frames. */
struct rp_scache_ent {
	uint64_t gen; /* 0: empty */
	uint64_t hash;
	uint64_t id;   /* rp_resolved.stack_id */
	uint64_t used; /* rp_pipeline.stack_tick at its last hit */
	/* The stage's batch (+ 1) of the last record handed to the stage
	 * with these frames: they stay until the stage released it. */
	uint64_t pin;
	const struct rp_thread *thread;
	const struct rp_maps *maps;
	uint32_t nr_ips, nr_frames, frames_alloc;
	uint64_t inline_from; /* see rp_resolve_chain() */
	struct rp_frame *frames;
	uint64_t ips[RP_SCACHE_MAX_IPS];
};

struct rp_tcache_ent {
	uint64_t gen; /* 0: empty */
	uint32_t pid, tid;
	struct rp_thread *thread;
};

struct rp_pipeline {
	struct rp_machine *machine;
	struct rp_symbols *symbols;
	const struct rp_consumer *consumers;
	size_t nr_consumers;
	unsigned flags; /* RP_CONSUMER_* of all consumers */
	struct rp_frame *frames;
	uint32_t frames_alloc;
	uint64_t gen; /* current cache generation, from 1 */
	struct rp_rcache_ent *rcache; /* RP_RCACHE_SIZE, or NULL: no cache */
	struct rp_scache_ent *scache; /* RP_SCACHE_SIZE, or NULL: no cache */
	/* The consumers' slots of each entry (rp_resolved.stack_slot):
	 * RP_SCACHE_SLOTS per entry, apart from the entries, so that the
	 * lines the pipeline's thread reads are not those a consumer on the
	 * stage's thread writes. */
	struct rp_stack_slot *slots;
	struct rp_scache_ent *stack;  /* the current sample's, or NULL */
	uint64_t next_stack_id;
	uint64_t stack_tick; /* call-stack cache lookups */
	struct rp_tcache_ent tcache[RP_TCACHE_SIZE];
	/* PERF_SAMPLE_READ delivery: sample id -> struct rp_read_sid. */
	const struct rp_session *session;
	struct rp_hashmap read_sids;
	size_t read_sids_evsels; /* evsels indexed in read_sids */
	struct rp_read_sid *read_sid_store;
	/* --call-graph dwarf: the unwinder (made at the first sample with
	 * user registers and stack), and the sample's call stack as
	 * recorded plus its unwound user part. */
	struct rp_unwinder *unwinder;
	int can_unwind; /* symbols and machine: an unwinder can be made */
	uint64_t *uw_ips;
	size_t uw_ips_alloc;
	struct rp_filter *filter; /* NULL: every sample */
	uint32_t max_unwind;      /* unwound frames kept (rp_process_opts.max_stack) */
	/* RP_CONSUMER_BRANCHES: the sample's branch stack resolved. */
	struct rp_branch_location *branches;
	size_t branches_alloc;
	/* Walks on several threads: nr_threads as asked, the pool once made
	 * (at the first sample to walk), or pool_failed. */
	unsigned nr_threads;
	struct rp_uw_pool *pool;
	int pool_failed;
	/* /proc/kallsyms is read ahead: the first sample loads tables while
	 * it waits (rp_preload_tables()). */
	int preload;
	/* The record fed now: its stack's key as the reader computed it
	 * (rp_ring_rec.stack_key), when has_ring_key. */
	uint64_t ring_key;
	int has_ring_key;
	/* Consumers with RP_CONSUMER_OWN_THREAD run there, or NULL. */
	struct rp_stage *stage;
};

/* A record read ahead (struct rp_uw_pool). */
struct rp_uw_job {
	/* Its pointers are into the mapping, or into copy (a record that
	 * was not read from a mapping, decoded again from the copy). */
	struct rp_event ev;
	uint8_t *copy;
	size_t copy_alloc;
	uint8_t stable; /* ev points into the mapping, not into copy */
	/* Set when it is prepared (a sample whose state is settled): */
	uint8_t prepared;
	uint8_t walk;  /* its walk was queued */
	uint8_t state; /* RP_UW_* of a queued walk (the pool's lock) */
	struct rp_thread *thread;
	struct rp_maps *maps;
	int32_t pid, tid;
	size_t nr; /* the walk's frames */
	uint64_t ips[RP_UNWIND_MAX_STACK];
};

enum { RP_UW_QUEUED = 1, RP_UW_TAKEN, RP_UW_DONE };

/*
 * The look-ahead and the workers.  Records [head, tail) are read ahead,
 * [head, prepared) of them prepared; the queued walks are wq[wq_head,
 * wq_tail) (sequence numbers of jobs), in record order.  jobs, wq and
 * each job's state belong to the pool's lock once a walk is queued; a
 * worker owns a job's walk fields from RP_UW_TAKEN to RP_UW_DONE.
 */
struct rp_uw_pool {
	struct rp_pipeline *p;
	struct rp_uw_job *jobs; /* RP_UW_AHEAD */
	uint64_t head, tail, prepared;
	uint64_t wq[RP_UW_AHEAD];
	uint64_t wq_head, wq_tail;
	pthread_mutex_t lock;
	pthread_cond_t work; /* a walk was queued, or stop */
	pthread_cond_t done; /* a walk the pipeline waits for is done */
	int stop;
	int idle;            /* workers waiting for work */
	uint64_t waiting;    /* the job the pipeline waits for, + 1; 0: none */
	pthread_t *threads;
	unsigned nr_threads;
	struct rp_decoder dec; /* of copies */
};

/* The last value read for one sample id (perf's perf_sample_id.period). */
struct rp_read_sid {
	const struct rp_evsel *evsel;
	uint64_t value;
	struct rp_read_sid *next; /* every entry, for freeing */
};

/* The consumers' slots of the current sample's cached stack, or NULL. */
static inline struct rp_stack_slot *rp_stack_slots(const struct rp_pipeline *p)
{
	return p->stack ? &p->slots[(size_t)(p->stack - p->scache) * RP_SCACHE_SLOTS] : NULL;
}

/* The stage (below): what the lookups ask of it. */
static int rp_stage_sync(struct rp_stage *st);
static int rp_stage_unpinned(const struct rp_pipeline *p, const struct rp_scache_ent *e);

static void rp_resolve_ip(struct rp_pipeline *p, struct rp_thread *thread, uint8_t cpumode,
			  uint64_t ip, struct rp_addr_location *al)
{
	const struct rp_maps *maps = thread ? thread->maps : NULL;
	struct rp_rcache_ent *e = NULL;

	if (p->rcache) {
		uint64_t h = (ip ^ ((uint64_t)(uintptr_t)thread << 7) ^ cpumode) *
			     0x9e3779b97f4a7c15ull;

		e = &p->rcache[(h >> 40) & (RP_RCACHE_SIZE - 1)];
		if (e->gen == p->gen && e->ip == ip && e->thread == thread && e->maps == maps &&
		    e->cpumode == cpumode) {
			*al = e->al;
			return;
		}
	}
	uint64_t nr_maps = p->machine ? p->machine->nr_maps : 0;

	if (p->symbols)
		rp_symbols_resolve(p->symbols, p->machine, thread, cpumode, ip, al);
	else
		rp_machine_find_map(p->machine, thread, cpumode, ip, al);
	if (!e)
		return;
	if (p->machine && p->machine->nr_maps != nr_maps) {
		p->gen++; /* the lookup changed the maps */
		return;
	}
	e->gen = p->gen;
	e->ip = ip;
	e->thread = thread;
	e->maps = maps;
	e->cpumode = cpumode;
	e->al = *al;
}

/*
 * An address whose mode the record does not tell (a branch end, perf
 * mem's instruction address), as perf's
 * thread__find_cpumode_addr_location(): the first mode whose maps cover
 * it, in perf's order (user, kernel, then the guest modes, which find
 * nothing with perf report's perf_guest off and leave level 'H').
 */
static void rp_resolve_any_mode(struct rp_pipeline *p, struct rp_thread *thread, uint64_t ip,
				struct rp_addr_location *al)
{
	static const uint8_t modes[] = { RP_MISC_USER, RP_MISC_KERNEL, RP_MISC_GUEST_USER,
					 RP_MISC_GUEST_KERNEL };

	for (size_t i = 0; i < sizeof(modes); i++) {
		rp_resolve_ip(p, thread, modes[i], ip, al);
		if (al->map)
			return;
	}
}

/* The sample's branch stack into res (see rp_resolved.branches).  0 or
 * RP_ERR_NOMEM. */
static int rp_resolve_branches(struct rp_pipeline *p, const struct rp_sample *d,
			       struct rp_resolved *res)
{
	/* The decoder checked branch_nr against the record's size. */
	size_t n = (size_t)d->branch_nr;

	if (!(d->sample_type & RP_SAMPLE_BRANCH_STACK) || !n)
		return 0;
	if (n > p->branches_alloc) {
		struct rp_branch_location *b = realloc(p->branches, n * sizeof(*b));

		if (!b)
			return RP_ERR_NOMEM;
		p->branches = b;
		p->branches_alloc = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct rp_branch_entry e = rp_sample_branch(d, i);
		struct rp_branch_location *b = &p->branches[i];

		/* perf resolves the target first: a lookup that loads the
		 * kernel's symbols moves its map for the source too. */
		rp_resolve_any_mode(p, res->thread, e.to, &b->to);
		rp_resolve_any_mode(p, res->thread, e.from, &b->from);
		b->flags = e.flags;
	}
	res->nr_branches = n;
	res->branches = p->branches;
	return 0;
}

static struct rp_thread *rp_pipeline_thread(struct rp_pipeline *p, uint32_t pid, uint32_t tid)
{
	struct rp_tcache_ent *e = &p->tcache[(tid ^ (tid >> 6)) & (RP_TCACHE_SIZE - 1)];

	if (e->gen == p->gen && e->tid == tid && e->pid == pid)
		return e->thread;
	/* A lookup that gives a thread its pid and maps changes what the
	 * stage's records resolved to (an error stays the stage's). */
	if (p->stage && rp_machine_findnew_changes(p->machine, pid, tid))
		(void)rp_stage_sync(p->stage);
	uint64_t nr_maps = p->machine ? p->machine->nr_maps : 0;
	struct rp_thread *th = rp_machine_findnew_thread(p->machine, pid, tid);

	if (!th)
		return NULL;
	if (p->machine && p->machine->nr_maps != nr_maps) {
		p->gen++; /* a new thread may have taken over maps */
		return th;
	}
	*e = (struct rp_tcache_ent){ p->gen, pid, tid, th };
	return th;
}

/* Room for n frames in *frames (*alloc of them).  0 or RP_ERR_NOMEM. */
static int rp_frames_reserve(struct rp_frame **frames, uint32_t *alloc, size_t n)
{
	if (n <= *alloc)
		return 0;
	if (n > RP_MAX_CALLCHAIN * 2)
		return RP_ERR_LIMIT;
	/* Eight frames at a time: a cache entry keeps its frames, and
	 * doubling left a third of them unused on deep stacks, memory the
	 * kernel zeroes page by page on first touch. */
	size_t want = (n + 7) & ~(size_t)7;
	struct rp_frame *f = realloc(*frames, want * sizeof(*f));

	if (!f)
		return RP_ERR_NOMEM;
	*frames = f;
	*alloc = (uint32_t)want;
	return 0;
}

/*
 * perf's thread__resolve_callchain_sample() for frame-pointer chains, in
 * callee order: entries start in user mode; PERF_CONTEXT_{HV,KERNEL,USER}
 * (and USER_DEFERRED, which starts a merged deferred user part) switch
 * the mode of the entries after them; any other marker means a corrupt
 * chain, which perf discards whole.  Each entry from inline_from on (the
 * unwound ones) whose function has inlined code at its address becomes
 * the frames of its inline chain, as perf 6.1's unwind_entry() adds them
 * with append_inlines() (entries of the recorded callchain get none).
 * Fills (*frames)[0..*nr) (grown as needed); a discarded chain leaves *nr
 * 0.  Returns 0, RP_ERR_NOMEM or RP_ERR_LIMIT.
 */
static int rp_resolve_chain(struct rp_pipeline *p, struct rp_thread *thread, const uint64_t *ips,
			    uint64_t nr_ips, uint64_t inline_from, struct rp_frame **frames,
			    uint32_t *alloc, size_t *nr)
{
	uint8_t cpumode = RP_MISC_USER;
	size_t n = 0;
	int ret;

	*nr = 0;
	if ((ret = rp_frames_reserve(frames, alloc, (size_t)nr_ips)) < 0)
		return ret;
	/* perf resolves a stack in the order its consumer draws it: outermost
	 * first, the unwound frames' inline chains are looked up in that
	 * order (their names depend on it); the pass below finds them
	 * cached. */
	if ((p->flags & RP_CONSUMER_CALLER_ORDER) && p->symbols && !p->symbols->no_inline) {
		for (uint64_t i = nr_ips; i-- > inline_from;) {
			struct rp_addr_location al;
			const struct rp_inline_frame *inl;
			int got;

			rp_resolve_ip(p, thread, RP_MISC_USER, ips[i], &al);
			if (al.sym && al.dso &&
			    (got = rp_symbols_inlines(p->symbols, al.dso, al.sym, al.addr, &inl)) < 0)
				return got;
		}
	}
	for (uint64_t i = 0; i < nr_ips; i++) {
		uint64_t ip = ips[i];

		/* (Unwound entries are addresses, never markers: perf's
		 * unwind_entry() takes its 0 - 1 frame for one.) */
		if (ip >= RP_CONTEXT_MAX && i < inline_from) {
			if (ip == RP_CONTEXT_HV)
				cpumode = RP_MISC_HYPERVISOR;
			else if (ip == RP_CONTEXT_KERNEL)
				cpumode = RP_MISC_KERNEL;
			else if (ip == RP_CONTEXT_USER || ip == RP_CONTEXT_USER_DEFERRED)
				cpumode = RP_MISC_USER;
			else
				return 0;
			continue;
		}
		struct rp_addr_location al;

		rp_resolve_ip(p, thread, cpumode, ip, &al);
		const struct rp_inline_frame *inl = NULL;
		int nr_inl = 0;

		uint8_t looked_up = i >= inline_from && al.sym && al.dso && p->symbols &&
				    !p->symbols->no_inline;

		if (looked_up &&
		    (nr_inl = rp_symbols_inlines(p->symbols, al.dso, al.sym, al.addr, &inl)) < 0)
			return nr_inl;
		if (nr_inl > 1 || (nr_inl == 1 && inl[0].sym != al.sym)) {
			/* Entries still to come need a frame each at least. */
			if ((ret = rp_frames_reserve(frames, alloc,
						     n + (size_t)nr_inl + (size_t)(nr_ips - i - 1))) < 0)
				return ret;
			for (int k = 0; k < nr_inl; k++) {
				struct rp_frame *f = &(*frames)[n++];

				f->al = al;
				f->al.sym = inl[k].sym;
				f->src_file = inl[k].file;
				f->src_line = inl[k].line;
				f->inlined_into_next = k + 1 < nr_inl;
				f->inline_looked_up = 1;
				f->unwound = i >= inline_from;
			}
			continue;
		}
		(*frames)[n] = (struct rp_frame){ .al = al,
						  .inline_looked_up = looked_up,
						  .unwound = i >= inline_from };
		n++;
	}
	*nr = n;
	return 0;
}

/* Callchains are arrays of rp_frame handed to consumers: its size is
 * their stride, part of the ABI (abi/minor.abignore; the baseline is
 * x86-64's). */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct rp_frame) == 72, "rp_frame's size is part of the ABI");
#endif

/* The end of the first max_stack frames of [lo, hi), counted from lo
 * (an inline chain's frames counting as its last one). */
static uint32_t rp_chain_inner_end(const struct rp_frame *f, uint32_t lo, uint32_t hi,
				   uint32_t max_stack)
{
	uint32_t counted = 0;

	if (!max_stack)
		return lo;
	for (uint32_t i = lo; i < hi; i++)
		if (!f[i].inlined_into_next && ++counted == max_stack)
			return i + 1;
	return hi;
}

void rp_chain_pick(struct rp_chain_pick *pick, const struct rp_frame *f, size_t nr,
		   uint32_t max_stack, int caller)
{
	uint32_t n = (uint32_t)nr; /* (frames are counted in a uint32_t) */
	uint32_t recorded = 0, lo = 0, hi;

	memset(pick, 0, sizeof(*pick));
	while (recorded < n && !f[recorded].unwound)
		recorded++;
	if (caller) {
		/* the outermost recorded frames: stop at the first beyond */
		uint32_t counted = 0;

		lo = recorded;
		while (lo > 0 && (f[lo - 1].inlined_into_next || counted < max_stack)) {
			counted += !f[lo - 1].inlined_into_next;
			lo--;
		}
		hi = recorded;
	} else {
		hi = rp_chain_inner_end(f, 0, recorded, max_stack);
	}
	pick->caller = caller;
	uint32_t uw_hi = rp_chain_inner_end(f, recorded, n, max_stack);

	if (hi > lo) {
		pick->span[pick->nr_spans].lo = lo;
		pick->span[pick->nr_spans++].hi = hi;
		pick->nr += hi - lo;
	}
	if (uw_hi > recorded) {
		pick->span[pick->nr_spans].lo = recorded;
		pick->span[pick->nr_spans++].hi = uw_hi;
		pick->nr += uw_hi - recorded;
	}
}

/* A hash of a stack's entries: four independent lanes, so that the
 * multiplications overlap. */
static uint64_t rp_ips_hash(const uint64_t *ips, uint64_t nr, uint64_t seed)
{
	uint64_t a = seed, b = nr, c = 0x243f6a8885a308d3ull,
		 d = 0x13198a2e03707344ull;
	uint64_t i = 0;

	for (; i + 4 <= nr; i += 4) {
		a = (a ^ ips[i]) * 0x9e3779b97f4a7c15ull;
		b = (b ^ ips[i + 1]) * 0xc2b2ae3d27d4eb4full;
		c = (c ^ ips[i + 2]) * 0x165667b19e3779f9ull;
		d = (d ^ ips[i + 3]) * 0xd6e8feb86659fd93ull;
		a ^= a >> 29;
		b ^= b >> 31;
		c ^= c >> 27;
		d ^= d >> 30;
	}
	for (; i < nr; i++)
		a = (a ^ ips[i]) * 0x9e3779b97f4a7c15ull + (a >> 31);
	return rp_hash64(a ^ rp_hash64(b ^ rp_hash64(c ^ rp_hash64(d))));
}

/*
 * The call-stack cache's key of a stack: its entries, the sample's pid
 * and tid, and the index of its first unwound entry.  A function of the
 * record alone, so that the reader's thread computes it for recorded
 * stacks (rp_ring_rec.stack_key) and the pipeline fetches the cache
 * entry ahead; the entry itself tells a hit (thread, maps, entries).
 */
static uint64_t rp_stack_key(const uint64_t *ips, uint64_t nr, uint32_t pid, uint32_t tid,
			     uint64_t inline_from)
{
	return rp_ips_hash(ips, nr, ((uint64_t)pid << 32) | tid) ^ inline_from;
}

/* The first entry of the call-stack cache's set of key h. */
static inline struct rp_scache_ent *rp_scache_set(const struct rp_pipeline *p, uint64_t h)
{
	return &p->scache[(h & (RP_SCACHE_SIZE / RP_SCACHE_WAYS - 1)) * RP_SCACHE_WAYS];
}

/*
 * The sample's call stack through the stack cache: a stack met in this
 * generation for the same thread and address space gets its frames from
 * there; a new one is resolved and kept in its set's entry of another
 * generation, or else the one least recently hit.
 */
static int rp_resolve_callchain_cached(struct rp_pipeline *p, const uint64_t *ips,
				       uint64_t nr, uint64_t inline_from, uint64_t h,
				       struct rp_resolved *res)
{
	const struct rp_maps *maps = res->thread ? res->thread->maps : NULL;
	struct rp_scache_ent *set = rp_scache_set(p, h), *e = NULL;
	uint64_t tick = ++p->stack_tick;

	for (unsigned w = 0; w < RP_SCACHE_WAYS; w++) {
		struct rp_scache_ent *x = &set[w];

		if (x->gen == p->gen && x->hash == h && x->thread == res->thread &&
		    x->maps == maps && x->nr_ips == nr && x->inline_from == inline_from &&
		    !memcmp(x->ips, ips, (size_t)nr * sizeof(uint64_t))) {
			res->nr_callchain = x->nr_frames;
			res->callchain = x->frames;
			res->stack_id = x->id;
			x->used = tick;
			p->stack = x;
			return 0;
		}
		if (!e || (e->gen == p->gen && (x->gen != p->gen || x->used < e->used)))
			e = x;
	}
	uint64_t gen = p->gen;
	size_t n;
	int ret;

	/* The stage still delivers a record with this entry's frames. */
	if (!rp_stage_unpinned(p, e) && (ret = rp_stage_sync(p->stage)) < 0)
		return ret;
	e->gen = 0;
	e->used = tick;
	if ((ret = rp_resolve_chain(p, res->thread, ips, nr, inline_from, &e->frames,
				    &e->frames_alloc, &n)) < 0)
		return ret;
	res->nr_callchain = n;
	res->callchain = e->frames;
	if (p->gen != gen)
		return 0; /* a lookup changed the maps: not kept */
	memcpy(e->ips, ips, (size_t)nr * sizeof(uint64_t));
	memset(&p->slots[(size_t)(e - p->scache) * RP_SCACHE_SLOTS], 0,
	       RP_SCACHE_SLOTS * sizeof(*p->slots));
	e->gen = gen;
	e->hash = h;
	e->id = ++p->next_stack_id;
	e->thread = res->thread;
	e->maps = maps;
	e->nr_ips = (uint32_t)nr;
	e->inline_from = inline_from;
	e->nr_frames = (uint32_t)n;
	res->stack_id = e->id;
	p->stack = e;
	return 0;
}

/* The entries of d's recorded callchain that are taken. */
static uint64_t rp_recorded_nr(const struct rp_sample *d)
{
	return d->callchain_nr < RP_MAX_CALLCHAIN ? d->callchain_nr : RP_MAX_CALLCHAIN;
}

/*
 * The sample's call stack as perf's thread__resolve_callchain() builds it
 * in callee order: the recorded callchain, then, for a sample with user
 * registers and stack (--call-graph dwarf), the unwound user frames behind
 * a PERF_CONTEXT_USER marker (unwind: the caller found that the sample
 * has them and an unwinder can be made).  *ips points at the recorded
 * entries or at p->uw_ips; *inline_from is the index of the first unwound
 * entry.  Returns the number of entries or RP_ERR_NOMEM.
 */
static int64_t rp_sample_stack(struct rp_pipeline *p, const struct rp_sample *d, int unwind,
			       struct rp_thread *thread, const struct rp_uw_job *job,
			       const uint64_t **ips, uint64_t *inline_from)
{
	uint64_t nr = rp_recorded_nr(d);

	*ips = d->callchain;
	*inline_from = nr;
	if (!unwind)
		return (int64_t)nr;
	if (!job && !p->unwinder && rp_unwinder_new(&p->unwinder, p->machine, p->symbols) < 0)
		return RP_ERR_NOMEM;
	size_t want = (size_t)nr + 1 + RP_UNWIND_MAX_STACK;

	if (want > p->uw_ips_alloc) {
		uint64_t *v = realloc(p->uw_ips, want * sizeof(*v));

		if (!v)
			return RP_ERR_NOMEM;
		p->uw_ips = v;
		p->uw_ips_alloc = want;
	}
	if (nr)
		memcpy(p->uw_ips, d->callchain, (size_t)nr * sizeof(uint64_t));
	p->uw_ips[nr] = RP_CONTEXT_USER;
	size_t n;

	if (job) {
		/* Walked ahead (struct rp_uw_pool). */
		n = job->nr;
		memcpy(p->uw_ips + nr + 1, job->ips, n * sizeof(uint64_t));
	} else {
		n = rp_unwind_user(p->unwinder, thread->maps, thread->pid, thread->tid, d,
				   p->uw_ips + nr + 1, RP_UNWIND_MAX_STACK);
	}

	/* perf's walk stops after --max-stack frames */
	if (n > p->max_unwind)
		n = p->max_unwind;
	*ips = p->uw_ips;
	*inline_from = nr + 1;
	return n ? (int64_t)(nr + 1 + n) : (int64_t)nr;
}

/*
 * Whether perf would unwind a sample of thread: perf 6.1's libunwind
 * unwinds the samples of an address space only once a map of a DSO whose
 * data file it finds entered it (unwind__prepare_access(), at each map
 * inserted until one is found, and over a forked child's copied maps);
 * before, unwind__get_entries() adds nothing, not even the sampled ip.
 * A program whose files are all missing (a static binary analysed on
 * another machine) shows no user frames in perf.  Sticky per address
 * space; a space found not ready is looked at again after the machine
 * changed (p->gen).
 */
static int rp_unwind_ready(struct rp_pipeline *p, const struct rp_thread *thread)
{
	struct rp_maps *maps = thread->maps;

	if (!maps)
		return 0;
	if (maps->unwind_ready)
		return 1;
	if (maps->unwind_checked == p->gen + 1)
		return 0;
	for (size_t i = 0; i < maps->nr; i++)
		if (maps->items[i]->dso && rp_symbols_dso_has_data(p->symbols, maps->items[i]->dso)) {
			maps->unwind_ready = 1;
			return 1;
		}
	maps->unwind_checked = p->gen + 1;
	return 0;
}

/* The sample's callchain into res (see struct rp_resolved); unwind and
 * job (NULL: walk now) as for rp_sample_stack(). */
static int rp_resolve_callchain(struct rp_pipeline *p, const struct rp_sample *d, int unwind,
				const struct rp_uw_job *job, struct rp_resolved *res)
{
	const uint64_t *ips;
	uint64_t inline_from;
	int64_t got = rp_sample_stack(p, d, unwind, res->thread, job, &ips, &inline_from);
	size_t n;

	if (got < 0)
		return (int)got;
	uint64_t nr = (uint64_t)got;

	if (p->scache && nr <= RP_SCACHE_MAX_IPS)
		return rp_resolve_callchain_cached(
			p, ips, nr, inline_from,
			!unwind && p->has_ring_key ? p->ring_key
						   : rp_stack_key(ips, nr, d->pid, d->tid, inline_from),
			res);
	res->nr_callchain = 0;
	res->callchain = NULL;
	int ret = rp_resolve_chain(p, res->thread, ips, nr, inline_from, &p->frames,
				   &p->frames_alloc, &n);

	if (ret < 0)
		return ret;
	res->nr_callchain = n;
	res->callchain = p->frames;
	return 0;
}

/* Whether a record may change what the caches hold. */
static int rp_changes_machine(uint32_t type)
{
	switch (type) {
	case RP_RECORD_FINISHED_ROUND:
	case RP_RECORD_LOST:
	case RP_RECORD_LOST_SAMPLES:
	case RP_RECORD_THROTTLE:
	case RP_RECORD_UNTHROTTLE:
		return 0;
	default:
		return 1;
	}
}

/* Which consumers rp_consumers_event() calls: all of them, or, while a
 * stage runs, those called on the caller's thread or those on the
 * stage's. */
enum rp_to { RP_TO_ALL, RP_TO_HERE, RP_TO_STAGE };

/* Hands ev to the consumers (`to` says which) whose RP_CONSUMER_RECORDS
 * flag equals `records` (all of them when `records` is negative), each
 * with its slot of the sample's cached call stack (slots: the stack's
 * RP_SCACHE_SLOTS, or NULL).  Reads nothing of p that changes: the stage
 * calls it too. */
static int rp_consumers_event(const struct rp_pipeline *p, const struct rp_event *ev,
			      struct rp_resolved *r, int records, struct rp_stack_slot *slots,
			      enum rp_to to)
{
	for (size_t i = 0; i < p->nr_consumers; i++) {
		const struct rp_consumer *c = &p->consumers[i];

		if (to != RP_TO_ALL && !!(c->flags & RP_CONSUMER_OWN_THREAD) != (to == RP_TO_STAGE))
			continue;
		if (records >= 0 && !!(c->flags & RP_CONSUMER_RECORDS) != records)
			continue;
		if (r && r->filtered && !(c->flags & RP_CONSUMER_FILTERED))
			continue;
		if (r)
			r->stack_slot = slots && i < RP_SCACHE_SLOTS ? &slots[i] : NULL;
		int ret = c->event(c->ctx, ev, r);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The id's entry, indexing evsels the session gained since last time (a
 * pipe stream adds them while it is read). */
static struct rp_read_sid *rp_read_sid(struct rp_pipeline *p, uint64_t id)
{
	struct rp_read_sid *sid = rp_hashmap_get(&p->read_sids, id);
	size_t nr = rp_session_nr_evsels(p->session);

	if (sid || p->read_sids_evsels == nr)
		return sid;
	for (size_t i = p->read_sids_evsels; i < nr; i++) {
		const struct rp_evsel *evsel = rp_session_evsel(p->session, i);
		size_t nr_ids;
		const uint64_t *ids = rp_evsel_ids(evsel, &nr_ids);

		for (size_t j = 0; j < nr_ids; j++) {
			struct rp_read_sid *e = calloc(1, sizeof(*e));

			if (!e)
				return NULL;
			e->evsel = evsel;
			e->next = p->read_sid_store;
			p->read_sid_store = e;
			if (rp_hashmap_put(&p->read_sids, ids[j], e) < 0)
				return NULL;
		}
	}
	p->read_sids_evsels = nr;
	return rp_hashmap_get(&p->read_sids, id);
}

static void rp_read_sids_release(struct rp_pipeline *p)
{
	struct rp_read_sid *e = p->read_sid_store;

	while (e) {
		struct rp_read_sid *next = e->next;

		free(e);
		e = next;
	}
	rp_hashmap_release(&p->read_sids);
}

/*
 * A sample with PERF_SAMPLE_READ reaches consumers once per value read, as
 * perf's evlist__deliver_sample() hands it on: as the event of the value's
 * id, with the value's increase since that id's previous sample as period;
 * values that did not move are not delivered.
 */
static int rp_deliver_read_sample(struct rp_pipeline *p, const struct rp_event *ev,
				  struct rp_resolved *r)
{
	const struct rp_read *read = &ev->u.sample.read;
	struct rp_event one = *ev;
	int ret = rp_consumers_event(p, ev, r, 1, rp_stack_slots(p), RP_TO_ALL);

	if (ret < 0)
		return ret;
	for (uint64_t i = 0; i < read->nr; i++) {
		struct rp_read_value v = rp_read_get(read, i);
		struct rp_read_sid *sid = rp_read_sid(p, v.id);

		if (!sid)
			continue;
		one.u.sample.id = v.id;
		one.u.sample.period = v.value - sid->value;
		sid->value = v.value;
		if (!one.u.sample.period)
			continue;
		one.evsel = sid->evsel;
		ret = rp_consumers_event(p, &one, r, 0, rp_stack_slots(p), RP_TO_ALL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * The first kernel address waits for /proc/kallsyms, which the kernel
 * formats on another thread for some 30-40 ms.  Meanwhile the pipeline's
 * thread loads what lookups in user space will load next: the symbol
 * tables of the DSOs with samples (those with a build-id, from the file's
 * table or MMAP2), in the machine's order, with their DWARF when inline
 * chains are looked up.  Each is loaded as its first lookup would load
 * it, so the output does not change; loading stops when the text is read.
 */
static void rp_preload_tables(struct rp_pipeline *p)
{
	int dwarf = (p->flags & RP_CONSUMER_CALLCHAIN) && p->can_unwind && !p->symbols->no_inline;

	p->preload = 0;
	for (size_t i = 0; i < p->machine->nr_dsos && rp_symbols_kallsyms_pending(p->symbols); i++) {
		struct rp_dso *dso = p->machine->dsos[i];
		struct rp_dso_symtab *t;

		/* symtab_ready, not symtab_tried: a walker may be loading the
		 * table (under the resolver's lock), and ready is the field
		 * published for other threads. */
		if (dso->kind != RP_DSO_USER || !dso->build_id_size ||
		    __atomic_load_n(&dso->symtab_ready, __ATOMIC_ACQUIRE))
			continue;
		if ((t = rp_symbols_table(p->symbols, dso)) && dwarf)
			(void)rp_symtab_dwarf(t);
	}
}

static inline void rp_prefetch_record(const uint8_t *rec)
{
	for (unsigned off = 0; off < RP_RING_PREFETCH_BYTES; off += 64)
		__builtin_prefetch(rec + off);
}

/* ---- consumers on a thread of their own -------------------------------- */

/*
 * A record handed to the stage: where it lies in the mapping (the stage
 * decodes it again, as the pipeline's thread decodes the reader's) and,
 * for a sample, its resolution.
 */
struct rp_stage_item {
	const uint8_t *rec;
	uint64_t offset, nr;
	const struct rp_evsel *evsel;
	uint32_t input;
	uint8_t sample; /* a sample: the fields below are set */
	unsigned filtered;
	struct rp_thread *thread;
	const char *comm;
	struct rp_addr_location al;
	const struct rp_frame *callchain;
	size_t nr_callchain;
	uint64_t stack_id;
	struct rp_stack_slot *slots; /* of its call-stack cache entry, or NULL */
};

struct rp_stage_batch {
	struct rp_stage_item item[RP_STAGE_BATCH];
	size_t nr, bytes;
};

/*
 * The consumers with RP_CONSUMER_OWN_THREAD on a thread of their own
 * (with RP_STAGE_MIN_THREADS threads or more, on records read from a
 * mapping): the
 * pipeline's thread resolves each record, calls the other consumers and
 * adds the record to a batch; the stage's thread hands the batches'
 * records, in order, to its consumers.  Batches [released, produced) are
 * the stage's ([released, consumed) being delivered), batch `produced`
 * is being filled.
 *
 * What may change the state a record was resolved in waits until the
 * stage has delivered every record before it (rp_stage_sync()): a record
 * that changes the machine, a thread lookup that gives a thread its pid
 * and maps.  A record the stage cannot carry (a sample whose frames are
 * not in the call-stack cache, or with read values; a record outside the
 * mapping) waits too, then reaches every consumer on the pipeline's
 * thread.  The call-stack cache keeps the frames of a record the stage
 * has not released (rp_scache_ent.pin).
 */
struct rp_stage {
	const struct rp_pipeline *p;
	struct rp_stage_batch *b; /* RP_STAGE_BATCHES */
	pthread_mutex_t lock;
	pthread_cond_t ready; /* a batch was published, or stop */
	pthread_cond_t space; /* a batch was released */
	uint64_t produced, consumed;
	uint64_t released; /* written under lock, read with __atomic_load */
	int stop;          /* no batch will come: the thread ends */
	int urgent;        /* the pipeline's thread waits for the stage */
	int cons_waiting, prod_waiting;
	int err;           /* a consumer's negative return: later records dropped */
	pthread_t thread;
	struct rp_decoder dec;
	struct rp_error dec_err;
	int dec_failed;
};

/* Delivers one batch to the stage's consumers.  0 or the first negative
 * value. */
static int rp_stage_deliver(struct rp_stage *st, const struct rp_stage_batch *b,
			    struct rp_resolved *res)
{
	struct rp_event ev;

	for (size_t i = 0; i < b->nr; i++) {
		const struct rp_stage_item *it = &b->item[i];
		int ret;

		/* As the pipeline's thread fetches them (rp_scache_prefetch()):
		 * the record, the slots, what the slots point at. */
		if (i + RP_RING_PREFETCH < b->nr)
			rp_prefetch_record(b->item[i + RP_RING_PREFETCH].rec);
		if (i + RP_SCACHE_AHEAD < b->nr && b->item[i + RP_SCACHE_AHEAD].slots)
			__builtin_prefetch(b->item[i + RP_SCACHE_AHEAD].slots);
		if (i + RP_SCACHE_AHEAD / 2 < b->nr && b->item[i + RP_SCACHE_AHEAD / 2].slots) {
			const struct rp_stack_slot *sl = b->item[i + RP_SCACHE_AHEAD / 2].slots;

			for (size_t k = 0; k < RP_SCACHE_SLOTS; k++)
				if (sl[k].ptr)
					__builtin_prefetch(sl[k].ptr);
		}
		if ((ret = rp_record_decode_with(&st->dec, &st->dec_err, it->rec, it->offset, it->nr,
						 it->evsel, &ev)) < 0) {
			/* The pipeline's thread decoded these bytes: only a
			 * file changed under the mapping gets here. */
			st->dec_failed = 1;
			return ret;
		}
		ev.input = it->input;
		ev.deferred = 0;
		if (it->sample) {
			res->thread = it->thread;
			res->comm = it->comm;
			res->al = it->al;
			res->nr_callchain = it->nr_callchain;
			res->callchain = it->callchain;
			res->stack_id = it->stack_id;
			res->filtered = it->filtered;
		}
		if ((ret = rp_consumers_event(st->p, &ev, it->sample ? res : NULL, -1, it->slots,
					      RP_TO_STAGE)) < 0)
			return ret;
	}
	return 0;
}

static void *rp_stage_main(void *arg)
{
	struct rp_stage *st = arg;
	struct rp_resolved res;

	/* Branches, data and code addresses stay empty: no consumer here
	 * asks for them (rp_stage_new()). */
	memset(&res, 0, sizeof(res));
	pthread_mutex_lock(&st->lock);
	for (;;) {
		st->cons_waiting = 1;
		while (!st->stop && (st->consumed == st->produced ||
				     (st->produced - st->consumed < RP_STAGE_WAKE && !st->urgent)))
			pthread_cond_wait(&st->ready, &st->lock);
		st->cons_waiting = 0;
		if (st->consumed == st->produced)
			break; /* stopped */
		const struct rp_stage_batch *b = &st->b[st->consumed++ % RP_STAGE_BATCHES];
		int err = st->err;

		pthread_mutex_unlock(&st->lock);
		if (!err)
			err = rp_stage_deliver(st, b, &res);
		pthread_mutex_lock(&st->lock);
		if (err < 0 && !st->err)
			st->err = err;
		__atomic_store_n(&st->released, st->released + 1, __ATOMIC_RELEASE);
		if (st->prod_waiting)
			pthread_cond_signal(&st->space);
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

/*
 * Publishes the batch being filled, when it has records, and waits until
 * the next one is free; with `all`, until the stage has delivered every
 * record published.  Returns 0 or the stage's error.
 */
static int rp_stage_publish(struct rp_stage *st, int all)
{
	struct rp_stage_batch *b = &st->b[st->produced % RP_STAGE_BATCHES];
	int err;

	pthread_mutex_lock(&st->lock);
	if (b->nr)
		st->produced++;
	if (all)
		st->urgent = 1;
	if (st->cons_waiting &&
	    (st->produced - st->consumed >= RP_STAGE_WAKE || (st->urgent && st->produced != st->consumed)))
		pthread_cond_signal(&st->ready);
	st->prod_waiting = 1;
	while (all ? st->released != st->produced
		   : st->produced - st->released >= RP_STAGE_BATCHES)
		pthread_cond_wait(&st->space, &st->lock);
	st->prod_waiting = 0;
	st->urgent = 0;
	err = st->err;
	pthread_mutex_unlock(&st->lock);
	b = &st->b[st->produced % RP_STAGE_BATCHES];
	b->nr = 0;
	b->bytes = 0;
	return err;
}

/* Waits until the stage has delivered every record handed to it.
 * Returns 0 or the stage's error. */
static int rp_stage_sync(struct rp_stage *st)
{
	if (!st->b[st->produced % RP_STAGE_BATCHES].nr &&
	    __atomic_load_n(&st->released, __ATOMIC_ACQUIRE) == st->produced) {
		int err;

		pthread_mutex_lock(&st->lock);
		err = st->err;
		pthread_mutex_unlock(&st->lock);
		return err;
	}
	return rp_stage_publish(st, 1);
}

/* Whether the stage can carry ev (r: its resolution, for a sample;
 * stable: ev points into the mapping). */
static int rp_stage_takes(const struct rp_pipeline *p, const struct rp_event *ev,
			  const struct rp_resolved *r, int stable)
{
	if (!stable || ev->deferred || !ev->data)
		return 0;
	if (!r)
		return !rp_changes_machine(ev->type);
	/* Frames elsewhere than in the cache are overwritten by the next
	 * sample's. */
	return !r->nr_callchain || p->stack;
}

/* Adds ev (resolved as r, for a sample) to the batch being filled.
 * Returns 0 or the stage's error. */
static int rp_stage_push(struct rp_pipeline *p, const struct rp_event *ev,
			 const struct rp_resolved *r)
{
	struct rp_stage *st = p->stage;
	struct rp_stage_batch *b = &st->b[st->produced % RP_STAGE_BATCHES];
	struct rp_stage_item *it = &b->item[b->nr++];

	it->rec = ev->data;
	it->offset = ev->offset;
	it->nr = ev->nr;
	it->evsel = ev->evsel;
	it->input = ev->input;
	it->sample = r != NULL;
	it->slots = NULL;
	if (r) {
		it->filtered = r->filtered;
		it->thread = r->thread;
		it->comm = r->comm;
		it->al = r->al;
		it->nr_callchain = r->nr_callchain;
		it->callchain = r->callchain;
		it->stack_id = r->stack_id;
		if (p->stack) {
			it->slots = rp_stack_slots(p);
			p->stack->pin = st->produced + 1;
		}
	}
	b->bytes += ev->size;
	if (b->nr == RP_STAGE_BATCH || b->bytes >= RP_STAGE_BATCH_BYTES)
		return rp_stage_publish(st, 0);
	return 0;
}

/* Whether the call-stack cache's entry e may take another stack: the
 * stage has released every record that uses its frames. */
static int rp_stage_unpinned(const struct rp_pipeline *p, const struct rp_scache_ent *e)
{
	return !p->stage || e->pin <= __atomic_load_n(&p->stage->released, __ATOMIC_ACQUIRE);
}

/* Ends the stage after it delivered every record (p->stage NULL after).
 * Returns 0 or the stage's error. */
static int rp_stage_free(struct rp_pipeline *p, struct rp_session *session)
{
	struct rp_stage *st = p->stage;
	int err;

	if (!st)
		return 0;
	err = rp_stage_sync(st);
	pthread_mutex_lock(&st->lock);
	st->stop = 1;
	pthread_cond_signal(&st->ready);
	pthread_mutex_unlock(&st->lock);
	pthread_join(st->thread, NULL);
	if (st->dec_failed)
		session->err = st->dec_err;
	rp_decoder_release(&st->dec);
	pthread_cond_destroy(&st->space);
	pthread_cond_destroy(&st->ready);
	pthread_mutex_destroy(&st->lock);
	free(st->b);
	free(st);
	p->stage = NULL;
	return err;
}

/*
 * Starts the stage when some consumer may run there and none asks for
 * what the stage does not carry (branches, memory addresses).  Without
 * it (no memory, no thread) every consumer runs on the caller's thread.
 */
static void rp_stage_new(struct rp_pipeline *p)
{
	size_t own = 0;

	for (size_t i = 0; i < p->nr_consumers; i++)
		own += !!(p->consumers[i].flags & RP_CONSUMER_OWN_THREAD);
	if (!own || (p->flags & (RP_CONSUMER_BRANCHES | RP_CONSUMER_MEM)))
		return;
	struct rp_stage *st = calloc(1, sizeof(*st));
	int made = 0; /* of the lock and the two conditions */

	if (!st)
		return;
	st->p = p;
	st->b = calloc(RP_STAGE_BATCHES, sizeof(*st->b));
	if (st->b && !pthread_mutex_init(&st->lock, NULL))
		made = 1;
	if (made == 1 && !pthread_cond_init(&st->ready, NULL))
		made = 2;
	if (made == 2 && !pthread_cond_init(&st->space, NULL))
		made = 3;
	if (made == 3 && !pthread_create(&st->thread, NULL, rp_stage_main, st)) {
		p->stage = st;
		return;
	}
	if (made >= 3)
		pthread_cond_destroy(&st->space);
	if (made >= 2)
		pthread_cond_destroy(&st->ready);
	if (made >= 1)
		pthread_mutex_destroy(&st->lock);
	free(st->b);
	free(st);
}

/* One record through the machine and the consumers; job: the record
 * read ahead and prepared (its thread, and its walk when it has one), or
 * NULL; stable: ev points into the mapping (it may go to the stage).
 * Returns 0 or the first negative value. */
static int rp_pipeline_event(struct rp_pipeline *p, const struct rp_event *ev,
			     const struct rp_uw_job *job, int stable)
{
	struct rp_resolved *r = NULL;
	struct rp_resolved res;
	int ret;

	p->stack = NULL;
	if (ev->type == RP_RECORD_SAMPLE) {
		if (!ev->evsel)
			return 0; /* unknown sample id: counted, skipped */
		const struct rp_sample *d = &ev->u.sample;
		uint8_t cpumode = (uint8_t)(ev->misc & RP_MISC_CPUMODE_MASK);

		if (rp_filter_drops(p->filter, ev))
			return 0; /* --cpu, --time: as if not recorded */
		res.thread = job ? job->thread : rp_pipeline_thread(p, d->pid, d->tid);
		if (!res.thread)
			return RP_ERR_NOMEM;
		res.comm = rp_thread_comm(res.thread);
		if (p->preload)
			rp_preload_tables(p);
		rp_resolve_ip(p, res.thread, cpumode, d->ip, &res.al);
		res.nr_callchain = 0;
		res.callchain = NULL;
		res.stack_id = 0;
		res.stack_slot = NULL;
		res.nr_branches = 0;
		res.branches = NULL;
		memset(&res.data, 0, sizeof(res.data));
		memset(&res.code, 0, sizeof(res.code));
		res.filtered = rp_filter_entry(p->filter, &res);
		if (res.filtered && !(p->flags & RP_CONSUMER_FILTERED))
			return 0;
		if (p->flags & RP_CONSUMER_CALLCHAIN) {
			int unwind = p->can_unwind && rp_unwind_applies(d) &&
				     rp_unwind_ready(p, res.thread);

			if ((d->callchain_nr || unwind) &&
			    (ret = rp_resolve_callchain(p, d, unwind, job && job->walk ? job : NULL,
							&res)) < 0)
				return ret;
		}
		if ((p->flags & RP_CONSUMER_BRANCHES) && (ret = rp_resolve_branches(p, d, &res)) < 0)
			return ret;
		if (p->flags & RP_CONSUMER_MEM) {
			/* perf: the instruction address first, then the data
			 * address in the sample's mode. */
			rp_resolve_any_mode(p, res.thread, d->ip, &res.code);
			rp_resolve_ip(p, res.thread, cpumode,
				      (d->sample_type & RP_SAMPLE_ADDR) ? d->addr : 0, &res.data);
		}
		if (d->sample_type & RP_SAMPLE_READ) {
			if (p->stage && (ret = rp_stage_sync(p->stage)) < 0)
				return ret;
			return rp_deliver_read_sample(p, ev, &res);
		}
		r = &res;
	} else {
		if (p->stage && rp_changes_machine(ev->type) && (ret = rp_stage_sync(p->stage)) < 0)
			return ret;
		ret = rp_machine_process(p->machine, ev);
		if (rp_changes_machine(ev->type))
			p->gen++;
		if (ret < 0)
			return ret;
	}
	if (p->stage) {
		if (rp_stage_takes(p, ev, r, stable)) {
			if ((ret = rp_consumers_event(p, ev, r, -1, rp_stack_slots(p), RP_TO_HERE)) < 0)
				return ret;
			return rp_stage_push(p, ev, r);
		}
		if ((ret = rp_stage_sync(p->stage)) < 0)
			return ret;
	}
	return rp_consumers_event(p, ev, r, -1, rp_stack_slots(p), RP_TO_ALL);
}

/* ---- walks on several threads ------------------------------------------ */

static void *rp_uw_worker_main(void *arg)
{
	struct rp_uw_pool *pool = arg;
	struct rp_unwinder *u = NULL;

	pthread_mutex_lock(&pool->lock);
	for (;;) {
		while (pool->wq_head == pool->wq_tail && !pool->stop) {
			pool->idle++;
			pthread_cond_wait(&pool->work, &pool->lock);
			pool->idle--;
		}
		if (pool->stop)
			break;
		uint64_t seq = pool->wq[pool->wq_head++ % RP_UW_AHEAD];
		struct rp_uw_job *job = &pool->jobs[seq % RP_UW_AHEAD];

		job->state = RP_UW_TAKEN;
		/* Enough left for another sleeper too. */
		if (pool->idle && pool->wq_tail - pool->wq_head >= RP_UW_WAKE_AT)
			pthread_cond_signal(&pool->work);
		pthread_mutex_unlock(&pool->lock);
		/* Without an unwinder (no memory) the sampled ip alone, as
		 * where no walk can start; the pipeline then fails the same
		 * way when it needs one of its own. */
		if (!u)
			rp_unwinder_new(&u, pool->p->machine, pool->p->symbols);
		job->nr = u ? rp_unwind_user(u, job->maps, job->pid, job->tid, &job->ev.u.sample,
					     job->ips, RP_UNWIND_MAX_STACK)
			    : 0;
		pthread_mutex_lock(&pool->lock);
		job->state = RP_UW_DONE;
		if (pool->waiting)
			pthread_cond_signal(&pool->done);
	}
	pthread_mutex_unlock(&pool->lock);
	rp_unwinder_free(u);
	return NULL;
}

static void rp_uw_pool_free(struct rp_uw_pool *pool)
{
	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	pool->stop = 1;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->lock);
	for (unsigned i = 0; i < pool->nr_threads; i++)
		pthread_join(pool->threads[i], NULL);
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->work);
	pthread_mutex_destroy(&pool->lock);
	for (size_t i = 0; i < RP_UW_AHEAD; i++)
		free(pool->jobs[i].copy);
	rp_decoder_release(&pool->dec);
	free(pool->threads);
	free(pool->jobs);
	free(pool);
}

/* The pool of p->nr_threads - 1 workers, or NULL when none could be made
 * (then walks are done as with one thread). */
static struct rp_uw_pool *rp_uw_pool_new(struct rp_pipeline *p)
{
	unsigned n = p->nr_threads - 1;
	struct rp_uw_pool *pool = calloc(1, sizeof(*pool));

	if (n > RP_UW_MAX_WORKERS)
		n = RP_UW_MAX_WORKERS;
	if (!pool)
		return NULL;
	pool->p = p;
	pool->jobs = calloc(RP_UW_AHEAD, sizeof(*pool->jobs));
	pool->threads = calloc(n, sizeof(*pool->threads));
	if (!pool->jobs || !pool->threads || pthread_mutex_init(&pool->lock, NULL)) {
		free(pool->jobs);
		free(pool->threads);
		free(pool);
		return NULL;
	}
	if (pthread_cond_init(&pool->work, NULL)) {
		pthread_mutex_destroy(&pool->lock);
		free(pool->jobs);
		free(pool->threads);
		free(pool);
		return NULL;
	}
	if (pthread_cond_init(&pool->done, NULL)) {
		pthread_cond_destroy(&pool->work);
		pthread_mutex_destroy(&pool->lock);
		free(pool->jobs);
		free(pool->threads);
		free(pool);
		return NULL;
	}
	while (pool->nr_threads < n &&
	       pthread_create(&pool->threads[pool->nr_threads], NULL, rp_uw_worker_main, pool) == 0)
		pool->nr_threads++;
	if (!pool->nr_threads) {
		rp_uw_pool_free(pool);
		return NULL;
	}
	return pool;
}

/*
 * Prepares the records read ahead whose machine state is settled: looks
 * up each sample's thread (in record order, as rp_pipeline_event() would)
 * and queues its walk.  Stops at a record that may change the machine
 * until it was processed.
 */
static void rp_uw_prepare(struct rp_pipeline *p)
{
	struct rp_uw_pool *pool = p->pool;
	uint64_t walks[RP_UW_AHEAD];
	size_t nr_walks = 0;

	for (; pool->prepared < pool->tail; pool->prepared++) {
		struct rp_uw_job *job = &pool->jobs[pool->prepared % RP_UW_AHEAD];
		const struct rp_event *ev = &job->ev;

		if (ev->type != RP_RECORD_SAMPLE) {
			if (rp_changes_machine(ev->type) && pool->prepared >= pool->head)
				break;
			continue;
		}
		const struct rp_sample *d = &ev->u.sample;

		/* A lookup that gives an existing thread its pid and maps
		 * changes what the samples before it resolve to: it waits
		 * until they were processed. */
		if (pool->prepared > pool->head && ev->evsel && !rp_filter_drops(p->filter, ev) &&
		    rp_machine_findnew_changes(p->machine, d->pid, d->tid))
			break;
		job->prepared = 1;
		job->walk = 0;
		job->thread = NULL;
		if (!ev->evsel || rp_filter_drops(p->filter, ev))
			continue;

		job->thread = rp_pipeline_thread(p, d->pid, d->tid);
		if (!job->thread || !(p->flags & RP_CONSUMER_CALLCHAIN) || !p->can_unwind ||
		    !rp_unwind_applies(d) || !rp_unwind_ready(p, job->thread))
			continue;
		job->maps = job->thread->maps;
		job->pid = job->thread->pid;
		job->tid = job->thread->tid;
		job->walk = 1;
		walks[nr_walks++] = pool->prepared;
	}
	if (!nr_walks)
		return;
	pthread_mutex_lock(&pool->lock);
	for (size_t i = 0; i < nr_walks; i++) {
		pool->jobs[walks[i] % RP_UW_AHEAD].state = RP_UW_QUEUED;
		pool->wq[pool->wq_tail++ % RP_UW_AHEAD] = walks[i];
	}
	if (pool->idle && pool->wq_tail - pool->wq_head >= RP_UW_WAKE_AT)
		pthread_cond_signal(&pool->work);
	pthread_mutex_unlock(&pool->lock);
}

/* Walks the job on the pipeline's thread (its own unwinder).  Returns 0
 * or RP_ERR_NOMEM. */
static int rp_uw_walk_here(struct rp_pipeline *p, struct rp_uw_job *job)
{
	if (!p->unwinder && rp_unwinder_new(&p->unwinder, p->machine, p->symbols) < 0)
		return RP_ERR_NOMEM;
	job->nr = rp_unwind_user(p->unwinder, job->maps, job->pid, job->tid, &job->ev.u.sample,
				 job->ips, RP_UNWIND_MAX_STACK);
	return 0;
}

/* Processes the oldest record read ahead.  Returns 0 or the first
 * negative value. */
static int rp_uw_consume(struct rp_pipeline *p)
{
	struct rp_uw_pool *pool = p->pool;
	struct rp_uw_job *job = &pool->jobs[pool->head % RP_UW_AHEAD];
	int ret = 0;

	if (pool->prepared == pool->head)
		rp_uw_prepare(p); /* every record before it was processed */
	if (job->ev.type == RP_RECORD_SAMPLE && job->walk) {
		pthread_mutex_lock(&pool->lock);
		/* Walks are queued in record order and this is the oldest
		 * record: a walk not taken yet is the queue's first. */
		if (job->state == RP_UW_QUEUED) {
			pool->wq_head++;
			job->state = RP_UW_TAKEN;
			pthread_mutex_unlock(&pool->lock);
			ret = rp_uw_walk_here(p, job);
			pthread_mutex_lock(&pool->lock);
			job->state = RP_UW_DONE;
		}
		/* A worker has it: walk later ones meanwhile when there is
		 * one worker or the workers are behind (with several, the
		 * head's walk is soon done, and the pipeline's thread is what
		 * the others wait for). */
		while (job->state != RP_UW_DONE && ret >= 0) {
			uint64_t queued = pool->wq_tail - pool->wq_head;

			if (queued && (pool->nr_threads == 1 || queued >= RP_UW_WAKE_AT)) {
				uint64_t seq = pool->wq[pool->wq_head++ % RP_UW_AHEAD];
				struct rp_uw_job *other = &pool->jobs[seq % RP_UW_AHEAD];

				other->state = RP_UW_TAKEN;
				pthread_mutex_unlock(&pool->lock);
				ret = rp_uw_walk_here(p, other);
				pthread_mutex_lock(&pool->lock);
				other->state = RP_UW_DONE;
				continue;
			}
			pool->waiting = pool->head + 1;
			pthread_cond_wait(&pool->done, &pool->lock);
			pool->waiting = 0;
		}
		pthread_mutex_unlock(&pool->lock);
		if (ret < 0)
			return ret;
	}
	ret = rp_pipeline_event(p, &job->ev,
				job->ev.type == RP_RECORD_SAMPLE && job->prepared ? job : NULL,
				job->stable);
	pool->head++;
	if (ret >= 0 && pool->prepared < pool->tail)
		rp_uw_prepare(p); /* past a record just applied */
	return ret;
}

/* Processes every record read ahead.  Returns 0 or the first negative
 * value. */
static int rp_uw_drain(struct rp_pipeline *p)
{
	while (p->pool && p->pool->head != p->pool->tail) {
		int ret = rp_uw_consume(p);

		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Whether ev is a sample that a worker could walk. */
static int rp_uw_wanted(const struct rp_pipeline *p, const struct rp_event *ev)
{
	return ev->type == RP_RECORD_SAMPLE && ev->evsel && (p->flags & RP_CONSUMER_CALLCHAIN) &&
	       p->can_unwind && rp_unwind_applies(&ev->u.sample);
}

/* Whether a sample that is not stable can be read ahead as a copy of its
 * record, decoded again: one in the file's byte order, not merged with a
 * deferred callchain (whose entries are not in its record). */
static int rp_uw_copyable(const struct rp_pipeline *p, const struct rp_event *ev)
{
	return ev->type == RP_RECORD_SAMPLE && ev->evsel && ev->data && ev->size >= 8 &&
	       !ev->deferred && !p->session->swap;
}

/*
 * One record into the pipeline: at once with one thread; with more, read
 * ahead (stable: its pointers outlive the next read, into the mapping;
 * else a sample is copied) and processed in order.  A record that is
 * neither is processed after every record read ahead, at once.  Returns 0
 * or the first negative value.
 */
static int rp_pipeline_feed(struct rp_pipeline *p, const struct rp_event *ev, int stable)
{
	if (!p->pool && p->nr_threads >= 2 && !p->pool_failed && rp_uw_wanted(p, ev) &&
	    (stable || rp_uw_copyable(p, ev))) {
		p->pool = rp_uw_pool_new(p);
		p->pool_failed = !p->pool;
	}
	if (!p->pool)
		return rp_pipeline_event(p, ev, NULL, stable);
	int ret;

	p->has_ring_key = 0; /* processed later, with other records */

	if (!stable && !rp_uw_copyable(p, ev)) {
		if ((ret = rp_uw_drain(p)) < 0)
			return ret;
		return rp_pipeline_event(p, ev, NULL, 0);
	}
	if (p->pool->tail - p->pool->head == RP_UW_AHEAD && (ret = rp_uw_consume(p)) < 0)
		return ret;
	struct rp_uw_job *job = &p->pool->jobs[p->pool->tail % RP_UW_AHEAD];

	if (stable) {
		job->ev = *ev;
	} else {
		struct rp_error err = { 0 };

		if (job->copy_alloc < ev->size) {
			uint8_t *c = malloc(ev->size);

			if (!c)
				return RP_ERR_NOMEM;
			free(job->copy);
			job->copy = c;
			job->copy_alloc = ev->size;
		}
		memcpy(job->copy, ev->data, ev->size);
		/* The reader decoded these bytes already. */
		if ((ret = rp_record_decode_with(&p->pool->dec, &err, job->copy, ev->offset, ev->nr,
						 ev->evsel, &job->ev)) < 0)
			return ret;
		job->ev.input = ev->input;
		job->ev.deferred = ev->deferred;
	}
	job->prepared = 0;
	job->walk = 0;
	job->stable = (uint8_t)stable;
	p->pool->tail++;
	rp_uw_prepare(p);
	return 0;
}

/* ---- two threads ------------------------------------------------------- */

/* A record the reader hands to the pipeline: what decoding it again
 * takes (the record stays in the mapping). */
struct rp_ring_rec {
	const uint8_t *rec; /* NULL: the batch's `full` event */
	uint64_t offset, nr;
	const struct rp_evsel *evsel;
	uint32_t input;
	uint8_t deferred;
	uint8_t has_key;
	uint64_t stack_key; /* a sample's rp_stack_key(), when has_key */
};

struct rp_ring_batch {
	struct rp_ring_rec rec[RP_RING_BATCH];
	struct rp_event full; /* an event outside the mapping: the batch's last */
	size_t nr;
	int end;  /* the reader is done: code is its last return */
	int code;
};

struct rp_ring {
	struct rp_session *session;
	/* The reader computes stack keys (the pipeline has a call-stack
	 * cache), for samples not unwound (can_unwind: they may be). */
	int stack_keys, can_unwind;
	struct rp_ring_batch *b; /* RP_RING_BATCHES */
	pthread_mutex_t lock;
	pthread_cond_t ready; /* a batch was published */
	pthread_cond_t space; /* a batch was released, or stop */
	/* Batch counts: [consumed, produced) are ready, [released,
	 * consumed) being consumed. */
	uint64_t produced, consumed, released;
	int stop;   /* the consumer gave up: the reader ends */
	int done;   /* the reader published its last batch */
	int urgent; /* a published batch must be consumed now (sync) */
	int cons_waiting, prod_waiting;
};

/*
 * Whether ev's pointers stay valid after the next rp_session_next(): they
 * do when they point into a mapped input in the file's own layout (no
 * byte swap, an aligned record, so no copy in the reader's buffer).
 */
static int rp_event_stable(const struct rp_session *s, const struct rp_event *ev)
{
	const uint8_t *d = ev->data;

	if (!d || s->swap || ((uintptr_t)d & 7u))
		return 0;
	for (size_t i = 0; i < s->nr_inputs; i++) {
		const struct rp_input *in = &s->inputs[i];

		if (in->map && d >= in->map && (uint64_t)(d - in->map) < in->map_size &&
		    ev->size <= in->map_size - (uint64_t)(d - in->map))
			return 1;
	}
	return 0;
}

/* Whether some event of the session samples the kernel. */
static int rp_session_samples_kernel(const struct rp_session *s)
{
	for (size_t i = 0; i < rp_session_nr_evsels(s); i++)
		if (!(rp_evsel_attr(rp_session_evsel(s, i))->flags & RP_ATTR_EXCLUDE_KERNEL))
			return 1;
	return 0;
}

/* Whether every record of the session is read from a mapping. */
static int rp_session_threadable(const struct rp_session *s)
{
	if (s->pipe || s->swap || rp_session_has_feature(s, RP_FEAT_COMPRESSED))
		return 0;
	for (size_t i = 0; i < s->nr_inputs; i++)
		if (s->inputs[i].stream || (!s->inputs[i].map && s->inputs[i].map_size))
			return 0;
	return 1;
}

/* The cache key of a sample's recorded stack, for the pipeline to fetch
 * its entry ahead (rp_scache_prefetch()); as rp_resolve_callchain()
 * computes it. */
static void rp_ring_stack_key(const struct rp_ring *r, const struct rp_event *ev,
			      struct rp_ring_rec *rr)
{
	const struct rp_sample *d = &ev->u.sample;
	uint64_t nr;

	if (ev->type != RP_RECORD_SAMPLE || !ev->evsel || ev->deferred || !d->callchain_nr ||
	    (r->can_unwind && rp_unwind_applies(d)))
		return;
	nr = rp_recorded_nr(d);
	if (nr > RP_SCACHE_MAX_IPS)
		return;
	rr->stack_key = rp_stack_key(d->callchain, nr, d->pid, d->tid, nr);
	rr->has_key = 1;
}

/*
 * Fetches ahead what a sample's stack reads in the call-stack cache:
 * its entry (stage 0, a few records ahead), then, once the entry is near,
 * the entries, frames and consumers' stacks it points at (stage 1).  The
 * cache is spread over megabytes, so each of these is a miss otherwise.
 */
static inline void rp_scache_prefetch(const struct rp_pipeline *p, uint64_t key, int stage)
{
	const struct rp_scache_ent *e = rp_scache_set(p, key);

	if (!stage) {
		for (unsigned w = 0; w < RP_SCACHE_WAYS; w++) {
			__builtin_prefetch(&e[w]);
			__builtin_prefetch((const char *)&e[w] + 64);
		}
		return;
	}
	for (unsigned w = 1; w < RP_SCACHE_WAYS && (e->gen != p->gen || e->hash != key); w++)
		e++;
	if (e->gen != p->gen || e->hash != key)
		return;
	for (uint32_t off = 0; off < e->nr_ips * sizeof(uint64_t); off += 64)
		__builtin_prefetch((const char *)e->ips + off);
	__builtin_prefetch(e->frames);
	if (p->stage)
		return; /* the slots are the stage's thread's */
	const struct rp_stack_slot *slot = &p->slots[(size_t)(e - p->scache) * RP_SCACHE_SLOTS];

	for (size_t i = 0; i < RP_SCACHE_SLOTS; i++)
		if (slot[i].ptr)
			__builtin_prefetch(slot[i].ptr);
}

static void *rp_reader_main(void *arg)
{
	struct rp_ring *r = arg;

	for (;;) {
		pthread_mutex_lock(&r->lock);
		if (r->produced - r->released >= RP_RING_BATCHES) {
			r->prod_waiting = 1;
			while (r->produced - r->released > RP_RING_BATCHES - RP_RING_WAKE &&
			       !r->stop)
				pthread_cond_wait(&r->space, &r->lock);
			r->prod_waiting = 0;
		}
		int stop = r->stop;
		uint64_t slot = r->produced;
		pthread_mutex_unlock(&r->lock);
		if (stop)
			break;

		struct rp_ring_batch *b = &r->b[slot % RP_RING_BATCHES];
		int sync = 0;

		b->nr = 0;
		b->end = 0;
		b->code = 0;
		size_t bytes = 0;

		while (b->nr < RP_RING_BATCH && bytes < RP_RING_BATCH_BYTES) {
			struct rp_event ev;
			int ret = rp_session_read(r->session, &ev);

			if (ret <= 0) {
				b->end = 1;
				b->code = ret;
				break;
			}
			struct rp_ring_rec *rr = &b->rec[b->nr++];

			if (!rp_event_stable(r->session, &ev)) {
				rr->rec = NULL;
				rr->has_key = 0; /* the batches are not zeroed */
				b->full = ev;
				sync = 1;
				break;
			}
			*rr = (struct rp_ring_rec){ ev.data, ev.offset, ev.nr, ev.evsel, ev.input,
						    ev.deferred, 0, 0 };
			if (r->stack_keys)
				rp_ring_stack_key(r, &ev, rr);
			bytes += ev.size;
		}
		pthread_mutex_lock(&r->lock);
		r->produced++;
		if (b->end)
			r->done = 1;
		if (sync)
			r->urgent = 1;
		if (r->cons_waiting &&
		    (r->produced - r->consumed >= RP_RING_WAKE || r->done || r->urgent))
			pthread_cond_signal(&r->ready);
		/* An event in the reader's buffers is consumed before the
		 * reader moves on. */
		if (sync) {
			r->prod_waiting = 1;
			while (r->released != r->produced && !r->stop)
				pthread_cond_wait(&r->space, &r->lock);
			r->prod_waiting = 0;
			r->urgent = 0;
		}
		pthread_mutex_unlock(&r->lock);
		if (b->end)
			break;
	}
	return NULL;
}

static int rp_process_threaded(struct rp_pipeline *p, struct rp_session *session, int *ran)
{
	struct rp_ring r;
	pthread_t reader;
	struct rp_decoder dec = { 0 };
	struct rp_error dec_err = { 0 };
	struct rp_event one;
	int ret = 0, dec_failed = 0;

	*ran = 0;
	memset(&r, 0, sizeof(r));
	r.session = session;
	r.stack_keys = p->scache != NULL;
	r.can_unwind = p->can_unwind;
	r.b = malloc(RP_RING_BATCHES * sizeof(*r.b));
	if (!r.b)
		return 0;
	if (pthread_mutex_init(&r.lock, NULL)) {
		free(r.b);
		return 0;
	}
	if (pthread_cond_init(&r.ready, NULL)) {
		pthread_mutex_destroy(&r.lock);
		free(r.b);
		return 0;
	}
	if (pthread_cond_init(&r.space, NULL)) {
		pthread_cond_destroy(&r.ready);
		pthread_mutex_destroy(&r.lock);
		free(r.b);
		return 0;
	}
	if (pthread_create(&reader, NULL, rp_reader_main, &r) == 0) {
		*ran = 1;
		if (p->nr_threads >= RP_STAGE_MIN_THREADS)
			rp_stage_new(p);
		for (;;) {
			pthread_mutex_lock(&r.lock);
			if (r.consumed == r.produced) {
				r.cons_waiting = 1;
				while (r.produced - r.consumed < RP_RING_WAKE && !r.done && !r.urgent)
					pthread_cond_wait(&r.ready, &r.lock);
				while (r.consumed == r.produced)
					pthread_cond_wait(&r.ready, &r.lock);
				r.cons_waiting = 0;
			}
			struct rp_ring_batch *b = &r.b[r.consumed++ % RP_RING_BATCHES];
			pthread_mutex_unlock(&r.lock);

			for (size_t i = 0; i < b->nr && ret >= 0; i++) {
				const struct rp_ring_rec *rr = &b->rec[i];
				const struct rp_event *ev = &b->full;

				/* The records were last touched by the reader's
				 * core: ask for the next ones ahead of use. */
				if (i + RP_RING_PREFETCH < b->nr && b->rec[i + RP_RING_PREFETCH].rec)
					rp_prefetch_record(b->rec[i + RP_RING_PREFETCH].rec);
				if (i + RP_SCACHE_AHEAD < b->nr && b->rec[i + RP_SCACHE_AHEAD].has_key)
					rp_scache_prefetch(p, b->rec[i + RP_SCACHE_AHEAD].stack_key, 0);
				if (i + RP_SCACHE_AHEAD / 2 < b->nr &&
				    b->rec[i + RP_SCACHE_AHEAD / 2].has_key)
					rp_scache_prefetch(p, b->rec[i + RP_SCACHE_AHEAD / 2].stack_key,
							   1);

				if (rr->rec) {
					ret = rp_record_decode_with(&dec, &dec_err, rr->rec, rr->offset,
								    rr->nr, rr->evsel, &one);
					if (ret < 0) {
						dec_failed = 1;
						break;
					}
					one.input = rr->input;
					one.deferred = rr->deferred;
					ev = &one;
				}
				p->ring_key = rr->stack_key;
				p->has_ring_key = rr->has_key;
				ret = rp_pipeline_feed(p, ev, rr->rec != NULL);
				p->has_ring_key = 0;
			}
			int end = b->end;

			/* The records read ahead come before the reader's end
			 * or error. */
			if (ret >= 0 && end)
				ret = rp_uw_drain(p);
			if (ret >= 0)
				ret = b->code;
			pthread_mutex_lock(&r.lock);
			r.released++;
			if (ret < 0 || end)
				r.stop = 1;
			if (r.prod_waiting &&
			    (r.stop || r.urgent ||
			     r.produced - r.released <= RP_RING_BATCHES - RP_RING_WAKE))
				pthread_cond_signal(&r.space);
			pthread_mutex_unlock(&r.lock);
			if (ret < 0 || end)
				break;
		}
		/* Every record before the end or the error is delivered. */
		int stage_ret = rp_stage_free(p, session);

		if (ret >= 0)
			ret = stage_ret;
		pthread_join(reader, NULL);
		/* The reader decoded this record already: only a file changed
		 * under the mapping gets here. */
		if (dec_failed)
			session->err = dec_err;
	}
	rp_decoder_release(&dec);
	pthread_cond_destroy(&r.space);
	pthread_cond_destroy(&r.ready);
	pthread_mutex_destroy(&r.lock);
	free(r.b);
	return ret;
}

static int rp_process_run(struct rp_session *session, struct rp_machine *machine,
			  struct rp_symbols *symbols, const struct rp_consumer *consumers,
			  size_t nr_consumers, const struct rp_process_opts *o)
{
	struct rp_pipeline *p = calloc(1, sizeof(*p));
	unsigned nr_threads = o->nr_threads ? o->nr_threads : 1;
	struct rp_event ev;
	int ret = 0, ran = 0;

	if (!p)
		return RP_ERR_NOMEM;
	p->machine = machine;
	p->symbols = symbols;
	p->session = session;
	p->consumers = consumers;
	p->nr_consumers = nr_consumers;
	p->filter = o->filter;
	p->max_unwind = o->max_stack_set && o->max_stack < RP_UNWIND_MAX_STACK ? o->max_stack
										 : RP_UNWIND_MAX_STACK;
	p->gen = 1;
	/* With a second CPU, the kernel formats /proc/kallsyms for us while
	 * the records are read, when some event samples the kernel.  Started
	 * first: the caches below take milliseconds to clear (the call-stack
	 * cache is 10 MiB of fresh pages). */
	if (nr_threads >= 2 && symbols && rp_session_samples_kernel(session)) {
		rp_symbols_prefetch_kallsyms(symbols);
		p->preload = machine && rp_symbols_kallsyms_pending(symbols);
	}
	/* Without the cache the pipeline only runs slower. */
	p->rcache = calloc(RP_RCACHE_SIZE, sizeof(*p->rcache));
	for (size_t i = 0; i < nr_consumers; i++)
		p->flags |= consumers[i].flags;
	if (p->flags & RP_CONSUMER_CALLCHAIN) {
		p->scache = calloc(RP_SCACHE_SIZE, sizeof(*p->scache));
		p->slots = calloc(RP_SCACHE_SIZE * RP_SCACHE_SLOTS, sizeof(*p->slots));
		if (!p->slots) {
			free(p->scache);
			p->scache = NULL;
		}
	}
	p->can_unwind = symbols && machine;
	p->nr_threads = nr_threads;
	/* A directory's data.N files are framed on threads of their own. */
	rp_session_set_threads(session, nr_threads);
	if (nr_threads >= 2 && rp_session_threadable(session))
		ret = rp_process_threaded(p, session, &ran);
	if (!ran) {
		int rd;

		while ((rd = rp_session_read(session, &ev)) > 0) {
			ret = rp_pipeline_feed(p, &ev, rp_event_stable(session, &ev));
			if (ret < 0)
				break;
		}
		if (ret >= 0 && (ret = rp_uw_drain(p)) >= 0)
			ret = rd;
	}
	/* A symbol table lost for lack of memory makes every result wrong. */
	if (ret >= 0 && rp_symbols_error(symbols) < 0)
		ret = rp_symbols_error(symbols);
	rp_uw_pool_free(p->pool);
	rp_unwinder_free(p->unwinder);
	free(p->uw_ips);
	free(p->frames);
	free(p->branches);
	free(p->rcache);
	for (size_t i = 0; p->scache && i < RP_SCACHE_SIZE; i++)
		free(p->scache[i].frames);
	free(p->scache);
	free(p->slots);
	rp_read_sids_release(p);
	free(p);
	return ret;
}

int rp_process_mt(struct rp_session *session, struct rp_machine *machine,
		  struct rp_symbols *symbols, const struct rp_consumer *consumers,
		  size_t nr_consumers, unsigned nr_threads)
{
	struct rp_process_opts o = { .sz = sizeof(o), .nr_threads = nr_threads };

	return rp_process_run(session, machine, symbols, consumers, nr_consumers, &o);
}

int rp_process_ext(struct rp_session *session, struct rp_machine *machine,
		   struct rp_symbols *symbols, const struct rp_consumer *consumers,
		   size_t nr_consumers, const struct rp_process_opts *opts)
{
	struct rp_process_opts o;

	if (rp_opts_copy(&o, sizeof(o), opts) < 0)
		return RP_ERR_INVAL;
	return rp_process_run(session, machine, symbols, consumers, nr_consumers, &o);
}

int rp_process(struct rp_session *session, struct rp_machine *machine,
	       struct rp_symbols *symbols, const struct rp_consumer *consumers,
	       size_t nr_consumers)
{
	struct rp_process_opts o = { .sz = sizeof(o), .nr_threads = 1 };

	return rp_process_run(session, machine, symbols, consumers, nr_consumers, &o);
}
