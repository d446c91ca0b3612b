#!/usr/bin/env python3
"""Share of call-stack frames whose `script -F +srcline` text agrees.

    srcline_agree.py PERF_OUT READPERF_OUT [--skip REGEX] [--min-share PCT]

Both files hold `script -F +srcline` output: each frame line (tab, then
the address) may be followed by a line of two spaces and its source line.
Frames are paired in order; a pair agrees when the frame line and its
source line are equal.  Frames whose line matches --skip (perf's line) are
left out of the share.  Exits 1 when the frame counts differ or the share
is below --min-share (default 100).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stacks_agree import parse  # noqa: E402


def frames(path):
    return [f for _, fs in parse(path) for f in fs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("perf")
    ap.add_argument("readperf")
    ap.add_argument("--skip")
    ap.add_argument("--min-share", type=float, default=100.0)
    a = ap.parse_args()
    p, r = frames(a.perf), frames(a.readperf)
    if len(p) != len(r):
        print(f"frame counts differ: perf {len(p)}, readperf {len(r)}")
        return 1
    skip = re.compile(a.skip) if a.skip else None
    total = same = shown = 0
    for x, y in zip(p, r):
        if skip and skip.search(x[0]):
            continue
        total += 1
        if x == y:
            same += 1
        elif shown < 5:
            shown += 1
            print("perf:    ", x)
            print("readperf:", y)
    share = 100.0 * same / total if total else 0.0
    print(f"srcline frames agreeing: {same}/{total} = {share:.2f}%")
    return 0 if total and share >= a.min_share else 1


if __name__ == "__main__":
    sys.exit(main())
