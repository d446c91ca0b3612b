#!/bin/bash
# `readperf json` of a pipe stream, where perf 6.1's `perf data convert
# --to-json` crashes (SIGSEGV: it writes the headers before the stream's
# feature records are read, and its string writer takes no NULL; also on
# any file without the HOSTNAME feature).  The reference is perf's
# document of the same records as a file: a -g recording made now is
# turned into a pipe stream by `perf inject -o -`, and readperf's document
# of the stream must hold perf's samples array of the file byte for byte,
# and its headers the file's (hostname ... perf-version; not the offsets,
# the file's mtime and the cmdline, which are perf inject's).  Should perf
# convert the stream (a fixed perf), the two documents must be equal.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check): then it fails.  The
# scratch directory is kept on failure and its path printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_json_pipe.sh /path/to/readperf}"
require_perf
require_cc
rp_workdir rp-json-pipe keep-on-failure
cd "$rp_work_dir" || exit 1
rp_compile_workload || exit 1

record_workload cg -e cpu-clock -g -- -t 200 -f 1
perf inject -i cg.data -o - >cg.pipe 2>inject.err || { cat inject.err >&2; fail "perf inject -o - failed"; }
perf data convert --to-json cg.perf.json -i cg.data >/dev/null 2>convert.err ||
	{ cat convert.err >&2; fail "perf data convert of the file failed"; }
"$RP" json -o cg.rp.json cg.pipe 2>rp.err || { cat rp.err >&2; fail "readperf json of the stream failed"; }

if perf data convert --to-json cg.pipe.perf.json -i cg.pipe >/dev/null 2>convert-pipe.err; then
	rp_same "json of the stream (perf converts it)" cg.pipe.perf.json cg.rp.json &&
		echo "ok   the stream: readperf's document is perf's"
else
	echo "ok   perf data convert of the stream fails (exit $?), as perf 6.1 does (docs/json.md)"
fi
sed -n '/"samples"/,$p' cg.perf.json >samples.perf
sed -n '/"samples"/,$p' cg.rp.json >samples.rp
[ "$(grep -c '"timestamp"' samples.perf)" -gt 0 ] || fail "perf's document of the file has no samples"
rp_same "samples of the stream against perf's of the file" samples.perf samples.rp &&
	echo "ok   samples: $(grep -c '"timestamp"' samples.rp), as perf's of the file"
heads='"(hostname|os-release|arch|cpu-desc|cpuid|nrcpus-online|nrcpus-avail|perf-version|header-version)"'
grep -E "$heads" cg.perf.json >heads.perf
grep -E "$heads" cg.rp.json >heads.rp
rp_same "headers of the stream against perf's of the file" heads.perf heads.rp &&
	echo "ok   headers: $(wc -l <heads.rp), as perf's of the file"
rp_done "readperf json of a pipe stream holds perf's document of the file"
