/**
 * The OpenAPI 3.1 document of every endpoint the server answers (server/api/routes.ts), with the payload
 * schemas taken from the engine's JSON Schema (OpenAPI 3.1 schemas are JSON Schema 2020-12), the error
 * bodies of spec section 7 and the query parameters of spec section 4 with their limits.
 */
import { createHash } from 'node:crypto';
import { SCORE_KEYS } from '../../engine/entry/scores.js';
import { BLOCK_SELECTORS, PROPERTY_BLOCKS, SURFACE_LAYERS, LIMITS, CORE_PAYLOAD_SCHEMA, PROPERTY_PAYLOAD_SCHEMA, USAGE_SCHEMA } from '../../engine/entry/property.js';
import { VERSION } from '../../engine/index.js';
import { RETRY_AFTER_S, type ErrorCode } from '../http/api-error.js';
import { MAX_REQUEST_TARGET } from '../http/limits.js';
import { FULL_ONLY_PARAMETERS, PROPERTY_PARAMETERS } from '../api/query.js';
import { allowedMethods, CORS_ALLOW_HEADERS, CORS_MAX_AGE } from '../api/cors.js';
import { ROUTES, type DaOperation, type Route, type WebhookOperation } from '../api/routes.js';
import { DA_EVENT_TYPES, DA_CATEGORIES, DA_LIMITS, DA_CATEGORIES_SCHEMA, DA_COUNCILS_SCHEMA, DA_DETAIL_SCHEMA, DA_LIST_SCHEMA, DA_NEARBY_SCHEMA, DA_STATS_SCHEMA, STATUS_GROUPS, STATUS_RULES } from '../../engine/entry/das.js';
import { DA_PARAMETERS } from '../api/da-handlers.js';
import { SQL_DOCUMENT_SCHEMA } from '../api/sql-handler.js';
import { STATES } from '../../engine/entry/data.js';
import { BATCH_SCHEMAS, batchOperation } from './batch-openapi.js';
import { CHILDCARE_ANALYSIS_SCHEMA, CHILDCARE_FEED_SCHEMA, CHILDCARE_GEOJSON_SCHEMA, CHILDCARE_SCHEMA_SCHEMA, CHILDCARE_SITE_SCHEMA } from '../../engine/entry/childcare.js';

/** The interface description's own version (spec 9: "versioned 1.0.0"). */
export const INTERFACE_VERSION = '1.0.0';

type Obj = Record<string, unknown>;

const bool: Obj = { type: 'string', enum: ['1', '0', 'true', 'false'], default: '0' };

/** Query parameters of the property endpoints: schema and description (spec 4 and 8). */
const PARAMETERS: Record<(typeof PROPERTY_PARAMETERS)[number], { schema: Obj; description: string }> = {
  address: { schema: { type: 'string', maxLength: LIMITS.addressMaxLength, minLength: 1 }, description: `Free text matched against the national address index; at most ${LIMITS.addressMaxLength} characters. Pass an address or both lat and lng, never both kinds (422 invalid_subject).` },
  lat: { schema: { type: 'number', minimum: -90, maximum: 90 }, description: 'Latitude (WGS84); with lng instead of address. A coordinate skips address search, so it works while address search is down.' },
  lng: { schema: { type: 'number', minimum: -180, maximum: 180 }, description: 'Longitude (WGS84); with lat.' },
  components: {
    schema: { type: 'string', examples: ['scores.noise,das'] },
    description: `Comma-separated subset, intersected with the key's licence (never expanding it; 403 when nothing requested is licensed). Blocks: ${PROPERTY_BLOCKS.join(', ')}. Dotted selectors: ${PROPERTY_BLOCKS.flatMap((b) => BLOCK_SELECTORS[b].map((s) => `${b}.${s}`)).join(', ')}. Billing is per address either way.`,
  },
  school_radius_m: { schema: { type: 'integer', minimum: LIMITS.schoolRadius.min, maximum: LIMITS.schoolRadius.max, default: LIMITS.schoolRadius.default }, description: 'Radius of poi.schools_500m, metres.' },
  include_geometry: { schema: bool, description: 'Clipped GeoJSON for layers and the parcel boundary. Needs the geometry licence (403 otherwise).' },
  include_surfaces: { schema: bool, description: 'Adds `surfaces` (noise, heat, contours). Needs the geometry licence (403 otherwise). A first lookup with surfaces takes several seconds; repeats are served from cache.' },
  surfaces: { schema: { type: 'string', default: SURFACE_LAYERS.join(',') }, description: `Comma-separated subset of ${SURFACE_LAYERS.join(', ')}; narrowing it is the cheapest speed-up.` },
  noise_method: { schema: { type: 'string', enum: ['cortn', 'cnossos'], default: 'cortn' }, description: 'The noise model\'s physics path for scores.noise and surfaces.noise: `cortn` (CoRTN, Australian practice, the default) or `cnossos` (CNOSSOS-EU propagation per octave band, checked on ISO/TR 17534-4; flat ground, CoRTN\'s emission over a traffic spectrum: see the payload\'s `model.method` and `physics_method_note`). The transfer path (a monitored counter near) keeps CoRTN, its relation being calibrated on it.' },
  noise_cells: { schema: { type: 'integer', enum: [...LIMITS.noiseCells], default: 7 }, description: 'Noise grid nodes per side: 5, 7 or 9 (500, 375, 300 m spacing over the 1.5 km window); 9 costs about 2.6 times 7 on a first lookup.' },
  contour_interval_m: { schema: { type: 'number', exclusiveMinimum: 0, maximum: LIMITS.contourInterval.max, default: LIMITS.contourInterval.default }, description: 'Contour spacing, metres. Finer than the source floor is raised (national model 1 m, VIC metro and QLD 1 m, VIC statewide 10 m, TAS 5 m); too many levels are widened.' },
  include_nearby_zones: { schema: bool, description: 'Adds planning.zones_nearby.' },
  nearby_zone_radius_m: { schema: { type: 'integer', minimum: LIMITS.nearbyZoneRadius.min, maximum: LIMITS.nearbyZoneRadius.max, default: LIMITS.nearbyZoneRadius.default }, description: 'Search radius of planning.zones_nearby, metres; no effect unless include_nearby_zones is set (still validated).' },
};

/** Definitions hoisted out of the schemas embedded so far, for components.schemas. */
const hoisted: Obj = {};

