import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Frame, TILE_HALF_M } from '../../datasets/generator/frame.js';
import { DEFAULT_SEED, generateSampleWorld, tileSeed } from '../../datasets/generator/generate.js';
import { Terrain } from '../../datasets/generator/terrain.js';
import { TILES } from '../../datasets/generator/tiles.js';
import { defaultDataDir, isCurrentSampleWorld, staleReason } from '../../datasets/sample-world.js';
import { heldExtent, sourcesFor, type CoverageStatus } from '../../engine/catalogue/coverage.js';
import { PAYLOAD_PATHS, type PayloadPath } from '../../engine/catalogue/payload-paths.js';
import { STATES } from '../../engine/catalogue/states.js';
import { openDataStore, type DataStore, type RasterRef } from '../../engine/data/dataset-store.js';
import { createEngine } from '../../engine/runtime/engine.js';
import { floodInputFor } from '../../engine/property/inputs/domain-inputs.js';
import { mgaCrsForLon } from '../../engine/geo/crs.js';
import { openRaster } from '../../engine/raster/geotiff-reader.js';
import { gridStats } from '../../engine/raster/grid-stats.js';
import { seededRandom } from '../../engine/random/seeded-random.js';
import { tempDir } from '../helpers/tmp.js';

const world = defaultDataDir();
let store: DataStore;
beforeAll(async () => {
  store = await openDataStore(world);
});

/** Cell sizes (metres) of the rasters laid on each tile's MGA frame, by file name. */
const METRIC_CELL_M: Record<string, number> = { 'dem-5m.tif': 5, 'land-cover-10m.tif': 10, 'flood-study-1pct-depth.tif': 10, 'flood-study-1pct-hazard.tif': 10 };
/**
 * Cell sizes (degrees) of the coarse national grids: land-surface temperature and PVOUT ~1 km (0.01 deg), GHI
 * and DNI ~250 m (0.0025 deg), optimum tilt ~4 km (0.04 deg), BoM design rainfall 0.025 deg.
 */
const DEGREE_CELL: Record<string, number> = { 'lst-summer-day-1km.tif': 0.01, 'solar-ghi.tif': 0.0025, 'solar-dni.tif': 0.0025, 'solar-pvout.tif': 0.01, 'solar-tilt.tif': 0.04, 'ifd-1pct-1h.tif': 0.025 };

const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: { path: string; sha256: string }[] };

