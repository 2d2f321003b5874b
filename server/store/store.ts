/**
 * The server's storage behind one interface: API keys, the usage meter, request limits, settings and the
 * engine's caches. The embedded
 * default is SQLite (sqlite-store.ts), which answers synchronously; every method may also return a promise
 * (`MaybePromise`), so that a PostgreSQL implementation, with several server replicas sharing one meter, can
 * follow without changing callers (they are written with `chain`). The engine's `Cache` is synchronous (it
 * is read inside a lookup): a networked store would put an in-memory tier in front of it.
 */
import type { WebhookRepository } from './webhook-store.js';
import type { BatchRepository } from './batch-store.js';
import type { Cache } from '../../engine/entry/runtime.js';
import type { StateCode } from '../../engine/entry/data.js';
import type { PropertyBlock } from '../../engine/entry/property.js';

import type { MaybePromise } from '../maybe-promise.js';

/** How a key's billing periods are laid out (server/metering/billing-period.ts works them out). */
export type PeriodKind = 'calendar' | 'anchored';

/** A key's childcare market-intelligence entitlement (the childcare API reads it). */
export interface ChildcareEntitlement {
  /** `active` or `inactive`; an active entitlement past `expires` is expired. */
  status: 'active' | 'inactive';
  /** YYYY-MM-DD, inclusive, or null for no expiry. */
  expires: string | null;
  /** States and territories the key may query. */
  states: StateCode[];
  /** The enabled add-on (e.g. `reports`), or null. */
  add_on: string | null;
  /** Childcare requests a Melbourne day (default 1,000), counted apart from the DA listing's limit. */
  daily_limit?: number;
}

/** An API key as stored: everything but the secret, which is kept only as its hash. */
export interface ApiKeyRecord {
  /** Public id (12 hex characters); appears in the key itself, listings and logs. */
  id: string;
  /** SHA-256 of the secret, hex. */
  hash: string;
  /** Free text to tell keys apart (e.g. a client's name). */
  label: string | null;
  /** Payload blocks the key covers (spec 5.3). */
  components: PropertyBlock[];
  /** The geometry licence: geometry, surfaces and the parcel boundary. */
  geometry: boolean;
  /** Unique addresses per billing period. */
  quota: number;
  /** Calendar (`YYYYMM`) or anchored to `effective_date` (`YYYYMMDD`). */
  period: PeriodKind;
  /** YYYY-MM-DD; required for anchored keys. */
  effective_date: string | null;
  /** YYYY-MM-DD, inclusive: nothing meters until the end of that day (Melbourne time). */
  onboarding_until: string | null;
  /** Requests per day on the DA listing API, or null for no limit. */
  da_daily_limit: number | null;
  /** The childcare entitlement, or null when the key has none. */
  childcare: ChildcareEntitlement | null;
  /** The read-only SQL endpoint (`POST /v1/sql`, MCP `sql_query`); needs the DA listing. */
  sql: boolean;
  /** ISO timestamp. */
  created_at: string;
  /** ISO timestamp, or null while the key is live. */
  revoked_at: string | null;
}

import type { ChargeOutcome } from './charge.js';

export type { ChargeOutcome };

/** API keys. */
export interface KeyStore {
  /** Stores a new key; throws when the id exists. */
  insertKey(record: ApiKeyRecord): MaybePromise<void>;
  /** The key with `id` (revoked ones included), or undefined. */
  keyById(id: string): MaybePromise<ApiKeyRecord | undefined>;
  /** Every key, oldest first. */
  listKeys(): MaybePromise<ApiKeyRecord[]>;
  /** Marks a key revoked at `at`; false when no live key has that id. */
  revokeKey(id: string, at: Date): MaybePromise<boolean>;
  /** Sets a live key's quota (a top-up); false when no live key has that id. */
  setQuota(id: string, quota: number): MaybePromise<boolean>;
}

/** The usage meter: unique addresses per key per billing period. */
export interface UsageMeter {
  /**
   * Counts `addressKey` for the key in the period, atomically: a repeat is free, a new address is charged
   * while fewer than `quota` are counted and refused otherwise. Concurrent calls (from any process sharing
   * the store) never exceed the quota or count one address twice.
   */
  charge(keyId: string, periodKey: string, addressKey: string, quota: number, at: Date): MaybePromise<ChargeOutcome>;
  /** Unique addresses counted for the key in the period. */
  used(keyId: string, periodKey: string): MaybePromise<number>;
  /** True when `addressKey` was already counted for the key in the period (a repeat is free). */
  counted(keyId: string, periodKey: string, addressKey: string): MaybePromise<boolean>;
}

/** What a request limiter answered. */
export interface LimitOutcome {
  /** False when the bucket had already reached its limit in the window (the request is refused, not counted). */
  allowed: boolean;
  /** Requests counted in the bucket's window after this call. */
  used: number;
}

/** Request limits (the DA listing's daily limit, the playground's per-minute limit). */
export interface RequestLimiter {
  /**
   * Counts one request in `bucket` for `window` (e.g. a key id and a Melbourne date), atomically: allowed
   * and counted while fewer than `limit` are counted, refused otherwise. Concurrent calls from any process
   * sharing the store never count past the limit. The count may be forgotten after `expiresAt`.
   */
  countRequest(bucket: string, window: string, limit: number, expiresAt: Date): MaybePromise<LimitOutcome>;
}

/** Small named values the server keeps (the playground's public demo key). */
export interface SettingStore {
  /** The value of a setting, or undefined. */
  getSetting(name: string): MaybePromise<string | undefined>;
  /** Stores `value` unless the setting exists; returns the value stored (the first writer's, across processes). */
  initSetting(name: string, value: string): MaybePromise<string>;
  /** Replaces a setting only while it still holds `expected`; true when it did. */
  replaceSetting(name: string, expected: string, value: string): MaybePromise<boolean>;
}

/** The whole store. */
export interface ServerStore extends KeyStore, UsageMeter, RequestLimiter, SettingStore {
  /** A persistent cache for the engine (layer lookups, scores and surfaces), one namespace each. */
  cache(namespace: string): Cache;
  /** Batch jobs and their chunks (server/store/batch-store.ts). */
  batches(): BatchRepository;
  /** Webhook subscriptions and deliveries (server/store/sqlite/sqlite-webhook-store.ts). */
  webhooks(): WebhookRepository;
  /** Deletes every cached entry outside `keep` (namespaces of another dataset or engine version). */
  dropCachesExcept(keep: readonly string[]): MaybePromise<number>;
  /** Closes the store; later calls fail. */
  close(): MaybePromise<void>;
}

export { StoreUnavailableError } from '../http/store-unavailable.js';
