/**
 * HAND tiles (hand-tiles.ts) computed on demand or ahead of time, kept as files in a directory, and read a
 * cell per lookup: the flood score's HAND without a per-request hydro chain.
 *
 * - {@link computeHandTile} computes one tile and writes its file (the `hand-tile` worker task runs it);
 * - {@link HandTileStore} finds a subject's tile, has it computed once when its file is missing (concurrent
 *   lookups in one tile wait for the same computation), and answers HAND and the nearest drainage from it.
 *
 * A tile's file name is a hash of everything its values depend on: the DEM file (path, size, modification
 * time), the channel threshold, the burn depth and burned watercourses, the tiling and the format version.
 * A changed DEM or input is a new name, never a stale answer; old files are left for the operator to clear.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError, invalidArgument } from '../errors.js';
import type { BBox } from '../geo/bbox.js';
import { getTransformer, LONLAT, transformBBox } from '../geo/crs.js';
import { bearingDegrees, compass8, distanceMetres } from '../geo/distance.js';
import { pixelToWorld, worldToPixel, type GeoTransform } from '../geo/geo-transform.js';
import { assertLonLat } from '../geo/window.js';
import { sharedRaster } from '../raster/raster-pool.js';
import { cellSizeMetres } from '../raster/sample.js';
import { LruCache } from '../cache/lru-cache.js';
import { DEFAULT_BURN_DEPTH_M, rasterizeLines } from './burn-streams.js';
import { DEFAULT_CHANNEL_THRESHOLD_KM2 } from './channels.js';
import { computeHand } from './hand-chain.js';
import type { NearestDrainage } from './hand-at-point.js';
import { DEFAULT_TILE_MARGIN, DEFAULT_TILE_SIZE, DRAINAGE_MAPPED, DRAINAGE_TRUNCATED, handTileLayout, handTileOf, handTileWindows, keepTileCore, openHandTile, writeHandTile, type HandTileFile, type HandTileHeader, type HandTileLayout } from './hand-tiles.js';
import { projectLineSet, type LineSet } from './line-set.js';

/** Format version, part of every tile's key. */
const TILE_VERSION = 1;

/** Input of {@link computeHandTile} (and of the `hand-tile` worker task). */
export interface HandTileInput {
  dem: string;
  tile: number;
  /** Where to write the tile. */
  file: string;
  key: string;
  thresholdKm2: number;
  tileSize: number;
  margin: number;
  /** Mapped watercourses near the tile (lon/lat) to burn in, or null. */
  watercourses: LineSet | null;
  watercourseSources: string[];
  burnDepth: number;
}

/** Output of {@link computeHandTile}. */
export interface HandTileResult {
  header: HandTileHeader;
  /** Milliseconds to read the DEM and to compute. */
  readMs: number;
  computeMs: number;
}

/** Computes tile `input.tile` of the DEM and writes it to `input.file` (see hand-tiles.ts). */
export async function computeHandTile(input: HandTileInput): Promise<HandTileResult> {
  const raster = await sharedRaster(input.dem);
  try {
    const { width, height, transform, crs } = raster.info;
    const layout = handTileLayout(width, height, input.tileSize, input.margin);
    const { core, computed } = handTileWindows(layout, input.tile);
    const t0 = performance.now();
    const dem = await raster.readPixels(computed);
    const readMs = performance.now() - t0;
    const burnMask = input.watercourses && input.watercourses.coords.length > 0 ? rasterizeLines(dem, projectLineSet(input.watercourses, crs)) : null;
    const chain = computeHand(dem, { thresholdKm2: input.thresholdKm2, burnMask, burnDepth: input.burnDepth });
    const data = keepTileCore(chain, dem, chain.burned ? burnMask : null, computed, core, width);
    const header: HandTileHeader = {
      key: input.key,
      core,
      demWidth: width,
      transform: [...transform],
      crs,
      cellSizeM: Math.round(((chain.cellSize.x + chain.cellSize.y) / 2) * 1000) / 1000,
      thresholdKm2: input.thresholdKm2,
      burned: chain.burned,
      burnedSources: chain.burned ? input.watercourseSources : [],
      marginM: Math.round((layout.margin * (chain.cellSize.x + chain.cellSize.y)) / 2),
    };
    writeHandTile(input.file, header, data);
    return { header, readMs, computeMs: performance.now() - t0 - readMs };
  } finally {
    await raster.close();
  }
}

