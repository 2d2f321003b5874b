/**
 * GeoTIFF and Cloud-Optimised GeoTIFF window reads with geotiff.js, at the raster's native resolution.
 *
 * `openRaster` validates everything it can before any pixel is read: TIFF structure, georeferencing, the CRS
 * from the GeoKeys, and that every strip or tile lies inside the file (a truncated download is caught here,
 * not halfway through a read). Reads return float grids with no-data as NaN, or the native typed array.
 * What cannot be checked without decoding every tile (and so reading the whole file, which would defeat window
 * reads of a large COG) is a tile whose compressed bytes are garbled: the read that touches it fails as a
 * whole with `INVALID_DATA` naming the file ("cannot decode pixels"), never returning a partial grid.
 */
import { stat } from 'node:fs/promises';
import { fromFile, getDecoder, type GeoTIFF, type GeoTIFFImage } from 'geotiff';
import { EngineError, invalidArgument, invalidData } from '../errors.js';
import type { BBox } from '../geo/bbox.js';
import { bboxIntersection } from '../geo/bbox.js';
import { requireCrs, transformBBox } from '../geo/crs.js';
import type { GeoTransform } from '../geo/geo-transform.js';
import { worldToPixel } from '../geo/geo-transform.js';
import type { GridSpec, Window } from '../geo/window.js';
import type { Grid, TypedArray } from './grid.js';
import { registerNativeDeflate } from './native-deflate.js';
import { resampleGrid, type ResampleMethod } from './resample.js';
import { LruCache } from '../cache/lru-cache.js';
import { blockShare } from './shared-blocks.js';

registerNativeDeflate();

/** What `openRaster` learned about a raster before reading any pixels. */
export interface RasterInfo {
  file: string;
  width: number;
  height: number;
  /** Samples per pixel. */
  bands: number;
  /** `EPSG:<code>`, from the GeoKeys (or the caller's declared CRS when the file has none). */
  crs: string;
  /** Pixel-to-world transform of the full-resolution image (PixelIsPoint rasters shifted half a cell, as GDAL does). */
  transform: GeoTransform;
  /** The GDAL_NODATA value, or null when the file declares none. */
  noData: number | null;
  /** TIFF SampleFormat: 1 unsigned int, 2 signed int, 3 IEEE float. */
  sampleFormat: number;
  bitsPerSample: number;
  /** TIFF Compression code (1 none, 5 LZW, 8 Deflate, ...). */
  compression: number;
  tiled: boolean;
  /** Outer extent in `crs`. */
  bbox: BBox;
  /** Images in the file (overviews of a COG count); reads use the first, full-resolution one. */
  imageCount: number;
}

/** A pixel window `[col0, row0, col1, row1)`; it may extend past the raster (those cells read as no-data). */
export type PixelWindow = [col0: number, row0: number, col1: number, row1: number];

/** Options for {@link openRaster}. */
export interface OpenRasterOptions {
  /** The CRS the catalogue declares. Used when the file has no CRS; a file whose CRS differs is rejected. */
  crs?: string;
  signal?: AbortSignal;
  /**
   * Decoded blocks (tiles or strips) kept for this file, least recently used dropped first; default 64 (16 MB
   * of 256 x 256 Float32 tiles). Decoding DEFLATE with predictor 3 in JavaScript is the slow part of a window
   * read (about 100 ms for a 900 x 900 window), so repeated reads of one area mostly skip it. 0 turns it off.
   * Every file's blocks also count against one bound per thread, {@link BLOCK_CACHE_BYTES}.
   */
  blockCache?: number;
}

/**
 * Decoded bytes kept per thread across every open raster: a national dataset opens hundreds of DEM and
 * land-cover files, and 64 blocks per file would hold gigabytes. Least recently used blocks of any file go
 * first.
 */
export const BLOCK_CACHE_BYTES = 64 * 1024 * 1024;

/** The blocks of every file of this thread, by file and block, bounded by {@link BLOCK_CACHE_BYTES}. */
let threadBlocks = new LruCache<string, unknown>({ maxSize: BLOCK_CACHE_BYTES, sizeOf: (v) => (v as { bytes: number }).bytes });

/**
 * Bounds this thread's decoded blocks at `bytes` instead of {@link BLOCK_CACHE_BYTES} (the blocks held are
 * dropped): an engine thread takes its share of the bound, so N threads hold no more than one did.
 */
