/**
 * The DA store: one SQLite database (better-sqlite3, WAL) holds the records, their filter indexes and two
 * summary tables (da-schema.ts); a radius index in memory (da-spatial.ts) answers distance queries. The
 * property payload's DA block, the DA listing and (later) the childcare feed, SQL and webhooks read this one
 * store. It is sized for the original service's scale (about 767,000 records from 330 councils): filters
 * run on indexes, counts come from a summary table or an index, and opening a large store reads the radius
 * index's persisted snapshot instead of every row.
 *
 * Several processes may share the file (the server, and `propintel das import` run beside it). Every write
 * runs in an IMMEDIATE transaction and numbers the rows it writes with a store-wide sequence (`seq`); a
 * reader checks SQLite's `data_version` before each query and, when another connection has committed,
 * pulls the rows written since into its radius index, so an import is visible at once.
 */
import { booleanPointInPolygon } from '@turf/turf';
import Database from 'better-sqlite3';
import type { MultiPolygon, Polygon } from 'geojson';
import { STATES, type StateCode } from '../catalogue/states.js';
import { EngineError } from '../errors.js';
import { distanceMetres } from '../geo/distance.js';
import { DA_CATEGORIES, type DaCategory } from './categories.js';
import { daListingItem, parseDaRows, type DaDraft, type DaRecord } from './da-record.js';
import { compareWithStored, CONTENT_COLUMNS, DA_DERIVATION_VERSION, DA_SCHEMA_VERSION, dropLegacyLayout, migrateDaSchema, recordOfRow, rowValues, suburbKey, type DaRow } from './da-schema.js';
import { estimateBytes } from '../memory/estimate.js';
import { createStatements, sqliteReconcile } from '../data/table-schema.js';
import { DA_TABLES } from './da-tables.js';
import { EVENT_RETENTION_MS, eventOf, newEventId, type DaEvent, type DaEventType } from './da-events.js';
import { dayNumber, DaSpatialIndex, type AreaTotals, type SpatialCursor, type SpatialEntry, type SpatialFilter, type SpatialHit, type SpatialSnapshot } from './da-spatial.js';
import { STATUS_GROUPS, type StatusGroup } from './status-rules.js';

/** Filters of {@link DaStore.list} and {@link DaStore.count}; all optional, combined with AND. */
export interface DaFilter {
  state?: StateCode;
  /** Any of these states (a childcare key's entitlement); with `state`, both apply. */
  states?: readonly StateCode[];
  /** Council name, exact (case ignored). */
  council?: string;
  /** The primary category (the one /categories counts). */
  category?: DaCategory;
  /** Suburb name, exact (case and spacing ignored). */
  suburb?: string;
  postcode?: string;
  /** Lodged on or after, YYYY-MM-DD. */
  since?: string;
  /** Lodged on or before, YYYY-MM-DD. */
  until?: string;
  status_group?: StatusGroup;
  is_residential?: boolean;
}

/** Filters of a radius query. */
export interface DaNearbyFilter {
  category?: DaCategory;
  since?: string;
  until?: string;
  status_group?: StatusGroup;
}

/** Which page of a list: by position (`offset`) or after a record (keyset, `after`). */
export interface DaPageRequest {
  /** Records per page. */
  limit: number;
  /** Records to skip (ignored when `after` is given). */
  offset?: number;
  /** Continue after this record of the listing order (lodgement date descending, then id descending). */
  after?: { lodged: string; id: number };
}

/** What one upsert did to one record. */
export type UpsertOutcome = 'added' | 'changed' | 'refreshed' | 'unchanged';

/** The result of {@link DaStore.upsert}. */
export interface UpsertResult {
  added: number;
  /** Content changed (status, dates, description, coordinates, ...). */
  changed: number;
  /** Only when it was seen changed (`date_fetched`, `observed_at`). */
  refreshed: number;
  unchanged: number;
  /** Per input record, in input order: the id it has in the store and what happened. */
  outcomes: { id: number; outcome: UpsertOutcome; previous?: DaRecord }[];
}

/** A council as /councils reports it. */
export interface CouncilSummary {
  name: string;
  state: StateCode;
  count: number;
  /** The latest `date_fetched` of its records. */
  last_updated: string;
  geocoded: number;
  status_present: number;
}

/** Options of {@link DaStore.open}. */
export interface DaStoreOptions {
  /**
   * Rebuild the radius snapshot once this many records changed since it was taken (default 50,000, or a
   * tenth of the snapshot when larger).
   */
  snapshotDelta?: number;
}

const FACET_FILTERS: ReadonlySet<keyof DaFilter> = new Set(['state', 'category', 'status_group', 'is_residential']);
const ORDER = 'ORDER BY lodgement_date DESC, id DESC';
const CATEGORY_INDEX = new Map<string, number>(DA_CATEGORIES.map((c, i) => [c, i]));
const GROUP_INDEX = new Map<string, number>(STATUS_GROUPS.map((g, i) => [g, i]));

function spatialFilter(f: DaNearbyFilter): SpatialFilter {
  return {
    category: f.category === undefined ? -1 : CATEGORY_INDEX.get(f.category)!,
    group: f.status_group === undefined ? -1 : GROUP_INDEX.get(f.status_group)!,
    since: f.since === undefined ? 0 : dayNumber(f.since),
    until: f.until === undefined ? 99_999_999 : dayNumber(f.until),
  };
}

