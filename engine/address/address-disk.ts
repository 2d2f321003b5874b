/**
 * The address index on disk (issue 26: national scale without national memory): one SQLite file holding
 * the addresses, the street-word postings (by word, and by word and house number), the one-deletion index
 * of the street-name vocabulary, and an R*Tree of the points. {@link DiskPostings} answers the ranking's
 * questions (address-index.ts `AddressPostings`) with indexed reads, so the same ranking runs over it and
 * gives the same answers as the in-memory index, while a process holds only the addresses recent queries
 * touched (a bounded cache of prepared addresses).
 *
 * Written once from records (`writeAddressIndexFile`, streaming: records are inserted as they come), then
 * opened read-only by any number of processes (`AddressIndex.open` → `openAddressIndexFile`).
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { distanceMetres } from '../geo/distance.js';
import { nearestByGrowingRadius, radiusBox } from '../vector/metric-search.js';
import type { StateCode } from '../catalogue/states.js';
import { EngineError } from '../errors.js';
import { AddressIndex, deletions, prepare, type AddressPostings, type Prepared } from './address-index.js';
import { formatAddress, type AddressRecord } from './address-record.js';

/** The layout version of the file (meta.version); another version is refused when opened. */
export const ADDRESS_FILE_VERSION = 1;

const DDL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE addr (i INTEGER PRIMARY KEY, id TEXT NOT NULL, unit TEXT, number TEXT NOT NULL, street TEXT NOT NULL, suburb TEXT NOT NULL,
  state TEXT NOT NULL, postcode TEXT NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL, pfi TEXT, lga TEXT, source TEXT NOT NULL);
