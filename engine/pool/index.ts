export * from './protocol.js';
export * from './task-map.js';
export * from './worker-pool.js';
export * from './define-worker.js';
