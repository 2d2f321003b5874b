/**
 * The engine's whole object, for the benchmarks that time its parts (index builds, the layer file's windows,
 * the store's load) and the tests that reach inside it. Not a stable API: `propintel`'s `Engine` is.
 */
import type { Engine } from './engine.js';

/** An engine `createEngine` returned, as the whole object it is. */
export function engineInternals(engine: object): Engine {
  return engine as Engine;
}
