/**
 * The childcare market intelligence endpoints (spec 4.2, 5, 7): licence checks, `/schema`, `/analysis`,
 * `/site-analysis` (a circle by GET, a polygon by POST) and the feed (`GET /api/v1/das` on a childcare key).
 *
 * Errors follow spec section 7: 400 for a bad value (date, location, polygon, `feature_limit`,
 * `include_access=true`), 401 for the key, 403 for the licence (`not_licensed` without a childcare
 * entitlement, `key_inactive`, `key_expired`, `add_on_not_enabled`, `state_not_entitled`), 422 for a missing
 * required parameter or a body of the wrong shape, 429 past the key's daily limit.
 */
import { isStateCode, STATES, type StateCode } from '../../engine/catalogue/states.js';
import { childcareAnalysis, childcareFeedItem, DATA_BOUNDARIES, PRODUCT, PRODUCT_VERSION, type Catchment } from '../../engine/childcare/analysis.js';
import { CHILDCARE_STAGES, CHILDCARE_WORKS_TYPES } from '../../engine/da/categories.js';
import { childcareCsv, childcareGeoJson } from '../../engine/childcare/export.js';
import { listDas } from '../../engine/da/da-listing.js';
import type { DaStore } from '../../engine/da/da-store.js';
import { melbourneIso } from '../metering/billing-period.js';
import type { ApiKeyRecord } from '../store/store.js';
import { ApiError } from './api-error.js';
import { rejectUnknown } from './query.js';

/** The add-on a key needs for these endpoints. */
export const CHILDCARE_ADD_ON = PRODUCT;
/** Map features at most, and by default. */
export const FEATURE_LIMIT = { default: 500, max: 5000 };
/** Circle radius bounds, km (spec 8). */
export const SITE_RADIUS_KM = { min: 0.1, max: 30 };

/** The childcare endpoints' paths (also listed by /schema). */
export const CHILDCARE_PATHS = ['/api/v1/childcare/schema', '/api/v1/childcare/analysis', '/api/v1/childcare/site-analysis', '/api/v1/childcare/export', '/api/v1/childcare/reconciliation-helper', '/api/v1/das'] as const;

const bad = (parameter: string, message: string) => new ApiError(400, 'invalid_parameter', message, { parameter });
const missing = (parameter: string, message: string) => new ApiError(422, 'missing_parameter', message, { parameter });

/**
 * The key's childcare licence, checked (403 with the reason's own code); with `state`, also that the state is
 * entitled. Returns the entitled states.
 */
export function childcareLicence(key: ApiKeyRecord, now: Date, state?: StateCode): StateCode[] {
  const c = key.childcare;
  if (!c) throw new ApiError(403, 'not_licensed', 'this key has no childcare entitlement; a key made with `propintel keys create --childcare-states VIC,NSW --childcare-add-on childcare_market_intelligence` does', { requested: ['childcare'] });
  if (c.status !== 'active') throw new ApiError(403, 'key_inactive', 'this key\'s childcare licence is inactive', { status: c.status });
  const today = melbourneIso(now).slice(0, 10);
  if (c.expires && today > c.expires) throw new ApiError(403, 'key_expired', `this key's childcare licence expired on ${c.expires}`, { expires_at: c.expires });
  if (c.add_on !== CHILDCARE_ADD_ON) throw new ApiError(403, 'add_on_not_enabled', `this key does not have the ${CHILDCARE_ADD_ON} add-on enabled`, { add_on: CHILDCARE_ADD_ON });
  if (state && !c.states.includes(state)) throw new ApiError(403, 'state_not_entitled', `this key is licensed for ${c.states.join(', ')}, not ${state}`, { state, allowed_states: c.states });
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
  if (!m || !d || d.getUTCMonth() !== +m[2] - 1 || d.getUTCDate() !== +m[3]) throw bad(name, `${name} must be a date as YYYY-MM-DD, not ${JSON.stringify(v.slice(0, 40))}`);
  return v;
}

function featureLimit(p: Map<string, string>): number {
  const v = p.get('feature_limit');
  if (v === undefined) return FEATURE_LIMIT.default;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isInteger(n) || n > FEATURE_LIMIT.max) throw bad('feature_limit', `feature_limit must be a whole number from 0 to ${FEATURE_LIMIT.max}, not ${JSON.stringify(v.slice(0, 40))}`);
  return n;
}

function number(p: Map<string, string>, name: string): number | undefined {
  const v = p.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw bad(name, `${name} must be a number, not ${JSON.stringify(v.slice(0, 40))}`);
  return n;
}

function envelope(data: Record<string, unknown>): Record<string, unknown> {
  return { data, meta: { product: PRODUCT, version: PRODUCT_VERSION, data_boundaries: DATA_BOUNDARIES } };
}

/** `GET /api/v1/childcare/schema`: product, version, the stable dimensions and every path; doubles as the key check. */
export function childcareSchema(key: ApiKeyRecord, now: Date): Record<string, unknown> {
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
    limits: { radius_km: SITE_RADIUS_KM, feature_limit: FEATURE_LIMIT, polygon: { max_vertices: 5000, max_bounding_radius_km: 30 } },
    data_boundaries: DATA_BOUNDARIES,
  };
}

