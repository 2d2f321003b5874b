/**
 * Generic lookups of catalogue layers around a subject, by payload path and state: what covers the parcel (or
 * the point), what lies within a radius, and what is nearest. Every block of the payload is built from these,
 * so the sample world and real data go through the same code.
 */
import { area, bbox as turfBbox, bboxClip, booleanPointInPolygon, featureCollection, intersect, multiPolygon as turfMultiPolygon, polygon as turfPolygon } from '@turf/turf';
import type { Feature, Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import type { PayloadPath } from '../../catalogue/payload-paths.js';
import type { StateCode } from '../../catalogue/states.js';
import type { DataStore, RecordTable, VectorLayer } from '../../data/dataset-store.js';
import { distanceMetres, metresPerDegree } from '../../geo/distance.js';

/** One record or feature a lookup found. */
export interface LayerHit {
  layer: VectorLayer | RecordTable;
  /** Feature or row position in its layer. */
  index: number;
  properties: Record<string, unknown>;
  /** Metres from the subject point: 0 inside a polygon, to the closest point otherwise. */
  distanceM: number;
  /** The closest point (points: the point itself; lines: the closest approach). */
  lon?: number;
  lat?: number;
  /** The feature, for geometry delivery (vector layers only). */
  feature?: Feature<Geometry>;
  /** The polygon index id, for polygon hits. */
  polygonId?: number;
  /** Share of the parcel this polygon covers, 0-1 (only for lookups against a parcel). */
  parcelShare?: number;
}

/** The subject of a lookup: a point and, when resolved, the parcel under it. */
export interface Subject {
  lon: number;
  lat: number;
  state: StateCode | null;
  parcel: Polygon | MultiPolygon | null;
}

type Extent = [number, number, number, number];
const extents = new WeakMap<VectorLayer | RecordTable, Extent | null>();

function grow(e: Extent, coords: ArrayLike<number>, stride: number): void {
  for (let i = 0; i + 1 < coords.length; i += stride) {
    const x = coords[i], y = coords[i + 1];
    if (x < e[0]) e[0] = x;
    if (y < e[1]) e[1] = y;
    if (x > e[2]) e[2] = x;
    if (y > e[3]) e[3] = y;
  }
}

/** The lon/lat extent of what a file's indexes hold (computed once), or null when they hold nothing. */
function fileExtent(f: VectorLayer | RecordTable): Extent | null {
  let e = extents.get(f);
  if (e === undefined) {
    const x: Extent = [Infinity, Infinity, -Infinity, -Infinity];
    if (f.kind === 'records') {
      if (f.points) grow(x, f.points.index.coords, 2);
    } else {
      if (f.points) grow(x, f.points.index.coords, 2);
      if (f.lines) grow(x, f.lines.segments, 2);
      if (f.polygons) grow(x, f.polygons.index.coords, 2);
    }
    e = Number.isFinite(x[0]) ? x : null;
    extents.set(f, e);
  }
  return e;
}

/**
 * A lower bound of the distance in metres from (lon, lat) to anything inside `e` under distanceMetres (a
 * local ellipsoidal ruler): the box's nearest edges, measured with the smallest scale factors the ruler could
 * use between the point and the box. A file farther than a search's reach is skipped without searching it
 * (a national catalogue splits a layer into hundreds of files).
 */
function extentLowerBoundM(e: Extent, lon: number, lat: number): number {
  const dLon = lon < e[0] ? e[0] - lon : lon > e[2] ? lon - e[2] : 0;
  const dLat = lat < e[1] ? e[1] - lat : lat > e[3] ? lat - e[3] : 0;
  if (dLon === 0 && dLat === 0) return 0;
  const lo = Math.min(lat, e[1]), hi = Math.max(lat, e[3]);
  const kx = metresPerDegree(Math.max(Math.abs(lo), Math.abs(hi))).kx;
  const ky = metresPerDegree(lo <= 0 && hi >= 0 ? 0 : Math.min(Math.abs(lo), Math.abs(hi))).ky;
  return Math.max(0, Math.hypot(dLon * kx, dLat * ky) * 0.999 - 1);
}

/** True when nothing in `f` can be within `reachM` of (lon, lat). */
function beyond(f: VectorLayer | RecordTable, lon: number, lat: number, reachM: number): boolean {
  const e = fileExtent(f);
  return e === null || extentLowerBoundM(e, lon, lat) > reachM;
}

/** A parcel share below this is a shared boundary, not coverage (0.5% of the parcel). */
const MIN_PARCEL_SHARE = 0.005;

const props = (f: Feature<Geometry> | Record<string, unknown>): Record<string, unknown> =>
  ('type' in f && f.type === 'Feature' ? ((f as Feature).properties ?? {}) : (f as Record<string, unknown>)) as Record<string, unknown>;

/** The farthest parcel vertex from the subject point, metres (0 without a parcel): covering lookups reach this far. */
export function parcelRadius(s: Subject): number {
  if (!s.parcel) return 0;
  let r = 0;
  const rings = s.parcel.type === 'Polygon' ? [s.parcel.coordinates[0]] : s.parcel.coordinates.map((p) => p[0]);
  for (const ring of rings) for (const [x, y] of ring) r = Math.max(r, distanceMetres(s.lon, s.lat, x, y));
  return r;
}

function asTurf(g: Polygon | MultiPolygon): Feature<Polygon | MultiPolygon> {
  return g.type === 'Polygon' ? turfPolygon(g.coordinates) : turfMultiPolygon(g.coordinates);
}

/** The outer-ring vertices of a parcel (closing vertex left out). */
function parcelVertices(p: Polygon | MultiPolygon): number[][] {
  const rings = p.type === 'Polygon' ? [p.coordinates[0]] : p.coordinates.map((q) => q[0]);
  return rings.flatMap((r) => r.slice(0, -1));
}

/** True when some vertex of `g` lies strictly inside `parcel` (checked only within the parcel's box). */
function polygonReachesInto(g: Polygon | MultiPolygon, parcel: Polygon | MultiPolygon): boolean {
  const verts = parcelVertices(parcel);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of verts) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  for (const poly of polys) for (const ring of poly) for (const [x, y] of ring) {
    if (x > x0 && x < x1 && y > y0 && y < y1 && booleanPointInPolygon([x, y], parcel, { ignoreBoundary: true })) return true;
  }
  return false;
}

