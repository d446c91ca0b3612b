// Drives readperf's HTML report in Debian's chromium (playwright-core) and
// compares what the page shows with what `readperf report` prints for the
// same recording (run_html.sh records the files and calls this).
//
//   node html_check.mjs READPERF ARTIFACT-DIR NODE-MODULES-DIR CASE...
//
// CASE is KIND:DATA:HTML, KIND one of
//   cg     one event with call stacks: per-function self and total, the
//          flame graph's root, one thread, a time range, search
//   multi  several events: per event, functions and root
//   offcpu a sched:sched_switch recording: the off-CPU event's total
//          against the switches `readperf script` prints
//   xss    a process named <svg onload=x>: shown as text, nothing runs
// Prints one line per check; exits 1 when one failed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [RP, ARTIFACTS, NODE_DIR, ...CASES] = process.argv.slice(2);
const require = createRequire(path.join(NODE_DIR, 'node_modules', 'x.js'));
const { chromium } = require('playwright-core');

let failures = 0;
function ok(cond, what) {
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`);
  if (!cond) failures++;
  return cond;
}
const run = (args) => execFileSync(RP, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });

// `readperf report -t ';'` as { events: [{ name, count, rows: [{ key, period, children% }] }] }.
function parseReport(text) {
  const events = [];
  let cur = null, cols = null;
  for (const line of text.split('\n')) {
    let m;
    if ((m = line.match(/^# Samples: .* of event '(.*)'/))) {
      cur = { name: m[1], count: 0, rows: [] };
      events.push(cur);
    } else if ((m = line.match(/^# Event count \(approx\.\): (\d+)/))) {
      cur.count = Number(m[1]);
    } else if (line.startsWith('# ') && line.includes(';')) {
      cols = line.slice(2).split(';').map((c) => c.trim());
    } else if (cur && cols && line.trim() && !line.startsWith('#')) {
      const f = line.split(';').map((c) => c.trim());
      if (f.length !== cols.length) throw new Error(`report row with ${f.length} fields under ${cols.length} columns: ${line}`);
      const get = (c) => f[cols.indexOf(c)];
      cur.rows.push({ key: get('Symbol'), period: Number(get('Period')), children: parseFloat(get('Children')) });
    }
  }
  return events;
}
// Self period per "[l] name", summed (perf may print a name in several rows).
function selfByKey(rows) {
  const m = new Map();
  for (const r of rows) m.set(r.key, (m.get(r.key) || 0) + r.period);
  for (const [k, v] of m) if (!v) m.delete(k);
  return m;
}

async function open(browser, file) {
  const page = await browser.newPage();
  const log = { requests: [], errors: [], dialogs: [], console: [] };
  page.on('request', (r) => log.requests.push(r.url()));
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('dialog', (d) => { log.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on('console', (m) => log.console.push(`${m.type()}: ${m.text()}`));
  // A payload that ran would read window.x (onload=x): note it.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'x', { get() { window.__fired = (window.__fired || 0) + 1; return 0; } });
  });
  const url = 'file://' + path.resolve(file);
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30000 });
  const ready = await page.evaluate(() => document.body.dataset.ready);
  ok(ready === '1', `${path.basename(file)}: the page read its data (${Date.now() - t0} ms to ready, first view ${
    Math.round(await page.evaluate(() => (window.rpReport ? window.rpReport.firstViewMs : -1)))} ms)`);
  return { page, log, url };
}

function checkQuiet(name, { log, url }) {
  ok(log.requests.every((u) => u === url), `${name}: no request leaves the page (${log.requests.length} request: the file itself)`);
  ok(!log.errors.length, `${name}: no script error ${log.errors.join(' | ')}`);
  ok(!log.dialogs.length, `${name}: no dialog`);
  const bad = log.console.filter((c) => c.startsWith('error'));
  ok(!bad.length, `${name}: no console error ${bad.join(' | ')}`);
}

async function view(page, v) {
  await page.click(`#tabs button[data-view=${v}]`);
}
async function shot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}
async function rootTotal(page) {
  await view(page, 'flame');
  return Number(await page.getAttribute('#view-flame canvas', 'data-root'));
}
// The function table, every row: "[l] name" -> { self, total }.
async function tableRows(page) {
  await view(page, 'functions');
  const more = await page.$('#view-functions button.more');
  if (more) await more.click();
  const rows = await page.$$eval('#view-functions tbody tr', (trs) => trs.map((tr) => ({
    key: `${tr.querySelector('.lv').textContent} ${tr.querySelector('.name').textContent}`,
    self: Number(tr.dataset.self), total: Number(tr.dataset.total),
  })));
  const m = new Map();
  for (const r of rows) {
    const o = m.get(r.key) || { self: 0, total: 0 };
    o.self += r.self;
    o.total += r.total;
    m.set(r.key, o);
  }
  return m;
}
function sameSelf(name, expected, table) {
  const diff = [];
  for (const [k, v] of expected) if ((table.get(k) || { self: 0 }).self !== v) diff.push(`${k}: report ${v}, page ${(table.get(k) || {}).self}`);
  for (const [k, v] of table) if (v.self && !expected.has(k)) diff.push(`${k}: page ${v.self}, not in the report`);
  ok(!diff.length && expected.size > 0, `${name}: self period of ${expected.size} functions equals readperf report's ${diff.slice(0, 5).join('; ')}`);
}
const unresolved = (key) => /^\[.\] (0x)?[0-9a-f]{16}$/.test(key);

