/**
 * A road's emission: its period LAeq levels at CoRTN's reference position (10 m from the nearside
 * carriageway edge, slant distance 13.5 m, full 180-degree view, no ground or barrier correction), from its
 * daily traffic and a diurnal profile. Every receiver level is this emission plus propagation terms, so
 * the emission is computed once per road and shared by every receiver (the grid's nodes included).
 *
 * Per period P: mean hourly flow q_P = AADT * share_P / hours_P (diurnal-profile.ts), then
 * L10,P = CoRTN reference L10(1h) at q_P (cortn.ts: Charts 2, 4, 5, 6) and LAeq,P = L10,P - 3 dB
 * (cortn.ts, L10_TO_LAEQ_DB). Using the mean hourly flow is exact for LAeq: LAeq is linear in flow, so the
 * energy mean of the hourly levels of a period equals the level of its mean hourly flow. (CoRTN's low-flow
 * correction adjusts the L10 statistic at low flows and is not needed for LAeq, which this path computes.)
 */
import { CORTN_REFERENCE_DISTANCE_M, cortnReferenceL10, L10_TO_LAEQ_DB } from './cortn.js';
import { energyToDb } from './decibels.js';
import { meanHourlyFlows, type PeriodShares } from './diurnal-profile.js';
import { ldenEnergy } from './lden.js';

/** Daily traffic of a road. */
export interface RoadTraffic {
  /** Annual average daily traffic, vehicles/day (>= 0). */
  aadt: number;
  /** Heavy vehicle share, 0-1. */
  heavyShare: number;
  /** Mean speed, km/h (> 0). */
  speedKmh: number;
  /** Gradient, percent. */
  gradientPct: number;
}

/** Period levels at a reference position, dB(A). -Infinity for a period with no traffic. */
export interface PeriodLevels {
  /** LAeq 07:00-19:00. */
  ld: number;
  /** LAeq 19:00-23:00. */
  le: number;
  /** LAeq 23:00-07:00. */
  ln: number;
  /** Lden (Directive 2002/49/EC Annex I). */
  lden: number;
  /** Distance at which the levels apply for a long straight source seen over 180 degrees, metres. */
  referenceDistanceM: number;
}

function periodLaeq(flowPerHour: number, t: RoadTraffic): number {
  if (!(flowPerHour > 0)) return -Infinity;
  return cortnReferenceL10({ flowPerHour, speedKmh: t.speedKmh, heavyPct: 100 * t.heavyShare, gradientPct: t.gradientPct }) + L10_TO_LAEQ_DB;
}

/** The road's period LAeq and Lden at the CoRTN reference position (13.5 m slant, 180-degree view). */
export function roadEmission(t: RoadTraffic, shares: PeriodShares): PeriodLevels {
  const q = meanHourlyFlows(t.aadt, shares);
  const ld = periodLaeq(q.day, t);
  const le = periodLaeq(q.evening, t);
  const ln = periodLaeq(q.night, t);
  const lden = energyToDb(ldenEnergy(10 ** (ld / 10), 10 ** (le / 10), 10 ** (ln / 10)));
  return { ld, le, ln, lden, referenceDistanceM: CORTN_REFERENCE_DISTANCE_M };
}
