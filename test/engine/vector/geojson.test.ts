import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTransformer, LONLAT } from '../../../engine/geo/crs.js';
import { distanceMetres } from '../../../engine/geo/distance.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';
import { parseGeoJsonLayer, readGeoJsonLayer } from '../../../engine/vector/geojson-reader.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { realdata } from '../../helpers/realdata.js';
import { tempDir } from '../../helpers/tmp.js';
import { needsRealdata } from '../../helpers/skip.js';

const dir = tempDir();

function fc(features: unknown[], extra: Record<string, unknown> = {}) {
  return JSON.stringify({ type: 'FeatureCollection', ...extra, features });
}

const square = (x: number, y: number, s: number) => [[[x, y], [x + s, y], [x + s, y + s], [x, y + s], [x, y]]];

describe('GeoJSON layers', () => {
  it('loads lon/lat features, keeps properties and ids, and computes the extent', () => {
    const layer = parseGeoJsonLayer(fc([
      { type: 'Feature', id: 'z1', properties: { ZONE_CODE: 'GRZ1' }, geometry: { type: 'Polygon', coordinates: square(145, -37.81, 0.01) } },
      { type: 'Feature', properties: null, geometry: { type: 'Point', coordinates: [144.99, -37.8] } },
      { type: 'Feature', properties: {}, geometry: null },
    ]), 'zones.geojson');
    expect(layer.sourceCrs).toBe('EPSG:4326');
    expect(layer.features).toHaveLength(2);
    expect(layer.nullGeometryCount).toBe(1);
    expect(layer.features[0].id).toBe('z1');
    expect(layer.features[0].properties).toEqual({ ZONE_CODE: 'GRZ1' });
    expect(layer.features[1].properties).toEqual({});
    expect(layer.bbox).toEqual([144.99, -37.81, 145.01, -37.8]);
  });

  it('reprojects a layer in a projected CRS (legacy "crs" member) to lon/lat, round trip under 0.01 m', () => {
    const rnd = seededRandom(5);
    const lonlat: number[][] = [];
    const toMga = getTransformer(LONLAT, 'EPSG:7855');
    const features = [];
    for (let i = 0; i < 200; i++) {
      const p = [144.9 + rnd.next() * 0.2, -37.9 + rnd.next() * 0.2];
      lonlat.push(p);
      features.push({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: toMga.forward(p[0], p[1]) } });
    }
    const layer = parseGeoJsonLayer(fc(features, { crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::7855' } } }), 'mga.geojson');
    expect(layer.sourceCrs).toBe('EPSG:7855');
    let worst = 0;
    layer.features.forEach((f, i) => {
      const [lon, lat] = (f.geometry as { coordinates: number[] }).coordinates;
      worst = Math.max(worst, distanceMetres(lon, lat, lonlat[i][0], lonlat[i][1]));
    });
    expect(worst).toBeLessThan(0.01);
  });

  it('reprojects with the CRS the catalogue declares', () => {
    const [x, y] = getTransformer(LONLAT, 'EPSG:28356').forward(151.2, -33.87);
    const layer = parseGeoJsonLayer(fc([{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [x, y] } }]), 'a.geojson', { crs: 'EPSG:28356' });
    const [lon, lat] = (layer.features[0].geometry as { coordinates: number[] }).coordinates;
    expect(lon).toBeCloseTo(151.2, 9);
    expect(lat).toBeCloseTo(-33.87, 9);
  });

  const bad: [string, unknown, RegExp][] = [
    ['an unclosed ring', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, /not closed/],
    ['a ring of three positions', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] }, /at least 4 positions/],
    ['a one-point line', { type: 'LineString', coordinates: [[145, -37]] }, /at least 2 positions/],
    ['a non-numeric coordinate', { type: 'Point', coordinates: [145, 'south'] }, /not a finite number/],
    ['an unknown type', { type: 'Circle', coordinates: [145, -37] }, /unknown geometry type "Circle"/],
    ['projected coordinates without a CRS', { type: 'Point', coordinates: [320000, 5812000] }, /out of range.*declared CRS/],
    ['a hole that is not closed', { type: 'Polygon', coordinates: [square(0, 0, 10)[0], [[1, 1], [2, 1], [2, 2], [1, 2]]] }, /coordinates\[1\].*not closed/],
  ];
  for (const [what, geometry, message] of bad) {
    it(`rejects ${what} naming the file, the feature and the problem`, async () => {
      const text = fc([
        { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [145, -37] } },
        { type: 'Feature', id: 42, properties: {}, geometry },
      ]);
      await expectEngineError(() => parseGeoJsonLayer(text, 'overlays.geojson'), 'INVALID_DATA', 'overlays.geojson', /feature 1 \(id 42\)/, message);
    });
  }

  it('rejects text that is not JSON, a non-collection and a CRS that disagrees with the catalogue', async () => {
    await expectEngineError(() => parseGeoJsonLayer('{"type": "FeatureCollection", "features": [', 'cut.geojson'), 'INVALID_DATA', 'cut.geojson', /not valid JSON/);
    await expectEngineError(() => parseGeoJsonLayer('{"type": "Topology"}', 'topo.geojson'), 'INVALID_DATA', /expected a FeatureCollection/);
    const withCrs = fc([], { crs: { type: 'name', properties: { name: 'EPSG:7855' } } });
    await expectEngineError(() => parseGeoJsonLayer(withCrs, 'x.geojson', { crs: 'EPSG:7856' }), 'INVALID_DATA', /inconsistent CRS/);
    await expectEngineError(() => parseGeoJsonLayer(fc([], { crs: { type: 'name', properties: { name: 'EPSG:2193' } } }), 'nz.geojson'), 'UNSUPPORTED', 'EPSG:2193');
  });

  it('reads files, and reports a missing one as NOT_FOUND', async () => {
    const file = join(dir, 'ok.geojson');
    writeFileSync(file, fc([{ type: 'Feature', properties: { a: 1 }, geometry: { type: 'Point', coordinates: [145, -37] } }]));
    expect((await readGeoJsonLayer(file)).features).toHaveLength(1);
    await expectEngineError(() => readGeoJsonLayer(join(dir, 'missing.geojson')), 'NOT_FOUND', 'missing.geojson');
  });

  const yarraZones = realdata('zones/yarra_vicmap_plan_zone_2019.geojson');
  it('loads the real Yarra planning-zone layer (1,304 polygons)', async (ctx) => {
    needsRealdata(ctx, yarraZones, 'zones/yarra_vicmap_plan_zone_2019.geojson');
    const layer = await readGeoJsonLayer(yarraZones!);
    expect(layer.features.length).toBe(1304);
    expect(layer.features.every((f) => f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon')).toBe(true);
    expect(layer.bbox[0]).toBeGreaterThan(144.88);
    expect(layer.bbox[3]).toBeLessThan(-37.68);
  });
});
