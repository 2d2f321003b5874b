// Contract tests over real HTTP (uWebSockets.js on port 0, the engine on the sample world): every endpoint of
// spec section 4, every status of section 7 with its body, the unknown-parameter rule, licences (section 5)
// and the usage block (section 2.9).
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { GUIDES, GUIDES_DIR, guidePath, headingSlug } from '../../server/openapi/guide-pages.js';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ajv2020 } from '../helpers/ajv.js';
import { CORE_BLOCKS } from '../../engine/property/kit/contract.js';
import { readSample, SAMPLE_NAMES } from '../../engine/property/samples.js';
import { EngineError } from '../../engine/errors.js';
import { engineInternals } from '../../engine/runtime/internals.js';
import { ROUTES } from '../../server/api/routes.js';
import { uwsNative } from '../../server/uws.js';
import { q, startTestServer, type TestServer } from '../helpers/server.js';


let t: TestServer;
let full: string;
let sandbox: { address: string; state: string; lat: number; lng: number; note: string }[];
let openapi: any;
let validatePayload: (doc: unknown) => boolean;
let validateCore: (doc: unknown) => boolean;

beforeAll(async () => {
  t = await startTestServer();
  full = await t.key();
  sandbox = (await t.get('/api/v1/property/sandbox')).body.addresses;
  openapi = (await t.get('/api/v1/openapi.json')).body;
  const ajv = ajv2020();
  // The payloads as the served document describes them, its component references (the score types) resolved.
  ajv.addSchema(openapi, 'https://propintel.test/openapi.json');
  validatePayload = ajv.compile({ $ref: 'https://propintel.test/openapi.json#/components/schemas/PropertyPayload' });
  validateCore = ajv.compile({ $ref: 'https://propintel.test/openapi.json#/components/schemas/CorePayload' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** A non-sandbox street address of `state` that resolves to itself. */
function address(state: string, i: number): string {
  const rec = t.stack.engine.addresses().byId(`${state}${String(i).padStart(7, '0')}`);
  if (!rec) throw new Error(`no address ${state}${i}`);
  return rec.text;
}

const errorsOf = (v: { errors?: unknown }) => v.errors;

describe('the server', () => {
  it('runs on the native uWebSockets.js binary', async () => {
    expect(uwsNative).toBe(true);
    const r = await t.get('/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', server: 'uWebSockets.js' });
  });

  it('gives every response a request id, echoing a well-formed X-Request-Id', async () => {
    const a = await t.get('/healthz');
    const b = await t.get('/healthz');
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect((await t.get('/healthz', undefined, { 'x-request-id': 'client-abc.1' })).headers.get('x-request-id')).toBe('client-abc.1');
    // Not well formed: replaced, not echoed.
    expect((await t.get('/healthz', undefined, { 'x-request-id': 'bad id with spaces' })).headers.get('x-request-id')).not.toContain(' ');
    // Errors carry one too.
    expect((await t.get('/api/v1/property')).headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  });

  it('answers an unknown path 404 and another method 405, both with the error body', async () => {
    const r = await t.get('/api/v1/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', message: 'no endpoint at /api/v1/nothing-here; see /api/v1/docs' });
    const p = await fetch(`${t.url}/api/v1/property/sample`, { method: 'POST', body: '{}' });
    expect(p.status).toBe(405);
    expect(p.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await p.json()).toMatchObject({ error: 'method_not_allowed' });
  });
});

describe('keyless endpoints', () => {
  it('serves every canned sample, exactly the stored sample', async () => {
    for (const name of SAMPLE_NAMES) {
      const path = name === 'sample' ? '/api/v1/property/sample' : `/api/v1/property/sample/${name}`;
      const r = await t.get(path);
      expect(r.status, path).toBe(200);
      expect(r.body, path).toEqual(await readSample(name));
    }
    // The full sample is a complete payload (keyless: no usage, no documentation stamp).
    const s = (await t.get('/api/v1/property/sample')).body;
    expect(s.meta.documentation).toBeUndefined();
    expect(Object.keys(s.scores).sort()).toEqual(['aircraft_noise', 'bushfire', 'contamination', 'flood', 'heat_island', 'noise', 'solar', 'view_quality', 'walkability']);
    expect((await t.get('/api/v1/property/sample/core')).body.scores).toBeUndefined();
  });

  it('lists the twelve sandbox addresses across eight states', async () => {
    const r = await t.get('/api/v1/property/sandbox');
    expect(r.status).toBe(200);
    expect(r.body.addresses).toHaveLength(12);
    expect(new Set(r.body.addresses.map((a: { state: string }) => a.state)).size).toBe(8);
    for (const a of r.body.addresses) expect(Object.keys(a).sort()).toEqual(['address', 'lat', 'lng', 'note', 'state']);
  });

  it('refuses any query parameter on keyless endpoints (422 unknown_parameter)', async () => {
    for (const path of ['/api/v1/property/sample', '/api/v1/property/sandbox', '/healthz', '/api/v1/openapi.json']) {
      const r = await t.get(`${path}?cache=1`);
      expect(r.status, path).toBe(422);
      expect(r.body).toMatchObject({ error: 'unknown_parameter', parameter: 'cache' });
    }
  });

  it('needs no key on keyless endpoints even when a bad one is sent', async () => {
    expect((await t.get('/api/v1/property/sample/flood', 'pi_000000000000_not-a-real-key')).status).toBe(200);
  });

  it('publishes OpenAPI 3.1 naming every endpoint, and a docs page generated from it', async () => {
    expect(openapi.openapi).toBe('3.1.0');
    expect(openapi.info.version).toBe('1.0.0');
    expect(Object.keys(openapi.paths).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    const prop = openapi.paths['/api/v1/property'].get;
    expect(prop.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(prop.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422', '429', '503']));
    expect(prop.parameters.map((p: { name: string }) => p.name)).toContain('contour_interval_m');
    expect(openapi.paths['/api/v1/property/core'].get.parameters.map((p: { name: string }) => p.name)).not.toContain('include_surfaces');
    const docs = await t.get('/api/v1/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    for (const r of ROUTES) expect(docs.body).toContain(`<code>${r.path}</code>`);
    // Offline: no external scripts, styles or fonts.
    expect(docs.body).not.toMatch(/<script|<link|https?:\/\/(?!json-schema)/);
  });

  it('links the reference to every guide, served as a page whose links stay on the server and whose anchors exist', async () => {
    const docs = (await t.get('/api/v1/docs')).body as string;
    const pages = new Map<string, string>();
    for (const g of GUIDES) {
      expect(docs).toContain(`href="${guidePath(g)}"`);
      const r = await t.get(guidePath(g));
      expect(r.status, g).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      pages.set(guidePath(g), r.body as string);
      // The guide's own title and every one of its second-level headings are on the page.
      const md = readFileSync(join(GUIDES_DIR, `${g}.md`), 'utf8');
      for (const h of [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1])) expect(r.body, `${g}: ${h}`).toContain(`id="${headingSlug(h.replace(/`/g, ''))}"`);
      expect(r.body).not.toMatch(/<script|<link/);
    }
    for (const [path, html] of pages) {
      for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
        const link = href.replaceAll('&amp;', '&');
        // Inside the page, another page of the docs, or outside the server: never a path into a source tree.
        expect(link, `${path}: ${link}`).toMatch(/^(#|\/api\/v1\/docs(\/|#|$)|https?:|mailto:)/);
        const [target, anchor] = link.split('#');
        if (!anchor || target.startsWith('http')) continue;
        const page = target === '' ? html : pages.get(target) ?? docs;
        expect(page, `${path}: ${link}`).toContain(`id="${anchor}"`);
      }
    }
    expect((await t.get('/api/v1/docs/nothing')).status).toBe(404);
  });

  it('compresses with gzip when accepted, and the bytes are identical once decompressed', async () => {
    const raw = (headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(`${t.url}/api/v1/property/sample/context`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject).end();
      });
    const plain = await raw({});
    const gz = await raw({ 'accept-encoding': 'br;q=1, gzip;q=0.5' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect((await raw({ 'accept-encoding': 'gzip;q=0' })).headers['content-encoding']).toBeUndefined();
  });
});

describe('authentication (401)', () => {
  it('refuses a keyed endpoint without a key, with a malformed header, and with an unknown key', async () => {
    const path = `/api/v1/property?${q({ address: sandbox[0].address })}`;
    const none = await t.get(path);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: 'missing_key', message: expect.stringContaining('Authorization: Bearer') });
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const basic = await t.get(path, undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    expect(basic.body.error).toBe('invalid_authorization');
    const forged = full.slice(0, -4) + (full.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const bad of ['pi_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', forged, 'hello']) {
      const r = await t.get(path, bad);
      expect(r.status, bad).toBe(401);
      expect(r.body).toEqual({ error: 'invalid_key', message: 'the API key is not recognised' });
    }
    expect((await t.get(`/api/v1/property/core?${q({ address: sandbox[0].address })}`)).status).toBe(401);
  });

  it('authenticates before reading parameters: no key and a bad parameter is still 401', async () => {
    expect((await t.get('/api/v1/property?bogus=1')).status).toBe(401);
  });

  it('refuses a revoked key at once', async () => {
    const k = await t.key();
    const path = `/api/v1/property?${q({ address: sandbox[1].address, components: 'das' })}`;
    expect((await t.get(path, k)).status).toBe(200);
    await t.stack.store.revokeKey(k.split('_')[1], new Date());
    const r = await t.get(path, k);
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/revoked/);
  });
});

describe('noise_method (issue 49)', () => {
  it('chooses the noise model\'s physics method for the score and the grid, CoRTN by default, the payload saying which', async () => {
    // The SA sandbox address: no counter near, the physics path answers.
    const sa = sandbox.find((s) => s.state === 'SA')!;
    const get = async (method?: string) => (await t.get(`/api/v1/property?${q({ address: sa.address, components: 'scores.noise', include_surfaces: 1, surfaces: 'noise', ...(method ? { noise_method: method } : {}) })}`, full)).body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const cortn = await get(), cnossos = await get('cnossos');
    expect(validatePayload(cnossos)).toBe(true);
    expect([cortn.scores.noise.model.physics_method, cortn.surfaces.noise.physics_method]).toEqual(['cortn', 'cortn']);
    expect([cnossos.scores.noise.model.physics_method, cnossos.surfaces.noise.physics_method]).toEqual(['cnossos', 'cnossos']);
    expect(cnossos.scores.noise.lden_source).toBe('physics');
    expect(cnossos.scores.noise.model.method).toMatch(/CNOSSOS-EU propagation per octave band/);
    expect(cnossos.surfaces.noise.model_path_note).toMatch(/CNOSSOS-EU physics path/);
    // Different physics, one answer each (neither cached for the other), within a few dB of each other here.
    expect(cnossos.scores.noise.physics_lden_db).not.toBe(cortn.scores.noise.physics_lden_db);
    expect(Math.abs(cnossos.scores.noise.physics_lden_db - cortn.scores.noise.physics_lden_db)).toBeLessThan(3);
    expect((await get('cortn')).scores.noise.physics_lden_db).toBe(cortn.scores.noise.physics_lden_db);
  });
});

describe('parameters (422)', () => {
  const cases: [string, Record<string, string | number>, { error: string; parameter: string; message?: RegExp }][] = [
    ['neither subject', {}, { error: 'invalid_subject', parameter: 'address', message: /^pass an address or both lat and lng$/ }],
    ['one coordinate', { lat: -37.8 }, { error: 'invalid_subject', parameter: 'lng', message: /^pass both lat and lng, or use address$/ }],
    ['both kinds', { address: 'x', lat: -37.8, lng: 145 }, { error: 'invalid_subject', parameter: 'address', message: /^pass either address or both lat and lng, not both$/ }],
    ['latitude out of range', { lat: -91, lng: 145 }, { error: 'invalid_parameter', parameter: 'lat', message: /-90 to 90/ }],
    ['longitude out of range', { lat: -37, lng: 181 }, { error: 'invalid_parameter', parameter: 'lng' }],
    ['latitude not a number', { lat: '12abc', lng: 145 }, { error: 'invalid_parameter', parameter: 'lat', message: /must be a number/ }],
    ['hexadecimal latitude', { lat: '0x10', lng: 145 }, { error: 'invalid_parameter', parameter: 'lat' }],
    ['address over 200 characters', { address: 'a'.repeat(201) }, { error: 'invalid_parameter', parameter: 'address', message: /at most 200/ }],
    ['blank address', { address: '   ' }, { error: 'invalid_parameter', parameter: 'address' }],
    ['control characters', { address: '1 Main St\n' }, { error: 'invalid_parameter', parameter: 'address', message: /control characters/ }],
    ['unknown parameter', { address: 'x', radius: 5 }, { error: 'unknown_parameter', parameter: 'radius' }],
    ['misspelt parameter', { address: 'x', include_geometries: 1 }, { error: 'unknown_parameter', parameter: 'include_geometries' }],
    ['school radius too small', { address: 'x', school_radius_m: 99 }, { error: 'invalid_parameter', parameter: 'school_radius_m', message: /100 to 5000/ }],
    ['school radius fractional', { address: 'x', school_radius_m: '150.5' }, { error: 'invalid_parameter', parameter: 'school_radius_m' }],
    ['noise cells 6', { address: 'x', noise_cells: 6 }, { error: 'invalid_parameter', parameter: 'noise_cells', message: /5, 7 or 9/ }],
    ['noise method loud', { address: 'x', noise_method: 'loud' }, { error: 'invalid_parameter', parameter: 'noise_method', message: /cortn or cnossos/ }],
    ['contour interval 0', { address: 'x', contour_interval_m: 0 }, { error: 'invalid_parameter', parameter: 'contour_interval_m' }],
    ['contour interval 201', { address: 'x', contour_interval_m: 201 }, { error: 'invalid_parameter', parameter: 'contour_interval_m' }],
    ['nearby zone radius 2001', { address: 'x', include_nearby_zones: 1, nearby_zone_radius_m: 2001 }, { error: 'invalid_parameter', parameter: 'nearby_zone_radius_m' }],
    ['boolean yes', { address: 'x', include_geometry: 'yes' }, { error: 'invalid_parameter', parameter: 'include_geometry', message: /1, 0, true or false/ }],
    ['unknown surface', { address: 'x', include_surfaces: 1, surfaces: 'noise,wind' }, { error: 'invalid_parameter', parameter: 'surfaces' }],
    ['unknown component', { address: 'x', components: 'das,weather' }, { error: 'invalid_parameter', parameter: 'components', message: /weather/ }],
    ['unknown selector', { address: 'x', components: 'scores.crime' }, { error: 'invalid_parameter', parameter: 'components' }],
    ['empty component item', { address: 'x', components: 'das,,poi' }, { error: 'invalid_parameter', parameter: 'components' }],
  ];
  for (const [name, params, want] of cases) {
    it(`refuses ${name}`, async () => {
      const r = await t.get(`/api/v1/property?${q(params)}`, full);
      expect(r.status).toBe(422);
      expect(Object.keys(r.body).slice(0, 2)).toEqual(['error', 'message']);
      expect(r.body).toMatchObject({ error: want.error, parameter: want.parameter });
      if (want.message) expect(r.body.message).toMatch(want.message);
    });
  }

  it('refuses a parameter given twice', async () => {
    const r = await t.get('/api/v1/property?lat=-37.8&lat=-37.9&lng=145', full);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: 'duplicate_parameter', parameter: 'lat' });
  });

  it('refuses on /core the parameters of scores and surfaces', async () => {
    for (const [p, v] of [['include_surfaces', '1'], ['noise_cells', '7'], ['noise_method', 'cnossos'], ['contour_interval_m', '5'], ['surfaces', 'noise']]) {
      const r = await t.get(`/api/v1/property/core?${q({ address: sandbox[0].address, [p]: v })}`, full);
      expect(r.status, p).toBe(422);
      expect(r.body).toMatchObject({ error: 'unknown_parameter', parameter: p });
      expect(r.body.message).toMatch(/never returns scores or surfaces/);
    }
    const s = await t.get(`/api/v1/property/core?${q({ address: sandbox[0].address, components: 'das,scores.noise' })}`, full);
    expect(s.status).toBe(422);
    expect(s.body).toMatchObject({ parameter: 'components' });
  });

  it('answers an unresolvable address 422 with candidates', async () => {
    const near = await t.get(`/api/v1/property?${q({ address: 'Cumberland' })}`, full);
    expect(near.status).toBe(422);
    expect(near.body.error).toBe('address_unresolvable');
    expect(near.body.parameter).toBe('address');
    expect(Array.isArray(near.body.candidates)).toBe(true);
    const none = await t.get(`/api/v1/property?${q({ address: 'zzqx wvvk plorg' })}`, full);
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ error: 'address_unresolvable', candidates: [] });
  });
});

