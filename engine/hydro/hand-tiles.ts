/**
 * HAND as a tile product: computed once per DEM tile, kept on disk, read per lookup.
 *
 * A DEM is cut into square tiles of {@link DEFAULT_TILE_SIZE} cells. Each tile is computed on itself plus a
 * margin of {@link DEFAULT_TILE_MARGIN} cells on every side (clipped to the DEM), so that flow paths and
 * catchments that cross a tile's edge are routed as a whole-DEM run routes them; only the tile's own cells
 * (its core) are kept. A DEM no larger than one tile plus its margins is a single tile: the whole DEM in one
 * run. The test (test/engine/hydro/hand-tiles.test.ts) checks tiled HAND against a whole-DEM run.
 *
 * Per core cell a tile keeps what the flood score reads: HAND, and for the channel cell the flow reaches
 * first its DEM cell index, elevation (the filled surface; a burned cell's own elevation), contributing area,
 * whether it lies on a mapped watercourse and whether its catchment reaches the edge of the analysed area
 * (then its area is a lower bound). The file (see {@link writeHandTile}) is read a cell at a time.
 *
 * Catchments are marked as reaching the edge in one pass along the flow order (a cell's catchment reaches
 * the edge when the cell is on the edge or next to no-data, or any of its donors' does), not by walking each
 * drainage cell's catchment.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { invalidArgument, invalidData } from '../errors.js';
import type { Grid } from '../raster/grid.js';
import { D8_DX, D8_DY, D8_NODATA, d8Offsets } from './d8.js';
import type { HandChainResult } from './hand-chain.js';

/** Core tile size, cells (5.1 km of 5 m cells). */
export const DEFAULT_TILE_SIZE = 1024;
/** Margin computed around each tile's core, cells (1.9 km of 5 m cells). */
export const DEFAULT_TILE_MARGIN = 384;

/** How a DEM of `width` x `height` cells is tiled. */
export interface HandTileLayout {
  width: number;
  height: number;
  /** Core size, cells (the whole DEM's larger side when it is one tile). */
  size: number;
  margin: number;
  cols: number;
  rows: number;
}

/** The tiling of a DEM: one tile when it fits within one tile and its margins. */
export function handTileLayout(width: number, height: number, size = DEFAULT_TILE_SIZE, margin = DEFAULT_TILE_MARGIN): HandTileLayout {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) throw invalidArgument('dem', `DEM size must be whole cells, got ${width} x ${height}`);
  if (!(Number.isInteger(size) && size >= 16)) throw invalidArgument('tile_size', `tile size must be at least 16 cells, got ${size}`);
  if (!(Number.isInteger(margin) && margin >= 0)) throw invalidArgument('tile_margin', `tile margin must be a whole number of cells, got ${margin}`);
  if (width <= size + 2 * margin && height <= size + 2 * margin) return { width, height, size: Math.max(width, height), margin: 0, cols: 1, rows: 1 };
  return { width, height, size, margin, cols: Math.ceil(width / size), rows: Math.ceil(height / size) };
}

/** Pixel windows of tile `index` (row-major): its core and the computed window (core plus margin, clipped). */
export function handTileWindows(layout: HandTileLayout, index: number): { core: [number, number, number, number]; computed: [number, number, number, number] } {
  if (!(Number.isInteger(index) && index >= 0 && index < layout.cols * layout.rows)) throw invalidArgument('tile', `tile ${index} is not one of the ${layout.cols * layout.rows} tiles`);
  const col = index % layout.cols;
  const row = (index - col) / layout.cols;
  const c0 = col * layout.size;
  const r0 = row * layout.size;
  const core: [number, number, number, number] = [c0, r0, Math.min(layout.width, c0 + layout.size), Math.min(layout.height, r0 + layout.size)];
  const m = layout.margin;
  const computed: [number, number, number, number] = [Math.max(0, core[0] - m), Math.max(0, core[1] - m), Math.min(layout.width, core[2] + m), Math.min(layout.height, core[3] + m)];
  return { core, computed };
}

