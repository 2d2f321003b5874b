export * from './protocol.js';
export * from './worker-pool.js';
export * from './define-worker.js';
