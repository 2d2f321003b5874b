import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../engine/catalogue/load-catalogue.js';
import { coverageStatus, heldExtent } from '../../../engine/catalogue/coverage.js';
import { openDataStore } from '../../../engine/data/dataset-store.js';
import { northUpTransform } from '../../../engine/geo/geo-transform.js';
import { writeGeoTiff } from '../../../engine/raster/geotiff-writer.js';
import { EngineError } from '../../../engine/errors.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { encodeTile, tileAt, tileToLonLat } from '../../helpers/mvt.js';
import { tempDir } from '../../helpers/tmp.js';

const base = {
  title: 'Test layer', custodian: 'Test custodian', licence: 'CC BY 4.0', attribution: 'Test data.', obligation_status: 'attribution_required',
  geometry_redistribution: true, currency: { last_fetched_at: '2026-10-01T00:00:00Z', established: 'bulk download', repull: 'monthly' },
};

function writeCatalogue(dir: string, sources: unknown[]) {
  writeFileSync(join(dir, 'catalogue.json'), JSON.stringify({ catalogue_version: 1, name: 'test', sources }));
}

describe('the catalogue loader', () => {
  it('loads a valid catalogue', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'zones.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [] }));
    writeCatalogue(dir, [{ ...base, id: 'vic_zones', paths: ['planning.zone'], coverage: { VIC: 'complete' }, format: 'geojson', files: [{ path: 'zones.geojson', state: 'VIC' }] }]);
    const c = await loadCatalogue(dir);
    expect(c.sources.map((s) => s.id)).toEqual(['vic_zones']);
    expect(heldExtent(c, 'planning.zone', 'VIC')).toBe('complete');
    expect(heldExtent(c, 'planning.zone', 'NSW')).toBe('none');
  });

  it('reports every problem at once, each with the source id and the field', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.geojson'), JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::7855' } }, features: [] }));
    await writeGeoTiff(join(dir, 'dem.tif'), { width: 4, height: 4, data: new Float32Array(16), noData: NaN, transform: northUpTransform(320000, 5812000, 5), crs: 'EPSG:7855' });
    writeCatalogue(dir, [
      { ...base, id: 'bad_path', paths: ['planning.zoning'], coverage: { VIC: 'complete' }, format: 'geojson', files: [{ path: 'a.geojson' }] },
      { ...base, id: 'missing_file', paths: ['planning.overlay'], coverage: { VIC: 'complete' }, format: 'geojson', files: [{ path: 'nope.geojson' }] },
      { ...base, id: 'bad_state', paths: ['planning.heritage'], coverage: { VIK: 'complete' }, format: 'geojson', files: [{ path: 'a.geojson' }] },
      { ...base, id: 'crs_geojson', paths: ['planning.easement'], coverage: { VIC: 'complete' }, format: 'geojson', files: [{ path: 'a.geojson', crs: 'EPSG:7856' }] },
      { ...base, id: 'crs_tiff', paths: ['scores.flood.terrain'], coverage: { VIC: 'partial' }, format: 'geotiff', files: [{ path: 'dem.tif', crs: 'EPSG:28355' }] },
      { ...base, id: 'bad_date', paths: ['planning.growth_area'], coverage: { VIC: 'complete' }, format: 'geojson', currency: { last_fetched_at: 'last week', established: 'x', repull: 'y' }, files: [{ path: 'a.geojson' }] },
    ]);
    let err: EngineError | undefined;
    try {
      await loadCatalogue(dir);
    } catch (e) {
      err = e as EngineError;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect(err!.code).toBe('INVALID_DATA');
    const problems = err!.details.problems as { source: string; field: string; message: string }[];
    const pairs = problems.map((p) => `${p.source}/${p.field}`);
    expect(pairs).toEqual(expect.arrayContaining(['bad_path/paths[0]', 'missing_file/files[0].path', 'bad_state/coverage.VIK', 'crs_geojson/files[0].crs', 'crs_tiff/files[0].crs', 'bad_date/currency.last_fetched_at']));
    expect(err!.message).toMatch(/unknown payload path "planning.zoning"/);
    expect(err!.message).toMatch(/file not found: nope.geojson/);
    expect(err!.message).toMatch(/unknown state "VIK"/);
    expect(err!.message).toMatch(/inconsistent CRS: declared EPSG:7856 but a.geojson says EPSG:7855/);
    expect(err!.message).toMatch(/inconsistent CRS: declared EPSG:28355 but dem.tif says EPSG:7855/);
  });

  it('checks a raster\'s declared CRS against a known header without opening the file (a layer file\'s), and opens the rest', async () => {
    const dir = tempDir();
    // Not a GeoTIFF at all: opening it would fail, so a clean load proves the known header was used.
    writeFileSync(join(dir, 'known.tif'), 'not a tiff');
    await writeGeoTiff(join(dir, 'dem.tif'), { width: 4, height: 4, data: new Float32Array(16), noData: NaN, transform: northUpTransform(320000, 5812000, 5), crs: 'EPSG:7855' });
    writeCatalogue(dir, [{ ...base, id: 'dems', paths: ['scores.flood.terrain'], coverage: { VIC: 'partial' }, format: 'geotiff', files: [{ path: 'known.tif', crs: 'EPSG:7855' }, { path: 'dem.tif', crs: 'EPSG:7855' }] }]);
    const known = new Map([['known.tif', 'EPSG:7855']]);
    const c = await loadCatalogue(dir, { rasterCrs: (p) => known.get(p) });
    expect(c.sources[0].files.map((f) => f.path)).toEqual(['known.tif', 'dem.tif']);
    // A known header that disagrees is reported as the file's would be; unknown, the file is opened (and fails).
    await expectEngineError(() => loadCatalogue(dir, { rasterCrs: (p) => (p === 'known.tif' ? 'EPSG:28355' : undefined) }), 'INVALID_DATA', /inconsistent CRS: declared EPSG:7855 but known.tif says EPSG:28355/);
    await expectEngineError(() => loadCatalogue(dir), 'INVALID_DATA', /dems\/files\[0\]\.path|known\.tif/);
  });

  it('lists every defect of one source: an unknown path and state do not hide a missing file or a CRS mismatch', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.geojson'), JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::7855' } }, features: [] }));
    writeCatalogue(dir, [
      { ...base, id: 'many_defects', paths: ['planning.zone', 'planning.zoning'], coverage: { VIK: 'complete' }, format: 'geojson', files: [{ path: 'nope.geojson' }, { path: 'a.geojson', crs: 'EPSG:7856' }, { path: '../outside.geojson' }] },
    ]);
    const e = await expectEngineError(() => loadCatalogue(dir), 'INVALID_DATA', /5 problems in the catalogue/);
    const problems = e.details.problems as { source: string; field: string; message: string }[];
    expect(problems.map((p) => `${p.source}/${p.field}: ${p.message}`).sort()).toEqual([
      'many_defects/coverage.VIK: unknown state "VIK" (states are VIC, NSW, QLD, WA, SA, TAS, ACT, NT)',
      'many_defects/files[0].path: file not found: nope.geojson',
      'many_defects/files[1].crs: inconsistent CRS: declared EPSG:7856 but a.geojson says EPSG:7855',
      'many_defects/files[2].path: must stay inside the dataset directory, got "../outside.geojson"',
      'many_defects/paths[1]: unknown payload path "planning.zoning"',
    ].sort());
  });

  it('rejects a missing catalogue and one that is not JSON', async () => {
    const dir = tempDir();
    await expectEngineError(() => loadCatalogue(dir), 'NOT_FOUND', /no catalogue/);
    writeFileSync(join(dir, 'catalogue.json'), '{ not json');
    await expectEngineError(() => loadCatalogue(dir), 'INVALID_DATA', /not valid JSON/);
  });
});

