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
import { childcareAnalysis, childcareFeedItem, DATA_BOUNDARIES, GENERIC_NOTICES, preparedPolygon, PRODUCT, PRODUCT_VERSION, schoolsSection, type Catchment, type NoticeLookup, type OpenSchool, type SourceNotice } from '../../engine/childcare/analysis.js';
import { CHILDCARE_STAGES, CHILDCARE_WORKS_TYPES } from '../../engine/da/categories.js';
import { childcareCsvChunks, childcareGeoJsonChunks } from '../../engine/childcare/export.js';
import { listDas } from '../../engine/da/da-listing.js';
import type { DaStore } from '../../engine/da/da-store.js';
import { melbourneIso } from '../metering/billing-period.js';
import type { ApiKeyRecord } from '../store/store.js';
import type { Polygon } from 'geojson';
import { distanceMetres } from '../../engine/geo/distance.js';
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

/** Spec 4.2 rule 4: `include_access=true` is unsupported, on every childcare endpoint (400, before anything else). */
export function refuseIncludeAccess(p: Map<string, string>): void {
  const v = p.get('include_access');
  if (v !== undefined && v.toLowerCase() !== 'false' && v !== '0') throw bad('include_access', 'include_access=true is not supported');
}
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
    limits: { radius_km: SITE_RADIUS_KM, feature_limit: FEATURE_LIMIT, polygon: { max_vertices: 5000, max_bounding_radius_km: 30 } },
    notices: noticesBlock(notices([])),
    data_boundaries: DATA_BOUNDARIES,
  };
}

/** The notices block of a response: attribution, licences, and the instruction to keep them. */
export function noticesBlock(list: SourceNotice[]): Record<string, unknown> {
  return { attribution: list.map((n) => n.attribution), licences: list.map((n) => ({ source: n.source, licence: n.licence })), keep: 'Keep these attribution and licence notices with any output shown to customers.' };
}

/** `GET /api/v1/childcare/analysis` (`state`, `since`, `feature_limit`). */
export function analysisDocument(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, notices: NoticeLookup = GENERIC_NOTICES): Record<string, unknown> {
  refuseIncludeAccess(p);
  rejectUnknown(p, ['state', 'since', 'feature_limit', 'include_access'], path);
  const state = stateParam(p, false);
  const states = childcareLicence(key, now, state);
  return envelope(childcareAnalysis(das, { states: state ? [state] : states, since: dateParam(p, 'since'), featureLimit: featureLimit(p), notices }));
}

/** `GET /api/v1/childcare/site-analysis` (`lat`, `lng`, `radius_km`, `state`, `suburb`, `feature_limit`): a circle. */
export function siteAnalysisDocument(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, stateAt: (lng: number, lat: number) => StateCode | null, openSchools: (state: StateCode) => OpenSchool[] | null = () => null, notices: NoticeLookup = GENERIC_NOTICES): Record<string, unknown> {
  refuseIncludeAccess(p);
  rejectUnknown(p, ['lat', 'lng', 'radius_km', 'state', 'suburb', 'since', 'feature_limit', 'include_access'], path);
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
  const data = childcareAnalysis(das, { states: [state], since: dateParam(p, 'since'), catchment, featureLimit: featureLimit(p), notices });
  data.schools = schoolsSection(state, catchment, openSchools(state));
  data.suburb_context = suburbContext(p.get('suburb') ?? null, state);
  return envelope(data);
}

/** Vertices a catchment polygon may have, and its largest bounding radius (spec 8). */
export const POLYGON_LIMITS = { vertices: 5000, radiusKm: 30 };

/** Whether segments p1-p2 and p3-p4 meet at all: crossing, touching, or overlapping along a line. */
function segmentsMeet(p1: number[], p2: number[], p3: number[], p4: number[]): boolean {
  const d = (a: number[], b: number[], c: number[]) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  const on = (a: number[], b: number[], c: number[]) => Math.min(a[0], b[0]) <= c[0] && c[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= c[1] && c[1] <= Math.max(a[1], b[1]);
  const d1 = d(p3, p4, p1), d2 = d(p3, p4, p2), d3 = d(p1, p2, p3), d4 = d(p1, p2, p4);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && on(p3, p4, p1)) || (d2 === 0 && on(p3, p4, p2)) || (d3 === 0 && on(p1, p2, p3)) || (d4 === 0 && on(p1, p2, p4));
}

/** Twice the signed area of a ring (shoelace). */
function ringArea2(ring: number[][]): number {
  let a = 0;
  for (let k = 0; k + 1 < ring.length; k++) a += ring[k][0] * ring[k + 1][1] - ring[k + 1][0] * ring[k][1];
  return a;
}