export function setBlockCacheBytes(bytes: number): void {
  threadBlocks.clear();
  threadBlocks = new LruCache<string, unknown>({ maxSize: bytes, sizeOf: (v) => (v as { bytes: number }).bytes });
}

/** Decoded bytes this thread's raster blocks hold now. */
export function blockCacheBytes(): number {
  return threadBlocks.bytes;
}
let nextFileKey = 0;

/**
 * A bounded least-recently-used store in the shape geotiff.js uses for its block cache (`image.tiles[index]`),
 * so its reads cache decoded blocks without growing without limit on a large COG or across many files: at
 * most `capacity` blocks of this file, each `blockBytes`, and the thread's bound over all files.
 */
function blockLru(capacity: number, blockBytes: number): unknown {
  const file = `${nextFileKey++}:`;
  const lru = new LruCache<string, unknown>({ maxEntries: capacity, onEvict: (_v, key) => threadBlocks.delete(file + key) });
  const get = (key: string) => (lru.get(key) === undefined ? undefined : (threadBlocks.get(file + key) as { value: unknown } | undefined)?.value);
  return new Proxy({}, {
    get: (_t, key) => (typeof key === 'string' ? get(key) : undefined),
    set: (_t, key, value) => {
      if (typeof key === 'string') {
        lru.set(key, true);
        threadBlocks.set(file + key, { value, bytes: blockBytes });
      }
      return true;
    },
    has: (_t, key) => typeof key === 'string' && get(key) !== undefined,
  });
}

const GEO_KEY_USER_DEFINED = 32767;

function crsFromGeoKeys(file: string, keys: Record<string, unknown> | null): string | null {
  if (!keys) return null;
  const model = keys.GTModelTypeGeoKey;
  const projected = keys.ProjectedCSTypeGeoKey as number | undefined;
  const geographic = keys.GeographicTypeGeoKey as number | undefined;
  if (model === 1 || (projected !== undefined && model !== 2)) {
    if (projected === undefined || projected === GEO_KEY_USER_DEFINED) {
      const citation = keys.GTCitationGeoKey ?? keys.PCSCitationGeoKey ?? 'none';
      throw new EngineError('UNSUPPORTED', `${file}: user-defined projected CRS (citation ${JSON.stringify(citation)}); reproject it to an EPSG CRS such as GDA2020 / MGA`, { file, crs: 'user-defined' });
    }
    return requireCrs(projected, file);
  }
  if (model === 2 || geographic !== undefined) {
    if (geographic === undefined || geographic === GEO_KEY_USER_DEFINED) {
      // A user-defined geographic CRS on the WGS84/GRS80 ellipsoid is lon/lat for our purposes.
      const a = Number(keys.GeogSemiMajorAxisGeoKey);
      const invf = Number(keys.GeogInvFlatteningGeoKey);
      if (a === 6378137 && Math.abs(invf - 298.257) < 0.001) return 'EPSG:4326';
      throw new EngineError('UNSUPPORTED', `${file}: user-defined geographic CRS on an unknown ellipsoid (a=${a}, 1/f=${invf})`, { file, crs: 'user-defined' });
    }
    return requireCrs(geographic, file);
  }
  return null;
}

function transformFromTags(file: string, image: GeoTIFFImage, keys: Record<string, unknown> | null): GeoTransform | null {
  const fd = image.getFileDirectory();
  const mt = fd.getValue('ModelTransformation') as number[] | undefined;
  let t: [number, number, number, number, number, number];
  if (mt && mt.length >= 16) {
    if (mt[1] !== 0 || mt[4] !== 0) {
      throw new EngineError('UNSUPPORTED', `${file}: rotated or sheared rasters are not supported (ModelTransformation has rotation terms)`, { file });
    }
    t = [mt[3], mt[0], mt[1], mt[7], mt[4], mt[5]];
  } else {
    const scale = fd.getValue('ModelPixelScale') as number[] | undefined;
    const tie = fd.getValue('ModelTiepoint') as number[] | undefined;
    if (!scale || !tie || tie.length < 6) return null;
    // Tiepoint (I, J) -> (X, Y): origin = X - I * sx, Y + J * sy.
    t = [tie[3] - tie[0] * scale[0], scale[0], 0, tie[4] + tie[1] * scale[1], 0, -scale[1]];
  }
  if (keys?.GTRasterTypeGeoKey === 2) {
    // PixelIsPoint: the tiepoint is a cell centre. GDAL moves the origin half a cell up-left by default.
    t[0] -= t[1] / 2;
    t[3] -= t[5] / 2;
  }
  if (!(t[1] > 0) || !(t[5] < 0) || !t.every(Number.isFinite)) {
    throw invalidData(file, `unsupported pixel layout: cell size ${t[1]} x ${t[5]} (north-up rasters need positive width and negative height)`);
  }
  return t;
}

