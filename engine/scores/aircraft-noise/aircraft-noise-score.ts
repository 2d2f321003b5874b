/**
 * `scores.aircraft_noise` (standalone; spec 2.6): the ANEF band the subject lies in.
 *
 * `anef_min` is the lower edge of the highest band containing the subject. `anef_max` is populated only for
 * the supported integer five-point bands ANEF 15-20, 20-25, 25-30, 30-35 and 35-40; an open band (40+), a
 * non-standard band (e.g. 20-30 or 22.5-27.5) or a band without a published upper edge gives null.
 *
 * Score (exposure, 100 = worst): 0 outside every contour of a completely held state; inside,
 * (anef_min - 10) x 100 / 30 clamped, so ANEF 20 scores 33, 25 scores 50 and 40 scores 100. The scale is
 * ours; the acceptability field follows AS 2021:2015 Table 2.1 for houses (acceptable below 20 ANEF,
 * conditionally acceptable 20-25, unacceptable above 25; thresholds as commonly quoted from the standard,
 * not re-checked against its text here).
 */
import { clampScore, component, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import type { AnefContour, AnefCoverage, AnefLayer } from './anef-contours.js';

/** The supported band lower edges; each band is [edge, edge + 5]. */
export const STANDARD_BAND_EDGES = [15, 20, 25, 30, 35] as const;

/** True for the integer five-point bands 15-20 through 35-40. */
export function isStandardBand(min: number, max: number | null): boolean {
  return max !== null && Number.isInteger(min) && (STANDARD_BAND_EDGES as readonly number[]).includes(min) && max === min + 5;
}

/** Site acceptability for houses under AS 2021:2015 Table 2.1, from the band's lower edge. */
export function houseAcceptability(anefMin: number | null): 'acceptable' | 'conditionally_acceptable' | 'unacceptable' | null {
  if (anefMin === null) return null;
  if (anefMin >= 25) return 'unacceptable';
  if (anefMin >= 20) return 'conditionally_acceptable';
  return 'acceptable';
}

/** `scores.aircraft_noise`. */
export interface AircraftNoiseScore {
  /** 0-100 exposure; 0 outside contours of a complete state; null when not checked. */
  score: number | null;
  level: Level;
  status: 'inside_contour' | 'outside_contours' | 'checked_partial_coverage' | 'not_integrated' | 'unavailable';
  /** Lower edge of the band used. */
  anef_min: number | null;
  /** Upper edge, only for the supported bands 15-20 ... 35-40. */
  anef_max: number | null;
  /** The contributing contour dataset. */
  source: string | null;
  airport: string | null;
  as2021_house_acceptability: ReturnType<typeof houseAcceptability>;
  /** Every band containing the subject, highest first. */
  contours: AnefContour[] | null;
  components: { anef_band: ScoreComponent<number | null> };
  sources: string[];
  caveat: string;
}

/** Computes `scores.aircraft_noise` for one subject. */
export function aircraftNoiseScore(layer: AnefLayer, subject: { lon: number; lat: number; state: string | null }): AircraftNoiseScore {
  const state = subject.state?.toUpperCase() ?? null;
  const coverage: AnefCoverage = (state && layer.coverage[state]) || 'not_integrated';
  const empty = (status: AircraftNoiseScore['status'], caveat: string, score: number | null = null): AircraftNoiseScore => ({
    score,
    level: levelOf(score),
    status,
    anef_min: null,
    anef_max: null,
    source: null,
    airport: null,
    as2021_house_acceptability: null,
    contours: status === 'outside_contours' || status === 'checked_partial_coverage' ? [] : null,
    components: { anef_band: component({ value: null, unit: 'ANEF', level: levelOf(score), resolution: null, source: null, caveat }) },
    sources: [],
    caveat,
  });
  if (!layer.index) return empty('unavailable', `ANEF lookup unavailable (${layer.unavailableReason}); retry.`);
  const inside = layer.index.containing(subject.lon, subject.lat).map((id) => layer.contours[id]);
  if (inside.length === 0) {
    if (coverage === 'complete') return empty('outside_contours', `Outside every published ANEF contour held for ${state}; aircraft can still be heard outside the 20 ANEF line.`, 0);
    if (coverage === 'partial') return empty('checked_partial_coverage', `Only some airports' ANEFs are held for ${state}: outside them proves nothing.`);
    return empty('not_integrated', `No ANEF contours are integrated for ${state ?? 'an undetermined state'}.`);
  }
  // The highest band wins; among equal lower edges a supported band is preferred (its upper edge is known).
  inside.sort((a, b) => b.anef_min - a.anef_min || Number(isStandardBand(b.anef_min, b.anef_max)) - Number(isStandardBand(a.anef_min, a.anef_max)));
  const used = inside[0];
  const anefMax = isStandardBand(used.anef_min, used.anef_max) ? used.anef_max : null;
  const score = clampScore(((used.anef_min - 10) * 100) / 30);
  return {
    score,
    level: levelOf(score),
    status: 'inside_contour',
    anef_min: used.anef_min,
    anef_max: anefMax,
    source: used.source || null,
    airport: used.airport || null,
    as2021_house_acceptability: houseAcceptability(used.anef_min),
    contours: inside,
    components: {
      anef_band: component({
        value: used.anef_min,
        unit: 'ANEF',
        level: levelOf(score),
        resolution: null,
        source: used.source || null,
        caveat: anefMax === null ? 'Band lower edge only: the band is open or not one of the standard five-point bands, so no upper edge is given.' : 'Forecast contour band from the airport\'s endorsed ANEF; a forecast, not measured noise.',
      }),
    },
    sources: [...new Set(inside.map((c) => c.source).filter(Boolean))].sort(),
    caveat: 'ANEF is a forecast of average annual exposure used for land-use planning; single overflights can be loud outside the contours.',
  };
}
