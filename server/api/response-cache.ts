/**
 * Finished property payloads by exact request, so a repeat lookup is answered from memory: the serialised
 * payload, its billing identity and whether it may be charged. The meter still runs on every request, so
 * `usage` is always current.
 *
 * What makes an entry stale, and how it is avoided:
 * - DAs are never cached (spec 2.8): the key includes the service's `dataRevision()`, which changes with
 *   every DA upsert, so an entry is never served after the DA records changed;
 * - layer lookups live 7 days and scores 31: an entry expires when the earliest of the parts it was built
 *   from would (read from the payload's `meta.as_at`);
 * - degraded (partial) payloads are never stored.
 * Least-recently-used entries go first once `maxBytes` is held.
 */
import { LruCache } from '../../engine/entry/runtime.js';
import type { PropertyBody } from '../../engine/entry/property.js';

export { payloadExpiry } from '../../engine/entry/property.js';

/** A stored response: a lookup's serialised answer (its `expiresAt` is when the entry stops being served). */
export type CachedResponse = Omit<PropertyBody, 'completeness'>;

/** The response cache. */
export class ResponseCache {
  private readonly lru: LruCache<string, CachedResponse>;

  /** `maxBytes`: bytes of payload kept at most (default 128 MiB); one entry may take a quarter of it. */
  constructor(maxBytes = 128 * 1024 * 1024) {
    this.lru = new LruCache({ maxSize: maxBytes, maxEntrySize: maxBytes / 4, sizeOf: (e) => e.body.bytes });
  }

  /** Entries held. */
  get size(): number {
    return this.lru.size;
  }

  /** Payload bytes held. */
  get bytes(): number {
    return this.lru.bytes;
  }

  /** The entry for `key` while it is fresh at `now` (epoch ms). */
  get(key: string, now: number): CachedResponse | undefined {
    const e = this.lru.get(key);
    if (e && e.expiresAt <= now) {
      this.lru.delete(key);
      return undefined;
    }
    return e;
  }

  /** Stores an entry (replacing one under the same key). */
  set(key: string, entry: CachedResponse): void {
    this.lru.set(key, entry);
  }

  /** Drops everything. */
  clear(): void {
    this.lru.clear();
  }
}

