import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/runtime/engine.js';
import { createWindow, windowGridSpec } from '../../engine/geo/window.js';
import { writeGeoTiff } from '../../engine/raster/geotiff-writer.js';
import { decodeHeatGrid } from '../../engine/surfaces/heat/heat-surface.js';
import { tempDir } from '../helpers/tmp.js';
import { analyticDem } from '../helpers/analytic-dem.js';
import { LAT, LON, xy } from '../engine/scores/walkability/walk-fixtures.js';

const dir = tempDir();
const f = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), shutdown: new Promise(() => {}) });
  return { code, stdout, stderr, json: code === 0 ? JSON.parse(stdout) : null };
}

const [gLon, gLat] = xy(600, 0);
const [cLon, cLat] = xy(0, 200);
const amenities = f('sample_amenities.csv', [
  'amenity_id,lon,lat,name,amenity,shop,leisure,healthcare,crowd_sourced,source',
  `g1,${gLon},${gLat},Fresh Market,,supermarket,,,false,sample_shops`,
  `c1,${cLon},${cLat},"Cafe, on the corner",cafe,,,,true,sample_osm`,
].join('\n'));
const roads = f('sample_roads.geojson', JSON.stringify({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', properties: { road_class: 'motorway', source: 'sample_roads' }, geometry: { type: 'LineString', coordinates: [xy(300, 2000), xy(300, -2000)] } }],
}));
const crossings = f('sample_crossings.csv', 'crossing_id,lon,lat,kind,source\n');
const contamination = f('sample_epa.csv', `site_id,lon,lat,name,status,register,state,source\ne1,${xy(100, 0).join(',')},Old Depot,Notified,EPA,VIC,sample_epa\n`);
const dem = join(dir, 'sample_dem.tif');
const landcover = join(dir, 'sample_worldcover.tif');
await writeGeoTiff(dem, analyticDem(() => 20, { halfWidth: 2300, cell: 20 }));
const spec = windowGridSpec(createWindow(LON, LAT), 10);
await writeGeoTiff(landcover, { ...spec, data: new Uint8Array(spec.width * spec.height).fill(10), noData: 0 });