function where(f: DaFilter): { sql: string; params: unknown[] } {
  const c: string[] = [];
  const p: unknown[] = [];
  if (f.state !== undefined) c.push('state = ?'), p.push(f.state);
  if (f.states !== undefined) {
    // One state is an equality (so the planner uses the state-led indexes and their order).
    if (f.states.length === 1) c.push('state = ?'), p.push(f.states[0]);
    else c.push(f.states.length ? `state IN (${f.states.map(() => '?').join(', ')})` : '0'), p.push(...f.states);
  }
  if (f.council !== undefined) c.push('council_name = ?'), p.push(f.council.trim());
  if (f.category !== undefined) c.push('trade_category = ?'), p.push(f.category);
  if (f.suburb !== undefined) c.push('suburb_key = ?'), p.push(suburbKey(f.suburb));
  if (f.postcode !== undefined) c.push('address_postcode = ?'), p.push(f.postcode);
  if (f.since !== undefined) c.push('lodgement_date >= ?'), p.push(f.since);
  if (f.until !== undefined) c.push('lodgement_date <= ?'), p.push(f.until);
  if (f.status_group !== undefined) c.push('status_group = ?'), p.push(f.status_group);
  if (f.is_residential !== undefined) c.push('is_residential = ?'), p.push(f.is_residential ? 1 : 0);
  return { sql: c.length ? `WHERE ${c.join(' AND ')}` : '', params: p };
}

const STATE_INDEX = new Map<string, number>(STATES.map((s, i) => [s, i]));

/** The columns a radius-index entry is made of, in {@link entryOf}'s order. */
const ENTRY_COLUMNS = 'id, longitude, latitude, lodgement_date, trade_category, status_group, state, lot_count, number_of_dwellings';
type EntryRow = [number, number | null, number | null, string, string, string, string, number | null, number | null];

const entryOf = ([id, lng, lat, lodged, category, group, state, lots, dwellings]: EntryRow): SpatialEntry | null =>
  lng === null || lat === null
    ? null
    : { id, lon: lng, lat, lodged: dayNumber(lodged), category: CATEGORY_INDEX.get(category) ?? CATEGORY_INDEX.get('other')!, group: GROUP_INDEX.get(group) ?? GROUP_INDEX.get('other')!, state: STATE_INDEX.get(state) ?? 255, lots: lots ?? 0, dwellings: dwellings ?? 0 };

const copyBuffer = (b: Buffer): ArrayBuffer => {
  const out = new ArrayBuffer(b.byteLength);
  new Uint8Array(out).set(b);
  return out;
};

/** The columns of a row the summary tables count. */
type SummaryRow = Pick<DaRow, 'state' | 'trade_category' | 'status_group' | 'is_residential' | 'council_name' | 'latitude' | 'status' | 'date_fetched' | 'lodgement_date' | 'lot_count' | 'number_of_dwellings'>;

/**
 * What a transaction's writes add to and take from the summary tables (das_counts, das_days, das_dev_days,
 * das_councils): each written row adds itself and takes away the row it replaced; `flush` writes the sums.
 */
class SummaryDelta {
  private readonly counts = new Map<string, number>();
  private readonly days = new Map<string, number>();
  private readonly councils = new Map<string, { state: string; name: string; n: number; geocoded: number; status: number; last: string }>();
  private readonly devDays = new Map<string, { state: string; day: string; n: number; s: number; l: number; d: number }>();

  add(v: SummaryRow, sign: 1 | -1): void {
    const k = `${v.state}\u0000${v.trade_category}\u0000${v.status_group}\u0000${v.is_residential}`;
    this.counts.set(k, (this.counts.get(k) ?? 0) + sign);
    this.days.set(v.lodgement_date, (this.days.get(v.lodgement_date) ?? 0) + sign);
    const dk = `${v.state}\u0000${v.lodgement_date}`;
    let dd = this.devDays.get(dk);
    if (!dd) this.devDays.set(dk, (dd = { state: v.state, day: v.lodgement_date, n: 0, s: 0, l: 0, d: 0 }));
    dd.n += sign;
    if (v.trade_category === 'subdivision') dd.s += sign;
    dd.l += sign * (v.lot_count ?? 0);
    dd.d += sign * (v.number_of_dwellings ?? 0);
    const ck = `${v.state}\u0000${v.council_name.toLowerCase()}`;
    let c = this.councils.get(ck);
    if (!c) this.councils.set(ck, (c = { state: v.state, name: v.council_name, n: 0, geocoded: 0, status: 0, last: '' }));
    c.n += sign;
    if (v.latitude !== null) c.geocoded += sign;
    if (v.status) c.status += sign;
    if (sign > 0 && v.date_fetched > c.last) c.last = v.date_fetched;
  }

