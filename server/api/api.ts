/**
 * The HTTP API, independent of the transport: a request in (method, path, raw query, the headers it reads),
 * a response out. server/transport/ binds it to uWebSockets.js (the server) and to node:http (the benchmark's
 * reference), so both serve exactly the same handler.
 *
 * A keyed property request runs: authenticate (401) -> parse and validate the query (422) -> licence (403)
 * -> the lookup, from the response cache when the same request was answered before (503 / 422 from the
 * engine) -> meter (429) -> 200 with `usage`. A handler never lets an exception escape: everything becomes
 * the spec's error body through one table (api-error.ts).
 */
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { DaStore } from '../../engine/entry/das.js';
import type { MemoryReport } from '../../engine/index.js';
import { isEngineError, VERSION } from '../../engine/index.js';
import { checkLicence, type LicenceRefusal, type PropertyLicence, type PropertyOptions, type PropertyService, type PropertySubject, resolveOptions, validateSubject, LAYER_TTL_MS, SCORE_TTL_MS } from '../../engine/entry/property.js';
import { bearerToken, keyIdOf, keyMatches } from '../keys/api-key.js';
import { BillingPeriodCache, inOnboarding, type BillingPeriod } from '../metering/billing-period.js';
import { meterLookup, quotaExceeded } from '../metering/meter.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import type { DaEventSource } from '../webhooks/webhook-store.js';
import { documentationStamp, openApiDocument } from '../openapi/openapi.js';
import { renderDocsPage } from '../openapi/docs-page.js';
import { SILENT_LOG, type RequestLog } from '../request-log.js';
import type { ApiKeyRecord, ServerStore } from '../store/store.js';
import { hasDaListing, isPlaygroundKey, limitDaRequest } from '../metering/request-limits.js';
import { playgroundKey } from '../keys/playground-key.js';
import { renderPlaygroundPage } from '../playground/playground-page.js';
import { ApiError, badParameter, RETRY_AFTER_S, toApiError } from './api-error.js';
import { MAX_REQUEST_BODY, MAX_REQUEST_TARGET, SMALL_BODY } from './limits.js';
import { daDocument } from './da-handlers.js';
import { acceptsGzip, finishPayload, serialisePayload, staticBody, type StaticBody } from './payload-body.js';
import { decodeQuery, parsePropertyQuery, rejectUnknown, strictDecode } from './query.js';
import { payloadExpiry, ResponseCache, type CachedResponse } from './response-cache.js';
import { ROUTES, withHead, type ChildcareOperation, type DaOperation, type Route, type WebhookOperation } from './routes.js';
import { analysisDocument, childcareFeed, childcareLicence, childcareSchema, exportFile, polygonSiteAnalysis, refuseIncludeAccess, siteAnalysisDocument, siteRequestFromBody, siteRequestFromQuery } from './childcare-handlers.js';
import { reconciliationHelperScript, GENERIC_NOTICES, type NoticeLookup, type OpenSchool, siteAnalysis, type ChildcareWorld, type SiteRequest, reportContentType, type ReportFile, type ReportFormat, reportFilename } from '../../engine/entry/childcare.js';
import { childcareGuidePage, childcareOpenApi } from '../childcare/childcare-pages.js';
import { maplibreAsset, renderMapPage } from '../map/map-page.js';
import type { StateCode } from '../../engine/entry/data.js';
import { jsonBody, webhookOperation, type WebhookContext } from './webhook-handlers.js';
import { runSql } from './sql-handler.js';
import { SqlRunner } from '../../engine/entry/das.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export { MAX_REQUEST_BODY, MAX_REQUEST_TARGET, SMALL_BODY } from './limits.js';

/** A request as the API reads it (read synchronously by the transport). */
export interface ApiRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** The path, without the query string. */
  path: string;
  /** The raw query string (after `?`), or ''. */
  query: string;
  /** The Authorization header, or ''. */
  authorization: string;
  /** How many Authorization headers the request carried (more than one is refused); default 1 when `authorization` is set. */
  authorizationCount?: number;
  /** The client's X-Request-Id header, or ''. */
  requestId: string;
  /** The Accept-Encoding header, or '' (gzip is used when it is accepted). */
  acceptEncoding: string;
  /** The If-None-Match header, or '' (tiles answer 304 for a matching ETag). */
  ifNoneMatch?: string;
  /** The Host header, or '' (TileJSON's absolute tile URLs). */
  host?: string;
  /**
   * The peer's address (the playground's per-client limit), read on demand: a transport's request object is
   * valid only inside its callback, and `handle` calls this before anything is awaited.
   */
  remoteAddress?: () => string;
  /** The X-Real-IP header, or '' (read only with {@link ApiOptions.trustProxy}). */
  realIp?: string;
  /** The request body (methods other than GET and HEAD), when it was at most {@link MAX_REQUEST_BODY} bytes. */
  body?: Buffer;
  /** The body was longer than {@link MAX_REQUEST_BODY} (it was not kept): the answer is 413. */
  bodyTooLarge?: boolean;
  /** The Content-Type header, or ''. */
  contentType?: string;
  /** The Accept header (read for requests with a body), or ''. */
  accept?: string;
  /** The MCP-Protocol-Version header (read for requests with a body), or ''. */
  mcpProtocolVersion?: string;
}


/** A response to write. */
export interface ApiResponse {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  /** One buffer or string, or parts to send in order (not joined: transports write them as they are). */
  body: Buffer | string | readonly Buffer[];
  /** A HEAD request: write the status and headers (with the body's Content-Length) but not the body. */
  omitBody?: boolean;
  /**
   * With `omitBody`: the length is known only once the body is made (a streamed file; a payload or report that
   * HEAD does not compute), so no Content-Length is written (RFC 9110 section 9.3.2 allows leaving it out).
   */
  lengthUnknown?: boolean;
  /**
   * A streamed body (a file download): chunks made one at a time as the transport can send them, with
   * backpressure, so memory stays flat whatever the size; `body` is then ignored. Sent chunked (no length).
   */
  stream?: () => Iterator<Buffer>;
}


/** Options of {@link Api}. */
/** Reports rendered at once by default (each is one worker thread for ~0.1 s; beyond it, 429). */
export const DEFAULT_REPORT_CONCURRENCY = 2;
/** Seconds a client waits before retrying a busy renderer. */
export const REPORT_RETRY_AFTER_S = 2;

/** The engine's tile calls as the server uses them. */
interface TileService {
  tile(layer: string, z: number, x: number, y: number): Promise<{ bytes: Uint8Array | null; sources: string[] }>;
  /** Terrain tiles (Terrarium PNG), where the service makes them. */
  terrainTile?(z: number, x: number, y: number): Promise<{ bytes: Uint8Array; sources: string[] }>;
  terrainLayer?(): { id: string; description: string; minzoom: number; maxzoom: number; encoding: string; tileSize: number } | null;
  tileLayers(): { id: string; description: string; minzoom: number; maxzoom: number; fields: Record<string, string> }[];
  tileBounds(): [number, number, number, number];
  tileAttribution(layer: string): string;
}

/** The engine's report call as the server uses it. */
type ReportService = (req: SiteRequest, format: ReportFormat, options: { data?: Record<string, unknown>; generatedAt?: Date }) => Promise<ReportFile>;

