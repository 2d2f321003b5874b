/**
 * `propintel`: the engine as a library. Open a dataset directory with {@link createEngine} and ask it what
 * the HTTP API answers: a property payload, the scores and surfaces of a point, the sandbox addresses.
 * Failures are {@link EngineError}s with a code from {@link ENGINE_ERROR_CODES}. The compute engines that
 * need no dataset are their own entry points: `propintel/contours`, `propintel/hydro`, `propintel/noise`
 * and `propintel/geo`. Everything else in the package is internal.
 */
import { createEngine as createEngineImpl, type Engine as EngineImpl, type EngineOptions } from './engine.js';

/** An open engine: what the server itself calls (see docs/library.md). */
export type Engine = Pick<
  EngineImpl,
  | 'property' | 'identify' | 'scores' | 'surfaces' | 'sandbox' | 'sample' | 'stateAt' | 'addresses' | 'dataRevision'
  | 'das' | 'childcare' | 'openSchools' | 'sourceNotices'
  | 'tile' | 'tileLayers' | 'tileAttribution' | 'terrainTile' | 'terrainLayer'
  | 'warm' | 'memoryReport' | 'close'
>;

/** Opens the dataset directory `options.datasets` (its catalogue.json) and starts the worker threads. */
export const createEngine: (options: EngineOptions) => Promise<Engine> = createEngineImpl;

export type { EngineOptions, ScoresOptions, ScoresResult, SurfacesOptions, SurfacesResult, MemoryReport } from './engine.js';
export { EngineError, isEngineError, ENGINE_ERROR_CODES, type EngineErrorCode } from './errors.js';
export type { PropertySubject, PropertyOptions, PropertyResult, SandboxAddress } from './property/contract.js';
export type { Scores, Surfaces } from './scores/score-types.js';
export { PROPERTY_PAYLOAD_SCHEMA, CORE_PAYLOAD_SCHEMA } from './property/schema.js';
export { VERSION } from './version.js';
export type { ChildcareScope, Catchment } from './childcare/analysis.js';
