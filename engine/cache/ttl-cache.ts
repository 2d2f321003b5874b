/**
 * A bounded in-memory cache with per-entry time-to-live, for the engine's score and layer caches (spec 2.8:
 * scores up to 31 days, layer lookups 7 days, DAs never). Least-recently-used entries go first when full.
 * The server may give the engine a persistent implementation of {@link Cache} (SQLite) instead.
 */
import { estimateBytes } from '../memory/estimate.js';
import { LruCache } from './lru-cache.js';

/** A cache of JSON-able values with a time-to-live per entry. */
export interface Cache {
  /** The value and when it was stored, or undefined when absent or expired at `now`. */
  get<T>(key: string, now?: Date): { value: T; storedAt: Date } | undefined;
  /** Stores `value` for `ttlMs` from `now`. */
  set(key: string, value: unknown, ttlMs: number, now?: Date): void;
  delete(key: string): void;
  clear(): void;
}

/** Days in milliseconds. */
export const DAY_MS = 86_400_000;

/**
 * An LRU cache with TTL, holding at most `capacity` entries and, when `maxBytes` is given, at most that many
 * bytes by {@link estimateBytes} of each value (a value larger than the bound is not kept).
 */
export class TtlCache implements Cache {
  private readonly lru: LruCache<string, { value: unknown; storedAt: number; expires: number; bytes: number }>;
  private readonly sized: boolean;

  constructor(capacity = 10_000, maxBytes = Infinity) {
    this.sized = Number.isFinite(maxBytes);
    this.lru = new LruCache({ maxEntries: capacity, maxSize: maxBytes, sizeOf: (e) => e.bytes });
  }

  get size(): number {
    return this.lru.size;
  }

  /** Estimated bytes of the values held (0 when the cache is bounded by entries only). */
  get bytes(): number {
    return this.lru.bytes;
  }

  get<T>(key: string, now = new Date()): { value: T; storedAt: Date } | undefined {
    const e = this.lru.get(key);
    if (!e) return undefined;
    if (e.expires <= now.getTime()) {
      this.lru.delete(key);
      return undefined;
    }
    return { value: e.value as T, storedAt: new Date(e.storedAt) };
  }

  set(key: string, value: unknown, ttlMs: number, now = new Date()): void {
    if (!(ttlMs > 0)) return;
    const bytes = this.sized ? estimateBytes(value) : 0;
    this.lru.set(key, { value, storedAt: now.getTime(), expires: now.getTime() + ttlMs, bytes });
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }
}
