/**
 * Clipping polylines to the window square, so contour lines stop exactly at the window edge.
 *
 * Each segment is clipped with the Liang-Barsky parametric test (Liang & Barsky, "A new concept and method
 * for line clipping", ACM TOG 3(1), 1984): the visible part is [t0, t1] of the segment. Consecutive visible
 * parts join into one piece; a line that leaves and re-enters the square becomes several pieces, each an
 * open LineString in the original direction (so the high side stays on the right). A closed ring that lies
 * wholly inside stays closed; one that crosses the edge is walked from a vertex outside the square, so no
 * piece is split at the ring's arbitrary start point.
 */
import type { BBox } from '../../geo/bbox.js';
import type { LineBuffer } from './line-buffer.js';

/** Narrows [t0, t1] by one boundary of the Liang-Barsky test (p, q as in the paper); false when empty. */
function narrow(p: number, q: number, t: [number, number]): boolean {
  if (p === 0) return q >= 0; // parallel to this boundary: visible only on its inner side
  const r = q / p;
  if (p < 0) {
    if (r > t[1]) return false;
    if (r > t[0]) t[0] = r;
  } else {
    if (r < t[0]) return false;
    if (r < t[1]) t[1] = r;
  }
  return true;
}

/** Where a segment (x0, y0) -> (x1, y1) is visible inside `r`: [t0, t1] in `t`, or false when it is not. */
function liangBarsky(x0: number, y0: number, x1: number, y1: number, r: BBox, t: [number, number]): boolean {
  const dx = x1 - x0, dy = y1 - y0;
  t[0] = 0;
  t[1] = 1;
  return narrow(-dx, x0 - r[0], t) && narrow(dx, r[2] - x0, t) && narrow(-dy, y0 - r[1], t) && narrow(dy, r[3] - y0, t);
}

function inside(x: number, y: number, r: BBox): boolean {
  return x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3];
}

/**
 * Clips the line stored as points `start .. end - 1` of interleaved `xy` to `rect`, appending the visible
 * pieces to `out` with the given elevation and source index. Returns the number of pieces kept.
 */
export function clipLineToRect(xy: ArrayLike<number>, start: number, end: number, closed: boolean, rect: BBox, out: LineBuffer, elevation: number, source: number): number {
  const n = end - start;
  if (n < 2) return 0;
  let firstOutside = -1;
  for (let i = start; i < end; i++) {
    if (!inside(xy[2 * i], xy[2 * i + 1], rect)) {
      firstOutside = i;
      break;
    }
  }
  if (firstOutside < 0) {
    // Wholly inside (the square is convex, so every segment between inside points is inside too).
    for (let i = start; i < end; i++) out.add(xy[2 * i], xy[2 * i + 1]);
    return out.end(elevation, closed, source) ? 1 : 0;
  }
  // A ring is walked from a vertex outside, over all its n - 1 segments; an open line from its start.
  const segments = n - 1;
  const from = closed ? firstOutside - start : 0;
  const at = (k: number) => start + (closed ? (from + k) % segments : k);
  const t: [number, number] = [0, 0];
  let pieces = 0;
  let open = false;
  for (let s = 0; s < segments; s++) {
    const a = at(s), b = at(s + 1);
    const x0 = xy[2 * a], y0 = xy[2 * a + 1], x1 = xy[2 * b], y1 = xy[2 * b + 1];
    if (!liangBarsky(x0, y0, x1, y1, rect, t)) {
      if (open && out.end(elevation, false, source)) pieces++;
      open = false;
      continue;
    }
    if (!open || t[0] > 0) {
      if (open && out.end(elevation, false, source)) pieces++;
      out.add(t[0] === 0 ? x0 : x0 + t[0] * (x1 - x0), t[0] === 0 ? y0 : y0 + t[0] * (y1 - y0));
      open = true;
    }
    out.add(t[1] === 1 ? x1 : x0 + t[1] * (x1 - x0), t[1] === 1 ? y1 : y0 + t[1] * (y1 - y0));
    if (t[1] < 1) {
      if (out.end(elevation, false, source)) pieces++;
      open = false;
    }
  }
  if (open && out.end(elevation, false, source)) pieces++;
  return pieces;
}
