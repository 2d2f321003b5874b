/**
 * Every endpoint the server answers, in one table: the router dispatches on it and the OpenAPI document
 * (server/openapi/) is generated from it, so the two cannot drift apart.
 */
import { SAMPLE_NAMES, type SampleName } from '../../engine/entry/property.js';
import { GUIDES, guidePath, type GuideName } from '../openapi/guide-pages.js';

/** The DA-listing operations (spec 4.1). */
export type DaOperation = 'list' | 'nearby' | 'get' | 'categories' | 'councils' | 'stats';

/** The childcare market intelligence operations (spec 4.2). */
export type ChildcareOperation = 'schema' | 'analysis' | 'site-analysis' | 'report' | 'export' | 'reconciliation-helper';

/** The webhook operations (spec 4.1 `POST /v1/webhooks`, and the management around it). */
export type WebhookOperation = 'create' | 'list' | 'get' | 'delete' | 'test' | 'deliveries';

/** The batch job operations (`/v1/batch...`). */
export type BatchOperation = 'create' | 'get' | 'cancel' | 'results';

/** What an endpoint does. */
export type RouteKind =
  | { kind: 'property'; variant: 'full' | 'core' }
  | { kind: 'da'; op: DaOperation }
  | { kind: 'webhooks'; ops: Partial<Record<string, WebhookOperation>> }
  | { kind: 'batch'; ops: Partial<Record<string, BatchOperation>> }
  | { kind: 'sql' }
  | { kind: 'childcare'; op: ChildcareOperation }
  | { kind: 'childcare-page'; page: 'docs' | 'guide' | 'openapi' }
  | { kind: 'mcp' }
  | { kind: 'playground' }
  | { kind: 'tile' }
  | { kind: 'terrain' }
  | { kind: 'tilejson' }
  | { kind: 'map'; asset: 'page' | 'js' | 'css' }
  | { kind: 'map-point' }
  | { kind: 'sample'; name: SampleName }
  | { kind: 'sandbox' }
  | { kind: 'health' }
  | { kind: 'openapi' }
  | { kind: 'docs'; guide?: GuideName };

