// engine.property on the sample world: the payload contract of spec sections 1-3 for every sandbox address,
// coverage statuses, empty-list semantics, licence and component filters, the core contract, degraded
// components, geometry rules and caching.
import { copyFileSync, mkdirSync, readdirSync, symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { createEngine, type Engine } from '../../../engine/runtime/engine.js';
import { CORE_BLOCKS, type PropertyLicence } from '../../../engine/property/kit/contract.js';
import { CORE_PAYLOAD_SCHEMA, PROPERTY_PAYLOAD_SCHEMA } from '../../../engine/property/schema.js';
import { buildBushfireLayers } from '../../../engine/scores/bushfire/bushfire-layers.js';
import { bushfireScore } from '../../../engine/scores/bushfire/bushfire-score.js';
import { buildWalkabilityIndexes } from '../../../engine/scores/walkability/walkability-layers.js';
import { computeWalkability } from '../../../engine/scores/walkability/walkability-score.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { tempDir } from '../../helpers/tmp.js';
import { useSampleEngine, type SandboxAddress } from '../../helpers/sample-engine.js';

type Payload = Record<string, any>;

// ajv is CommonJS: its default export sits on .default under ESM.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module.default;
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateFull = ajv.compile(PROPERTY_PAYLOAD_SCHEMA);
const validateCore = ajv.compile(CORE_PAYLOAD_SCHEMA);

let engine: Engine;
let sandbox: SandboxAddress[];

const opened = useSampleEngine(2);
beforeAll(() => {
  ({ engine, sandbox } = opened);
});

/** engine.property with the payload typed loosely for assertions. */
async function prop(e: Engine, ...args: Parameters<Engine['property']>) {
  const r = await e.property(...args);
  return { ...r, payload: r.payload as Payload };
}

const find = (note: RegExp) => sandbox.find((s) => note.test(s.note))!;

/** Every list in the payload's data blocks, with its dotted path. */
function listsOf(p: Payload): [string, unknown[]][] {
  const out: [string, unknown[]][] = [];
  for (const block of ['planning', 'hazards', 'environment', 'poi', 'transport', 'utilities', 'administrative', 'public_housing', 'other_layers']) {
    for (const [k, v] of Object.entries(p[block] ?? {})) if (Array.isArray(v)) out.push([`${block}.${k}`, v]);
  }
  return out;
}

describe('engine.property on every sandbox address', () => {
  it('returns a full payload that validates against the schema, for all twelve addresses', async () => {
    expect(sandbox).toHaveLength(12);
    for (const s of sandbox) {
      const r = await prop(engine, { address: s.address });
      const ok = validateFull(r.payload);
      expect(ok ? [] : validateFull.errors, s.address).toEqual([]);
      expect(r.sandbox).toBe(true);
      expect(r.state).toBe(s.state);
      expect(r.payload.resolved.address).toBe(s.address);
      expect(r.payload.completeness).toBe('full');
      expect(Object.keys(r.payload.scores)).toEqual(['noise', 'flood', 'bushfire', 'heat_island', 'solar', 'walkability', 'view_quality', 'contamination', 'aircraft_noise']);
    }
  }, 240_000);

  it('the core variant validates against the core schema and never carries scores or surfaces', async () => {
    for (const s of sandbox.slice(0, 4)) {
      const r = await prop(engine, { address: s.address }, { variant: 'core', components: ['scores', 'das', 'planning'], include_surfaces: true });
      const ok = validateCore(r.payload);
      expect(ok ? [] : validateCore.errors, s.address).toEqual([]);
      expect(r.payload.scores).toBeUndefined();
      expect(r.payload.surfaces).toBeUndefined();
      expect(r.payload.other_layers).toBeUndefined();
      expect(r.payload.meta.product_contract.included_components).toEqual(['das', 'planning']);
    }
  }, 120_000);
});

describe('payload semantics', () => {
  it('an empty list is never an unavailable lookup, and every path looked up has a coverage entry', async () => {
    const r = await prop(engine, { address: sandbox[0].address });
    const cov = r.payload.meta.coverage_status as Record<string, { status: string; feature_count: number; lookup_complete: boolean }>;
    for (const [path, list] of listsOf(r.payload)) {
      if (path === 'poi.childcare_500m' || path === 'poi.childcare_500m_status') continue;
      expect(Object.keys(cov), path).toContain(path);
      if (list.length === 0) expect(['checked_clear', 'not_assessed'], path).toContain(cov[path].status);
      else expect(cov[path]).toEqual({ status: 'data_returned', feature_count: list.length, lookup_complete: true });
    }
    // The standing exception has no coverage entry (spec 2.5).
    expect(r.payload.poi.childcare_500m).toEqual([]);
    expect(r.payload.poi.childcare_500m_status).toBe('withheld_pending_publisher_consent');
    expect(cov['poi.childcare_500m']).toBeUndefined();
  }, 60_000);

  it('reports data_returned, checked_clear and not_assessed against the held extent', async () => {
    const vic = find(/Inside the Land Subject to Inundation/);
    const r = await prop(engine, { address: vic.address });
    const cov = r.payload.meta.coverage_status;
    expect(cov['planning.zone'].status).toBe('data_returned');
    expect(r.payload.planning.zone.length).toBeGreaterThan(0);
    // VIC landfill is held completely: a miss is checked_clear.
    expect(r.payload.environment.landfill).toEqual([]);
    expect(cov['environment.landfill']).toEqual({ status: 'checked_clear', feature_count: 0, lookup_complete: true });
    // QLD overlays are partial: a miss proves nothing.
    const qld = find(/checked_partial_coverage/);
    const q = await prop(engine, { address: qld.address }, { components: ['hazards.flood'] });
    expect(q.payload.hazards.flood).toEqual([]);
    expect(q.payload.meta.coverage_status['hazards.flood'].status).toBe('not_assessed');
  }, 60_000);

  it('keeps empty DA and school results not_assessed (spec 3)', async () => {
    const s = sandbox[0];
    const r = await prop(engine, { address: s.address }, { components: ['das', 'poi.schools_500m'], school_radius_m: 100 });
    const cov = r.payload.meta.coverage_status;
    if (r.payload.poi.schools_500m.length === 0) expect(cov['poi.schools_500m'].status).toBe('not_assessed');
    // A point inside coverage but far from any application has empty DA lists: still not_assessed.
    const das = engine.das();
    let far: Awaited<ReturnType<typeof prop>> | undefined;
    for (let dy = -0.03; dy <= 0.03 && !far; dy += 0.0025) {
      for (let dx = -0.03; dx <= 0.03 && !far; dx += 0.0025) {
        if (das.nearbyHits(s.lng + dx, s.lat + dy, 320).length) continue;
        far = await prop(engine, { lat: s.lat + dy, lng: s.lng + dx }, { components: ['das'] }).catch(() => undefined); // outside the tile: next
      }
    }
    if (!far) throw new Error('no point of the tile lies 320 m from every DA');
    expect(far.payload.development_applications).toEqual({ on_parcel: [], nearby_300m: [] });
    expect(far.payload.meta.coverage_status.development_applications).toEqual({ status: 'not_assessed', feature_count: 0, lookup_complete: true });
  }, 60_000);

  it('lists DAs on the parcel at distance 0 and nearby ones most recently lodged first, within 300 m', async () => {
    let checked = 0;
    for (const s of sandbox) {
      const r = await prop(engine, { address: s.address }, { components: ['das'] });
      const { on_parcel, nearby_300m } = r.payload.development_applications;
      for (const d of on_parcel) expect(d.distance_km).toBe(0);
      for (const d of nearby_300m) expect(d.distance_km).toBeLessThanOrEqual(0.3);
      const lodged = nearby_300m.map((d: { lodged: string }) => d.lodged);
      expect(lodged).toEqual([...lodged].sort().reverse());
      checked += nearby_300m.length;
    }
    expect(checked).toBeGreaterThan(0);
  }, 60_000);

  it('gives every planning item the five core keys, and every zone its parcel share', async () => {
    const r = await prop(engine, { address: sandbox[0].address }, { components: ['planning'] });
    const items = Object.values(r.payload.planning).flat() as Payload[];
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) expect(Object.keys(it.core)).toEqual(['feature_type', 'code', 'name', 'description', 'scheme']);
    const shares = r.payload.planning.zone.map((z: Payload) => z.parcel_share);
    for (const s of shares) expect(s).toBeGreaterThan(0);
    expect(shares.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 1);
  });

  it('follows the wa_plan_zone rule: name mirrors code, description null', async () => {
    const wa = sandbox.find((s) => s.state === 'WA')!;
    const r = await prop(engine, { address: wa.address }, { components: ['planning.zone'] });
    const z = r.payload.planning.zone.find((x: Payload) => x.source === 'sample_wa_plan_zone');
    expect(z.core.code).toMatch(/\S/); // the zone is found (by its source) and has a code
    expect(z.core.name).toBe(z.core.code);
    expect(z.core.description).toBeNull();
  });

  it('adds zones_nearby only with include_nearby_zones, each off the parcel, within the radius, with a compass direction', async () => {
    const s = sandbox[0];
    const without = await prop(engine, { address: s.address }, { components: ['planning'] });
    expect(without.payload.planning.zones_nearby).toBeUndefined();
    const r = await prop(engine, { address: s.address }, { components: ['planning'], include_nearby_zones: true, nearby_zone_radius_m: 400 });
    expect(r.payload.meta.zones.nearby_search_radius_m).toBe(400);
    const near = r.payload.planning.zones_nearby as Payload[];
    expect(near.length).toBeGreaterThan(0);
    for (const z of near) {
      expect(z.distance_m).toBeGreaterThan(0);
      expect(z.distance_m).toBeLessThanOrEqual(400);
      expect(['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW']).toContain(z.direction);
      expect(z.geometry_clip_radius_m).toBe(400);
    }
  });

  it('resolves a coordinate to the parcel under it and its address, with the same billing identity', async () => {
    const s = sandbox[2];
    const byText = await prop(engine, { address: s.address }, { components: ['das'] });
    const byPoint = await prop(engine, { lat: s.lat, lng: s.lng }, { components: ['das'] });
    expect(byPoint.addressKey).toBe(byText.addressKey);
    expect(byPoint.payload.resolved.parcel.pfi).toBe(byText.payload.resolved.parcel.pfi);
    expect(byPoint.payload.resolved.address).toBe(s.address);
    expect(byPoint.payload.resolved.match_confidence).toBeNull();
  });

  it('warns about a state the query named that the match is not in', async () => {
    const s = sandbox.find((x) => x.state === 'VIC')!;
    const wrong = s.address.replace(' VIC ', ' NSW ');
    const r = await prop(engine, { address: wrong }, { components: ['das'] });
    expect(r.payload.resolved.match_warnings).toContain('state_mismatch');
    expect(r.payload.resolved.match_note).not.toBe('');
  });

  it('refuses text no address matches with NOT_FOUND address_unresolvable', async () => {
    const err = await expectEngineError(() => engine.property({ address: 'zzqx plover hollow nowhere' }), 'NOT_FOUND');
    expect(err.details.reason).toBe('address_unresolvable');
    expect(Array.isArray(err.details.candidates)).toBe(true);
  });

  it('rejects a mixed subject and out-of-range options naming the parameter', async () => {
    await expectEngineError(() => engine.property({ address: 'x', lat: 1 } as never), 'INVALID_ARGUMENT');
    const e = await expectEngineError(() => engine.property({ address: sandbox[0].address }, { school_radius_m: 50 }), 'INVALID_ARGUMENT');
    expect(e.details.parameter).toBe('school_radius_m');
    const c = await expectEngineError(() => engine.property({ address: sandbox[0].address }, { components: ['scores.nope'] }), 'INVALID_ARGUMENT');
    expect(c.details.parameter).toBe('components');
  });
});