/** The tile holding DEM cell (col, row). */
export function handTileOf(layout: HandTileLayout, col: number, row: number): number {
  return Math.floor(row / layout.size) * layout.cols + Math.floor(col / layout.size);
}

/** Flags of a cell's drainage. */
export const DRAINAGE_MAPPED = 1;
export const DRAINAGE_TRUNCATED = 2;

/** The kept part of one computed tile, by core cell (row-major over the core). */
export interface HandTileData {
  /** The core window in DEM pixels. */
  core: [number, number, number, number];
  /** HAND, metres; NaN on no-data or where the flow leaves the analysed area before a channel. */
  hand: Float32Array;
  /** DEM cell index (row * DEM width + col) of the channel cell the flow reaches, or -1. */
  drainage: Int32Array;
  /** Elevation of that channel cell, metres. */
  drainageElevation: Float32Array;
  /** Contributing area of that channel cell, km2. */
  drainageAreaKm2: Float32Array;
  /** {@link DRAINAGE_MAPPED} | {@link DRAINAGE_TRUNCATED}. */
  drainageFlags: Uint8Array;
}

/**
 * For every cell, whether its catchment reaches the edge of the grid or no-data: true on the edge or next to
 * no-data, then carried downstream along `order` (upstream first).
 */
export function catchmentReachesEdge(directions: Grid<Uint8Array>, order: Int32Array): Uint8Array {
  const { width: w, height: h, data: dir } = directions;
  const reach = new Uint8Array(w * h);
  const off = d8Offsets(w);
  for (let i = 0; i < order.length; i++) {
    const c = order[i];
    if (!reach[c]) {
      const x = c % w;
      const y = (c - x) / w;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) reach[c] = 1;
      else {
        for (let k = 0; k < 8; k++) {
          if (dir[(y + D8_DY[k]) * w + x + D8_DX[k]] === D8_NODATA) {
            reach[c] = 1;
            break;
          }
        }
      }
    }
    const d = dir[c];
    if (reach[c] && d < 8) reach[c + off[d]] = 1;
  }
  return reach;
}

/**
 * Keeps the core of a chain computed on the window `computed` (DEM pixels) of a DEM `demWidth` cells wide:
 * see {@link HandTileData}. `dem` is the computed window's DEM (for burned channel cells' own elevation),
 * `burnMask` its burned cells or null.
 */
export function keepTileCore(chain: HandChainResult, dem: Grid<Float32Array>, burnMask: Uint8Array | null, computed: readonly number[], core: [number, number, number, number], demWidth: number): HandTileData {
  const w = chain.hand.width;
  const reach = catchmentReachesEdge(chain.directions, chain.order);
  const cellKm2 = (chain.cellSize.x * chain.cellSize.y) / 1e6;
  const cw = core[2] - core[0];
  const ch = core[3] - core[1];
  const n = cw * ch;
  const out: HandTileData = {
    core,
    hand: new Float32Array(n),
    drainage: new Int32Array(n),
    drainageElevation: new Float32Array(n),
    drainageAreaKm2: new Float32Array(n),
    drainageFlags: new Uint8Array(n),
  };
  const acc = chain.accumulation.data;
  const filled = chain.filled.data;
  for (let r = 0; r < ch; r++) {
    const wr = core[1] + r - computed[1];
    for (let c = 0; c < cw; c++) {
      const k = r * cw + c;
      const i = wr * w + (core[0] + c - computed[0]);
      out.hand[k] = chain.hand.data[i];
      const d = chain.drainage[i];
      if (d < 0) {
        out.drainage[k] = -1;
        out.drainageElevation[k] = NaN;
        out.drainageAreaKm2[k] = NaN;
        continue;
      }
      const dc = d % w;
      const dr = (d - dc) / w;
      const mapped = !!burnMask && burnMask[d] === 1;
      out.drainage[k] = (computed[1] + dr) * demWidth + computed[0] + dc;
      out.drainageElevation[k] = mapped ? Math.max(dem.data[d], filled[d]) : filled[d];
      out.drainageAreaKm2[k] = acc[d] * cellKm2;
      out.drainageFlags[k] = (mapped ? DRAINAGE_MAPPED : 0) | (reach[d] ? DRAINAGE_TRUNCATED : 0);
    }
  }
  return out;
}