/**
 * True when `ring`, which lies within `box` (it was clipped to it), encloses as much area as the box: then it
 * is the box (a region of a rectangle with the rectangle's whole area is the rectangle). Shoelace area in
 * degrees, against the box's, to a relative 1e-9.
 */
function fillsBox(ring: Position[], box: readonly [number, number, number, number]): boolean {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  const boxArea = (box[2] - box[0]) * (box[3] - box[1]);
  return Math.abs(Math.abs(a) / 2 - boxArea) <= boxArea * 1e-9;
}

/**
 * Share of `parcel` covered by `g`, 0-1. `g` (a zone or overlay, often thousands of vertices) is first cut
 * to the parcel's box (turf's bboxClip, exact: the parcel lies inside its box), so the exact overlay runs on
 * a few dozen vertices instead of the whole polygon.
 */
export function coverShare(parcel: Polygon | MultiPolygon, g: Polygon | MultiPolygon): number {
  const p = asTurf(parcel);
  const total = area(p);
  if (!(total > 0)) return 0;
  const [x0, y0, x1, y1] = turfBbox(p);
  const pad = 1e-7; // about 1 cm: the box strictly contains the parcel
  const cut = bboxClip(asTurf(g), [x0 - pad, y0 - pad, x1 + pad, y1 + pad]);
  const rings: Position[][] = cut.geometry.type === 'Polygon' ? cut.geometry.coordinates : (cut.geometry.coordinates as Position[][][]).flat();
  if (!rings.some((r) => r.length >= 4)) return 0;
  // `g` covers the whole box, so the whole parcel: the exact overlay (polyclip, the costliest step of a lookup
  // and most of its garbage) would give the parcel itself back.
  if (rings.length === 1 && fillsBox(rings[0], [x0 - pad, y0 - pad, x1 + pad, y1 + pad])) return 1;
  const x = intersect(featureCollection([p, cut as Feature<Polygon | MultiPolygon>]));
  return x ? Math.min(1, area(x) / total) : 0;
}

/**
 * Polygons of `path` covering the subject: intersecting the parcel (with `parcelShare`) when there is one,
 * else containing the point.
 */
export function coveringHits(store: DataStore, path: PayloadPath, s: Subject, layer?: string, filter?: (p: Record<string, unknown>) => boolean): LayerHit[] {
  const hits: LayerHit[] = [];
  const reach = parcelRadius(s);
  for (const l of store.vectorsFor(path, s.state, layer)) {
    if (!l.polygons || beyond(l, s.lon, s.lat, reach)) continue;
    const candidates = reach > 0 ? l.polygons.index.within(s.lon, s.lat, reach) : l.polygons.index.containing(s.lon, s.lat).map((id) => ({ id, distance: 0, inside: true }));
    for (const c of candidates) {
      const fi = l.polygons.featureOf[c.id];
      const f = l.features[fi];
      const p = props(f);
      if (filter && !filter(p)) continue;
      if (s.parcel) {
        // Fast path: a polygon holding every vertex of the parcel covers it whole (parcels are near-convex
        // lots; the exact overlay runs only for the polygons that cross the parcel boundary).
        const verts = parcelVertices(s.parcel);
        const inside = verts.filter(([x, y]) => l.polygons!.index.contains(c.id, x, y)).length;
        // No parcel vertex inside and no polygon vertex inside the parcel: at most a shared boundary.
        if (inside === 0 && !polygonReachesInto(f.geometry as Polygon | MultiPolygon, s.parcel)) continue;
        const share = inside === verts.length ? 1 : coverShare(s.parcel, f.geometry as Polygon | MultiPolygon);
        if (share < MIN_PARCEL_SHARE && !c.inside) continue;
        hits.push({ layer: l, index: fi, properties: p, distanceM: 0, feature: f, parcelShare: Math.round(share * 1000) / 1000 });
      } else if (c.inside) {
        hits.push({ layer: l, index: fi, properties: p, distanceM: 0, feature: f });
      }
    }
  }
  return hits;
}

