/**
 * Heights of many lon/lat points from a list of rasters, the first that has a value at each point winning
 * (bilinear, over valid cells: raster/sample.ts). Each raster is read once, over the points' box only, through
 * this thread's shared raster pool. The terrain tiles sample their pixel centres with it.
 */
import { sharedRaster } from './raster-pool.js';
import { sampleAtLonLat } from './sample.js';

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
    for (let k = 0; k < out.length; k++) {
      if (!Number.isNaN(out[k])) continue;
      const v = sampleAtLonLat(grid, lon[k], lat[k]);
      if (Number.isFinite(v)) {
        out[k] = v;
        missing--;
      }
    }
  }
  return out;
}
