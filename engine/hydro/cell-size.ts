/**
 * Cell size of a grid in metres, for any CRS the engine reads: projected grids (MGA, UTM, Albers, VicGrid)
 * are in metres already; a geographic grid (SRTM's 1-arc-second tiles, EPSG:4326) is scaled by the metres
 * per degree at its central latitude (engine/geo/distance.ts), which is exact to 0.1 % across a tile of a
 * few kilometres.
 */
import { invalidArgument } from '../errors.js';
import { isGeographic } from '../geo/crs.js';
import { metresPerDegree } from '../geo/distance.js';
import type { Grid, TypedArray } from '../raster/grid.js';

/** Cell width and height in metres. */
export interface MetricCellSize {
  /** East-west cell size, metres. */
  x: number;
  /** North-south cell size, metres. */
  y: number;
}

/** The metric size of a grid's cells (see the file comment for geographic grids). */
export function metricCellSize(g: Pick<Grid<TypedArray>, 'transform' | 'crs' | 'height'>): MetricCellSize {
  const t = g.transform;
  let x = Math.abs(t[1]);
  let y = Math.abs(t[5]);
  if (isGeographic(g.crs)) {
    const lat = t[3] + (g.height / 2) * t[5];
    const { kx, ky } = metresPerDegree(lat);
    x *= kx;
    y *= ky;
  }
  if (!(x > 0 && y > 0) || !Number.isFinite(x) || !Number.isFinite(y)) {
    throw invalidArgument('grid', `grid cells must have a positive finite size, got ${x} x ${y}`);
  }
  return { x, y };
}
