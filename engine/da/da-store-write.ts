/**
 * The DA store's writes: records in one IMMEDIATE transaction each, with their summary tables and webhook
 * outbox, replicated rows, bulk loads, dataset marks, compaction and re-derivation. It shares the reader's
 * connection (da-store-sync.ts), whose radius index and sequence it keeps up to date.
 */
import type Database from 'better-sqlite3';
import { createStatements } from '../tables/table-schema.js';
import { daListingItem, parseDaRows, type DaDraft, type DaRecord } from './da-record.js';
import { compareWithStored, CONTENT_COLUMNS, DA_DERIVATION_VERSION, recordOfRow, rowValues, type DaRow } from './da-schema.js';
import { EVENT_RETENTION_MS, eventOf, newEventId } from './da-events.js';
import type { DaConnection } from './da-store-sync.js';
import { DA_TABLES } from './da-tables.js';

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

/** A row replicated from another store: its id and every content column. */
export type ReplicatedValues = Record<(typeof CONTENT_COLUMNS)[number], string | number | null> & { id: number };

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

/** The writes of a DA store (see the module comment). */
export class DaStoreWriter {
  constructor(private readonly c: DaConnection) {}

  /**
   * Inserts or updates records in one transaction, matched on (state, council, council reference): a council
   * is named by its state as well (Central Coast Council is in NSW and in Tasmania). A new record
   * keeps the `id` it asks for when that id is free, else gets the next one. A record whose content is the
   * same is left alone (`unchanged`); one that differs only in when it was seen is `refreshed`.
   */
  upsert(drafts: readonly DaDraft[]): UpsertResult {
    this.c.refresh();
    const byKey = this.c.stmt('SELECT * FROM das WHERE state = ? AND council_name = ? AND council_reference = ?');
    const idTaken = this.c.stmt('SELECT 1 FROM das WHERE id = ?').pluck();
    const cols = CONTENT_COLUMNS.join(', ');
    const insert = this.c.stmt(`INSERT INTO das (id, ${cols}, seq) VALUES (@id, ${CONTENT_COLUMNS.map((c) => `@${c}`).join(', ')}, @seq)`);
    const update = this.c.stmt(`UPDATE das SET ${CONTENT_COLUMNS.map((c) => `${c} = @${c}`).join(', ')}, seq = @seq WHERE id = @id`);
    // The webhooks' outbox (da-events.ts): written in this transaction, so it commits or fails with the records.
    const addEvent = this.c.stmt('INSERT INTO da_events (id, type, da_id, created_at, data) VALUES (?, ?, ?, ?, ?)');
    const eventTime = new Date().toISOString();
    const emit = (id: number, row: Parameters<typeof eventOf>[1], old?: DaRow) => {
      const e = eventOf(id, row, old);
      if (e) addEvent.run(newEventId(), e.type, id, eventTime, JSON.stringify(e.data));
    };
    const result: UpsertResult = { added: 0, changed: 0, refreshed: 0, unchanged: 0, outcomes: [] };
    const written: { id: number; values: ReturnType<typeof rowValues> }[] = [];
    let startSeq = 0;
    const run = this.c.db.transaction(() => {
      startSeq = this.c.readSeq();
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
      summary.flush((sql) => this.c.stmt(sql));
      this.c.stmt("UPDATE das_meta SET value = ? WHERE key = 'seq'").run(String(seq));
      this.c.stmt('DELETE FROM da_events WHERE created_at < ?').run(new Date(Date.parse(eventTime) - EVENT_RETENTION_MS).toISOString());
      return seq;
    });
    const endSeq = run.immediate();
    this.c.afterWrite(startSeq, endSeq, written);
    return result;
  }