/** HAND and the nearest drainage at a point, from its tile. */
export interface HandFromTile {
  hand_m: number | null;
  drainage: NearestDrainage | null;
  cell_size_m: number;
  threshold_km2: number;
  burned_watercourses: boolean;
  burned_sources: string[];
  /** Distance from the subject to the nearest edge of the area its tile was computed on, metres. */
  analysis_reach_m: number;
  /** True when the tile file was there already (not computed for this lookup). */
  cached: boolean;
}

/** Options of a {@link HandTileStore}. */
export interface HandTileStoreOptions {
  /** Directory of the tile files (created when missing). */
  dir: string;
  /** Runs a tile computation (on a worker pool); default in this thread. */
  compute?: (input: HandTileInput) => Promise<HandTileResult>;
  thresholdKm2?: number;
  burnDepth?: number;
  tileSize?: number;
  margin?: number;
}

/** Watercourse features to burn, by source, for the tiles of one lookup's state. */
export type BurnLines = { source: string; lines: LineSet; bbox: Float64Array }[];

/** No lines to burn (one object, so tile names are remembered for it too). */
export const NO_BURN: BurnLines = [];

/** Groups lon/lat lines per source with per-line boxes, so a tile takes only the lines that meet it. */
export function burnLines(sets: { source: string; lines: LineSet }[]): BurnLines {
  return sets.map(({ source, lines }) => {
    const n = lines.offsets.length - 1;
    const bbox = new Float64Array(4 * n);
    for (let l = 0; l < n; l++) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let p = lines.offsets[l]; p < lines.offsets[l + 1]; p++) {
        const x = lines.coords[2 * p], y = lines.coords[2 * p + 1];
        if (x < x0) x0 = x;
        if (y < y0) y0 = y;
        if (x > x1) x1 = x;
        if (y > y1) y1 = y;
      }
      bbox.set([x0, y0, x1, y1], 4 * l);
    }
    return { source, lines, bbox };
  });
}

/** The lines of `sets` that meet `box` (lon/lat), as one line set, and their sources. */
function linesIn(sets: BurnLines, box: BBox): { lines: LineSet | null; sources: string[] } {
  const coords: number[] = [];
  const offsets: number[] = [];
  const sources: string[] = [];
  for (const s of sets) {
    let used = false;
    const n = s.lines.offsets.length - 1;
    for (let l = 0; l < n; l++) {
      const b = s.bbox.subarray(4 * l, 4 * l + 4);
      if (b[0] > box[2] || b[2] < box[0] || b[1] > box[3] || b[3] < box[1]) continue;
      used = true;
      offsets.push(coords.length / 2);
      for (let p = s.lines.offsets[l]; p < s.lines.offsets[l + 1]; p++) coords.push(s.lines.coords[2 * p], s.lines.coords[2 * p + 1]);
    }
    if (used) sources.push(s.source);
  }
  if (!offsets.length) return { lines: null, sources: [] };
  offsets.push(coords.length / 2);
  return { lines: { coords: Float64Array.from(coords), offsets: Uint32Array.from(offsets) }, sources };
}

function hashLines(lines: LineSet | null): string {
  if (!lines) return '-';
  const h = createHash('sha1');
  h.update(Buffer.from(lines.coords.buffer, lines.coords.byteOffset, lines.coords.byteLength));
  h.update(Buffer.from(lines.offsets.buffer, lines.offsets.byteOffset, lines.offsets.byteLength));
  return h.digest('hex');
}

/** HAND tiles of any number of DEMs in one directory (see the file comment). */
export class HandTileStore {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly names = new WeakMap<BurnLines, Map<string, { file: string; key: string; lines: LineSet | null; sources: string[] }>>();
  private readonly files = new LruCache<string, HandTileFile>({ maxEntries: 64, onEvict: (f) => f.close() });
  readonly thresholdKm2: number;
  readonly burnDepth: number;
  readonly tileSize: number;
  readonly margin: number;
  /** Tiles computed by this store, and tiles found already on disk. */
  computed = 0;
  found = 0;