/** `#/$defs/X` as `#/components/schemas/X`, throughout. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `#/components/schemas/${v.slice(8)}` : rewriteRefs(v);
  return out;
}

/**
 * A JSON Schema as a component: its `$schema` and `$id` out, and the `$defs` it refers to (the score and
 * surface types, engine/scores/score-schema.ts) hoisted into components.schemas with every reference to them
 * rewritten, so each is a named type a generated client reads (`$id` gone, `#/$defs/...` would otherwise point
 * at the document's root).
 */
function embed(schema: Obj): Obj {
  const { $schema: _s, $id: _i, $defs, ...rest } = schema;
  const text = JSON.stringify(schema);
  for (const [name, def] of Object.entries(($defs ?? {}) as Obj)) if (text.includes(`"#/$defs/${name}"`)) hoisted[name] ??= rewriteRefs(def);
  return rewriteRefs(rest) as Obj;
}

const ERROR_CODES: Record<number, { description: string; codes: ErrorCode[] }> = {
  401: { description: 'No key, a malformed or repeated Authorization header, or a key that is unknown or revoked.', codes: ['missing_key', 'invalid_authorization', 'invalid_key'] },
  403: { description: 'The key is not licensed for what was asked: include_geometry or include_surfaces without the geometry licence, /core without the complete Core component set, or components none of which the key covers.', codes: ['not_licensed'] },
  422: { description: 'Bad input (the body names the `parameter`), an unknown or repeated parameter, an address that does not resolve (`candidates` included), or a point outside every dataset the server holds (`outside_coverage`).', codes: ['invalid_parameter', 'invalid_subject', 'unknown_parameter', 'duplicate_parameter', 'address_unresolvable', 'outside_coverage'] },
  429: { description: 'The key has used its quota of unique addresses this billing period. Repeats of counted addresses stay free.', codes: ['quota_exceeded'] },
  503: { description: 'Retry after the Retry-After header. `address_resolution_unavailable`: address search is down (pass lat and lng instead). `core_component_unavailable`: the DA lookup could not answer; no payload, nothing charged.', codes: ['address_resolution_unavailable', 'core_component_unavailable', 'service_unavailable'] },
};

function errorResponse(status: number): Obj {
  const e = ERROR_CODES[status];
  const out: Obj = {
    description: e.description,
    content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: e.codes } } }] } } },
  };
  if (status === 503 || status === 429) out.headers = { 'Retry-After': { description: status === 503 ? `Seconds to wait before retrying (${RETRY_AFTER_S}).` : 'Seconds until the billing period resets.', schema: { type: 'integer' } } };
  if (status === 429) out.content = { 'application/json': { schema: { $ref: '#/components/schemas/QuotaExceeded' } } };
  return out;
}

/** 405 for a method `route` does not answer: the Allow header lists those it does (HEAD wherever GET). */
function notAllowed(route: Route): Obj {
  const allow = allowedMethods(route).join(', ');
  return {
    description: `A method this path does not answer: it answers ${allow} (the Allow header lists them).`,
    headers: { Allow: { description: `\`${allow}\``, required: true, schema: { type: 'string', const: allow } } },
    content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { const: 'method_not_allowed' } } }] } } },
  };
}

/** Query parameters of the DA listing: schema and description (spec 4.1, DESIGN.md limits). */
const DA_PARAMETER_DOCS: Record<string, { schema: Obj; description: string }> = {
  state: { schema: { type: 'string', enum: [...STATES] }, description: 'State or territory (case ignored).' },
  council: { schema: { type: 'string', maxLength: 200 }, description: 'Exact council name as /v1/councils lists it (case ignored).' },
  category: { schema: { type: 'string', examples: ['swimming_pool', 'Swimming Pool / Spa'] }, description: `The primary category: a slug (${DA_CATEGORIES.join(', ')}) or its display name (see /v1/categories).` },
  suburb: { schema: { type: 'string', maxLength: 100 }, description: 'Exact suburb name (case and spacing ignored).' },
  postcode: { schema: { type: 'string', pattern: '^\\d{4}$' }, description: 'Four-digit postcode.' },
  since: { schema: { type: 'string', format: 'date' }, description: 'Lodged on or after this date (YYYY-MM-DD).' },
  until: { schema: { type: 'string', format: 'date' }, description: 'Lodged on or before this date (YYYY-MM-DD); not before `since`.' },
  status_group: { schema: { type: 'string', enum: [...STATUS_GROUPS] }, description: `The council status, grouped by one documented rule table (${STATUS_RULES.map((r) => `${r.name} -> ${r.group}`).join('; ')}; anything else -> other). The raw text is in \`status\`.` },
  is_residential: { schema: bool, description: 'Residential applications only (true) or non-residential only (false).' },
  page: { schema: { type: 'integer', minimum: 1, default: 1 }, description: 'Page number. A page past the end is an empty page with the totals (200).' },
  per_page: { schema: { type: 'integer', minimum: 1, maximum: DA_LIMITS.perPage.max, default: DA_LIMITS.perPage.default }, description: 'Records per page.' },
  cursor: { schema: { type: 'string' }, description: 'Continue after a record: set by `meta.pages.next`; follow `next` as given rather than building it.' },
  lat: { schema: { type: 'number', minimum: -90, maximum: 90 }, description: 'Latitude of the centre (WGS84). Required.' },
  lng: { schema: { type: 'number', minimum: -180, maximum: 180 }, description: 'Longitude of the centre (WGS84). Required.' },
  radius_km: { schema: { type: 'number', exclusiveMinimum: 0, maximum: DA_LIMITS.radiusKm.max, default: DA_LIMITS.radiusKm.default }, description: 'Search radius, kilometres (great-circle).' },
};

const DA_SCHEMA_OF: Record<DaOperation, string> = { list: 'DaList', nearby: 'DaNearby', get: 'DaDetail', categories: 'DaCategories', councils: 'DaCouncils', stats: 'DaStats' };

const RATE_LIMIT_HEADERS: Obj = {
  'RateLimit-Limit': { description: 'Requests allowed in the window (the key\'s daily limit; 10 a minute for the playground key).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets (Australia/Melbourne midnight for daily limits).', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: '`limit;w=seconds`, the window (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
};

const jsonError = (description: string, codes: ErrorCode[]): Obj => ({ description, content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: codes } } }] } } } });