  /**
   * Writes records replicated from another store (a replica's local copy of the PostgreSQL records,
   * server/store/pg/da-replica.ts): each row as given, id included, replacing the row with that id. The
   * summary tables and the radius index follow; no events are written (the source keeps the outbox).
   * Returns this store's sequence after the write.
   */
  applyRows(rows: readonly ReplicatedValues[]): number {
    this.c.refresh();
    if (!rows.length) return this.c.seq;
    const byId = this.c.stmt('SELECT * FROM das WHERE id = ?');
    const cols = CONTENT_COLUMNS.join(', ');
    const put = this.c.stmt(`INSERT OR REPLACE INTO das (id, ${cols}, seq) VALUES (@id, ${CONTENT_COLUMNS.map((c) => `@${c}`).join(', ')}, @seq)`);
    let startSeq = 0;
    const run = this.c.db.transaction(() => {
      startSeq = this.c.readSeq();
      let seq = startSeq;
      const summary = new SummaryDelta();
      for (const r of rows) {
        const old = byId.get(r.id) as DaRow | undefined;
        if (old) summary.add(old, -1);
        put.run({ ...r, seq: ++seq });
        summary.add(r as unknown as SummaryRow, 1);
      }
      summary.flush((sql) => this.c.stmt(sql));
      this.c.stmt("UPDATE das_meta SET value = ? WHERE key = 'seq'").run(String(seq));
      return seq;
    });
    const endSeq = run.immediate();
    this.c.afterWrite(startSeq, endSeq, rows.map((r) => ({ id: r.id, values: r })));
    return endSeq;
  }

  /**
   * Drops the listing's secondary indexes for a bulk load into an empty store (a replica's first copy): rows
   * then go in about four times faster, and {@link endBulkLoad} builds the indexes once at the end. The
   * identity index stays, so a duplicate record is still refused. Not for a store that is being read.
   */
  beginBulkLoad(): void {
    const names = this.c.stmt("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'das' AND sql IS NOT NULL AND name <> 'das_identity'").pluck().all() as string[];
    for (const n of names) this.c.db.exec(`DROP INDEX IF EXISTS ${n}`);
    this.c.clearStatements();
  }

  /** Rebuilds what {@link beginBulkLoad} dropped (every index of the schema that is missing). */
  endBulkLoad(): void {
    for (const sql of createStatements(DA_TABLES, 'sqlite')) this.c.db.exec(sql);
    this.c.clearStatements();
  }

  /** Sets a value kept beside the records. */
  setMetaValue(key: string, value: string): void {
    this.c.stmt('INSERT INTO das_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Records that `source` was imported with `fingerprint`. */
  markSource(source: string, fingerprint: string, records: number, at = new Date()): void {
    this.c.stmt('INSERT INTO das_sources (source, fingerprint, records, imported_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET fingerprint = excluded.fingerprint, records = excluded.records, imported_at = excluded.imported_at').run(source, fingerprint, records, at.toISOString());
  }

  /**
   * Rebuilds the radius snapshot from every row and persists it, and refreshes the query planner's
   * statistics. Run after a large import, so the next process to open the store reads one snapshot.
   */
  compact(): void {
    this.c.refresh();
    this.c.rebuildSpatial();
    this.c.db.exec('ANALYZE');
  }

  /** Deletes events at or before position `throughSeq` written before `before` (the dispatcher has read them). */
  pruneEvents(throughSeq: number, before: Date): number {
    return this.c.stmt('DELETE FROM da_events WHERE seq <= ? AND created_at < ?').run(throughSeq, before.toISOString()).changes;
  }

  /** Re-derives every record (category, status group, bands, ...) when the store was written by other rules. */
  rederiveIfStale(): void {
    const v = Number(this.c.stmt("SELECT value FROM das_meta WHERE key = 'derivation_version'").pluck().get() ?? 0);
    if (v === DA_DERIVATION_VERSION) return;
    let last = 0;
    for (;;) {
      const rows = this.c.stmt('SELECT * FROM das WHERE id > ? ORDER BY id LIMIT 5000').all(last) as DaRow[];
      if (!rows.length) break;
      last = rows[rows.length - 1].id;
      const current = rows.map(recordOfRow);
      const { drafts } = parseDaRows(current.map((r) => ({ ...daListingItem(r), id: r.id })), 'rederive');
      this.upsert(drafts);
    }
    this.c.stmt("UPDATE das_meta SET value = ? WHERE key = 'derivation_version'").run(String(DA_DERIVATION_VERSION));
  }
}
