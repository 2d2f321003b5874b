/**
 * The DA store's reads: pages and counts of the listing's filters (on indexes and the summary tables),
 * radius and area queries (on the in-memory radius index), categories, councils, tiles, and the change log
 * the SQL mirror and webhooks follow. Every read first takes in what other writers committed
 * (da-store-sync.ts).
 */
import { booleanPointInPolygon } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { STATES, type StateCode } from '../catalogue/states.js';
import { distanceMetres } from '../geo/distance.js';
import { estimateBytes } from '../memory/estimate.js';
import { DA_CATEGORIES, type DaCategory } from './categories.js';
import type { DaEvent, DaEventType } from './da-events.js';
import type { DaRecord } from './da-record.js';
import { recordOfRow, suburbKey, type DaRow } from './da-schema.js';
import { dayNumber, type AreaTotals, type SpatialCursor, type SpatialFilter, type SpatialHit } from './da-spatial.js';
import { CATEGORY_INDEX, GROUP_INDEX, STATE_INDEX, type DaConnection } from './da-store-sync.js';
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

/** The reads of a DA store (see the module comment). */
export class DaStoreReader {
  private readonly categoryCache = new Map<DaCategory, { seq: number; byId: Map<number, DaRecord>; sorted: DaRecord[] | null }>();

  constructor(protected readonly c: DaConnection) {}

  /** Number of records. */
  get size(): number {
    return this.c.stmt('SELECT coalesce(sum(n), 0) FROM das_counts').pluck().get() as number;
  }

  /**
   * The store's change sequence: it increases with every record written, by this process or another one
   * sharing the file. DA lookups are never cached (property spec 2.8), so anything holding a response that
   * contains DAs (the server's response cache) keys on it.
   */
  get revision(): number {
    this.c.refresh();
    return this.c.seq;
  }

  /** A value kept beside the records (the replica's position in its source); undefined when unset. */
  metaValue(key: string): string | undefined {
    return this.c.stmt('SELECT value FROM das_meta WHERE key = ?').pluck().get(key) as string | undefined;
  }

  /**
   * Up to `limit` records written after change sequence `afterSeq` (by this process or another), oldest write
   * first, as rows of `columns`, and the sequence of the last one (the SQL mirror's incremental copy).
   */
  rowsAfter(afterSeq: number, columns: readonly string[], limit: number): { rows: unknown[][]; lastSeq: number } {
    const rows = this.c.stmt(`SELECT ${columns.join(', ')}, seq FROM das WHERE seq > ? ORDER BY seq LIMIT ?`).raw().all(afterSeq, limit) as unknown[][];
    const lastSeq = rows.length ? (rows[rows.length - 1].pop() as number) : afterSeq;
    for (let i = 0; i < rows.length - 1; i++) rows[i].pop();
    return { rows, lastSeq };
  }

