/**
 * The options and results of the engine's point calls (`scores`, `surfaces`), on their own so that the
 * property lookup (which calls them through its dependencies) and the engine share them without importing
 * each other.
 */
import type { NoiseMethod } from '../noise/noise-grid-task.js';
import type { StateCode } from '../catalogue/states.js';
import type { SurfaceLayer } from './kit/contract.js';
import type { ScoreKey } from '../scores/registry.js';
import type { SubjectIdentity } from '../scores/bushfire/bushfire-score.js';
import type { FloodAssessment } from '../scores/flood/assess-flood.js';
import type { Scores, Surfaces } from '../scores/score-types.js';

/** Options of a scores call. */
export interface ScoresOptions {
  /** The subject's state; determined from the LGA layers when absent. */
  state?: StateCode | null;
  /** Score keys to compute; default every score the engine has (the registry's nine, and any of the caller's own). */
  only?: readonly (ScoreKey | (string & {}))[];
  /** Adds walkability walking areas and clipped flood geometry. */
  includeGeometry?: boolean;
  /** The resolved address (bushfire subject identity). */
  identity?: SubjectIdentity;
  /** The noise score's physics path: `cortn` (default) or `cnossos` (CNOSSOS-EU per octave band). */
  noiseMethod?: NoiseMethod;
  signal?: AbortSignal;
  now?: Date;
}

/** The scores of a subject, and which failed. */
export interface ScoresResult {
  state: StateCode | null;
  scores: Partial<Scores>;
  /** Score keys whose computation failed (reported as `scores.<key>` degraded components). */
  degraded: string[];
  /** The flood lookup's hazard hits (hazards.flood), when flood ran. */
  floodHazards?: FloodAssessment['hazards'];
}

/** Options of a surfaces call. */
export interface SurfacesOptions {
  state?: StateCode | null;
  layers?: readonly SurfaceLayer[];
  /** Noise grid nodes per side: 5, 7 (default) or 9; anything else is INVALID_ARGUMENT naming `noise_cells`. */
  noiseCells?: 5 | 7 | 9;
  /** Contour interval, metres; absent means automatic (interval_source `auto`). */
  contourIntervalM?: number;
  /** The noise grid's physics path: `cortn` (default) or `cnossos`. */
  noiseMethod?: NoiseMethod;
  signal?: AbortSignal;
}

/** Surfaces of a subject and why any are missing. */
export interface SurfacesResult {
  surfaces: Partial<Surfaces>;
  /** Layers not delivered, with the reason (spec 2.7: echoed in meta.surfaces.unavailable). */
  unavailable: Partial<Record<SurfaceLayer, { reason: string; note: string; services_tried?: string[] }>>;
}