describe('licences (403)', () => {
  it('refuses include_geometry and include_surfaces without the geometry licence', async () => {
    const k = await t.key({ geometry: false });
    for (const p of ['include_geometry', 'include_surfaces']) {
      const r = await t.get(`/api/v1/property?${q({ address: sandbox[0].address, [p]: 1 })}`, k);
      expect(r.status, p).toBe(403);
      expect(r.body).toMatchObject({ error: 'not_licensed', requested: [p], geometry_licence: false });
    }
    // Without asking for geometry the same key is served, with identifiers and a geometry_omitted note.
    const ok = await t.get(`/api/v1/property?${q({ address: sandbox[0].address, components: 'das' })}`, k);
    expect(ok.status).toBe(200);
    expect(ok.body.resolved.parcel.pfi).toMatch(/\S/);
    expect(ok.body.resolved.parcel.geometry).toBeUndefined();
    expect(ok.body.resolved.parcel.geometry_omitted).toMatch(/geometry licence/);
  });

  it('refuses a score-only key on /core', async () => {
    const k = await t.key({ components: ['scores'] });
    const r = await t.get(`/api/v1/property/core?${q({ address: sandbox[0].address })}`, k);
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('not_licensed');
    expect(r.body.requested).toEqual([...CORE_BLOCKS]);
    expect(r.body.message).toMatch(/complete Core component set/);
  });

  it('narrows components to the licence, and refuses when nothing asked for is licensed', async () => {
    const k = await t.key({ components: ['das', 'planning'] });
    const narrowed = await t.get(`/api/v1/property?${q({ address: sandbox[2].address, components: 'das,scores.noise' })}`, k);
    expect(narrowed.status).toBe(200);
    expect(Object.keys(narrowed.body.development_applications).sort()).toEqual(['nearby_300m', 'on_parcel']);
    expect(narrowed.body.scores).toBeUndefined();
    expect(narrowed.body.meta.licensed_components).toEqual(['das', 'planning']);
    const refused = await t.get(`/api/v1/property?${q({ address: sandbox[2].address, components: 'scores.noise,hazards' })}`, k);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'not_licensed', requested: ['scores', 'hazards'] });
  });
});