/**
 * A catchment polygon from a POST body's `catchment` (a GeoJSON Polygon, or a Feature holding one), checked:
 * rings of at least 4 positions, closed, of finite lon/lat numbers; no ring crossing itself or another (a
 * sweep over the edges sorted by x, so a 5,000-vertex ring is checked in milliseconds); at most
 * {@link POLYGON_LIMITS}.vertices vertices and {@link POLYGON_LIMITS}.radiusKm km from the centre of its box to
 * any vertex; every vertex in `state`. Throws 400 naming the rule (422 when the shape is not a polygon at all).
 */
export function catchmentPolygon(value: unknown, state: StateCode, stateAt: (lng: number, lat: number) => StateCode | null): Polygon {
  let g = value as { type?: unknown; geometry?: unknown; coordinates?: unknown } | null;
  if (g && typeof g === 'object' && g.type === 'Feature') g = g.geometry as typeof g;
  if (!g || typeof g !== 'object' || g.type !== 'Polygon' || !Array.isArray(g.coordinates)) {
    throw new ApiError(422, 'invalid_body', 'catchment must be a GeoJSON Polygon (or a Feature whose geometry is one), coordinates in [longitude, latitude]', { parameter: 'catchment' });
  }
  const rings = g.coordinates as unknown[];
  if (rings.length === 0) throw bad('catchment', 'catchment has no rings');
  let vertices = 0;
  for (const [i, ring] of rings.entries()) {
    if (!Array.isArray(ring) || ring.length < 4) throw bad('catchment', `ring ${i} needs at least 4 positions (a closed triangle)`);
    for (const pt of ring) {
      if (!Array.isArray(pt) || pt.length < 2 || typeof pt[0] !== 'number' || typeof pt[1] !== 'number' || !Number.isFinite(pt[0]) || !Number.isFinite(pt[1]) || Math.abs(pt[0]) > 180 || Math.abs(pt[1]) > 90) {
        throw bad('catchment', `ring ${i} has a position that is not [longitude, latitude] in degrees`);
      }
    }
    const first = ring[0] as number[], last = ring[ring.length - 1] as number[];
    if (first[0] !== last[0] || first[1] !== last[1]) throw bad('catchment', `ring ${i} is not closed: its last position must repeat its first`);
    vertices += ring.length - 1;
    if (vertices > POLYGON_LIMITS.vertices) throw bad('catchment', `catchment has more than ${POLYGON_LIMITS.vertices} vertices`);
  }
  const polygon = { type: 'Polygon', coordinates: rings as number[][][] } as Polygon;
  const outer = polygon.coordinates[0];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of outer) (x0 = Math.min(x0, x)), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y));
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const radius = Math.max(...outer.map(([x, y]) => distanceMetres(cx, cy, x, y))) / 1000;
  if (radius > POLYGON_LIMITS.radiusKm) throw bad('catchment', `catchment reaches ${radius.toFixed(1)} km from the centre of its box; at most ${POLYGON_LIMITS.radiusKm} km`);
  // Self-intersection: every pair of edges whose x ranges overlap, in a sweep.
  const edges: { a: number[]; b: number[]; lo: number; hi: number; ring: number; k: number; n: number }[] = [];
  polygon.coordinates.forEach((ring, r) => {
    for (let k = 0; k + 1 < ring.length; k++) edges.push({ a: ring[k], b: ring[k + 1], lo: Math.min(ring[k][0], ring[k + 1][0]), hi: Math.max(ring[k][0], ring[k + 1][0]), ring: r, k, n: ring.length - 1 });
  });
  edges.sort((p, q) => p.lo - q.lo);
  const active: typeof edges = [];
  for (const e of edges) {
    for (let i = active.length - 1; i >= 0; i--) if (active[i].hi < e.lo) active.splice(i, 1);
    for (const o of active) {
      // Neighbours in a ring share one end; any other meeting (a crossing, a touch, an overlap) is invalid.
      const adjacent = o.ring === e.ring && (Math.abs(o.k - e.k) === 1 || Math.abs(o.k - e.k) === e.n - 1);
      const meet = adjacent ? o.ring === e.ring && e.n === 2 : segmentsMeet(o.a, o.b, e.a, e.b);
      if (meet) throw bad('catchment', `catchment is not a valid polygon: ring ${o.ring === e.ring ? `${e.ring} crosses or touches itself` : `${e.ring} crosses or touches ring ${o.ring}`} near [${e.a[0]}, ${e.a[1]}]`);
    }
    active.push(e);
  }
  for (const [i, ring] of polygon.coordinates.entries()) {
    if (Math.abs(ringArea2(ring)) < 1e-14) throw bad('catchment', `ring ${i} encloses no area`);
  }
  // Holes lie inside the outer ring (no edge meets it, so one vertex inside means the whole ring is).
  if (polygon.coordinates.length > 1) {
    const insideOuter = preparedPolygon({ type: 'Polygon', coordinates: [outer] });
    for (let i = 1; i < polygon.coordinates.length; i++) {
      const [x, y] = polygon.coordinates[i][0];
      if (!insideOuter(x, y)) throw bad('catchment', `ring ${i} (a hole) is not inside the outer ring`);
    }
  }
  // Wholly inside the state: every vertex of the outer ring, and points along each edge (at most 1 km apart),
  // so an edge cannot leave the state between two vertices unseen (a border with a bend is a finer case).
  for (let k = 0; k + 1 < outer.length; k++) {
    const [ax, ay] = outer[k], [bx, by] = outer[k + 1];
    const steps = Math.min(64, Math.max(1, Math.ceil(distanceMetres(ax, ay, bx, by) / 1000)));
    for (let t = 0; t < steps; t++) {
      const x = ax + ((bx - ax) * t) / steps, y = ay + ((by - ay) * t) / steps;
      const at = stateAt(x, y);
      if (at !== state) throw bad('catchment', `catchment is not wholly inside ${state}: ${t === 0 ? 'its vertex' : 'a point on its edge at'} [${x}, ${y}] is ${at ? `in ${at}` : 'outside every state this service covers'}`);
    }
  }
  return polygon;
}

