#!/bin/bash
# readperf html in a real browser: Debian's chromium driven by
# playwright-core (npm, tests/browser/package.json; installed into the
# build's tests/browser-node on first use).  Records, with the installed
# perf, tests/workload/threads.c four ways (cpu-clock -g with four
# threads, -e cpu-clock,task-clock, sched:sched_switch -g, and a process
# named "<svg onload=x>"), writes each page and lets html_check.mjs compare
# the page with `readperf report` on the same file: per-function self and
# total, the flame graph's root, one thread picked in the timeline, a time
# range dragged over it, search, each event of a two-event file, off-CPU
# time, the hostile name shown as text, no request leaving the page.
# Screenshots of every view are kept in the build's tests/html-artifacts.
#
#   run_html.sh /path/to/readperf
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_html.sh /path/to/readperf}"
require_perf
require_cc
require_tool node "node is not installed (apt-get install nodejs npm)"
require_tool npm "npm is not installed (apt-get install npm)"
CHROMIUM=${RP_CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || rp_cannot_run "chromium is not installed (apt-get install chromium)" \
	"the HTML report was NOT checked in a browser."

# playwright-core 1.65 needs Node.js 20 or later (its "engines"); Debian
# 12's own nodejs is 18: say so rather than fail obscurely.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$node_major" -ge 20 ] 2>/dev/null || rp_cannot_run \
	"Node.js $(node --version 2>/dev/null || echo missing) is too old for playwright-core (20 or later)" \
	"the HTML report was NOT checked in a browser."

tests_dir=$PWD
artifacts=$tests_dir/html-artifacts
node_dir=$tests_dir/browser-node
rm -rf "$artifacts"
mkdir -p "$artifacts" "$node_dir"

# playwright-core as the lock file pins it, installed once per build tree.
if ! cmp -s "$here/package-lock.json" "$node_dir/package-lock.json" ||
	[ ! -d "$node_dir/node_modules/playwright-core" ]; then
	cp "$here/package.json" "$here/package-lock.json" "$node_dir/"
	if ! (cd "$node_dir" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) >&2; then
		rm -f "$node_dir/package-lock.json"
		rp_cannot_run "npm ci could not install playwright-core (no access to the npm registry?)" \
			"the HTML report was NOT checked in a browser."
	fi
fi

rp_workdir rp-html keep-on-failure
cd "$rp_work_dir" || exit 1
"$CC" -O1 -g -fno-omit-frame-pointer -fno-inline -pthread -o threads \
	"$root/tests/workload/threads.c" 2>cc.err || { cat cc.err >&2; exit 1; }

# rec NAME PERF-ARGS... -- THREADS-ARGS...
rec() {
	local name=$1
	shift
	local -a pargs=()
	while [ "$1" != -- ]; do pargs+=("$1"); shift; done
	shift
	if ! perf record -q "${pargs[@]}" -o "$name.data" -- ./threads "$@" >"$name.rec" 2>&1 ||
		[ ! -s "$name.data" ]; then
		cat "$name.rec" >&2
		rp_cannot_run "perf record ${pargs[*]} failed"
	fi
}
rec cg -e cpu-clock -g -- -t 300 -j 3
rec two -e cpu-clock,task-clock -g -- -t 200 -j 2
rec sw -e sched:sched_switch -g -- -t 200 -j 3
rec xss -e cpu-clock -g -- -t 100 -j 1 -n '<svg onload=x>'

for f in cg two sw xss; do
	if ! "$RP" html -o "$artifacts/$f.html" "$f.data" 2>"$f.err"; then
		cat "$f.err" >&2
		fail "readperf html $f.data"
	fi
done
# The same recording in few, wide bins: the selection bins are widened
# (weights past --max-weights) and a time range stays exact.
"$RP" html --bins 64 --max-weights 60 -o "$artifacts/cg-coarse.html" cg.data 2>cg-coarse.err ||
	{ cat cg-coarse.err >&2; fail "readperf html --bins 64 --max-weights 60 cg.data"; }
[ "$failures" -eq 0 ] || exit 1
echo "pages: $(cd "$artifacts" && wc -c ./*.html | tr '\n' ' ')"

if ! timeout 300 node "$here/html_check.mjs" "$RP" "$artifacts" "$node_dir" \
	"cg:$PWD/cg.data:$artifacts/cg.html" "cg:$PWD/cg.data:$artifacts/cg-coarse.html" "multi:$PWD/two.data:$artifacts/two.html" \
	"offcpu:$PWD/sw.data:$artifacts/sw.html" "xss:$PWD/xss.data:$artifacts/xss.html"; then
	echo "run_html: failed; recordings kept in $rp_work_dir, pages and screenshots in $artifacts" >&2
	exit 1
fi
echo "screenshots: $artifacts"
exit 0
