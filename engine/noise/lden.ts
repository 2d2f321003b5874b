/**
 * The day-evening-night level of Directive 2002/49/EC (the Environmental Noise Directive), Annex I section 1:
 *
 *   Lden = 10 lg [ (12 * 10^(Lday/10) + 4 * 10^((Levening + 5)/10) + 8 * 10^((Lnight + 10)/10)) / 24 ]
 *
 * with the Annex's default periods: day 07:00-19:00 (12 h), evening 19:00-23:00 (4 h, +5 dB), night
 * 23:00-07:00 (8 h, +10 dB), and an assessment height of 4.0 m (+-0.2 m) above ground (Annex I section 1,
 * "the height of the assessment point"). The formula and periods were checked against secondary
 * reproductions of the Annex (the Directive's own text was not available here).
 */
import { dbToEnergy, energyToDb } from './decibels.js';

/** Hours in the Annex I periods. */
export const LDEN_PERIOD_HOURS = { day: 12, evening: 4, night: 8 } as const;

/** Penalties added to the evening and night levels, dB (Annex I). */
export const LDEN_PENALTY_DB = { day: 0, evening: 5, night: 10 } as const;

/** The first hour (0-23, local time) of each period (Annex I defaults). */
export const LDEN_PERIOD_START_HOUR = { day: 7, evening: 19, night: 23 } as const;

/** Assessment height of the strategic noise maps of the Directive, metres above ground (Annex I). */
export const LDEN_ASSESSMENT_HEIGHT_M = 4;

/** The period (day, evening or night) an hour of the day (0-23) belongs to. */
export function ldenPeriodOfHour(hour: number): 'day' | 'evening' | 'night' {
  if (hour >= LDEN_PERIOD_START_HOUR.day && hour < LDEN_PERIOD_START_HOUR.evening) return 'day';
  if (hour >= LDEN_PERIOD_START_HOUR.evening && hour < LDEN_PERIOD_START_HOUR.night) return 'evening';
  return 'night';
}

/**
 * Lden from the three period levels (Annex I). A period with no sound (-Infinity) contributes nothing;
 * all three silent gives -Infinity.
 */
export function ldenFromPeriods(lday: number, levening: number, lnight: number): number {
  return energyToDb(ldenEnergy(dbToEnergy(lday), dbToEnergy(levening), dbToEnergy(lnight)));
}

/**
 * The Lden energy from period energies (`10^(L/10)` of each period's LAeq): the weighting of Annex I
 * applied to energies, so it can be applied per source and summed (the Lden of a sum of sources is the
 * energy sum of their Lden energies, because the weighting is linear in energy).
 */
export function ldenEnergy(dayEnergy: number, eveningEnergy: number, nightEnergy: number): number {
  const h = LDEN_PERIOD_HOURS;
  return (h.day * dayEnergy + h.evening * eveningEnergy * EVENING_WEIGHT + h.night * nightEnergy * NIGHT_WEIGHT) / 24;
}

const EVENING_WEIGHT = Math.pow(10, LDEN_PENALTY_DB.evening / 10);
const NIGHT_WEIGHT = Math.pow(10, LDEN_PENALTY_DB.night / 10);