/** One endpoint. */
export interface Route {
  path: string;
  /** True when the endpoint needs `Authorization: Bearer <key>`. */
  keyed: boolean;
  /** The methods it answers (default GET, and HEAD for public routes). */
  methods?: readonly string[];
  summary: string;
  description: string;
  /** OpenAPI tag. */
  tag: 'Property' | 'Batch' | 'Samples' | 'DA listing' | 'Webhooks' | 'SQL and MCP' | 'Childcare' | 'Tiles' | 'Service';
  handler: RouteKind;
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

const DA_ROUTES: { path: string; op: DaOperation; summary: string; description: string }[] = [
  {
    path: '/das',
    op: 'list',
    summary: 'List and filter development applications',
    description:
      'Applications newest lodged first (ties: highest id first), filtered by state, council, category, suburb, postcode, lodgement dates, status group and the residential flag (all combined with AND). Paged by `page` and `per_page`; follow `meta.pages.next` (it carries a keyset cursor) to visit every record exactly once even while records are being imported. A page past the end is an empty page with the totals.',
  },
  {
    path: '/das/nearby',
    op: 'nearby',
    summary: 'Applications within a radius of a point',
    description: 'Geocoded applications within `radius_km` (default 5, at most 50) of `lat`/`lng`, nearest first (great-circle distance), each with `distance_km`. Records without coordinates are never in radius results.',
  },
  {
    path: '/das/{id}',
    op: 'get',
    summary: 'One application with every data point and a summary',
    description: 'Every field of the listing plus `summary`, a plain-English summary built by a fixed template from the classified fields, and `summary_method`, which says so (no language model is used).',
  },
  { path: '/categories', op: 'categories', summary: 'The 21 categories with record counts', description: 'Every category (slug, display name, count), zero counts included; `state` narrows the counts.' },
  {
    path: '/councils',
    op: 'councils',
    summary: 'Councils with record counts and freshness',
    description: 'Every council holding records: state, count, `last_updated` (the latest fetch of its records), and the share of its records that are geocoded and that carry a council status. `state` narrows the list.',
  },
  { path: '/stats', op: 'stats', summary: 'Totals by state, category and status group', description: 'Total records, councils, geocoded share, counts by state, category and status group, the lodgement date range and the latest fetch.' },
];

/** The DA-listing routes at both prefixes (DESIGN.md: every DA-listing path answers at /v1 and /api/v1). */
const daRoutes = (): Route[] =>
  ['/v1', '/api/v1'].flatMap((prefix) =>
    DA_ROUTES.map((r): Route => ({ path: `${prefix}${r.path}`, keyed: true, tag: 'DA listing', summary: r.summary, description: `${r.description} Needs a key with the DA listing (daily request limit in the RateLimit headers).`, handler: { kind: 'da', op: r.op } })),
  );

const WEBHOOK_NOTE = ' Needs a key with the DA listing; a key sees and changes only its own subscriptions (another key\'s id is 404).';

const WEBHOOK_ROUTES: { path: string; ops: Partial<Record<string, WebhookOperation>>; summary: string; description: string }[] = [
  {
    path: '/webhooks',
    ops: { POST: 'create', GET: 'list' },
    summary: 'Subscribe to new and changed DAs; list subscriptions',
    description:
      'POST a JSON body with `url` (https, a public address), `events` (`da.created`, `da.status_changed` or both) and optional filters (`state`, `council`, `category`, `status_group`, or a circle `lat`, `lng`, `radius_km` up to 50), at the top level or in `filters`: 201 with the subscription and its signing secret (`whsec_...`), shown only this once. At most 25 subscriptions per key. Deliveries follow Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret\'s bytes), body `{type, timestamp, data}`. A 2xx within 15 s is success; anything else is retried over about three days (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), honouring Retry-After; 410 disables the subscription. GET lists the key\'s subscriptions, never their secrets.',
  },
  { path: '/webhooks/{id}', ops: { GET: 'get', DELETE: 'delete' }, summary: 'One subscription; delete it', description: 'GET shows one subscription (never its secret); DELETE removes it and cancels its pending deliveries.' },
  { path: '/webhooks/{id}/test', ops: { POST: 'test' }, summary: 'Send a ping', description: 'Queues a signed `ping` delivery to the subscription at once (202 with the delivery and event ids); its outcome shows in /deliveries.' },
  { path: '/webhooks/{id}/deliveries', ops: { GET: 'deliveries' }, summary: 'Recent deliveries and their attempts', description: 'The latest 50 deliveries, newest first: event, state (pending, delivered, failed, cancelled), attempts with their time, response status or error, and duration. Response bodies are never kept or shown.' },
];

/** The webhook routes at both prefixes, like the DA listing's. */
const webhookRoutes = (): Route[] =>
  ['/v1', '/api/v1'].flatMap((prefix) =>
    WEBHOOK_ROUTES.map((r): Route => ({ path: `${prefix}${r.path}`, keyed: true, methods: Object.keys(r.ops), tag: 'Webhooks', summary: r.summary, description: `${r.description}${WEBHOOK_NOTE}`, handler: { kind: 'webhooks', ops: r.ops } })),
  );

const BATCH_NOTE = ' Keyed like the property endpoints: the rows are looked up with the key\'s licence and metered as single lookups are (each unique address once per billing period; a row whose address was already charged this period is free, so re-submitting a file charges nothing more). Every path answers at /v1 and /api/v1.';

const BATCH_ROUTES: { path: string; ops: Partial<Record<string, BatchOperation>>; summary: string; description: string }[] = [
  {
    path: '/batch',
    ops: { POST: 'create' },
    summary: 'Submit a file of addresses for lookup',
    description: 'The body is CSV (`Content-Type: text/csv`; a header row with an `address` column, or `lat` and `lng` columns; every column carried through to the results; the delimiter detected from the header or given) or JSON lines (`application/x-ndjson`; one object per line with `address`, or `lat` and `lng`), up to 1,000,000 rows and 128 MiB. Options as query parameters: `components`, `include_geometry`, the results\' `format` and a `callback_url` for a signed `batch.completed` webhook (Standard Webhooks, signed with the `callback_secret` this answer shows once). 202 with the job; its rows are looked up in the background, in spatial order, a chunk at a time. A file that cannot be read as a whole is 422 `invalid_body`; a bad row is only that row\'s `invalid` status.',
  },
  {
    path: '/batch/{id}',
    ops: { GET: 'get', DELETE: 'cancel' },
    summary: 'A batch job\'s status; cancel it',
    description: 'GET: status (`queued`, `running`, `done`, `failed`, `cancelled`), rows total, done, failed and skipped, unique addresses `charged`, rows per second and the time left. A job stops at the key\'s quota (`failed` with `error.error` `quota_exceeded`), never charging past it. DELETE cancels a queued or running job (rows not yet looked up are marked `cancelled`, not charged); a finished job is shown as it is. Jobs and their results are kept 7 days after they finish, then removed.',
  },
  {
    path: '/batch/{id}/results',
    ops: { GET: 'results' },
    summary: 'A batch job\'s results, streamed',
    description: 'Every input row once, in input order, with its carried columns, `status` (`ok`, `unresolved`, `outside_coverage`, `invalid`, `error`), `error` (the code a single lookup of the row answers with: `address_unresolvable`, `outside_coverage`, `invalid_subject`, `invalid_parameter`, `quota_exceeded`, `cancelled`, ...) and `error_message`, the resolved address, match confidence and point, whether the row was charged, and the components: flattened to named columns in CSV (`flood_score`, `flood_level`, `zone_code`, `bushfire_bal`, ...), whole in JSON lines and GeoJSON. `format` (csv, jsonl, geojson) defaults to the job\'s. While the job runs, the rows done so far (the leading finished chunks) are given.',
  },
];

/** The batch routes at both prefixes. */
const batchRoutes = (): Route[] =>
  ['/v1', '/api/v1'].flatMap((prefix) =>
    BATCH_ROUTES.map((r): Route => ({ path: `${prefix}${r.path}`, keyed: true, methods: Object.keys(r.ops), tag: 'Batch', summary: r.summary, description: `${r.description}${BATCH_NOTE}`, handler: { kind: 'batch', ops: r.ops } })),
  );

/**
 * The methods `route` answers, as its Allow header lists them: HEAD after GET wherever GET is (RFC 9110 9.1).
 * The router refuses any other with 405, and the OpenAPI document's 405 says the same.
 */
export function withHead(route: Route): string[] {
  const methods = route.handler.kind === 'webhooks' || route.handler.kind === 'batch' ? Object.keys(route.handler.ops) : (route.methods ?? ['GET']);
  return methods.flatMap((m) => (m === 'GET' && !methods.includes('HEAD') ? ['GET', 'HEAD'] : [m]));
}

/** The endpoints, in the order of spec section 4 and then the service's own. */
export const ROUTES: readonly Route[] = [
  {
    path: '/api/v1/property',
    keyed: true,
    tag: 'Property',
    summary: 'Full payload for one address or point',
    description:
      'One Australian address (free text) or point (lat and lng, never both kinds) in, one JSON payload out: DAs, planning, hazards, environment, locality facts, nine scores and, with include_surfaces=1 on geometry-licensed keys, the noise, heat and contour surfaces. Billed per unique address per key per billing period; repeats are free.',
    handler: { kind: 'property', variant: 'full' },
  },
  {
    path: '/api/v1/property/core',
    keyed: true,
    tag: 'Property',
    summary: 'Score-free closed Core contract',
    description:
      'Identity, DAs, POI, planning, hazards, environment, transport, utilities, administrative and public housing. Never returns scores, surfaces or future top-level blocks. The key must cover the complete Core component set. Same resolver, rights filters, coverage states, source inventory, meter and cache as the full endpoint.',
    handler: { kind: 'property', variant: 'core' },
  },
  ...SAMPLE_NAMES.map(
    (name): Route => ({
      path: name === 'sample' ? '/api/v1/property/sample' : `/api/v1/property/sample/${name}`,
      keyed: false,
      tag: 'Samples',
      summary: name === 'sample' ? 'Complete canned response' : `Canned ${name} sample`,
      description: `${SAMPLE_TEXT[name]} No key needed; takes no parameters.`,
      handler: { kind: 'sample', name },
    }),
  ),
  {
    path: '/api/v1/property/sandbox',
    keyed: false,
    tag: 'Samples',
    summary: 'The twelve never-metered sandbox addresses',
    description: 'Addresses across eight states and territories that any key may look up without being metered. No key needed.',
    handler: { kind: 'sandbox' },
  },
  ...daRoutes(),
  ...webhookRoutes(),
  ...batchRoutes(),
  ...['/v1', '/api/v1'].map(
    (prefix): Route => ({
      path: `${prefix}/sql`,
      keyed: true,
      methods: ['POST'],
      tag: 'SQL and MCP',
      summary: 'Read-only SQL over the DA table',
      description:
        'POST `{"query": "SELECT ...", "params": [...]}`: one SELECT (or WITH ... SELECT) over the table `das` (id, address, address_suburb, address_postcode, council_name, council_reference, state, trade_category, sub_category, application_type, is_residential, lodgement_date, status, cost_of_development, decision_date, decision_status, on_notice_from, on_notice_to, number_of_dwellings, lot_count, land_use, building_type, storeys, latitude, longitude, data_source, date_fetched, info_url), with positional `?` parameters. At most 1,000 rows and 2 MiB of rows (`truncated` says when cut); 10 s from arrival, waiting for a free SQL process included (then 422 `query_timeout`); 512 MiB of memory for the query\'s sorts, temporary tables and values (then 422 `query_too_large`); per key one query running and one waiting, over this endpoint and MCP\'s sql_query together (a third is 429 `too_many_queries` at once), so one key never holds more than one of the 3 SQL processes. ATTACH, PRAGMA, load_extension and anything that is not a query are refused with 422 before running. Needs a key with the DA listing and the SQL entitlement (`propintel keys create --da-daily-limit N --sql`); each query counts against the daily limit.',
      handler: { kind: 'sql' },
    }),
  ),
  {
    path: '/api/v1/childcare/schema',
    keyed: true,
    tag: 'Childcare',
    summary: 'Product, version, dimensions and paths; the key check',
    description: 'The childcare product (`childcare_market_intelligence`, `v1`), the key\'s licence (status, expiry, allowed states, add-on), the stable dimensions (pipeline stages, works types, states, breakdown keys) and every endpoint path. A 200 here means the key works for the childcare service.',
    handler: { kind: 'childcare', op: 'schema' },
  },
  {
    path: '/api/v1/childcare/analysis',
    keyed: true,
    tag: 'Childcare',
    summary: 'Childcare pipeline analysis for the entitled states',
    description: 'The childcare DAs of `state` (default every entitled state) lodged since `since`: headline stage counts, a monthly trend with zero months, breakdowns by stage, works type, state, council and suburb, coverage diagnostics, demand signals (all development, subdivisions, lots, dwellings in the same scope) and map points (`feature_limit`, default 500, at most 5000: it limits map features only, never counts). Every answer carries the attribution notices and the data boundaries.',
    handler: { kind: 'childcare', op: 'analysis' },
  },
  {
    path: '/api/v1/childcare/site-analysis',
    keyed: true,
    methods: ['GET', 'POST'],
    tag: 'Childcare',
    summary: 'Catchment analysis around a site',
    description: 'The analysis of /analysis within `radius_km` (0.1 to 30, default 5) of `lat`/`lng`, which must lie in `state` (required, and entitled). Records without coordinates are never in a catchment. `suburb` names the suburb whose census context is shown (a suburb fact, never a catchment statistic). `include_access=true` is 400.',
    handler: { kind: 'childcare', op: 'site-analysis' },
  },
  {
    path: '/api/v1/childcare/report',
    keyed: true,
    methods: ['GET', 'POST'],
    tag: 'Childcare',
    summary: 'A finished PDF or HTML report of a catchment, with its map',
    description: 'The site analysis of the same request (GET: `lat`, `lng`, `radius_km`, `state`, `suburb`; POST: the /site-analysis polygon body, `format` in the query) rendered as `format` pdf (a download) or html (one self-contained file: inline CSS and SVG, no external request). The map is drawn on the server from the dataset\'s own roads and water, with the catchment, the childcare DAs by stage, open schools, a legend, scale bar, north arrow and the attribution of every source drawn; the document carries the headline, trend, breakdowns, pipeline list, schools, suburb context, coverage, data boundaries and notices. Renders run on the worker pool, a few at a time (`--report-concurrency`, default 2): past that, 429 with Retry-After; a renderer failure is 503 with Retry-After (use the JSON or CSV meanwhile). Each report counts against the daily limit.',
    handler: { kind: 'childcare', op: 'report' },
  },
  {
    path: '/api/v1/childcare/export',
    keyed: true,
    tag: 'Childcare',
    summary: 'Download the childcare pipeline as CSV or GeoJSON',
    description: 'Every entitled childcare row of `state` (default every entitled state), `format` csv (default) or geojson, as a file (Content-Disposition: attachment). CSV text fields that a spreadsheet would run as a formula (starting with = + - @, tab, CR, LF or their full-width forms, also after leading spaces) are prefixed with an apostrophe; numbers stay numbers. GeoJSON is EPSG:4326 [lng, lat] with `metadata` (records, features, not geocoded, truncated) and the data boundaries.',
    handler: { kind: 'childcare', op: 'export' },
  },
  {
    path: '/api/v1/childcare/reconciliation-helper',
    keyed: true,
    tag: 'Childcare',
    summary: 'A Python script that writes a reconciliation worksheet',
    description: 'A Python 3 script (standard library only) that pages through every row of the feed with the key from PROPINTEL_API_KEY (or DALEADS_API_KEY, or a hidden prompt) and writes a CSV worksheet: id, council_reference, stage, works type, observed_at, and blank columns customer_match, customer_source, customer_record_id, classification_review, review_notes. It refuses to overwrite a worksheet without --force and waits out 429s per Retry-After.',
    handler: { kind: 'childcare', op: 'reconciliation-helper' },
  },
  {
    path: '/api/v1/childcare/docs',
    keyed: false,
    tag: 'Childcare',
    summary: 'The childcare service reference (HTML)',
    description: 'The reference page of the childcare endpoints, generated from /api/v1/childcare/openapi.json; offline, no external assets.',
    handler: { kind: 'childcare-page', page: 'docs' },
  },
  {
    path: '/api/v1/childcare/guide',
    keyed: false,
    tag: 'Childcare',
    summary: 'Integration guide (HTML)',
    description: 'How to integrate the feed: keep the key on a server, page by meta.pages.next, upsert on id, match on council_reference, poll with overlap, reconcile with the helper; and what the data is not. Offline.',
    handler: { kind: 'childcare-page', page: 'guide' },
  },
  {
    path: '/api/v1/childcare/openapi.json',
    keyed: false,
    tag: 'Childcare',
    summary: 'The childcare service as OpenAPI 3.1',
    description: 'The main OpenAPI document narrowed to the childcare paths and the feed.',
    handler: { kind: 'childcare-page', page: 'openapi' },
  },
  {
    path: '/mcp',
    keyed: true,
    methods: ['POST'],
    tag: 'SQL and MCP',
    summary: 'Model Context Protocol server (Streamable HTTP)',
    description:
      'The DA listing as seven MCP tools (search_das, nearby_das, get_da, list_councils, list_categories, get_stats, sql_query) over Streamable HTTP, stateless, JSON responses: POST JSON-RPC with `Accept: application/json, text/event-stream`. The same bearer keys and DA daily limit as the endpoints (a tool call counts as one request); sql_query needs the SQL entitlement. GET and DELETE are 405 (no sessions, no server-sent stream).',
    handler: { kind: 'mcp' },
  },
  {
    path: '/playground',
    keyed: false,
    tag: 'DA listing',
    summary: 'Try the DA listing in a browser',
    description: 'An HTML page that calls every DA-listing endpoint with a built-in demo key (the one key ever placed in a page): it reaches only the DA listing and allows 10 requests a minute per client address. No sign-up.',
    handler: { kind: 'playground' },
  },
  {
    path: '/api/v1/tiles/{layer}/{z}/{x}/{y}.mvt',
    keyed: true,
    tag: 'Tiles',
    summary: 'A Mapbox Vector Tile of one layer',
    description:
      'MVT 2.1 (extent 4096, buffer 64) of `layer`: das, zones, overlays, flood, bushfire, schools, parcels (z >= 16), roads, water, contours (made on request from the DEM with the contours engine, `ele` and `level` as maplibre-contour names them; z >= 12), noise (the modelled Lden as nested polygons by 5 dB level, z 14-16), or hand (height above nearest drainage from the flood score\'s HAND tiles, nested polygons at most 1, 3, 5, 10 and 20 m, z 14-17). Gzipped when accepted; `ETag` and `Cache-Control`; 304 for a matching If-None-Match; 204 (no body) for an empty tile. Unknown layer 404; z outside the layer\'s zooms or x/y outside the grid 400. Keyed with the geometry licence, except on the synthetic sample world, where no key is needed.',
    handler: { kind: 'tile' },
  },
  {
    path: '/api/v1/tiles/terrain/{z}/{x}/{y}.png',
    keyed: true,
    tag: 'Tiles',
    summary: 'A terrain tile (Terrarium PNG) for hillshade and 3D terrain',
    description:
      'The DEMs of the catalogue as a raster-dem tile: 256 x 256 pixels of Web Mercator, each the DEM\'s bilinear height at the pixel\'s centre, Terrarium-encoded (height = R * 256 + G + B / 256 - 32768 metres; the `encoding: "terrarium"` of a MapLibre raster-dem source, which draws hillshade, 3D terrain, and with maplibre-contour contours from it). Zooms 8 to 15 (clients overzoom past 15); every DEM whose extent reaches the tile is sampled. Opaque RGB: where no DEM has a value, the nearest DEM height easing to 0 m (sea level) within 2 km of the data, 0 m beyond, so 3D terrain and hillshade show no cliff. `ETag` and `Cache-Control`; 304 for a matching If-None-Match. Keyed as the vector tiles are.',
    handler: { kind: 'terrain' },
  },
  {
    path: '/api/v1/tiles/{layer}.json',
    keyed: false,
    tag: 'Tiles',
    summary: 'TileJSON 3.0.0 of one tile layer',
    description: 'The layer\'s TileJSON: `tiles` (absolute URL), `vector_layers` with fields, bounds, min and max zoom, and the attribution of its sources.',
    handler: { kind: 'tilejson' },
  },
  {
    path: '/map',
    keyed: false,
    tag: 'Tiles',
    summary: 'A map of every tile layer in the browser',
    description: 'A MapLibre GL JS page served from this server (no CDN, no token, no external tiles: the basemap is drawn from our own roads, water, parcels and zones) with a layer switcher, legends and attribution; a click shows the property summary of that point.',
    handler: { kind: 'map', asset: 'page' },
  },
  {
    path: '/map/point',
    keyed: false,
    tag: 'Tiles',
    summary: 'The map\'s click summary of a point (sample world only)',
    description: 'For the map page on the synthetic sample world, without a key: the address the point resolves to, the nine scores with their levels, the hazards found (flood, bushfire, contamination) and the DAs on the parcel and within 300 m, from the property lookup of `lat` and `lng`. On real data it is 404: use /api/v1/property with a key.',
    handler: { kind: 'map-point' },
  },
  {
    path: '/map/maplibre-gl.js',
    keyed: false,
    tag: 'Tiles',
    summary: 'MapLibre GL JS, as the map page loads it',
    description: 'The maplibre-gl build this server ships (BSD-3-Clause).',
    handler: { kind: 'map', asset: 'js' },
  },
  {
    path: '/map/maplibre-gl.css',
    keyed: false,
    tag: 'Tiles',
    summary: 'MapLibre GL JS styles',
    description: 'The maplibre-gl style sheet this server ships.',
    handler: { kind: 'map', asset: 'css' },
  },
  {
    path: '/healthz',
    keyed: false,
    tag: 'Service',
    summary: 'Liveness',
    description: 'Answers 200 with the version while the server accepts requests; `status` is `warming` (with what it is doing in `warming`) while the engine builds its models and HAND tiles after a start, then `ok`. Requests are answered while warming.',
    handler: { kind: 'health' },
  },
  {
    path: '/api/v1/openapi.json',
    keyed: false,
    tag: 'Service',
    summary: 'This API as OpenAPI 3.1',
    description: 'The machine-readable description of every endpoint, with the payload JSON Schemas.',
    handler: { kind: 'openapi' },
  },
  {
    path: '/api/v1/docs',
    keyed: false,
    tag: 'Service',
    summary: 'Human-readable reference',
    description: 'An HTML reference page generated from the OpenAPI document, linking to the guides below; served offline, no external assets.',
    handler: { kind: 'docs' },
  },
  ...GUIDES.map(
    (guide): Route => ({
      path: guidePath(guide),
      keyed: false,
      tag: 'Service',
      summary: `Guide: ${guide}`,
      description: `The repository's docs/${guide}.md as an HTML page (links between guides stay on this server); the package ships the guides.`,
      handler: { kind: 'docs', guide },
    }),
  ),
];
