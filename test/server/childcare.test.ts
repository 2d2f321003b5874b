// Childcare market intelligence (issue 18, first part) over real HTTP on the sample world's DAs: licences,
// /schema, /analysis and /site-analysis counts against brute-force counts over the records, the trend's
// months, feature_limit never changing counts, and the childcare feed on /api/v1/das.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import type { StateCode } from '../../engine/catalogue/states.js';
import type { OpenSchool } from '../../engine/childcare/analysis.js';
import { readRecords } from '../../engine/vector/records.js';
import { childcarePipelineStage, childcareWorksType } from '../../engine/da/childcare.js';
import type { DaRecord } from '../../engine/da/da-record.js';
import { daStoreFromDirectory } from '../../engine/da/da-sync.js';
import type { DaStore } from '../../engine/da/da-store.js';
import { distanceMetres } from '../../engine/geo/distance.js';
import type { PropertyService } from '../../engine/property/kit/contract.js';
import { startServer, type StartedServer } from '../../server/http-server.js';
import { createKey, keyRecordOf } from '../../server/keys/key-admin.js';
import { generateKey } from '../../server/keys/api-key.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import { tempDir } from '../helpers/tmp.js';
import { missingTool, needs } from '../helpers/skip.js';

const dir = tempDir('propintel-childcare-');
const NOW = new Date('2026-11-25T03:00:00Z');
let das: DaStore;
let store: SqliteStore;
let server: StartedServer;
let key: string;
let childcare: DaRecord[];
let states: StateCode[];
let openSchools: (state: StateCode) => OpenSchool[] | null;
const boxes = new Map<StateCode, [number, number, number, number]>();

async function get(path: string, k?: string) {
  const res = await fetch(`${server.url}${path}`, { headers: k ? { authorization: `Bearer ${k}` } : {} });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  store = SqliteStore.open(join(dir, 'store.sqlite'));
  das = await daStoreFromDirectory(defaultDataDir(), join(dir, 'das.sqlite'));
  childcare = das.list({ category: 'childcare' }, { limit: 1_000_000 });
  states = [...new Set(childcare.map((r) => r.state))].sort() as StateCode[];
  for (const r of das.list({}, { limit: 1_000_000 })) {
    if (r.lat === null || r.lng === null) continue;
    const b = boxes.get(r.state) ?? [Infinity, Infinity, -Infinity, -Infinity];
    boxes.set(r.state, [Math.min(b[0], r.lng), Math.min(b[1], r.lat), Math.max(b[2], r.lng), Math.max(b[3], r.lat)]);
  }
  // The test's state of a point: the state whose DAs' box, widened by half a degree, holds it (the sample
  // world's states are hundreds of kilometres apart; the engine's stateAt reads LGA layers).
  const m = 0.5;
  const stateAt = (lng: number, lat: number) => [...boxes].find(([, b]) => lng >= b[0] - m && lng <= b[2] + m && lat >= b[1] - m && lat <= b[3] + m)?.[0] ?? null;
  // Open schools from the sample world's school files (the engine's openSchools reads the same tables).
  const schoolsByState = new Map<StateCode, OpenSchool[]>();
  for (const st of ['vic', 'nsw', 'qld', 'wa', 'sa', 'act', 'tas', 'nt']) {
    const file = join(defaultDataDir(), st, 'schools.csv');
    if (!existsSync(file)) continue;
    const set = await readRecords(file, { format: 'csv' });
    schoolsByState.set(st.toUpperCase() as StateCode, set.rows.map((r) => ({ name: String(r.name), school_type: String(r.school_type), school_sector: String(r.school_sector), lng: Number(r.lon), lat: Number(r.lat), attribution: 'sample' })));
  }
  openSchools = (st) => schoolsByState.get(st) ?? null;
  server = await startServer({ service: {} as PropertyService, store, das: () => das, port: 0, clock: () => NOW, stateAt, openSchools });
  key = (await createKey(store, { components: 'none', childcareStates: states, childcareExpires: '2027-06-30', childcareAddOn: 'childcare_market_intelligence' })).key;
}, 60_000);

afterAll(async () => {
  await server?.close(1000);
  das?.close();
  await store?.close();
});

