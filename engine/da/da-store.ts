/**
 * The DA store: SQLite (better-sqlite3, WAL) holds the records; an rbush index in memory follows every upsert
 * so radius queries stay under a millisecond. The property payload and the DA listing API read this one store.
 */
import { booleanPointInPolygon } from '@turf/turf';
import Database from 'better-sqlite3';
import type { MultiPolygon, Polygon } from 'geojson';
import type { StateCode } from '../catalogue/states.js';
import type { DataStore } from '../data/dataset-store.js';
import { EngineError } from '../errors.js';
import { distanceMetres } from '../geo/distance.js';
import { MutablePointIndex } from '../vector/mutable-point-index.js';
import { DA_CATEGORIES, type DaCategory } from './categories.js';
import { daRecordsFromRows, type DaRecord } from './da-record.js';

/** Filters of {@link DaStore.list}. */
export interface DaFilter {
  state?: StateCode;
  council?: string;
  category?: DaCategory;
  suburb?: string;
  postcode?: string;
  /** YYYY-MM-DD, inclusive. */
  lodgedFrom?: string;
  lodgedTo?: string;
  status?: string;
  residential?: boolean;
  /** Default 100. */
  limit?: number;
  /** The `next` of a previous page. */
  cursor?: string;
}

const SCHEMA_VERSION = 1;

/** The DA store. */
export class DaStore {
  private readonly records = new Map<number, DaRecord>();
  private readonly index = new MutablePointIndex();
  private revisionCount = 0;

  private constructor(private readonly db: Database.Database) {
    for (const row of db.prepare('SELECT json FROM das').iterate() as Iterable<{ json: string }>) {
      const r = JSON.parse(row.json) as DaRecord;
      this.records.set(r.id, r);
    }
    this.index.load([...this.records.values()].map((r) => ({ id: r.id, lon: r.lng, lat: r.lat })));
  }

