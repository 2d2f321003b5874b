import { describe, expect, it } from 'vitest';
import { northUpTransform } from '../../../../engine/geo/geo-transform.js';
import type { Grid } from '../../../../engine/raster/grid.js';
import { solarScore } from '../../../../engine/scores/solar/solar-score.js';

const LON = 144.98, LAT = -37.8;
/** A uniform EPSG:4326 grid of `cellDeg` cells around the subject. */
const uniform = (v: number, cellDeg: number, source: string) => ({
  grid: { width: 10, height: 10, data: new Float32Array(100).fill(v), noData: NaN, transform: northUpTransform(LON - 5 * cellDeg, LAT + 5 * cellDeg, cellDeg), crs: 'EPSG:4326' } as Grid<Float32Array>,
  source,
});

describe('scores.solar', () => {
  it('scores PVOUT linearly: 4.2 kWh/kWp/day is (4.2 - 3.2) / (5.2 - 3.2) = 50', () => {
    const r = solarScore({ lon: LON, lat: LAT, ghi: uniform(4.9, 0.0025, 'gsa_ghi'), dni: uniform(5.6, 0.0025, 'gsa_dni'), pvout: uniform(4.2, 0.01, 'gsa_pvout'), optimumTilt: uniform(33, 0.04, 'gsa_opta') });
    expect(r).toMatchObject({ score: 50, level: 'moderate', score_basis: 'pvout', ghi_kwh_m2_day: 4.9, dni_kwh_m2_day: 5.6, pvout_kwh_kwp_day: 4.2, optimum_tilt_deg: 33 });
    expect(r.sources).toEqual(['gsa_dni', 'gsa_ghi', 'gsa_opta', 'gsa_pvout']);
    // Resolutions follow the grids: 0.0025 deg is about 250 m, 0.01 about 1 km, 0.04 about 4 km.
    expect(Math.abs(r.components.ghi.resolution! - 250)).toBeLessThan(30);
    expect(Math.abs(r.components.pvout.resolution! - 1000)).toBeLessThan(120);
    expect(Math.abs(r.components.optimum_tilt.resolution! - 4000)).toBeLessThan(450);
    expect(r.method_note).toMatch(/No roof planes, usable area or shading model/);
  });

  it('clamps to 0-100 and falls back to GHI when PVOUT does not answer, saying so', () => {
    expect(solarScore({ lon: LON, lat: LAT, pvout: uniform(5.6, 0.01, 'p') }).score).toBe(100);
    expect(solarScore({ lon: LON, lat: LAT, pvout: uniform(2.9, 0.01, 'p') }).score).toBe(0);
    // GHI 5.0: (5.0 - 3.5) / (6.5 - 3.5) = 50.
    const r = solarScore({ lon: LON, lat: LAT, ghi: uniform(5.0, 0.0025, 'g'), pvout: { status: 'unavailable', reason: 'pvout.tif: truncated' } });
    expect(r).toMatchObject({ score: 50, score_basis: 'ghi' });
    expect(r.caveat).toMatch(/PVOUT did not answer/);
    expect(r.components.pvout).toMatchObject({ value: null, source: null, level: 'unknown' });
    expect(r.components.pvout.caveat).toMatch(/pvout.tif: truncated/);
  });

  it('without any layer answers null, never zero', () => {
    const r = solarScore({ lon: LON, lat: LAT });
    expect(r).toMatchObject({ score: null, level: 'unknown', score_basis: null, sources: [] });
    for (const c of Object.values(r.components)) expect(c.caveat).toMatch(/not integrated/);
  });
});
