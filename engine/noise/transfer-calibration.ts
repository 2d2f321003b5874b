/**
 * The transfer path: a relation calibrated on monitored traffic counters and noise loggers near the
 * subject, mapping the physics path's ROAD Lden to measured road Lden. The relation is road-calibrated, so it
 * is applied to road energy only; rail, tram and aircraft are energy-summed onto the calibrated road level
 * afterwards, unscaled ({@link transferredLden}), so the total is the energy sum of its components on both
 * paths.
 *
 * What is fitted, on which pairs:
 * - A calibration pair is a noise logger with a matched traffic counter within {@link TransferOptions.pairRadiusM}
 *   (default 300 m), i.e. a measured noise level beside measured traffic. Its predictor x is the physics
 *   path's road Lden at the logger (roads carrying counted traffic use the counter's volume, heavy share and
 *   speed; everything else as the network resolves it); its response y is the logger's road share: the
 *   measured `lden_db` less the modelled rail, tram and aircraft energy, `10 lg(10^(Lm/10) - E_other)`. A
 *   logger where the modelled non-road energy is more than half the measured energy (road under 3 dB above
 *   the rest) is not a road pair: the subtraction there would be dominated by the non-road model's error.
 * - The pairs used are those within {@link TransferOptions.calibrationRadiusM} (default 25 km) of the point
 *   being predicted: the relation is local, absorbing regional differences in fleet, surfaces and facades.
 * - With at least `minPairsForSlope` pairs (default 12) an ordinary least-squares line y = a + b x is fitted,
 *   its slope held to [0.8, 1.2] (a slope outside that range means the pairs do not span enough levels to
 *   pin it; the intercept is then refitted as the mean of y - b x). With `minPairs` (default 5) to
 *   `minPairsForSlope - 1` pairs only an offset is fitted (b = 1, a = mean(y - x)). Fewer than `minPairs`:
 *   no relation, and the physics path is used, labelled so.
 * - The relation's error is estimated by leave-one-out over its own pairs (RMSE of each pair predicted by the
 *   relation fitted without it); the confidence range of a transfer result is anchored on it.
 *
 * The loggers the sample world provides are simulated from a different model (RLS-90 emission plus a
 * seeded site error), so calibrating CoRTN on them is not circular.
 */
import { invalidArgument } from '../errors.js';
import { dbToEnergy, energyToDb } from './decibels.js';
import { countersNear, type NoiseNetwork } from './noise-network.js';
import { evaluateNoisePoint, type PointEvaluation } from './point-evaluation.js';

/** Options of the transfer path. */
export interface TransferOptions {
  /** A matched counter within this distance of a point puts it on the transfer path, metres; default 1,000. */
  counterRangeM?: number;
  /** A logger pairs with a counter within this distance, metres; default 300. */
  pairRadiusM?: number;
  /** Pairs within this distance of the point calibrate its relation, metres; default 25,000. */
  calibrationRadiusM?: number;
  /** Fewest pairs for an offset-only relation; default 5. */
  minPairs?: number;
  /** Fewest pairs for a fitted slope; default 12. */
  minPairsForSlope?: number;
}

/** Resolved transfer options. */
export type ResolvedTransferOptions = Required<TransferOptions>;

/** Slope bounds of the fitted relation. */
export const TRANSFER_SLOPE_RANGE: readonly [number, number] = [0.8, 1.2];

/** Fills in defaults and checks ranges (INVALID_ARGUMENT naming the option). */
export function resolveTransferOptions(o: TransferOptions = {}): ResolvedTransferOptions {
  const r: ResolvedTransferOptions = {
    counterRangeM: o.counterRangeM ?? 1000,
    pairRadiusM: o.pairRadiusM ?? 300,
    calibrationRadiusM: o.calibrationRadiusM ?? 25_000,
    minPairs: o.minPairs ?? 5,
    minPairsForSlope: o.minPairsForSlope ?? 12,
  };
  for (const k of ['counterRangeM', 'pairRadiusM', 'calibrationRadiusM'] as const) {
    if (!(r[k] > 0 && Number.isFinite(r[k]))) throw invalidArgument(k, `${k} must be a positive number of metres, got ${r[k]}`);
  }
  if (!Number.isInteger(r.minPairs) || r.minPairs < 2) throw invalidArgument('minPairs', `minPairs must be an integer of at least 2, got ${r.minPairs}`);
  if (!Number.isInteger(r.minPairsForSlope) || r.minPairsForSlope < r.minPairs) throw invalidArgument('minPairsForSlope', `minPairsForSlope must be an integer of at least minPairs, got ${r.minPairsForSlope}`);
  return r;
}

/** A logger paired with a counter. */
export interface CalibrationPair {
  /** Index of the logger in the network. */
  logger: number;
  counterId: string;
  /** Logger to counter, metres. */
  counterDistanceM: number;
  lon: number;
  lat: number;
  state: string;
  /** Physics road Lden at the logger, dB. */
  x: number;
  /** Measured road Lden: the logger's Lden less the modelled rail, tram and aircraft energy, dB. */
  y: number;
  /** The logger's measured Lden, all sources, dB. */
  measuredDb: number;
}

/** A fitted relation y = a + b x. */
export interface TransferRelation {
  a: number;
  b: number;
  fit: 'offset' | 'linear';
  /** Pairs used. */
  n: number;
  /** Leave-one-out RMSE of the relation on its pairs, dB (null below 3 pairs). */
  looRmseDb: number | null;
  /** Ids of the loggers used. */
  loggerIds: string[];
}

