export * from './anef-contours.js';
export * from './aircraft-noise-score.js';
