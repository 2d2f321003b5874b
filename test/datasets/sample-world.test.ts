import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, generateSampleWorld } from '../../datasets/generator/generate.js';
import { TILES } from '../../datasets/generator/tiles.js';
import { defaultDataDir, isCurrentSampleWorld } from '../../datasets/sample-world.js';
import { coverageStatus, heldExtent, sourcesFor, COVERAGE_STATUSES, type CoverageStatus } from '../../engine/catalogue/coverage.js';
import { PAYLOAD_PATHS, type PayloadPath } from '../../engine/catalogue/payload-paths.js';
import { STATES, type StateCode } from '../../engine/catalogue/states.js';
import { openDataStore, type DataStore } from '../../engine/data/dataset-store.js';
import { mgaCrsForLon } from '../../engine/geo/crs.js';
import { openRaster } from '../../engine/raster/geotiff-reader.js';
import { gridStats } from '../../engine/raster/grid-stats.js';
import { createWindow } from '../../engine/geo/window.js';
import { tempDir } from '../helpers/tmp.js';

const world = defaultDataDir();
let store: DataStore;
beforeAll(async () => {
  store = await openDataStore(world);
});

const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: { path: string; sha256: string }[] };

describe('the sample world', () => {
  it('is present, current and made with the default seed', () => {
    expect(isCurrentSampleWorld(world)).toBe(true);
    expect(store.catalogue.synthetic).toBe(true);
    expect(store.catalogue.generator?.seed).toBe(DEFAULT_SEED);
  });

  it('is deterministic: the same seed gives byte-identical files, whatever the thread count', async () => {
    const a = tempDir();
    const b = tempDir();
    await generateSampleWorld({ out: a, tiles: ['act', 'nt'], threads: 1 });
    await generateSampleWorld({ out: b, tiles: ['act', 'nt'], threads: 2 });
    const ma = manifest(a).files, mb = manifest(b).files;
    expect(ma.length).toBeGreaterThan(60);
    expect(mb).toEqual(ma);
    // And the tiles match the shared world generated earlier with the same seed.
    const shared = new Map(manifest(world).files.map((f) => [f.path, f.sha256]));
    for (const f of ma.filter((x) => x.path.startsWith('act/') || x.path.startsWith('nt/'))) expect(shared.get(f.path), f.path).toBe(f.sha256);
  }, 120_000);

  it('changes with the seed', async () => {
    const c = tempDir();
    await generateSampleWorld({ out: c, tiles: ['act'], seed: 7, threads: 1 });
    const dem = manifest(c).files.find((f) => f.path === 'act/dem-5m.tif')!;
    expect(new Map(manifest(world).files.map((f) => [f.path, f.sha256])).get('act/dem-5m.tif')).not.toBe(dem.sha256);
  }, 60_000);

  it('has eight tiles, one per state, every source prefixed sample_ and attributed as synthetic', () => {
    expect(TILES.map((t) => t.state).sort()).toEqual([...STATES].sort());
    for (const s of store.catalogue.sources) {
      expect(s.id).toMatch(/^sample_/);
      expect(s.attribution).toMatch(/[Ss]ynthetic/);
    }
    const dems = store.rastersFor('surfaces.contours').filter((r) => r.source.id === 'sample_national_dem');
    expect(dems.map((d) => d.file.state).sort()).toEqual([...STATES].sort());
  });

  it('every GeoTIFF reads back with geotiff.js, with the CRS and transform the catalogue says', async () => {
    const rasters = store.files.filter((f) => f.kind === 'raster');
    expect(rasters.length).toBeGreaterThan(60);
    for (const r of rasters) {
      const src = await openRaster(r.path);
      try {
        expect(src.info.crs, r.file.path).toBe(r.file.crs);
        expect(src.info.transform).toEqual(r.info.transform);
        const g = await src.readPixels([0, 0, Math.min(64, src.info.width), Math.min(64, src.info.height)]);
        expect(gridStats(g).count + (r.file.path.includes('hazard') || r.file.path.includes('flood-study') ? 1 : 0), r.file.path).toBeGreaterThan(0);
      } finally {
        await src.close();
      }
    }
    // The DEMs are 5 m grids in the MGA zone of their tile, 1200 cells (6 km) a side.
    for (const t of TILES) {
      const dem = store.rastersFor('scores.flood.terrain', t.state).find((r) => r.source.id === 'sample_national_dem')!;
      expect(dem.info.crs).toBe(mgaCrsForLon(t.lon));
      expect([dem.info.width, dem.info.height, dem.info.transform[1], dem.info.transform[5]]).toEqual([1200, 1200, 5, -5]);
    }
  });

  it('has believable terrain: relief, a creek valley below the ground around it, a hilly edge', async () => {
    for (const t of TILES) {
      const dem = store.rastersFor('scores.flood.terrain', t.state).find((r) => r.source.id === 'sample_national_dem')!;
      const src = await openRaster(dem.path);
      const g = await src.readWindow(createWindow(t.lon, t.lat));
      await src.close();
      const s = gridStats(g!);
      expect(s.max - s.min, t.id).toBeGreaterThan(8);
      expect(s.count, t.id).toBeGreaterThan(g!.width * g!.height * (t.id === 'nt' ? 0.6 : 0.99));
    }
  });

  it('lists twelve sandbox addresses across all eight states, each resolving to one parcel with that address', async () => {
    const sandbox = await store.sandbox();
    expect(sandbox).toHaveLength(12);
    expect(new Set(sandbox.map((s) => s.state)).size).toBe(8);
    for (const s of sandbox) {
      expect(Object.keys(s).sort()).toEqual(['address', 'lat', 'lng', 'note', 'state']);
      const parcels = store.vectorsFor('resolved.parcel', s.state);
      const hits = parcels.flatMap((p) => p.polygons!.index.containing(s.lng, s.lat).map((i) => p.features[p.polygons!.featureOf[i]]));
      expect(hits, s.address).toHaveLength(1);
      const pfi = hits[0].properties!.pfi;
      const rows = store.recordsFor('resolved.address', s.state).flatMap((t) => t.rows).filter((r) => r.pfi === pfi);
      const texts = rows.map((r) => `${r.unit ? `${r.unit}/` : ''}${r.number} ${r.street_name} ${r.street_type}, ${r.suburb} ${r.state} ${r.postcode}`);
      expect(texts, s.address).toContain(s.address);
    }
  });

  it('feeds every payload path of spec section 2 the engine fills from at least one source', () => {
    const missing = PAYLOAD_PATHS.filter((p) => sourcesFor(store.catalogue, p, null).length === 0);
    expect(missing).toEqual([]);
  });

  it('holds paths completely, partially and not at all across states (the coverage pattern)', () => {
    const extents = (p: PayloadPath) => STATES.map((s) => heldExtent(store.catalogue, p, s));
    expect(extents('hazards.flood')).toEqual(expect.arrayContaining(['complete', 'partial', 'none']));
    expect(extents('hazards.contamination')).toContain('none'); // WA: register not integrated
    expect(heldExtent(store.catalogue, 'hazards.flood', 'WA')).toBe('none');
    expect(heldExtent(store.catalogue, 'hazards.flood', 'QLD')).toBe('partial');
    expect(heldExtent(store.catalogue, 'hazards.flood', 'VIC')).toBe('complete');
    expect(heldExtent(store.catalogue, 'hazards.bushfire', 'NT')).toBe('none');
  });

  it('reaches every coverage_status value on sandbox addresses', async () => {
    const sandbox = await store.sandbox();
    const reached = new Set<CoverageStatus>();
    const polygonCount = (path: PayloadPath, state: StateCode, lon: number, lat: number) =>
      store.vectorsFor(path, state).reduce((n, l) => n + (l.polygons ? l.polygons.index.containing(lon, lat).length : 0), 0);
    for (const s of sandbox) {
      for (const path of PAYLOAD_PATHS) {
        const layers = store.vectorsFor(path, s.state);
        if (layers.length === 0 && heldExtent(store.catalogue, path, s.state) !== 'none') continue;
        if (layers.some((l) => !l.polygons)) continue;
        const entry = coverageStatus(heldExtent(store.catalogue, path, s.state), { count: polygonCount(path, s.state, s.lng, s.lat), failed: false });
        reached.add(entry.status);
      }
    }
    // A lookup that fails is `unavailable` whatever the data (the payload issue forces real failures).
    reached.add(coverageStatus(heldExtent(store.catalogue, 'planning.zone', 'VIC'), { count: 0, failed: true }).status);
    expect([...reached].sort()).toEqual([...COVERAGE_STATUSES].sort());
  });

  it('covers every official_layer situation the flood score needs: a hit, a complete miss, a partial miss, no source', async () => {
    const sandbox = await store.sandbox();
    const floodHit = (s: (typeof sandbox)[number]) =>
      store.vectorsFor('hazards.flood', s.state).some((l) => l.polygons!.index.containing(s.lng, s.lat).some((i) => /\b(LSIO|FO|SBO)\d*\b|Flood|FLD|HFER|C12/.test(JSON.stringify(l.features[l.polygons!.featureOf[i]].properties))));
    const vic = sandbox.filter((s) => s.state === 'VIC');
    expect(floodHit(vic[0])).toBe(true);
    expect(floodHit(vic[1])).toBe(false);
    const qld2 = sandbox.filter((s) => s.state === 'QLD')[1];
    expect(floodHit(qld2)).toBe(false);
    expect(heldExtent(store.catalogue, 'hazards.flood', qld2.state)).toBe('partial');
    expect(heldExtent(store.catalogue, 'hazards.flood', 'WA')).toBe('none');
  });

  it('has DAs with a childcare share, both council URL types, and shared coordinates at shared addresses', () => {
    const rows = store.recordsFor('development_applications').flatMap((t) => t.rows);
    expect(rows.length).toBeGreaterThan(8 * 250);
    const childcare = rows.filter((r) => /child ?care|early learning|kindergarten/i.test(String(r.description)));
    expect(childcare.length / rows.length).toBeGreaterThan(0.04);
    expect(new Set(rows.map((r) => r.council_url_type))).toEqual(new Set(['application_record', 'search_entry']));
    const byAddress = new Map<string, Set<string>>();
    for (const r of rows) {
      const key = `${r.address}|${r.suburb}|${r.state}`;
      const set = byAddress.get(key) ?? new Set<string>();
      set.add(`${r.lat},${r.lng}`);
      byAddress.set(key, set);
    }
    expect([...byAddress.values()].every((s) => s.size === 1)).toBe(true);
    expect([...byAddress.keys()].length).toBeLessThan(rows.length); // some addresses have several DAs
  });
});
