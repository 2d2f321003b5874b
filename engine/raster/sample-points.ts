/**
 * Heights of many lon/lat points from a list of rasters, the first that has a value at each point winning
 * (bilinear, over valid cells: raster/sample.ts). Each raster is read once over the points' box, clamped to the
 * raster (a z8 terrain tile spans 150 km; a 6 km DEM inside it is read whole, not a window of the tile's size),
 * through this thread's shared raster pool. A window larger than `maxCells` is read in bands of rows, each
 * holding only the rows its points need, so memory stays bounded whatever the tile and the raster. The terrain
 * tiles sample their pixel centres with it.
 *
 * The points reach each raster's CRS through the contours' lattice transform (exact proj4 on nodes about
 * 100 m apart, bilinear between: under a millimetre off, see geo/lattice-transform.ts) rather
 * than one proj4 call per point, which was most of a terrain tile's cost (65,536 calls).
 */
import { transformBBox } from '../geo/crs.js';
import { latticeTransform } from '../geo/lattice-transform.js';
import { sharedRaster } from './raster-pool.js';
import { sampleAtXY } from './sample.js';

/** Cells read at once (16 MiB of Float32) before a read is cut into bands of rows. */
export const SAMPLE_READ_CELLS = 4 * 1024 * 1024;

/** The lon/lat box of the points. */
export function pointsBox(lon: Float64Array, lat: Float64Array): [number, number, number, number] {
  let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity;
  for (let k = 0; k < lon.length; k++) {
    west = Math.min(west, lon[k]);
    east = Math.max(east, lon[k]);
    south = Math.min(south, lat[k]);
    north = Math.max(north, lat[k]);
  }
  return [west, south, east, north];
}

/** Values at (lon[k], lat[k]) from `files` in order; NaN where none has one. */
export async function sampleRastersAt(files: readonly string[], lon: Float64Array, lat: Float64Array, options: { maxCells?: number } = {}): Promise<Float32Array> {
  const out = new Float32Array(lon.length).fill(NaN);
  const box = pointsBox(lon, lat);
  const maxCells = options.maxCells ?? SAMPLE_READ_CELLS;
  let missing = lon.length;
  for (const file of files) {
    if (missing === 0) break;
    const raster = await sharedRaster(file);
    const { width: W, height: H, crs, transform: t } = raster.info;
    const xy = new Float64Array(2 * lon.length);
    for (let k = 0; k < lon.length; k++) {
      xy[2 * k] = lon[k];
      xy[2 * k + 1] = lat[k];
    }
    latticeTransform('EPSG:4326', crs, box).forwardArray(xy);
    // Each point's row in the raster (north-up or not: the inverse of the affine transform), and the
    // raster rows and columns the points still missing a value need.
    const det = t[1] * t[5] - t[2] * t[4];
    const rowOf = new Float64Array(lon.length);
    let c0 = Infinity, c1 = -Infinity, r0 = Infinity, r1 = -Infinity;
    for (let k = 0; k < lon.length; k++) {
      if (!Number.isNaN(out[k])) continue;
      const dx = xy[2 * k] - t[0], dy = xy[2 * k + 1] - t[3];
      const pc = (t[5] * dx - t[2] * dy) / det, pr = (t[1] * dy - t[4] * dx) / det;
      rowOf[k] = pr;
      if (!(pc >= 0 && pc < W && pr >= 0 && pr < H)) {
        rowOf[k] = NaN;
        continue;
      }
      c0 = Math.min(c0, pc);
      c1 = Math.max(c1, pc);
      r0 = Math.min(r0, pr);
      r1 = Math.max(r1, pr);
    }
    if (!(c1 >= c0)) continue;
    // One cell of margin for bilinear weights at the edge, clamped to the raster.
    const col0 = Math.max(0, Math.floor(c0 - 0.5)), col1 = Math.min(W, Math.floor(c1 + 0.5) + 1);
    const row0 = Math.max(0, Math.floor(r0 - 0.5)), row1 = Math.min(H, Math.floor(r1 + 0.5) + 1);
    const band = Math.max(2, Math.floor(maxCells / (col1 - col0)));
    for (let b0 = row0; b0 < row1; b0 += band - 1) {
      const b1 = Math.min(row1, b0 + band);
      // The points whose bilinear rows (floor(pr - 0.5) and the next) lie in [b0, b1); a point on the band's
      // last row takes the next band, which starts one row earlier (the bands overlap by one row).
      const lo = b0 === row0 ? -Infinity : b0, hi = b1 === row1 ? Infinity : b1 - 1;
      let any = false;
      for (let k = 0; k < lon.length && !any; k++) {
        const r = Math.floor(rowOf[k] - 0.5);
        any = Number.isNaN(out[k]) && r >= lo && r < hi;
      }
      if (!any) continue;
      const grid = await raster.readPixels([col0, b0, col1, b1]);
      for (let k = 0; k < lon.length; k++) {
        if (!Number.isNaN(out[k])) continue;
        const r = Math.floor(rowOf[k] - 0.5);
        if (!(r >= lo && r < hi)) continue;
        const v = sampleAtXY(grid, xy[2 * k], xy[2 * k + 1]);
        if (Number.isFinite(v)) {
          out[k] = v;
          missing--;
        }
      }
    }
  }
  return out;
}

/** The lon/lat box of a raster (its extent transformed, edges densified). */
export async function rasterLonLatBox(file: string): Promise<[number, number, number, number]> {
  const { bbox, crs } = (await sharedRaster(file)).info;
  return transformBBox(bbox, crs, 'EPSG:4326');
}