/** Points, lines and polygons of `path` within `radiusM` of the subject point, nearest first. */
export function withinHits(store: DataStore, path: PayloadPath, s: Subject, radiusM: number, layer?: string): LayerHit[] {
  const hits: LayerHit[] = [];
  for (const f of store.filesFor(path, s.state, layer)) {
    if (f.kind !== 'raster' && beyond(f, s.lon, s.lat, radiusM)) continue;
    if (f.kind === 'records') {
      if (!f.points) continue;
      for (const n of f.points.index.within(s.lon, s.lat, radiusM)) {
        const row = f.points.rowOf[n.id];
        hits.push({ layer: f, index: row, properties: f.rows[row], distanceM: n.distance, lon: f.points.index.lon(n.id), lat: f.points.index.lat(n.id) });
      }
    } else if (f.kind === 'vector') {
      const seen = new Set<number>();
      if (f.points) {
        for (const n of f.points.index.within(s.lon, s.lat, radiusM)) {
          const fi = f.points.featureOf[n.id];
          if (seen.has(fi)) continue;
          seen.add(fi);
          hits.push({ layer: f, index: fi, properties: props(f.features[fi]), distanceM: n.distance, lon: f.points.index.lon(n.id), lat: f.points.index.lat(n.id), feature: f.features[fi] });
        }
      }
      if (f.polygons) {
        for (const n of f.polygons.index.within(s.lon, s.lat, radiusM)) {
          const fi = f.polygons.featureOf[n.id];
          if (seen.has(fi)) continue;
          seen.add(fi);
          hits.push({ layer: f, index: fi, properties: props(f.features[fi]), distanceM: n.distance, feature: f.features[fi], polygonId: n.id });
        }
      }
      if (f.lines) {
        for (const n of f.lines.featuresWithin(s.lon, s.lat, radiusM)) {
          if (seen.has(n.feature)) continue;
          seen.add(n.feature);
          hits.push({ layer: f, index: n.feature, properties: props(f.features[n.feature]), distanceM: n.distance, lon: n.lon, lat: n.lat, feature: f.features[n.feature] });
        }
      }
    }
  }
  return hits.sort((a, b) => a.distanceM - b.distanceM);
}

/** The nearest record or feature of `path` within `maxM` (points and lines; polygons by edge), or null. */
export function nearestHit(store: DataStore, path: PayloadPath, s: Subject, maxM: number): LayerHit | null {
  let best: LayerHit | null = null;
  const consider = (h: LayerHit) => {
    if (!best || h.distanceM < best.distanceM) best = h;
  };
  for (const f of store.filesFor(path, s.state)) {
    if (f.kind !== 'raster' && beyond(f, s.lon, s.lat, best ? (best as LayerHit).distanceM : maxM)) continue;
    if (f.kind === 'records') {
      const n = f.points?.index.nearest(s.lon, s.lat, 1, maxM)[0];
      if (n && f.points) {
        const row = f.points.rowOf[n.id];
        consider({ layer: f, index: row, properties: f.rows[row], distanceM: n.distance, lon: f.points.index.lon(n.id), lat: f.points.index.lat(n.id) });
      }
    } else if (f.kind === 'vector') {
      const p = f.points?.index.nearest(s.lon, s.lat, 1, maxM)[0];
      if (p && f.points) {
        const fi = f.points.featureOf[p.id];
        consider({ layer: f, index: fi, properties: props(f.features[fi]), distanceM: p.distance, lon: f.points.index.lon(p.id), lat: f.points.index.lat(p.id), feature: f.features[fi] });
      }
      const l = f.lines?.nearestFeatures(s.lon, s.lat, 1, maxM)[0];
      if (l) consider({ layer: f, index: l.feature, properties: props(f.features[l.feature]), distanceM: l.distance, lon: l.lon, lat: l.lat, feature: f.features[l.feature] });
    }
  }
  return best;
}

/** Without a parcel, a point record within this distance of the subject counts as on it, metres. */
export const ON_SITE_TOLERANCE_M = 25;

/** Point records and point features of `path` on the parcel (or within {@link ON_SITE_TOLERANCE_M} of a bare point). */
export function pointsOnSite(store: DataStore, path: PayloadPath, s: Subject): LayerHit[] {
  const reach = Math.max(parcelRadius(s), ON_SITE_TOLERANCE_M);
  return withinHits(store, path, s, reach).filter((h) => {
    if (h.polygonId !== undefined || h.lon === undefined || h.lat === undefined) return false;
    if (h.feature && h.feature.geometry.type !== 'Point' && h.feature.geometry.type !== 'MultiPoint') return false;
    return s.parcel ? booleanPointInPolygon([h.lon, h.lat], s.parcel) : h.distanceM <= ON_SITE_TOLERANCE_M;
  });
}
