export * from './categories.js';
export * from './distance-decay.js';
export * from './barrier-field.js';
export * from './walkability-layers.js';
export * from './walking-areas.js';
export * from './walkability-score.js';
export * from './walk-slope-reader.js';
export * from './walkability-task-input.js';