export interface ApiOptions {
  /** Childcare reports rendered at once (default {@link DEFAULT_REPORT_CONCURRENCY}); past it, 429. */
  reportConcurrency?: number;
  /** The property engine (or anything implementing its contract). */
  service: PropertyService;
  /** Keys, meter and caches. */
  store: ServerStore;
  /** The time used for billing periods and caches (injectable for tests); default the system clock. */
  clock?: () => Date;
  /** Request and error log; default silent. */
  log?: RequestLog;
  /** Bytes of finished payloads kept for repeat requests (default 128 MiB; 0 disables the cache). */
  responseCacheBytes?: number;
  /** The DA store the listing serves; default the service's own `das()` (the engine's), else none (503). */
  das?: () => DaStore;
  /**
   * Behind a reverse proxy on this machine (deploy/nginx/propintel.conf): take the client's address from
   * X-Real-IP when the peer is a loopback address, for the playground's per-client limit. Default false:
   * the header is ignored (a client could otherwise claim any address).
   */
  trustProxy?: boolean;
  /** Serve /playground with its public demo key (default true). */
  playground?: boolean;
  /**
   * The read-only SQL runner (`POST /v1/sql`, MCP `sql_query`); default one made on first use, with its
   * mirror of the DA table in a temporary file.
   */
  sql?: SqlRunner;
  /** Open-school points of a state (childcare site analysis); default the service's own `openSchools`, else none held. */
  openSchools?: (state: StateCode) => OpenSchool[] | null;
  /** The state at a point (childcare site analysis); default the service's own `stateAt`, else none. */
  stateAt?: (lng: number, lat: number) => StateCode | null;
  /** Webhooks: the delivery worker (for pings) and the address rules (default: public https URLs only). */
  webhooks?: Partial<Pick<WebhookContext, 'dispatcher' | 'allowPrivate' | 'resolve'>> & {
    /** Where new subscriptions take their starting event position; default the DA store's own outbox. */
    events?: () => DaEventSource;
  };
  /**
   * Awaited before each request is routed: a replica on a shared database brings its local copy of the DA
   * records up to the database's latest write here (server/store/pg/da-replica.ts), so an import made
   * through any replica is seen by the next request to every replica. Default none.
   */
  beforeRequest?: () => MaybePromise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const DA_ID_PATH = /^(\/api)?\/v1\/das\/([^/]+)$/;
const TILE_PATH = /^\/api\/v1\/tiles\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\.(mvt|png)$/;
const TILEJSON_PATH = /^\/api\/v1\/tiles\/([^/]+)\.json$/;
const WEBHOOK_ID_PATH = /^(\/api)?\/v1\/webhooks\/([^/]+)(\/test|\/deliveries)?$/;
/** 127.0.0.0/8 and ::1, as text from either transport (uWS writes IPv4-mapped IPv6 in full hex). */
function isLoopback(address: string): boolean {
  return /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address) || /^0000:0000:0000:0000:0000:ffff:7f/i.test(address) || address === '0000:0000:0000:0000:0000:0000:0000:0001';
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;



/**
 * A tile's ETag and gzipped bytes, kept beside the tile while the engine's cache holds it: the engine answers a
 * cached tile with the same bytes object, so a cached tile is hashed and compressed once, not per request.
 */
const tileEncodings = new WeakMap<Uint8Array, { etag: string; gzip?: Buffer }>();

/** `doc` as a no-store JSON answer with `headers`, gzipped above 1 KiB when the client accepts gzip. */
function jsonAnswer(doc: unknown, acceptEncoding: string, headers: Record<string, string>): ApiResponse {
  const json = Buffer.from(JSON.stringify(doc));
  const gzip = acceptsGzip(acceptEncoding) && json.length > 1024;
  const out: Record<string, string> = { ...headers, 'Cache-Control': 'no-store', Vary: 'Accept-Encoding' };
  if (gzip) out['Content-Encoding'] = 'gzip';
  return { status: 200, contentType: JSON_TYPE, headers: out, body: gzip ? gzipSync(json, { level: 4 }) : json };
}

/** The headers of a property payload. */
function payloadHeaders(gzip: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', Vary: 'Accept-Encoding' };
  if (gzip) headers['Content-Encoding'] = 'gzip';
  return headers;
}

/** Runs `answer`; the rate-limit headers of the request ride on any error it throws as well. */
function withLimits<T>(limits: Record<string, string>, answer: () => T): T {
  try {
    return answer();
  } catch (err) {
    const e = toApiError(err);
    Object.assign(e.headers, limits);
    throw e;
  }
}

/** Whether the client went away; `signal` is made on demand (server/transport/lazy-abort.ts). */
export interface AbortSource {
  readonly aborted: boolean;
  readonly signal: AbortSignal;
}

interface ValidQuery {
  subject: PropertySubject;
  options: PropertyOptions;
  canonical: string;
  /** Per licence: the licence check's outcome and the response cache key. */
  byLicence: Map<string, { refusal: LicenceRefusal | null; base: string }>;
}

const clientClosed = () => new ApiError('client_closed', 'the client closed the request');

interface PendingLookup {
  promise: Promise<CachedResponse>;
  controller: AbortController;
  waiters: number;
}

/** The API. */
export class Api {
  /** Requests being answered now (graceful shutdown waits for 0). */
  inFlight = 0;
  /** Named in /healthz (`server`); the transport sets it, e.g. `uWebSockets.js`. */
  transport = 'unknown';
  /**
   * While the engine warms up (models, HAND tiles; `propintel serve` starts it in the background), /healthz
   * says `warming` with this text as `warming`; null once ready. Requests are answered either way.
   */
  warming: string | null = null;
  private readonly service: PropertyService;
  private readonly store: ServerStore;
  private readonly clock: () => Date;
  private readonly log: RequestLog;
  private readonly routes = new Map<string, Route>();
  private readonly responses: ResponseCache;
  private readonly pending = new Map<string, PendingLookup>();
  private readonly periods = new BillingPeriodCache();
  private readonly queries = new Map<string, ValidQuery>();
  private readonly statics = new Map<string, Promise<StaticBody | null>>();
  private readonly staticsDone = new Map<string, StaticBody | null>();
  private readonly bootId = randomBytes(4).toString('hex');
  private counter = 0;
  private readonly documentation = documentationStamp();
  private readonly das: (() => DaStore) | null;
  private readonly playground: boolean;
  private readonly trustProxy: boolean;
  private readonly webhookOptions: ApiOptions['webhooks'];
  private readonly beforeRequest: ApiOptions['beforeRequest'];
  private readonly stateAt: (lng: number, lat: number) => StateCode | null;
  private readonly openSchools: (state: StateCode) => OpenSchool[] | null;
  /** What a childcare site analysis reads besides the DA store. */
  private readonly childcareWorld: ChildcareWorld;
  /** Reports rendering now, and how many may at once. */
  private reportsInFlight = 0;
  private readonly reportConcurrency: number;
  private readonly notices: NoticeLookup;
  private sqlRunner: SqlRunner | undefined;
  private ownSqlRunner: SqlRunner | undefined;

