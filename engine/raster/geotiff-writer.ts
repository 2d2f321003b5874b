/**
 * A GeoTIFF encoder for grids: little-endian, tiled (256 x 256 by default, as Cloud-Optimised GeoTIFFs are),
 * DEFLATE-compressed with the TIFF horizontal predictor (2 for integers, 3 for floating point), with the CRS in
 * the GeoKeys, the transform as ModelPixelScale + ModelTiepoint and no-data as the GDAL_NODATA tag. GDAL,
 * QGIS and geotiff.js all read it.
 *
 * Written here rather than with geotiff.js's own writer, which allocates an ArrayBuffer per pixel (about 1 s
 * for a 1200 x 1200 grid) and writes a single uncompressed strip, so a window read must touch the whole file.
 * Reading stays with geotiff.js.
 *
 * References: TIFF 6.0 (Adobe 1992) sections 2 (structure), 15 (tiles), 14 (predictor 2); Adobe Photoshop TIFF
 * Technical Note 3 (predictor 3, floating point); OGC GeoTIFF 1.1 (GeoKeys); GDAL's GDAL_NODATA tag 42113.
 */
import { writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { invalidArgument } from '../errors.js';
import { isGeographic, requireCrs } from '../geo/crs.js';
import { isNorthUp } from '../geo/geo-transform.js';
import type { Grid, TypedArray } from './grid.js';

/** Options for {@link encodeGeoTiff}. */
export interface GeoTiffWriteOptions {
  /** Written as the GDAL_NODATA tag; defaults to the grid's `noData` (NaN is written as "nan"). Null omits the tag. */
  noData?: number | null;
  /** `deflate` (default) or `none`. */
  compression?: 'deflate' | 'none';
  /** Tile side in pixels, a multiple of 16 (default 256; smaller rasters get one tile just big enough). */
  tileSize?: number;
}

const SHORT = 3, LONG = 4, DOUBLE = 12, ASCII = 2;
const TYPE_SIZE: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [DOUBLE]: 8, [ASCII]: 1 };

interface Tag {
  tag: number;
  type: number;
  values: number[] | string;
}

function sampleFormatOf(data: TypedArray): { format: number; bits: number } {
  if (data instanceof Float32Array) return { format: 3, bits: 32 };
  if (data instanceof Float64Array) return { format: 3, bits: 64 };
  if (data instanceof Int8Array) return { format: 2, bits: 8 };
  if (data instanceof Int16Array) return { format: 2, bits: 16 };
  if (data instanceof Int32Array) return { format: 2, bits: 32 };
  if (data instanceof Uint16Array) return { format: 1, bits: 16 };
  if (data instanceof Uint32Array) return { format: 1, bits: 32 };
  return { format: 1, bits: 8 }; // Uint8Array, Uint8ClampedArray
}

/** Horizontal differencing of one tile row in place (predictor 2), in the sample's unsigned width. */
function predictInteger(bytes: Uint8Array, rowBytes: number, rows: number, bytesPerSample: number): void {
  for (let r = 0; r < rows; r++) {
    const off = bytes.byteOffset + r * rowBytes;
    const row = bytesPerSample === 1 ? new Uint8Array(bytes.buffer, off, rowBytes) : bytesPerSample === 2 ? new Uint16Array(bytes.buffer, off, rowBytes / 2) : new Uint32Array(bytes.buffer, off, rowBytes / 4);
    for (let i = row.length - 1; i > 0; i--) row[i] -= row[i - 1];
  }
}

/** Predictor 3: each row's bytes rearranged into planes, most significant byte first, then byte-differenced. */
function predictFloat(bytes: Uint8Array, rowBytes: number, rows: number, bytesPerSample: number): void {
  const n = rowBytes / bytesPerSample;
  const plane = new Uint8Array(rowBytes);
  for (let r = 0; r < rows; r++) {
    const row = bytes.subarray(r * rowBytes, (r + 1) * rowBytes);
    for (let i = 0; i < n; i++) for (let b = 0; b < bytesPerSample; b++) plane[(bytesPerSample - b - 1) * n + i] = row[bytesPerSample * i + b];
    for (let k = rowBytes - 1; k > 0; k--) plane[k] = (plane[k] - plane[k - 1]) & 0xff;
    row.set(plane);
  }
}

