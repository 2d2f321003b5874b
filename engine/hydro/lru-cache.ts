/** A small least-recently-used cache on a Map (insertion order is recency order). */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  /** Lookups answered from the cache. */
  hits = 0;
  /** Lookups that missed. */
  misses = 0;

  /** `capacity`: entries kept, at least 1. */
  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`LRU capacity must be at least 1, got ${capacity}`);
  }

  /** The value for `key`, now the most recently used, or undefined. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** Stores `value`, evicting the least recently used entry when full. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  /** Entries held. */
  get size(): number {
    return this.map.size;
  }

  /** Empties the cache and resets the counters. */
  clear(): void {
    this.map.clear();
    this.hits = this.misses = 0;
  }
}
