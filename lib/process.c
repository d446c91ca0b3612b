/* SPDX-License-Identifier: MIT */
/*
 * The pipeline: session -> machine -> symbols -> consumers.  Each record is
 * applied to the machine before consumers see it, so that a sample meets
 * the threads, comms and maps valid at its time.
 */
#include <stdlib.h>

#include <readperf/process.h>

struct rp_pipeline {
	struct rp_machine *machine;
	struct rp_symbols *symbols;
	struct rp_frame *frames;
	size_t frames_alloc;
};

static void rp_resolve_ip(struct rp_pipeline *p, struct rp_thread *thread, uint8_t cpumode,
			  uint64_t ip, struct rp_addr_location *al)
{
	if (p->symbols)
		rp_symbols_resolve(p->symbols, p->machine, thread, cpumode, ip, al);
	else
		rp_machine_find_map(p->machine, thread, cpumode, ip, al);
}

/*
 * perf's thread__resolve_callchain_sample() for frame-pointer chains, in
 * callee order: entries start in user mode; PERF_CONTEXT_{HV,KERNEL,USER}
 * switch the mode of the entries after them; any other marker means a
 * corrupt chain, which perf discards whole.
 */
static int rp_resolve_callchain(struct rp_pipeline *p, const struct rp_sample *d,
				struct rp_resolved *res)
{
	uint64_t nr = d->callchain_nr < RP_MAX_CALLCHAIN ? d->callchain_nr : RP_MAX_CALLCHAIN;
	uint8_t cpumode = RP_MISC_USER;
	size_t n = 0;

	res->nr_callchain = 0;
	res->callchain = NULL;
	if (nr > p->frames_alloc) {
		struct rp_frame *f = realloc(p->frames, (size_t)nr * sizeof(*f));

		if (!f)
			return RP_ERR_NOMEM;
		p->frames = f;
		p->frames_alloc = (size_t)nr;
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip = d->callchain[i];

		if (ip >= RP_CONTEXT_MAX) {
			if (ip == RP_CONTEXT_HV)
				cpumode = RP_MISC_HYPERVISOR;
			else if (ip == RP_CONTEXT_KERNEL)
				cpumode = RP_MISC_KERNEL;
			else if (ip == RP_CONTEXT_USER)
				cpumode = RP_MISC_USER;
			else {
				/* A present but empty chain, as perf leaves it. */
				res->callchain = p->frames;
				return 0;
			}
			continue;
		}
		rp_resolve_ip(p, res->thread, cpumode, ip, &p->frames[n].al);
		n++;
	}
	res->nr_callchain = n;
	res->callchain = p->frames;
	return 0;
}

int rp_process(struct rp_session *session, struct rp_machine *machine,
	       struct rp_symbols *symbols, const struct rp_consumer *consumers,
	       size_t nr_consumers)
{
	struct rp_pipeline p = { machine, symbols, NULL, 0 };
	struct rp_event ev;
	struct rp_resolved res;
	unsigned flags = 0;
	int ret;

	for (size_t i = 0; i < nr_consumers; i++)
		flags |= consumers[i].flags;

	while ((ret = rp_session_next(session, &ev)) > 0) {
		const struct rp_resolved *r = NULL;

		if (ev.type == RP_RECORD_SAMPLE) {
			if (!ev.evsel)
				continue; /* unknown sample id: counted, skipped */
			const struct rp_sample *d = &ev.u.sample;
			uint8_t cpumode = (uint8_t)(ev.misc & RP_MISC_CPUMODE_MASK);

			res.thread = rp_machine_findnew_thread(machine, d->pid, d->tid);
			if (!res.thread) {
				ret = RP_ERR_NOMEM;
				break;
			}
			res.comm = rp_thread_comm(res.thread);
			rp_resolve_ip(&p, res.thread, cpumode, d->ip, &res.al);
			res.nr_callchain = 0;
			res.callchain = NULL;
			if ((flags & RP_CONSUMER_CALLCHAIN) && d->callchain_nr &&
			    (ret = rp_resolve_callchain(&p, d, &res)) < 0)
				break;
			r = &res;
		} else {
			ret = rp_machine_process(machine, &ev);
			if (ret < 0)
				break;
		}
		for (size_t i = 0; i < nr_consumers; i++) {
			ret = consumers[i].event(consumers[i].ctx, &ev, r);
			if (ret < 0)
				goto out;
		}
	}
out:
	free(p.frames);
	return ret;
}
