export * from './states.js';
export * from './payload-paths.js';
export * from './catalogue.js';
export * from './catalogue-error.js';
export * from './load-catalogue.js';
export * from './coverage.js';
