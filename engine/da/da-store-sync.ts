/**
 * One connection to a DA store file and what it holds in memory of it, kept in step with every writer.
 *
 * Several processes may share the file (the server, and `propintel das import` run beside it). Every write
 * numbers the rows it writes with a store-wide sequence (`seq`); before each query a reader checks SQLite's
 * `data_version` and, when another connection has committed, pulls the rows written since into its radius
 * index ({@link DaConnection.refresh}), or reads the newer snapshot another connection persisted. The
 * reader (da-store-read.ts) and the writer (da-store-write.ts) share one of these.
 */
import type Database from 'better-sqlite3';
import { STATES } from '../catalogue/states.js';
import { DA_CATEGORIES } from './categories.js';
import { dayNumber, DaSpatialIndex, type SpatialEntry, type SpatialSnapshot } from './da-spatial.js';
import { STATUS_GROUPS } from './status-rules.js';

/** Options of {@link DaStore.open}. */
export interface DaStoreOptions {
  /**
   * Rebuild the radius snapshot once this many records changed since it was taken (default 50,000, or a
   * tenth of the snapshot when larger).
   */
  snapshotDelta?: number;
}

export const CATEGORY_INDEX = new Map<string, number>(DA_CATEGORIES.map((c, i) => [c, i]));
export const GROUP_INDEX = new Map<string, number>(STATUS_GROUPS.map((g, i) => [g, i]));
export const STATE_INDEX = new Map<string, number>(STATES.map((s, i) => [s, i]));

/** The columns a radius-index entry is made of, in {@link entryOf}'s order. */
export const ENTRY_COLUMNS = 'id, longitude, latitude, lodgement_date, trade_category, status_group, state, lot_count, number_of_dwellings';
export type EntryRow = [number, number | null, number | null, string, string, string, string, number | null, number | null];

export const entryOf = ([id, lng, lat, lodged, category, group, state, lots, dwellings]: EntryRow): SpatialEntry | null =>
  lng === null || lat === null
    ? null
    : { id, lon: lng, lat, lodged: dayNumber(lodged), category: CATEGORY_INDEX.get(category) ?? CATEGORY_INDEX.get('other')!, group: GROUP_INDEX.get(group) ?? GROUP_INDEX.get('other')!, state: STATE_INDEX.get(state) ?? 255, lots: lots ?? 0, dwellings: dwellings ?? 0 };

const copyBuffer = (b: Buffer): ArrayBuffer => {
  const out = new ArrayBuffer(b.byteLength);
  new Uint8Array(out).set(b);
  return out;
};

/** The sequence, statement cache, count cache and radius index of one connection (see the module comment). */
export class DaConnection {
  readonly spatial = new DaSpatialIndex();
  private readonly statements = new Map<string, Database.Statement>();
  /** Counts of filters answered by a full count, cleared on any write. */
  readonly counts = new Map<string, number>();
  readonly memory: boolean;
  /** The last sequence number this connection has incorporated. */
  seq = 0;
  snapshotSeq = -1;
  dataVersion = -1;
  spatialStale = false;

  constructor(readonly db: Database.Database, readonly path: string, private readonly options: DaStoreOptions) {
    this.memory = path === ':memory:' || path === '';
    this.seq = this.readSeq();
    this.dataVersion = this.stmt('PRAGMA data_version').pluck().get() as number;
    this.loadSpatial();
  }

  /** Forgets prepared statements (after the schema changed under them). */
  clearStatements(): void {
    this.statements.clear();
  }

  /** Up to date with other writers, and the radius index rebuilt when its delta grew too large. */
  fresh(): void {
    this.refresh();
    if (this.spatialStale) this.rebuildSpatial();
  }

  /**
   * After this connection's write transaction, which ran from sequence `startSeq` to `endSeq`: rows another
   * process committed between this connection's last look and the transaction come first, then the rows
   * written go into the radius index.
   */
  afterWrite(startSeq: number, endSeq: number, written: readonly { id: number; values: Record<string, unknown> }[]): void {
    if (startSeq > this.seq) this.pullDelta(this.seq, startSeq);
    for (const { id, values: v } of written) {
      this.spatial.set(id, entryOf([id, v.longitude as number | null, v.latitude as number | null, v.lodgement_date as string, v.trade_category as string, v.status_group as string, v.state as string, v.lot_count as number | null, v.number_of_dwellings as number | null]));
    }
    this.seq = endSeq;
    this.counts.clear();
    this.checkDelta();
  }

  stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.statements.size < 2000) this.statements.set(sql, s);
    }
    return s;
  }

  readSeq(): number {
    return Number(this.stmt("SELECT value FROM das_meta WHERE key = 'seq'").pluck().get() ?? 0);
  }

  /** Takes in what other connections committed since the last look (SQLite's data_version moves only for them). */
  refresh(): void {
    const v = this.stmt('PRAGMA data_version').pluck().get() as number;
    if (v === this.dataVersion) return;
    this.dataVersion = v;
    const seq = this.readSeq();
    const snap = this.stmt('SELECT seq FROM das_spatial WHERE id = 1').pluck().get() as number | undefined;
    // Another connection took a newer snapshot (after an import): read it rather than keep a large delta.
    if (snap !== undefined && snap > this.snapshotSeq) {
      this.restoreSnapshot();
      this.pullDelta(this.snapshotSeq, seq);
    } else if (seq > this.seq) {
      this.pullDelta(this.seq, seq);
    }
    if (seq !== this.seq) this.counts.clear();
    this.seq = Math.max(this.seq, seq);
    this.checkDelta();
  }

  pullDelta(fromSeq: number, toSeq: number): void {
    const rows = this.stmt(`SELECT ${ENTRY_COLUMNS} FROM das WHERE seq > ? AND seq <= ?`).raw().iterate(fromSeq, toSeq) as Iterable<EntryRow>;
    for (const r of rows) this.spatial.set(r[0], entryOf(r));
  }

  checkDelta(): void {
    const limit = Math.max(this.options.snapshotDelta ?? 50_000, Math.floor(this.spatial.snapshotSize / 10));
    if (this.spatial.deltaSize > limit) this.spatialStale = true;
  }

  loadSpatial(): void {
    if (this.restoreSnapshot()) this.pullDelta(this.snapshotSeq, this.seq);
    else this.rebuildSpatial();
    this.checkDelta();
  }

  restoreSnapshot(): boolean {
    const r = this.stmt('SELECT * FROM das_spatial WHERE id = 1').get() as { seq: number; count: number; extent: string; tree: Buffer; coords: Buffer; ids: Buffer; lodged: Buffer; category: Buffer; grp: Buffer; state: Buffer | null; lots: Buffer | null; dwellings: Buffer | null } | undefined;
    // A snapshot without the area columns (written before schema 5) is rebuilt.
    if (!r || !r.state || !r.lots || !r.dwellings) return false;
    const s: SpatialSnapshot = {
      count: r.count, extent: JSON.parse(r.extent) as SpatialSnapshot['extent'], tree: copyBuffer(r.tree), coords: copyBuffer(r.coords), ids: copyBuffer(r.ids),
      lodged: copyBuffer(r.lodged), category: copyBuffer(r.category), group: copyBuffer(r.grp), state: copyBuffer(r.state), lots: copyBuffer(r.lots), dwellings: copyBuffer(r.dwellings),
    };
    this.spatial.restore(s);
    this.snapshotSeq = r.seq;
    return true;
  }

  /** Builds the radius index from every geocoded row, as of the current sequence, and persists it (file stores). */
  rebuildSpatial(): void {
    const entries: SpatialEntry[] = [];
    const seq = this.readSeq();
    const rows = this.stmt(`SELECT ${ENTRY_COLUMNS} FROM das WHERE latitude IS NOT NULL AND longitude IS NOT NULL`).raw().iterate() as Iterable<EntryRow>;
    for (const r of rows) entries.push(entryOf(r)!);
    this.spatial.load(entries);
    this.snapshotSeq = seq;
    this.seq = Math.max(this.seq, seq);
    this.spatialStale = false;
    if (this.memory) return;
    const s = this.spatial.snapshot();
    try {
      this.stmt(`INSERT INTO das_spatial (id, seq, count, extent, tree, coords, ids, lodged, category, grp, state, lots, dwellings) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET seq = excluded.seq, count = excluded.count, extent = excluded.extent, tree = excluded.tree, coords = excluded.coords,
        ids = excluded.ids, lodged = excluded.lodged, category = excluded.category, grp = excluded.grp, state = excluded.state, lots = excluded.lots, dwellings = excluded.dwellings`).run(
        seq, s.count, JSON.stringify(s.extent), Buffer.from(s.tree), Buffer.from(s.coords), Buffer.from(s.ids), Buffer.from(s.lodged), Buffer.from(s.category), Buffer.from(s.group),
        Buffer.from(s.state), Buffer.from(s.lots), Buffer.from(s.dwellings),
      );
    } catch {
      // A read-only file keeps the snapshot in memory only; the next writer persists one.
    }
  }
}
