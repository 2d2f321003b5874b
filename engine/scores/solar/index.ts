export * from './solar-score.js';
