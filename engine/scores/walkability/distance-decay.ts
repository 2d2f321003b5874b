/**
 * The distance bands, the distance decay and the slope adjustment of the walkability screening.
 *
 * Bands: 400, 800 and 1,200 m straight-line, the 5, 10 and 15 minutes of a walk at 80 m/min (4.8 km/h).
 *
 * Decay: Walk Score's 2010 methodology gives full points within a quarter mile (400 m) and none past a
 * 30-minute walk (about 2.4 km); its curve between is proprietary. Ours is piecewise linear through
 * (400 m, 1), (800 m, 0.6), (1,200 m, 0.3), (2,400 m, 0): a 10-minute amenity keeps 60-100 % of its points
 * and a 15-minute one 30-60 %, roughly the share of people still willing to walk that far in Australian
 * travel surveys; the breakpoints are our choice, not a measured curve.
 *
 * Slope: Tobler's hiking function (Tobler 1993, "Three presentations on geographical analysis and
 * modeling", NCGIA Technical Report 93-1): speed W = 6 exp(-3.5 |S + 0.05|) km/h on gradient S. A regional
 * gradient g (the DEM's steepest-descent slope) gives a walking direction a mean |gradient| of (2/pi) g
 * (the mean of |g cos theta| over uniform theta), and a walk that goes up as often as down takes
 * f = (exp(3.5 |s + 0.05|) + exp(3.5 |s - 0.05|)) / (2 exp(0.175)) times as long as on the flat, with
 * s = (2/pi) g. f = cosh(3.5 s) while s <= 0.05, so f >= 1 always, and distances are multiplied by it.
 */

/** The three straight-line bands, metres. */
export const WALK_BANDS_M = [400, 800, 1200] as const;
/** The bands' walking minutes at {@link WALKING_SPEED_M_PER_MIN}. */
export const WALK_BAND_MINUTES = [5, 10, 15] as const;
/** Walking speed behind the minutes, metres per minute (4.8 km/h). */
export const WALKING_SPEED_M_PER_MIN = 80;
/** Amenities farther than this (after adjustments) score nothing, metres (a 30-minute walk). */
export const DECAY_LIMIT_M = 2400;

const KNOTS_M = [400, 800, 1200, 2400];
const KNOT_VALUES = [1, 0.6, 0.3, 0];

/** Share of an amenity's points kept at adjusted distance `d` metres (1 up to 400 m, 0 from 2,400 m). */
export function distanceDecay(d: number): number {
  if (!(d > KNOTS_M[0])) return 1;
  for (let i = 1; i < KNOTS_M.length; i++) {
    if (d <= KNOTS_M[i]) {
      const f = (d - KNOTS_M[i - 1]) / (KNOTS_M[i] - KNOTS_M[i - 1]);
      return KNOT_VALUES[i - 1] + f * (KNOT_VALUES[i] - KNOT_VALUES[i - 1]);
    }
  }
  return 0;
}

/** Tobler's flat-ground optimum offset (the fastest gradient is 5 % downhill). */
const TOBLER_OFFSET = 0.05;
const TOBLER_K = 3.5;

/** The time (and equivalent distance) factor of walking over terrain with regional gradient `g` (rise/run). */
export function toblerSlopeFactor(g: number): number {
  if (!(g > 0)) return 1;
  const s = (2 / Math.PI) * g;
  return (Math.exp(TOBLER_K * Math.abs(s + TOBLER_OFFSET)) + Math.exp(TOBLER_K * Math.abs(s - TOBLER_OFFSET))) / (2 * Math.exp(TOBLER_K * TOBLER_OFFSET));
}
