/**
 * What every part of the API shares: the request and response as the transports hand them over, the API's
 * options, the context each product's routes are given (server/api/*-routes.ts), and the small answers and
 * checks they all use.
 */
import type { AnyRoute } from './route-value.js';
import type { GuideName } from './guides.js';
import { gzipSync } from 'node:zlib';
import type { DaService } from '../../engine/entry/das.js';
import type { SqlRunner } from '../../engine/entry/das.js';
import type { PropertyService } from '../../engine/entry/property.js';
import type { ChildcareWorld, NoticeLookup, OpenSchool, ReportFile, ReportFormat, SiteRequest } from '../../engine/entry/childcare.js';
import type { StateCode } from '../../engine/entry/data.js';
import type { BatchLimits } from '../batch/batch-jobs.js';
import type { MaybePromise } from '../maybe-promise.js';
import type { ApiKeyRecord, ServerStore } from '../store/store.js';
import { isPlaygroundKey, limitDaRequest } from '../metering/request-limits.js';
import type { RequestLog } from '../request-log.js';
import type { DaEventSource } from '../store/webhook-store.js';
import type { WebhookContext } from './webhook-handlers.js';
import { ApiError, RETRY_AFTER_S, toApiError } from '../http/api-error.js';
import { MAX_REQUEST_BODY } from '../http/limits.js';
import { acceptsGzip } from './payload-body.js';

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
  stream?: () => Iterator<Buffer> | AsyncIterator<Buffer>;
}


/** Options of {@link Api}. */

/** Reports rendered at once by default (each is one worker thread for ~0.1 s; beyond it, 429). */
export const DEFAULT_REPORT_CONCURRENCY = 2;
/** Seconds a client waits before retrying a busy renderer. */
export const REPORT_RETRY_AFTER_S = 2;

/** The engine's tile calls as the server uses them. */
export interface TileService {
  tile(layer: string, z: number, x: number, y: number): Promise<{ bytes: Uint8Array | null; sources: string[] }>;
  /** Terrain tiles (Terrarium PNG), where the service makes them. */
  terrainTile?(z: number, x: number, y: number): Promise<{ bytes: Uint8Array; sources: string[] }>;
  terrainLayer?(): { id: string; description: string; minzoom: number; maxzoom: number; encoding: string; tileSize: number } | null;
  tileLayers(): { id: string; description: string; minzoom: number; maxzoom: number; fields: Record<string, string> }[];
  tileBounds(): [number, number, number, number];
  tileAttribution(layer: string): string;
}

/** The engine's report call as the server uses it. */
export type ReportService = (req: SiteRequest, format: ReportFormat, options: { data?: Record<string, unknown>; generatedAt?: Date }) => Promise<ReportFile>;

export interface ApiOptions {
  /**
   * The routes answered: default every route (routes.ts). A list with routes of the caller's own adds them to
   * the router and to the OpenAPI document it serves (test/server/route-values.test.ts adds one).
   */
  routes?: readonly AnyRoute[];
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
  das?: () => DaService;
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
  /**
   * Batch jobs: the local worker to wake when one is created (server/batch/batch-runner.ts; default none), rows
   * per chunk, and what each key may hold (default DEFAULT_BATCH_LIMITS; give the worker the same).
   */
  batch?: { runner?: { wake(): void; cancelled?(id: string): void }; chunkRows?: number; limits?: Partial<BatchLimits> };
}

/** Whether the client went away; `signal` is made on demand (server/transport/lazy-abort.ts). */
export interface AbortSource {
  readonly aborted: boolean;
  readonly signal: AbortSignal;
}

/** What the product routes share, made once by the {@link Api} from its options. */
export interface ApiContext {
  /** The property engine (or anything implementing its contract), with whatever else it serves. */
  service: PropertyService;
  store: ServerStore;
  clock: () => Date;
  log: RequestLog;
  /** The DA store the listing, childcare, SQL, MCP and webhooks read; null when the server holds none (503). */
  das: (() => DaService) | null;
  /** What a childcare site analysis reads besides the DA store. */
  childcareWorld: ChildcareWorld;
  notices: NoticeLookup;
  /** The API's documents, made from its routes (server/openapi/): the routes serve them, never import them. */
  documents: ApiDocuments;
}

/** The documents the API serves and stamps its payloads with. */
export interface ApiDocuments {
  /** The OpenAPI document of every route. */
  openApi(): Record<string, unknown>;
  /** `meta.documentation`: the document's version and hash. */
  stamp(): { version: string; hash: string };
  /** The childcare paths' OpenAPI document. */
  childcareOpenApi(): Record<string, unknown>;
  /** The childcare integration guide (HTML). */
  childcareGuide(): string;
  /** The reference page of the OpenAPI document (HTML), linking the guides. */
  docsPage(): string;
  /** The childcare reference page (HTML). */
  childcareDocsPage(): string;
  /** A guide as HTML, or null when it is not installed. */
  guidePage(name: GuideName): string | null;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** 127.0.0.0/8 and ::1, as text from either transport (uWS writes IPv4-mapped IPv6 in full hex). */
export function isLoopback(address: string): boolean {
  return /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address) || /^0000:0000:0000:0000:0000:ffff:7f/i.test(address) || address === '0000:0000:0000:0000:0000:0000:0000:0001';
}

/** `doc` as a no-store JSON answer with `headers`, gzipped above 1 KiB when the client accepts gzip. */
export function jsonAnswer(doc: unknown, acceptEncoding: string, headers: Record<string, string>): ApiResponse {
  const json = Buffer.from(JSON.stringify(doc));
  const gzip = acceptsGzip(acceptEncoding) && json.length > 1024;
  const out: Record<string, string> = { ...headers, 'Cache-Control': 'no-store', Vary: 'Accept-Encoding' };
  if (gzip) out['Content-Encoding'] = 'gzip';
  return { status: 200, contentType: JSON_TYPE, headers: out, body: gzip ? gzipSync(json, { level: 4 }) : json };
}

/** Runs `answer`; the rate-limit headers of the request ride on any error it throws as well. */
export function withLimits<T>(limits: Record<string, string>, answer: () => T): T {
  try {
    return answer();
  } catch (err) {
    const e = toApiError(err);
    Object.assign(e.headers, limits);
    throw e;
  }
}

/** The DA store, or 503 when this server holds none. */
export function requireDas(ctx: ApiContext): () => DaService {
  if (!ctx.das) throw new ApiError('service_unavailable', 'this server holds no DA store', { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
  return ctx.das;
}

/** 413 for a body past {@link MAX_REQUEST_BODY}. */
export function refuseLargeBody(req: ApiRequest): void {
  if (req.bodyTooLarge) throw new ApiError('payload_too_large', `the request body is larger than ${MAX_REQUEST_BODY} bytes`, { limit: MAX_REQUEST_BODY });
}

export const clientClosed = () => new ApiError('client_closed', 'the client closed the request');

/**
 * The playground's public demo key reads the DA listing and nothing else: webhooks, SQL and MCP are refused
 * (403), and the refused request still counts against its 10 a minute (a 429 past them), as every request
 * it makes does.
 */
export async function refusePlayground(ctx: ApiContext, key: ApiKeyRecord, client: string, what: string): Promise<void> {
  if (!isPlaygroundKey(key)) return;
  const limits = await limitDaRequest(ctx.store, key, client, ctx.clock());
  throw new ApiError('not_licensed', `the playground's demo key reads the DA listing only, not ${what}; use a key of your own (\`propintel keys create --da-daily-limit N\`)`, { requested: [what] }, limits);
}
