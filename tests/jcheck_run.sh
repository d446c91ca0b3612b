#!/bin/bash
# How ctest runs a script test: TEST READPERF runs with RP_JCHECK_LOG
# set, so that tests/lib.sh hands the test tests/jcheck.sh as readperf
# (every command run with -j 4 and with -j 1, compared).  The test's own
# status stands, except that a logged difference between the two runs
# fails it (exit 1) with the log on standard error.  RP_JCHECK=0 runs
# the test alone, without the comparison.
#
#   jcheck_run.sh tests/GROUP/run_NAME.sh /path/to/readperf
set -u
test=${1:?usage: jcheck_run.sh TEST READPERF}
shift
if [ "${RP_JCHECK:-1}" = 0 ]; then
	exec "$test" "$@"
fi
RP_JCHECK_LOG=$(mktemp "${TMPDIR:-/tmp}/rp-jcheck-log.XXXXXX") || exit 1
export RP_JCHECK_LOG
# Standard input is not the caller's: a pipe there would look to
# jcheck.sh like a recording given on standard input.
"$test" "$@" </dev/null
rc=$?
if [ -s "$RP_JCHECK_LOG.tally" ]; then
	echo "jcheck: $(grep -c '^compared' "$RP_JCHECK_LOG.tally") readperf commands compared with -j ${RP_JCHECK_J:-4}, $(grep -c '^once' "$RP_JCHECK_LOG.tally") run once (tests/jcheck.sh says which)"
fi
if [ -s "$RP_JCHECK_LOG" ]; then
	echo "************************************************************" >&2
	echo "* $(basename "$test" .sh) FAILED: readperf -j ${RP_JCHECK_J:-4} differs from -j ${RP_JCHECK_BASE:-1}" >&2
	echo "************************************************************" >&2
	cat "$RP_JCHECK_LOG" >&2
	rc=1
fi
rm -f "$RP_JCHECK_LOG" "$RP_JCHECK_LOG.tally"
exit $rc
