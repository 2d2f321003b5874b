/**
 * The embedded store: one SQLite file (better-sqlite3, WAL) with the API keys, the usage meter, request
 * counts, settings and the engine's persistent caches (the DA store keeps its own tables in the same file).
 * Charging and request counting run in IMMEDIATE transactions, so they are atomic both inside this process
 * (better-sqlite3 is synchronous) and across processes sharing the file (the write lock is taken before the
 * count is read; `busy_timeout` makes a second writer wait instead of failing).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteReconcile } from '../../../engine/entry/data.js';
import { SqliteCache, TieredCache, TtlCache, type Cache } from '../../../engine/entry/runtime.js';

export { SqliteCache, TieredCache } from '../../../engine/entry/runtime.js';
import { KEY_TABLES } from '../tables.js';
import { WebhookStore } from './sqlite-webhook-store.js';
import { SqliteBatchStore, type ChargeStep } from './sqlite-batch-store.js';
import type { ApiKeyRecord, ChargeOutcome, LimitOutcome, ServerStore } from '../store.js';

/** The schema version this code reads and writes. */
export const STORE_SCHEMA_VERSION = 1;

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions {
  /** Entries of each cache namespace's in-memory tier (default 2,000). */
  memoryEntries?: number;
  /** Estimated bytes each cache namespace's memory tier may hold (default 64 MiB). */
  memoryBytes?: number;
  /** Rows kept per cache namespace on disk; the oldest go first (default 50,000). */
  maxCacheRows?: number;
}

interface KeyRow {
  id: string;
  hash: string;
  label: string | null;
  components: string;
  geometry: number;
  quota: number;
  period: string;
  effective_date: string | null;
  onboarding_until: string | null;
  da_daily_limit: number | null;
  childcare: string | null;
  sql: number | null;
  created_at: string;
  revoked_at: string | null;
}

const parsedComponents = new Map<string, ApiKeyRecord['components']>();

function toRecord(r: KeyRow): ApiKeyRecord {
  // Keys share a handful of component lists; parse each once (the request path reads a key per request).
  let components = parsedComponents.get(r.components);
  if (!components) {
    components = JSON.parse(r.components) as ApiKeyRecord['components'];
    if (parsedComponents.size < 1000) parsedComponents.set(r.components, components);
  }
  return {
    id: r.id,
    hash: r.hash,
    label: r.label,
    components: [...components],
    geometry: r.geometry === 1,
    quota: r.quota,
    period: r.period as ApiKeyRecord['period'],
    effective_date: r.effective_date,
    onboarding_until: r.onboarding_until,
    da_daily_limit: r.da_daily_limit,
    childcare: r.childcare ? (JSON.parse(r.childcare) as ApiKeyRecord['childcare']) : null,
    sql: r.sql === 1,
    created_at: r.created_at,
    revoked_at: r.revoked_at,
  };
}

/** The SQLite implementation of {@link ServerStore}. */
export class SqliteStore implements ServerStore {
  private readonly stmts;
  private readonly chargeStep: ChargeStep;
  private batchStore: SqliteBatchStore | null = null;
  private readonly chargeTx: (keyId: string, periodKey: string, addressKey: string, quota: number, at: string) => ChargeOutcome;
  private readonly caches = new Map<string, Cache>();
  private readonly countTx: (bucket: string, window: string, limit: number, expiresAt: number) => LimitOutcome;
  private requestsCounted = 0;
  private webhookStore: WebhookStore | null = null;

  private constructor(readonly path: string, private readonly db: Database.Database, private readonly options: SqliteStoreOptions) {
    const s = {
      insertKey: db.prepare(`INSERT INTO api_keys (id, hash, label, components, geometry, quota, period, effective_date, onboarding_until, da_daily_limit, childcare, sql, created_at, revoked_at)
        VALUES (@id, @hash, @label, @components, @geometry, @quota, @period, @effective_date, @onboarding_until, @da_daily_limit, @childcare, @sql, @created_at, @revoked_at)`),
      keyById: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      listKeys: db.prepare('SELECT * FROM api_keys ORDER BY created_at, id'),
      revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      setQuota: db.prepare('UPDATE api_keys SET quota = ? WHERE id = ? AND revoked_at IS NULL'),
      seen: db.prepare('SELECT 1 FROM usage_addresses WHERE key_id = ? AND period_key = ? AND address_key = ?').pluck(),
      used: db.prepare('SELECT used FROM usage_counts WHERE key_id = ? AND period_key = ?').pluck(),
      addAddress: db.prepare('INSERT INTO usage_addresses (key_id, period_key, address_key, charged_at) VALUES (?, ?, ?, ?)'),
      bump: db.prepare(`INSERT INTO usage_counts (key_id, period_key, used) VALUES (?, ?, 1)
        ON CONFLICT (key_id, period_key) DO UPDATE SET used = used + 1`),
      requests: db.prepare('SELECT count FROM request_counts WHERE bucket = ? AND time_window = ?').pluck(),
      countRequest: db.prepare(`INSERT INTO request_counts (bucket, time_window, count, expires_at) VALUES (?, ?, 1, ?)
        ON CONFLICT (bucket, time_window) DO UPDATE SET count = count + 1`),
      pruneRequests: db.prepare('DELETE FROM request_counts WHERE expires_at <= ?'),
      getSetting: db.prepare('SELECT value FROM settings WHERE name = ?').pluck(),
      initSetting: db.prepare('INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)'),
      replaceSetting: db.prepare('UPDATE settings SET value = ? WHERE name = ? AND value = ?'),
    };
    this.stmts = s;
    const chargeStep = (keyId: string, periodKey: string, addressKey: string, quota: number, at: string): ChargeOutcome => {
      const used = (s.used.get(keyId, periodKey) as number | undefined) ?? 0;
      if (s.seen.get(keyId, periodKey, addressKey)) return { outcome: 'repeat', used };
      if (used >= quota) return { outcome: 'quota_exceeded', used };
      s.addAddress.run(keyId, periodKey, addressKey, at);
      s.bump.run(keyId, periodKey);
      return { outcome: 'charged', used: used + 1 };
    };
    this.chargeStep = chargeStep;
    const charge = db.transaction(chargeStep);
    this.chargeTx = (...args) => charge.immediate(...args);
    const count = db.transaction((bucket: string, window: string, limit: number, expiresAt: number): LimitOutcome => {
      const used = (s.requests.get(bucket, window) as number | undefined) ?? 0;
      if (used >= limit) return { allowed: false, used };
      s.countRequest.run(bucket, window, expiresAt);
      return { allowed: true, used: used + 1 };
    });
    this.countTx = (...args) => count.immediate(...args);
  }