/** Encodes a grid as GeoTIFF bytes. Supports every typed-array type; the TIFF sample format follows it. */
export function encodeGeoTiff(grid: Grid<TypedArray>, options: GeoTiffWriteOptions = {}): Uint8Array {
  const { width, height, data, transform } = grid;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw invalidArgument('grid', `grid size must be positive integers, got ${width} x ${height}`);
  if (data.length !== width * height) throw invalidArgument('grid', `grid data has ${data.length} values but width x height is ${width * height}`);
  if (!isNorthUp(transform)) throw invalidArgument('grid', `only north-up grids can be written, transform ${transform.join(',')}`);
  const crs = requireCrs(grid.crs, 'GeoTIFF writer');
  const code = Number(crs.slice(5));
  const geographic = isGeographic(crs);
  const noData = options.noData === undefined ? grid.noData : options.noData;
  const compress = (options.compression ?? 'deflate') === 'deflate';
  const requested = options.tileSize ?? 256;
  if (requested % 16 !== 0 || requested < 16) throw invalidArgument('tile_size', `tile size must be a positive multiple of 16, got ${requested}`);
  const tile = Math.min(requested, Math.ceil(Math.max(width, height) / 16) * 16);
  const { format, bits } = sampleFormatOf(data);
  const bps = bits / 8;
  const Ctor = data.constructor as { new (n: number): TypedArray };
  const tilesAcross = Math.ceil(width / tile);
  const tilesDown = Math.ceil(height / tile);
  const fill = noData === null || noData === undefined ? 0 : noData;

  // Tiles, row by row; edge tiles padded with the no-data value.
  const tiles: Uint8Array[] = [];
  const scratch = new Ctor(tile * tile);
  for (let ty = 0; ty < tilesDown; ty++) {
    for (let tx = 0; tx < tilesAcross; tx++) {
      scratch.fill(fill as never);
      const x0 = tx * tile, y0 = ty * tile;
      const w = Math.min(tile, width - x0);
      for (let r = 0; r < tile && y0 + r < height; r++) {
        scratch.set(data.subarray((y0 + r) * width + x0, (y0 + r) * width + x0 + w) as never, r * tile);
      }
      let bytes = new Uint8Array(scratch.buffer.slice(0, tile * tile * bps));
      if (compress) {
        if (format === 3) predictFloat(bytes, tile * bps, tile, bps);
        else predictInteger(bytes, tile * bps, tile, bps);
        bytes = deflateSync(bytes, { level: 6 });
      }
      tiles.push(bytes);
    }
  }

  // GTModelTypeGeoKey, GTRasterTypeGeoKey (PixelIsArea), then the CRS keys; already in ascending key order.
  const geoKeys: [number, number][] = [[1024, geographic ? 2 : 1], [1025, 1]];
  if (geographic) geoKeys.push([2048, code]);
  else geoKeys.push([3072, code], [3076, 9001]);
  const tags: Tag[] = [
    { tag: 256, type: LONG, values: [width] },
    { tag: 257, type: LONG, values: [height] },
    { tag: 258, type: SHORT, values: [bits] },
    { tag: 259, type: SHORT, values: [compress ? 8 : 1] },
    { tag: 262, type: SHORT, values: [1] }, // BlackIsZero
    { tag: 277, type: SHORT, values: [1] },
    { tag: 284, type: SHORT, values: [1] },
    ...(compress ? [{ tag: 317, type: SHORT, values: [format === 3 ? 3 : 2] }] : []),
    { tag: 322, type: LONG, values: [tile] },
    { tag: 323, type: LONG, values: [tile] },
    { tag: 324, type: LONG, values: new Array(tiles.length).fill(0) }, // TileOffsets, patched below
    { tag: 325, type: LONG, values: tiles.map((t) => t.byteLength) },
    { tag: 339, type: SHORT, values: [format] },
    { tag: 33550, type: DOUBLE, values: [transform[1], -transform[5], 0] },
    { tag: 33922, type: DOUBLE, values: [0, 0, 0, transform[0], transform[3], 0] },
    { tag: 34735, type: SHORT, values: [1, 1, 0, geoKeys.length, ...geoKeys.flatMap(([k, v]) => [k, 0, 1, v])] },
    ...(noData === null || noData === undefined ? [] : [{ tag: 42113, type: ASCII, values: `${Number.isNaN(noData) ? 'nan' : String(noData)}\0` }]),
  ];

  // Layout: header, IFD, out-of-line tag values, tiles.
  const ifdOffset = 8;
  const ifdSize = 2 + tags.length * 12 + 4;
  let cursor = ifdOffset + ifdSize;
  const extOffsets = tags.map((t) => {
    const size = TYPE_SIZE[t.type] * t.values.length;
    if (size <= 4) return -1;
    const at = cursor;
    cursor += size + (size % 2); // word-align
    return at;
  });
  const tileOffsets: number[] = [];
  for (const t of tiles) {
    tileOffsets.push(cursor);
    cursor += t.byteLength;
  }
  (tags.find((t) => t.tag === 324)!.values as number[]).splice(0, tileOffsets.length, ...tileOffsets);

  const out = new Uint8Array(cursor);
  const view = new DataView(out.buffer);
  out[0] = 0x49;
  out[1] = 0x49; // "II": little-endian
  view.setUint16(2, 42, true);
  view.setUint32(4, ifdOffset, true);
  view.setUint16(ifdOffset, tags.length, true);
  const writeValues = (at: number, t: Tag) => {
    if (t.type === ASCII) {
      for (let i = 0; i < (t.values as string).length; i++) out[at + i] = (t.values as string).charCodeAt(i);
      return;
    }
    (t.values as number[]).forEach((v, i) => {
      if (t.type === SHORT) view.setUint16(at + 2 * i, v, true);
      else if (t.type === LONG) view.setUint32(at + 4 * i, v, true);
      else view.setFloat64(at + 8 * i, v, true);
    });
  };
  tags.forEach((t, i) => {
    const e = ifdOffset + 2 + i * 12;
    view.setUint16(e, t.tag, true);
    view.setUint16(e + 2, t.type, true);
    view.setUint32(e + 4, t.values.length, true);
    if (extOffsets[i] < 0) writeValues(e + 8, t);
    else {
      view.setUint32(e + 8, extOffsets[i], true);
      writeValues(extOffsets[i], t);
    }
  });
  view.setUint32(ifdOffset + 2 + tags.length * 12, 0, true); // no next IFD
  tiles.forEach((t, i) => out.set(t, tileOffsets[i]));
  return out;
}

/** Writes a grid to `file` as GeoTIFF. */
export async function writeGeoTiff(file: string, grid: Grid<TypedArray>, options?: GeoTiffWriteOptions): Promise<void> {
  await writeFile(file, encodeGeoTiff(grid, options));
}
