import { describe, expect, it } from 'vitest';
import { distanceMetres } from '../../../../engine/geo/distance.js';
import { northUpTransform } from '../../../../engine/geo/geo-transform.js';
import { createWindow } from '../../../../engine/geo/window.js';
import type { Grid } from '../../../../engine/raster/grid.js';
import { heatIslandScore, REGIONAL_RADIUS_M } from '../../../../engine/scores/heat-island/heat-island-score.js';
import { heatSurfaceFromClasses } from '../../../../engine/surfaces/heat/heat-surface.js';

const LON = 144.98, LAT = -37.8;
const CELL = 0.01; // about 1 km
const N = 61; // 0.61 degrees across, subject at the centre of the middle cell

/** An EPSG:4326 LST grid whose cell (c, r) holds f(lon, lat) of its centre. */
function lstGrid(f: (lon: number, lat: number) => number): Grid<Float32Array> {
  const west = LON - (N / 2) * CELL, north = LAT + (N / 2) * CELL;
  const data = new Float32Array(N * N);
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) data[r * N + c] = f(west + (c + 0.5) * CELL, north - (r + 0.5) * CELL);
  return { width: N, height: N, data, noData: NaN, transform: northUpTransform(west, north, CELL), crs: 'EPSG:4326' };
}

describe('scores.heat_island', () => {
  it('a linear regional trend is no heat island: the disc mean equals the centre value, score 50', () => {
    const g = lstGrid((lon) => 30 + 20 * (lon - LON)); // 0.2 degrees C per 0.01 degree east
    const r = heatIslandScore({ lon: LON, lat: LAT, lst: { grid: g, source: 'sample_lst' } });
    expect(r.lst_c).toBe(30);
    expect(r.anomaly_c).toBeCloseTo(0, 6);
    expect(r.score).toBe(50);
  });

  it('a hot neighbourhood scores 50 + 10 x its excess over the regional mean (reference count of the disc)', () => {
    // 35 degrees C within 1.5 km of the subject, 30 elsewhere.
    const hot = (lon: number, lat: number) => (distanceMetres(LON, LAT, lon, lat) <= 1500 ? 35 : 30);
    const g = lstGrid(hot);
    // Reference: the mean of cell centres within 10 km, counted directly.
    let sum = 0, n = 0;
    const west = LON - (N / 2) * CELL, north = LAT + (N / 2) * CELL;
    for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
      const lon = west + (c + 0.5) * CELL, lat = north - (r + 0.5) * CELL;
      if (distanceMetres(LON, LAT, lon, lat) <= REGIONAL_RADIUS_M) {
        sum += hot(lon, lat);
        n++;
      }
    }
    const s = heatIslandScore({ lon: LON, lat: LAT, lst: { grid: g, source: 'sample_lst' } });
    expect(s.baseline_cells).toBe(n);
    expect(s.lst_c).toBe(35);
    expect(s.score).toBeCloseTo(Math.round((50 + 10 * (35 - sum / n)) * 10) / 10, 6);
    expect(s.score!).toBeGreaterThan(90);
    expect(s.components.land_surface_temperature).toMatchObject({ value: 35, unit: 'degC', source: 'sample_lst' });
    expect(s.components.land_surface_temperature.resolution).toBeGreaterThan(900); // 0.01 deg: 880 m x 1,110 m
  });

  it('land cover explains but never changes the score', () => {
    const g = lstGrid((lon, lat) => (distanceMetres(LON, LAT, lon, lat) <= 1500 ? 33 : 30));
    const w = createWindow(LON, LAT);
    const lc = heatSurfaceFromClasses(new Uint8Array(300 * 300).fill(50), w, 'sample_worldcover');
    const without = heatIslandScore({ lon: LON, lat: LAT, lst: { grid: g, source: 'sample_lst' } });
    const withLc = heatIslandScore({ lon: LON, lat: LAT, lst: { grid: g, source: 'sample_lst' }, landCover: lc });
    expect(withLc.score).toBe(without.score);
    expect(withLc.components.heat_source_share).toMatchObject({ value: 1, source: 'sample_worldcover', resolution: 10 });
    expect(withLc.land_cover_role).toBe('explanatory_only');
    expect(withLc.sources).toEqual(['sample_lst', 'sample_worldcover']);
  });

  it('reports missing LST and too small a baseline instead of a score', () => {
    expect(heatIslandScore({ lon: LON, lat: LAT, lst: { status: 'unavailable', reason: 'lst.tif: not found' } })).toMatchObject({ score: null, status: 'unavailable', level: 'unknown' });
    expect(heatIslandScore({ lon: LON, lat: LAT, lst: null }).status).toBe('not_integrated');
    const tiny: Grid<Float32Array> = { width: 2, height: 2, data: Float32Array.of(30, 31, 32, 33), noData: NaN, transform: northUpTransform(LON - CELL, LAT + CELL, CELL), crs: 'EPSG:4326' };
    const r = heatIslandScore({ lon: LON, lat: LAT, lst: { grid: tiny, source: 'sample_lst' } });
    expect(r).toMatchObject({ score: null, status: 'insufficient_regional_baseline', baseline_cells: 4 });
    expect(r.caveat).toMatch(/fewer than 9 LST cells/);
    expect(heatIslandScore({ lon: LON + 5, lat: LAT, lst: { grid: tiny, source: 'sample_lst' } }).status).toBe('no_lst_at_subject');
  });
});
