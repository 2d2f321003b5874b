// The DA listing over real HTTP (spec 4.1, 5, 7, 8): every endpoint at both prefixes, validated against the
// OpenAPI schemas and equal to the library's answer; every bad input refused naming the parameter; licences;
// the daily limit with its headers, its 429 and its reset at Melbourne midnight; the playground's demo key.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ajv2020 } from '../helpers/ajv.js';
import { daCategoriesDocument, daCouncilsDocument, daDetailDocument, daListDocument, daNearbyDocument, daStatsDocument } from '../../server/api/da-query.js';
import type { DaStore } from '../../engine/da/da-store.js';
import { playgroundKey } from '../../server/keys/playground-key.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { readDocs } from '../helpers/docs.js';


// 14:00 in Melbourne (AEDT, UTC+11) on 25 November 2026; tests move it.
let now = new Date('2026-11-25T03:00:00Z');
let t: TestServer;
let das: DaStore;
let key: string;
let openapi: any;
const validators = new Map<string, (doc: unknown) => boolean>();
let ajv: ReturnType<typeof ajv2020>;

beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  das = (t.stack.engine as unknown as { das(): DaStore }).das();
  key = await t.key({ components: 'none', daDailyLimit: 1_000_000 });
  openapi = (await t.get('/api/v1/openapi.json')).body;
  ajv = ajv2020();
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  for (const name of ['DaList', 'DaNearby', 'DaDetail', 'DaCategories', 'DaCouncils', 'DaStats', 'DaLimitExceeded', 'Error']) {
    ajv.addSchema({ ...openapi.components.schemas[name], $id: name });
    validators.set(name, ajv.getSchema(name)!);
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function valid(schema: string, body: unknown): void {
  const v = validators.get(schema)!;
  expect(v(body), JSON.stringify((v as unknown as { errors: unknown }).errors)).toBe(true);
}

const params = (query: string) => new Map(new URLSearchParams(query));

describe('the DA endpoints', () => {
  it('answer at /v1 and /api/v1 alike, match their OpenAPI schemas and equal the library functions', async () => {
    const one = das.list({}, { limit: 1 })[0];
    const cases: [string, string, string, (path: string) => unknown][] = [
      ['/das', 'state=NSW&per_page=5', 'DaList', (p) => daListDocument(das, params('state=NSW&per_page=5'), p)],
      ['/das/nearby', `lat=${one.lat}&lng=${one.lng}&radius_km=3`, 'DaNearby', (p) => daNearbyDocument(das, params(`lat=${one.lat}&lng=${one.lng}&radius_km=3`), p)],
      [`/das/${one.id}`, '', 'DaDetail', () => daDetailDocument(das, String(one.id))],
      ['/categories', 'state=vic', 'DaCategories', () => daCategoriesDocument(das, params('state=vic'))],
      ['/councils', '', 'DaCouncils', () => daCouncilsDocument(das)],
      ['/stats', '', 'DaStats', () => daStatsDocument(das)],
    ];
    for (const [path, query, schema, library] of cases) {
      for (const prefix of ['/v1', '/api/v1']) {
        const r = await t.get(`${prefix}${path}${query ? `?${query}` : ''}`, key);
        expect(r.status, `${prefix}${path}`).toBe(200);
        expect(r.headers.get('content-type')).toMatch(/^application\/json/);
        valid(schema, r.body);
        expect(r.body).toEqual(JSON.parse(JSON.stringify(library(`${prefix}${path}`))));
      }
    }
  });

  it('page by meta.pages.next, a path on the same prefix, to the end: every match once, newest first', async () => {
    const expected = das.list({ state: 'QLD', category: 'new_dwelling' }, { limit: 100_000 }).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(15);
    const seen: number[] = [];
    let next: string | null = '/api/v1/das?state=QLD&category=new_dwelling&per_page=7';
    let pages = 0;
    while (next) {
      expect(next.startsWith('/api/v1/das?')).toBe(true);
      const r = await t.get(next, key);
      expect(r.status).toBe(200);
      expect(r.body.meta.pages.total).toBe(expected.length);
      expect(r.body.meta.pages.page).toBe(++pages);
      seen.push(...r.body.data.map((d: { id: number }) => d.id));
      next = r.body.meta.pages.next;
    }
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 7));
    // A page past the end is an empty page with the totals, not an error.
    const past = await t.get(`/v1/das?state=QLD&category=new_dwelling&per_page=7&page=${pages + 5}`, key);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.pages).toMatchObject({ page: pages + 5, total: expected.length, total_pages: pages, next: null });
  });

  it('gzip a large answer when the client accepts it', async () => {
    const r = await fetch(`${t.url}/v1/das?per_page=100`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } });
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect(((await r.json()) as { data: unknown[] }).data.length).toBe(100);
  });
});

