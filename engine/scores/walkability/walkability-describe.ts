/**
 * The words and rounding of scores.walkability (walkability-score.ts computes; this module says): the
 * disclaimer, the screening contract's method lines, each category's and barrier's caveat, the crossing
 * note and the score's caveat, and the published rounding (distances to 1 m, gradients and the slope factor
 * to 0.0001). Each takes the facts and returns the text.
 */

/** Carried on every result. */
export const WALK_DISCLAIMER = 'Walkability is a straight-line screening result, not a route-network score or isochrone.';

/** Metres to 1 m. */
export const wholeMetres = (d: number): number => Math.round(d);
/** Gradients and factors to 0.0001. */
export const tenThousandth = (v: number): number => Math.round(v * 10000) / 10000;

/** The sentences of scores.walkability, each from its facts. */
export const WALK_WORDS = {
  distanceDecay: 'Full points to 400 m, piecewise linear to 60 % at 800 m, 30 % at 1,200 m and none from 2,400 m (Walk Score 2010 end points; curve between is ours).',
  weighting: 'Rank weights per category after Walk Score (2010): grocery 3; cafe/restaurant 1.25, 0.75, 0.45, 0.25, 0.25; public transport 1, 0.5; pharmacy, health, park, library/community and school 1 each.',
  adjustments: (slopeRadiusM: number, penaltyM: number, toleranceM: number): string[] => [
    `Regional slope: distances times Tobler's walking-time factor for the mean DEM gradient within ${slopeRadiusM} m.`,
    `Motorway: +${penaltyM} m when the straight line crosses a motorway with no crossing point within ${toleranceM} m.`,
    `Major water: +${penaltyM} m when the straight line crosses major water with no crossing point within ${toleranceM} m.`,
  ],
  /** A category's caveat: counted from its points, or left out because its data did not answer. */
  category(category: string, answered: boolean, set: { name: string; reason?: string | null; status?: string } | undefined): string {
    return answered
      ? `Straight-line metres to delivered ${category.replace('_', ' ')} points, adjusted for slope and barriers; opening hours, quality and entrances are not known.`
      : `The ${set?.name ?? category} data did not answer (${set?.reason ?? set?.status ?? 'not held'}); the category is left out of the score.`;
  },
  /** Why barriers were not checked when crossing points are missing. */
  crossingsMissing: (status: string, reason: string | null): string => `crossing points ${status === 'degraded' ? 'unavailable' : 'not held'}${reason ? ` (${reason})` : ''}: barriers were not checked`,
  slope: (held: boolean): string => (held ? 'Mean terrain gradient within 1,200 m; the slope of any particular street can differ.' : 'No regional slope: distances were not adjusted for terrain.'),
  motorway: (ran: boolean, why: string): string => (ran ? 'Amenities whose straight line crosses a motorway with no crossing point within 200 m; not a route check.' : `Motorway check did not run: ${why}.`),
  majorWater: (ran: boolean, why: string): string => (ran ? 'Amenities whose straight line crosses major water with no crossing point within 200 m; not a route check.' : `Major-water check did not run: ${why}.`),
  scoreCaveat: (degraded: readonly string[]): string => `${WALK_DISCLAIMER} Counts are of delivered amenity points; amenities missing from the source data are not counted.${degraded.length ? ` Degraded checks: ${degraded.join(', ')}.` : ''}`,
} as const;
