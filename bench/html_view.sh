#!/bin/bash
# Times the first view of readperf html pages in chromium: from the
# navigation to the page's "ready" (data inflated, parsed, the selection
# computed, the timeline and the flame graph drawn), best of RUNS loads.
#
#   bench/html_view.sh PAGE.html...
#
# Needs chromium (apt-get install chromium) and node with npm:
# playwright-core (tests/browser/package-lock.json) is installed into
# $RP_BENCH_DIR/node (default /tmp/rp-bench/node) on first use.
#
# Environment: RP_BENCH_DIR (see above), RP_BENCH_RUNS (default 3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
DIR=${RP_BENCH_DIR:-/tmp/rp-bench}
RUNS=${RP_BENCH_RUNS:-3}
[ $# -gt 0 ] || { echo "usage: bench/html_view.sh PAGE.html..." >&2; exit 1; }
node_dir=$DIR/node
mkdir -p "$node_dir"
if ! cmp -s "$root/tests/browser/package-lock.json" "$node_dir/package-lock.json" ||
	[ ! -d "$node_dir/node_modules/playwright-core" ]; then
	cp "$root/tests/browser/package.json" "$root/tests/browser/package-lock.json" "$node_dir/"
	(cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
pages=()
for p in "$@"; do pages+=("$(cd "$(dirname "$p")" && pwd)/$(basename "$p")"); done
cd "$node_dir"
RUNS=$RUNS node --input-type=module - "${pages[@]}" <<'JS'
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const require = createRequire(path.join(process.cwd(), 'node_modules', 'x.js'));
const { chromium } = require('playwright-core');
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-view-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
console.log('| page | MB | navigation to first view, ms (best of ' + process.env.RUNS + ') | of which the page\'s own work, ms |');
console.log('|---|---:|---:|---:|');
for (const file of process.argv.slice(2)) {
  let best = Infinity, own = 0;
  for (let i = 0; i < Number(process.env.RUNS); i++) {
    const page = await browser.newPage();
    const t0 = Date.now();
    await page.goto('file://' + file);
    await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 120000 });
    const t = Date.now() - t0;
    if (t < best) { best = t; own = await page.evaluate(() => window.rpReport.firstViewMs); }
    await page.close();
  }
  console.log(`| ${path.basename(file)} | ${(fs.statSync(file).size / 1048576).toFixed(2)} | ${best} | ${Math.round(own)} |`);
}
await browser.close();
fs.rmSync(profile, { recursive: true, force: true });
JS
