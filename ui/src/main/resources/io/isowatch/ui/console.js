// The findings console's one script: the live console (served by `isowatch ui`) and the static
// report (`isowatch check -o DIR`, index.html) both run it. Which one it is follows from the page:
// a report carries its data in <script type="application/json" id="isowatch-data">.
//
// Safety rule: every value that comes from a history (keys, values, ids, agent names) reaches the
// page as text (text nodes, textContent) or inside an attribute set with setAttribute on a URL
// this script builds with encodeURIComponent. Nothing is ever assigned to innerHTML, and pictures
// are shown through <img>, where no script runs.
'use strict';
(function () {
  const dataElement = document.getElementById('isowatch-data');
  const REPORT = dataElement ? JSON.parse(dataElement.textContent) : null;
  const app = document.getElementById('app');
  const statusLine = document.getElementById('status');

  // ---- DOM: elements and text only -------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v; else e.setAttribute(k, String(v));
    }
    append(e, children);
    return e;
  }

  // Appends nodes and strings (as text), flattening arrays; null, undefined and false are skipped.
  function append(parent, ...children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      parent.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return parent;
  }

  function svgEl(tag, attrs, text) {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function status(text, kind) {
    statusLine.textContent = text;
    statusLine.className = 'status' + (kind ? ' ' + kind : '');
  }

  // ---- Addresses and data: a server, or the report's embedded data -------------------------------

  const links = REPORT ? {
    home: '#/',
    finding: id => '#/findings/' + encodeURIComponent(id),
    history: h => '#/history/' + encodeURIComponent(h),
  } : {
    home: '/',
    finding: id => '/findings/' + encodeURIComponent(id),
    history: h => '/history?name=' + encodeURIComponent(h),
  };

  function decode(s) {
    try { return decodeURIComponent(s); } catch (e) { return null; }
  }

  function route() {
    if (REPORT) {
      const h = location.hash;
      if (h.startsWith('#/findings/')) return { page: 'finding', id: decode(h.slice(11)) };
      if (h.startsWith('#/history/')) return { page: 'history', name: decode(h.slice(10)) };
      return { page: 'list' };
    }
    const p = location.pathname;
    if (p.startsWith('/findings/')) return { page: 'finding', id: decode(p.slice(10)) };
    if (p === '/history') return { page: 'history', name: new URLSearchParams(location.search).get('name') };
    return { page: 'list' };
  }

  const source = REPORT ? {
    // The report's findings come in the order check prints them; the list shows them so.
    subscribe(onRow) {
      status('static report of ' + REPORT.report.source + ', written ' + REPORT.report.generatedAt);
      for (const f of REPORT.findings.slice().reverse()) onRow(f);
    },
    finding(id) { return Promise.resolve(REPORT.findings.find(f => f.id === id) || null); },
    overview() { return Promise.resolve(REPORT.overview); },
  } : {
    subscribe(onRow) {
      const events = new EventSource('/api/events');
      events.addEventListener('finding', e => onRow(JSON.parse(e.data)));
      events.onopen = () => status('live', 'live');
      events.onerror = () => status('disconnected, retrying…', 'down');
      return events;
    },
    finding(id) {
      return fetch('/api/findings/' + encodeURIComponent(id)).then(r => (r.ok ? r.json() : null));
    },
    overview() { return fetch('/api/overview').then(r => r.json()); },
  };

  // ---- Shared pieces -------------------------------------------------------------------------------

  function historyName(h) { return h === '' ? '(single history)' : h; }
  function delay(ms) {
    return ms === null || ms === undefined ? 'unknown' : ms.toLocaleString('en') + ' ms after its last transaction';
  }
  // A finding released only when its history ended (decision 0009) is flagged, the reason in its title.
  function atEnd(f) {
    return f.released === 'end-of-history'
      ? el('span', { class: 'at-end', title: f.releasedReason }, 'at the end of the history') : null;
  }
  function rulesOut(f) { return f.not.concat(f.alsoNot); }

  // A static report is one history checked offline: when a finding was detected, how late, and
  // which history it belongs to say nothing there, so its table and pages leave them out.
  function findingsTable(id) {
    const heads = REPORT ? ['Anomaly', 'Rules out', 'Finding']
      : ['Detected', 'Anomaly', 'History', 'Rules out', 'Delay', 'Finding'];
    return el('table', { id: id, class: 'findings' },
      el('thead', null, el('tr', null, heads.map(h => el('th', null, h)))),
      el('tbody'));
  }

  function findingRow(f) {
    const row = el('tr', { class: 'finding' },
      REPORT ? null : el('td', { class: 'time' }, f.detectedAt),
      el('td', { class: 'type' }, el('a', { href: links.finding(f.id) }, f.type)),
      REPORT ? null : el('td', { class: 'history' }, el('a', { href: links.history(f.history) }, historyName(f.history))),
      el('td', { class: 'models' }, f.not.join(', ')),
      REPORT ? null : el('td', { class: 'delay' }, delay(f.delayMs), atEnd(f) ? [' ', atEnd(f)] : null),
      el('td', { class: 'title' }, el('a', { href: links.finding(f.id) }, f.title)));
    row.dataset.id = f.id;
    return row;
  }

  function modelList(view) {
    return el('span', { class: 'models' },
      view.not.length ? el('span', { class: 'not' }, view.not.join(', ')) : 'none',
      view.alsoNot.length ? [' (and so also ', view.alsoNot.join(', '), ')'] : null);
  }

  // ---- The list: newest first, live, filtered ------------------------------------------------------

  function listPage() {
    document.title = 'isowatch findings';
    const counts = el('div', { class: 'chips', id: 'counts' });
    const total = el('p', { class: 'muted', id: 'total' }, REPORT ? 'No findings.' : 'No findings yet.');
    const filters = {
      type: el('select', { id: 'filter-type' }, el('option', { value: '' }, 'all')),
      model: el('select', { id: 'filter-model' }, el('option', { value: '' }, 'any')),
      history: el('select', { id: 'filter-history' }, el('option', { value: '' }, 'all')),
    };
    const table = findingsTable('findings');
    const body = table.tBodies[0];
    const histories = el('ul', { id: 'histories' });
    // Findings that arrive while a person points at (or has focus in) the list wait here, so the
    // row under the pointer is still the one clicked. The notice's line is always there, so its
    // text appearing moves nothing either.
    const held = [];
    const heldNotice = el('button', { id: 'held', type: 'button', hidden: true });
    // A report of a valid history has no findings: no filters, table or histories, nothing empty.
    const none = REPORT && REPORT.findings.length === 0;
    append(clear(app), [
      REPORT ? reportHeader() : null,
      el('h1', null, 'Findings'), total, counts,
      none ? null : el('div', { class: 'filters' },
        el('label', null, 'Anomaly', filters.type),
        el('label', null, 'Rules out', filters.model),
        REPORT ? null : el('label', null, 'History', filters.history)),
      REPORT ? null : el('div', { class: 'held-line' }, heldNotice),
      none ? null : table,
      REPORT ? null : [el('h2', null, 'Histories'), histories],
    ]);

    const seen = new Set();
    const perType = new Map();
    const known = { type: new Set(), model: new Set(), history: new Set() };
    let shown = 0;

    function matches(f) {
      return (!filters.type.value || f.type === filters.type.value)
        && (!filters.model.value || rulesOut(f).includes(filters.model.value))
        && (!filters.history.value || f.history === filters.history.value);
    }

    function applyFilters() {
      for (const row of body.rows) row.hidden = !matches(row.finding);
      for (const chip of counts.children) chip.classList.toggle('on', chip.dataset.type === filters.type.value);
    }

    function addOption(select, set, value, label) {
      if (set.has(value)) return;
      set.add(value);
      const options = Array.from(select.options).slice(1);
      const next = options.find(o => o.value > value);
      select.insertBefore(el('option', { value: value }, label), next || null);
    }

    function renderCounts() {
      clear(counts);
      for (const type of Array.from(perType.keys()).sort()) {
        const chip = el('button', { class: 'chip', type: 'button' }, type, el('span', { class: 'n' }, perType.get(type)));
        chip.dataset.type = type;
        chip.addEventListener('click', () => {
          filters.type.value = filters.type.value === type ? '' : type;
          applyFilters();
        });
        counts.append(chip);
      }
      total.textContent = shown + (shown === 1 ? ' finding' : ' findings')
        + (REPORT ? ', in the order check reports them.' : ', newest first.');
    }

    function onRow(f) {
      if (seen.has(f.id)) return; // a repeat of one finding (the job restored) is shown once
      seen.add(f.id);
      if (!REPORT && body.rows.length > 0 && (table.matches(':hover') || table.contains(document.activeElement))) {
        held.push(f);
        heldNotice.textContent = held.length + (held.length === 1 ? ' new finding' : ' new findings')
          + ' held while you point at the list: show';
        heldNotice.hidden = false;
        return;
      }
      showRow(f);
    }

    function releaseHeld() {
      heldNotice.hidden = true;
      for (const f of held.splice(0)) showRow(f);
    }

    function showRow(f) {
      shown++;
      perType.set(f.type, (perType.get(f.type) || 0) + 1);
      addOption(filters.type, known.type, f.type, f.type);
      for (const m of rulesOut(f)) addOption(filters.model, known.model, m, m);
      if (!known.history.has(f.history)) {
        histories.append(el('li', null, el('a', { href: links.history(f.history) }, historyName(f.history))));
      }
      addOption(filters.history, known.history, f.history, historyName(f.history));
      const row = findingRow(f);
      row.finding = f;
      row.hidden = !matches(f);
      if (!REPORT) row.classList.add('fresh');
      body.insertBefore(row, body.firstChild);
      renderCounts();
      applyFilters();
    }

    for (const select of Object.values(filters)) select.addEventListener('change', applyFilters);
    table.addEventListener('pointerleave', releaseHeld);
    table.addEventListener('focusout', e => { if (!table.contains(e.relatedTarget)) releaseHeld(); });
    heldNotice.addEventListener('click', releaseHeld);
    source.subscribe(onRow);
  }

  function reportHeader() {
    const r = REPORT.report;
    return el('section', { class: 'report' },
      el('h1', null, 'Report: ', r.source),
      el('dl', { class: 'facts' },
        el('dt', null, 'Valid'), el('dd', null, el('span', { class: 'verdict ' + r.valid, id: 'verdict' }, r.valid)),
        el('dt', null, 'Checked against'), el('dd', null, r.models.length ? r.models.join(', ') : 'no model'),
        el('dt', null, 'Rules out'), el('dd', null, modelList(r)),
        el('dt', null, 'Transactions checked'), el('dd', { id: 'txns-checked' },
          r.stats.txns.toLocaleString('en') + ' (' + r.stats.ok.toLocaleString('en') + ' ok, '
          + r.stats.info.toLocaleString('en') + ' info, ' + r.stats.fail.toLocaleString('en') + ' fail)'),
        el('dt', null, 'Findings'), el('dd', null, r.findings.toLocaleString('en'),
          r.shown < r.findings ? ' (the first ' + r.shown.toLocaleString('en') + ' of each type are in this page; '
            + 'the .txt files hold all)' : '')));
  }

  // ---- One finding ---------------------------------------------------------------------------------

  function findingPage(id) {
    document.title = 'isowatch finding ' + id;
    append(clear(app), el('p', { class: 'muted' }, 'Loading finding ', id, '…'));
    source.finding(id).then(view => {
      if (view) { renderFinding(view); return; }
      append(clear(app), [
        el('h1', null, 'Finding not found'),
        el('p', { id: 'missing' }, 'This console holds no finding with id ', el('code', null, id),
          '. It may not have arrived yet (this page shows it when it does), or be older than the findings kept.'),
      ]);
      if (!REPORT) {
        const events = source.subscribe(f => {
          if (f.id === id) { events.close(); findingPage(id); }
        });
      }
    }, () => append(clear(app), el('p', null, 'Could not load the finding.')));
  }

  function renderFinding(v) {
    document.title = 'isowatch ' + v.type + ' ' + v.id;
    append(clear(app), [
      el('h1', { id: 'finding-type' }, v.type),
      el('p', { class: 'title', id: 'finding-title' }, v.title),
      plainWords(v),
      el('dl', { class: 'facts' },
        el('dt', null, 'Id'), el('dd', null, el('code', { id: 'finding-id' }, v.id)),
        REPORT ? null : [el('dt', null, 'History'), el('dd', null, el('a', { href: links.history(v.history) }, historyName(v.history)))],
        v.agents && v.agents.length ? [el('dt', null, 'Agents'), el('dd', { id: 'finding-agents' }, v.agents.join(', '))] : null,
        REPORT ? null : [el('dt', null, 'Detected'), el('dd', null, v.detectedAt),
          el('dt', null, 'Detection delay'), el('dd', { id: 'finding-delay' }, delay(v.delayMs)),
          el('dt', null, 'Released'), el('dd', { id: 'finding-released' }, v.released === 'end-of-history'
            ? [atEnd(v), ': ', v.releasedReason] : 'live, as soon as its evidence was checked')],
        el('dt', null, 'Checked against'), el('dd', null, v.models.length ? v.models.join(', ') : 'no model'),
        el('dt', null, 'Rules out'), el('dd', { id: 'finding-rules-out' }, modelList(v))),
      el('h2', null, 'Explanation'),
      el('pre', { class: 'explanation', id: 'explanation' }, v.explanation),
      el('h2', null, 'Cycle'),
      picture(v),
      v.svg ? legend() : null,
      el('h2', null, 'Transactions'),
      transactions(v.txns),
      el('h2', null, 'JSON'),
      json(v),
    ]);
  }

  // What the finding is in plain words: its common name, the common levels that allow and forbid
  // it (from the core's lattice, PlainWords), and whether it breaks the models checked.
  function plainWords(v) {
    const p = v.plain;
    if (!p) return null;
    const words = a => a.map(l => l.replace(/-/g, ' ')).join(', ');
    return el('div', { class: 'plain', id: 'plain-words' },
      el('p', { id: 'plain-name' }, el('strong', null, v.type), ' is ', el('strong', null, p.name), '.'),
      el('ul', null,
        el('li', { id: 'plain-allowed' }, 'Allowed by: ', p.allowedBy.length ? words(p.allowedBy) : 'none of the common levels'),
        el('li', { id: 'plain-forbidden' }, 'Forbidden by: ', p.forbiddenBy.length ? words(p.forbiddenBy) : 'none of the common levels')),
      el('p', { id: 'plain-verdict', class: p.breaks.length ? 'breaks' : 'allowed' }, p.verdict));
  }

  // What the edges of a cycle picture mean.
  function legend() {
    const row = (kind, text) => el('li', null, el('code', null, kind), ' ', text);
    return el('div', { class: 'legend', id: 'cycle-legend' },
      el('p', null, 'Each arrow T1 \u2192 T2 says T1 must come before T2, and why:'),
      el('ul', null,
        row('ww', 'T2 overwrote (or appended after) what T1 wrote: a write-write dependency.'),
        row('wr', 'T2 read what T1 wrote: a write-read dependency.'),
        row('rw', 'T1 read a version that T2 then overwrote: an anti-dependency (T1 did not see T2\'s write).'),
        row('realtime', 'T1 completed before T2 began.'),
        row('process', 'T1 and T2 ran in that order in one client session (process).')),
      el('p', null, 'A label such as ', el('code', null, 'rw 3: 28 < 30'),
        ' names the edge kind, the key (3) and the versions: T1 read key 3 at the version ending in 28, and T2 wrote 30 after it.',
        ' Closing the arrows into a cycle is the contradiction: no order of the transactions satisfies every arrow.'));
  }

  function picture(v) {
    if (!v.svg) {
      return el('p', { class: 'muted', id: 'no-picture' },
        v.picture ? 'The picture was left out (too large).' : 'This finding is no cycle, so it has no picture.');
    }
    return el('img', {
      class: 'cycle', id: 'cycle', alt: 'the cycle of ' + v.type,
      src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(v.svg),
    });
  }

  function transactions(txns) {
    if (!txns.length) return el('p', { class: 'muted' }, 'The finding names no transaction.');
    return el('table', { id: 'txns' },
      el('thead', null, el('tr', null, ['Index', 'Process', 'Outcome', 'Micro-ops', 'Keys'].map(h => el('th', null, h)))),
      el('tbody', null, txns.map(t => el('tr', null,
        el('td', null, t.index), el('td', null, t.process), el('td', null, t.type),
        el('td', { class: 'mops' }, t.mops.map(m => el('code', null, m))),
        el('td', { class: 'keys' }, t.keys.map(k => el('code', null, k)))))));
  }

  function json(v) {
    let pretty = v.alertJson;
    try { pretty = JSON.stringify(JSON.parse(v.alertJson), null, 2); } catch (e) { /* shown as it came */ }
    const pre = el('pre', { id: 'finding-json' }, pretty);
    const note = el('span', { class: 'muted' });
    const copy = el('button', { type: 'button', id: 'copy-json' }, 'Copy JSON');
    copy.addEventListener('click', () => {
      const selectIt = () => {
        const range = document.createRange();
        range.selectNodeContents(pre);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        note.textContent = ' selected: press Ctrl-C to copy';
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(pretty).then(() => { note.textContent = ' copied'; }, selectIt);
      } else {
        selectIt();
      }
    });
    return [el('p', null, copy, note), pre];
  }

  // ---- One history ---------------------------------------------------------------------------------

  function historyPage(name) {
    document.title = 'isowatch history ' + historyName(name);
    const rows = [];
    append(clear(app), el('p', { class: 'muted' }, 'Loading…'));
    let pending = null;
    const refresh = () => {
      if (pending) return;
      pending = setTimeout(() => {
        pending = null;
        source.overview().then(o => renderHistory(name, o, rows));
      }, REPORT ? 0 : 300);
    };
    source.subscribe(f => {
      if (f.history === name) { rows.push(f); refresh(); }
    });
    refresh();
  }

  function renderHistory(name, overview, rows) {
    const h = overview.histories.find(x => x.history === name);
    if (!h) {
      append(clear(app), [el('h1', null, 'History ', historyName(name)),
        el('p', { id: 'missing' }, 'No finding of this history is held (yet).')]);
      return;
    }
    const newestFirst = rows.slice().sort((a, b) => b.detectedAtMs - a.detectedAtMs);
    const table = findingsTable('history-findings');
    append(table.tBodies[0], newestFirst.map(findingRow));
    const ruledOut = h.not.concat(h.alsoNot);
    append(clear(app), [
      el('h1', { id: 'history-name' }, 'History ', historyName(name)),
      el('dl', { class: 'facts' },
        el('dt', null, 'Findings'), el('dd', { id: 'history-findings-count' }, h.findings),
        h.agents && h.agents.length ? [el('dt', null, 'Agents'), el('dd', { id: 'history-agents' },
          h.agents.join(', '), ' (those whose transactions its findings name)')] : null,
        el('dt', null, 'Transactions checked'), el('dd', null, REPORT ? REPORT.report.stats.txns.toLocaleString('en')
          : 'not carried by alerts; see the job\'s transactions_checked metric'),
        el('dt', null, 'First detected'), el('dd', null, new Date(h.firstDetectedAtMs).toISOString()),
        el('dt', null, 'Last detected'), el('dd', null, new Date(h.lastDetectedAtMs).toISOString()),
        el('dt', null, 'Rules out'), el('dd', null, modelList(h))),
      el('h2', null, 'Models ruled out, and by which findings'),
      ruledOut.length ? el('table', { id: 'ruled-out' },
        el('thead', null, el('tr', null, el('th', null, 'Model'), el('th', null, 'Findings'))),
        el('tbody', null, ruledOut.map(m => el('tr', null,
          el('td', { class: h.not.includes(m) ? 'not' : '' }, m),
          el('td', null, (h.ruledOutBy[m] || []).map((id, i) =>
            [i ? ', ' : '', el('a', { href: links.finding(id) }, id.slice(0, 12))]))))))
        : el('p', { class: 'muted' }, 'None.'),
      el('h2', null, 'Elle\'s models'),
      el('div', { class: 'lattice', id: 'lattice' }, (overview.models || []).map(m =>
        el('span', { class: ruledOut.includes(m) ? 'out' : '', title: ruledOut.includes(m) ? 'ruled out' : 'not ruled out' }, m))),
      el('h2', null, 'Findings by type'),
      el('table', { id: 'history-types' }, el('tbody', null, Object.entries(h.types).map(([t, n]) =>
        el('tr', null, el('td', { class: 'type' }, t), el('td', null, n))))),
      el('h2', null, 'Findings over time'),
      timeline(newestFirst),
      el('h2', null, 'Findings'),
      table,
    ]);
  }

  // A bar per time bucket; the bucket is the smallest of a few round sizes giving at most 60 bars.
  function timeline(rows) {
    if (!rows.length) return el('p', { class: 'muted' }, 'None held.');
    const times = rows.map(r => r.detectedAtMs);
    const first = Math.min(...times);
    const last = Math.max(...times);
    const sizes = [1e3, 1e4, 6e4, 6e5, 36e5, 864e5, 6048e5];
    const size = sizes.find(s => (last - first) / s < 60) || sizes[sizes.length - 1];
    const start = Math.floor(first / size) * size;
    const counts = new Array(Math.floor((last - start) / size) + 1).fill(0);
    for (const t of times) counts[Math.floor((t - start) / size)]++;
    const max = Math.max(...counts);
    const w = 12, gap = 2, h = 80;
    const width = Math.max(240, counts.length * (w + gap));
    const chart = svgEl('svg', { class: 'timeline', id: 'timeline', width: width, height: h + 34,
      viewBox: '0 0 ' + width + ' ' + (h + 34), role: 'img' });
    counts.forEach((n, i) => {
      const barH = n ? Math.max(2, (n / max) * h) : 0;
      const bar = svgEl('rect', { x: i * (w + gap), y: h - barH, width: w, height: barH });
      bar.append(svgEl('title', {}, n + ' from ' + new Date(start + i * size).toISOString()));
      chart.append(bar);
    });
    chart.append(svgEl('text', { x: 0, y: h + 14 }, new Date(start).toISOString()));
    chart.append(svgEl('text', { x: 0, y: h + 28 }, 'bars of ' + (size / 1000) + ' s; highest ' + max));
    return chart;
  }

  // ---- Start ---------------------------------------------------------------------------------------

  document.getElementById('home').setAttribute('href', links.home);
  function show() {
    const r = route();
    if (r.page === 'finding' && r.id !== null) findingPage(r.id);
    else if (r.page === 'history' && r.name !== null) historyPage(r.name);
    else listPage();
  }
  if (REPORT) window.addEventListener('hashchange', show);
  show();
}());