/** The calibration pairs of a network (computed once per network and pair radius, then cached). */
export function calibrationPairs(network: NoiseNetwork, pairRadiusM: number): CalibrationPair[] {
  const key = `transfer:pairs:${pairRadiusM}`;
  const hit = network.cache.get(key) as CalibrationPair[] | undefined;
  if (hit) return hit;
  const pairs: CalibrationPair[] = [];
  network.loggers.forEach((l, i) => {
    const near = countersNear(network, l.lon, l.lat, pairRadiusM)[0];
    if (!near) return;
    const ev = evaluateNoisePoint(network, l.lon, l.lat);
    const x = energyToDb(ev.road.den);
    if (!Number.isFinite(x)) return;
    const measured = dbToEnergy(l.ldenDb);
    const other = nonRoadEnergy(ev);
    if (other > measured / 2) return; // road not the main measured source: see the module comment
    pairs.push({ logger: i, counterId: near.counter.id, counterDistanceM: near.distance, lon: l.lon, lat: l.lat, state: l.state, x, y: energyToDb(measured - other), measuredDb: l.ldenDb });
  });
  network.cache.set(key, pairs);
  return pairs;
}

function fitCore(pairs: readonly { x: number; y: number }[], minPairsForSlope: number): { a: number; b: number; fit: 'offset' | 'linear' } {
  const n = pairs.length;
  let mx = 0, my = 0;
  for (const p of pairs) {
    mx += p.x;
    my += p.y;
  }
  mx /= n;
  my /= n;
  if (n < minPairsForSlope) return { a: my - mx, b: 1, fit: 'offset' };
  let sxy = 0, sxx = 0;
  for (const p of pairs) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) * (p.x - mx);
  }
  const raw = sxx > 0 ? sxy / sxx : 1;
  const b = Math.min(TRANSFER_SLOPE_RANGE[1], Math.max(TRANSFER_SLOPE_RANGE[0], raw));
  return { a: my - b * mx, b, fit: 'linear' };
}

/**
 * Fits the relation on `pairs` (see the module comment), or null with fewer than `minPairs`. The
 * leave-one-out RMSE refits the relation without each pair in turn.
 */
export function fitTransfer(pairs: readonly { x: number; y: number; loggerId?: string }[], minPairs: number, minPairsForSlope: number): TransferRelation | null {
  const n = pairs.length;
  if (n < minPairs) return null;
  const core = fitCore(pairs, minPairsForSlope);
  let looRmseDb: number | null = null;
  if (n >= 3) {
    let ss = 0;
    for (let i = 0; i < n; i++) {
      const rest = pairs.filter((_, j) => j !== i);
      const f = fitCore(rest, minPairsForSlope);
      const e = f.a + f.b * pairs[i].x - pairs[i].y;
      ss += e * e;
    }
    looRmseDb = Math.sqrt(ss / n);
  }
  return { ...core, n, looRmseDb, loggerIds: pairs.map((p) => p.loggerId ?? '') };
}

/**
 * The relation calibrated for a point: pairs within the calibration radius of (lon, lat), optionally
 * leaving one logger out (for validation). Null when too few pairs.
 */
export function calibrateTransferAt(network: NoiseNetwork, lon: number, lat: number, options: ResolvedTransferOptions, excludeLogger = -1): TransferRelation | null {
  const pairs = calibrationPairs(network, options.pairRadiusM);
  if (pairs.length === 0) return null;
  const inRadius = network.loggerIndex.within(lon, lat, options.calibrationRadiusM);
  const near = new Set(inRadius.map((h) => h.id));
  const chosen = pairs.filter((p) => p.logger !== excludeLogger && near.has(p.logger)).map((p) => ({ x: p.x, y: p.y, loggerId: network.loggers[p.logger].id }));
  return fitTransfer(chosen, options.minPairs, options.minPairsForSlope);
}

/** Applies a relation to a physics road Lden, dB. */
export function applyTransfer(relation: Pick<TransferRelation, 'a' | 'b'>, physicsLden: number): number {
  return relation.a + relation.b * physicsLden;
}

/** Lden energy (`10^(L/10)`) of rail, tram and aircraft at an evaluated point: what the relation never scales. */
export function nonRoadEnergy(ev: PointEvaluation): number {
  return ev.rail.den + ev.tram.den + (ev.aircraft ? dbToEnergy(ev.aircraft.ldenDb) : 0);
}

/** A point's Lden by its path, split into the road level and the total. */
export interface TransferredLden {
  /** Road Lden: the relation applied to the physics road Lden (transfer) or the physics road Lden, dB. */
  roadDb: number;
  /** Road energy (as above) plus rail, tram and aircraft energy, unscaled, dB; -Infinity when silent. */
  totalDb: number;
}

/**
 * The one formula both the single point and every grid node use: with a relation, the road energy goes
 * through it (road-calibrated, so road only) and the non-road energy is added afterwards unscaled; without
 * one (physics path) the energies simply add. Energies are relative (`10^(L/10)`).
 */
export function transferredLden(relation: Pick<TransferRelation, 'a' | 'b'> | null, roadEnergy: number, otherEnergy: number): TransferredLden {
  const physicsRoad = energyToDb(roadEnergy);
  const roadDb = relation && Number.isFinite(physicsRoad) ? applyTransfer(relation, physicsRoad) : physicsRoad;
  return { roadDb, totalDb: energyToDb((Number.isFinite(roadDb) ? dbToEnergy(roadDb) : 0) + otherEnergy) };
}
