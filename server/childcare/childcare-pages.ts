/**
 * The childcare service's own documentation (spec 4.2 `/docs`, `/guide`, `/openapi.json` under
 * `/api/v1/childcare`): the machine description is the main OpenAPI document narrowed to the childcare paths
 * and the feed; the reference is the same page generator as /api/v1/docs; the guide is a browser page on
 * integrating the feed. All served offline: no external asset of any kind.
 */
import { escapeHtml } from '../../engine/entry/runtime.js';
import { DATA_BOUNDARIES, PRODUCT, PRODUCT_VERSION, WORKSHEET_BLANK, WORKSHEET_KEPT } from '../../engine/entry/childcare.js';
import { openApiDocument } from '../openapi/openapi.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The childcare paths of the OpenAPI document, with the components they use. */
export function childcareOpenApi(): Obj {
  const full = openApiDocument() as Obj;
  const paths = Object.fromEntries(Object.entries(full.paths as Obj).filter(([p]) => p.startsWith('/api/v1/childcare/') || p === '/api/v1/das'));
  // On a childcare key /api/v1/das is the childcare feed: described as such, with the parameters it takes.
  const listing = paths['/api/v1/das'].get as Obj;
  const feedParams = new Set(['state', 'since', 'page', 'per_page', 'cursor', 'X-Request-Id']);
  paths['/api/v1/das'] = {
    options: (full.paths as Obj)['/api/v1/das'].options,
    get: {
      ...listing,
      summary: 'The childcare feed (on a childcare key)',
      description: 'Every entitled childcare row, newest lodged first, with the DA fields and `childcare_pipeline_stage`, `childcare_works_type` and `observed_at`; `meta` carries the pages, the notices and the data boundaries. Follow `meta.pages.next` to the end; upsert on `id`, match on `council_reference`. `state` (one entitled state) and `since` (lodged on or after) narrow it. Counts against the key\'s childcare daily limit.',
      parameters: (listing.parameters as Obj[]).filter((x) => feedParams.has(x.name)),
      responses: { ...listing.responses, 200: { ...listing.responses[200], description: 'OK: the feed.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ChildcareFeed' } } } } },
    },
  };
  return {
    ...full,
    info: { ...full.info, title: 'propintel childcare market intelligence API', summary: `Product ${PRODUCT}, version ${PRODUCT_VERSION}: the childcare development pipeline as a feed, analyses, catchment analyses and exports.`, description: DATA_BOUNDARIES.join(' ') },
    paths,
  };
}

const esc = escapeHtml;

/** The integration guide (HTML, self-contained). */
export function childcareGuidePage(): string {
  const step = (title: string, body: string) => `<section><h2>${esc(title)}</h2>${body}</section>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Childcare pipeline feed: integration guide</title>
<style>
body{font:15px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:52rem;padding:1rem 1.5rem;color:#1b1f23}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d0d7de}
code,pre{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f3f4f6;border-radius:3px}code{padding:0 .25em}pre{padding:.75rem;overflow:auto}
.note{color:#57606a}
</style></head><body>
<h1>Integrating the childcare pipeline feed</h1>
<p>Product <code>${PRODUCT}</code>, version <code>${PRODUCT_VERSION}</code>. Pin both: they are in <code>/api/v1/childcare/schema</code> and in every analysis's <code>data.scope</code>. The reference is at <a href="/api/v1/childcare/docs">/api/v1/childcare/docs</a> and the machine description at <a href="/api/v1/childcare/openapi.json">/api/v1/childcare/openapi.json</a>.</p>
${step('1. Keep the key on a server', '<p>Every request carries <code>Authorization: Bearer &lt;API key&gt;</code>. The key must not appear in browser code, app bundles, URLs or shared spreadsheets. Check it with <code>GET /api/v1/childcare/schema</code>: a 200 shows its licence (status, expiry, allowed states, add-on); a 403 names what is wrong.</p>')}
${step('2. Page through the feed', '<p><code>GET /api/v1/das?per_page=100</code> with a childcare key returns the complete entitled childcare rows, newest lodged first. Follow <code>meta.pages.next</code> until it is <code>null</code>: it carries a cursor, so rows imported while you page neither repeat nor skip one. Add <code>since=YYYY-MM-DD</code> to fetch only rows lodged since a date, or <code>state</code> for one entitled state.</p><pre>next = "/api/v1/das?per_page=100"\nwhile next:\n    page = GET(base + next)\n    for row in page["data"]: upsert(row)\n    next = page["meta"]["pages"]["next"]</pre>')}
${step('3. Upsert on id, match on council_reference', '<p><code>id</code> is the upsert key: store each row under it and replace it when it comes again. <code>council_reference</code> is the match key to the council\'s own register and to third-party records. <code>childcare_pipeline_stage</code> (under_assessment, advertised, approved, refused, withdrawn, unknown) and <code>childcare_works_type</code> (new_centre, extension, change_of_use, alterations, other) are derived from council wording by documented rules, so you need not normalise each council\'s vocabulary; the council\'s own <code>status</code> text is kept beside them.</p>')}
${step('4. Poll with overlap', '<p>Poll daily with <code>since</code> set a week or two before your last run: councils publish late and correct entries, and upserts are idempotent, so overlap costs nothing. <code>since</code> filters on the <em>lodgement</em> date, so a later status change of an older application does not show in such a poll: the periodic full pass below picks those up. <code>observed_at</code> is when a row was last seen: best effort, not a deletion stream or a durable change cursor.</p>')}
${step('5. Reconcile periodically', `<p>Now and then, page through everything and compare with what you hold. <a href="/api/v1/childcare/reconciliation-helper">The reconciliation helper</a> (a Python 3 script, standard library only; it reads the key from <code>PROPINTEL_API_KEY</code> or <code>DALEADS_API_KEY</code>, or asks for it) writes a worksheet with ${WORKSHEET_KEPT.map((c) => `<code>${c}</code>`).join(', ')} and the blank columns ${WORKSHEET_BLANK.map((c) => `<code>${c}</code>`).join(', ')} for your team to fill. It never overwrites a worksheet without <code>--force</code>.</p>`)}
${step('6. Respect the limits', '<p>A 429 carries <code>Retry-After</code>: wait that long, do not fan out. 400 means an invalid date, location or polygon, or <code>include_access=true</code>; 422 a missing, unknown or otherwise bad parameter or body. Neither is worth retrying unchanged: the body\'s <code>error</code> and <code>parameter</code> say what to correct.</p>')}
${step('What the data is, and is not', `<ul>${DATA_BOUNDARIES.map((b) => `<li>${esc(b)}</li>`).join('')}</ul><p class="note">Keep the attribution and licence notices of each response with anything you show your customers.</p>`)}
</body></html>
`;
}
