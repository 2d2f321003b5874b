/**
 * The childcare market intelligence endpoints (spec 4.2, 5, 7): licence checks, `/schema`, `/analysis`,
 * `/site-analysis` (a circle by GET, a polygon by POST) and the feed (`GET /api/v1/das` on a childcare key).
 *
 * Errors follow spec section 7: 400 for what it names (`invalid_date`, `invalid_location` for a circle's
 * centre or radius or a point outside the state, `invalid_polygon`, and `unsupported_parameter` for
 * `include_access=true`), 401 for the key, 403 for the licence (`not_licensed` without a childcare
 * entitlement, `key_inactive`, `key_expired`, `add_on_not_enabled`, `state_not_entitled`), 422 for a missing
 * required parameter (`missing_parameter`), a body of the wrong shape (`invalid_body`) and any other bad value
 * (`invalid_parameter`: a state, `feature_limit`, `format`), as everywhere in the API; 429 past the key's
 * daily limit.
 */
import { isStateCode, STATES, type StateCode } from '../../engine/entry/data.js';
import { childcareAnalysis, childcareFeedItem, DATA_BOUNDARIES, GENERIC_NOTICES, PRODUCT, PRODUCT_VERSION, type NoticeLookup, type SourceNotice, catchmentPolygon, circleCatchment, POLYGON_LIMITS, siteAnalysis, SiteInputError, SITE_RADIUS_KM, type ChildcareWorld, type SiteRequest, childcareCsvChunks, childcareGeoJsonChunks } from '../../engine/entry/childcare.js';
import { CHILDCARE_STAGES, CHILDCARE_WORKS_TYPES } from '../../engine/entry/das.js';
import { daListDocument } from './da-query.js';
import type { DaReader } from '../../engine/entry/das.js';
import { melbourneIso } from '../metering/billing-period.js';
import type { ApiKeyRecord } from '../store/store.js';
import { ApiError } from '../http/api-error.js';
import { decimalValue } from '../http/query-values.js';
import { rejectUnknown } from './query.js';

/** The childcare market intelligence operations (spec 4.2). */
export type ChildcareOperation = 'schema' | 'analysis' | 'site-analysis' | 'report' | 'export' | 'reconciliation-helper';

/** The add-on a key needs for these endpoints. */
export const CHILDCARE_ADD_ON = PRODUCT;
/** Map features at most, and by default. */
export const FEATURE_LIMIT = { default: 500, max: 5000 };
export { POLYGON_LIMITS, SITE_RADIUS_KM };

/** The childcare endpoints' paths (also listed by /schema). */
export const CHILDCARE_PATHS = ['/api/v1/childcare/schema', '/api/v1/childcare/analysis', '/api/v1/childcare/site-analysis', '/api/v1/childcare/report', '/api/v1/childcare/export', '/api/v1/childcare/reconciliation-helper', '/api/v1/das'] as const;

const bad = (parameter: string, message: string) => new ApiError('invalid_parameter', message, { parameter });

const unsupported = () => new ApiError('unsupported_parameter', 'include_access=true is not supported', { parameter: 'include_access' });

/** Spec 4.2 rule 4: `include_access=true` is unsupported, on every childcare endpoint (400, before anything else). */
export function refuseIncludeAccess(p: Map<string, string>): void {
  const v = p.get('include_access');
  if (v !== undefined && v.toLowerCase() !== 'false' && v !== '0') throw unsupported();
}
const missing = (parameter: string, message: string) => new ApiError('missing_parameter', message, { parameter });

/**
 * The key's childcare licence, checked (403 with the reason's own code); with `state`, also that the state is
 * entitled. Returns the entitled states.
 */
