export * from './heat-island-score.js';
