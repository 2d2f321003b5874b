/** Small grid builders for the hydro tests. */
import { northUpTransform } from '../../../engine/geo/geo-transform.js';
import type { Grid } from '../../../engine/raster/grid.js';

/** A Float32 grid from rows of values, 5 m cells in MGA zone 55. */
export function gridOf(rows: number[][], cell = 5): Grid<Float32Array> {
  const h = rows.length;
  const w = rows[0].length;
  return { width: w, height: h, data: Float32Array.from(rows.flat()), noData: NaN, transform: northUpTransform(320000, 5812000, cell), crs: 'EPSG:7855' };
}

/** A Float32 grid of `w` x `h` 5 m cells with value f(x, y). */
export function gridFrom(w: number, h: number, f: (x: number, y: number) => number, cell = 5): Grid<Float32Array> {
  const data = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = f(x, y);
  return { width: w, height: h, data, noData: NaN, transform: northUpTransform(320000, 5812000, cell), crs: 'EPSG:7855' };
}

/** In-grid neighbour indices of cell i. */
export function neighbours(i: number, w: number, h: number): number[] {
  const x = i % w;
  const y = (i - x) / w;
  const out: number[] = [];
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
    if (!dx && !dy) continue;
    const xx = x + dx;
    const yy = y + dy;
    if (xx >= 0 && xx < w && yy >= 0 && yy < h) out.push(yy * w + xx);
  }
  return out;
}
