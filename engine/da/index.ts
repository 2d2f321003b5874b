export * from './categories.js';
export * from './classify.js';
export * from './bands.js';
export * from './childcare.js';
export * from './da-record.js';
export * from './da-store.js';
