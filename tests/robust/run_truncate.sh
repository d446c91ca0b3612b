#!/bin/bash
# Robustness test: readperf on cut and corrupted copies of real files.
#
#   run_truncate.sh /path/to/readperf
#
# Inputs: the golden files (tests/golden/*.perf.data) and the small files of
# ../shared/corpus (all fuzzer inputs, and other files under 64 KB; the
# corpus is optional).  For each input:
#   - cuts: `readperf report` on the first N bytes, for every N when the
#     file is under 64 KB, at 512 evenly spaced N otherwise;
#   - flips: 200 copies with one random byte xor-ed with a random non-zero
#     value, read alternately with `readperf report` and `readperf csv`.
# Every run has a 10 s timeout and must exit with status 0 or 2: never a
# signal, never a sanitizer report, never another status.
#
# The whole test aims at RP_ROBUST_SECONDS (default 100) of wall time: it
# times readperf first and, when every cut does not fit (a sanitizer build is
# slow), cuts at evenly spaced offsets instead and says so.  RP_ROBUST_SEED
# (default 1) makes the flips reproducible.  Failing inputs are kept and
# their paths printed.
set -u

RP=${1:?usage: run_truncate.sh /path/to/readperf}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${RP_CORPUS_DIR:-$root/../shared/corpus}

case "$RP" in /*) ;; *) RP=$PWD/$RP ;; esac
[ -x "$RP" ] || { echo "run_truncate: $RP is not an executable" >&2; exit 1; }
command -v python3 >/dev/null || { echo "run_truncate: python3 is needed (apt-get install python3)" >&2; exit 1; }
if [ ! -d "$corpus" ]; then
	echo "run_truncate: NOTE: no corpus at $corpus: golden files only" >&2
fi

exec python3 - "$RP" "$root/tests/golden" "$corpus" <<'PY'
import concurrent.futures as cf
import glob, os, random, shutil, subprocess, sys, tempfile, threading, time

rp, golden_dir, corpus = sys.argv[1:4]
BUDGET = float(os.environ.get("RP_ROBUST_SECONDS", "100"))
SEED = int(os.environ.get("RP_ROBUST_SEED", "1"))
SMALL = 64 * 1024
SPACED = 512
FLIPS = 200
TIMEOUT = 10
WORKERS = 2
MAX_REPORTED = 20

inputs = sorted(glob.glob(os.path.join(golden_dir, "*.perf.data")))
if os.path.isdir(corpus):
    for sub in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, sub)
        if not os.path.isdir(d):
            continue
        for fn in sorted(os.listdir(d)):
            p = os.path.join(d, fn)
            if not os.path.isfile(p + ".rc"):
                continue  # the .txt/.json/.rc files beside each input
            size = os.path.getsize(p)
            if sub.endswith("_FUZZ") or size < SMALL:
                inputs.append(p)
if not inputs:
    print("run_truncate: no input files", file=sys.stderr)
    sys.exit(1)

work = tempfile.mkdtemp(prefix="rp-robust.")
lock = threading.Lock()
failures = []
runs = 0
local = threading.local()


def scratch():
    if not hasattr(local, "dir"):
        local.dir = tempfile.mkdtemp(dir=work, prefix="w")
    return local.dir


def run_one(data, mode, label):
    """Runs readperf on data; returns None or a failure description."""
    global runs
    d = scratch()
    path = os.path.join(d, "input.data")
    with open(path, "wb") as f:
        f.write(data)
    if mode == "csv":
        args = [rp, "csv", "-o", os.path.join(d, "csv"), path]
    else:
        args = [rp, "report", path]
    try:
        p = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
        rc = p.returncode
        err = p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    with lock:
        runs += 1
    if rc in (0, 2):
        return None
    with lock:
        n = len(failures)
        keep = os.path.join(work, f"fail-{n}.data")
        with open(keep, "wb") as f:
            f.write(data)
        what = f"timed out after {TIMEOUT} s" if rc == "timeout" else (
            f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}")
        failures.append(f"{label}: {what}; input kept: {keep}; "
                        f"rerun: {rp} {'csv -o /tmp/x' if mode == 'csv' else 'report'} {keep}\n"
                        f"    stderr: {err.strip()[-400:]}")
    return failures[-1]


def offsets_for(size, count):
    if count >= size:
        return list(range(size))
    return sorted({(i * size) // count for i in range(count)})


# 1. time readperf on a few cuts of the first input to fit the budget
probe = open(inputs[0], "rb").read()
t0 = time.monotonic()
for n in offsets_for(len(probe), 32):
    run_one(probe[:n], "report", f"{os.path.basename(inputs[0])} cut at {n} (timing)")
# Two workers, but on a machine shared with other tests: count on no speedup.
per_run = (time.monotonic() - t0) / 32

sizes = {p: os.path.getsize(p) for p in inputs}
want_cuts = {p: (s if s < SMALL else SPACED) for p, s in sizes.items()}
flip_runs = FLIPS * len(inputs)
cut_budget = max(0, int(BUDGET / max(per_run, 1e-4)) - flip_runs)
total_want = sum(want_cuts.values())
if total_want > cut_budget:
    scale = cut_budget / total_want
    cuts = {p: min(c, max(64, int(c * scale))) for p, c in want_cuts.items()}
    print(f"run_truncate: NOTE: every cut would take ~{int(total_want * per_run)} s "
          f"(~{per_run * 1000:.1f} ms a run): cutting at {sum(cuts.values())} evenly spaced "
          f"offsets instead of {total_want}; set RP_ROBUST_SECONDS to change the budget")
else:
    cuts = want_cuts

jobs = []
for p in inputs:
    data = open(p, "rb").read()
    name = os.path.relpath(p, os.path.dirname(golden_dir)) if p.startswith(golden_dir) \
        else os.path.relpath(p, corpus)
    for n in offsets_for(len(data), cuts[p]):
        jobs.append((data, n, None, "report", f"{name} cut at {n}"))
    rng = random.Random(f"{SEED}:{os.path.basename(p)}")
    for i in range(FLIPS):
        if not data:
            break
        pos = rng.randrange(len(data))
        val = rng.randrange(1, 256)
        mode = "report" if i % 2 == 0 else "csv"
        jobs.append((data, pos, val, mode, f"{name} byte {pos} ^= 0x{val:02x} ({mode})"))


def do(job):
    data, n, val, mode, label = job
    if val is None:
        return run_one(data[:n], mode, label)
    b = bytearray(data)
    b[n] ^= val
    return run_one(bytes(b), mode, label)


start = time.monotonic()
with cf.ThreadPoolExecutor(WORKERS) as ex:
    for r in ex.map(do, jobs):
        if r and len(failures) <= MAX_REPORTED:
            print("FAIL " + r, file=sys.stderr)

elapsed = time.monotonic() - start
print(f"run_truncate: {runs} runs on {len(inputs)} inputs in {elapsed:.0f} s "
      f"(seed {SEED}); {len(failures)} failure(s)")
if failures:
    print(f"run_truncate: failing inputs kept in {work}", file=sys.stderr)
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
sys.exit(0)
PY
