/**
 * The engine's one least-recently-used cache, on a Map (insertion order is recency order). Every bounded cache
 * of the engine and the server is this: the HAND tile cache, a GeoTIFF's decoded blocks, the open-raster and
 * contour-line-dataset pools of a thread, the score and layer caches (`TtlCache`, which adds time-to-live)
 * and the server's response cache.
 *
 * It is bounded by entries, by total size (each entry's size from `sizeOf`, in bytes or any unit), or both;
 * an entry larger than `maxEntrySize` (default `maxSize`) is refused rather than emptying the cache for it.
 * `onEvict` is told of every entry pushed out by a bound (to close a file, say), never of one deleted,
 * replaced or cleared by the caller.
 */

/** Bounds and hooks of an {@link LruCache}. */
export interface LruOptions<K, V> {
  /** Entries kept at most, at least 1; default unbounded. */
  maxEntries?: number;
  /** Total of `sizeOf` kept at most; default unbounded. */
  maxSize?: number;
  /** Size of an entry (default 0: only `maxEntries` bounds the cache). */
  sizeOf?: (value: V, key: K) => number;
  /** Largest single entry kept; default `maxSize`. */
  maxEntrySize?: number;
  /** Called with each entry a bound pushes out. */
  onEvict?: (value: V, key: K) => void;
}

/** A least-recently-used cache (see the file comment). */
export class LruCache<K, V> {
  private readonly map = new Map<K, { value: V; size: number }>();
  private held = 0;
  private readonly maxEntries: number;
  private readonly maxSize: number;
  private readonly maxEntrySize: number;
  private readonly opts: LruOptions<K, V>;
  /** Lookups by `get` answered from the cache. */
  hits = 0;
  /** Lookups by `get` that missed. */
  misses = 0;

  /** `options` bounds and hooks; a number is `{ maxEntries }`. */
  constructor(options: LruOptions<K, V> | number = {}) {
    const o = (this.opts = typeof options === 'number' ? { maxEntries: options } : options);
    this.maxEntries = o.maxEntries ?? Infinity;
    this.maxSize = o.maxSize ?? Infinity;
    this.maxEntrySize = o.maxEntrySize ?? this.maxSize;
    if (!(this.maxEntries >= 1)) throw new RangeError(`LRU capacity must be at least 1 entry, got ${o.maxEntries}`);
    if (!(this.maxSize >= 0)) throw new RangeError(`LRU maxSize must be a number of at least 0, got ${o.maxSize}`);
  }

  /** Entries held. */
  get size(): number {
    return this.map.size;
  }

  /** Total size of the entries held (0 without `sizeOf`). */
  get bytes(): number {
    return this.held;
  }

  /** The value for `key`, now the most recently used, or undefined. */
  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** The value for `key` without touching its recency or the counters. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /**
   * Stores `value` as the most recently used, pushing out the least recently used entries beyond the bounds.
   * Returns false (and holds nothing under `key`) when the entry alone is larger than `maxEntrySize`.
   */
  set(key: K, value: V): boolean {
    this.delete(key);
    const size = this.opts.sizeOf?.(value, key) ?? 0;
    if (size > this.maxEntrySize) return false;
    this.map.set(key, { value, size });
    this.held += size;
    while (this.map.size > this.maxEntries || this.held > this.maxSize) {
      const [oldKey, old] = this.map.entries().next().value as [K, { value: V; size: number }];
      this.map.delete(oldKey);
      this.held -= old.size;
      this.opts.onEvict?.(old.value, oldKey);
    }
    return true;
  }

  /** Removes `key`; true when it was held. */
  delete(key: K): boolean {
    const e = this.map.get(key);
    if (!e) return false;
    this.map.delete(key);
    this.held -= e.size;
    return true;
  }

  /** The values held, least recently used first. */
  *values(): IterableIterator<V> {
    for (const e of this.map.values()) yield e.value;
  }

  /** The entries held, least recently used first. */
  *entries(): IterableIterator<[K, V]> {
    for (const [k, e] of this.map) yield [k, e.value];
  }

  /** Empties the cache (without `onEvict`) and resets the counters. */
  clear(): void {
    this.map.clear();
    this.held = 0;
    this.hits = this.misses = 0;
  }
}