async function checkNotTruncated(file: string, image: GeoTIFFImage, fileSize: number): Promise<void> {
  const fd = image.getFileDirectory();
  const tiled = fd.hasTag('TileOffsets');
  const offsets = (await fd.loadValue(tiled ? 'TileOffsets' : 'StripOffsets')) as ArrayLike<number> | undefined;
  const counts = (await fd.loadValue(tiled ? 'TileByteCounts' : 'StripByteCounts')) as ArrayLike<number> | undefined;
  if (!offsets || !counts || offsets.length !== counts.length) {
    throw invalidData(file, `missing or inconsistent ${tiled ? 'tile' : 'strip'} offsets`);
  }
  for (let i = 0; i < offsets.length; i++) {
    const end = Number(offsets[i]) + Number(counts[i]);
    if (end > fileSize) {
      throw invalidData(file, `file is truncated: ${tiled ? 'tile' : 'strip'} ${i} ends at byte ${end} but the file has ${fileSize} bytes`, { block: i, fileSize });
    }
  }
}

/** The typed array for a TIFF sample format and width, or null for one the fast path does not handle. */
function arrayTypeFor(format: number, bits: number): { new (n: number): TypedArray; new (b: ArrayBuffer): TypedArray } | null {
  const table: Record<string, unknown> = { '1:8': Uint8Array, '1:16': Uint16Array, '1:32': Uint32Array, '2:8': Int8Array, '2:16': Int16Array, '2:32': Int32Array, '3:32': Float32Array, '3:64': Float64Array };
  return (table[`${format}:${bits}`] as { new (n: number): TypedArray; new (b: ArrayBuffer): TypedArray }) ?? null;
}

function toFloat32(values: TypedArray): Float32Array {
  return values instanceof Float32Array ? values : Float32Array.from(values as ArrayLike<number>);
}

/** An open raster; read windows from it, then `close()` it. */
export class RasterSource {
  private constructor(
    readonly info: RasterInfo,
    private readonly tiff: GeoTIFF,
    private readonly image: GeoTIFFImage,
    /** Names this file's blocks among every thread's (its path, size and modification time). */
    private readonly blockKey: string,
  ) {}

  /** True for a raster owned by the shared pool (see raster-pool.ts): its `close()` is a no-op. */
  pinned = false;

  /** Opens and validates a GeoTIFF. Throws `NOT_FOUND`, `INVALID_DATA` or `UNSUPPORTED` naming the file. */
  static async open(file: string, options: OpenRasterOptions = {}): Promise<RasterSource> {
    let size: number;
    let mtime: number;
    try {
      const st = await stat(file);
      size = st.size;
      mtime = st.mtimeMs;
    } catch {
      throw new EngineError('NOT_FOUND', `${file}: raster file not found`, { file });
    }
    let tiff: GeoTIFF;
    let image: GeoTIFFImage;
    let imageCount: number;
    try {
      tiff = await fromFile(file, options.signal);
      imageCount = await tiff.getImageCount();
      image = await tiff.getImage(0);
      const blocks = options.blockCache ?? 64;
      if (blocks > 0) {
        const tiled = image.isTiled;
        const w = tiled ? image.getTileWidth() : image.getWidth();
        const h = tiled ? image.getTileHeight() : Math.min(image.getHeight(), image.getBlockHeight(0));
        const bytes = Math.max(1, w * h * image.getSamplesPerPixel() * Math.ceil(image.getBitsPerSample(0) / 8));
        (image as unknown as { tiles: unknown }).tiles = blockLru(blocks, bytes);
      }
    } catch (err) {
      throw invalidData(file, `not a readable GeoTIFF (${(err as Error).message})`, {}, err);
    }
    try {
      const keys = image.getGeoKeys() as Record<string, unknown> | null;
      const transform = transformFromTags(file, image, keys);
      if (!transform) throw invalidData(file, 'no georeferencing: the file has neither ModelTransformation nor ModelPixelScale + ModelTiepoint');
      let crs = crsFromGeoKeys(file, keys);
      if (options.crs) {
        const declared = requireCrs(options.crs, file);
        if (crs && crs !== declared) {
          throw invalidData(file, `inconsistent CRS: the file's GeoKeys say ${crs} but the catalogue declares ${declared}`, { crs, declared });
        }
        crs ??= declared;
      }
      if (!crs) throw new EngineError('UNSUPPORTED', `${file}: the file declares no CRS (no GeoKeys); declare one in the catalogue`, { file });
      await checkNotTruncated(file, image, size);
      const width = image.getWidth();
      const height = image.getHeight();
      const noData = image.getGDALNoData();
      const info: RasterInfo = {
        file,
        width,
        height,
        bands: image.getSamplesPerPixel(),
        crs,
        transform,
        noData: noData === null || noData === undefined ? null : Number(noData),
        sampleFormat: image.getSampleFormat(0) ?? 1,
        bitsPerSample: image.getBitsPerSample(0),
        compression: Number(image.getFileDirectory().getValue('Compression') ?? 1),
        tiled: image.getFileDirectory().hasTag('TileOffsets'),
        bbox: [transform[0], transform[3] + height * transform[5], transform[0] + width * transform[1], transform[3]],
        imageCount,
      };
      return new RasterSource(info, tiff, image, `${file}|${size}|${mtime}|0`);
    } catch (err) {
      await Promise.resolve(tiff.close()).catch(() => {});
      if (err instanceof EngineError) throw err;
      throw invalidData(file, `unreadable GeoTIFF header (${(err as Error).message})`, {}, err);
    }
  }

