#!/usr/bin/env python3
"""Share of call-stack frames whose `script -F +srcline` text agrees.

    srcline_agree.py PERF_OUT READPERF_OUT [--skip REGEX] [--min-share PCT]
                     [--max-stack-diff PCT]

Both files hold `script -F +srcline` output: each frame line (tab, then
the address) may be followed by a line of two spaces and its source line.
Samples are paired in order, and their frames; samples whose stacks
differ (frame counts or addresses) are left out, and the test fails when
they are more than --max-stack-diff percent (default 0).  A pair agrees
when the frame line and its source line are equal.  Frames whose line matches --skip (perf's or
readperf's; for an inlined frame, which names no DSO, the line of its
outer frame, or of the frame before it that names one when perf left
the outer frame out, or none: then it is left out too) are left out of
the share.  Exits 1 when the samples differ in number, too many stacks
differ, or the share is below --min-share (default 100).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stacks_agree import parse  # noqa: E402


def addr(f):
    parts = f[0].split()
    return parts[0] if parts else ""


def samples(path):
    """Per sample, its frames in order, each with the frame line of its owner: its own
    when it names a DSO; for an inlined frame, which names none, the next
    frame at its address that names one (its outer frame), else (perf
    prints some inline chains without their outer frame) the frame before
    that names one; None when there is neither."""
    out = []
    for _, fs in parse(path):
        one = []
        out.append(one)
        names = [f[0].rstrip().endswith(")") for f in fs]
        last = None
        for i, f in enumerate(fs):
            owner = f[0] if names[i] else None
            if owner is None:
                for j in range(i + 1, len(fs)):
                    if addr(fs[j]) != addr(f):
                        break
                    if names[j]:
                        owner = fs[j][0]
                        break
            if owner is None:
                owner = last
            if names[i]:
                # (a kernel frame owns no user-mode inlined frame)
                last = None if addr(f).startswith("ffff") else f[0]
            one.append((f, owner))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("perf")
    ap.add_argument("readperf")
    ap.add_argument("--skip")
    ap.add_argument("--min-share", type=float, default=100.0)
    ap.add_argument("--max-stack-diff", type=float, default=0.0)
    a = ap.parse_args()
    ps, rs = samples(a.perf), samples(a.readperf)
    if len(ps) != len(rs):
        print(f"sample counts differ: perf {len(ps)}, readperf {len(rs)}")
        return 1
    # Samples whose stacks differ (frame counts or addresses: the
    # unwinders', not the source lines') are left out, up to
    # --max-stack-diff percent of them.
    p, r = [], []
    differ = 0
    for sp, sr in zip(ps, rs):
        if [addr(f) for f, _ in sp] != [addr(f) for f, _ in sr]:
            differ += 1
            continue
        p.extend(sp)
        r.extend(sr)
    if differ:
        print(f"samples whose stacks differ, left out: {differ}/{len(ps)}")
    if differ > a.max_stack_diff / 100.0 * len(ps):
        print(f"stacks differ in more than {a.max_stack_diff}% of the samples")
        return 1
    skip = re.compile(a.skip) if a.skip else None
    total = same = shown = 0
    for (x, xo), (y, yo) in zip(p, r):
        # (an inlined frame whose DSO is not known is left out too)
        if skip and (xo is None or yo is None or skip.search(xo) or skip.search(yo)):
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
