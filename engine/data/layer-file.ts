/**
 * The layers of a dataset on disk, read per window (issue 26: national scale without national memory).
 *
 * One SQLite file beside the dataset holds every feature and record of the files the layer policy
 * (layer-policy.ts) reads by window, and of those it holds whole (read on first use: lazy-layer.ts): each as
 * MessagePack (the msgpackr package: binary, coordinates as 8-byte doubles, properties keeping their types
 * and order; decoded 2.4-4.7 times faster than the same items' JSON, and 20-45% smaller, measured on the
 * four-state bench world), numbered in catalogue order (file, then position in the file), with its lon/lat
 * box in an R*Tree of its reach class. A window is one R*Tree query per class:
 * the items whose box meets the window grown by the class's reach, in their original order. The file also
 * keeps each raster's header (so opening does not read a thousand GeoTIFF headers) and the reader warnings.
 *
 * SQLite's R*Tree rather than FlatGeobuf: both index boxes on disk, but a FlatGeobuf file is one layer read
 * over HTTP-style byte ranges, while one SQLite file answers every layer of a window in a few indexed
 * statements, already ships with the engine (better-sqlite3), and is what the on-disk address index uses.
 * See the README's "National scale" section for the measurements.
 *
 * Written once per dataset (fingerprinted, written beside and renamed into place), then opened read-only by
 * any number of processes.
 */
import { collectFields, fieldsRecord, type FieldType } from '../vector/feature-fields.js';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { pack, unpack } from 'msgpackr';
import type { Feature, Geometry } from 'geojson';
import type { RasterInfo } from '../raster/geotiff-reader.js';
import { EngineError } from '../errors.js';
import { LruCache } from '../cache/lru-cache.js';

/** The layout version of the file (meta.version); another version is written again. */
export const LAYER_FILE_VERSION = 5; // 2: files.fields; 3: whole layers stored too (read on first use); 4: MessagePack items; 5: files.extent

/** Reach classes, metres: an item is filed under the smallest class at least its file's reach. */
export const REACH_CLASSES = [100, 250, 500, 1_000, 2_000, 2_500, 5_000, 10_000, 25_000] as const;

/** The reach class index of `reachM`. */
export function reachClass(reachM: number): number {
  const k = REACH_CLASSES.findIndex((r) => r >= reachM);
  if (k < 0) throw new RangeError(`a layer's reach of ${reachM} m is beyond the largest class (${REACH_CLASSES[REACH_CLASSES.length - 1]} m): hold that layer whole`);
  return k;
}

const DDL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (id INTEGER PRIMARY KEY, source TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, class INTEGER,
  columns TEXT, warnings TEXT, raster TEXT, fields TEXT, extent TEXT, items INTEGER NOT NULL DEFAULT 0, bytes INTEGER NOT NULL DEFAULT 0);
