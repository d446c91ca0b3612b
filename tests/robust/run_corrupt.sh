#!/bin/bash
# Corruption tests, as perf's own: cut and damaged copies of good files.
#
#   run_corrupt.sh /path/to/readperf
#
# 1. A recording made here (perf record, a few thousand samples; without perf
#    the test skips, or fails under RP_REQUIRE_PERF=1) cut at 8, 64 and
#    256 bytes and at 75 % of its size: `readperf report` exits 2 with one
#    error line; at 75 % (inside the data section) the samples before the
#    cut are still reported and the error names the offset of the cut.
# 2. Its first MMAP2 record with a corrupted size (0, and 24: too short
#    for an MMAP2): exit 2, the error says `at offset 0x...: MMAP2 (10)`
#    with that record's offset.
# 3. Every good test file (tests/golden, the seeds of tests/fuzz/corpus,
#    the recording) cut at every record boundary (at most RP_CORRUPT_CUTS
#    evenly chosen ones, default 60) and at 15 random offsets, read with
#    report, csv and dump in turn: exit 0 or 2, never a signal, never
#    another status, never longer than 10 s.  Two runs at a time, in a
#    shuffled order, within RP_ROBUST_SECONDS (default 120; a sanitizer
#    build is slow: what the budget left out is printed).
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_corrupt.sh /path/to/readperf}" nocheck
command -v python3 >/dev/null || { echo "run_corrupt: python3 is needed" >&2; exit 1; }
require_perf
rp_workdir rp-corrupt keep-on-failure
work=$rp_work_dir
# Many samples, few sideband records: the data section is most of the file.
perf record -q -e cpu-clock -c 20000 -o "$work/rec.data" -- \
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' >/dev/null 2>&1 ||
	rp_cannot_run "perf record fails here"
[ -s "$work/rec.data" ] || rp_cannot_run "perf record wrote nothing"

python3 - "$RP" "$work" "$root" <<'PY'
import glob, os, random, struct, subprocess, sys, threading, time

rp, work, root = sys.argv[1:4]
rec = os.path.join(work, "rec.data")
TIMEOUT = 10
CUTS = int(os.environ.get("RP_CORRUPT_CUTS", "60"))
RANDOM = 15
BUDGET = float(os.environ.get("RP_ROBUST_SECONDS", "120"))
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg, file=sys.stderr)