function daOperation(route: Route, op: DaOperation, base: Obj): Obj {
  const names = [...DA_PARAMETERS[op]];
  base.parameters = [
    ...(op === 'get' ? [{ name: 'id', in: 'path', required: true, description: 'The application id (a positive whole number).', schema: { type: 'integer', minimum: 1 } }] : []),
    ...names.map((n) => ({ name: n, in: 'query', required: op === 'nearby' && (n === 'lat' || n === 'lng'), description: DA_PARAMETER_DOCS[n].description, schema: DA_PARAMETER_DOCS[n].schema })),
  ];
  base.security = [{ bearer: [] }];
  // On a childcare key, /api/v1/das is the childcare feed (spec 4.1): its answers are described too.
  const feed = op === 'list' && route.path.startsWith('/api/');
  base.responses = {
    200: { description: feed ? 'OK: the listing (`DaList`), or on a childcare key the childcare feed (`ChildcareFeed`).' : 'OK', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: feed ? { anyOf: [{ $ref: '#/components/schemas/DaList' }, { $ref: '#/components/schemas/ChildcareFeed' }] } : { $ref: `#/components/schemas/${DA_SCHEMA_OF[op]}` } } } },
    ...(feed ? { 400: jsonError('On a childcare key: `since` is not a date (YYYY-MM-DD), or `include_access=true`.', ['invalid_date', 'unsupported_parameter']) } : {}),
    401: errorResponse(401),
    403: feed ? jsonError('The key does not include the DA listing (keys made with --da-daily-limit do); on a childcare key, its licence (inactive, expired, add-on, a state outside the entitlement).', CHILDCARE_403) : jsonError('The key does not include the DA listing (keys made with --da-daily-limit do).', ['not_licensed']),
    ...(op === 'get' ? { 404: jsonError('No application has that id.', ['da_not_found']) } : {}),
    422: jsonError('A bad parameter (the body names it), an unknown or repeated parameter, or a cursor this endpoint did not issue. Counted against the limit.', ['invalid_parameter', 'unknown_parameter', 'duplicate_parameter']),
    429: {
      description: 'The key\'s daily DA-listing limit is used up (`daily_limit_exceeded`), or the playground key\'s 10 a minute from this address (`playground_limit_exceeded`).',
      headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/DaLimitExceeded' } } },
    },
    503: jsonError('The DA store could not answer; retry after Retry-After.', ['service_unavailable']),
    405: notAllowed(route),
  };
  return base;
}

const WEBHOOK_FILTERS: Obj = {
  state: { enum: [...STATES] },
  council: { type: 'string', maxLength: 200, description: 'Council name, exact (case ignored).' },
  category: { enum: [...DA_CATEGORIES] },
  status_group: { enum: [...STATUS_GROUPS] },
  lat: { type: 'number', minimum: -90, maximum: 90, description: 'Circle centre (with lng and radius_km).' },
  lng: { type: 'number', minimum: -180, maximum: 180 },
  radius_km: { type: 'number', exclusiveMinimum: 0, maximum: 50 },
};

const WEBHOOK_SCHEMAS: Obj = {
  WebhookSubscription: {
    type: 'object',
    required: ['id', 'url', 'events', 'filters', 'status', 'created_at'],
    properties: {
      id: { type: 'string', pattern: '^wh_' },
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', items: { enum: [...DA_EVENT_TYPES] } },
      filters: { type: 'object', properties: WEBHOOK_FILTERS, additionalProperties: false },
      status: { enum: ['active', 'disabled'] },
      disabled_reason: { type: ['string', 'null'] },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  WebhookCreate: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri', description: 'https; its host must resolve to public addresses only (unless the server runs with --allow-private-webhooks).' },
      events: { type: 'array', minItems: 1, items: { enum: [...DA_EVENT_TYPES] } },
      filters: { type: 'object', properties: WEBHOOK_FILTERS, additionalProperties: false, description: 'Or give the filters at the top level (not both).' },
      ...WEBHOOK_FILTERS,
    },
    additionalProperties: false,
  },
  WebhookEvent: {
    type: 'object',
    description: 'The body of a delivery (what the subscriber receives), signed per Standard Webhooks.',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { enum: [...DA_EVENT_TYPES, 'ping'] },
      timestamp: { type: 'string', format: 'date-time' },
      data: {
        type: 'object',
        properties: {
          id: { type: 'integer' }, council_reference: { type: 'string' }, council_name: { type: 'string' }, state: { type: 'string' }, address: { type: 'string' }, address_suburb: { type: 'string' },
          trade_category: { type: 'string' }, status: { type: 'string' }, status_group: { type: 'string' }, lodgement_date: { type: 'string' }, latitude: { type: ['number', 'null'] }, longitude: { type: ['number', 'null'] },
          url: { type: 'string', description: 'The full record: GET /v1/das/{id}.' }, previous_status: { type: 'string' }, previous_status_group: { type: 'string' },
        },
      },
    },
  },
};

