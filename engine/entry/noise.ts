/**
 * `propintel/noise`: road traffic noise by CoRTN (Calculation of Road Traffic Noise, UK DoT 1988, as
 * Australian road agencies use it): the reference L10 of a traffic flow and each correction by its chart.
 */
export {
  cortnReferenceL10,
  cortnBasicLevelHourly,
  cortnSpeedHeavyCorrection,
  cortnGradientCorrection,
  cortnDistanceCorrection,
  cortnGroundCorrection,
  cortnAngleOfViewCorrection,
  cortnBarrierCorrection,
  L10_TO_LAEQ_DB,
  type CortnTraffic,
} from '../noise/cortn.js';
export { energySumDb, dbToEnergy, energyToDb } from '../noise/decibels.js';

export { loadNoiseNetworkFiles } from '../noise/load-noise-files.js';
export type { NoiseFiles } from '../noise/load-noise-files.js';
export { noiseGridNodes, noiseGridSpec, noiseSurface, noiseSurfaceOnPool } from '../noise/noise-grid.js';
export type { NoiseLoggerRecord, RoadInput, TrafficCounter } from '../noise/noise-inputs.js';
export { buildNoiseNetwork } from '../noise/noise-network.js';
export type { NoiseNetwork } from '../noise/noise-network.js';
export { noiseScore } from '../scores/noise/noise-score.js';
export { evaluateNoisePoint } from '../noise/point-evaluation.js';
export { ROAD_CLASSES } from '../noise/road-classes.js';
export type { RoadClass } from '../noise/road-classes.js';
export { inferVicmapRoadClass } from '../noise/vicmap-road-class.js';
export { airAbsorption, A_WEIGHTING, longTermLevel, OCTAVE_BANDS, pathLevels, profileFileLevels, readCutProfile, sumLevels } from '../noise/cnossos/index.js';
export type { CaseResult, CutPoint, CutProfile, PathConditions, PathLevels } from '../noise/cnossos/index.js';
