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
import { tileAt, tileBounds, type TileId } from './tile-math.js';
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

/** A layer of an export: its spec and the zooms of the range asked that it is made at. */
export interface ExportLayer {
  spec: TileLayerSpec;
  minzoom: number;
  maxzoom: number;
}

/**
 * Checks an export against the layers' specs before anything is opened or written: the layers exist, each
 * has a zoom in the range asked (a layer is exported over the zooms it has within the range, the others said
 * in `skipped`), the box is real, the tile count is within {@link MAX_EXPORT_TILES}, the file may be written.
 */
export function checkExport(layers: readonly TileLayerSpec[], o: ExportOptions): { layers: ExportLayer[]; skipped: string[] } {
  const specs = o.layers.map((id) => {
    const s = layers.find((l) => l.id === id);
    if (!s) throw invalidArgument('layer', `no tile layer ${JSON.stringify(id)}; layers: ${layers.map((l) => l.id).join(', ')}`);
    return s;
  });
  const [w, s, e, n] = o.bbox;
  if (!(w < e && s < n && w >= -180 && e <= 180 && s >= -85.05 && n <= 85.05)) throw invalidArgument('bbox', 'bbox must be west,south,east,north in degrees, west < east and south < north');
  const out: ExportLayer[] = [];
  const skipped: string[] = [];
  const range = (a: number, b: number) => (a === b ? `z${a}` : `z${a}-${b}`);
  for (const spec of specs) {
    const minzoom = Math.max(o.minzoom, spec.minzoom), maxzoom = Math.min(o.maxzoom, spec.maxzoom);
    if (minzoom > maxzoom) throw invalidArgument('zooms', `the ${spec.id} layer is made at zooms ${spec.minzoom} to ${spec.maxzoom}, none of ${o.minzoom} to ${o.maxzoom}`);
    if (o.minzoom < minzoom) skipped.push(`${spec.id} ${range(o.minzoom, minzoom - 1)} (made from z${spec.minzoom})`);
    if (o.maxzoom > maxzoom) skipped.push(`${spec.id} ${range(maxzoom + 1, o.maxzoom)} (made to z${spec.maxzoom}; clients overzoom past it)`);
    out.push({ spec, minzoom, maxzoom });
  }
  let total = 0;
  for (let z = Math.min(...out.map((l) => l.minzoom)); z <= Math.max(...out.map((l) => l.maxzoom)); z++) total += countTiles(o.bbox, z);
  if (total > MAX_EXPORT_TILES) throw invalidArgument('bbox', `${total} tiles is more than ${MAX_EXPORT_TILES}: export a smaller box or fewer zooms`);
  if (existsSync(o.out) && !o.force) throw invalidArgument('out', `${o.out} exists; pass --force to replace it`);
  return { layers: out, skipped };
}

/** What an export wrote. */
export interface ExportResult {
  written: number;
  empty: number;
  bytes: number;
  /** Zooms of layers outside their range, as `hand z12-13 (made from z14)`. */
  skipped: string[];
  /** Per layer, the zooms where it has tiles in the file (null: none in the box). */
  layers: { id: string; minzoom: number | null; maxzoom: number | null }[];
}

/**
 * Writes the archive. Its metadata is the file's, worked out from the tiles written: `minzoom` and `maxzoom`
 * the zooms that hold tiles, each of `vector_layers` the zooms where that layer has features (a layer with none
 * in the box is left out), `bounds` the tiles' extent within the box asked, `center` its middle.
 */