def run(args):
    try:
        p = subprocess.run([rp] + args, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=TIMEOUT)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def write(name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def records(data):
    """(offset, type, size) of each record of a file- or pipe-mode file."""
    if len(data) < 16 or data[:8] != b"PERFILE2":
        return []
    hsize = struct.unpack_from("<Q", data, 8)[0]
    if hsize == 16:
        off, end = 16, len(data)
    else:
        off, size = struct.unpack_from("<QQ", data, 40)
        end = min(off + size, len(data))
    out = []
    while off + 8 <= end:
        t, _, sz = struct.unpack_from("<IHH", data, off)
        if sz < 8 or off + sz > end:
            break
        out.append((off, t, sz))
        off += sz
        if t == 66 and hsize == 16 and sz >= 12:  # pipe tracing data payload
            off += (struct.unpack_from("<I", data, off - sz + 8)[0] + 7) & ~7
    return out


def samples_of(path):
    """SAMPLE count of readperf csv's stat.csv (written also after an error)."""
    d = os.path.join(work, "csv-count")
    for f in glob.glob(os.path.join(d, "*.csv")):
        os.unlink(f)
    run(["csv", "-o", d, path])
    try:
        for line in open(os.path.join(d, "stat.csv")):
            t, _, c = line.strip().rpartition(",")
            if t.strip('"') == "SAMPLE":
                return int(c)
    except (OSError, ValueError):
        return None
    return 0


data = open(rec, "rb").read()
recs = records(data)
full_rc, full_out, full_err = run(["report", rec])
full = samples_of(rec)
if full_rc != 0 or not full:
    fail(f"the recording itself: exit {full_rc}, samples {full}: {full_err.strip()[:300]}")

# 1. cuts at 8, 64, 256 bytes and 75 %
data_off, data_size = struct.unpack_from("<QQ", data, 40)
for n in (8, 64, 256, len(data) * 3 // 4):
    path = write(f"cut{n}.data", data[:n])
    rc, out, err = run(["report", path])
    lines = [l for l in err.splitlines() if "error:" in l]
    if rc != 2 or len(lines) != 1:
        fail(f"cut at {n}: exit {rc}, error lines {lines!r} (want exit 2 and one error line)")
        continue
    if n == len(data) * 3 // 4:
        if not data_off < n < data_off + data_size:
            fail(f"cut at {n}: not inside the data section {data_off}+{data_size}")
        got = samples_of(path)
        before = sum(1 for o, t, s in recs if t == 9 and o + s <= n)
        if got != before:
            fail(f"cut at 75 % ({n}): {got} samples reported, {before} complete before the cut")
        last_end = max(o + s for o, t, s in recs if o + s <= n)
        want = "at offset %#x" % last_end  # the cut record, or the cut itself
        if want not in lines[0]:
            fail(f"cut at 75 % ({n}): error '{lines[0]}' does not name {want}")
    print(f"ok   cut at {n}: exit 2: {lines[0]}")

# 2. a corrupted MMAP2 size
mm = [r for r in recs if r[1] == 10]
if not mm:
    fail("the recording has no MMAP2 record")
else:
    off = mm[0][0]
    for bad in (0, 24):
        b = bytearray(data)
        struct.pack_into("<H", b, off + 6, bad)
        path = write(f"mmap2-{bad}.data", bytes(b))
        rc, out, err = run(["report", path])
        want = "at offset %#x: MMAP2 (10)" % off
        if rc != 2 or want not in err:
            fail(f"MMAP2 size {bad}: exit {rc}, stderr '{err.strip()[:300]}' (want exit 2 and '{want}')")
        else:
            print(f"ok   MMAP2 size {bad}: {want}")

# 3. every good file cut at record boundaries and at random offsets
good = sorted(glob.glob(os.path.join(root, "tests/golden/*.perf.data")))
good += sorted(glob.glob(os.path.join(root, "tests/fuzz/corpus/*/seed-*.data")))
good.append(rec)
seen = set()
rng = random.Random(1)
cmds = [["report"], ["csv", "-o", None], ["dump"]]
jobs = []
for path in good:
    d = open(path, "rb").read()
    if d in seen:
        continue
    seen.add(d)
    bounds = sorted({o for o, _, _ in records(d)} | {o + s for o, _, s in records(d)})
    if len(bounds) > CUTS:
        bounds = [bounds[i * len(bounds) // CUTS] for i in range(CUTS)]
    cuts = [(n, "boundary") for n in bounds]
    cuts += [(rng.randrange(1, len(d)), "random") for _ in range(RANDOM)]
    jobs += [(path, d, n, kind, cmds[i % len(cmds)]) for i, (n, kind) in enumerate(cuts)]
rng.shuffle(jobs)  # a run cut short by the budget still covers every file
runs = 0
lock = threading.Lock()
deadline = time.monotonic() + BUDGET


def worker(wid):
    global runs
    while True:
        with lock:
            if not jobs or time.monotonic() > deadline:
                return
            path, d, n, kind, cmd = jobs.pop()
        p = write(f"cut-{wid}.data", d[:n])
        if cmd[0] == "csv":
            cmd = ["csv", "-o", os.path.join(work, f"csv-{wid}")]
        rc, out, err = run(cmd + [p])
        with lock:
            runs += 1
            if rc not in (0, 2):
                keep = write(f"fail-{len(failures)}.data", d[:n])
                what = "timed out" if rc == "timeout" else (
                    f"signal {-rc}" if rc < 0 else f"exit {rc}")
                fail(f"{os.path.relpath(path, root)} cut at {n} ({kind}), readperf {cmd[0]}: "
                     f"{what}: {err.strip()[-300:]} (kept as {keep})")


threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
if jobs:
    print(f"run_corrupt: NOTE: the {BUDGET:.0f} s budget (RP_ROBUST_SECONDS) ran out, "
          f"{len(jobs)} cut runs not done")
print(f"run_corrupt: {runs} cut runs over {len(seen)} files; {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
PY
rc=$?
[ $rc -eq 0 ] || echo "run_corrupt: failing inputs kept in $work" >&2
exit $rc
