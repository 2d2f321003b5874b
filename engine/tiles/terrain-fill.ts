/**
 * What a terrain tile draws where no DEM has a value (issue 47): a height that meets the DEM at its edge and
 * eases down to sea level (0 m) within {@link TERRAIN_FILL_REACH_M} of it, so 3D terrain and hillshade show no
 * cliff at a DEM's edge or around its holes.
 *
 * For each DEM, once per thread: the DEM averaged over coarse cells (8 DEM cells or more a side, at most 1,024
 * a side in all) over its extent plus the reach; each cell without data takes the average of the nearest cell
 * with data (an exact distance transform, raster/nearest-fill.ts), weighted by a smoothstep of its distance
 * (1 at the data, 0 at the reach). A pixel without data then reads the weighted height bilinearly, summed over
 * the DEMs that reach it (divided by the weights where they overlap past 1). The field depends on the position
 * alone, never on the tile, so neighbouring tiles and zooms agree, and its slope is at most 1.5 x height /
 * reach (about 24 degrees for a 600 m edge): a ramp, not a cliff.
 */
import { metresPerDegree } from '../geo/distance.js';
import { isGeographic } from '../geo/crs.js';
import type { GeoTransform } from '../geo/geo-transform.js';
import { latticeTransform } from '../geo/lattice-transform.js';
import type { RasterSource } from '../raster/geotiff-reader.js';
import { nearestSites } from '../raster/nearest-fill.js';
import { sharedRaster } from '../raster/raster-pool.js';
import { pointsBox } from '../raster/sample-points.js';

/** How far from a DEM's data the filled height reaches (then 0 m), metres. */
export const TERRAIN_FILL_REACH_M = 2000;

/** A DEM's fill: `wv` (weight x nearest height) and `w` (weight) on a coarse grid in the DEM's CRS. */
export interface FillField {
  crs: string;
  transform: GeoTransform;
  width: number;
  height: number;
  wv: Float32Array;
  w: Float32Array;
}

const fields = new WeakMap<RasterSource, Promise<FillField>>();

/** Metres per unit of the raster's CRS along y (degrees for a geographic CRS). */
function metresPerUnit(raster: RasterSource): number {
  const { crs, bbox } = raster.info;
  return isGeographic(crs) ? metresPerDegree((bbox[1] + bbox[3]) / 2).ky : 1;
}

async function buildField(raster: RasterSource, reach: number, maxCells: number): Promise<FillField> {
  const { width: W, height: H, transform: t, crs } = raster.info;
  const unit = metresPerUnit(raster);
  const cellUnits = Math.hypot(t[1], t[4]);
  // Coarse cells of f x f DEM cells: 8 at least, fewer than 1,024 a side with the margin.
  let f = 8;
  const margin = (ff: number) => Math.ceil(reach / (ff * cellUnits * unit)) + 1;
  while (Math.ceil(Math.max(W, H) / f) + 2 * margin(f) > 1024) f *= 2;
  const m = margin(f);
  const cw = Math.ceil(W / f) + 2 * m, ch = Math.ceil(H / f) + 2 * m;
  const sum = new Float64Array(cw * ch), count = new Uint32Array(cw * ch);
  const rowsPerRead = Math.max(f, Math.floor(maxCells / W / f) * f);
  for (let r0 = 0; r0 < H; r0 += rowsPerRead) {
    const r1 = Math.min(H, r0 + rowsPerRead);
    const { data } = await raster.readPixels([0, r0, W, r1]);
    for (let r = r0; r < r1; r++) {
      const crow = (Math.floor(r / f) + m) * cw + m;
      for (let c = 0, i = (r - r0) * W; c < W; c++, i++) {
        const v = data[i];
        if (Number.isNaN(v)) continue;
        const k = crow + Math.floor(c / f);
        sum[k] += v;
        count[k]++;
      }
    }
  }
  const { distance, nearest } = nearestSites(cw, ch, (i) => count[i] > 0);
  const wv = new Float32Array(cw * ch), w = new Float32Array(cw * ch);
  const cellM = f * cellUnits * unit;
  for (let i = 0; i < cw * ch; i++) {
    const j = nearest[i];
    if (j < 0) continue;
    const s = Math.max(0, Math.min(1, 1 - (distance[i] * cellM) / reach));
    w[i] = s * s * (3 - 2 * s);
    wv[i] = w[i] * (sum[j] / count[j]);
  }
  const transform: GeoTransform = [t[0] - m * f * t[1] - m * f * t[2], f * t[1], f * t[2], t[3] - m * f * t[4] - m * f * t[5], f * t[4], f * t[5]];
  return { crs, transform, width: cw, height: ch, wv, w };
}

/** The fill field of the DEM in `file` (built once per thread and file version). */
export async function fillField(file: string, options: { reach?: number; maxCells?: number } = {}): Promise<FillField> {
  const raster = await sharedRaster(file);
  let p = fields.get(raster);
  if (!p) {
    p = buildField(raster, options.reach ?? TERRAIN_FILL_REACH_M, options.maxCells ?? 4 * 1024 * 1024);
    fields.set(raster, p);
    p.catch(() => fields.delete(raster));
  }
  return p;
}

/**
 * Fills the NaN values of `heights` (at lon[k], lat[k]) from the DEMs' fill fields: the eased nearest height
 * within the reach of a DEM's data, 0 m beyond. Every value is finite afterwards.
 */
export async function fillHeights(heights: Float32Array, lon: Float64Array, lat: Float64Array, dems: readonly string[]): Promise<void> {
  const todo: number[] = [];
  for (let k = 0; k < heights.length; k++) if (Number.isNaN(heights[k])) todo.push(k);
  if (!todo.length) return;
  const sumWV = new Float64Array(todo.length), sumW = new Float64Array(todo.length);
  const box = pointsBox(Float64Array.from(todo, (k) => lon[k]), Float64Array.from(todo, (k) => lat[k]));
  const xy = new Float64Array(2 * todo.length);
  for (const dem of dems) {
    const fld = await fillField(dem);
    for (let i = 0; i < todo.length; i++) {
      xy[2 * i] = lon[todo[i]];
      xy[2 * i + 1] = lat[todo[i]];
    }
    latticeTransform('EPSG:4326', fld.crs, box).forwardArray(xy);
    const t = fld.transform, det = t[1] * t[5] - t[2] * t[4];
    for (let i = 0; i < todo.length; i++) {
      const dx = xy[2 * i] - t[0], dy = xy[2 * i + 1] - t[3];
      // Bilinear between coarse cell centres; cells off the grid weigh 0 (the grid's rim is past the reach).
      const fc = (t[5] * dx - t[2] * dy) / det - 0.5, fr = (t[1] * dy - t[4] * dx) / det - 0.5;
      const c0 = Math.floor(fc), r0 = Math.floor(fr);
      if (c0 < -1 || r0 < -1 || c0 >= fld.width || r0 >= fld.height) continue;
      const u = fc - c0, v = fr - r0;
      for (let dr = 0; dr <= 1; dr++) {
        const r = r0 + dr;
        if (r < 0 || r >= fld.height) continue;
        for (let dc = 0; dc <= 1; dc++) {
          const c = c0 + dc;
          if (c < 0 || c >= fld.width) continue;
          const g = (dc ? u : 1 - u) * (dr ? v : 1 - v), j = r * fld.width + c;
          sumWV[i] += g * fld.wv[j];
          sumW[i] += g * fld.w[j];
        }
      }
    }
  }
  for (let i = 0; i < todo.length; i++) heights[todo[i]] = sumW[i] > 1 ? sumWV[i] / sumW[i] : sumWV[i];
}
