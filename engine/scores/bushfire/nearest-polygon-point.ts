/**
 * The nearest boundary point of an indexed polygon to a point, in metres east/north of that point (the
 * local flat frame engine/vector uses for edge distances), so the bushfire screening knows which way the
 * vegetation lies as well as how far.
 */
import { metresPerDegree } from '../../geo/distance.js';
import { closestOnSegment } from '../../vector/metric-search.js';
import type { PolygonIndex } from '../../vector/polygon-index.js';

/** Where a polygon's boundary comes closest, in metres from the query point. */
export interface NearestBoundaryPoint {
  east: number;
  north: number;
  distance: number;
}

/** The nearest boundary point of feature `id` of `index` to (lon, lat). */
export function nearestBoundaryPoint(index: PolygonIndex, id: number, lon: number, lat: number): NearestBoundaryPoint {
  const { kx, ky } = metresPerDegree(lat);
  const c = index.coords;
  let best = Infinity;
  let bx = 0, by = 0;
  for (let p = index.featureStart[id]; p < index.featureStart[id + 1]; p++) {
    for (let r = index.partStart[p]; r < index.partStart[p + 1]; r++) {
      for (let v = index.ringStart[r]; v + 1 < index.ringStart[r + 1]; v++) {
        const h = closestOnSegment(0, 0, (c[2 * v] - lon) * kx, (c[2 * v + 1] - lat) * ky, (c[2 * v + 2] - lon) * kx, (c[2 * v + 3] - lat) * ky);
        if (h.d2 < best) {
          best = h.d2;
          bx = h.x;
          by = h.y;
        }
      }
    }
  }
  return { east: bx, north: by, distance: Math.sqrt(best) };
}
