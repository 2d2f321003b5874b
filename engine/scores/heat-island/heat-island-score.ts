/**
 * `scores.heat_island`: Neighbourhood Heat (spec 2.6). Temperature comes only from the ~1 km satellite
 * land-surface temperature (LST, summer daytime mean, degrees C); the 10 m land cover is explanatory only
 * and never enters the score.
 *
 * The score is the subject's LST against its regional baseline: the surface urban heat island intensity,
 * the urban-minus-surroundings LST difference of the remote-sensing literature (Voogt & Oke 2003, "Thermal
 * remote sensing of urban climates", Remote Sensing of Environment 86). Neighbourhood LST is bilinear at the
 * subject; the baseline is the mean of valid LST cells whose centres lie within {@link REGIONAL_RADIUS_M}.
 *   score = 50 + 10 x (LST - baseline), clamped to 0-100
 * so a neighbourhood 5 degrees C hotter than its region scores 100 and one 5 degrees cooler scores 0. The
 * 10 points per degree scale is our choice: Australian daytime surface heat islands are a few degrees to
 * about 10 degrees C between the hottest and coolest suburbs.
 */
import { worldToPixel } from '../../geo/geo-transform.js';
import type { HeatSurface } from '../../surfaces/heat/heat-surface.js';
import { clampScore, component, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import { cellSizeMetres, metricFrame, sampleAtOffset, type AnyGrid } from '../../raster/sample.js';
import { resolveLayer, isMissing, type LayerStatus, type MissingLayer, type RasterInput } from '../../score-kit/layer-input.js';
import { isNoData } from '../../raster/grid.js';

/** Radius of the regional LST baseline, metres. */
export const REGIONAL_RADIUS_M = 10_000;
/** Score points per degree C of anomaly. */
export const POINTS_PER_DEGREE = 10;
/** Fewest valid LST cells a baseline may rest on. */
export const MIN_BASELINE_CELLS = 9;

/** Input of {@link heatIslandScore}. */
export interface HeatIslandInput {
  lon: number;
  lat: number;
  /** LST raster (Float32 degrees C, ~1 km) covering the regional radius where it can. */
  lst: RasterInput;
  /** The heat surface over the window, for the explanatory land-cover shares; optional. */
  landCover?: HeatSurface | MissingLayer | null;
}

/** `scores.heat_island`. */
export interface HeatIslandScore {
  /** 0-100, higher is hotter than the region; null when LST did not answer. */
  score: number | null;
  level: Level;
  status: 'computed' | Exclude<LayerStatus, 'available'> | 'no_lst_at_subject' | 'insufficient_regional_baseline';
  /** Neighbourhood LST, degrees C. */
  lst_c: number | null;
  /** Regional mean LST, degrees C. */
  regional_mean_lst_c: number | null;
  /** lst_c minus the regional mean, degrees C. */
  anomaly_c: number | null;
  baseline_cells: number;
  components: {
    land_surface_temperature: ScoreComponent<number | null>;
    regional_baseline: ScoreComponent<number | null>;
    cooling_cover_share: ScoreComponent<number | null>;
    heat_source_share: ScoreComponent<number | null>;
  };
  land_cover_role: 'explanatory_only';
  method_note: string;
  sources: string[];
  caveat: string;
}

const METHOD_NOTE = `Summer daytime land-surface temperature (about 1 km) at the subject against the mean within ${REGIONAL_RADIUS_M / 1000} km; 10 points per degree C either side of 50. Land cover (10 m) explains the result and does not enter it.`;

/** Mean of the valid cells whose centres lie within `radius` metres of (lon, lat). */
function regionalMean(grid: AnyGrid, lon: number, lat: number, radius: number): { mean: number; count: number } {
  const f = metricFrame(grid, lon, lat);
  const t = grid.transform;
  const [ca, ra] = worldToPixel(t, f.x0 - radius * f.sx, f.y0 + radius * f.sy);
  const [cb, rb] = worldToPixel(t, f.x0 + radius * f.sx, f.y0 - radius * f.sy);
  const c0 = Math.max(0, Math.floor(Math.min(ca, cb))), c1 = Math.min(grid.width - 1, Math.ceil(Math.max(ca, cb)));
  const r0 = Math.max(0, Math.floor(Math.min(ra, rb))), r1 = Math.min(grid.height - 1, Math.ceil(Math.max(ra, rb)));
  let sum = 0, count = 0;
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const v = grid.data[r * grid.width + c];
      if (isNoData(grid, v)) continue;
      const e = (t[0] + (c + 0.5) * t[1] - f.x0) / f.sx;
      const n = (t[3] + (r + 0.5) * t[5] - f.y0) / f.sy;
      if (e * e + n * n > radius * radius) continue;
      sum += v;
      count++;
    }
  }
  return { mean: count ? sum / count : NaN, count };
}