CREATE TABLE post (word TEXT NOT NULL, number TEXT NOT NULL, i INTEGER NOT NULL);
CREATE VIRTUAL TABLE addr_points USING rtree(i, minx, maxx, miny, maxy);
`;
/** Indexes made after the rows are in (faster than maintaining them row by row). */
const INDEXES = `
CREATE UNIQUE INDEX addr_id ON addr (id);
CREATE INDEX addr_pfi ON addr (pfi) WHERE pfi IS NOT NULL;
CREATE INDEX post_word_number ON post (word, number, i);
CREATE TABLE vocab (word TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO vocab SELECT DISTINCT word FROM post;
CREATE TABLE dels (del TEXT NOT NULL, word TEXT NOT NULL);
`;

/**
 * Writes the on-disk index of `records` to `path` (replacing a file there): rows as they come, then the
 * indexes, the vocabulary and its one-deletion index. Returns the number of addresses written.
 */
export function writeAddressIndexFile(path: string, records: Iterable<AddressRecord>): number {
  mkdirSync(dirname(path), { recursive: true });
  for (const f of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) if (existsSync(f)) rmSync(f);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(DDL);
    const addr = db.prepare('INSERT INTO addr (i, id, unit, number, street, suburb, state, postcode, lon, lat, pfi, lga, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const post = db.prepare('INSERT INTO post (word, number, i) VALUES (?, ?, ?)');
    const point = db.prepare('INSERT INTO addr_points (i, minx, maxx, miny, maxy) VALUES (?, ?, ?, ?, ?)');
    let n = 0;
    const batch = db.transaction((list: AddressRecord[]) => {
      for (const r of list) {
        const i = n++;
        addr.run(i, r.id, r.unit, r.number, r.street, r.suburb, r.state, r.postcode, r.lon, r.lat, r.pfi, r.lga, r.source);
        for (const w of new Set(prepare(r).nameWords)) post.run(w, r.number, i);
        point.run(i, r.lon, r.lon, r.lat, r.lat);
      }
    });
    let pending: AddressRecord[] = [];
    for (const r of records) {
      pending.push(r);
      if (pending.length >= 10_000) {
        batch(pending);
        pending = [];
      }
    }
    batch(pending);
    db.exec(INDEXES);
    const words = db.prepare('SELECT word FROM vocab').pluck().all() as string[];
    const del = db.prepare('INSERT INTO dels (del, word) VALUES (?, ?)');
    db.transaction(() => {
      for (const w of words) for (const d of new Set(deletions(w))) del.run(d, w);
    })();
    db.exec('CREATE INDEX dels_del ON dels (del)');
    // The points' extent, kept so that opening the file does not scan the R*Tree for it (300 ms at 700,000 points).
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?), (?, ?)').run('version', String(ADDRESS_FILE_VERSION), 'count', String(n), 'extent', JSON.stringify(pointsExtent(db)));
    db.exec('ANALYZE');
    return n;
  } finally {
    db.close();
  }
}

/** The lon/lat extent of the address points' R*Tree boxes. */
function pointsExtent(db: Database.Database): [number, number, number, number] {
  const e = db.prepare('SELECT min(minx) AS x0, min(miny) AS y0, max(maxx) AS x1, max(maxy) AS y1 FROM addr_points').get() as { x0: number | null; y0: number | null; x1: number | null; y1: number | null };
  return [e.x0 ?? 0, e.y0 ?? 0, e.x1 ?? 0, e.y1 ?? 0];
}

/** A row of `addr`: the record without its formatted text, and its position. */
type Row = Omit<AddressRecord, 'text' | 'state'> & { i: number; state: string };

const recordOf = (r: Row): AddressRecord => {
  const rec = { id: r.id, unit: r.unit, number: r.number, street: r.street, suburb: r.suburb, state: r.state as StateCode, postcode: r.postcode, lon: r.lon, lat: r.lat, pfi: r.pfi, lga: r.lga, source: r.source };
  return { ...rec, text: formatAddress(rec) };
};

/** Options of {@link openAddressIndexFile}. */
export interface OpenAddressFileOptions {
  /** Prepared addresses kept in memory, most recently used (default 20,000). */
  cacheEntries?: number;
}

/** The on-disk postings (see the module comment). */
export class DiskPostings implements AddressPostings {
  private readonly s;
  private readonly cache = new Map<number, Prepared>();
  readonly size: number;
  private readonly extent: [number, number, number, number];

  constructor(private readonly db: Database.Database, private readonly cacheEntries: number) {
    this.s = {
      item: db.prepare('SELECT * FROM addr WHERE i = ?'),
      items: db.prepare('SELECT * FROM addr WHERE i IN (SELECT value FROM json_each(?))'),
      withWord: db.prepare('SELECT i FROM post WHERE word = ?').pluck(),
      withWordNumber: db.prepare('SELECT i FROM post WHERE word = ? AND number = ?').pluck(),
      hasWord: db.prepare('SELECT 1 FROM vocab WHERE word = ?').pluck(),
      dels: db.prepare('SELECT word FROM dels WHERE del = ?').pluck(),
      byId: db.prepare('SELECT * FROM addr WHERE id = ?'),
      byPfi: db.prepare('SELECT * FROM addr WHERE pfi = ? ORDER BY i'),
      box: db.prepare('SELECT p.i AS i, a.lon AS lon, a.lat AS lat FROM addr_points p JOIN addr a ON a.i = p.i WHERE p.minx <= ? AND p.maxx >= ? AND p.miny <= ? AND p.maxy >= ?'),
    };
    this.size = Number((db.prepare("SELECT value FROM meta WHERE key = 'count'").pluck().get() as string | undefined) ?? 0);
    // Files written before the extent was kept in meta scan for it.
    const kept = db.prepare("SELECT value FROM meta WHERE key = 'extent'").pluck().get() as string | undefined;
    this.extent = kept ? (JSON.parse(kept) as [number, number, number, number]) : pointsExtent(db);
  }

  item(i: number): Prepared {
    let p = this.cache.get(i);
    if (p) {
      // Most recently used last: re-insert.
      this.cache.delete(i);
      this.cache.set(i, p);
      return p;
    }
    const row = this.s.item.get(i) as Row | undefined;
    if (!row) throw new EngineError('INVALID_DATA', `address index file: no address at position ${i}`);
    p = prepare(recordOf(row));
    this.remember(i, p);
    return p;
  }

  prefetch(positions: Iterable<number>): void {
    const missing: number[] = [];
    for (const i of positions) if (!this.cache.has(i)) missing.push(i);
    if (!missing.length) return;
    // One statement for every candidate a query scores, rather than one per candidate.
    for (let k = 0; k < missing.length; k += 5000) {
      for (const row of this.s.items.all(JSON.stringify(missing.slice(k, k + 5000))) as Row[]) this.remember(row.i, prepare(recordOf(row)));
    }
  }

  private remember(i: number, p: Prepared): void {
    this.cache.set(i, p);
    if (this.cache.size > this.cacheEntries) this.cache.delete(this.cache.keys().next().value as number);
  }

  withWord(word: string): readonly number[] {
    return this.s.withWord.all(word) as number[];
  }

  withWordAndNumber(word: string, number: string): readonly number[] {
    return this.s.withWordNumber.all(word, number) as number[];
  }

  hasWord(word: string): boolean {
    return this.s.hasWord.get(word) !== undefined;
  }

  deletionNeighbours(w: string): Iterable<string> {
    const found = new Set<string>(this.s.dels.all(w) as string[]);
    for (const d of deletions(w)) {
      if (this.hasWord(d)) found.add(d);
      for (const v of this.s.dels.all(d) as string[]) found.add(v);
    }
    return found;
  }

  byId(id: string): AddressRecord | undefined {
    const r = this.s.byId.get(id) as Row | undefined;
    return r ? recordOf(r) : undefined;
  }

  byPfi(pfi: string): AddressRecord[] {
    return (this.s.byPfi.all(pfi) as Row[]).map(recordOf);
  }

  nearest(lon: number, lat: number, maxDistanceM: number): { record: AddressRecord; distanceM: number } | null {
    if (!this.size) return null;
    // The R*Tree answers boxes: grow a radius until a point lies within it (as the in-memory point index does).
    const within = (r: number) => {
      const [x0, y0, x1, y1] = radiusBox(lon, lat, r);
      const hits: { i: number; distance: number }[] = [];
      for (const h of this.s.box.all(x1, x0, y1, y0) as { i: number; lon: number; lat: number }[]) {
        const d = distanceMetres(lon, lat, h.lon, h.lat);
        if (d <= r) hits.push({ i: h.i, distance: d });
      }
      return hits.sort((a, b) => a.distance - b.distance || a.i - b.i);
    };
    const n = nearestByGrowingRadius(lon, lat, 1, maxDistanceM, this.extent, within)[0];
    return n ? { record: this.item(n.i).rec, distanceM: n.distance } : null;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Opens an index file written by {@link writeAddressIndexFile}, read-only. */
export function openAddressIndexFile(path: string, options: OpenAddressFileOptions = {}): AddressIndex {
  if (!existsSync(path)) throw new EngineError('NOT_FOUND', `${path}: no address index file`, { file: path });
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const v = db.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get() as string | undefined;
    if (Number(v) !== ADDRESS_FILE_VERSION) throw new EngineError('UNSUPPORTED', `${path}: address index file version ${v ?? 'unknown'}; this engine reads ${ADDRESS_FILE_VERSION} (write it again)`, { file: path });
    db.pragma('cache_size = -16384');
    return new AddressIndex(new DiskPostings(db, options.cacheEntries ?? 20_000));
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * The on-disk index at `path` for the dataset identified by `fingerprint`: opened when the file was written
 * for it, else (re)written from `records()` first. Replicas sharing a disk write it once between them only if
 * they start one after the other; each writes to a temporary name and renames, so none reads a half file.
 */
export function openOrWriteAddressIndexFile(path: string, fingerprint: string, records: () => Iterable<AddressRecord>, options: OpenAddressFileOptions = {}): AddressIndex {
  if (existsSync(path)) {
    try {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      const held = db.prepare("SELECT value FROM meta WHERE key = 'dataset'").pluck().get() as string | undefined;
      const version = db.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get() as string | undefined;
      db.close();
      if (held === fingerprint && Number(version) === ADDRESS_FILE_VERSION) return openAddressIndexFile(path, options);
    } catch {
      // Not a readable index file: written again below.
    }
  }
  const tmp = `${path}.${process.pid}.tmp`;
  writeAddressIndexFile(tmp, records());
  const db = new Database(tmp);
  db.prepare("INSERT INTO meta (key, value) VALUES ('dataset', ?)").run(fingerprint);
  db.close();
  renameSync(tmp, path);
  return openAddressIndexFile(path, options);
}
