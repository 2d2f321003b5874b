/**
 * `propintel/scores`: the nine screening scores as functions of their inputs (flood, bushfire, noise
 * context, contamination, heat island, solar, view, aircraft noise, walkability) and the builders of the
 * layers they read, for a caller scoring with layers of its own rather than through `Engine.scores`.
 */

export { noiseNetworkFor, stateAt } from '../property/inputs/domain-inputs.js';
export { aircraftNoiseScore } from '../scores/aircraft-noise/aircraft-noise-score.js';
export { buildAnefLayer } from '../scores/aircraft-noise/anef-contours.js';
export type { AnefCoverage } from '../scores/aircraft-noise/anef-contours.js';
export { TABLE_FDIS, VEGETATION_CLASSES } from '../scores/bushfire/as3959-method1.js';
export type { TableFdi } from '../scores/bushfire/as3959-method1.js';
export { buildBushfireLayers } from '../scores/bushfire/bushfire-layers.js';
export type { OfficialOverlayInput } from '../scores/bushfire/bushfire-layers.js';
export { bushfireScore } from '../scores/bushfire/bushfire-score.js';
export type { SubjectIdentity } from '../scores/bushfire/bushfire-score.js';
export { CONTEXT_SCORE_KEYS, EXPOSURE_SCORES, SCORES, SCORE_KEYS } from '../scores/registry.js';
export type { ContextScoreKey, ScoreKey, ScoreRegistry } from '../scores/registry.js';
export { defineScore } from '../score-kit/descriptor.js';
export type { AnyScoreDescriptor, ScoreDescriptor, ScoreRun, ScoreSchema } from '../score-kit/descriptor.js';
export { clampScore, component, levelOf } from '../score-kit/component.js';
export type { Level, ScoreComponent } from '../score-kit/component.js';
export { buildContaminationRegister, contaminationSitesFromRows } from '../scores/contamination/contamination-register.js';
export type { RegisterCoverage } from '../scores/contamination/contamination-register.js';
export { contaminationScore } from '../scores/contamination/contamination-score.js';
export { computeContextScores } from '../scores/context-scores.js';
export { fileSourceId, loadScoreInputs } from '../scores/file-inputs.js';
export type { LoadedScoreInputs, ScoreInputFiles } from '../scores/file-inputs.js';
export type { ContextInputs, ScoreRequest } from '../scores/context-scores.js';
export { assessFlood } from '../scores/flood/assess-flood.js';
export { REGIONAL_RADIUS_M, heatIslandScore } from '../scores/heat-island/heat-island-score.js';
export { unavailableLayer } from '../score-kit/layer-input.js';
export type { MissingLayer, RasterLayer } from '../score-kit/layer-input.js';
export { solarScore } from '../scores/solar/solar-score.js';
export { viewQualityScore } from '../scores/view-quality/view-quality-score.js';
export { NO_CATEGORY, RANK_WEIGHTS, TOTAL_WEIGHT, WALK_CATEGORIES } from '../scores/walkability/categories.js';
export { DECAY_LIMIT_M, WALK_BANDS_M, distanceDecay } from '../scores/walkability/distance-decay.js';
export { AMENITY_CSV_CATEGORIES, amenityPointsFromRows, buildWalkabilityIndexes, crossingPointsFromRows, layerSource, majorWaterGeometries, motorwayGeometries, schoolPointsFromRows, shareWalkabilityIndexes, stopPointsFromRows } from '../scores/walkability/walkability-layers.js';
export type { AmenityPoint, AmenitySet, BarrierInput, CrossingInput } from '../scores/walkability/walkability-layers.js';
export { BARRIER_PENALTY_M, CROSSING_TOLERANCE_M, computeWalkability, walkSlopeFromDem } from '../scores/walkability/walkability-score.js';
export { heatSurface, readHeatSurface } from '../surfaces/heat/heat-surface.js';
export type { HeatSurface } from '../surfaces/heat/heat-surface.js';
