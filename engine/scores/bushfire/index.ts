export * from './as3959-method1.js';
export * from './bushfire-layers.js';
export * from './effective-slope.js';
export * from './nearest-polygon-point.js';
export * from './bushfire-score.js';
