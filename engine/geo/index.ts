export * from './bbox.js';
export * from './crs.js';
export * from './distance.js';
export * from './geo-transform.js';
export * from './window.js';
