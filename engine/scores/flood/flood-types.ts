/**
 * The types of scores.flood: what it weighs (the evidence), what the weighing finds (numbers and codes) and
 * what it publishes. Apart from flood-score.ts (the weighing) and flood-describe.ts (the words), which both
 * read them.
 */
import type { NearestDrainage } from '../../hydro/hand-at-point.js';
import type { Level, ScoreComponent } from '../../score-kit/component.js';
import type { FloodOverlayHit } from './flood-overlays.js';
import type { OfficialLayerResult } from './official-layer.js';
import type { NearestWater } from './water-distance.js';

/** The four sub-scores' weights. */
export type FloodWeights = { readonly terrain: number; readonly water: number; readonly study: number; readonly overlay: number };

/** The HAND evidence: the hand-point result, or the error that kept it from running. */
export type HandEvidence =
  | {
      ok: true;
      hand_m: number | null;
      drainage: NearestDrainage | null;
      resolution_m: number;
      source: string;
      burned: boolean;
      threshold_km2: number;
      /** Half-width of the HAND analysis that answered, metres (before the buffer). */
      analysis_half_width_m?: number;
    }
  | { ok: false; code: string; message: string; source: string | null };

/** Everything {@link scoreFlood} weighs, each already looked up. */
export interface FloodEvidence {
  /** HAND at the subject; null when no DEM is held for the point. */
  hand: HandEvidence | null;
  /** Nearest mapped water; `unavailable` when no water layer was held or it failed; null when none within the search radius. */
  water: NearestWater | null | 'unavailable';
  /** 1 % AEP 1-hour rainfall depth at the subject, or null when not held / not readable. */
  rainfall: { depth_mm: number; source: string; resolution_m: number } | null;
  /** Modelled 1 % AEP depth where a study raster covers the subject; null when none covers it. */
  study: { depth_m: number; source: string; resolution_m: number } | null;
  /** H1-H6 hazard class from a study hazard raster, when one covers the subject with a class. */
  hazard: { class: HazardClass; source: string; resolution_m: number } | null;
  /** Flood overlay hits (all sources) and the official-layer decision for the subject's state. */
  overlays: { hits: FloodOverlayHit[]; official: OfficialLayerResult };
  /** Lookups that failed (their component is unavailable), e.g. `hand`, `design_rainfall`. */
  degraded: string[];
  /** The flood-study library held (all states), for the caveat when no study covers the subject; absent when unknown. */
  studyLibrary?: StudyLibrary | null;
}

/** The flood-study depth rasters the catalogue holds, across all states. */
export interface StudyLibrary {
  /** Number of 1 % AEP depth rasters held. */
  depthRasters: number;
  /** States and territories they lie in, e.g. `['NSW', 'QLD']`. */
  states: string[];
}

/** AIDR 2017 / ARR hazard vulnerability classes. */
export type HazardClass = 'H1' | 'H2' | 'H3' | 'H4' | 'H5' | 'H6';

/** scores.flood. */
export interface FloodScore {
  /** 0-100, 100 most flood-prone; null when no input was available. */
  score: number | null;
  level: Level;
  /** Official 1 % AEP modelled depth, metres: only where a study raster covers the address. */
  flood_depth?: { value_m: number; aep: '1%'; source: string; resolution_m: number };
  /** H1-H6 hazard class from the study, as evidence only (never converted to metres). */
  hazard_class?: { value: HazardClass; source: string; note: string };
  official_layer: OfficialLayerResult['official_layer'];
  official_layer_note: string | null;
  overlay_basis: OfficialLayerResult['overlay_basis'];
  /** The channel cell the subject drains to, from the HAND analysis. */
  nearest_drainage: NearestDrainage | null;
  components: {
    hand: ScoreComponent<number | null>;
    water_distance: ScoreComponent<number | null>;
    design_rainfall: ScoreComponent<number | null>;
    study_depth: ScoreComponent<number | null>;
    official_overlay: ScoreComponent<string | null>;
  };
  method: {
    weights: FloodWeights;
    /** Weighted sub-scores that were available, 0-100. */
    sub_scores: Partial<Record<keyof FloodWeights, number>>;
    /** The indicative 1 % AEP flood height above the nearest drainage, metres (terrain term). */
    indicative_flood_height_m: number | null;
    /** The floor applied, if any. */
    floor: number | null;
    channel_threshold_km2: number | null;
    /** Half-width of the HAND analysis that answered, metres (before its buffer). */
    analysis_half_width_m: number | null;
    burned_watercourses: boolean;
  };
  completeness: 'full' | 'partial';
  /** Inputs whose lookup failed. */
  degraded_components: string[];
  caveat: string;
}

/** What one input contributed, as codes and numbers (words and rounding are flood-describe.ts's). */
export type TerrainFinding =
  | { code: 'scored'; hand_m: number; drainage: NearestDrainage; sub: number }
  | { code: 'no_dem' }
  | { code: 'flow_leaves_area' }
  | { code: 'failed'; failure: string; message: string };
export type WaterFinding = { code: 'unavailable' } | { code: 'none_within_2km'; sub: 0 } | { code: 'found'; water: NearestWater; sub: number };
export type StudyFinding = { code: 'none' } | { code: 'modelled'; depth_m: number; sub: number };
export type OverlayFinding =
  | { code: 'verified_hit'; top: FloodOverlayHit; sub: number; floodway: boolean }
  | { code: 'evidence_required'; source: string | null }
  | { code: 'statewide_no_hit'; source: string | null; sub: 0 }
  | { code: 'no_source' }
  | { code: 'partial_or_unverified' };

/** The score as numbers and codes, before it is worded (see {@link describeFlood}). */
export interface FloodFindings {
  /** 0-100 after the floors, unrounded; null when no input was available. */
  score: number | null;
  /** The floor that set the score, if one did. */
  floor: number | null;
  sub: Partial<Record<keyof FloodWeights, number>>;
  weights: FloodWeights;
  /** The indicative 1 % AEP flood height of the terrain term, metres, unrounded. */
  floodHeight: number | null;
  rainfallMm: number;
  terrain: TerrainFinding;
  water: WaterFinding;
  study: StudyFinding;
  overlay: OverlayFinding;
}
