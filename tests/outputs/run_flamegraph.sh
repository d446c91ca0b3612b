#!/bin/bash
# Structure test of `readperf flamegraph`: the SVG is well-formed XML with
# its script, title, event name and buttons; the root box holds all the
# samples of the folded stacks (`readperf collapse --kernel --jit`), each
# command box the samples of its stacks, every box is no wider than its
# parent and lies inside it, and kernel frames are marked as such.
#
#   run_flamegraph.sh /path/to/readperf
#
# Uses a file recorded now with perf -g when perf works, else the golden
# recordings (tests/golden); needs python3.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_flamegraph.sh /path/to/readperf}"
command -v python3 >/dev/null 2>&1 || { echo "$rp_name: python3 missing" >&2; exit 77; }
rp_workdir rp-flamegraph keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1

# A fresh recording where perf works (required under RP_REQUIRE_PERF=1),
# and the golden recordings in any case.
files=()
if rp_perf_usable && command -v "${CC:-cc}" >/dev/null 2>&1 && rp_compile_workload 2>/dev/null &&
	perf record -e cpu-clock -g -o cg.data -- ./workload -q -t 200 >/dev/null 2>&1; then
	files+=("$work/cg.data")
elif [ "${RP_REQUIRE_PERF:-0}" = 1 ]; then
	rp_cannot_run "cannot record with perf: ${rp_perf_reason:-perf record failed}"
fi
for f in "$root"/tests/golden/*.perf.data; do files+=("$f"); done

for f in "${files[@]}"; do
	name=$(basename "$f")
	if ! "$RP" flamegraph -o "$work/$name.svg" "$f" 2>"$work/$name.err" ||
		! "$RP" collapse --kernel --jit "$f" >"$work/$name.folded" 2>>"$work/$name.err"; then
		echo "FAIL $name: readperf failed" >&2
		head -5 "$work/$name.err" >&2
		failures=$((failures + 1))
		continue
	fi
	if python3 - "$work/$name.svg" "$work/$name.folded" <<'PY'
import sys, xml.etree.ElementTree as ET
svg_path, folded_path = sys.argv[1], sys.argv[2]
NS = '{http://www.w3.org/2000/svg}'
def fail(msg):
    print('  ' + msg)
    sys.exit(1)
tree = ET.parse(svg_path)
svg = tree.getroot()
if svg.tag != NS + 'svg':
    fail('root element is not svg')
stacks = {}
for line in open(folded_path, encoding='utf-8', errors='replace'):
    stack, _, count = line.rstrip('\n').rpartition(' ')
    stacks[stack] = int(count)
total = sum(stacks.values())
if int(svg.get('data-total')) != total:
    fail('data-total %s != folded total %d' % (svg.get('data-total'), total))
if svg.find(NS + 'script') is None or 'zoom' not in svg.find(NS + 'script').text:
    fail('no script')
ids = {e.get('id'): e for e in svg.iter() if e.get('id')}
for want in ('title', 'subtitle', 'details', 'matched', 'search', 'unzoom', 'frames'):
    if want not in ids:
        fail('no #' + want)
if '%d samples' % total not in ids['subtitle'].text:
    fail('subtitle does not say the samples: %r' % ids['subtitle'].text)
frames = []
for g in svg.iter(NS + 'g'):
    if g.get('class') != 'f':
        continue
    t = g.find(NS + 'title').text
    frames.append((int(g.get('data-d')), int(g.get('data-o')), int(g.get('data-v')),
                   g.get('data-k'), t[:t.rfind(' (')], g))
if total == 0:
    sys.exit(0 if not frames else fail('frames without samples'))
roots = [f for f in frames if f[0] == 0]
if len(roots) != 1 or roots[0][2] != total or roots[0][4] != 'all':
    fail('the root box is not all with %d samples' % total)
# Each command box holds its stacks' samples.
comm_total = {}
for stack, n in stacks.items():
    comm = stack.split(';')[0]
    comm_total[comm] = comm_total.get(comm, 0) + n
for d, o, v, k, name, g in frames:
    if d == 1:
        if k != 'c' or comm_total.get(name) != v:
            fail('command box %s: %d samples, folded stacks say %s' % (name, v, comm_total.get(name)))
# Boxes nest: each lies inside a box one level below.
spans = {}
for d, o, v, k, name, g in frames:
    spans.setdefault(d, []).append((o, o + v))
for d, o, v, k, name, g in frames:
    if d == 0:
        continue
    if not any(a <= o and o + v <= b for a, b in spans.get(d - 1, [])):
        fail('box %s at depth %d is not inside a box below it' % (name, d))
# Kernel frames of the folded stacks are drawn as kernel frames.
kernel = {fr[:-4] for s in stacks for fr in s.split(';')[1:] if fr.endswith('_[k]')}
drawn_k = {name for d, o, v, k, name, g in frames if k == 'k'}
if not drawn_k <= kernel:
    fail('frames marked kernel that are not: %s' % sorted(drawn_k - kernel)[:5])
if kernel and not drawn_k:
    fail('no kernel frame drawn as such')
print('  %d frames, %d samples, %d kernel functions' % (len(frames), total, len(drawn_k)))
PY
	then
		echo "ok   $name"
	else
		echo "FAIL $name: SVG structure" >&2
		failures=$((failures + 1))
	fi
done

if [ $failures -ne 0 ]; then
	echo "run_flamegraph: $failures file(s) failed; kept in $work" >&2
	exit 1
fi
exit 0