/** Computes `scores.heat_island` for one subject. */
export function heatIslandScore(input: HeatIslandInput): HeatIslandScore {
  const lst = resolveLayer(input.lst);
  const res = lst.layer ? Math.round(cellSizeMetres(lst.layer.grid, input.lat)) : null;
  const source = lst.layer?.source ?? null;
  let status: HeatIslandScore['status'] = lst.layer ? 'computed' : (lst.status as 'unavailable' | 'not_integrated');
  let value: number | null = null;
  let base: { mean: number; count: number } = { mean: NaN, count: 0 };
  if (lst.layer) {
    const v = sampleAtOffset(lst.layer.grid, metricFrame(lst.layer.grid, input.lon, input.lat), 0, 0);
    if (!Number.isFinite(v)) status = 'no_lst_at_subject';
    else {
      value = v;
      base = regionalMean(lst.layer.grid, input.lon, input.lat, REGIONAL_RADIUS_M);
      if (base.count < MIN_BASELINE_CELLS) status = 'insufficient_regional_baseline';
    }
  }
  const ok = status === 'computed';
  const anomaly = ok ? value! - base.mean : null;
  const score = anomaly === null ? null : clampScore(50 + POINTS_PER_DEGREE * anomaly);
  const lc = isMissing(input.landCover) ? null : input.landCover;
  const lcCaveat = 'Explanatory only: land cover does not enter the score.';
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const why = status === 'unavailable' || status === 'not_integrated'
    ? `LST ${status.replace('_', ' ')}${lst.reason ? `: ${lst.reason}` : ''}`
    : status === 'no_lst_at_subject'
      ? 'the LST raster has no value at the subject'
      : status === 'insufficient_regional_baseline'
        ? `fewer than ${MIN_BASELINE_CELLS} LST cells within ${REGIONAL_RADIUS_M / 1000} km for a baseline`
        : '';
  return {
    score,
    level: levelOf(score),
    status,
    lst_c: value === null ? null : r1(value),
    regional_mean_lst_c: base.count ? r1(base.mean) : null,
    anomaly_c: anomaly === null ? null : r1(anomaly),
    baseline_cells: base.count,
    components: {
      land_surface_temperature: component({ value: value === null ? null : r1(value), unit: 'degC', level: levelOf(score), resolution: res, source: value === null ? null : source, caveat: value === null ? `No LST: ${why}.` : 'Satellite land-surface (not air) temperature, summer daytime mean, about 1 km: a neighbourhood value, not the block.' }),
      regional_baseline: component({ value: base.count ? r1(base.mean) : null, unit: 'degC', level: 'unknown', resolution: res, source: base.count ? source : null, caveat: base.count ? `Mean of ${base.count} LST cells within ${REGIONAL_RADIUS_M / 1000} km; coasts and water bodies pull it down.` : 'No regional baseline.' }),
      cooling_cover_share: component({ value: lc ? Math.round(lc.cooling_cover_share * 1000) / 1000 : null, unit: 'share', level: 'unknown', resolution: lc?.resolution_m ?? null, source: lc?.source ?? null, caveat: lc ? lcCaveat : 'No land cover held: nothing to explain the temperature with.' }),
      heat_source_share: component({ value: lc ? Math.round(lc.heat_source_share * 1000) / 1000 : null, unit: 'share', level: 'unknown', resolution: lc?.resolution_m ?? null, source: lc?.source ?? null, caveat: lc ? lcCaveat : 'No land cover held: nothing to explain the temperature with.' }),
    },
    land_cover_role: 'explanatory_only',
    method_note: METHOD_NOTE,
    sources: [source, lc?.source].filter((s): s is string => !!s).sort(),
    caveat: ok ? 'Neighbourhood surface temperature relative to the region from about 1 km satellite data; not air temperature and not a property-level measurement.' : `Heat island not computed: ${why}.`,
  };
}
