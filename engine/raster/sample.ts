/**
 * Point sampling of georeferenced grids at lon/lat positions, and a local metric frame for walking rays and
 * lattices across a grid in metres whatever its CRS.
 *
 * The context scores read small, already-loaded grids (a DEM window, a ~1 km LST raster, solar rasters),
 * so a score needs only a handful of point samples; these helpers do that without resampling a whole grid.
 * This is the one bilinear, no-data-aware sampler of the engine (`resampleGrid` samples through it too): cell
 * centres at +0.5, missing neighbours are left out of the weights, and the value is NaN where the containing
 * cell is missing.
 */
import { getTransformer, isGeographic, LONLAT } from '../geo/crs.js';
import { metresPerDegree } from '../geo/distance.js';
import { worldToPixel } from '../geo/geo-transform.js';
import type { Grid, TypedArray } from './grid.js';
import { isNoData } from './grid.js';

/** `nearest` returns the containing cell's value; `bilinear` interpolates between cell centres. */
export type SampleMethod = 'nearest' | 'bilinear';

/** A grid whose values are read as numbers (any typed array). */
export type AnyGrid = Grid<TypedArray>;

/** The value of `grid` at fractional pixel position (pc, pr); NaN outside the grid or on a missing cell. */
export function sampleAtPixel(grid: AnyGrid, pc: number, pr: number, method: SampleMethod = 'bilinear'): number {
  const { width: w, height: h, data } = grid;
  const nc = Math.floor(pc);
  const nr = Math.floor(pr);
  if (!(nc >= 0 && nr >= 0 && nc < w && nr < h)) return NaN;
  const nearest = data[nr * w + nc];
  if (isNoData(grid, nearest)) return NaN;
  if (method === 'nearest') return nearest;
  const fc = pc - 0.5;
  const fr = pr - 0.5;
  const c0 = Math.floor(fc);
  const r0 = Math.floor(fr);
  const u = fc - c0;
  const v = fr - r0;
  let sum = 0;
  let wsum = 0;
  for (let dr = 0; dr <= 1; dr++) {
    const rr = r0 + dr;
    if (rr < 0 || rr >= h) continue;
    for (let dc = 0; dc <= 1; dc++) {
      const cc = c0 + dc;
      if (cc < 0 || cc >= w) continue;
      const val = data[rr * w + cc];
      if (isNoData(grid, val)) continue;
      const wgt = (dc ? u : 1 - u) * (dr ? v : 1 - v);
      sum += wgt * val;
      wsum += wgt;
    }
  }
  return wsum > 0 ? sum / wsum : nearest;
}

/** The value of `grid` at world position (x, y) in the grid's own CRS. */
export function sampleAtXY(grid: AnyGrid, x: number, y: number, method: SampleMethod = 'bilinear'): number {
  // worldToPixel without its result array: scores sample thousands of points per lookup (openness rays).
  const t = grid.transform;
  const det = t[1] * t[5] - t[2] * t[4];
  if (det === 0) return worldToPixel(t, x, y)[0]; // throws the degenerate-transform error
  const dx = x - t[0];
  const dy = y - t[3];
  return sampleAtPixel(grid, (dx * t[5] - dy * t[2]) / det, (dy * t[1] - dx * t[4]) / det, method);
}

/** The value of `grid` at (lon, lat), projecting into the grid's CRS first. */
export function sampleAtLonLat(grid: AnyGrid, lon: number, lat: number, method: SampleMethod = 'bilinear'): number {
  const [x, y] = getTransformer(LONLAT, grid.crs).forward(lon, lat);
  return sampleAtXY(grid, x, y, method);
}

/**
 * A local metric frame on a grid: the subject's position in the grid's CRS and the CRS units per metre east
 * and north. Projected grids (MGA, UTM) have 1 unit per metre (grid metres: the MGA scale factor is within
 * 0.04 %, see engine/geo/window.ts); geographic grids use the local degrees-per-metre of engine/geo/distance.ts.
 */
export interface MetricFrame {
  /** Subject position in the grid's CRS. */
  x0: number;
  y0: number;
  /** CRS units per metre east. */
  sx: number;
  /** CRS units per metre north. */
  sy: number;
}

/** The metric frame of `grid` centred on (lon, lat). */
export function metricFrame(grid: Pick<AnyGrid, 'crs'>, lon: number, lat: number): MetricFrame {
  const [x0, y0] = getTransformer(LONLAT, grid.crs).forward(lon, lat);
  if (!isGeographic(grid.crs)) return { x0, y0, sx: 1, sy: 1 };
  const { kx, ky } = metresPerDegree(lat);
  return { x0, y0, sx: 1 / kx, sy: 1 / ky };
}

/** The value of `grid` at `east`, `north` metres from the frame's origin. */
export function sampleAtOffset(grid: AnyGrid, frame: MetricFrame, east: number, north: number, method: SampleMethod = 'bilinear'): number {
  return sampleAtXY(grid, frame.x0 + east * frame.sx, frame.y0 + north * frame.sy, method);
}

/** The size of one cell in metres (the mean of width and height, for the resolution field of a component). */
export function cellSizeMetres(grid: Pick<AnyGrid, 'crs' | 'transform'>, lat: number): number {
  const dx = Math.abs(grid.transform[1]);
  const dy = Math.abs(grid.transform[5]);
  if (!isGeographic(grid.crs)) return (dx + dy) / 2;
  const { kx, ky } = metresPerDegree(lat);
  return (dx * kx + dy * ky) / 2;
}
