/**
 * `confidence_range_db`: the range the modelled Lden is expected to fall in, anchored on the published field
 * accuracy of engineering road-noise models, about 2-3 dB (CoRTN-type models against measurements; e.g. Lden
 * mean absolute errors of 0.1-2.9 dB for three European methods in Central Jutland, Acoustics 5(4), 2023),
 * and widened where the inputs are weaker:
 *
 * - transfer path (a monitored counter is near and a relation is calibrated): the larger of 2 dB and the
 *   relation's leave-one-out RMSE on its own pairs;
 * - physics path: 3 dB;
 * - physics path where the dominant road's volume is a class default: 3 dB combined in quadrature with
 *   3 dB for the volume (a factor of 2 either way is 10 lg 2 = 3 dB), sqrt(3^2 + 3^2) = 4.2 dB.
 */
import type { NoiseModelPath } from './model-path.js';
import type { TransferRelation } from './transfer-calibration.js';

/** Published field accuracy of engineering models, dB: the low and high ends of "about 2-3 dB". */
export const FIELD_ACCURACY_DB = { low: 2, high: 3 } as const;

/** Extra uncertainty of a class-default volume, dB (10 lg 2). */
export const DEFAULT_VOLUME_UNCERTAINTY_DB = 3;

/** Half-width of the confidence range and the sentence that explains it. */
export function confidenceHalfWidth(path: NoiseModelPath, relation: TransferRelation | null, dominantDefaulted: boolean): { halfWidthDb: number; basis: string } {
  if (path === 'transfer' && relation) {
    const loo = relation.looRmseDb ?? FIELD_ACCURACY_DB.low;
    const hw = Math.max(FIELD_ACCURACY_DB.low, loo);
    return { halfWidthDb: round1(hw), basis: `transfer path: the larger of the ${FIELD_ACCURACY_DB.low} dB published field accuracy and the relation's leave-one-out RMSE (${round1(loo)} dB on ${relation.n} pairs)` };
  }
  if (dominantDefaulted) {
    const hw = Math.hypot(FIELD_ACCURACY_DB.high, DEFAULT_VOLUME_UNCERTAINTY_DB);
    return { halfWidthDb: round1(hw), basis: `physics path with a class-default volume on the dominant road: ${FIELD_ACCURACY_DB.high} dB field accuracy combined with ${DEFAULT_VOLUME_UNCERTAINTY_DB} dB for the volume` };
  }
  return { halfWidthDb: FIELD_ACCURACY_DB.high, basis: `physics path, no monitored counter near: ${FIELD_ACCURACY_DB.high} dB published field accuracy` };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
