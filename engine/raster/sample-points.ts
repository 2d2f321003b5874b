/**
 * Heights of many lon/lat points from a list of rasters, the first that has a value at each point winning
 * (bilinear, over valid cells: raster/sample.ts). Each raster is read once, over the points' box only, through
 * this thread's shared raster pool. The terrain tiles sample their pixel centres with it.
 *
 * The points reach each raster's CRS through the contours' lattice transform (exact proj4 on nodes about
 * 100 m apart, bilinear between: under a millimetre off, see geo/lattice-transform.ts) rather
 * than one proj4 call per point, which was most of a terrain tile's cost (65,536 calls).
 */
import { latticeTransform } from '../geo/lattice-transform.js';
import { sharedRaster } from './raster-pool.js';
import { sampleAtXY } from './sample.js';

/** Values at (lon[k], lat[k]) from `files` in order; NaN where none has one. */
export async function sampleRastersAt(files: readonly string[], lon: Float64Array, lat: Float64Array): Promise<Float32Array> {
  const out = new Float32Array(lon.length).fill(NaN);
  let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity;
  for (let k = 0; k < lon.length; k++) {
    west = Math.min(west, lon[k]);
    east = Math.max(east, lon[k]);
    south = Math.min(south, lat[k]);
    north = Math.max(north, lat[k]);
  }
  let missing = lon.length;
  for (const file of files) {
    if (missing === 0) break;
    const raster = await sharedRaster(file);
    const grid = await raster.readBBox([west, south, east, north], { crs: 'EPSG:4326', margin: 1 });
    if (!grid) continue;
    const xy = new Float64Array(2 * lon.length);
    for (let k = 0; k < lon.length; k++) {
      xy[2 * k] = lon[k];
      xy[2 * k + 1] = lat[k];
    }
    latticeTransform('EPSG:4326', grid.crs, [west, south, east, north]).forwardArray(xy);
    for (let k = 0; k < out.length; k++) {
      if (!Number.isNaN(out[k])) continue;
      const v = sampleAtXY(grid, xy[2 * k], xy[2 * k + 1]);
      if (Number.isFinite(v)) {
        out[k] = v;
        missing--;
      }
    }
  }
  return out;
}