  constructor(options: ApiOptions) {
    this.service = options.service;
    const service = options.service as PropertyService & { das?: () => DaStore };
    this.das = options.das ?? (typeof service.das === 'function' ? () => service.das!() : null);
    this.playground = options.playground ?? true;
    this.trustProxy = options.trustProxy ?? false;
    this.webhookOptions = options.webhooks;
    this.beforeRequest = options.beforeRequest;
    const withState = options.service as PropertyService & { stateAt?: (lon: number, lat: number) => StateCode | null };
    this.stateAt = options.stateAt ?? (typeof withState.stateAt === 'function' ? (lng, lat) => withState.stateAt!(lng, lat) : () => null);
    const withSchools = options.service as PropertyService & { openSchools?: (state: StateCode) => OpenSchool[] | null };
    this.openSchools = options.openSchools ?? (typeof withSchools.openSchools === 'function' ? (s) => withSchools.openSchools!(s) : () => null);
    const withNotices = options.service as PropertyService & { sourceNotices?: NoticeLookup };
    this.notices = typeof withNotices.sourceNotices === 'function' ? (ids) => withNotices.sourceNotices!(ids) : GENERIC_NOTICES;
    const withCensus = options.service as PropertyService & { suburbContext?: ChildcareWorld['suburbContext'] };
    this.childcareWorld = {
      stateAt: (lng, lat) => this.stateAt(lng, lat),
      openSchools: (s) => this.openSchools(s),
      notices: this.notices,
      ...(typeof withCensus.suburbContext === 'function' ? { suburbContext: (st: StateCode, sub: string | null, lng: number, lat: number) => withCensus.suburbContext!(st, sub, lng, lat) } : {}),
    };
    this.sqlRunner = options.sql;
    this.reportConcurrency = Math.max(1, options.reportConcurrency ?? DEFAULT_REPORT_CONCURRENCY);
    this.store = options.store;
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? SILENT_LOG;
    this.responses = new ResponseCache(options.responseCacheBytes ?? 128 * 1024 * 1024);
    for (const r of ROUTES) this.routes.set(r.path, r);
  }

  /** Finished payloads held for repeat requests. */
  get responseCache(): ResponseCache {
    return this.responses;
  }

  /**
   * Answers one request; synchronously when nothing has to wait (a repeat lookup on the SQLite store, a
   * static body), else with a promise. `abort` says when the client went away (see LazyAbort). Never throws
   * and never rejects.
   */
  handle(req: ApiRequest, abort?: AbortSource): MaybePromise<ApiResponse> {
    const id = req.requestId && REQUEST_ID.test(req.requestId) ? req.requestId : `${this.bootId}-${(++this.counter).toString(36)}`;
    const t0 = performance.now();
    this.inFlight++;
    let keyId: string | undefined;
    const finish = (res: ApiResponse): ApiResponse => {
      this.inFlight--;
      res.headers['X-Request-Id'] = id;
      this.log.request({ id, method: req.method, path: req.path, status: res.status, ms: performance.now() - t0, key: keyId });
      return res;
    };
    const head = req.method === 'HEAD';
    const done = (res: ApiResponse): ApiResponse => {
      if (head) res.omitBody = true;
      return finish(res);
    };
    const fail = (err: unknown) => done(this.errorResponse(err, id, req));
    try {
      const out = this.dispatch(req, abort, (k) => (keyId = k));
      return out instanceof Promise ? out.then(done, fail) : done(out);
    } catch (err) {
      return fail(err);
    }
  }

  private dispatch(req: ApiRequest, abort: AbortSource | undefined, onKey: (id: string) => void): MaybePromise<ApiResponse> {
    if (req.path.length + req.query.length + 1 > MAX_REQUEST_TARGET) {
      throw new ApiError('uri_too_long', `the request target is ${req.path.length + req.query.length + 1} bytes; at most ${MAX_REQUEST_TARGET} are answered`, { limit: MAX_REQUEST_TARGET });
    }
    const ready = this.beforeRequest?.();
    if (ready instanceof Promise) return ready.then(() => this.route(req, abort, onKey));
    return this.route(req, abort, onKey);
  }

  private route(req: ApiRequest, abort: AbortSource | undefined, onKey: (id: string) => void): MaybePromise<ApiResponse> {
    if (req.path === '/metrics') return this.metrics(req);
    let route = this.routes.get(req.path);
    let daId = '';
    const tile = route ? null : TILE_PATH.exec(req.path);
    const tilejson = route || tile ? null : TILEJSON_PATH.exec(req.path);
    if (tile || tilejson) {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError('method_not_allowed', `tiles answer GET and HEAD only, not ${req.method.slice(0, 20)}`, {}, { Allow: 'GET, HEAD' });
      rejectUnknown(decodeQuery(req.query), [], req.path);
      if (tile) return this.tileRequest(req, tile[1], tile[2], tile[3], tile[4], tile[5] as 'mvt' | 'png', onKey);
      return this.tileJson(req, tilejson![1]);
    }
    if (!route) {
      // The paths with a parameter: /v1/das/{id} and /v1/webhooks/{id}[/test|/deliveries] (and under /api).
      const m = DA_ID_PATH.exec(req.path);
      const w = m ? null : WEBHOOK_ID_PATH.exec(req.path);
      if (m) {
        route = this.routes.get(`${m[1] ?? ''}/v1/das/{id}`);
        daId = strictDecode(m[2]) ?? m[2];
      } else if (w) {
        route = this.routes.get(`${w[1] ?? ''}/v1/webhooks/{id}${w[3] ?? ''}`);
        daId = strictDecode(w[2]) ?? w[2];
      }
    }
    if (!route) throw new ApiError('not_found', `no endpoint at ${req.path.length > 200 ? `${req.path.slice(0, 200)}...` : req.path}; see /api/v1/docs`);
    const h = route.handler;
    // HEAD is answered wherever GET is (RFC 9110 section 9.1), with the GET's status and headers and no body.
    const allowed = withHead(route);
    if (!allowed.includes(req.method)) {
      throw new ApiError('method_not_allowed', `${route.path} answers ${allowed.join(', ')} only, not ${req.method.length > 20 ? `${req.method.slice(0, 20)}...` : req.method}`, {}, { Allow: allowed.join(', ') });
    }
    if (h.kind === 'sql') {
      const client = this.clientAddress(req);
      return chain(this.authenticate(req), (key) => {
        onKey(key.id);
        return this.sqlRequest(req, key, client);
      });
    }
    if (h.kind === 'mcp') {
      const client = this.clientAddress(req);
      return chain(this.authenticate(req), (key) => {
        onKey(key.id);
        return this.mcpRequest(req, key, client);
      });
    }
    if (h.kind === 'webhooks') {
      const op = h.ops[req.method === 'HEAD' ? 'GET' : req.method]!;
      const client = this.clientAddress(req);
      return chain(this.authenticate(req), (key) => {
        onKey(key.id);
        return this.webhookRequest(req, op, daId, key, client);
      });
    }
    if (h.kind === 'property') {
      return chain(this.authenticate(req), (key) => {
        onKey(key.id);
        return this.property(req, h.variant, key, abort);
      });
    }
    if (h.kind === 'da') {
      const client = this.clientAddress(req);
      return chain(this.authenticate(req), (key) => {
        onKey(key.id);
        // On a childcare key, /api/v1/das is the childcare feed (spec 4.1).
        if (h.op === 'list' && key.childcare && req.path.startsWith('/api/')) return this.childcareRequest(req, 'feed', key, client);
        return this.daRequest(req, h.op, daId, key, client);
      });
    }
    if (h.kind === 'childcare') {
      const client = this.clientAddress(req);
      return chain(this.authenticate(req), (key) => {
        onKey(key.id);
        return this.childcareRequest(req, h.op, key, client);
      });
    }
    if (h.kind === 'map-point') return this.mapPoint(req);
    rejectUnknown(decodeQuery(req.query), [], route.path);
    return this.publicRoute(route, acceptsGzip(req.acceptEncoding));
  }

