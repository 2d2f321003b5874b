/**
 * The nearest point on a polyline to a lon/lat point. The foot of the perpendicular is found in the local
 * flat projection around the query point; the distance reported is `distanceMetres` to that foot, so line,
 * segment and point distances all mean the same thing.
 */
import type { Position } from 'geojson';
import { distanceMetres, metresPerDegree } from '../geo/distance.js';
import { closestOnSegment } from './metric-search.js';

/** Where a line comes closest to a point. */
export interface NearestOnLine {
  lon: number;
  lat: number;
  /** Distance from the query point, metres. */
  distance: number;
  /** Index of the segment (its first vertex). */
  index: number;
  /** Position along that segment, 0 at its first vertex and 1 at its second. */
  t: number;
}

/** The point of `line` nearest to (lon, lat); null for an empty line. */
export function nearestPointOnLine(line: readonly Position[], lon: number, lat: number): NearestOnLine | null {
  if (line.length === 0) return null;
  const { kx, ky } = metresPerDegree(lat);
  let best: NearestOnLine | null = null;
  let bestD2 = Infinity;
  if (line.length === 1) {
    return { lon: line[0][0], lat: line[0][1], distance: distanceMetres(lon, lat, line[0][0], line[0][1]), index: 0, t: 0 };
  }
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i];
    const b = line[i + 1];
    const c = closestOnSegment(0, 0, (a[0] - lon) * kx, (a[1] - lat) * ky, (b[0] - lon) * kx, (b[1] - lat) * ky);
    if (c.d2 < bestD2) {
      bestD2 = c.d2;
      best = { lon: lon + c.x / kx, lat: lat + c.y / ky, distance: 0, index: i, t: c.t };
    }
  }
  if (best) best.distance = distanceMetres(lon, lat, best.lon, best.lat);
  return best;
}
