/**
 * The context scores of one subject (walkability, bushfire, heat island, solar, view quality, contamination,
 * aircraft noise) over loaded inputs. The engine builds the inputs from the dataset catalogue; the
 * `propintel scores` command builds them from explicit files.
 */
import type { Scores } from './score-types.js';
import type { Window } from '../geo/window.js';
import { aircraftNoiseScore } from './aircraft-noise/aircraft-noise-score.js';
import type { AnefLayer } from './aircraft-noise/anef-contours.js';
import type { TableFdi } from './bushfire/as3959-method1.js';
import type { BushfireLayers } from './bushfire/bushfire-layers.js';
import { bushfireScore, type SubjectIdentity } from './bushfire/bushfire-score.js';
import type { ContaminationRegister } from './contamination/contamination-register.js';
import { contaminationScore } from './contamination/contamination-score.js';
import { heatIslandScore } from './heat-island/heat-island-score.js';
import { solarScore } from './solar/solar-score.js';
import type { MissingLayer, RasterLayer } from './layer-input.js';
import { viewQualityScore } from './view-quality/view-quality-score.js';
import type { WalkabilityIndexes } from './walkability/walkability-layers.js';
import { computeWalkability, walkSlopeFromDem, type WalkSlopeInput } from './walkability/walkability-score.js';
import type { HeatSurface } from '../surfaces/heat/heat-surface.js';

/** The score keys computed here, in spec order. */
export const CONTEXT_SCORE_KEYS = ['bushfire', 'heat_island', 'solar', 'walkability', 'view_quality', 'contamination', 'aircraft_noise'] as const;
/** One of {@link CONTEXT_SCORE_KEYS}. */
export type ContextScoreKey = (typeof CONTEXT_SCORE_KEYS)[number];

/**
 * Everything the context scores read for one subject. The domain models (walkability, bushfire,
 * contamination, aircraft noise) may be left out when their score is not asked for; a raster left null reads
 * as not integrated, so a caller loading inputs for only some keys must load every input those keys read.
 */
export interface ContextInputs {
  window: Window;
  walkability?: WalkabilityIndexes;
  bushfire?: BushfireLayers;
  /** DEM around the subject (bushfire slope, view quality, walkability slope). */
  dem: RasterLayer | MissingLayer | null;
  /** Walkability's regional slope when already worked out (else it is taken from `dem`). */
  walkSlope?: WalkSlopeInput | MissingLayer | null;
  /** Land-surface temperature around the subject. */
  lst: RasterLayer | MissingLayer | null;
  /** The land-cover heat surface over the window (explanatory for heat island). */
  landCover: HeatSurface | MissingLayer | null;
  solar: { ghi: RasterLayer | MissingLayer | null; dni: RasterLayer | MissingLayer | null; pvout: RasterLayer | MissingLayer | null; optimumTilt: RasterLayer | MissingLayer | null };
  contamination?: ContaminationRegister;
  anef?: AnefLayer;
}

function need<T>(input: T | undefined, key: ContextScoreKey): T {
  if (input === undefined) throw new Error(`the ${key} score's inputs were not loaded`);
  return input;
}

/** What the subject is and how to score it. */
export interface ScoreRequest {
  lon: number;
  lat: number;
  state: string | null;
  identity?: SubjectIdentity;
  only: readonly ContextScoreKey[];
  includeGeometry?: boolean;
  fdi?: TableFdi;
}

/** Runs the requested scores over loaded inputs. */
export function computeContextScores(inputs: ContextInputs, req: ScoreRequest): Partial<Pick<Scores, ContextScoreKey>> {
  const { lon, lat, state } = req;
  const out: Partial<Pick<Scores, ContextScoreKey>> = {};
  const landCover = inputs.landCover && 'class_legend' in inputs.landCover ? inputs.landCover : null;
  for (const key of req.only) {
    if (key === 'walkability') out.walkability = computeWalkability(need(inputs.walkability, key), lon, lat, { slope: inputs.walkSlope !== undefined ? inputs.walkSlope : walkSlopeFromDem(inputs.dem, lon, lat), includeGeometry: req.includeGeometry });
    if (key === 'bushfire') out.bushfire = bushfireScore(need(inputs.bushfire, key), { lon, lat, state, identity: req.identity }, { dem: inputs.dem, fdi: req.fdi });
    if (key === 'heat_island') out.heat_island = heatIslandScore({ lon, lat, lst: inputs.lst, landCover });
    if (key === 'solar') out.solar = solarScore({ lon, lat, ...inputs.solar });
    if (key === 'view_quality') out.view_quality = viewQualityScore({ lon, lat, dem: inputs.dem });
    if (key === 'contamination') out.contamination = contaminationScore(need(inputs.contamination, key), { lon, lat, state });
    if (key === 'aircraft_noise') out.aircraft_noise = aircraftNoiseScore(need(inputs.anef, key), { lon, lat, state });
  }
  return out;
}
