/**
 * Burning mapped watercourses into a DEM ("stream burning", Saunders 1999, "Preparation of DEMs for use in
 * environmental modeling analysis", ESRI User Conference; Hellweger 1997's AGREE is the smoothed variant):
 * the cells a mapped line crosses are lowered by a fixed depth before filling, so flow follows the mapped
 * network through the embankments, bridges and culverts that a LiDAR surface records as dams, and those
 * cells are forced to be channels. Heights for HAND are then taken from the unburned surface (hand-chain.ts),
 * so the burn steers flow without inventing relief.
 */
import { invalidArgument } from '../errors.js';
import { worldToPixel } from '../geo/geo-transform.js';
import type { GridSpec } from '../geo/window.js';
import type { Grid } from '../raster/grid.js';

/**
 * Default burn depth, metres: above the 1-5 m of the road embankments and culvert crossings that block
 * mapped creeks in urban LiDAR, so flow is pulled through them (a screening choice, not a published value).
 */
export const DEFAULT_BURN_DEPTH_M = 5;

/**
 * Marks every cell that a polyline crosses (a supercover walk: the line is sampled at a quarter of a cell,
 * so diagonal steps also mark the shared side cell and the burned path is 4-connected). `lines` hold
 * interleaved x, y coordinates in the grid's CRS, one array per polyline.
 */
export function rasterizeLines(spec: GridSpec, lines: readonly (Float64Array | number[])[]): Uint8Array {
  const { width: w, height: h, transform } = spec;
  const mask = new Uint8Array(w * h);
  let prevC = -1;
  let prevR = -1;
  const mark = (c: number, r: number) => {
    if (c >= 0 && c < w && r >= 0 && r < h) mask[r * w + c] = 1;
  };
  const visit = (c: number, r: number) => {
    if (prevC >= 0 && c !== prevC && r !== prevR) mark(c, prevR); // keep the burned path 4-connected
    mark(c, r);
    prevC = c;
    prevR = r;
  };
  for (let l = 0; l < lines.length; l++) {
    const xy = lines[l];
    if (xy.length % 2 !== 0) throw invalidArgument('lines', `line ${l} has an odd number of coordinates (${xy.length})`);
    prevC = prevR = -1;
    for (let i = 0; i + 1 < xy.length; i += 2) {
      const [c0, r0] = worldToPixel(transform, xy[i], xy[i + 1]);
      if (i + 3 >= xy.length) {
        visit(Math.floor(c0), Math.floor(r0));
        break;
      }
      const [c1, r1] = worldToPixel(transform, xy[i + 2], xy[i + 3]);
      const steps = Math.max(1, Math.ceil(Math.max(Math.abs(c1 - c0), Math.abs(r1 - r0)) * 4));
      for (let s = 0; s < steps; s++) {
        const t = s / steps;
        visit(Math.floor(c0 + (c1 - c0) * t), Math.floor(r0 + (r1 - r0) * t));
      }
    }
  }
  return mask;
}

/** A copy of `dem` with the cells of `mask` lowered by `depth` metres (default {@link DEFAULT_BURN_DEPTH_M}). */
export function burnStreams(dem: Grid<Float32Array>, mask: Uint8Array, depth = DEFAULT_BURN_DEPTH_M): Grid<Float32Array> {
  if (mask.length !== dem.data.length) throw invalidArgument('mask', `burn mask has ${mask.length} cells, the DEM ${dem.data.length}`);
  if (!(depth >= 0) || !Number.isFinite(depth)) throw invalidArgument('burn_depth', `burn depth must be a non-negative number of metres, got ${depth}`);
  const out = Float32Array.from(dem.data);
  for (let i = 0; i < out.length; i++) if (mask[i]) out[i] -= depth;
  return { ...dem, data: out };
}