  private decoder?: Promise<unknown>;

  /**
   * The fast path for single-band, little-endian files: decoded blocks (from the bounded block cache) copied
   * into the window a row at a time with TypedArray.set, instead of geotiff.js's per-sample DataView reads.
   * Returns null when the file does not qualify, so the caller falls back to readRasters.
   */
  private async readBlocks(inner: PixelWindow, signal?: AbortSignal): Promise<TypedArray | null> {
    const im = this.image as unknown as {
      littleEndian: boolean;
      planarConfiguration: number;
      getTileOrStrip(x: number, y: number, sample: number, decoder: unknown, signal?: AbortSignal): Promise<{ data: ArrayBuffer }>;
    };
    if (this.info.bands !== 1 || !im.littleEndian || ![8, 16, 32, 64].includes(this.info.bitsPerSample)) return null;
    const Ctor = arrayTypeFor(this.info.sampleFormat, this.info.bitsPerSample);
    if (!Ctor) return null;
    const fd = this.image.getFileDirectory();
    if (!this.decoder) {
      const tiled = this.info.tiled;
      const params = {
        tileWidth: tiled ? await fd.loadValue('TileWidth') : this.info.width,
        tileHeight: tiled ? await fd.loadValue('TileLength') : (await fd.loadValue('RowsPerStrip')) || this.info.height,
        planarConfiguration: (await fd.loadValue('PlanarConfiguration')) || 1,
        bitsPerSample: await fd.loadValue('BitsPerSample'),
        predictor: (await fd.loadValue('Predictor')) || 1,
      };
      this.decoder = getDecoder(this.info.compression, params as never);
    }
    const decoder = await this.decoder;
    const tw = this.image.getTileWidth();
    const th = this.image.getTileHeight();
    const [c0, r0, c1, r1] = inner;
    const w = c1 - c0;
    const out = new Ctor(w * (r1 - r0));
    const jobs: Promise<void>[] = [];
    // Blocks another thread decoded are read from their shared bytes (no file read, no decode); those decoded
    // here are offered to the others.
    const share = blockShare();
    const block = (bx: number, by: number): Promise<{ data: ArrayBufferLike }> => {
      if (!share) return im.getTileOrStrip(bx, by, 0, decoder, signal);
      const key = `${this.blockKey}:${bx},${by}`;
      const hit = share.get(key);
      if (hit) return Promise.resolve({ data: hit });
      return im.getTileOrStrip(bx, by, 0, decoder, signal).then((r) => {
        share.put(key, r.data);
        return r;
      });
    };
    for (let by = Math.floor(r0 / th); by <= Math.floor((r1 - 1) / th); by++) {
      for (let bx = Math.floor(c0 / tw); bx <= Math.floor((c1 - 1) / tw); bx++) {
        jobs.push(block(bx, by).then(({ data }) => {
          const block = new Ctor(data as ArrayBuffer);
          const ya = Math.max(r0, by * th), yb = Math.min(r1, (by + 1) * th);
          const xa = Math.max(c0, bx * tw), xb = Math.min(c1, (bx + 1) * tw);
          // Rows copied as bytes through one Buffer view of each side (a native copy that allocates nothing):
          // a subarray per row, a view object each, was most of a DEM read's garbage.
          const bpe = block.BYTES_PER_ELEMENT;
          const from = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
          const to = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
          const rowBytes = (xb - xa) * bpe;
          for (let y = ya; y < yb; y++) {
            const src = ((y - by * th) * tw + (xa - bx * tw)) * bpe;
            from.copy(to, ((y - r0) * w + (xa - c0)) * bpe, src, src + rowBytes);
          }
        }));
      }
    }
    await Promise.all(jobs);
    return out;
  }

