// The page `oprec serve` serves, driven in headless Chromium: every byte the
// page shows equals what `oprec fit --format json` prints for the same
// strategy, uploads, the sweep, errors, a screenshot and the redraw time.
// Env: OPREC_BINARY, OPREC_SOURCE_DIR, OPREC_OUT (run by tests/web_test.sh).
'use strict';
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const puppeteer = require('puppeteer-core');

const BIN = process.env.OPREC_BINARY;
const SRC = process.env.OPREC_SOURCE_DIR;
const OUT = process.env.OPREC_OUT || fs.mkdtempSync(path.join(os.tmpdir(), 'oprec-web-'));
const DEADLINE_MS = 115000;

// A strategy per model that the model can take (layers and heads divide).
const BASE = { gpus: 8, tp: 2, pp: 2, ep: 1, seq: '', recompute: 'selective' };
const OVERRIDES = {
  'falcon-7b': { tp: 1 },                       // 71 heads
  'gpt-530b': { gpus: 12, pp: 3 },              // 105 layers
  'deepseek-v3': { gpus: 2048, pp: 1, ep: 64, seq: 4096 },  // 61 layers, 256 experts
};

const failures = [];
const log = [];
function check(ok, what) {
  if (!ok) failures.push(what);
  return ok;
}

// `oprec fit` as the CLI prices it: exit 0 fits, 1 does not, both print JSON.
function cliFit(file, strategy) {
  const args = ['fit', file, '--format', 'json'];
  for (const [k, v] of Object.entries(strategy)) if (v !== '' && v !== undefined) args.push(`--${k}`, String(v));
  const r = spawnSync(BIN, args, { cwd: SRC, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${BIN} ${args.join(' ')}: exit ${r.status}, signal ${r.signal}, ${r.error}: ${r.stderr}`);
  return { fit: JSON.parse(r.stdout), command: `oprec ${args.join(' ')}` };
}

function startServer() {
  const server = spawn(BIN, ['serve', '--port', '0'], { cwd: SRC, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', d => { stderr += d; });
  const url = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL line from oprec serve in 20 s; stderr: ${stderr}`)), 20000);
    server.stdout.on('data', d => {
      out += d;
      const m = /^oprec serve: (http:\/\/\S+\/)\n/m.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on('exit', code => { clearTimeout(timer); reject(new Error(`oprec serve exited (${code}): ${stderr}`)); });
  });
  return { server, url };
}

// Set controls one by one as a user would, each a change event.
async function setControls(page, values) {
  for (const [id, v] of Object.entries(values)) {
    await page.$eval(`#${id}`, (e, v) => {
      if (e.type === 'checkbox') e.checked = Boolean(v);
      else e.value = String(v);
      e.dispatchEvent(new Event('change', { bubbles: true }));
    }, v);
  }
}

// Wait until the answer to the latest request is on the page.
async function settle(page) {
  await page.waitForFunction(() => {
    const b = document.body.dataset;
    return b.requested && b.answered === b.requested && (b.state === 'ready' || b.state === 'error');
  }, { timeout: 20000 });
  return page.evaluate(() => document.body.dataset.state);
}

async function shownError(page) {
  return page.$eval('#error', e => (e.hidden ? '' : e.textContent));
}

// Every cell with bytes against the CLI's JSON, as numbers.
async function compareCells(page, what, expected) {
  const cells = await page.$$eval('#terms td[data-bytes]', tds => tds.map(td => ({
    term: td.dataset.term, total: td.dataset.total, stage: Number(td.dataset.stage), bytes: Number(td.dataset.bytes),
  })));
  let wanted = 0, bad = 0;
  for (const st of expected.stages) {
    const named = Object.assign({}, st.terms, st.beside || {});
    for (const [term, bytes] of Object.entries(named)) {
      wanted++;
      const c = cells.find(x => x.term === term && x.stage === st.stage);
      if (!check(c && c.bytes === Number(bytes), `${what}: stage ${st.stage} ${term}: page ${c ? c.bytes : 'no cell'}, CLI ${bytes}`)) bad++;
    }
    wanted++;
    const t = cells.find(x => x.total !== undefined && x.stage === st.stage);
    if (!check(t && t.bytes === Number(st.total_bytes), `${what}: stage ${st.stage} total: page ${t ? t.bytes : 'no cell'}, CLI ${st.total_bytes}`)) bad++;
  }
  check(cells.length === wanted, `${what}: ${cells.length} cells with bytes, the CLI has ${wanted}`);
  // Each term names its formula's source: a place and the formula's text.
  const sources = await page.$$eval('#terms tbody th.term', ths => ths.map(th => ({
    name: th.textContent.split(' ')[0], where: (th.querySelector('.where') || {}).textContent || '',
    formula: (th.querySelector('summary') || {}).title || '' })));
  for (const s of sources)
    check(/\.rec:\d+:\d+$/.test(s.where) && s.formula.length > 0,
      `${what}: term ${s.name}: source where="${s.where}", formula ${s.formula ? 'given' : 'missing'}`);
  const peak = await page.$eval('#verdict', e => Number(e.dataset.peakBytes));
  check(peak === Number(expected.peak_bytes), `${what}: verdict peak ${peak}, CLI ${expected.peak_bytes}`);
  return { cells: cells.length, bad };
}