  constructor(private readonly options: HandTileStoreOptions) {
    this.thresholdKm2 = options.thresholdKm2 ?? DEFAULT_CHANNEL_THRESHOLD_KM2;
    this.burnDepth = options.burnDepth ?? DEFAULT_BURN_DEPTH_M;
    this.tileSize = options.tileSize ?? DEFAULT_TILE_SIZE;
    this.margin = options.margin ?? DEFAULT_TILE_MARGIN;
    mkdirSync(options.dir, { recursive: true });
  }

  /** The tiling of `dem`. */
  async layout(dem: string): Promise<HandTileLayout & { transform: GeoTransform; crs: string }> {
    const r = await sharedRaster(dem);
    const { width, height, transform, crs } = r.info;
    return { ...handTileLayout(width, height, this.tileSize, this.margin), transform, crs };
  }

  /**
   * The file name of tile `tile` of `dem` with the lines of `burn` that meet it (and those lines): worked out
   * once per DEM version, tile and burn set, since picking and hashing the lines is the costly part of a
   * lookup that finds its tile on disk.
   */
  private async named(dem: string, stamp: string, tile: number, burn: BurnLines): Promise<{ file: string; key: string; lines: LineSet | null; sources: string[] }> {
    let byTile = this.names.get(burn);
    if (!byTile) this.names.set(burn, (byTile = new Map()));
    const id = `${dem}|${stamp}|${tile}`;
    let n = byTile.get(id);
    if (!n) {
      const layout = await this.layout(dem);
      const { computed } = handTileWindows(layout, tile);
      const [x0, y0] = pixelToWorld(layout.transform, computed[0], computed[3]);
      const [x1, y1] = pixelToWorld(layout.transform, computed[2], computed[1]);
      const lonLatBox = layout.crs === LONLAT ? ([x0, y0, x1, y1] as BBox) : transformBBox([x0, y0, x1, y1], layout.crs, LONLAT);
      const { lines, sources } = linesIn(burn, lonLatBox);
      const key = [dem, stamp, this.thresholdKm2, this.burnDepth, this.tileSize, this.margin, tile, hashLines(lines), TILE_VERSION].join('|');
      n = { file: join(this.options.dir, `${createHash('sha1').update(key).digest('hex')}.hand`), key, lines, sources };
      byTile.set(id, n);
    }
    return n;
  }

  /** Makes sure tile `tile` of `dem` is on disk (computing it once); returns its file and whether it was there. */
  async ensure(dem: string, tile: number, burn: BurnLines = NO_BURN): Promise<{ file: string; cached: boolean }> {
    let stamp: string;
    try {
      const st = statSync(dem);
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      throw new EngineError('NOT_FOUND', `${dem}: DEM file not found`, { file: dem });
    }
    const { file, key, lines, sources } = await this.named(dem, stamp, tile, burn);
    if (existsSync(file)) {
      this.found++;
      return { file, cached: true };
    }
    let job = this.inFlight.get(file);
    if (!job) {
      const input: HandTileInput = { dem, tile, file, key, thresholdKm2: this.thresholdKm2, tileSize: this.tileSize, margin: this.margin, watercourses: lines, watercourseSources: sources, burnDepth: this.burnDepth };
      job = (this.options.compute ?? computeHandTile)(input).then(() => {
        this.computed++;
      }).finally(() => this.inFlight.delete(file));
      this.inFlight.set(file, job);
    }
    await job;
    return { file, cached: false };
  }

  /** Every tile of `dem`, computed in turn (for warming ahead of traffic); `progress` after each. */
  async precompute(dem: string, burn: BurnLines = NO_BURN, progress?: (done: number, total: number) => void): Promise<void> {
    const layout = await this.layout(dem);
    const total = layout.cols * layout.rows;
    for (let t = 0; t < total; t++) {
      await this.ensure(dem, t, burn);
      progress?.(t + 1, total);
    }
  }

