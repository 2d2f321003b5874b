/**
 * A childcare site analysis (spec 2.3, 4.2, 8): the request's catchment checked by the spec's rules, and the
 * analysis of the catchment with its open schools and suburb census context. The HTTP endpoints, the CLI and
 * the reports all go through here, so a report is a rendering of the same object the JSON endpoint returns.
 *
 * Rules: a circle's centre lies in the requested state and its radius is {@link SITE_RADIUS_KM}; a polygon
 * is valid (closed rings, no ring crossing or touching itself or another, holes inside the outer ring), wholly
 * inside the state, at most {@link POLYGON_LIMITS} vertices and bounding radius. A broken rule throws a
 * {@link SiteInputError} naming the rule (the server answers each code with its own status).
 */
import type { Polygon } from 'geojson';
import type { StateCode } from '../catalogue/states.js';
import type { DaReader } from '../da/da-store.js';
import { distanceMetres } from '../geo/distance.js';
import { childcareAnalysis, GENERIC_NOTICES, preparedPolygon, schoolsSection, type Catchment, type NoticeLookup, type OpenSchool } from './analysis.js';

/** A site request that breaks a rule: the error code and the parameter named. */
export class SiteInputError extends Error {
  override readonly name = 'SiteInputError';

  constructor(
    /**
     * What is wrong: the circle's centre or radius (`invalid_location`), the polygon's rules
     * (`invalid_polygon`), or a catchment that is not a GeoJSON polygon at all (`invalid_body`).
     */
    readonly code: 'invalid_location' | 'invalid_polygon' | 'invalid_body',
    readonly parameter: string,
    message: string,
    /** `outside_state` when the site is not in the requested state (the HTTP layer checks the licence first). */
    readonly rule?: 'outside_state',
  ) {
    super(message);
  }
}

const badLocation = (parameter: string, message: string) => new SiteInputError('invalid_location', parameter, message);
const badPolygon = (message: string) => new SiteInputError('invalid_polygon', 'catchment', message);

/** Circle radius bounds, km (spec 8). */
export const SITE_RADIUS_KM = { min: 0.1, max: 30 };

/**
 * A circle catchment, checked: lat/lng in range, the radius within {@link SITE_RADIUS_KM}, the centre in `state`.
 */
export function circleCatchment(lat: number, lng: number, radiusKm: number, state: StateCode, stateAt: (lng: number, lat: number) => StateCode | null): Catchment {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180) throw badLocation(lat < -90 || lat > 90 || !Number.isFinite(lat) ? 'lat' : 'lng', 'lat must be from -90 to 90 and lng from -180 to 180');
  if (!(radiusKm >= SITE_RADIUS_KM.min && radiusKm <= SITE_RADIUS_KM.max)) throw badLocation('radius_km', `radius_km must be from ${SITE_RADIUS_KM.min} to ${SITE_RADIUS_KM.max}, not ${radiusKm}`);
  const at = stateAt(lng, lat);
  if (at !== state) throw new SiteInputError('invalid_location', 'lat', `the point (${lat}, ${lng}) is ${at ? `in ${at}` : 'not in any state this service covers'}, not in ${state}`, 'outside_state');
  return { kind: 'circle', lat, lng, radius_km: radiusKm };
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
 * any vertex; every vertex in `state`. Throws `invalid_polygon` naming the rule (`invalid_body` when the value is not a polygon at all).
 */
