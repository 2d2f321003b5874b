export * from './contamination-register.js';
export * from './contamination-score.js';