  /** HAND and the nearest drainage at (lon, lat) from `dem`'s tile; null when the point is off the DEM. */
  async at(dem: string, lon: number, lat: number, burn: BurnLines = NO_BURN): Promise<HandFromTile | null> {
    assertLonLat(lon, lat);
    if (typeof dem !== 'string' || dem === '') throw invalidArgument('dem', 'dem must be the path of a GeoTIFF');
    const layout = await this.layout(dem);
    const [px, py] = layout.crs === LONLAT ? [lon, lat] : getTransformer(LONLAT, layout.crs).forward(lon, lat);
    const [fc, fr] = worldToPixel(layout.transform , px, py);
    const col = Math.floor(fc);
    const row = Math.floor(fr);
    if (col < 0 || row < 0 || col >= layout.width || row >= layout.height) return null;
    const tile = handTileOf(layout, col, row);
    let { file, cached } = await this.ensure(dem, tile, burn);
    let f = this.files.get(file);
    if (!f) {
      try {
        f = openHandTile(file);
      } catch {
        // A damaged file (cut short on disk, say) is computed again, once.
        rmSync(file, { force: true });
        ({ file, cached } = await this.ensure(dem, tile, burn));
        f = openHandTile(file);
      }
      this.files.set(file, f);
    }
    const v = f.cell(col, row);
    const h = f.header;
    const { computed } = handTileWindows(layout, handTileOf(layout, col, row));
    const cell = cellSizeMetres({ crs: layout.crs, transform: layout.transform }, lat);
    const reach = Math.min(fc - computed[0], computed[2] - fc, fr - computed[1], computed[3] - fr) * cell;
    let drainage: NearestDrainage | null = null;
    if (v.drainage >= 0) {
      const dc = v.drainage % h.demWidth;
      const dr = (v.drainage - dc) / h.demWidth;
      const [wx, wy] = pixelToWorld(layout.transform , dc + 0.5, dr + 0.5);
      const [dlon, dlat] = layout.crs === LONLAT ? [wx, wy] : getTransformer(layout.crs, LONLAT).forward(wx, wy);
      const bearing = bearingDegrees(lon, lat, dlon, dlat);
      drainage = {
        lon: dlon,
        lat: dlat,
        elevation_m: round(v.drainageElevation, 3),
        distance_m: round(distanceMetres(lon, lat, dlon, dlat), 1),
        bearing_deg: round(bearing, 1),
        compass: compass8(bearing),
        contributing_area_km2: round(v.drainageAreaKm2, 4),
        channel_source: v.flags & DRAINAGE_MAPPED ? 'mapped' : 'modelled',
        catchment_truncated: (v.flags & DRAINAGE_TRUNCATED) !== 0,
      };
    }
    return {
      hand_m: Number.isNaN(v.hand) ? null : round(v.hand, 3),
      drainage,
      cell_size_m: h.cellSizeM,
      threshold_km2: h.thresholdKm2,
      burned_watercourses: h.burned,
      burned_sources: h.burnedSources,
      analysis_reach_m: Math.round(reach),
      cached,
    };
  }

  /**
   * HAND (metres) at many lon/lat points of `dem`, NaN off the DEM or where HAND is undefined: the cells of
   * {@link at} without the drainage details (a map tile's lattice reads thousands).
   */
  async values(dem: string, lons: ArrayLike<number>, lats: ArrayLike<number>, burn: BurnLines = NO_BURN): Promise<Float32Array> {
    const layout = await this.layout(dem);
    const out = new Float32Array(lons.length).fill(NaN);
    const tr = layout.crs === LONLAT ? null : getTransformer(LONLAT, layout.crs);
    for (let i = 0; i < lons.length; i++) {
      const [px, py] = tr ? tr.forward(lons[i], lats[i]) : [lons[i], lats[i]];
      const [fc, fr] = worldToPixel(layout.transform, px, py);
      const col = Math.floor(fc), row = Math.floor(fr);
      if (col < 0 || row < 0 || col >= layout.width || row >= layout.height) continue;
      const { file } = await this.ensure(dem, handTileOf(layout, col, row), burn);
      let f = this.files.get(file);
      if (!f) this.files.set(file, (f = openHandTile(file)));
      out[i] = f.cell(col, row).hand;
    }
    return out;
  }

  /** Closes the open tile files. */
  close(): void {
    for (const f of this.files.values()) f.close();
    this.files.clear();
  }
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
