#!/bin/bash
# Allocation failure test: `readperf report` and `readperf csv` on the
# golden files with the Nth allocation failing, for every N from 1 to the
# number of allocations the run makes.
#
#   run_allocfail.sh /path/to/readperf
#
# Uses rp-alloc-readperf beside the given binary (cmake/fuzz.cmake: the
# command linked with tests/robust/alloc_wrap.c).  Each run must end
# cleanly: exit 2 or 1 with a "readperf: error:" line on stderr, or exit 0
# when the failed allocation was optional: the output (standard output of
# report, every file csv writes) is then byte for byte what a normal run
# writes.  Never a signal, a sanitizer report, a leak (the sanitizer build
# reports leaks; its exit status is then 23 or 66), nor a report with
# something missing.  An allocation failing while a symbol table loads
# (ELF symbols, kallsyms, names, sorting: the failed allocation's stack,
# printed by the shim, holds the symbol loader) must end the run with an
# error that says "out of memory" (RP_ERR_NOMEM), never leave that DSO
# without symbols.  Two runs at a time within RP_ROBUST_SECONDS (default
# 240).
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_allocfail.sh /path/to/readperf}" nocheck
ALLOC=$(dirname "$RP")/rp-alloc-readperf
if [ ! -x "$ALLOC" ]; then
	echo "run_allocfail: SKIP: no $ALLOC (cmake/fuzz.cmake builds it)" >&2
	exit 77
fi
command -v python3 >/dev/null || { echo "run_allocfail: python3 is needed" >&2; exit 1; }
rp_workdir rp-allocfail
work=$rp_work_dir

python3 - "$ALLOC" "$work" "$root" <<'PY'
import glob, os, re, subprocess, sys, threading, time

alloc, work, root = sys.argv[1:4]
BUDGET = float(os.environ.get("RP_ROBUST_SECONDS", "240"))
env = dict(os.environ)
# A sanitizer report must not look like exit 1.
env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":exitcode=66"
env["UBSAN_OPTIONS"] = env.get("UBSAN_OPTIONS", "") + ":exitcode=66"
files = sorted(glob.glob(os.path.join(root, "tests/golden/*.perf.data")))
failures = []
lock = threading.Lock()


def csv_dir(wid):
    return os.path.join(work, f"csv{wid}")


def cmd_for(kind, f, wid):
    if kind == "csv":
        return [alloc, "csv", "-o", csv_dir(wid), f]
    return [alloc, "report", f]


def output_of(kind, wid, out):
    """What the run wrote: report's standard output, csv's files."""
    if kind != "csv":
        return out
    d = csv_dir(wid)
    files = {}
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, name), "rb") as fh:
            files[name] = fh.read()
    return files


def clear_output(kind, wid):
    d = csv_dir(wid)
    if kind == "csv" and os.path.isdir(d):
        for name in os.listdir(d):
            os.unlink(os.path.join(d, name))


def run(args, extra):
    e = dict(env)
    e.update(extra)
    try:
        p = subprocess.run(args, env=e, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=60)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", b"", ""


jobs = []
for f in files:
    for kind in ("report", "csv"):
        clear_output(kind, 0)
        rc, out, err = run(cmd_for(kind, f, 0), {"RP_ALLOC_COUNT": "1"})
        m = re.search(r"rp-alloc: (\d+) allocations", err)
        if rc != 0 or not m:
            failures.append(f"{kind} {f}: the normal run failed: exit {rc}: {err[-300:]}")
            continue
        k = int(m.group(1))
        good = output_of(kind, 0, out)
        jobs += [(kind, f, n, k, good) for n in range(1, k + 1)]
total = len(jobs)
# Interleaved across files and commands, N strided: a run cut short by the
# budget still covers every file and the whole range of N.
jobs.sort(key=lambda j: ((j[2] * 7919) % (j[3] + 1), j[0], j[1]))
jobs.reverse()
deadline = time.monotonic() + BUDGET
stats = {"error": 0, "ok": 0, "symbols": 0}
# Frames of the symbol loader (lib/symbols) in the shim's stack trace.
IN_SYMBOLS = re.compile(r"\((rp_symbols_|rp_symb_|rp_symtab_|rp_load_|rp_demangle|"
                        r"cplus_demangle|rust_demangle)")


def worker(wid):
    while True:
        with lock:
            if not jobs or time.monotonic() > deadline:
                return
            kind, f, n, k, good = jobs.pop()
        clear_output(kind, wid)
        rc, out, err = run(cmd_for(kind, f, wid), {"RP_ALLOC_FAIL_AT": str(n),
                                                   "RP_ALLOC_TRACE": "1"})
        name = f"{kind} {os.path.basename(f)} failing allocation {n} of {k}"
        wrote = output_of(kind, wid, out) if rc == 0 else None
        in_symbols = IN_SYMBOLS.search(err) is not None
        with lock:
            stats["symbols"] += in_symbols
            if rc in (1, 2) and "readperf: error:" in err and (
                    not in_symbols or "out of memory" in err):
                stats["error"] += 1
            elif rc == 0 and wrote == good:
                stats["ok"] += 1
            else:
                what = "timed out" if rc == "timeout" else (
                    f"signal {-rc}" if isinstance(rc, int) and rc < 0 else f"exit {rc}")
                if rc == 0:
                    what += ", output differs from a normal run's"
                elif rc in (1, 2):
                    what += ", no out-of-memory error for the symbol loader"
                failures.append(f"{name}: {what}: {err.strip()[-600:]}")
                print(f"FAIL {failures[-1]}", file=sys.stderr)


threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
done = total - len(jobs)
print(f"run_allocfail: {done} of {total} runs: {stats['error']} clean errors, "
      f"{stats['ok']} unaffected (optional allocation), {stats['symbols']} of them in the "
      f"symbol loader; {len(failures)} failure(s)")
if jobs:
    print(f"run_allocfail: NOTE: the {BUDGET:.0f} s budget (RP_ROBUST_SECONDS) ran out")
sys.exit(1 if failures else 0)
PY