/** Brute-force headline of records. */
function headline(rs: DaRecord[]) {
  const n = (s: string) => rs.filter((r) => childcarePipelineStage(r.status) === s).length;
  return { total: rs.length, under_assessment: n('under_assessment'), advertised: n('advertised'), approved: n('approved'), refused: n('refused') };
}

describe('childcare licences', () => {
  it('403 with its own code for each licence problem; 401 without a key; /schema is the key check', async () => {
    const make = async (childcare: object | null) => {
      const g = generateKey();
      const base = keyRecordOf({ components: 'none' }, NOW);
      await store.insertKey({ ...base, id: g.id, hash: g.hash, childcare: childcare as never });
      return g.key;
    };
    const ok = { status: 'active', expires: '2027-06-30', states, add_on: 'childcare_market_intelligence' };
    const cases: [string | null, string][] = [
      [await make(null), 'not_licensed'],
      [await make({ ...ok, status: 'inactive' }), 'key_inactive'],
      [await make({ ...ok, expires: '2026-11-24' }), 'key_expired'],
      [await make({ ...ok, add_on: null }), 'add_on_not_enabled'],
      [await make({ ...ok, add_on: 'reports' }), 'add_on_not_enabled'],
    ];
    for (const [k, code] of cases) {
      for (const path of ['/api/v1/childcare/schema', '/api/v1/childcare/analysis']) {
        const r = await get(path, k!);
        expect([path, r.status, r.body.error]).toEqual([path, 403, code]);
      }
    }
    // Expiry is inclusive: the last day still works (Melbourne time).
    expect((await get('/api/v1/childcare/schema', await make({ ...ok, expires: '2026-11-25' }))).status).toBe(200);
    const narrow = await make({ ...ok, states: [states[0]] });
    const other = states.find((s) => s !== states[0]) ?? 'TAS';
    expect((await get(`/api/v1/childcare/analysis?state=${other}`, narrow)).body.error).toBe('state_not_entitled');
    expect((await get('/api/v1/childcare/schema')).status).toBe(401);
    const schema = await get('/api/v1/childcare/schema', key);
    expect(schema.status).toBe(200);
    expect(schema.body).toMatchObject({
      product: 'childcare_market_intelligence',
      version: 'v1',
      licence: { status: 'active', expires_at: '2027-06-30', allowed_states: states, add_on: 'childcare_market_intelligence' },
      dimensions: { childcare_pipeline_stage: ['under_assessment', 'advertised', 'approved', 'refused', 'withdrawn', 'unknown'], childcare_works_type: ['new_centre', 'extension', 'change_of_use', 'alterations', 'other'] },
    });
    expect(schema.body.endpoints).toContain('/api/v1/childcare/analysis');
  });
});

