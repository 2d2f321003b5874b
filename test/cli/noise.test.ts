import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { openDataStore } from '../../engine/data/dataset-store.js';
import { noiseSurface } from '../../engine/noise/noise-grid.js';
import { noiseScore } from '../../engine/scores/noise/noise-score.js';
import { noiseNetworkFor, stateAt } from '../../engine/property/inputs/domain-inputs.js';
import { at, railLine } from '../engine/noise/noise-fixtures.js';
import { truthWorld } from '../engine/noise/truth-world.js';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('propintel-noise-cli-');
const world = truthWorld(9, 24);
const files = {
  roads: join(dir, 'roads.geojson'),
  rail: join(dir, 'rail.geojson'),
  counters: join(dir, 'counters.csv'),
  loggers: join(dir, 'loggers.csv'),
  badCounters: join(dir, 'bad-counters.csv'),
};
writeFileSync(
  files.roads,
  JSON.stringify({
    type: 'FeatureCollection',
    features: world.roads.map((r) => ({
      type: 'Feature',
      properties: { road_id: r.id, name: r.name, road_class: r.roadClass, aadt: null, heavy_share: null, speed_kmh: null, gradient_pct: null, crowd_sourced: r.crowdSourced, source: r.source },
      geometry: r.geometry,
    })),
  }),
);
const tram = railLine('tram-1', 'tram', [[-3000, 700], [3000, 700]], { servicesPerDay: 250, speedKmh: 40 });
writeFileSync(files.rail, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { line_id: tram.id, name: 'Route 1', mode: 'tram', services_day: 250, speed_kmh: 40, source: 'test_rail' }, geometry: tram.geometry }] }));
writeFileSync(files.counters, ['counter_id,lon,lat,road_id,road_name,aadt,heavy_share,speed_kmh,year,source', ...world.counters.map((c) => [c.id, c.lon, c.lat, c.roadId, c.roadName, c.aadt, c.heavyShare, c.speedKmh, c.year, c.source].join(','))].join('\n'));
writeFileSync(files.loggers, ['logger_id,lon,lat,state,lden_db,laeq_day_db,laeq_night_db,year,source', ...world.loggers.map((l) => [l.id, l.lon, l.lat, l.state, l.ldenDb.toFixed(1), '', '', l.year, l.source].join(','))].join('\n'));
writeFileSync(files.badCounters, 'counter_id,lon,lat,road_id,road_name,aadt,heavy_share,speed_kmh,year,source\nc1,145,-37.8,ns-1,,many,,,2024,x\n');

const [LON, LAT] = at(80, 500);
const point = ['--lon', String(LON), '--lat', String(LAT)];