describe('meta.noise_sources and meta.as_at (spec 2.8)', () => {
  it('credits every source scores.noise used, and stamps when its sources were looked up', async () => {
    // Beside the sandbox's tram road (1/91 Harding Road, Northcote), 22 m south so no other test has cached it.
    const s = find(/tram road/);
    const now = new Date('2026-10-03T04:05:06Z');
    const r = await prop(engine, { lat: s.lat - 0.0002, lng: s.lng }, { components: ['scores.noise'], now });
    const noise = r.payload.scores.noise;
    const meta = r.payload.meta;
    // The measured sources the score lists (no crowd-sourced rows) include a road and the tram.
    expect(noise.sources.length).toBeGreaterThan(0);
    expect(noise.sources.some((x: { kind: string }) => x.kind === 'tram')).toBe(true);
    // noise_sources: credit strings (the catalogue attribution of each source id scores.noise used), sorted by id.
    const catalogue = engine.store.catalogue;
    const credit = (id: string) => catalogue.sources.find((c) => c.id === id)!.attribution;
    expect(noise.source_ids.length).toBeGreaterThan(0);
    expect(meta.noise_sources).toEqual(noise.source_ids.map(credit));
    for (const row of noise.sources) expect(meta.noise_sources).toContain(credit(row.source));
    expect(noise.lden_source).toBe('transfer'); // a counter is in range: its source and the loggers' are credited
    expect(meta.noise_sources).toContain(credit(noise.transfer.counter_source));
    expect(noise.source_ids).toContain('sample_vic_noise_loggers');
    // as_at: the lookup time of the noise sources, with the other per-lookup stamps.
    expect(Object.keys(meta.as_at).sort()).toEqual(['layer_features', 'proximity_features', 'scores', 'scores.noise.sources']);
    expect(meta.as_at['scores.noise.sources']).toBe(now.toISOString());
    expect(meta.as_at['scores.noise.sources']).toBe(noise.as_at);
    // Without scores.noise neither field appears.
    const without = await prop(engine, { lat: s.lat - 0.0002, lng: s.lng }, { components: ['das'], now });
    expect(without.payload.meta.noise_sources).toBeUndefined();
    expect(without.payload.meta.as_at['scores.noise.sources']).toBeUndefined();
  }, 60_000);
});

