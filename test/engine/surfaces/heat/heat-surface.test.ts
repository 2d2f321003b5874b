import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { northUpTransform } from '../../../../engine/geo/geo-transform.js';
import { createWindow, windowGridSpec } from '../../../../engine/geo/window.js';
import { openRaster } from '../../../../engine/raster/geotiff-reader.js';
import { writeGeoTiff } from '../../../../engine/raster/geotiff-writer.js';
import type { Grid } from '../../../../engine/raster/grid.js';
import { seededRandom } from '../../../../engine/random/seeded-random.js';
import { decodeHeatGrid, heatSurface, heatSurfaceFromClasses, readHeatSurface } from '../../../../engine/surfaces/heat/heat-surface.js';
import { LAND_COVER_CLASSES } from '../../../../engine/surfaces/heat/land-cover-classes.js';
import { tempDir } from '../../../helpers/tmp.js';

const dir = tempDir();
const window = createWindow(144.98, -37.8);
const spec = windowGridSpec(window, 10);

/** A Uint8 land-cover grid on the window's own 10 m grid, class by (col, row). */
function onWindow(f: (c: number, r: number) => number): Grid<Uint8Array> {
  const data = new Uint8Array(spec.width * spec.height);
  for (let r = 0; r < spec.height; r++) for (let c = 0; c < spec.width; c++) data[r * spec.width + c] = f(c, r);
  return { ...spec, data, noData: 0 };
}

