export * from './dataset-store.js';