CREATE TABLE items (id INTEGER PRIMARY KEY, file INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX items_file ON items (file, id);
`;

/** A file's entry in the layer file. */
export interface LayerFileEntry {
  id: number;
  source: string;
  path: string;
  kind: 'vector' | 'records' | 'raster';
  /** Reach class (windowed files), null for rasters and stored files. */
  class: number | null;
  columns: string[] | null;
  warnings: string[] | null;
  raster: RasterInfo | null;
  /** A vector file's fields: every scalar property its features carry, with their types (feature-fields.ts). */
  fields: Record<string, string> | null;
  /** The lon/lat box of the file's items (null when none has a position): a whole layer not read yet is skipped by it. */
  extent: [number, number, number, number] | null;
  items: number;
  bytes: number;
}

/** The lon/lat box of a GeoJSON geometry, or null when it has no position. */
export function geometryBox(g: Geometry | null): [number, number, number, number] | null {
  if (!g) return null;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const walk = (c: unknown): void => {
    if (typeof (c as number[])[0] === 'number') {
      const [x, y] = c as number[];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    } else for (const d of c as unknown[]) walk(d);
  };
  if (g.type === 'GeometryCollection') {
    for (const part of g.geometries) {
      const b = geometryBox(part);
      if (b) {
        x0 = Math.min(x0, b[0]); y0 = Math.min(y0, b[1]); x1 = Math.max(x1, b[2]); y1 = Math.max(y1, b[3]);
      }
    }
  } else walk(g.coordinates);
  return Number.isFinite(x0) ? [x0, y0, x1, y1] : null;
}

/** Writes a layer file: add files in catalogue order, then {@link LayerFileWriter.finish}. */
export class LayerFileWriter {
  private readonly db: Database.Database;
  private nextItem = 0;
  private readonly classes = new Set<number>();
  private readonly insertItem;
  private readonly insertFile;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    for (const f of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) if (existsSync(f)) rmSync(f);
    this.db = new Database(path);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(DDL);
    this.insertItem = this.db.prepare('INSERT INTO items (id, file, data) VALUES (?, ?, ?)');
    this.insertFile = this.db.prepare('INSERT INTO files (id, source, path, kind, class, columns, warnings, raster, fields, extent, items, bytes) VALUES (@id, @source, @path, @kind, @class, @columns, @warnings, @raster, @fields, @extent, @items, @bytes)');
  }

  private boxTable(k: number): Database.Statement {
    if (!this.classes.has(k)) {
      this.db.exec(`CREATE VIRTUAL TABLE box_${k} USING rtree(id, minx, maxx, miny, maxy)`);
      this.classes.add(k);
    }
    return this.db.prepare(`INSERT INTO box_${k} (id, minx, maxx, miny, maxy) VALUES (?, ?, ?, ?, ?)`);
  }

  /**
   * Adds a file's items: each with its box (items without one, a record without coordinates or a feature
   * without geometry, are kept but never in a window; a file without a reach files no box, but its extent
   * is kept from them all).
   */
  addItems(file: { id: number; source: string; path: string; kind: 'vector' | 'records'; reachM: number | null; columns?: string[]; warnings?: string[] }, items: Iterable<{ data: unknown; box: [number, number, number, number] | null }>): void {
    // Without a reach the items are only stored (read whole: allItems), never in a window.
    const k = file.reachM === null ? null : reachClass(file.reachM);
    const box = k === null ? null : this.boxTable(k);
    let count = 0;
    let bytes = 0;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const fields = new Map<string, Set<FieldType>>();
    this.db.transaction(() => {
      for (const it of items) {
        const id = this.nextItem++;
        if (file.kind === 'vector') collectFields(fields, (it.data as Feature).properties);
        const bin = pack(it.data);
        this.insertItem.run(id, file.id, bin);
        if (it.box) {
          if (box) box.run(id, it.box[0], it.box[2], it.box[1], it.box[3]);
          x0 = Math.min(x0, it.box[0]); y0 = Math.min(y0, it.box[1]); x1 = Math.max(x1, it.box[2]); y1 = Math.max(y1, it.box[3]);
        }
        count++;
        bytes += bin.length;
      }
      this.insertFile.run({ id: file.id, source: file.source, path: file.path, kind: file.kind, class: k, columns: file.columns ? JSON.stringify(file.columns) : null, warnings: file.warnings?.length ? JSON.stringify(file.warnings) : null, raster: null, fields: file.kind === 'vector' ? JSON.stringify(fieldsRecord(fields)) : null, extent: x0 <= x1 ? JSON.stringify([x0, y0, x1, y1]) : null, items: count, bytes });
    })();
  }

  /** Adds a raster's header. */
  addRaster(file: { id: number; source: string; path: string; info: RasterInfo }): void {
    this.insertFile.run({ id: file.id, source: file.source, path: file.path, kind: 'raster', class: null, columns: null, warnings: null, raster: JSON.stringify(file.info), fields: null, extent: null, items: 0, bytes: 0 });
  }

  /** Stamps the file with the dataset's fingerprint and closes it. */
  finish(fingerprint: string): void {
    const put = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    put.run('version', String(LAYER_FILE_VERSION));
    put.run('dataset', fingerprint);
    this.db.close();
  }

  /** Closes without finishing (a failed write). */
  abandon(): void {
    if (this.db.open) this.db.close();
    for (const f of [this.path, `${this.path}-wal`, `${this.path}-shm`, `${this.path}-journal`]) if (existsSync(f)) rmSync(f);
  }
}

/** The fingerprint a layer file at `path` was written for, or null when there is no readable current file. */
export function layerFileFingerprint(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const get = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
      const version = get.get('version') as string | undefined;
      return Number(version) === LAYER_FILE_VERSION ? ((get.get('dataset') as string | undefined) ?? null) : null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/**
 * The CRS of each raster whose header a current layer file at `path` keeps, by catalogue path (null when there
 * is no readable current file): opening by window checks the catalogue's declared CRSs against these rather
 * than opening every GeoTIFF. They are the headers of the files the layer file was written from: when its
 * fingerprint then differs from the dataset's, the catalogue is checked again against the files themselves.
 */
export function layerFileRasterCrs(path: string): Map<string, string> | null {
  if (layerFileFingerprint(path) === null) return null;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare("SELECT path, json_extract(raster, '$.crs') AS crs FROM files WHERE kind = 'raster' AND raster IS NOT NULL").all() as { path: string; crs: string | null }[];
      return new Map(rows.flatMap((r) => (r.crs ? [[r.path, r.crs] as [string, string]] : [])));
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** Removes temporary files a write of `path` left behind when its process died (their pid no longer runs). */
function removeStaleTemporaries(path: string): void {
  const dir = dirname(path);
  if (!existsSync(dir)) return;
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dir)) {
    const m = name.startsWith(prefix) ? /^(\d+)\.tmp$/.exec(name.slice(prefix.length)) : null;
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch {
      rmSync(join(dir, name), { force: true });
    }
  }
}

/** Writes a layer file through `write` into a temporary file renamed into place when it finishes. */
export async function writeLayerFile(path: string, fingerprint: string, write: (w: LayerFileWriter) => Promise<void>): Promise<void> {
  removeStaleTemporaries(path);
  const tmp = `${path}.${process.pid}.tmp`;
  let w: LayerFileWriter;
  try {
    w = new LayerFileWriter(tmp);
  } catch (err) {
    throw new EngineError('INVALID_ARGUMENT', `cannot write the layer file ${path}: ${(err as Error).message}`, { parameter: 'layer_file', file: path });
  }
  try {
    await write(w);
    w.finish(fingerprint);
  } catch (err) {
    w.abandon();
    throw err;
  }
  renameSync(tmp, path);
}

/** One item of a window. */
export interface WindowItem {
  file: number;
  data: Feature<Geometry> | Record<string, unknown>;
}

/** Options for {@link LayerFile}. */
export interface LayerFileOptions {
  /**
   * Bytes of items (their encoded length) kept decoded across windows, default 32 MB: neighbouring windows share
   * most of their items (a zone, a vegetation polygon, an electorate spans many cells), so each is read and
   * parsed once and the windows hold the same objects.
   */
  itemCacheBytes?: number;
}

type Item = Feature<Geometry> | Record<string, unknown>;

/** A layer file opened for reading. */
export class LayerFile {
  private readonly db: Database.Database;
  private readonly idStatements = new Map<number, Database.Statement>();
  private readonly fetchAll: Database.Statement;
  private readonly fetchOf: Database.Statement;
  private readonly parsed: LruCache<number, { file: number; data: Item; bytes: number }>;
  readonly entries: LayerFileEntry[];
  /** The fingerprint of the dataset the file was written from (meta.dataset). */
  readonly fingerprint: string;

  constructor(readonly path: string, options: LayerFileOptions = {}) {
    this.parsed = new LruCache({ maxSize: options.itemCacheBytes ?? 32 * 1024 * 1024, sizeOf: (v) => v.bytes });
    if (!existsSync(path)) throw new EngineError('INVALID_DATA', `${path}: no layer file`, { file: path });
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    this.db.pragma('cache_size = -16000');
    type Row = { id: number; source: string; path: string; kind: LayerFileEntry['kind']; class: number | null; columns: string | null; warnings: string | null; raster: string | null; fields: string | null; extent: string | null; items: number; bytes: number };
    this.fingerprint = (this.db.prepare("SELECT value FROM meta WHERE key = 'dataset'").pluck().get() as string | undefined) ?? '';
    this.entries = (this.db.prepare('SELECT * FROM files ORDER BY id').all() as Row[]).map((r) => ({
      ...r,
      fields: r.fields ? (JSON.parse(r.fields) as Record<string, string>) : null,
      extent: r.extent ? (JSON.parse(r.extent) as [number, number, number, number]) : null,
      columns: r.columns ? (JSON.parse(r.columns) as string[]) : null,
      warnings: r.warnings ? (JSON.parse(r.warnings) as string[]) : null,
      raster: r.raster ? (JSON.parse(r.raster) as RasterInfo) : null,
    }));
    for (const k of new Set(this.entries.flatMap((e) => (e.class === null ? [] : [e.class])))) {
      this.idStatements.set(k, this.db.prepare(`SELECT id FROM box_${k} WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?`).pluck());
    }
    this.fetchAll = this.db.prepare('SELECT id, file, data FROM items WHERE id IN (SELECT value FROM json_each(?))');
    this.fetchOf = this.db.prepare('SELECT id, file, data FROM items WHERE id IN (SELECT value FROM json_each(?)) AND file IN (SELECT value FROM json_each(?))');
  }

  /** The reach classes that hold items. */
  classes(): number[] {
    return [...this.idStatements.keys()].sort((a, b) => a - b);
  }

  /** Items decoded and kept across windows: how many, and their encoded bytes. */
  itemCache(): { items: number; bytes: number; hits: number; misses: number } {
    return { items: this.parsed.size, bytes: this.parsed.bytes, hits: this.parsed.hits, misses: this.parsed.misses };
  }

  /**
   * The items of reach class `k` whose boxes meet the lon/lat box (of the files in `want`, when given), in
   * file order, grouped by file id, with the encoded bytes read (for the window cache's accounting).
   */
  window(k: number, box: readonly [number, number, number, number], want?: ReadonlySet<number>): { byFile: Map<number, Item[]>; bytes: number } {
    const st = this.idStatements.get(k);
    const byFile = new Map<number, Item[]>();
    let bytes = 0;
    if (!st) return { byFile, bytes };
    // The R*Tree gives the ids; items already decoded come from the cache, the rest in one statement.
    const ids = (st.all(box[2], box[0], box[3], box[1]) as number[]).sort((a, b) => a - b);
    const found = new Map<number, { file: number; data: Item; bytes: number }>();
    const missing: number[] = [];
    for (const id of ids) {
      const hit = this.parsed.get(id);
      if (hit) found.set(id, hit);
      else missing.push(id);
    }
    if (missing.length) {
      const rows = (want ? this.fetchOf.all(JSON.stringify(missing), JSON.stringify([...want])) : this.fetchAll.all(JSON.stringify(missing))) as { id: number; file: number; data: Buffer }[];
      for (const r of rows) {
        const e = { file: r.file, data: unpack(r.data) as Item, bytes: r.data.length };
        this.parsed.set(r.id, e);
        found.set(r.id, e);
      }
    }
    for (const id of ids) {
      const e = found.get(id);
      if (!e || (want && !want.has(e.file))) continue;
      bytes += e.bytes;
      let list = byFile.get(e.file);
      if (!list) byFile.set(e.file, (list = []));
      list.push(e.data);
    }
    return { byFile, bytes };
  }

  /** Every item of a file, in order (a record file's rows: the address index and the DA store read them all). */
  allItems(file: number): (Feature<Geometry> | Record<string, unknown>)[] {
    return (this.db.prepare('SELECT data FROM items WHERE file = ? ORDER BY id').pluck().all(file) as Buffer[]).map((b) => unpack(b) as Record<string, unknown>);
  }

  /** Bytes of the file on disk. */
  size(): number {
    return (this.db.pragma('page_count', { simple: true }) as number) * (this.db.pragma('page_size', { simple: true }) as number);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
