/**
 * The physics path at one point: every feature's contribution (road, rail, tram) from the scene, the
 * aircraft level from the ANEF band containing the point, and their energy sums by source kind and period.
 * This is what the score, the transfer calibration (at each logger) and the validation all evaluate.
 */
import { getTransformer, LONLAT } from '../geo/crs.js';
import type { AnefContour } from './noise-inputs.js';
import { anefBandValue, anefToLden, loudestBand } from './aircraft.js';
import { energyToDb } from './decibels.js';
import type { NoiseNetwork } from './noise-network.js';
import { ENERGY_STRIDE, OFFSET_DAY, OFFSET_DEN, OFFSET_EVENING, OFFSET_NIGHT } from './noise-scene.js';
import { cnossosSegmentFactor, sceneCnossosTable } from './cnossos-grid.js';
import type { NoiseMethod } from './noise-grid-task.js';
import { accumulateReceiverFactors } from './propagation.js';

/** Relative energies (`10^(L/10)`) per Lden period. */
export interface PeriodEnergies {
  den: number;
  day: number;
  evening: number;
  night: number;
}

/** One feature's contribution at the point. */
export interface FeatureContribution {
  /** Feature index in the network. */
  feature: number;
  /** Lden of this feature alone at the point, dB. */
  ldenDb: number;
  /** Its Lden energy. */
  energy: number;
}

/** The aircraft level at a point, from the ANEF band containing it. */
export interface AircraftAtPoint {
  band: AnefContour;
  /** ANEF value used (band midpoint, or the lower edge of the open band). */
  anef: number;
  ldenDb: number;
}

/** The physics path's answer at one point. */
export interface PointEvaluation {
  lon: number;
  lat: number;
  /** Position in the network's CRS, metres. */
  x: number;
  y: number;
  /** Features heard at the point (unordered; a real network puts thousands within range, so no objects). */
  features: Uint32Array;
  /** Lden energy of each feature in `features`, same order. */
  energies: Float64Array;
  road: PeriodEnergies;
  rail: PeriodEnergies;
  tram: PeriodEnergies;
  aircraft: AircraftAtPoint | null;
  /** Lden of everything (road + rail + tram + aircraft), dB; -Infinity when nothing is audible. */
  ldenDb: number;
  /** Period levels of road + rail + tram (ANEF gives no period split), dB. */
  ldDb: number;
  leDb: number;
  lnDb: number;
}

const SCRATCH = 'point-evaluation:scratch';

function zero(): PeriodEnergies {
  return { den: 0, day: 0, evening: 0, night: 0 };
}

/** The aircraft level at (lon, lat), or null outside every ANEF contour. */
export function aircraftNoiseAt(network: NoiseNetwork, lon: number, lat: number): AircraftAtPoint | null {
  if (network.anef.length === 0) return null;
  const band = loudestBand(network.anefIndex.containing(lon, lat).map((i) => network.anef[i]));
  if (!band) return null;
  const anef = anefBandValue(band);
  return { band, anef, ldenDb: anefToLden(anef) };
}

/** Evaluates the physics path at (lon, lat). */
export function evaluateNoisePoint(network: NoiseNetwork, lon: number, lat: number, method: NoiseMethod = 'cortn'): PointEvaluation {
  const [x, y] = getTransformer(LONLAT, network.crs).forward(lon, lat);
  return evaluateNoiseProjected(network, lon, lat, x, y, method);
}

/** As {@link evaluateNoisePoint}, for a point already projected into the network's CRS. */
export function evaluateNoiseProjected(network: NoiseNetwork, lon: number, lat: number, x: number, y: number, method: NoiseMethod = 'cortn'): PointEvaluation {
  const scene = network.scene;
  let factors = network.cache.get(SCRATCH) as Float64Array | undefined;
  if (!factors || factors.length !== scene.featureCount) {
    factors = new Float64Array(scene.featureCount);
    network.cache.set(SCRATCH, factors);
  }
  const touched: number[] = [];
  if (method === 'cnossos') {
    // CNOSSOS-EU per band (cnossos-grid.ts): each segment's factor at the point, per feature.
    const table = sceneCnossosTable(scene);
    const r = scene.receiver.maxDistanceM;
    const feat = scene.segmentFeature;
    for (const s of scene.segmentsInBox(x - r, y - r, x + r, y + r)) {
      const v = cnossosSegmentFactor(scene, table, s, x, y);
      if (!(v > 0)) continue;
      if (factors[feat[s]] === 0) touched.push(feat[s]);
      factors[feat[s]] += v;
    }
  } else accumulateReceiverFactors(scene, x, y, factors, touched);
  const energy = scene.featureEnergy;
  const kinds = scene.featureKind;
  const sums = [zero(), zero(), zero()]; // by KIND_ROAD, KIND_RAIL, KIND_TRAM
  const features = new Uint32Array(touched.length);
  const energies = new Float64Array(touched.length);
  let n = 0;
  for (const f of touched) {
    const k = factors[f];
    factors[f] = 0; // leave the scratch clean for the next call
    const e = f * ENERGY_STRIDE;
    const den = k * energy[e + OFFSET_DEN];
    const target = sums[kinds[f]];
    target.den += den;
    target.day += k * energy[e + OFFSET_DAY];
    target.evening += k * energy[e + OFFSET_EVENING];
    target.night += k * energy[e + OFFSET_NIGHT];
    if (den > 0) {
      features[n] = f;
      energies[n++] = den;
    }
  }
  const [road, rail, tram] = sums;
  const aircraft = aircraftNoiseAt(network, lon, lat);
  const air = aircraft ? Math.pow(10, aircraft.ldenDb / 10) : 0;
  return {
    lon,
    lat,
    x,
    y,
    features: features.subarray(0, n),
    energies: energies.subarray(0, n),
    road,
    rail,
    tram,
    aircraft,
    ldenDb: energyToDb(road.den + rail.den + tram.den + air),
    ldDb: energyToDb(road.day + rail.day + tram.day),
    leDb: energyToDb(road.evening + rail.evening + tram.evening),
    lnDb: energyToDb(road.night + rail.night + tram.night),
  };
}

/** The loudest feature at the point among those `accept` admits (all by default), or null. */
export function loudestNoiseFeature(ev: PointEvaluation, accept: (feature: number) => boolean = () => true): FeatureContribution | null {
  let best = -1;
  for (let i = 0; i < ev.features.length; i++) {
    if ((best < 0 || ev.energies[i] > ev.energies[best] || (ev.energies[i] === ev.energies[best] && ev.features[i] < ev.features[best])) && accept(ev.features[i])) best = i;
  }
  return best < 0 ? null : { feature: ev.features[best], energy: ev.energies[best], ldenDb: energyToDb(ev.energies[best]) };
}

/** The Lden of one feature alone at the point, dB; -Infinity when it is not heard there. */
export function featureLdenAt(ev: PointEvaluation, feature: number): number {
  for (let i = 0; i < ev.features.length; i++) if (ev.features[i] === feature) return energyToDb(ev.energies[i]);
  return -Infinity;
}
