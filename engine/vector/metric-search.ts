/**
 * Helpers for metre-radius searches over lon/lat indexes: the degree box that surely contains a circle of
 * radius r, and the local flat projection used for point-to-segment distances.
 */
import { invalidArgument } from '../errors.js';
import type { BBox } from '../geo/bbox.js';
import { distanceMetres, metresPerDegree } from '../geo/distance.js';

/** Relative slack added to search boxes so the mean-latitude distance never finds a point the box missed. */
const BOX_SLACK = 1.01;

/**
 * Relative slack for the planar pre-filter of segment distances: the planar distance (scaled at the query's
 * latitude) and `distanceMetres` (scaled at the pair's mean latitude) differ by far less than 1% within any
 * radius the engine uses, so a hit is pre-filtered at r * 1.01 and then decided by `distanceMetres`.
 */
export const PLANAR_SLACK = 1.01;

/** A lon/lat box containing every point within `radius` metres of (lon, lat). */
export function radiusBox(lon: number, lat: number, radius: number): BBox {
  const ky = metresPerDegree(lat).ky;
  const dLat = (radius / ky) * BOX_SLACK;
  // Longitude degrees are shortest at the poleward edge of the circle.
  const poleward = Math.min(89.9, Math.abs(lat) + dLat);
  const dLon = Math.min(360, (radius / metresPerDegree(poleward).kx) * BOX_SLACK);
  return [lon - dLon, lat - dLat, lon + dLon, lat + dLat];
}

/** Slack on a window's growth (a window's rounded key point lies far within it). */
const GROWTH_SLACK = 1.01;

/**
 * `box` grown by `m` metres on every side as distanceMetres measures (engine/geo/distance.ts): degrees of
 * latitude at their shortest (the equator), of longitude at the poleward edge of the grown box, with slack.
 */
export function growByMetres(box: readonly [number, number, number, number], m: number): [number, number, number, number] {
  const dy = (m / metresPerDegree(0).ky) * GROWTH_SLACK;
  const poleward = Math.min(89.9, Math.max(Math.abs(box[1]), Math.abs(box[3])) + dy);
  const dx = Math.min(180, (m / metresPerDegree(poleward).kx) * GROWTH_SLACK);
  return [box[0] - dx, box[1] - dy, box[2] + dx, box[3] + dy];
}

/** A hit from a metric query: the item's id and its distance in metres. */
export interface Neighbour {
  id: number;
  distance: number;
}

/** Sorts hits nearest first, ties by id (so results are deterministic). */
export function sortNeighbours<T extends Neighbour>(hits: T[]): T[] {
  return hits.sort((a, b) => a.distance - b.distance || a.id - b.id);
}

/** The closest point on segment (ax, ay)-(bx, by) to (px, py), all in one metric plane. */
export function closestOnSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): { x: number; y: number; t: number; d2: number } {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const x = ax + t * dx;
  const y = ay + t * dy;
  return { x, y, t, d2: (px - x) * (px - x) + (py - y) * (py - y) };
}

/**
 * The `k` nearest items by growing a radius search: `within(r)` (sorted nearest first) from `start` m, times 2.5
 * each round, until it returns k items or the radius reaches `maxDistance` or spans all of `extent` (the
 * items' lon/lat extent), so the answer is exact. For indexes whose items have size (segments, polygons),
 * where a flatbush box-distance kNN would rank by box, not by true distance.
 */
export function nearestByGrowingRadius<T>(lon: number, lat: number, k: number, maxDistance: number, extent: BBox, within: (radius: number) => T[], start = 100): T[] {
  const [x0, y0, x1, y1] = extent;
  const far = Math.max(distanceMetres(lon, lat, x0, y0), distanceMetres(lon, lat, x0, y1), distanceMetres(lon, lat, x1, y0), distanceMetres(lon, lat, x1, y1)) * 1.01 + 1;
  const limit = Math.min(maxDistance, far);
  let r = Math.min(limit, start);
  for (;;) {
    const hits = within(r);
    if (hits.length >= k || r >= limit) return hits.slice(0, k);
    r = Math.min(limit, r * 2.5);
  }
}

/**
 * flatbush's `search` over an index's tree, without the placeholder item an empty index holds (ids at or past
 * `count`): the ids whose boxes meet the lon/lat box, for which `filter` (when given) returns true. A filter
 * that always returns false visits every hit without building an array, as in flatbush.
 */
export function searchBox(tree: { search(x0: number, y0: number, x1: number, y1: number, f?: (id: number) => boolean): number[] }, count: number, box: readonly [number, number, number, number], filter?: (id: number) => boolean): number[] {
  const [x0, y0, x1, y1] = box;
  if (![x0, y0, x1, y1].every(Number.isFinite)) throw invalidArgument('box', `search box must be four finite numbers, got ${JSON.stringify(box)}`);
  return tree.search(x0, y0, x1, y1, (id) => id < count && (!filter || filter(id)));
}

/** Checks `neighbors` arguments the flatbush way: maxResults a positive whole number or Infinity. */
export function checkMaxResults(maxResults: number): void {
  if (!(maxResults === Infinity || (Number.isInteger(maxResults) && maxResults >= 1))) throw invalidArgument('maxResults', `maxResults must be a positive whole number or Infinity, got ${maxResults}`);
}
