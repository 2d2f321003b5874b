/**
 * Train and tram emission: the period LAeq at 25 m from the track axis, by the emission level of the German
 * railway method "Schall 03" (Deutsche Bundesbahn, Richtlinie zur Berechnung der Schallimmissionen von
 * Schienenwegen, Ausgabe 1990, equation for the Emissionspegel):
 *
 *   Lm,E = 51 + D_Fz + D_D + D_l + D_v      dB(A), at 25 m from the track axis, 3.5 m above the rail head
 *   D_D = 10 lg(5 - 0.04 p)                 p = percent of disc-braked vehicles
 *   D_l = 10 lg(0.01 l)                     l = length of trains per hour, m/h
 *   D_v = 20 lg(0.01 v)                     v = speed, km/h
 *
 * Verified: the definition of the emission level (25 m, 3.5 m height; 16. BImSchV Anlage 2, 2.2.9) and that
 * the 51 dB base is one 100 m train per hour at 100 km/h with 100 % disc brakes (Hugo 1991, "Das
 * Berechnungsverfahren Schall 03", abstract), which the three terms above reproduce (each is 0 dB there).
 * The term coefficients themselves are as recalled and were not checked against the 1990 text. D_Fz (vehicle
 * type) is taken as 0 for suburban electric trains and trams; track-form corrections are not applied. The
 * 5 dB "Schienenbonus" of the German rating level is NOT applied: Lden is a physical level.
 *
 * Trams: the same terms with tram lengths, and speeds below 50 km/h taken as 50 km/h (the substitute speed
 * Schall 03 (2014) Nr. 5.3.2 prescribes for Straßenbahnen, quoted from a secondary source), because below
 * that speed rolling noise no longer dominates.
 */
import { energyToDb } from './decibels.js';
import { meanHourlyFlows, type PeriodShares } from './diurnal-profile.js';
import { ldenEnergy } from './lden.js';
import type { PeriodLevels } from './road-emission.js';

/** Rail modes. */
export const RAIL_MODES = ['rail', 'tram'] as const;
/** One of {@link RAIL_MODES}. */
export type RailMode = (typeof RAIL_MODES)[number];

/** Schall 03 reference distance from the track axis, metres. */
export const SCHALL03_REFERENCE_DISTANCE_M = 25;
/** Schall 03 (1990) base emission level, dB(A): one 100 m train per hour at 100 km/h, all disc-braked. */
export const SCHALL03_BASE_LEVEL_DB = 51;
/** Substitute minimum tram speed, km/h (Schall 03 (2014) Nr. 5.3.2). */
export const TRAM_MIN_SPEED_KMH = 50;

/** Defaults for services whose own values are missing (engineering values, flagged when used). */
export interface RailModeDefaults {
  /** Services (trains or trams) per day, both directions. */
  servicesPerDay: number;
  /** Line speed, km/h. */
  speedKmh: number;
  /** Length of one service, metres (a six-car suburban set is about 140-150 m; a modern tram about 30 m). */
  lengthM: number;
  /** Percent of disc-braked vehicles. */
  discBrakedPct: number;
}

/** Per-mode defaults. */
export const RAIL_MODE_DEFAULTS: Readonly<Record<RailMode, Readonly<RailModeDefaults>>> = Object.freeze({
  rail: Object.freeze({ servicesPerDay: 150, speedKmh: 80, lengthM: 150, discBrakedPct: 100 }),
  tram: Object.freeze({ servicesPerDay: 250, speedKmh: 40, lengthM: 30, discBrakedPct: 100 }),
});

/** A rail or tram line's traffic. */
export interface RailTraffic {
  mode: RailMode;
  servicesPerDay: number;
  speedKmh: number;
  /** Length of one service, metres; default from {@link RAIL_MODE_DEFAULTS}. */
  lengthM?: number;
  /** Percent disc-braked, default from {@link RAIL_MODE_DEFAULTS}. */
  discBrakedPct?: number;
}

/** Schall 03 emission level Lm,E for `servicesPerHour` services of length `lengthM` at `speedKmh`. */
export function schall03EmissionLevel(servicesPerHour: number, lengthM: number, speedKmh: number, discBrakedPct: number): number {
  const trainLengthPerHour = servicesPerHour * lengthM;
  if (!(trainLengthPerHour > 0)) return -Infinity;
  const dD = 10 * Math.log10(5 - 0.04 * discBrakedPct);
  const dL = 10 * Math.log10(0.01 * trainLengthPerHour);
  const dV = 20 * Math.log10(0.01 * speedKmh);
  return SCHALL03_BASE_LEVEL_DB + dD + dL + dV;
}

/** The line's period LAeq and Lden at 25 m from the track axis (180-degree view). */
export function railEmission(t: RailTraffic, shares: PeriodShares): PeriodLevels {
  const d = RAIL_MODE_DEFAULTS[t.mode];
  const length = t.lengthM ?? d.lengthM;
  const disc = t.discBrakedPct ?? d.discBrakedPct;
  const speed = t.mode === 'tram' ? Math.max(TRAM_MIN_SPEED_KMH, t.speedKmh) : t.speedKmh;
  const n = meanHourlyFlows(t.servicesPerDay, shares);
  const ld = schall03EmissionLevel(n.day, length, speed, disc);
  const le = schall03EmissionLevel(n.evening, length, speed, disc);
  const ln = schall03EmissionLevel(n.night, length, speed, disc);
  const lden = energyToDb(ldenEnergy(10 ** (ld / 10), 10 ** (le / 10), 10 ** (ln / 10)));
  return { ld, le, ln, lden, referenceDistanceM: SCHALL03_REFERENCE_DISTANCE_M };
}
