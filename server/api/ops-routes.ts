/**
 * The operator's and the public pages' routes: /healthz, /metrics (loopback only, Prometheus text), the API
 * documents and docs pages, the childcare guide, the map and its assets, the sandbox addresses, the
 * playground and the canned samples; each static body made once and then served without waiting.
 */
import { VERSION, type MemoryReport } from '../../engine/index.js';
import { SAMPLE_NAMES, type PropertyService, type SampleName } from '../../engine/entry/property.js';
import { playgroundKey } from '../keys/playground-key.js';
import { maplibreAsset, renderMapPage } from '../map/map-page.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import { GUIDES, guidePath, type GuideName } from './guides.js';
import { healthDoc, jsonPageDoc, pageDoc, sampleDoc } from './page-docs.js';
import { renderPlaygroundPage } from '../playground/playground-page.js';
import { ApiError } from '../http/api-error.js';
import { isLoopback, JSON_TYPE, type ApiContext, type ApiRequest, type ApiResponse, type TileService } from './api-types.js';
import { staticBody, type StaticBody } from './payload-body.js';
import { decodeQuery, rejectUnknown } from './query.js';
import type { ResponseCache } from './response-cache.js';
import { get, type RouteOperation, type RouteValue } from './route-value.js';

/**
 * A page a route serves: made once by `make` (null when this server does not have it: `missing` says so),
 * then served as stored, gzipped when accepted. Each page route carries its own (see the lists below).
 */
export interface StaticPage {
  /** The name it is kept under. */
  name: string;
  contentType: string;
  cacheControl: string;
  /** Refuses the request when this server serves no such page (no tiles, the playground switched off). */
  check?(from: PageSources): void;
  make(from: PageSources): Promise<string | Buffer | null>;
  /** The error for a page `make` found absent. */
  missing?(): ApiError;
}

/** What a page is made from. */
export interface PageSources {
  ctx: ApiContext;
  tiles: MapTiles;
  playground: boolean;
}

const HTML = 'text/html; charset=utf-8';
const FIVE_MINUTES = 'public, max-age=300';

/** What /healthz and /metrics report of the API itself. */
export interface ApiStatus {
  readonly inFlight: number;
  readonly transport: string;
  readonly warming: string | null;
  readonly responses: ResponseCache;
}

/** What the map page needs of the tile routes: the engine's tiles, and whether they are keyless. */
export interface MapTiles {
  tiles(): TileService | null;
  keyless(): boolean;
}

/** The operator's and public pages' routes of one API. */
/** What an engine with engine threads adds (engine/runtime/engine.ts: `compute: 'threads'`). */
interface ThreadedService {
  threadStats(): { threads: number; queued: number; perThread: { slot: number; tid: number | null; inFlight: number; calls: number; failed: number; restarts: number }[] } | null;
  threadHeaps(): Promise<{ used: number; total: number; external: number; arrayBuffers: number }[]>;
  threadStates(): Promise<string[][]>;
}

export class OpsRoutes {
  private readonly statics = new Map<string, Promise<StaticBody | null>>();
  private readonly staticsDone = new Map<string, StaticBody | null>();

  constructor(
    private readonly ctx: ApiContext,
    private readonly status: ApiStatus,
    private readonly tiles: MapTiles,
    private readonly options: { trustProxy: boolean; playground: boolean },
  ) {}

