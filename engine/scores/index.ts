export * from '../score-kit/component.js';
