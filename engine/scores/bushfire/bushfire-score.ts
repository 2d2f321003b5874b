/**
 * `scores.bushfire` (spec 2.6; spec 1: pre-screening only, not a certified BAL assessment, not for building
 * approval, no accuracy SLA; BAL must not be inferred from the 0-100 score).
 *
 * Three things are reported and kept apart:
 * 1. Official mapping: the state's bushfire-prone-area overlay. `official_zone_status` comes only from it
 *    (`hit`, `checked_no_hit`, `checked_partial_coverage`, `none` when no overlay is held for the state,
 *    `unavailable` when the lookup failed). A modelled value never fills an unavailable official lookup.
 * 2. The modelled 0-100 exposure score from vegetation fuel, terrain slope and fire history:
 *      score = 100 (0.75 F (0.8 + 0.2 T) + 0.25 H), raised to at least {@link OFFICIAL_FLOOR} on an official hit.
 *    F: max over vegetation within {@link FUEL_REACH_M} of hazard(class) (1 - d / 700). The linear fall to
 *       zero at 700 m follows Chen & McAneney (2004), "Quantifying bushfire penetration into urban areas in
 *       Australia", Geophys. Res. Lett. 31 L12212: house loss falls linearly with distance from bushland and
 *       is rare beyond about 700 m. hazard(class) is the class's flat-land BAL-19 outer distance over
 *       forest's in the same Method 1 table (forest 1, woodland 0.69, scrub 0.56, ... at FDI 100): the
 *       table's radiant-heat distances used as a relative intensity.
 *    T: regional slope within 250 m over 20 degrees (Method 1's limit), capped at 1; steeper land carries
 *       fire faster (McArthur: rate of spread doubles per 10 degrees of upslope).
 *    H: max over mapped bushfires (not prescribed burns) within 2 km of (1 - d / 2000). Our choice.
 *    Weights 0.75 / 0.25 and the slope amplifier are ours, not calibrated.
 * 3. The indicative BAL, from AS 3959-2009 Method 1 (as3959-method1.ts) over the classified vegetation
 *    within 100 m, its effective slope from the DEM and its distance: never from the score.
 */
