#!/bin/bash
# Corpus test: readperf on the public perf.data files of ../shared/corpus
# (relative to the repository; RP_CORPUS_DIR overrides), each beside what
# perf 6.1 printed for it and an independent decode (.pdinfo.json).
#
#   run_corpus.sh /path/to/readperf
#
# Files (fuzzer inputs excluded: see tests/robust) fall in three groups:
#  - perf reads them (their .rc shows exit 0 everywhere), or perf refuses
#    them but they are valid (.pdinfo.json without errors: attr.size 136,
#    COMPRESSED2): `readperf report` and `readperf csv` must exit 0, and
#    stat.csv's per-type counts must equal the .pdinfo.json record counts
#    (records inside COMPRESSED records count as their own types).  For
#    files perf read (file or pipe mode, compressed or not), readperf's
#    event names must be perf's (perf 4.x pipes: the tracing data names a
#    tracepoint, an EVENT_DESC before the attrs names nothing), its
#    per-event sample and period totals must equal the "# Samples" /
#    "# Event count" lines of .report.txt (when perf printed them
#    unabbreviated), and its
#    per-command overhead must equal the sum of .report.txt's rows for that
#    command (within their rounding); for files with branch stacks, in
#    perf's branch mode, branches.
#  - files in ok/expected_unsupported.txt (pipe mode, compressed,
#    big-endian: not read yet) must exit with the status given there (2).
#  - any other file (perf fails on it, the decode found errors): readperf
#    must exit 0 or 2, never crash.
# RP_CORPUS_STRICT=1 also compares `readperf report` with .report.txt row by
# row (symbols then depend on the binaries found on this machine).
set -u

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
rp_take_binary "${1:?usage: run_corpus.sh /path/to/readperf}"
corpus=$(rp_corpus_dir "${RP_CORPUS_DIR:-}")
if [ ! -d "$corpus" ]; then
	rp_banner "CORPUS TEST SKIPPED: no corpus at $corpus" \
		  "(set RP_CORPUS_DIR to the directory holding CATALOG.md)"
	exit 77
fi
command -v python3 >/dev/null || { echo "run_corpus: python3 is needed (apt-get install python3)" >&2; exit 1; }

exec python3 - "$RP" "$corpus" "$here/ok/expected_unsupported.txt" "$root/tests/golden/stats_rows.awk" <<'PY'
import json, os, re, shutil, subprocess, sys, tempfile

rp, corpus, unsupported_list, _ = sys.argv[1:5]
strict = os.environ.get("RP_CORPUS_STRICT") == "1"
TIMEOUT = 60
ALIASES = {"HEADER_ATTR": "ATTR", "HEADER_EVENT_TYPE": "EVENT_TYPE",
           "HEADER_TRACING_DATA": "TRACING_DATA", "HEADER_BUILD_ID": "BUILD_ID",
           "HEADER_FEATURE": "FEATURE"}

failures = []
notes = []
counts = {"ok": 0, "unsupported": 0, "nocrash": 0}


def fail(name, msg):
    failures.append(f"{name}: {msg}")
    print(f"FAIL {name}: {msg}", file=sys.stderr)


def run(args, cwd=None):
    try:
        p = subprocess.run([rp] + args, capture_output=True, timeout=TIMEOUT, cwd=cwd)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def status_ok(rc, allowed):
    return isinstance(rc, int) and rc in allowed


def describe(rc):
    if rc == "timeout":
        return f"timed out after {TIMEOUT} s"
    if rc < 0:
        return f"killed by signal {-rc}"
    return f"exit status {rc}"


def canon(t):
    t = t.strip().strip('"')
    # The legacy pipe streams' feature records (types 69-80 of Google's
    # perf 3.x) are read as HEADER_FEATURE records.
    if t.startswith("LEGACY_FEAT_"):
        return "FEATURE"
    return ALIASES.get(t, t)


def read_stat_csv(path):
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    if not lines or not re.match(r'^"?type"?,', lines[0]):
        raise ValueError(f"stat.csv header is {lines[:1]!r}, expected type,count")
    for line in lines[1:]:
        if not line.strip():
            continue
        t, _, c = line.rpartition(",")
        c = int(c.strip().strip('"'))
        if c:
            out[canon(t)] = out.get(canon(t), 0) + c
    return out


def parse_t_rows(text):
    """Rows of `readperf report --no-children -g none --sort comm
    -F overhead,sample,period,comm -t ';'`, per event section."""
    sections, cur = [], None
    for line in text.splitlines():
        m = re.match(r"^# Samples: .* of events? '(.*)'", line)
        if m:
            cur = {"event": m.group(1), "rows": []}
            sections.append(cur)
            continue
        if line.startswith("#") or not line.strip():
            continue
        if cur is None:
            cur = {"event": None, "rows": []}
            sections.append(cur)
        f = [x.strip() for x in line.split(";")]
        if len(f) < 4:
            raise ValueError(f"row {line!r} has fewer than 4 fields")
        cur["rows"].append((float(f[0].rstrip("%")), int(f[1]), int(f[2]), ";".join(f[3:])))
    return sections


