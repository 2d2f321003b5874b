/**
 * A bounded in-memory cache with per-entry time-to-live, for the engine's score and layer caches (spec 2.8:
 * scores up to 31 days, layer lookups 7 days, DAs never). Least-recently-used entries go first when full.
 * The server may give the engine a persistent implementation of {@link Cache} (SQLite) instead.
 */
import { estimateBytes } from '../memory/estimate.js';

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
  private readonly map = new Map<string, { value: unknown; storedAt: number; expires: number; bytes: number }>();
  private held = 0;

  constructor(
    private readonly capacity = 10_000,
    private readonly maxBytes = Infinity,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Estimated bytes of the values held (0 when the cache is bounded by entries only). */
  get bytes(): number {
    return this.held;
  }

  get<T>(key: string, now = new Date()): { value: T; storedAt: Date } | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expires <= now.getTime()) {
      this.delete(key);
      return undefined;
    }
    // Refresh recency.
    this.map.delete(key);
    this.map.set(key, e);
    return { value: e.value as T, storedAt: new Date(e.storedAt) };
  }

  set(key: string, value: unknown, ttlMs: number, now = new Date()): void {
    if (!(ttlMs > 0)) return;
    this.delete(key);
    const bytes = Number.isFinite(this.maxBytes) ? estimateBytes(value) : 0;
    if (bytes > this.maxBytes) return;
    this.map.set(key, { value, storedAt: now.getTime(), expires: now.getTime() + ttlMs, bytes });
    this.held += bytes;
    while (this.map.size > this.capacity || this.held > this.maxBytes) this.delete(this.map.keys().next().value as string);
  }

  delete(key: string): void {
    const e = this.map.get(key);
    if (!e) return;
    this.map.delete(key);
    this.held -= e.bytes;
  }

  clear(): void {
    this.map.clear();
    this.held = 0;
  }
}
