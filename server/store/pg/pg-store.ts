/**
 * The PostgreSQL store: the same {@link ServerStore} as the embedded SQLite one, shared by several server
 * replicas. Keys, the usage meter, request limits, settings, webhook subscriptions and deliveries, and the DA
 * records with their event outbox live in the database; every method answers with a promise.
 *
 * Exactness under races is the database's: the meter charges in one server-side function that locks the
 * key's count row first (pg-schema.ts), a request limit counts in one conditional upsert, a setting is
 * initialised with INSERT .. ON CONFLICT DO NOTHING. A lost connection is a {@link StoreUnavailableError}
 * (503 with Retry-After); each statement is atomic, so a retried request finds either its work done (a repeat,
 * free) or not done at all.
 *
 * The engine's caches are per replica (see {@link PgStore.cache}).
 */
import pg from 'pg';
import { TtlCache, type Cache } from '../../../engine/entry/runtime.js';
import type { ApiKeyRecord, ChargeOutcome, LimitOutcome, ServerStore } from '../store.js';
import { connectPostgres, describePostgres, storeError, type PgConnectOptions } from './pg-connect.js';
import { PgDaLog } from './pg-da-log.js';
import { migrate } from './pg-schema.js';
import { PgWebhookStore } from './pg-webhook-store.js';
import { PgBatchStore } from './pg-batch-store.js';

interface KeyRow {
  id: string;
  hash: string;
  label: string | null;
  components: ApiKeyRecord['components'];
  geometry: boolean;
  quota: number;
  period: string;
  effective_date: string | null;
  onboarding_until: string | null;
  da_daily_limit: number | null;
  childcare: ApiKeyRecord['childcare'];
  sql: boolean;
  created_at: string;
  revoked_at: string | null;
}

const toRecord = (r: KeyRow): ApiKeyRecord => ({ ...r, period: r.period as ApiKeyRecord['period'] });

/** Options of {@link PgStore.open}. */
export interface PgStoreOptions extends PgConnectOptions {
  /**
   * How long a replica may answer a key from memory, ms (default 5,000; 0 reads the database every time).
   * Changes reach every replica at once by NOTIFY; this bounds only a notification lost while the listening
   * connection reconnects (while it is down, nothing is cached).
   */
  keyCacheMs?: number;
  /** Entries of each cache namespace's in-memory tier (default 2,000). */
  memoryEntries?: number;
  /** Estimated bytes each cache namespace may hold (default 64 MiB). */
  memoryBytes?: number;
}

/** The PostgreSQL implementation of {@link ServerStore}. */
export class PgStore implements ServerStore {
  private readonly caches = new Map<string, TtlCache>();
  private webhookStore: PgWebhookStore | null = null;
  private batchStore: PgBatchStore | null = null;
  private requestsCounted = 0;
  private closed = false;
  private readonly keyCache = new Map<string, { record: ApiKeyRecord | undefined; at: number }>();
  private listener: pg.Client | null = null;
  private listening = false;
  /** The DA records and their event outbox. */
  readonly das: PgDaLog;

  private constructor(readonly pool: pg.Pool, readonly where: string, readonly instance: string, private readonly url: string, private readonly options: PgStoreOptions) {
    this.das = new PgDaLog(pool, where, instance);
  }