describe('the sample world', () => {
  it('is present, current and made with the default seed', () => {
    expect(isCurrentSampleWorld(world)).toBe(true);
    expect(store.catalogue.synthetic).toBe(true);
    expect(store.catalogue.generator?.seed).toBe(DEFAULT_SEED);
  });

  it('is deterministic: the same seed gives byte-identical files, whatever the thread count', async () => {
    // ACT and NT are the smallest tiles; VIC and QLD carry the state contours and (QLD) the flood-study rasters.
    // All four in one thread, compared below with the shared world (made with a thread per core); the two
    // small ones in two threads as well, so the comparison across thread counts holds on a one-core machine.
    const tiles = ['act', 'nt', 'vic', 'qld'];
    const a = tempDir();
    const b = tempDir();
    await generateSampleWorld({ out: a, tiles, threads: 1 });
    await generateSampleWorld({ out: b, tiles: ['act', 'nt'], threads: 2 });
    const ma = manifest(a).files, mb = manifest(b).files;
    expect(ma.length).toBeGreaterThan(120);
    const small = (files: typeof ma) => files.filter((f) => f.path.startsWith('act/') || f.path.startsWith('nt/'));
    expect(small(mb).length).toBeGreaterThan(40);
    expect(small(mb)).toEqual(small(ma));
    for (const f of ['vic/contours-vicmap-metro-1m.geojson', 'qld/contours-qld-1m.geojson', 'qld/flood-study-1pct-depth.tif', 'qld/flood-study-1pct-hazard.tif']) expect(ma.map((x) => x.path), f).toContain(f);
    // And the tiles match the shared world generated earlier with the same seed.
    const shared = new Map(manifest(world).files.map((f) => [f.path, f.sha256]));
    for (const f of ma.filter((x) => tiles.some((t) => x.path.startsWith(`${t}/`)))) expect(shared.get(f.path), f.path).toBe(f.sha256);
  }, 180_000);

  it('changes with the seed; a world of fewer tiles or another seed is not the current sample world', async () => {
    const c = tempDir();
    await generateSampleWorld({ out: c, tiles: ['act'], seed: 7, threads: 1 });
    const dem = manifest(c).files.find((f) => f.path === 'act/dem-5m.tif')!;
    expect(new Map(manifest(world).files.map((f) => [f.path, f.sha256])).get('act/dem-5m.tif')).not.toBe(dem.sha256);
    // The stamp records the tiles written; the default directory needs all eight.
    expect(JSON.parse(readFileSync(join(c, 'catalogue.json'), 'utf8')).generator.tiles).toEqual(['act']);
    expect(staleReason(c, 7)).toBe('it lacks tiles vic, nsw, qld, wa, sa, tas, nt');
    expect(isCurrentSampleWorld(c, 7)).toBe(false);
    expect(isCurrentSampleWorld(c, 7, ['act'])).toBe(true);
    expect(staleReason(c, DEFAULT_SEED, ['act'])).toBe(`it was made with seed 7, not ${DEFAULT_SEED}`);
    expect(store.catalogue.generator?.tiles).toEqual(TILES.map((t) => t.id));
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

  it('every GeoTIFF reads back with geotiff.js, on the grid the generator lays out, with data in it', async () => {
    const rasters = store.files.filter((f): f is RasterRef => f.kind === 'raster');
    expect(rasters.length).toBe(8 * 8 + 2 * 2);
    for (const r of rasters) {
      const tile = TILES.find((t) => r.file.path.startsWith(`${t.id}/`))!;
      const name = r.file.path.slice(tile.id.length + 1);
      const src = await openRaster(r.path);
      try {
        expect(src.info.crs, r.file.path).toBe(r.file.crs);
        const tf = src.info.transform;
        const metric = METRIC_CELL_M[name];
        if (metric !== undefined) {
          // Tile rasters: the tile's MGA frame (origin at the north-west corner of the 6 km tile) in cells of
          // the layer's size, covering the tile exactly.
          expect(r.file.crs, r.file.path).toBe(mgaCrsForLon(tile.lon));
          expect(tf, r.file.path).toEqual(new Frame(tile.lon, tile.lat).gridTransform(metric));
          expect([src.info.width, src.info.height], r.file.path).toEqual([(2 * TILE_HALF_M) / metric, (2 * TILE_HALF_M) / metric]);
        } else {
          // Coarse national grids (lon/lat): the publisher's cell size, the origin on a whole number of cells
          // (grids are aligned nationally, not to the tile), and the whole tile inside the raster.
          // Every raster is one the generator defines: a tile raster above or a national grid here.
          expect(Object.keys(DEGREE_CELL), r.file.path).toContain(name);
          const step = DEGREE_CELL[name];
          expect(r.file.crs).toBe('EPSG:4326');
          expect([tf[1], tf[2], tf[4], tf[5]], r.file.path).toEqual([step, 0, 0, -step]);
          for (const origin of [tf[0], tf[3]]) expect(Math.abs(origin / step - Math.round(origin / step)), r.file.path).toBeLessThan(1e-6);
          const frame = new Frame(tile.lon, tile.lat);
          for (const [x, y] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
            const [lon, lat] = frame.lonLat(x * TILE_HALF_M, y * TILE_HALF_M);
            expect(lon, r.file.path).toBeGreaterThan(tf[0]);
            expect(lon, r.file.path).toBeLessThan(tf[0] + src.info.width * step);
            expect(lat, r.file.path).toBeLessThan(tf[3]);
            expect(lat, r.file.path).toBeGreaterThan(tf[3] - src.info.height * step);
          }
        }
        const g = await src.readPixels([0, 0, src.info.width, src.info.height]);
        const st = gridStats(g);
        if (name.startsWith('flood-study')) {
          // The flood study covers the creek corridor only: data there, no-data elsewhere.
          expect(st.count, r.file.path).toBeGreaterThan(1000);
          expect(st.count, r.file.path).toBeLessThan(g.data.length / 2);
        } else {
          // The NT DEM has no-data over open water; every other raster is full.
          expect(st.count, r.file.path).toBeGreaterThan(g.data.length * (r.file.path === 'nt/dem-5m.tif' ? 0.6 : 0.999));
        }
      } finally {
        await src.close();
      }
    }
  });

  it('classes flood-study hazard H1-H6 from the depth raster wherever the study found water', async () => {
    for (const id of ['nsw', 'qld']) {
      const read = async (layer: string) => {
        const src = await openRaster(store.rastersFor('scores.flood.study_depth', TILES.find((t) => t.id === id)!.state, layer)[0].path);
        try {
          return (await src.readPixels([0, 0, src.info.width, src.info.height])).data;
        } finally {
          await src.close();
        }
      };
      const [depth, hazard] = [await read('depth'), await read('hazard')];
      let wet = 0;
      for (let i = 0; i < depth.length; i++) {
        const d = depth[i];
        // AIDR 2017 thresholds on depth as the generator documents: H1 < 0.3, H2 < 0.5, H3 < 1.2, H4 < 2, H5 < 4 m.
        const expected = !(d > 0) ? NaN : d < 0.3 ? 1 : d < 0.5 ? 2 : d < 1.2 ? 3 : d < 2 ? 4 : d < 4 ? 5 : 6;
        if (d > 0) wet++;
        expect(Number.isNaN(expected) ? Number.isNaN(hazard[i]) : hazard[i] === expected, `${id} cell ${i}: depth ${d}, hazard ${hazard[i]}`).toBe(true);
      }
      expect(wet, id).toBeGreaterThan(1000);
    }
  });

  it('has believable terrain: relief, a creek valley below the ground either side, a hilly edge above the other', async () => {
    for (const t of TILES) {
      // The generator's own terrain description says where the creek runs and which side the hills rise on.
      const terrain = new Terrain(t.terrain, seededRandom(tileSeed(DEFAULT_SEED, t.id)));
      const frame = new Frame(t.lon, t.lat);
      const dem = store.rastersFor('scores.flood.terrain', t.state).find((r) => r.source.id === 'sample_national_dem')!;
      const src = await openRaster(dem.path);
      const g = await src.readPixels([0, 0, src.info.width, src.info.height]);
      await src.close();
      const tf = dem.info.transform;
      const z = (x: number, y: number) => {
        const [e, n] = frame.mga(x, y);
        const c = Math.floor((e - tf[0]) / tf[1]), r = Math.floor((n - tf[3]) / tf[5]);
        return c < 0 || r < 0 || c >= g.width || r >= g.height ? NaN : g.data[r * g.width + c];
      };
      const s = gridStats(g);
      expect(s.max - s.min, t.id).toBeGreaterThan(8);
      // Along the creek centreline, every 50 m: the bed lies below the ground 300 m either side.
      let samples = 0;
      for (let u = -2400; u <= 2400; u += 50) {
        const v = terrain.creekV(u);
        const bed = z(...terrain.xy(u, v)), left = z(...terrain.xy(u, v + 300)), right = z(...terrain.xy(u, v - 300));
        if (![bed, left, right].every(Number.isFinite)) continue;
        samples++;
        expect(Math.min(left, right) - bed, `${t.id} u=${u}`).toBeGreaterThan(2);
      }
      expect(samples, t.id).toBeGreaterThan(60);
      // The hilly edge (fully into the hills) stands well above the ground beyond 900 m on the other side.
      let hill = 0, nHill = 0, other = 0, nOther = 0;
      for (let r = 0; r < g.height; r += 4) {
        for (let c = 0; c < g.width; c += 4) {
          const e = g.data[r * g.width + c];
          if (!Number.isFinite(e)) continue;
          const [x, y] = frame.cellCentre(c, r, tf[1]);
          if (terrain.hilliness(x, y) >= 0.9) (hill += e), nHill++;
          else if (terrain.creekDistance(x, y) * t.terrain.hillSide < -900) (other += e), nOther++;
        }
      }
      expect(Math.min(nHill, nOther), t.id).toBeGreaterThan(1000);
      expect(hill / nHill - other / nOther, t.id).toBeGreaterThan(t.terrain.hillHeight / 2);
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
    // State outlines only locate a point where no council area does; the sample world's council areas cover
    // every tile (real catalogues use them: datasets/realdata.ts).
    expect(missing).toEqual(['administrative.state']);
  });

  it('feeds the flood study to the engine through its own paths: depth via study_depth, hazard via hazard_class', () => {
    for (const t of TILES.filter((x) => x.has.floodStudy)) {
      const studies = floodInputFor(store, t.state, t.lon, t.lat, false).studies ?? [];
      expect(studies.map((s) => [s.source, s.depth?.endsWith(`${t.id}/flood-study-1pct-depth.tif`), s.hazard?.endsWith(`${t.id}/flood-study-1pct-hazard.tif`)]), t.id).toEqual([[`sample_${t.id}_flood_study`, true, true]]);
    }
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

  it('reaches every coverage_status a healthy lookup can give, from real engine lookups on the sandbox addresses', async () => {
    const engine = await createEngine({ datasets: world, threads: 2 });
    try {
      // Every lazily built index builds on the sample world (the bench times this as startup).
      // The scores' models by their kinds' names (engine/score-kit/model-kind.ts), after the engine's own.
      expect(Object.keys(await engine.buildIndexes())).toEqual(['addresses', 'das', 'childcare', 'sandbox', 'noise', 'bushfire_layers', 'walkability_indexes', 'walkability_shared', 'contamination_register', 'aircraft_noise_contours']);
      const reached = new Map<CoverageStatus, Set<string>>();
      for (const s of await engine.sandbox()) {
        const r = await engine.property({ address: s.address });
        const cov = (r.payload as { meta: { coverage_status: Record<string, { status: CoverageStatus; feature_count: number }> } }).meta.coverage_status;
        for (const [path, e] of Object.entries(cov)) {
          const set = reached.get(e.status) ?? new Set<string>();
          // Data paths remember the held extent behind the status, so the pattern can be checked below.
          set.add(path.startsWith('scores.') ? path : `${path}@${heldExtent(store.catalogue, path as PayloadPath, s.state)}`);
          reached.set(e.status, set);
        }
      }
      expect([...reached.keys()].sort()).toEqual(['checked_clear', 'data_returned', 'not_assessed']);
      // checked_clear only against complete holdings; not_assessed from a partial holding and from none.
      expect([...reached.get('checked_clear')!].every((k) => k.endsWith('@complete'))).toBe(true);
      expect([...reached.get('not_assessed')!].some((k) => k.endsWith('@partial'))).toBe(true);
      expect([...reached.get('not_assessed')!].some((k) => k.endsWith('@none'))).toBe(true);
      // `unavailable` needs a failed lookup (coverage.ts), never a healthy one: no lookup here failed. It is
      // reached from a real engine lookup on this world with a damaged raster in
      // test/engine/property/property.test.ts ("a score whose own lookup fails outright is coverage unavailable").
    } finally {
      await engine.close();
    }
  }, 120_000);

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

  it('has DAs with a childcare share, both council URL types, about 4% not geocoded, and shared coordinates at shared addresses', () => {
    const rows = store.recordsFor('development_applications').flatMap((t) => t.rows);
    expect(rows.length).toBeGreaterThan(8 * 250);
    const childcare = rows.filter((r) => /child ?care|early learning|kindergarten/i.test(String(r.description)));
    expect(childcare.length / rows.length).toBeGreaterThan(0.04);
    expect(new Set(rows.map((r) => r.council_url_type))).toEqual(new Set(['application_record', 'search_entry']));
    const ungeocoded = rows.filter((r) => r.lat === null && r.lng === null);
    expect(ungeocoded.length / rows.length).toBeGreaterThan(0.03);
    expect(ungeocoded.length / rows.length).toBeLessThan(0.05);
    const keys = rows.map((r) => `${r.council}|${r.council_reference}`);
    expect(new Set(keys).size).toBe(keys.length); // (council, reference) names one application
    const byAddress = new Map<string, Set<string>>();
    for (const r of rows) {
      if (r.lat === null) continue;
      const key = `${r.address}|${r.suburb}|${r.state}`;
      const set = byAddress.get(key) ?? new Set<string>();
      set.add(`${r.lat},${r.lng}`);
      byAddress.set(key, set);
    }
    expect([...byAddress.values()].every((s) => s.size === 1)).toBe(true);
    expect([...byAddress.keys()].length).toBeLessThan(rows.length); // some addresses have several DAs
  });
});
