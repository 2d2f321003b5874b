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
import type { PayloadBody } from './payload-body.js';

/** A stored response. */
export interface CachedResponse {
  body: PayloadBody;
  addressKey: string;
  /** The resolved address (null for a bare coordinate), for the meter's messages. */
  label: string | null;
  sandbox: boolean;
  chargeable: boolean;
  notChargedReason?: string;
  /** Epoch ms after which the entry is not served. */
  expiresAt: number;
  /** The cache's use counter when the entry was last moved to the recent end (LRU bookkeeping). */
  touched?: number;
}

/** The response cache. */
export class ResponseCache {
  private readonly map = new Map<string, CachedResponse>();
  private held = 0;
  private uses = 0;

  constructor(
    /** Bytes of payload kept at most (default 128 MiB). */
    private readonly maxBytes = 128 * 1024 * 1024,
  ) {}

  /** Entries held. */
  get size(): number {
    return this.map.size;
  }

  /** Payload bytes held. */
  get bytes(): number {
    return this.held;
  }

  /** The entry for `key` while it is fresh at `now` (epoch ms). */
  get(key: string, now: number): CachedResponse | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= now) {
      this.remove(key, e);
      return undefined;
    }
    // Move to the recent end only when it has drifted: a hot entry costs a lookup, not a reinsertion.
    if (++this.uses - (e.touched ?? 0) > this.map.size) {
      e.touched = this.uses;
      this.map.delete(key);
      this.map.set(key, e);
    }
    return e;
  }

  /** Stores an entry (replacing one under the same key). */
  set(key: string, entry: CachedResponse): void {
    if (entry.body.bytes > this.maxBytes / 4) return;
    const old = this.map.get(key);
    if (old) this.remove(key, old);
    entry.touched = this.uses;
    this.map.set(key, entry);
    this.held += entry.body.bytes;
    for (const [k, e] of this.map) {
      if (this.held <= this.maxBytes) break;
      this.remove(k, e);
    }
  }

  /** Drops everything. */
  clear(): void {
    this.map.clear();
    this.held = 0;
  }

  private remove(key: string, e: CachedResponse): void {
    this.map.delete(key);
    this.held -= e.body.bytes;
  }
}

/**
 * When a payload built at `now` stops being fresh: the earliest of its layer lookups' expiry
 * (`meta.as_at.layer_features` + `layerTtlMs`) and its scores' (`meta.as_at.scores` + `scoreTtlMs`).
 */
export function payloadExpiry(payload: Record<string, unknown>, now: number, layerTtlMs: number, scoreTtlMs: number): number {
  const asAt = ((payload.meta as Record<string, unknown> | undefined)?.as_at ?? {}) as Record<string, unknown>;
  const t = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);
  let expires = now + layerTtlMs;
  const layers = t(asAt.layer_features);
  if (Number.isFinite(layers)) expires = Math.min(expires, layers + layerTtlMs);
  const scores = t(asAt.scores);
  if (Number.isFinite(scores)) expires = Math.min(expires, scores + scoreTtlMs);
  return expires;
}