/** `GET /api/v1/childcare/analysis` (`state`, `since`, `feature_limit`). */
export function analysisDocument(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string): Record<string, unknown> {
  rejectUnknown(p, ['state', 'since', 'feature_limit', 'include_access'], path);
  if (p.get('include_access') !== undefined && p.get('include_access') !== 'false') throw bad('include_access', 'include_access=true is not supported');
  const state = stateParam(p, false);
  const states = childcareLicence(key, now, state);
  return envelope(childcareAnalysis(das, { states: state ? [state] : states, since: dateParam(p, 'since'), featureLimit: featureLimit(p) }));
}

/** `GET /api/v1/childcare/site-analysis` (`lat`, `lng`, `radius_km`, `state`, `suburb`, `feature_limit`): a circle. */
export function siteAnalysisDocument(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, stateAt: (lng: number, lat: number) => StateCode | null): Record<string, unknown> {
  rejectUnknown(p, ['lat', 'lng', 'radius_km', 'state', 'suburb', 'since', 'feature_limit', 'include_access'], path);
  if (p.get('include_access') !== undefined && p.get('include_access') !== 'false') throw bad('include_access', 'include_access=true is not supported');
  const state = stateParam(p, true)!;
  const lat = number(p, 'lat'), lng = number(p, 'lng');
  if (lat === undefined || lng === undefined) throw missing(lat === undefined ? 'lat' : 'lng', 'lat and lng are both required (WGS84 degrees)');
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180) throw bad(lat < -90 || lat > 90 ? 'lat' : 'lng', 'lat must be from -90 to 90 and lng from -180 to 180');
  const radius = number(p, 'radius_km') ?? 5;
  if (radius < SITE_RADIUS_KM.min || radius > SITE_RADIUS_KM.max) throw bad('radius_km', `radius_km must be from ${SITE_RADIUS_KM.min} to ${SITE_RADIUS_KM.max}, not ${radius}`);
  childcareLicence(key, now, state);
  const at = stateAt(lng, lat);
  if (at !== state) throw bad('lat', `the point (${lat}, ${lng}) is ${at ? `in ${at}` : 'not in any state this service covers'}, not in ${state}`);
  const catchment: Catchment = { kind: 'circle', lat, lng, radius_km: radius };
  const data = childcareAnalysis(das, { states: [state], since: dateParam(p, 'since'), catchment, featureLimit: featureLimit(p) });
  data.suburb_context = suburbContext(p.get('suburb') ?? null, state);
  return envelope(data);
}

/** `GET /api/v1/childcare/export` (`format` csv or geojson, `state`): a file download. */
export function exportFile(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string): { contentType: string; filename: string; parts: Buffer[] } {
  rejectUnknown(p, ['format', 'state', 'since'], path);
  const format = (p.get('format') ?? 'csv').toLowerCase();
  if (format !== 'csv' && format !== 'geojson') throw bad('format', `format must be csv or geojson, not ${JSON.stringify(format.slice(0, 20))}`);
  const state = stateParam(p, false);
  const states = childcareLicence(key, now, state);
  const since = dateParam(p, 'since');
  const day = melbourneIso(now).slice(0, 10);
  const filename = `childcare-pipeline-${state ?? states.join('-')}-${day}.${format}`;
  if (format === 'csv') return { contentType: 'text/csv; charset=utf-8', filename, parts: childcareCsv(das, state ? [state] : states, since).parts };
  return { contentType: 'application/geo+json', filename, parts: childcareGeoJson(das, state ? [state] : states, since).parts };
}

/** Suburb demographics: a suburb fact, never a catchment statistic. Not yet held: said so. */
function suburbContext(suburb: string | null, state: StateCode): Record<string, unknown> {
  return { suburb, state, available: false, note: 'Suburb-level census context is not held in this dataset yet; when present it describes the whole suburb, never the catchment.' };
}

/** `GET /api/v1/das` on a childcare key: the entitled childcare rows, paged like the listing. */
export function childcareFeed(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string): Record<string, unknown> {
  rejectUnknown(p, ['state', 'since', 'page', 'per_page', 'cursor'], path);
  const state = stateParam(p, false);
  const states = childcareLicence(key, now, state);
  dateParam(p, 'since');
  const doc = listDas(das, p, path, { category: 'childcare', ...(state ? {} : { states }) });
  const ids = new Set((doc.data as { id: number }[]).map((d) => d.id));
  const records = das.getMany([...ids]);
  const byId = new Map(records.map((r) => [r.id, r]));
  return { ...doc, data: (doc.data as { id: number }[]).map((d) => childcareFeedItem(byId.get(d.id)!)), meta: { ...doc.meta, product: PRODUCT, version: PRODUCT_VERSION, data_boundaries: DATA_BOUNDARIES } };
}
