/* SPDX-License-Identifier: MIT */
/* readperf: the whole public API. */
#ifndef READPERF_READPERF_H
#define READPERF_READPERF_H

#include <readperf/api.h>
#include <readperf/version.h>
#include <readperf/error.h>
#include <readperf/event.h>
#include <readperf/session.h>
#include <readperf/machine.h>
#include <readperf/symbols.h>
#include <readperf/filter.h>
#include <readperf/process.h>
#include <readperf/report.h>
#include <readperf/diff.h>
#include <readperf/csv.h>
#include <readperf/collapse.h>
#include <readperf/annotate.h>
#include <readperf/flamegraph.h>
#include <readperf/dump.h>
#include <readperf/stats.h>
#include <readperf/features.h>
#include <readperf/script.h>
#include <readperf/json.h>
#include <readperf/pprof.h>
#include <readperf/output.h>
#include <readperf/html.h>
#include <readperf/sqlite.h>
#include <readperf/postgres.h>
#include <readperf/progress.h>

#endif
