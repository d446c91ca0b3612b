#!/bin/bash
# Benchmark of `readperf report` against `perf report` (what `make bench`
# runs): bench/run.sh limited to the report command on the ~600 MB
# call-stack recording.
#
#   bench/bench_report.sh [/path/to/readperf]      (default: build/readperf)
#
# Every setting of run.sh applies (RP_BENCH_RUNS, RP_BENCH_DATA, RP_BENCH_DIR,
# RP_BENCH_SCALE, ...); RP_BENCH_CMDS defaults to "report" and RP_BENCH_FILES
# to "fp" here. See bench/README.md.
here=$(cd "$(dirname "$0")" && pwd)
export RP_BENCH_CMDS=${RP_BENCH_CMDS:-report}
export RP_BENCH_FILES=${RP_BENCH_FILES:-fp}
exec "$here/run.sh" "$@"
