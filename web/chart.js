// Vega-Lite specs for oprec's fit and sweep answers. Pure functions of the
// API's JSON: no DOM, no fetch, because `oprec fit --plot FILE.html` inlines
// this file and calls vegaEmbed('#chart', oprecCharts.stages(FIT)).
(function (root) {
  'use strict';
  const GiB = 1024 ** 3;
  const LEVELS = ['none', 'selective', 'full'];

  // One stacked bar per pipeline stage, a segment per counted term, a rule
  // at the device's memory and the peak stage marked. Every term is in the
  // colour domain, zero or not, so a term keeps its colour as the strategy
  // changes (and the live view can take the new numbers).
  function stages(fit, sources) {
    sources = sources || fit.sources || {};
    const order = [];
    for (const st of fit.stages) for (const name of Object.keys(st.terms)) if (!order.includes(name)) order.push(name);
    const values = [];
    for (const st of fit.stages)
      order.forEach((name, i) => values.push({
        stage: st.stage, term: name, order: i,
        gib: (st.terms[name] || 0) / GiB, bytes: st.terms[name] || 0,
        where: sources[name] ? sources[name].where : '',
      }));
    const peak = fit.stages.find(s => s.stage === fit.peak_stage) || { total_bytes: fit.peak_bytes };
    const device = fit.device_bytes / GiB;
    const width = Math.max(180, Math.min(720, 100 + 48 * fit.stages.length));
    const stageAxis = { field: 'stage', type: 'ordinal', title: 'pipeline stage', axis: { labelAngle: 0 },
                        scale: { paddingInner: 0.25, paddingOuter: 0.15 } };
    const gibY = { field: 'gib', type: 'quantitative' };
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      // Named data sets: the page swaps their values into a live view when
      // only the numbers changed (usermeta.shape says what would need a new
      // spec), far quicker than compiling and embedding again.
      datasets: {
        terms: values,
        device: [{ gib: device, label: `device ${device.toFixed(0)} GiB` }],
        peak: [{ stage: fit.peak_stage, gib: peak.total_bytes / GiB,
                 label: fit.stages.length > 6 ? 'peak' : `peak ${(peak.total_bytes / GiB).toFixed(2)} GiB` }],
      },
      usermeta: { shape: JSON.stringify([fit.stages.map(s => s.stage), order, width]) },
      width,
      height: 300,
      layer: [
        {
          data: { name: 'terms' },
          mark: { type: 'bar', tooltip: true },
          encoding: {
            x: stageAxis,
            y: { field: 'gib', type: 'quantitative', stack: 'zero', title: 'GiB per GPU' },
            color: { field: 'term', type: 'nominal', sort: order, title: 'term',
                     scale: { scheme: 'tableau20' } },
            order: { field: 'order', type: 'quantitative' },
            tooltip: [
              { field: 'term' }, { field: 'stage' },
              { field: 'gib', title: 'GiB', format: '.3f' },
              { field: 'bytes', title: 'bytes', format: ',' },
              { field: 'where', title: 'formula' },
            ],
          },
        },
        {
          data: { name: 'device' },
          mark: { type: 'rule', color: '#b22', strokeDash: [6, 4], strokeWidth: 1.5 },
          encoding: { y: gibY },
        },
        {
          data: { name: 'device' },
          mark: { type: 'text', align: 'right', baseline: 'bottom', dy: -3, color: '#b22', x: 'width' },
          encoding: { y: gibY, text: { field: 'label' } },
        },
        {
          data: { name: 'peak' },
          mark: { type: 'text', baseline: 'bottom', dy: -4, fontWeight: 'bold' },
          encoding: { x: stageAxis, y: gibY, text: { field: 'label' } },
        },
      ],
      config: { view: { stroke: null }, font: 'system-ui, sans-serif' },
    };
  }

  // A short name for a strategy, the sweep's x position and table label.
  function label(s) {
    const parts = [`tp${s.tp || 1}`, `pp${s.pp || 1}`];
    if ((s.cp || 1) > 1) parts.push(`cp${s.cp}`);
    if ((s.ep || 1) > 1) parts.push(`ep${s.ep}`);
    if (s.vpp > 1) parts.push(`vpp${s.vpp}`);
    if (s.zero !== undefined) parts.push(`z${s.zero}`);
    if (s.mbs > 1) parts.push(`mbs${s.mbs}`);
    return parts.join(' ');
  }

  // Least memory for each recompute level, least recompute for each memory:
  // walking up the levels, a point joins when it beats every cheaper level.
  function pareto(points) {
    const best = new Map();
    for (const p of points) {
      const b = best.get(p.recompute_level);
      if (!b || p.peak_bytes < b.peak_bytes) best.set(p.recompute_level, p);
    }
    const front = [];
    for (const level of [...best.keys()].sort((a, b) => a - b)) {
      const p = best.get(level);
      if (!front.length || p.peak_bytes < front[front.length - 1].peak_bytes) front.push(p);
    }
    return front;
  }

  // Peak GiB against recompute level; within a level each strategy keeps the
  // same horizontal offset, so one strategy's three points line up.
  function sweep(points, deviceBytes) {
    const labels = [...new Set(points.map(p => label(p.strategy)))].sort(
      (a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const spread = 0.7 / Math.max(1, labels.length);
    const front = new Set(pareto(points));
    const x = p => p.recompute_level - 0.35 + spread * (labels.indexOf(label(p.strategy)) + 0.5);
    const values = points.map((p, index) => ({
      index, x: x(p), gib: p.peak_bytes / GiB, label: label(p.strategy),
      recompute: LEVELS[p.recompute_level] || String(p.recompute_level),
      fits: p.fits ? 'fits' : 'does not fit', front: front.has(p), peak_stage: p.peak_stage,
    }));
    const frontValues = values.filter(v => v.front).sort((a, b) => a.x - b.x);
    const device = deviceBytes / GiB;
    const xEnc = { field: 'x', type: 'quantitative', title: 'recompute',
                   scale: { domain: [-0.5, 2.5], nice: false },
                   axis: { values: [0, 1, 2], labelExpr: "['none','selective','full'][datum.value]", grid: false } };
    const yEnc = { field: 'gib', type: 'quantitative', title: 'peak GiB per GPU' };
    const layers = [
      {
        data: { values: frontValues },
        mark: { type: 'line', color: '#555', strokeDash: [4, 3], point: false },
        encoding: { x: xEnc, y: yEnc },
      },
      {
        data: { values },
        mark: { type: 'point', filled: true, size: 70, cursor: 'pointer', tooltip: true },
        encoding: {
          x: xEnc, y: yEnc,
          color: { field: 'fits', type: 'nominal', title: null,
                   scale: { domain: ['fits', 'does not fit'], range: ['#1b7f5f', '#bbb'] } },
          stroke: { condition: { test: 'datum.front', value: '#000' }, value: null },
          tooltip: [
            { field: 'label', title: 'strategy' }, { field: 'recompute' },
            { field: 'gib', title: 'peak GiB', format: '.2f' }, { field: 'peak_stage', title: 'peak stage' },
            { field: 'fits' },
          ],
        },
      },
    ];
    if (deviceBytes > 0) layers.push({
      data: { values: [{ device }] },
      mark: { type: 'rule', color: '#b22', strokeDash: [6, 4] },
      encoding: { y: { field: 'device', type: 'quantitative' } },
    });
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      width: 560, height: 280, layer: layers,
      config: { view: { stroke: null }, font: 'system-ui, sans-serif' },
    };
  }

  root.oprecCharts = { stages, sweep, label, pareto };
})(typeof window !== 'undefined' ? window : globalThis);
