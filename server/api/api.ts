/**
 * The HTTP API, independent of the transport: a request in (method, path, raw query, the headers it reads),
 * a response out. server/transport/ binds it to uWebSockets.js (the server) and to node:http (the benchmark's
 * reference), so both serve exactly the same handler.
 *
 * This is the router: it checks the request target, finds the route (routes.ts), answers 404 and 405, and
 * authenticates keyed routes; each product's routes do the rest in a module of their own (property-routes.ts,
 * da-routes.ts for the DA listing and webhooks, childcare-routes.ts, sql-mcp-routes.ts, tile-routes.ts, and
 * ops-routes.ts for health, metrics and the static pages). A keyed property request runs: authenticate (401)
 * -> parse and validate the query (422) -> licence (403) -> the lookup, from the response cache when the same
 * request was answered before (503 / 422 from the engine) -> meter (429) -> 200 with `usage`. A handler never
 * lets an exception escape: everything becomes the spec's error body through one table (api-error.ts).
 */
import { randomBytes } from 'node:crypto';
import { isEngineError } from '../../engine/index.js';
import { GENERIC_NOTICES, type ChildcareWorld, type NoticeLookup, type OpenSchool } from '../../engine/entry/childcare.js';
import type { DaReader, DaService, SqlRunner } from '../../engine/entry/das.js';
import type { StateCode } from '../../engine/entry/data.js';
import type { PropertyService } from '../../engine/entry/property.js';
import { bearerToken, keyIdOf, keyMatches } from '../keys/api-key.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import { SILENT_LOG, type RequestLog } from '../request-log.js';
import type { ApiKeyRecord } from '../store/store.js';
import { ApiError, toApiError } from '../http/api-error.js';
import { clientClosed, isLoopback, JSON_TYPE, type AbortSource, type ApiContext, type ApiDocuments, type ApiOptions, type ApiRequest, type ApiResponse } from './api-types.js';
import { BatchRoutes } from './batch-routes.js';
import { ChildcareRoutes } from './childcare-routes.js';
import { DaRoutes } from './da-routes.js';
import { BATCH_PATHS, MAX_REQUEST_TARGET } from '../http/limits.js';
import { OpsRoutes } from './ops-routes.js';
import { acceptsGzip } from './payload-body.js';
import { PropertyRoutes } from './property-routes.js';
import { strictDecode } from './query.js';
import type { ResponseCache } from './response-cache.js';
import { ROUTES } from './routes.js';
import { operationFor, type AnyRoute, type RouteCall } from './route-value.js';
import { allowedMethods, preflight, withCors } from './cors.js';
import { PathMatcher } from './path-template.js';
import { SqlMcpRoutes } from './sql-mcp-routes.js';
import { TileRoutes } from './tile-routes.js';

