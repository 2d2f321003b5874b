/**
 * The DA records in PostgreSQL: the shared, authoritative copy that every replica's local copy follows
 * (da-replica.ts), and the webhook outbox (`da_events`).
 *
 * Writes (`das import`, a dataset's DA files at start) run under one transaction-scoped advisory lock, so
 * imports from several replicas take turns: sequence numbers are given out in commit order, which is what
 * lets a replica follow the records, and the dispatchers follow the events, by "everything after position
 * N" without missing a row committed late. The upsert decides exactly as the SQLite store does (match on
 * state, council without case, and council reference; `compareWithStored`), and writes an event for each
 * new record and each change of status in the same transaction.
 */
import type pg from 'pg';
import { expectedColumns } from '../../../engine/entry/data.js';
import { DA_DERIVATION_VERSION, DA_TABLES, compareWithStored, CONTENT_COLUMNS, recordOfRow, rowValues, type DaRow, eventOf, EVENT_RETENTION_MS, newEventId, type DaEvent, type DaEventType, daListingItem, parseDaRows, type DaDraft } from '../../../engine/entry/das.js';
import type { ReplicatedValues, UpsertOutcome, UpsertResult } from '../../../engine/entry/das.js';
import type { DaEventSource } from '../webhook-store.js';
import { inTransaction, storeError } from './pg-connect.js';

/** The advisory lock writes take ('das' in ASCII). */
const WRITE_LOCK = 0x646173;

/** Rows per INSERT statement. */
const CHUNK = 5000;

/** The PostgreSQL type of each column of `das`, from the table's one description (the unnest casts). */
const COLUMN_TYPES: Record<string, string> = Object.fromEntries(expectedColumns(DA_TABLES.find((t) => t.name === 'das')!, 'postgres').map((c) => [c.name, c.type]));

/** A record as replicated: its id and every content column. */
export type ReplicatedRow = ReplicatedValues & { seq: number };

const keyOf = (state: unknown, council: unknown, ref: unknown) => `${state}\u0000${String(council).toLowerCase()}\u0000${ref}`;

/** The PostgreSQL DA records (see the module comment). */
export class PgDaLog implements DaEventSource {
  constructor(private readonly pool: pg.Pool, private readonly where: string, readonly instance: string) {}

