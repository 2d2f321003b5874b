/**
 * `scores.walkability`: the 24-scenario straight-line screening (spec 2.6; spec 1: "a straight-line
 * screening result, not a route-network score or isochrone").
 *
 * Per subject:
 * 1. Every amenity within the 1,200 m band is visited in the flatbush index; the ring out to
 *    {@link DECAY_LIMIT_M} only when some category could still gain points from it.
 * 2. Each amenity's straight-line distance d becomes an adjusted distance
 *    `d * f + penalty`: f is the regional-slope factor (Tobler; distance-decay.ts) and the penalty adds
 *    {@link BARRIER_PENALTY_M} once for each barrier kind (motorway, major water) the straight line crosses
 *    with no pedestrian crossing point within {@link CROSSING_TOLERANCE_M} of where it crosses. The penalty
 *    is the least extra walk that rule implies: the nearest crossing is more than 200 m away along the
 *    barrier, so reaching it and coming back costs at least 2 x 200 m. It is a lower bound, not a route.
 * 3. Scenarios: for each of the 8 categories and 3 bands (400/800/1,200 m), the straight-line count, the
 *    count whose adjusted distance stays inside the band, and whether the category is met in the band.
 * 4. Category score: the rank-weighted decayed points of the category's nearest amenities by adjusted
 *    distance (categories.ts, distance-decay.ts) over the category's maximum; the overall score is every
 *    answered category's points over their summed maximum, times 100.
 *
 * Checks that could not answer (a layer failed to load or a read failed) are `degraded` in `coverage`, and
 * the result's `delivery_contract.cacheable` is false so the long-lived score cache never pins it.
 */
