/**
 * Connecting to PostgreSQL (node-postgres' `pg`): a pool per process, a clear error naming the server when it
 * cannot be reached, and the classification of connection failures mid-request as
 * {@link StoreUnavailableError} (the server answers 503 with Retry-After).
 */
import pg from 'pg';
import { parse } from 'pg-connection-string';
import { StoreUnavailableError } from '../store.js';

// bigint (int8) and numeric counts arrive as strings by default; every int8 this store keeps (sequence
// numbers, epoch milliseconds, ids) is below 2^53, so read them as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

/** True for `postgres://` and `postgresql://` URLs: the `--db` value that selects the PostgreSQL store. */
export function isPostgresUrl(db: string | undefined): db is string {
  return !!db && /^postgres(ql)?:\/\//i.test(db);
}

/** Where a URL points, for messages: host (or socket directory), port and database, never the password. */
export function describePostgres(url: string): string {
  // node-postgres' own parser (pg-connection-string) knows `?host=/socket/dir` and the other forms.
  const c = parse(url);
  const host = c.host || 'localhost';
  const db = c.database || c.user || 'postgres';
  return host.startsWith('/') ? `${host} (Unix socket), database ${db}` : `${host}:${c.port || 5432}, database ${db}`;
}

/** SQLSTATE classes and Node error codes that mean the server or the connection is gone, not a bad query. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'ENOENT', 'EHOSTUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);

/** Whether `err` is a lost or refused connection (retry later) rather than an error in the statement. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && (CONNECTION_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|terminating connection|the database system is (starting|shutting) up/i.test(e.message ?? '');
}

/** `err` as thrown to callers: connection failures become {@link StoreUnavailableError}. */
export function storeError(err: unknown, where: string): unknown {
  if (err instanceof StoreUnavailableError) return err;
  if (isConnectionError(err)) return new StoreUnavailableError(`PostgreSQL at ${where} is unreachable: ${(err as Error).message}`);
  return err;
}

/** Options of {@link connectPostgres}. */
export interface PgConnectOptions {
  /** Connections in the pool (default 16). */
  max?: number;
  /** Milliseconds to wait for a connection before failing (default 5,000). */
  connectTimeoutMs?: number;
  /** The `application_name` the server shows in pg_stat_activity (default `propintel`). */
  applicationName?: string;
}

/**
 * A pool on `url`, checked with one round trip: an unreachable server fails here with a message naming it
 * (the CLI prints it and exits 1), not at the first request.
 */
export async function connectPostgres(url: string, options: PgConnectOptions = {}): Promise<pg.Pool> {
  const where = describePostgres(url);
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 16, connectionTimeoutMillis: options.connectTimeoutMs ?? 5000, application_name: options.applicationName ?? 'propintel', idleTimeoutMillis: 30_000 });
  // An idle client that loses its connection emits 'error' on the pool; without a listener that would crash
  // the process. The next query gets a fresh connection (or a StoreUnavailableError).
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => {});
    throw new StoreUnavailableError(`cannot reach PostgreSQL at ${where}: ${(err as Error).message}`);
  }
  return pool;
}

/**
 * Runs `fn` in one transaction on one pooled connection: committed when it returns, rolled back when it
 * throws; connection failures become {@link StoreUnavailableError}.
 */
export async function inTransaction<T>(pool: pg.Pool, where: string, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw storeError(err, where);
  }
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw storeError(err, where);
  } finally {
    client.release();
  }
}

/** What a PostgreSQL repository shares: one statement, or one transaction, with failures as {@link StoreUnavailableError}. */
export abstract class PgRepository {
  constructor(protected readonly pool: pg.Pool, protected readonly where: string) {}

  /** Runs one statement. */
  protected async q<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (err) {
      throw storeError(err, this.where);
    }
  }

  /** Runs `fn` in one transaction on one connection. */
  protected tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, this.where, fn);
  }
}