// Kept here so that any exit, the deadline's too, kills them.
let server = null, browser = null;
process.on('exit', () => {
  if (browser && browser.process()) browser.process().kill('SIGKILL');
  if (server) server.kill('SIGKILL');
});

async function run() {
  const started = startServer();
  server = started.server;
  const urlPromise = started.url;
  const consoleErrors = [];
  let networkErrors = 0;
  try {
    const url = await urlPromise;
    log.push(`server: ${url}`);
    browser = await puppeteer.launch({
      executablePath: '/usr/bin/chromium', headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on('console', msg => {
      if (msg.type() !== 'error') return;
      // Chromium itself logs every 4xx answer; the API answers bad input with
      // 400/422 by contract, and the page shows those in #error.
      const loc = msg.location() || {};
      if (/status of 4(00|22)/.test(msg.text()) && /\/api\/(fit|sweep)$/.test(loc.url || '')) { networkErrors++; return; }
      consoleErrors.push(`console: ${msg.text()} ${loc.url || ''}`);
    });
    page.on('pageerror', err => consoleErrors.push(`page error: ${err.message}`));
    page.on('requestfailed', req => consoleErrors.push(`request failed: ${req.url()} ${req.failure() && req.failure().errorText}`));

    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => Number(document.body.dataset.fitsDrawn) >= 1, { timeout: 30000 });

    // (1) Every bundled model, a strategy set through the controls.
    const models = (await (await fetch(url + 'api/models')).json()).models;
    let priced = 0, cellsCompared = 0;
    for (const m of models) {
      const strategy = Object.assign({}, BASE, OVERRIDES[m.name] || {});
      await page.select('#model', m.name);
      await setControls(page, strategy);
      const st = await settle(page);
      const what = `${m.name} (${JSON.stringify(strategy)})`;
      if (!check(st === 'ready', `${what}: the page shows an error: ${await shownError(page)}`)) continue;
      const { fit } = cliFit(path.join('examples/hf', m.file), strategy);
      cellsCompared += (await compareCells(page, what, fit)).cells;
      priced++;
    }
    log.push(`models: ${priced} of ${models.length} priced as the CLI prices them (${cellsCompared} cells)`);

    // The API's sources: each counted term's place and formula text.
    const answer = await (await fetch(url + 'api/fit', { method: 'POST',
      body: JSON.stringify({ model: 'llama-2-7b', strategy: { tp: 2, pp: 2 } }) })).json();
    const badSources = Object.keys(answer.stages[0].terms).filter(name => {
      const s = (answer.sources || {})[name] || {};
      return !(/\.rec:\d+:\d+$/.test(s.where || '') && typeof s.formula === 'string' && s.formula.length > 0);
    });
    check(badSources.length === 0, `/api/fit: sources of ${badSources.join(', ')} should be {where: "FILE.rec:LINE:COL", ` +
      `formula: "..."}; e.g. ${JSON.stringify((answer.sources || {})[badSources[0]] || null).slice(0, 200)}`);

    // (4) A bad input: tp 3 does not divide llama-2-7b's 32 heads (12 GPUs
    // so that tp * pp does divide them).
    await page.select('#model', 'llama-2-7b');
    await setControls(page, Object.assign({}, BASE, { gpus: 12 }));
    check(await settle(page) === 'ready', `gpus=12: ${await shownError(page)}`);
    await setControls(page, { tp: 3 });
    const badState = await settle(page);
    const message = await shownError(page);
    check(badState === 'error' && message.length > 0, `tp=3: no error shown (state ${badState})`);
    log.push(`bad input: #error says "${message.split('\n')[0].slice(0, 100)}"`);
    await setControls(page, { tp: 2, gpus: 8 });
    check(await settle(page) === 'ready' && await shownError(page) === '', 'the error stays after a good input');

    // (2) An uploaded config.json, priced as the CLI prices that file.
    const config = JSON.parse(fs.readFileSync(path.join(SRC, 'examples/hf/llama-2-7b.json'), 'utf8'));
    config.num_hidden_layers = 8;
    config.intermediate_size = 5504;
    const uploaded = path.join(OUT, 'uploaded-config.json');
    fs.writeFileSync(uploaded, JSON.stringify(config, null, 2));
    const input = await page.$('#config-file');
    await input.uploadFile(uploaded);
    await page.waitForFunction(() => document.getElementById('model').value === '__upload__', { timeout: 10000 });
    if (check(await settle(page) === 'ready', `upload: the page shows an error: ${await shownError(page)}`)) {
      const { fit } = cliFit(uploaded, BASE);
      const r = await compareCells(page, 'uploaded config', fit);
      log.push(`upload: ${r.cells} cells as the CLI prices ${path.basename(uploaded)}`);
    }

    // (3) The sweep: points drawn, the table sorts, a click sets the controls.
    await page.select('#model', 'llama-2-7b');
    await setControls(page, BASE);
    await settle(page);
    await page.click('#sweep');
    await page.waitForFunction(() => Number(document.body.dataset.sweepDrawn) >= 1 || !document.getElementById('error').hidden,
      { timeout: 60000 });
    check(await shownError(page) === '', `sweep: the page shows an error: ${await shownError(page)}`);
    const points = await page.$$eval('#sweep-chart g.mark-symbol.role-mark path', ps => ps.length);
    const rows = await page.$$eval('#sweep-table tbody tr', rs => rs.length);
    check(points > 1 && points === rows, `sweep: ${points} points drawn, ${rows} rows`);
    await page.click('#sweep-table th button[data-sort="pp"]');
    const pps = await page.$$eval('#sweep-table tbody td[data-key="pp"]', tds => tds.map(t => Number(t.textContent)));
    check(pps.every((v, i) => i === 0 || pps[i - 1] <= v), `sweep: sorting by PP gives ${pps.join(',')}`);
    // A point the mouse can reach (not under another) whose strategy differs.
    const target = await page.evaluate(() => {
      const tp = document.getElementById('tp').value, rc = document.getElementById('recompute').value;
      for (const p of document.querySelectorAll('#sweep-chart g.mark-symbol.role-mark path')) {
        const d = p.__data__ && p.__data__.datum;
        const r = p.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (!d || document.elementFromPoint(x, y) !== p) continue;
        const row = document.querySelector(`#sweep-table tr[data-index="${d.index}"]`);
        const cell = k => row.querySelector(`td[data-key="${k}"]`).textContent;
        if (cell('tp') !== tp || cell('recompute_level') !== rc)
          return { index: d.index, tp: cell('tp'), pp: cell('pp'), recompute: cell('recompute_level') };
      }
      return null;
    });
    if (check(target, 'sweep: no clickable point with another strategy')) {
      await page.evaluate(i => document.querySelector(`#sweep-table tr[data-index="${i}"]`).scrollIntoView({ block: 'center' }), target.index);
      // Scrolling moved the chart; find the point again and click it.
      await page.evaluate(() => document.getElementById('sweep-chart').scrollIntoView({ block: 'center' }));
      const box = await page.evaluate(i => {
        for (const p of document.querySelectorAll('#sweep-chart g.mark-symbol.role-mark path'))
          if (p.__data__ && p.__data__.datum.index === i) { const r = p.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }
        return null;
      }, target.index);
      await page.mouse.click(box.x, box.y);
      await settle(page);
      const now = await page.evaluate(() => (['tp', 'pp', 'recompute'].reduce((o, k) => Object.assign(o, { [k]: document.getElementById(k).value }), {})));
      check(now.tp === target.tp && now.pp === target.pp && now.recompute === target.recompute,
        `sweep: clicking point ${JSON.stringify(target)} set the controls to ${JSON.stringify(now)}`);
      log.push(`sweep: ${points} points; clicking tp=${target.tp} pp=${target.pp} ${target.recompute} set the controls`);
    }
    // A row click too, then its breakdown matches the CLI.
    const rowTarget = await page.$eval('#sweep-table tbody tr:last-child', tr => {
      const c = k => tr.querySelector(`td[data-key="${k}"]`).textContent;
      return { tp: c('tp'), pp: c('pp'), recompute: c('recompute_level') };
    });
    await page.click('#sweep-table tbody tr:last-child td');
    if (check(await settle(page) === 'ready', `sweep row: ${await shownError(page)}`)) {
      const now = await page.evaluate(() => (['tp', 'pp', 'recompute'].reduce((o, k) => Object.assign(o, { [k]: document.getElementById(k).value }), {})));
      check(JSON.stringify(now) === JSON.stringify(rowTarget), `sweep: clicking row ${JSON.stringify(rowTarget)} set ${JSON.stringify(now)}`);
      const s = Object.assign({}, BASE, { tp: now.tp, pp: now.pp, recompute: now.recompute });
      await compareCells(page, `sweep row ${JSON.stringify(now)}`, cliFit('examples/hf/llama-2-7b.json', s).fit);
    }

    // (6) The screenshot: llama-2-7b on two stages, with the sweep under it.
    await setControls(page, BASE);
    await settle(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = path.join(OUT, 'serve.png');
    await page.screenshot({ path: shot, fullPage: true });
    log.push(`screenshot: ${shot}`);

    // (7) Redraw time: a control's change to the next completed redraw.
    const changes = [];
    const levels = ['full', 'none', 'selective'], tps = ['4', '1', '2'];
    for (let i = 0; i < 20; i++)
      changes.push(i % 2 === 0 ? ['recompute', levels[(i / 2) % 3]] : ['tp', tps[((i - 1) / 2) % 3]]);
    const samples = await page.evaluate(async changes => {
      const out = [];
      for (const [id, value] of changes) {
        const before = Number(document.body.dataset.fitsDrawn);
        const drawn = new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no redraw after ${id}=${value}`)), 15000);
          const obs = new MutationObserver(() => {
            if (Number(document.body.dataset.fitsDrawn) > before) { obs.disconnect(); clearTimeout(timer); resolve(); }
          });
          obs.observe(document.body, { attributes: true, attributeFilter: ['data-fits-drawn'] });
        });
        const t0 = performance.now();
        const e = document.getElementById(id);
        e.value = value;
        e.dispatchEvent(new Event('change', { bubbles: true }));
        await drawn;
        out.push(performance.now() - t0);
      }
      return out;
    }, changes);
    const sorted = samples.slice().sort((a, b) => a - b);
    const median = (sorted[9] + sorted[10]) / 2;
    const round = x => Math.round(x * 100) / 100;
    fs.writeFileSync(path.join(OUT, 'web_bench.json'),
      JSON.stringify({ redraw_ms_median: round(median), samples: samples.map(round) }, null, 2) + '\n');
    log.push(`redraw: median ${median.toFixed(1)} ms over ${samples.length} changes (${path.join(OUT, 'web_bench.json')})`);

    // (5) Nothing in the console but the API's expected 4xx answers.
    for (const e of consoleErrors) check(false, e);
    log.push(`console: ${consoleErrors.length} errors (${networkErrors} expected 4xx answers from the API not counted)`);
  } finally {
    if (browser) await browser.close().catch(() => {});
    browser = null;
    server.kill();
    server = null;
  }
}

const deadline = setTimeout(() => {
  console.error(`web test: FAILED: not done in ${DEADLINE_MS / 1000} s`);
  process.exit(1);
}, DEADLINE_MS);

const started = Date.now();
run().then(() => {
  clearTimeout(deadline);
  for (const l of log) console.log(`web test: ${l}`);
  if (failures.length) {
    for (const f of failures) console.error(`web test: FAILED: ${f}`);
    process.exit(1);
  }
  console.log(`web test: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}, err => {
  clearTimeout(deadline);
  for (const l of log) console.log(`web test: ${l}`);
  for (const f of failures) console.error(`web test: FAILED: ${f}`);
  console.error(`web test: FAILED: ${err.stack || err}`);
  process.exit(1);
});
