/**
 * Resampling a grid onto another grid (another CRS, cell size or alignment).
 *
 * Target cell centres are mapped to source pixel positions through the exact CRS transform on a coarse
 * lattice (every {@link LATTICE_STEP} cells) and bilinear interpolation in between, the approach of GDAL's
 * approximate transformer: map projections are smooth at this scale, so the error is far below a cell
 * (tested against the exact transform).
 */
import { getTransformer } from '../geo/crs.js';
import { pixelToWorld, worldToPixel } from '../geo/geo-transform.js';
import type { GridSpec } from '../geo/window.js';
import type { Grid } from './grid.js';
import { sampleAtPixel, type SampleMethod } from './sample.js';

/** `nearest` keeps values (class rasters); `bilinear` interpolates (continuous surfaces). */
export type ResampleMethod = SampleMethod;

/** Lattice spacing, in target cells, at which the exact CRS transform is evaluated. */
export const LATTICE_STEP = 8;

/**
 * Source pixel coordinates (fractional col, row) of every target cell centre, as two Float64Arrays.
 * Exact on the lattice, interpolated between.
 */
export function sourcePixelPositions(src: Pick<Grid, 'transform' | 'crs'>, target: GridSpec): { cols: Float64Array; rows: Float64Array } {
  const { width: W, height: H } = target;
  const cols = new Float64Array(W * H);
  const rows = new Float64Array(W * H);
  const same = src.crs === target.crs;
  const tr = same ? null : getTransformer(target.crs, src.crs);
  const exact = (c: number, r: number): [number, number] => {
    const [x, y] = pixelToWorld(target.transform, c + 0.5, r + 0.5);
    const [sx, sy] = tr ? tr.forward(x, y) : [x, y];
    return worldToPixel(src.transform, sx, sy);
  };
  // The same CRS: target pixel -> world -> source pixel is affine, so positions are linear in (c, r): three
  // exact positions give them all, with no per-cell arrays (this ran per lookup for the heat surface).
  if (same) {
    const [c00, r00] = exact(0, 0);
    const [c10, r10] = exact(1, 0);
    const [c01, r01] = exact(0, 1);
    const dcx = c10 - c00, drx = r10 - r00, dcy = c01 - c00, dry = r01 - r00;
    for (let r = 0; r < H; r++) {
      const bc = c00 + r * dcy;
      const br = r00 + r * dry;
      for (let c = 0; c < W; c++) {
        cols[r * W + c] = bc + c * dcx;
        rows[r * W + c] = br + c * drx;
      }
    }
    return { cols, rows };
  }
  // Exact everywhere when the grid is too small to gain from the lattice.
  if (W <= 2 * LATTICE_STEP || H <= 2 * LATTICE_STEP) {
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        const [pc, pr] = exact(c, r);
        cols[r * W + c] = pc;
        rows[r * W + c] = pr;
      }
    }
    return { cols, rows };
  }
  // Lattice nodes at multiples of LATTICE_STEP plus the last row and column (at least two per axis here).
  const nodes = (n: number) => {
    const v: number[] = [];
    for (let i = 0; i < n - 1; i += LATTICE_STEP) v.push(i);
    v.push(n - 1);
    return v;
  };
  const lc = nodes(W);
  const lr = nodes(H);
  const lattice = lr.map((r) => lc.map((c) => exact(c, r)));
  for (let j = 0; j + 1 < lr.length; j++) {
    const r0 = lr[j];
    const r1 = lr[j + 1];
    for (let i = 0; i + 1 < lc.length; i++) {
      const c0 = lc[i];
      const c1 = lc[i + 1];
      const p00 = lattice[j][i];
      const p01 = lattice[j][i + 1];
      const p10 = lattice[j + 1][i];
      const p11 = lattice[j + 1][i + 1];
      for (let r = r0; r <= r1; r++) {
        const v = (r - r0) / (r1 - r0);
        for (let c = c0; c <= c1; c++) {
          const u = (c - c0) / (c1 - c0);
          const k = r * W + c;
          cols[k] = (1 - v) * ((1 - u) * p00[0] + u * p01[0]) + v * ((1 - u) * p10[0] + u * p11[0]);
          rows[k] = (1 - v) * ((1 - u) * p00[1] + u * p01[1]) + v * ((1 - u) * p10[1] + u * p11[1]);
        }
      }
    }
  }
  return { cols, rows };
}

/**
 * Resamples a Float32 grid (no-data NaN) onto `target`. Bilinear weights only valid neighbours and is NaN
 * where the nearest source cell is missing, so a footprint edge stays where nearest-neighbour puts it.
 */
export function resampleGrid(src: Grid<Float32Array>, target: GridSpec, method: ResampleMethod = 'bilinear'): Grid<Float32Array> {
  const { cols, rows } = sourcePixelPositions(src, target);
  const out = new Float32Array(target.width * target.height);
  // Missing means NaN here, whatever `noData` says (the grid's contract above): the shared sampler reads it so.
  const view = { ...src, noData: NaN };
  for (let k = 0; k < out.length; k++) out[k] = sampleAtPixel(view, cols[k], rows[k], method);
  return { width: target.width, height: target.height, data: out, noData: NaN, transform: target.transform, crs: target.crs };
}
