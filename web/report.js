// readperf html: the page's script (web/report.js).  No framework: the
// data (deflated JSON in #rp-data, see docs/html.md) becomes a Profile;
// one selection (event, threads, time range) gives the weights every view
// draws.  Text from the recording is only ever put in with textContent or
// canvas fillText, never parsed as markup.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
  const fmtPct = (v, t) => (t > 0 ? (100 * v / t).toFixed(2) + '%' : '');
  function fmtDur(ns) {
    if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    if (ns >= 1e3) return (ns / 1e3).toFixed(1) + ' µs';
    return ns + ' ns';
  }
  // Seconds with nine digits, as perf prints times (exact for ns < 2^53).
  const fmtSec = (ns) => Math.floor(ns / 1e9) + '.' + String(ns % 1e9).padStart(9, '0');

  // ---- the data -----------------------------------------------------------

  async function loadData() {
    const b64 = $('rp-data').textContent.trim();
    const raw = atob(b64);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return JSON.parse(await new Response(stream).text());
  }

  class Profile {
    constructor(d) {
      this.meta = d.meta;
      this.str = d.strings;
      this.events = d.events;
      const f = d.funcs;
      this.fName = f.name.map((i) => d.strings[i]);
      this.fDso = f.dso.map((i) => d.strings[i]);
      this.fLevel = f.level;
      this.fFile = f.file.map((i) => (i >= 0 ? d.strings[i] : null));
      this.fLine = f.line;
      this.fInl = f.inl;
      this.nf = this.fName.length;
      const P = d.nodes.parent, F = d.nodes.func, N = P.length;
      this.N = N;
      this.parent = Int32Array.from(P);
      this.func = Int32Array.from(F);
      // Children lists (CSR), depths, and whether a node's function is
      // also one of its callers (perf's --children counts a sample once).
      const nk = new Int32Array(N + 1);
      for (let n = 1; n < N; n++) nk[this.parent[n] + 1]++;
      for (let n = 0; n < N; n++) nk[n + 1] += nk[n];
      this.kidStart = nk.slice();
      this.kids = new Int32Array(Math.max(N - 1, 0));
      const fill = nk.slice();
      for (let n = 1; n < N; n++) this.kids[fill[this.parent[n]]++] = n;
      this.depth = new Int32Array(N);
      this.recursive = new Uint8Array(N);
      const onPath = new Int32Array(this.nf);
      const stack = [0], state = [0];
      while (stack.length) {
        const n = stack[stack.length - 1], i = state[state.length - 1];
        if (i === 0 && n > 0) {
          if (onPath[this.func[n]] > 0) this.recursive[n] = 1;
          onPath[this.func[n]]++;
        }
        const k = this.kidStart[n] + i;
        if (k < this.kidStart[n + 1]) {
          state[state.length - 1]++;
          const c = this.kids[k];
          this.depth[c] = this.depth[n] + 1;
          stack.push(c);
          state.push(0);
        } else {
          if (n > 0) onPath[this.func[n]]--;
          stack.pop();
          state.pop();
        }
      }
      const t = d.time;
      this.t0 = t.t0;
      this.fineNs = t.fine_ns;
      this.nfine = Math.max(t.nfine, 1);
      this.selNs = t.sel_ns;
      this.finePerSel = t.sel_ns / t.fine_ns;
      this.nsel = Math.ceil(this.nfine / this.finePerSel);
      this.timed = !!t.timed;
      this.threads = d.threads.tid.map((tid, i) => ({
        i, tid, pid: d.threads.pid[i], comm: d.strings[d.threads.comm[i]] }));
      // Lanes per event: Map(thread or CPU -> Float64Array of fine bins).
      this.lanes = this.events.map(() => ({ thr: new Map(), cpu: new Map() }));
      const L = d.lanes;
      for (let i = 0; i < L.length;) {
        const kind = L[i], ev = L[i + 1], who = L[i + 2], n = L[i + 3];
        const a = new Float64Array(this.nfine);
        i += 4;
        for (let b = 0, k = 0; k < n; k++, i += 2) { b += L[i]; a[b] = L[i + 1]; }
        (kind ? this.lanes[ev].cpu : this.lanes[ev].thr).set(who, a);
      }
      // Weights: runs of (event, selection bin, thread).
      const W = d.weights;
      const runs = [];
      let nw = 0;
      for (let i = 0; i < W.length;) { runs.push(i); nw += W[i + 3]; i += 4 + 3 * W[i + 3]; }
      this.nruns = runs.length;
      this.rEv = new Int32Array(runs.length);
      this.rBin = new Int32Array(runs.length);
      this.rThr = new Int32Array(runs.length);
      this.rStart = new Int32Array(runs.length + 1);
      this.wNode = new Int32Array(nw);
      this.wPeriod = new Float64Array(nw);
      this.wCount = new Float64Array(nw);
      let w = 0;
      runs.forEach((i, r) => {
        this.rEv[r] = W[i]; this.rBin[r] = W[i + 1]; this.rThr[r] = W[i + 2];
        this.rStart[r] = w;
        const n = W[i + 3];
        for (let k = 0, node = 0, j = i + 4; k < n; k++, j += 3, w++) {
          node += W[j];
          this.wNode[w] = node; this.wPeriod[w] = W[j + 1]; this.wCount[w] = W[j + 2];
        }
      });
      this.rStart[runs.length] = w;
      this.fnNodes = null;
    }
    // Nodes of each function that have no caller of the same function.
    funcNodes(f) {
      if (!this.fnNodes) {
        this.fnNodes = Array.from({ length: this.nf }, () => []);
        for (let n = 1; n < this.N; n++) if (!this.recursive[n]) this.fnNodes[this.func[n]].push(n);
      }
      return this.fnNodes[f];
    }
    label(f) {
      return this.fName[f] + (this.fInl[f] ? ' (inlined)' : '');
    }
    // The weights of a selection: per node self and total period and
    // samples, per function self and total (perf's Self and Children).
    compute(sel) {
      const N = this.N, self = new Float64Array(N), cnt = new Float64Array(N);
      for (let r = 0; r < this.nruns; r++) {
        if (this.rEv[r] !== sel.ev) continue;
        if (sel.threads && !sel.threads.has(this.rThr[r])) continue;
        if (sel.range && (this.rBin[r] < sel.range[0] || this.rBin[r] > sel.range[1])) continue;
        for (let w = this.rStart[r]; w < this.rStart[r + 1]; w++) {
          self[this.wNode[w]] += this.wPeriod[w];
          cnt[this.wNode[w]] += this.wCount[w];
        }
      }
      const total = self.slice(), tcnt = cnt.slice();
      for (let n = N - 1; n > 0; n--) { total[this.parent[n]] += total[n]; tcnt[this.parent[n]] += tcnt[n]; }
      const fSelf = new Float64Array(this.nf), fTotal = new Float64Array(this.nf);
      const fCount = new Float64Array(this.nf);
      for (let n = 1; n < N; n++) {
        const f = this.func[n];
        fSelf[f] += self[n];
        fCount[f] += cnt[n];
        if (!this.recursive[n]) fTotal[f] += total[n];
      }
      return { self, total, cnt, tcnt, fSelf, fTotal, fCount, root: total[0], samples: tcnt[0] };
    }
  }

  // ---- the state every view reads -------------------------------------------

  const S = {
    p: null, w: null, ev: 0, threads: null, range: null, re: null,
    view: 'flame', selFunc: -1, collapse: false, zoom: { flame: 0, icicle: 0 },
  };
  const dirty = new Set();

  function selection() { return { ev: S.ev, threads: S.threads, range: S.range }; }
  function rangeNs() {
    if (!S.range) return null;
    const p = S.p;
    return [p.t0 + S.range[0] * p.selNs, p.t0 + (S.range[1] + 1) * p.selNs - 1];
  }
  function recompute() {
    S.w = S.p.compute(selection());
    S.views = new Map();
    ['summary', 'flame', 'icicle', 'topdown', 'bottomup', 'sandwich', 'functions'].forEach((v) => dirty.add(v));
    showSelection();
    render();
  }
  function showSelection() {
    const p = S.p, box = $('selection'), parts = [];
    if (S.threads) {
      const t = [...S.threads].map((i) => p.threads[i]);
      parts.push(t.length === 1 ? `${t[0].comm} (tid ${t[0].tid})` : `${t.length} threads`);
    } else parts.push('all threads');
    const r = rangeNs();
    if (r) parts.push(`${fmtDur(r[0] - p.t0)} – ${fmtDur(r[1] + 1 - p.t0)} (exact to ${fmtDur(p.selNs)} bins)`);
    else parts.push('whole recording');
    parts.push(`${p.events[S.ev].name}: ${fmtInt(S.w.root)} period, ${fmtInt(S.w.samples)} samples`);
    box.textContent = parts.join(' · ');
    box.dataset.total = String(S.w.root);
    box.dataset.threads = S.threads ? [...S.threads].map((i) => p.threads[i].tid).join(',') : '';
    if (r) { box.dataset.start = fmtSec(r[0]); box.dataset.end = fmtSec(r[1]); } else {
      delete box.dataset.start; delete box.dataset.end;
    }
  }
  function setView(v) {
    S.view = v;
    document.querySelectorAll('#tabs button').forEach((b) => b.classList.toggle('on', b.dataset.view === v));
    document.querySelectorAll('.view').forEach((s) => s.classList.toggle('on', s.id === 'view-' + v));
    render();
  }
  function render() {
    if (!dirty.has(S.view)) return;
    dirty.delete(S.view);
    VIEWS[S.view]();
  }
  function selectFunc(f) {
    S.selFunc = f;
    dirty.add('sandwich');
  }
  function details(text) { $('details').textContent = text; }
  function describe(f, total, self) {
    const p = S.p, root = S.w.root;
    const src = p.fFile[f] ? `  ${p.fFile[f]}:${p.fLine[f]}` : '';
    return `${p.label(f)}  [${p.fDso[f]}]  total ${fmtInt(total)} (${fmtPct(total, root)})` +
      (self != null ? `  self ${fmtInt(self)} (${fmtPct(self, root)})` : '') + src;
  }

  // ---- the flame graph and the icicle ---------------------------------------

  // The tree drawn: the calling-context tree, with direct recursion merged
  // into one frame when asked.  vnode of a node, parent before child.
  function viewTree(collapse) {
    const p = S.p, key = collapse ? 'vc' : 'vn';
    if (p[key]) return p[key];
    const map = new Int32Array(p.N), vparent = [-1], vfunc = [-1], index = [new Map()];
    for (let n = 1; n < p.N; n++) {
      const pv = map[p.parent[n]], f = p.func[n];
      if (collapse && vfunc[pv] === f) { map[n] = pv; continue; }
      let v = index[pv].get(f);
      if (v === undefined) {
        v = vparent.length;
        vparent.push(pv); vfunc.push(f); index.push(new Map());
        index[pv].set(f, v);
      }
      map[n] = v;
    }
    const kids = index.map((m) => [...m.values()].sort((a, b) => {
      const x = p.fName[vfunc[a]], y = p.fName[vfunc[b]];
      return x < y ? -1 : x > y ? 1 : a - b;
    }));
    p[key] = { map, vparent, vfunc, kids };
    return p[key];
  }
  function viewWeights(t) {
    const p = S.p, w = S.w, n = t.vparent.length;
    const total = new Float64Array(n), self = new Float64Array(n);
    for (let i = 1; i < p.N; i++) self[t.map[i]] += w.self[i];
    total.set(self);
    for (let v = n - 1; v > 0; v--) total[t.vparent[v]] += total[v];
    return { total, self };
  }
  function hue(name, kind) {
    let h = 0;
    for (let i = 0; i < name.length && i < 24; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    const a = h & 0xff, b = (h >> 8) & 0xff;
    if (kind === 'k') return `rgb(${70 + (a * 50 >> 8)},${130 + (b * 50 >> 8)},${205 + (a * 50 >> 8)})`;
    return `rgb(${205 + (a * 50 >> 8)},${(b * 200 >> 8)},${(a * 55 >> 8)})`;
  }
  function drawFlame(which) {
    const p = S.p, box = $('view-' + which), canvas = box.querySelector('canvas');
    const t = viewTree(S.collapse), vw = viewWeights(t);
    const rowH = 17, width = Math.max(canvas.parentElement.clientWidth, 300);
    let zoom = S.zoom[which];
    if (zoom >= t.vparent.length || !vw.total[zoom]) zoom = S.zoom[which] = 0;
    const path = [];
    for (let v = zoom; v > 0; v = t.vparent[v]) path.unshift(v);
    path.unshift(0);
    // Frames to draw: the path to the zoomed frame at full width, then
    // its subtree; frames narrower than a third of a pixel are left out.
    const rects = [];
    const scale = vw.total[zoom] ? width / vw.total[zoom] : 0;
    path.forEach((v, d) => rects.push({ v, d, x: 0, w: width }));
    let maxD = path.length - 1;
    const todo = [[zoom, path.length - 1, 0]];
    while (todo.length) {
      const [v, d, x] = todo.pop();
      let cx = x;
      for (const c of t.kids[v]) {
        const cw = vw.total[c] * scale;
        if (cw >= 0.35) {
          rects.push({ v: c, d: d + 1, x: cx, w: cw });
          if (d + 1 > maxD) maxD = d + 1;
          todo.push([c, d + 1, cx]);
        }
        cx += cw;
      }
    }
    const height = (maxD + 1) * rowH + 4, dpr = window.devicePixelRatio || 1;
    canvas.width = width * dpr; canvas.height = height * dpr;
    canvas.style.height = height + 'px';
    const g = canvas.getContext('2d');
    g.scale(dpr, dpr);
    g.font = '11px ui-monospace, monospace';
    g.textBaseline = 'middle';
    let matched = 0;
    const hitMemo = new Map();
    const hit = (f) => {
      if (!S.re || f < 0) return false;
      if (!hitMemo.has(f)) hitMemo.set(f, S.re.test(p.fName[f]));
      return hitMemo.get(f);
    };
    const inv = which === 'flame';
    for (const r of rects) {
      r.y = inv ? height - (r.d + 1) * rowH : r.d * rowH;
      const f = t.vfunc[r.v];
      const name = r.v === 0 ? 'all' : p.label(f);
      g.fillStyle = r.v === 0 ? '#c8ccd2' : hit(f) ? '#e879f9' : hue(name, p.fLevel[f]);
      g.fillRect(r.x, r.y, Math.max(r.w - 0.5, 0.35), rowH - 1);
      if (r.w > 24) {
        g.fillStyle = '#111';
        const room = Math.floor((r.w - 6) / 6.6);
        g.fillText(name.length > room ? name.slice(0, Math.max(room - 1, 1)) + '…' : name, r.x + 3, r.y + rowH / 2);
      }
    }
    // The matched share: frames that match with no matching caller.
    if (S.re) {
      const stack = [[0, false]];
      while (stack.length) {
        const [v, under] = stack.pop();
        const m = !under && v > 0 && hit(t.vfunc[v]);
        if (m) matched += vw.total[v];
        for (const c of t.kids[v]) if (vw.total[c]) stack.push([c, under || m]);
      }
      $('matched').textContent = `matched: ${fmtPct(matched, vw.total[0]) || '0%'}`;
      $('matched').dataset.share = String(vw.total[0] ? matched / vw.total[0] : 0);
    }
    canvas.dataset.root = String(vw.total[0]);
    canvas.dataset.frames = String(rects.length);
    const at = (ev) => {
      const b = canvas.getBoundingClientRect(), x = ev.clientX - b.left, y = ev.clientY - b.top;
      for (let i = rects.length - 1; i >= 0; i--) {
        const r = rects[i];
        if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + rowH) return r;
      }
      return null;
    };
    canvas.onmousemove = (ev) => {
      const r = at(ev);
      if (!r) return;
      if (r.v === 0) details(`all: ${fmtInt(vw.total[0])} (${p.events[S.ev].name})`);
      else details(describe(t.vfunc[r.v], vw.total[r.v], vw.self[r.v]));
    };
    canvas.onclick = (ev) => {
      const r = at(ev);
      if (!r) return;
      S.zoom[which] = r.v;
      if (r.v > 0) selectFunc(t.vfunc[r.v]);
      drawFlame(which);
    };
  }

  // ---- trees: top-down, bottom-up, callers and callees ------------------------

  // An item: { f, total, self (or null), kids() }.  "down" items hold
  // nodes whose children are merged by function; "up" items hold (node,
  // weight) pairs that move to the callers.
  function downItem(f, nodes) {
    const w = S.w;
    let total = 0, self = 0;
    for (const n of nodes) { total += w.total[n]; self += w.self[n]; }
    return { f, total, self, kids: () => downKids(nodes) };
  }
  function downKids(nodes) {
    const p = S.p, w = S.w, by = new Map();
    for (const n of nodes) {
      for (let k = p.kidStart[n]; k < p.kidStart[n + 1]; k++) {
        const c = p.kids[k];
        if (!w.total[c]) continue;
        const f = p.func[c];
        if (!by.has(f)) by.set(f, []);
        by.get(f).push(c);
      }
    }
    return [...by].map(([f, ns]) => downItem(f, ns));
  }
  function upItem(f, pairs, self) {
    let total = 0;
    for (let i = 1; i < pairs.length; i += 2) total += pairs[i];
    return { f, total, self, kids: () => upKids(pairs) };
  }
  function upKids(pairs) {
    const p = S.p, by = new Map();
    for (let i = 0; i < pairs.length; i += 2) {
      const q = p.parent[pairs[i]];
      if (q <= 0) continue;
      const f = p.func[q];
      if (!by.has(f)) by.set(f, []);
      by.get(f).push(q, pairs[i + 1]);
    }
    return [...by].map(([f, ps]) => upItem(f, ps, null));
  }

  const TREE_KIDS_SHOWN = 300;
  // Rows in a grid; a row's subtree is made when it opens and removed
  // (with the subtrees open under it) when it closes.
  function treeView(box, items, heading, open) {
    const root = S.w.root, tree = el('div', 'tree'), head = el('div', 'tree-head');
    ['Total', '%', 'Self', '%', heading].forEach((h, i) => head.append(el('span', i < 4 ? 'num' : '', h)));
    tree.append(head);
    function makeRows(list, depth, after) {
      list.sort((a, b) => b.total - a.total);
      const made = list.slice(0, TREE_KIDS_SHOWN).map((it) => {
        const row = el('div', 'tree-row');
        row.append(el('span', 'num', fmtInt(it.total)), el('span', 'num', fmtPct(it.total, root)),
          el('span', 'num', it.self == null ? '' : fmtInt(it.self)),
          el('span', 'num', it.self == null ? '' : fmtPct(it.self, root)));
        const name = el('span', 'name'), tog = el('span', 'tog', '▸');
        name.style.paddingLeft = depth * 14 + 'px';
        const fn = el('span', S.re && S.re.test(S.p.fName[it.f]) ? 'hit' : '', S.p.label(it.f));
        if (S.p.fLevel[it.f] === 'k') fn.classList.add('kind-k');
        name.append(tog, fn, el('span', 'dso', '  ' + S.p.fDso[it.f]));
        row.append(name);
        row.dataset.total = String(it.total);
        row.sub = null;
        row.close = () => {
          if (!row.sub) return;
          row.sub.forEach((r) => { r.close(); r.remove(); });
          row.sub = null;
          tog.textContent = '▸';
        };
        row.toggle = () => {
          if (row.sub) { row.close(); return; }
          const kids = it.kids();
          if (!kids.length) { tog.textContent = ' '; return; }
          tog.textContent = '▾';
          row.sub = makeRows(kids, depth + 1, row);
        };
        tog.onclick = row.toggle;
        row.ondblclick = row.toggle;
        row.onclick = (ev) => {
          if (ev.target === tog) return;
          details(describe(it.f, it.total, it.self));
          selectFunc(it.f);
        };
        return row;
      });
      if (after) after.after(...made); else tree.append(...made);
      return made;
    }
    let level = makeRows(items, 0, null);
    // Open the heaviest path a few levels down.
    for (let d = 0; d < open && level && level.length; d++) {
      level[0].toggle();
      level = level[0].sub;
    }
    box.replaceChildren(tree);
    if (items.length > TREE_KIDS_SHOWN || !items.length) {
      box.append(el('p', 'note', items.length ? `the ${TREE_KIDS_SHOWN} heaviest of ${items.length} shown` :
        'no samples in this selection'));
    }
  }

  function topDown() {
    treeView($('view-topdown'), downKids([0]), 'Function (callers above callees)', 6);
  }
  function bottomUp() {
    const p = S.p, w = S.w, by = new Map();
    for (let n = 1; n < p.N; n++) {
      if (!w.self[n]) continue;
      const f = p.func[n];
      if (!by.has(f)) by.set(f, []);
      by.get(f).push(n, w.self[n]);
    }
    treeView($('view-bottomup'), [...by].map(([f, ps]) => upItem(f, ps, w.fSelf[f])),
      'Function (callees above callers)', 2);
  }
  function sandwich() {
    const p = S.p, w = S.w, box = $('view-sandwich');
    let f = S.selFunc;
    if (f < 0 || !w.fTotal[f]) {
      // The function with the most self time.
      f = -1;
      for (let i = 0; i < p.nf; i++) if (w.fSelf[i] > 0 && (f < 0 || w.fSelf[i] > w.fSelf[f])) f = i;
    }
    if (f < 0) { box.replaceChildren(el('p', 'note', 'no samples in this selection')); return; }
    const nodes = p.funcNodes(f), pairs = [];
    nodes.forEach((n) => { if (w.total[n]) pairs.push(n, w.total[n]); });
    const head = el('div', 'sandwich-head', describe(f, w.fTotal[f], w.fSelf[f]));
    const callers = el('div'), callees = el('div');
    treeView(callers, [upItem(f, pairs, w.fSelf[f])], 'Callers (who calls it, outward)', 3);
    treeView(callees, [downItem(f, nodes.filter((n) => w.total[n]))], 'Callees (what it calls)', 3);
    box.replaceChildren(head, el('p', 'note', 'Pick a function in the flame graph, the trees or the function table.'),
      el('h2', '', 'Callers'), callers, el('h2', '', 'Callees'), callees);
  }

  // ---- the function table ---------------------------------------------------

  const table = { key: 'self', all: false };
  const TABLE_ROWS = 500;
  function functions() {
    const p = S.p, w = S.w, box = $('view-functions'), root = w.root;
    let list = [];
    for (let f = 0; f < p.nf; f++) {
      if (!w.fTotal[f] && !w.fSelf[f]) continue;
      if (S.re && !S.re.test(p.fName[f])) continue;
      list.push(f);
    }
    const k = table.key;
    list.sort(k === 'name' ? (a, b) => (p.fName[a] < p.fName[b] ? -1 : p.fName[a] > p.fName[b] ? 1 : 0)
      : k === 'total' ? (a, b) => w.fTotal[b] - w.fTotal[a] || w.fSelf[b] - w.fSelf[a]
        : (a, b) => w.fSelf[b] - w.fSelf[a] || w.fTotal[b] - w.fTotal[a]);
    const shown = table.all ? list : list.slice(0, TABLE_ROWS);
    const t = el('table', 'functions');
    const hr = el('tr');
    const cols = [['Self', 'self'], ['Self %'], ['Samples'], ['Total', 'total'], ['Total %'], [''], ['Function', 'name'],
      ['Shared object'], ['Source']];
    cols.forEach(([h, key], i) => {
      const th = el('th', i < 5 ? 'num' : '', h);
      if (key) {
        th.classList.add('sort');
        if (key === table.key) th.classList.add('sorted');
        th.onclick = () => { table.key = key; functions(); };
      }
      hr.append(th);
    });
    const thead = el('thead');
    thead.append(hr);
    const tb = el('tbody');
    for (const f of shown) {
      const tr = el('tr', 'func');
      tr.append(el('td', 'num self', fmtInt(w.fSelf[f])), el('td', 'num', fmtPct(w.fSelf[f], root)),
        el('td', 'num', fmtInt(w.fCount[f])), el('td', 'num total', fmtInt(w.fTotal[f])),
        el('td', 'num', fmtPct(w.fTotal[f], root)), el('td', 'lv', `[${p.fLevel[f]}]`),
        el('td', 'name', p.label(f)), el('td', 'dso', p.fDso[f]),
        el('td', 'src', p.fFile[f] ? `${p.fFile[f].split('/').pop()}:${p.fLine[f]}` : ''));
      if (p.fFile[f]) tr.lastChild.title = `${p.fFile[f]}:${p.fLine[f]}`;
      tr.dataset.self = String(w.fSelf[f]);
      tr.dataset.total = String(w.fTotal[f]);
      tr.onclick = () => { selectFunc(f); setView('sandwich'); };
      tb.append(tr);
    }
    t.append(thead, tb);
    box.replaceChildren(t);
    if (shown.length < list.length) {
      const b = el('button', 'more', `show all ${list.length} functions`);
      b.onclick = () => { table.all = true; functions(); };
      box.append(b);
    }
  }

  // ---- the summary ----------------------------------------------------------

  function summary() {
    const p = S.p, m = p.meta, box = $('view-summary');
    const facts = el('table', 'facts');
    const add = (k, v) => {
      if (v == null || v === '') return;
      const tr = el('tr');
      tr.append(el('th', '', k), el('td', '', String(v)));
      facts.append(tr);
    };
    add('file', m.file);
    add('size', m.size ? `${fmtInt(m.size)} bytes` : '');
    add('command line', m.cmdline && m.cmdline.join(' '));
    add('host', m.host);
    add('OS release', m.os);
    add('perf version', m.perf);
    add('arch', m.arch);
    add('CPU', m.cpu);
    add('CPUs online / available', m.cpus_avail ? `${m.cpus_online} / ${m.cpus_avail}` : '');
    add('memory', m.mem_kb ? `${fmtInt(m.mem_kb)} kB` : '');
    if (m.first_ns != null) {
      add('duration (first to last sample)', fmtDur(m.last_ns - m.first_ns));
      add('first, last sample', `${fmtSec(m.first_ns)}, ${fmtSec(m.last_ns)}`);
    }
    add('records', fmtInt(m.records));
    add('lost samples', fmtInt(m.lost_samples) + (m.lost_records ? `; ${fmtInt(m.lost)} events lost in ${fmtInt(m.lost_records)} LOST records` : ''));
    const pids = new Set(p.threads.map((t) => t.pid));
    add('threads / processes with samples', `${p.threads.length} / ${pids.size}`);
    add('timeline bins', `${fmtDur(p.fineNs)} drawn, ${fmtDur(p.selNs)} selectable (time-range totals exact at that resolution)`);
    const ev = el('table', 'events');
    const hr = el('tr');
    ['Event', 'Samples', 'Period (perf\'s Event count)', 'In the selection'].forEach((h, i) => hr.append(el('th', i ? 'num' : '', h)));
    ev.append(hr);
    p.events.forEach((e, i) => {
      const tr = el('tr');
      const sel = i === S.ev ? fmtInt(S.w.root) : '';
      tr.append(el('td', 'name', e.name + (e.offcpu ? ' (off-CPU time in ns, from sched:sched_switch)' : '')),
        el('td', 'num', fmtInt(e.samples)), el('td', 'num', fmtInt(e.period)), el('td', 'num', sel));
      ev.append(tr);
    });
    // Threads of the selected event, the heaviest first.
    const lanes = p.lanes[S.ev].thr, tw = new Float64Array(p.threads.length);
    for (let r = 0; r < p.nruns; r++) {
      if (p.rEv[r] !== S.ev) continue;
      for (let w = p.rStart[r]; w < p.rStart[r + 1]; w++) tw[p.rThr[r]] += p.wPeriod[w];
    }
    const th = el('table', 'threads'), thr = el('tr');
    ['Command', 'Pid', 'Tid', 'Period'].forEach((h, i) => thr.append(el('th', i ? 'num' : '', h)));
    th.append(thr);
    p.threads.filter((t) => lanes.has(t.i)).sort((a, b) => tw[b.i] - tw[a.i]).slice(0, 200).forEach((t) => {
      const tr = el('tr');
      tr.append(el('td', 'name comm', t.comm), el('td', 'num', String(t.pid)), el('td', 'num', String(t.tid)),
        el('td', 'num', fmtInt(tw[t.i])));
      th.append(tr);
    });
    box.replaceChildren(el('h2', '', 'Recording'), facts,
      el('h2', '', 'Events (figures are one event\'s period at a time, never a sum)'), ev,
      el('h2', '', `Threads (${p.events[S.ev].name}, whole recording)`), th);
  }

  // ---- the timeline -----------------------------------------------------------

  const TL = { label: 190, rowH: 14, axis: 16, rows: [], drag: null };
  function timelineRows() {
    const p = S.p, lanes = p.lanes[S.ev], rows = [];
    const sum = (a) => a.reduce((s, v) => s + v, 0);
    const procs = new Map();
    p.threads.forEach((t) => {
      const a = lanes.thr.get(t.i);
      if (!a) return;
      if (!procs.has(t.pid)) procs.set(t.pid, { pid: t.pid, threads: [], bins: new Float64Array(p.nfine), total: 0 });
      const pr = procs.get(t.pid);
      pr.threads.push({ t, bins: a, total: sum(a) });
      a.forEach((v, b) => { pr.bins[b] += v; });
      pr.total += sum(a);
    });
    [...procs.values()].sort((a, b) => b.total - a.total).forEach((pr) => {
      const main = pr.threads.find((x) => x.t.tid === pr.pid);
      const comm = main ? main.t.comm : pr.threads[0].t.comm;
      pr.threads.sort((a, b) => b.total - a.total);
      if (pr.threads.length > 1 || pr.threads[0].t.tid !== pr.pid) {
        rows.push({ kind: 'proc', label: `${comm} (pid ${pr.pid})`, bins: pr.bins, thr: pr.threads.map((x) => x.t.i) });
      }
      pr.threads.forEach((x) => rows.push({ kind: 'thread', label: `${x.t.comm} (tid ${x.t.tid})`, bins: x.bins, thr: [x.t.i], tid: x.t.tid }));
    });
    if (lanes.cpu.size > 1) {
      [...lanes.cpu.keys()].sort((a, b) => a - b).forEach((c) => rows.push({ kind: 'cpu', label: `CPU ${c}`, bins: lanes.cpu.get(c) }));
    }
    return rows;
  }
  function drawTimeline() {
    const p = S.p, canvas = $('timeline');
    const rows = TL.rows = timelineRows();
    const width = Math.max(canvas.parentElement.clientWidth, 400), plot = width - TL.label - 8;
    const height = TL.axis + rows.length * TL.rowH + 2, dpr = window.devicePixelRatio || 1;
    canvas.width = width * dpr; canvas.height = height * dpr;
    canvas.style.height = height + 'px';
    const g = canvas.getContext('2d');
    g.scale(dpr, dpr);
    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'middle';
    const bx = (b) => TL.label + (b / p.nfine) * plot;
    TL.bx = bx;
    TL.plot = plot;
    // Axis: five ticks of time since the first sample.
    g.fillStyle = '#6b7075';
    for (let i = 0; i <= 4; i++) {
      const b = (p.nfine * i) / 4, x = bx(b);
      g.fillRect(x, TL.axis - 4, 1, 4);
      const text = p.timed ? fmtDur(b * p.fineNs) : '';
      g.fillText(text, Math.min(x + 2, width - g.measureText(text).width - 2), 7);
    }
    if (!p.timed) g.fillText('the samples have no time', TL.label, 7);
    const maxOf = (kind) => Math.max(1, ...rows.filter((r) => r.kind === kind).map((r) => Math.max(...r.bins)));
    const max = { proc: maxOf('proc'), thread: maxOf('thread'), cpu: maxOf('cpu') };
    rows.forEach((r, i) => {
      const y = TL.axis + i * TL.rowH;
      r.y = y;
      const on = S.threads && r.thr && r.thr.every((t) => S.threads.has(t));
      if (on) { g.fillStyle = 'rgba(36,99,181,0.12)'; g.fillRect(0, y, width, TL.rowH); }
      g.fillStyle = on ? '#2463b5' : r.kind === 'cpu' ? '#6b7075' : '#1d1f21';
      const label = (r.kind === 'thread' && rows.some((q) => q.kind === 'proc') ? '  ' : '') + r.label;
      g.fillText(label.length > 30 ? label.slice(0, 29) + '…' : label, 4, y + TL.rowH / 2);
      g.fillStyle = r.kind === 'proc' ? '#8a5cc2' : r.kind === 'cpu' ? '#7a8a99' : '#d9622b';
      const bw = Math.max(plot / p.nfine, 1);
      for (let b = 0; b < p.nfine; b++) {
        if (!r.bins[b]) continue;
        const h = Math.max(1, (TL.rowH - 2) * r.bins[b] / max[r.kind]);
        g.fillRect(bx(b), y + TL.rowH - 1 - h, bw, h);
      }
      g.fillStyle = '#eceef1';
      g.fillRect(TL.label, y + TL.rowH - 1, plot, 1);
    });
    const sr = TL.drag ? TL.drag : S.range;
    if (sr) {
      const x0 = bx(sr[0] * p.finePerSel), x1 = bx(Math.min((sr[1] + 1) * p.finePerSel, p.nfine));
      g.fillStyle = 'rgba(36,99,181,0.18)';
      g.fillRect(x0, TL.axis, Math.max(x1 - x0, 1), height - TL.axis);
      g.fillStyle = '#2463b5';
      g.fillRect(x0, TL.axis, 1, height - TL.axis);
      g.fillRect(x1, TL.axis, 1, height - TL.axis);
    }
  }
  function selBinAt(x) {
    const p = S.p, b = Math.floor(((x - TL.label) / TL.plot) * p.nfine);
    return Math.min(Math.max(Math.floor(Math.max(b, 0) / p.finePerSel), 0), p.nsel - 1);
  }
  function setupTimeline() {
    const canvas = $('timeline');
    const pos = (ev) => { const b = canvas.getBoundingClientRect(); return [ev.clientX - b.left, ev.clientY - b.top]; };
    canvas.onmousedown = (ev) => {
      const [x, y] = pos(ev);
      if (x < TL.label) {
        const r = TL.rows[Math.floor((y - TL.axis) / TL.rowH)];
        if (!r || !r.thr) return;
        const same = S.threads && S.threads.size === r.thr.length && r.thr.every((t) => S.threads.has(t));
        if (ev.ctrlKey || ev.metaKey || ev.shiftKey) {
          const s = new Set(S.threads || []);
          r.thr.forEach((t) => (same ? s.delete(t) : s.add(t)));
          S.threads = s.size ? s : null;
        } else S.threads = same ? null : new Set(r.thr);
        recompute();
        drawTimeline();
        return;
      }
      const b0 = selBinAt(x);
      TL.start = { x, b0 };
      TL.drag = [b0, b0];
      drawTimeline();
    };
    window.addEventListener('mousemove', (ev) => {
      if (!TL.start) return;
      const b = selBinAt(pos(ev)[0]);
      TL.drag = [Math.min(TL.start.b0, b), Math.max(TL.start.b0, b)];
      drawTimeline();
    });
    window.addEventListener('mouseup', (ev) => {
      if (!TL.start) return;
      const moved = Math.abs(pos(ev)[0] - TL.start.x) > 3;
      S.range = moved ? TL.drag : null;
      TL.start = null;
      TL.drag = null;
      recompute();
      drawTimeline();
    });
    canvas.onmousemove = (ev) => {
      if (TL.start) return;
      const [x, y] = pos(ev), p = S.p;
      const r = TL.rows[Math.floor((y - TL.axis) / TL.rowH)];
      if (!r) return;
      if (x < TL.label) { details(r.label + (r.thr ? ': click to select, ctrl-click to add' : '')); return; }
      const b = Math.min(Math.max(Math.floor(((x - TL.label) / TL.plot) * p.nfine), 0), p.nfine - 1);
      details(`${r.label}  at ${fmtDur(b * p.fineNs)}: ${fmtInt(r.bins[b])} (${p.events[S.ev].name}); drag to select a time range`);
    };
  }

  const VIEWS = {
    summary, flame: () => drawFlame('flame'), icicle: () => drawFlame('icicle'),
    topdown: topDown, bottomup: bottomUp, sandwich, functions,
  };

  // ---- start --------------------------------------------------------------------

  async function start() {
    const t0 = performance.now();
    const p = S.p = new Profile(await loadData());
    document.title = p.meta.title || 'readperf';
    $('title').textContent = p.meta.title || 'readperf';
    const evSel = $('event');
    p.events.forEach((e, i) => evSel.append(new Option(`${e.name} (${fmtInt(e.samples)} samples)`, String(i))));
    // The first event with samples.
    S.ev = Math.max(0, p.events.findIndex((e) => e.samples > 0));
    evSel.value = String(S.ev);
    evSel.onchange = () => { S.ev = Number(evSel.value); recompute(); drawTimeline(); };
    const search = $('search');
    search.oninput = () => {
      const text = search.value;
      search.classList.remove('bad');
      S.re = null;
      if (text) {
        try { S.re = new RegExp(text); } catch (e) { search.classList.add('bad'); }
      }
      if (!S.re) { $('matched').textContent = ''; delete $('matched').dataset.share; }
      ['flame', 'icicle', 'topdown', 'bottomup', 'functions'].forEach((v) => dirty.add(v));
      if (S.view !== 'flame' && S.view !== 'icicle' && S.re) dirty.add('flame'), VIEWS.flame();
      render();
    };
    $('reset').onclick = () => { S.threads = null; S.range = null; recompute(); drawTimeline(); };
    document.querySelectorAll('#tabs button').forEach((b) => { b.onclick = () => setView(b.dataset.view); });
    document.querySelectorAll('.recursion').forEach((c) => {
      c.onchange = () => {
        S.collapse = c.checked;
        document.querySelectorAll('.recursion').forEach((o) => { o.checked = c.checked; });
        S.zoom = { flame: 0, icicle: 0 };
        dirty.add('flame'); dirty.add('icicle');
        render();
      };
    });
    document.querySelectorAll('.unzoom').forEach((b) => {
      b.onclick = () => { S.zoom = { flame: 0, icicle: 0 }; dirty.add(S.view); render(); };
    });
    setupTimeline();
    window.addEventListener('resize', () => { drawTimeline(); dirty.add(S.view); render(); });
    S.w = p.compute(selection());
    showSelection();
    ['summary', 'icicle', 'topdown', 'bottomup', 'sandwich', 'functions'].forEach((v) => dirty.add(v));
    dirty.add('flame');
    drawTimeline();
    setView('flame');
    const ms = performance.now() - t0;
    details(`${fmtInt(p.N - 1)} call-stack nodes, ${fmtInt(p.nf)} functions, ${p.threads.length} threads; drawn in ${ms.toFixed(0)} ms`);
    // For tests and scripts: where things are, and that the page is ready.
    window.rpReport = {
      ready: true, firstViewMs: ms,
      laneY: (tid) => { const r = TL.rows.find((x) => x.tid === tid); return r ? r.y + TL.rowH / 2 : null; },
      selBinX: (s) => TL.bx(s * p.finePerSel + p.finePerSel / 2),
      nsel: p.nsel, events: p.events.map((e) => e.name),
    };
    document.body.dataset.ready = '1';
  }
  start().catch((e) => { details('cannot read the report data: ' + e); document.body.dataset.ready = 'error'; });
})();
