/* SPDX-License-Identifier: MIT */
/*
 * The pipeline: session -> machine -> symbols -> consumers.  Each record is
 * applied to the machine before consumers see it, so that a sample meets
 * the threads, comms and maps valid at its time.
 */
#include <readperf/process.h>

int rp_process(struct rp_session *session, struct rp_machine *machine,
	       struct rp_symbols *symbols, const struct rp_consumer *consumers,
	       size_t nr_consumers)
{
	struct rp_event ev;
	struct rp_resolved res;
	int ret;

	while ((ret = rp_session_next(session, &ev)) > 0) {
		const struct rp_resolved *r = NULL;

		if (ev.type == RP_RECORD_SAMPLE) {
			if (!ev.evsel)
				continue; /* unknown sample id: counted, skipped */
			const struct rp_sample *d = &ev.u.sample;
			uint8_t cpumode = (uint8_t)(ev.misc & RP_MISC_CPUMODE_MASK);

			res.thread = rp_machine_findnew_thread(machine, d->pid, d->tid);
			if (!res.thread)
				return RP_ERR_NOMEM;
			res.comm = rp_thread_comm(res.thread);
			if (symbols)
				rp_symbols_resolve(symbols, machine, res.thread, cpumode, d->ip,
						   &res.al);
			else
				rp_machine_find_map(machine, res.thread, cpumode, d->ip, &res.al);
			r = &res;
		} else {
			ret = rp_machine_process(machine, &ev);
			if (ret < 0)
				return ret;
		}
		for (size_t i = 0; i < nr_consumers; i++) {
			ret = consumers[i].event(consumers[i].ctx, &ev, r);
			if (ret < 0)
				return ret;
		}
	}
	return ret;
}