  /**
   * `GET /metrics`: the Prometheus text exposition (version 0.0.4) of process memory, the engine's memory by
   * state and model, the caches, requests in flight and the DA store. For operators on the machine: only a
   * loopback peer is answered (deploy/nginx/propintel.conf does not forward it); anyone else gets 404.
   */
  async metrics(req: ApiRequest): Promise<ApiResponse> {
    const peer = req.remoteAddress?.() ?? '';
    if (!isLoopback(peer) || (this.options.trustProxy && req.realIp)) throw new ApiError('not_found', 'no endpoint at /metrics; see /api/v1/docs');
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
    const report = await (this.ctx.service as PropertyService & { memoryReport?: () => Promise<MemoryReport> }).memoryReport?.();
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
      if (report.budget) {
        const b = report.budget;
        metric('propintel_model_budget_bytes', 'The byte budget of the per-state models (NaN: none; models are kept once built).', 'gauge', [[{}, b.budgetBytes ?? NaN]]);
        metric('propintel_model_held_bytes', 'Estimated bytes of the per-state models held now, by state, counted against the budget.', 'gauge', Object.entries(b.heldBytes).map(([state, v]) => [{ state: state || 'none' }, v]));
        metric('propintel_model_evictions_total', 'States whose models were dropped to stay within the budget.', 'counter', [[{}, b.evictions]]);
      }
      metric('propintel_cache_entries', 'Entries in the memory tier of each engine cache.', 'gauge', report.caches.filter((c) => c.entries !== null).map((c) => [{ cache: c.cache }, c.entries!]));
      metric('propintel_cache_memory_bytes', 'Estimated bytes in the memory tier of each engine cache.', 'gauge', report.caches.filter((c) => c.bytes !== null).map((c) => [{ cache: c.cache }, c.bytes!]));
    }
    const threaded = this.ctx.service as PropertyService & Partial<ThreadedService>;
    const threads = typeof threaded.threadStats === 'function' ? threaded.threadStats() : null;
    if (threads && typeof threaded.threadHeaps === 'function') {
      const heaps = await threaded.threadHeaps().catch(() => []);
      const held = typeof threaded.threadStates === 'function' ? await threaded.threadStates().catch(() => []) : [];
      metric('propintel_engine_threads', 'Engine threads running (every lookup, batch part, tile and report runs on one).', 'gauge', [[{}, threads.threads]]);
      metric('propintel_engine_calls_queued', 'Calls waiting for a free engine thread.', 'gauge', [[{}, threads.queued]]);
      metric('propintel_engine_calls_in_flight', 'Calls an engine thread is working on, by thread.', 'gauge', threads.perThread.map((t) => [{ thread: String(t.slot) }, t.inFlight]));
      metric('propintel_engine_calls_total', 'Calls each engine thread answered (failed ones included).', 'counter', threads.perThread.map((t) => [{ thread: String(t.slot) }, t.calls]));
      metric('propintel_engine_calls_failed_total', 'Calls each engine thread answered with an error.', 'counter', threads.perThread.map((t) => [{ thread: String(t.slot) }, t.failed]));
      metric('propintel_engine_thread_info', 'Each engine thread\'s Linux thread id (its CPU time is in /proc/PID/task/TID/stat); the value is always 1.', 'gauge', threads.perThread.filter((t) => t.tid !== null).map((t) => [{ thread: String(t.slot), tid: String(t.tid) }, 1]));
      metric('propintel_engine_thread_state_held', 'The states each engine thread holds whole in memory (its own, and any it took on for their traffic); the value is always 1.', 'gauge', held.flatMap((states, i) => states.map((st): [Record<string, string>, number] => [{ thread: String(i), state: st }, 1])));
      metric('propintel_engine_thread_restarts_total', 'Times an engine thread died or was stopped and was replaced.', 'counter', threads.perThread.map((t) => [{ thread: String(t.slot) }, t.restarts]));
      metric('propintel_engine_thread_heap_bytes', "Each engine thread's memory by kind (V8 heap used and total, external, array buffers), bytes; the process's RSS holds them all.", 'gauge', heaps.flatMap((h, i): [Record<string, string>, number][] => [[{ thread: String(i), kind: 'used' }, h.used], [{ thread: String(i), kind: 'total' }, h.total], [{ thread: String(i), kind: 'external' }, h.external], [{ thread: String(i), kind: 'array_buffers' }, h.arrayBuffers]]));
    }
    metric('propintel_response_cache_entries', 'Finished payloads in the response cache.', 'gauge', [[{}, this.status.responses.size]]);
    metric('propintel_response_cache_bytes', 'Payload bytes in the response cache (bounded).', 'gauge', [[{}, this.status.responses.bytes]]);
    metric('propintel_requests_in_flight', 'Requests being answered, this one included.', 'gauge', [[{}, this.status.inFlight]]);
    const das = this.ctx.das;
    if (das) {
      try {
        metric('propintel_da_records', 'Development applications in the DA store.', 'gauge', [[{}, das().size]]);
      } catch {
        // The DA store cannot answer: the metric is left out rather than the scrape failing.
      }
    }
    return { status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', headers: { 'Cache-Control': 'no-store' }, body: `${lines.join('\n')}\n` };
  }

