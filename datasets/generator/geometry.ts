/**
 * Small planar geometry helpers for the generator, in local metres: rectangles, bands around lines,
 * ellipses, clipping, and turning a raster mask into polygons (d3-contour at 0.5, which is exactly the
 * boundary of the mask's cells).
 */
import { contours } from 'd3-contour';
import type { Position } from 'geojson';
import { TILE_HALF_M } from './frame.js';

/** A closed ring. */
export type Ring = Position[];

/** A rectangle in a frame rotated by `angle` (radians): p in [p0, p1], q in [q0, q1], as a closed ring in x, y. */
export function rotatedRect(p0: number, p1: number, q0: number, q1: number, angle: number): Ring {
  const c = Math.cos(angle), s = Math.sin(angle);
  const pt = (p: number, q: number): Position => [p * c - q * s, p * s + q * c];
  return [pt(p0, q0), pt(p1, q0), pt(p1, q1), pt(p0, q1), pt(p0, q0)];
}

/** A ring around a polyline: `left` metres to its left and `right` metres to its right. */
export function bandAround(line: readonly Position[], left: (i: number) => number, right: (i: number) => number): Ring {
  const n = line.length;
  const normal = (i: number): [number, number] => {
    const a = line[Math.max(0, i - 1)];
    const b = line[Math.min(n - 1, i + 1)];
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    return [-dy / len, dx / len];
  };
  const L: Position[] = [];
  const R: Position[] = [];
  for (let i = 0; i < n; i++) {
    const [nx, ny] = normal(i);
    L.push([line[i][0] + nx * left(i), line[i][1] + ny * left(i)]);
    R.push([line[i][0] - nx * right(i), line[i][1] - ny * right(i)]);
  }
  const ring = [...L, ...R.reverse()];
  ring.push(ring[0]);
  return ring;
}

/** An ellipse centred on (cx, cy), radii rx along `angle` and ry across it. */
export function ellipse(cx: number, cy: number, rx: number, ry: number, angle: number, n = 48): Ring {
  const c = Math.cos(angle), s = Math.sin(angle);
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    const x = rx * Math.cos(t), y = ry * Math.sin(t);
    ring.push([cx + x * c - y * s, cy + x * s + y * c]);
  }
  ring.push(ring[0]);
  return ring;
}

/** Clips a closed ring to the half-plane a*x + b*y <= k (Sutherland-Hodgman). */
export function clipHalfPlane(ring: Ring, a: number, b: number, k: number): Ring {
  const pts = ring.slice(0, -1);
  const out: Position[] = [];
  const inside = (p: Position) => a * p[0] + b * p[1] <= k;
  for (let i = 0; i < pts.length; i++) {
    const cur = pts[i];
    const prev = pts[(i + pts.length - 1) % pts.length];
    const ci = inside(cur), pi = inside(prev);
    if (ci !== pi) {
      const fp = a * prev[0] + b * prev[1] - k;
      const fc = a * cur[0] + b * cur[1] - k;
      const t = fp / (fp - fc);
      out.push([prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])]);
    }
    if (ci) out.push(cur);
  }
  if (out.length < 3) return [];
  out.push(out[0]);
  return out;
}

/** Clips a ring to the axis-aligned box [x0, x1] x [y0, y1]. */
export function clipToBox(ring: Ring, x0: number, y0: number, x1: number, y1: number): Ring {
  let r = ring;
  for (const [a, b, k] of [[1, 0, x1], [-1, 0, -x0], [0, 1, y1], [0, -1, -y0]] as const) {
    if (r.length === 0) break;
    r = clipHalfPlane(r, a, b, k);
  }
  return r;
}

/** Clips a ring to the tile square. */
export function clipToTile(ring: Ring): Ring {
  return clipToBox(ring, -TILE_HALF_M, -TILE_HALF_M, TILE_HALF_M, TILE_HALF_M);
}

/** Splits a polyline at the tile edge, keeping the runs inside (vertex-level: fine for dense lines). */
export function linesInsideTile(line: readonly Position[], margin = 0): Position[][] {
  const lim = TILE_HALF_M + margin;
  const runs: Position[][] = [];
  let cur: Position[] = [];
  for (const p of line) {
    if (Math.abs(p[0]) <= lim && Math.abs(p[1]) <= lim) cur.push(p);
    else if (cur.length) {
      if (cur.length > 1) runs.push(cur);
      cur = [];
    }
  }
  if (cur.length > 1) runs.push(cur);
  return runs;
}

/** Signed area of a ring (positive counter-clockwise). */
export function ringArea(ring: Ring): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return a / 2;
}

/** Centroid of a ring (area-weighted). */
export function ringCentroid(ring: Ring): Position {
  let cx = 0, cy = 0, a = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const f = ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
    cx += (ring[i][0] + ring[i + 1][0]) * f;
    cy += (ring[i][1] + ring[i + 1][1]) * f;
    a += f;
  }
  return a === 0 ? ring[0] : [cx / (3 * a), cy / (3 * a)];
}

/**
 * Polygons covering the cells of a tile-wide mask (1 = in), as MultiPolygon coordinates in local metres.
 * `cell` is the mask's cell size; polygons smaller than `minArea` square metres are dropped.
 */
export function maskToPolygons(mask: Uint8Array, cell: number, minArea = 0): Position[][][] {
  const n = Math.round((2 * TILE_HALF_M) / cell);
  const values = Array.from(mask);
  const [mp] = contours().size([n, n]).thresholds([0.5])(values);
  const out: Position[][][] = [];
  for (const poly of mp.coordinates) {
    const rings = poly.map((ring) => ring.map(([gx, gy]) => [-TILE_HALF_M + gx * cell, TILE_HALF_M - gy * cell] as Position));
    // d3-contour winds outer rings clockwise in grid space (y down), which is counter-clockwise in metres.
    if (Math.abs(ringArea(rings[0])) >= minArea) out.push(rings);
  }
  return out;
}

/** A tile-wide mask of `cell`-metre cells where `inside(x, y)` holds at the cell centre. */
export function tileMask(cell: number, inside: (x: number, y: number) => boolean): Uint8Array {
  const n = Math.round((2 * TILE_HALF_M) / cell);
  const m = new Uint8Array(n * n);
  for (let r = 0; r < n; r++) {
    const y = TILE_HALF_M - (r + 0.5) * cell;
    for (let c = 0; c < n; c++) if (inside(-TILE_HALF_M + (c + 0.5) * cell, y)) m[r * n + c] = 1;
  }
  return m;
}
