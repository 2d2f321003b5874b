/**
 * A noise network: the validated roads, rail and tram lines, traffic counters, noise loggers and ANEF
 * contours of one region, with everything a lookup needs precomputed once:
 *
 * - each road's traffic, resolved in a fixed order and flagged: a monitored counter on the road (matched by
 *   `road_id`, else the nearest road within {@link COUNTER_MATCH_RADIUS_M}); else the road's own
 *   attributes; else its class defaults (road-classes.ts). Never NaN: every missing value has a default;
 * - each feature's emission (road-emission.ts, rail-emission.ts) as period line-source strengths;
 * - the hot-path {@link NoiseScene}: segments projected once into the network's metric CRS (the GDA2020 MGA
 *   zone of the network's centre unless given) with a flatbush index, all in SharedArrayBuffers;
 * - lon/lat indexes for true-distance answers: a {@link SegmentIndex} over the same segments (sources,
 *   closest approach), {@link PointIndex}es of counters and loggers, and a {@link PolygonIndex} of ANEF bands.
 *
 * Build it once per dataset (it is the "warm index"); every score and grid reads it without change.
 */
import type { Geometry } from 'geojson';
import { invalidArgument } from '../errors.js';
import { getTransformer, LONLAT, mgaCrsForLon, requireCrs } from '../geo/crs.js';
import { PointIndex } from '../vector/point-index.js';
import { PolygonIndex } from '../vector/polygon-index.js';
import { SegmentIndex } from '../vector/segment-index.js';
import { CORTN_MIN_DISTANCE_M, CORTN_SOURCE_HEIGHT_M, CORTN_SOURCE_LINE_OFFSET_M } from './cortn.js';
import { DEFAULT_RAIL_SHARES, DEFAULT_ROAD_PROFILE, diurnalProfile, periodShares, type PeriodShares } from './diurnal-profile.js';
import { LDEN_ASSESSMENT_HEIGHT_M } from './lden.js';
import type { AnefContour, NoiseLoggerRecord, RailInput, RoadInput, TrafficCounter } from './noise-inputs.js';
import {
  ENERGY_STRIDE,
  GEOMETRY_STRIDE,
  KIND_RAIL,
  KIND_ROAD,
  KIND_TRAM,
  NoiseScene,
  OFFSET_BARRIER_HEIGHT,
  OFFSET_BARRIER_OFFSET,
  OFFSET_DAY,
  OFFSET_DEN,
  OFFSET_DZ,
  OFFSET_EVENING,
  OFFSET_GROUND_HALF_WIDTH,
  OFFSET_MIN_DISTANCE,
  OFFSET_NIGHT,
  OFFSET_SOURCE_OFFSET,
  type ReceiverSettings,
} from './noise-scene.js';
import { roadSourceOffset } from './propagation.js';
import { RAIL_MODE_DEFAULTS, railEmission } from './rail-emission.js';
import { ROAD_CLASS_DEFAULTS, type RoadClass } from './road-classes.js';
import { roadEmission, type PeriodLevels } from './road-emission.js';

/** A counter whose `road_id` is missing or unknown is matched to the nearest road within this many metres. */
export const COUNTER_MATCH_RADIUS_M = 50;

/** Closest a receiver is taken to a rail or tram track axis, metres (inside the corridor no one lives). */
export const RAIL_MIN_DISTANCE_M = 5;

/** Options for {@link buildNoiseNetwork}. */
export interface NoiseNetworkOptions {
  /** Receiver height above ground, metres; default 4 (Directive 2002/49/EC Annex I assessment height). */
  receiverHeightM?: number;
  /** CoRTN proportion of absorbent ground between roads and receivers, 0-1; default 0.5 (mixed urban cover). */
  groundCover?: number;
  /** Sources farther than this from a receiver are ignored, metres; default 2,000. */
  maxDistanceM?: number;
  /** Hourly shares of daily road traffic, 24 values from 00:00; default {@link DEFAULT_ROAD_PROFILE}. */
  roadProfile?: readonly number[];
  /** Shares of daily train and tram services by Lden period; default {@link DEFAULT_RAIL_SHARES}. */
  railShares?: PeriodShares;
  /** Metric CRS for the hot path; default the GDA2020 MGA zone of the network's centre. */
  crs?: string;
}

/** The layers a network was built with (a layer not supplied is "not assessed", never "none found"). */
export interface NoiseLayers {
  roads: boolean;
  rail: boolean;
  counters: boolean;
  loggers: boolean;
  anef: boolean;
}

/** Where a feature's traffic came from. */
export type TrafficBasis = 'counter' | 'attribute' | 'default';

