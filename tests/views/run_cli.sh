#!/bin/bash
# What a user meets first on the command line, no perf needed:
#   - an unknown command is named as such, the commands are listed, and
#     the exit status is that of bad usage (1);
#   - a missing FILE (named like a file) is an error naming it, exit 2;
#   - no error message has a doubled colon ("cannot open::"), for every
#     command on a missing file and a directory without a data file;
#   - no --help text holds a literal "%%" (help is printed with fputs, so
#     printf escapes show as they are).
#
#   run_cli.sh /path/to/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_cli.sh /path/to/readperf}"
rp_workdir rp-cli
cd "$rp_work_dir" || exit 1

commands="report csv header dump stats script collapse flamegraph pprof json html"

# An unknown command.
"$RP" repor >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "readperf repor: exit status $rc, expected 1 (bad usage)"
grep -qx "readperf: 'repor' is not a readperf command" err ||
	fail "readperf repor: no \"'repor' is not a readperf command\" line: $(head -3 err)"
for c in $commands; do
	grep -q "^  $c " err || fail "readperf repor: the list of commands lacks $c"
done
[ -s out ] && fail "readperf repor: printed on standard output"

# A missing file is not an unknown command.
"$RP" missing.data >out 2>err
rc=$?
[ $rc -eq 2 ] || fail "readperf missing.data: exit status $rc, expected 2"
grep -q "^readperf: error: missing.data: cannot open: No such file or directory$" err ||
	fail "readperf missing.data: $(cat err)"

# No doubled colon in any command's error.
mkdir emptydir
for c in $commands; do
	for f in missing.data emptydir; do
		"$RP" "$c" "$f" >/dev/null 2>err
		grep -q "::" err && fail "readperf $c $f: a doubled colon: $(cat err)"
		grep -q "readperf: error: $f" err || fail "readperf $c $f: no error naming $f: $(cat err)"
	done
done

# No literal %% in help.
"$RP" --help >help.main 2>&1
for c in $commands; do
	"$RP" "$c" --help >"help.$c" 2>&1 || fail "readperf $c --help: exit status $?"
done
if grep -l '%%' help.* >/dev/null; then
	fail "literal %% in --help of: $(grep -l '%%' help.* | tr '\n' ' ')"
fi

if [ $failures -ne 0 ]; then
	echo "$rp_name: $failures check(s) failed" >&2
	exit 1
fi
echo "$rp_name: unknown commands, missing files and help text are as they should be"
exit 0