export function childcareLicence(key: ApiKeyRecord, now: Date, state?: StateCode): StateCode[] {
  const c = key.childcare;
  if (!c) throw new ApiError('not_licensed', 'this key has no childcare entitlement; a key made with `propintel keys create --childcare-states VIC,NSW --childcare-add-on childcare_market_intelligence` does', { requested: ['childcare'] });
  if (c.status !== 'active') throw new ApiError('key_inactive', 'this key\'s childcare licence is inactive', { status: c.status });
  const today = melbourneIso(now).slice(0, 10);
  if (c.expires && today > c.expires) throw new ApiError('key_expired', `this key's childcare licence expired on ${c.expires}`, { expires_at: c.expires });
  if (c.add_on !== CHILDCARE_ADD_ON) throw new ApiError('add_on_not_enabled', `this key does not have the ${CHILDCARE_ADD_ON} add-on enabled`, { add_on: CHILDCARE_ADD_ON });
  if (state && !c.states.includes(state)) throw new ApiError('state_not_entitled', `this key is licensed for ${c.states.join(', ')}, not ${state}`, { state, allowed_states: c.states });
  return [...c.states];
}

function stateParam(p: Map<string, string>, required: boolean): StateCode | undefined {
  const v = p.get('state');
  if (v === undefined || v.trim() === '') {
    if (required) throw missing('state', 'state is required (VIC, NSW, QLD, WA, SA, TAS, ACT or NT)');
    return undefined;
  }
  const s = v.trim().toUpperCase();
  if (!isStateCode(s)) throw bad('state', `state must be one of ${STATES.join(', ')}, not ${JSON.stringify(v.slice(0, 40))}`);
  return s;
}

function dateParam(p: Map<string, string>, name: string): string | undefined {
  const v = p.get(name);
  if (v === undefined) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const d = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : null;
  if (!m || !d || d.getUTCMonth() !== +m[2] - 1 || d.getUTCDate() !== +m[3]) throw new ApiError('invalid_date', `${name} must be a date as YYYY-MM-DD, not ${JSON.stringify(v.slice(0, 40))}`, { parameter: name });
  return v;
}

function featureLimit(p: Map<string, string>): number {
  const v = p.get('feature_limit');
  if (v === undefined) return FEATURE_LIMIT.default;
  const n = Number(v);
  if (!/^\d{1,9}$/.test(v) || n > FEATURE_LIMIT.max) throw bad('feature_limit', `feature_limit must be a whole number from 0 to ${FEATURE_LIMIT.max}, not ${JSON.stringify(v.slice(0, 40))}`);
  return n;
}

/** A number of the circle (`lat`, `lng`, `radius_km`): a bad one is a bad location (400). */
function locationNumber(p: Map<string, string>, name: string): number | undefined {
  const v = p.get(name);
  if (v === undefined) return undefined;
  const n = decimalValue(v);
  if (n === undefined) throw new ApiError('invalid_location', `${name} must be a decimal number, not ${JSON.stringify(v.slice(0, 40))}`, { parameter: name });
  return n;
}

function envelope(data: Record<string, unknown>): Record<string, unknown> {
  return { data, meta: { product: PRODUCT, version: PRODUCT_VERSION, data_boundaries: DATA_BOUNDARIES } };
}

/** `GET /api/v1/childcare/schema`: product, version, the stable dimensions and every path; doubles as the key check. */
export function childcareSchema(key: ApiKeyRecord, now: Date, notices: NoticeLookup = GENERIC_NOTICES): Record<string, unknown> {
  const states = childcareLicence(key, now);
  const c = key.childcare!;
  return {
    product: PRODUCT,
    version: PRODUCT_VERSION,
    licence: { status: 'active', expires_at: c.expires, allowed_states: states, add_on: c.add_on },
    dimensions: {
      childcare_pipeline_stage: CHILDCARE_STAGES,
      childcare_works_type: CHILDCARE_WORKS_TYPES,
      state: STATES,
      breakdowns: ['stage', 'works_type', 'state', 'council', 'suburb'],
      headline: ['total', 'under_assessment', 'advertised', 'approved', 'refused'],
    },
    endpoints: CHILDCARE_PATHS,
    limits: { radius_km: SITE_RADIUS_KM, feature_limit: FEATURE_LIMIT, polygon: { max_vertices: POLYGON_LIMITS.vertices, max_bounding_radius_km: POLYGON_LIMITS.radiusKm } },
    notices: noticesBlock(notices([])),
    data_boundaries: DATA_BOUNDARIES,
  };
}