def parse_report_txt(path):
    """perf's .report.txt: per event, the totals and the per-comm overhead sums."""
    sections, cur, cols = [], None, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f.read().splitlines():
            m = re.match(r"^# Samples: (\S+)\s+of events? '(.*)'", line)
            if m:
                cur = {"event": m.group(2), "samples": m.group(1), "period": None,
                       "comm": {}, "rows": 0}
                sections.append(cur)
                cols = None
                continue
            m = re.match(r"^# Event count \(approx\.\): (\d+)", line)
            if m and cur is not None:
                cur["period"] = int(m.group(1))
                continue
            if re.match(r"^# \.+  \.+", line):
                # the dots line gives the column extents
                cols = [(m2.start(), m2.end()) for m2 in re.finditer(r"\.+", line)]
                continue
            if line.startswith("#") or not line.strip() or cur is None or cols is None:
                continue
            if len(cols) < 2:
                continue
            ov = line[:cols[0][1]].strip()
            comm = line[cols[1][0]:cols[2][0] if len(cols) > 2 else None].strip()
            if not ov.endswith("%"):
                continue
            if " " in ov:
                # an event group: one overhead column per member
                cur["group"] = True
                continue
            cur["comm"][comm] = cur["comm"].get(comm, 0.0) + float(ov[:-1])
            cur["rows"] += 1
    return sections


def per_comm_check(name, base, info):
    try:
        theirs = parse_report_txt(base + ".report.txt")
    except OSError as e:
        fail(name, f"cannot read .report.txt: {e}")
        return
    if any(s.get("group") for s in theirs):
        return  # an event group: per-comm totals are not derivable from the text
    # Files with the BRANCH_STACK feature are reported in branch mode by
    # both (one row per branch): they are compared as the others.
    if info.get("records", {}).get("AUXTRACE"):
        return  # perf decodes AUX data (Intel PT) into events of its own
    rc, out, err = run(["report", "--no-children", "-g", "none", "--sort", "comm",
                        "-F", "overhead,sample,period,comm", "-t", ";", base])
    if rc != 0:
        fail(name, f"readperf report --sort comm -t ';': {describe(rc)}: {err.strip()[:200]}")
        return
    try:
        mine = parse_t_rows(out)
    except ValueError as e:
        fail(name, f"cannot parse readperf's per-comm rows: {e}")
        return
    theirs = [s for s in theirs if s["rows"] > 0]
    if len(theirs) != len(mine):
        fail(name, f"{len(mine)} event sections from readperf, {len(theirs)} in .report.txt")
        return
    for s_rp, s_perf in zip(mine, theirs):
        ev = s_perf["event"]
        if s_rp["event"] is not None and s_rp["event"] != ev:
            fail(name, f"event section '{s_rp['event']}' where perf has '{ev}'")
            continue
        samples = sum(r[1] for r in s_rp["rows"])
        period = sum(r[2] for r in s_rp["rows"])
        if re.fullmatch(r"\d+", s_perf["samples"]) and int(s_perf["samples"]) != samples:
            fail(name, f"event '{ev}': {samples} samples, perf reports {s_perf['samples']}")
        if s_perf["period"] is not None and s_perf["period"] != period:
            fail(name, f"event '{ev}': total period {period}, perf reports {s_perf['period']}")
        rp_comm = {}
        for r in s_rp["rows"]:
            rp_comm[r[3]] = rp_comm.get(r[3], 0.0) + r[0]
        # each .report.txt row is rounded to 0.01%: allow that much per row
        nrows = max(1, s_perf["rows"])
        tol = 0.005 * nrows + 0.0051
        for comm in sorted(set(rp_comm) | set(s_perf["comm"])):
            a, b = rp_comm.get(comm, 0.0), s_perf["comm"].get(comm, 0.0)
            if abs(a - b) > tol:
                fail(name, f"event '{ev}' comm '{comm}': readperf {a:.2f}%, perf rows sum to {b:.2f}%")


def strict_check(name, base):
    rc, out, err = run(["report", "--sort", "comm,dso,sym", base])
    norm = lambda t: [re.sub(r"\s+", " ", l.strip()) for l in t.splitlines()
                      if l.strip() and not l.startswith("#")]
    with open(base + ".report.txt", encoding="utf-8", errors="replace") as f:
        want = norm(f.read())
    got = norm(out)
    if got != want:
        diff = [l for l in want if l not in set(got)][:5]
        fail(name, f"strict: report differs from .report.txt ({len(got)} vs {len(want)} rows); "
                   f"perf rows missing from readperf: {diff}")


