/**
 * `propintel/runtime`: what a host process needs around the engine: caches (LRU, TTL), HTML escaping,
 * query-value parsing, the engine's worker pool factory, and the package's root directory.
 */

export { LruCache } from '../cache/lru-cache.js';
export { TtlCache } from '../cache/ttl-cache.js';
export type { Cache } from '../cache/ttl-cache.js';
export { CACHE_TABLE, openCacheDatabase, SqliteCache, TieredCache } from '../cache/sqlite-cache.js';
export type { CacheDatabase } from '../cache/sqlite-cache.js';
export { escapeHtml } from '../escape-html.js';
export { createEnginePool } from '../tasks/engine-pool.js';
export { PACKAGE_ROOT } from '../version.js';
export type { Engine as EngineInternals } from '../runtime/engine.js';
export { engineInternals } from '../runtime/internals.js';
export { defaultLayerFile } from '../runtime/engine.js';