const MAGIC = 'PIHAND01';

/** What a tile file says about itself (its JSON header). */
export interface HandTileHeader {
  /** The key the tile was computed under (DEM identity, threshold, burned lines, layout). */
  key: string;
  core: [number, number, number, number];
  demWidth: number;
  /** The DEM's geotransform and CRS. */
  transform: number[];
  crs: string;
  cellSizeM: number;
  thresholdKm2: number;
  burned: boolean;
  burnedSources: string[];
  /** Margin computed around the core wherever the DEM extends, metres (0 when the tile is the whole DEM). */
  marginM: number;
}

/**
 * Writes a tile: `PIHAND01`, a uint32 header length, the JSON header (padded to 4 bytes), then per core cell
 * HAND, drainage index, drainage elevation, drainage area (4 bytes each, one array after the other) and the
 * flags (1 byte). Written to a temporary name and renamed, so a reader never sees half a file.
 */
export function writeHandTile(path: string, header: HandTileHeader, data: HandTileData): void {
  let json = Buffer.from(JSON.stringify(header));
  const pad = (4 - ((12 + json.length) % 4)) % 4;
  json = Buffer.concat([json, Buffer.alloc(pad, 0x20)]);
  const head = Buffer.alloc(12);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, 8);
  const le = (a: Float32Array | Int32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, Buffer.concat([head, json, le(data.hand), le(data.drainage), le(data.drainageElevation), le(data.drainageAreaKm2), le(data.drainageFlags)]));
  renameSync(tmp, path);
}

/** A tile file opened for cell reads. */
export interface HandTileFile {
  header: HandTileHeader;
  /** The values of DEM cell (col, row), which must lie in the tile's core. */
  cell(col: number, row: number): { hand: number; drainage: number; drainageElevation: number; drainageAreaKm2: number; flags: number };
  close(): void;
}

/** Opens a tile file written by {@link writeHandTile}; INVALID_DATA when it is not one. */
export function openHandTile(path: string): HandTileFile {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(12);
    if (readSync(fd, head, 0, 12, 0) !== 12 || head.toString('latin1', 0, 8) !== MAGIC) throw invalidData(path, 'not a HAND tile (bad magic)');
    const len = head.readUInt32LE(8);
    const json = Buffer.alloc(len);
    if (readSync(fd, json, 0, len, 12) !== len) throw invalidData(path, 'truncated HAND tile header');
    const header = JSON.parse(json.toString('utf8')) as HandTileHeader;
    const [c0, r0, c1, r1] = header.core;
    const cw = c1 - c0;
    const n = cw * (r1 - r0);
    const base = 12 + len;
    if (fstatSync(fd).size !== base + 17 * n) throw invalidData(path, `HAND tile is ${fstatSync(fd).size} bytes, expected ${base + 17 * n}`);
    const buf = Buffer.alloc(4);
    const read4 = (offset: number) => {
      if (readSync(fd, buf, 0, 4, offset) !== 4) throw invalidData(path, 'truncated HAND tile');
      return buf;
    };
    return {
      header,
      cell(col, row) {
        if (col < c0 || row < r0 || col >= c1 || row >= r1) throw invalidArgument('cell', `cell (${col}, ${row}) is outside the tile core ${header.core.join(',')}`);
        const k = (row - r0) * cw + (col - c0);
        const hand = read4(base + 4 * k).readFloatLE(0);
        const drainage = read4(base + 4 * n + 4 * k).readInt32LE(0);
        const drainageElevation = read4(base + 8 * n + 4 * k).readFloatLE(0);
        const drainageAreaKm2 = read4(base + 12 * n + 4 * k).readFloatLE(0);
        if (readSync(fd, buf, 0, 1, base + 16 * n + k) !== 1) throw invalidData(path, 'truncated HAND tile');
        return { hand, drainage, drainageElevation, drainageAreaKm2, flags: buf[0] };
      },
      close() {
        closeSync(fd);
      },
    };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
