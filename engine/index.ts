/**
 * propintel's engine: the library API. Import from `propintel` (the built package) or from this file.
 */
export * from './errors.js';
export * from './version.js';
export * from './geo/index.js';
export * from './raster/index.js';
export * from './vector/index.js';
export * from './pool/index.js';
export * from './random/index.js';
export * from './scores/index.js';
export * from './catalogue/index.js';
export * from './data/index.js';
