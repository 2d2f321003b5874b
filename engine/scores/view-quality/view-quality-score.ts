/**
 * `scores.view_quality`: the retained v1 key for Landscape Openness (spec 2.6). An amenity score (100 =
 * most open): half the share of open horizon, half the share of surrounding land below the subject, both
 * from the bare-earth DEM (see landscape-openness.ts). Not a line-of-sight guarantee: buildings and trees
 * are not in the DEM.
 */
import { clampScore, component, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import { cellSizeMetres } from '../../raster/sample.js';
import { landscapeOpenness, type OpennessOptions } from './landscape-openness.js';
import { resolveLayer, type LayerStatus, type RasterInput } from '../../score-kit/layer-input.js';

/** Weight of the open-horizon share in the score; the relative-elevation share takes the rest. Our choice. */
export const OPEN_HORIZON_WEIGHT = 0.5;

/** Input of {@link viewQualityScore}. */
export interface ViewQualityInput {
  lon: number;
  lat: number;
  /** DEM covering the disc of `options.radius` around the subject (Float32 metres). */
  dem: RasterInput;
  options?: OpennessOptions;
}

/** `scores.view_quality`. */
export interface ViewQualityScore {
  /** 0-100, higher is more open; null when the DEM did not answer. */
  score: number | null;
  level: Level;
  /** `computed`, or why not. */
  status: 'computed' | Exclude<LayerStatus, 'available'> | 'no_elevation_at_subject';
  open_horizon_share: number | null;
  relative_elevation_share: number | null;
  horizon: {
    directions: number;
    radius_m: number;
    observer_height_m: number;
    min_distance_m: number;
    open_angle_deg: number;
    mean_horizon_angle_deg: number;
    max_horizon_angle_deg: number;
  } | null;
  components: {
    open_horizon: ScoreComponent<number | null>;
    relative_elevation: ScoreComponent<number | null>;
    ground_elevation: ScoreComponent<number | null>;
  };
  method_note: string;
  sources: string[];
  caveat: string;
}

const METHOD_NOTE =
  'Landscape openness from the bare-earth DEM: share of the horizon (36 azimuths to 1.5 km) raised no more than 3 degrees, and share of surrounding land below the subject. Not a line-of-sight guarantee: buildings and vegetation are not modelled.';

/** Computes `scores.view_quality` for one subject. */
export function viewQualityScore(input: ViewQualityInput): ViewQualityScore {
  const dem = resolveLayer(input.dem);
  const res = dem.layer ? cellSizeMetres(dem.layer.grid, input.lat) : null;
  const source = dem.layer?.source ?? null;
  const o = dem.layer ? landscapeOpenness(dem.layer.grid, input.lon, input.lat, input.options) : null;
  const missingCaveat = dem.layer ? 'the DEM has no elevation at the subject' : `DEM ${dem.status}${dem.reason ? `: ${dem.reason}` : ''}`;
  const comp = (value: number | null, unit: string | null, caveat: string): ScoreComponent<number | null> =>
    component({ value, unit, level: value === null ? 'unknown' : unit === 'share' ? levelOf(value * 100) : 'unknown', resolution: res, source: value === null ? null : source, caveat: value === null ? missingCaveat : caveat });
  const components = {
    open_horizon: comp(o ? round3(o.openHorizonShare) : null, 'share', 'Bare-earth horizon: buildings and trees that block views are not in the DEM.'),
    relative_elevation: comp(o ? round3(o.relativeElevationShare) : null, 'share', 'Share of land within the radius lower than the subject; says nothing about what is visible from a window.'),
    ground_elevation: comp(o ? Math.round(o.groundElevationM * 10) / 10 : null, 'm', 'Bare-earth elevation interpolated from the DEM at the subject.'),
  };
  if (!o) {
    return {
      score: null,
      level: 'unknown',
      status: dem.layer ? 'no_elevation_at_subject' : (dem.status as 'unavailable' | 'not_integrated'),
      open_horizon_share: null,
      relative_elevation_share: null,
      horizon: null,
      components,
      method_note: METHOD_NOTE,
      sources: source ? [source] : [],
      caveat: `Landscape openness could not be computed: ${missingCaveat}.`,
    };
  }
  const score = clampScore(100 * (OPEN_HORIZON_WEIGHT * o.openHorizonShare + (1 - OPEN_HORIZON_WEIGHT) * o.relativeElevationShare));
  return {
    score,
    level: levelOf(score),
    status: 'computed',
    open_horizon_share: round3(o.openHorizonShare),
    relative_elevation_share: round3(o.relativeElevationShare),
    horizon: {
      directions: o.horizonAnglesDeg.length,
      radius_m: o.radiusM,
      observer_height_m: o.observerHeightM,
      min_distance_m: o.minDistanceM,
      open_angle_deg: o.openAngleDeg,
      mean_horizon_angle_deg: Math.round(o.meanHorizonDeg * 100) / 100,
      max_horizon_angle_deg: Math.round(o.maxHorizonDeg * 100) / 100,
    },
    components,
    method_note: METHOD_NOTE,
    sources: [source!],
    caveat: 'Landscape openness of the bare-earth landform; not a line-of-sight guarantee and not a view from any particular window.',
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
