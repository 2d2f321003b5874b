// surfaces.contours through the engine on the sample world: the real source choice (contourSourcesFor, then
// the `contours` worker task) for one address per kind of source, each asked for 0.5 m, finer than every
// floor of spec §4, so each reports its floor as `raised_to_floor`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../../datasets/sample-world.js';
import type { Engine } from '../../../../engine/runtime/engine.js';
import { getTransformer, LONLAT } from '../../../../engine/geo/crs.js';
import { createWindow } from '../../../../engine/geo/window.js';
import { openRaster } from '../../../../engine/raster/geotiff-reader.js';
import { sampleAtLonLat } from '../../../../engine/raster/sample.js';
import type { ContoursAvailable } from '../../../../engine/surfaces/contours/contours-layer.js';
import { isMultipleOf } from '../../../../engine/surfaces/contours/interval.js';
import { useSampleEngine, type SandboxAddress } from '../../../helpers/sample-engine.js';

const world = defaultDataDir();
let engine: Engine;
let sandbox: SandboxAddress[];

const opened = useSampleEngine(1);
beforeAll(() => {
  ({ engine, sandbox } = opened);
});

/** The first sandbox address of a state, as a point. */
const sandboxIn = (state: string) => {
  const s = sandbox.find((a) => a.state === state)!;
  return { lon: s.lng, lat: s.lat };
};

/** The engine's contours layer at a point, asked for 0.5 m. */
async function contoursAt(lon: number, lat: number): Promise<ContoursAvailable> {
  const r = await engine.surfaces(lon, lat, { layers: ['contours'], contourIntervalM: 0.5 });
  expect(r.unavailable).toEqual({});
  const layer = r.surfaces.contours as ContoursAvailable;
  expect(layer.available).toBe(true);
  return layer;
}

/** Checks shared by every source: levels on the interval, one feature set per level, LineStrings in the window. */
function expectWellFormed(layer: ContoursAvailable, lon: number, lat: number) {
  expect(layer.truncated).toBe(false);
  expect(layer.levels.length).toBeGreaterThan(1);
  expect(layer.levels.every((l) => isMultipleOf(l, layer.interval_m))).toBe(true);
  const features = layer.features.features;
  expect(new Set(features.map((f) => f.properties.elevation))).toEqual(new Set(layer.levels));
  const window = createWindow(lon, lat);
  const toWindow = getTransformer(LONLAT, window.crs);
  const [x0, y0, x1, y1] = window.bbox;
  for (const f of features) {
    expect(f.geometry.type).toBe('LineString');
    expect(f.geometry.coordinates.length).toBeGreaterThanOrEqual(2);
    for (const [lo, la] of f.geometry.coordinates) {
      const [x, y] = toWindow.forward(lo, la);
      // Clipped to the window square (to the 6-decimal rounding of lon/lat, about 0.1 m).
      expect(x > x0 - 0.2 && x < x1 + 0.2 && y > y0 - 0.2 && y < y1 + 0.2).toBe(true);
    }
  }
}

/**
 * For a contour-line dataset: the delivered levels are elevations the file holds (lines are selected, never
 * traced), and every line of the file with a vertex inside the window at a multiple of the interval is there.
 */
function expectLinesOf(layer: ContoursAvailable, file: string, lon: number, lat: number) {
  const doc = JSON.parse(readFileSync(join(world, file), 'utf8')) as { features: { properties: { elevation: number }; geometry: { type: string; coordinates: number[][] } }[] };
  const window = createWindow(lon, lat);
  const toWindow = getTransformer(LONLAT, window.crs);
  const [x0, y0, x1, y1] = window.bbox;
  const held = new Set(doc.features.map((f) => f.properties.elevation));
  const inside = new Set(
    doc.features
      .filter((f) => isMultipleOf(f.properties.elevation, layer.interval_m))
      .filter((f) => f.geometry.coordinates.some(([lo, la]) => {
        const [x, y] = toWindow.forward(lo, la);
        return x > x0 && x < x1 && y > y0 && y < y1;
      }))
      .map((f) => f.properties.elevation),
  );
  expect(inside.size).toBeGreaterThan(1);
  expect(layer.levels.every((l) => held.has(l))).toBe(true);
  expect([...inside].every((l) => layer.levels.includes(l))).toBe(true);
}

describe('surfaces.contours on the sample world: one source per address, the floor of spec §4', () => {
  // The three states that publish contour lines: the subject, the line dataset, and the floor 0.5 m rises to.
  const LINE_CASES = [
    { name: 'VIC inside the metro footprint: the Vicmap metro 1 m lines', at: () => sandboxIn('VIC'), source: 'sample_vic_contours_metro', source_name: 'Vicmap Elevation metro contours, 1 m', floor: 1, file: 'vic/contours-vicmap-metro-1m.geojson' },
    // East of the metro footprint (144.950-144.993 E) on the VIC tile; the statewide lines reach 145.019 E.
    { name: 'VIC outside the metro footprint: the Vicmap statewide 10 m lines', at: () => ({ lon: 145.005, lat: -37.755 }), source: 'sample_vic_contours_statewide', source_name: 'Vicmap Elevation statewide contours, 10 m', floor: 10, file: 'vic/contours-vicmap-statewide-10m.geojson' },
    { name: 'QLD: the state 1 m lines', at: () => sandboxIn('QLD'), source: 'sample_qld_contours', source_name: 'Queensland contours, 1 m', floor: 1, file: 'qld/contours-qld-1m.geojson' },
    { name: 'TAS: the LIST 5 m lines', at: () => sandboxIn('TAS'), source: 'sample_tas_contours', source_name: 'LIST contours, 5 m', floor: 5, file: 'tas/contours-tas-5m.geojson' },
  ];

  it.each(LINE_CASES)('$name, 0.5 m raised to $floor m', async ({ at, source, source_name, floor, file }) => {
    const { lon, lat } = at();
    const layer = await contoursAt(lon, lat);
    expect(layer).toMatchObject({ source, source_name, native_interval_m: floor, interval_m: floor, interval_source: 'raised_to_floor' });
    expectWellFormed(layer, lon, lat);
    expectLinesOf(layer, file, lon, lat);
  });

  it('NSW: isolines of the national 5 m DEM, 0.5 m raised to 1 m, every vertex on its level of the DEM', async () => {
    const { lon, lat } = sandboxIn('NSW');
    const layer = await contoursAt(lon, lat);
    expect(layer).toMatchObject({ source: 'sample_national_dem', source_name: 'National 5 m LiDAR digital elevation model', native_interval_m: 1, interval_m: 1, interval_source: 'raised_to_floor' });
    expect(layer.coverage).toBeUndefined();
    expectWellFormed(layer, lon, lat);
    const raster = await openRaster(join(world, 'nsw', 'dem-5m.tif'));
    const grid = await raster.readPixels([0, 0, raster.info.width, raster.info.height]);
    await raster.close();
    // Vertices are linear interpolations on cell edges, so bilinear sampling there returns the level (to the
    // lon/lat rounding); the levels run in whole metres without a gap (a DEM holds every level in its range).
    let worst = 0;
    for (const f of layer.features.features) for (const [lo, la] of f.geometry.coordinates) worst = Math.max(worst, Math.abs(sampleAtLonLat(grid, lo, la) - f.properties.elevation));
    expect(worst).toBeLessThan(0.05);
    expect(layer.levels).toEqual(Array.from({ length: layer.levels.length }, (_, i) => layer.levels[0] + i));
  });
});
