#!/bin/bash
# Test of `readperf flamegraph --diff OLD NEW` (docs/flamegraph.md,
# "Differential flame graphs"), on a pair of recordings with a known shift
# made now: tests/workload/diffwork.c, whose grows() takes four times the
# work in NEW and shrinks() a quarter.
#
#   run_flamegraph_diff.sh /path/to/readperf
#
# Checks, with python3's XML parser:
#   - both SVGs are well-formed;
#   - the frames (name, depth, sample offset and width, and the boxes'
#     x, y, width) are exactly those of NEW's own flame graph
#     (`readperf flamegraph NEW`), and so is the image's height;
#   - grows() is red (it gained samples), shrinks() blue (it lost);
#   - every frame's colour is flamegraph.pl's color_scale(delta,
#     maxdelta), maxdelta being the largest change of a stack computed
#     here from both files' folded stacks (`readperf collapse --kernel
#     --jit`, difffolded.pl -n's scaling), and the frames' changes are those
#     of the stacks that end at them (of either file);
#   - the tooltip of every frame holds its samples and share in NEW and in
#     OLD and the change of its share; the root holds OLD's total;
#   - with --no-normalize the changes are the raw differences.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check, CI): then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_flamegraph_diff.sh /path/to/readperf}"
require_perf
require_cc
require_tool python3 "python3 is not installed" "the differential flame graph was NOT checked."
rp_workdir rp-fgdiff keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1

if ! "${CC:-cc}" -O1 -g -fno-omit-frame-pointer -fno-inline -o diffwork \
	"$root/tests/workload/diffwork.c" -lm 2>cc.err; then
	cat cc.err >&2
	echo "$rp_name: cannot compile the workload" >&2
	exit 1
fi
for mode in old new; do
	if ! perf record -q -e cpu-clock -g -o "$mode.data" -- ./diffwork "$mode" 300 \
		>"$mode.record.out" 2>&1 || [ ! -s "$mode.data" ]; then
		cat "$mode.record.out" >&2
		rp_cannot_run "perf record -g failed (no permission? see perf_event_paranoid)"
	fi
done

run() {
	"$RP" "$@" 2>>rp.err || { fail "readperf $* failed"; head -5 rp.err >&2; }
}
run flamegraph --diff -o diff.svg old.data new.data
run flamegraph --diff --no-normalize -o diff-raw.svg old.data new.data
run flamegraph -o new.svg new.data
"$RP" collapse --kernel --jit old.data >old.folded 2>>rp.err || fail "readperf collapse old.data failed"
"$RP" collapse --kernel --jit new.data >new.folded 2>>rp.err || fail "readperf collapse new.data failed"
[ "$failures" -eq 0 ] || exit 1

