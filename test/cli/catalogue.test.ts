// `propintel catalogue`: init, add (format and CRS detected; the source loaded as the engine loads it before
// anything is written), show, and check naming every defect of a deliberately broken catalogue at once.
// Every file is written by the test.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDataStore } from '../../engine/data/dataset-store.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir('catalogue-cli-');
const square = (x: number, y: number, d: number) => [[[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]];
const zones = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { ZONE_CODE: 'GRZ1', ZONE_DESC: 'GENERAL RESIDENTIAL ZONE - SCHEDULE 1', LGA: 'YARRA' }, geometry: { type: 'Polygon', coordinates: square(144.98, -37.81, 0.01) } }] };
const write = (name: string, text: string) => {
  const p = join(dir, 'inputs', name);
  mkdirSync(join(dir, 'inputs'), { recursive: true });
  writeFileSync(p, text);
  return p;
};
const base = ['--coverage', 'partial', '--licence', 'CC BY 4.0', '--attribution', 'Test data (c) the test'];

describe('propintel catalogue', () => {
  it('init, add and show: the file copied under its state, format and CRS detected, loadable by the engine', async () => {
    const ds = join(dir, 'one');
    expect((await runCli(['catalogue', 'init', ds])).code).toBe(0);
    expect((await runCli(['catalogue', 'init', ds])).code).toBe(1); // never over an existing catalogue
    const file = write('zones.geojson', JSON.stringify(zones));
    const r = await runCli(['catalogue', 'add', ds, '--file', file, '--id', 'test_zones', '--paths', 'planning.zone,planning.zones_nearby', '--state', 'VIC', '--schema', 'vicmap_planning_zone', ...base]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('file: vic/zones.geojson');
    expect(r.stdout).toContain('format: geojson');
    expect(r.stdout).toMatch(/CRS: EPSG:4326 \(no crs member/);
    const stops = write('stops.csv', 'stop_id,lon,lat\n1,144.985,-37.805\n2,144.99,-37.80\n');
    expect((await runCli(['catalogue', 'add', ds, '--file', stops, '--id', 'test_stops', '--paths', 'transport.pt_stop', '--state', 'VIC', ...base])).stdout).toMatch(/format: csv\n {2}CRS: EPSG:4326 \(lon\/lat coordinate columns\)/);
    const doc = JSON.parse(readFileSync(join(ds, 'catalogue.json'), 'utf8'));
    expect(doc.sources.map((s: { id: string }) => s.id)).toEqual(['test_zones', 'test_stops']);
    expect(doc.sources[0]).toMatchObject({ format: 'geojson', schema: 'vicmap_planning_zone', coverage: { VIC: 'partial' }, files: [{ path: 'vic/zones.geojson', state: 'VIC' }], obligation_status: 'attribution_required' });
    // The engine loads what the command wrote.
    const store = await openDataStore(ds);
    expect(store.vectorsFor('planning.zone', 'VIC')).toHaveLength(1);
    const show = await runCli(['catalogue', 'show', ds]);
    expect(show.stdout).toMatch(/VIC:\n {2}planning\.zone +test_zones \(partial\)\n {2}planning\.zones_nearby +test_zones \(partial\)\n {2}transport\.pt_stop +test_stops \(partial\)/);
    expect((await runCli(['catalogue', 'check', ds])).stdout).toContain('every source loads');
  });

  it('add refuses a source that would not load, naming every problem, and writes nothing', async () => {
    const ds = join(dir, 'two');
    await runCli(['catalogue', 'init', ds]);
    const before = readFileSync(join(ds, 'catalogue.json'), 'utf8');
    // Problems with the flags: all at once.
    const flags = await runCli(['catalogue', 'add', ds, '--file', write('z2.geojson', JSON.stringify(zones)), '--id', 'x', '--paths', 'planning.zone,planning.zoning', '--state', 'XX', '--coverage', 'most', '--licence', 'L', '--attribution', 'A']);
    expect(flags.code).toBe(1);
    expect(flags.stderr).toMatch(/--state: unknown state "XX"/);
    expect(flags.stderr).toMatch(/--coverage: must be partial or complete/);
    expect(flags.stderr).toMatch(/--paths: unknown payload path\(s\) planning\.zoning/);
    // A file the engine would refuse: a CSV without the column its path needs; not copied, not listed.
    const schools = write('schools.csv', 'name,lon,lat\nA School,144.98,-37.80\n');
    const csv = await runCli(['catalogue', 'add', ds, '--file', schools, '--id', 'schools', '--paths', 'poi.schools_500m', '--state', 'VIC', ...base]);
    expect(csv.code).toBe(1);
    expect(csv.stderr).toMatch(/missing required column "school_id" needed for poi\.schools_500m/);
    // A declared CRS the file contradicts.
    const crsFile = write('mga.geojson', JSON.stringify({ ...zones, crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::7855' } } }));
    const crs = await runCli(['catalogue', 'add', ds, '--file', crsFile, '--id', 'mga', '--paths', 'planning.zone', '--state', 'VIC', '--crs', 'EPSG:28355', ...base]);
    expect(crs.stderr).toMatch(/--crs: declared EPSG:28355 but mga\.geojson says EPSG:7855/);
    expect(readFileSync(join(ds, 'catalogue.json'), 'utf8')).toBe(before);
    expect(existsSync(join(ds, 'vic')) ? readdirSync(join(ds, 'vic')) : []).toEqual([]);
    // An unknown format.
    const shp = write('roads.xyz', 'x');
    expect((await runCli(['catalogue', 'add', ds, '--file', shp, '--id', 'r', '--paths', 'scores.noise.roads', ...base])).stderr).toMatch(/cannot tell the format of roads\.xyz/);
  });

  it('check names every defect of a deliberately broken catalogue at once', async () => {
    const ds = join(dir, 'broken');
    mkdirSync(join(ds, 'vic'), { recursive: true });
    writeFileSync(join(ds, 'vic/zones.geojson'), JSON.stringify(zones));
    writeFileSync(join(ds, 'vic/schools.csv'), 'name,lon,lat\nA,144.9,-37.8\n');
    writeFileSync(join(ds, 'vic/bad.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[144.9, -37.8], [145, -37.8]]] } }] }));
    const src = (id: string, extra: Record<string, unknown>) => ({
      id, title: id, paths: ['planning.zone'], coverage: { VIC: 'partial' }, custodian: 'c', licence: 'CC BY 4.0', attribution: 'a', obligation_status: 'attribution_required', geometry_redistribution: true,
      currency: { last_fetched_at: '2026-01-01T00:00:00Z', established: 'x', repull: 'y' }, format: 'geojson', files: [{ path: 'vic/zones.geojson', state: 'VIC' }], ...extra,
    });
    writeFileSync(join(ds, 'catalogue.json'), JSON.stringify({
      catalogue_version: 1, name: 'broken', sources: [
        src('a_unknown_path', { paths: ['planning.zoning'] }),
        src('b_missing_file', { files: [{ path: 'vic/nowhere.geojson', state: 'VIC' }] }),
        src('c_missing_column', { paths: ['poi.schools_500m'], format: 'csv', files: [{ path: 'vic/schools.csv', state: 'VIC' }] }),
        src('d_bad_geometry', { files: [{ path: 'vic/bad.geojson', state: 'VIC' }] }),
        src('e_bad_state', { coverage: { VICTORIA: 'partial' } }),
        src('f_fine', {}),
      ],
    }));
    const r = await runCli(['catalogue', 'check', ds]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/6 problems/); // e_bad_state has two: the unknown state, and its file's state outside the coverage
    expect(r.stderr).toMatch(/a_unknown_path: paths\[0\]: .*planning\.zoning/);
    expect(r.stderr).toMatch(/b_missing_file: files\[0\]\.path: file not found: vic\/nowhere\.geojson/);
    expect(r.stderr).toMatch(/c_missing_column: .*missing required column "school_id"/);
    expect(r.stderr).toMatch(/d_bad_geometry: .*a linear ring needs at least 4 positions/);
    expect(r.stderr).toMatch(/e_bad_state: coverage/);
    expect(r.stderr).not.toMatch(/f_fine/);
  });
});
