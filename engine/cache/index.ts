export * from './ttl-cache.js';
export * from './lru-cache.js';