  private async readClamped(win: PixelWindow, band: number, signal?: AbortSignal): Promise<{ values: TypedArray; inner: PixelWindow } | null> {
    const { width, height, bands, file } = this.info;
    if (!Number.isInteger(band) || band < 0 || band >= bands) throw invalidArgument('band', `${file}: band ${band} out of range 0..${bands - 1}`);
    const [c0, r0, c1, r1] = win;
    if (!(c1 > c0 && r1 > r0)) throw invalidArgument('window', `empty pixel window ${win.join(',')}`);
    const inner: PixelWindow = [Math.max(0, c0), Math.max(0, r0), Math.min(width, c1), Math.min(height, r1)];
    if (inner[2] <= inner[0] || inner[3] <= inner[1]) return null;
    try {
      const fast = band === 0 ? await this.readBlocks(inner, signal) : null;
      if (fast) return { values: fast, inner };
      const rasters = await this.image.readRasters({ window: inner, samples: [band], interleave: false, signal });
      return { values: (rasters as unknown as TypedArray[])[0], inner };
    } catch (err) {
      if (signal?.aborted) throw new EngineError('ABORTED', `${file}: read aborted`, { file });
      const msg = (err as Error).message ?? String(err);
      if (/compression|decoder/i.test(msg)) throw new EngineError('UNSUPPORTED', `${file}: ${msg}`, { file });
      throw invalidData(file, `cannot decode pixels (${msg})`, {}, err);
    }
  }

  private windowTransform(win: PixelWindow): GeoTransform {
    const t = this.info.transform;
    return [t[0] + win[0] * t[1], t[1], 0, t[3] + win[1] * t[5], 0, t[5]];
  }

  /**
   * Reads band `band` (default 0) over a pixel window as Float32 with no-data as NaN. Parts of the window
   * outside the raster are NaN too.
   */
  async readPixels(win: PixelWindow, options: { band?: number; signal?: AbortSignal } = {}): Promise<Grid<Float32Array>> {
    const w = win[2] - win[0];
    const h = win[3] - win[1];
    const res = await this.readClamped(win, options.band ?? 0, options.signal);
    const whole = res !== null && res.inner.every((v, i) => v === win[i]);
    // A window wholly inside the raster is the freshly read array itself (owned, never the block cache):
    // no second allocation and copy, which dominated warm reads of large DEM windows.
    const out = whole ? toFloat32(res.values) : new Float32Array(w * h).fill(NaN);
    if (res && whole) {
      const nd = this.info.noData;
      if (nd !== null && !Number.isNaN(nd)) {
        const f = Math.fround(nd);
        for (let i = 0; i < out.length; i++) if (out[i] === nd || out[i] === f) out[i] = NaN;
      }
    } else if (res) {
      const { values, inner } = res;
      const iw = inner[2] - inner[0];
      const ih = inner[3] - inner[1];
      const src = toFloat32(values);
      const nd = this.info.noData;
      const ox = inner[0] - win[0];
      const oy = inner[1] - win[1];
      for (let r = 0; r < ih; r++) {
        const dst = (oy + r) * w + ox;
        out.set(src.subarray(r * iw, r * iw + iw), dst);
        if (nd !== null) {
          for (let i = dst, e = dst + iw; i < e; i++) if (out[i] === nd) out[i] = NaN;
        }
      }
      if (nd !== null && !Number.isNaN(nd) && Math.fround(nd) !== nd) {
        // A no-data value that Float32 cannot represent exactly (e.g. -3.4028234663852886e+38 written as text)
        // compares against its rounded form.
        const f = Math.fround(nd);
        for (let i = 0; i < out.length; i++) if (out[i] === f) out[i] = NaN;
      }
    }
    return { width: w, height: h, data: out, noData: NaN, transform: this.windowTransform(win), crs: this.info.crs };
  }