describe('propintel scores', () => {
  it('prints the requested scores from explicit files', async () => {
    const r = await run(['scores', `--lon=${LON}`, `--lat=${LAT}`, '--state', 'VIC', '--only', 'walkability,contamination,view_quality', '--amenities', amenities, '--roads', roads, '--crossings', crossings, '--dem', dem, '--contamination', contamination, '--contamination-coverage', 'VIC=complete,WA=not_integrated']);
    expect(r.code).toBe(0);
    expect(Object.keys(r.json.scores)).toEqual(['walkability', 'contamination', 'view_quality']);
    const w = r.json.scores.walkability;
    // The supermarket 600 m east is across the motorway with no crossing point: 600 + 400 m -> decay 0.45.
    expect(w.category_scores.grocery.score).toBe(45);
    expect(w.category_scores.grocery.nearest_name).toBe('Fresh Market');
    expect(w.osm_amenity_categories).toEqual(['cafe_restaurant']);
    expect(w.coverage.regional_slope).toMatchObject({ status: 'answered', source: 'sample_dem' });
    expect(w.coverage.amenities.sets.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([['amenities', 'answered'], ['stops', 'not_integrated'], ['schools', 'not_integrated']]);
    expect(r.json.scores.contamination).toMatchObject({ epa_status: 'sites_nearby', register_coverage: 'complete' });
    expect(r.json.scores.view_quality).toMatchObject({ status: 'computed', open_horizon_share: 1 });
  });

  it('reports WA contamination as not integrated, and a file that fails to load as degraded', async () => {
    const r = await run(['scores', `--lon=${LON}`, `--lat=${LAT}`, '--state', 'WA', '--only', 'contamination,walkability', '--amenities', amenities, '--water', join(dir, 'missing.geojson'), '--crossings', crossings, '--contamination', contamination, '--contamination-coverage', 'WA=not_integrated']);
    expect(r.code).toBe(0);
    expect(r.json.scores.contamination).toMatchObject({ epa_status: 'not_integrated', sites: null, score: null });
    expect(r.json.scores.walkability.coverage.major_water_check.status).toBe('degraded');
    expect(r.json.scores.walkability.coverage.major_water_check.reason).toMatch(/missing.geojson/);
    expect(r.json.scores.walkability.delivery_contract.cacheable).toBe(false);
  });

  it('prints every score and the heat surface (its class grid run-length encoded) by default', async () => {
    const r = await run(['scores', `--lon=${LON}`, `--lat=${LAT}`, '--state', 'VIC', '--landcover', landcover, '--dem', dem, '--address', '1 Sample St', '--on-parcel']);
    expect(Object.keys(r.json.scores)).toEqual(['bushfire', 'heat_island', 'solar', 'walkability', 'view_quality', 'contamination', 'aircraft_noise']);
    expect(r.json.surfaces.heat).toMatchObject({ cooling_cover_share: 1, covered_share: 1, source: 'sample_worldcover' });
    expect(decodeHeatGrid(r.json.surfaces.heat.grid)).toEqual(new Uint8Array(90_000).fill(10)); // all tree cover
    expect(r.json.scores.heat_island.components.cooling_cover_share.value).toBe(1);
    expect(r.json.scores.bushfire.delivery_contract.subject_identity.kind).toBe('resolved_address_on_parcel');
    expect(r.json.scores.bushfire).toMatchObject({ score: null, official_zone_status: 'none' }); // no vegetation given
  });

  it('every score carries sources and a caveat, and every component level, resolution, source and caveat', async () => {
    const r = await run(['scores', `--lon=${LON}`, `--lat=${LAT}`, '--state', 'VIC', '--amenities', amenities, '--dem', dem, '--landcover', landcover, '--contamination', contamination, '--contamination-coverage', 'VIC=complete']);
    type Comp = Record<string, unknown>;
    type Score = { caveat: string; sources: string[]; components: Record<string, Comp>; category_scores?: Record<string, { component: Comp }> };
    const scores = r.json.scores as Record<string, Score>;
    expect(Object.keys(scores)).toHaveLength(7);
    for (const [key, s] of Object.entries(scores)) {
      expect(s.caveat.length, key).toBeGreaterThan(20);
      expect(Array.isArray(s.sources), key).toBe(true);
      const comps = [...Object.values(s.components), ...Object.values(s.category_scores ?? {}).map((c) => c.component)];
      expect(comps.length, key).toBeGreaterThan(0);
      for (const c of comps) {
        expect(Object.keys(c).sort(), key).toEqual(['caveat', 'level', 'resolution', 'source', 'unit', 'value']);
        expect(String(c.caveat).length, key).toBeGreaterThan(10);
      }
    }
    // Inputs that answered name their source; those that did not carry null, never a guess.
    expect(scores.view_quality.components.open_horizon.source).toBe('sample_dem');
    expect(scores.solar.components.pvout.source).toBeNull();
  });

  it('rejects a missing subject, an unknown key and a malformed coverage pair with exit code 2', async () => {
    expect((await run(['scores', '--lat=-37'])).stderr).toMatch(/--lon and --lat are required/);
    const bad = await run(['scores', '--lon=145', '--lat=-37', '--only', 'walkability,nonesuch']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown score key nonesuch; choose from noise, flood, bushfire, heat_island, solar, walkability, view_quality, contamination, aircraft_noise/);
    // Noise and flood read models only a dataset builds: asked of input files, a usage error naming them.
    const fromFiles = await run(['scores', '--lon=145', '--lat=-37', '--only', 'noise,solar', '--ghi', 'ghi.tif']);
    expect(fromFiles.code).toBe(2);
    expect(fromFiles.stderr).toMatch(/noise is computed from a dataset only \(--data\), not from input files/);
    expect((await run(['scores', '--lon=145', '--lat=-37', '--contamination-coverage', 'VIC:complete'])).code).toBe(2);
    expect((await run(['scores', '--lon=145', '--lat=-37', '--fdi', '70'])).stderr).toMatch(/--fdi must be one of 100, 80, 50, 40/);
  });

  it('--data: the engine\'s scores for a sandbox address of the sample world, the state worked out from the LGA layers', async () => {
    const sandbox = JSON.parse(readFileSync(join(defaultDataDir(), 'sandbox.json'), 'utf8')) as { addresses: { address: string; state: string; lng: number; lat: number }[] };
    const s = sandbox.addresses[0];
    const r = await run(['scores', '--data', defaultDataDir(), `--lon=${s.lng}`, `--lat=${s.lat}`, '--only', 'walkability,contamination,bushfire']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.query).toEqual({ lon: s.lng, lat: s.lat, state: s.state });
    expect(Object.keys(r.json.scores)).toEqual(['bushfire', 'walkability', 'contamination']);
    expect(r.json.degraded).toEqual([]);
    // The same objects engine.scores returns for the point.
    const engine = await createEngine({ datasets: defaultDataDir(), threads: 1 });
    try {
      const direct = await engine.scores(s.lng, s.lat, { only: ['walkability', 'contamination', 'bushfire'] });
      expect(r.json.scores).toEqual(JSON.parse(JSON.stringify(direct.scores)));
    } finally {
      await engine.close();
    }
    expect(r.json.scores.walkability.coverage.amenities.status).toBe('answered');
  }, 60_000);

  it('--data cannot be mixed with input files, and file-only flags need files', async () => {
    const mixed = await run(['scores', '--data', defaultDataDir(), '--lon=145', '--lat=-37', '--dem', dem]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/cannot be combined with --dem/);
    const fdi = await run(['scores', '--data', defaultDataDir(), '--lon=145', '--lat=-37', '--fdi', '80']);
    expect(fdi.stderr).toMatch(/cannot be combined with --fdi/);
    expect((await run(['scores', '--lon=145', '--lat=-37', '--anef-coverage', 'VIC=complete'])).stderr).toMatch(/--anef-coverage only apply with input files/);
    expect((await run(['scores', '--data', defaultDataDir(), '--lon=145', '--lat=-37', '--state', 'XX'])).stderr).toMatch(/--state must be one of/);
  });
});
