/**
 * Writes grids as GeoTIFF with geotiff.js's writer (one uncompressed strip), with the CRS in the GeoKeys,
 * the transform as ModelPixelScale + ModelTiepoint and no-data as the GDAL_NODATA tag, so GDAL, QGIS and
 * this engine's reader all open the result.
 */
import { writeFile } from 'node:fs/promises';
import { writeArrayBuffer } from 'geotiff';
import { invalidArgument } from '../errors.js';
import { isGeographic, requireCrs } from '../geo/crs.js';
import { isNorthUp } from '../geo/geo-transform.js';
import type { Grid, TypedArray } from './grid.js';

/** Options for {@link encodeGeoTiff}. */
export interface GeoTiffWriteOptions {
  /** Written as the GDAL_NODATA tag; defaults to the grid's `noData` (NaN is written as "nan"). Null omits the tag. */
  noData?: number | null;
}

/** Encodes a grid as GeoTIFF bytes. Supports every typed array type; the TIFF sample format follows it. */
export function encodeGeoTiff(grid: Grid<TypedArray>, options: GeoTiffWriteOptions = {}): Uint8Array {
  const { width, height, data, transform } = grid;
  if (data.length !== width * height) {
    throw invalidArgument('grid', `grid data has ${data.length} values but width x height is ${width * height}`);
  }
  if (!isNorthUp(transform)) throw invalidArgument('grid', `only north-up grids can be written, transform ${transform.join(',')}`);
  const crs = requireCrs(grid.crs, 'GeoTIFF writer');
  const code = Number(crs.slice(5));
  const geographic = isGeographic(crs);
  const noData = options.noData === undefined ? grid.noData : options.noData;
  const metadata: Record<string, unknown> = {
    width,
    height,
    ModelPixelScale: [transform[1], -transform[5], 0],
    ModelTiepoint: [0, 0, 0, transform[0], transform[3], 0],
    GTModelTypeGeoKey: geographic ? 2 : 1,
    GTRasterTypeGeoKey: 1, // PixelIsArea
    ...(geographic ? { GeographicTypeGeoKey: code } : { ProjectedCSTypeGeoKey: code, ProjLinearUnitsGeoKey: 9001 }),
  };
  if (noData !== null && noData !== undefined) metadata.GDAL_NODATA = Number.isNaN(noData) ? 'nan' : String(noData);
  const buf = writeArrayBuffer(data as never, metadata as never);
  return new Uint8Array(buf);
}

/** Writes a grid to `file` as GeoTIFF. */
export async function writeGeoTiff(file: string, grid: Grid<TypedArray>, options?: GeoTiffWriteOptions): Promise<void> {
  await writeFile(file, encodeGeoTiff(grid, options));
}
