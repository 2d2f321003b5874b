/**
 * `GET /playground`: one self-contained HTML page (inline CSS and script, no external request of any kind)
 * to try every DA-listing endpoint with the built-in demo key. It shows the request as a curl command, the
 * rows as a table, the JSON as sent, the RateLimit headers, and the error body of any refusal (a 429 says
 * when to try again).
 */
import { STATES } from '../../engine/entry/data.js';
import { CATEGORY_NAMES, DA_CATEGORIES, DA_LIMITS, STATUS_GROUPS } from '../../engine/entry/das.js';
import { PLAYGROUND_PER_MINUTE } from '../metering/request-limits.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const options = (values: readonly string[], labels: (v: string) => string = (v) => v) => ['<option value="">any</option>', ...values.map((v) => `<option value="${esc(v)}">${esc(labels(v))}</option>`)].join('');

/** The endpoints and their fields: name, label, input kind. */
const ENDPOINTS: { op: string; path: string; title: string; fields: [string, string, string][] }[] = [
  {
    op: 'list',
    path: '/v1/das',
    title: 'List applications',
    fields: [
      ['state', 'State', 'state'], ['council', 'Council (exact name)', 'text'], ['category', 'Category', 'category'], ['suburb', 'Suburb', 'text'],
      ['postcode', 'Postcode', 'text'], ['since', 'Lodged on or after', 'date'], ['until', 'Lodged on or before', 'date'], ['status_group', 'Status group', 'status'],
      ['is_residential', 'Residential', 'bool'], ['per_page', 'Per page', 'number'], ['page', 'Page', 'number'],
    ],
  },
  {
    op: 'nearby',
    path: '/v1/das/nearby',
    title: 'Near a point',
    fields: [['lat', 'Latitude', 'text'], ['lng', 'Longitude', 'text'], ['radius_km', `Radius, km (default ${DA_LIMITS.radiusKm.default}, max ${DA_LIMITS.radiusKm.max})`, 'text'], ['category', 'Category', 'category'], ['since', 'Lodged on or after', 'date'], ['status_group', 'Status group', 'status'], ['per_page', 'Per page', 'number'], ['page', 'Page', 'number']],
  },
  { op: 'get', path: '/v1/das/{id}', title: 'One application', fields: [['id', 'Application id', 'text']] },
  { op: 'categories', path: '/v1/categories', title: 'Categories', fields: [['state', 'State', 'state']] },
  { op: 'councils', path: '/v1/councils', title: 'Councils', fields: [['state', 'State', 'state']] },
  { op: 'stats', path: '/v1/stats', title: 'Statistics', fields: [] },
];

function field([name, label, kind]: [string, string, string], op: string): string {
  const id = `${op}-${name}`;
  let input: string;
  switch (kind) {
    case 'state':
      input = `<select id="${id}" name="${name}">${options(STATES)}</select>`;
      break;
    case 'category':
      input = `<select id="${id}" name="${name}">${options(DA_CATEGORIES, (c) => CATEGORY_NAMES[c as keyof typeof CATEGORY_NAMES])}</select>`;
      break;
    case 'status':
      input = `<select id="${id}" name="${name}">${options(STATUS_GROUPS)}</select>`;
      break;
    case 'bool':
      input = `<select id="${id}" name="${name}">${options(['true', 'false'], (v) => (v === 'true' ? 'residential only' : 'non-residential only'))}</select>`;
      break;
    case 'date':
      input = `<input id="${id}" name="${name}" type="date">`;
      break;
    case 'number':
      input = `<input id="${id}" name="${name}" type="number" min="1"${name === 'per_page' ? ` max="${DA_LIMITS.perPage.max}" placeholder="${DA_LIMITS.perPage.default}"` : ' placeholder="1"'}>`;
      break;
    default:
      input = `<input id="${id}" name="${name}" type="text" autocomplete="off">`;
  }
  return `<label for="${id}">${esc(label)}${input}</label>`;
}