def readable_check(name, base, info, perf_ok, tmp):
    rc, out, err = run(["report", base])
    if rc != 0:
        fail(name, f"readperf report: {describe(rc)}: {err.strip()[:300]}")
        return False
    csvdir = os.path.join(tmp, "csv")
    shutil.rmtree(csvdir, ignore_errors=True)
    rc, out, err = run(["csv", "-o", csvdir, base])
    if rc != 0:
        fail(name, f"readperf csv: {describe(rc)}: {err.strip()[:300]}")
        return False
    for f in ("stat.csv", "overview.csv", "processes.csv", "results.csv"):
        if not os.path.isfile(os.path.join(csvdir, f)):
            fail(name, f"readperf csv wrote no {f}")
    try:
        got = read_stat_csv(os.path.join(csvdir, "stat.csv"))
    except (ValueError, OSError) as e:
        fail(name, f"stat.csv: {e}")
        return False
    want = {}
    for k, v in info.get("records", {}).items():
        if v:
            want[canon(k)] = want.get(canon(k), 0) + v
    if got != want:
        diffs = [f"{k}: readperf {got.get(k, 0)}, expected {want.get(k, 0)}"
                 for k in sorted(set(got) | set(want)) if got.get(k, 0) != want.get(k, 0)]
        fail(name, "record counts differ from .pdinfo.json: " + "; ".join(diffs))
    if perf_ok and os.path.isfile(base + ".report.txt"):
        per_comm_check(name, base, info)
        if strict:
            strict_check(name, base)
    return True


def main():
    expected = {}
    with open(unsupported_list) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                path, status, *reason = line.split()
                expected[path] = (int(status), " ".join(reason))
    seen = set()
    tmp = tempfile.mkdtemp(prefix="rp-corpus.")
    for sub in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, sub)
        if not os.path.isdir(d):
            continue
        for fn in sorted(os.listdir(d)):
            base = os.path.join(d, fn)
            rel = f"{sub}/{fn}"
            if not os.path.isfile(base + ".rc"):
                continue
            seen.add(rel)
            try:
                with open(base + ".pdinfo.json") as f:
                    info = json.load(f)
            except (OSError, ValueError):
                info = {}
            with open(base + ".rc") as f:
                rcline = f.read().strip()
            perf_ok = rcline.startswith("header=0 report=0 script=0 dump=0")
            fuzz = sub.endswith("_FUZZ")
            valid = bool(info) and not info.get("errors") and not info.get("fatal")
            if rel in expected:
                want, reason = expected[rel]
                rc, _, err = run(["report", base])
                rc2, _, err2 = run(["csv", "-o", os.path.join(tmp, "u"), base])
                if rc == 0 and rc2 == 0:
                    before = len(failures)
                    readable_check(rel, base, info, perf_ok, tmp)
                    if len(failures) == before:
                        notes.append(f"{rel} ({reason}) is now read correctly: "
                                     f"remove it from ok/expected_unsupported.txt")
                    counts["ok"] += 1
                    continue
                for what, r, e in (("report", rc, err), ("csv", rc2, err2)):
                    if r != want:
                        fail(rel, f"expected-unsupported ({reason}): readperf {what} "
                                  f"{describe(r)}, expected exit status {want}: {e.strip()[:200]}")
                    elif e.count("\n") > 1 or not e.startswith("readperf: error: "):
                        fail(rel, f"{what}: expected one 'readperf: error: ' line on stderr, got {e.strip()[:300]!r}")
                counts["unsupported"] += 1
            elif not fuzz and (perf_ok or valid):
                readable_check(rel, base, info, perf_ok, tmp)
                counts["ok"] += 1
            else:
                rc, _, err = run(["report", base])
                if not status_ok(rc, (0, 2)):
                    fail(rel, f"readperf report {describe(rc)} (must be 0 or 2): {err.strip()[:200]}")
                counts["nocrash"] += 1
    shutil.rmtree(tmp, ignore_errors=True)
    for rel in sorted(set(expected) - seen):
        notes.append(f"{rel} is listed in ok/expected_unsupported.txt but absent from the corpus")
    for n in notes:
        print("NOTE " + n)
    print(f"run_corpus: {counts['ok']} readable files checked, {counts['unsupported']} expected-unsupported, "
          f"{counts['nocrash']} checked for no crash; {len(failures)} failure(s)")
    if counts["ok"] + counts["unsupported"] + counts["nocrash"] == 0:
        print("run_corpus: no corpus files found", file=sys.stderr)
        return 1
    return 1 if failures else 0


sys.exit(main())
PY
