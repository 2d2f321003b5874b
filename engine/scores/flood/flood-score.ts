/**
 * scores.flood: a modelled 0-100 flood-exposure estimate (100 = most flood-prone) from terrain (HAND), the
 * distance to mapped water, design rainfall, a flood study's modelled depth and verified overlay mapping.
 * A screening estimate: where a mapped layer disagrees, the mapped layer is authoritative (spec 1).
 *
 * The formula. Each input gives a 0-100 sub-score; the score is their weighted mean over the inputs that
 * are available, then floored where official mapping says flood-prone:
 *
 *   score = sum(w_i * s_i) / sum(w_i)   over available i in {terrain, water, study, overlay}
 *   score = max(score, 60) when a verified flood overlay covers the address or the study depth is > 0
 *   score = max(score, 80) when that overlay is a floodway
 *
 * Terrain, w = 0.40: `s = 100 / (1 + (HAND / H)^2)`, where H is an indicative 1 % AEP flood height above the
 * subject's nearest drainage (50 when HAND = H, 80 at H / 2, 10 at 3 H). H grows with the drainage's
 * catchment and the design rainfall: time of concentration `tc = 0.76 A^0.38` h (A km2; Pilgrim &
 * McDermott 1982, ARR 1987 Book IV), rainfall intensity `I = I1h * tc^-0.7` mm/h (a typical slope of
 * Australian IFD curves between 10 min and 24 h; indicative, not read from the IFD tables), rational-method
 * peak flow `Q = 0.278 C I A` m3/s with C = 0.7 (ARR 1987 Book IV; a 1 % AEP urban coefficient), and flow
 * depth `H = 0.41 Q^0.40` m (Leopold & Maddock 1953 at-a-station depth exponent 0.40, with the 0.41 m depth
 * at 1 m3/s of Raymond et al. 2012), clamped to 0.3-15 m. So, with 60 mm in the hour, a cell 1 m above a
 * 5 ha gully (H ~ 0.5 m) scores about 19, the same cell 1 m above a 50 km2 creek (H ~ 3.7 m) about 93. The pairing of these
 * relations is a screening choice, not a calibrated hydraulic model. Terrain has the largest weight
 * because it is available wherever the DEM is, and is the only input resolved at the address itself (5 m).
 * Without a rainfall raster, I1h = {@link DEFAULT_I1H_MM} mm is assumed and the component says so.
 *
 * Water proximity, w = 0.15: `s = 100 exp(-d / d0)`, d the distance to the nearest mapped watercourse or
 * water body, d0 = 300 m for rivers, 150 m for streams, canals and water bodies, 75 m for drains (floodplain
 * widths scale with the watercourse). Small weight: water nearby is necessary, not sufficient, and HAND
 * already carries most of what proximity says.
 *
 * Flood study, w = 0.30: where a study raster covers the address, `s = min(100, 60 + 40 depth / 1 m)` for a
 * modelled 1 % AEP depth above 0 (any modelled inundation is flood-prone; 0.5 m reaches 80, where AIDR 2017
 * hazard curves make still water unsafe for small vehicles and children), and 5 where the study shows the
 * cell dry. Second-largest weight: a hydraulic model of the actual catchment is the best evidence held, but
 * studies cover few places (spec 8: a library of study rasters, not national; the caveat counts those held).
 *
 * Official overlay, w = 0.15: verified overlay hit: floodway 100, flood control 85, overland flow 70; a
 * verified statewide source that does not cover the address: 0; partial or unverified mapping: not used
 * (a miss proves nothing). The SA evidence-required control is neutral and not used. Small weight because
 * overlays are binary planning boundaries; they act mainly through the floors, which keep the score from
 * reading low where an official map says flood-prone.
 *
 * How the mapped layer is authoritative (spec 1, 2.6). The score never contradicts a verified hit: the floors
 * put it at `high` (60) or, for a floodway, `very_high` (80) whatever terrain says, and a study that models
 * depth at the address floors it the same way. A verified statewide miss (`checked_no_hit`) enters as the
 * overlay sub-score 0 and pulls the estimate down, but does not cap it: a flood overlay maps the designated
 * 1 % AEP extent only, so unmapped overland flow, rarer floods and low ground beside small channels can
 * still read high from terrain; the authoritative answer to "is it in a mapped flood area" stays in
 * `official_layer`, which the caveat points to. The SA evidence-required control is a `hit` with neither
 * a floor nor a sub-score (a trigger, not a severity), and a partial, unverified or failed overlay check
 * adds nothing (a miss there proves nothing).
 */
import { describeFlood } from './flood-describe.js';
import type { FloodEvidence, FloodFindings, FloodScore, OverlayFinding, StudyFinding, TerrainFinding, WaterFinding } from './flood-types.js';
export type { FloodEvidence, FloodFindings, FloodScore, FloodWeights, HandEvidence, HazardClass, OverlayFinding, StudyFinding, StudyLibrary, TerrainFinding, WaterFinding } from './flood-types.js';

/** Weights of the four sub-scores (see the file comment for why). */
export const FLOOD_WEIGHTS = { terrain: 0.4, water: 0.15, study: 0.3, overlay: 0.15 } as const;
/** Floor when a verified flood overlay covers the address or a study models depth there. */
export const MAPPED_FLOOR = 60;
/** Floor when a verified floodway overlay covers the address. */
export const FLOODWAY_FLOOR = 80;
/** 1 % AEP 1-hour rainfall assumed without a design-rainfall raster, mm (a mid-range Australian capital-city value; indicative). */
export const DEFAULT_I1H_MM = 60;
/** Runoff coefficient for the rational method, 1 % AEP (ARR 1987 Book IV range for urban catchments). */
export const RUNOFF_COEFFICIENT = 0.7;

