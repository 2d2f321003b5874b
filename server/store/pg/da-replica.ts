/**
 * A replica's local copy of the PostgreSQL DA records: an ordinary SQLite DA store (engine/da/da-store.ts)
 * that follows the database by position. The listing, the property payload's DA block, childcare, SQL and
 * MCP read the local copy exactly as on one machine (its indexes, summary tables and in-memory radius
 * R-tree), and {@link DaReplica.catchUp} brings it up to the database's latest write before a request is
 * answered, so a DA imported through one replica is listed by every replica at once.
 *
 * Why a local copy rather than querying PostgreSQL (PostGIS) per request: the DA reads are synchronous
 * inside a lookup and the radius search answers from the in-memory index in microseconds; bench/suites/
 * replicas.ts measures the PostGIS `ST_DWithin` query on the same records beside it. What it costs: one
 * round trip per request to read the head position, and the copy's disk (about 1 GB per million records).
 */
import { existsSync, rmSync } from 'node:fs';
import { DaStore, rowsFingerprint, tableDrafts, type DaTable } from '../../../engine/entry/das.js';
import type { PgDaLog } from './pg-da-log.js';

/** Rows read from the database per step while catching up. */
const BATCH = 20_000;

/** Records in the database above which a first copy is loaded without the listing's indexes. */
const BULK_FROM = 20_000;

/** The local copy's das_meta keys. */
const SOURCE_KEY = 'replica_of';
const CURSOR_KEY = 'replica_cursor';

/** A local DA store following a {@link PgDaLog} (see the module comment). */
export class DaReplica {
  private cursor: number;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  private constructor(readonly log: PgDaLog, readonly local: DaStore, private readonly bulkFrom: number) {
    this.cursor = Number(local.metaValue(CURSOR_KEY) ?? 0);
  }

  /**
   * Opens (creating when absent) the local copy at `path`. A copy of another database (a different
   * instance id) is deleted and rebuilt: the local file is a cache, the database the record.
   */
  static open(log: PgDaLog, path: string, options: { bulkFrom?: number } = {}): DaReplica {
    let local = DaStore.open(path);
    const of = local.metaValue(SOURCE_KEY);
    if (of !== undefined && of !== log.instance) {
      local.close();
      for (const f of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(f)) rmSync(f);
      local = DaStore.open(path);
    }
    local.setMetaValue(SOURCE_KEY, log.instance);
    return new DaReplica(log, local, options.bulkFrom ?? BULK_FROM);
  }

  /** The database position the local copy has reached. */
  get position(): number {
    return this.cursor;
  }

  /**
   * Resolves once the local copy holds every write the database had committed when this was called. Calls
   * made while a round is running share the next round (one round trip serves any number of requests).
   */
  catchUp(): Promise<void> {
    if (!this.running) {
      this.running = this.round().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    // A round already running may have read the head before this call's caller committed: wait for a new one.
    this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.catchUp();
      });
    return this.queued;
  }

  private async round(): Promise<void> {
    const head = await this.log.headSeq();
    let pulled = 0;
    // A first copy of many records goes in without the listing's indexes, built once at the end (no request is
    // answered from the copy before its first catch-up completes).
    const bulk = this.cursor === 0 && this.local.size === 0 && head > this.bulkFrom;
    if (bulk) this.local.beginBulkLoad();
    try {
      while (this.cursor < head) {
        const rows = await this.log.rowsAfter(this.cursor, BATCH);
        if (!rows.length) break;
        this.local.applyRows(rows);
        this.cursor = rows[rows.length - 1].seq;
        this.local.setMetaValue(CURSOR_KEY, String(this.cursor));
        pulled += rows.length;
      }
    } finally {
      if (bulk) this.local.endBulkLoad();
    }
    // After a large catch-up (a first start, a big import): one radius snapshot and fresh planner statistics.
    if (pulled > 50_000) this.local.compact();
  }
}

/**
 * Loads a dataset's DA tables into the database, each once: a table whose fingerprint the database already
 * holds is skipped without parsing it, and the write re-checks under the write lock, so replicas starting
 * together load it once. Returns the tables loaded.
 */
export async function loadDaTables(log: PgDaLog, tables: readonly DaTable[]): Promise<number> {
  let loaded = 0;
  for (const t of tables) {
    const name = `${t.source}:${t.file}`;
    const fingerprint = rowsFingerprint(t.rows);
    if ((await log.sourceFingerprint(name)) === fingerprint) continue;
    const r = await log.upsert(tableDrafts(t), { name, fingerprint });
    if (!r.skipped) loaded++;
  }
  return loaded;
}
