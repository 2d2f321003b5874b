/**
 * propintel's engine: the library API. Import from `propintel` (the built package) or from this file.
 */
export * from './errors.js';
export * from './version.js';
export * from './geo/index.js';
export * from './raster/index.js';
export * from './vector/index.js';
export * from './pool/index.js';
export * from './random/index.js';
export * from './scores/index.js';
export * from './catalogue/index.js';
export * from './data/index.js';
export * from './cache/index.js';
export * from './address/index.js';
export * from './da/index.js';
export { createEngine, Engine, type EngineOptions, type ScoresOptions, type ScoresResult, type SurfacesOptions, type SurfacesResult } from './engine.js';
export * from './property/contract.js';
export { resolveOptions, validateSubject, LIMITS, type ResolvedOptions } from './property/options.js';
export { PROPERTY_PAYLOAD_SCHEMA, CORE_PAYLOAD_SCHEMA, USAGE_SCHEMA } from './property/schema.js';
export { readSample, SAMPLE_NAMES, type SampleName } from './property/samples.js';