/** `POST /api/v1/childcare/site-analysis`: `{ state, suburb?, catchment, since?, feature_limit? }`. */
export function polygonSiteAnalysis(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, body: Buffer | undefined, stateAt: (lng: number, lat: number) => StateCode | null, openSchools: (state: StateCode) => OpenSchool[] | null = () => null, notices: NoticeLookup = GENERIC_NOTICES): Record<string, unknown> {
  refuseIncludeAccess(p);
  rejectUnknown(p, [], path);
  let b: unknown;
  try {
    b = JSON.parse(body?.toString('utf8') ?? '');
  } catch {
    throw new ApiError(422, 'invalid_body', 'the body must be JSON: { "state": "VIC", "catchment": { "type": "Polygon", "coordinates": [...] } }', { parameter: 'body' });
  }
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new ApiError(422, 'invalid_body', 'the body must be a JSON object with state and catchment', { parameter: 'body' });
  const o = b as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['state', 'suburb', 'catchment', 'since', 'feature_limit', 'include_access'].includes(k)) throw new ApiError(422, 'unknown_parameter', `unknown field ${JSON.stringify(k)}`, { parameter: k });
  if (o.include_access === true || o.include_access === 'true') throw bad('include_access', 'include_access=true is not supported');
  const q = new Map<string, string>();
  for (const k of ['state', 'since', 'feature_limit']) if (o[k] !== undefined && o[k] !== null) q.set(k, String(o[k]));
  const state = stateParam(q, true)!;
  childcareLicence(key, now, state);
  if (o.catchment === undefined) throw missing('catchment', 'catchment is required: a GeoJSON Polygon in longitude/latitude');
  if (o.suburb !== undefined && typeof o.suburb !== 'string') throw new ApiError(422, 'invalid_body', 'suburb must be text', { parameter: 'suburb' });
  const polygon = catchmentPolygon(o.catchment, state, stateAt);
  const catchment: Catchment = { kind: 'polygon', polygon };
  const data = childcareAnalysis(das, { states: [state], since: dateParam(q, 'since'), catchment, featureLimit: featureLimit(q), notices });
  data.schools = schoolsSection(state, catchment, openSchools(state));
  data.suburb_context = suburbContext((o.suburb as string | undefined) ?? null, state);
  return envelope(data);
}

/** `GET /api/v1/childcare/export` (`format` csv or geojson, `state`): a file download. */
export function exportFile(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, notices: NoticeLookup = GENERIC_NOTICES): { contentType: string; filename: string; stream: () => Iterator<Buffer>; notices: SourceNotice[] } {
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

/** Suburb demographics: a suburb fact, never a catchment statistic. Not yet held: said so. */
function suburbContext(suburb: string | null, state: StateCode): Record<string, unknown> {
  return { suburb, state, available: false, note: 'Suburb-level census context is not held in this dataset yet; when present it describes the whole suburb, never the catchment.' };
}

/** `GET /api/v1/das` on a childcare key: the entitled childcare rows, paged like the listing. */
export function childcareFeed(das: DaStore, key: ApiKeyRecord, now: Date, p: Map<string, string>, path: string, notices: NoticeLookup = GENERIC_NOTICES): Record<string, unknown> {
  refuseIncludeAccess(p);
  rejectUnknown(p, ['state', 'since', 'page', 'per_page', 'cursor'], path);
  const state = stateParam(p, false);
  const states = childcareLicence(key, now, state);
  dateParam(p, 'since');
  const doc = listDas(das, p, path, { category: 'childcare', ...(state ? {} : { states }) }, childcareFeedItem);
  const sources = [...new Set((doc.data as { data_source: string }[]).map((d) => d.data_source))];
  return { ...doc, meta: { ...doc.meta, product: PRODUCT, version: PRODUCT_VERSION, notices: noticesBlock(notices(sources)), data_boundaries: DATA_BOUNDARIES } };
}