  private async q<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (err) {
      throw storeError(err, this.where);
    }
  }

  /** The sequence number of the latest write (0 before any). */
  async headSeq(): Promise<number> {
    return Number((await this.q<{ value: string }>("SELECT value FROM propintel_meta WHERE key = 'da_seq'")).rows[0]?.value ?? 0);
  }

  /** Number of records. */
  async size(): Promise<number> {
    return Number((await this.q<{ n: string }>('SELECT count(*) AS n FROM das')).rows[0].n);
  }

  /** Up to `limit` records written after position `afterSeq`, in write order. */
  async rowsAfter(afterSeq: number, limit: number): Promise<ReplicatedRow[]> {
    const rows = (await this.q<ReplicatedRow>(`SELECT id, ${CONTENT_COLUMNS.join(', ')}, seq FROM das WHERE seq > $1 ORDER BY seq LIMIT $2`, [afterSeq, limit])).rows;
    for (const r of rows) r.id = Number(r.id);
    return rows;
  }

  async sourceFingerprint(source: string): Promise<string | undefined> {
    return (await this.q<{ fingerprint: string }>('SELECT fingerprint FROM das_sources WHERE source = $1', [source])).rows[0]?.fingerprint;
  }

  async markSource(source: string, fingerprint: string, records: number, at = new Date()): Promise<void> {
    await this.q(
      `INSERT INTO das_sources (source, fingerprint, records, imported_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (source) DO UPDATE SET fingerprint = excluded.fingerprint, records = excluded.records, imported_at = excluded.imported_at`,
      [source, fingerprint, records, at.toISOString()],
    );
  }

  /**
   * Inserts or updates records in one transaction, as {@link DaStore.upsert} does. With `source`, the
   * table's fingerprint is checked and recorded under the same lock: a dataset file that another replica
   * loaded meanwhile is skipped (`skipped: true`), so replicas starting together load it once.
   */
  async upsert(drafts: readonly DaDraft[], source?: { name: string; fingerprint: string }): Promise<UpsertResult & { skipped?: boolean }> {
    const result: UpsertResult & { skipped?: boolean } = { added: 0, changed: 0, refreshed: 0, unchanged: 0, outcomes: [] };
    return inTransaction(this.pool, this.where, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
      if (source) {
        const had = await client.query<{ fingerprint: string }>('SELECT fingerprint FROM das_sources WHERE source = $1', [source.name]);
        if (had.rows[0]?.fingerprint === source.fingerprint) return { ...result, skipped: true };
      }
      let seq = Number((await client.query<{ value: string }>("SELECT value FROM propintel_meta WHERE key = 'da_seq' FOR UPDATE")).rows[0]?.value ?? 0);
      // The stored rows of every key in the batch, in one query.
      const stored = new Map<string, DaRow>();
      for (let i = 0; i < drafts.length; i += 5000) {
        const part = drafts.slice(i, i + 5000);
        const olds = await client.query<DaRow>(
          `SELECT d.* FROM das d JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(state, council, ref)
           ON d.state = k.state AND lower(d.council_name) = lower(k.council) AND d.council_reference = k.ref`,
          [part.map((d) => d.state), part.map((d) => d.council), part.map((d) => d.ref)],
        );
        for (const o of olds.rows) stored.set(keyOf(o.state, o.council_name, o.council_reference), { ...o, id: Number(o.id) });
      }
      const wanted = drafts.map((d) => d.id).filter((id): id is number => id !== null);
      const taken = new Set<number>(wanted.length ? (await client.query<{ id: number }>('SELECT id FROM das WHERE id = ANY($1::bigint[])', [wanted])).rows.map((r) => Number(r.id)) : []);
      let nextId = Number((await client.query<{ m: number | null }>('SELECT max(id) AS m FROM das')).rows[0].m ?? 0) + 1;
      const now = new Date().toISOString();
      const writes: ReplicatedRow[] = [];
      const events: { id: string; type: DaEventType; da_id: number; data: string }[] = [];
      for (const d of drafts) {
        const values = rowValues(d) as ReplicatedRow;
        const k = keyOf(d.state, d.council, d.ref);
        const old = stored.get(k);
        let id: number;
        let outcome: UpsertOutcome;
        if (old) {
          outcome = compareWithStored(values, old as unknown as Record<string, unknown>);
          if (outcome === 'unchanged') {
            result.unchanged++;
            result.outcomes.push({ id: old.id, outcome });
            continue;
          }
          id = old.id;
          result.outcomes.push({ id, outcome, previous: recordOfRow(old) });
        } else {
          id = d.id !== null && !taken.has(d.id) ? d.id : nextId;
          outcome = 'added';
          result.outcomes.push({ id, outcome });
        }
        taken.add(id);
        if (id >= nextId) nextId = id + 1;
        result[outcome]++;
        const e = eventOf(id, values as unknown as DaRow, old);
        if (e) events.push({ id: newEventId(), type: e.type, da_id: id, data: JSON.stringify(e.data) });
        const row = { ...values, id, seq: ++seq } as ReplicatedRow;
        writes.push(row);
        // A later draft of the same record in this batch compares with this one.
        stored.set(k, { ...(row as unknown as DaRow) });
      }
      // Later writes of one id in the batch replace earlier ones (one row per id per statement).
      const last = new Map<number, ReplicatedRow>();
      for (const w of writes) last.set(w.id, w);
      const rows = [...last.values()];
      // One array per column, unnested: 38 parameters a statement rather than 38 per row.
      const cols = ['id', ...CONTENT_COLUMNS, 'seq'];
      const sql = `INSERT INTO das (${cols.join(', ')}) SELECT * FROM unnest(${cols.map((c, i) => `$${i + 1}::${COLUMN_TYPES[c]}[]`).join(', ')})
        ON CONFLICT (id) DO UPDATE SET ${cols.slice(1).map((c) => `${c} = excluded.${c}`).join(', ')}`;
      for (let i = 0; i < rows.length; i += CHUNK) {
        const part = rows.slice(i, i + CHUNK) as unknown as Record<string, unknown>[];
        await client.query(sql, cols.map((c) => part.map((r) => r[c])));
      }
      for (let i = 0; i < events.length; i += 5000) {
        const part = events.slice(i, i + 5000);
        await client.query(
          'INSERT INTO da_events (id, type, da_id, created_at, data) SELECT id, type, da_id, $5, data FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS t(id, type, da_id, data)',
          [part.map((e) => e.id), part.map((e) => e.type), part.map((e) => e.da_id), part.map((e) => e.data), now],
        );
      }
      await client.query("UPDATE propintel_meta SET value = $1 WHERE key = 'da_seq'", [String(seq)]);
      await client.query('DELETE FROM da_events WHERE created_at < $1', [new Date(Date.parse(now) - EVENT_RETENTION_MS).toISOString()]);
      if (source) {
        await client.query(
          `INSERT INTO das_sources (source, fingerprint, records, imported_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (source) DO UPDATE SET fingerprint = excluded.fingerprint, records = excluded.records, imported_at = excluded.imported_at`,
          [source.name, source.fingerprint, drafts.length, now],
        );
      }
      return result;
    });
  }

  /**
   * Re-derives every record (category, status group, bands, ...) when the database was written by other
   * rules (an older propintel), as the SQLite store does when it opens: through {@link upsert}, so changed
   * records get new positions (every replica's copy follows) and status changes their events. Replicas
   * starting together may each run it; the second finds everything unchanged. Returns the records changed.
   */
  async rederiveIfStale(): Promise<number> {
    const v = (await this.q<{ value: string }>("SELECT value FROM propintel_meta WHERE key = 'da_derivation_version'")).rows[0]?.value;
    if (Number(v) === DA_DERIVATION_VERSION) return 0;
    let last = 0;
    let changed = 0;
    for (;;) {
      const rows = (await this.q<DaRow>('SELECT * FROM das WHERE id > $1 ORDER BY id LIMIT 5000', [last])).rows.map((r) => ({ ...r, id: Number(r.id) }));
      if (!rows.length) break;
      last = rows[rows.length - 1].id;
      const { drafts } = parseDaRows(rows.map(recordOfRow).map((r) => ({ ...daListingItem(r), id: r.id })), 'rederive');
      const r = await this.upsert(drafts);
      changed += r.changed + r.refreshed;
    }
    await this.q("INSERT INTO propintel_meta (key, value) VALUES ('da_derivation_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [String(DA_DERIVATION_VERSION)]);
    return changed;
  }

  async lastEventSeq(): Promise<number> {
    return Number((await this.q<{ m: number | null }>('SELECT max(seq) AS m FROM da_events')).rows[0].m ?? 0);
  }

  async eventsAfter(afterSeq: number, limit: number): Promise<DaEvent[]> {
    const rows = (await this.q<{ seq: number; id: string; type: DaEventType; created_at: string; data: string }>('SELECT seq, id, type, created_at, data FROM da_events WHERE seq > $1 ORDER BY seq LIMIT $2', [afterSeq, limit])).rows;
    return rows.map((r) => ({ seq: Number(r.seq), id: r.id, type: r.type, created_at: r.created_at, data: JSON.parse(r.data) }));
  }

  async pruneEvents(throughSeq: number, before: Date): Promise<number> {
    return (await this.q('DELETE FROM da_events WHERE seq <= $1 AND created_at < $2', [throughSeq, before.toISOString()])).rowCount ?? 0;
  }
}
