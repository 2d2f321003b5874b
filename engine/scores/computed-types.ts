/**
 * The type each score's module computes, by its key, and each surface's: checked against the published types
 * (score-types.ts, generated from the JSON Schema) by tsc.
 */
import type { AircraftNoiseScore } from './aircraft-noise/aircraft-noise-score.js';
import type { BushfireScore } from './bushfire/bushfire-score.js';
import type { ContaminationScore } from './contamination/contamination-score.js';
import type { FloodScore } from './flood/flood-score.js';
import type { HeatIslandScore } from './heat-island/heat-island-score.js';
import type { SolarScore } from './solar/solar-score.js';
import type { ViewQualityScore } from './view-quality/view-quality-score.js';
import type { WalkabilityScore } from './walkability/walkability-score.js';
import type { NoiseScore } from './noise/noise-score.js';
import type { NoiseSurface } from '../noise/noise-grid.js';
import type { HeatSurface } from '../surfaces/heat/heat-surface.js';
import type { ContoursLayer } from '../surfaces/contours/contours-layer.js';

/** Every score by its key. */
export interface Scores {
  noise: NoiseScore;
  flood: FloodScore;
  bushfire: BushfireScore;
  heat_island: HeatIslandScore;
  solar: SolarScore;
  walkability: WalkabilityScore;
  view_quality: ViewQualityScore;
  contamination: ContaminationScore;
  aircraft_noise: AircraftNoiseScore;
}

/** Every surface by its layer. */
export interface Surfaces {
  noise: NoiseSurface;
  heat: HeatSurface;
  contours: ContoursLayer;
}

