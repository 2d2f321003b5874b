import { describe, expect, it } from 'vitest';
import { northUpTransform } from '../../../../engine/geo/geo-transform.js';
import { metresPerDegree } from '../../../../engine/geo/distance.js';
import type { Grid } from '../../../../engine/raster/grid.js';
import { sampleAtLonLat, sampleAtPixel } from '../../../../engine/raster/sample.js';
import { landscapeOpenness } from '../../../../engine/scores/view-quality/landscape-openness.js';
import { regionalSlope } from '../../../../engine/raster/terrain-slope.js';
import { viewQualityScore } from '../../../../engine/scores/view-quality/view-quality-score.js';
import { analyticDem, SUBJECT } from '../../../helpers/analytic-dem.js';

const { lon, lat } = SUBJECT;

describe('grid sampling', () => {
  it('bilinear sampling of a plane returns the plane exactly, nearest returns the containing cell', () => {
    // z = 2 col + 3 row at cell centres (col + 0.5, row + 0.5): at pixel (4.5, 2.5) the value is 2*4 + 3*2 = 14.
    const data = new Float32Array(10 * 10).map((_, i) => 2 * (i % 10) + 3 * Math.floor(i / 10));
    const g: Grid<Float32Array> = { width: 10, height: 10, data, noData: NaN, transform: northUpTransform(0, 100, 10), crs: 'EPSG:7855' };
    expect(sampleAtPixel(g, 4.5, 2.5)).toBe(14);
    expect(sampleAtPixel(g, 5, 3)).toBeCloseTo(2 * 4.5 + 3 * 2.5, 6); // halfway between centres
    expect(sampleAtPixel(g, 5.9, 3.1, 'nearest')).toBe(2 * 5 + 3 * 3);
    expect(sampleAtPixel(g, -0.1, 3)).toBeNaN();
    data[3 * 10 + 5] = NaN;
    expect(sampleAtPixel(g, 5.2, 3.2)).toBeNaN(); // the containing cell is missing
  });
});

describe('regional slope (Horn 1981 on a lattice)', () => {
  it('is exact on a plane: gradient 0.1 rising east-north-east', () => {
    // z = 0.08 e + 0.06 n has gradient magnitude sqrt(0.08^2 + 0.06^2) = 0.1 everywhere.
    const dem = analyticDem((e, n) => 100 + 0.08 * e + 0.06 * n);
    const s = regionalSlope(dem, lon, lat, 800)!;
    expect(s.meanGradient).toBeCloseTo(0.1, 5);
    expect(s.meanSlopeDeg).toBeCloseTo((Math.atan(0.1) * 180) / Math.PI, 4);
    expect(s.samples).toBeGreaterThan(700); // pi * 16^2 lattice nodes at 50 m in an 800 m disc
  });

  it('is zero on flat land and null where the DEM does not reach', () => {
    expect(regionalSlope(analyticDem(() => 12), lon, lat, 500)!.meanGradient).toBe(0);
    expect(regionalSlope(analyticDem(() => 12), lon + 1, lat, 500)).toBeNull();
  });
});