/** The notices block of a response: attribution, licences, and the instruction to keep them. */
export function noticesBlock(list: SourceNotice[]): Record<string, unknown> {
  return { attribution: list.map((n) => n.attribution), licences: list.map((n) => ({ source: n.source, licence: n.licence })), keep: 'Keep these attribution and licence notices with any output shown to customers.' };
}

/** `GET /api/v1/childcare/analysis` (`state`, `since`, `feature_limit`). */
export function analysisDocument(das: DaReader, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, notices: NoticeLookup = GENERIC_NOTICES): Record<string, unknown> {
  refuseIncludeAccess(p);
  rejectUnknown(p, ['state', 'since', 'feature_limit', 'include_access'], path);
  const state = stateParam(p, false);
  const states = childcareLicence(key, now, state);
  return envelope(childcareAnalysis(das, { states: state ? [state] : states, since: dateParam(p, 'since'), featureLimit: featureLimit(p), notices }));
}

/** `GET /api/v1/childcare/site-analysis` (`lat`, `lng`, `radius_km`, `state`, `suburb`, `feature_limit`): a circle. */
export function siteAnalysisDocument(das: DaReader, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, world: ChildcareWorld): Record<string, unknown> {
  return envelope(siteAnalysis(das, world, siteRequestFromQuery(key, now, p, path, world)));
}

/** The circle site request of a query (`lat`, `lng`, `radius_km`, `state`, `suburb`, `since`, `feature_limit`), checked. */
export function siteRequestFromQuery(key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, world: ChildcareWorld, extra: readonly string[] = []): SiteRequest {
  refuseIncludeAccess(p);
  rejectUnknown(p, ['lat', 'lng', 'radius_km', 'state', 'suburb', 'since', 'feature_limit', 'include_access', ...extra], path);
  const state = stateParam(p, true)!;
  const lat = locationNumber(p, 'lat'), lng = locationNumber(p, 'lng');
  if (lat === undefined || lng === undefined) throw missing(lat === undefined ? 'lat' : 'lng', 'lat and lng are both required (WGS84 degrees)');
  const radius = locationNumber(p, 'radius_km') ?? 5;
  const catchment = siteRule(() => circleCatchment(lat, lng, radius, state, (x, y) => world.stateAt(x, y)), key, now, state);
  childcareLicence(key, now, state);
  return { state, catchment, suburb: p.get('suburb')?.trim() || null, since: dateParam(p, 'since'), featureLimit: featureLimit(p) };
}

/**
 * Runs a catchment check as the HTTP layer answers it: a range error first (400), then the licence (403), then
 * whether the catchment lies in the state (400), each {@link SiteInputError} as an ApiError of its code.
 */
function siteRule<T>(check: () => T, key: ApiKeyRecord, now: Date, state: StateCode): T {
  try {
    return check();
  } catch (e) {
    if (!(e instanceof SiteInputError)) throw e;
    // The licence comes before the location rule: a state the key lacks is 403, wherever the point is.
    if (e.rule === 'outside_state') childcareLicence(key, now, state);
    throw new ApiError(e.code, e.message, { parameter: e.parameter });
  }
}

/** `POST /api/v1/childcare/site-analysis`: `{ state, suburb?, catchment, since?, feature_limit? }`. */
export function polygonSiteAnalysis(das: DaReader, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, body: Buffer | undefined, world: ChildcareWorld): Record<string, unknown> {
  return envelope(siteAnalysis(das, world, siteRequestFromBody(key, now, p, path, body, world)));
}

