/**
 * Valid MVT geometry after quantisation (issue 47). geojson-vt clips and simplifies in Web Mercator and then
 * rounds each vertex to the tile's integer grid; a thin sliver or a short ring can then come out as
 * `[[1622,293],[1611,293],[1622,293]]`: fewer than three distinct points and no area. The MVT 2.1
 * specification (4.3.4.4) requires every polygon ring to have a non-zero area, an exterior ring a positive one
 * by the surveyor's formula in tile coordinates (y down: clockwise as drawn) and each interior ring a negative
 * one following its exterior; GDAL's reader, clipping such a ring with GEOS, stops with a TopologyException.
 *
 * Here, on the rounded rings: repeated points and spikes (a vertex the ring leaves and comes straight back
 * to) go; a ring left with fewer than three points or no area goes; a hole goes when its exterior went or it
 * does not lie in it; a line keeps two distinct points or goes; a feature left with nothing goes. Windings
 * are geojson-vt's (it rewinds exteriors and holes before rounding) and are never flipped here.
 *
 * A polygon cut by the tile's buffer is one more case: geojson-vt clips with Sutherland-Hodgman, which joins
 * the pieces of a concave polygon along the clip line, so the ring runs back over itself there (GEOS: "Ring
 * Self-intersection" on the buffer's edge). Such a polygon, one with a vertex on the clip line, is dissolved
 * (polyclip's union, through turf, of the polygon with itself), which takes the zero-width bridges out, and
 * rewound for MVT.
 */
import { featureCollection, multiPolygon, union } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';

type Pt = [number, number];

/** Twice the signed area of a closed ring by the surveyor's formula in tile coordinates: > 0 for an exterior. */
export function ringArea2(ring: readonly Pt[]): number {
  let a = 0;
  for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return a;
}

const same = (a: Pt, b: Pt) => a[0] === b[0] && a[1] === b[1];

/**
 * A ring's distinct vertices, open (no closing repeat), without consecutive repeats and spikes, cyclically;
 * fewer than three means it has collapsed.
 */
export function ringVertices(ring: readonly Pt[]): Pt[] {
  const s: Pt[] = [];
  for (const q of ring) {
    if (s.length && same(s[s.length - 1], q)) continue;
    if (s.length >= 2 && same(s[s.length - 2], q)) {
      // q returns to the vertex before the last: the last is a spike's tip.
      s.pop();
      continue;
    }
    s.push(q);
  }
  // Across the ring's start: the closing repeat, and spikes whose tip is at either end.
  for (let changed = true; changed && s.length >= 2; ) {
    changed = false;
    if (same(s[s.length - 1], s[0])) {
      s.pop();
      changed = true;
    } else if (s.length >= 3 && same(s[s.length - 2], s[0])) {
      s.pop();
      changed = true;
    } else if (s.length >= 3 && same(s[s.length - 1], s[1])) {
      s.shift();
      changed = true;
    }
  }
  return s;
}