  /** Up to `limit` events of the outbox after position `afterSeq`, oldest first (da-events.ts). */
  eventsAfter(afterSeq: number, limit: number): DaEvent[] {
    const rows = this.c.stmt('SELECT seq, id, type, created_at, data FROM da_events WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit) as { seq: number; id: string; type: DaEventType; created_at: string; data: string }[];
    return rows.map((r) => ({ seq: r.seq, id: r.id, type: r.type, created_at: r.created_at, data: JSON.parse(r.data) }));
  }

  /** The position of the latest event written (0 when none): a new subscription hears only of later ones. */
  lastEventSeq(): number {
    return (this.c.stmt('SELECT coalesce(max(seq), 0) FROM da_events').pluck().get() as number) ?? 0;
  }

  /** The record with `id`. */
  get(id: number): DaRecord | undefined {
    const row = this.c.stmt('SELECT * FROM das WHERE id = ?').get(id) as DaRow | undefined;
    return row ? recordOfRow(row) : undefined;
  }

  /** The records with `ids`, in that order (ids not found are left out). */
  getMany(ids: readonly number[]): DaRecord[] {
    if (!ids.length) return [];
    const rows = this.c.stmt('SELECT * FROM das WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as DaRow[];
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
    this.c.fresh();
    const { category, group, since, until } = spatialFilter(filter);
    const hits = this.c.spatial.within(lon, lat, radiusM);
    const kept = category < 0 && group < 0 && !since && until === 99_999_999 ? hits : hits.filter((h) => (category < 0 || h.category === category) && (group < 0 || h.group === group) && h.lodged >= since && h.lodged <= until);
    return kept.sort((a, b) => a.distance - b.distance || a.id - b.id);
  }

  /**
   * One page of {@link nearbyHits} and their number, without ordering them all: the hits after `after` (a
   * (distance, id) cursor) or else after the first `offset`, at most `limit`.
   */
  nearbyPage(lon: number, lat: number, radiusM: number, filter: DaNearbyFilter, page: { limit: number; offset?: number; after?: SpatialCursor }): { total: number; hits: SpatialHit[] } {
    this.c.fresh();
    return this.c.spatial.page(lon, lat, radiusM, spatialFilter(filter), page.after ?? null, page.offset ?? 0, page.limit);
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
      rows = this.c.stmt(sql).all(...w.params, page.after.lodged, page.after.id, limit) as DaRow[];
    } else if (page.offset) {
      // The skipped entries are stepped over in an index that also holds the filter columns, never as rows.
      const sql = `SELECT * FROM das WHERE id IN (SELECT id FROM das ${w.sql} ${ORDER} LIMIT ? OFFSET ?) ${ORDER}`;
      rows = this.c.stmt(sql).all(...w.params, limit, page.offset) as DaRow[];
    } else {
      rows = this.c.stmt(`SELECT * FROM das ${w.sql} ${ORDER} LIMIT ?`).all(...w.params, limit) as DaRow[];
    }
    return rows.map(recordOfRow);
  }

  /** The number of records matching `filter`. */
  count(filter: DaFilter): number {
    this.c.refresh();
    const keys = (Object.keys(filter) as (keyof DaFilter)[]).filter((k) => filter[k] !== undefined);
    if (keys.every((k) => FACET_FILTERS.has(k))) {
      const w = where(filter);
      return this.c.stmt(`SELECT coalesce(sum(n), 0) FROM das_counts ${w.sql}`).pluck().get(...w.params) as number;
    }
    if (keys.length && keys.every((k) => k === 'since' || k === 'until')) {
      const w = where(filter);
      return this.c.stmt(`SELECT coalesce(sum(n), 0) FROM das_days ${w.sql}`).pluck().get(...w.params) as number;
    }
    const key = JSON.stringify(keys.sort().map((k) => [k, filter[k]]));
    let n = this.c.counts.get(key);
    if (n === undefined) {
      const w = where(filter);
      n = this.c.stmt(`SELECT count(*) FROM das ${w.sql}`).pluck().get(...w.params) as number;
      if (this.c.counts.size >= 5000) this.c.counts.clear();
      this.c.counts.set(key, n);
    }
    return n;
  }

  /**
   * Development context of a filter (the childcare analysis's demand signals): records, subdivisions, and
   * the lots and dwellings they propose (nulls count as none).
   */
  developmentTotals(filter: DaFilter): { all_development: number; subdivisions: number; lots: number; dwellings: number } {
    this.c.refresh();
    const keys = (Object.keys(filter) as (keyof DaFilter)[]).filter((k) => filter[k] !== undefined);
    if (keys.every((k) => k === 'state' || k === 'states' || k === 'since' || k === 'until')) {
      // From the per-state, per-day summary (schema 4): a few thousand rows at most.
      const w = where(filter);
      const r = this.c.stmt(`SELECT coalesce(sum(n), 0) AS n, coalesce(sum(subdivisions), 0) AS s, coalesce(sum(lots), 0) AS l, coalesce(sum(dwellings), 0) AS d FROM das_dev_days ${w.sql}`).get(...w.params) as { n: number; s: number; l: number; d: number };
      return { all_development: r.n, subdivisions: r.s, lots: r.l, dwellings: r.d };
    }
    const w = where(filter);
    const r = this.c.stmt(`SELECT count(*) AS n, coalesce(sum(trade_category = 'subdivision'), 0) AS s, coalesce(sum(lot_count), 0) AS l, coalesce(sum(number_of_dwellings), 0) AS d FROM das ${w.sql}`).get(...w.params) as { n: number; s: number; l: number; d: number };
    return { all_development: r.n, subdivisions: r.s, lots: r.l, dwellings: r.d };
  }

  /**
   * The geocoded records of a filter inside a lon/lat box, as light rows (an area analysis then keeps those
   * inside its circle or polygon).
   */
  pointsIn(filter: DaFilter, bbox: readonly [number, number, number, number]): { id: number; trade_category: string; lot_count: number | null; number_of_dwellings: number | null; longitude: number; latitude: number }[] {
    this.c.refresh();
    const w = where(filter);
    const box = 'latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?';
    const sql = `SELECT id, trade_category, lot_count, number_of_dwellings, longitude, latitude FROM das ${w.sql ? `${w.sql} AND ${box}` : `WHERE ${box}`}`;
    return this.c.stmt(sql).all(...w.params, bbox[1], bbox[3], bbox[0], bbox[2]) as ReturnType<DaStoreReader['pointsIn']>;
  }

  /**
   * Every record of `category`, newest lodged first (ties by id, highest first), held in memory and brought
   * up to date by sequence on each call (the rows written since, through the `seq` index). The childcare
   * analysis reads its whole category on every request: at a million records, reading its 16,000 NSW rows
   * from SQLite took 300 to 800 ms of scattered page reads. Meant for small categories (a few per cent).
   */
  categoryRecords(category: DaCategory): readonly DaRecord[] {
    this.c.refresh();
    let c = this.categoryCache.get(category);
    if (!c) {
      const seq = this.c.seq;
      const rows = this.c.stmt('SELECT * FROM das WHERE trade_category = ?').all(category) as DaRow[];
      this.categoryCache.set(category, (c = { seq, byId: new Map(rows.map((r) => [r.id, recordOfRow(r)])), sorted: null }));
    } else if (c.seq < this.c.seq) {
      const seq = this.c.seq;
      for (const r of this.c.stmt('SELECT * FROM das WHERE seq > ?').iterate(c.seq) as Iterable<DaRow>) {
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
    this.c.fresh();
    const since = options.since ? dayNumber(options.since) : 0, until = options.until ? dayNumber(options.until) : 99_999_999;
    return this.c.spatial.area(box, STATE_INDEX.get(state) ?? 255, since, until, inside, CATEGORY_INDEX.get('subdivision')!, options.keep ? CATEGORY_INDEX.get(options.keep)! : -1);
  }

  /**
   * The geocoded records inside a lon/lat box as map points (vector tiles): id, position, primary category,
   * status group and lodgement date, from the radius index without reading a row; ordered by id.
   */
  tilePoints(box: readonly [number, number, number, number]): { id: number; lng: number; lat: number; category: DaCategory; status_group: StatusGroup; lodged: string }[] {
    this.c.fresh();
    const out: { id: number; lng: number; lat: number; category: DaCategory; status_group: StatusGroup; lodged: string }[] = [];
    const day = (d: number) => `${Math.floor(d / 10000)}-${String(Math.floor(d / 100) % 100).padStart(2, '0')}-${String(d % 100).padStart(2, '0')}`;
    this.c.spatial.inBox(box, (id, lng, lat, lodged, category, group) => out.push({ id, lng, lat, category: DA_CATEGORIES[category], status_group: STATUS_GROUPS[group], lodged: day(lodged) }));
    return out.sort((a, b) => a.id - b.id);
  }

  /** Records per primary category (every category present, zero when none), optionally in one state. */
  categoryCounts(filter: { state?: StateCode } = {}): Record<DaCategory, number> {
    const out = Object.fromEntries(DA_CATEGORIES.map((c) => [c, 0])) as Record<DaCategory, number>;
    const w = where(filter);
    for (const r of this.c.stmt(`SELECT trade_category AS c, sum(n) AS n FROM das_counts ${w.sql} GROUP BY trade_category`).all(...w.params) as { c: DaCategory; n: number }[]) {
      if (r.c in out) out[r.c] += r.n;
    }
    return out;
  }

  /** Records per state, status group and residential flag (for /stats). */
  facetCounts(): { by_state: Record<string, number>; by_status_group: Record<string, number>; residential: number } {
    const by_state = Object.fromEntries(STATES.map((s) => [s, 0]));
    const by_status_group = Object.fromEntries(STATUS_GROUPS.map((g) => [g, 0]));
    let residential = 0;
    for (const r of this.c.stmt('SELECT state, status_group, is_residential, sum(n) AS n FROM das_counts GROUP BY state, status_group, is_residential').all() as { state: string; status_group: string; is_residential: number; n: number }[]) {
      by_state[r.state] = (by_state[r.state] ?? 0) + r.n;
      by_status_group[r.status_group] = (by_status_group[r.status_group] ?? 0) + r.n;
      if (r.is_residential) residential += r.n;
    }
    return { by_state, by_status_group, residential };
  }

  /** The councils holding records, by state then name, optionally in one state. */
  councils(filter: { state?: StateCode } = {}): CouncilSummary[] {
    const rows = this.c.stmt(`SELECT state, council_name AS name, n AS count, last_updated, geocoded, status_present FROM das_councils WHERE n > 0 ${filter.state ? 'AND state = ?' : ''} ORDER BY state, council_name`).all(...(filter.state ? [filter.state] : [])) as CouncilSummary[];
    return rows;
  }

  /** The earliest and latest lodgement dates, or nulls when empty. */
  lodgedRange(): { earliest: string | null; latest: string | null } {
    // Two statements: SQLite reads min() or max() from the index end only when the query has just one of them.
    const earliest = (this.c.stmt('SELECT min(lodgement_date) FROM das').pluck().get() as string | null) ?? null;
    const latest = (this.c.stmt('SELECT max(lodgement_date) FROM das').pluck().get() as string | null) ?? null;
    return { earliest, latest };
  }

  /** The latest `last_fetched_at` over all records (meta.source_currency.da_records), or null when empty. */
  latestFetchedAt(): string | null {
    return (this.c.stmt('SELECT max(last_updated) FROM das_councils WHERE n > 0').pluck().get() as string | null) ?? null;
  }

  /** The fingerprint recorded for a dataset source's last import, or undefined. */
  sourceFingerprint(source: string): string | undefined {
    return this.c.stmt('SELECT fingerprint FROM das_sources WHERE source = ?').pluck().get(source) as string | undefined;
  }

  /** Estimated bytes this store holds in memory: the radius index (SQLite's own page cache is not counted). */
  memoryBytes(): number {
    return estimateBytes(this.c.spatial);
  }

  /** Counts of the radius index: records in the snapshot and changed since. */
  spatialStats(): { snapshot: number; delta: number } {
    return { snapshot: this.c.spatial.snapshotSize, delta: this.c.spatial.deltaSize };
  }
}