/** Overlay sub-scores by kind (see the file comment). */
export const OVERLAY_SCORES = { floodway: 100, flood_control: 85, overland_flow: 70 } as const;
/** Proximity decay lengths by watercourse kind, metres. */
export const WATER_DECAY_M: Readonly<Record<string, number>> = { river: 300, stream: 150, canal: 150, water_body: 150, drain: 75 };

/** Indicative 1 % AEP flood height above a drainage with catchment `areaKm2` under rainfall `i1hMm`, metres. */
export function indicativeFloodHeight(areaKm2: number, i1hMm: number): number {
  const a = Math.max(0.001, areaKm2);
  const tc = Math.min(48, Math.max(1 / 6, 0.76 * a ** 0.38));
  const intensity = i1hMm * tc ** -0.7;
  const q = 0.278 * RUNOFF_COEFFICIENT * intensity * a;
  return Math.min(15, Math.max(0.3, 0.41 * q ** 0.4));
}

/** Terrain sub-score for HAND `hand` metres under an indicative flood height `height` metres. */
export function terrainSubScore(hand: number, height: number): number {
  const r = Math.max(0, hand) / height;
  return 100 / (1 + r * r);
}

/** Water-proximity sub-score for a distance in metres to water of `kind`. */
export function waterSubScore(distance: number, kind: string): number {
  return 100 * Math.exp(-Math.max(0, distance) / (WATER_DECAY_M[kind] ?? 150));
}

/** Study sub-score for a modelled 1 % AEP depth in metres (0 = the study shows the cell dry). */
export function studySubScore(depth: number): number {
  return depth > 0 ? Math.min(100, 60 + 40 * depth) : 5;
}

/** Weighs the evidence (pure; see the file comment for the formula): numbers and codes, no words. */
export function weighFlood(ev: FloodEvidence): FloodFindings {
  const sub: FloodFindings['sub'] = {};
  const rainfallMm = ev.rainfall?.depth_mm ?? DEFAULT_I1H_MM;

  let floodHeight: number | null = null;
  let terrain: TerrainFinding;
  const hand = ev.hand;
  if (hand && hand.ok && hand.hand_m !== null && hand.drainage) {
    floodHeight = indicativeFloodHeight(hand.drainage.contributing_area_km2, rainfallMm);
    sub.terrain = terrainSubScore(hand.hand_m, floodHeight);
    terrain = { code: 'scored', hand_m: hand.hand_m, drainage: hand.drainage, sub: sub.terrain };
  } else terrain = !hand ? { code: 'no_dem' } : hand.ok ? { code: 'flow_leaves_area' } : { code: 'failed', failure: hand.code, message: hand.message };

  let water: WaterFinding;
  if (ev.water === 'unavailable') water = { code: 'unavailable' };
  else if (ev.water === null) water = { code: 'none_within_2km', sub: (sub.water = 0) };
  else water = { code: 'found', water: ev.water, sub: (sub.water = waterSubScore(ev.water.distance_m, ev.water.kind)) };

  const study: StudyFinding = ev.study ? { code: 'modelled', depth_m: ev.study.depth_m, sub: (sub.study = studySubScore(ev.study.depth_m)) } : { code: 'none' };

  const verifiedHits = ev.overlays.hits.filter((h) => h.verified && h.kind !== 'flood_evidence' && ev.overlays.official.overlay_basis.sources.some((s) => s.source === h.source && s.used_in_score));
  const basis = ev.overlays.official.overlay_basis.status;
  let overlay: OverlayFinding;
  if (verifiedHits.length > 0) {
    const best = Math.max(...verifiedHits.map((h) => OVERLAY_SCORES[h.kind as keyof typeof OVERLAY_SCORES]));
    sub.overlay = best;
    overlay = { code: 'verified_hit', top: verifiedHits.find((h) => OVERLAY_SCORES[h.kind as keyof typeof OVERLAY_SCORES] === best)!, sub: best, floodway: verifiedHits.some((h) => h.kind === 'floodway') };
  } else if (ev.overlays.official.official_layer === 'hit') {
    overlay = { code: 'evidence_required', source: ev.overlays.hits.find((h) => h.verified)?.source ?? null };
  } else if (basis === 'verified_statewide') {
    overlay = { code: 'statewide_no_hit', source: ev.overlays.official.overlay_basis.sources.find((s) => s.used_in_score && s.coverage === 'complete')?.source ?? null, sub: (sub.overlay = 0) };
  } else overlay = { code: basis === 'no_source' ? 'no_source' : 'partial_or_unverified' };

  let num = 0;
  let den = 0;
  for (const k of Object.keys(sub) as (keyof typeof FLOOD_WEIGHTS)[]) {
    num += FLOOD_WEIGHTS[k] * sub[k]!;
    den += FLOOD_WEIGHTS[k];
  }
  let score: number | null = den > 0 ? num / den : null;
  let floor: number | null = null;
  const mapped = overlay.code === 'verified_hit' || (ev.study !== null && ev.study.depth_m > 0);
  if (mapped) floor = overlay.code === 'verified_hit' && overlay.floodway ? FLOODWAY_FLOOR : MAPPED_FLOOR;
  if (score !== null && floor !== null) score = Math.max(score, floor);
  if (score === null && floor !== null) score = floor;
  return { score, floor: floor !== null && score === floor ? floor : null, sub, weights: FLOOD_WEIGHTS, floodHeight, rainfallMm, terrain, water, study, overlay };
}

/** Scores the evidence: {@link weighFlood}, worded and rounded by {@link describeFlood}. */
export function scoreFlood(ev: FloodEvidence): FloodScore {
  return describeFlood(ev, weighFlood(ev));
}