import { component, clampScore, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import { BUSHFIRE_DISCLAIMER, BUSHFIRE_LEVEL_LABEL, BUSHFIRE_WORDS, tenth, thousandth } from './bushfire-describe.js';
export { BUSHFIRE_DISCLAIMER } from './bushfire-describe.js';
import { cellSizeMetres } from '../../raster/sample.js';
import { resolveLayer, type MissingLayer, type RasterInput } from '../../score-kit/layer-input.js';
import { regionalSlope } from '../../raster/terrain-slope.js';
import {
  ASSESSMENT_DISTANCE_M,
  BAL_BANDS,
  balRank,
  FDI_TABLE,
  fdiForState,
  method1Bal,
  method1Limits,
  slopeClassOf,
  type BalBand,
  type SlopeClass,
  type TableFdi,
  type VegetationClass,
} from './as3959-method1.js';
import { overlayCategory, type BushfireLayers, type OfficialOverlayLayer } from './bushfire-layers.js';
import { effectiveSlope } from './effective-slope.js';
import { nearestBoundaryPoint } from './nearest-polygon-point.js';

/** Vegetation farther than this adds no fuel term, metres (Chen & McAneney 2004). */
export const FUEL_REACH_M = 700;
/** Mapped bushfires farther than this add nothing, metres. Our choice. */
export const FIRE_HISTORY_REACH_M = 2000;
/** Radius of the regional slope, metres. */
export const TERRAIN_RADIUS_M = 250;
/** Least score when the official overlay covers the subject (moderate). */
export const OFFICIAL_FLOOR = 40;

/** The spec 1 disclaimer, carried on every result. */

/** Who the subject is: a resolved address (on its parcel or not) or a bare coordinate. */
export type SubjectIdentity = { kind: 'address'; address: string; parcelId?: string | null; onParcel: boolean } | { kind: 'coordinate' };

/** The subject of a bushfire screening. */
export interface BushfireSubject {
  lon: number;
  lat: number;
  /** State or territory abbreviation (VIC, NSW, ...); null when undetermined. */
  state: string | null;
  /** Default: a bare coordinate. */
  identity?: SubjectIdentity;
}

/** Options of {@link bushfireScore}. */
export interface BushfireOptions {
  /** DEM covering at least 250 m around the subject (effective slope and terrain). */
  dem?: RasterInput;
  /** Override the state's FDI (a caller that knows the fire weather district). */
  fdi?: TableFdi;
  /** Positional tolerance of the vegetation mapping, metres; default 10. Widens the BAL range. */
  vegetationToleranceM?: number;
  /** Tolerance of the DEM-derived effective slope, degrees; default 2. Widens the BAL range. */
  slopeToleranceDeg?: number;
}

/** Status of one input in `coverage` (spec 2.6). */
export type BushfireCoverageStatus = 'returned' | 'unavailable' | 'not_integrated';

/** `official_zone_status` values (the flood score's `official_layer` vocabulary plus `unavailable`). */
export type OfficialZoneStatus = 'hit' | 'checked_no_hit' | 'checked_partial_coverage' | 'none' | 'unavailable';

/** Status of the preliminary (indicative) BAL in the delivery contract. */
export type PreliminaryBalStatus =
  | 'indicative_screening'
  | 'indicative_screening_coordinate_only'
  | 'not_computed_vegetation_unavailable'
  | 'not_computed_vegetation_not_integrated'
  | 'method_1_not_applicable';

/** The indicative BAL (spec 2.6 `indicative_bal`). */
export interface IndicativeBal {
  bal: BalBand;
  /** Lower and upper band over the distance and slope tolerances. */
  range: [BalBand, BalBand];
  confidence: 'low' | 'moderate' | 'high';
  method: 'AS 3959-2009 Method 1';
  table: string;
  fdi: TableFdi;
  fdi_basis: string;
  /** The vegetation that sets the BAL; null when no classified vegetation is within 100 m. */
  determining_vegetation: { veg_class: VegetationClass; distance_m: number; effective_slope_deg: number | null; slope_class: SlopeClass; source: string } | null;
  assumptions: string[];
}

/** `scores.bushfire`. */
export interface BushfireScore {
  /** Modelled 0-100 exposure; null when the vegetation input did not answer. */
  score: number | null;
  level: Level;
  label: string;
  disclaimer: string;
  official_zone_status: OfficialZoneStatus;
  overlay_basis: {
    kind: 'official_mapping' | 'no_official_mapping_held' | 'official_lookup_unavailable';
    state: string | null;
    state_coverage: 'complete' | 'partial' | null;
    source: string | null;
    hits: { category: ReturnType<typeof overlayCategory>; source: string; properties: Record<string, unknown> }[];
    note: string;
  };
  coverage: { official_overlay: BushfireCoverageStatus; vegetation_fuel: BushfireCoverageStatus; terrain_slope: BushfireCoverageStatus; fire_history: BushfireCoverageStatus };
  indicative_bal: IndicativeBal | null;
  delivery_contract: {
    subject_identity: { kind: 'resolved_address_on_parcel' | 'resolved_address_not_on_parcel' | 'coordinate_only'; resolved_address_on_parcel: boolean; address: string | null; parcel_id: string | null; note: string };
    preliminary_bal: { included: boolean; status: PreliminaryBalStatus };
    official_and_modelled_kept_separate: true;
    bal_derived_from_score: false;
  };
  components: {
    official_overlay: ScoreComponent<string | null>;
    vegetation_fuel: ScoreComponent<number | null>;
    terrain_slope: ScoreComponent<number | null>;
    fire_history: ScoreComponent<number | null>;
  };
  sources: string[];
  caveat: string;
}


function coverageOf(l: { status: string }): BushfireCoverageStatus {
  return l.status === 'available' ? 'returned' : l.status === 'unavailable' ? 'unavailable' : 'not_integrated';
}

/** The official overlay lookup for the subject's state. */
function officialLookup(layers: BushfireLayers, subject: BushfireSubject): { status: OfficialZoneStatus; basis: BushfireScore['overlay_basis']; layer: OfficialOverlayLayer | null; reason: string | null } {
  const state = subject.state?.toUpperCase() ?? null;
  const o = state ? layers.officialOverlays[state] : undefined;
  if (!o || o.status === 'not_integrated') {
    return {
      status: 'none',
      layer: null,
      reason: (o as MissingLayer | undefined)?.reason ?? null,
      basis: { kind: 'no_official_mapping_held', state, state_coverage: null, source: null, hits: [], note: BUSHFIRE_WORDS.noOfficialMapping(state) },
    };
  }
  if (o.status === 'unavailable') {
    return {
      status: 'unavailable',
      layer: null,
      reason: o.reason ?? null,
      basis: { kind: 'official_lookup_unavailable', state, state_coverage: null, source: null, hits: [], note: BUSHFIRE_WORDS.officialLookupFailed(state, o.reason ?? null) },
    };
  }
  const layer = o as OfficialOverlayLayer;
  const hits = layer.index.containing(subject.lon, subject.lat).map((id) => ({ category: overlayCategory(layer.properties[id]), source: layer.source, properties: layer.properties[id] }));
  const status: OfficialZoneStatus = hits.length ? 'hit' : layer.coverage === 'complete' ? 'checked_no_hit' : 'checked_partial_coverage';
  const note = hits.length ? BUSHFIRE_WORDS.officialHit(hits.map((h) => h.category), layer.source) : layer.coverage === 'complete' ? BUSHFIRE_WORDS.officialChecked(state) : BUSHFIRE_WORDS.officialPartial(state);
  return { status, layer, reason: null, basis: { kind: 'official_mapping', state, state_coverage: layer.coverage, source: layer.source, hits, note } };
}

interface VegCandidate {
  vegClass: VegetationClass;
  distance: number;
  east: number;
  north: number;
  source: string;
}

/** The indicative BAL over the vegetation candidates within the assessment distance (plus tolerance). */
function indicativeBal(cands: VegCandidate[], dem: RasterInput, subject: BushfireSubject, fdi: TableFdi, fdiBasis: string, tol: { d: number; deg: number }): IndicativeBal | 'method_1_not_applicable' {
  const demLayer = resolveLayer(dem).layer;
  const assumptions: string[] = [];
  if (!demLayer) assumptions.push(BUSHFIRE_WORDS.noDemAssumption);
  let nominal = 0, lo = 0, hi = 0;
  let determining: IndicativeBal['determining_vegetation'] = null;
  let notApplicable = false;
  const rank = (b: BalBand | null) => (b === null ? BAL_BANDS.length - 1 : balRank(b));
  for (const c of cands) {
    if (c.vegClass === 'low_threat') continue;
    let slopeDeg: number | null = null;
    if (demLayer && c.distance > 0) slopeDeg = effectiveSlope(demLayer.grid, subject.lon, subject.lat, c.east, c.north)?.downslopeDeg ?? null;
    const nominalSlope = slopeDeg ?? 0;
    const slopeLo = slopeDeg === null ? 0 : slopeDeg - tol.deg;
    const slopeHi = slopeDeg === null ? 17.5 : slopeDeg + tol.deg;
    const bal = c.distance <= 0 ? 'BAL-FZ' : method1Bal(fdi, c.vegClass, slopeClassOf(nominalSlope), c.distance);
    if (bal === null) {
      notApplicable = true;
      continue;
    }
    const balLo = method1Bal(fdi, c.vegClass, slopeClassOf(slopeLo), c.distance + tol.d);
    const balHi = method1Bal(fdi, c.vegClass, slopeClassOf(slopeHi), Math.max(0, c.distance - tol.d));
    const r = balRank(bal);
    if (r > nominal || (r === nominal && determining && c.distance < determining.distance_m)) {
      if (r > 0) determining = { veg_class: c.vegClass, distance_m: tenth(c.distance), effective_slope_deg: slopeDeg === null ? null : tenth(slopeDeg), slope_class: slopeClassOf(nominalSlope), source: c.source };
    }
    nominal = Math.max(nominal, r);
    lo = Math.max(lo, rank(balLo));
    hi = Math.max(hi, rank(balHi), r);
  }
  if (notApplicable && nominal < BAL_BANDS.length - 1) return 'method_1_not_applicable';
  lo = Math.min(lo, nominal);
  const anyClassified = cands.some((c) => c.vegClass !== 'low_threat');
  const confidence: IndicativeBal['confidence'] = !anyClassified ? 'high' : !demLayer || hi - lo >= 2 ? 'low' : 'moderate';
  if (!anyClassified) assumptions.push(BUSHFIRE_WORDS.noClassifiedVegetation(ASSESSMENT_DISTANCE_M + tol.d));
  assumptions.push(BUSHFIRE_WORDS.tolerances(tol.d, tol.deg));
  return {
    bal: BAL_BANDS[nominal],
    range: [BAL_BANDS[lo], BAL_BANDS[hi]],
    confidence,
    method: 'AS 3959-2009 Method 1',
    table: FDI_TABLE[fdi],
    fdi,
    fdi_basis: fdiBasis,
    determining_vegetation: nominal > 0 ? determining : null,
    assumptions,
  };
}

/** Computes `scores.bushfire` for one subject. */
export function bushfireScore(layers: BushfireLayers, subject: BushfireSubject, options: BushfireOptions = {}): BushfireScore {
  const { lon, lat } = subject;
  const tol = { d: options.vegetationToleranceM ?? 10, deg: options.slopeToleranceDeg ?? 2 };
  const stateFdi = fdiForState(subject.state);
  const fdi: TableFdi = options.fdi ?? stateFdi ?? 100;
  const fdiBasis = BUSHFIRE_WORDS.fdiBasis(options.fdi ? { kind: 'caller', fdi: options.fdi } : stateFdi ? { kind: 'table', state: subject.state!.toUpperCase() } : { kind: 'default' });

  // 1. Official mapping.
  const official = officialLookup(layers, subject);

  // 2. Modelled inputs.
  const veg = layers.vegetation;
  const dem = resolveLayer(options.dem);
  const demRes = dem.layer ? cellSizeMetres(dem.layer.grid, lat) : null;
  let fuel: number | null = null;
  let fuelNearest: { vegClass: VegetationClass; distance: number; source: string } | null = null;
  const cands: VegCandidate[] = [];
  if (veg.status === 'available') {
    fuel = 0;
    const forestL3 = method1Limits(fdi, 'forest', 'upslope_or_flat')[3];
    for (const h of veg.index.within(lon, lat, FUEL_REACH_M)) {
      const vc = veg.vegClass[h.id];
      if (vc !== 'low_threat') {
        const hazard = method1Limits(fdi, vc, 'upslope_or_flat')[3] / forestL3;
        const f = hazard * (1 - h.distance / FUEL_REACH_M);
        if (f > fuel) {
          fuel = f;
          fuelNearest = { vegClass: vc, distance: h.distance, source: veg.sources[h.id] };
        }
      }
      if (h.distance <= ASSESSMENT_DISTANCE_M + tol.d) {
        const p = h.inside ? { east: 0, north: 0, distance: 0 } : nearestBoundaryPoint(veg.index, h.id, lon, lat);
        cands.push({ vegClass: vc, distance: h.inside ? 0 : p.distance, east: p.east, north: p.north, source: veg.sources[h.id] });
      }
    }
  }
  const terrain = dem.layer ? regionalSlope(dem.layer.grid, lon, lat, TERRAIN_RADIUS_M, { spacing: 25 }) : null;
  const terrainStatus: BushfireCoverageStatus = terrain ? 'returned' : dem.layer ? 'unavailable' : dem.status === 'unavailable' ? 'unavailable' : 'not_integrated';
  const t = terrain ? Math.min(1, terrain.meanSlopeDeg / 20) : 0;
  const fh = layers.fireHistory;
  let history: number | null = null;
  let historyNearest: { year: number | null; distance: number; source: string } | null = null;
  if (fh.status === 'available') {
    history = 0;
    for (const h of fh.index.within(lon, lat, FIRE_HISTORY_REACH_M)) {
      if (fh.type[h.id] !== 'bushfire') continue;
      const v = 1 - h.distance / FIRE_HISTORY_REACH_M;
      if (v > history) {
        history = v;
        historyNearest = { year: fh.year[h.id], distance: h.distance, source: fh.sources[h.id] };
      }
    }
  }
  let score: number | null = null;
  if (fuel !== null) {
    score = clampScore(100 * (0.75 * fuel * (0.8 + 0.2 * t) + 0.25 * (history ?? 0)));
    if (official.status === 'hit') score = Math.max(score, OFFICIAL_FLOOR);
  }

  // 3. Indicative BAL (never from the score).
  let ib: IndicativeBal | null = null;
  let balStatus: PreliminaryBalStatus;
  const identity = subject.identity ?? { kind: 'coordinate' as const };
  if (veg.status !== 'available') {
    balStatus = veg.status === 'unavailable' ? 'not_computed_vegetation_unavailable' : 'not_computed_vegetation_not_integrated';
  } else {
    const r = indicativeBal(cands, options.dem, subject, fdi, fdiBasis, tol);
    if (r === 'method_1_not_applicable') balStatus = 'method_1_not_applicable';
    else {
      ib = r;
      balStatus = identity.kind === 'address' && identity.onParcel ? 'indicative_screening' : 'indicative_screening_coordinate_only';
    }
  }

  const coverage = {
    official_overlay: official.status === 'none' ? 'not_integrated' : official.status === 'unavailable' ? 'unavailable' : 'returned',
    vegetation_fuel: coverageOf(veg),
    terrain_slope: terrainStatus,
    fire_history: coverageOf(fh),
  } satisfies BushfireScore['coverage'];
  const vegSource = fuelNearest?.source ?? (veg.status === 'available' ? veg.source : null);
  const sources = [...new Set([official.layer?.source, vegSource, ...cands.map((c) => c.source), dem.layer?.source, historyNearest?.source ?? (fh.status === 'available' ? fh.source : undefined)].filter((s): s is string => !!s))].sort();
  const level = levelOf(score);
  const missing = BUSHFIRE_WORDS.missing;
  return {
    score,
    level,
    label: BUSHFIRE_LEVEL_LABEL[level],
    disclaimer: BUSHFIRE_DISCLAIMER,
    official_zone_status: official.status,
    overlay_basis: official.basis,
    coverage,
    indicative_bal: ib,
    delivery_contract: {
      subject_identity: identity.kind === 'address'
        ? { kind: identity.onParcel ? 'resolved_address_on_parcel' : 'resolved_address_not_on_parcel', resolved_address_on_parcel: identity.onParcel, address: identity.address, parcel_id: identity.parcelId ?? null, note: BUSHFIRE_WORDS.subject(identity.onParcel ? 'on_parcel' : 'not_on_parcel') }
        : { kind: 'coordinate_only', resolved_address_on_parcel: false, address: null, parcel_id: null, note: BUSHFIRE_WORDS.subject('coordinate') },
      preliminary_bal: { included: ib !== null, status: balStatus },
      official_and_modelled_kept_separate: true,
      bal_derived_from_score: false,
    },
    components: {
      official_overlay: component({
        value: official.status,
        unit: null,
        level: official.status === 'hit' ? 'high' : official.status === 'checked_no_hit' ? 'very_low' : 'unknown',
        resolution: null,
        source: official.layer?.source ?? null,
        caveat: official.basis.note,
      }),
      vegetation_fuel: component({
        value: fuel === null ? null : thousandth(fuel),
        unit: 'share',
        level: fuel === null ? 'unknown' : levelOf(fuel * 100),
        resolution: null,
        source: vegSource,
        caveat: fuel === null ? missing('Vegetation', veg.status, (veg as MissingLayer).reason) : BUSHFIRE_WORDS.fuel(fuelNearest, FUEL_REACH_M),
      }),
      terrain_slope: component({
        value: terrain ? tenth(terrain.meanSlopeDeg) : null,
        unit: 'deg',
        level: terrain ? levelOf(t * 100) : 'unknown',
        resolution: demRes,
        source: dem.layer?.source ?? null,
        caveat: terrain ? BUSHFIRE_WORDS.slope(TERRAIN_RADIUS_M) : missing('DEM', dem.layer ? 'unavailable' : dem.status, dem.reason ?? (dem.layer ? 'no elevations around the subject' : null)),
      }),
      fire_history: component({
        value: history === null ? null : thousandth(history),
        unit: 'share',
        level: history === null ? 'unknown' : levelOf(history * 100),
        resolution: null,
        source: historyNearest?.source ?? (fh.status === 'available' ? fh.source : null),
        caveat: history === null ? missing('Fire history', fh.status, (fh as MissingLayer).reason) : BUSHFIRE_WORDS.history(historyNearest, FIRE_HISTORY_REACH_M),
      }),
    },
    sources,
    caveat: BUSHFIRE_WORDS.scoreCaveat,
  };
}