describe('licence and components', () => {
  const scoreOnly: PropertyLicence = { components: ['scores'], geometry: false };

  it('narrows to dotted selectors', async () => {
    const r = await prop(engine, { address: sandbox[0].address }, { components: ['scores.noise', 'das', 'hazards.flood'] });
    expect(Object.keys(r.payload.scores)).toEqual(['noise']);
    expect(Object.keys(r.payload.hazards)).toEqual(['flood']);
    // The das block is the same as in a full lookup: narrowing selects blocks, it does not change them.
    expect(r.payload.development_applications).toEqual((await prop(engine, { address: sandbox[0].address })).payload.development_applications);
    expect(r.payload.planning).toBeUndefined();
    expect(r.payload.environment).toBeUndefined();
  });

  it('never expands the licence', async () => {
    const r = await prop(engine, { address: sandbox[0].address }, { licence: { components: ['planning'], geometry: false }, components: ['scores.noise', 'planning.zone', 'das'] });
    expect(r.payload.scores).toBeUndefined();
    expect(r.payload.development_applications).toBeUndefined();
    expect(Object.keys(r.payload.planning)).toEqual(['zone']);
    expect(r.payload.meta.licensed_components).toEqual(['planning']);
  });

  it('a score-only licence gets scores and no core blocks', async () => {
    const r = await prop(engine, { address: sandbox[0].address }, { licence: scoreOnly });
    expect(Object.keys(r.payload).filter((k) => !['query', 'resolved', 'meta', 'completeness'].includes(k))).toEqual(['scores']);
  });

  it('gives geometry_omitted instead of the parcel boundary when include_geometry comes without the geometry licence', async () => {
    const r = await prop(engine, { address: sandbox[0].address }, { include_geometry: true, licence: { components: [...CORE_BLOCKS], geometry: false }, components: ['planning'] });
    expect(r.payload.resolved.parcel.geometry).toBeUndefined();
    expect(r.payload.resolved.parcel.geometry_omitted).toMatch(/geometry licence/);
    for (const z of r.payload.planning.zone) expect(z.geometry).toBeUndefined();
    const licensed = await prop(engine, { address: sandbox[0].address }, { include_geometry: true, components: ['planning'] });
    expect(licensed.payload.resolved.parcel.geometry.type).toMatch(/Polygon/);
    expect(r.payload.resolved.parcel.pfi).toBe(licensed.payload.resolved.parcel.pfi); // the parcel is still named
    expect(licensed.payload.planning.zone[0].geometry.type).toMatch(/Polygon/);
    expect(licensed.payload.meta.geometry.cadastre).toMatch(/synthetic/i);
  });

  it('keeps parcel geometry back where the registry does not license redistribution (QLD)', async () => {
    const qld = sandbox.find((s) => s.state === 'QLD')!;
    const r = await prop(engine, { address: qld.address }, { include_geometry: true, components: ['planning.zone'] });
    expect(r.payload.resolved.parcel.geometry).toBeUndefined();
    expect(r.payload.resolved.parcel.geometry_omitted).toMatch(/redistribution/);
  });

  it('attributes every source whose data is in the response, and lists schedule-bound sources', async () => {
    const nsw = sandbox.find((s) => s.state === 'NSW')!;
    const r = await prop(engine, { address: nsw.address });
    const a = r.payload.meta.attribution;
    const ids = a.sources.map((s: Payload) => s.source);
    expect(ids).toContain('sample_nsw_addresses');
    for (const z of r.payload.planning.zone) expect(ids).toContain(z.source);
    expect(a.sources_requiring_licence_schedule).toEqual(a.sources.filter((s: Payload) => s.obligation_status === 'schedule_required').map((s: Payload) => s.source));
    expect(r.payload.meta.source_currency.da_records.last_fetched_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});

describe('surfaces', () => {
  it('delivers the three layers with include_surfaces and names them in meta.surfaces', async () => {
    const s = sandbox[0];
    const r = await prop(engine, { address: s.address }, { include_surfaces: true, components: ['das'] });
    expect(Object.keys(r.payload.surfaces).sort()).toEqual(['contours', 'heat', 'noise']);
    expect(r.payload.meta.surfaces.delivered_layers.sort()).toEqual(['contours', 'heat', 'noise']);
    // model_path names the one path every node took, or says `mixed` (never a silent majority).
    const paths = [...new Set(r.payload.surfaces.noise.node_paths as string[])];
    expect(r.payload.surfaces.noise.model_path).toBe(paths.length === 1 ? paths[0] : 'mixed');
    expect(validateFull(r.payload) ? [] : validateFull.errors).toEqual([]);
  }, 60_000);

  it('engine.surfaces rejects a bad noise_cells or contour interval with an EngineError naming it, before any job (not as unavailable.<layer>)', async () => {
    const s = sandbox[0];
    const e = await expectEngineError(() => engine.surfaces(s.lng, s.lat, { noiseCells: 8 as never }), 'INVALID_ARGUMENT', /noise_cells must be 5, 7 or 9, got 8/);
    expect(e.details.parameter).toBe('noise_cells');
    // Even when noise is not among the layers asked for: the argument itself is wrong.
    await expectEngineError(() => engine.surfaces(s.lng, s.lat, { layers: ['heat'], noiseCells: 6 as never }), 'INVALID_ARGUMENT', /noise_cells/);
    // The same for contour_interval_m: a bad interval is the caller's error, not unavailable.contours.
    for (const bad of [0, -5, 250, Number.NaN]) {
      const c = await expectEngineError(() => engine.surfaces(s.lng, s.lat, { layers: ['contours'], contourIntervalM: bad }), 'INVALID_ARGUMENT', /contour_interval_m/);
      expect(c.details.parameter).toBe('contour_interval_m');
    }
    const ok = await engine.surfaces(s.lng, s.lat, { layers: ['noise'], noiseCells: 5 });
    expect(ok.unavailable).toEqual({});
    expect(ok.surfaces.noise).toMatchObject({ cells: 5, spacing_m: 500 });
  }, 60_000);

  it('a narrowed surfaces list computes only those layers', async () => {
    const r = await prop(engine, { address: sandbox[1].address }, { include_surfaces: true, surfaces: ['heat'], components: ['das'] });
    expect(Object.keys(r.payload.surfaces)).toEqual(['heat']);
    expect(Object.keys(r.payload.meta.surfaces.attribution)).toEqual(['heat']);
  }, 60_000);
});

describe('caching', () => {
  it('serves repeat lookups from cache and reports when the cached parts were computed', async () => {
    // A point no other test looks up, so the first lookup here is the one that fills the caches.
    const s = { address: (await prop(engine, { lat: sandbox[3].lat + 0.0004, lng: sandbox[3].lng }, { components: ['das'] })).payload.resolved.address as string };
    const t1 = new Date('2026-11-01T00:00:00Z');
    const first = await prop(engine, { address: s.address }, { now: t1 });
    const t2 = new Date('2026-11-05T00:00:00Z');
    const again = await prop(engine, { address: s.address }, { now: t2 });
    expect(again.payload.meta.as_at.layer_features).toBe(first.payload.meta.as_at.layer_features);
    expect(again.payload.meta.as_at.scores).toBe(t1.toISOString());
    expect(again.payload.scores).toEqual(first.payload.scores);
    // After 7 days the layer lookups are recomputed; scores stay cached up to 31 days.
    const later = await prop(engine, { address: s.address }, { now: new Date('2026-11-09T00:00:00Z') });
    expect(later.payload.meta.as_at.layer_features).toBe('2026-11-09T00:00:00.000Z');
    expect(later.payload.meta.as_at.scores).toBe(t1.toISOString());
  }, 60_000);
});

describe('degraded components', () => {
  it('a worker failure degrades its score: completeness partial, coverage data_returned with lookup_complete false, nothing listed empty', async () => {
    // A 1 ms task limit times out every pool task (the HAND tile for flood, walkability bands): real failures.
    // A fresh tile directory, so flood's HAND tile has to be computed on the pool.
    const e = await createEngine({ datasets: defaultDataDir(), threads: 1, taskTimeoutMs: 1, handTiles: tempDir('hand-tiles-') });
    try {
      const r = await prop(e, { address: sandbox[0].address });
      expect(r.payload.completeness).toBe('partial');
      expect(r.payload.degraded_components).toContain('scores.flood');
      // The flood score still answers from its other inputs, and says HAND failed.
      expect(r.payload.scores.flood.degraded_components).toContain('hand');
      // Walkability runs on the pool too: its timed-out task leaves the score out, listed as degraded.
      expect(r.payload.degraded_components).toContain('scores.walkability');
      expect(r.payload.scores.walkability).toBeUndefined();
      expect(r.payload.meta.coverage_status['scores.flood']).toEqual({ status: 'data_returned', feature_count: 1, lookup_complete: false });
      // The planning lookups did not fail: they stay complete.
      expect(r.payload.meta.coverage_status['planning.zone'].lookup_complete).toBe(true);
      expect(r.payload.meta.components_status.scores).toBe('failed');
      // Scores are not core: the response is still chargeable.
      expect(r.chargeable).toBe(true);
      expect(validateFull(r.payload) ? [] : validateFull.errors).toEqual([]);
    } finally {
      await e.close();
    }
  }, 60_000);

  it('a score whose own lookup fails outright is coverage unavailable (nothing returned, retry), not data_returned', async () => {
    // The sample world by symlinks, except the VIC land-surface-temperature raster: a copy, truncated after
    // the engine opened (the catalogue check at open would refuse it), as a file damaged on disk would be.
    const src = defaultDataDir();
    const dir = tempDir();
    for (const e of readdirSync(src)) if (e !== 'vic') symlinkSync(join(src, e), join(dir, e));
    mkdirSync(join(dir, 'vic'));
    for (const e of readdirSync(join(src, 'vic'))) if (e !== 'lst-summer-day-1km.tif') symlinkSync(join(src, 'vic', e), join(dir, 'vic', e));
    copyFileSync(join(src, 'vic', 'lst-summer-day-1km.tif'), join(dir, 'vic', 'lst-summer-day-1km.tif'));
    const e = await createEngine({ datasets: dir, threads: 1 });
    try {
      truncateSync(join(dir, 'vic', 'lst-summer-day-1km.tif'), 200);
      const vic = sandbox.find((s) => s.state === 'VIC')!;
      const r = await prop(e, { address: vic.address }, { components: ['scores.heat_island', 'scores.solar'] });
      expect(r.payload.scores.heat_island).toMatchObject({ status: 'unavailable', score: null });
      expect(r.payload.meta.coverage_status['scores.heat_island']).toEqual({ status: 'unavailable', feature_count: 0, lookup_complete: false });
      expect(r.payload.degraded_components).toContain('scores.heat_island');
      expect(r.payload.completeness).toBe('partial');
      // The other score read other rasters and is whole.
      expect(r.payload.meta.coverage_status['scores.solar']).toEqual({ status: 'data_returned', feature_count: 1, lookup_complete: true });
      expect(validateFull(r.payload) ? [] : validateFull.errors).toEqual([]);
    } finally {
      await e.close();
    }
  }, 60_000);

  it('a failing DA store is UNAVAILABLE for development_applications, never an empty block', async () => {
    const e = await createEngine({ datasets: defaultDataDir(), threads: 1, daDatabase: '/nonexistent-dir/propintel/das.db' });
    try {
      const err = await expectEngineError(() => e.property({ address: sandbox[0].address }), 'UNAVAILABLE');
      expect(err.details.component).toBe('development_applications');
      // Without the das block the lookup answers.
      const r = await prop(e, { address: sandbox[0].address }, { components: ['planning'] });
      expect(r.payload.planning).toEqual((await prop(engine, { address: sandbox[0].address }, { components: ['planning'] })).payload.planning);
    } finally {
      await e.close();
    }
  }, 60_000);

  it('a degraded check is visible and not cached: a failed water check (walkability) or fuel lookup (bushfire) is recomputed next time', async () => {
    const e = await createEngine({ datasets: defaultDataDir(), threads: 1 });
    // The sample world's layers all load, so the failures are made real at the score: the same score
    // functions over inputs whose lookups failed (a major-water layer and a vegetation layer that did not load).
    const failedWater = buildWalkabilityIndexes({ amenitySets: [{ name: 'amenities', categories: ['grocery'], points: [] }], majorWater: { status: 'unavailable', reason: 'water.geojson: read failed' } });
    const failedFuel = buildBushfireLayers({ vegetation: { status: 'unavailable', reason: 'vegetation.geojson: read failed' } });
    let calls = 0;
    const real = e.scores.bind(e);
    e.scores = async (lon, lat, o) => {
      calls++;
      const r = await real(lon, lat, o);
      const scores = { ...r.scores };
      if ('walkability' in scores) scores.walkability = computeWalkability(failedWater, lon, lat);
      if ('bushfire' in scores) scores.bushfire = bushfireScore(failedFuel, { lon, lat, state: r.state }, {});
      return { ...r, scores };
    };
    try {
      const s = sandbox[0];
      for (const key of ['walkability', 'bushfire'] as const) {
        calls = 0;
        const t1 = new Date('2026-11-01T00:00:00Z');
        const first = await prop(e, { address: s.address }, { components: [`scores.${key}`], now: t1 });
        // Visible: the check says so in the score, and the lookup is degraded in the payload.
        if (key === 'walkability') expect(first.payload.scores.walkability.coverage.major_water_check.status).toBe('degraded');
        else expect(first.payload.scores.bushfire.coverage.vegetation_fuel).toBe('unavailable');
        expect(first.payload.degraded_components).toContain(`scores.${key}`);
        expect(first.payload.meta.coverage_status[`scores.${key}`].lookup_complete).toBe(false);
        // Not pinned: a lookup a day later recomputes the score instead of serving the failed one.
        const again = await prop(e, { address: s.address }, { components: [`scores.${key}`], now: new Date('2026-11-02T00:00:00Z') });
        expect(calls, key).toBe(2);
        expect(again.payload.meta.as_at.scores).toBe('2026-11-02T00:00:00.000Z');
      }
      // Control: with the failure gone the same lookup is pinned (one computation for two lookups).
      e.scores = real;
      let n = 0;
      e.scores = async (lon, lat, o) => (n++, real(lon, lat, o));
      await prop(e, { address: s.address }, { components: ['scores.bushfire'], now: new Date('2026-11-03T00:00:00Z') });
      await prop(e, { address: s.address }, { components: ['scores.bushfire'], now: new Date('2026-11-04T00:00:00Z') });
      expect(n).toBe(1);
    } finally {
      await e.close();
    }
  }, 60_000);
});