describe('bad input', () => {
  it('is refused 422 naming the parameter, or 404 for an unknown id, with the error body', async () => {
    const last = das.list({}, { limit: 1 })[0];
    const maxId = das.count({}) + 10_000_000;
    const cases: [string, number, string, string][] = [
      ['/v1/das?colour=red', 422, 'unknown_parameter', 'colour'],
      ['/v1/das?state=NSW&state=VIC', 422, 'duplicate_parameter', 'state'],
      ['/v1/das?since=2025-13-01', 422, 'invalid_parameter', 'since'],
      ['/v1/das?until=yesterday', 422, 'invalid_parameter', 'until'],
      ['/v1/das?since=2025-06-01&until=2025-01-01', 422, 'invalid_parameter', 'until'],
      ['/v1/das?state=XYZ', 422, 'invalid_parameter', 'state'],
      ['/v1/das?category=spaceport', 422, 'invalid_parameter', 'category'],
      ['/v1/das?status_group=maybe', 422, 'invalid_parameter', 'status_group'],
      ['/v1/das?is_residential=perhaps', 422, 'invalid_parameter', 'is_residential'],
      ['/v1/das?postcode=30', 422, 'invalid_parameter', 'postcode'],
      ['/v1/das?per_page=0', 422, 'invalid_parameter', 'per_page'],
      ['/v1/das?per_page=101', 422, 'invalid_parameter', 'per_page'],
      ['/v1/das?page=0', 422, 'invalid_parameter', 'page'],
      ['/v1/das?page=two', 422, 'invalid_parameter', 'page'],
      ['/v1/das?cursor=not-a-cursor', 422, 'invalid_parameter', 'cursor'],
      ['/v1/das/nearby?lat=-33.87', 422, 'invalid_parameter', 'lng'],
      ['/v1/das/nearby?lat=-33.87&lng=151.2&radius_km=0', 422, 'invalid_parameter', 'radius_km'],
      ['/v1/das/nearby?lat=-33.87&lng=151.2&radius_km=51', 422, 'invalid_parameter', 'radius_km'],
      ['/v1/das/nearby?lat=-95&lng=151.2', 422, 'invalid_parameter', 'lat'],
      ['/v1/das/nearby?lat=-33.87&lng=151.2&state=NSW', 422, 'unknown_parameter', 'state'],
      ['/v1/das/abc', 422, 'invalid_parameter', 'id'],
      ['/v1/das/-3', 422, 'invalid_parameter', 'id'],
      [`/v1/das/${last.id}?verbose=1`, 422, 'unknown_parameter', 'verbose'],
      ['/v1/stats?state=NSW', 422, 'unknown_parameter', 'state'],
      ['/v1/councils?state=Queensland', 422, 'invalid_parameter', 'state'],
    ];
    for (const [path, status, error, parameter] of cases) {
      const r = await t.get(path, key);
      expect({ path, status: r.status, error: r.body.error, parameter: r.body.parameter }).toEqual({ path, status, error, parameter });
      expect(r.body.message).toContain(parameter === 'id' ? 'id' : parameter);
      valid('Error', r.body);
    }
    const missing = await t.get(`/api/v1/das/${maxId}`, key);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'da_not_found', message: `no development application has id ${maxId}`, id: maxId });
  });

  it('without a key is 401; a key without the DA listing is 403, and is not counted', async () => {
    const none = await t.get('/v1/das');
    expect(none.status).toBe(401);
    expect((await t.get('/v1/das', 'pi_live_notakey')).status).toBe(401);
    const property = await t.key({ components: 'all' });
    const r = await t.get('/v1/das', property);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: 'not_licensed', requested: ['da_listing'] });
    expect(r.headers.get('ratelimit-limit')).toBeNull();
    // The DA-only key has no property component.
    const sandbox = (await t.get('/api/v1/property/sandbox')).body.addresses[0];
    const p = await t.get(`/api/v1/property?lat=${sandbox.lat}&lng=${sandbox.lng}`, key);
    expect(p.status).toBe(403);
    expect(p.body).toMatchObject({ error: 'not_licensed', requested: ['property'] });
  });
});

describe('the daily limit', () => {
  it('counts every request in the RateLimit headers, answers 429 with Retry-After past it, and resets at Melbourne midnight', async () => {
    now = new Date('2026-11-25T12:58:30Z'); // 23:58:30 in Melbourne
    const k = await t.key({ components: 'none', daDailyLimit: 3 });
    const seen: [number, string | null, string | null][] = [];
    for (const path of ['/v1/stats', '/v1/das?state=XYZ', '/api/v1/das/999999999']) {
      const r = await t.get(path, k);
      seen.push([r.status, r.headers.get('ratelimit-remaining'), r.headers.get('ratelimit-reset')]);
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      expect(r.headers.get('ratelimit-policy')).toBe(`3;w=${24 * 3600}`);
    }
    // A bad parameter and an unknown id count too, as at GitHub and Stripe.
    expect(seen).toEqual([
      [200, '2', '90'],
      [422, '1', '90'],
      [404, '0', '90'],
    ]);
    const over = await t.get('/v1/das', k);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('90');
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    expect(over.body).toEqual({
      error: 'daily_limit_exceeded',
      message: 'this key has used its DA-listing limit of 3 requests today (Australia/Melbourne); the limit resets at 2026-11-26T00:00:00+11:00',
      limit: 3,
      used: 3,
      window: 'day',
      resets_at: '2026-11-26T00:00:00+11:00',
      retry_after_s: 90,
    });
    valid('DaLimitExceeded', over.body);
    // Another key's limit is its own.
    expect((await t.get('/v1/stats', key)).status).toBe(200);
    now = new Date('2026-11-25T13:00:00Z'); // midnight in Melbourne
    const fresh = await t.get('/v1/stats', k);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('ratelimit-remaining')).toBe('2');
    expect(fresh.headers.get('ratelimit-reset')).toBe(String(24 * 3600));
  });

  it('follows the Melbourne day across the end of daylight saving (a 25-hour day)', async () => {
    // 5 April 2026: clocks go back at 03:00 AEDT; the day runs from 13:00Z on 4 April to 14:00Z on 5 April.
    now = new Date('2026-04-05T02:00:00Z');
    const k = await t.key({ components: 'none', daDailyLimit: 2 });
    const r = await t.get('/v1/stats', k);
    expect(r.headers.get('ratelimit-policy')).toBe(`2;w=${25 * 3600}`);
    expect(r.headers.get('ratelimit-reset')).toBe(String(12 * 3600));
    now = new Date('2026-11-25T03:00:00Z');
  });
});