check() {
	python3 - "$@" <<'PY'
import re, sys, xml.etree.ElementTree as ET
diff_svg, new_svg, old_folded, new_folded, normalize = sys.argv[1:6]
normalize = normalize == '1'
NS = '{http://www.w3.org/2000/svg}'
bad = []

def folded(path):
    d = {}
    for line in open(path, encoding='utf-8', errors='replace'):
        stack, _, count = line.rstrip('\n').rpartition(' ')
        d[stack] = d.get(stack, 0) + int(count)
    return d

old, new = folded(old_folded), folded(new_folded)
t1, t2 = sum(old.values()), sum(new.values())
def scaled(c):
    return int(c * t2 / t1) if normalize and t1 != t2 else c
deltas = {s: new.get(s, 0) - scaled(old.get(s, 0)) for s in set(old) | set(new)}
maxdelta = max([1] + [abs(v) for v in deltas.values()])

def frames(path):
    root = ET.parse(path).getroot()
    out = []
    for g in root.iter(NS + 'g'):
        if g.get('class') != 'f':
            continue
        title = g.find(NS + 'title').text
        rect = g.find(NS + 'rect')
        out.append((g, title, rect))
    return root, out

droot, dframes = frames(diff_svg)
nroot, nframes = frames(new_svg)
name = lambda t: t[:t.rfind(' (')]
key = lambda f: (name(f[1]), f[0].get('data-d'), f[0].get('data-o'), f[0].get('data-v'),
                 f[2].get('x'), f[2].get('y'), f[2].get('width'))
if sorted(map(key, dframes)) != sorted(map(key, nframes)):
    bad.append('frames differ from NEW\'s own flame graph')
if droot.get('height') != nroot.get('height'):
    bad.append('height %s != NEW\'s %s' % (droot.get('height'), nroot.get('height')))
if int(droot.get('data-total')) != t2 or int(droot.get('data-old-total')) != t1:
    bad.append('totals %s/%s != folded %d/%d' % (droot.get('data-total'),
               droot.get('data-old-total'), t2, t1))
if int(droot.get('data-maxdelta')) != maxdelta:
    bad.append('maxdelta %s != %d' % (droot.get('data-maxdelta'), maxdelta))

def scale(v):
    r = g = b = 255
    if v > 0:
        g = b = int(210 * (maxdelta - v) / maxdelta)
    elif v < 0:
        r = g = int(210 * (maxdelta + v) / maxdelta)
    return 'rgb(%d,%d,%d)' % (r, g, b)

tip = re.compile(r'^.* \((\d+) samples, (\d+\.\d\d)%; before: (\d+) samples, '
                 r'(\d+\.\d\d)%; ([+-]\d+\.\d\d)%\)$')
for g, title, rect in dframes:
    d = int(g.get('data-delta'))
    if rect.get('fill') != scale(d):
        bad.append('%s: fill %s, expected %s for delta %d' % (title, rect.get('fill'), scale(d), d))
    m = tip.match(title)
    if not m:
        bad.append('tooltip without both profiles and the change: ' + title)
        continue
    n, p, o, q, c = m.groups()
    if int(n) != int(g.get('data-v')) or int(o) != int(g.get('data-old')):
        bad.append('tooltip figures differ from the frame\'s: ' + title)
    exp = 100.0 * int(n) / t2 - 100.0 * int(o) / t1
    if abs(float(c) - exp) > 0.006:
        bad.append('tooltip change %s, expected %.2f: %s' % (c, exp, title))
root_frame = [f for f in dframes if f[0].get('data-d') == '0']
if len(root_frame) != 1 or int(root_frame[0][0].get('data-old')) != t1:
    bad.append('the root frame does not hold OLD\'s total')
# The changes of the frames are those of the stacks that end at them: every
# stack that is NEW's or a start of one of NEW's (a frame with NEW's
# samples), OLD's included.
drawn = set()
for s, c in new.items():
    parts = s.split(';')
    for i in range(1, len(parts) + 1):
        drawn.add(';'.join(parts[:i]))
got = sorted(int(f[0].get('data-delta')) for f in dframes if int(f[0].get('data-delta')))
want = sorted(v for s, v in deltas.items() if s in drawn and v)
if got != want:
    bad.append('frame changes %s... != stack changes %s...' % (got[:8], want[:8]))

def biggest(fn):
    fs = [f for f in dframes if name(f[1]) == fn and f[0].get('data-k') == 'u']
    return max(fs, key=lambda f: int(f[0].get('data-v'))) if fs else None
grows, shrinks = biggest('grows'), biggest('shrinks')
rgb = lambda f: tuple(int(x) for x in re.findall(r'\d+', f[2].get('fill')))
if not grows or not (rgb(grows)[0] == 255 and rgb(grows)[1] == rgb(grows)[2] < 255):
    bad.append('grows() is not red: %s' % (grows and grows[2].get('fill')))
if not shrinks or not (rgb(shrinks)[2] == 255 and rgb(shrinks)[0] == rgb(shrinks)[1] < 255):
    bad.append('shrinks() is not blue: %s' % (shrinks and shrinks[2].get('fill')))
for b in bad[:20]:
    print('  ' + b)
if bad:
    sys.exit(1)
print('  %d frames; grows %s, shrinks %s; maxdelta %d' % (len(dframes), grows[2].get('fill'),
      shrinks[2].get('fill'), maxdelta))
PY
}

if check diff.svg new.svg old.folded new.folded 1; then
	echo "ok   flamegraph --diff (normalized)"
else
	fail "flamegraph --diff (normalized)"
fi
if check diff-raw.svg new.svg old.folded new.folded 0; then
	echo "ok   flamegraph --diff --no-normalize"
else
	fail "flamegraph --diff --no-normalize"
fi

# Usage errors: --diff takes two files.
if "$RP" flamegraph --diff -o x.svg new.data 2>usage.err; then
	fail "flamegraph --diff with one file was accepted"
else
	echo "ok   --diff with one file refused ($(head -1 usage.err))"
fi

if [ "$failures" -ne 0 ]; then
	echo "$rp_name: $failures failure(s); recordings kept in $work" >&2
	exit 1
fi
echo "$rp_name: the differential flame graph is right"