/** Whether point p lies inside or on closed ring `ring` (crossing number, the boundary counted in). */
function inRing(p: Pt, ring: readonly Pt[]): boolean {
  let inside = false;
  const [x, y] = p;
  for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    // On the segment: inside.
    if ((x - xi) * (yj - yi) === (y - yi) * (xj - xi) && Math.min(xi, xj) <= x && x <= Math.max(xi, xj) && Math.min(yi, yj) <= y && y <= Math.max(yi, yj)) return true;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The box of a ring: [minX, minY, maxX, maxY]. */
function boxOf(r: readonly Pt[]): [number, number, number, number] {
  let a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
  for (const [x, y] of r) {
    if (x < a) a = x;
    if (y < b) b = y;
    if (x > c) c = x;
    if (y > d) d = y;
  }
  return [a, b, c, d];
}

/** Whether every vertex of `r` lies within `box`. */
function inBox(r: readonly Pt[], box: readonly [number, number, number, number]): boolean {
  for (const [x, y] of r) if (x < box[0] || y < box[1] || x > box[2] || y > box[3]) return false;
  return true;
}

/**
 * The rings of one polygon feature (exteriors each followed by their holes) that are valid, closed again. A
 * hole is kept when it lies within its exterior's box and its first vertex inside the exterior (a hole of a
 * valid polygon lies wholly inside; one vertex and the box tell it in linear time).
 */
export function validPolygonRings(rings: readonly (readonly Pt[])[]): Pt[][] {
  const out: Pt[][] = [];
  let exterior: Pt[] | null = null;
  let exteriorBox: [number, number, number, number] | null = null;
  for (const ring of rings) {
    const v = ringVertices(ring);
    const a = v.length >= 3 ? ringArea2(v) : 0;
    if (a === 0) continue;
    if (a > 0) {
      exterior = v;
      exteriorBox = boxOf(v);
      out.push([...v, v[0]]);
    } else if (exterior && inBox(v, exteriorBox!) && inRing(v[0], exterior)) out.push([...v, v[0]]);
  }
  return out;
}

/** The parts of one line feature that keep two distinct points, repeats taken out. */
export function validLines(lines: readonly (readonly Pt[])[]): Pt[][] {
  const out: Pt[][] = [];
  for (const line of lines) {
    const s: Pt[] = [];
    for (const q of line) if (!s.length || !same(s[s.length - 1], q)) s.push(q);
    if (s.length >= 2) out.push(s);
  }
  return out;
}

/** The polygons (exterior, then holes) of valid rings as `validPolygonRings` returns them. */
function polygonsOf(rings: readonly Pt[][]): Pt[][][] {
  const out: Pt[][][] = [];
  for (const r of rings) {
    if (ringArea2(r) > 0) out.push([r]);
    else out[out.length - 1]?.push(r);
  }
  return out;
}

/**
 * The rings of a polygon made simple: polyclip's union of it with itself (which resolves rings that run back
 * over themselves), on the integer grid again, wound for MVT (exteriors positive, holes negative).
 */
export function dissolvePolygon(rings: readonly Pt[][]): Pt[][] {
  const mp = multiPolygon(polygonsOf(rings));
  let merged: Polygon | MultiPolygon | undefined;
  try {
    merged = union(featureCollection([mp, mp]))?.geometry;
  } catch {
    return [...rings];
  }
  if (!merged) return [];
  const polys = merged.type === 'Polygon' ? [merged.coordinates] : merged.coordinates;
  const out: Pt[][] = [];
  for (const poly of polys) {
    poly.forEach((ring, k) => {
      const r = ring.map(([x, y]) => [Math.round(x), Math.round(y)] as Pt);
      // The exterior positive, each hole negative (polyclip winds them the other way round in y-down terms).
      if (ringArea2(r) > 0 !== (k === 0)) r.reverse();
      out.push(r);
    });
  }
  return validPolygonRings(out);
}

/**
 * Whether the rings run twice over some stretch of the clip line at `lo` or `hi` (either axis): the bridge
 * Sutherland-Hodgman leaves between the pieces of a concave polygon (or two pieces sharing an edge there).
 * Only such a polygon is dissolved; one that merely touches the line is left as it is (a dissolve costs
 * 0.1-0.3 s on a large polygon).
 */
export function hasClipBridge(rings: readonly Pt[][], lo: number, hi: number): boolean {
  const runs = new Map<string, [number, number][]>();
  for (const r of rings) {
    for (let i = 0; i + 1 < r.length; i++) {
      const [x0, y0] = r[i], [x1, y1] = r[i + 1];
      let key: string | null = null, a = 0, b = 0;
      if (x0 === x1 && (x0 === lo || x0 === hi) && y0 !== y1) [key, a, b] = [`x${x0}`, Math.min(y0, y1), Math.max(y0, y1)];
      else if (y0 === y1 && (y0 === lo || y0 === hi) && x0 !== x1) [key, a, b] = [`y${y0}`, Math.min(x0, x1), Math.max(x0, x1)];
      if (key === null) continue;
      const list = runs.get(key);
      if (list) list.push([a, b]);
      else runs.set(key, [[a, b]]);
    }
  }
  for (const list of runs.values()) {
    if (list.length < 2) continue;
    list.sort((p, q) => p[0] - q[0]);
    let end = list[0][1];
    for (let i = 1; i < list.length; i++) {
      if (list[i][0] < end) return true;
      end = Math.max(end, list[i][1]);
    }
  }
  return false;
}

/** A geojson-vt tile feature, as transformed to tile coordinates. */
interface TileFeature {
  type: 1 | 2 | 3;
  geometry: unknown;
}

/**
 * The features of a transformed geojson-vt tile with their geometry made valid; those left empty dropped.
 * `clip` is the clip box's edge in tile units (`[-buffer, extent + buffer]`): a polygon with a vertex on it is
 * dissolved.
 */
export function validTileFeatures<F extends TileFeature>(features: readonly F[], clip?: readonly [number, number]): F[] {
  const out: F[] = [];
  for (const f of features) {
    if (f.type === 1) {
      if ((f.geometry as Pt[]).length) out.push(f);
      continue;
    }
    let geometry = f.type === 3 ? validPolygonRings(f.geometry as Pt[][]) : validLines(f.geometry as Pt[][]);
    if (f.type === 3 && clip && geometry.length && hasClipBridge(geometry, clip[0], clip[1])) geometry = dissolvePolygon(geometry);
    if (geometry.length) out.push({ ...f, geometry });
  }
  return out;
}
