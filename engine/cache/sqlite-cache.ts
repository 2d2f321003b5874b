/**
 * The engine's caches on disk: a namespace of a SQLite file's `cache` table (SqliteCache), behind an
 * in-memory tier (TieredCache). The server's SQLite store keeps them in its file; an engine thread opens the
 * same file with a connection of its own (`openCacheDatabase`), so the threads share one persistent cache and
 * a restart finds what was computed before it.
 */
import Database from 'better-sqlite3';
import { sqliteReconcile, type TableDef } from '../tables/table-schema.js';
import { TtlCache, type Cache } from './ttl-cache.js';

/** The `cache` table (the server's store declares it with its own tables: server/store/tables.ts). */
export const CACHE_TABLE: TableDef = {
  // The engine's persistent cache tier: PostgreSQL replicas keep their caches in memory (pg-store.ts).
  name: 'cache',
  columns: [
    { name: 'ns', type: 'text' },
    { name: 'key', type: 'text' },
    { name: 'value', type: 'text' },
    { name: 'stored_at', type: 'bigint' },
    { name: 'expires_at', type: 'bigint' },
  ],
  primaryKey: ['ns', 'key'],
  withoutRowid: true,
  indexes: [{ name: 'cache_age', columns: ['ns', 'stored_at'] }],
  only: 'sqlite',
};

/** A SQLite file's caches, opened by an engine (thread) for itself: the layer and score namespaces. */
export interface CacheDatabase {
  layers: Cache;
  scores: Cache;
  close(): void;
}

/**
 * Opens the `cache` table of SQLite `file` (creating it when absent) with a connection of this thread's, and
 * the namespaces `layers` and `scores` in it behind memory tiers of `memoryBytes` each (default 64 MiB).
 */
export function openCacheDatabase(file: string, namespaces: { layers: string; scores: string }, options: { memoryBytes?: { layers?: number; scores?: number }; maxRows?: number } = {}): CacheDatabase {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    sqliteReconcile(db, [CACHE_TABLE]);
  } catch (err) {
    db.close();
    throw err;
  }
  const tier = (ns: string, bytes: number | undefined) => new TieredCache(new TtlCache(2000, bytes ?? 64 * 1024 * 1024), new SqliteCache(db, ns, options.maxRows ?? 50_000));
  return { layers: tier(namespaces.layers, options.memoryBytes?.layers), scores: tier(namespaces.scores, options.memoryBytes?.scores), close: () => db.close() };
}

/**
 * A cache namespace in the store's `cache` table. Values are JSON; an entry past its expiry is gone. Every
 * 500 writes, expired rows and rows beyond `maxRows` (oldest first) are deleted.
 */
export class SqliteCache implements Cache {
  private readonly get_;
  private readonly set_;
  private readonly del;
  private readonly clear_;
  private readonly prune;
  private writes = 0;

  constructor(private readonly db: Database.Database, readonly namespace: string, private readonly maxRows: number) {
    this.get_ = db.prepare('SELECT value, stored_at, expires_at FROM cache WHERE ns = ? AND key = ?');
    this.set_ = db.prepare('INSERT OR REPLACE INTO cache (ns, key, value, stored_at, expires_at) VALUES (?, ?, ?, ?, ?)');
    this.del = db.prepare('DELETE FROM cache WHERE ns = ? AND key = ?');
    this.clear_ = db.prepare('DELETE FROM cache WHERE ns = ?');
    const expired = db.prepare('DELETE FROM cache WHERE ns = ? AND expires_at <= ?');
    const oldest = db.prepare('DELETE FROM cache WHERE ns = ? AND key IN (SELECT key FROM cache WHERE ns = ? ORDER BY stored_at DESC LIMIT -1 OFFSET ?)');
    this.prune = db.transaction((now: number) => {
      expired.run(namespace, now);
      oldest.run(namespace, namespace, this.maxRows);
    });
  }

  get<T>(key: string, now = new Date()): { value: T; storedAt: Date } | undefined {
    const e = this.entry<T>(key, now);
    return e && { value: e.value, storedAt: e.storedAt };
  }

  /** The entry with its expiry, or undefined when absent or expired at `now` (an expired row is deleted). */
  entry<T>(key: string, now = new Date()): { value: T; storedAt: Date; expiresAt: number } | undefined {
    const r = this.get_.get(this.namespace, key) as { value: string; stored_at: number; expires_at: number } | undefined;
    if (!r) return undefined;
    if (r.expires_at <= now.getTime()) {
      this.del.run(this.namespace, key);
      return undefined;
    }
    return { value: JSON.parse(r.value) as T, storedAt: new Date(r.stored_at), expiresAt: r.expires_at };
  }

  set(key: string, value: unknown, ttlMs: number, now = new Date()): void {
    if (!(ttlMs > 0)) return;
    this.set_.run(this.namespace, key, JSON.stringify(value), now.getTime(), now.getTime() + ttlMs);
    if (++this.writes % 500 === 0) this.prune(now.getTime());
  }

  delete(key: string): void {
    this.del.run(this.namespace, key);
  }

  clear(): void {
    this.clear_.run(this.namespace);
  }
}

/**
 * A fast in-memory tier in front of a persistent one. A miss in memory that the disk answers is promoted
 * (with the same stored time, for the remaining lifetime), so `storedAt`, and the payload's `meta.as_at`,
 * stay those of the original computation.
 */
export class TieredCache implements Cache {
  constructor(private readonly memory: TtlCache, private readonly disk: SqliteCache) {}

  /** Entries in the memory tier. */
  get size(): number {
    return this.memory.size;
  }

  /** Estimated bytes of the memory tier. */
  get bytes(): number {
    return this.memory.bytes;
  }

  get<T>(key: string, now = new Date()): { value: T; storedAt: Date } | undefined {
    const m = this.memory.get<T>(key, now);
    if (m) return m;
    const d = this.disk.entry<T>(key, now);
    if (!d) return undefined;
    // Stored as of the original time, expiring when the disk entry does.
    this.memory.set(key, d.value, d.expiresAt - d.storedAt.getTime(), d.storedAt);
    return { value: d.value, storedAt: d.storedAt };
  }

  set(key: string, value: unknown, ttlMs: number, now = new Date()): void {
    this.memory.set(key, value, ttlMs, now);
    this.disk.set(key, value, ttlMs, now);
  }

  delete(key: string): void {
    this.memory.delete(key);
    this.disk.delete(key);
  }

  clear(): void {
    this.memory.clear();
    this.disk.clear();
  }
}
