#!/usr/bin/env python3
"""Compares `perf annotate --stdio` with `readperf annotate` (docs/annotate.md).

    annotate_agree.py [--insns-only | --whole] PERF.txt READPERF.txt

The whole text, line by line: each function's section (its header line:
DSO, event, samples) must come in the same order, and in each every line
must be the same, in the same place, but for the spellings
docs/annotate.md lists, normalised here and only here:

  1. names in "<...>": objdump names a branch target, a RIP-relative
     address or the function itself (the "ADDR <NAME>:" line of its
     preamble) from its own choice of symbols (any kind, its own choice
     among aliases); readperf names functions from its symbol table, as
     perf's report does.  The address before the name is compared.
  2. instructions capstone 4 cannot decode (AVX-512 BW/DQ: kmovd, vpcmpb,
     vptestnmb, ...): readperf prints their bytes (".byte 0x62,...") with
     the length the encoding gives; only address and percentage are
     compared.

The other lines (objdump -l -S's preamble, function names, FILE:LINE
lines, source lines, blank lines, and perf's numbering of them) are
compared exactly.  With --insns-only only the instruction lines are.
The last line says how many sections were byte for byte the same; with
--whole every one must be (no normalisation at all).
Exit 0 when they agree, 1 with the differences on standard output.
"""
import re
import sys

INSN = re.compile(r'^ +([0-9.]+) :   +([0-9a-f]+):(\s+)(.*)$')
# The name objdump or readperf puts last on the line; C++ names hold
# '<' and '>' of their own (Acc<long, 3>::run(...)), so up to the last '>'.
NAME = re.compile(r' <.*>$')
# objdump's "ADDR <NAME>:" line before the first instruction, numbered 5
SYMLINE = re.compile(r'^( +: [0-9]+ +[0-9a-f]+) <.*>:$')


def parse(path):
    sections = []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if re.match(r'^ (Percent|Samples) +\|\t', line):
                sections.append({'head': line, 'insns': [], 'text': [], 'raw': []})
                continue
            if not sections:
                continue
            sections[-1]['raw'].append(line)
            m = INSN.match(line)
            if m:
                sections[-1]['insns'].append((m.group(2), m.group(1), m.group(3), m.group(4)))
                sections[-1]['text'].append('INSN ' + m.group(2))
            else:
                sections[-1]['text'].append(SYMLINE.sub(r'\1 <>:', line))
    return sections


def main():
    args = sys.argv[1:]
    insns_only = args[:1] == ['--insns-only']
    whole = args[:1] == ['--whole']
    if insns_only or whole:
        args = args[1:]
    perf, rp = parse(args[0]), parse(args[1])
    bad = []
    nr_same = nr_lines = 0
    if len(perf) != len(rp):
        bad.append('%d functions from perf, %d from readperf' % (len(perf), len(rp)))
    nr_insns = nr_text = 0
    for p, r in zip(perf, rp):
        if p['head'] != r['head']:
            bad.append('header:\n  perf:     %s\n  readperf: %s' % (p['head'], r['head']))
            continue
        pa = [i[0] for i in p['insns']]
        ra = [i[0] for i in r['insns']]
        if pa != ra:
            bad.append('%s: instruction addresses differ: perf %d, readperf %d; first '
                       'difference %s' % (p['head'], len(pa), len(ra),
                                          next(((a, b) for a, b in zip(pa, ra) if a != b),
                                               'at the end')))
            continue
        if p['raw'] == r['raw']:
            nr_same += 1
        elif whole:
            bad.append('%s: not byte for byte the same (--whole)' % p['head'][-60:])
        if not insns_only:
            pt, rt = p['text'], r['text']
            for i, (a, b) in enumerate(zip(pt, rt)):
                if a != b:
                    bad.append('%s: line %d differs:\n  perf:     %s\n  readperf: %s'
                               % (p['head'][-60:], i + 3, p['raw'][i], r['raw'][i]))
                    break
            else:
                if len(pt) != len(rt):
                    bad.append('%s: %d lines from perf, %d from readperf'
                               % (p['head'][-60:], len(pt), len(rt)))
            nr_lines += len(pt)
        for (addr, pp, ps, pt), (_, rpc, rs, rt) in zip(p['insns'], r['insns']):
            nr_insns += 1
            if pp != rpc:
                bad.append('%s %s: %s in perf, %s in readperf' % (p['head'][-60:], addr, pp, rpc))
            if ps != rs:
                bad.append('%s: padding after the address differs' % addr)
            if rt.startswith('.byte '):
                continue  # rule 2
            nr_text += 1
            if NAME.sub('', pt) != NAME.sub('', rt):  # rule 1
                bad.append('%s: text differs:\n  perf:     %s\n  readperf: %s' % (addr, pt, rt))
    for b in bad[:60]:
        print(b)
    print('%d functions (%d byte for byte), %d lines, %d instructions (%d texts) compared, '
          '%d differences' % (len(perf), nr_same, nr_lines, nr_insns, nr_text, len(bad)))
    return 1 if bad or not nr_insns else 0


if __name__ == '__main__':
    sys.exit(main())
