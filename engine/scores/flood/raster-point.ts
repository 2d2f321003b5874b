/**
 * The value of a raster at a point: the cell containing it (nearest-cell sampling, no interpolation, so a
 * flood-study depth is the depth the study modelled for that cell, and a class raster keeps its classes).
 */
import { getTransformer, LONLAT } from '../../geo/crs.js';
import { worldToPixel } from '../../geo/geo-transform.js';
import { sharedRaster } from '../../raster/raster-pool.js';
import { cellSizeMetres } from '../../raster/sample.js';

/** A sampled cell. */
export interface RasterPointValue {
  /** The cell's value, or null outside the raster or on no-data. */
  value: number | null;
  /** Cell size, metres (the mean of both axes; converted from degrees for geographic rasters). */
  resolution_m: number;
}

/** Samples band 0 of `file` at (lon, lat). Throws the reader's EngineErrors (NOT_FOUND, INVALID_DATA, ...). */
export async function sampleRasterAt(file: string, lon: number, lat: number, options: { signal?: AbortSignal } = {}): Promise<RasterPointValue> {
  const r = await sharedRaster(file);
  try {
    const { transform, crs, width, height, noData } = r.info;
    const [x, y] = getTransformer(LONLAT, crs).forward(lon, lat);
    const [fc, fr] = worldToPixel(transform, x, y);
    const c = Math.floor(fc);
    const row = Math.floor(fr);
    const res = cellSizeMetres({ crs, transform }, lat);
    if (c < 0 || row < 0 || c >= width || row >= height) return { value: null, resolution_m: res };
    const g = await r.readPixelsNative([c, row, c + 1, row + 1], { signal: options.signal });
    const v = Number(g.data[0]);
    const missing = Number.isNaN(v) || (noData !== null && (v === noData || (Number.isFinite(noData) && Math.fround(noData) === v)));
    return { value: missing ? null : v, resolution_m: res };
  } finally {
    await r.close();
  }
}