  /** `GET /healthz`: the status, the version and the requests in flight (never cached). */
  health(req: ApiRequest): ApiResponse {
    rejectUnknown(decodeQuery(req.query), [], '/healthz');
    const warming = this.status.warming;
    return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify({ status: warming === null ? 'ok' : 'warming', version: VERSION, server: this.status.transport, in_flight: this.status.inFlight - 1, ...(warming === null ? {} : { warming }) }) };
  }

  /** A page of `path` (its query refused: pages take none). */
  page(req: ApiRequest, path: string, page: StaticPage, gzip: boolean): MaybePromise<ApiResponse> {
    rejectUnknown(decodeQuery(req.query), [], path);
    const from: PageSources = { ctx: this.ctx, tiles: this.tiles, playground: this.options.playground };
    page.check?.(from);
    return chain(
      this.once(page.name, async () => {
        const body = await page.make(from);
        return body === null ? null : staticBody(body);
      }),
      (b) => {
        if (!b) throw page.missing?.() ?? new ApiError('not_found', `no endpoint at ${path}`);
        const headers: Record<string, string> = { 'Cache-Control': page.cacheControl, Vary: 'Accept-Encoding' };
        if (gzip) headers['Content-Encoding'] = 'gzip';
        return { status: 200, contentType: page.contentType, headers, body: gzip ? b.gzip : b.identity };
      },
    );
  }

  /** A body computed once, then served without waiting (a failure is not remembered: the next request tries again). */
  once(name: string, make: () => Promise<StaticBody | null>): MaybePromise<StaticBody | null> {
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

const SAMPLE_TEXT: Record<SampleName, string> = {
  sample: 'A complete canned response of the full endpoint (real engine output on a sample-world address).',
  core: 'A canned response of /core.',
  walkability: 'A canned `scores.walkability`.',
  flood: 'A canned `scores.flood` with an official modelled depth.',
  bushfire: 'The canned bushfire screening contract (it predates the indicative BAL field).',
  context: 'Only `heat_island`, `view_quality` and `solar`.',
  contamination: 'A canned contamination sample.',
};

/** A keyless page: GET (and HEAD), no parameters, answered by `OpsRoutes.page`. */
function pageRoute(path: string, tag: RouteValue['tag'], page: StaticPage, doc: RouteOperation['doc'], text: { summary: string; description: string }): RouteValue<{ ops: OpsRoutes }> {
  return { path, tag, ...text, operations: [get('none', doc, (c) => c.modules.ops.page(c.req, path, page, c.gzip))] };
}

const json = (value: unknown) => JSON.stringify(value);

/** A canned sample (datasets/samples/). */
const samplePage = (name: SampleName): StaticPage => ({
  name: `sample:${name}`,
  contentType: JSON_TYPE,
  cacheControl: FIVE_MINUTES,
  make: async (f) => {
    const doc = await f.ctx.service.sample(name);
    return doc === null ? null : json(doc);
  },
  missing: () => new ApiError('sample_unavailable', `the ${name} sample is not installed on this server (datasets/samples/)`),
});

/** One of the map page's files: none where this server makes no tiles. */
function mapPage(name: string, contentType: string, cacheControl: string, make: (tiles: TileService, f: PageSources) => Promise<string>): StaticPage {
  const tilesOf = (f: PageSources) => {
    const tiles = f.tiles.tiles();
    if (!tiles) throw new ApiError('not_found', 'this server makes no tiles, so it has no map');
    return tiles;
  };
  return { name, contentType, cacheControl, check: tilesOf, make: (f) => make(tilesOf(f), f) };
}

/** A guide (docs/NAME.md) as HTML. */
const guidePage = (guide: GuideName): StaticPage => ({
  name: `guide-${guide}`,
  contentType: HTML,
  cacheControl: FIVE_MINUTES,
  make: async (f) => f.ctx.documents.guidePage(guide),
  missing: () => new ApiError('not_found', `the guide ${guide} is not installed with this server (docs/${guide}.md)`),
});

/** The canned samples and the sandbox addresses. */
export const SAMPLE_ROUTES: readonly RouteValue<{ ops: OpsRoutes }>[] = [
  ...SAMPLE_NAMES.map((name) =>
    pageRoute(name === 'sample' ? '/api/v1/property/sample' : `/api/v1/property/sample/${name}`, 'Samples', samplePage(name), sampleDoc(name), {
      summary: name === 'sample' ? 'Complete canned response' : `Canned ${name} sample`,
      description: `${SAMPLE_TEXT[name]} No key needed; takes no parameters.`,
    }),
  ),
  pageRoute('/api/v1/property/sandbox', 'Samples', { name: 'sandbox', contentType: JSON_TYPE, cacheControl: FIVE_MINUTES, make: async (f) => json({ addresses: await f.ctx.service.sandbox() }) }, jsonPageDoc({ $ref: '#/components/schemas/Sandbox' }), {
    summary: 'The twelve never-metered sandbox addresses',
    description: 'Addresses across eight states and territories that any key may look up without being metered. No key needed.',
  }),
];

/** The childcare service's reference, guide and OpenAPI document. */
export const CHILDCARE_PAGE_ROUTES: readonly RouteValue<{ ops: OpsRoutes }>[] = [
  pageRoute('/api/v1/childcare/docs', 'Childcare', { name: 'childcare-docs', contentType: HTML, cacheControl: FIVE_MINUTES, make: async (f) => f.ctx.documents.childcareDocsPage() }, pageDoc(), {
    summary: 'The childcare service reference (HTML)',
    description: 'The reference page of the childcare endpoints, generated from /api/v1/childcare/openapi.json; offline, no external assets.',
  }),
  pageRoute('/api/v1/childcare/guide', 'Childcare', { name: 'childcare-guide', contentType: HTML, cacheControl: FIVE_MINUTES, make: async (f) => f.ctx.documents.childcareGuide() }, pageDoc(), {
    summary: 'Integration guide (HTML)',
    description: 'How to integrate the feed: keep the key on a server, page by meta.pages.next, upsert on id, match on council_reference, poll with overlap, reconcile with the helper; and what the data is not. Offline.',
  }),
  pageRoute('/api/v1/childcare/openapi.json', 'Childcare', { name: 'childcare-openapi', contentType: JSON_TYPE, cacheControl: FIVE_MINUTES, make: async (f) => json(f.ctx.documents.childcareOpenApi()) }, jsonPageDoc({ type: 'object', description: 'The childcare subset of this document.' }), {
    summary: 'The childcare service as OpenAPI 3.1',
    description: 'The main OpenAPI document narrowed to the childcare paths and the feed.',
  }),
];

/** The DA playground page. */
export const PLAYGROUND_ROUTES: readonly RouteValue<{ ops: OpsRoutes }>[] = [
  pageRoute('/playground', 'DA listing', {
    name: 'playground',
    contentType: HTML,
    cacheControl: 'no-cache',
    check: (f) => {
      if (!f.playground) throw new ApiError('not_found', 'the playground is switched off on this server');
    },
    make: async (f) => renderPlaygroundPage({ demoKey: await playgroundKey(f.ctx.store) }),
  }, pageDoc('text/html', 'The playground is switched off on this server.'), {
    summary: 'Try the DA listing in a browser',
    description: 'An HTML page that calls every DA-listing endpoint with a built-in demo key (the one key ever placed in a page): it reaches only the DA listing and allows 10 requests a minute per client address. No sign-up.',
  }),
];

/** The map page. */
export const MAP_PAGE_ROUTES: readonly RouteValue<{ ops: OpsRoutes }>[] = [
  pageRoute('/map', 'Tiles', mapPage('map', HTML, 'no-cache', async (tiles, f) => {
    const places = (await f.ctx.service.sandbox()).map((a) => ({ label: `${a.state}: ${a.address}`, lat: a.lat, lng: a.lng }));
    const layers = tiles.tileLayers().map((l) => ({ id: l.id, minzoom: l.minzoom, maxzoom: l.maxzoom, attribution: tiles.tileAttribution(l.id) }));
    const t = tiles.terrainLayer?.();
    const terrain = t ? { id: t.id, minzoom: t.minzoom, maxzoom: t.maxzoom, attribution: tiles.tileAttribution(t.id) } : null;
    return renderMapPage(layers, places, { pointSummary: f.tiles.keyless(), terrain });
  }), pageDoc('text/html', 'This server makes no tiles, so it has no map.'), {
    summary: 'A map of every tile layer in the browser',
    description: 'A MapLibre GL JS page served from this server (no CDN, no token, no external tiles: the basemap is drawn from our own roads, water, parcels and zones) with a layer switcher, legends and attribution; a click shows the property summary of that point.',
  }),
];

/** The map page's script and styles. */
export const MAP_ASSET_ROUTES: readonly RouteValue<{ ops: OpsRoutes }>[] = [
  pageRoute('/map/maplibre-gl.js', 'Tiles', mapPage('map-js', 'application/javascript; charset=utf-8', 'public, max-age=86400', async () => maplibreAsset('js')), pageDoc('application/javascript', 'This server makes no tiles, so it has no map.'), {
    summary: 'MapLibre GL JS, as the map page loads it',
    description: 'The maplibre-gl build this server ships (BSD-3-Clause).',
  }),
  pageRoute('/map/maplibre-gl.css', 'Tiles', mapPage('map-css', 'text/css; charset=utf-8', 'public, max-age=86400', async () => maplibreAsset('css')), pageDoc('text/css', 'This server makes no tiles, so it has no map.'), {
    summary: 'MapLibre GL JS styles',
    description: 'The maplibre-gl style sheet this server ships.',
  }),
];

/** Health, the OpenAPI document, the reference page and the guides. */
export const SERVICE_ROUTES: readonly RouteValue<{ ops: OpsRoutes }>[] = [
  {
    path: '/healthz',
    tag: 'Service',
    summary: 'Liveness',
    description: 'Answers 200 with the version while the server accepts requests; `status` is `warming` (with what it is doing in `warming`) while the engine builds its models and HAND tiles after a start, then `ok`. Requests are answered while warming.',
    operations: [get('none', healthDoc, (c) => c.modules.ops.health(c.req))],
  },
  pageRoute('/api/v1/openapi.json', 'Service', { name: 'openapi', contentType: JSON_TYPE, cacheControl: FIVE_MINUTES, make: async (f) => json(f.ctx.documents.openApi()) }, jsonPageDoc({ type: 'object', description: 'This document.' }), {
    summary: 'This API as OpenAPI 3.1',
    description: 'The machine-readable description of every endpoint, with the payload JSON Schemas.',
  }),
  pageRoute('/api/v1/docs', 'Service', { name: 'docs', contentType: HTML, cacheControl: FIVE_MINUTES, make: async (f) => f.ctx.documents.docsPage() }, pageDoc(), {
    summary: 'Human-readable reference',
    description: 'An HTML reference page generated from the OpenAPI document, linking to the guides below; served offline, no external assets.',
  }),
  ...GUIDES.map((guide) =>
    pageRoute(guidePath(guide), 'Service', guidePage(guide), pageDoc(), {
      summary: `Guide: ${guide}`,
      description: `The repository's docs/${guide}.md as an HTML page (links between guides stay on this server); the package ships the guides.`,
    }),
  ),
];
