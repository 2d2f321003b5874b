import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Feature, LineString, Polygon } from 'geojson';
import { afterAll, describe, expect, it } from 'vitest';
import { getTransformer } from '../../../../engine/geo/crs.js';
import { northUpTransform } from '../../../../engine/geo/geo-transform.js';
import { createWindow, windowLonLatBBox } from '../../../../engine/geo/window.js';
import { createEnginePool } from '../../../../engine/tasks/engine-pool.js';
import { writeGeoTiff } from '../../../../engine/raster/geotiff-writer.js';
import { cellCentre, type Grid } from '../../../../engine/raster/grid.js';
import { assessFlood, type FloodInput } from '../../../../engine/scores/flood/assess-flood.js';
import type { FloodOverlaySource } from '../../../../engine/scores/flood/flood-overlays.js';
import { tempDir } from '../../../helpers/tmp.js';

const dir = tempDir('propintel-flood-');
const pool = createEnginePool({ threads: 1, taskTimeoutMs: 20_000 });
afterAll(() => pool.destroy());
const toLonLat = getTransformer('EPSG:7855', 'EPSG:4326');

// A V-valley of 5 m cells (81 x 200, thalweg at column 40) in MGA zone 55, a 1 % AEP rainfall raster in
// lon/lat, and a flood study covering columns 30-50: 0.5 m deep within 3 cells of the thalweg, dry beyond,
// no-data outside the study; its hazard raster is H2 where wet, 0 where dry, 255 outside.
const W = 81, H = 200;
const grid = (f: (x: number, y: number) => number, Ctor: Float32ArrayConstructor | Uint8ArrayConstructor = Float32Array, noData = NaN): Grid<Float32Array> => {
  const data = new Ctor(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data[y * W + x] = f(x, y);
  return { width: W, height: H, data: data as Float32Array, noData, transform: northUpTransform(320000, 5812000, 5), crs: 'EPSG:7855' };
};
const dem = grid((x, y) => 50 + 0.2 * Math.abs(x - 40) * 5 + 0.02 * (H - 1 - y) * 5);
const demFile = join(dir, 'dem.tif');
await writeGeoTiff(demFile, dem);
const inStudy = (x: number) => x >= 30 && x <= 50;
const depthFile = join(dir, 'depth.tif');
await writeGeoTiff(depthFile, grid((x) => (!inStudy(x) ? NaN : Math.abs(x - 40) <= 3 ? 0.5 : 0)));
const hazardFile = join(dir, 'hazard.tif');
await writeGeoTiff(hazardFile, grid((x) => (!inStudy(x) ? 255 : Math.abs(x - 40) <= 3 ? 2 : 0), Uint8Array, 255) as never, { noData: 255 });
const [lon0, lat0] = toLonLat.forward(320000, 5812000);
const rainFile = join(dir, 'ifd.tif');
await writeGeoTiff(rainFile, { width: 4, height: 4, data: new Float32Array(16).fill(55), noData: NaN, transform: northUpTransform(lon0 - 0.05, lat0 + 0.05, 0.025), crs: 'EPSG:4326' });
const badDem = join(dir, 'corrupt.tif');
writeFileSync(badDem, 'II*\0garbage');

const at = (col: number, row = 150) => toLonLat.forward(...cellCentre(dem, col, row));
function box(c0: number, c1: number, r0: number, r1: number): Polygon {
  const [x0, y0] = at(c0, r1);
  const [x1, y1] = at(c1, r0);
  return { type: 'Polygon', coordinates: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]] };
}
const vicOverlays: FloodOverlaySource = {
  source: 'sample_vic_overlays',
  name: 'Sample VIC planning overlays',
  state: 'VIC',
  coverage: 'complete',
  verified: true,
  redistribution: true,
  response_path: 'a planning permit may be required: contact the council',
  features: [
    { type: 'Feature', properties: { ZONE_CODE: 'LSIO1', ZONE_DESCR: 'LAND SUBJECT TO INUNDATION OVERLAY' }, geometry: box(36, 44, 0, 199) },
    { type: 'Feature', properties: { ZONE_CODE: 'BFO4', ZONE_DESCR: 'BUILT FORM OVERLAY' }, geometry: box(55, 70, 100, 199) },
  ],
};
const indicative: FloodOverlaySource = {
  source: 'sample_council_indicative',
  name: 'Council indicative overland flow',
  state: 'VIC',
  coverage: 'partial',
  verified: false,
  redistribution: false,
  response_path: 'ask the council for a flood search',
  features: [{ type: 'Feature', properties: { name: 'Overland flow path' }, geometry: box(56, 64, 140, 160) }],
};
const creek: Feature<LineString> = { type: 'Feature', properties: { name: 'Sample Creek', waterway: 'stream', source: 'sample_watercourses' }, geometry: { type: 'LineString', coordinates: [at(40, 0), at(40, 199)] } };

