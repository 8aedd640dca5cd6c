// oprec serve's page: the controls make a strategy, every change re-fits it
// through POST /api/fit, the answer is drawn as a chart (chart.js) and a
// table of exact bytes. The sweep view prices a grid through /api/sweep.
(function () {
  'use strict';
  const $ = id => document.getElementById(id);
  const GiB = 1024 ** 3;
  const UPLOAD = '__upload__';
  const INTS = ['gpus', 'tp', 'pp', 'vpp', 'cp', 'ep', 'etp', 'mbs', 'gbs', 'seq', 'zero'];
  const CHOICES = ['recompute', 'schedule', 'dtype', 'optimizer'];
  const BOOLS = ['sp', 'flash_attention'];
  const LEVELS = ['none', 'selective', 'full'];

  const state = {
    config: null,      // an uploaded config.json, sent as "config"
    requested: 0,      // id of the latest fit request; older answers are dropped
    sweepRequested: 0,
    stagesView: null,  // the vega views, finalized before a redraw
    stagesShape: '',   // what the stages view was embedded for (chart.js usermeta)
    sweepView: null,
    points: [],
    sort: { key: 'peak_bytes', dir: 1 },
    deviceBytes: 80 * GiB,
  };

  const gib = b => (b / GiB).toFixed(2) + ' GiB';
  const exact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v;
      else if (k.startsWith('data-')) e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  // ---- the request -------------------------------------------------------

  function strategy() {
    const s = {};
    for (const k of INTS) {
      const v = $(k).value.trim();
      if (v !== '') s[k] = Number(v);
    }
    for (const k of CHOICES) if ($(k).value) s[k] = $(k).value;
    for (const k of BOOLS) s[k] = $(k).checked;
    const dev = $('device_gib').value.trim();
    if (dev !== '') s.device_gib = Number(dev);
    return s;
  }

  function subject() {
    const body = { records: $('records').value };
    if ($('model').value === UPLOAD && state.config) body.config = state.config;
    else body.model = $('model').value;
    return body;
  }

  // POST JSON; resolves to the answer, rejects with the server's message.
  async function post(path, body) {
    let res;
    try {
      res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' },
                                body: JSON.stringify(body) });
    } catch (e) {
      throw new Error(`cannot reach the server (${e.message})`);
    }
    let data;
    try { data = await res.json(); } catch { data = null; }
    if (!res.ok) throw new Error((data && data.error) || `${path}: HTTP ${res.status}`);
    if (!data) throw new Error(`${path}: the answer is not JSON`);
    return data;
  }

  function showError(message) {
    $('error').textContent = message;
    $('error').hidden = false;
    $('answer').classList.add('stale');
    $('stale-note').hidden = Number(document.body.dataset.fitsDrawn || 0) === 0;
  }

  function clearError() {
    $('error').hidden = true;
    $('error').textContent = '';
    $('answer').classList.remove('stale');
    $('stale-note').hidden = true;
  }

  async function refit() {
    const id = ++state.requested;
    document.body.dataset.requested = id;
    const body = Object.assign(subject(), { strategy: strategy() });
    let fit;
    try {
      fit = await post('/api/fit', body);
    } catch (e) {
      if (id !== state.requested) return;
      showError(e.message);
      document.body.dataset.state = 'error';
      document.body.dataset.answered = id;
      return;
    }
    if (id !== state.requested) return;
    try {
      await draw(fit);
    } catch (e) {
      showError(`cannot draw the answer: ${e.message}`);
      document.body.dataset.state = 'error';
      document.body.dataset.answered = id;
      return;
    }
    if (id !== state.requested) return;
    clearError();
    document.body.dataset.state = 'ready';
    document.body.dataset.answered = id;
    document.body.dataset.fitsDrawn = Number(document.body.dataset.fitsDrawn || 0) + 1;
  }

  // ---- the answer --------------------------------------------------------

  async function draw(fit) {
    state.deviceBytes = fit.device_bytes;
    const n = fit.stages.length;
    const v = $('verdict');
    v.textContent = `${fit.fits ? 'Fits' : 'Does not fit'}: peak ${gib(fit.peak_bytes)} on stage ${fit.peak_stage} of ${n}, ` +
      (fit.fits ? `${gib(fit.margin_bytes)} to spare` : `${gib(-fit.margin_bytes)} over`) +
      ` (device ${gib(fit.device_bytes)})`;
    v.dataset.peakBytes = fit.peak_bytes;
    v.dataset.fits = fit.fits;
    v.className = fit.fits ? 'fits' : 'nofit';
    $('summary').textContent = `${fit.model}; ${fit.strategy}; dp=${fit.dp}, ${fit.micro_batches} micro-batches a step`;
    drawTable(fit);
    const spec = oprecCharts.stages(fit, fit.sources);
    if (state.stagesView && state.stagesShape === spec.usermeta.shape) {
      // Same stages and terms: new numbers into the live view.
      for (const [name, values] of Object.entries(spec.datasets)) state.stagesView.data(name, values);
      await state.stagesView.runAsync();
      return;
    }
    const result = await vegaEmbed('#chart', spec, { actions: false, renderer: 'svg' });
    if (state.stagesView) state.stagesView.finalize();
    state.stagesView = result.view;
    state.stagesShape = spec.usermeta.shape;
  }

  function termHeader(name, source) {
    const th = el('th', { scope: 'row', class: 'term' });
    if (!source) { th.append(name); return th; }
    // The formula expands in place; its location reads at a glance.
    // The contract names the text `formula`; `text` is taken too.
    const formula = source.formula ?? source.text ?? '';
    const details = el('details', {},
      el('summary', { title: formula }, name, ' ', el('span', { class: 'where' }, source.where)),
      el('pre', {}, (source.comment || '') + formula));
    th.append(details);
    return th;
  }

  function drawTable(fit) {
    const sources = fit.sources || {};
    const names = [], beside = [];
    for (const st of fit.stages) {
      for (const k of Object.keys(st.terms)) if (!names.includes(k)) names.push(k);
      for (const k of Object.keys(st.beside || {})) if (!beside.includes(k)) beside.push(k);
    }
    const cell = (st, name, bytes, cls) => el('td', {
      'data-term': name, 'data-stage': st.stage, 'data-bytes': String(bytes),
      title: gib(bytes), class: cls + (st.stage === fit.peak_stage ? ' peak' : ''),
    }, exact.format(bytes));

    const head = el('tr', {}, el('th', { scope: 'col' }, 'term'),
      ...fit.stages.map(st => el('th', { scope: 'col', class: st.stage === fit.peak_stage ? 'peak' : '' },
        `stage ${st.stage}`, el('br'), el('small', {}, `${st.layers} layers`))));
    const rows = names.map(name => el('tr', {}, termHeader(name, sources[name]),
      ...fit.stages.map(st => cell(st, name, st.terms[name] ?? 0, ''))));
    const total = el('tr', { class: 'total' }, el('th', { scope: 'row' }, 'total'),
      ...fit.stages.map(st => el('td', { 'data-total': st.stage, 'data-stage': st.stage,
        'data-bytes': String(st.total_bytes), class: st.stage === fit.peak_stage ? 'peak' : '' },
        exact.format(st.total_bytes), el('br'), el('small', {}, gib(st.total_bytes)))));
    const besideRows = beside.map(name => el('tr', { class: 'beside' },
      termHeader(`${name} (beside)`, sources[name]),
      ...fit.stages.map(st => cell(st, name, (st.beside || {})[name] ?? 0, 'beside'))));
    $('terms').replaceChildren(el('caption', {}, 'Bytes per GPU, per pipeline stage'),
      el('thead', {}, head), el('tbody', {}, ...rows, total, ...besideRows));
  }

  // ---- the sweep ---------------------------------------------------------

  const list = text => text.split(/[\s,]+/).filter(Boolean).map(Number);

  async function runSweep() {
    const id = ++state.sweepRequested;
    const base = strategy();
    const grid = { tp: list($('sweep-tp').value), pp: list($('sweep-pp').value),
                   recompute: LEVELS.slice(), zero: [base.zero ?? 1], mbs: [base.mbs ?? 1] };
    $('sweep-status').textContent = 'pricing…';
    $('sweep').disabled = true;
    let answer;
    try {
      answer = await post('/api/sweep', Object.assign(subject(), { strategy: base, grid }));
    } catch (e) {
      if (id === state.sweepRequested) { showError(e.message); $('sweep-status').textContent = ''; $('sweep').disabled = false; }
      return;
    }
    if (id !== state.sweepRequested) return;
    $('sweep').disabled = false;
    state.points = answer.points;
    const fits = answer.points.filter(p => p.fits).length;
    $('sweep-status').textContent = `${answer.points.length} strategies, ${fits} fit` +
      (answer.skipped ? `, ${answer.skipped} the model cannot take` : '');
    drawSweepTable();
    const spec = oprecCharts.sweep(answer.points, state.deviceBytes);
    const result = await vegaEmbed('#sweep-chart', spec, { actions: false, renderer: 'svg' });
    if (state.sweepView) state.sweepView.finalize();
    state.sweepView = result.view;
    result.view.addEventListener('click', (event, item) => {
      if (item && item.datum && Number.isInteger(item.datum.index)) choose(item.datum.index);
    });
    document.body.dataset.sweepDrawn = Number(document.body.dataset.sweepDrawn || 0) + 1;
  }

  const COLUMNS = [
    ['label', 'strategy', p => oprecCharts.label(p.strategy)],
    ['tp', 'TP', p => p.strategy.tp ?? 1],
    ['pp', 'PP', p => p.strategy.pp ?? 1],
    ['cp', 'CP', p => p.strategy.cp ?? 1],
    ['ep', 'EP', p => p.strategy.ep ?? 1],
    ['recompute_level', 'recompute', p => p.recompute_level, p => LEVELS[p.recompute_level]],
    ['zero', 'ZeRO', p => p.strategy.zero ?? ''],
    ['mbs', 'mbs', p => p.strategy.mbs ?? ''],
    ['peak_bytes', 'peak', p => p.peak_bytes, p => gib(p.peak_bytes)],
    ['peak_stage', 'peak stage', p => p.peak_stage],
    ['fits', 'fits', p => (p.fits ? 1 : 0), p => (p.fits ? 'yes' : 'no')],
  ];

  function drawSweepTable() {
    const col = COLUMNS.find(c => c[0] === state.sort.key);
    const order = state.points.map((p, i) => i).sort((a, b) => {
      const x = col[2](state.points[a]), y = col[2](state.points[b]);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y
        : String(x).localeCompare(String(y), 'en', { numeric: true });
      return c * state.sort.dir || state.points[a].peak_bytes - state.points[b].peak_bytes;
    });
    const head = el('tr', {}, ...COLUMNS.map(([key, title]) => {
      const sorted = key === state.sort.key;
      const th = el('th', { scope: 'col', ariaSort: sorted ? (state.sort.dir > 0 ? 'ascending' : 'descending') : 'none' },
        el('button', { type: 'button', 'data-sort': key, onclick: () => sortBy(key) },
          title + (sorted ? (state.sort.dir > 0 ? ' ▲' : ' ▼') : '')));
      return th;
    }));
    const rows = order.map(i => {
      const p = state.points[i];
      return el('tr', { 'data-index': i, class: p.fits ? 'fits' : 'nofit', tabIndex: 0,
                        onclick: () => choose(i), onkeydown: e => { if (e.key === 'Enter') choose(i); } },
        ...COLUMNS.map(c => el('td', { 'data-key': c[0] }, String((c[3] || c[2])(p)))));
    });
    $('sweep-table').replaceChildren(el('caption', {}, 'Click a header to sort, a row to see its breakdown'),
      el('thead', {}, head), el('tbody', {}, ...rows));
  }

  function sortBy(key) {
    state.sort = { key, dir: state.sort.key === key ? -state.sort.dir : 1 };
    drawSweepTable();
  }

  // Set the controls to a swept strategy and show its breakdown.
  function choose(index) {
    const s = state.points[index].strategy;
    for (const [k, v] of Object.entries(s)) {
      if (![...INTS, ...CHOICES, ...BOOLS, 'device_gib'].includes(k)) continue;
      const input = $(k);
      if (v === null || v === undefined) {
        // null: the default, which is a blank control where one may be blank.
        if (input.querySelector && input.querySelector('option[value=""]')) input.value = '';
        else if (input.placeholder) input.value = '';
        continue;
      }
      if (input.type === 'checkbox') input.checked = Boolean(v);
      else input.value = String(v);
    }
    for (const tr of $('sweep-table').querySelectorAll('tr.chosen')) tr.classList.remove('chosen');
    const row = $('sweep-table').querySelector(`tr[data-index="${index}"]`);
    if (row) row.classList.add('chosen');
    refit();
    $('verdict').scrollIntoView({ block: 'nearest' });
  }

  // ---- the model ---------------------------------------------------------

  async function upload(file) {
    let config;
    try {
      config = JSON.parse(await file.text());
      if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('not a JSON object');
    } catch (e) {
      showError(`${file.name}: not a config.json (${e.message})`);
      return;
    }
    state.config = config;
    let opt = $('model').querySelector(`option[value="${UPLOAD}"]`);
    if (!opt) { opt = el('option', { value: UPLOAD }); $('model').prepend(opt); }
    opt.textContent = `uploaded: ${file.name}`;
    $('model').value = UPLOAD;
    $('uploaded').textContent = `Pricing ${file.name}`;
    $('uploaded').hidden = false;
    refit();
  }

  function wire() {
    $('controls').addEventListener('change', e => {
      if (e.target.id === 'config-file') return;
      if (e.target.id === 'model' && e.target.value !== UPLOAD) $('uploaded').hidden = true;
      refit();
    });
    $('config-file').addEventListener('change', e => {
      if (e.target.files[0]) upload(e.target.files[0]);
      e.target.value = '';
    });
    const drop = $('drop');
    drop.addEventListener('dragover', e => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', e => {
      e.preventDefault();
      drop.classList.remove('over');
      if (e.dataTransfer.files[0]) upload(e.dataTransfer.files[0]);
    });
    $('sweep').addEventListener('click', () => {
      runSweep().catch(e => showError(`cannot draw the sweep: ${e.message}`));
    });
  }

  async function start() {
    wire();
    let info;
    try {
      const res = await fetch('/api/models');
      info = await res.json();
      if (!res.ok) throw new Error(info.error || `HTTP ${res.status}`);
    } catch (e) {
      showError(`cannot list the models: ${e.message}`);
      document.body.dataset.state = 'error';
      return;
    }
    $('model').replaceChildren(...info.models.map(m => el('option', { value: m.name }, m.name)));
    if (info.models.some(m => m.name === 'llama-2-7b')) $('model').value = 'llama-2-7b';
    $('records').replaceChildren(...info.records.map(r => el('option', { value: r }, r)));
    $('records').value = info.default_records || info.records[0];
    await refit();
  }

  start();
})();