describe('/api/v1/childcare/analysis', () => {
  it('headline, trend and breakdowns equal brute-force counts over the records, per state and for all entitled states', async () => {
    expect(childcare.length).toBeGreaterThan(10);
    for (const state of [...states, undefined]) {
      const rs = state ? childcare.filter((r) => r.state === state) : childcare;
      const r = await get(`/api/v1/childcare/analysis${state ? `?state=${state}` : ''}`, key);
      expect(r.status).toBe(200);
      const d = r.body.data;
      expect(d.scope).toMatchObject({ product: 'childcare_market_intelligence', version: 'v1', states: state ? [state] : states });
      expect(d.headline).toEqual(headline(rs));
      // Trend: every month from the first to the last lodgement, none missing, summing to the total.
      const months = d.trend.map((t: { month: string }) => t.month);
      const first = rs.map((x) => x.lodged.slice(0, 7)).sort()[0], last = rs.map((x) => x.lodged.slice(0, 7)).sort().at(-1);
      expect([months[0], months.at(-1)]).toEqual([first, last]);
      for (let i = 1; i < months.length; i++) {
        const [y, m] = months[i - 1].split('-').map(Number);
        expect(months[i]).toBe(m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`);
      }
      expect(d.trend.reduce((s: number, t: { total: number }) => s + t.total, 0)).toBe(rs.length);
      for (const t of d.trend) expect(t.total).toBe(rs.filter((x) => x.lodged.startsWith(t.month)).length);
      for (const [name, keyOf] of [['stage', (x: DaRecord) => childcarePipelineStage(x.status)], ['works_type', (x: DaRecord) => childcareWorksType(x.description)], ['council', (x: DaRecord) => `${x.council} (${x.state})`]] as const) {
        const rows = d.breakdowns[name] as { key: string; count: number; share: number }[];
        expect(rows.reduce((s, x) => s + x.count, 0), name).toBe(rs.length);
        for (const row of rows) expect(row.count, `${name} ${row.key}`).toBe(rs.filter((x) => keyOf(x) === row.key).length);
      }
      expect(d.coverage.records).toBe(rs.length);
      expect(d.coverage.geocoded_pct).toBeCloseTo((100 * rs.filter((x) => x.lat !== null).length) / rs.length, 1);
      expect(d.demand_signals.all_development).toBe(das.count(state ? { state } : { states }));
      expect(d.notices.data_boundaries.length).toBe(5);
    }
  });

  it('since filters by lodgement date; feature_limit limits map points only, never counts', async () => {
    const since = childcare.map((r) => r.lodged).sort()[Math.floor(childcare.length / 2)];
    const r = await get(`/api/v1/childcare/analysis?since=${since}`, key);
    expect(r.body.data.headline).toEqual(headline(childcare.filter((x) => x.lodged >= since)));
    expect(r.body.data.trend[0].month).toBe(since.slice(0, 7));
    const geocoded = childcare.filter((x) => x.lat !== null).length;
    const counts = [];
    for (const limit of [0, 1, 5000]) {
      const a = (await get(`/api/v1/childcare/analysis?feature_limit=${limit}`, key)).body.data;
      expect(a.geojson.features.length).toBe(Math.min(limit, geocoded));
      expect(a.coverage.geojson_truncated).toBe(limit < geocoded);
      for (const f of a.geojson.features) {
        expect(f.geometry.type).toBe('Point');
        expect(f.geometry.coordinates[0]).toBeGreaterThan(100); // [lng, lat]
      }
      counts.push(JSON.stringify([a.headline, a.trend, a.breakdowns, a.coverage.records]));
    }
    expect(new Set(counts).size).toBe(1);
    // 400 for what the childcare spec names (a date, include_access=true); 422 for any other bad value.
    for (const [q, status, code] of [['since=2026-02-30', 400, 'invalid_date'], ['since=yesterday', 400, 'invalid_date'], ['include_access=true', 400, 'unsupported_parameter'], ['feature_limit=-1', 422, 'invalid_parameter'], ['feature_limit=9999999', 422, 'invalid_parameter'], ['feature_limit=abc', 422, 'invalid_parameter'], ['state=Narnia', 422, 'invalid_parameter']] as const) {
      const bad = await get(`/api/v1/childcare/analysis?${q}`, key);
      expect([q, bad.status, bad.body.error]).toEqual([q, status, code]);
    }
    expect((await get('/api/v1/childcare/analysis?colour=red', key)).status).toBe(422);
  });
});

describe('/api/v1/childcare/site-analysis (circle)', () => {
  it('counts exactly the geocoded childcare DAs within the radius, and refuses bad sites', async () => {
    const centre = childcare.find((r) => r.lat !== null)!;
    for (const radius of [0.5, 3, 30]) {
      const r = await get(`/api/v1/childcare/site-analysis?lat=${centre.lat}&lng=${centre.lng}&radius_km=${radius}&state=${centre.state}&suburb=${encodeURIComponent(centre.suburb)}`, key);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const inside = childcare.filter((x) => x.state === centre.state && x.lat !== null && distanceMetres(centre.lng!, centre.lat!, x.lng!, x.lat) <= radius * 1000);
      expect(r.body.data.headline).toEqual(headline(inside));
      expect(r.body.data.scope.catchment).toEqual({ type: 'circle', lat: centre.lat, lng: centre.lng, radius_km: radius });
      expect(r.body.data.suburb_context).toMatchObject({ suburb: centre.suburb, available: false });
      const schools = openSchools(centre.state);
      if (['TAS', 'NT'].includes(centre.state)) expect(r.body.data.schools).toMatchObject({ available: false, reason: 'coverage_gap' });
      else if (schools) {
        const near = schools.filter((s) => distanceMetres(centre.lng!, centre.lat!, s.lng, s.lat) <= radius * 1000);
        expect(r.body.data.schools.count).toBe(near.length);
        expect(r.body.data.schools.features.features.map((f: { properties: { name: string } }) => f.properties.name).sort()).toEqual(near.map((s) => s.name).sort());
        for (const f of r.body.data.schools.features.features) expect(Object.keys(f.properties).sort()).toEqual(['name', 'school_sector', 'school_type']);
      }
      const all = das.list({ state: centre.state }, { limit: 1_000_000 }).filter((x) => x.lat !== null && distanceMetres(centre.lng!, centre.lat!, x.lng!, x.lat) <= radius * 1000);
      expect(r.body.data.demand_signals).toMatchObject({ all_development: all.length, scope: 'catchment', dwellings: all.reduce((s, x) => s + (x.dwellings ?? 0), 0) });
    }
    const base = `lat=${centre.lat}&lng=${centre.lng}`;
    const other = states.find((s) => s !== centre.state);
    const cases: [string, number, string, string][] = [
      [`${base}&radius_km=2`, 422, 'state', 'missing_parameter'],
      [`lat=${centre.lat}&radius_km=2&state=${centre.state}`, 422, 'lng', 'missing_parameter'],
      [`${base}&radius_km=31&state=${centre.state}`, 400, 'radius_km', 'invalid_location'],
      [`${base}&radius_km=0.05&state=${centre.state}`, 400, 'radius_km', 'invalid_location'],
      [`lat=north&lng=${centre.lng}&radius_km=2&state=${centre.state}`, 400, 'lat', 'invalid_location'],
      [`${base}&radius_km=2&state=${centre.state}&include_access=true`, 400, 'include_access', 'unsupported_parameter'],
      [`${base}&radius_km=2&state=${centre.state}&since=2026-13-01`, 400, 'since', 'invalid_date'],
      ...(other ? ([[`${base}&radius_km=2&state=${other}`, 400, 'lat', 'invalid_location']] as [string, number, string, string][]) : []),
    ];
    for (const [q, status, parameter, code] of cases) {
      const r = await get(`/api/v1/childcare/site-analysis?${q}`, key);
      expect([q, r.status, r.body.parameter, r.body.error]).toEqual([q, status, parameter, code]);
    }
  });
});

describe('the childcare feed (GET /api/v1/das on a childcare key)', () => {
  it('pages through every entitled childcare row once, with the pipeline fields', async () => {
    const seen: number[] = [];
    let next: string | null = '/api/v1/das?per_page=7';
    let total = -1;
    while (next) {
      const r = await get(next, key);
      expect(r.status).toBe(200);
      total = r.body.meta.pages.total;
      for (const row of r.body.data) {
        expect(row.trade_category).toBe('childcare');
        expect(states).toContain(row.state);
        expect(row).toHaveProperty('childcare_pipeline_stage');
        expect(row).toHaveProperty('childcare_works_type');
        expect(row).toHaveProperty('observed_at');
        expect(row.childcare_pipeline_stage).toBe(childcarePipelineStage(row.status));
        seen.push(row.id);
      }
      next = r.body.meta.pages.next;
    }
    expect(total).toBe(childcare.length);
    expect(seen.sort((a, b) => a - b)).toEqual(childcare.map((r) => r.id).sort((a, b) => a - b));
    const since = childcare.map((r) => r.lodged).sort()[Math.floor(childcare.length / 2)];
    expect((await get(`/api/v1/das?since=${since}&per_page=1`, key)).body.meta.pages.total).toBe(childcare.filter((r) => r.lodged >= since).length);
    // The same key on the DA listing (/v1/das): it has no DA listing.
    expect((await get('/v1/das', key)).status).toBe(403);
  });
});

describe('/api/v1/childcare/export', () => {
  it('CSV: every entitled row once, a download with a filename, numbers as numbers', async () => {
    const res = await fetch(`${server.url}/api/v1/childcare/export?format=csv&state=${states[0]}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="childcare-pipeline-${states[0]}-2026-11-25.csv"`);
    const lines = (await res.text()).trimEnd().split('\r\n');
    const rs = childcare.filter((r) => r.state === states[0]);
    expect(lines.length).toBe(rs.length + 1);
    expect(lines[0].split(',').slice(0, 4)).toEqual(['id', 'council_reference', 'council_name', 'state']);
    expect(new Set(lines.slice(1).map((l) => Number(l.split(',')[0])))).toEqual(new Set(rs.map((r) => r.id)));
  });

  it('GeoJSON: geocoded points [lng, lat] with metadata; bad format 422', async () => {
    const r = await get(`/api/v1/childcare/export?format=geojson`, key);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/geo+json');
    const geocoded = childcare.filter((x) => x.lat !== null);
    expect(r.body.features.length).toBe(geocoded.length);
    expect(r.body.metadata).toMatchObject({ crs: 'EPSG:4326', records: childcare.length, features: geocoded.length, not_geocoded: childcare.length - geocoded.length, truncated: false });
    const one = r.body.features.find((f: { properties: { id: number } }) => f.properties.id === geocoded[0].id);
    expect(one.geometry.coordinates).toEqual([geocoded[0].lng, geocoded[0].lat]);
    const xlsx = await get('/api/v1/childcare/export?format=xlsx', key);
    expect([xlsx.status, xlsx.body.error, xlsx.body.parameter]).toEqual([422, 'invalid_parameter', 'format']);
  });
});

describe('the reconciliation helper', () => {
  it('run against this server: writes the worksheet, refuses to overwrite it, overwrites with --force', async (ctx) => {
    const { spawn } = await import('node:child_process');
    const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
    // The server runs in this process: the script must run without blocking it.
    const runAsync = (args: string[], env: Record<string, string>) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn('python3', args, { env: { ...process.env, ...env } });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c));
        child.on('close', (status) => resolve({ status, stderr }));
      });
    needs(ctx, missingTool('python3', ['--version'], 'python3'));
    const res = await fetch(`${server.url}/api/v1/childcare/reconciliation-helper`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="propintel_reconciliation_helper.py"');
    const script = join(dir, 'helper.py');
    writeFileSync(script, await res.text());
    const out = join(dir, 'worksheet.csv');
    const run = (...args: string[]) => runAsync([script, '--base-url', server.url, '--out', out, '--per-page', '9', ...args], { PROPINTEL_API_KEY: key });
    const first = await run();
    expect(first.status, first.stderr).toBe(0);
    const rows = readFileSync(out, 'utf8').trimEnd().split(/\r?\n/);
    // Every text cell quoted (no list separator splits one), the id a number.
    expect(rows[0]).toBe(['id', 'council_reference', 'childcare_pipeline_stage', 'childcare_works_type', 'observed_at', 'state', 'council_name', 'address', 'status', 'lodgement_date', 'customer_match', 'customer_source', 'customer_record_id', 'classification_review', 'review_notes'].map((c) => `"${c}"`).join(','));
    expect(rows.length).toBe(childcare.length + 1);
    expect(rows[1]).toMatch(/^\d+,"/);
    expect(rows[1].endsWith(',"","","","",""')).toBe(true);
    const ids = rows.slice(1).map((l) => Number(l.split(',')[0]));
    expect(new Set(ids)).toEqual(new Set(childcare.map((r) => r.id)));
    writeFileSync(out, 'my notes\n');
    const again = await run();
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/already exists.*--force/);
    expect(readFileSync(out, 'utf8')).toBe('my notes\n');
    const forced = await runAsync([script, '--base-url', server.url, '--out', out, '--force'], { PROPINTEL_API_KEY: '', DALEADS_API_KEY: key });
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(out, 'utf8').split(/\r?\n/).filter(Boolean).length).toBe(childcare.length + 1);
    expect(existsSync(`${out}.partial`)).toBe(false);
    // A key without the childcare licence is refused before any row is read, naming what it lacks.
    const daOnly = (await createKey(store, { components: 'none', daDailyLimit: 1000 })).key;
    const fresh = join(dir, 'da-only.csv');
    const refused = await runAsync([script, '--base-url', server.url, '--out', fresh], { PROPINTEL_API_KEY: daOnly });
    expect(refused.status, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/cannot read the childcare feed \(not_licensed\): this key has no childcare entitlement/);
    expect(existsSync(fresh)).toBe(false);
    const nswOnly = (await createKey(store, { components: 'none', childcareStates: ['NSW'], childcareAddOn: 'childcare_market_intelligence' })).key;
    const elsewhere = await runAsync([script, '--base-url', server.url, '--out', fresh, '--state', 'VIC'], { PROPINTEL_API_KEY: nswOnly });
    expect(elsewhere.status, elsewhere.stderr).toBe(3);
    expect(elsewhere.stderr).toMatch(/covers NSW, not VIC/);
    expect(existsSync(fresh)).toBe(false);
  }, 60_000);
});

describe('POST /api/v1/childcare/site-analysis (polygon)', () => {
  const post = async (body: unknown, raw?: string) => {
    const res = await fetch(`${server.url}/api/v1/childcare/site-analysis`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  /** A square ring of half-side `h` degrees around (x, y), clockwise or not. */
  const square = (x: number, y: number, h: number) => [[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h], [x - h, y - h]];

  it('counts exactly the childcare DAs inside the polygon, and a hole excludes the DAs in it', async () => {
    const centre = childcare.find((r) => r.lat !== null)!;
    const outer = square(centre.lng!, centre.lat!, 0.05);
    const hole = square(centre.lng!, centre.lat!, 0.01);
    const inBox = (r: DaRecord, h: number) => r.lat !== null && Math.abs(r.lng! - centre.lng!) < h && Math.abs(r.lat - centre.lat!) < h;
    const expectedOuter = childcare.filter((r) => r.state === centre.state && inBox(r, 0.05));
    const expectedHoled = expectedOuter.filter((r) => !inBox(r, 0.01));
    expect(expectedOuter.length).toBeGreaterThan(expectedHoled.length); // the hole holds at least the centre's DA
    const a = await post({ state: centre.state, catchment: { type: 'Polygon', coordinates: [outer] } });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.data.headline).toEqual(headline(expectedOuter));
    const b = await post({ state: centre.state, suburb: centre.suburb, catchment: { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [outer, hole] } } });
    expect(b.status).toBe(200);
    expect(b.body.data.headline).toEqual(headline(expectedHoled));
    expect(b.body.data.scope.catchment).toEqual({ type: 'polygon', rings: 2, vertices: 8 });
    expect(b.body.data.suburb_context.suburb).toBe(centre.suburb);
  });

  it('refuses invalid, oversized and out-of-state polygons with 400 naming the rule; bad bodies 422; huge bodies 413', async () => {
    const centre = childcare.find((r) => r.lat !== null)!;
    const x = centre.lng!, y = centre.lat!;
    const state = centre.state;
    const many = Array.from({ length: 5001 }, (_, i) => [x + 0.01 * Math.cos((2 * Math.PI * i) / 5001), y + 0.01 * Math.sin((2 * Math.PI * i) / 5001)]);
    many.push(many[0]);
    const ok = Array.from({ length: 5000 }, (_, i) => [x + 0.01 * Math.cos((2 * Math.PI * i) / 5000), y + 0.01 * Math.sin((2 * Math.PI * i) / 5000)]);
    ok.push(ok[0]);
    expect((await post({ state, catchment: { type: 'Polygon', coordinates: [ok] } })).status).toBe(200);
    const cases: [unknown, RegExp][] = [
      [{ type: 'Polygon', coordinates: [many] }, /more than 5000 vertices/],
      [{ type: 'Polygon', coordinates: [[[x, y], [x + 0.01, y], [x, y + 0.01], [x + 0.01, y + 0.01], [x, y]]] }, /crosses or touches itself/],
      [{ type: 'Polygon', coordinates: [[[x, y], [x + 0.01, y], [x, y + 0.01]]] }, /at least 4 positions/],
      [{ type: 'Polygon', coordinates: [[[x, y], [x + 0.01, y], [x, y + 0.01], [x + 0.001, y]]] }, /not closed/],
      [{ type: 'Polygon', coordinates: [square(x, y, 0.3)] }, /at most 30 km/],
      [{ type: 'Polygon', coordinates: [square(x, y, 0.02), square(x + 0.02, y, 0.01)] }, /crosses or touches ring/],
      [{ type: 'Polygon', coordinates: [[[x, y], ['a', y], [x, y + 0.01], [x, y]]] }, /not \[longitude, latitude\]/],
      [{ type: 'Polygon', coordinates: [square(150, -60, 0.01)] }, /not wholly inside/],
    ];
    for (const [catchment, message] of cases) {
      const r = await post({ state, catchment });
      expect([r.status, r.body.error], String(message)).toEqual([400, 'invalid_polygon']);
      expect(r.body.parameter).toBe('catchment');
      expect(r.body.message).toMatch(message);
    }
    const shape: [unknown, number, string][] = [
      [{ catchment: { type: 'Polygon', coordinates: [square(x, y, 0.01)] } }, 422, 'state'],
      [{ state }, 422, 'catchment'],
      [{ state, catchment: { type: 'Point', coordinates: [x, y] } }, 422, 'catchment'],
      [{ state, catchment: { type: 'Polygon', coordinates: [square(x, y, 0.01)] }, radius: 3 }, 422, 'radius'],
      [{ state, catchment: { type: 'Polygon', coordinates: [square(x, y, 0.01)] }, include_access: true }, 400, 'include_access'],
    ];
    for (const [body, status, parameter] of shape) {
      const r = await post(body);
      expect([r.status, r.body.parameter]).toEqual([status, parameter]);
    }
    expect((await post(null, '{"state": ')).status).toBe(422);
    const huge = await post(null, JSON.stringify({ state, catchment: { type: 'Polygon', coordinates: [ok] }, pad: 'x'.repeat(10 * 1024 * 1024) }));
    expect([huge.status, huge.body.error]).toEqual([413, 'payload_too_large']);
  }, 30_000);
});

describe('the childcare docs, guide and OpenAPI', () => {
  it('are served without a key, offline (no external asset), and name every childcare path', async () => {
    const openapi = await get('/api/v1/childcare/openapi.json');
    expect(openapi.status).toBe(200);
    const paths = Object.keys(openapi.body.paths);
    for (const p of ['/api/v1/das', '/api/v1/childcare/schema', '/api/v1/childcare/analysis', '/api/v1/childcare/site-analysis', '/api/v1/childcare/export', '/api/v1/childcare/reconciliation-helper']) expect(paths).toContain(p);
    expect(paths.some((p) => p.startsWith('/v1/') || p.startsWith('/api/v1/property'))).toBe(false);
    expect(Object.keys(openapi.body.paths['/api/v1/childcare/site-analysis'])).toEqual(['get', 'post', 'options']);
    expect(openapi.body.paths['/api/v1/das'].get.parameters.map((x: { name: string }) => x.name).sort()).toEqual(['X-Request-Id', 'cursor', 'page', 'per_page', 'since', 'state']);
    expect(await (await fetch(`${server.url}/api/v1/childcare/docs`)).text()).toContain('href="/api/v1/childcare/openapi.json"');
    for (const page of ['docs', 'guide']) {
      const res = await fetch(`${server.url}/api/v1/childcare/${page}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      // Offline: no script, stylesheet, image or font from anywhere else.
      expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=["']?(https?:)?\/\//i);
      expect(html).not.toMatch(/@import|url\(\s*["']?https?:/i);
      if (page === 'guide') for (const words of ['meta.pages.next', 'upsert', 'council_reference', 'overlap', 'reconciliation helper', 'Retry-After']) expect(html).toContain(words);
      else expect(html).toContain('/api/v1/childcare/site-analysis');
    }
  });
});

describe('open schools in site analyses', () => {
  it('TAS and NT are an explicit coverage gap; elsewhere the points inside the catchment, without identifiers', async () => {
    for (const st of ['TAS', 'NT'] as StateCode[]) {
      const one = das.list({ state: st }, { limit: 1 })[0];
      if (!one || one.lat === null || !states.includes(st)) continue;
      const r = await get(`/api/v1/childcare/site-analysis?lat=${one.lat}&lng=${one.lng}&radius_km=5&state=${st}`, key);
      expect(r.body.data.schools).toMatchObject({ available: false, reason: 'coverage_gap', features: null });
      expect(r.body.data.schools.note).toMatch(/does not mean there are no schools/);
    }
    const vic = childcare.find((r) => r.state === 'VIC' && r.lat !== null);
    if (vic && states.includes('VIC')) {
      const r = await get(`/api/v1/childcare/site-analysis?lat=${vic.lat}&lng=${vic.lng}&radius_km=30&state=VIC`, key);
      expect(r.body.data.schools.available).toBe(true);
      expect(r.body.data.schools.count).toBeGreaterThan(0);
      expect(JSON.stringify(r.body.data.schools.features)).not.toMatch(/SCH-|year_levels|Prep-6|7-12|enrol/);
    }
  });
});

describe('review mends', () => {
  it('a childcare key has its own daily limit, and no DA listing', async () => {
    const k = (await createKey(store, { components: 'none', childcareStates: states, childcareAddOn: 'childcare_market_intelligence', childcareDailyLimit: 2 })).key;
    const a = await get('/api/v1/childcare/schema', k);
    expect([a.status, a.headers.get('ratelimit-limit'), a.headers.get('ratelimit-remaining')]).toEqual([200, '2', '1']);
    expect((await get('/api/v1/das?per_page=1', k)).status).toBe(200);
    const over = await get('/api/v1/childcare/analysis', k);
    expect([over.status, over.body.error, over.headers.get('retry-after') !== null]).toEqual([429, 'daily_limit_exceeded', true]);
    expect((await get('/v1/das?category=childcare', k)).status).toBe(403); // the DA listing is another licence
    // The default childcare limit applies without the flag, with its headers.
    expect((await get('/api/v1/childcare/schema', key)).headers.get('ratelimit-limit')).toBe('1000');
  });

  it('refuses holes outside the outer ring, touching rings, zero-area rings', async () => {
    const centre = childcare.find((r) => r.lat !== null)!;
    const x = centre.lng!, y = centre.lat!;
    const sq = (cx: number, cy: number, h: number) => [[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h], [cx - h, cy - h]];
    const post = async (coordinates: number[][][]) => {
      const res = await fetch(`${server.url}/api/v1/childcare/site-analysis`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ state: centre.state, catchment: { type: 'Polygon', coordinates } }) });
      return { status: res.status, body: await res.json() };
    };
    const cases: [number[][][], RegExp][] = [
      [[sq(x, y, 0.0004), sq(x, y, 0.02)], /not inside the outer ring|crosses or touches/],
      [[sq(x, y, 0.02), sq(x + 0.05, y, 0.005)], /not inside the outer ring/],
      [[[[x, y], [x + 0.01, y], [x + 0.01, y + 0.01], [x, y], [x - 0.01, y], [x - 0.01, y - 0.01], [x, y]]], /touches itself/],
      [[[[x, y], [x + 0.01, y], [x + 0.02, y], [x, y]]], /no area/],
      [[sq(x, y, 0.02), sq(x, y, 0.02)], /touches/],
      [[sq(x, y, 0.02), [[x - 0.02, y], [x, y - 0.01], [x, y + 0.01], [x - 0.02, y]]], /touches/],
    ];
    for (const [coordinates, message] of cases) {
      const r = await post(coordinates);
      expect(r.status, String(message)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
  });

  it('notices travel with every answer: analysis (even an empty catchment), feed, schema, GeoJSON and CSV', async () => {
    const centre = childcare.find((r) => r.lat !== null)!;
    const tiny = await get(`/api/v1/childcare/site-analysis?lat=${centre.lat! + 0.5}&lng=${centre.lng}&radius_km=0.1&state=${centre.state}`, key);
    if (tiny.status === 200) expect(tiny.body.data.notices.attribution.length).toBeGreaterThan(0);
    expect((await get('/api/v1/childcare/analysis', key)).body.data.notices.attribution.length).toBeGreaterThan(0);
    expect((await get('/api/v1/das?per_page=1', key)).body.meta.notices.attribution.length).toBeGreaterThan(0);
    expect((await get('/api/v1/childcare/schema', key)).body.notices.attribution.length).toBeGreaterThan(0);
    expect((await get('/api/v1/childcare/export?format=geojson', key)).body.metadata.attribution.length).toBeGreaterThan(0);
    const csv = await fetch(`${server.url}/api/v1/childcare/export?format=csv`, { headers: { authorization: `Bearer ${key}` } });
    expect(csv.headers.get('x-data-attribution')).toMatch(/council planning registers/);
    await csv.text();
  });

  it('include_access=true is 400 on every childcare endpoint', async () => {
    for (const path of ['/api/v1/childcare/schema', '/api/v1/childcare/analysis', '/api/v1/das', '/api/v1/childcare/export']) {
      const r = await get(`${path}?include_access=true`, key);
      expect([path, r.status, r.body.parameter, r.body.error]).toEqual([path, 400, 'include_access', 'unsupported_parameter']);
    }
  });
});