describe('landscape openness', () => {
  it('a hilltop (cone apex) is fully open and above everything: score 100', () => {
    const dem = analyticDem((e, n) => 200 - 0.1 * Math.hypot(e, n));
    const o = landscapeOpenness(dem, lon, lat)!;
    expect(o.openHorizonShare).toBe(1);
    expect(o.relativeElevationShare).toBe(1);
    expect(viewQualityScore({ lon, lat, dem: { grid: dem, source: 'sample_dem' } }).score).toBe(100);
  });

  it('the bottom of a bowl is closed in every direction and lowest: score 0', () => {
    // z = 0.1 r: from eye height 1.6 m the horizon at 1,500 m is atan((150 - 1.6) / 1500) = 5.65 deg > 3 deg.
    const dem = analyticDem((e, n) => 0.1 * Math.hypot(e, n));
    const o = landscapeOpenness(dem, lon, lat)!;
    expect(o.maxHorizonDeg).toBeCloseTo((Math.atan((150 - 1.6) / 1500) * 180) / Math.PI, 1);
    expect(o.openHorizonShare).toBe(0);
    expect(o.relativeElevationShare).toBe(0);
    expect(viewQualityScore({ lon, lat, dem: { grid: dem, source: 'sample_dem' } }).score).toBe(0);
  });

  it('a plane rising east at 0.1 closes the azimuths whose rise exceeds 3 degrees', () => {
    // Along azimuth a the plane rises 0.1 sin(a); the horizon at 1,500 m is atan(0.1 sin a - 1.6/1500).
    // Closed when 0.1 sin a - 0.00107 > tan 3 deg = 0.0524, i.e. sin a > 0.535: a in (32.3, 147.7) deg,
    // which holds 11 of the 36 azimuths (40, 50, ..., 140). Half the land (the west) lies lower.
    const dem = analyticDem((e) => 50 + 0.1 * e);
    const o = landscapeOpenness(dem, lon, lat)!;
    expect(o.openHorizonShare).toBeCloseTo(25 / 36, 10);
    expect(o.relativeElevationShare).toBeGreaterThan(0.48);
    expect(o.relativeElevationShare).toBeLessThan(0.5);
  });

  it('rotating the terrain by 90 degrees rotates the horizon profile by 9 azimuths', () => {
    const bump = (e: number, n: number) => 30 * Math.exp(-((e - 600) ** 2 + (n - 200) ** 2) / 2e5);
    const a = landscapeOpenness(analyticDem(bump), lon, lat)!;
    // g(e, n) = bump(-n, e) peaks at (e, n) = (200, -600): the bump's azimuth moves from 71.6 to 161.6 deg,
    // a clockwise turn of 90 deg.
    const b = landscapeOpenness(analyticDem((e, n) => bump(-n, e)), lon, lat)!;
    for (let k = 0; k < 36; k++) expect(b.horizonAnglesDeg[(k + 9) % 36]).toBeCloseTo(a.horizonAnglesDeg[k], 1);
  });

  it('reads a geographic (EPSG:4326) DEM in metres too', () => {
    const { kx, ky } = metresPerDegree(lat);
    const cellDeg = 0.0001;
    const width = 400, height = 400;
    const west = lon - (width / 2) * cellDeg, north = lat + (height / 2) * cellDeg;
    const data = new Float32Array(width * height);
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) {
      const e = (west + (c + 0.5) * cellDeg - lon) * kx;
      const n = (lat - (north - (r + 0.5) * cellDeg)) * -ky;
      data[r * width + c] = 0.1 * Math.hypot(e, n);
    }
    const dem: Grid<Float32Array> = { width, height, data, noData: NaN, transform: northUpTransform(west, north, cellDeg), crs: 'EPSG:4326' };
    expect(sampleAtLonLat(dem, lon, lat)).toBeLessThan(1);
    const o = landscapeOpenness(dem, lon, lat, { radius: 1200 })!;
    expect(o.openHorizonShare).toBe(0); // a bowl: (120 - 1.6) / 1200 rises 5.6 deg
  });
});

describe('scores.view_quality contract', () => {
  it('reports a missing DEM as unavailable or not integrated, never a score', () => {
    const a = viewQualityScore({ lon, lat, dem: { status: 'unavailable', reason: 'dem.tif: file not found' } });
    expect(a).toMatchObject({ score: null, level: 'unknown', status: 'unavailable', sources: [] });
    expect(a.components.open_horizon).toMatchObject({ value: null, source: null, level: 'unknown' });
    expect(a.caveat).toMatch(/dem.tif: file not found/);
    expect(viewQualityScore({ lon, lat, dem: null }).status).toBe('not_integrated');
  });

  it('carries source, resolution and caveat on every component', () => {
    const s = viewQualityScore({ lon, lat, dem: { grid: analyticDem(() => 5), source: 'sample_dem_5m' } });
    for (const c of Object.values(s.components)) {
      expect(c.source).toBe('sample_dem_5m');
      expect(c.resolution).toBe(10);
      expect(c.caveat.length).toBeGreaterThan(20);
    }
    expect(s.method_note).toMatch(/not a line-of-sight guarantee/i);
  });
});