function webhookOperation(route: Route, method: string, op: WebhookOperation, base: Obj): Obj {
  const json = (schema: Obj, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
  base.operationId = `${base.operationId}_${method.toLowerCase()}`;
  base.security = [{ bearer: [] }];
  if (route.path.includes('{id}')) base.parameters = [{ name: 'id', in: 'path', required: true, description: 'The subscription id (wh_...).', schema: { type: 'string' } }];
  const ok: Obj =
    op === 'create'
      ? { 201: json({ allOf: [{ $ref: '#/components/schemas/WebhookSubscription' }, { required: ['secret'], properties: { secret: { type: 'string', pattern: '^whsec_', description: 'The signing secret: shown only here.' } } }] }, 'Created') }
      : op === 'list'
        ? { 200: json({ type: 'object', required: ['webhooks', 'meta'], properties: { webhooks: { type: 'array', items: { $ref: '#/components/schemas/WebhookSubscription' } }, meta: { type: 'object' } } }) }
        : op === 'get'
          ? { 200: json({ $ref: '#/components/schemas/WebhookSubscription' }) }
          : op === 'delete'
            ? { 200: json({ type: 'object', properties: { id: { type: 'string' }, deleted: { const: true } } }) }
            : op === 'test'
              ? { 202: json({ type: 'object', properties: { delivery_id: { type: 'string' }, event_id: { type: 'string' }, type: { const: 'ping' }, state: { const: 'pending' } } }, 'Accepted') }
              : { 200: json({ type: 'object', properties: { webhook_id: { type: 'string' }, deliveries: { type: 'array', items: { type: 'object' } } } }) };
  if (op === 'create') base.requestBody = { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookCreate' } } } };
  base.responses = {
    ...ok,
    ...(op === 'create' ? { 413: jsonError('The body is larger than 64 KiB.', ['payload_too_large']) } : {}),
    401: errorResponse(401),
    403: jsonError('The key does not include the DA listing, which webhooks come with.', ['not_licensed']),
    ...(route.path.includes('{id}') ? { 404: jsonError('No such subscription on this key.', ['not_found']) } : {}),
    ...(op === 'test' ? { 409: jsonError('The subscription is disabled.', ['subscription_disabled']) } : {}),
    429: PLAYGROUND_429,
    422:
      op === 'create'
        ? jsonError('The body is missing or not JSON (`invalid_body`), a bad field (the body names it in `parameter`), or more than 25 subscriptions on the key.', ['invalid_body', 'invalid_parameter', 'too_many_subscriptions', 'unknown_parameter', 'duplicate_parameter'])
        : jsonError('A query parameter: these operations take none.', ['unknown_parameter', 'invalid_parameter', 'duplicate_parameter']),
    405: notAllowed(route),
    503: jsonError('This server holds no DA store, or runs no delivery worker (ping).', ['service_unavailable']),
  };
  return base;
}

function sqlOrMcpOperation(route: Route, base: Obj): Obj {
  base.operationId = `${base.operationId}_post`;
  base.security = [{ bearer: [] }];
  if (route.handler.kind === 'sql') {
    base.requestBody = {
      required: true,
      content: { 'application/json': { schema: { type: 'object', required: ['query'], additionalProperties: false, properties: { query: { type: 'string', maxLength: 20000 }, params: { type: 'array', maxItems: 100, items: { type: ['string', 'number', 'boolean', 'null'] } } } } } },
    };
    base.responses = {
      200: {
        description: 'The rows (objects keyed by column name; duplicate names get _2, _3), cut at 1,000 rows or 2 MiB.',
        headers: RATE_LIMIT_HEADERS,
        content: {
          'application/json': {
            schema: SQL_DOCUMENT_SCHEMA,
          },
        },
      },
      401: errorResponse(401),
      403: jsonError('The key does not include the SQL endpoint (keys made with --da-daily-limit N --sql do).', ['not_licensed']),
      405: notAllowed(route),
      413: jsonError('The body is larger than 64 KiB.', ['payload_too_large']),
      422: jsonError('The body is missing or not JSON (`invalid_body`), or the query was refused before running, failed, or ran past 10 s (`parameter` names query or params).', ['invalid_body', 'invalid_sql', 'not_a_query', 'forbidden_sql', 'invalid_parameter', 'unknown_parameter', 'duplicate_parameter', 'query_failed', 'query_timeout', 'query_too_large']),
      429: jsonError('The daily DA limit is used up, or this key already has its share of queries (one running, one waiting; MCP calls included), or the playground\'s demo key is past its 10 requests a minute (it may not run SQL at all: 403 until then).', ['daily_limit_exceeded', 'too_many_queries', 'playground_limit_exceeded']),
      503: jsonError('Every SQL process is busy and the queue is full; retry after Retry-After.', ['service_unavailable']),
    };
  } else {
    base.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, ...).' } } } };
    base.responses = {
      200: { description: 'The JSON-RPC response (an array for a batch). A tools/call past the key\'s daily DA limit is a tool result with `isError` and the `daily_limit_exceeded` error body (each call counts).', content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
      202: { description: 'Only notifications or responses were sent: accepted, no body.' },
      400: { description: 'Not JSON, or not JSON-RPC 2.0 (the MCP transport\'s own answer: a JSON-RPC error, -32700 parse error or -32600 invalid request, id null).', content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcError' } } } },
      401: errorResponse(401),
      403: jsonError('The key does not include the DA listing.', ['not_licensed']),
      405: notAllowed(route),
      406: { description: 'The Accept header must list application/json and text/event-stream (MCP Streamable HTTP): a JSON-RPC error.', content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcError' } } } },
      413: jsonError('The body is larger than 1 MiB.', ['payload_too_large']),
      415: { description: 'The Content-Type must be application/json: a JSON-RPC error.', content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcError' } } } },
      429: PLAYGROUND_429,
    };
  }
  return base;
}

/** The playground's demo key may not use webhooks, SQL or MCP (403), and each such request still counts: past its 10 a minute, 429. */
const PLAYGROUND_429: Obj = jsonError('The playground\'s demo key is past its 10 requests a minute (it may not use this at all: 403 until then).', ['playground_limit_exceeded']);

const CHILDCARE_403: ErrorCode[] = ['not_licensed', 'key_inactive', 'key_expired', 'add_on_not_enabled', 'state_not_entitled'];

/**
 * The childcare service's 400 (its spec, section 7): an invalid date, `include_access=true`, and per operation an
 * invalid location (a circle's centre or radius, or a centre outside the state) or polygon.
 */
function childcare400(extra: ErrorCode[]): Obj {
  const what = ['`since` is not a date (YYYY-MM-DD) (`invalid_date`)', ...extra.map((c) => (c === 'invalid_location' ? 'lat, lng or radius_km is not a number in range, or the centre is not in `state` (`invalid_location`)' : 'the catchment breaks a polygon rule (`invalid_polygon`)')), '`include_access=true` (`unsupported_parameter`)'];
  return jsonError(`${what.join('; ')}. Correct the request; do not retry it unchanged.`, ['invalid_date', ...extra, 'unsupported_parameter']);
}

/** The `options` operation of a path: the CORS preflight, answered 204 without a key (api/cors.ts). */
function preflightOperation(route: Route, first: Obj): Obj {
  const allow = allowedMethods(route).join(', ');
  const header = (description: string, value?: string) => ({ description, required: true, schema: value ? { type: 'string', const: value } : { type: 'string' } });
  return {
    tags: first.tags,
    summary: 'CORS preflight',
    description: `What a browser asks before a cross-origin request with an \`Authorization\` header or a JSON body: answered 204 without a key, with the methods this path answers (${allow}), the request headers it reads and how long to keep the answer. Every response of this API carries \`Access-Control-Allow-Origin: *\` and exposes the headers a client reads (\`Access-Control-Expose-Headers\`). No cookies are used, so requests are never credentialed.`,
    operationId: `${(first.operationId as string).replace(/_(get|post|put|delete|patch)$/, '')}_options`,
    security: [],
    parameters: [
      { name: 'Origin', in: 'header', required: false, description: 'The calling page\'s origin (sent by the browser).', schema: { type: 'string' } },
      { name: 'Access-Control-Request-Method', in: 'header', required: false, description: 'The method of the request to come.', schema: { type: 'string' } },
      { name: 'Access-Control-Request-Headers', in: 'header', required: false, description: 'The headers of the request to come, e.g. `authorization, content-type`.', schema: { type: 'string' } },
    ],
    responses: {
      204: {
        description: 'The path may be called from any origin with these methods and headers.',
        headers: {
          Allow: header('The methods this path answers.', allow),
          'Access-Control-Allow-Origin': header('Any origin.', '*'),
          'Access-Control-Allow-Methods': header('The methods this path answers.', allow),
          'Access-Control-Allow-Headers': header('The request headers a page may send.', CORS_ALLOW_HEADERS.join(', ')),
          'Access-Control-Max-Age': header('Seconds a browser may keep this answer.', String(CORS_MAX_AGE)),
        },
      },
    },
  };
}

function operation(route: Route): Obj {
  const h = route.handler;
  const op: Obj = {
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    // Plain identifiers (letters, digits, underscores), as code generators and anchors want: /v1/das/{id} is
    // v1_das_id, /api/v1/childcare/site-analysis childcare_site_analysis.
    operationId: route.path.replace(/^\/(api\/v1\/)?/, '').replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_') || 'root',
  };
  const requestId = { name: 'X-Request-Id', in: 'header', required: false, description: 'Echoed back (letters, digits and ._:- up to 64); otherwise the server assigns one. Every response carries it.', schema: { type: 'string', maxLength: 64 } };
  if (h.kind === 'da') {
    const out = daOperation(route, h.op, op);
    (out.parameters as Obj[]).push(requestId);
    return out;
  }
  if (h.kind === 'childcare') {
    const q = (name: string, schema: Obj, description: string, required = false) => ({ name, in: 'query', required, description, schema });
    const common = [q('state', { enum: [...STATES] }, 'State or territory; must be in the key\'s entitlement.', h.op === 'site-analysis'), q('since', { type: 'string', format: 'date' }, 'Lodged on or after (YYYY-MM-DD).'), q('feature_limit', { type: 'integer', minimum: 0, maximum: 5000, default: 500 }, 'Map features at most; never changes counts.')];
    const format = h.op === 'report' ? q('format', { enum: ['pdf', 'html'] }, 'pdf (a download) or html (one self-contained file).', true) : q('format', { enum: ['csv', 'geojson'], default: 'csv' }, 'The file format.');
    const site = h.op === 'site-analysis' || h.op === 'report';
    if (h.op === 'report') common[0].required = true;
    op.parameters = [
      ...(h.op === 'schema' || h.op === 'reconciliation-helper' ? [] : h.op === 'export' ? [format, common[0], common[1]] : h.op === 'report' ? [format, ...common] : common),
      ...(site ? [q('lat', { type: 'number', minimum: -90, maximum: 90 }, 'Site latitude (WGS84).', true), q('lng', { type: 'number', minimum: -180, maximum: 180 }, 'Site longitude (WGS84).', true), q('radius_km', { type: 'number', minimum: 0.1, maximum: 30, default: 5 }, 'Catchment radius, km.'), q('suburb', { type: 'string' }, 'The suburb whose census context is shown (a suburb fact, never a catchment statistic); default the suburb of the nearest address to the site.')] : []),
      requestId,
    ];
    op.security = [{ bearer: [] }];
    op.responses = {
      200:
        h.op === 'export'
          ? { description: 'The file (Content-Disposition: attachment), streamed. CSV carries its notices in X-Data-Attribution and X-Data-Licence.', content: { 'text/csv': { schema: { type: 'string' } }, 'application/geo+json': { schema: { $ref: '#/components/schemas/ChildcareGeoJson' } } } }
          : h.op === 'report'
            ? { description: 'The report: PDF as a download (Content-Disposition: attachment; filename=childcare-report-<state>-<date>.pdf), or HTML inline (one file, no external request).', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } }, 'text/html': { schema: { type: 'string' } } } }
          : h.op === 'reconciliation-helper'
            ? { description: 'The Python 3 script (Content-Disposition: attachment).', content: { 'text/x-python': { schema: { type: 'string' } } } }
            : { description: h.op === 'schema' ? 'Product, version, licence, dimensions, paths and notices.' : '`data` (scope, headline, trend, breakdowns, coverage, demand_signals, geojson, notices) and `meta`.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${h.op === 'schema' ? 'ChildcareSchema' : h.op === 'analysis' ? 'ChildcareAnalysis' : 'ChildcareSiteAnalysis'}` } } } },
      400: childcare400(h.op === 'site-analysis' || h.op === 'report' ? ['invalid_location'] : []),
      401: errorResponse(401),
      403: jsonError('The licence: no childcare entitlement, inactive or expired, add-on not enabled, or a state outside the entitlement.', CHILDCARE_403),
      422: jsonError('A required parameter is missing (state, lat, lng, format), an unknown or repeated parameter, or another bad value (a state that does not exist, feature_limit, format): `parameter` names it.', ['missing_parameter', 'unknown_parameter', 'duplicate_parameter', 'invalid_parameter']),
      429: h.op === 'report' ? jsonError('The key\'s daily limit is used up, or the report renderer is busy: this key has as many reports waiting as the renderer has slots, or no slot came free for it within 10 s (a key renders at most half the slots at once, `per_key`) (Retry-After: do not fan out report requests).', ['daily_limit_exceeded', 'renderer_busy']) : jsonError('The key\'s daily limit is used up.', ['daily_limit_exceeded']),
      ...(h.op === 'report' ? { 503: jsonError('The report renderer failed or is unavailable: retry after Retry-After, and use /site-analysis (JSON) or /export (CSV) meanwhile.', ['renderer_failed', 'renderer_unavailable']) } : {}),
      405: notAllowed(route),
    };
    return op;
  }
  if (h.kind === 'property') {
    const names = PROPERTY_PARAMETERS.filter((p) => h.variant === 'full' || !(FULL_ONLY_PARAMETERS as readonly string[]).includes(p));
    op.parameters = [...names.map((n) => ({ name: n, in: 'query', required: false, description: PARAMETERS[n].description, schema: PARAMETERS[n].schema })), requestId];
    op.security = [{ bearer: [] }];
    op.responses = {
      200: { description: 'The payload, with `usage` from the meter.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${h.variant === 'core' ? 'CorePayload' : 'PropertyPayload'}` } } } },
      401: errorResponse(401),
      403: errorResponse(403),
      422: errorResponse(422),
      429: errorResponse(429),
      503: errorResponse(503),
      405: notAllowed(route),
    };
    return op;
  }
  op.parameters = [requestId];
  op.security = [];
  const ok = (schema: Obj, type = 'application/json') => ({ 200: { description: 'OK', content: { [type]: { schema } } }, 422: jsonError('Any query parameter: this endpoint takes none.', ['unknown_parameter', 'invalid_parameter', 'duplicate_parameter']), 405: notAllowed(route) });
  const missing = (description: string, code: ErrorCode = 'not_found') => ({ 404: jsonError(description, [code]) });
  switch (h.kind) {
    case 'sample':
      // A canned sample is the payload of a keyless request: no `usage` (nothing is metered).
      op.responses = { ...ok(h.name === 'sample' ? { $ref: '#/components/schemas/PropertySample' } : h.name === 'core' ? { $ref: '#/components/schemas/CoreSample' } : { type: 'object' }), ...missing('The samples are not installed on this server (datasets/samples/).', 'sample_unavailable') };
      break;
    case 'sandbox':
      op.responses = ok({ $ref: '#/components/schemas/Sandbox' });
      break;
    case 'health':
      op.responses = ok({
        type: 'object',
        required: ['status', 'version'],
        properties: {
          status: { enum: ['ok', 'warming'], description: '`warming` while the engine builds its models and HAND tiles after a start (requests are answered meanwhile), then `ok`.' },
          warming: { type: 'string', description: 'What the warm-up is doing; present only while `status` is `warming`.' },
          version: { type: 'string' },
          server: { type: 'string' },
          in_flight: { type: 'integer' },
        },
      });
      break;
    case 'openapi':
      op.responses = ok({ type: 'object', description: 'This document.' });
      break;
    case 'childcare-page':
      op.responses = h.page === 'openapi' ? ok({ type: 'object', description: 'The childcare subset of this document.' }) : ok({ type: 'string' }, 'text/html');
      break;
    case 'docs':
      op.responses = ok({ type: 'string' }, 'text/html');
      break;
    case 'playground':
      op.responses = { ...ok({ type: 'string' }, 'text/html'), ...missing('The playground is switched off on this server.') };
      break;
    case 'map':
      op.responses = { ...ok({ type: 'string' }, h.asset === 'page' ? 'text/html' : h.asset === 'js' ? 'application/javascript' : 'text/css'), ...missing('This server makes no tiles, so it has no map.') };
      break;
    case 'map-point':
      op.parameters = [{ name: 'lat', in: 'query', required: true, description: 'Latitude (WGS84).', schema: { type: 'number' } }, { name: 'lng', in: 'query', required: true, description: 'Longitude (WGS84).', schema: { type: 'number' } }, ...((op.parameters as Obj[]) ?? [])];
      op.responses = { ...ok({ type: 'object', description: 'Address, scores with levels, hazards, DAs near.' }), 422: jsonError('lat or lng is missing or not WGS84 degrees, or another parameter; or the point is outside every dataset the server holds (`outside_coverage`).', ['invalid_parameter', 'unknown_parameter', 'duplicate_parameter', 'outside_coverage']), ...missing('Not the sample world: use /api/v1/property with a key.') };
      break;
    case 'tilejson':
      op.responses = {
        ...ok({
          type: 'object',
          required: ['tilejson', 'tiles', 'minzoom', 'maxzoom', 'bounds', 'attribution'],
          description: 'TileJSON 3.0.0: `vector_layers` (with every field a layer\'s tiles can carry) for a vector layer; `encoding` and `tileSize` for the terrain layer.',
          properties: {
            tilejson: { const: '3.0.0' },
            tiles: { type: 'array', items: { type: 'string' }, minItems: 1 },
            minzoom: { type: 'integer', minimum: 0 },
            maxzoom: { type: 'integer', maximum: 30 },
            bounds: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
            vector_layers: { type: 'array', items: { type: 'object', required: ['id', 'fields'], properties: { id: { type: 'string' }, fields: { type: 'object', additionalProperties: { type: 'string' } } } } },
            encoding: { enum: ['terrarium'] },
            tileSize: { const: 256 },
          },
          oneOf: [{ required: ['vector_layers'] }, { required: ['encoding', 'tileSize'] }],
        }),
        ...missing('No such layer.', 'unknown_layer'),
      };
      break;
  }
  return op;
}

let cached: Obj | undefined;

/** The OpenAPI document (built once). */
/** What every keyed operation may answer when its server runs on a shared database that does not answer. */
const STORE_503 = 'With `--db postgres://...` (several replicas): `service_unavailable` when the shared database does not answer; nothing was done or charged. Retry after Retry-After.';

/**
 * Every operation that takes a key reads it (and the meter) from the server's store, so each may answer 503
 * `service_unavailable` when that store is a shared PostgreSQL database that is down: added to the
 * operation's 503 (made when it has none), with the Retry-After header.
 */
function storeUnavailable(paths: Obj): void {
  for (const ops of Object.values(paths) as Obj[]) {
    for (const op of Object.values(ops) as Obj[]) {
      const keyed = ((op.security as Obj[] | undefined) ?? []).some((req) => 'bearer' in req);
      const responses = op.responses as Obj | undefined;
      if (!keyed || !responses) continue;
      const existing = responses[503] as Obj | undefined;
      if (!existing) {
        responses[503] = { ...jsonError(STORE_503, ['service_unavailable']), headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } } };
        continue;
      }
      const codes = ((((existing.content as Obj)?.['application/json'] as Obj)?.schema as Obj)?.allOf as Obj[] | undefined)?.[1] as Obj | undefined;
      const list = ((codes?.properties as Obj)?.error as Obj)?.enum as string[] | undefined;
      if (list && !list.includes('service_unavailable')) {
        list.push('service_unavailable');
        existing.description = `${existing.description as string} ${STORE_503}`;
      }
    }
  }
}

export function openApiDocument(): Obj {
  if (cached) return cached;
  const paths: Obj = {};
  for (const r of ROUTES) {
    const h = r.handler;
    if (h.kind === 'batch') {
      paths[r.path] = Object.fromEntries(Object.entries(h.ops).map(([method, op]) => [method.toLowerCase(), batchOperation(r, method, op!, operation(r), { errorResponse, jsonError, notAllowed })]));
    } else if (h.kind === 'webhooks') {
      paths[r.path] = Object.fromEntries(Object.entries(h.ops).map(([method, op]) => [method.toLowerCase(), webhookOperation(r, method, op!, operation(r))]));
    } else if (h.kind === 'sql' || h.kind === 'mcp') paths[r.path] = { post: sqlOrMcpOperation(r, operation(r)) };
    else if (h.kind === 'childcare' && r.methods?.includes('POST')) {
      const post = operation(r);
      post.operationId = `${post.operationId}_post`;
      const report = h.op === 'report';
      post.summary = report ? 'A finished PDF or HTML report of a polygon catchment' : 'Catchment analysis for a polygon';
      post.description = (report ? 'The report (see GET) of the polygon site analysis: `format` pdf or html in the query, the body as for POST /site-analysis. ' : '') + 'The analysis of /analysis inside `catchment`, a GeoJSON Polygon in longitude/latitude (a Feature wrapper and holes accepted; DAs in a hole are outside): closed rings, no ring crossing itself or another, at most 5,000 vertices and 30 km from the centre of its box to any vertex, every vertex in `state` (required, entitled). Body at most 1 MiB (413 beyond).';
      post.parameters = (post.parameters as Obj[]).filter((x) => x.in === 'header' || (report && x.name === 'format'));
      post.requestBody = {
        required: true,
        content: { 'application/json': { schema: { type: 'object', required: ['state', 'catchment'], additionalProperties: false, properties: { state: { enum: [...STATES] }, suburb: { type: 'string' }, since: { type: 'string', format: 'date' }, feature_limit: { type: 'integer', minimum: 0, maximum: 5000 }, include_access: { const: false }, catchment: { type: 'object', description: 'GeoJSON Polygon (or Feature with one).' } } } } },
      };
      const responses = post.responses as Obj;
      responses[400] = childcare400(['invalid_polygon']);
      responses[413] = jsonError('The body is larger than 1 MiB.', ['payload_too_large']);
      responses[422] = jsonError('The body is not JSON or not an object, its catchment is not a GeoJSON Polygon (`invalid_body`); a required field is missing (state, catchment); an unknown field or query parameter; or another bad value (a state that does not exist, feature_limit, format).', ['invalid_body', 'missing_parameter', 'unknown_parameter', 'duplicate_parameter', 'invalid_parameter']);
      paths[r.path] = { get: operation(r), post };
    }
    else if (h.kind === 'tile' || h.kind === 'tilejson' || h.kind === 'terrain') {
      const op = operation(r);
      const path = (name: string, schema: Obj, description: string) => ({ name, in: 'path', required: true, description, schema });
      op.parameters = [
        ...(h.kind === 'terrain' ? [] : [path('layer', { type: 'string', enum: ['das', 'zones', 'overlays', 'flood', 'bushfire', 'schools', 'parcels', 'roads', 'water', 'contours', 'noise', 'hand', ...(h.kind === 'tilejson' ? ['terrain'] : [])] }, h.kind === 'tilejson' ? 'The tile layer (`terrain`: a raster-dem TileJSON, with `encoding` and `tileSize`).' : 'The tile layer.')]),
        ...(h.kind !== 'tilejson' ? [path('z', { type: 'integer', minimum: 0, maximum: 18 }, 'Zoom (each layer has its own range: see its TileJSON).'), path('x', { type: 'integer', minimum: 0 }, 'Column, 0 to 2^z - 1.'), path('y', { type: 'integer', minimum: 0 }, 'Row, 0 to 2^z - 1 (XYZ scheme, north first).')] : []),
        ...((op.parameters as Obj[]) ?? []),
      ];
      if (h.kind === 'tile' || h.kind === 'terrain') {
        // A key with the geometry licence on real data; none on the synthetic sample world.
        op.security = [{ bearer: [] }, {}];
        op.responses = {
          200:
            h.kind === 'terrain'
              ? { description: 'The Terrarium PNG, with ETag and Cache-Control.', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } }
              : { description: 'The tile (gzipped when accepted), with ETag and Cache-Control.', content: { 'application/vnd.mapbox-vector-tile': { schema: { type: 'string', format: 'binary' } } } },
          ...(h.kind === 'tile' ? { 204: { description: 'An empty tile (no body).' } } : {}),
          304: { description: 'Not modified (If-None-Match matched the ETag).' },
          401: errorResponse(401),
          403: jsonError('Real data: the key lacks the geometry licence.', ['geometry_not_licensed']),
          404: h.kind === 'terrain' ? jsonError('This server makes no tiles, or holds no DEM.', ['not_found', 'unknown_layer']) : jsonError('No such layer (or this server makes no tiles).', ['unknown_layer', 'not_found']),
          405: notAllowed(r),
          422: jsonError('z outside the layer\'s zooms (contours below 12 are too coarse), x/y outside the grid (`invalid_tile`), or a query parameter (tiles take none).', ['invalid_tile', 'unknown_parameter', 'invalid_parameter', 'duplicate_parameter']),
        };
      }
      paths[r.path] = { get: op };
    } else paths[r.path] = { get: operation(r) };
  }
  storeUnavailable(paths);
  // The CORS preflight on every path (api/cors.ts): 204 without a key.
  for (const r of ROUTES) {
    const ops = paths[r.path] as Obj;
    const first = Object.values(ops)[0] as Obj;
    ops.options = preflightOperation(r, first);
  }
  // Any request whose path and query pass 8,192 bytes: 414, before it is routed.
  for (const ops of Object.values(paths) as Obj[]) for (const op of Object.values(ops) as Obj[]) (op.responses as Obj)[414] = jsonError(`The request target (path and query) is longer than ${MAX_REQUEST_TARGET} bytes.`, ['uri_too_long']);
  const withUsage = (schema: Obj): Obj => ({ allOf: [embed(schema), { required: ['usage'] }] });
  cached = {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'propintel property intelligence API',
      version: INTERFACE_VERSION,
      summary: 'Everything about one Australian address: DAs, planning, hazards, environment, locality, nine screening scores and computed surfaces.',
      description: [
        `Served by propintel ${VERSION}. Scores are screening estimates; where a mapped layer and a score disagree the mapped layer is authoritative. Bushfire output is pre-screening only, not a BAL assessment. Walkability is straight-line, not a route network.`,
        'Authentication: `Authorization: Bearer <API key>` on /api/v1/property, /core and the DA listing; samples, the sandbox list, the playground and this document need no key.',
        'Billing: one unique address per key per billing period (Australia/Melbourne time); repeats are free; sandbox addresses and lookups inside a key\'s onboarding window are never metered; responses whose core components failed are not charged (`meta.not_charged_reason`).',
        'Errors: `{ "error": "<code>", "message": "...", ... }`; unknown query parameters are refused (422), never ignored. Each code has one status everywhere (each response lists the codes it may carry): 422 for a bad parameter or body; 400 only where the childcare service names it (`invalid_date`, `invalid_location`, `invalid_polygon`, `unsupported_parameter`).',
        'HEAD is answered wherever GET is, with the GET\'s status and headers and no body; on the property lookups it checks the key, parameters, licence, address and quota without computing or metering the payload (so without Content-Length); on the DA listing and childcare endpoints it counts against the daily limit as GET does (a report is not rendered for it).',
        'Cross-origin (CORS): a page on any site may call every path with its key in the `Authorization` header. Every path answers the browser\'s preflight (`OPTIONS`, 204, no key needed) with its methods, the request headers it reads (`Authorization`, `Content-Type`, `Accept`, `If-None-Match`, `X-Request-Id`, MCP\'s) and a max age of a day; every response, errors included, carries `Access-Control-Allow-Origin: *` and exposes `ETag`, `Retry-After`, `Location`, `X-Request-Id` and the rate-limit headers. Keep a key that can be charged out of public pages: anyone can read it there.',
        `Score keys: ${SCORE_KEYS.join(', ')}.`,
      ].join('\n\n'),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [
      { name: 'Property', description: 'Keyed, metered lookups.' },
      { name: 'Batch', description: 'Portfolio lookups: a file of addresses (CSV or JSON lines, up to 1,000,000 rows) looked up in the background, resumable and metered once per unique address; status, streamed results (CSV, JSON lines, GeoJSON) and cancel. Every path answers at /v1 and /api/v1.' },
      { name: 'Samples', description: 'Keyless canned responses and the sandbox list.' },
      { name: 'DA listing', description: 'Development applications: list and filter, radius search, one record with its summary, categories, councils and statistics. Every path answers at /v1 and /api/v1. Keys with the DA listing have a daily request limit (Australia/Melbourne day) reported in RateLimit headers.' },
      { name: 'Webhooks', description: 'Standard Webhooks subscriptions to new and changed DAs, with a ping and the delivery log. Every path answers at /v1 and /api/v1.' },
      { name: 'SQL and MCP', description: 'Read-only SQL over the DA table, and the DA listing as Model Context Protocol tools.' },
      { name: 'Childcare', description: 'The childcare market intelligence product (`childcare_market_intelligence`, `v1`): feed, analyses, exports, reports and the reconciliation helper.' },
      { name: 'Tiles', description: 'Mapbox Vector Tiles of the layers, their TileJSON, and a map page.' },
      { name: 'Service', description: 'Health and documentation.' },
    ],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The licence key, e.g. `pi_<id>_<secret>`.' } },
      schemas: {
        PropertyPayload: withUsage(PROPERTY_PAYLOAD_SCHEMA),
        CorePayload: withUsage(CORE_PAYLOAD_SCHEMA),
        PropertySample: { ...embed(PROPERTY_PAYLOAD_SCHEMA), description: 'A canned full payload: a keyless answer, so without `usage`.' },
        CoreSample: { ...embed(CORE_PAYLOAD_SCHEMA), description: 'A canned /core payload: a keyless answer, so without `usage`.' },
        JsonRpcError: {
          type: 'object',
          description: 'A JSON-RPC 2.0 error response (the MCP transport\'s own answer to a message it cannot take).',
          required: ['jsonrpc', 'error', 'id'],
          properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } } },
        },
        Usage: USAGE_SCHEMA,
        ...WEBHOOK_SCHEMAS,
        ...BATCH_SCHEMAS,
        Error: { type: 'object', required: ['error', 'message'], properties: { error: { type: 'string', description: 'snake_case code' }, message: { type: 'string' }, parameter: { type: 'string' }, candidates: { type: 'array', items: { type: 'object' } } }, additionalProperties: true },
        QuotaExceeded: {
          type: 'object',
          required: ['error', 'message', 'used', 'quota', 'resets_at', 'top_up'],
          properties: { error: { const: 'quota_exceeded' }, message: { type: 'string' }, used: { type: 'integer' }, quota: { type: 'integer' }, resets_at: { type: 'string', format: 'date-time' }, billing_period_key: { type: 'string' }, top_up: { type: 'string' } },
        },
        DaList: DA_LIST_SCHEMA,
        ChildcareFeed: CHILDCARE_FEED_SCHEMA,
        ChildcareSchema: CHILDCARE_SCHEMA_SCHEMA,
        ChildcareAnalysis: CHILDCARE_ANALYSIS_SCHEMA,
        ChildcareSiteAnalysis: CHILDCARE_SITE_SCHEMA,
        ChildcareGeoJson: CHILDCARE_GEOJSON_SCHEMA,
        DaNearby: DA_NEARBY_SCHEMA,
        DaDetail: DA_DETAIL_SCHEMA,
        DaCategories: DA_CATEGORIES_SCHEMA,
        DaCouncils: DA_COUNCILS_SCHEMA,
        DaStats: DA_STATS_SCHEMA,
        DaLimitExceeded: {
          type: 'object',
          required: ['error', 'message', 'limit', 'used', 'window', 'resets_at', 'retry_after_s'],
          properties: { error: { enum: ['daily_limit_exceeded', 'playground_limit_exceeded'] }, message: { type: 'string' }, limit: { type: 'integer' }, used: { type: 'integer' }, window: { enum: ['day', 'minute'] }, resets_at: { type: 'string', format: 'date-time' }, retry_after_s: { type: 'integer' } },
        },
        Sandbox: {
          type: 'object',
          required: ['addresses'],
          properties: { addresses: { type: 'array', items: { type: 'object', required: ['address', 'state', 'lat', 'lng', 'note'], properties: { address: { type: 'string' }, state: { type: 'string' }, lat: { type: 'number' }, lng: { type: 'number' }, note: { type: 'string' } }, additionalProperties: false } } },
          additionalProperties: false,
        },
        // The score and surface types the payload schemas refer to.
        ...hoisted,
      },
    },
  };
  return cached;
}

/** `meta.documentation` of authenticated live responses (spec 2.8): this document's version and hash. */
export function documentationStamp(): { version: string; hash: string } {
  const hash = createHash('sha256').update(JSON.stringify(openApiDocument())).digest('hex').slice(0, 16);
  return { version: INTERFACE_VERSION, hash };
}
