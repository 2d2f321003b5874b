/**
 * The 0-100 noise score: an exposure score (engine/score-kit/component.ts), 100 = loudest. Linear in Lden from
 * {@link NOISE_SCORE_FLOOR_DB} (score 0) to {@link NOISE_SCORE_CEILING_DB} (score 100), 2.5 points per dB:
 *
 *   score = clamp(2.5 * (Lden - 40), 0, 100)
 *
 * Anchors: 40 dB Lden is a quiet residential backdrop well away from through traffic; the WHO Environmental
 * Noise Guidelines for the European Region (2018) recommend road traffic Lden below 53 dB (score 32.5) and
 * rail below 54 dB (score 35); 65 dB (score 62.5) is a typical main-road frontage; 80 dB and above
 * (score 100) is motorway frontage. Linear in dB because annoyance and sleep-disturbance dose-response
 * relations are close to linear in dB over this range. Levels: see `levelOf` (below 48 dB very low,
 * 48-56 low, 56-64 moderate, 64-72 high, 72 and above very high).
 */
import { clampScore } from '../score-kit/component.js';

/** Lden mapped to score 0, dB. */
export const NOISE_SCORE_FLOOR_DB = 40;
/** Lden mapped to score 100, dB. */
export const NOISE_SCORE_CEILING_DB = 80;

/** The 0-100 score of an Lden in dB (rounded to 0.1); null for an unknown level. */
export function noiseScoreFromLden(ldenDb: number | null): number | null {
  if (ldenDb === null || !Number.isFinite(ldenDb)) return null;
  return clampScore((100 * (ldenDb - NOISE_SCORE_FLOOR_DB)) / (NOISE_SCORE_CEILING_DB - NOISE_SCORE_FLOOR_DB));
}
