/**
 * Open rasters kept open for the engine's lifetime (geotiff.js keeps a file handle and parsed header per
 * file), and window reads around a subject in the shape the score modules take.
 */
import { destination } from '../../geo/distance.js';
import { LONLAT } from '../../geo/crs.js';
import type { RasterSource } from '../../raster/geotiff-reader.js';
import { closeSharedRasters, sharedRaster } from '../../raster/raster-pool.js';
import type { RasterRef } from '../../data/dataset-store.js';
import type { MissingLayer, RasterLayer } from '../../score-kit/layer-input.js';
import { unavailableLayer } from '../../score-kit/layer-input.js';
import { bboxContains } from '../../geo/bbox.js';
import { getTransformer } from '../../geo/crs.js';

/** The lon/lat box of the disc of `radius` metres around (lon, lat). */
export function discBox(lon: number, lat: number, radius: number): [number, number, number, number] {
  return [destination(lon, lat, radius, 270)[0], destination(lon, lat, radius, 180)[1], destination(lon, lat, radius, 90)[0], destination(lon, lat, radius, 0)[1]];
}

/** True when the raster's extent contains (lon, lat). */
export function rasterCovers(ref: RasterRef, lon: number, lat: number): boolean {
  const [x, y] = ref.info.crs === LONLAT ? [lon, lat] : getTransformer(LONLAT, ref.info.crs).forward(lon, lat);
  return bboxContains(ref.info.bbox, x, y);
}

/** The first raster of `refs` that covers the point, or null. */
export function rasterAt(refs: readonly RasterRef[], lon: number, lat: number): RasterRef | null {
  return refs.find((r) => rasterCovers(r, lon, lat)) ?? null;
}

/** Window reads through this thread's shared raster pool (engine/raster/raster-pool.ts). */
export class RasterCache {
  /** The open raster at `path` (opened once per thread, shared). */
  get(path: string): Promise<RasterSource> {
    return sharedRaster(path);
  }

  /**
   * The native cells of `ref` within `radius` metres of the subject, as the score modules' RasterLayer; an
   * `unavailable` layer when the read fails, null when no raster is given.
   */
  async disc(ref: RasterRef | null, lon: number, lat: number, radius: number): Promise<RasterLayer | MissingLayer | null> {
    if (!ref) return null;
    try {
      const r = await this.get(ref.path);
      const grid = await r.readBBox(discBox(lon, lat, radius), { crs: LONLAT });
      return grid ? { grid, source: ref.source.id } : { status: 'unavailable', reason: `${ref.file.path} does not cover the subject` };
    } catch (err) {
      return unavailableLayer(err);
    }
  }

  /** Closes every pooled file of this thread. */
  async close(): Promise<void> {
    await closeSharedRasters();
  }
}
