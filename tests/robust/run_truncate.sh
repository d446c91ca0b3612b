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
# The whole test stops starting runs after RP_ROBUST_SECONDS (default 90):
# the runs go round-robin across inputs, cuts in a shuffled order and flips
# interleaved one for one, so a partial run covers every input evenly; the coverage
# reached is printed when the budget runs out (a sanitizer build is slow).  RP_ROBUST_SEED
# (default 1) makes the flips reproducible.  Failing inputs are kept and
# their paths printed.
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_truncate.sh /path/to/readperf}" nocheck
corpus=$(rp_corpus_dir "${RP_CORPUS_DIR:-}")
command -v python3 >/dev/null || { echo "run_truncate: python3 is needed (apt-get install python3)" >&2; exit 1; }
if [ ! -d "$corpus" ]; then
	echo "run_truncate: NOTE: no corpus at $corpus: golden files only" >&2
fi

exec python3 - "$RP" "$root/tests/golden" "$corpus" <<'PY'
import concurrent.futures as cf
import glob, os, random, shutil, subprocess, sys, tempfile, threading, time

rp, golden_dir, corpus = sys.argv[1:4]
BUDGET = float(os.environ.get("RP_ROBUST_SECONDS", "90"))
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


# Plan every job of every input, then run them round-robin across inputs
# (job k of each input before job k+1 of any) until the budget is spent:
# small inputs finish, big ones get evenly spread partial coverage, and the
# test ends on time whatever readperf's speed (a sanitizer build is slow).
plans = []
for p in inputs:
    data = open(p, "rb").read()
    name = os.path.relpath(p, os.path.dirname(golden_dir)) if p.startswith(golden_dir) \
        else os.path.relpath(p, corpus)
    rng = random.Random(f"{SEED}:{os.path.basename(p)}")
    ncuts = len(data) if len(data) < SMALL else SPACED
    cut_jobs = [(data, n, None, "report", f"{name} cut at {n}")
                for n in offsets_for(len(data), ncuts)]
    rng.shuffle(cut_jobs)  # any prefix is spread over the whole file
    flip_jobs = []
    for i in range(FLIPS if data else 0):
        pos = rng.randrange(len(data))
        val = rng.randrange(1, 256)
        mode = "report" if i % 2 == 0 else "csv"
        flip_jobs.append((data, pos, val, mode, f"{name} byte {pos} ^= 0x{val:02x} ({mode})"))
    # interleave one flip, one cut, while both last; then the other cuts
    merged = []
    for k in range(max(len(cut_jobs), len(flip_jobs))):
        if k < len(flip_jobs):
            merged.append(flip_jobs[k])
        if k < len(cut_jobs):
            merged.append(cut_jobs[k])
    plans.append({"name": name, "jobs": merged, "cuts": len(cut_jobs),
                  "flips": len(flip_jobs), "done_cuts": 0, "done_flips": 0})


def schedule():
    k = 0
    while True:
        any_left = False
        for pl in plans:
            if k < len(pl["jobs"]):
                any_left = True
                yield pl, pl["jobs"][k]
        if not any_left:
            return
        k += 1


def do(pl, job):
    data, n, val, mode, label = job
    if val is None:
        r = run_one(data[:n], mode, label)
        key = "done_cuts"
    else:
        b = bytearray(data)
        b[n] ^= val
        r = run_one(bytes(b), mode, label)
        key = "done_flips"
    with lock:
        pl[key] += 1
    return r


start = time.monotonic()
deadline = start + BUDGET
it = schedule()
it_lock = threading.Lock()
out_of_time = False


def worker():
    global out_of_time
    while True:
        with it_lock:
            if time.monotonic() > deadline:
                out_of_time = True
                return
            try:
                pl, job = next(it)
            except StopIteration:
                return
        r = do(pl, job)
        if r and len(failures) <= MAX_REPORTED:
            print("FAIL " + r, file=sys.stderr)


threads = [threading.Thread(target=worker) for _ in range(WORKERS)]
for t in threads:
    t.start()
for t in threads:
    t.join()

partial = [pl for pl in plans if pl["done_cuts"] < pl["cuts"] or pl["done_flips"] < pl["flips"]]
if partial:
    print(f"run_truncate: NOTE: the {BUDGET:.0f} s budget (RP_ROBUST_SECONDS) ran out; "
          f"partial coverage of {len(partial)} of {len(plans)} inputs:")
    for pl in partial:
        print(f"    {pl['name']}: {pl['done_cuts']} of {pl['cuts']} cuts, "
              f"{pl['done_flips']} of {pl['flips']} flips")
elapsed = time.monotonic() - start
print(f"run_truncate: {runs} runs on {len(inputs)} inputs in {elapsed:.0f} s "
      f"(seed {SEED}); {len(failures)} failure(s)")
if failures:
    print(f"run_truncate: failing inputs kept in {work}", file=sys.stderr)
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
sys.exit(0)
PY
