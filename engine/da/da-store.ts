/**
 * The DA store: one SQLite database (better-sqlite3, WAL) holds the records, their filter indexes and
 * summary tables (da-tables.ts); a radius index in memory (da-spatial.ts) answers distance queries. The
 * property payload's DA block, the DA listing, the childcare feed, SQL and webhooks read this one store. It
 * is sized for the original service's scale (about 767,000 records from 330 councils): filters run on
 * indexes, counts come from a summary table or an index, and opening a large store reads the radius index's
 * persisted snapshot instead of every row.
 *
 * In three parts over one connection: the reader (da-store-read.ts), the writer (da-store-write.ts) and the
 * sync that keeps a connection in step with other processes writing the same file (da-store-sync.ts). What
 * a service that only reads needs is {@link DaReader} (what `engine.das()` gives); {@link DaWriter} is what
 * imports and replicas write through.
 */
import Database from 'better-sqlite3';
import { EngineError } from '../errors.js';
import { sqliteReconcile } from '../tables/table-schema.js';
import type { DaDraft } from './da-record.js';
import { DA_DERIVATION_VERSION, DA_SCHEMA_VERSION, dropLegacyLayout, migrateDaSchema } from './da-schema.js';
import { DaStoreReader } from './da-store-read.js';
import { DaConnection, type DaStoreOptions } from './da-store-sync.js';
import { DaStoreWriter, type ReplicatedValues, type UpsertResult } from './da-store-write.js';
import { DA_TABLES } from './da-tables.js';

export type { CouncilSummary, DaFilter, DaNearbyFilter, DaPageRequest } from './da-store-read.js';
export type { DaStoreOptions } from './da-store-sync.js';
export type { ReplicatedValues, UpsertOutcome, UpsertResult } from './da-store-write.js';

/** The public members of a class, as a plain interface (no private state, so anything may implement it). */
type PublicOf<T> = { [K in keyof T]: T[K] };

/** What reads DAs: the listing, the property payload's block, childcare, tiles, SQL and metrics. */
export type DaReader = PublicOf<DaStoreReader>;

/** What writes DAs: imports, a dataset's DA tables at start, a replica's copy. */
export type DaWriter = PublicOf<DaStoreWriter>;

/**
 * What `engine.das()` gives a service: the reads, and the outbox's pruning (the webhook dispatcher's, once
 * it has delivered what it prunes).
 */
export type DaService = DaReader & Pick<DaWriter, 'pruneEvents'>;

/** The DA store: its reader, with the writer's methods beside it. */
export class DaStore extends DaStoreReader implements DaWriter {
  private readonly writer: DaStoreWriter;

  private constructor(db: Database.Database, readonly path: string, options: DaStoreOptions) {
    super(new DaConnection(db, path, options));
    this.writer = new DaStoreWriter(this.c);
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

  /**
   * Inserts or updates records in one transaction, matched on (state, council, council reference): a council
   * is named by its state as well (Central Coast Council is in NSW and in Tasmania). A new record
   * keeps the `id` it asks for when that id is free, else gets the next one. A record whose content is the
   * same is left alone (`unchanged`); one that differs only in when it was seen is `refreshed`.
   */
  upsert(drafts: readonly DaDraft[]): UpsertResult {
    return this.writer.upsert(drafts);
  }

  /** See {@link DaStoreWriter.applyRows}. */
  applyRows(rows: readonly ReplicatedValues[]): number {
    return this.writer.applyRows(rows);
  }

  /** See {@link DaStoreWriter.beginBulkLoad}. */
  beginBulkLoad(): void {
    this.writer.beginBulkLoad();
  }

  /** See {@link DaStoreWriter.endBulkLoad}. */
  endBulkLoad(): void {
    this.writer.endBulkLoad();
  }

  /** Sets a value kept beside the records. */
  setMetaValue(key: string, value: string): void {
    this.writer.setMetaValue(key, value);
  }

  /** Records that `source` was imported with `fingerprint`. */
  markSource(source: string, fingerprint: string, records: number, at = new Date()): void {
    this.writer.markSource(source, fingerprint, records, at);
  }

  /** See {@link DaStoreWriter.compact}. */
  compact(): void {
    this.writer.compact();
  }

  /** Deletes events at or before position `throughSeq` written before `before` (the dispatcher has read them). */
  pruneEvents(throughSeq: number, before: Date): number {
    return this.writer.pruneEvents(throughSeq, before);
  }

  /** Re-derives every record when the store was written by other rules (on open). */
  rederiveIfStale(): void {
    this.writer.rederiveIfStale();
  }

  /** Closes the database. */
  close(): void {
    if (!this.c.db.open) return;
    try {
      if (!this.c.memory) this.c.db.pragma('optimize');
    } catch {
      // A store opened by a process that cannot write (read-only file) closes without optimising.
    }
    this.c.db.close();
  }
}
