export * from './landscape-openness.js';
export * from './view-quality-score.js';