async function checkCg(browser, data, html) {
  const name = path.basename(html);
  const pg = await open(browser, html);
  const { page } = pg;
  const rep = parseReport(run(['report', '--no-children', '-F', 'overhead,sample,period,sym', '-t', ';', '-g', 'none', data]))[0];
  ok((await rootTotal(page)) === rep.count, `${name}: flame graph root ${await rootTotal(page)} = the event's total period ${rep.count}`);
  await shot(page, `${name}-flame`);
  const table = await tableRows(page);
  sameSelf(name, selfByKey(rep.rows), table);
  // Totals: perf's Children column (two decimals) for the resolved functions.
  const ch = parseReport(run(['report', '--children', '--sort', 'sym', '-t', ';', '-g', 'none', data]))[0];
  // perf keeps functions of one name apart (its sym key compares addresses:
  // libc's PLT slots are all "@plt"); the page merges them by name. A name in
  // several rows has a page total between the largest row and their sum.
  const byKey = new Map();
  for (const r of ch.rows) {
    if (unresolved(r.key)) continue;
    if (!byKey.has(r.key)) byKey.set(r.key, []);
    byKey.get(r.key).push(r.children);
  }
  const bad = [];
  let compared = 0;
  for (const [key, rows] of byKey) {
    const t = table.get(key);
    const pct = t ? (100 * t.total) / ch.count : 0;
    const lo = Math.max(...rows) - 0.0051;
    const hi = rows.reduce((a, b) => a + b, 0) + 0.0051 * rows.length;
    compared++;
    if (pct < lo || pct > hi) bad.push(`${key}: children ${rows.join('% + ')}%, page ${pct.toFixed(3)}%`);
  }
  ok(!bad.length && compared > 3, `${name}: total of ${compared} functions equals report --children's Children % ${bad.slice(0, 5).join('; ')}`);
  await shot(page, `${name}-functions`);

  // One thread: a worker, picked in the timeline by its label.
  const counts = new Map();
  for (const l of run(['script', '-F', 'pid,tid', data]).split('\n')) {
    const m = l.trim().match(/^(\d+)\/(\d+)/);
    if (m && m[1] !== m[2]) counts.set(Number(m[2]), (counts.get(Number(m[2])) || 0) + 1);
  }
  const tid = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  await page.evaluate(() => document.getElementById('timeline-box').scrollTo(0, 0));
  const y = await page.evaluate((t) => window.rpReport.laneY(t), tid);
  const box = await page.$('#timeline');
  await box.scrollIntoViewIfNeeded();
  const bb = await box.boundingBox();
  await page.mouse.click(bb.x + 30, bb.y + y);
  ok((await page.getAttribute('#selection', 'data-threads')) === String(tid), `${name}: clicking thread ${tid}'s lane selects it`);
  const trep = parseReport(run(['report', '--no-children', '-F', 'overhead,sample,period,tid,sym', '-t', ';', '-g', 'none', '--tid', String(tid), data]))[0];
  const tsum = trep.rows.reduce((s, r) => s + r.period, 0);
  ok((await rootTotal(page)) === tsum, `${name}: thread ${tid}: flame graph root ${await rootTotal(page)} = report --tid's ${tsum}`);
  await shot(page, `${name}-thread-flame`);
  sameSelf(`${name} thread ${tid}`, selfByKey(trep.rows), await tableRows(page));
  await page.click('#reset');

  // A time range dragged over the timeline: from a quarter to 60 %.
  const nsel = await page.evaluate(() => window.rpReport.nsel);
  // (At least one bin wide: a coarse page may have only a few bins, and a
  // drag that starts and ends in one place is a click.)
  const a = Math.floor(nsel * 0.25), b = Math.max(a + 1, Math.floor(nsel * 0.6));
  const xa = await page.evaluate((s) => window.rpReport.selBinX(s), a);
  const xb = await page.evaluate((s) => window.rpReport.selBinX(s), b);
  const yr = 20;
  await page.mouse.move(bb.x + xa, bb.y + yr);
  await page.mouse.down();
  await page.mouse.move(bb.x + (xa + xb) / 2, bb.y + yr, { steps: 4 });
  await page.mouse.move(bb.x + xb, bb.y + yr, { steps: 4 });
  await page.mouse.up();
  const start = await page.getAttribute('#selection', 'data-start');
  const end = await page.getAttribute('#selection', 'data-end');
  if (ok(start && end, `${name}: dragging selects a time range (${start},${end})`)) {
    const rrep = parseReport(run(['report', '--no-children', '-F', 'overhead,sample,period,sym', '-t', ';', '-g', 'none', '--time', `${start},${end}`, data]))[0];
    ok((await rootTotal(page)) === rrep.count && rrep.count > 0,
      `${name}: range: flame graph root ${await rootTotal(page)} = report --time ${start},${end}'s ${rrep.count}`);
    await shot(page, `${name}-range-flame`);
    sameSelf(`${name} range`, selfByKey(rrep.rows), await tableRows(page));
    await shot(page, `${name}-range-timeline`);
  }
  await page.click('#reset');

  // Search: a function of the workload.
  await view(page, 'flame');
  await page.fill('#search', '^fib$');
  await page.waitForFunction(() => document.getElementById('matched').dataset.share);
  const share = Number(await page.getAttribute('#matched', 'data-share'));
  const fib = table.get('[.] fib');
  const want = fib ? fib.total / rep.count : 0;
  ok(fib && Math.abs(share - want) < 1e-9, `${name}: search ^fib$ matches ${(share * 100).toFixed(2)}% (fib's total: ${(want * 100).toFixed(2)}%)`);
  await shot(page, `${name}-search`);
  const rows = await tableRows(page);
  ok(rows.size === 1 && rows.has('[.] fib'), `${name}: the function table shows what the search matches (${[...rows.keys()].join(', ')})`);
  await page.fill('#search', '');
  for (const v of ['summary', 'icicle', 'topdown', 'bottomup', 'sandwich']) {
    await view(page, v);
    await shot(page, `${name}-${v}`);
  }
  const trees = await page.$$eval('#view-sandwich .tree-row', (r) => r.length);
  ok(trees > 1, `${name}: caller/callee shows ${trees} rows`);
  checkQuiet(name, pg);
  await page.close();
}

