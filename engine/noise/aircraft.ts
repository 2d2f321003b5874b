/**
 * Aircraft noise from Australian Noise Exposure Forecast (ANEF) contours, mixed into the total separately
 * from the road and rail model (it is never modelled here, only read from the published contours).
 *
 * Conversion: "ANEF is generally taken to be approximately equivalent to Leq - 35" (Department of Transport
 * and Regional Services, "Expanding Ways to Describe and Assess Aircraft Noise", 2000, Appendix A.2). The
 * ANEF weights 19:00-07:00 operations (A.1), so the Leq meant is a day-night weighted level; this module
 * takes Lden ~ ANEF + 35 dB. That is a planning-grade approximation (several dB either way at a given
 * site), stated in the component's caveat.
 *
 * Band value: inside a closed band [anef_min, anef_max) the midpoint is used (the best single estimate for a
 * point somewhere in the band); in the open outer band (anef_max null) its lower edge. Outside every
 * contour nothing is added: the lowest published contour (usually ANEF 20) bounds what is known, so the
 * component reports "below the lowest contour", never a confident zero.
 */
import { invalidArgument } from '../errors.js';

/** Offset from ANEF to an Lden-like level, dB (DOTARS 2000, Appendix A.2: ANEF ~ Leq - 35). */
export const ANEF_TO_LDEN_OFFSET_DB = 35;

/** One ANEF contour band as published. */
export interface AnefBand {
  /** Lower band edge (integer ANEF), e.g. 20. */
  anefMin: number;
  /** Upper band edge, or null for the open outer band (e.g. "40 and above"). */
  anefMax: number | null;
  /** Airport name. */
  airport: string;
  /** Catalogue source id. */
  source: string;
}

/** The ANEF value used for a point inside a band: the midpoint of a closed band, the lower edge of an open one. */
export function anefBandValue(band: Pick<AnefBand, 'anefMin' | 'anefMax'>): number {
  if (!Number.isFinite(band.anefMin)) throw invalidArgument('anef_min', `anef_min must be a number, got ${band.anefMin}`);
  if (band.anefMax === null) return band.anefMin;
  if (!(band.anefMax > band.anefMin)) throw invalidArgument('anef_max', `anef_max (${band.anefMax}) must exceed anef_min (${band.anefMin})`);
  return (band.anefMin + band.anefMax) / 2;
}

/** The Lden-like level of an ANEF value: ANEF + 35 dB. */
export function anefToLden(anef: number): number {
  return anef + ANEF_TO_LDEN_OFFSET_DB;
}

/** Of several bands containing a point (nested or overlapping contours), the one with the highest exposure. */
export function loudestBand<B extends Pick<AnefBand, 'anefMin' | 'anefMax'>>(bands: readonly B[]): B | null {
  let best: B | null = null;
  for (const b of bands) if (!best || anefBandValue(b) > anefBandValue(best)) best = b;
  return best;
}