/** GET over node:http from a chosen local address (another client of the playground). */
function getFrom(localAddress: string, path: string, bearer: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const u = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: u.port, path: `${u.pathname}${u.search}`, localAddress, headers: { authorization: `Bearer ${bearer}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the playground', () => {
  it('serves a page holding the demo key, without a key', async () => {
    const r = await t.get('/playground');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const demo = await playgroundKey(t.stack.store);
    expect(r.body).toContain(`data-key="${demo}"`);
    expect(r.body).not.toMatch(/<script[^>]+src=|<link[^>]+href="http/); // self-contained
  });

  it('limits the demo key to 10 requests a minute per client address, and to the DA listing', async () => {
    now = new Date('2026-11-25T04:00:10Z');
    const demo = await playgroundKey(t.stack.store);
    const a: number[] = [];
    for (let i = 0; i < 11; i++) a.push((await getFrom('127.0.0.1', '/v1/das?per_page=1', demo)).status);
    expect(a).toEqual([...Array(10).fill(200), 429]);
    const over = await getFrom('127.0.0.1', '/v1/stats', demo);
    expect(over.body).toMatchObject({ error: 'playground_limit_exceeded', limit: 10, used: 10, window: 'minute', retry_after_s: 50 });
    expect(over.headers['retry-after']).toBe('50');
    // Another client address has its own ten.
    const b = await getFrom('127.0.0.2', '/v1/das?per_page=1', demo);
    expect(b.status).toBe(200);
    expect(b.headers['ratelimit-remaining']).toBe('9');
    // The next minute, the first client may try again.
    now = new Date('2026-11-25T04:01:00Z');
    expect((await getFrom('127.0.0.1', '/v1/stats', demo)).status).toBe(200);
    // The demo key reaches nothing but the DA listing.
    const sandbox = (await t.get('/api/v1/property/sandbox')).body.addresses[0];
    const p = await t.get(`/api/v1/property?lat=${sandbox.lat}&lng=${sandbox.lng}`, demo);
    expect(p.status).toBe(403);
    now = new Date('2026-11-25T03:00:00Z');
  });
});

describe('the documentation', () => {
  it('describes every DA path with its parameters, and the docs page lists them', async () => {
    const paths = Object.keys(openapi.paths);
    for (const p of ['/das', '/das/nearby', '/das/{id}', '/categories', '/councils', '/stats']) {
      expect(paths).toContain(`/v1${p}`);
      expect(paths).toContain(`/api/v1${p}`);
    }
    const list = openapi.paths['/v1/das'].get;
    expect(list.parameters.map((x: { name: string }) => x.name).filter((n: string) => n !== 'X-Request-Id').sort()).toEqual(['category', 'council', 'cursor', 'is_residential', 'page', 'per_page', 'postcode', 'since', 'state', 'status_group', 'suburb', 'until'].sort());
    expect(Object.keys(list.responses).sort()).toEqual(expect.arrayContaining(['200', '401', '403', '422', '429']));
    const docs = await t.get('/api/v1/docs');
    expect(docs.body).toContain('/v1/das/nearby');
    expect(docs.body).toContain('/v1/councils');
  });
});

describe('the README', () => {
  it('DA-listing curl examples answer as the README says on the sample world', async () => {
    const readme = readDocs();
    const start = readme.indexOf('## The DA listing');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
    const examples = [...section.matchAll(/^curl .*'http:\/\/127\.0\.0\.1:8080(\/[^']+)'(.*)$/gm)].map((m) => ({ path: m[1], comment: m[2] }));
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const { path, comment } of examples) {
      const r = await t.get(path, key);
      const expected = /# (\d{3})/.exec(comment)?.[1] ?? '200';
      expect({ path, status: r.status }).toEqual({ path, status: Number(expected) });
      if (r.status === 200) expect(JSON.stringify(r.body.data).length).toBeGreaterThan(10);
    }
  });
});
