/**
 * A synthetic region with counted roads and noise loggers whose "measured" Lden comes from an independent
 * truth model, not from CoRTN, so calibrating and validating the engine on it is not circular.
 *
 * Truth model: the long-straight-road form of the German RLS-90 (Richtlinien fuer den Laermschutz an
 * Strassen, 1990), as recalled (exact fidelity to RLS-90 does not matter here; it only has to be a
 * different, plausible model):
 *   Lm25 = 37.3 + 10 lg[M (1 + 0.082 p)]                       M veh/h, p heavy percent
 *   Dv   = L_car - 37.3 + 10 lg[(100 + (10^(D/10) - 1) p) / (100 + 8.23 p)]
 *          L_car = 27.7 + 10 lg[1 + (0.02 v)^3], L_truck = 23.1 + 12.5 lg v (v capped at 80), D = L_truck - L_car
 *   Ds   = 15.8 - 10 lg s - 0.0142 s^0.9                        s = distance to the road axis, m
 *   Dbm  = max(0, 4.8 - (hm/s)(34 + 600/s)),  hm = 2.25 m       ground and meteorology
 *   L    = Lm25 + Dv + Ds - Dbm
 * with RLS-90's own day/night split (06-22: M = 0.06 AADT, p as counted; 22-06: M = 0.011 AADT, p doubled),
 * Ld = Le = the 06-22 level, Ln = the 22-06 level, plus a seeded site error N(0, 1.5 dB) per logger.
 */
import { ldenFromPeriods } from '../../../engine/noise/lden.js';
import type { NoiseLoggerRecord, RoadInput, TrafficCounter } from '../../../engine/noise/noise-inputs.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';
import { counter, logger, road } from './noise-fixtures.js';

/** Standard deviation of the simulated site error, dB. */
export const SITE_ERROR_SD_DB = 1.5;

function rlsLevel(m: number, p: number, v: number, s: number): number {
  const lm25 = 37.3 + 10 * Math.log10(m * (1 + 0.082 * p));
  const lCar = 27.7 + 10 * Math.log10(1 + (0.02 * v) ** 3);
  const lTruck = 23.1 + 12.5 * Math.log10(Math.min(v, 80));
  const d = lTruck - lCar;
  const dv = lCar - 37.3 + 10 * Math.log10((100 + (10 ** (d / 10) - 1) * p) / (100 + 8.23 * p));
  const ds = 15.8 - 10 * Math.log10(s) - 0.0142 * s ** 0.9;
  const hm = 2.25;
  const dbm = Math.max(0, 4.8 - (hm / s) * (34 + 600 / s));
  return lm25 + dv + ds - dbm;
}

/** Truth Lden at distance `s` metres from the axis of a long road (no site error). */
export function truthLden(aadt: number, heavyShare: number, speedKmh: number, s: number): number {
  const p = 100 * heavyShare;
  const day = rlsLevel(0.06 * aadt, p, speedKmh, s);
  const night = rlsLevel(0.011 * aadt, Math.min(100, 2 * p), speedKmh, s);
  return ldenFromPeriods(day, day, night);
}

/** A counted straight road of the truth world. */
interface TruthRoad {
  id: string;
  /** 'x' roads run north-south at x = offset; 'y' roads run east-west at y = offset. */
  axis: 'x' | 'y';
  offset: number;
  aadt: number;
  heavyShare: number;
  speedKmh: number;
}

/** The truth world: inputs for the engine, and the truth behind them. */
export interface TruthWorld {
  roads: RoadInput[];
  counters: TrafficCounter[];
  loggers: NoiseLoggerRecord[];
  truthRoads: TruthRoad[];
  /** Truth Lden (energy sum over roads, no site error) at a metre offset. */
  truthAt(dx: number, dy: number): number;
}

const HALF = 20_000;

/**
 * Six counted arterial/motorway roads on a 3 km grid around the origin with a counter every 600 m, and
 * `loggerCount` loggers 15-250 m from a road (state VIC). Far to the east (x = 40 km) a crowd-sourced
 * local road with no counter and no logger.
 */
export function truthWorld(seed = 5, loggerCount = 30): TruthWorld {
  const rnd = seededRandom(seed);
  const truthRoads: TruthRoad[] = [
    { id: 'ns-1', axis: 'x', offset: -3000, aadt: 25_000, heavyShare: 0.06, speedKmh: 60 },
    { id: 'ns-2', axis: 'x', offset: 0, aadt: 40_000, heavyShare: 0.05, speedKmh: 70 },
    { id: 'ns-3', axis: 'x', offset: 3000, aadt: 70_000, heavyShare: 0.1, speedKmh: 100 },
    { id: 'ew-1', axis: 'y', offset: -3000, aadt: 12_000, heavyShare: 0.03, speedKmh: 60 },
    { id: 'ew-2', axis: 'y', offset: 0, aadt: 30_000, heavyShare: 0.04, speedKmh: 60 },
    { id: 'ew-3', axis: 'y', offset: 3000, aadt: 18_000, heavyShare: 0.05, speedKmh: 60 },
  ];
  const roads: RoadInput[] = truthRoads.map((t) =>
    road(t.id, t.axis === 'x' ? [[t.offset, -HALF], [t.offset, HALF]] : [[-HALF, t.offset], [HALF, t.offset]], {
      roadClass: t.aadt >= 60_000 ? 'motorway' : 'arterial',
      name: t.id,
    }),
  );
  roads.push(road('osm-local', [[40_000, -1000], [40_000, 1000]], { roadClass: 'local', crowdSourced: true, source: 'test_osm' }));
  const counters: TrafficCounter[] = [];
  for (const t of truthRoads) {
    for (let a = -HALF + 300; a < HALF; a += 600) {
      const [x, y] = t.axis === 'x' ? [t.offset, a] : [a, t.offset];
      counters.push(counter(`c-${t.id}-${counters.length}`, x, y, t.id, t.aadt, { heavyShare: t.heavyShare, speedKmh: t.speedKmh }));
    }
  }
  const truthAt = (dx: number, dy: number) => {
    let e = 0;
    for (const t of truthRoads) {
      const s = Math.max(5, Math.abs(t.axis === 'x' ? dx - t.offset : dy - t.offset));
      e += 10 ** (truthLden(t.aadt, t.heavyShare, t.speedKmh, s) / 10);
    }
    return 10 * Math.log10(e);
  };
  const loggers: NoiseLoggerRecord[] = [];
  for (let i = 0; i < loggerCount; i++) {
    const t = truthRoads[i % truthRoads.length];
    const side = rnd.chance(0.5) ? 1 : -1;
    const dist = rnd.range(15, 250);
    const along = rnd.range(-2500, 2500);
    const [x, y] = t.axis === 'x' ? [t.offset + side * dist, along] : [along, t.offset + side * dist];
    loggers.push(logger(`L${i}`, x, y, truthAt(x, y) + SITE_ERROR_SD_DB * rnd.normal()));
  }
  return { roads, counters, loggers, truthRoads, truthAt };
}
