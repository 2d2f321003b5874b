/**
 * The server's tables, described once (propintel/data's table schema) and rendered for the SQLite store
 * (sqlite-store.ts, sqlite-webhook-store.ts) and the PostgreSQL one (pg-store.ts, pg-webhook-store.ts,
 * pg-schema.ts). The DA tables are the engine's (propintel/das, DA_TABLES). Each store's version
 * bookkeeping (`meta` in SQLite, `propintel_meta` in PostgreSQL) is not described here: it is read before
 * anything else is created.
 */
import type { ColumnDef, TableDef } from '../../engine/entry/data.js';
import { CACHE_TABLE } from '../../engine/entry/runtime.js';

const text = (name: string): ColumnDef => ({ name, type: 'text' });
const optText = (name: string): ColumnDef => ({ name, type: 'text', nullable: true });
const int = (name: string): ColumnDef => ({ name, type: 'integer' });
const big = (name: string): ColumnDef => ({ name, type: 'bigint' });

/** API keys, the usage meter, request limits and settings. */
export const KEY_TABLES: readonly TableDef[] = [
  {
    name: 'api_keys',
    columns: [
      text('id'), text('hash'), optText('label'), { name: 'components', type: 'json' }, { name: 'geometry', type: 'boolean' }, int('quota'),
      text('period'), optText('effective_date'), optText('onboarding_until'), { name: 'da_daily_limit', type: 'integer', nullable: true },
      { name: 'childcare', type: 'json', nullable: true },
      // Added after the first schema: SQLite stores of then gain it with its default.
      { name: 'sql', type: 'boolean', default: false },
      text('created_at'), optText('revoked_at'),
    ],
    primaryKey: ['id'],
  },
  { name: 'usage_counts', columns: [text('key_id'), text('period_key'), int('used')], primaryKey: ['key_id', 'period_key'], withoutRowid: true },
  {
    name: 'usage_addresses',
    columns: [text('key_id'), text('period_key'), text('address_key'), text('charged_at')],
    primaryKey: ['key_id', 'period_key', 'address_key'],
    withoutRowid: true,
  },
  {
    name: 'request_counts',
    // `window` is a reserved word in PostgreSQL: the column was `window` in SQLite and `win` there.
    columns: [text('bucket'), { name: 'time_window', type: 'text', renamedFrom: { sqlite: 'window', postgres: 'win' } }, int('count'), big('expires_at')],
    primaryKey: ['bucket', 'time_window'],
    withoutRowid: true,
    indexes: [{ name: 'request_counts_expiry', columns: ['expires_at'] }],
  },
  { name: 'settings', columns: [text('name'), text('value')], primaryKey: ['name'] },
  CACHE_TABLE,
];

/** Webhook subscriptions, their deliveries and every attempt. */
export const WEBHOOK_TABLES: readonly TableDef[] = [
  {
    name: 'webhooks',
    columns: [
      text('id'), text('key_id'), text('url'), text('events'), text('filters'), text('secret'), { name: 'status', type: 'text', default: 'active' },
      optText('disabled_reason'), text('created_at'), big('after_event'),
    ],
    primaryKey: ['id'],
    indexes: [{ name: 'webhooks_key', columns: ['key_id', 'created_at'] }],
  },
  {
    name: 'webhook_deliveries',
    columns: [
      // Insertion order for ties of created_at; SQLite's rowid serves there.
      { name: 'n', type: 'serial', unique: true, only: 'postgres' },
      text('id'), text('webhook_id'), text('event_id'), text('type'), text('body'), text('state'), { name: 'attempts', type: 'integer', default: 0 },
      big('next_attempt_at'), big('created_at'), { name: 'last_status', type: 'integer', nullable: true }, optText('last_error'),
    ],
    primaryKey: ['id'],
    indexes: [
      { name: 'webhook_deliveries_due', columns: ['next_attempt_at'], where: "state = 'pending'" },
      { name: 'webhook_deliveries_hook', columns: ['webhook_id', 'created_at'] },
    ],
  },
  {
    name: 'webhook_attempts',
    columns: [text('delivery_id'), int('attempt'), big('at'), { name: 'status', type: 'integer', nullable: true }, optText('error'), { name: 'duration_ms', type: 'real' }],
    primaryKey: ['delivery_id', 'attempt'],
    withoutRowid: true,
  },
  { name: 'webhook_meta', columns: [text('key'), text('value')], primaryKey: ['key'] },
];

/**
 * Batch jobs (POST /v1/batch) and their chunks: a chunk's input rows and, once looked up, its results, each
 * gzipped JSON lines. A chunk is leased to one worker at a time (`owner`, `lease_until`); an expired lease is
 * taken over, and a result is kept only from the chunk's current owner, so no row is done twice.
 */
export const BATCH_TABLES: readonly TableDef[] = [
  {
    name: 'batch_jobs',
    columns: [
      text('id'), text('key_id'), text('status'), text('created_at'), optText('started_at'), optText('finished_at'), { name: 'expires_at', type: 'bigint', nullable: true },
      text('input_format'), { name: 'options', type: 'json' }, { name: 'columns', type: 'json' }, optText('callback_secret'),
      int('rows_total'), { name: 'rows_done', type: 'integer', default: 0 }, { name: 'rows_failed', type: 'integer', default: 0 }, { name: 'rows_skipped', type: 'integer', default: 0 },
      { name: 'charged', type: 'integer', default: 0 }, int('chunks_total'), { name: 'chunks_done', type: 'integer', default: 0 }, { name: 'error', type: 'json', nullable: true },
      { name: 'first_done_at', type: 'bigint', nullable: true },
      // The bytes the job holds (its unworked input, results and payloads), kept as it changes: a key's limit sums it.
      { name: 'stored_bytes', type: 'bigint', default: 0 },
    ],
    primaryKey: ['id'],
    indexes: [{ name: 'batch_jobs_key', columns: ['key_id', 'created_at'] }, { name: 'batch_jobs_expiry', columns: ['expires_at'] }],
  },
  {
    name: 'batch_chunks',
    columns: [
      text('job_id'), int('seq'), int('first_row'), int('row_count'), { name: 'input', type: 'blob', nullable: true }, text('status'), optText('owner'),
      { name: 'lease_until', type: 'bigint', default: 0 }, { name: 'attempts', type: 'integer', default: 0 }, { name: 'result', type: 'blob', nullable: true },
      // The rows of `result` the meter charged (JSON positions), when the rows themselves say charged: false.
      { name: 'charged_rows', type: 'text', nullable: true },
      // The payloads the chunk's rows name (JSON hashes, in batch_payloads), when they are stored apart.
      { name: 'payload_hashes', type: 'text', nullable: true },
    ],
    primaryKey: ['job_id', 'seq'],
    indexes: [{ name: 'batch_chunks_open', columns: ['status', 'lease_until'], where: "status IN ('pending', 'running')" }],
  },
  {
    // Each distinct payload of a job's results, once (gzipped JSON): its rows name it by hash.
    name: 'batch_payloads',
    columns: [text('job_id'), text('hash'), { name: 'body', type: 'blob' }],
    primaryKey: ['job_id', 'hash'],
  },
];
