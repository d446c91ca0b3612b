#!/bin/bash
# --symfs and the end-of-run warning about kernel samples, against perf.
#
#   run_symfs_warn.sh /path/to/readperf
#
# A system-wide cpu-clock recording (kernel samples) made now:
#   - `report --symfs DIR` rows (--sort comm,dso,sym) equal perf's for DIR
#     "/" and "/tmp/.." (perf takes a symfs that is the root for none, so
#     kernel names stay), an empty directory and one holding only the
#     workload (no kallsyms there: kernel samples stay addresses);
#   - the warning about kernel samples comes exactly when perf's comes
#     (its kptr_restrict warning): not for the recording itself (some
#     user samples have no symbol: perf says nothing), not for a
#     cpu-clock:u recording, but for a copy whose kernel MMAP has pgoff 0
#     (what kptr_restrict at record time leaves) and for a copy without a
#     kernel MMAP; rows equal perf's on those copies too.
#
# When perf is missing or cannot record, the test says so loudly and skips
# (exit 77), unless RP_REQUIRE_PERF=1 (make check, CI): then it fails.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_symfs_warn.sh /path/to/readperf}"
awkf=$here/perf_rows.awk
require_perf
require_cc
require_tool python3 "python3 is missing (it edits copies of the recording)"
rp_workdir rp-symfs keep-on-failure
work=$rp_work_dir
cd "$work" || exit 1
rp_compile_workload || exit 1

rows() { awk -v sep=';' -f "$awkf"; }

# compare TAG FILE [OPTIONS...]: report rows of perf and readperf, and
# whether each warned at the end (perf's "Warning:", readperf's
# "readperf: warning:" about kernel samples).
compare() {
	local tag=$1 file=$2 pw rw
	shift 2
	perf report -i "$file" --stdio --no-children --sort comm,dso,sym \
		-F overhead,sample,period,comm,dso,sym -t ';' -g none "$@" \
		>"$tag.perf.txt" 2>"$tag.perf.err" || {
		cat "$tag.perf.err" >&2
		fail "$tag: perf report failed"
		return
	}
	"$RP" report --no-children -g none --sort comm,dso,sym -F overhead,sample,period,comm,dso,sym -t ';' "$@" "$file" >"$tag.rp.txt" 2>"$tag.rp.err" ||
		fail "$tag: readperf report failed: $(head -3 "$tag.rp.err")"
	rows <"$tag.perf.txt" >"$tag.perf.rows"
	rows <"$tag.rp.txt" >"$tag.rp.rows"
	rp_same "$tag rows" "$tag.perf.rows" "$tag.rp.rows" &&
		echo "ok   $tag rows ($(grep -cv '^@event ' "$tag.rp.rows"))"
	pw=no
	grep -q "^Warning:" "$tag.perf.err" && pw=yes
	rw=no
	grep -q "readperf: warning: .*kernel" "$tag.rp.err" && rw=yes
	if [ "$pw" != "$rw" ]; then
		fail "$tag: perf warned: $pw, readperf warned: $rw"
		cat "$tag.perf.err" "$tag.rp.err" >&2
	else
		echo "ok   $tag warning: $pw"
	fi
	# No other end-of-run line: samples without a symbol are no news.
	if grep -v "kernel" "$tag.rp.err" | grep -q .; then
		fail "$tag: readperf printed more on stderr:"
		cat "$tag.rp.err" >&2
	fi
}

record_workload sys -e cpu-clock -a -- -t 400 -j 2
record_workload user -e cpu-clock:u -- -t 200
mkdir -p emptyfs onlywl
cp workload onlywl/

# Copies: the kernel MMAP's pgoff set to 0; the kernel MMAP renamed so that
# it names no kernel.
python3 - sys.data <<'EOF' || fail "cannot edit the recording"
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
off, size = struct.unpack_from("<QQ", data, 40)
pos, found = off, None
while pos < off + size:
    typ, _misc, sz = struct.unpack_from("<IHH", data, pos)
    if typ == 1 and data[pos + 40:pos + 57] == b"[kernel.kallsyms]":
        found = pos
        break
    pos += sz
if found is None:
    sys.exit("no kernel MMAP record")
zero = bytearray(data)
struct.pack_into("<Q", zero, found + 32, 0)
open("kptr.data", "wb").write(zero)
renamed = bytearray(data)
renamed[found + 40:found + 57] = b"[kernel.kallsymz]"
open("nokmap.data", "wb").write(renamed)
EOF

compare sys sys.data
compare symfs-root sys.data --symfs /
compare symfs-dotdot sys.data --symfs /tmp/..
compare symfs-empty sys.data --symfs "$work/emptyfs"
compare symfs-workload sys.data --symfs "$work/onlywl"
compare user user.data
compare kptr kptr.data
compare nokmap nokmap.data

if [ $failures -ne 0 ]; then
	echo "$rp_name: $failures check(s) failed; files kept in $work" >&2
	exit 1
fi
echo "$rp_name: --symfs and the kernel warning agree with perf"
exit 0
