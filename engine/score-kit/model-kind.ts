/**
 * A model a score computes over, as a value: built from the dataset once (per state, or once for the whole
 * dataset) and kept by the engine's runtime (runtime/state-models.ts), which counts a state's models against
 * its memory budget, drops the least recently used state's, and reports each by its name (GET /metrics). A
 * score's folder declares the kinds it reads (its descriptor's `models`) and reads them with `run.model(kind)`;
 * the runtime knows no kind by name.
 */
import { heldExtent } from '../catalogue/coverage.js';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import { STATES, type StateCode } from '../catalogue/states.js';
import type { DataStore } from '../data/dataset-store.js';

/** One kind of model. */
export interface ModelKind<T> {
  /** Its name in the memory report (`walkability_indexes`, `contamination_register`, ...). */
  name: string;
  /**
   * `state`: one per state (and one for no state: every state-held input not integrated), counted against the
   * model budget and dropped with its state; `national`: one for the whole dataset, kept.
   */
  scope: 'state' | 'national';
  /**
   * Built from layers the dataset holds whole (data/layer-policy.ts): read by window, the whole dataset's
   * model answers; false for a model built from the window itself (the bushfire layers).
   */
  whole: boolean;
  /** The payload paths it is built from (a national model keeps their layers once read). */
  paths: readonly PayloadPath[];
  /** Builds it for `state` (null for no state, or for a national model); `get` reads another kind it derives from. */
  build(store: DataStore, state: StateCode | null, get: <U>(kind: ModelKind<U>) => U): T;
}

/** Declares a model kind. */
export function defineModel<T>(kind: ModelKind<T>): ModelKind<T> {
  return kind;
}

/** Coverage per state of a path, in the score modules' terms (a state without a source is not integrated). */
export function coverageByState(store: DataStore, path: PayloadPath): Record<string, 'complete' | 'partial' | 'not_integrated'> {
  return Object.fromEntries(STATES.map((s) => {
    const e = heldExtent(store.catalogue, path, s);
    return [s, e === 'none' ? 'not_integrated' : e];
  }));
}

/** Why a state-held input is missing for a subject outside every held state's LGAs. */
export const UNDETERMINED_STATE = "the subject's state could not be determined, so no state-held source applies";
