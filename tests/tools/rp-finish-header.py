#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Finish the header of a perf.data file that `perf record` left with data
size 0 (it was killed before it wrote the real size and the feature
sections), so that perf can read the records it holds.

    rp-finish-header.py [--compressed-from DONE.data] CUT.data FINISHED.data

Walks the records from the data offset (little-endian file mode only: the
8-byte record header is u32 type, u16 misc, u16 size) up to the first one
that is not whole or cannot be a record (size below 8 or not a multiple of
8 but for COMPRESSED records, type 0, past the end of the file), then writes a copy whose header says
data size = the bytes of those whole records and sets no feature bit (the
feature sections were never written), truncated after the last whole
record; with --compressed-from, the copy gets the COMPRESSED feature
section of DONE.data (a finished recording made with the same -z
options), which perf needs to inflate COMPRESSED records.  Prints
"RECOVERED CUT": the bytes of whole records and the bytes
after them.  The tests use the copy as the oracle for what readperf reads
from the cut file: the same bytes, made readable by perf.
"""
import struct
import sys


COMPRESSED = 27  # the HEADER_COMPRESSED feature bit


def feature_section(path, bit):
    """The bytes of feature `bit` of a finished file-mode recording."""
    done = open(path, "rb").read()
    data_off, data_size = struct.unpack_from("<QQ", done, 40)
    bits = struct.unpack_from("<QQQQ", done, 72)
    if not bits[bit // 64] >> (bit % 64) & 1:
        sys.exit("%s has no feature %d" % (path, bit))
    nr = sum(bin(bits[b // 64] >> (b % 64) & 1).count("1") for b in range(bit))
    off, size = struct.unpack_from("<QQ", done, data_off + data_size + 16 * nr)
    return done[off:off + size]


def main():
    args = sys.argv[1:]
    comp_from = None
    if len(args) == 4 and args[0] == "--compressed-from":
        comp_from = args[1]
        args = args[2:]
    if len(args) != 2:
        sys.exit("usage: rp-finish-header.py [--compressed-from DONE.data] CUT.data FINISHED.data")
    sys.argv[1:] = args
    data = bytearray(open(sys.argv[1], "rb").read())
    if data[:8] != b"PERFILE2":
        sys.exit("not a little-endian file-mode perf.data")
    hsize, = struct.unpack_from("<Q", data, 8)
    if hsize != 104:
        sys.exit("unexpected header size %d" % hsize)
    data_off, data_size = struct.unpack_from("<QQ", data, 40)
    if data_size != 0:
        sys.exit("the header's data size is %d, not 0: not cut short" % data_size)
    pos = data_off
    while pos + 8 <= len(data):
        typ, _misc, size = struct.unpack_from("<IHH", data, pos)
        # COMPRESSED (81) records are written unpadded
        if typ == 0 or size < 8 or (size % 8 and typ != 81) or pos + size > len(data):
            break
        if typ == 71:  # AUXTRACE: a payload follows the record
            payload, = struct.unpack_from("<Q", data, pos + 8)
            if pos + size + payload > len(data):
                break
            size += payload
        pos += size
    recovered = pos - data_off
    cut = len(data) - pos
    struct.pack_into("<QQ", data, 40, data_off, recovered)
    struct.pack_into("<QQQQ", data, 72, 0, 0, 0, 0)
    out = data[:pos]
    if comp_from:
        # perf needs the COMPRESSED feature to inflate COMPRESSED records
        # (its mmap_len sizes the buffer): the one a finished recording
        # with the same options wrote.
        body = feature_section(comp_from, COMPRESSED)
        struct.pack_into("<Q", out, 72, 1 << COMPRESSED)
        out += struct.pack("<QQ", pos + 16, len(body)) + body
    with open(sys.argv[2], "wb") as f:
        f.write(out)
    print(recovered, cut)


main()