  /**
   * Listens for key changes (NOTIFY propintel_keys) on a connection of its own; while it is up, keys are
   * answered from memory. A lost connection empties the cache and is retried every second.
   */
  private async listen(): Promise<void> {
    if (this.closed || (this.options.keyCacheMs ?? 5000) <= 0) return;
    const client = new pg.Client({ connectionString: this.url, application_name: 'propintel-listen' });
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = null;
      this.listening = false;
      this.keyCache.clear();
      client.end().catch(() => {});
      if (!this.closed) setTimeout(() => void this.listen(), 1000).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      if (n.channel === 'propintel_keys' && n.payload) this.keyCache.delete(n.payload);
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query('LISTEN propintel_keys');
      this.keyCache.clear();
      this.listening = true;
    } catch {
      lost();
    }
  }

  /**
   * Connects and brings the schema up to date (one replica at a time). An unreachable server fails here
   * with an error naming it.
   */
  static async open(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
    const pool = await connectPostgres(url, options);
    try {
      const { instance } = await migrate(pool);
      const store = new PgStore(pool, describePostgres(url), instance, url, options);
      await store.listen();
      return store;
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
  }

  /** Runs one statement; connection failures become StoreUnavailableError. */
  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (err) {
      throw storeError(err, this.where);
    }
  }

  async insertKey(r: ApiKeyRecord): Promise<void> {
    this.changedKey(r.id);
    await this.query(
      `INSERT INTO api_keys (id, hash, label, components, geometry, quota, period, effective_date, onboarding_until, da_daily_limit, childcare, sql, created_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [r.id, r.hash, r.label, JSON.stringify(r.components), r.geometry, r.quota, r.period, r.effective_date, r.onboarding_until, r.da_daily_limit, r.childcare ? JSON.stringify(r.childcare) : null, r.sql, r.created_at, r.revoked_at],
    );
    // A replica that was asked for this id before it existed forgets its "no such key".
    await this.query("SELECT pg_notify('propintel_keys', $1)", [r.id]);
    this.changedKey(r.id);
  }

  async keyById(id: string): Promise<ApiKeyRecord | undefined> {
    const ttl = this.options.keyCacheMs ?? 5000;
    const hit = this.listening ? this.keyCache.get(id) : undefined;
    if (hit && Date.now() - hit.at < ttl) return hit.record && { ...hit.record, components: [...hit.record.components] };
    const r = await this.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    const record = r.rows.length ? toRecord(r.rows[0]) : undefined;
    if (this.listening) {
      if (this.keyCache.size >= 10_000) this.keyCache.clear();
      this.keyCache.set(id, { record, at: Date.now() });
    }
    return record && { ...record, components: [...record.components] };
  }

  /** Forgets key `id` here; other replicas hear of the change by NOTIFY, sent when it commits. */
  private changedKey(id: string): void {
    this.keyCache.delete(id);
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return (await this.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id')).rows.map(toRecord);
  }

  // A change and its notification in one statement: the NOTIFY is sent when (and only if) it commits.
  async revokeKey(id: string, at: Date): Promise<boolean> {
    this.changedKey(id);
    const r = await this.query('WITH u AS (UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id) SELECT pg_notify(\'propintel_keys\', id) FROM u', [at.toISOString(), id]);
    this.changedKey(id);
    return r.rowCount === 1;
  }

  async setQuota(id: string, quota: number): Promise<boolean> {
    this.changedKey(id);
    const r = await this.query('WITH u AS (UPDATE api_keys SET quota = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id) SELECT pg_notify(\'propintel_keys\', id) FROM u', [quota, id]);
    this.changedKey(id);
    return r.rowCount === 1;
  }

  async charge(keyId: string, periodKey: string, addressKey: string, quota: number, at: Date): Promise<ChargeOutcome> {
    const r = await this.query<{ outcome: ChargeOutcome['outcome']; used: number }>('SELECT outcome, used FROM propintel_charge($1, $2, $3, $4, $5)', [keyId, periodKey, addressKey, quota, at.toISOString()]);
    return { outcome: r.rows[0].outcome, used: r.rows[0].used };
  }

  async used(keyId: string, periodKey: string): Promise<number> {
    const r = await this.query<{ used: number }>('SELECT used FROM usage_counts WHERE key_id = $1 AND period_key = $2', [keyId, periodKey]);
    return r.rows[0]?.used ?? 0;
  }

  async counted(keyId: string, periodKey: string, addressKey: string): Promise<boolean> {
    const r = await this.query('SELECT 1 FROM usage_addresses WHERE key_id = $1 AND period_key = $2 AND address_key = $3', [keyId, periodKey, addressKey]);
    return r.rows.length > 0;
  }

  async countRequest(bucket: string, window: string, limit: number, expiresAt: Date): Promise<LimitOutcome> {
    // Windows that ended are deleted now and then; a count is never needed after its window.
    if (++this.requestsCounted % 1000 === 0) await this.query('DELETE FROM request_counts WHERE expires_at <= $1', [Date.now()]);
    if (limit >= 1) {
      // Counted only while below the limit: the WHERE of the conflict branch leaves a full bucket alone.
      const r = await this.query<{ count: number }>(
        `INSERT INTO request_counts AS r (bucket, time_window, count, expires_at) VALUES ($1, $2, 1, $4)
         ON CONFLICT (bucket, time_window) DO UPDATE SET count = r.count + 1 WHERE r.count < $3 RETURNING count`,
        [bucket, window, limit, expiresAt.getTime()],
      );
      if (r.rows.length) return { allowed: true, used: r.rows[0].count };
    }
    const n = await this.query<{ count: number }>('SELECT count FROM request_counts WHERE bucket = $1 AND time_window = $2', [bucket, window]);
    return { allowed: false, used: n.rows[0]?.count ?? 0 };
  }

  async getSetting(name: string): Promise<string | undefined> {
    return (await this.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name])).rows[0]?.value;
  }

  async initSetting(name: string, value: string): Promise<string> {
    await this.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING', [name, value]);
    return (await this.getSetting(name)) ?? value;
  }

  async replaceSetting(name: string, expected: string, value: string): Promise<boolean> {
    return (await this.query('UPDATE settings SET value = $1 WHERE name = $2 AND value = $3', [value, name, expected])).rowCount === 1;
  }

  /** Webhook subscriptions and deliveries, shared by the replicas (deliveries are claimed FOR UPDATE SKIP LOCKED). */
  webhooks(): PgWebhookStore {
    return (this.webhookStore ??= new PgWebhookStore(this.pool, this.where));
  }

  /**
   * A cache namespace, in this replica's memory. The engine reads its caches synchronously inside a lookup,
   * and what it caches (layer answers, scores, surfaces) is a pure function of the dataset, the engine version
   * and the request, so replicas never disagree on a value; sharing them would trade a memory read for a
   * network round trip. The server (server/stack.ts) gives each replica a local SQLite file for them instead,
   * which also survives the replica's restarts.
   */
  /** Batch jobs and their chunks, shared by every replica. */
  batches(): PgBatchStore {
    return (this.batchStore ??= new PgBatchStore(this.pool, this.where));
  }

  cache(namespace: string): Cache {
    let c = this.caches.get(namespace);
    if (!c) this.caches.set(namespace, (c = new TtlCache(this.options.memoryEntries ?? 2000, this.options.memoryBytes ?? 64 * 1024 * 1024)));
    return c;
  }

  dropCachesExcept(keep: readonly string[]): number {
    let n = 0;
    for (const [ns, c] of this.caches) {
      if (keep.includes(ns)) continue;
      n += c.size;
      this.caches.delete(ns);
    }
    return n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const l = this.listener;
    this.listener = null;
    this.listening = false;
    await l?.end().catch(() => {});
    await this.pool.end();
  }
}
