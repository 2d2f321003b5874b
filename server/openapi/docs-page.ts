/**
 * The human-readable API reference (/api/v1/docs): one self-contained HTML page generated from the OpenAPI
 * document, with inline styles and no scripts or external assets, so it works offline and behind firewalls.
 */
import { escapeHtml } from '../../engine/entry/runtime.js';

type Obj = Record<string, any>;

const esc = escapeHtml;
/** Markdown-ish: `code` spans and paragraphs only. */
const text = (s: unknown) => esc(s).split(/\n\n+/).map((p) => `<p>${p.replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`).join('');

function schemaSummary(s: Obj | undefined): string {
  if (!s) return '';
  const parts: string[] = [];
  if (s.type) parts.push(Array.isArray(s.type) ? s.type.join(' | ') : s.type);
  if (s.enum) parts.push(`one of ${s.enum.map((v: unknown) => `<code>${esc(v)}</code>`).join(', ')}`);
  if (s.minimum !== undefined) parts.push(`min ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) parts.push(`above ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined) parts.push(`max ${s.maximum}`);
  if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} characters`);
  if (s.default !== undefined) parts.push(`default <code>${esc(s.default)}</code>`);
  return parts.join(', ');
}

function refName(schema: Obj | undefined): string | null {
  const ref = schema?.$ref ?? schema?.allOf?.[0]?.$ref;
  return typeof ref === 'string' ? ref.split('/').pop()! : null;
}

function topLevelFields(doc: Obj, name: string): string {
  const s = doc.components.schemas[name];
  const inner = s?.allOf?.[0] ?? s;
  if (!inner?.properties) return '';
  const required = new Set<string>([...(inner.required ?? []), ...(s.allOf?.[1]?.required ?? [])]);
  const rows = Object.entries(inner.properties as Obj).map(([k, v]) => `<tr><td><code>${esc(k)}</code></td><td>${required.has(k) ? 'always' : 'when applicable'}</td><td>${schemaSummary(v) || (v.properties ? `object: ${Object.keys(v.properties).map((p) => `<code>${esc(p)}</code>`).join(', ')}` : 'object')}</td></tr>`);
  return `<table><thead><tr><th>field</th><th>present</th><th>shape</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Renders the page. */
export function renderDocsPage(doc: Obj, machinePath = '/api/v1/openapi.json', guides: readonly { title: string; path: string }[] = []): string {
  const ops: string[] = [];
  const toc: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Obj)) {
    for (const [method, opObj] of Object.entries(item as Obj)) {
      // The CORS preflight is one rule for every path, said once in the description above.
      if (method === 'options') continue;
      const op = opObj as Obj;
      const verb = method.toUpperCase();
      const anchor = op.operationId;
      toc.push(`<li><a href="#${esc(anchor)}"><code>${verb} ${esc(path)}</code></a> ${esc(op.summary)}</li>`);
      const security = (op.security ?? []) as Obj[];
      const keyed = security.length > 0;
      // An empty requirement beside the bearer one: the key is needed only sometimes (the description says when).
      const optional = keyed && security.some((r) => Object.keys(r).length === 0);
      const params = (op.parameters ?? []).filter((p: Obj) => p.in === 'query' || p.in === 'path');
      const paramTable = params.length
        ? `<table><thead><tr><th>parameter</th><th>type and limits</th><th>meaning</th></tr></thead><tbody>${params.map((p: Obj) => `<tr><td><code>${esc(p.in === 'path' ? `{${p.name}}` : p.name)}</code>${p.required ? ' (required)' : ''}</td><td>${schemaSummary(p.schema)}</td><td>${text(p.description)}</td></tr>`).join('')}</tbody></table><p class="note">Any other parameter, or one given twice, is refused with 422.</p>`
        : '<p class="note">Takes no query parameters; any parameter is refused with 422.</p>';
      const responses = Object.entries(op.responses as Obj).map(([status, r]) => {
        const schema = (r as Obj).content?.['application/json']?.schema;
        const codes = schema?.allOf?.[1]?.properties?.error?.enum as string[] | undefined;
        const ref = refName(schema);
        return `<tr><td>${esc(status)}</td><td>${text((r as Obj).description)}${codes ? `<p>error: ${codes.map((c) => `<code>${esc(c)}</code>`).join(', ')}</p>` : ''}${ref && !codes ? `<p>body: <a href="#schema-${esc(ref)}">${esc(ref)}</a></p>` : ''}${(r as Obj).headers ? `<p>headers: ${Object.keys((r as Obj).headers).map((h) => `<code>${esc(h)}</code>`).join(', ')}</p>` : ''}</td></tr>`;
      });
      const bodyRef = refName(op.requestBody?.content?.['application/json']?.schema);
      const bodyNote = bodyRef ? `<p>Body: JSON, <a href="#schema-${esc(bodyRef)}">${esc(bodyRef)}</a> (at most 64 KiB).</p>` : '';
      ops.push(`<section id="${esc(anchor)}"><h3><span class="verb">${verb}</span> <code>${esc(path)}</code></h3><p class="auth">${optional ? 'Key: <code>Authorization: Bearer &lt;API key&gt;</code> where the description says so.' : keyed ? 'Key required: <code>Authorization: Bearer &lt;API key&gt;</code>' : 'No key needed.'}</p>${text(op.description)}${bodyNote}${paramTable}<table><thead><tr><th>status</th><th>meaning</th></tr></thead><tbody>${responses.join('')}</tbody></table></section>`);
    }
  }
  const schemas = ['PropertyPayload', 'CorePayload', 'Usage', 'Sandbox', 'QuotaExceeded', 'DaList', 'DaNearby', 'DaDetail', 'DaCategories', 'DaCouncils', 'DaStats', 'DaLimitExceeded', 'WebhookCreate', 'WebhookSubscription', 'WebhookEvent', 'Error'].map((n) => `<section id="schema-${n}"><h3>${n}</h3>${topLevelFields(doc, n)}</section>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1b1f23}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-bottom:1px solid #d0d7de}h3{margin-top:2rem}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f3f4f6;padding:0 .25em;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.75rem 0}th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td p{margin:.2rem 0}.verb{background:#0969da;color:#fff;border-radius:3px;padding:0 .4em;font-size:.8em}
.auth{color:#57606a}.note{color:#57606a;font-size:.9em}
</style></head><body>
<h1>${esc(doc.info.title)}</h1>
<p>Interface version <code>${esc(doc.info.version)}</code>, OpenAPI ${esc(doc.openapi)}. Machine-readable: <a href="${esc(machinePath)}"><code>${esc(machinePath)}</code></a>.</p>
${text(doc.info.summary)}${text(doc.info.description)}
${guides.length ? `<h2>Guides</h2><ul>${guides.map((g) => `<li><a href="${esc(g.path)}">${esc(g.title)}</a></li>`).join('')}</ul>` : ''}
<h2>Endpoints</h2><ul>${toc.join('')}</ul>
${ops.join('\n')}
<h2>Schemas</h2><p>Top-level fields; the full JSON Schemas are in the OpenAPI document under <code>components.schemas</code>.</p>
${schemas.join('\n')}
</body></html>
`;
}
