/**
 * `scores.noise` (spec section 2.6, the `noise` row): modelled Lden with direction and dominant source,
 * `lden_source` (transfer | physics, never blended), `confidence_range_db`, `dominant_road` (the loudest
 * crowd-sourced road when no counter is in range), `sources` (measured road and rail sources with true
 * distances and `search_radius_m`; no crowd-sourced rows), `measured_validation`, the rail, tram and
 * aircraft components mixed in separately, and the 0-100 score (noise-score-scale.ts). Inputs ship as
 * ScoreComponent objects (engine/score-kit/component.ts).
 */
import { latLng, metres, NOISE_WORDS, relationTerms } from './noise-describe.js';
import type { Geometry, Position } from 'geojson';
import { assertLonLat } from '../../geo/window.js';
import { bearingDegrees, compass8, type Compass8 } from '../../geo/distance.js';
import { component, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import { nearestPointOnLine } from '../../vector/nearest-point-on-line.js';
import { confidenceHalfWidth } from '../../noise/confidence.js';
import { energyToDb, reportDb } from '../../noise/decibels.js';
import { measuredValidation, type MeasuredValidation } from '../../noise/measured-validation.js';
import { decideNoisePath, type NoiseModelPath } from '../../noise/model-path.js';
import type { NoiseFeature, NoiseNetwork, TrafficBasis } from '../../noise/noise-network.js';
import { noiseScoreFromLden } from '../../noise/noise-score-scale.js';
import type { NoiseMethod } from '../../noise/noise-grid-task.js';
import { NOISE_METHOD_NOTES } from '../../noise/noise-grid.js';
import { evaluateNoisePoint, featureLdenAt, loudestNoiseFeature, type PeriodEnergies, type PointEvaluation } from '../../noise/point-evaluation.js';
import { nonRoadEnergy, resolveTransferOptions, transferredLden, type TransferOptions, type TransferRelation } from '../../noise/transfer-calibration.js';

/** Options of {@link noiseScore}. */
export interface NoiseScoreOptions extends TransferOptions {
  /** The physics path's propagation: `cortn` (default) or `cnossos`; the transfer path keeps CoRTN. */
  method?: NoiseMethod;
  /** State or territory of the subject (for measured_validation); default: the state of the nearest logger within 50 km. */
  state?: string | null;
  /** Radius of the `sources` list, metres; default 500. */
  searchRadiusM?: number;
  /** Measured sources just beyond the radius (up to 1.5x) that may be listed, flagged; default 3. */
  beyondRadiusCount?: number;
  /** The lookup time reported in `as_at`; default now. */
  now?: Date;
}

/** A point with its lon/lat. */
export interface ClosestPoint {
  lat: number;
  lng: number;
}

/** The loudest contribution at the subject. */
export interface DominantSource {
  kind: 'road' | 'rail' | 'tram' | 'aircraft';
  id: string;
  name: string;
  /** Lden of this source alone at the subject, dB (physics path). */
  lden_db: number | null;
  /** True distance to its closest approach, metres (null for aircraft). */
  distance_m: number | null;
  direction: Compass8 | null;
  closest_point: ClosestPoint | null;
  crowd_sourced: boolean;
  source: string;
}

/** One measured road or rail source near the subject. */
export interface NoiseSourceRow {
  kind: 'road' | 'rail' | 'tram';
  id: string;
  name: string;
  distance_m: number;
  direction: Compass8;
  closest_point: ClosestPoint;
  /** Lden of this source alone at the subject, dB (null beyond the model's range). */
  lden_db: number | null;
  road_class: string | null;
  aadt: number | null;
  heavy_share: number | null;
  speed_kmh: number;
  services_day: number | null;
  traffic_basis: TrafficBasis;
  /** Fields that took class or mode defaults (flagged, never silent). */
  defaulted: string[];
  counter_id: string | null;
  /** True for the few rows listed from just beyond `search_radius_m`. */
  beyond_search_radius: boolean;
  source: string;
}

/** The loudest crowd-sourced road (reported only when no counter is in range). */
export interface DominantRoad {
  road_id: string;
  name: string;
  road_class: string | null;
  lden_db: number | null;
  distance_m: number;
  direction: Compass8;
  closest_point: ClosestPoint;
  traffic_basis: TrafficBasis;
  defaulted: string[];
  source: string;
}

/** The `scores.noise` object. */
export interface NoiseScore {
  /** 0-100, 100 = loudest (null when no source is modelled within range). */
  score: number | null;
  level: Level;
  /** Modelled Lden at the subject, dB, by `lden_source`. */
  lden_db: number | null;
  /** 8-point compass direction of the dominant contribution (null for aircraft or nothing). */
  direction: Compass8 | null;
  dominant_source: DominantSource | null;
  lden_source: NoiseModelPath;
  /** Why that path answered. */
  path_reason: string;
  /** The physics path's Lden of every source, always shown, dB. */
  physics_lden_db: number | null;
  /**
   * The transfer relation used (transfer path only). It is calibrated on road noise and applied to the
   * physics road Lden (`physics_road_lden_db` -> `road_lden_db`); rail, tram and aircraft are energy-summed
   * onto it unscaled, so `lden_db` is the energy sum of the four components.
   */
  transfer: {
    a: number;
    b: number;
    fit: 'offset' | 'linear';
    n_pairs: number;
    loo_rmse_db: number | null;
    counter_id: string;
    counter_distance_m: number;
    counter_source: string;
    /** The relation's input: physics road Lden at the subject, dB. */
    physics_road_lden_db: number | null;
    /** The relation's output: calibrated road Lden, dB (= components.road.value). */
    road_lden_db: number | null;
  } | null;
  /** [low, high] Lden, dB. */
  confidence_range_db: [number, number] | null;
  confidence_half_width_db: number;
  confidence_basis: string;
  /** Physics-path period levels of road, rail and tram (ANEF gives no period split), dB. */
  periods_db: { ld: number | null; le: number | null; ln: number | null; path: 'physics' };
  dominant_road: DominantRoad | null;
  sources: NoiseSourceRow[];
  search_radius_m: number;
  measured_validation: MeasuredValidation;
  components: { road: ScoreComponent<number | null>; rail: ScoreComponent<number | null>; tram: ScoreComponent<number | null>; aircraft: ScoreComponent<number | null> };
  /** Features within range whose traffic took class or mode defaults. */
  defaults_used: { count: number; note: string | null };
  /** Catalogue source ids of every record used (for meta.noise_sources and attribution). */
  source_ids: string[];
  model: { method: string; physics_method: NoiseMethod; receiver_height_m: number; ground_cover: number; max_distance_m: number; crs: string };
  /** When the sources were looked up (meta.as_at `scores.noise.sources`). */
  as_at: string;
}

/** Where a feature's line comes closest to (lon, lat). */
function closestApproach(g: Geometry, lon: number, lat: number): { lon: number; lat: number; distance: number } | null {
  const lines: Position[][] = g.type === 'LineString' ? [g.coordinates] : g.type === 'MultiLineString' ? g.coordinates : [];
  let best: { lon: number; lat: number; distance: number } | null = null;
  for (const l of lines) {
    const p = nearestPointOnLine(l, lon, lat);
    if (p && (!best || p.distance < best.distance)) best = { lon: p.lon, lat: p.lat, distance: p.distance };
  }
  return best;
}

function inferState(network: NoiseNetwork, lon: number, lat: number): string | null {
  const near = network.loggerIndex.nearest(lon, lat, 1, 50_000)[0];
  return near ? network.loggers[near.id].state : null;
}

/** One source kind's component; `relation` (road on the transfer path only) calibrates the road level. */
function kindComponent(kind: 'road' | 'rail' | 'tram', ev: PointEvaluation, network: NoiseNetwork, relation: TransferRelation | null): ScoreComponent<number | null> {
  const e: PeriodEnergies = ev[kind];
  const supplied = kind === 'road' ? network.layers.roads : network.layers.rail;
  const loudest = loudestNoiseFeature(ev, (f) => network.features[f].kind === kind);
  const physics = energyToDb(e.den);
  const calibrated = kind === 'road' && relation !== null;
  const lden = calibrated ? transferredLden(relation, e.den, 0).roadDb : physics;
  const max = network.receiver.maxDistanceM;
  if (!supplied) return component({ value: null, unit: 'dB', level: 'unknown', resolution: null, source: null, caveat: NOISE_WORDS.kindNotSupplied(kind) });
  if (!loudest) return component({ value: null, unit: 'dB', level: 'very_low', resolution: null, source: null, caveat: NOISE_WORDS.kindNoneInRange(kind, max) });
  const f = network.features[loudest.feature];
  return component({
    value: reportDb(lden),
    unit: 'dB',
    level: levelOf(noiseScoreFromLden(lden)),
    resolution: null,
    source: f.source || null,
    caveat: NOISE_WORDS.kindLevel(kind, calibrated, reportDb(physics), f.name || f.id),
  });
}

/** `scores.noise` at (lon, lat). */
export function noiseScore(network: NoiseNetwork, lon: number, lat: number, options: NoiseScoreOptions = {}): NoiseScore {
  assertLonLat(lon, lat);
  const transferOptions = resolveTransferOptions(options);
  const searchRadius = options.searchRadiusM ?? 500;
  const decision = decideNoisePath(network, lon, lat, transferOptions);
  // The physics method answers the physics path; the transfer path keeps CoRTN, which its relation is calibrated on.
  const method: NoiseMethod = options.method === 'cnossos' && decision.path === 'physics' ? 'cnossos' : 'cortn';
  const ev = evaluateNoisePoint(network, lon, lat, method);
  const physics = ev.ldenDb;
  // Road through the (road-calibrated) relation, then rail, tram and aircraft added unscaled: one formula
  // with the grid (transferredLden), so the total is the energy sum of its components on both paths.
  const byPath = transferredLden(decision.relation, ev.road.den, nonRoadEnergy(ev));
  const lden = byPath.totalDb;
  const features = network.features;

  // Dominant contribution: the loudest feature, or the aircraft band when it is louder.
  const top = loudestNoiseFeature(ev);
  let dominant: DominantSource | null = null;
  let dominantDefaulted = false;
  if (top && !(ev.aircraft && ev.aircraft.ldenDb > top.ldenDb)) {
    const f = features[top.feature];
    const at = closestApproach(network.geometries[f.index], lon, lat);
    dominantDefaulted = f.defaulted.includes('aadt') || f.defaulted.includes('services_day');
    dominant = {
      kind: f.kind,
      id: f.id,
      name: f.name,
      lden_db: reportDb(top.ldenDb),
      distance_m: at ? metres(at.distance) : null,
      direction: at ? compass8(bearingDegrees(lon, lat, at.lon, at.lat)) : null,
      closest_point: at ? latLng(at.lon, at.lat) : null,
      crowd_sourced: f.crowdSourced,
      source: f.source,
    };
  } else if (ev.aircraft) {
    const b = ev.aircraft.band;
    dominant = { kind: 'aircraft', id: b.airport || 'anef', name: NOISE_WORDS.anefSourceName(b), lden_db: reportDb(ev.aircraft.ldenDb), distance_m: null, direction: null, closest_point: null, crowd_sourced: false, source: b.source };
  }

  // Measured sources near the subject (no crowd-sourced rows).
  const beyond = options.beyondRadiusCount ?? 3;
  const rows: NoiseSourceRow[] = [];
  let extra = 0;
  for (const h of network.segmentIndex.featuresWithin(lon, lat, searchRadius * 1.5)) {
    const f = features[h.feature];
    if (f.crowdSourced) continue;
    const outside = h.distance > searchRadius;
    if (outside && extra >= beyond) continue;
    if (outside) extra++;
    rows.push(sourceRow(f, h.distance, lon, lat, h.lon, h.lat, featureLdenAt(ev, f.index), outside));
  }

  // The loudest crowd-sourced road, when no counter is in range.
  let dominantRoad: DominantRoad | null = null;
  if (!decision.counter) {
    const c = loudestNoiseFeature(ev, (x) => features[x].kind === 'road' && features[x].crowdSourced);
    if (c) {
      const f = features[c.feature];
      const at = closestApproach(network.geometries[f.index], lon, lat)!;
      dominantRoad = {
        road_id: f.id,
        name: f.name,
        road_class: f.roadClass,
        lden_db: reportDb(c.ldenDb),
        distance_m: metres(at.distance),
        direction: compass8(bearingDegrees(lon, lat, at.lon, at.lat)),
        closest_point: latLng(at.lon, at.lat),
        traffic_basis: f.basis,
        defaulted: f.defaulted,
        source: f.source,
      };
    }
  }

  const conf = confidenceHalfWidth(decision.path, decision.relation, dominantDefaulted);
  const ldenOut = reportDb(lden);
  const score = noiseScoreFromLden(ldenOut); // from the reported level, so the two always agree
  const aircraftComponent: ScoreComponent<number | null> = !network.layers.anef
    ? component({ value: null, unit: 'dB', level: 'unknown', resolution: null, source: null, caveat: NOISE_WORDS.aircraftNotAssessed })
    : ev.aircraft
      ? component({
          value: reportDb(ev.aircraft.ldenDb),
          unit: 'dB',
          level: levelOf(noiseScoreFromLden(ev.aircraft.ldenDb)),
          resolution: null,
          source: ev.aircraft.band.source || null,
          caveat: NOISE_WORDS.aircraftInside(ev.aircraft.band, ev.aircraft.anef),
        })
      : component({ value: null, unit: 'dB', level: 'very_low', resolution: null, source: null, caveat: NOISE_WORDS.aircraftOutside });

  let defaulted = 0;
  const sourceIds = new Set<string>();
  for (const i of ev.features) {
    const f = features[i];
    if (f.defaulted.length > 0) defaulted++;
    if (f.source) sourceIds.add(f.source);
  }
  if (ev.aircraft?.band.source) sourceIds.add(ev.aircraft.band.source);
  if (decision.counter?.source) sourceIds.add(decision.counter.source);
  const validation = measuredValidation(network, options.state === undefined ? inferState(network, lon, lat) : options.state, transferOptions);
  if (decision.relation) {
    const used = new Set(decision.relation.loggerIds);
    for (const l of network.loggers) if (l.source && used.has(l.id)) sourceIds.add(l.source);
  }
  const r = network.receiver;

  return {
    score,
    level: levelOf(score),
    lden_db: ldenOut,
    direction: dominant?.direction ?? null,
    dominant_source: dominant,
    lden_source: decision.path,
    path_reason: decision.reason,
    physics_lden_db: reportDb(physics),
    transfer:
      decision.relation && decision.counter
        ? {
            ...relationTerms(decision.relation.a, decision.relation.b),
            fit: decision.relation.fit,
            n_pairs: decision.relation.n,
            loo_rmse_db: decision.relation.looRmseDb === null ? null : reportDb(decision.relation.looRmseDb),
            counter_id: decision.counter.id,
            counter_distance_m: metres(decision.counter.distanceM),
            counter_source: decision.counter.source,
            physics_road_lden_db: reportDb(energyToDb(ev.road.den)),
            road_lden_db: reportDb(byPath.roadDb),
          }
        : null,
    confidence_range_db: ldenOut === null ? null : [reportDb(lden - conf.halfWidthDb)!, reportDb(lden + conf.halfWidthDb)!],
    confidence_half_width_db: conf.halfWidthDb,
    confidence_basis: conf.basis,
    periods_db: { ld: reportDb(ev.ldDb), le: reportDb(ev.leDb), ln: reportDb(ev.lnDb), path: 'physics' },
    dominant_road: dominantRoad,
    sources: rows,
    search_radius_m: searchRadius,
    measured_validation: validation,
    components: { road: kindComponent('road', ev, network, decision.relation), rail: kindComponent('rail', ev, network, null), tram: kindComponent('tram', ev, network, null), aircraft: aircraftComponent },
    defaults_used: {
      count: defaulted,
      note: NOISE_WORDS.defaultsNote(defaulted, ev.features.length, r.maxDistanceM),
    },
    source_ids: [...sourceIds].sort(),
    model: {
      method: method === 'cnossos' ? `${NOISE_METHOD_NOTES.cnossos} Rail, tram and aircraft emission as in the CoRTN method.` : NOISE_WORDS.method,
      physics_method: method,
      receiver_height_m: r.heightM,
      ground_cover: r.groundCover,
      max_distance_m: r.maxDistanceM,
      crs: network.crs,
    },
    as_at: (options.now ?? new Date()).toISOString(),
  };
}

function sourceRow(f: NoiseFeature, distance: number, lon: number, lat: number, plon: number, plat: number, ldenDb: number, beyond: boolean): NoiseSourceRow {
  return {
    kind: f.kind,
    id: f.id,
    name: f.name,
    distance_m: metres(distance),
    direction: compass8(bearingDegrees(lon, lat, plon, plat)),
    closest_point: latLng(plon, plat),
    lden_db: reportDb(ldenDb),
    road_class: f.roadClass,
    aadt: f.traffic.aadt,
    heavy_share: f.traffic.heavyShare,
    speed_kmh: f.traffic.speedKmh,
    services_day: f.traffic.servicesPerDay,
    traffic_basis: f.basis,
    defaulted: f.defaulted,
    counter_id: f.counterId,
    beyond_search_radius: beyond,
    source: f.source,
  };
}