async function checkMulti(browser, data, html) {
  const name = path.basename(html);
  const pg = await open(browser, html);
  const { page } = pg;
  const reps = parseReport(run(['report', '--no-children', '-F', 'overhead,sample,period,sym', '-t', ';', '-g', 'none', data]));
  const names = await page.evaluate(() => window.rpReport.events);
  ok(reps.length >= 2, `${name}: ${reps.length} events in the report`);
  for (const r of reps) {
    const i = names.indexOf(r.name);
    if (!ok(i >= 0, `${name}: event ${r.name} in the selector`)) continue;
    await page.selectOption('#event', String(i));
    ok((await rootTotal(page)) === r.count, `${name}: ${r.name}: flame graph root ${await rootTotal(page)} = its total period ${r.count} (no sum of events)`);
    sameSelf(`${name} ${r.name}`, selfByKey(r.rows), await tableRows(page));
    await shot(page, `${name}-${r.name}-functions`);
  }
  await view(page, 'summary');
  await shot(page, `${name}-summary`);
  checkQuiet(name, pg);
  await page.close();
}

async function checkOffcpu(browser, data, html) {
  const name = path.basename(html);
  const pg = await open(browser, html);
  const { page } = pg;
  // Off-CPU time from the switches as readperf script prints them: a
  // thread's switch-out until a switch whose next_pid is it.
  const pending = new Map();
  let total = 0;
  for (const l of run(['script', '--ns', '-F', 'tid,time,trace', data]).split('\n')) {
    const m = l.match(/^\s*(\d+)\s+(\d+)\.(\d{9}):.*next_pid=(\d+)/);
    if (!m) continue;
    const t = Number(m[2]) * 1e9 + Number(m[3]), tid = Number(m[1]), next = Number(m[4]);
    if (pending.has(next)) { total += t - pending.get(next); pending.delete(next); }
    if (tid) pending.set(tid, t);
  }
  const names = await page.evaluate(() => window.rpReport.events);
  const i = names.indexOf('off-cpu');
  if (ok(i >= 0, `${name}: an off-cpu event`)) {
    await page.selectOption('#event', String(i));
    const root = await rootTotal(page);
    ok(root === total && total > 0, `${name}: off-CPU root ${root} ns = the switches' ${total} ns`);
    await shot(page, `${name}-offcpu-flame`);
    await view(page, 'bottomup');
    await shot(page, `${name}-offcpu-bottomup`);
  }
  checkQuiet(name, pg);
  await page.close();
}

