export * from './assess-flood.js';
export * from './flood-overlays.js';
export * from './flood-score.js';
export * from './flood-describe.js';
export * from './official-layer.js';
export * from './overlay-codes.js';
export * from './raster-point.js';
export * from './water-distance.js';
