/**
 * `measured_validation`: how well the model answers at the noise loggers (instruments) of a state.
 *
 * Method: leave-one-out. Each logger of the state is predicted the way a subject at its position would be
 * (the same path rule: transfer when a counter is in range and a relation calibrates, else physics), with
 * that logger left out of the calibration, and compared with its measured Lden. Reported: n, mean and
 * maximum absolute error, mean signed error (bias), and how many predictions took each path. A state with
 * no loggers gets n = 0, null errors and a note; never a made-up accuracy.
 *
 * Expected accuracy (documented target; the tests check it on loggers simulated from an independent model):
 * mean absolute error within 3 dB, the upper end of the 2-3 dB field accuracy published for engineering
 * road-noise models (e.g. Lden mean absolute errors of 0.1-2.9 dB for Nord2000, CNOSSOS-EU and RTN-96
 * against measurements in Central Jutland: "Performance Evaluation of Nord2000, RTN-96 and CNOSSOS-EU against
 * Noise Measurements in Central Jutland, Denmark", Acoustics 5(4), 2023).
 */
import { reportDb } from './decibels.js';
import { decideNoisePath, type NoiseModelPath } from './model-path.js';
import type { NoiseNetwork } from './noise-network.js';
import { evaluateNoisePoint } from './point-evaluation.js';
import { nonRoadEnergy, transferredLden, type ResolvedTransferOptions } from './transfer-calibration.js';

/** Documented target: mean absolute error at loggers, dB. */
export const VALIDATION_TARGET_MAE_DB = 3;

/** The `measured_validation` block of scores.noise. */
export interface MeasuredValidation {
  /** State or territory the loggers are from (null when unknown). */
  state: string | null;
  /** Loggers compared. */
  n: number;
  mean_abs_error_db: number | null;
  max_abs_error_db: number | null;
  /** Mean of predicted minus measured, dB. */
  bias_db: number | null;
  /** Predictions per path. */
  paths: Record<NoiseModelPath, number>;
  method: string;
  /** Set when there is nothing to validate against. */
  note: string | null;
}

/** Physics Lden energies at every logger of the network (cached): road, and rail + tram + aircraft. */
export function loggerPhysics(network: NoiseNetwork): { road: Float64Array; other: Float64Array } {
  const key = 'validation:logger-physics';
  let x = network.cache.get(key) as { road: Float64Array; other: Float64Array } | undefined;
  if (!x) {
    const evs = network.loggers.map((l) => evaluateNoisePoint(network, l.lon, l.lat));
    x = { road: Float64Array.from(evs, (ev) => ev.road.den), other: Float64Array.from(evs, nonRoadEnergy) };
    network.cache.set(key, x);
  }
  return x;
}

/** Leave-one-out validation against the loggers of `state` (cached per state and options). */
export function measuredValidation(network: NoiseNetwork, state: string | null, options: ResolvedTransferOptions): MeasuredValidation {
  const method = 'leave-one-out at each noise logger of the state: predicted by the path a subject there would take, with that logger left out of the transfer calibration, against its measured Lden';
  const paths: Record<NoiseModelPath, number> = { transfer: 0, physics: 0 };
  if (!state) return { state: null, n: 0, mean_abs_error_db: null, max_abs_error_db: null, bias_db: null, paths, method, note: 'the subject\'s state is unknown, so no instrument data could be selected' };
  const st = state.toUpperCase();
  const key = `validation:${st}:${JSON.stringify(options)}`;
  const hit = network.cache.get(key) as MeasuredValidation | undefined;
  if (hit) return hit;
  const idx = network.loggers.map((l, i) => (l.state === st ? i : -1)).filter((i) => i >= 0);
  let result: MeasuredValidation;
  if (idx.length === 0) {
    result = {
      state: st,
      n: 0,
      mean_abs_error_db: null,
      max_abs_error_db: null,
      bias_db: null,
      paths,
      method,
      note: network.layers.loggers ? `no noise loggers (instrument data) are held for ${st}; the model is unvalidated there` : 'no noise logger layer was supplied; the model is unvalidated',
    };
  } else {
    const physics = loggerPhysics(network);
    let sumAbs = 0, maxAbs = 0, sum = 0, n = 0;
    for (const i of idx) {
      const l = network.loggers[i];
      if (!(physics.road[i] + physics.other[i] > 0)) continue; // nothing audible modelled there: not a comparison of the model
      const d = decideNoisePath(network, l.lon, l.lat, options, i);
      const predicted = transferredLden(d.relation, physics.road[i], physics.other[i]).totalDb;
      paths[d.path]++;
      const e = predicted - l.ldenDb;
      sum += e;
      sumAbs += Math.abs(e);
      maxAbs = Math.max(maxAbs, Math.abs(e));
      n++;
    }
    result = {
      state: st,
      n,
      mean_abs_error_db: n ? reportDb(sumAbs / n) : null,
      max_abs_error_db: n ? reportDb(maxAbs) : null,
      bias_db: n ? reportDb(sum / n) : null,
      paths,
      method,
      note: n ? null : `the ${idx.length} loggers of ${st} lie beyond every modelled source`,
    };
  }
  network.cache.set(key, result);
  return result;
}
