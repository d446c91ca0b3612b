#!/usr/bin/env python3
"""Share of samples whose call stacks agree between two `script` outputs.

    stacks_agree.py PERF_SCRIPT READPERF_SCRIPT [--exclude-comm C]...
                    [--min-share PCT] [--text | --names]

Both files hold `perf script` text (a header line per sample, then one
tab-indented line per frame).  Samples are paired in order (the two
programs print them in the same order); a pair agrees when its frames'
addresses are equal (with --text: the whole frame lines; with --names:
the whole frame lines, of the pairs whose addresses are equal, the others
left out).  Samples of an excluded comm are left out of the share.  Prints the share and, for
the first disagreements, both stacks; exits 1 when the sample counts
differ or the share is below --min-share (default 100).
"""
import argparse
import sys


def parse(path):
    """The samples of a script output: (header line, frames), each frame
    [its line, the "  file:line" line after it or None]."""
    samples = []
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("\t"):
                if cur is not None:
                    cur[1].append([line, None])
            elif line.startswith("  ") and cur is not None and cur[1] and cur[1][-1][1] is None:
                cur[1][-1][1] = line
            elif line.strip():
                cur = (line, [])
                samples.append(cur)
    return samples


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("perf")
    ap.add_argument("readperf")
    ap.add_argument("--exclude-comm", action="append", default=[])
    ap.add_argument("--min-share", type=float, default=100.0)
    ap.add_argument("--text", action="store_true")
    ap.add_argument("--names", action="store_true")
    ap.add_argument("--show", type=int, default=3)
    a = ap.parse_args()

    p, r = parse(a.perf), parse(a.readperf)
    if len(p) != len(r):
        print(f"sample counts differ: perf {len(p)}, readperf {len(r)}")
        return 1
    if not p:
        print("no samples (test problem)")
        return 1
    total = same = shown = 0
    for (ph, pf), (rh, rf) in zip(p, r):
        comm = ph.split()[0] if ph.split() else ""
        if comm in a.exclude_comm:
            continue
        addrs = [x[0].split()[0] for x in pf] == [x[0].split()[0] for x in rf]
        if a.names and not addrs:
            continue
        total += 1
        if a.text or a.names:
            ok = ph == rh and pf == rf
        else:
            ok = addrs
        if ok:
            same += 1
        elif shown < a.show:
            shown += 1
            print("perf:    ", ph, *(x[0] for x in pf), sep="\n  ")
            print("readperf:", rh, *(x[0] for x in rf), sep="\n  ")
    share = 100.0 * same / total if total else 0.0
    what = "text" if a.text else "names, of those whose addresses agree" if a.names else "addresses"
    print(f"stacks agreeing ({what}): {same}/{total} = {share:.2f}%")
    return 0 if total and share >= a.min_share else 1


if __name__ == "__main__":
    sys.exit(main())