  /** Writes the sums through `stmt` (inside the caller's transaction). */
  flush(stmt: (sql: string) => Database.Statement): void {
    const addCount = stmt(`INSERT INTO das_counts (state, trade_category, status_group, is_residential, n) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET n = n + excluded.n`);
    for (const [k, n] of this.counts) if (n) addCount.run(...k.split('\u0000').map((v, i) => (i === 3 ? Number(v) : v)), n);
    const addDay = stmt('INSERT INTO das_days (lodgement_date, n) VALUES (?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n');
    for (const [day, n] of this.days) if (n) addDay.run(day, n);
    const addDevDay = stmt(`INSERT INTO das_dev_days (state, lodgement_date, n, subdivisions, lots, dwellings) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET n = n + excluded.n, subdivisions = subdivisions + excluded.subdivisions, lots = lots + excluded.lots, dwellings = dwellings + excluded.dwellings`);
    for (const d of this.devDays.values()) if (d.n || d.s || d.l || d.d) addDevDay.run(d.state, d.day, d.n, d.s, d.l, d.d);
    const addCouncil = stmt(`INSERT INTO das_councils (state, council_name, n, geocoded, status_present, last_updated) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET n = n + excluded.n, geocoded = geocoded + excluded.geocoded, status_present = status_present + excluded.status_present,
        last_updated = max(last_updated, excluded.last_updated)`);
    for (const c of this.councils.values()) addCouncil.run(c.state, c.name, c.n, c.geocoded, c.status, c.last);
  }
}

/** The DA store. */
export class DaStore {
  private readonly spatial = new DaSpatialIndex();
  private readonly statements = new Map<string, Database.Statement>();
  private readonly counts = new Map<string, number>();
  private readonly categoryCache = new Map<DaCategory, { seq: number; byId: Map<number, DaRecord>; sorted: DaRecord[] | null }>();
  private readonly memory: boolean;
  /** The last sequence number this instance has incorporated. */
  private seq = 0;
  private snapshotSeq = -1;
  private dataVersion = -1;
  private spatialStale = false;

  private constructor(private readonly db: Database.Database, readonly path: string, private readonly options: DaStoreOptions) {
    this.memory = path === ':memory:' || path === '';
    this.seq = this.readSeq();
    this.dataVersion = this.stmt('PRAGMA data_version').pluck().get() as number;
    this.loadSpatial();
  }

