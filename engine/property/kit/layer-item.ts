/**
 * The item form of spec 2.1: `source` (source id), `state`, optional `distance_km`, optional `lat`/`lng`, and
 * `properties` (publisher-native fields), plus optional clipped `geometry` where the request and the licence
 * allow it.
 */
import { bboxClip, simplify } from '@turf/turf';
import type { Feature, Geometry } from 'geojson';
import type { CatalogueSource } from '../../catalogue/catalogue.js';
import type { StateCode } from '../../catalogue/states.js';

/** One layer item. */
export interface LayerItem {
  source: string;
  state: StateCode | null;
  distance_km?: number;
  lat?: number;
  lng?: number;
  properties: Record<string, unknown>;
  geometry?: Geometry;
}

/** Rounds a distance in metres to kilometres with metre precision. */
export function km(metres: number): number {
  return Math.round(metres) / 1000;
}

/** Rounds a coordinate to 7 decimals (about 1 cm). */
export function r7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

/** Builds an item from a feature or record of a source. */
export function layerItem(source: CatalogueSource, state: StateCode | null, properties: Record<string, unknown>, extra: { distanceM?: number; lon?: number; lat?: number } = {}): LayerItem {
  const item: LayerItem = { source: source.id, state, properties: withoutInternal(properties) };
  if (extra.distanceM !== undefined) item.distance_km = km(extra.distanceM);
  if (extra.lat !== undefined && extra.lon !== undefined) {
    item.lat = r7(extra.lat);
    item.lng = r7(extra.lon);
  }
  return item;
}

/** Properties without the coordinate columns of record files (they are in lat/lng already) and the source column. */
function withoutInternal(p: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) if (!['lon', 'lat', 'lng', 'source'].includes(k)) out[k] = v;
  return out;
}

/** About 1 m at Australian latitudes, in degrees (spec 2.4: geometry simplified to about 1 m). */
export const SIMPLIFY_TOLERANCE_DEG = 0.00001;

/**
 * A feature's geometry clipped to a lon/lat box and simplified to about 1 m, or null when nothing is left.
 * Only for polygon and line geometries; points are returned as they are.
 */
export function clippedGeometry(f: Feature<Geometry>, bbox: [number, number, number, number]): Geometry | null {
  const g = f.geometry;
  if (g.type === 'Point' || g.type === 'MultiPoint') return g;
  if (g.type === 'GeometryCollection') return null;
  const clipped = bboxClip(f as Feature<typeof g>, bbox);
  const simplified = simplify(clipped, { tolerance: SIMPLIFY_TOLERANCE_DEG, highQuality: false });
  const out = simplified.geometry as Geometry;
  const empty = 'coordinates' in out && (out.coordinates as unknown[]).length === 0;
  return empty ? null : out;
}
