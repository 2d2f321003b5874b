/**
 * Reads the DEM window the walkability slope needs (the 1,200 m disc plus one lattice step of margin) from
 * an open raster and works out the regional slope. A failed read is a degraded check, never a thrown error:
 * the screening still answers, unadjusted for terrain, and says so.
 */
import type { BBox } from '../../geo/bbox.js';
import { destination } from '../../geo/distance.js';
import { LONLAT } from '../../geo/crs.js';
import type { RasterSource } from '../../raster/geotiff-reader.js';
import type { MissingLayer } from '../../score-kit/layer-input.js';
import { SLOPE_RADIUS_M, walkSlopeFromDem, type WalkSlopeInput } from './walkability-score.js';

/** Margin beyond the slope disc so the lattice's 3x3 stencil has neighbours at the edge, metres. */
const MARGIN_M = 150;

/** The lon/lat box around (lon, lat) that holds the slope disc and its margin. */
export function walkSlopeBBox(lon: number, lat: number): BBox {
  const r = SLOPE_RADIUS_M + MARGIN_M;
  const [, north] = destination(lon, lat, r, 0);
  const [east] = destination(lon, lat, r, 90);
  const [, south] = destination(lon, lat, r, 180);
  const [west] = destination(lon, lat, r, 270);
  return [west, south, east, north];
}

/** The regional slope around (lon, lat) read from `dem`; a read failure comes back as `unavailable`. */
export async function readWalkSlope(dem: RasterSource, source: string, lon: number, lat: number, signal?: AbortSignal): Promise<WalkSlopeInput | MissingLayer> {
  try {
    const grid = await dem.readBBox(walkSlopeBBox(lon, lat), { crs: LONLAT, signal });
    if (!grid) return { status: 'unavailable', reason: `${dem.info.file}: the DEM does not cover the subject` };
    return walkSlopeFromDem({ grid, source }, lon, lat) ?? { status: 'unavailable', reason: `${dem.info.file}: no elevations near the subject` };
  } catch (err) {
    return { status: 'unavailable', reason: (err as Error)?.message ?? String(err) };
  }
}
