/**
 * The childcare routes (childcare spec): the feed on /api/v1/das for a childcare key, /schema, /analysis,
 * /site-analysis (GET, and POST with a polygon), /export, /reconciliation-helper and /report (PDF or HTML
 * rendered on the worker pool, a few at once).
 */
import { VERSION } from '../../engine/index.js';
import type { PropertyService } from '../../engine/entry/property.js';
import { reconciliationHelperScript, siteAnalysis, type SiteRequest, reportContentType, type ReportFile, reportFilename } from '../../engine/entry/childcare.js';
import type { MaybePromise } from '../maybe-promise.js';
import { chain } from '../maybe-promise.js';
import { limitDaRequest } from '../metering/request-limits.js';
import type { ApiKeyRecord } from '../store/store.js';
import { ApiError, RETRY_AFTER_S, toApiError } from '../http/api-error.js';
import { DEFAULT_REPORT_CONCURRENCY, jsonAnswer, type AbortSource, refuseLargeBody, requireDas, withLimits, type ApiContext, type ApiRequest, type ApiResponse, type ReportService } from './api-types.js';
import { type ChildcareOperation, analysisDocument, childcareFeed, childcareLicence, childcareSchema, exportFile, polygonSiteAnalysis, refuseIncludeAccess, siteAnalysisDocument, siteRequestFromBody, siteRequestFromQuery } from './childcare-handlers.js';
import { decodeQuery, rejectUnknown } from './query.js';
import { ReportSlots } from './report-slots.js';
import { childcareDoc, childcarePostDoc } from './page-docs.js';
import type { RouteOperation, RouteValue } from './route-value.js';

/** The childcare routes of one API. */
export class ChildcareRoutes {
  /** Report renders: how many at once, shared fairly between keys. */
  private readonly slots: ReportSlots;

  constructor(
    private readonly ctx: ApiContext,
    reportConcurrency = DEFAULT_REPORT_CONCURRENCY,
  ) {
    this.slots = new ReportSlots(Math.max(1, reportConcurrency));
  }