const base = (col: number, over: Partial<FloodInput> = {}): FloodInput => {
  const [lon, lat] = at(col);
  return {
    lon,
    lat,
    state: 'VIC',
    dem: { file: demFile, source: 'sample_dem_vic' },
    hand: { halfWidth: 200, snap: 0, thresholdKm2: 0.003 },
    watercourses: [{ source: 'sample_watercourses', features: [creek] }],
    designRainfall: { file: rainFile, source: 'sample_ifd' },
    studies: [{ source: 'sample_study', name: 'Sample Creek flood study', depth: depthFile, hazard: hazardFile, response_path: 'ask the council for flood information' }],
    overlays: [vicOverlays, indicative],
    ...over,
  };
};

describe('the flood lookup', () => {
  it('gives flood_depth only where a study raster covers the address', async () => {
    const wet = await assessFlood(base(42), { pool });
    expect(wet.score.flood_depth).toEqual({ value_m: 0.5, aep: '1%', source: 'sample_study', resolution_m: 5 });
    expect(wet.score.hazard_class?.value).toBe('H2');
    const dry = await assessFlood(base(46), { pool });
    expect(dry.score.flood_depth?.value_m).toBe(0); // inside the study, modelled dry
    expect(dry.score.hazard_class).toBeUndefined();
    const outside = await assessFlood(base(60), { pool });
    expect(outside.score.flood_depth).toBeUndefined();
    expect(outside.score.components.study_depth.value).toBeNull();
  });

  it('combines HAND, water, rainfall, study and overlay into one score with provenance', async () => {
    const r = (await assessFlood(base(42), { pool })).score;
    // Two cells east of the burned creek: HAND 2 x 0.2 x 5 m = 2 m; the creek is 10 m away.
    expect(r.components.hand.value).toBeCloseTo(2, 2);
    expect(r.components.water_distance.value).toBeCloseTo(10, 0);
    expect(r.components.design_rainfall).toMatchObject({ value: 55, unit: 'mm', source: 'sample_ifd' });
    expect(r.method.burned_watercourses).toBe(true);
    expect(r.nearest_drainage?.channel_source).toBe('mapped');
    expect(r.official_layer).toBe('hit');
    expect(r.score).toBeGreaterThanOrEqual(60);
    expect(r.completeness).toBe('full');
  });

  it('reaches every official_layer value from explicit inputs', async () => {
    expect((await assessFlood(base(42))).score.official_layer).toBe('hit');
    const miss = await assessFlood(base(48));
    expect(miss.score.official_layer).toBe('checked_no_hit');
    expect(miss.score.official_layer_note).toBeNull(); // modelled dry by the study: no mapped evidence here
    const partial = await assessFlood(base(60, { overlays: [indicative] }));
    expect(partial.score.official_layer).toBe('checked_partial_coverage');
    expect(partial.score.official_layer_note).toMatch(/Overland flow path, an overland-flow control in Council indicative overland flow \(not verified\): ask the council for a flood search/);
    expect((await assessFlood(base(60, { state: 'WA', overlays: [] }))).score.official_layer).toBe('none');
  });

  it('returns hazards.flood hits with source properties, and clipped geometry only for licensed sources', async () => {
    const [lon, lat] = at(60);
    const r = await assessFlood({ ...base(60), lon, lat, includeGeometry: true, dem: null });
    // BFO4 covers this point too but is not a flood control, so only the indicative overlay is a hit.
    expect(r.hazards.hits.map((h) => h.source)).toEqual(['sample_council_indicative']);
    expect(r.hazards.hits[0].properties).toEqual({ name: 'Overland flow path' });
    expect(r.hazards.hits[0].geometry).toBeUndefined();
    expect(r.hazards.hits[0].geometry_omitted).toBe('licence_does_not_allow_redistribution');
    const lsio = await assessFlood({ ...base(42), includeGeometry: true, dem: null });
    const hit = lsio.hazards.hits.find((h) => h.code === 'LSIO')!;
    expect(hit.properties.ZONE_CODE).toBe('LSIO1');
    const [bx0, by0, bx1, by1] = windowLonLatBBox(createWindow(...at(42), 1500));
    for (const [x, y] of (hit.geometry as Polygon).coordinates[0]) {
      expect(x).toBeGreaterThanOrEqual(bx0 - 1e-12);
      expect(x).toBeLessThanOrEqual(bx1 + 1e-12);
      expect(y).toBeGreaterThanOrEqual(by0 - 1e-12);
      expect(y).toBeLessThanOrEqual(by1 + 1e-12);
    }
  });

  it('answers from the small HAND analysis near a small channel, and from the full window for a large catchment', async () => {
    // A valley 7 km long between ridges 100 columns either side of its thalweg (column 200) and a ridge
    // across row 100 at its head; beyond the ridges the land falls away. The small analysis reaches 840 m
    // (168 cells) around the subject: at row 200 the drainage's whole catchment (rows 100-200) is inside
    // it; at row 1000 the catchment runs past its northern edge, so the full window runs.
    const CW = 401, CH = 1400;
    const cross = (x: number) => 0.2 * Math.min(Math.abs(x - 200), 200 - Math.abs(x - 200)) * 5;
    const along = (y: number) => (y >= 100 ? 0.02 * (CH - 1 - y) * 5 : 0.02 * (CH - 1 - 100) * 5 - 0.02 * (100 - y) * 5);
    const data = new Float32Array(CW * CH);
    for (let y = 0; y < CH; y++) for (let x = 0; x < CW; x++) data[y * CW + x] = 50 + cross(x) + along(y);
    const valley: Grid<Float32Array> = { width: CW, height: CH, data, noData: NaN, transform: northUpTransform(320000, 5812000, 5), crs: 'EPSG:7855' };
    const file = join(dir, 'long-valley.tif');
    await writeGeoTiff(file, valley);
    const point = (row: number): FloodInput => {
      const [lon, lat] = toLonLat.forward(...cellCentre(valley, 202, row));
      return { lon, lat, state: 'WA', dem: { file, source: 'sample_dem' }, hand: { thresholdKm2: 0.01 } };
    };
    const near = (await assessFlood(point(200))).score;
    expect(near.method.analysis_half_width_m).toBe(600);
    expect(near.components.hand.value).toBeCloseTo(2, 2);
    expect(near.nearest_drainage!.catchment_truncated).toBe(false);
    // Rows 100-200 of the 201 columns between the ridges (the ridge cells drain to either side by the
    // tie-break, so count from the accumulation's own answer: at least the 199 inner columns).
    expect(near.nearest_drainage!.contributing_area_km2).toBeGreaterThanOrEqual((199 * 101 * 25) / 1e6);
    expect(near.nearest_drainage!.contributing_area_km2).toBeLessThanOrEqual((201 * 101 * 25) / 1e6);
    const far = (await assessFlood(point(1000))).score;
    expect(far.method.analysis_half_width_m).toBe(1500);
    expect(far.nearest_drainage!.catchment_truncated).toBe(true);
  });

  it('degrades only the terrain component when the hydro task fails in the worker', async () => {
    const r = await assessFlood(base(42, { dem: { file: badDem, source: 'sample_dem_vic' } }), { pool });
    expect(r.score.completeness).toBe('partial');
    expect(r.score.degraded_components).toEqual(['hand']);
    expect(r.score.components.hand).toMatchObject({ value: null, level: 'unknown', source: 'sample_dem_vic' });
    expect(r.score.components.hand.caveat).toMatch(/INVALID_DATA/);
    // A DEM with no data at the subject is no DEM there: not a degraded lookup.
    const [lon, lat] = at(42);
    const off = await assessFlood({ ...base(42), lon: lon + 0.5, lat, studies: [], overlays: [] }, { pool });
    expect(off.score.completeness).toBe('full');
    expect(off.score.components.hand.caveat).toMatch(/No elevation model is held/);
    // Everything else still answered.
    expect(r.score.flood_depth?.value_m).toBe(0.5);
    expect(r.score.official_layer).toBe('hit');
    expect(r.score.score).toBeGreaterThanOrEqual(60);
  });
});