  /** Opens (creating when absent) a store file, or ':memory:'. The file may also hold other tables (the server's). */
  static open(path: string, options: DaStoreOptions = {}): DaStore {
    let db: Database.Database;
    try {
      db = new Database(path);
    } catch (err) {
      throw new EngineError('UNAVAILABLE', `the DA store ${path} could not be opened: ${(err as Error).message}`, { component: 'development_applications', file: path });
    }
    try {
      if (path !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      // A page cache of 64 MB and reads through mmap: list pages touch a few index pages and 100 rows.
      db.pragma('cache_size = -65536');
      if (path !== ':memory:') db.pragma('mmap_size = 1073741824');
      const version = (() => {
        try {
          return db.prepare("SELECT value FROM das_meta WHERE key = 'schema_version'").pluck().get() as string | undefined;
        } catch {
          return undefined;
        }
      })();
      if (version !== undefined && Number(version) !== DA_SCHEMA_VERSION && !migrateDaSchema(db, Number(version))) {
        throw new EngineError('UNSUPPORTED', `the DA store ${path} has schema version ${version}; this engine reads ${DA_SCHEMA_VERSION}`, { file: path });
      }
      // Version 1 kept records as JSON in a table of the same name; its records reload from the datasets.
      if (version === undefined) dropLegacyLayout(db);
      sqliteReconcile(db, DA_TABLES);
      db.prepare("INSERT OR IGNORE INTO das_meta (key, value) VALUES ('schema_version', ?), ('seq', '0'), ('derivation_version', ?)").run(String(DA_SCHEMA_VERSION), String(DA_DERIVATION_VERSION));
    } catch (err) {
      db.close();
      throw err;
    }
    const store = new DaStore(db, path, options);
    store.rederiveIfStale();
    return store;
  }

  /** Number of records. */
  get size(): number {
    return this.stmt('SELECT coalesce(sum(n), 0) FROM das_counts').pluck().get() as number;
  }

  /**
   * The store's change sequence: it increases with every record written, by this process or another one
   * sharing the file. DA lookups are never cached (property spec 2.8), so anything holding a response that
   * contains DAs (the server's response cache) keys on it.
   */
  get revision(): number {
    this.refresh();
    return this.seq;
  }

  /**
   * Inserts or updates records in one transaction, matched on (state, council, council reference): a council
   * is named by its state as well (Central Coast Council is in NSW and in Tasmania). A new record
   * keeps the `id` it asks for when that id is free, else gets the next one. A record whose content is the
   * same is left alone (`unchanged`); one that differs only in when it was seen is `refreshed`.
   */
  upsert(drafts: readonly DaDraft[]): UpsertResult {
    this.refresh();
    const byKey = this.stmt('SELECT * FROM das WHERE state = ? AND council_name = ? AND council_reference = ?');
    const idTaken = this.stmt('SELECT 1 FROM das WHERE id = ?').pluck();
    const cols = CONTENT_COLUMNS.join(', ');
    const insert = this.stmt(`INSERT INTO das (id, ${cols}, seq) VALUES (@id, ${CONTENT_COLUMNS.map((c) => `@${c}`).join(', ')}, @seq)`);
    const update = this.stmt(`UPDATE das SET ${CONTENT_COLUMNS.map((c) => `${c} = @${c}`).join(', ')}, seq = @seq WHERE id = @id`);
    // The webhooks' outbox (da-events.ts): written in this transaction, so it commits or fails with the records.
    const addEvent = this.stmt('INSERT INTO da_events (id, type, da_id, created_at, data) VALUES (?, ?, ?, ?, ?)');
    const eventTime = new Date().toISOString();
    const emit = (id: number, row: Parameters<typeof eventOf>[1], old?: DaRow) => {
      const e = eventOf(id, row, old);
      if (e) addEvent.run(newEventId(), e.type, id, eventTime, JSON.stringify(e.data));
    };
    const result: UpsertResult = { added: 0, changed: 0, refreshed: 0, unchanged: 0, outcomes: [] };
    const written: { id: number; values: ReturnType<typeof rowValues> }[] = [];
    let startSeq = 0;
    const run = this.db.transaction(() => {
      startSeq = this.readSeq();
      let seq = startSeq;
      const summary = new SummaryDelta();
      const contribute = (v: SummaryRow, sign: 1 | -1) => summary.add(v, sign);
      for (const d of drafts) {
        const values = rowValues(d);
        const old = byKey.get(d.state, d.council, d.ref) as DaRow | undefined;
        if (old) {
          const verdict = compareWithStored(values, old as unknown as Record<string, unknown>);
          if (verdict === 'unchanged') {
            result.unchanged++;
            result.outcomes.push({ id: old.id, outcome: 'unchanged' });
            continue;
          }
          update.run({ ...values, id: old.id, seq: ++seq });
          emit(old.id, values as DaRow, old);
          contribute(old, -1);
          contribute(values as DaRow, 1);
          const outcome: UpsertOutcome = verdict;
          result[outcome]++;
          result.outcomes.push({ id: old.id, outcome, previous: recordOfRow(old) });
          written.push({ id: old.id, values });
        } else {
          const wanted = d.id !== null && !idTaken.get(d.id) ? d.id : null;
          const id = Number(insert.run({ ...values, id: wanted, seq: ++seq }).lastInsertRowid);
          emit(id, values as DaRow);
          contribute(values as DaRow, 1);
          result.added++;
          result.outcomes.push({ id, outcome: 'added' });
          written.push({ id, values });
        }
      }
      summary.flush((sql) => this.stmt(sql));
      this.stmt("UPDATE das_meta SET value = ? WHERE key = 'seq'").run(String(seq));
      this.stmt('DELETE FROM da_events WHERE created_at < ?').run(new Date(Date.parse(eventTime) - EVENT_RETENTION_MS).toISOString());
      return seq;
    });
    const endSeq = run.immediate();
    // Rows another process committed between this instance's last look and this transaction come first.
    if (startSeq > this.seq) this.pullDelta(this.seq, startSeq);
    for (const w of written) {
      const v = w.values;
      this.spatial.set(w.id, entryOf([w.id, v.longitude as number | null, v.latitude as number | null, v.lodgement_date as string, v.trade_category as string, v.status_group as string, v.state as string, v.lot_count as number | null, v.number_of_dwellings as number | null]));
    }
    this.seq = endSeq;
    this.counts.clear();
    this.checkDelta();
    return result;
  }

  /**
   * Writes records replicated from another store (a replica's local copy of the PostgreSQL records,
   * server/store/da-replica.ts): each row as given, id included, replacing the row with that id. The
   * summary tables and the radius index follow; no events are written (the source keeps the outbox).
   * Returns this store's sequence after the write.
   */
  applyRows(rows: readonly (Record<(typeof CONTENT_COLUMNS)[number], string | number | null> & { id: number })[]): number {
    this.refresh();
    if (!rows.length) return this.seq;
    const byId = this.stmt('SELECT * FROM das WHERE id = ?');
    const cols = CONTENT_COLUMNS.join(', ');
    const put = this.stmt(`INSERT OR REPLACE INTO das (id, ${cols}, seq) VALUES (@id, ${CONTENT_COLUMNS.map((c) => `@${c}`).join(', ')}, @seq)`);
    let startSeq = 0;
    const run = this.db.transaction(() => {
      startSeq = this.readSeq();
      let seq = startSeq;
      const summary = new SummaryDelta();
      for (const r of rows) {
        const old = byId.get(r.id) as DaRow | undefined;
        if (old) summary.add(old, -1);
        put.run({ ...r, seq: ++seq });
        summary.add(r as unknown as SummaryRow, 1);
      }
      summary.flush((sql) => this.stmt(sql));
      this.stmt("UPDATE das_meta SET value = ? WHERE key = 'seq'").run(String(seq));
      return seq;
    });
    const endSeq = run.immediate();
    if (startSeq > this.seq) this.pullDelta(this.seq, startSeq);
    for (const v of rows) {
      this.spatial.set(v.id, entryOf([v.id, v.longitude as number | null, v.latitude as number | null, v.lodgement_date as string, v.trade_category as string, v.status_group as string, v.state as string, v.lot_count as number | null, v.number_of_dwellings as number | null]));
    }
    this.seq = endSeq;
    this.counts.clear();
    this.checkDelta();
    return endSeq;
  }

  /**
   * Drops the listing's secondary indexes for a bulk load into an empty store (a replica's first copy): rows
   * then go in about four times faster, and {@link endBulkLoad} builds the indexes once at the end. The
   * identity index stays, so a duplicate record is still refused. Not for a store that is being read.
   */
  beginBulkLoad(): void {
    const names = this.stmt("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'das' AND sql IS NOT NULL AND name <> 'das_identity'").pluck().all() as string[];
    for (const n of names) this.db.exec(`DROP INDEX IF EXISTS ${n}`);
    this.statements.clear();
  }

  /** Rebuilds what {@link beginBulkLoad} dropped (every index of the schema that is missing). */
  endBulkLoad(): void {
    for (const sql of createStatements(DA_TABLES, 'sqlite')) this.db.exec(sql);
    this.statements.clear();
  }

  /** A value kept beside the records (the replica's position in its source); undefined when unset. */
  metaValue(key: string): string | undefined {
    return this.stmt('SELECT value FROM das_meta WHERE key = ?').pluck().get(key) as string | undefined;
  }

  /** Sets a value kept beside the records. */
  setMetaValue(key: string, value: string): void {
    this.stmt('INSERT INTO das_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /**
   * Up to `limit` records written after change sequence `afterSeq` (by this process or another), oldest write
   * first, as rows of `columns`, and the sequence of the last one (the SQL mirror's incremental copy).
   */
  rowsAfter(afterSeq: number, columns: readonly string[], limit: number): { rows: unknown[][]; lastSeq: number } {
    const rows = this.stmt(`SELECT ${columns.join(', ')}, seq FROM das WHERE seq > ? ORDER BY seq LIMIT ?`).raw().all(afterSeq, limit) as unknown[][];
    const lastSeq = rows.length ? (rows[rows.length - 1].pop() as number) : afterSeq;
    for (let i = 0; i < rows.length - 1; i++) rows[i].pop();
    return { rows, lastSeq };
  }

  /** Up to `limit` events of the outbox after position `afterSeq`, oldest first (da-events.ts). */
  eventsAfter(afterSeq: number, limit: number): DaEvent[] {
    const rows = this.stmt('SELECT seq, id, type, created_at, data FROM da_events WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit) as { seq: number; id: string; type: DaEventType; created_at: string; data: string }[];
    return rows.map((r) => ({ seq: r.seq, id: r.id, type: r.type, created_at: r.created_at, data: JSON.parse(r.data) }));
  }

  /** The position of the latest event written (0 when none): a new subscription hears only of later ones. */
  lastEventSeq(): number {
    return (this.stmt('SELECT coalesce(max(seq), 0) FROM da_events').pluck().get() as number) ?? 0;
  }

  /** Deletes events at or before position `throughSeq` written before `before` (the dispatcher has read them). */
  pruneEvents(throughSeq: number, before: Date): number {
    return this.stmt('DELETE FROM da_events WHERE seq <= ? AND created_at < ?').run(throughSeq, before.toISOString()).changes;
  }

  /** The record with `id`. */
  get(id: number): DaRecord | undefined {
    const row = this.stmt('SELECT * FROM das WHERE id = ?').get(id) as DaRow | undefined;
    return row ? recordOfRow(row) : undefined;
  }

  /** The records with `ids`, in that order (ids not found are left out). */
  getMany(ids: readonly number[]): DaRecord[] {
    if (!ids.length) return [];
    const rows = this.stmt('SELECT * FROM das WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as DaRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: DaRecord[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (r) out.push(recordOfRow(r));
    }
    return out;
  }

  /**
   * Geocoded records within `radiusM` metres matching `filter`, nearest first (ties by id), as hits with
   * their distance: the caller fetches only the records of the page it shows.
   */
  nearbyHits(lon: number, lat: number, radiusM: number, filter: DaNearbyFilter = {}): SpatialHit[] {
    this.refresh();
    if (this.spatialStale) this.rebuildSpatial();
    const { category, group, since, until } = spatialFilter(filter);
    const hits = this.spatial.within(lon, lat, radiusM);
    const kept = category < 0 && group < 0 && !since && until === 99_999_999 ? hits : hits.filter((h) => (category < 0 || h.category === category) && (group < 0 || h.group === group) && h.lodged >= since && h.lodged <= until);
    return kept.sort((a, b) => a.distance - b.distance || a.id - b.id);
  }

  /**
   * One page of {@link nearbyHits} and their number, without ordering them all: the hits after `after` (a
   * (distance, id) cursor) or else after the first `offset`, at most `limit`.
   */
  nearbyPage(lon: number, lat: number, radiusM: number, filter: DaNearbyFilter, page: { limit: number; offset?: number; after?: SpatialCursor }): { total: number; hits: SpatialHit[] } {
    this.refresh();
    if (this.spatialStale) this.rebuildSpatial();
    return this.spatial.page(lon, lat, radiusM, spatialFilter(filter), page.after ?? null, page.offset ?? 0, page.limit);
  }

  /** Records within `radiusM` metres: most recently lodged first (default) or nearest first. */
  nearby(lon: number, lat: number, radiusM: number, options: { orderBy?: 'lodged_desc' | 'distance'; limit?: number } = {}): { record: DaRecord; distanceM: number }[] {
    const hits = this.nearbyHits(lon, lat, radiusM);
    if ((options.orderBy ?? 'lodged_desc') === 'lodged_desc') hits.sort((a, b) => b.lodged - a.lodged || a.distance - b.distance || a.id - b.id);
    const chosen = options.limit !== undefined ? hits.slice(0, options.limit) : hits;
    const records = new Map(this.getMany(chosen.map((h) => h.id)).map((r) => [r.id, r]));
    return chosen.filter((h) => records.has(h.id)).map((h) => ({ record: records.get(h.id)!, distanceM: h.distance }));
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
    return this.getMany(this.nearbyHits(cx, cy, reach + 1).map((h) => h.id)).filter((r) => booleanPointInPolygon([r.lng!, r.lat!], polygon));
  }

  /** A page of records matching `filter`, newest lodged first, ties by id (highest first). */
  list(filter: DaFilter, page: DaPageRequest): DaRecord[] {
    const w = where(filter);
    const limit = Math.max(0, Math.floor(page.limit));
    let rows: DaRow[];
    if (page.after) {
      const sql = `SELECT * FROM das ${w.sql ? `${w.sql} AND` : 'WHERE'} (lodgement_date, id) < (?, ?) ${ORDER} LIMIT ?`;
      rows = this.stmt(sql).all(...w.params, page.after.lodged, page.after.id, limit) as DaRow[];
    } else if (page.offset) {
      // The skipped entries are stepped over in an index that also holds the filter columns, never as rows.
      const sql = `SELECT * FROM das WHERE id IN (SELECT id FROM das ${w.sql} ${ORDER} LIMIT ? OFFSET ?) ${ORDER}`;
      rows = this.stmt(sql).all(...w.params, limit, page.offset) as DaRow[];
    } else {
      rows = this.stmt(`SELECT * FROM das ${w.sql} ${ORDER} LIMIT ?`).all(...w.params, limit) as DaRow[];
    }
    return rows.map(recordOfRow);
  }

  /** The number of records matching `filter`. */
  count(filter: DaFilter): number {
    this.refresh();
    const keys = (Object.keys(filter) as (keyof DaFilter)[]).filter((k) => filter[k] !== undefined);
    if (keys.every((k) => FACET_FILTERS.has(k))) {
      const w = where(filter);
      return this.stmt(`SELECT coalesce(sum(n), 0) FROM das_counts ${w.sql}`).pluck().get(...w.params) as number;
    }
    if (keys.length && keys.every((k) => k === 'since' || k === 'until')) {
      const w = where(filter);
      return this.stmt(`SELECT coalesce(sum(n), 0) FROM das_days ${w.sql}`).pluck().get(...w.params) as number;
    }
    const key = JSON.stringify(keys.sort().map((k) => [k, filter[k]]));
    let n = this.counts.get(key);
    if (n === undefined) {
      const w = where(filter);
      n = this.stmt(`SELECT count(*) FROM das ${w.sql}`).pluck().get(...w.params) as number;
      if (this.counts.size >= 5000) this.counts.clear();
      this.counts.set(key, n);
    }
    return n;
  }

  /**
   * Development context of a filter (the childcare analysis's demand signals): records, subdivisions, and
   * the lots and dwellings they propose (nulls count as none).
   */
  developmentTotals(filter: DaFilter): { all_development: number; subdivisions: number; lots: number; dwellings: number } {
    this.refresh();
    const keys = (Object.keys(filter) as (keyof DaFilter)[]).filter((k) => filter[k] !== undefined);
    if (keys.every((k) => k === 'state' || k === 'states' || k === 'since' || k === 'until')) {
      // From the per-state, per-day summary (schema 4): a few thousand rows at most.
      const w = where(filter);
      const r = this.stmt(`SELECT coalesce(sum(n), 0) AS n, coalesce(sum(subdivisions), 0) AS s, coalesce(sum(lots), 0) AS l, coalesce(sum(dwellings), 0) AS d FROM das_dev_days ${w.sql}`).get(...w.params) as { n: number; s: number; l: number; d: number };
      return { all_development: r.n, subdivisions: r.s, lots: r.l, dwellings: r.d };
    }
    const w = where(filter);
    const r = this.stmt(`SELECT count(*) AS n, coalesce(sum(trade_category = 'subdivision'), 0) AS s, coalesce(sum(lot_count), 0) AS l, coalesce(sum(number_of_dwellings), 0) AS d FROM das ${w.sql}`).get(...w.params) as { n: number; s: number; l: number; d: number };
    return { all_development: r.n, subdivisions: r.s, lots: r.l, dwellings: r.d };
  }

  /**
   * The geocoded records of a filter inside a lon/lat box, as light rows (an area analysis then keeps those
   * inside its circle or polygon).
   */
  pointsIn(filter: DaFilter, bbox: readonly [number, number, number, number]): { id: number; trade_category: string; lot_count: number | null; number_of_dwellings: number | null; longitude: number; latitude: number }[] {
    this.refresh();
    const w = where(filter);
    const box = 'latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?';
    const sql = `SELECT id, trade_category, lot_count, number_of_dwellings, longitude, latitude FROM das ${w.sql ? `${w.sql} AND ${box}` : `WHERE ${box}`}`;
    return this.stmt(sql).all(...w.params, bbox[1], bbox[3], bbox[0], bbox[2]) as ReturnType<DaStore['pointsIn']>;
  }

  /**
   * Every record of `category`, newest lodged first (ties by id, highest first), held in memory and brought
   * up to date by sequence on each call (the rows written since, through the `seq` index). The childcare
   * analysis reads its whole category on every request: at a million records, reading its 16,000 NSW rows
   * from SQLite took 300 to 800 ms of scattered page reads. Meant for small categories (a few per cent).
   */
  categoryRecords(category: DaCategory): readonly DaRecord[] {
    this.refresh();
    let c = this.categoryCache.get(category);
    if (!c) {
      const seq = this.seq;
      const rows = this.stmt('SELECT * FROM das WHERE trade_category = ?').all(category) as DaRow[];
      this.categoryCache.set(category, (c = { seq, byId: new Map(rows.map((r) => [r.id, recordOfRow(r)])), sorted: null }));
    } else if (c.seq < this.seq) {
      const seq = this.seq;
      for (const r of this.stmt('SELECT * FROM das WHERE seq > ?').iterate(c.seq) as Iterable<DaRow>) {
        if (r.trade_category === category) c.byId.set(r.id, recordOfRow(r));
        else c.byId.delete(r.id);
      }
      c.seq = seq;
      c.sorted = null;
    }
    c.sorted ??= [...c.byId.values()].sort((a, b) => (a.lodged < b.lodged ? 1 : a.lodged > b.lodged ? -1 : b.id - a.id));
    return c.sorted;
  }

  /**
   * An area's demand signals and the ids of one category's records inside it, from the radius index (no row
   * read): the geocoded records of `state` lodged in [since, until] inside the lon/lat `box` for which
   * `inside` holds (see DaSpatialIndex.area).
   */
  area(state: StateCode, box: readonly [number, number, number, number], inside: (lon: number, lat: number) => boolean, options: { since?: string; until?: string; keep?: DaCategory } = {}): AreaTotals & { kept: number[] } {
    this.refresh();
    if (this.spatialStale) this.rebuildSpatial();
    const since = options.since ? dayNumber(options.since) : 0, until = options.until ? dayNumber(options.until) : 99_999_999;
    return this.spatial.area(box, STATE_INDEX.get(state) ?? 255, since, until, inside, CATEGORY_INDEX.get('subdivision')!, options.keep ? CATEGORY_INDEX.get(options.keep)! : -1);
  }

  /**
   * The geocoded records inside a lon/lat box as map points (vector tiles): id, position, primary category,
   * status group and lodgement date, from the radius index without reading a row; ordered by id.
   */
  tilePoints(box: readonly [number, number, number, number]): { id: number; lng: number; lat: number; category: DaCategory; status_group: StatusGroup; lodged: string }[] {
    this.refresh();
    if (this.spatialStale) this.rebuildSpatial();
    const out: { id: number; lng: number; lat: number; category: DaCategory; status_group: StatusGroup; lodged: string }[] = [];
    const day = (d: number) => `${Math.floor(d / 10000)}-${String(Math.floor(d / 100) % 100).padStart(2, '0')}-${String(d % 100).padStart(2, '0')}`;
    this.spatial.inBox(box, (id, lng, lat, lodged, category, group) => out.push({ id, lng, lat, category: DA_CATEGORIES[category], status_group: STATUS_GROUPS[group], lodged: day(lodged) }));
    return out.sort((a, b) => a.id - b.id);
  }

  /** Records per primary category (every category present, zero when none), optionally in one state. */
  categoryCounts(filter: { state?: StateCode } = {}): Record<DaCategory, number> {
    const out = Object.fromEntries(DA_CATEGORIES.map((c) => [c, 0])) as Record<DaCategory, number>;
    const w = where(filter);
    for (const r of this.stmt(`SELECT trade_category AS c, sum(n) AS n FROM das_counts ${w.sql} GROUP BY trade_category`).all(...w.params) as { c: DaCategory; n: number }[]) {
      if (r.c in out) out[r.c] += r.n;
    }
    return out;
  }

  /** Records per state, status group and residential flag (for /stats). */
  facetCounts(): { by_state: Record<string, number>; by_status_group: Record<string, number>; residential: number } {
    const by_state = Object.fromEntries(STATES.map((s) => [s, 0]));
    const by_status_group = Object.fromEntries(STATUS_GROUPS.map((g) => [g, 0]));
    let residential = 0;
    for (const r of this.stmt('SELECT state, status_group, is_residential, sum(n) AS n FROM das_counts GROUP BY state, status_group, is_residential').all() as { state: string; status_group: string; is_residential: number; n: number }[]) {
      by_state[r.state] = (by_state[r.state] ?? 0) + r.n;
      by_status_group[r.status_group] = (by_status_group[r.status_group] ?? 0) + r.n;
      if (r.is_residential) residential += r.n;
    }
    return { by_state, by_status_group, residential };
  }

  /** The councils holding records, by state then name, optionally in one state. */
  councils(filter: { state?: StateCode } = {}): CouncilSummary[] {
    const rows = this.stmt(`SELECT state, council_name AS name, n AS count, last_updated, geocoded, status_present FROM das_councils WHERE n > 0 ${filter.state ? 'AND state = ?' : ''} ORDER BY state, council_name`).all(...(filter.state ? [filter.state] : [])) as CouncilSummary[];
    return rows;
  }

  /** The earliest and latest lodgement dates, or nulls when empty. */
  lodgedRange(): { earliest: string | null; latest: string | null } {
    // Two statements: SQLite reads min() or max() from the index end only when the query has just one of them.
    const earliest = (this.stmt('SELECT min(lodgement_date) FROM das').pluck().get() as string | null) ?? null;
    const latest = (this.stmt('SELECT max(lodgement_date) FROM das').pluck().get() as string | null) ?? null;
    return { earliest, latest };
  }

  /** The latest `last_fetched_at` over all records (meta.source_currency.da_records), or null when empty. */
  latestFetchedAt(): string | null {
    return (this.stmt('SELECT max(last_updated) FROM das_councils WHERE n > 0').pluck().get() as string | null) ?? null;
  }

  /** The fingerprint recorded for a dataset source's last import, or undefined. */
  sourceFingerprint(source: string): string | undefined {
    return this.stmt('SELECT fingerprint FROM das_sources WHERE source = ?').pluck().get(source) as string | undefined;
  }

  /** Records that `source` was imported with `fingerprint`. */
  markSource(source: string, fingerprint: string, records: number, at = new Date()): void {
    this.stmt('INSERT INTO das_sources (source, fingerprint, records, imported_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET fingerprint = excluded.fingerprint, records = excluded.records, imported_at = excluded.imported_at').run(source, fingerprint, records, at.toISOString());
  }

  /**
   * Rebuilds the radius snapshot from every row and persists it, and refreshes the query planner's
   * statistics. Run after a large import, so the next process to open the store reads one snapshot.
   */
  compact(): void {
    this.refresh();
    this.rebuildSpatial();
    this.db.exec('ANALYZE');
  }

  /** Estimated bytes this store holds in memory: the radius index (SQLite's own page cache is not counted). */
  memoryBytes(): number {
    return estimateBytes(this.spatial);
  }

  /** Counts of the radius index: records in the snapshot and changed since. */
  spatialStats(): { snapshot: number; delta: number } {
    return { snapshot: this.spatial.snapshotSize, delta: this.spatial.deltaSize };
  }

  /** Closes the database. */
  close(): void {
    if (!this.db.open) return;
    try {
      if (!this.memory) this.db.pragma('optimize');
    } catch {
      // A store opened by a process that cannot write (read-only file) closes without optimising.
    }
    this.db.close();
  }

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.statements.size < 2000) this.statements.set(sql, s);
    }
    return s;
  }

  private readSeq(): number {
    return Number(this.stmt("SELECT value FROM das_meta WHERE key = 'seq'").pluck().get() ?? 0);
  }

  /** Takes in what other connections committed since the last look (SQLite's data_version moves only for them). */
  private refresh(): void {
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

  private pullDelta(fromSeq: number, toSeq: number): void {
    const rows = this.stmt(`SELECT ${ENTRY_COLUMNS} FROM das WHERE seq > ? AND seq <= ?`).raw().iterate(fromSeq, toSeq) as Iterable<EntryRow>;
    for (const r of rows) this.spatial.set(r[0], entryOf(r));
  }

  private checkDelta(): void {
    const limit = Math.max(this.options.snapshotDelta ?? 50_000, Math.floor(this.spatial.snapshotSize / 10));
    if (this.spatial.deltaSize > limit) this.spatialStale = true;
  }

  private loadSpatial(): void {
    if (this.restoreSnapshot()) this.pullDelta(this.snapshotSeq, this.seq);
    else this.rebuildSpatial();
    this.checkDelta();
  }

  private restoreSnapshot(): boolean {
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
  private rebuildSpatial(): void {
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

  /** Re-derives every record (category, status group, bands, ...) when the store was written by other rules. */
  private rederiveIfStale(): void {
    const v = Number(this.stmt("SELECT value FROM das_meta WHERE key = 'derivation_version'").pluck().get() ?? 0);
    if (v === DA_DERIVATION_VERSION) return;
    let last = 0;
    for (;;) {
      const rows = this.stmt('SELECT * FROM das WHERE id > ? ORDER BY id LIMIT 5000').all(last) as DaRow[];
      if (!rows.length) break;
      last = rows[rows.length - 1].id;
      const current = rows.map(recordOfRow);
      const { drafts } = parseDaRows(current.map((r) => ({ ...daListingItem(r), id: r.id })), 'rederive');
      this.upsert(drafts);
    }
    this.stmt("UPDATE das_meta SET value = ? WHERE key = 'derivation_version'").run(String(DA_DERIVATION_VERSION));
  }
}