/** One road, rail or tram line of the network with its resolved traffic and emission. */
export interface NoiseFeature {
  /** Position in the network (roads first, then rail lines). */
  index: number;
  kind: 'road' | 'rail' | 'tram';
  id: string;
  name: string;
  source: string;
  crowdSourced: boolean;
  /** Road class used (null for rail). */
  roadClass: RoadClass | null;
  traffic: {
    /** Vehicles/day (roads). */
    aadt: number | null;
    /** Heavy share 0-1 (roads). */
    heavyShare: number | null;
    speedKmh: number;
    gradientPct: number | null;
    /** Services/day (rail, tram). */
    servicesPerDay: number | null;
  };
  basis: TrafficBasis;
  /** Fields that took class or mode defaults (e.g. `aadt`, `speed_kmh`, `road_class`). */
  defaulted: string[];
  /** The counter whose traffic the road carries, if any. */
  counterId: string | null;
  /** Emission at the reference position (13.5 m slant for roads, 25 m for rail). */
  emission: PeriodLevels;
  /** Noise wall, when the data give one. */
  barrier: { heightM: number; offsetM: number } | null;
}

/** A counter matched to the road it counts. */
export interface MatchedCounter extends TrafficCounter {
  /** `road_id` of the road it was matched to (null: unmatched, unused). */
  matchedRoadId: string | null;
  /** How it was matched. */
  match: 'road_id' | 'proximity' | 'unmatched';
}

/** Everything the network was built from. */
export interface NoiseNetworkInput {
  roads: readonly RoadInput[];
  rail?: readonly RailInput[];
  counters?: readonly TrafficCounter[];
  loggers?: readonly NoiseLoggerRecord[];
  anef?: readonly AnefContour[];
  /** Which layers were supplied; by default a layer counts as supplied when its array is given. */
  layers?: Partial<NoiseLayers>;
}

/** A built network: see the module comment. */
export interface NoiseNetwork {
  crs: string;
  receiver: ReceiverSettings;
  roadShares: PeriodShares;
  railShares: PeriodShares;
  layers: NoiseLayers;
  features: NoiseFeature[];
  /** lon/lat geometry of each feature (same order as `features`). */
  geometries: Geometry[];
  scene: NoiseScene;
  /** lon/lat segments of the same features (feature id = position in `features`). */
  segmentIndex: SegmentIndex;
  counters: MatchedCounter[];
  /** lon/lat index of the matched counters (ids = positions in `counters`). */
  counterIndex: PointIndex;
  loggers: NoiseLoggerRecord[];
  loggerIndex: PointIndex;
  anef: AnefContour[];
  anefIndex: PolygonIndex;
  /** Lookup caches (calibration predictors, validation per state); filled on first use. */
  cache: Map<string, unknown>;
}

function lonLatCentre(roads: readonly { geometry: Geometry }[], fallback: readonly { lon: number; lat: number }[]): number | null {
  let x0 = Infinity, x1 = -Infinity;
  const visit = (g: Geometry) => {
    const lines = g.type === 'LineString' ? [g.coordinates] : g.type === 'MultiLineString' ? g.coordinates : [];
    for (const l of lines) for (const p of l) {
      if (p[0] < x0) x0 = p[0];
      if (p[0] > x1) x1 = p[0];
    }
  };
  for (const r of roads) visit(r.geometry);
  for (const p of fallback) {
    if (p.lon < x0) x0 = p.lon;
    if (p.lon > x1) x1 = p.lon;
  }
  return x0 <= x1 ? (x0 + x1) / 2 : null;
}

function linesOf(g: Geometry): number[][][] {
  if (g.type === 'LineString') return [g.coordinates];
  if (g.type === 'MultiLineString') return g.coordinates;
  return [];
}

function strength(level: number, referenceDistance: number): number {
  return Number.isFinite(level) ? Math.pow(10, level / 10) * referenceDistance : 0;
}

/** Picks, per road id, the counter to use: the most recent year, then the first listed. */
function counterByRoad(counters: readonly MatchedCounter[]): Map<string, MatchedCounter> {
  const out = new Map<string, MatchedCounter>();
  for (const c of counters) {
    if (!c.matchedRoadId) continue;
    const prev = out.get(c.matchedRoadId);
    if (!prev || (c.year ?? -Infinity) > (prev.year ?? -Infinity)) out.set(c.matchedRoadId, c);
  }
  return out;
}

