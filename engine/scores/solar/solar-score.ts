/**
 * `scores.solar`: the regional open-horizon solar resource (spec 2.6): GHI and DNI (~250 m), PV power
 * output PVOUT (~1 km) and the optimum fixed tilt (~4 km), Global Solar Atlas style rasters in
 * kWh/m2/day, kWh/kWp/day and degrees. No roof planes, usable area or shading model: every value is the
 * open-horizon resource of the grid cell.
 *
 * The amenity score (100 = best) scales PVOUT linearly from {@link PVOUT_LOW} to {@link PVOUT_HIGH}
 * kWh/kWp/day, bounds chosen to span Australia's range on the Global Solar Atlas map (about 3.4 in southern
 * Tasmania to above 5 in the arid north-west); they were not checked against the layer here, so adjust them
 * when real data is loaded. Without PVOUT the score falls back to GHI over {@link GHI_LOW}-{@link GHI_HIGH}
 * kWh/m2/day, likewise spanning the Australian range, and says so.
 */
import { clampScore, component, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import { cellSizeMetres, sampleAtLonLat } from '../../raster/sample.js';
import { resolveLayer, type RasterInput } from '../../score-kit/layer-input.js';

/** PVOUT scoring 0, kWh/kWp/day. */
export const PVOUT_LOW = 3.2;
/** PVOUT scoring 100, kWh/kWp/day. */
export const PVOUT_HIGH = 5.2;
/** GHI scoring 0 (fallback), kWh/m2/day. */
export const GHI_LOW = 3.5;
/** GHI scoring 100 (fallback), kWh/m2/day. */
export const GHI_HIGH = 6.5;

/** Input of {@link solarScore}. */
export interface SolarInput {
  lon: number;
  lat: number;
  ghi?: RasterInput;
  dni?: RasterInput;
  pvout?: RasterInput;
  optimumTilt?: RasterInput;
}

/** `scores.solar`. */
export interface SolarScore {
  /** 0-100, higher is more resource; null when neither PVOUT nor GHI answered. */
  score: number | null;
  level: Level;
  /** Which layer the score rests on. */
  score_basis: 'pvout' | 'ghi' | null;
  ghi_kwh_m2_day: number | null;
  dni_kwh_m2_day: number | null;
  pvout_kwh_kwp_day: number | null;
  optimum_tilt_deg: number | null;
  components: { ghi: ScoreComponent<number | null>; dni: ScoreComponent<number | null>; pvout: ScoreComponent<number | null>; optimum_tilt: ScoreComponent<number | null> };
  method_note: string;
  sources: string[];
  caveat: string;
}

const METHOD_NOTE = 'Regional open-horizon solar resource: GHI/DNI about 250 m, PVOUT about 1 km, optimum tilt about 4 km. No roof planes, usable area or shading model.';

/** Computes `scores.solar` for one subject. */
export function solarScore(input: SolarInput): SolarScore {
  const read = (r: RasterInput, unit: string, digits: number, caveat: string, level: (v: number) => Level) => {
    const l = resolveLayer(r);
    const raw = l.layer ? sampleAtLonLat(l.layer.grid, input.lon, input.lat) : NaN;
    const value = Number.isFinite(raw) ? Math.round(raw * 10 ** digits) / 10 ** digits : null;
    const reason = l.layer ? 'no value at the subject' : `${l.status.replace('_', ' ')}${l.reason ? `: ${l.reason}` : ''}`;
    return {
      value,
      raw,
      source: value === null ? null : l.layer!.source,
      component: component({ value, unit, level: value === null ? 'unknown' : level(raw), resolution: l.layer ? Math.round(cellSizeMetres(l.layer.grid, input.lat)) : null, source: value === null ? null : l.layer!.source, caveat: value === null ? `Layer ${reason}.` : caveat }),
    };
  };
  const pvScore = (v: number) => (100 * (v - PVOUT_LOW)) / (PVOUT_HIGH - PVOUT_LOW);
  const ghiScore = (v: number) => (100 * (v - GHI_LOW)) / (GHI_HIGH - GHI_LOW);
  const ghi = read(input.ghi, 'kWh/m2/day', 2, 'Long-term average global horizontal irradiation of the grid cell, open horizon.', (v) => levelOf(ghiScore(v)));
  const dni = read(input.dni, 'kWh/m2/day', 2, 'Long-term average direct normal irradiation of the grid cell; matters for tracking and concentrating systems.', () => 'unknown');
  const pvout = read(input.pvout, 'kWh/kWp/day', 2, 'Modelled output of a reference PV system at optimum tilt, open horizon: no roof, orientation or shading.', (v) => levelOf(pvScore(v)));
  const tilt = read(input.optimumTilt, 'deg', 1, 'Optimum fixed tilt for year-round yield over about 4 km; the roof pitch decides what is achievable.', () => 'unknown');
  const basis = pvout.value !== null ? 'pvout' : ghi.value !== null ? 'ghi' : null;
  const score = basis === 'pvout' ? clampScore(pvScore(pvout.raw)) : basis === 'ghi' ? clampScore(ghiScore(ghi.raw)) : null;
  return {
    score,
    level: levelOf(score),
    score_basis: basis,
    ghi_kwh_m2_day: ghi.value,
    dni_kwh_m2_day: dni.value,
    pvout_kwh_kwp_day: pvout.value,
    optimum_tilt_deg: tilt.value,
    components: { ghi: ghi.component, dni: dni.component, pvout: pvout.component, optimum_tilt: tilt.component },
    method_note: METHOD_NOTE,
    sources: [...new Set([ghi.source, dni.source, pvout.source, tilt.source].filter((s): s is string => !!s))].sort(),
    caveat: basis === 'pvout'
      ? 'Regional open-horizon resource; a particular roof can do much worse (shade, orientation, pitch).'
      : basis === 'ghi'
        ? 'PVOUT did not answer: the score rests on GHI, a coarser proxy for PV yield. Regional open-horizon resource only.'
        : 'No solar resource layer answered at the subject.',
  };
}
