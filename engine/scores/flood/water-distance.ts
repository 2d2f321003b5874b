/**
 * Distance from a subject to mapped water: watercourse lines (`waterway` river / stream / drain / canal)
 * and water-body polygons (distance 0 inside one).
 */
import type { Feature, Geometry, LineString, MultiLineString, MultiPolygon, Polygon } from 'geojson';
import { SegmentIndex } from '../../vector/segment-index.js';
import { PolygonIndex } from '../../vector/polygon-index.js';

/** A watercourse layer: LineStrings with `name`, `waterway` and `source` properties. */
export interface WatercourseLayer {
  source: string;
  features: Feature<LineString | MultiLineString>[];
}

/** A water-body layer: polygons with `name`, `water_type` and `source` properties. */
export interface WaterBodyLayer {
  source: string;
  features: Feature<Polygon | MultiPolygon>[];
}

/** The nearest mapped water. */
export interface NearestWater {
  /** Metres from the subject (0 inside a water body). */
  distance_m: number;
  name: string | null;
  /** The `waterway` value of a line ('river', 'stream', 'drain', 'canal'), or `water_body`. */
  kind: string;
  source: string;
}

/** How far to look, metres; beyond it there is "no mapped water nearby". */
export const WATER_SEARCH_RADIUS_M = 2000;

const lineIndexes = new WeakMap<object, SegmentIndex>();
const polyIndexes = new WeakMap<object, PolygonIndex>();

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/** The nearest watercourse or water body within {@link WATER_SEARCH_RADIUS_M} of (lon, lat), or null. */
export function nearestWater(lon: number, lat: number, watercourses: readonly WatercourseLayer[], waterBodies: readonly WaterBodyLayer[]): NearestWater | null {
  let best: NearestWater | null = null;
  const consider = (c: NearestWater) => {
    if (!best || c.distance_m < best.distance_m) best = c;
  };
  for (const layer of watercourses) {
    let idx = lineIndexes.get(layer.features);
    if (!idx) {
      idx = SegmentIndex.fromGeometries(layer.features.map((f) => f.geometry as Geometry), { shared: false });
      lineIndexes.set(layer.features, idx);
    }
    const [hit] = idx.nearestFeatures(lon, lat, 1, WATER_SEARCH_RADIUS_M);
    if (hit) {
      const p = layer.features[hit.feature].properties ?? {};
      consider({ distance_m: hit.distance, name: str(p.name), kind: str(p.waterway) ?? 'stream', source: str(p.source) ?? layer.source });
    }
  }
  for (const layer of waterBodies) {
    let idx = polyIndexes.get(layer.features);
    if (!idx) {
      idx = PolygonIndex.build(layer.features.map((f) => f.geometry), { shared: false });
      polyIndexes.set(layer.features, idx);
    }
    const [hit] = idx.within(lon, lat, WATER_SEARCH_RADIUS_M);
    if (hit) {
      const p = layer.features[hit.id].properties ?? {};
      consider({ distance_m: hit.distance, name: str(p.name), kind: 'water_body', source: str(p.source) ?? layer.source });
    }
  }
  return best;
}