export { BATCH_MAX_BODY, bodyLimit, MAX_REQUEST_BODY, MAX_REQUEST_TARGET, SMALL_BODY } from '../http/limits.js';
export { DEFAULT_REPORT_CONCURRENCY, REPORT_RETRY_AFTER_S, type AbortSource, type ApiOptions, type ApiRequest, type ApiResponse } from './api-types.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

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
  private readonly store: ApiContext['store'];
  private readonly log: RequestLog;
  /** The route table by path template (one matcher for every path, parameters included). */
  private readonly paths = new PathMatcher<AnyRoute>();
  /** The product modules the routes' handlers use, by name. */
  private readonly modules: Record<string, unknown>;
  private readonly bootId = randomBytes(4).toString('hex');
  private counter = 0;
  private readonly trustProxy: boolean;
  private readonly beforeRequest: ApiOptions['beforeRequest'];
  private readonly property: PropertyRoutes;
  private readonly batch: BatchRoutes;
  private readonly daRoutes: DaRoutes;
  private readonly childcare: ChildcareRoutes;
  private readonly sqlMcp: SqlMcpRoutes;
  private readonly tiles: TileRoutes;
  private readonly ops: OpsRoutes;

  constructor(options: ApiOptions & { documents: ApiDocuments }) {
    const service = options.service as PropertyService & {
      das?: () => DaService;
      stateAt?: (lon: number, lat: number) => StateCode | null;
      openSchools?: (state: StateCode) => OpenSchool[] | null;
      sourceNotices?: NoticeLookup;
      suburbContext?: ChildcareWorld['suburbContext'];
    };
    const das = options.das ?? (typeof service.das === 'function' ? () => service.das!() : null);
    const stateAt = options.stateAt ?? (typeof service.stateAt === 'function' ? (lng: number, lat: number) => service.stateAt!(lng, lat) : () => null);
    const openSchools = options.openSchools ?? (typeof service.openSchools === 'function' ? (s: StateCode) => service.openSchools!(s) : () => null);
    const notices: NoticeLookup = typeof service.sourceNotices === 'function' ? (ids) => service.sourceNotices!(ids) : GENERIC_NOTICES;
    const childcareWorld: ChildcareWorld = {
      stateAt: (lng, lat) => stateAt(lng, lat),
      openSchools: (s) => openSchools(s),
      notices,
      ...(typeof service.suburbContext === 'function' ? { suburbContext: (st: StateCode, sub: string | null, lng: number, lat: number) => service.suburbContext!(st, sub, lng, lat) } : {}),
    };
    const routes = options.routes ?? ROUTES;
    // The documents are made from the route list above the API (http-server.ts): the routes that serve them
    // are handed them, never import them.
    const ctx: ApiContext = { service: options.service, store: options.store, clock: options.clock ?? (() => new Date()), log: options.log ?? SILENT_LOG, das, childcareWorld, notices, documents: options.documents };
    this.store = ctx.store;
    this.log = ctx.log;
    this.trustProxy = options.trustProxy ?? false;
    this.beforeRequest = options.beforeRequest;
    this.property = new PropertyRoutes(ctx, options.responseCacheBytes ?? 128 * 1024 * 1024);
    this.daRoutes = new DaRoutes(ctx, options.webhooks);
    this.batch = new BatchRoutes(ctx, { allowPrivate: options.webhooks?.allowPrivate, resolve: options.webhooks?.resolve, ...options.batch });
    this.childcare = new ChildcareRoutes(ctx, options.reportConcurrency);
    this.sqlMcp = new SqlMcpRoutes(ctx, options.sql);
    this.tiles = new TileRoutes(ctx);
    const api = this;
    const status = {
      get inFlight() {
        return api.inFlight;
      },
      get transport() {
        return api.transport;
      },
      get warming() {
        return api.warming;
      },
      get responses() {
        return api.property.responses;
      },
    };
    this.ops = new OpsRoutes(ctx, status, this.tiles, { trustProxy: this.trustProxy, playground: options.playground ?? true });
    this.modules = { property: this.property, da: this.daRoutes, batch: this.batch, childcare: this.childcare, sqlMcp: this.sqlMcp, tiles: this.tiles, ops: this.ops };
    for (const r of routes) {
      this.paths.add(r.path, r);
      for (const alias of r.aliases ?? []) this.paths.add(alias, r);
    }
  }

  /** Finished payloads held for repeat requests. */
  get responseCache(): ResponseCache {
    return this.property.responses;
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
      // Not /metrics: it answers loopback callers only, and a page in the operator's browser is one.
      if (req.path !== '/metrics') withCors(res);
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
    if (req.path === '/metrics') return this.ops.metrics(req);
    const matched = this.paths.match(req.path);
    const route = matched?.value;
    if (!matched || !route) throw new ApiError('not_found', `no endpoint at ${req.path.length > 200 ? `${req.path.slice(0, 200)}...` : req.path}; see /api/v1/docs`);
    // HEAD is answered wherever GET is (RFC 9110 section 9.1), with the GET's status and headers and no body.
    const allowed = allowedMethods(route);
    if (req.method === 'OPTIONS') return preflight(allowed);
    const op = operationFor(route, req.method);
    if (!op || !allowed.includes(req.method)) {
      throw new ApiError('method_not_allowed', `${route.path} answers ${allowed.join(', ')} only, not ${req.method.length > 20 ? `${req.method.slice(0, 20)}...` : req.method}`, {}, { Allow: allowed.join(', ') });
    }
    const p = matched.params;
    let client: string | undefined;
    const call: RouteCall<unknown> = {
      req,
      params: p,
      template: matched.template,
      // A job, DA or subscription id in the path (/v1/das/{id}, /v1/webhooks/{id}/..., /v1/batch/{id}/...).
      id: p.id === undefined ? '' : (strictDecode(p.id) ?? p.id),
      key: undefined as unknown as ApiKeyRecord,
      client: () => (client ??= this.clientAddress(req)),
      authenticate: () => this.authenticate(req),
      onKey,
      abort,
      gzip: acceptsGzip(req.acceptEncoding),
      modules: this.modules,
    };
    if (op.auth !== 'key') return op.handle(call);
    return chain(this.authenticate(req), (key) => {
      onKey(key.id);
      return op.handle({ ...call, key });
    });
  }

  /** The SQL runner, made on first use when the server was given none (its mirror a scratch file). */
  sqlRunnerFor(das: () => DaReader): SqlRunner {
    return this.sqlMcp.sqlRunnerFor(das);
  }

  /** Releases what the API made for itself (the SQL runner and its scratch mirror); the server calls it when it stops. */
  close(): void {
    this.sqlMcp.close();
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

  /**
   * Whether the request may send a body past the ordinary 1 MiB: a batch upload (`BATCH_PATHS`) whose key is
   * known and not revoked. The transports ask before reading the body, so a made-up or revoked key never gets
   * 128 MiB read and held for it (it is answered 401 as soon as this says no).
   */
  largeBodyAllowed(req: ApiRequest): MaybePromise<boolean> {
    if (!req.authorization || !BATCH_PATHS.includes(req.path)) return false;
    try {
      const key = this.authenticate(req);
      return key instanceof Promise ? key.then(() => true, () => false) : true;
    } catch {
      return false;
    }
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

  /** The client's address: the peer, or behind a trusted local proxy its X-Real-IP. */
  private clientAddress(req: ApiRequest): string {
    const peer = req.remoteAddress?.() ?? '';
    if (this.trustProxy && req.realIp && isLoopback(peer)) return req.realIp.trim().slice(0, 64);
    return peer;
  }
}
