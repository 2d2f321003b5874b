/**
 * The OpenAPI 3.1 document of every endpoint the server answers (server/api/routes.ts), with the payload
 * schemas taken from the engine's JSON Schema (OpenAPI 3.1 schemas are JSON Schema 2020-12), the error
 * bodies of spec section 7 and the query parameters of spec section 4 with their limits.
 */
import { createHash } from 'node:crypto';
import { SCORE_KEYS } from '../../engine/entry/scores.js';
import { CORE_PAYLOAD_SCHEMA, PROPERTY_PAYLOAD_SCHEMA, USAGE_SCHEMA } from '../../engine/entry/property.js';
import { VERSION } from '../../engine/index.js';
import { MAX_REQUEST_TARGET } from '../http/limits.js';
import { allowedMethods, CORS_ALLOW_HEADERS, CORS_MAX_AGE } from '../api/cors.js';
import { ROUTES } from '../api/routes.js';
import type { AnyRoute } from '../api/route-value.js';
import { DA_CATEGORIES_SCHEMA, DA_COUNCILS_SCHEMA, DA_DETAIL_SCHEMA, DA_LIST_SCHEMA, DA_NEARBY_SCHEMA, DA_STATS_SCHEMA } from '../../engine/entry/das.js';
import { BATCH_SCHEMAS } from '../api/batch-docs.js';
import { jsonError, WEBHOOK_SCHEMAS } from '../api/operation-docs.js';
import { CHILDCARE_ANALYSIS_SCHEMA, CHILDCARE_FEED_SCHEMA, CHILDCARE_GEOJSON_SCHEMA, CHILDCARE_SCHEMA_SCHEMA, CHILDCARE_SITE_SCHEMA } from '../../engine/entry/childcare.js';

/** The interface description's own version (spec 9: "versioned 1.0.0"). */
export const INTERFACE_VERSION = '1.0.0';

type Obj = Record<string, unknown>;

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

/** The `options` operation of a path: the CORS preflight, answered 204 without a key (api/cors.ts). */
function preflightOperation(route: AnyRoute, first: Obj): Obj {
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

let cached: Obj | undefined;

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

/**
 * The OpenAPI document of `routes` (default every route the server answers, built once): each route's
 * operations described by their own `doc`, then what every path shares (the store's 503, the CORS preflight,
 * the 414).
 */
export function openApiDocument(routes?: readonly AnyRoute[]): Obj {
  if (!routes && cached) return cached;
  const table = routes ?? ROUTES;
  const paths: Obj = {};
  for (const r of table) {
    paths[r.path] = Object.fromEntries(
      r.operations.map((o) => [
        o.method.toLowerCase(),
        // Plain identifiers (letters, digits, underscores), as code generators and anchors want: /v1/das/{id} is
        // v1_das_id, /api/v1/childcare/site-analysis childcare_site_analysis.
        o.doc(r, { tags: [r.tag], summary: r.summary, description: r.description, operationId: r.path.replace(/^\/(api\/v1\/)?/, '').replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_') || 'root' }),
      ]),
    );
  }
  storeUnavailable(paths);
  // The CORS preflight on every path (api/cors.ts): 204 without a key.
  for (const r of table) {
    const ops = paths[r.path] as Obj;
    const first = Object.values(ops)[0] as Obj;
    ops.options = preflightOperation(r, first);
  }
  // Any request whose path and query pass 8,192 bytes: 414, before it is routed.
  for (const ops of Object.values(paths) as Obj[]) for (const op of Object.values(ops) as Obj[]) (op.responses as Obj)[414] = jsonError(`The request target (path and query) is longer than ${MAX_REQUEST_TARGET} bytes.`, ['uri_too_long']);
  const withUsage = (schema: Obj): Obj => ({ allOf: [embed(schema), { required: ['usage'] }] });
  const doc: Obj = {
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
  if (!routes) cached = doc;
  return doc;
}

/** `meta.documentation` of authenticated live responses (spec 2.8): this document's version and hash. */
export function documentationStamp(doc: Obj = openApiDocument()): { version: string; hash: string } {
  const hash = createHash('sha256').update(JSON.stringify(doc)).digest('hex').slice(0, 16);
  return { version: INTERFACE_VERSION, hash };
}