async function checkXss(browser, data, html) {
  const name = path.basename(html);
  const pg = await open(browser, html);
  const { page } = pg;
  for (const v of ['summary', 'flame', 'topdown', 'functions']) {
    await view(page, v);
    await shot(page, `${name}-${v}`);
  }
  await view(page, 'summary');
  const comms = await page.$$eval('#view-summary td.comm', (tds) => tds.map((t) => t.textContent));
  ok(comms.includes('<svg onload=x>'), `${name}: the process name is shown as text (${comms.join(', ')})`);
  ok(!(await page.$('svg')) && !(await page.$('[onload]')), `${name}: no element made from the name`);
  ok(!(await page.evaluate(() => window.__fired)), `${name}: the name's handler never ran`);
  ok((await page.getAttribute('meta[http-equiv=Content-Security-Policy]', 'content') || '').includes("default-src 'none'"),
    `${name}: a Content-Security-Policy forbids fetches`);
  checkQuiet(name, pg);
  await page.close();
}

const browserDir = fs.mkdtempSync(path.join(ARTIFACTS, 'chromium-profile-'));
const browser = await chromium.launchPersistentContext(browserDir, {
  executablePath: process.env.RP_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const c of CASES) {
    const [kind, data, html] = c.split(':');
    const fn = { cg: checkCg, multi: checkMulti, offcpu: checkOffcpu, xss: checkXss }[kind];
    try {
      await fn(browser, data, html);
    } catch (e) {
      ok(false, `${kind} ${html}: ${e.stack || e}`);
    }
  }
} finally {
  await browser.close();
  fs.rmSync(browserDir, { recursive: true, force: true });
}
process.exit(failures ? 1 : 0);
