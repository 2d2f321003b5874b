/**
 * `propintel/errors`: the engine's errors alone ({@link EngineError}, its codes, the type guard), for a caller
 * that only needs to recognise them (the CLI's one-shot bundles, which must not pull in the whole engine).
 * `propintel` exports the same.
 */
export { EngineError, isEngineError, ENGINE_ERROR_CODES, type EngineErrorCode } from '../errors.js';
