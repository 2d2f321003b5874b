/**
 * Which path answers at a point, and why. The transfer path (the default) is used when a monitored traffic
 * counter matched to a road lies within the counter range of the point AND a relation can be calibrated
 * from enough logger-counter pairs near it; otherwise the physics path answers. The two are never blended:
 * every result says which path produced it and the reason in plain words.
 */
import { countersNear, type NoiseNetwork } from './noise-network.js';
import { calibrateTransferAt, type ResolvedTransferOptions, type TransferRelation } from './transfer-calibration.js';

/** The two model paths. */
export type NoiseModelPath = 'transfer' | 'physics';

/** The path chosen at a point. */
export interface NoisePathDecision {
  path: NoiseModelPath;
  /** Why, in one sentence. */
  reason: string;
  /** The nearest matched counter within range, if any. */
  counter: { id: string; roadId: string; distanceM: number; source: string } | null;
  /** The calibrated relation (transfer path only). */
  relation: TransferRelation | null;
}

/** Decides the path at (lon, lat); `excludeLogger` leaves one logger out of the calibration (validation). */
export function decideNoisePath(network: NoiseNetwork, lon: number, lat: number, options: ResolvedTransferOptions, excludeLogger = -1, relation?: TransferRelation | null): NoisePathDecision {
  const near = countersNear(network, lon, lat, options.counterRangeM)[0];
  if (!near) {
    return {
      path: 'physics',
      reason: `no monitored traffic counter within ${options.counterRangeM} m; CoRTN physics path with ${network.layers.counters ? 'the network\'s traffic attributes and class defaults' : 'no counter layer supplied'}`,
      counter: null,
      relation: null,
    };
  }
  const counter = { id: near.counter.id, roadId: near.counter.matchedRoadId!, distanceM: near.distance, source: near.counter.source };
  const rel = relation !== undefined ? relation : calibrateTransferAt(network, lon, lat, options, excludeLogger);
  if (!rel) {
    return {
      path: 'physics',
      reason: `counter ${counter.id} is ${Math.round(near.distance)} m away, but fewer than ${options.minPairs} logger-counter pairs lie within ${options.calibrationRadiusM / 1000} km to calibrate a transfer relation`,
      counter,
      relation: null,
    };
  }
  return {
    path: 'transfer',
    reason: `counter ${counter.id} is ${Math.round(near.distance)} m away; relation (${rel.fit}) calibrated on ${rel.n} logger-counter pairs within ${options.calibrationRadiusM / 1000} km`,
    counter,
    relation: rel,
  };
}
