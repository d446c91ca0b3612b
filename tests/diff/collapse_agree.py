#!/usr/bin/env python3
"""Share of perf's samples that readperf's collapse puts in equal folded
stacks: collapse_agree.py PERF.folded READPERF.folded TAG

Each file has "stack count" lines (perf script report stackcollapse,
readperf collapse).  Prints the share; exits 1 when perf's file has no
sample or the share is below 99 percent."""
import sys


def load(path):
    d = {}
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        d[stack] = d.get(stack, 0) + int(n)
    return d


def main():
    perf, rp, tag = sys.argv[1:4]
    a, b = load(perf), load(rp)
    total = sum(a.values())
    same = sum(min(n, b.get(s, 0)) for s, n in a.items())
    share = 100.0 * same / total if total else 0
    print(f"{tag}: collapse: {same}/{total} samples in equal folded stacks = {share:.2f}%")
    sys.exit(0 if total and share >= 99 else 1)


if __name__ == "__main__":
    main()