  /** Opens (creating when absent) a store file, or `:memory:`. */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    try {
      if (path !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      // Tables from their one description (tables.ts); an older store's renamed and added columns follow it.
      sqliteReconcile(db, KEY_TABLES);
      const v = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as string | undefined;
      if (v === undefined) db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(String(STORE_SCHEMA_VERSION));
      else if (Number(v) !== STORE_SCHEMA_VERSION) throw new Error(`the store ${path} has schema version ${v}; this propintel reads ${STORE_SCHEMA_VERSION}`);
      db.prepare('DELETE FROM cache WHERE expires_at <= ?').run(Date.now());
    } catch (err) {
      db.close();
      throw err;
    }
    return new SqliteStore(path, db, options);
  }

  insertKey(record: ApiKeyRecord): void {
    this.stmts.insertKey.run({ ...record, components: JSON.stringify(record.components), geometry: record.geometry ? 1 : 0, childcare: record.childcare ? JSON.stringify(record.childcare) : null, sql: record.sql ? 1 : 0 });
  }

  keyById(id: string): ApiKeyRecord | undefined {
    const r = this.stmts.keyById.get(id) as KeyRow | undefined;
    return r ? toRecord(r) : undefined;
  }

  listKeys(): ApiKeyRecord[] {
    return (this.stmts.listKeys.all() as KeyRow[]).map(toRecord);
  }

  revokeKey(id: string, at: Date): boolean {
    return this.stmts.revoke.run(at.toISOString(), id).changes === 1;
  }

  setQuota(id: string, quota: number): boolean {
    return this.stmts.setQuota.run(quota, id).changes === 1;
  }

  charge(keyId: string, periodKey: string, addressKey: string, quota: number, at: Date): ChargeOutcome {
    return this.chargeTx(keyId, periodKey, addressKey, quota, at.toISOString());
  }

  counted(keyId: string, periodKey: string, addressKey: string): boolean {
    return !!this.stmts.seen.get(keyId, periodKey, addressKey);
  }

  used(keyId: string, periodKey: string): number {
    return (this.stmts.used.get(keyId, periodKey) as number | undefined) ?? 0;
  }

  countRequest(bucket: string, window: string, limit: number, expiresAt: Date): LimitOutcome {
    // Windows that ended are deleted now and then; a count is never needed after its window.
    if (++this.requestsCounted % 1000 === 0) this.stmts.pruneRequests.run(Date.now());
    return this.countTx(bucket, window, limit, expiresAt.getTime());
  }

  getSetting(name: string): string | undefined {
    return this.stmts.getSetting.get(name) as string | undefined;
  }

  initSetting(name: string, value: string): string {
    this.stmts.initSetting.run(name, value);
    return this.stmts.getSetting.get(name) as string;
  }

  replaceSetting(name: string, expected: string, value: string): boolean {
    return this.stmts.replaceSetting.run(value, name, expected).changes === 1;
  }

  /** Webhook subscriptions and deliveries, in this file (their tables are made on first use). */
  /** Batch jobs and their chunks, in this file; a chunk's commit charges this meter in the same transaction. */
  batches(): SqliteBatchStore {
    return (this.batchStore ??= new SqliteBatchStore(this.db, this.chargeStep));
  }

  webhooks(): WebhookStore {
    return (this.webhookStore ??= new WebhookStore(this.db));
  }

  cache(namespace: string): Cache {
    let c = this.caches.get(namespace);
    if (!c) this.caches.set(namespace, (c = new TieredCache(new TtlCache(this.options.memoryEntries ?? 2000, this.options.memoryBytes ?? 64 * 1024 * 1024), new SqliteCache(this.db, namespace, this.options.maxCacheRows ?? 50_000))));
    return c;
  }

  dropCachesExcept(keep: readonly string[]): number {
    const marks = keep.map(() => '?').join(', ');
    return this.db.prepare(`DELETE FROM cache${keep.length ? ` WHERE ns NOT IN (${marks})` : ''}`).run(...keep).changes;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

