#!/bin/bash
# Makes the seeds of the `unwind` fuzz target (tests/fuzz/targets.c) and
# writes them into tests/fuzz/corpus/unwind/seed-*.bin.
#
#   make_unwind_seeds.sh [CORPUS_DIR] [REPLAY]
#
# A small C program (an inlined helper in a leaf under three callers),
# built here -O2 -g -fomit-frame-pointer (its .comment and notes removed to
# keep it small), is recorded with `perf record --call-graph dwarf` (as
# root); from samples in its code the seed takes the map of the program
# (MMAP2 start, pgoff, length), the user registers (perf's x86-64 mask
# 0xff0fff) and the first bytes of the user stack:
#   u32 elf_size, the ELF image, struct unwind_ctl (start, pgoff, len,
#   flags, ip_step, 20 registers), the stack bytes.
# With REPLAY (a built rp-fuzz-replay) each seed is run through the target
# and kept only when it unwinds to main with an inline chain.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/corpus}/unwind
replay=${2:-}
[ -z "$replay" ] || replay=$(cd "$(dirname "$replay")" && pwd)/$(basename "$replay")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

cat >uw.c <<'C'
static volatile unsigned sink;

static inline __attribute__((always_inline)) unsigned mix(unsigned x)
{
	for (int i = 0; i < 64; i++)
		x = x * 2654435761u + (x >> 13);
	return x;
}

static inline __attribute__((always_inline)) unsigned twice(unsigned x)
{
	return mix(x) ^ mix(x + 1);
}

__attribute__((noinline)) unsigned leaf(unsigned n)
{
	unsigned v = 0;
	for (unsigned i = 0; i < n; i++)
		v += twice(i);
	sink = v;
	return v;
}

__attribute__((noinline)) unsigned middle(unsigned n)
{
	return leaf(n) + leaf(n / 2) * 3;
}

__attribute__((noinline)) unsigned outer(unsigned n)
{
	return middle(n) * 7 + sink;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? 3000 : 2000;
	(void)argv;
	for (int r = 0; r < 500; r++)
		sink += outer(n + (unsigned)r);
	return 0;
}
C
gcc -O2 -g -fomit-frame-pointer -Wl,-z,noseparate-code -Wl,--build-id=none -o uw.full uw.c
objcopy -R .comment -R .note.gnu.property -R .note.ABI-tag uw.full uw
perf record -q -e cpu-clock -c 1000000 --call-graph dwarf,1024 -o uw.data ./uw >/dev/null 2>&1

mkdir -p "$out"
python3 - uw.data uw "$out" <<'PY'
import struct, sys

data, elf_path, out = sys.argv[1:4]
b = open(data, 'rb').read()
elf = open(elf_path, 'rb').read()
assert b[:8] == b'PERFILE2'
attr_size, = struct.unpack_from('<Q', b, 16)
attrs_off, attrs_len, data_off, data_len = struct.unpack_from('<4Q', b, 24)
a = attrs_off  # the first (only) attr
sample_type, = struct.unpack_from('<Q', b, a + 24)
regs_mask, = struct.unpack_from('<Q', b, a + 80)
assert regs_mask == 0xff0fff, hex(regs_mask)
# Fields before the callchain, in the kernel's order.
fields = [(1 << 16, 8), (1, 8), (2, 8), (4, 8), (8, 8), (64, 8), (512, 8), (128, 8), (256, 8)]
assert not sample_type & (16 | 1024 | 2048), hex(sample_type)

mapping = None
samples = []
pos, end = data_off, data_off + data_len
while pos + 8 <= end:
    typ, misc, size = struct.unpack_from('<IHH', b, pos)
    if size < 8:
        break
    body = pos + 8
    if typ == 10:  # MMAP2
        start, length, pgoff = struct.unpack_from('<3Q', b, body + 8)
        prot, = struct.unpack_from('<I', b, body + 56)
        name = b[body + 64:pos + size].split(b'\0')[0].decode()
        if name.endswith('/uw') and prot & 4:
            mapping = (start, pgoff, length)
    elif typ == 9 and mapping:
        p = body
        ip = None
        for bit, n in fields:
            if sample_type & bit:
                if bit == 1:
                    ip, = struct.unpack_from('<Q', b, p)
                p += n
        if sample_type & 32:
            nr, = struct.unpack_from('<Q', b, p)
            p += 8 + 8 * nr
        abi, = struct.unpack_from('<Q', b, p)
        p += 8
        regs = struct.unpack_from('<20Q', b, p) if abi else None
        p += 160 if abi else 0
        ssize, = struct.unpack_from('<Q', b, p)
        stack = b[p + 8:p + 8 + ssize]
        dyn = struct.unpack_from('<Q', b, p + 8 + ssize)[0] if ssize else 0
        start, pgoff, length = mapping
        if regs and start <= ip < start + length and dyn:
            samples.append((ip, regs, stack[:min(dyn, 640)]))
    pos += size

assert mapping and samples, 'no sample in the program'
# Distinct ips, spread over the recording.
seen, picked = set(), []
for s in samples:
    if s[0] not in seen:
        seen.add(s[0])
        picked.append(s)
n = min(8, len(picked))
picked = [picked[i * len(picked) // n] for i in range(n)]
start, pgoff, length = mapping
# flags: bits 0-1 samples - 1, bit 2 a kernel callchain part, bit 3 a
# second map, bit 4 the map again after the first sample; ip_step.
variants = [(0, 0), (16 | 1, 0), (3, 4), (4 | 8, 0), (1, 0), (5, 1), (2, 16), (0, 0)]
for i, (ip, regs, stack) in enumerate(picked):
    flags, step_ = variants[i % len(variants)]
    ctl = struct.pack('<3QII20Q', start, pgoff, length, flags, step_, *regs)
    with open('%s/seed-%d.bin' % (out, i), 'wb') as f:
        f.write(struct.pack('<I', len(elf)) + elf + ctl + stack)
print('make_unwind_seeds: %d samples in the program, %d seeds' % (len(samples), len(picked)))
PY
if [ -n "$replay" ]; then
	# A seed must unwind to main and find an inline chain (a sample in
	# the leaf's own code has none): the others are dropped.
	kept=0
	for f in "$out"/seed-*.bin; do
		log=$(RP_FUZZ_UNWIND_PRINT=1 "$replay" -t unwind "$f" 2>&1)
		if echo "$log" | grep -q ' main ' && echo "$log" | grep -q '(inlined)'; then
			kept=$((kept + 1))
		else
			echo "make_unwind_seeds: $(basename "$f") dropped (no inline chain or not to main)"
			rm -f "$f"
		fi
	done
	[ "$kept" -ge 3 ] || { echo "make_unwind_seeds: only $kept seeds unwind to main with inlines"; exit 1; }
	echo "make_unwind_seeds: $kept seeds, each unwinds to main with an inline chain"
fi