/** The polygon site request of a POST body, checked. */
export function siteRequestFromBody(key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, body: Buffer | undefined, world: ChildcareWorld, extra: readonly string[] = []): SiteRequest {
  refuseIncludeAccess(p);
  rejectUnknown(p, [...extra], path);
  let b: unknown;
  try {
    b = JSON.parse(body?.toString('utf8') ?? '');
  } catch {
    throw new ApiError('invalid_body', 'the body must be JSON: { "state": "VIC", "catchment": { "type": "Polygon", "coordinates": [...] } }', { parameter: 'body' });
  }
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new ApiError('invalid_body', 'the body must be a JSON object with state and catchment', { parameter: 'body' });
  const o = b as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['state', 'suburb', 'catchment', 'since', 'feature_limit', 'include_access'].includes(k)) throw new ApiError('unknown_parameter', `unknown field ${JSON.stringify(k)}`, { parameter: k });
  if (o.include_access === true || o.include_access === 'true') throw unsupported();
  const q = new Map<string, string>();
  for (const k of ['state', 'since', 'feature_limit']) if (o[k] !== undefined && o[k] !== null) q.set(k, String(o[k]));
  const state = stateParam(q, true)!;
  childcareLicence(key, now, state);
  if (o.catchment === undefined) throw missing('catchment', 'catchment is required: a GeoJSON Polygon in longitude/latitude');
  if (o.suburb !== undefined && o.suburb !== null && typeof o.suburb !== 'string') throw new ApiError('invalid_body', 'suburb must be text', { parameter: 'suburb' });
  const polygon = siteRule(() => catchmentPolygon(o.catchment, state, (x, y) => world.stateAt(x, y)), key, now, state);
  return { state, catchment: { kind: 'polygon', polygon }, suburb: (o.suburb as string | undefined)?.trim() || null, since: dateParam(q, 'since'), featureLimit: featureLimit(q) };
}

/** `GET /api/v1/childcare/export` (`format` csv or geojson, `state`): a file download. */
export function exportFile(das: DaReader, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, notices: NoticeLookup = GENERIC_NOTICES): { contentType: string; filename: string; stream: () => Iterator<Buffer>; notices: SourceNotice[] } {
  refuseIncludeAccess(p);
  rejectUnknown(p, ['format', 'state', 'since'], path);
  const format = (p.get('format') ?? 'csv').toLowerCase();
  if (format !== 'csv' && format !== 'geojson') throw bad('format', `format must be csv or geojson, not ${JSON.stringify(format.slice(0, 20))}`);
  const state = stateParam(p, false);
  const states = childcareLicence(key, now, state);
  const since = dateParam(p, 'since');
  const day = melbourneIso(now).slice(0, 10);
  const filename = `childcare-pipeline-${state ?? states.join('-')}-${day}.${format}`;
  const scope = state ? [state] : states;
  // The sources of the DA store as a whole: an export's rows may come from any of them.
  const used = notices([]);
  if (format === 'csv') return { contentType: 'text/csv; charset=utf-8', filename, stream: () => childcareCsvChunks(das, scope, since), notices: used };
  return { contentType: 'application/geo+json', filename, stream: () => childcareGeoJsonChunks(das, scope, since, Infinity, used), notices: used };
}

/** `GET /api/v1/das` on a childcare key: the entitled childcare rows, paged like the listing. */
export function childcareFeed(das: DaReader, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, notices: NoticeLookup = GENERIC_NOTICES): Record<string, unknown> {
  refuseIncludeAccess(p);
  rejectUnknown(p, ['state', 'since', 'page', 'per_page', 'cursor'], path);
  const state = stateParam(p, false);
  const states = childcareLicence(key, now, state);
  dateParam(p, 'since');
  const doc = daListDocument(das, p, path, { category: 'childcare', ...(state ? {} : { states }) }, childcareFeedItem);
  const sources = [...new Set((doc.data as { data_source: string }[]).map((d) => d.data_source))];
  return { ...doc, meta: { ...doc.meta, product: PRODUCT, version: PRODUCT_VERSION, notices: noticesBlock(notices(sources)), data_boundaries: DATA_BOUNDARIES } };
}