describe('propintel noise', () => {
  it('prints the score and the surface from explicit files', async () => {
    const r = await runCli(['noise', '--roads', files.roads, '--rail', files.rail, '--counters', files.counters, '--loggers', files.loggers, ...point, '--cells', '5']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.score.lden_source).toBe('transfer');
    expect(out.score.dominant_source.id).toBe('ns-2');
    expect(out.score.measured_validation).toMatchObject({ state: 'VIC', n: 24 });
    expect(out.score.components.tram.value).toBeGreaterThan(0);
    expect(out.surface).toMatchObject({ cells: 5, spacing_m: 500 });
    expect(out.surface.lden_db).toHaveLength(25);
    expect(out.surface.lden_db[12]).toBe(out.score.lden_db);
  });

  it('uses the physics path without counters, and says so', async () => {
    const r = await runCli(['noise', '--roads', files.roads, ...point, '--compact']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(r.stdout);
    expect(out.score.lden_source).toBe('physics');
    expect(out.surface.model_path).toBe('physics');
    expect(out.surface.cells).toBe(7);
    expect(out.score.measured_validation.note).toMatch(/unknown/);
  });

  it('rejects bad command lines with exit code 2 and bad data with exit code 1, naming what is wrong', async () => {
    const cells = await runCli(['noise', '--roads', files.roads, ...point, '--cells', '6']);
    expect(cells.code).toBe(2);
    expect(cells.stderr).toMatch(/noise_cells must be 5, 7 or 9, got 6/);
    const noRoads = await runCli(['noise', '--rail', files.rail, ...point]);
    expect(noRoads.code).toBe(2);
    expect(noRoads.stderr).toMatch(/--roads FILE.geojson is required with --rail/);
    const both = await runCli(['noise', '--data', defaultDataDir(), '--roads', files.roads, ...point]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either --data DIR or data files \(--roads\), not both/);
    const noPoint = await runCli(['noise', '--roads', files.roads]);
    expect(noPoint.code).toBe(2);
    const missing = await runCli(['noise', '--roads', join(dir, 'nope.geojson'), ...point]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.geojson: GeoJSON file not found \[NOT_FOUND\]/);
    const bad = await runCli(['noise', '--roads', files.roads, '--counters', files.badCounters, ...point]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad-counters\.csv: record 1 \(line 2\): aadt must be a number/);
  });

  // Sandbox address "1/91 Harding Road, Northcote VIC 3070" (datasets/sample-world/sandbox.json): on the tram road.
  const HARDING = { lon: 144.9771534, lat: -37.7522032 };

  it('reads the state network from a dataset directory (--data), as the property lookup builds it', async () => {
    const r = await runCli(['noise', '--data', defaultDataDir(), '--lon', String(HARDING.lon), '--lat', String(HARDING.lat), '--compact']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['score', 'surface']);
    // The same answer computed directly from the store's VIC network (apart from the lookup time).
    const store = await openDataStore(defaultDataDir());
    expect(stateAt(store, HARDING.lon, HARDING.lat)).toBe('VIC');
    const net = noiseNetworkFor(store, 'VIC')!;
    const expected = noiseScore(net, HARDING.lon, HARDING.lat, { state: 'VIC' });
    expect({ ...out.score, as_at: null }).toEqual(JSON.parse(JSON.stringify({ ...expected, as_at: null })));
    expect(out.surface).toEqual(JSON.parse(JSON.stringify(noiseSurface(net, HARDING.lon, HARDING.lat, { cells: 7 }))));
    // The sandbox note: road and tram noise; the subject is the centre node of the default 7x7 grid.
    expect(out.score.components.road.value).toBeGreaterThan(0);
    expect(out.score.components.tram.value).toBeGreaterThan(0);
    expect(out.score.measured_validation.state).toBe('VIC');
    expect(out.surface).toMatchObject({ cells: 7, spacing_m: 375, subject: { row: 3, col: 3 } });
    expect(out.surface.lden_db[24]).toBe(out.score.lden_db);
    const nine = JSON.parse((await runCli(['noise', '--data', defaultDataDir(), '--lon', String(HARDING.lon), '--lat', String(HARDING.lat), '--cells', '9', '--compact'])).stdout);
    expect(nine.surface).toMatchObject({ cells: 9, spacing_m: 300 });
    expect(nine.surface.lden_db[40]).toBe(out.score.lden_db);
  });

  it('says so when the point is in no state of the dataset', async () => {
    const r = await runCli(['noise', '--data', defaultDataDir(), '--lon', '160', '--lat', '-40']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no state's administrative boundaries in .* contain 160, -40 \[NOT_FOUND\]/);
  });

  it('is listed in --help and runs from the built bin', () => {
    const help = execFileSync(process.execPath, ['bin/propintel.js', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help).toMatch(/noise\s+road, rail and aircraft noise score and surface/);
    const out = JSON.parse(execFileSync(process.execPath, ['bin/propintel.js', 'noise', '--roads', files.roads, ...point, '--cells', '9', '--compact'], { cwd: root, encoding: 'utf8' }));
    expect(out.surface.lden_db).toHaveLength(81);
  });
});