const SCRIPT = `
const KEY = document.body.dataset.key;
const out = { status: document.getElementById('status'), message: document.getElementById('message'), curl: document.getElementById('curl'), rows: document.getElementById('rows'), json: document.getElementById('json'), next: document.getElementById('next') };
let nextPath = null;
function show(id) {
  for (const f of document.querySelectorAll('form.endpoint')) f.hidden = f.dataset.op !== id;
  for (const b of document.querySelectorAll('nav button')) b.setAttribute('aria-pressed', String(b.dataset.op === id));
}
function pathOf(form) {
  let path = form.dataset.path;
  const q = new URLSearchParams();
  for (const el of form.elements) {
    if (!el.name || el.value === '') continue;
    if (el.name === 'id') path = path.replace('{id}', encodeURIComponent(el.value.trim()));
    else q.set(el.name, el.value.trim());
  }
  if (path.includes('{id}')) path = path.replace('{id}', '');
  const s = q.toString();
  return s ? path + '?' + s : path;
}
function cell(v) {
  const td = document.createElement('td');
  td.textContent = v === null || v === undefined ? '' : String(v);
  return td;
}
function table(doc) {
  out.rows.replaceChildren();
  const data = doc && doc.data;
  let rows = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [];
  if (data && !Array.isArray(data) && data.by_state) rows = Object.entries(data.by_state).map(([state, count]) => ({ state, count }));
  if (!rows.length) return;
  const preferred = ['id', 'lodgement_date', 'council_name', 'address', 'address_suburb', 'state', 'trade_category', 'status', 'status_group', 'distance_km', 'description', 'slug', 'name', 'count', 'last_updated', 'geocoded_pct', 'status_present_pct', 'summary'];
  const cols = preferred.filter((c) => rows.some((r) => c in r));
  const head = document.createElement('tr');
  for (const c of cols) { const th = document.createElement('th'); th.textContent = c; head.append(th); }
  out.rows.append(head);
  for (const r of rows) { const tr = document.createElement('tr'); tr.className = 'row'; for (const c of cols) tr.append(cell(r[c])); out.rows.append(tr); }
}
async function send(path) {
  out.message.hidden = true;
  out.curl.textContent = "curl -H 'Authorization: Bearer " + KEY + "' '" + location.origin + path + "'";
  out.status.textContent = 'sending ' + path + ' ...';
  let res, doc = null;
  try {
    res = await fetch(path, { headers: { Authorization: 'Bearer ' + KEY } });
    doc = await res.json();
  } catch (err) {
    out.status.textContent = 'the request failed: ' + err.message;
    return;
  }
  const remaining = res.headers.get('RateLimit-Remaining'), limit = res.headers.get('RateLimit-Limit'), reset = res.headers.get('RateLimit-Reset');
  out.status.textContent = res.status + ' ' + res.statusText + (limit ? ' \\u00b7 ' + remaining + ' of ' + limit + ' requests left this minute (resets in ' + reset + ' s)' : '');
  out.json.textContent = JSON.stringify(doc, null, 2);
  nextPath = doc && doc.meta && doc.meta.pages && doc.meta.pages.next ? doc.meta.pages.next.replace(/^\\/api/, '') : null;
  out.next.hidden = !nextPath;
  if (res.ok) {
    table(doc);
    const p = doc.meta && doc.meta.pages;
    if (p) out.status.textContent += ' \\u00b7 page ' + p.page + ' of ' + p.total_pages + ', ' + p.total + ' records';
    return;
  }
  out.rows.replaceChildren();
  out.message.hidden = false;
  out.message.className = res.status === 429 ? 'limit' : 'error';
  out.message.textContent = res.status === 429
    ? 'Demo limit reached: ' + doc.message + '.'
    : 'Refused (' + res.status + ' ' + doc.error + '): ' + doc.message;
}
for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => show(b.dataset.op));
for (const f of document.querySelectorAll('form.endpoint')) f.addEventListener('submit', (e) => { e.preventDefault(); send(pathOf(f)); });
out.next.addEventListener('click', () => { if (nextPath) send(nextPath); });
show('list');
`;

const STYLE = `
:root { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2329; background: #f6f7f8; }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
p.lead { margin: 0 0 1rem; color: #48525c; }
nav { display: flex; flex-wrap: wrap; gap: .4rem; margin-bottom: 1rem; }
nav button { border: 1px solid #b8c0c8; background: #fff; border-radius: 4px; padding: .4rem .8rem; cursor: pointer; font: inherit; }
nav button[aria-pressed="true"] { background: #1f5c99; color: #fff; border-color: #1f5c99; }
form.endpoint { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: .3rem 1rem; background: #fff; padding: 1rem; border: 1px solid #d8dde2; border-radius: 6px; }
form.endpoint[hidden] { display: none; }
form.endpoint label { font-size: .8rem; color: #48525c; grid-column: auto; display: flex; flex-direction: column; }
form.endpoint input, form.endpoint select { font: inherit; padding: .3rem; border: 1px solid #b8c0c8; border-radius: 3px; }
form.endpoint .actions { grid-column: 1 / -1; }
form.endpoint button { font: inherit; padding: .45rem 1.2rem; background: #1f5c99; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
#status { margin: 1rem 0 .3rem; font-weight: 600; }
#message { padding: .7rem 1rem; border-radius: 4px; margin: .5rem 0; }
#message.limit { background: #fff4d6; border: 1px solid #e0b44a; }
#message.error { background: #fde8e8; border: 1px solid #d77; }
code#curl { display: block; background: #1d2329; color: #e8edf2; padding: .6rem; border-radius: 4px; overflow-x: auto; white-space: pre; font-size: .8rem; }
table { border-collapse: collapse; width: 100%; margin: .8rem 0; background: #fff; font-size: .85rem; }
th, td { border: 1px solid #d8dde2; padding: .3rem .45rem; text-align: left; vertical-align: top; }
th { background: #eef1f4; }
details { margin-top: .8rem; }
pre#json { background: #fff; border: 1px solid #d8dde2; padding: .6rem; overflow: auto; max-height: 28rem; font-size: .78rem; }
`;

/** The playground page with `demoKey` built in. */
export function renderPlaygroundPage(options: { demoKey: string }): string {
  const forms = ENDPOINTS.map(
    (e) =>
      `<form class="endpoint" data-op="${e.op}" data-path="${esc(e.path)}" hidden><p class="actions"><strong>GET ${esc(e.path)}</strong>: ${esc(e.title)}</p>${e.fields.map((f) => field(f, e.op)).join('')}<p class="actions"><button type="submit" id="send-${e.op}">Send</button></p></form>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>propintel DA listing playground</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body data-key="${esc(options.demoKey)}">
<h1>DA listing playground</h1>
<p class="lead">Development applications from the councils this server holds, through the real API. Requests use a public demo key that reaches only the DA listing and allows ${PLAYGROUND_PER_MINUTE} requests a minute from your address; for your own use, call the API from a server with your own key (never put a key in a page).</p>
<nav>${ENDPOINTS.map((e) => `<button type="button" data-op="${e.op}" aria-pressed="false">${esc(e.title)}</button>`).join('')}</nav>
${forms}
<p id="status" aria-live="polite">Choose an endpoint, fill in any filters and press Send.</p>
<p id="message" role="alert" hidden></p>
<code id="curl"></code>
<table id="rows" aria-label="results"></table>
<button type="button" id="next" hidden>Next page</button>
<details><summary>Response JSON</summary><pre id="json"></pre></details>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
