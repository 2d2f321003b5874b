/**
 * Conventions shared by the nine scores of spec section 2.6.
 *
 * Direction: every score is 0-100. Exposure scores (`noise`, `flood`, `bushfire`, `heat_island`,
 * `contamination`, `aircraft_noise`) rise with exposure: 0 is least exposed, 100 most. Amenity scores
 * (`walkability`, `solar`, `view_quality`) rise with amenity: 100 is best.
 *
 * Every score ships its underlying inputs as component objects carrying machine-readable `level`,
 * `resolution`, `source` and `caveat` fields (spec 2.6), built with {@link component}. The scores themselves
 * are listed in engine/scores/registry.ts.
 */

/** Machine-readable bands of a 0-100 value, plus `unknown` when the input could not be read. */
export const LEVELS = ['very_low', 'low', 'moderate', 'high', 'very_high', 'unknown'] as const;
/** One of {@link LEVELS}. */
export type Level = (typeof LEVELS)[number];

/** The band of a 0-100 value: [0,20) very_low, [20,40) low, [40,60) moderate, [60,80) high, [80,100] very_high. */
export function levelOf(score: number | null | undefined): Level {
  if (score === null || score === undefined || !Number.isFinite(score)) return 'unknown';
  if (score < 20) return 'very_low';
  if (score < 40) return 'low';
  if (score < 60) return 'moderate';
  if (score < 80) return 'high';
  return 'very_high';
}

/** One input of a score, with its provenance. */
export interface ScoreComponent<V = number | string | boolean | null> {
  /** The input's value in `unit` (null when unavailable). */
  value: V;
  /** Unit of `value` (e.g. "m", "dB", "mm", "km2", "count", "share"); null for unitless labels. */
  unit: string | null;
  /** Band of this component's contribution to the score (see {@link levelOf}). */
  level: Level;
  /** Spatial resolution of the data behind the value, metres (e.g. 5 for the 5 m DEM, 1000 for 1 km LST); null when not gridded. */
  resolution: number | null;
  /** Source id from the dataset catalogue; null when the input was unavailable. */
  source: string | null;
  /** What the value does not tell you, in one sentence. */
  caveat: string;
}

/** Builds a component object. */
export function component<V extends number | string | boolean | null>(c: ScoreComponent<V>): ScoreComponent<V> {
  return c;
}

/** Clamps to [0, 100] and rounds to one decimal, the form every score is reported in. */
export function clampScore(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  return Math.round(Math.min(100, Math.max(0, x)) * 10) / 10;
}