export function catchmentPolygon(value: unknown, state: StateCode, stateAt: (lng: number, lat: number) => StateCode | null): Polygon {
  let g = value as { type?: unknown; geometry?: unknown; coordinates?: unknown } | null;
  if (g && typeof g === 'object' && g.type === 'Feature') g = g.geometry as typeof g;
  if (!g || typeof g !== 'object' || g.type !== 'Polygon' || !Array.isArray(g.coordinates)) {
    throw new SiteInputError('invalid_body', 'catchment', 'catchment must be a GeoJSON Polygon (or a Feature whose geometry is one), coordinates in [longitude, latitude]');
  }
  const rings = g.coordinates as unknown[];
  if (rings.length === 0) throw badPolygon('catchment has no rings');
  let vertices = 0;
  for (const [i, ring] of rings.entries()) {
    if (!Array.isArray(ring) || ring.length < 4) throw badPolygon(`ring ${i} needs at least 4 positions (a closed triangle)`);
    for (const pt of ring) {
      if (!Array.isArray(pt) || pt.length < 2 || typeof pt[0] !== 'number' || typeof pt[1] !== 'number' || !Number.isFinite(pt[0]) || !Number.isFinite(pt[1]) || Math.abs(pt[0]) > 180 || Math.abs(pt[1]) > 90) {
        throw badPolygon(`ring ${i} has a position that is not [longitude, latitude] in degrees`);
      }
    }
    const first = ring[0] as number[], last = ring[ring.length - 1] as number[];
    if (first[0] !== last[0] || first[1] !== last[1]) throw badPolygon(`ring ${i} is not closed: its last position must repeat its first`);
    vertices += ring.length - 1;
    if (vertices > POLYGON_LIMITS.vertices) throw badPolygon(`catchment has more than ${POLYGON_LIMITS.vertices} vertices`);
  }
  const polygon = { type: 'Polygon', coordinates: rings as number[][][] } as Polygon;
  const outer = polygon.coordinates[0];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of outer) (x0 = Math.min(x0, x)), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y));
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const radius = Math.max(...outer.map(([x, y]) => distanceMetres(cx, cy, x, y))) / 1000;
  if (radius > POLYGON_LIMITS.radiusKm) throw badPolygon(`catchment reaches ${radius.toFixed(1)} km from the centre of its box; at most ${POLYGON_LIMITS.radiusKm} km`);
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
      if (meet) throw badPolygon(`catchment is not a valid polygon: ring ${o.ring === e.ring ? `${e.ring} crosses or touches itself` : `${e.ring} crosses or touches ring ${o.ring}`} near [${e.a[0]}, ${e.a[1]}]`);
    }
    active.push(e);
  }
  for (const [i, ring] of polygon.coordinates.entries()) {
    if (Math.abs(ringArea2(ring)) < 1e-14) throw badPolygon(`ring ${i} encloses no area`);
  }
  // Holes lie inside the outer ring (no edge meets it, so one vertex inside means the whole ring is).
  if (polygon.coordinates.length > 1) {
    const insideOuter = preparedPolygon({ type: 'Polygon', coordinates: [outer] });
    for (let i = 1; i < polygon.coordinates.length; i++) {
      const [x, y] = polygon.coordinates[i][0];
      if (!insideOuter(x, y)) throw badPolygon(`ring ${i} (a hole) is not inside the outer ring`);
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
      if (at !== state) throw badPolygon(`catchment is not wholly inside ${state}: ${t === 0 ? 'its vertex' : 'a point on its edge at'} [${x}, ${y}] is ${at ? `in ${at}` : 'outside every state this service covers'}`);
    }
  }
  return polygon;
}


/** What a site analysis reads besides the DA store: the dataset's states, schools, notices and census. */
export interface ChildcareWorld {
  /** The state at a point, or null outside every state. */
  stateAt(lng: number, lat: number): StateCode | null;
  /** Open-school points of a state, or null when none are held. */
  openSchools(state: StateCode): OpenSchool[] | null;
  /** Attribution and licence of DA sources. */
  notices?: NoticeLookup;
  /** The suburb census section: for `suburb`, or (null) the suburb found at the site's centre. */
  suburbContext?(state: StateCode, suburb: string | null, lng: number, lat: number): Record<string, unknown>;
}

/** A site analysis request whose catchment has passed {@link circleCatchment} or {@link catchmentPolygon}. */
export interface SiteRequest {
  state: StateCode;
  catchment: Catchment;
  suburb?: string | null;
  since?: string;
  featureLimit?: number;
}

/** A catchment's centre: the circle's, or the middle of the polygon's outer-ring box. */
export function catchmentCentre(c: Catchment): [number, number] {
  if (c.kind === 'circle') return [c.lng, c.lat];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of c.polygon.coordinates[0]) (x0 = Math.min(x0, x)), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y));
  return [(x0 + x1) / 2, (y0 + y1) / 2];
}

/** The site-analysis `data` object: the analysis of the catchment, its open schools and the suburb context. */
export function siteAnalysis(das: DaReader, world: ChildcareWorld, req: SiteRequest): Record<string, unknown> {
  const data = childcareAnalysis(das, { states: [req.state], since: req.since, catchment: req.catchment, featureLimit: req.featureLimit, notices: world.notices ?? GENERIC_NOTICES });
  data.schools = schoolsSection(req.state, req.catchment, world.openSchools(req.state));
  const [lng, lat] = catchmentCentre(req.catchment);
  data.suburb_context = world.suburbContext
    ? world.suburbContext(req.state, req.suburb ?? null, lng, lat)
    : { suburb: req.suburb ?? null, state: req.state, scope: 'suburb', available: false, reason: 'not_held', message: 'This dataset holds no suburb census tables.' };
  return data;
}
