/**
 * The words and rounding of scores.bushfire (bushfire-score.ts computes; this module says): the disclaimer,
 * the level labels, the official-mapping notes, the FDI basis, the indicative BAL's assumptions, the subject
 * notes and each component's caveat, and the published rounding (shares to 0.001, slopes and distances to
 * 0.1). Each takes the facts (codes, numbers, names) and returns the text.
 */
import type { Level } from '../../score-kit/component.js';

/** The spec 1 disclaimer, carried on every result. */
export const BUSHFIRE_DISCLAIMER =
  'Pre-screening only. This is not a certified BAL assessment, cannot be used for building approval and carries no accuracy SLA. BAL must not be inferred from the 0-100 score.';

/** The label of each level. */
export const BUSHFIRE_LEVEL_LABEL: Record<Level, string> = {
  very_low: 'Very low bushfire exposure (screening estimate)',
  low: 'Low bushfire exposure (screening estimate)',
  moderate: 'Moderate bushfire exposure (screening estimate)',
  high: 'High bushfire exposure (screening estimate)',
  very_high: 'Very high bushfire exposure (screening estimate)',
  unknown: 'Not assessed: vegetation data did not answer',
};

/** To 0.1 (slopes in degrees, distances in metres). */
export const tenth = (v: number): number => Math.round(v * 10) / 10;
/** To 0.001 (shares). */
export const thousandth = (v: number): number => Math.round(v * 1000) / 1000;

/** Where the FDI came from. */
export type FdiBasis = { kind: 'caller'; fdi: number } | { kind: 'table'; state: string } | { kind: 'default' };

/** The sentences of scores.bushfire, each from its facts. */
export const BUSHFIRE_WORDS = {
  fdiBasis(b: FdiBasis): string {
    if (b.kind === 'caller') return `FDI ${b.fdi} supplied by the caller`;
    if (b.kind === 'default') return 'State undetermined: FDI 100, the highest table, used as the conservative default';
    return `AS 3959-2009 Table 2.1 for ${b.state}${['NSW', 'VIC'].includes(b.state) ? " (the higher of the state's values: fire weather districts and alpine areas are not resolved)" : ''}`;
  },
  noOfficialMapping: (state: string | null): string => `No official bushfire-prone-area overlay is held for ${state ?? 'an undetermined state'}; nothing is inferred in its place.`,
  officialLookupFailed: (state: string | null, reason: string | null): string => `The official overlay lookup for ${state} failed${reason ? ` (${reason})` : ''}; retry. The modelled score does not stand in for it.`,
  officialHit: (categories: readonly string[], source: string): string => `The subject lies in ${categories.map((c) => c.replace(/_/g, ' ')).join(' and ')} mapped by ${source}.`,
  officialChecked: (state: string | null): string => `${state}'s overlay was checked and does not cover the subject.`,
  officialPartial: (state: string | null): string => `Only partial overlay coverage is held for ${state}; a miss proves nothing.`,
  noDemAssumption: 'No DEM answered: effective slope assumed upslope/flat, range widened to a 15-20 degree downslope.',
  noClassifiedVegetation: (withinM: number): string => `No classified vegetation within ${withinM} m of the subject.`,
  tolerances: (distanceM: number, slopeDeg: number): string => `Distances measured to the mapped vegetation edge with a ${distanceM} m positional tolerance; slope tolerance ${slopeDeg} degrees.`,
  subject(kind: 'on_parcel' | 'not_on_parcel' | 'coordinate'): string {
    if (kind === 'on_parcel') return 'Screened at a resolved address point on its cadastral parcel.';
    if (kind === 'not_on_parcel') return 'Screened at a resolved address point that is not on a matched parcel.';
    return 'Screened at an arbitrary coordinate, not a resolved address on a parcel; a BAL applies to a building site.';
  },
  /** An input that did not answer: what, its status (`not_integrated` reads "not integrated"), why. */
  missing: (what: string, status: string, reason?: string | null): string => `${what} ${status.replace('_', ' ')}${reason ? `: ${reason}` : ''}.`,
  fuel(nearest: { vegClass: string; distance: number } | null, reachM: number): string {
    return nearest ? `Nearest weighted fuel: ${nearest.vegClass.replace('_', '/')} at ${Math.round(nearest.distance)} m; mapped vegetation edges, not a site survey.` : `No classified vegetation within ${reachM} m in the mapped layer.`;
  },
  slope: (radiusM: number): string => `Mean slope within ${radiusM} m from the DEM.`,
  history(nearest: { year: number | null; distance: number } | null, reachM: number): string {
    return nearest
      ? `Nearest mapped bushfire ${Math.round(nearest.distance)} m away${nearest.year ? ` (${nearest.year})` : ''}; prescribed burns are not counted.`
      : `No mapped bushfire within ${reachM} m; the record is incomplete before satellite mapping.`;
  },
  scoreCaveat: `${BUSHFIRE_DISCLAIMER} The score is modelled from mapped vegetation, terrain and fire history; the official overlay status is reported separately.`,
} as const;
