/** Shared fixtures of the contours tests: analytic grids, and isolines unpacked into plain lines. */
import { contours as d3Contours } from 'd3-contour';
import type { IsolineSet } from '../../../../engine/surfaces/contours/isolines.js';
import { seededRandom } from '../../../../engine/random/seeded-random.js';

/** One line of an isoline set as plain points. */
export interface PlainLine {
  level: number;
  closed: boolean;
  points: [number, number][];
}

/** The lines of a set as plain objects (test convenience, not the hot path). */
export function plainLines(set: IsolineSet): PlainLine[] {
  const out: PlainLine[] = [];
  for (let i = 0; i < set.lineLevel.length; i++) {
    const points: [number, number][] = [];
    for (let p = set.lineOffsets[i]; p < set.lineOffsets[i + 1]; p++) points.push([set.xy[2 * p], set.xy[2 * p + 1]]);
    out.push({ level: set.levels[set.lineLevel[i]], closed: set.lineClosed[i] === 1, points });
  }
  return out;
}

/** A width x height grid with `f(x, y)` at every pixel centre (x = col + 0.5, y = row + 0.5, y southwards). */
export function gridOf(width: number, height: number, f: (x: number, y: number) => number): Float32Array {
  const g = new Float32Array(width * height);
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) g[r * width + c] = f(c + 0.5, r + 0.5);
  return g;
}

/** A smooth seeded random surface: a sum of Gaussian bumps and dips (saddles included). */
export function bumpyField(width: number, height: number, seed: number, bumps = 12): Float32Array {
  const rnd = seededRandom(seed);
  const b = Array.from({ length: bumps }, () => ({ x: rnd.range(0, width), y: rnd.range(0, height), h: rnd.range(-30, 30), s: rnd.range(3, 12) }));
  return gridOf(width, height, (x, y) => 100 + b.reduce((sum, k) => sum + k.h * Math.exp(-((x - k.x) ** 2 + (y - k.y) ** 2) / (2 * k.s * k.s)), 0));
}

/** The grid rotated 90 degrees clockwise (on a north-up map): new width = old height. */
export function rotateClockwise(values: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  // New pixel (c', r') = old pixel (c = r', r = H - 1 - c'); the new grid is H wide and W high.
  for (let r2 = 0; r2 < width; r2++) for (let c2 = 0; c2 < height; c2++) out[r2 * height + c2] = values[(height - 1 - c2) * width + r2];
  return out;
}

/** Levels `first, first + step, ...` up to `last`. */
export function levelRange(first: number, last: number, step: number): Float64Array {
  const out: number[] = [];
  for (let k = 0; first + k * step <= last + 1e-9; k++) out.push(Math.round((first + k * step) * 1e9) / 1e9);
  return Float64Array.from(out);
}

/** d3-contour's rings for one level of a grid (the reference implementation), in the same pixel coordinates. */
export function d3Rings(values: Float32Array, width: number, height: number, level: number): [number, number][][] {
  const mp = d3Contours().size([width, height]).contour(Array.from(values, (v) => (Number.isNaN(v) ? NaN : v)), level);
  return mp.coordinates.flat() as [number, number][][];
}

/** A key for a point, rounded to 1e-9 (floating-point noise aside, the same point gives the same key). */
export function pointKey(x: number, y: number): string {
  return `${Math.round(x * 1e9)},${Math.round(y * 1e9)}`;
}