  /** Opens (creating when absent) a store file, or ':memory:'. */
  static open(path: string): DaStore {
    let db: Database.Database;
    try {
      db = new Database(path);
    } catch (err) {
      throw new EngineError('UNAVAILABLE', `the DA store ${path} could not be opened: ${(err as Error).message}`, { component: 'development_applications', file: path });
    }
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS das (id INTEGER PRIMARY KEY, state TEXT NOT NULL, council TEXT NOT NULL, category TEXT NOT NULL,
        lodged TEXT NOT NULL, last_fetched_at TEXT NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL, json TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS das_council ON das (state, council);
      CREATE INDEX IF NOT EXISTS das_lodged ON das (lodged);`);
    const v = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    if (!v) db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
    else if (Number(v.value) !== SCHEMA_VERSION) throw new EngineError('UNSUPPORTED', `the DA store ${path} has schema version ${v.value}; this engine reads ${SCHEMA_VERSION}`, { file: path });
    return new DaStore(db);
  }

  /** Number of records. */
  get size(): number {
    return this.records.size;
  }

  /**
   * Increases with every upsert. DA lookups are never cached (spec 2.8), so anything that holds a response
   * containing DAs (the server's response cache) keys on this and drops what an upsert made stale.
   */
  get revision(): number {
    return this.revisionCount;
  }

  /** Inserts or replaces records in one transaction; the in-memory index follows. */
  upsert(records: readonly DaRecord[]): { inserted: number; updated: number } {
    const stmt = this.db.prepare(`INSERT INTO das (id, state, council, category, lodged, last_fetched_at, lon, lat, json) VALUES (@id, @state, @council, @category, @lodged, @last_fetched_at, @lng, @lat, @json)
      ON CONFLICT(id) DO UPDATE SET state = excluded.state, council = excluded.council, category = excluded.category, lodged = excluded.lodged,
        last_fetched_at = excluded.last_fetched_at, lon = excluded.lon, lat = excluded.lat, json = excluded.json`);
    let inserted = 0, updated = 0;
    this.db.transaction(() => {
      for (const r of records) {
        if (this.records.has(r.id)) updated++;
        else inserted++;
        stmt.run({ ...r, json: JSON.stringify(r) });
      }
    })();
    for (const r of records) this.records.set(r.id, r);
    if (records.length) this.revisionCount++;
    this.index.load(records.map((r) => ({ id: r.id, lon: r.lng, lat: r.lat })));
    return { inserted, updated };
  }

  /** The record with `id`. */
  get(id: number): DaRecord | undefined {
    return this.records.get(id);
  }

  /** Records within `radiusM` metres: most recently lodged first (default) or nearest first. */
  nearby(lon: number, lat: number, radiusM: number, options: { orderBy?: 'lodged_desc' | 'distance'; limit?: number } = {}): { record: DaRecord; distanceM: number }[] {
    const hits = this.index.within(lon, lat, radiusM).map((n) => ({ record: this.records.get(n.id)!, distanceM: n.distance }));
    if ((options.orderBy ?? 'lodged_desc') === 'lodged_desc') hits.sort((a, b) => b.record.lodged.localeCompare(a.record.lodged) || a.distanceM - b.distanceM || a.record.id - b.record.id);
    return options.limit !== undefined ? hits.slice(0, options.limit) : hits;
  }

  /** Records inside a polygon (lon/lat), e.g. a parcel. */
  within(polygon: Polygon | MultiPolygon): DaRecord[] {
    const ring = polygon.type === 'Polygon' ? polygon.coordinates[0] : polygon.coordinates.flatMap((p) => p[0]);
    let cx = 0, cy = 0;
    for (const [x, y] of ring) {
      cx += x / ring.length;
      cy += y / ring.length;
    }
    const reach = Math.max(...ring.map(([x, y]) => distanceMetres(cx, cy, x, y)));
    return this.index.within(cx, cy, reach + 1).map((n) => this.records.get(n.id)!).filter((r) => booleanPointInPolygon([r.lng, r.lat], polygon));
  }

  /** A page of records matching `filter`, most recently lodged first. */
  list(filter: DaFilter = {}): { records: DaRecord[]; next: string | null } {
    const limit = filter.limit ?? 100;
    const offset = filter.cursor ? Number(Buffer.from(filter.cursor, 'base64url').toString()) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw new EngineError('INVALID_ARGUMENT', `cursor ${JSON.stringify(filter.cursor)} is not a cursor this store issued`, { parameter: 'cursor' });
    const all = this.matching(filter).sort((a, b) => b.lodged.localeCompare(a.lodged) || b.id - a.id);
    const page = all.slice(offset, offset + limit);
    return { records: page, next: offset + limit < all.length ? Buffer.from(String(offset + limit)).toString('base64url') : null };
  }

  /** Counts per category of records matching `filter` (every category present, zero when none). */
  categoryCounts(filter: DaFilter = {}): Record<DaCategory, number> {
    const out = Object.fromEntries(DA_CATEGORIES.map((c) => [c, 0])) as Record<DaCategory, number>;
    for (const r of this.matching(filter)) out[r.category]++;
    return out;
  }

  /** The councils tracked, with record counts and their latest fetch. */
  councils(): { council: string; state: StateCode; count: number; latest_fetched_at: string }[] {
    const m = new Map<string, { council: string; state: StateCode; count: number; latest_fetched_at: string }>();
    for (const r of this.records.values()) {
      const k = `${r.state}/${r.council}`;
      const c = m.get(k) ?? { council: r.council, state: r.state, count: 0, latest_fetched_at: r.last_fetched_at };
      c.count++;
      if (r.last_fetched_at > c.latest_fetched_at) c.latest_fetched_at = r.last_fetched_at;
      m.set(k, c);
    }
    return [...m.values()].sort((a, b) => a.state.localeCompare(b.state) || a.council.localeCompare(b.council));
  }

  /** The latest `last_fetched_at` over all records (meta.source_currency.da_records), or null when empty. */
  latestFetchedAt(): string | null {
    let best: string | null = null;
    for (const r of this.records.values()) if (best === null || r.last_fetched_at > best) best = r.last_fetched_at;
    return best;
  }

  /** Closes the database. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  private matching(f: DaFilter): DaRecord[] {
    return [...this.records.values()].filter((r) => (!f.state || r.state === f.state) && (!f.council || r.council === f.council) && (!f.category || r.categories.includes(f.category)) && (!f.suburb || r.suburb.toLowerCase() === f.suburb.toLowerCase()) && (!f.postcode || r.postcode === f.postcode) && (!f.lodgedFrom || r.lodged >= f.lodgedFrom) && (!f.lodgedTo || r.lodged <= f.lodgedTo) && (!f.status || r.status === f.status) && (f.residential === undefined || r.residential === f.residential));
  }
}

/** Opens a DA store (default in memory) and loads every `development_applications` table of `store` into it. */
export function daStoreFromDataStore(store: DataStore, path = ':memory:'): DaStore {
  const das = DaStore.open(path);
  for (const t of store.recordsFor('development_applications')) das.upsert(daRecordsFromRows(t.rows, t.source.id));
  return das;
}