export async function exportMbtiles(engine: { tile(layer: string, z: number, x: number, y: number): Promise<{ bytes: Uint8Array | null }>; tileLayers(): TileLayerSpec[]; tileAttribution(layer: string): string }, o: ExportOptions): Promise<ExportResult> {
  const { layers, skipped } = checkExport(engine.tileLayers(), o);
  for (const line of skipped) o.onProgress?.(`  skipped: ${line}`);
  if (existsSync(o.out)) rmSync(o.out);
  const db = new Database(o.out);
  let written = 0, empty = 0, bytes = 0;
  const held = new Map<string, [number, number]>();
  let zmin = Infinity, zmax = -Infinity;
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  try {
    db.exec(`CREATE TABLE metadata (name TEXT, value TEXT);
      CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
      CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);`);
    const put = db.prepare('INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)');
    const from = Math.min(...layers.map((l) => l.minzoom)), to = Math.max(...layers.map((l) => l.maxzoom));
    for (let z = from; z <= to; z++) {
      const here = layers.filter((l) => z >= l.minzoom && z <= l.maxzoom);
      const tiles = tilesOf(o.bbox, z);
      let batch: [number, number, number, Buffer][] = [];
      const flush = () => {
        db.transaction(() => batch.forEach((b) => put.run(...b)))();
        batch = [];
      };
      for (const t of tiles) {
        const parts: Uint8Array[] = [];
        for (const { spec } of here) {
          const r = await engine.tile(spec.id, t.z, t.x, t.y);
          if (!r.bytes) continue;
          parts.push(r.bytes);
          const h = held.get(spec.id);
          held.set(spec.id, h ? [Math.min(h[0], z), Math.max(h[1], z)] : [z, z]);
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
        zmin = Math.min(zmin, z);
        zmax = Math.max(zmax, z);
        const b = tileBounds(t);
        box[0] = Math.min(box[0], b[0]);
        box[1] = Math.min(box[1], b[1]);
        box[2] = Math.max(box[2], b[2]);
        box[3] = Math.max(box[3], b[3]);
        if (batch.length >= 500) flush();
      }
      flush();
      o.onProgress?.(`  z${z}: ${tiles.length} tiles (${here.map((l) => l.spec.id).join(', ')})`);
    }
    // The metadata of what the file holds.
    const kept = layers.filter((l) => held.has(l.spec.id));
    const [w, s, e, n] = written ? [Math.max(box[0], o.bbox[0]), Math.max(box[1], o.bbox[1]), Math.min(box[2], o.bbox[2]), Math.min(box[3], o.bbox[3])] : o.bbox;
    const round = (v: number) => Number(v.toFixed(6));
    const minzoom = written ? zmin : Math.min(...layers.map((l) => l.minzoom));
    const maxzoom = written ? zmax : Math.max(...layers.map((l) => l.maxzoom));
    const attribution = [...new Set(kept.map((l) => engine.tileAttribution(l.spec.id)).filter(Boolean))].join('; ');
    const rows: [string, string][] = [
      ['name', `propintel ${o.layers.join(', ')}`],
      ['format', 'pbf'],
      ['type', 'overlay'],
      ['version', '1'],
      ['description', kept.map((l) => `${l.spec.id}: ${l.spec.description}`).join(' ')],
      ['bounds', [w, s, e, n].map(round).join(',')],
      ['center', `${round((w + e) / 2)},${round((s + n) / 2)},${minzoom}`],
      ['minzoom', String(minzoom)],
      ['maxzoom', String(maxzoom)],
      ['attribution', attribution],
      ['json', JSON.stringify({ vector_layers: kept.map((l) => ({ id: l.spec.id, description: l.spec.description, minzoom: held.get(l.spec.id)![0], maxzoom: held.get(l.spec.id)![1], fields: l.spec.fields })) })],
    ];
    const meta = db.prepare('INSERT INTO metadata (name, value) VALUES (?, ?)');
    db.transaction(() => rows.forEach((r) => meta.run(...r)))();
  } finally {
    db.close();
  }
  return { written, empty, bytes, skipped, layers: layers.map((l) => ({ id: l.spec.id, minzoom: held.get(l.spec.id)?.[0] ?? null, maxzoom: held.get(l.spec.id)?.[1] ?? null })) };
}
