/* SPDX-License-Identifier: MIT */
/*
 * Internal controls of the function overview that report.h does not carry
 * (yet): how event groups (the GROUP_DESC feature) are shown.
 */
#ifndef RP_REPORT_INT_H
#define RP_REPORT_INT_H

#include <readperf/report.h>

/* perf report's --group / --no-group. */
enum rp_report_group {
	/* perf's default: each group of the file (GROUP_DESC) is one section
	 * with one Overhead sub-column per member. */
	RP_REPORT_GROUP_AUTO = 0,
	/* --group: as AUTO; a file without groups shows all its events as
	 * one group ("of events 'a, b'"). */
	RP_REPORT_GROUP_FORCE = 1,
	/* --no-group: every event on its own, members included.  A leader
	 * still says "of events"; as with --group, a file without groups
	 * counts all its events as the first one's group, so that one does
	 * too. */
	RP_REPORT_GROUP_OFF = 2,
};

/*
 * Chooses the group view; call before the first rp_report_write() (the
 * first write of a group view links the members' entries into the
 * leader's histogram).  Returns 0, or RP_ERR_INVAL for a NULL report or
 * an unknown mode.
 */
int rp_report_set_group(struct rp_report *report, enum rp_report_group mode);

/*
 * Lowers the bytes of distinct call stacks the report holds before it
 * builds their graphs (RP_STACKS_MAX_BYTES, lib/report/stacks_int.h), so
 * that tests can make it build them in several steps.  Call before the
 * first sample.  Returns 0, or RP_ERR_INVAL for a NULL report.
 */
int rp_report_set_stacks_cap(struct rp_report *report, size_t bytes);

/*
 * The distinct call stacks the report holds now (those met since it last
 * built its graphs), for tests of what tells two stacks apart; 0 for a
 * NULL report.
 */
size_t rp_report_nr_stacks(const struct rp_report *report);

#endif
