/**
 * How a day's traffic (AADT, or services per day) spreads over the 24 hours, and so over the Lden periods.
 *
 * CoRTN (DoT 1988) predicts from hourly flows (L10(1h) = 42.2 + 10 lg q) or 18-hour flows; the sample world
 * and most Australian count programs publish AADT. An hourly profile turns AADT into the hourly flows
 * q_h = AADT * share_h, and the period levels follow by energy-averaging the hours of each Lden period.
 *
 * The default road profile below is an engineering default with the two-peak weekday shape of urban count
 * stations (AM peak 08:00, PM peak 17:00). Its period shares (day 07-19 76.7 %, evening 19-23 13.6 %,
 * night 23-07 9.7 %) sit inside the ranges Brink et al. (2018, "Conversion between noise exposure indicators
 * Leq24h, LDay, LEvening, LNight, Ldn and Lden: principles and practical guidance", Int. J. Hyg. Environ.
 * Health 221) report for road counting stations in several European countries. It has not been checked
 * against an Australian count table; a caller with local hourly counts passes its own profile.
 */
import { invalidArgument } from '../errors.js';
import { LDEN_PERIOD_HOURS, ldenPeriodOfHour } from './lden.js';

/** Shares of daily traffic per hour 00-23, summing to 1. */
export type DiurnalProfile = readonly number[];

/** Shares of daily traffic in each Lden period (summing to 1). */
export interface PeriodShares {
  day: number;
  evening: number;
  night: number;
}

// Percent of the day's vehicles in each hour starting 00:00 ... 23:00 (engineering default; see above).
const ROAD_PERCENT = [0.9, 0.6, 0.5, 0.5, 0.7, 1.5, 3.5, 6.5, 7.2, 6.0, 5.6, 5.7, 6.1, 6.2, 6.0, 6.6, 7.2, 7.4, 6.2, 4.6, 3.6, 3.0, 2.4, 1.5];

/** The default road traffic profile (hourly shares of AADT, 00:00 first). */
export const DEFAULT_ROAD_PROFILE: DiurnalProfile = Object.freeze(normalise(ROAD_PERCENT));

/**
 * Default period shares of train and tram services: day 70 %, evening 18 %, night 12 % (engineering default
 * for suburban passenger timetables that run about 05:00-01:00, with lighter evening and night service; not
 * from a published table).
 */
export const DEFAULT_RAIL_SHARES: Readonly<PeriodShares> = Object.freeze({ day: 0.7, evening: 0.18, night: 0.12 });

function normalise(values: readonly number[]): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  return values.map((v) => v / total);
}

/** Checks and normalises a caller's 24-hour profile; INVALID_ARGUMENT naming `parameter` when malformed. */
export function diurnalProfile(values: readonly number[], parameter = 'diurnal_profile'): DiurnalProfile {
  if (!Array.isArray(values) || values.length !== 24) throw invalidArgument(parameter, `a diurnal profile needs 24 hourly values, got ${Array.isArray(values) ? values.length : typeof values}`);
  if (!values.every((v) => Number.isFinite(v) && v >= 0)) throw invalidArgument(parameter, 'diurnal profile values must be finite and non-negative');
  if (!values.some((v) => v > 0)) throw invalidArgument(parameter, 'a diurnal profile must carry some traffic');
  return Object.freeze(normalise(values));
}

/** The share of daily traffic falling in each Lden period. */
export function periodShares(profile: DiurnalProfile): PeriodShares {
  const s: PeriodShares = { day: 0, evening: 0, night: 0 };
  for (let h = 0; h < 24; h++) s[ldenPeriodOfHour(h)] += profile[h];
  return s;
}

/**
 * The mean hourly flow in each period for a daily total (vehicles or services per hour): the flow that,
 * used in the hourly formula, reproduces the period's energy-average level (LAeq is linear in flow, so the
 * energy mean of the hourly levels equals the level of the mean hourly flow).
 */
export function meanHourlyFlows(daily: number, shares: PeriodShares): PeriodShares {
  return {
    day: (daily * shares.day) / LDEN_PERIOD_HOURS.day,
    evening: (daily * shares.evening) / LDEN_PERIOD_HOURS.evening,
    night: (daily * shares.night) / LDEN_PERIOD_HOURS.night,
  };
}
