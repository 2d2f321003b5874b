/**
 * Point-in-polygon by ray crossing (the even-odd rule over every ring, so holes subtract). Works on flat
 * coordinate arrays (the shared index layout) and on GeoJSON geometries. A point exactly on an edge may fall
 * either side, consistently for a given edge (half-open crossing rule).
 */
import type { MultiPolygon, Polygon, Position } from 'geojson';

/** True when (x, y) is inside the closed ring stored at vertices [start, end) of interleaved `coords`. */
export function pointInRing(x: number, y: number, coords: ArrayLike<number>, start: number, end: number): boolean {
  let inside = false;
  for (let i = start, j = end - 1; i < end; j = i++) {
    const xi = coords[2 * i], yi = coords[2 * i + 1];
    const xj = coords[2 * j], yj = coords[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * True when (x, y) is inside the polygon whose rings are `ringStart[firstRing] .. ringStart[endRing]`
 * (outer ring first, then holes). Even-odd over all rings: inside the outer ring and outside every hole.
 */
export function pointInFlatPolygon(x: number, y: number, coords: ArrayLike<number>, ringStart: ArrayLike<number>, firstRing: number, endRing: number): boolean {
  let inside = false;
  for (let r = firstRing; r < endRing; r++) {
    if (pointInRing(x, y, coords, ringStart[r], ringStart[r + 1])) inside = !inside;
  }
  return inside;
}

function ringContains(ring: Position[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** True when (lon, lat) is inside a GeoJSON Polygon or MultiPolygon (holes excluded). */
export function pointInPolygon(lon: number, lat: number, geometry: Polygon | MultiPolygon): boolean {
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const rings of polys) {
    let inside = false;
    for (const ring of rings) if (ringContains(ring, lon, lat)) inside = !inside;
    if (inside) return true;
  }
  return false;
}