describe('coverage status', () => {
  it('maps a lookup outcome and the held extent to the four statuses (spec section 3)', () => {
    expect(coverageStatus('complete', { count: 3, failed: false })).toEqual({ status: 'data_returned', feature_count: 3, lookup_complete: true });
    expect(coverageStatus('partial', { count: 2, failed: true })).toEqual({ status: 'data_returned', feature_count: 2, lookup_complete: false });
    expect(coverageStatus('complete', { count: 0, failed: false })).toEqual({ status: 'checked_clear', feature_count: 0, lookup_complete: true });
    expect(coverageStatus('complete', { count: 0, failed: true }).status).toBe('unavailable');
    expect(coverageStatus('partial', { count: 0, failed: false }).status).toBe('not_assessed');
    expect(coverageStatus('none', { count: 0, failed: false }).status).toBe('not_assessed');
    expect(coverageStatus('complete', { count: 0, failed: false }, { emptyIsNotAssessed: true }).status).toBe('not_assessed');
  });
});

describe('the data store', () => {
  it('loads all or nothing: every unreadable file is named in one error', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'good.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [145, -37] } }] }));
    writeFileSync(join(dir, 'x', 'broken.geojson'), '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[145,-37]]}}]}');
    writeFileSync(join(dir, 'x', 'short.csv'), 'id,lon,lat\n1,145,-37\n2,145\n');
    copyFileSync(join(dir, 'x', 'good.geojson'), join(dir, 'x', 'good2.geojson'));
    writeCatalogue(dir, [
      { ...base, id: 'good', paths: ['transport.airport'], coverage: { VIC: 'complete' }, format: 'geojson', files: [{ path: 'x/good.geojson' }, { path: 'x/good2.geojson' }] },
      { ...base, id: 'broken', paths: ['transport.rail_line'], coverage: { VIC: 'complete' }, format: 'geojson', files: [{ path: 'x/broken.geojson' }] },
      { ...base, id: 'short', paths: ['transport.pt_stop'], coverage: { VIC: 'complete' }, format: 'csv', files: [{ path: 'x/short.csv' }] },
    ]);
    const e = await expectEngineError(() => openDataStore(dir), 'INVALID_DATA', /2 files could not be loaded/, /broken\.geojson: feature 0 has invalid geometry/, /short\.csv: line 3 has 2 fields/);
    expect(e.details.problems).toHaveLength(2);
  });

  it('rejects at load a record file missing a column its payload paths need, naming the file and the column', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'addresses.csv'), 'address_id,number,street_type,suburb,state,postcode,lon,lat\n1,12,St,Carlton,VIC,3053,144.96,-37.80\n');
    writeFileSync(join(dir, 'counters.csv'), 'counter_id,lon,lat,road_name\nC1,144.96,-37.80,Main Rd\n');
    writeFileSync(join(dir, 'stops.csv'), 'stop_id,name,mode\nS1,Central,bus\n');
    writeFileSync(join(dir, 'schools.csv'), 'school_id,name,lng,lat\nK1,Carlton PS,144.96,-37.80\n');
    writeFileSync(join(dir, 'das.jsonl'), '{"id":1,"lat":-37.8,"lng":144.96,"state":"VIC","description":"Two dwellings"}\n');
    // Accepted: an address file using the alternative names the address reader also takes.
    writeFileSync(join(dir, 'nsw-addresses.csv'), 'id,number_first,street_name,state,lng,latitude\n7,3,George,NSW,151.2,-33.87\n');
    const csv = (id: string, path: string, paths: string[]) => ({ ...base, id, paths, coverage: { VIC: 'complete', NSW: 'complete' }, format: 'csv', files: [{ path }] });
    writeCatalogue(dir, [
      csv('addresses', 'addresses.csv', ['resolved.address']),
      csv('counters', 'counters.csv', ['scores.noise.sources']),
      csv('stops', 'stops.csv', ['transport.pt_stop']),
      csv('schools', 'schools.csv', ['poi.schools_500m', 'scores.walkability.amenities']),
      { ...csv('das', 'das.jsonl', ['development_applications']), format: 'jsonl' },
      csv('nsw_addresses', 'nsw-addresses.csv', ['resolved.address']),
    ]);
    const e = await expectEngineError(() => openDataStore(dir), 'INVALID_DATA', /5 files could not be loaded/);
    const lines = e.message.split('\n').slice(1).sort();
    expect(lines).toEqual([
      `  - addresses: ${join(dir, 'addresses.csv')}: missing required column "street_name" needed for resolved.address`,
      `  - counters: ${join(dir, 'counters.csv')}: missing required column "aadt" needed for scores.noise.sources`,
      `  - das: ${join(dir, 'das.jsonl')}: missing required column "lodged" needed for development_applications`,
      // The walkability reader takes exactly lon, so lng (enough for the school point index) is not.
      `  - schools: ${join(dir, 'schools.csv')}: missing required column "lon" needed for poi.schools_500m, scores.walkability.amenities`,
      `  - stops: ${join(dir, 'stops.csv')}: missing required columns "lon" (or "lng", "longitude", "long", "x") needed for locating records of transport.pt_stop; "lat" (or "latitude", "y") needed for locating records of transport.pt_stop`,
    ]);
  });

  it('loads a tiled vector layer (a z/x/y.mvt directory) into the same indexes as GeoJSON', async () => {
    const dir = tempDir();
    const t = tileAt(144.963, -37.814, 15);
    mkdirSync(join(dir, 'overlays', '15', `${t.x}`), { recursive: true });
    const middle = { type: 3 as const, rings: [[[1024, 1024], [3072, 1024], [3072, 3072], [1024, 3072], [1024, 1024]] as [number, number][]] };
    writeFileSync(join(dir, 'overlays', '15', `${t.x}`, `${t.y}.mvt`), encodeTile('heritage', [{ props: { code: 'HO42' }, geom: middle }]));
    writeCatalogue(dir, [{ ...base, id: 'vic_heritage_tiles', paths: ['planning.heritage'], coverage: { VIC: 'complete' }, format: 'mvt', files: [{ path: 'overlays', state: 'VIC', tile_layer: 'heritage' }] }]);
    const store = await openDataStore(dir);
    const [layer] = store.vectorsFor('planning.heritage', 'VIC');
    const [lon, lat] = tileToLonLat(15, t.x, t.y, 0.5, 0.5);
    const inside = layer.polygons!.index.containing(lon, lat).map((i) => layer.features[layer.polygons!.featureOf[i]].properties!.code);
    expect(inside).toEqual(['HO42']);
    const [cornerLon, cornerLat] = tileToLonLat(15, t.x, t.y, 0.05, 0.05);
    expect(layer.polygons!.index.containing(cornerLon, cornerLat)).toEqual([]);
  });

  it('rejects mvt entries without a tile layer, pointing at a file, or with a bad zoom; tile_layer only on mvt', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'tiles'));
    writeFileSync(join(dir, 'one.mvt'), encodeTile('x', []));
    writeFileSync(join(dir, 'z.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [] }));
    writeCatalogue(dir, [
      { ...base, id: 'no_layer', paths: ['planning.heritage'], coverage: { VIC: 'complete' }, format: 'mvt', files: [{ path: 'tiles' }] },
      { ...base, id: 'not_dir', paths: ['planning.heritage'], coverage: { VIC: 'complete' }, format: 'mvt', files: [{ path: 'one.mvt', tile_layer: 'x', zoom: 30 }] },
      { ...base, id: 'geojson_layer', paths: ['planning.zone'], coverage: { VIC: 'complete' }, format: 'geojson', files: [{ path: 'z.geojson', tile_layer: 'x' }] },
    ]);
    const e = await expectEngineError(() => loadCatalogue(dir), 'INVALID_DATA');
    const got = (e.details.problems as { source: string; field: string }[]).map((p) => `${p.source} ${p.field}`).sort();
    expect(got).toEqual(['geojson_layer files[0].tile_layer', 'no_layer files[0].tile_layer', 'not_dir files[0].path', 'not_dir files[0].zoom']);
  });

  it('indexes points, lines and polygons and finds sources by payload path and state', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mixed.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [
      { type: 'Feature', properties: { n: 'sub' }, geometry: { type: 'Point', coordinates: [145.001, -37.001] } },
      { type: 'Feature', properties: { n: 'line' }, geometry: { type: 'LineString', coordinates: [[145, -37], [145.01, -37]] } },
      { type: 'Feature', properties: { n: 'area' }, geometry: { type: 'Polygon', coordinates: [[[145, -37.01], [145.01, -37.01], [145.01, -37], [145, -37], [145, -37.01]]] } },
    ] }));
    writeFileSync(join(dir, 'stops.csv'), 'stop_id,lon,lat\nA,145.002,-37.002\nB,,\n');
    writeCatalogue(dir, [
      { ...base, id: 'power', paths: ['utilities.power'], coverage: { VIC: 'complete' }, format: 'geojson', files: [{ path: 'mixed.geojson', state: 'VIC' }] },
      { ...base, id: 'stops', paths: ['transport.pt_stop'], coverage: { NSW: 'complete' }, format: 'csv', files: [{ path: 'stops.csv', state: 'NSW' }] },
    ]);
    const store = await openDataStore(dir);
    const [layer] = store.vectorsFor('utilities.power', 'VIC');
    expect(layer.features[layer.points!.featureOf[0]].properties!.n).toBe('sub');
    expect(layer.lines!.nearestFeatures(145.005, -37.0005, 1)[0].feature).toBe(1);
    expect(layer.polygons!.index.containing(145.005, -37.005).map((i) => layer.features[layer.polygons!.featureOf[i]].properties!.n)).toEqual(['area']);
    expect(store.vectorsFor('utilities.power', 'NSW')).toEqual([]);
    const [stops] = store.recordsFor('transport.pt_stop', 'NSW');
    expect(stops.rows).toHaveLength(2);
    expect(stops.points!.index.count).toBe(1); // the row without coordinates is not indexed
  });
});