describe('property lookups (200)', () => {
  it('returns the full payload with usage, valid against the published schema', async () => {
    const r = await t.get(`/api/v1/property?${q({ address: sandbox[0].address })}`, full);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(validatePayload(r.body) ? [] : errorsOf(validatePayload as never)).toEqual([]);
    expect(r.body.resolved.address).toBe(sandbox[0].address);
    expect(r.body.meta.documentation).toEqual({ version: '1.0.0', hash: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(Object.keys(r.body.usage)).toEqual(['unique_addresses_this_period', 'period_quota', 'billing_period_key', 'period_kind', 'resets_at', 'charged', 'unique_addresses_this_month', 'monthly_quota', 'billing_month']);
    // A sandbox address is never metered.
    expect(r.body.usage).toMatchObject({ charged: false, unique_addresses_this_period: 0, period_quota: 1000 });
    expect(r.body.usage.billing_period_key).toMatch(/^\d{6}$/);
    expect(r.body.meta.not_charged_reason).toMatch(/^sandbox address/);
  });

  it('returns the core payload: never scores or surfaces, with the product contract', async () => {
    const r = await t.get(`/api/v1/property/core?${q({ address: sandbox[3].address })}`, full);
    expect(r.status).toBe(200);
    expect(validateCore(r.body) ? [] : errorsOf(validateCore as never)).toEqual([]);
    expect(r.body.scores).toBeUndefined();
    expect(r.body.surfaces).toBeUndefined();
    expect(r.body.meta.product_contract.included_components).toEqual([...CORE_BLOCKS]);
    expect(r.body.usage).toMatchObject({ charged: false, period_quota: 1000 }); // a sandbox address
  });

  it('answers a coordinate (lat/lng) and delivers surfaces on a geometry key', async () => {
    const s = sandbox.find((a) => a.state === 'NSW')!;
    const r = await t.get(`/api/v1/property?${q({ lat: s.lat, lng: s.lng, components: 'planning', include_surfaces: 1, surfaces: 'heat' })}`, full);
    expect(r.status).toBe(200);
    expect(r.body.query).toMatchObject({ address: null, lat: s.lat, lng: s.lng });
    expect(r.body.meta.surfaces.delivered_layers).toEqual(['heat']);
    expect(Object.keys(r.body.surfaces)).toEqual(['heat']);
    expect(r.body.surfaces.heat.cooling_cover_share).toBeGreaterThanOrEqual(0);
  });

  it('charges a new address once per period; repeats are free and say why', async () => {
    const k = await t.key({ quota: 5 });
    const path = `/api/v1/property?${q({ address: address('QLD', 1200), components: 'das' })}`;
    const first = await t.get(path, k);
    expect(first.status).toBe(200);
    expect(first.body.usage).toMatchObject({ charged: true, unique_addresses_this_period: 1, period_quota: 5, unique_addresses_this_month: 1, monthly_quota: 5 });
    expect(first.body.meta.not_charged_reason).toBeUndefined();
    const again = await t.get(path, k);
    expect(again.body.usage).toMatchObject({ charged: false, unique_addresses_this_period: 1 });
    expect(again.body.meta.not_charged_reason).toMatch(/^repeat lookup/);
    // The same address asked differently (another component set, the core endpoint) is the same address.
    const core = await t.get(`/api/v1/property/core?${q({ address: address('QLD', 1200) })}`, k);
    expect(core.body.usage).toMatchObject({ charged: false, unique_addresses_this_period: 1 });
    // Apart from usage and the reason, a repeat is the same payload.
    const strip = (b: any) => ({ ...b, usage: undefined, meta: { ...b.meta, not_charged_reason: undefined } });
    expect(strip(again.body)).toEqual(strip(first.body));
  });

  it('answers 429 quota_exceeded for a new address over the quota, with used, quota, resets_at and top-up instructions', async () => {
    const k = await t.key({ quota: 1 });
    const a = `/api/v1/property?${q({ address: address('SA', 300), components: 'das' })}`;
    const b = `/api/v1/property?${q({ address: address('SA', 301), components: 'das' })}`;
    expect((await t.get(a, k)).body.usage.charged).toBe(true);
    const r = await t.get(b, k);
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ error: 'quota_exceeded', used: 1, quota: 1 });
    expect(r.body.resets_at).toMatch(/^\d{4}-\d{2}-01T00:00:00\+1[01]:00$/);
    expect(r.body.top_up).toMatch(/top-up/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // Repeats and sandbox addresses still answer.
    expect((await t.get(a, k)).status).toBe(200);
    expect((await t.get(`/api/v1/property?${q({ address: sandbox[4].address, components: 'das' })}`, k)).status).toBe(200);
    // A top-up takes effect at once.
    await t.stack.store.setQuota(k.split('_')[1], 2);
    expect((await t.get(b, k)).body.usage).toMatchObject({ charged: true, unique_addresses_this_period: 2, period_quota: 2 });
  });

  it('meters nothing inside the onboarding window', async () => {
    const k = await t.key({ quota: 0, onboardingUntil: '2999-12-31' });
    const r = await t.get(`/api/v1/property?${q({ address: address('WA', 500), components: 'das' })}`, k);
    expect(r.status).toBe(200);
    expect(r.body.usage).toMatchObject({ charged: false, unique_addresses_this_period: 0, period_quota: 0 });
    expect(r.body.meta.not_charged_reason).toMatch(/^onboarding window: nothing is metered through 2999-12-31/);
  });

  it('keys anchored to an effective date report YYYYMMDD periods starting on that day of the month', async () => {
    const k = await t.key({ period: 'anchored', effectiveDate: '2025-03-17' });
    const r = await t.get(`/api/v1/property?${q({ address: address('ACT', 400), components: 'das' })}`, k);
    expect(r.status).toBe(200);
    expect(r.body.usage.billing_period_key).toMatch(/^\d{6}17$/);
    expect(r.body.usage.period_kind).toBe('anchored');
    expect(r.body.usage.resets_at).toMatch(/-17T00:00:00\+1[01]:00$/);
  });

  it('sees a DA upsert at once although the response is cached (DAs are never cached)', async () => {
    const path = `/api/v1/property?${q({ address: sandbox[5].address, components: 'das' })}`;
    const before = await t.get(path, full);
    expect(t.server.api.responseCache.size).toBeGreaterThan(0);
    const das = engineInternals(t.stack.engine).daStoreWithWrites();
    const template = das.nearby(sandbox[5].lng, sandbox[5].lat, 300)[0]?.record ?? das.list({}, { limit: 1 })[0];
    const added = { ...template, id: 987_654_321, ref: 'TEST/2026/1', lodged: '2026-11-24', lng: sandbox[5].lng, lat: sandbox[5].lat + 0.0003 };
    das.upsert([added]);
    const after = await t.get(path, full);
    const ids = (b: any) => b.development_applications.nearby_300m.map((d: { id: number }) => d.id);
    expect(ids(before.body)).not.toContain(987_654_321);
    expect(ids(after.body)).toContain(987_654_321);
  });
});

describe('failures (503, partial)', () => {
  it('answers 503 address_resolution_unavailable with Retry-After when address search is down; a coordinate still works', async () => {
    const engine = t.stack.engine;
    const text = address('TAS', 700);
    const original = engine.addresses.bind(engine);
    engine.addresses = () => {
      throw new Error('address index unreachable');
    };
    try {
      const r = await t.get(`/api/v1/property?${q({ address: text })}`, full);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('30');
      expect(r.body).toMatchObject({ error: 'address_resolution_unavailable' });
      expect(r.body.message).toMatch(/pass lat and lng/);
      const s = sandbox.find((a) => a.state === 'TAS')!;
      const ok = await t.get(`/api/v1/property?${q({ lat: s.lat, lng: s.lng, components: 'planning' })}`, full);
      expect(ok.status).toBe(200);
      expect(ok.body.resolved.match_note).toMatch(/address search is unavailable/);
    } finally {
      engine.addresses = original;
    }
  });

  it('answers 503 core_component_unavailable when the DA lookup fails: no payload, nothing charged', async () => {
    const k = await t.key({ quota: 10 });
    const engine = t.stack.engine;
    const original = engine.das.bind(engine);
    engine.das = () => {
      throw new EngineError('UNAVAILABLE', 'DA store offline', { component: 'development_applications' });
    };
    try {
      const r = await t.get(`/api/v1/property?${q({ address: address('NT', 800) })}`, k);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('30');
      expect(r.body).toMatchObject({ error: 'core_component_unavailable', component: 'development_applications' });
      expect(r.body.usage).toBeUndefined();
    } finally {
      engine.das = original;
    }
    const after = await t.get(`/api/v1/property?${q({ address: address('NT', 801), components: 'das' })}`, k);
    expect(after.body.usage.unique_addresses_this_period).toBe(1);
  });

  it('does not charge a response whose core components failed, and does not cache it', async () => {
    const k = await t.key({ quota: 10 });
    const store = engineInternals(t.stack.engine).store;
    const original = store.vectorsFor.bind(store);
    store.vectorsFor = ((path: string, ...rest: unknown[]) => {
      if (path === 'planning.overlay') throw new Error('overlay layer unreadable');
      return (original as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof store.vectorsFor;
    const path = `/api/v1/property?${q({ address: address('NSW', 900), components: 'planning,das' })}`;
    try {
      const r = await t.get(path, k);
      expect(r.status).toBe(200);
      expect(r.body.completeness).toBe('partial');
      expect(r.body.degraded_components).toContain('planning.overlay');
      expect(r.body.meta.not_charged_reason).toMatch(/core components failed: .*planning\.overlay/);
      expect(r.body.usage).toMatchObject({ charged: false, unique_addresses_this_period: 0 });
    } finally {
      store.vectorsFor = original;
    }
    const healed = await t.get(path, k);
    expect(healed.body.completeness).toBe('full');
    expect(healed.body.usage).toMatchObject({ charged: true, unique_addresses_this_period: 1 });
  });
});
