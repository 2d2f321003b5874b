/**
 * Tile archives (issue 20): the engine's tiles of a box and zoom range written as an MBTiles 1.3 file (SQLite:
 * `metadata` and `tiles`, rows in the TMS scheme, gzipped MVT), which GDAL, QGIS, tileserver-gl, Martin and
 * `pmtiles convert` read, and any static host can serve through them. Several layers go into one tile by
 * concatenating their MVT messages (a tile's `layers` field repeats, so the bytes of two tiles joined are one
 * tile holding both). Empty tiles are not written.
 */
import Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { invalidArgument } from '../errors.js';
import { tileAt, type TileId } from './tile-math.js';
import type { TileLayerSpec } from './vector-tiles.js';

/** The most tiles one export writes (a guard against a box and zooms far larger than meant). */
export const MAX_EXPORT_TILES = 200_000;

/** What to export. */
export interface ExportOptions {
  layers: string[];
  bbox: [number, number, number, number];
  minzoom: number;
  maxzoom: number;
  out: string;
  /** Replace an existing file (default refuse). */
  force?: boolean;
  onProgress?: (line: string) => void;
}

/** How many tiles of `bbox` there are at zoom `z` (without listing them). */
export function countTiles(bbox: readonly [number, number, number, number], z: number): number {
  const a = tileAt(bbox[0], bbox[3], z), b = tileAt(bbox[2], bbox[1], z);
  return (b.x - a.x + 1) * (b.y - a.y + 1);
}

/** The tiles of `bbox` at zoom `z`. */
export function tilesOf(bbox: readonly [number, number, number, number], z: number): TileId[] {
  const a = tileAt(bbox[0], bbox[3], z), b = tileAt(bbox[2], bbox[1], z);
  const out: TileId[] = [];
  for (let x = a.x; x <= b.x; x++) for (let y = a.y; y <= b.y; y++) out.push({ z, x, y });
  return out;
}

/**
 * Checks an export against the layers' specs before anything is opened or written: the layers exist, the
 * zooms are theirs, the box is real, the tile count is within {@link MAX_EXPORT_TILES}, the file may be
 * written. Returns the specs of the layers named.
 */
export function checkExport(layers: readonly TileLayerSpec[], o: ExportOptions): TileLayerSpec[] {
  const specs = o.layers.map((id) => {
    const s = layers.find((l) => l.id === id);
    if (!s) throw invalidArgument('layer', `no tile layer ${JSON.stringify(id)}; layers: ${layers.map((l) => l.id).join(', ')}`);
    return s;
  });
  const [w, s, e, n] = o.bbox;
  if (!(w < e && s < n && w >= -180 && e <= 180 && s >= -85.05 && n <= 85.05)) throw invalidArgument('bbox', 'bbox must be west,south,east,north in degrees, west < east and south < north');
  for (const spec of specs) {
    if (o.minzoom < spec.minzoom || o.maxzoom > spec.maxzoom) throw invalidArgument('zooms', `the ${spec.id} layer is made at zooms ${spec.minzoom} to ${spec.maxzoom}, not ${o.minzoom} to ${o.maxzoom}`);
  }
  let total = 0;
  for (let z = o.minzoom; z <= o.maxzoom; z++) total += countTiles(o.bbox, z);
  if (total > MAX_EXPORT_TILES) throw invalidArgument('bbox', `${total} tiles is more than ${MAX_EXPORT_TILES}: export a smaller box or fewer zooms`);
  if (existsSync(o.out) && !o.force) throw invalidArgument('out', `${o.out} exists; pass --force to replace it`);
  return specs;
}

/** Writes the archive; returns the tiles written and skipped as empty. */
export async function exportMbtiles(engine: { tile(layer: string, z: number, x: number, y: number): Promise<{ bytes: Uint8Array | null }>; tileLayers(): TileLayerSpec[]; tileAttribution(layer: string): string }, o: ExportOptions): Promise<{ written: number; empty: number; bytes: number }> {
  const specs = checkExport(engine.tileLayers(), o);
  const [w, s, e, n] = o.bbox;
  if (existsSync(o.out)) rmSync(o.out);
  const db = new Database(o.out);
  let written = 0, empty = 0, bytes = 0;
  try {
    db.exec(`CREATE TABLE metadata (name TEXT, value TEXT);
      CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
      CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);`);
    const meta = db.prepare('INSERT INTO metadata (name, value) VALUES (?, ?)');
    const attribution = [...new Set(specs.map((sp) => engine.tileAttribution(sp.id)).filter(Boolean))].join('; ');
    const rows: [string, string][] = [
      ['name', `propintel ${o.layers.join(', ')}`],
      ['format', 'pbf'],
      ['type', 'overlay'],
      ['version', '1'],
      ['description', specs.map((sp) => `${sp.id}: ${sp.description}`).join(' ')],
      ['bounds', o.bbox.join(',')],
      ['center', `${(w + e) / 2},${(s + n) / 2},${o.minzoom}`],
      ['minzoom', String(o.minzoom)],
      ['maxzoom', String(o.maxzoom)],
      ['attribution', attribution],
      ['json', JSON.stringify({ vector_layers: specs.map((sp) => ({ id: sp.id, description: sp.description, minzoom: sp.minzoom, maxzoom: sp.maxzoom, fields: sp.fields })) })],
    ];
    for (const r of rows) meta.run(...r);
    const put = db.prepare('INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)');
    for (let z = o.minzoom; z <= o.maxzoom; z++) {
      const tiles = tilesOf(o.bbox, z);
      let batch: [number, number, number, Buffer][] = [];
      const flush = () => {
        db.transaction(() => batch.forEach((b) => put.run(...b)))();
        batch = [];
      };
      for (const t of tiles) {
        const parts: Uint8Array[] = [];
        for (const spec of specs) {
          const r = await engine.tile(spec.id, t.z, t.x, t.y);
          if (r.bytes) parts.push(r.bytes);
        }
        if (!parts.length) {
          empty++;
          continue;
        }
        const data = gzipSync(Buffer.concat(parts));
        // MBTiles rows count from the south (TMS).
        batch.push([t.z, t.x, (1 << t.z) - 1 - t.y, data]);
        written++;
        bytes += data.length;
        if (batch.length >= 500) flush();
      }
      flush();
      o.onProgress?.(`  z${z}: ${tiles.length} tiles`);
    }
  } finally {
    db.close();
  }
  return { written, empty, bytes };
}
