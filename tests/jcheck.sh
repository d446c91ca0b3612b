#!/bin/bash
# Stands in for readperf in the script tests (tests/lib.sh makes "$RP"
# this script when tests/jcheck_run.sh runs the test): every command is
# run twice, once with "-j $RP_JCHECK_J" (default 4: more threads than
# this machine's cores, to shake out races) put right after the command
# name, then with "-j $RP_JCHECK_BASE" (default 1: one thread) there.
# Standard output, standard error, the exit status and the file or
# directory written with -o must be the same byte for byte; a difference
# is written to $RP_JCHECK_LOG, which jcheck_run.sh reports as the
# test's failure.  The test sees the second run only, so what it checks
# against perf is the one-thread result.  A -j the test passes itself
# comes later on the line and wins in both runs.
#
# Run once, as asked (no -j added), without the comparison:
#   - no command (options such as --version first) and `postgres` (it
#     writes into a database: a second export is refused by design);
#   - an -o path that exists already (the test checks a refusal or
#     --force, which a fresh path for the check would not show);
#   - standard input that is a pipe when the input is not "-" (it may
#     never end; a recording on standard input is read from a copy).
#
# Environment: RP_JCHECK_BINARY the real readperf, RP_JCHECK_LOG the
# log, RP_JCHECK_J the thread count of the first run.  Each call also
# adds a line to $RP_JCHECK_LOG.tally: "compared" or "once".
set -u

real=${RP_JCHECK_BINARY:?RP_JCHECK_BINARY is not set}
log=${RP_JCHECK_LOG:?RP_JCHECK_LOG is not set}
J=${RP_JCHECK_J:-4}
B=${RP_JCHECK_BASE:-1}

# once: run as asked only.
once() {
	echo once >>"$log.tally"
	exec "$real" "$@"
}

case "${1:-}" in
'' | -* | postgres) once "$@" ;;
esac

# The -o target and whether the recording comes from standard input.
out='' out_i=-1 stdin_input=0 prev=''
args=("$@")
for ((i = 1; i < ${#args[@]}; i++)); do
	a=${args[i]}
	case "$1:$prev" in
	diff:-o) ;; # diff's -o is perf diff's --order
	*:-o | *:--output) out=$a out_i=$i ;;
	*:-i | *:--input) [ "$a" = - ] && stdin_input=1 ;;
	*)
		case "$a" in
		-) stdin_input=1 ;;
		--input=-) stdin_input=1 ;;
		--output=*) out=${a#--output=} out_i=$i ;;
		-o?*) [ "$1" = diff ] || { out=${a#-o} out_i=$i; } ;;
		esac
		;;
	esac
	prev=$a
done
[ "$out" = - ] && out=''
if [ -n "$out" ] && [ -e "$out" ]; then
	once "$@"
fi
if [ $stdin_input = 0 ] && [ -p /dev/stdin ]; then
	once "$@"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rp-jcheck.XXXXXX") || once "$@"
echo compared >>"$log.tally"
trap 'rm -rf "$tmp"' EXIT
if [ $stdin_input = 1 ]; then
	cat >"$tmp/stdin"
	in="$tmp/stdin"
else
	in=/dev/null
fi

# The first run writes its -o output under $tmp, with the same name.
check=("$@")
if [ -n "$out" ]; then
	alt="$tmp/out/$(basename -- "$out")"
	mkdir -p "$tmp/out"
	case "${check[out_i]}" in
	--output=*) check[out_i]="--output=$alt" ;;
	-o?*) check[out_i]="-o$alt" ;;
	*) check[out_i]=$alt ;;
	esac
fi
"$real" "$1" -j "$J" "${check[@]:1}" <"$in" >"$tmp/out1" 2>"$tmp/err1"
rc1=$?

if [ $stdin_input = 1 ]; then
	"$real" "$1" -j "$B" "${@:2}" <"$in" >"$tmp/out2" 2>"$tmp/err2"
else
	"$real" "$1" -j "$B" "${@:2}" >"$tmp/out2" 2>"$tmp/err2"
fi
rc2=$?

differs=''
[ $rc1 = $rc2 ] || differs="$differs exit status ($rc1 with -j $J, $rc2 with -j $B);"
cmp -s "$tmp/out1" "$tmp/out2" || differs="$differs standard output;"
# Messages may name the -o path: the check run's stands for the test's.
if [ -n "$out" ]; then
	alt_q=$(printf '%s' "$alt" | sed 's/[][\.*^$/]/\\&/g')
	out_q=$(printf '%s' "$out" | sed 's/[\&/]/\\&/g')
	sed -i "s/$alt_q/$out_q/g" "$tmp/err1"
fi
cmp -s "$tmp/err1" "$tmp/err2" || differs="$differs standard error;"
if [ -n "$out" ]; then
	if [ -e "$alt" ] || [ -e "$out" ]; then
		if [ -d "$out" ]; then
			diff -r -q "$alt" "$out" >/dev/null 2>&1 || differs="$differs the -o directory;"
		else
			cmp -s "$alt" "$out" || differs="$differs the -o file;"
		fi
	fi
fi
if [ -n "$differs" ]; then
	{
		printf 'readperf'
		printf ' %q' "$@"
		printf '\n  -j %s differs:%s\n' "$J" "$differs"
		diff "$tmp/err1" "$tmp/err2" | head -5 | sed 's/^/  stderr: /'
		diff "$tmp/out1" "$tmp/out2" | head -5 | sed 's/^/  stdout: /'
	} >>"$log"
fi

cat "$tmp/out2"
cat "$tmp/err2" >&2
exit $rc2