import { tenThousandth, WALK_DISCLAIMER, WALK_WORDS, wholeMetres } from './walkability-describe.js';
import { component, clampScore, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import { distanceMetres, metresPerDegree } from '../../geo/distance.js';
import { radiusBox } from '../../vector/metric-search.js';
import { regionalSlope } from '../../raster/terrain-slope.js';
import { cellSizeMetres } from '../../raster/sample.js';
import { resolveLayer, type MissingLayer, type RasterInput } from '../../score-kit/layer-input.js';
import { BARRIER_MOTORWAY, BARRIER_WATER, BarrierField } from './barrier-field.js';
import { categoryWeight, NO_CATEGORY, RANK_WEIGHTS, WALK_CATEGORIES, type WalkCategory } from './categories.js';
import { DECAY_LIMIT_M, distanceDecay, toblerSlopeFactor, WALK_BAND_MINUTES, WALK_BANDS_M, WALKING_SPEED_M_PER_MIN } from './distance-decay.js';
import { walkingAreas, type WalkingAreas } from './walking-areas.js';
import type { IndexedLayer, WalkabilityIndexes } from './walkability-layers.js';

/** Added to the adjusted distance per barrier kind crossed with no crossing point nearby, metres (2 x 200 m). */
export const BARRIER_PENALTY_M = 400;
/** A crossing point within this distance of where a line crosses a barrier relieves it, metres. */
export const CROSSING_TOLERANCE_M = 200;
/** Radius over which the regional slope is averaged, metres (the 15-minute band). */
export const SLOPE_RADIUS_M = 1200;

/** The regional slope input: a gradient worked out from the DEM, with its provenance. */
export interface WalkSlopeInput {
  /** Mean gradient magnitude (rise/run) over {@link SLOPE_RADIUS_M}. */
  gradient: number;
  source: string;
  /** DEM resolution, metres. */
  resolution: number | null;
}

/** Options of {@link computeWalkability}. */
export interface WalkabilityOptions {
  /** Regional slope; null or absent means no DEM is held (not integrated). */
  slope?: WalkSlopeInput | MissingLayer | null;
  /** Add `walking_areas` (include_geometry=1). Default false. */
  includeGeometry?: boolean;
}

/** How a check answered. */
export type CheckStatus = 'answered' | 'degraded' | 'not_integrated';

/** One of the 24 scenarios. */
export interface WalkScenario {
  /** e.g. `grocery_400m`. */
  id: string;
  category: WalkCategory;
  band_m: number;
  minutes: number;
  /** Amenities of the category within the band, straight-line. */
  count: number;
  /** Those whose adjusted distance (slope, barriers) also stays within the band. */
  reachable_count: number;
  /** True when at least one amenity is reachable within the band; null when the category's data did not answer. */
  met: boolean | null;
}

/** A category's score and its evidence. */
export interface CategoryScore {
  /** 0-100; null when the category's data did not answer. */
  score: number | null;
  level: Level;
  /** The category's maximum points (sum of its rank weights). */
  weight: number;
  /** Rank weights applied to the nearest amenities. */
  rank_weights: number[];
  /** Amenities that earned points (at most the number of rank weights). */
  counted: number;
  /** Straight-line metres to the nearest amenity of the category (within 2,400 m), else null. */
  nearest_m: number | null;
  /** Adjusted metres to the best-placed amenity, else null. */
  nearest_adjusted_m: number | null;
  /** Index of the nearest amenity in the amenity index (for naming it on the main thread). */
  nearest_index: number | null;
  /** Name and id of the nearest amenity when labels are at hand. */
  nearest_name?: string | null;
  nearest_id?: string | null;
  /** Counted amenities whose straight line was penalised for a barrier. */
  barrier_penalised: number;
  /** True when a counted or banded amenity of the category came from the crowd-sourced dataset. */
  crowd_sourced: boolean;
  component: ScoreComponent<number | null>;
}

/** `scores.walkability`. */
export interface WalkabilityScore {
  /** 0-100, higher is more walkable; null when no amenity data answered. */
  score: number | null;
  level: Level;
  disclaimer: string;
  screening_contract: {
    method: 'straight_line_distance_bands';
    scenario_count: 24;
    categories: WalkCategory[];
    bands: { band_m: number; minutes: number }[];
    walking_speed_m_per_min: number;
    distance_decay: string;
    weighting: string;
    adjustments: string[];
    not_included: string[];
  };
  coverage: {
    amenities: { status: CheckStatus; sets: { name: string; status: CheckStatus; sources: string[]; reason: string | null }[]; degraded_categories: WalkCategory[] };
    motorway_check: { status: CheckStatus; source: string | null; reason: string | null; penalised_amenities: number };
    major_water_check: { status: CheckStatus; source: string | null; reason: string | null; penalised_amenities: number };
    crossing_points: { status: CheckStatus; source: string | null; reason: string | null };
    regional_slope: { status: CheckStatus; source: string | null; reason: string | null };
  };
  delivery_contract: {
    /** False when any check degraded: the long-lived score cache must not keep this result. */
    cacheable: boolean;
    cache_policy: 'long_lived' | 'do_not_pin';
    degraded_checks: string[];
    geometry: 'included' | 'omitted';
    straight_line_only: true;
  };
  category_scores: Record<WalkCategory, CategoryScore>;
  scenarios: WalkScenario[];
  adjustments: {
    slope_factor: number;
    regional_gradient: number | null;
    barrier_penalty_m: number;
    crossing_tolerance_m: number;
  };
  /** Categories drawing on the crowd-sourced dataset in this result. */
  osm_amenity_categories: WalkCategory[];
  walking_areas?: WalkingAreas;
  components: {
    regional_slope: ScoreComponent<number | null>;
    motorway_barrier: ScoreComponent<number | null>;
    major_water_barrier: ScoreComponent<number | null>;
  };
  sources: string[];
  caveat: string;
}

const DISCLAIMER = WALK_DISCLAIMER;

function checkStatusOf(status: 'available' | MissingLayer['status']): CheckStatus {
  return status === 'available' ? 'answered' : status === 'unavailable' ? 'degraded' : 'not_integrated';
}

function layerInfo<I>(l: IndexedLayer<I>): { index: I | null; status: CheckStatus; source: string | null; reason: string | null } {
  return l.status === 'available' ? { index: l.index, status: 'answered', source: l.source, reason: null } : { index: null, status: checkStatusOf(l.status), source: null, reason: l.reason ?? null };
}

/** The worse of two check statuses (degraded > not_integrated > answered). */
function worse(a: CheckStatus, b: CheckStatus): CheckStatus {
  const rank = { answered: 0, not_integrated: 1, degraded: 2 } as const;
  return rank[a] >= rank[b] ? a : b;
}

/** The regional slope input from a DEM (null when the DEM does not cover the 1,200 m disc). */
export function walkSlopeFromDem(dem: RasterInput, lon: number, lat: number): WalkSlopeInput | MissingLayer | null {
  const r = resolveLayer(dem);
  if (!r.layer) return r.status === 'not_integrated' ? null : { status: 'unavailable', reason: r.reason ?? 'DEM unavailable' };
  const s = regionalSlope(r.layer.grid, lon, lat, SLOPE_RADIUS_M);
  if (!s) return { status: 'unavailable', reason: `${r.layer.source}: no elevations within ${SLOPE_RADIUS_M} m of the subject` };
  return { gradient: s.meanGradient, source: r.layer.source, resolution: cellSizeMetres(r.layer.grid, lat) };
}

/** Computes `scores.walkability` for one subject. */
export function computeWalkability(ix: WalkabilityIndexes, lon: number, lat: number, options: WalkabilityOptions = {}): WalkabilityScore {
  const NC = WALK_CATEGORIES.length;
  const NB = WALK_BANDS_M.length;
  const maxRank = Math.max(...WALK_CATEGORIES.map((c) => RANK_WEIGHTS[c].length));

  // Slope.
  const slopeIn = options.slope;
  const slopeMissing = !slopeIn || 'status' in slopeIn;
  const slope = slopeMissing ? null : (slopeIn as WalkSlopeInput);
  const slopeStatus: CheckStatus = slope ? 'answered' : checkStatusOf((slopeIn as MissingLayer | null)?.status ?? 'not_integrated');
  const f = slope ? toblerSlopeFactor(slope.gradient) : 1;

  // Barriers: a barrier kind is checked only when its layer and the crossing points both answered.
  const mw = layerInfo(ix.motorways);
  const wt = layerInfo(ix.majorWater);
  const cr = layerInfo(ix.crossings);
  const checkMotorway = mw.index !== null && cr.index !== null;
  const checkWater = wt.index !== null && cr.index !== null;
  const barrierLayers = { motorway: checkMotorway ? mw.index : null, water: checkWater ? wt.index : null, crossings: cr.index };
  const lastBand = WALK_BANDS_M[WALK_BANDS_M.length - 1];
  // The field first covers the 15-minute disc: a line to an amenity within it crosses only barriers within it.
  let field = checkMotorway || checkWater ? BarrierField.around(lon, lat, lastBand, barrierLayers, CROSSING_TOLERANCE_M) : null;

  // Which categories answered.
  const categoryAnswered = new Uint8Array(NC);
  const degradedCategories = new Set<WalkCategory>();
  for (const s of ix.sets) {
    for (const c of s.categories) {
      const k = WALK_CATEGORIES.indexOf(c);
      if (s.status === 'available') categoryAnswered[k] = 1;
      else if (s.status === 'unavailable') degradedCategories.add(c);
    }
  }
  for (const c of degradedCategories) categoryAnswered[WALK_CATEGORIES.indexOf(c)] = 0;

  // Per-category state: the best `maxRank` adjusted distances (ascending) with their ids and barrier
  // masks, band counts, and the nearest amenity.
  const topAdj = new Float64Array(NC * maxRank).fill(Infinity);
  const topPen = new Uint8Array(NC * maxRank);
  const topId = new Int32Array(NC * maxRank).fill(-1);
  const topCount = new Uint8Array(NC);
  const counts = new Int32Array(NC * NB);
  const reach = new Int32Array(NC * NB);
  const nearestD = new Float64Array(NC).fill(Infinity);
  const nearestId = new Int32Array(NC).fill(-1);
  const crowdUsed = new Uint8Array(NC);
  const penalisedByKind = [0, 0];
  const usedSources = new Set<number>();
  const { kx, ky } = metresPerDegree(lat);
  const coords = ix.amenities.coords;
  const rankCount = Uint8Array.from(WALK_CATEGORIES, (c) => RANK_WEIGHTS[c].length);
  /** Marks an amenity as used: it is in a band or among the final ranked ones. */
  const use = (id: number, mask: number): void => {
    if (ix.crowd[id]) crowdUsed[ix.category[id]] = 1;
    usedSources.add(ix.sourceCode[id]);
    if (mask & BARRIER_MOTORWAY) penalisedByKind[0]++;
    if (mask & BARRIER_WATER) penalisedByKind[1]++;
  };

  const consider = (id: number, d: number): void => {
    const c = ix.category[id];
    if (c === NO_CATEGORY || !categoryAnswered[c]) return;
    const k = rankCount[c];
    const base = c * maxRank;
    if (d < nearestD[c]) {
      nearestD[c] = d;
      nearestId[c] = id;
    }
    // Past the last band only the ranked points matter; adjusted >= d * f, so nothing can enter a category
    // whose k-th best is already nearer than that.
    if (d > lastBand && (d * f >= DECAY_LIMIT_M || (topCount[c] >= k && topAdj[base + k - 1] <= d * f))) return;
    const mask = field ? field.check((coords[2 * id] - lon) * kx, (coords[2 * id + 1] - lat) * ky) : 0;
    const adj = d * f + ((mask & BARRIER_MOTORWAY) ? BARRIER_PENALTY_M : 0) + ((mask & BARRIER_WATER) ? BARRIER_PENALTY_M : 0);
    if (d <= lastBand) {
      for (let b = 0; b < NB; b++) {
        if (d <= WALK_BANDS_M[b]) counts[c * NB + b]++;
        if (adj <= WALK_BANDS_M[b]) reach[c * NB + b]++;
      }
      use(id, mask);
    }
    // Insert into the category's ranked list (insertion sort over at most 5 entries).
    if (topCount[c] < k || adj < topAdj[base + k - 1]) {
      let j = Math.min(topCount[c], k - 1);
      while (j > 0 && topAdj[base + j - 1] > adj) {
        topAdj[base + j] = topAdj[base + j - 1];
        topPen[base + j] = topPen[base + j - 1];
        topId[base + j] = topId[base + j - 1];
        j--;
      }
      topAdj[base + j] = adj;
      topPen[base + j] = mask;
      topId[base + j] = id;
      if (topCount[c] < k) topCount[c]++;
    }
  };

  // Visits the index's box search with a filter that keeps nothing: no hit objects, no sort (nothing below
  // depends on visiting order).
  const visit = (radius: number, from: number): void => {
    const [x0, y0, x1, y1] = radiusBox(lon, lat, radius);
    ix.amenities.search(x0, y0, x1, y1, (id) => {
      const d = distanceMetres(lon, lat, coords[2 * id], coords[2 * id + 1]);
      if (d <= radius && d > from) consider(id, d);
      return false;
    });
  };
  // Pass 1: the 15-minute disc, where every amenity counts for the bands.
  visit(lastBand, -1);
  // Pass 2, only when a category could still gain points from farther away: the ring out to the decay limit.
  // A category is settled when its k-th best adjusted distance is no more than the disc edge times f, the
  // least any amenity outside the disc can be adjusted to.
  let settled = true;
  for (let c = 0; c < NC && settled; c++) {
    if (categoryAnswered[c] && (topCount[c] < rankCount[c] || topAdj[c * maxRank + rankCount[c] - 1] > lastBand * f)) settled = false;
  }
  if (!settled && lastBand * f < DECAY_LIMIT_M) {
    if (field) field = BarrierField.around(lon, lat, DECAY_LIMIT_M, barrierLayers, CROSSING_TOLERANCE_M);
    visit(DECAY_LIMIT_M, lastBand);
  }
  // Ranked amenities from the ring count as used too (those in the disc already are).
  for (let c = 0; c < NC; c++) {
    for (let r = 0; r < topCount[c]; r++) {
      const id = topId[c * maxRank + r];
      if (id >= 0 && topAdj[c * maxRank + r] < DECAY_LIMIT_M && distanceMetres(lon, lat, coords[2 * id], coords[2 * id + 1]) > lastBand) use(id, topPen[c * maxRank + r]);
    }
  }

  // Scores.
  const slopeSource = slope?.source ?? null;
  const categoryScores = {} as Record<WalkCategory, CategoryScore>;
  let points = 0;
  let maxPoints = 0;
  for (let c = 0; c < NC; c++) {
    const cat = WALK_CATEGORIES[c];
    const weights = RANK_WEIGHTS[cat];
    const weight = categoryWeight(cat);
    const base = c * maxRank;
    const answered = categoryAnswered[c] === 1;
    let pts = 0;
    let counted = 0;
    let penalised = 0;
    for (let r = 0; r < topCount[c]; r++) {
      const dec = distanceDecay(topAdj[base + r]);
      if (dec <= 0) continue;
      pts += weights[r] * dec;
      counted++;
      if (topPen[base + r]) penalised++;
    }
    if (answered) {
      points += pts;
      maxPoints += weight;
    }
    const score = answered ? clampScore((100 * pts) / weight) : null;
    const nid = nearestId[c];
    const set = ix.sets.find((s) => s.categories.includes(cat));
    const nearestSource = nid >= 0 ? ix.sourceIds[ix.sourceCode[nid]] : null;
    categoryScores[cat] = {
      score,
      level: levelOf(score),
      weight,
      rank_weights: [...weights],
      counted,
      nearest_m: nid >= 0 ? wholeMetres(nearestD[c]) : null,
      nearest_adjusted_m: topCount[c] > 0 && Number.isFinite(topAdj[base]) && topAdj[base] < DECAY_LIMIT_M ? wholeMetres(topAdj[base]) : null,
      nearest_index: nid >= 0 ? nid : null,
      ...(ix.labels && nid >= 0 ? { nearest_name: ix.labels.names[nid] || null, nearest_id: ix.labels.ids[nid] ?? null } : {}),
      barrier_penalised: penalised,
      crowd_sourced: crowdUsed[c] === 1,
      component: component({
        value: score,
        unit: 'score',
        level: levelOf(score),
        resolution: null,
        source: answered ? (nearestSource ?? set?.sources[0] ?? null) : null,
        caveat: WALK_WORDS.category(cat, answered, set),
      }),
    };
  }
  const anyAnswered = maxPoints > 0;
  const score = anyAnswered ? clampScore((100 * points) / maxPoints) : null;

  // Scenarios.
  const scenarios: WalkScenario[] = [];
  for (let c = 0; c < NC; c++) {
    for (let b = 0; b < NB; b++) {
      const answered = categoryAnswered[c] === 1;
      scenarios.push({
        id: `${WALK_CATEGORIES[c]}_${WALK_BANDS_M[b]}m`,
        category: WALK_CATEGORIES[c],
        band_m: WALK_BANDS_M[b],
        minutes: WALK_BAND_MINUTES[b],
        count: counts[c * NB + b],
        reachable_count: reach[c * NB + b],
        met: answered ? reach[c * NB + b] > 0 : null,
      });
    }
  }

  // Coverage and the delivery contract.
  const setCoverage = ix.sets.map((s) => ({ name: s.name, status: checkStatusOf(s.status), sources: s.sources, reason: s.reason }));
  const amenityStatus: CheckStatus = setCoverage.some((s) => s.status === 'degraded') ? 'degraded' : setCoverage.some((s) => s.status === 'answered') ? 'answered' : 'not_integrated';
  const crossingReason = cr.index ? null : WALK_WORDS.crossingsMissing(cr.status, cr.reason ?? null);
  const motorwayCheck = { status: worse(mw.status, cr.status), source: mw.source, reason: mw.reason ?? (mw.index ? crossingReason : null), penalised_amenities: penalisedByKind[0] };
  const waterCheck = { status: worse(wt.status, cr.status), source: wt.source, reason: wt.reason ?? (wt.index ? crossingReason : null), penalised_amenities: penalisedByKind[1] };
  const coverage: WalkabilityScore['coverage'] = {
    amenities: { status: amenityStatus, sets: setCoverage, degraded_categories: [...degradedCategories] },
    motorway_check: motorwayCheck,
    major_water_check: waterCheck,
    crossing_points: { status: cr.status, source: cr.source, reason: cr.reason },
    regional_slope: { status: slopeStatus, source: slopeSource, reason: slope ? null : ((slopeIn as MissingLayer | null)?.reason ?? 'no DEM held') },
  };
  const degraded = Object.entries(coverage).filter(([, v]) => v.status === 'degraded').map(([k]) => k);
  const sources = [...new Set([...[...usedSources].map((s) => ix.sourceIds[s]), mw.index ? mw.source : null, wt.index ? wt.source : null, cr.index ? cr.source : null, slopeSource].filter((s): s is string => !!s))].sort();

  const result: WalkabilityScore = {
    score,
    level: levelOf(score),
    disclaimer: DISCLAIMER,
    screening_contract: {
      method: 'straight_line_distance_bands',
      scenario_count: 24,
      categories: [...WALK_CATEGORIES],
      bands: WALK_BANDS_M.map((b, i) => ({ band_m: b, minutes: WALK_BAND_MINUTES[i] })),
      walking_speed_m_per_min: WALKING_SPEED_M_PER_MIN,
      distance_decay: WALK_WORDS.distanceDecay,
      weighting: WALK_WORDS.weighting,
      adjustments: WALK_WORDS.adjustments(SLOPE_RADIUS_M, BARRIER_PENALTY_M, CROSSING_TOLERANCE_M),
      not_included: ['route_network', 'crossing_calculation', 'travel_time', 'isochrones'],
    },
    coverage,
    delivery_contract: {
      cacheable: degraded.length === 0,
      cache_policy: degraded.length === 0 ? 'long_lived' : 'do_not_pin',
      degraded_checks: degraded,
      geometry: options.includeGeometry ? 'included' : 'omitted',
      straight_line_only: true,
    },
    category_scores: categoryScores,
    scenarios,
    adjustments: { slope_factor: tenThousandth(f), regional_gradient: slope ? tenThousandth(slope.gradient) : null, barrier_penalty_m: BARRIER_PENALTY_M, crossing_tolerance_m: CROSSING_TOLERANCE_M },
    osm_amenity_categories: WALK_CATEGORIES.filter((_, c) => crowdUsed[c] === 1),
    components: {
      regional_slope: component({
        value: slope ? tenThousandth(slope.gradient) : null,
        unit: 'gradient',
        level: slope ? levelOf(Math.min(100, slope.gradient * 500)) : 'unknown',
        resolution: slope?.resolution ?? null,
        source: slopeSource,
        caveat: WALK_WORDS.slope(!!slope),
      }),
      motorway_barrier: component({
        value: checkMotorway ? penalisedByKind[0] : null,
        unit: 'count',
        level: 'unknown',
        resolution: null,
        source: checkMotorway ? mw.source : null,
        caveat: WALK_WORDS.motorway(checkMotorway, motorwayCheck.reason ?? motorwayCheck.status),
      }),
      major_water_barrier: component({
        value: checkWater ? penalisedByKind[1] : null,
        unit: 'count',
        level: 'unknown',
        resolution: null,
        source: checkWater ? wt.source : null,
        caveat: WALK_WORDS.majorWater(checkWater, waterCheck.reason ?? waterCheck.status),
      }),
    },
    sources,
    caveat: WALK_WORDS.scoreCaveat(degraded),
  };
  if (options.includeGeometry) result.walking_areas = walkingAreas(lon, lat);
  return result;
}
