export * from './grid-sample.js';
export * from './layer-input.js';
export * from './terrain-slope.js';
export * from './landscape-openness.js';
export * from './view-quality-score.js';
