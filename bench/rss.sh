#!/bin/bash
# Peak memory of one command, split into anonymous and file-backed pages.
#
#   bench/rss.sh COMMAND [ARGS...]          (its output goes to /dev/null)
#
# GNU time's %M (peak RSS) counts the pages of a memory-mapped input file
# that the program touched: those are page cache, shared and reclaimable, not
# memory the program allocated. This polls /proc/PID/status every 20 ms and
# prints the peaks of VmRSS, RssAnon (heap, stacks: what grows when a
# program keeps things in memory) and RssFile+RssShmem, in MiB:
#
#   rss: peak VmRSS 564.1 MiB, RssAnon 12.3 MiB, RssFile 552.0 MiB (wall 1.31 s)
#
# Polling misses peaks shorter than 20 ms; fine for runs of seconds.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: bench/rss.sh COMMAND [ARGS...]" >&2; exit 2; }

start=$(date +%s.%N)
"$@" >/dev/null 2>&1 &
pid=$!
rss=0 anon=0 file=0
while kill -0 "$pid" 2>/dev/null; do
	if read -r r a f < <(awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 }
		/^RssFile:/ { f += $2 } /^RssShmem:/ { f += $2 } END { print r + 0, a + 0, f + 0 }' \
		"/proc/$pid/status" 2>/dev/null); then
		[ "$r" -gt "$rss" ] && rss=$r
		[ "$a" -gt "$anon" ] && anon=$a
		[ "$f" -gt "$file" ] && file=$f
	fi
	sleep 0.02
done
wait "$pid"
rc=$?
end=$(date +%s.%N)
awk -v r="$rss" -v a="$anon" -v f="$file" -v s="$start" -v e="$end" 'BEGIN {
	printf "rss: peak VmRSS %.1f MiB, RssAnon %.1f MiB, RssFile %.1f MiB (wall %.2f s)\n",
		r / 1024, a / 1024, f / 1024, e - s }'
exit "$rc"
