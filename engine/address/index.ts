export * from './address-record.js';
export * from './normalise.js';
export * from './address-index.js';