describe('surfaces.heat', () => {
  it('quadrants of trees, built-up, water and grass give cooling 1/2, heat 1/4, neutral 1/4 of the window', () => {
    const half = spec.width / 2;
    const g = onWindow((c, r) => (r < half ? (c < half ? 10 : 50) : c < half ? 80 : 30));
    const s = heatSurface(g, window, 'sample_worldcover');
    expect(spec.width).toBe(300);
    expect(s).toMatchObject({ cooling_cover_share: 0.5, heat_source_share: 0.25, neutral_share: 0.25, covered_share: 1, uncovered_share: 0, resolution_m: 10, source: 'sample_worldcover' });
    expect(s.class_legend.find((e) => e.name === 'tree_cover')).toMatchObject({ code: 10, cells: 150 * 150, share: 0.25, heat_driver_role: 'cooling' });
    expect(s.heat_driver_role).toMatchObject({ tree_cover: 'cooling', built_up: 'heat_source', bare_sparse: 'heat_source', grassland: 'neutral', permanent_water: 'cooling' });
    const cells = decodeHeatGrid(s.grid);
    expect(cells[0]).toBe(10); // row 0 is north, column 0 west
    expect(cells[spec.width - 1]).toBe(50);
    // Quadrant rows are two runs each: 300 rows of [10 x 150, 50 x 150] then [80 x 150, 30 x 150].
    expect(s.grid.runs).toHaveLength(4 * 300);
    expect(s.grid.runs.slice(0, 4)).toEqual([10, 150, 50, 150]);
    expect(s.note).toMatch(/not a per-cell exposure score/i);
  });

  it('cells outside the land-cover footprint are not covered, and the shares sum to the covered share', () => {
    // Land cover for the west half only (the east is off the raster): covered 1/2.
    const half = spec.width / 2;
    const west: Grid<Uint8Array> = { width: half, height: spec.height, data: new Uint8Array(half * spec.height).fill(50), noData: 0, transform: spec.transform, crs: spec.crs };
    const s = heatSurface(west, window, 'sample_worldcover');
    expect(s.covered_share).toBe(0.5);
    expect(s.uncovered_share).toBe(0.5);
    expect(s.heat_source_share + s.cooling_cover_share + s.neutral_share).toBe(s.covered_share);
    expect(s.caveat).toMatch(/covers 50 % of the window/);
  });

  it('for random classes (some no-data, some not in the legend), shares always add up', () => {
    const rnd = seededRandom(11);
    const codes = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 100, 33, 255];
    for (let trial = 0; trial < 5; trial++) {
      const classes = Uint8Array.from({ length: spec.width * spec.height }, () => rnd.pick(codes));
      const s = heatSurfaceFromClasses(classes, window, 'x');
      expect(s.cooling_cover_share + s.heat_source_share + s.neutral_share).toBeCloseTo(s.covered_share, 12);
      expect(s.covered_share + s.uncovered_share).toBeCloseTo(1, 12);
      expect(s.class_legend.reduce((a, e) => a + e.share, 0)).toBeCloseTo(s.covered_share, 12);
      // Reference count: 3 of the 14 codes drawn are outside the legend (0, 33, 255).
      const uncovered = classes.filter((c) => c === 0 || c === 33 || c === 255).length;
      expect(s.uncovered_share).toBeCloseTo(uncovered / classes.length, 12);
    }
    expect(LAND_COVER_CLASSES).toHaveLength(11);
  });

  it('resamples a land cover in another CRS (lon/lat) onto the window: west trees, east built-up split about half and half', () => {
    const cell = 0.0001; // about 9 x 11 m
    const width = 500, height = 400;
    const west = 144.98 - (width / 2) * cell, north = -37.8 + (height / 2) * cell;
    const data = new Uint8Array(width * height).map((_, i) => ((i % width) < width / 2 ? 10 : 50));
    const s = heatSurface({ width, height, data, noData: 0, transform: northUpTransform(west, north, cell), crs: 'EPSG:4326' }, window, 'sample_worldcover');
    expect(s.covered_share).toBe(1); // the lon/lat grid spans 4.4 x 4.4 km, more than the window
    expect(Math.abs(s.cooling_cover_share - 0.5)).toBeLessThan(2 / spec.width); // the split falls within a column
    expect(s.cooling_cover_share + s.heat_source_share).toBe(1);
  });

  it('reads a land-cover GeoTIFF with a no-data value through the real reader, matching the in-memory path', async () => {
    // A 20 m raster offset from the window grid, covering its south-west: nearest resampling onto 10 m cells.
    const width = 100, height = 100;
    const data = new Uint8Array(width * height).map((_, i) => ((i % width) < 50 ? 10 : (Math.floor(i / width) < 50 ? 60 : 0)));
    const west = window.x - 1500 - 7, north = window.y + 200;
    const grid: Grid<Uint8Array> = { width, height, data, noData: 0, transform: northUpTransform(west, north, 20), crs: window.crs };
    const file = join(dir, 'worldcover.tif');
    await writeGeoTiff(file, grid);
    const r = await openRaster(file);
    try {
      const fromFile = await readHeatSurface(r, window, 'sample_worldcover');
      const inMemory = heatSurface(grid, window, 'sample_worldcover');
      expect(fromFile.grid.runs).toEqual(inMemory.grid.runs);
      expect(fromFile.covered_share).toBeGreaterThan(0.1);
      expect(fromFile.covered_share).toBeLessThan(0.5);
      expect(fromFile.cooling_cover_share + fromFile.heat_source_share + fromFile.neutral_share).toBeCloseTo(fromFile.covered_share, 12);
    } finally {
      await r.close();
    }
  });

  it('survives JSON: the parsed grid decodes to exactly the class codes it was built from, in a compact payload', () => {
    // Patchy land cover: 30 x 30 m blocks of seeded classes (some no-data), like a suburb at 10 m.
    const rnd = seededRandom(5);
    const codes = [0, 10, 30, 50, 50, 60, 80];
    const blocks = Array.from({ length: 100 * 100 }, () => rnd.pick(codes));
    const classes = new Uint8Array(spec.width * spec.height).map((_, i) => blocks[Math.floor(i / spec.width / 3) * 100 + Math.floor((i % spec.width) / 3)]);
    const s = heatSurfaceFromClasses(classes, window, 'sample_worldcover');
    const json = JSON.stringify(s);
    const parsed = JSON.parse(json) as typeof s;
    expect(decodeHeatGrid(parsed.grid)).toEqual(classes);
    expect(parsed.grid).toMatchObject({ width: 300, height: 300, cell_size_m: 10, encoding: 'rle', order: 'row_major_north_first', no_data: 0 });
    expect(parsed.grid.transform).toEqual(spec.transform);
    // Every run is [code, count >= 1] and neighbouring runs differ; the counts fill the grid.
    let total = 0, bad = 0;
    for (let k = 0; k < parsed.grid.runs.length; k += 2) {
      if (parsed.grid.runs[k + 1] < 1 || (k > 0 && parsed.grid.runs[k] === parsed.grid.runs[k - 2])) bad++;
      total += parsed.grid.runs[k + 1];
    }
    expect(bad).toBe(0);
    expect(total).toBe(90_000);
    // At most one run per 3-cell block edge: 300 rows x 100 blocks = 30,000 runs, each under 8 characters,
    // well below the 90,000 cells a typed array would spell out as an object of keys (about 981 KB).
    expect(parsed.grid.runs.length / 2).toBeLessThanOrEqual(30_000);
    expect(json.length).toBeLessThan(250_000);
    expect(json).not.toMatch(/"0":/);
  });

  it('rejects runs that do not fill the grid exactly', () => {
    expect(() => decodeHeatGrid({ width: 2, height: 2, encoding: 'rle', runs: [10, 3] })).toThrow(/cover 3 of 4/);
    expect(() => decodeHeatGrid({ width: 2, height: 2, encoding: 'rle', runs: [10, 3, 50, 2] })).toThrow(/overflow/);
  });
});