  /**
   * Reads a pixel window in the raster's own sample type (for class rasters such as land cover). Cells outside
   * the raster get the raster's no-data value, or `fill` (default 0) when it declares none.
   */
  async readPixelsNative(win: PixelWindow, options: { band?: number; fill?: number; signal?: AbortSignal } = {}): Promise<Grid<TypedArray>> {
    const w = win[2] - win[0];
    const h = win[3] - win[1];
    const res = await this.readClamped(win, options.band ?? 0, options.signal);
    const noData = this.info.noData ?? options.fill ?? 0;
    const Ctor = (res?.values.constructor ?? Float32Array) as { new (n: number): TypedArray };
    const out = new Ctor(w * h);
    if (noData !== 0) out.fill(noData);
    if (res) {
      const { values, inner } = res;
      const iw = inner[2] - inner[0];
      for (let r = 0, ih = inner[3] - inner[1]; r < ih; r++) {
        out.set(values.subarray(r * iw, r * iw + iw) as never, (inner[1] - win[1] + r) * w + (inner[0] - win[0]));
      }
    }
    return { width: w, height: h, data: out, noData, transform: this.windowTransform(win), crs: this.info.crs };
  }

  /** The pixel window of native cells that covers `bbox` (in the raster's CRS). */
  pixelWindowFor(bbox: BBox): PixelWindow {
    const t = this.info.transform;
    const [ca, ra] = worldToPixel(t, bbox[0], bbox[3]);
    const [cb, rb] = worldToPixel(t, bbox[2], bbox[1]);
    const eps = 1e-9;
    return [Math.floor(ca + eps), Math.floor(ra + eps), Math.ceil(cb - eps), Math.ceil(rb - eps)];
  }

  /**
   * Reads the native cells covering `bbox`, given in `crs` (default: the raster's CRS; another CRS is
   * transformed with densified edges), plus `margin` cells on every side (1 for bilinear sampling right up to
   * the box's edge). Returns null when the box misses the raster entirely.
   */
  async readBBox(bbox: BBox, options: { crs?: string; band?: number; margin?: number; signal?: AbortSignal } = {}): Promise<Grid<Float32Array> | null> {
    const box = options.crs && options.crs !== this.info.crs ? transformBBox(bbox, options.crs, this.info.crs) : bbox;
    if (!bboxIntersection(box, this.info.bbox)) return null;
    const pw = this.pixelWindowFor(box), m = options.margin ?? 0;
    return this.readPixels(m ? [pw[0] - m, pw[1] - m, pw[2] + m, pw[3] + m] : pw, options);
  }

  /** Reads the native cells covering an analysis window (null when the window misses the raster). */
  readWindow(window: Window, options: { band?: number; signal?: AbortSignal } = {}): Promise<Grid<Float32Array> | null> {
    return this.readBBox(window.bbox, { ...options, crs: window.crs });
  }

  /**
   * Reads the cells needed for `target` and resamples them onto it (for layers that must be aligned with
   * another grid). Cells of the target outside the raster are NaN.
   */
  async readOnto(target: GridSpec, options: { method?: ResampleMethod; band?: number; signal?: AbortSignal } = {}): Promise<Grid<Float32Array>> {
    const [x0, dx, , y0, , dy] = target.transform;
    const tb: BBox = [x0, y0 + target.height * dy, x0 + target.width * dx, y0];
    const box = target.crs === this.info.crs ? tb : transformBBox(tb, target.crs, this.info.crs);
    if (!bboxIntersection(box, this.info.bbox)) {
      return { ...target, data: new Float32Array(target.width * target.height).fill(NaN), noData: NaN };
    }
    const pw = this.pixelWindowFor(box);
    // One cell of margin so bilinear sampling at the edge has neighbours.
    const src = await this.readPixels([pw[0] - 1, pw[1] - 1, pw[2] + 1, pw[3] + 1], options);
    return resampleGrid(src, target, options.method ?? 'bilinear');
  }

  /** Releases the file handle (a no-op for a pooled raster: the pool closes it). */
  async close(): Promise<void> {
    if (this.pinned) return;
    await this.tiff.close();
  }

  /** Closes the file even when pooled (the pool's eviction). */
  async release(): Promise<void> {
    await this.tiff.close();
  }
}

/** Opens and validates a GeoTIFF; shorthand for {@link RasterSource.open}. */
export function openRaster(file: string, options?: OpenRasterOptions): Promise<RasterSource> {
  return RasterSource.open(file, options);
}
