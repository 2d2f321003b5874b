export * from './land-cover-classes.js';
export * from './heat-surface.js';