/** Builds a network from validated inputs (see noise-inputs.ts for the schema). */
export function buildNoiseNetwork(input: NoiseNetworkInput, options: NoiseNetworkOptions = {}): NoiseNetwork {
  const receiver: ReceiverSettings = {
    heightM: options.receiverHeightM ?? LDEN_ASSESSMENT_HEIGHT_M,
    groundCover: options.groundCover ?? 0.5,
    maxDistanceM: options.maxDistanceM ?? 2000,
  };
  const roadShares = periodShares(options.roadProfile ? diurnalProfile(options.roadProfile, 'road_profile') : DEFAULT_ROAD_PROFILE);
  const railShares = options.railShares ?? DEFAULT_RAIL_SHARES;
  const shareSum = railShares.day + railShares.evening + railShares.night;
  if (![railShares.day, railShares.evening, railShares.night].every((v) => v >= 0) || Math.abs(shareSum - 1) > 1e-6) {
    throw invalidArgument('rail_shares', `rail period shares must be non-negative and sum to 1, got ${JSON.stringify(railShares)}`);
  }
  const roads = input.roads;
  const rail = input.rail ?? [];
  const countersIn = input.counters ?? [];
  const loggers = [...(input.loggers ?? [])];
  const anef = [...(input.anef ?? [])];
  const layers: NoiseLayers = {
    roads: input.layers?.roads ?? true,
    rail: input.layers?.rail ?? input.rail !== undefined,
    counters: input.layers?.counters ?? input.counters !== undefined,
    loggers: input.layers?.loggers ?? input.loggers !== undefined,
    anef: input.layers?.anef ?? input.anef !== undefined,
  };
  const centre = lonLatCentre([...roads, ...rail], [...countersIn, ...loggers]);
  const crs = options.crs ? requireCrs(options.crs, 'crs') : mgaCrsForLon(centre ?? 145);

  // lon/lat segment index over roads then rail: feature id = position in `features`.
  const geometries: Geometry[] = [...roads.map((r) => r.geometry), ...rail.map((r) => r.geometry)];
  const segmentIndex = SegmentIndex.fromGeometries(geometries);

  // Counters: match to roads by road_id, else by proximity.
  const roadIds = new Set(roads.map((r) => r.id));
  const counters: MatchedCounter[] = countersIn.map((c) => {
    if (c.roadId && roadIds.has(c.roadId)) return { ...c, matchedRoadId: c.roadId, match: 'road_id' as const };
    const near = segmentIndex.nearestFeatures(c.lon, c.lat, 1, COUNTER_MATCH_RADIUS_M).find((h) => h.feature < roads.length);
    return near ? { ...c, matchedRoadId: roads[near.feature].id, match: 'proximity' as const } : { ...c, matchedRoadId: null, match: 'unmatched' as const };
  });
  const counted = counterByRoad(counters);

  const features: NoiseFeature[] = [];
  for (const r of roads) {
    const defaulted: string[] = [];
    const cls: RoadClass = r.roadClass ?? 'local';
    if (!r.roadClass) defaulted.push('road_class');
    const d = ROAD_CLASS_DEFAULTS[cls];
    const c = counted.get(r.id) ?? null;
    const pick = (fromCounter: number | null | undefined, own: number | null, def: number, field: string): number => {
      if (fromCounter !== null && fromCounter !== undefined) return fromCounter;
      if (own !== null) return own;
      defaulted.push(field);
      return def;
    };
    const aadt = pick(c?.aadt, r.aadt, d.aadt, 'aadt');
    const heavyShare = pick(c?.heavyShare, r.heavyShare, d.heavyShare, 'heavy_share');
    const speedKmh = pick(c?.speedKmh, r.speedKmh, d.speedKmh, 'speed_kmh');
    const traffic = { aadt, heavyShare, speedKmh, gradientPct: r.gradientPct, servicesPerDay: null };
    features.push({
      index: features.length,
      kind: 'road',
      id: r.id,
      name: r.name,
      source: r.source,
      crowdSourced: r.crowdSourced,
      roadClass: cls,
      traffic,
      basis: c ? 'counter' : defaulted.includes('aadt') ? 'default' : 'attribute',
      defaulted,
      counterId: c?.id ?? null,
      emission: roadEmission({ aadt, heavyShare, speedKmh, gradientPct: r.gradientPct ?? 0 }, roadShares),
      barrier: r.barrierHeightM !== null && r.barrierOffsetM !== null ? { heightM: r.barrierHeightM, offsetM: r.barrierOffsetM } : null,
    });
  }
  for (const l of rail) {
    const d = RAIL_MODE_DEFAULTS[l.mode];
    const defaulted: string[] = [];
    const servicesPerDay = l.servicesPerDay ?? (defaulted.push('services_day'), d.servicesPerDay);
    const speedKmh = l.speedKmh ?? (defaulted.push('speed_kmh'), d.speedKmh);
    features.push({
      index: features.length,
      kind: l.mode,
      id: l.id,
      name: l.name,
      source: l.source,
      crowdSourced: false,
      roadClass: null,
      traffic: { aadt: null, heavyShare: null, speedKmh, gradientPct: null, servicesPerDay },
      basis: defaulted.includes('services_day') ? 'default' : 'attribute',
      defaulted,
      counterId: null,
      emission: railEmission({ mode: l.mode, servicesPerDay, speedKmh }, railShares),
      barrier: null,
    });
  }

  // Per-feature records of the scene.
  const nf = features.length;
  const energy = new Float64Array(nf * ENERGY_STRIDE);
  const geometry = new Float64Array(nf * GEOMETRY_STRIDE);
  const kinds = new Uint8Array(nf);
  for (const f of features) {
    const e = f.index * ENERGY_STRIDE;
    const ref = f.emission.referenceDistanceM;
    energy[e + OFFSET_DEN] = strength(f.emission.lden, ref);
    energy[e + OFFSET_DAY] = strength(f.emission.ld, ref);
    energy[e + OFFSET_EVENING] = strength(f.emission.le, ref);
    energy[e + OFFSET_NIGHT] = strength(f.emission.ln, ref);
    const g = f.index * GEOMETRY_STRIDE;
    if (f.kind === 'road') {
      const hw = ROAD_CLASS_DEFAULTS[f.roadClass!].halfWidthM;
      geometry[g + OFFSET_SOURCE_OFFSET] = roadSourceOffset(hw);
      geometry[g + OFFSET_MIN_DISTANCE] = CORTN_MIN_DISTANCE_M + CORTN_SOURCE_LINE_OFFSET_M;
      geometry[g + OFFSET_DZ] = receiver.heightM - CORTN_SOURCE_HEIGHT_M;
      geometry[g + OFFSET_GROUND_HALF_WIDTH] = hw;
      geometry[g + OFFSET_BARRIER_HEIGHT] = f.barrier ? f.barrier.heightM : NaN;
      geometry[g + OFFSET_BARRIER_OFFSET] = f.barrier ? f.barrier.offsetM : NaN;
      kinds[f.index] = KIND_ROAD;
    } else {
      // Rail: Schall 03's emission is defined at a receiver position (25 m, 3.5 m high), so only horizontal
      // spreading and the angle of view are applied; no CoRTN ground term (conservative over soft ground).
      geometry[g + OFFSET_SOURCE_OFFSET] = 0;
      geometry[g + OFFSET_MIN_DISTANCE] = RAIL_MIN_DISTANCE_M;
      geometry[g + OFFSET_DZ] = 0;
      geometry[g + OFFSET_GROUND_HALF_WIDTH] = NaN;
      geometry[g + OFFSET_BARRIER_HEIGHT] = NaN;
      geometry[g + OFFSET_BARRIER_OFFSET] = NaN;
      kinds[f.index] = f.kind === 'tram' ? KIND_TRAM : KIND_RAIL;
    }
  }

  // Project every vertex once; segments share their vertices' projections.
  const segs: number[] = [];
  const segFeature: number[] = [];
  const t = getTransformer(LONLAT, crs);
  geometries.forEach((g, fi) => {
    for (const line of linesOf(g)) {
      const xy = new Float64Array(line.length * 2);
      for (let i = 0; i < line.length; i++) {
        xy[2 * i] = line[i][0];
        xy[2 * i + 1] = line[i][1];
      }
      t.forwardArray(xy);
      for (let i = 0; i + 1 < line.length; i++) {
        segs.push(xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3]);
        segFeature.push(fi);
      }
    }
  });
  const scene = NoiseScene.build({ crs, segmentsXY: segs, segmentFeature: segFeature, featureEnergy: energy, featureGeometry: geometry, featureKind: kinds, receiver });

  // Unmatched counters stay indexed (they are listed as unused) but never count as "in range".
  const counterIndex = PointIndex.build(counters.flatMap((c) => [c.lon, c.lat]));
  const loggerIndex = PointIndex.build(loggers.flatMap((l) => [l.lon, l.lat]));
  const anefIndex = PolygonIndex.build(anef.map((a) => a.geometry));
  return { crs, receiver, roadShares, railShares, layers, features, geometries, scene, segmentIndex, counters, counterIndex, loggers, loggerIndex, anef, anefIndex, cache: new Map() };
}

/** The counters within `radius` metres of (lon, lat) that were matched to a road, nearest first. */
export function countersNear(network: NoiseNetwork, lon: number, lat: number, radius: number): { counter: MatchedCounter; distance: number }[] {
  return network.counterIndex
    .within(lon, lat, radius)
    .filter((h) => network.counters[h.id].matchedRoadId !== null)
    .map((h) => ({ counter: network.counters[h.id], distance: h.distance }));
}
