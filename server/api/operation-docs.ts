/**
 * What the OpenAPI document says of each operation, as functions the routes hold (server/api/route-value.ts
 * `doc`): the parameters, security, bodies and responses of the property lookups, the DA listing and webhooks,
 * SQL and MCP, the childcare service, the tiles and the public pages, with the error answers they share. The
 * document itself is assembled in openapi.ts, which walks the routes; this module never imports them.
 */
import { BLOCK_SELECTORS, PROPERTY_BLOCKS, SURFACE_LAYERS, LIMITS } from '../../engine/entry/property.js';
import { DA_EVENT_TYPES, DA_CATEGORIES, DA_LIMITS, STATUS_GROUPS, STATUS_RULES } from '../../engine/entry/das.js';
import { STATES } from '../../engine/entry/data.js';
import { RETRY_AFTER_S, type ErrorCode } from '../http/api-error.js';
import { FULL_ONLY_PARAMETERS, PROPERTY_PARAMETERS } from './query.js';
import { allowedMethods } from './cors.js';
import type { RouteValue } from './route-value.js';
import { DA_PARAMETERS, type DaOperation } from './da-handlers.js';
import type { WebhookOperation } from './webhook-handlers.js';
import { SQL_DOCUMENT_SCHEMA } from './sql-handler.js';
import type { BatchOperation } from '../batch/batch-jobs.js';
import { batchOperation } from './batch-docs.js';

type Obj = Record<string, unknown>;

/** An operation's description: `base` (tag, summary, description, operationId) completed. */
export type OperationDoc = (route: RouteValue, base: Obj) => Obj;

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


const ERROR_CODES: Record<number, { description: string; codes: ErrorCode[] }> = {
  401: { description: 'No key, a malformed or repeated Authorization header, or a key that is unknown or revoked.', codes: ['missing_key', 'invalid_authorization', 'invalid_key'] },
  403: { description: 'The key is not licensed for what was asked: include_geometry or include_surfaces without the geometry licence, /core without the complete Core component set, or components none of which the key covers.', codes: ['not_licensed'] },
  422: { description: 'Bad input (the body names the `parameter`), an unknown or repeated parameter, an address that does not resolve (`candidates` included), or a point outside every dataset the server holds (`outside_coverage`).', codes: ['invalid_parameter', 'invalid_subject', 'unknown_parameter', 'duplicate_parameter', 'address_unresolvable', 'outside_coverage'] },
  429: { description: 'The key has used its quota of unique addresses this billing period. Repeats of counted addresses stay free.', codes: ['quota_exceeded'] },
  503: { description: 'Retry after the Retry-After header. `address_resolution_unavailable`: address search is down (pass lat and lng instead). `core_component_unavailable`: the DA lookup could not answer; no payload, nothing charged.', codes: ['address_resolution_unavailable', 'core_component_unavailable', 'service_unavailable'] },
};

export function errorResponse(status: number): Obj {
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
export function notAllowed(route: RouteValue): Obj {
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

export const RATE_LIMIT_HEADERS: Obj = {
  'RateLimit-Limit': { description: 'Requests allowed in the window (the key\'s daily limit; 10 a minute for the playground key).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets (Australia/Melbourne midnight for daily limits).', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: '`limit;w=seconds`, the window (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
};

export const jsonError = (description: string, codes: ErrorCode[]): Obj => ({ description, content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: codes } } }] } } } });