  /**
   * A DA-listing request: licence (403) -> count against the key's limit (429; every answer after this
   * carries the RateLimit headers) -> parameters (422) -> the store (404 for an unknown id) -> 200.
   */
  private daRequest(req: ApiRequest, op: DaOperation, id: string, key: ApiKeyRecord, client: string): MaybePromise<ApiResponse> {
    if (!hasDaListing(key)) {
      throw new ApiError('not_licensed', 'this key does not include the DA listing; a key made with `propintel keys create --da-daily-limit N` does', { requested: ['da_listing'] });
    }
    const das = this.das;
    if (!das) throw new ApiError('service_unavailable', 'this server holds no DA store', { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
    return chain(limitDaRequest(this.store, key, client, this.clock()), (limits) => withLimits(limits, () => jsonAnswer(daDocument(das, op, decodeQuery(req.query), req.path, id), req.acceptEncoding, limits)));
  }

  /**
   * A childcare request: the licence (403 with its reason) -> the key's daily limit when it has one (429)
   * -> parameters (400 / 422) -> 200.
   */
  private childcareRequest(req: ApiRequest, op: ChildcareOperation | 'feed', key: ApiKeyRecord, client: string): MaybePromise<ApiResponse> {
    const now = this.clock();
    childcareLicence(key, now);
    const das = this.das;
    if (!das) throw new ApiError('service_unavailable', 'this server holds no DA store', { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
    const limited = limitDaRequest(this.store, key, client, now, 'childcare');
    return chain(limited, (limits) =>
      withLimits(limits, (): MaybePromise<ApiResponse> => {
        const p = decodeQuery(req.query);
        if (op === 'site-analysis' && req.method === 'POST') {
          if (req.bodyTooLarge) throw new ApiError('payload_too_large', `the request body is larger than ${MAX_REQUEST_BODY} bytes`, { limit: MAX_REQUEST_BODY });
          return jsonAnswer(polygonSiteAnalysis(das(), key, now, p, req.path, req.body, this.childcareWorld), req.acceptEncoding, limits);
        }
        if (op === 'report') return this.reportAnswer(req, key, now, p, limits);
        if (op === 'export') {
          const file = exportFile(das(), key, now, p, req.path, this.notices);
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
            ? (refuseIncludeAccess(p), rejectUnknown(p, [], req.path), childcareSchema(key, now, this.notices))
            : op === 'analysis'
              ? analysisDocument(das(), key, now, p, req.path, this.notices)
              : op === 'site-analysis'
                ? siteAnalysisDocument(das(), key, now, p, req.path, this.childcareWorld)
                : childcareFeed(das(), key, now, p, req.path, this.notices);
        return jsonAnswer(doc, req.acceptEncoding, limits);
      }),
    );
  }

  /**
   * `GET|POST /api/v1/childcare/report`: the request checked as /site-analysis checks it (same statuses), then
   * rendered on the worker pool, at most `reportConcurrency` at once (429 `renderer_busy` past that); a
   * renderer failure is 503 with Retry-After and the advice to use the JSON or CSV meanwhile.
   */
  private async reportAnswer(req: ApiRequest, key: ApiKeyRecord, now: Date, p: Map<string, string>, limits: Record<string, string>): Promise<ApiResponse> {
    try {
      const format = (p.get('format') ?? '').toLowerCase();
      if (format !== 'pdf' && format !== 'html') throw new ApiError(p.has('format') ? 'invalid_parameter' : 'missing_parameter', `format must be pdf or html${p.has('format') ? `, not ${JSON.stringify(String(p.get('format')).slice(0, 20))}` : ''}`, { parameter: 'format' });
      let site: SiteRequest;
      if (req.method === 'POST') {
        if (req.bodyTooLarge) throw new ApiError('payload_too_large', `the request body is larger than ${MAX_REQUEST_BODY} bytes`, { limit: MAX_REQUEST_BODY });
        site = siteRequestFromBody(key, now, p, req.path, req.body, this.childcareWorld, ['format']);
      } else site = siteRequestFromQuery(key, now, p, req.path, this.childcareWorld, ['format']);
      const disposition = (filename: string) => `${format === 'pdf' ? 'attachment' : 'inline'}; filename="${filename}"`;
      // The HTML is shown inline: the same no-request policy as its meta tag, as a header too.
      const headers = { ...limits, ...(format === 'html' ? { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:", 'X-Content-Type-Options': 'nosniff' } : {}), 'Cache-Control': 'no-store' };
      const contentType = reportContentType(format);
      const service = this.service as PropertyService & { childcare?: { report?: ReportService } };
      const render = service.childcare?.report;
      if (typeof render !== 'function') throw new ApiError('renderer_unavailable', 'this server has no report renderer; use /site-analysis (JSON) or /export (CSV) meanwhile', { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
      // HEAD: the request checked and counted as GET's, the GET's headers, and nothing rendered (so it never
      // takes a render slot, and a busy renderer does not refuse it).
      if (req.method === 'HEAD') return { status: 200, contentType, headers: { ...headers, 'Content-Disposition': disposition(reportFilename({ state: site.state, circle: null, suburb: null, generatedAt: now.toISOString() }, format)) }, body: '', lengthUnknown: true };
      if (this.reportsInFlight >= this.reportConcurrency) {
        throw new ApiError('renderer_busy', `the report renderer is busy (${this.reportConcurrency} at once); retry after ${REPORT_RETRY_AFTER_S} s and do not fan out report requests`, { retry_after_s: REPORT_RETRY_AFTER_S, concurrency: this.reportConcurrency }, { 'Retry-After': String(REPORT_RETRY_AFTER_S) });
      }
      this.reportsInFlight++;
      let file: ReportFile;
      try {
        const data = siteAnalysis(this.das!(), this.childcareWorld, site);
        file = await render.call(service.childcare, site, format, { data, generatedAt: now });
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw new ApiError('renderer_failed', `the report could not be rendered (${(err as Error).message}); retry later, and use /site-analysis (JSON) or /export (CSV) meanwhile`, { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
      } finally {
        this.reportsInFlight--;
      }
      return { status: 200, contentType: file.contentType, headers: { ...headers, 'Content-Disposition': disposition(file.filename) }, body: file.body };
    } catch (err) {
      const e = toApiError(err);
      Object.assign(e.headers, limits);
      throw e;
    }
  }

  /** The SQL runner, made on first use when the server was given none (its mirror a scratch file). */
  sqlRunnerFor(das: () => DaStore): SqlRunner {
    return (this.sqlRunner ??= this.ownSqlRunner = new SqlRunner({ mirror: join(tmpdir(), `propintel-sql-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`), das, temporary: true }));
  }

  /** Releases what the API made for itself (the SQL runner and its scratch mirror); the server calls it when it stops. */
  close(): void {
    this.ownSqlRunner?.close();
    this.ownSqlRunner = undefined;
  }

  /**
   * A read-only SQL request: licence and SQL entitlement (403) -> the DA daily limit (429) -> the body (413,
   * 422) -> the runner, which keeps each key to its share (429 `too_many_queries`; MCP's calls count in the
   * same share) -> 422 for a refused, failed, too large or timed-out query, 503 when busy -> 200.
   */
  private async sqlRequest(req: ApiRequest, key: ApiKeyRecord, client: string): Promise<ApiResponse> {
    await this.refusePlayground(key, client, 'the SQL endpoint');
    if (!hasDaListing(key) || !key.sql) {
      throw new ApiError('not_licensed', 'this key does not include the SQL endpoint; a key made with `propintel keys create --da-daily-limit N --sql` does', { requested: ['sql'] });
    }
    const das = this.das;
    if (!das) throw new ApiError('service_unavailable', 'this server holds no DA store', { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
    const limits = await limitDaRequest(this.store, key, client, this.clock());
    try {
      rejectUnknown(decodeQuery(req.query), [], req.path);
      const body = jsonBody(req.body, req.bodyTooLarge || (req.body?.length ?? 0) > SMALL_BODY, SMALL_BODY);
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw badParameter('body', 'the body must be a JSON object: {"query": "SELECT ...", "params": [...]}');
      for (const k of Object.keys(body)) if (k !== 'query' && k !== 'params') throw badParameter(k, `unknown field ${JSON.stringify(k)}; the fields are query and params`, 'unknown_parameter');
      const { query, params } = body as { query?: unknown; params?: unknown };
      const result = await runSql(this.sqlRunnerFor(das), query, params, key.id);
      return { status: 200, contentType: JSON_TYPE, headers: { ...limits, 'Cache-Control': 'no-store' }, body: JSON.stringify(result) };
    } catch (err) {
      const e = toApiError(err);
      Object.assign(e.headers, limits);
      throw e;
    }
  }

  /**
   * One MCP message over Streamable HTTP, stateless (a fresh server and transport per request, as the SDK
   * requires without sessions) and with JSON responses. Each tool call counts against the key's DA daily
   * limit; over it, the call's result is an error naming daily_limit_exceeded.
   */
  private async mcpRequest(req: ApiRequest, key: ApiKeyRecord, client: string): Promise<ApiResponse> {
    await this.refusePlayground(key, client, 'the MCP server');
    if (!hasDaListing(key)) {
      throw new ApiError('not_licensed', 'the MCP server serves the DA listing; a key made with `propintel keys create --da-daily-limit N` has it', { requested: ['da_listing'] });
    }
    const das = this.das;
    if (!das) throw new ApiError('service_unavailable', 'this server holds no DA store', { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
    if (req.bodyTooLarge) throw new ApiError('payload_too_large', `the request body is larger than ${MAX_REQUEST_BODY} bytes`, { limit: MAX_REQUEST_BODY });
    // JSON-RPC 2.0: an empty batch is an invalid request (the SDK's transport would accept it with 202).
    if (req.body && /^\s*\[\s*\]\s*$/.test(req.body.toString('utf8'))) {
      return { status: 400, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } }) };
    }
    const { createMcpServer } = await import('../mcp/mcp-server.js');
    const { WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
    const server = createMcpServer({
      das,
      sql: () => this.sqlRunnerFor(das),
      sqlAllowed: key.sql,
      tenant: key.id,
      beforeCall: async () => {
        await limitDaRequest(this.store, key, client, this.clock());
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const headers: Record<string, string> = { 'content-type': req.contentType || 'application/json', accept: req.accept ?? '' };
      if (req.mcpProtocolVersion) headers['mcp-protocol-version'] = req.mcpProtocolVersion;
      const res = await transport.handleRequest(new Request('http://localhost/mcp', { method: 'POST', headers, body: req.body ? req.body.toString('utf8') : '' }));
      const out: Record<string, string> = { 'Cache-Control': 'no-store' };
      res.headers.forEach((v, k) => {
        if (k !== 'content-type' && k !== 'content-length') out[k] = v;
      });
      return { status: res.status, contentType: res.headers.get('content-type') ?? JSON_TYPE, headers: out, body: Buffer.from(await res.arrayBuffer()) };
    } finally {
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    }
  }

  /**
   * The playground's public demo key reads the DA listing and nothing else: webhooks, SQL and MCP are refused
   * (403), and the refused request still counts against its 10 a minute (a 429 past them), as every request
   * it makes does.
   */
  private async refusePlayground(key: ApiKeyRecord, client: string, what: string): Promise<void> {
    if (!isPlaygroundKey(key)) return;
    const limits = await limitDaRequest(this.store, key, client, this.clock());
    throw new ApiError('not_licensed', `the playground's demo key reads the DA listing only, not ${what}; use a key of your own (\`propintel keys create --da-daily-limit N\`)`, { requested: [what] }, limits);
  }

  /** A webhook request: licence (403) -> the operation (422 / 404 / 409 / 413) -> 200, 201 or 202. */
  private async webhookRequest(req: ApiRequest, op: WebhookOperation, id: string, key: ApiKeyRecord, client: string): Promise<ApiResponse> {
    await this.refusePlayground(key, client, 'webhooks');
    if (!hasDaListing(key)) {
      throw new ApiError('not_licensed', 'webhooks come with the DA listing; a key made with `propintel keys create --da-daily-limit N` has it', { requested: ['da_listing'] });
    }
    const das = this.das;
    if (!das) throw new ApiError('service_unavailable', 'this server holds no DA store', { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
    rejectUnknown(decodeQuery(req.query), [], req.path);
    const ctx: WebhookContext = { store: this.store.webhooks(), das: this.webhookOptions?.events ?? das, clock: this.clock, allowPrivate: this.webhookOptions?.allowPrivate ?? false, dispatcher: this.webhookOptions?.dispatcher, resolve: this.webhookOptions?.resolve };
    const answer = await webhookOperation(ctx, op, key.id, id, () => jsonBody(req.body, req.bodyTooLarge || (req.body?.length ?? 0) > SMALL_BODY, SMALL_BODY));
    return { status: answer.status, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify(answer.doc) };
  }

  private errorResponse(err: unknown, id: string, req: ApiRequest): ApiResponse {
    const e = isEngineError(err) && err.code === 'ABORTED' ? clientClosed() : toApiError(err);
    // The client went away: the transport writes nothing. 499 is nginx's "client closed request".
    if (e.status === 499) return { status: 499, contentType: JSON_TYPE, headers: {}, body: '' };
    if (e.status >= 500) {
      this.log.error({ id, message: (err as Error)?.message ?? String(err), stack: e.status === 500 ? (err as Error)?.stack : undefined, path: req.path, code: isEngineError(err) ? err.code : undefined });
    }
    return { status: e.status, contentType: JSON_TYPE, headers: { ...e.headers, 'Cache-Control': 'no-store' }, body: JSON.stringify(e.body()) };
  }

  /** The key of the request's `Authorization: Bearer` header, or 401 (keyless routes never read the header). */
  private authenticate(req: ApiRequest): MaybePromise<ApiKeyRecord> {
    const header = req.authorization;
    if ((req.authorizationCount ?? (header ? 1 : 0)) > 1) {
      // Two credentials are no credential: 401 as for a malformed header (RFC 9110 11.6.2 allows one).
      throw new ApiError('invalid_authorization', 'the request carries more than one Authorization header; send exactly one', {}, { 'WWW-Authenticate': 'Bearer realm="propintel"' });
    }
    const token = bearerToken(header);
    if (!token) {
      throw new ApiError(header ? 'invalid_authorization' : 'missing_key', header ? 'the Authorization header must be "Bearer <API key>"' : 'this endpoint needs an API key: send the header Authorization: Bearer <API key>', {}, { 'WWW-Authenticate': 'Bearer realm="propintel"' });
    }
    const id = keyIdOf(token);
    return chain(id ? this.store.keyById(id) : undefined, (key) => {
      if (!key || !keyMatches(token, key.hash)) throw new ApiError('invalid_key', 'the API key is not recognised', {}, { 'WWW-Authenticate': 'Bearer realm="propintel", error="invalid_token"' });
      if (key.revoked_at) throw new ApiError('invalid_key', `the API key was revoked at ${key.revoked_at}`, {}, { 'WWW-Authenticate': 'Bearer realm="propintel", error="invalid_token"' });
      return key;
    });
  }

  /** The parsed and validated query, remembered per raw query string (clients repeat theirs). */
  private query(raw: string, variant: 'full' | 'core'): ValidQuery {
    const id = `${variant}?${raw}`;
    let v = this.queries.get(id);
    if (!v) {
      const q = parsePropertyQuery(raw, variant);
      v = { subject: validateSubject(q.subject as Record<string, unknown>), options: q.options, canonical: q.canonical, byLicence: new Map() };
      resolveOptions(q.options);
      if (this.queries.size >= 10_000) this.queries.clear();
      this.queries.set(id, v);
    }
    return v;
  }

  private property(req: ApiRequest, variant: 'full' | 'core', key: ApiKeyRecord, abort?: AbortSource): MaybePromise<ApiResponse> {
    const q = this.query(req.query, variant);
    const licence: PropertyLicence = { components: key.components, geometry: key.geometry };
    // The licence decision and the cache key depend only on the query and the licence: worked out once each.
    const licenceId = `${[...key.components].sort().join(',')}|${key.geometry ? 'g' : '-'}`;
    let decided = q.byLicence.get(licenceId);
    if (!decided) {
      decided = { refusal: checkLicence({ ...q.options, licence, variant }), base: `${variant}|${licenceId}|${q.canonical}` };
      q.byLicence.set(licenceId, decided);
    }
    const refusal = decided.refusal;
    if (refusal) throw new ApiError('not_licensed', refusal.message, { requested: refusal.requested, licensed_components: key.components, geometry_licence: key.geometry });

    const now = this.clock();
    const period = this.periods.get(now, key.period, key.effective_date);
    if (req.method === 'HEAD') return this.propertyHead(req, key, period, q.subject, now);
    const base = decided.base;
    const revision = this.service.dataRevision();
    const cached = this.responses.get(`${revision}|${base}`, now.getTime());
    const entry = cached ?? chain(this.quotaGate(key, period, q.subject, now), () => this.lookup(revision, base, q.subject, q.options, licence, variant, now, abort));
    return chain(entry, (e) => {
      if (abort?.aborted) throw clientClosed();
      return chain(meterLookup(this.store, key, period, e, now), (metered): ApiResponse => {
        const gzip = acceptsGzip(req.acceptEncoding);
        return { status: 200, contentType: JSON_TYPE, headers: payloadHeaders(gzip), body: finishPayload(e.body, metered.usage, metered.notChargedReason, gzip) };
      });
    });
  }

  /**
   * HEAD of a property lookup: what GET checks (the key, the parameters, the licence, that the subject
   * resolves, the quota), without computing or metering the payload; the GET's headers and no length, which is
   * known only once the payload is made.
   */
  private propertyHead(req: ApiRequest, key: ApiKeyRecord, period: BillingPeriod, subject: PropertySubject, now: Date): MaybePromise<ApiResponse> {
    const identify = this.service.identify;
    return chain(identify ? identify.call(this.service, subject) : undefined, () =>
      chain(this.quotaGate(key, period, subject, now), (): ApiResponse => ({ status: 200, contentType: JSON_TYPE, headers: payloadHeaders(acceptsGzip(req.acceptEncoding)), body: '', lengthUnknown: true })),
    );
  }

  /** The client's address: the peer, or behind a trusted local proxy its X-Real-IP. */
  private clientAddress(req: ApiRequest): string {
    const peer = req.remoteAddress?.() ?? '';
    if (this.trustProxy && req.realIp && isLoopback(peer)) return req.realIp.trim().slice(0, 64);
    return peer;
  }

  /**
   * Refuses a lookup before computing it when the key has used its quota and the subject would be a new
   * address in the period (a repeat, a sandbox address and anything in the onboarding window stay free):
   * at quota, only the subject is resolved, not the payload. The charge after the lookup stays the atomic
   * decision; this only spares the work of answers that could never be delivered.
   */
  private quotaGate(key: ApiKeyRecord, period: BillingPeriod, subject: PropertySubject, now: Date): MaybePromise<void> {
    const identify = this.service.identify;
    if (!identify || inOnboarding(now, key.onboarding_until)) return undefined;
    return chain(this.store.used(key.id, period.key), (used) => {
      if (used < key.quota) return undefined;
      return identify.call(this.service, subject).then((id) => {
        if (id.sandbox) return undefined;
        return chain(this.store.counted(key.id, period.key, id.addressKey), (counted) => {
          if (!counted) throw quotaExceeded(key, period, used, id.label, now);
        });
      });
    });
  }

  /**
   * Runs a lookup, sharing it with identical requests already waiting for one (a burst of first lookups of
   * one address computes it once). It is cancelled only when every waiting client has gone.
   */
  private lookup(revision: number, base: string, subject: PropertySubject, options: PropertyOptions, licence: PropertyLicence, variant: 'full' | 'core', now: Date, abort?: AbortSource): Promise<CachedResponse> {
    const cacheKey = `${revision}|${base}`;
    let p = this.pending.get(cacheKey);
    if (!p) {
      const controller = new AbortController();
      const promise = this.service.property(subject, { ...options, licence, variant, now, signal: controller.signal }).then((result) => {
        const entry: CachedResponse = {
          body: serialisePayload(result.payload, { documentation: this.documentation }),
          addressKey: result.addressKey,
          label: ((result.payload.resolved as { address?: string | null } | undefined)?.address ?? null),
          sandbox: result.sandbox,
          chargeable: result.chargeable,
          notChargedReason: result.notChargedReason,
          expiresAt: payloadExpiry(result.payload, now.getTime(), LAYER_TTL_MS, SCORE_TTL_MS),
        };
        // Only a complete payload, and only if the DA records did not change while it was computed.
        if (result.payload.completeness === 'full' && this.service.dataRevision() === revision) this.responses.set(cacheKey, entry);
        return entry;
      });
      p = { promise, controller, waiters: 0 };
      const mine = p;
      this.pending.set(cacheKey, mine);
      const done = () => {
        if (this.pending.get(cacheKey) === mine) this.pending.delete(cacheKey);
      };
      promise.then(done, done);
    }
    const shared = p;
    shared.waiters++;
    const release = () => {
      if (--shared.waiters > 0) return;
      // Nobody waits any more: cancel, and let a later identical request start afresh.
      shared.controller.abort();
      if (this.pending.get(cacheKey) === shared) this.pending.delete(cacheKey);
    };
    if (!abort) return shared.promise;
    if (abort.aborted) {
      release();
      return Promise.reject(clientClosed());
    }
    const signal = abort.signal;
    signal.addEventListener('abort', release, { once: true });
    return shared.promise.finally(() => signal.removeEventListener('abort', release));
  }

  /**
   * `GET /metrics`: the Prometheus text exposition (version 0.0.4) of process memory, the engine's memory by
   * state and model, the caches, requests in flight and the DA store. For operators on the machine: only a
   * loopback peer is answered (deploy/nginx/propintel.conf does not forward it); anyone else gets 404.
   */
  private async metrics(req: ApiRequest): Promise<ApiResponse> {
    const peer = req.remoteAddress?.() ?? '';
    if (!isLoopback(peer) || (this.trustProxy && req.realIp)) throw new ApiError('not_found', 'no endpoint at /metrics; see /api/v1/docs');
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError('method_not_allowed', `/metrics answers GET and HEAD only, not ${req.method.slice(0, 20)}`, {}, { Allow: 'GET, HEAD' });
    rejectUnknown(decodeQuery(req.query), [], '/metrics');
    const lines: string[] = [];
    const metric = (name: string, help: string, type: 'gauge' | 'counter', rows: [Record<string, string>, number][]) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, v] of rows) {
        const l = Object.entries(labels).map(([k, x]) => `${k}="${x.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
        lines.push(`${name}${l.length ? `{${l.join(',')}}` : ''} ${Number.isFinite(v) ? v : 'NaN'}`);
      }
    };
    const report = await (this.service as PropertyService & { memoryReport?: () => Promise<MemoryReport> }).memoryReport?.();
    const mem = process.memoryUsage();
    metric('propintel_process_memory_bytes', 'Process memory by kind (process.memoryUsage): rss, heap_total, heap_used, external, array_buffers.', 'gauge', [
      [{ kind: 'rss' }, mem.rss],
      [{ kind: 'heap_total' }, mem.heapTotal],
      [{ kind: 'heap_used' }, mem.heapUsed],
      [{ kind: 'external' }, mem.external],
      [{ kind: 'array_buffers' }, mem.arrayBuffers],
    ]);
    if (report) {
      metric('propintel_model_memory_bytes', 'Estimated bytes the engine holds, by state and model (dataset files, then what each model adds).', 'gauge', report.models.map((m) => [{ state: m.state, model: m.model }, m.bytes]));
      metric('propintel_cache_entries', 'Entries in the memory tier of each engine cache.', 'gauge', report.caches.filter((c) => c.entries !== null).map((c) => [{ cache: c.cache }, c.entries!]));
      metric('propintel_cache_memory_bytes', 'Estimated bytes in the memory tier of each engine cache.', 'gauge', report.caches.filter((c) => c.bytes !== null).map((c) => [{ cache: c.cache }, c.bytes!]));
    }
    metric('propintel_response_cache_entries', 'Finished payloads in the response cache.', 'gauge', [[{}, this.responses.size]]);
    metric('propintel_response_cache_bytes', 'Payload bytes in the response cache (bounded).', 'gauge', [[{}, this.responses.bytes]]);
    metric('propintel_requests_in_flight', 'Requests being answered, this one included.', 'gauge', [[{}, this.inFlight]]);
    const das = this.das;
    if (das) {
      try {
        metric('propintel_da_records', 'Development applications in the DA store.', 'gauge', [[{}, das().size]]);
      } catch {
        // The DA store cannot answer: the metric is left out rather than the scrape failing.
      }
    }
    return { status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', headers: { 'Cache-Control': 'no-store' }, body: `${lines.join('\n')}\n` };
  }

  /** The tiles service of the engine, or null when the service makes none. */
  private tiles(): TileService | null {
    const t = this.service as PropertyService & Partial<TileService>;
    return typeof t.tile === 'function' && typeof t.tileLayers === 'function' ? (t as unknown as TileService) : null;
  }

  /** Tiles of a synthetic dataset (the sample world) need no key; real data needs the geometry licence. */
  private tilesKeyless(): boolean {
    return (this.service as { store?: { catalogue?: { synthetic?: boolean } } }).store?.catalogue?.synthetic === true;
  }

  /**
   * `GET /api/v1/tiles/{layer}/{z}/{x}/{y}.mvt`: the MVT (gzipped when accepted) with an ETag of its bytes and
   * a day's Cache-Control; 304 for a matching If-None-Match; 204 with no body for an empty tile. Unknown layer
   * 404; a tile outside the grid or the layer's zooms 422 `invalid_tile`.
   */
  private tileRequest(req: ApiRequest, layer: string, zs: string, xs: string, ys: string, ext: 'mvt' | 'png', onKey: (id: string) => void): MaybePromise<ApiResponse> {
    const tiles = this.tiles();
    if (!tiles) throw new ApiError('not_found', 'this server makes no tiles');
    const terrain = layer === 'terrain' && typeof tiles.terrainTile === 'function' && !!tiles.terrainLayer?.();
    // The terrain layer is PNG, every other layer MVT: a tile asked for in the other format has no layer.
    if (terrain !== (ext === 'png')) {
      throw new ApiError('unknown_layer', `no ${ext === 'png' ? 'PNG' : 'vector'} tile layer ${JSON.stringify(layer.slice(0, 40))}${layer === 'terrain' && ext === 'mvt' ? ' (terrain tiles are PNG: /api/v1/tiles/terrain/{z}/{x}/{y}.png)' : ''}`, { layers: tiles.tileLayers().map((l) => l.id) });
    }
    const type = terrain ? 'image/png' : 'application/vnd.mapbox-vector-tile';
    const make = terrain ? (z: number, x: number, y: number) => tiles.terrainTile!(z, x, y) : (z: number, x: number, y: number) => tiles.tile(layer, z, x, y);
    const int = (v: string, name: string) => {
      if (!/^\d{1,10}$/.test(v)) throw new ApiError('invalid_tile', `${name} must be a whole number, not ${JSON.stringify(v.slice(0, 20))}`, { parameter: name });
      return Number(v);
    };
    const z = int(zs, 'z'), x = int(xs, 'x'), y = int(ys, 'y');
    const answer = (): Promise<ApiResponse> =>
      make(z, x, y).then(
        ({ bytes }) => {
          const headers: Record<string, string> = { 'Cache-Control': 'public, max-age=86400', 'Access-Control-Allow-Origin': '*' };
          if (!bytes) return { status: 204, contentType: type, headers, body: '' };
          const done = tileEncodings.get(bytes) ?? { etag: `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"` };
          tileEncodings.set(bytes, done);
          const etag = done.etag;
          headers.ETag = etag;
          if (!terrain) headers.Vary = 'Accept-Encoding';
          if (req.ifNoneMatch && req.ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) return { status: 304, contentType: type, headers, body: '' };
          const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          // A PNG is compressed already; an MVT is gzipped when the client takes it.
          if (!terrain && acceptsGzip(req.acceptEncoding)) {
            headers['Content-Encoding'] = 'gzip';
            done.gzip ??= gzipSync(buf, { level: 6 });
            return { status: 200, contentType: type, headers, body: done.gzip };
          }
          return { status: 200, contentType: type, headers, body: buf };
        },
        (err) => {
          if (isEngineError(err) && err.code === 'NOT_FOUND') throw new ApiError('unknown_layer', err.message, { layers: tiles.tileLayers().map((l) => l.id) });
          if (isEngineError(err) && err.code === 'INVALID_ARGUMENT') throw new ApiError('invalid_tile', err.message, { parameter: err.details?.parameter ?? 'tile' });
          throw err;
        },
      );
    if (this.tilesKeyless()) return answer();
    return chain(this.authenticate(req), (key) => {
      onKey(key.id);
      if (!key.geometry) throw new ApiError('geometry_not_licensed', 'tiles carry geometry: they need a key with the geometry licence (`propintel keys create --geometry`)');
      return answer();
    });
  }

  /**
   * `GET /map/point?lat=&lng=`: the map's click summary on the synthetic sample world (404 on real data, where
   * the keyed property endpoint answers): address, scores with levels, hazards found, DAs near.
   */
  private async mapPoint(req: ApiRequest): Promise<ApiResponse> {
    if (!this.tilesKeyless()) throw new ApiError('not_found', 'the map\'s point summary is for the sample world only; use /api/v1/property with a key');
    const p = decodeQuery(req.query);
    rejectUnknown(p, ['lat', 'lng'], req.path);
    const lat = Number(p.get('lat')), lng = Number(p.get('lng'));
    if (!p.has('lat') || !p.has('lng') || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new ApiError('invalid_parameter', 'lat and lng must be WGS84 degrees', { parameter: 'lat' });
    const result = await this.service.property({ lat, lng }, {});
    const d = result.payload as Record<string, any>;
    const scores = Object.fromEntries(Object.entries((d.scores ?? {}) as Record<string, { score: number | null; level: string }>).map(([k, v]) => [k, v.score === null || v.score === undefined ? v.level : `${v.score} (${v.level})`]));
    const hazards = Object.fromEntries(Object.entries((d.hazards ?? {}) as Record<string, unknown[]>).map(([k, v]) => [k, Array.isArray(v) ? (v.length ? v.map((h: any) => h.label ?? h.code ?? h.kind ?? 'mapped').join('; ') : 'none mapped') : v]));
    const das = d.development_applications ?? {};
    const summary = { address: d.resolved?.address?.text ?? d.resolved?.address ?? null, ...scores, ...Object.fromEntries(Object.entries(hazards).map(([k, v]) => [`hazard: ${k}`, v])), 'DAs on the parcel': (das.on_parcel ?? []).length, 'DAs within 300 m': (das.nearby_300m ?? []).length };
    return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify(summary) };
  }

  /** `GET /api/v1/tiles/{layer}.json`: TileJSON 3.0.0 of one layer (the terrain layer's a raster-dem one). */
  private tileJson(req: ApiRequest, layer: string): ApiResponse {
    const tiles = this.tiles();
    if (!tiles) throw new ApiError('not_found', 'this server makes no tiles');
    const host = /^[A-Za-z0-9.:[\]-]{1,255}$/.test(req.host ?? '') ? req.host : 'localhost';
    const terrain = layer === 'terrain' ? tiles.terrainLayer?.() : null;
    if (terrain) {
      const doc = {
        tilejson: '3.0.0',
        name: 'propintel terrain',
        description: terrain.description,
        version: '1.0.0',
        scheme: 'xyz',
        tiles: [`http://${host}/api/v1/tiles/terrain/{z}/{x}/{y}.png`],
        minzoom: terrain.minzoom,
        maxzoom: terrain.maxzoom,
        bounds: tiles.tileBounds(),
        attribution: tiles.tileAttribution('terrain'),
        encoding: terrain.encoding,
        tileSize: terrain.tileSize,
      };
      return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' }, body: JSON.stringify(doc) };
    }
    const spec = tiles.tileLayers().find((l) => l.id === layer);
    if (!spec) throw new ApiError('unknown_layer', `no tile layer ${JSON.stringify(layer.slice(0, 40))}`, { layers: tiles.tileLayers().map((l) => l.id) });
    const doc = {
      tilejson: '3.0.0',
      name: `propintel ${spec.id}`,
      description: spec.description,
      version: '1.0.0',
      scheme: 'xyz',
      tiles: [`http://${host}/api/v1/tiles/${spec.id}/{z}/{x}/{y}.mvt`],
      minzoom: spec.minzoom,
      maxzoom: spec.maxzoom,
      bounds: tiles.tileBounds(),
      attribution: tiles.tileAttribution(spec.id),
      vector_layers: [{ id: spec.id, description: spec.description, minzoom: spec.minzoom, maxzoom: spec.maxzoom, fields: spec.fields }],
    };
    return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' }, body: JSON.stringify(doc) };
  }

  private publicRoute(route: Route, gzip: boolean): MaybePromise<ApiResponse> {
    const h = route.handler;
    if (h.kind === 'health') {
      return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify({ status: this.warming === null ? 'ok' : 'warming', version: VERSION, server: this.transport, in_flight: this.inFlight - 1, ...(this.warming === null ? {} : { warming: this.warming }) }) };
    }
    let contentType = JSON_TYPE;
    let body: MaybePromise<StaticBody | null>;
    switch (h.kind) {
      case 'docs':
        contentType = 'text/html; charset=utf-8';
        body = this.once('docs', async () => staticBody(renderDocsPage(openApiDocument())));
        break;
      case 'openapi':
        body = this.once('openapi', async () => staticBody(JSON.stringify(openApiDocument())));
        break;
      case 'childcare-page':
        if (h.page !== 'openapi') contentType = 'text/html; charset=utf-8';
        body = this.once(`childcare-${h.page}`, async () => staticBody(h.page === 'openapi' ? JSON.stringify(childcareOpenApi()) : h.page === 'docs' ? renderDocsPage(childcareOpenApi(), '/api/v1/childcare/openapi.json') : childcareGuidePage()));
        break;
      case 'map': {
        const tiles = this.tiles();
        if (!tiles) throw new ApiError('not_found', 'this server makes no tiles, so it has no map');
        if (h.asset === 'js' || h.asset === 'css') {
          contentType = h.asset === 'js' ? 'application/javascript; charset=utf-8' : 'text/css; charset=utf-8';
          body = this.once(`map-${h.asset}`, async () => staticBody(maplibreAsset(h.asset as 'js' | 'css')));
        } else {
          contentType = 'text/html; charset=utf-8';
          body = this.once('map', async () => {
            const places = (await this.service.sandbox()).map((a) => ({ label: `${a.state}: ${a.address}`, lat: a.lat, lng: a.lng }));
            const layers = tiles.tileLayers().map((l) => ({ id: l.id, minzoom: l.minzoom, maxzoom: l.maxzoom, attribution: tiles.tileAttribution(l.id) }));
            const t = tiles.terrainLayer?.();
            const terrain = t ? { id: t.id, minzoom: t.minzoom, maxzoom: t.maxzoom, attribution: tiles.tileAttribution(t.id) } : null;
            return staticBody(renderMapPage(layers, places, { pointSummary: this.tilesKeyless(), terrain }));
          });
        }
        break;
      }
      case 'sandbox':
        body = this.once('sandbox', async () => staticBody(JSON.stringify({ addresses: await this.service.sandbox() })));
        break;
      case 'playground':
        if (!this.playground) throw new ApiError('not_found', 'the playground is switched off on this server');
        contentType = 'text/html; charset=utf-8';
        body = this.once('playground', async () => staticBody(renderPlaygroundPage({ demoKey: await playgroundKey(this.store) })));
        break;
      case 'sample':
        body = this.once(`sample:${h.name}`, async () => {
          const doc = await this.service.sample(h.name);
          return doc === null ? null : staticBody(JSON.stringify(doc));
        });
        break;
      default:
        throw new ApiError('not_found', `no endpoint at ${route.path}`);
    }
    return chain(body, (b) => {
      if (!b) throw new ApiError('sample_unavailable', `the ${h.kind === 'sample' ? h.name : h.kind} sample is not installed on this server (datasets/samples/)`);
      const headers: Record<string, string> = { 'Cache-Control': h.kind === 'playground' || (h.kind === 'map' && h.asset === 'page') ? 'no-cache' : h.kind === 'map' ? 'public, max-age=86400' : 'public, max-age=300', Vary: 'Accept-Encoding' };
      if (gzip) headers['Content-Encoding'] = 'gzip';
      return { status: 200, contentType, headers, body: gzip ? b.gzip : b.identity };
    });
  }

  /** A body computed once, then served without waiting (a failure is not remembered: the next request tries again). */
  private once(name: string, make: () => Promise<StaticBody | null>): MaybePromise<StaticBody | null> {
    const done = this.staticsDone.get(name);
    if (done !== undefined) return done;
    let p = this.statics.get(name);
    if (!p) {
      p = make();
      this.statics.set(name, p);
      p.then(
        (b) => this.staticsDone.set(name, b),
        () => this.statics.delete(name),
      );
    }
    return p;
  }
}