  /**
   * A childcare request: the licence (403 with its reason) -> the key's daily limit when it has one (429)
   * -> parameters (400 / 422) -> 200.
   */
  request(req: ApiRequest, op: ChildcareOperation | 'feed', key: ApiKeyRecord, client: string, abort?: AbortSource): MaybePromise<ApiResponse> {
    const now = this.ctx.clock();
    childcareLicence(key, now);
    const das = requireDas(this.ctx);
    const limited = limitDaRequest(this.ctx.store, key, client, now, 'childcare');
    return chain(limited, (limits) =>
      withLimits(limits, (): MaybePromise<ApiResponse> => {
        const p = decodeQuery(req.query);
        if (op === 'site-analysis' && req.method === 'POST') {
          refuseLargeBody(req);
          return jsonAnswer(polygonSiteAnalysis(das(), key, now, p, req.path, req.body, this.ctx.childcareWorld), req.acceptEncoding, limits);
        }
        if (op === 'report') return this.reportAnswer(req, key, now, p, limits, abort);
        if (op === 'export') {
          const file = exportFile(das(), key, now, p, req.path, this.ctx.notices);
          // The notices travel with the file: in GeoJSON's metadata, and for CSV (which has no place for them)
          // in these headers, ASCII only as HTTP requires.
          const ascii = (t: string) => t.replace(/[^\x20-\x7e]/g, '?');
          const noticeHeaders = { 'X-Data-Attribution': ascii(file.notices.map((n) => n.attribution).join(' | ')), 'X-Data-Licence': ascii(file.notices.map((n) => `${n.source}: ${n.licence}`).join(' | ')) };
          return { status: 200, contentType: file.contentType, headers: { ...limits, ...noticeHeaders, 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${file.filename}"` }, body: '', stream: file.stream };
        }
        if (op === 'reconciliation-helper') {
          refuseIncludeAccess(p);
          rejectUnknown(p, [], req.path);
          return { status: 200, contentType: 'text/x-python; charset=utf-8', headers: { ...limits, 'Cache-Control': 'no-store', 'Content-Disposition': 'attachment; filename="propintel_reconciliation_helper.py"' }, body: reconciliationHelperScript(VERSION) };
        }
        const doc =
          op === 'schema'
            ? (refuseIncludeAccess(p), rejectUnknown(p, [], req.path), childcareSchema(key, now, this.ctx.notices))
            : op === 'analysis'
              ? analysisDocument(das(), key, now, p, req.path, this.ctx.notices)
              : op === 'site-analysis'
                ? siteAnalysisDocument(das(), key, now, p, req.path, this.ctx.childcareWorld)
                : childcareFeed(das(), key, now, p, req.path, this.ctx.notices);
        return jsonAnswer(doc, req.acceptEncoding, limits);
      }),
    );
  }

  /**
   * `GET|POST /api/v1/childcare/report`: the request checked as /site-analysis checks it (same statuses), then
   * rendered on the worker pool, at most `reportConcurrency` at once and a key at most half of them (report-slots.ts:
   * a report that cannot start waits up to 10 s for a slot, then 429 `renderer_busy`); a
   * renderer failure is 503 with Retry-After and the advice to use the JSON or CSV meanwhile.
   */
  async reportAnswer(req: ApiRequest, key: ApiKeyRecord, now: Date, p: Map<string, string>, limits: Record<string, string>, abort?: AbortSource): Promise<ApiResponse> {
    try {
      const format = (p.get('format') ?? '').toLowerCase();
      if (format !== 'pdf' && format !== 'html') throw new ApiError(p.has('format') ? 'invalid_parameter' : 'missing_parameter', `format must be pdf or html${p.has('format') ? `, not ${JSON.stringify(String(p.get('format')).slice(0, 20))}` : ''}`, { parameter: 'format' });
      let site: SiteRequest;
      if (req.method === 'POST') {
        refuseLargeBody(req);
        site = siteRequestFromBody(key, now, p, req.path, req.body, this.ctx.childcareWorld, ['format']);
      } else site = siteRequestFromQuery(key, now, p, req.path, this.ctx.childcareWorld, ['format']);
      const disposition = (filename: string) => `${format === 'pdf' ? 'attachment' : 'inline'}; filename="${filename}"`;
      // The HTML is shown inline: the same no-request policy as its meta tag, as a header too.
      const headers = { ...limits, ...(format === 'html' ? { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:", 'X-Content-Type-Options': 'nosniff' } : {}), 'Cache-Control': 'no-store' };
      const contentType = reportContentType(format);
      const service = this.ctx.service as PropertyService & { childcare?: { report?: ReportService } };
      const render = service.childcare?.report;
      if (typeof render !== 'function') throw new ApiError('renderer_unavailable', 'this server has no report renderer; use /site-analysis (JSON) or /export (CSV) meanwhile', { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
      // HEAD: the request checked and counted as GET's, the GET's headers, and nothing rendered (so it never
      // takes a render slot, and a busy renderer does not refuse it).
      if (req.method === 'HEAD') return { status: 200, contentType, headers: { ...headers, 'Content-Disposition': disposition(reportFilename({ state: site.state, circle: null, suburb: null, generatedAt: now.toISOString() }, format)) }, body: '', lengthUnknown: true };
      // A client that leaves while its report waits gives its place up (and is not rendered for).
      await this.slots.acquire(key.id, abort?.signal);
      let file: ReportFile;
      try {
        const data = siteAnalysis(this.ctx.das!(), this.ctx.childcareWorld, site);
        file = await render.call(service.childcare, site, format, { data, generatedAt: now });
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw new ApiError('renderer_failed', `the report could not be rendered (${(err as Error).message}); retry later, and use /site-analysis (JSON) or /export (CSV) meanwhile`, { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
      } finally {
        this.slots.release(key.id);
      }
      return { status: 200, contentType: file.contentType, headers: { ...headers, 'Content-Disposition': disposition(file.filename) }, body: file.body };
    } catch (err) {
      const e = toApiError(err);
      Object.assign(e.headers, limits);
      throw e;
    }
  }
}

/** One childcare operation: GET takes the query; POST (site analysis, report) a polygon body. */
function operation(method: 'GET' | 'POST', op: ChildcareOperation): RouteOperation<{ childcare: ChildcareRoutes }> {
  return {
    method,
    auth: 'key',
    doc: method === 'POST' ? childcarePostDoc(op as 'site-analysis' | 'report') : childcareDoc(op),
    handle: (c) => c.modules.childcare.request(c.req, op, c.key, c.client(), c.abort),
  };
}

/** The childcare market intelligence service (spec 4.2). */
export const CHILDCARE_ROUTES: readonly RouteValue<{ childcare: ChildcareRoutes }>[] = [
  {
    path: '/api/v1/childcare/schema',
    tag: 'Childcare',
    summary: 'Product, version, dimensions and paths; the key check',
    description: 'The childcare product (`childcare_market_intelligence`, `v1`), the key\'s licence (status, expiry, allowed states, add-on), the stable dimensions (pipeline stages, works types, states, breakdown keys) and every endpoint path. A 200 here means the key works for the childcare service.',
    operations: [operation('GET', 'schema')],
  },
  {
    path: '/api/v1/childcare/analysis',
    tag: 'Childcare',
    summary: 'Childcare pipeline analysis for the entitled states',
    description: 'The childcare DAs of `state` (default every entitled state) lodged since `since`: headline stage counts, a monthly trend with zero months, breakdowns by stage, works type, state, council and suburb, coverage diagnostics, demand signals (all development, subdivisions, lots, dwellings in the same scope) and map points (`feature_limit`, default 500, at most 5000: it limits map features only, never counts). Every answer carries the attribution notices and the data boundaries.',
    operations: [operation('GET', 'analysis')],
  },
  {
    path: '/api/v1/childcare/site-analysis',
    tag: 'Childcare',
    summary: 'Catchment analysis around a site',
    description: 'The analysis of /analysis within `radius_km` (0.1 to 30, default 5) of `lat`/`lng`, which must lie in `state` (required, and entitled). Records without coordinates are never in a catchment. `suburb` names the suburb whose census context is shown (a suburb fact, never a catchment statistic). `include_access=true` is 400.',
    operations: [operation('GET', 'site-analysis'), operation('POST', 'site-analysis')],
  },
  {
    path: '/api/v1/childcare/report',
    tag: 'Childcare',
    summary: 'A finished PDF or HTML report of a catchment, with its map',
    description: 'The site analysis of the same request (GET: `lat`, `lng`, `radius_km`, `state`, `suburb`; POST: the /site-analysis polygon body, `format` in the query) rendered as `format` pdf (a download) or html (one self-contained file: inline CSS and SVG, no external request). The map is drawn on the server from the dataset\'s own roads and water, with the catchment, the childcare DAs by stage, open schools, a legend, scale bar, north arrow and the attribution of every source drawn; the document carries the headline, trend, breakdowns, pipeline list, schools, suburb context, coverage, data boundaries and notices. Renders run on the worker pool, a few at a time (`--report-concurrency`, default 2): past that, 429 with Retry-After; a renderer failure is 503 with Retry-After (use the JSON or CSV meanwhile). Each report counts against the daily limit.',
    operations: [operation('GET', 'report'), operation('POST', 'report')],
  },
  {
    path: '/api/v1/childcare/export',
    tag: 'Childcare',
    summary: 'Download the childcare pipeline as CSV or GeoJSON',
    description: 'Every entitled childcare row of `state` (default every entitled state), `format` csv (default) or geojson, as a file (Content-Disposition: attachment). CSV text fields that a spreadsheet would run as a formula (starting with = + - @, tab, CR, LF or their full-width forms, also after leading spaces) are prefixed with an apostrophe; numbers stay numbers. GeoJSON is EPSG:4326 [lng, lat] with `metadata` (records, features, not geocoded, truncated) and the data boundaries.',
    operations: [operation('GET', 'export')],
  },
  {
    path: '/api/v1/childcare/reconciliation-helper',
    tag: 'Childcare',
    summary: 'A Python script that writes a reconciliation worksheet',
    description: 'A Python 3 script (standard library only) that pages through every row of the feed with the key from PROPINTEL_API_KEY (or DALEADS_API_KEY, or a hidden prompt) and writes a CSV worksheet: id, council_reference, stage, works type, observed_at, and blank columns customer_match, customer_source, customer_record_id, classification_review, review_notes. It refuses to overwrite a worksheet without --force and waits out 429s per Retry-After.',
    operations: [operation('GET', 'reconciliation-helper')],
  },
];