function daOperation(route: RouteValue, op: DaOperation, base: Obj): Obj {
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

export const WEBHOOK_SCHEMAS: Obj = {
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

function webhookOperation(route: RouteValue, method: string, op: WebhookOperation, base: Obj): Obj {
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

function sqlOrMcpOperation(route: RouteValue, base: Obj, kind: 'sql' | 'mcp'): Obj {
  base.operationId = `${base.operationId}_post`;
  base.security = [{ bearer: [] }];
  if (kind === 'sql') {
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
export const PLAYGROUND_429: Obj = jsonError('The playground\'s demo key is past its 10 requests a minute (it may not use this at all: 403 until then).', ['playground_limit_exceeded']);

export const CHILDCARE_403: ErrorCode[] = ['not_licensed', 'key_inactive', 'key_expired', 'add_on_not_enabled', 'state_not_entitled'];

/**
 * The childcare service's 400 (its spec, section 7): an invalid date, `include_access=true`, and per operation an
 * invalid location (a circle's centre or radius, or a centre outside the state) or polygon.
 */
export function childcare400(extra: ErrorCode[]): Obj {
  const what = ['`since` is not a date (YYYY-MM-DD) (`invalid_date`)', ...extra.map((c) => (c === 'invalid_location' ? 'lat, lng or radius_km is not a number in range, or the centre is not in `state` (`invalid_location`)' : 'the catchment breaks a polygon rule (`invalid_polygon`)')), '`include_access=true` (`unsupported_parameter`)'];
  return jsonError(`${what.join('; ')}. Correct the request; do not retry it unchanged.`, ['invalid_date', ...extra, 'unsupported_parameter']);
}

/** The X-Request-Id header every operation reads. */
export function requestIdParam(): Obj {
  return { name: 'X-Request-Id', in: 'header', required: false, description: 'Echoed back (letters, digits and ._:- up to 64); otherwise the server assigns one. Every response carries it.', schema: { type: 'string', maxLength: 64 } };
}

/** A DA-listing operation. */
export function daDoc(op: DaOperation): OperationDoc {
  return (route, base) => {
    const out = daOperation(route, op, base);
    (out.parameters as Obj[]).push(requestIdParam());
    return out;
  };
}

/** A property lookup (`full` or `core`). */
export function propertyDoc(variant: 'full' | 'core'): OperationDoc {
  return (route, base) => {
    const names = PROPERTY_PARAMETERS.filter((p) => variant === 'full' || !(FULL_ONLY_PARAMETERS as readonly string[]).includes(p));
    base.parameters = [...names.map((n) => ({ name: n, in: 'query', required: false, description: PARAMETERS[n].description, schema: PARAMETERS[n].schema })), requestIdParam()];
    base.security = [{ bearer: [] }];
    base.responses = {
      200: { description: 'The payload, with `usage` from the meter.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${variant === 'core' ? 'CorePayload' : 'PropertyPayload'}` } } } },
      401: errorResponse(401),
      403: errorResponse(403),
      422: errorResponse(422),
      429: errorResponse(429),
      503: errorResponse(503),
      405: notAllowed(route),
    };
    return base;
  };
}

/** The part every keyless page shares: no parameters but X-Request-Id, no security; `then` completes it. */
export function keyless(then?: (route: RouteValue, base: Obj) => void): OperationDoc {
  return (route, base) => {
    base.parameters = [requestIdParam()];
    base.security = [];
    then?.(route, base);
    return base;
  };
}

/** 200 with `schema`, and the 422 and 405 every keyless page may answer. */
export function ok(route: RouteValue, schema: Obj, type = 'application/json'): Obj {
  return { 200: { description: 'OK', content: { [type]: { schema } } }, 422: jsonError('Any query parameter: this endpoint takes none.', ['unknown_parameter', 'invalid_parameter', 'duplicate_parameter']), 405: notAllowed(route) };
}

export const missing = (description: string, code: ErrorCode = 'not_found'): Obj => ({ 404: jsonError(description, [code]) });

/** `POST /v1/sql`. */
export const sqlDoc: OperationDoc = keyless((route, base) => sqlOrMcpOperation(route, base, 'sql'));
/** `POST /mcp`. */
export const mcpDoc: OperationDoc = keyless((route, base) => sqlOrMcpOperation(route, base, 'mcp'));

/** A webhook operation. */
export function webhookDoc(method: string, op: WebhookOperation): OperationDoc {
  return keyless((route, base) => webhookOperation(route, method, op, base));
}

/** A batch operation (batch-openapi.ts). */
export function batchDoc(method: string, op: BatchOperation): OperationDoc {
  return keyless((route, base) => batchOperation(route, method, op, base, { errorResponse, jsonError, notAllowed }));
}
