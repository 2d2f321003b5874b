// Seeded fuzzing of the HTTP API: a few thousand generated requests (paths, keys, parameter names, values,
// encodings, duplicates, methods) over real HTTP. None may produce a 5xx or take the server down, and every
// refusal carries the error body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, type Random } from '../../engine/random/seeded-random.js';
import { PROPERTY_PARAMETERS } from '../../server/api/query.js';
import { ROUTES } from '../../server/api/routes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const REQUESTS = 3000;
const CONCURRENCY = 16;

let t: TestServer;
let keys: string[];
let sandbox: { address: string; lat: number; lng: number }[];

beforeAll(async () => {
  t = await startTestServer();
  // No geometry licence: include_geometry and include_surfaces are refused (403) rather than computing
  // surfaces for every generated combination.
  keys = [await t.key({ geometry: false, quota: 25 }), await t.key({ components: ['das', 'planning', 'scores'], geometry: false, quota: 3 })];
  sandbox = (await t.get('/api/v1/property/sandbox')).body.addresses;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const NASTY = ['', ' ', '%', '%ZZ', '%E0%A4', '%00', '\u0000', '..', '../../etc/passwd', '"\'<script>', 'NaN', 'Infinity', '-0', '1e309', '0x1F', '1,2', '٣', '🦘', 'ÿ', '\u202e', '[]', '{}', 'null', 'true'];

function randomText(r: Random, max = 40): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 ,/-_.%&=+?#;:\'"\\<>é中🦘';
  const chars = [...alphabet];
  let s = '';
  const n = r.int(max);
  for (let i = 0; i < n; i++) s += r.pick(chars);
  return s;
}

function value(r: Random, name: string): string {
  if (r.chance(0.25)) return r.pick(NASTY);
  if (r.chance(0.1)) return randomText(r, r.chance(0.1) ? 400 : 30);
  switch (name) {
    case 'address':
      return r.chance(0.6) ? r.pick(sandbox).address : r.chance(0.5) ? r.pick(sandbox).address.slice(0, r.int(30)) : 'a'.repeat(190 + r.int(20));
    case 'lat':
      // Sandbox points, anywhere in the world (and beyond it), and the edge values.
      return r.chance(0.5) ? String(r.pick(sandbox).lat) : r.chance(0.5) ? String(r.range(-120, 120)) : r.pick(['0', '-0', '90', '-90', '0.000001', '-44.9', '-9.1', '1e-7']);
    case 'lng':
      return r.chance(0.5) ? String(r.pick(sandbox).lng) : r.chance(0.5) ? String(r.range(-200, 200)) : r.pick(['0', '-0', '180', '-180', '179.9999999', '-179.9999999', '112', '154.5']);
    case 'components':
      return Array.from({ length: 1 + r.int(3) }, () => r.pick(['das', 'poi', 'planning', 'hazards', 'scores', 'scores.noise', 'scores.solar', 'hazards.flood', 'transport', 'weather', 'scores.x', 'das.on_parcel'])).join(',');
    case 'surfaces':
      return r.pick(['noise', 'heat,contours', 'noise,wind', '']);
    case 'include_geometry':
    case 'include_surfaces':
    case 'include_nearby_zones':
      return r.pick(['1', '0', 'true', 'false', 'TRUE', 'yes', '2']);
    default:
      return String(r.chance(0.5) ? r.int(6000) - 500 : r.range(-10, 300));
  }
}

/** Percent-encodings that are not: a bad escape, a cut escape, bytes that are not UTF-8. */
const MALFORMED = ['%zz', '%', '%2', '%e2%28%a1', '%ff', '%c0%af', '%ed%a0%80', 'caf%e9'];

function enc(r: Random, s: string): string {
  // Mostly proper encoding; sometimes raw (the server must cope with whatever arrives), sometimes malformed.
  const roll = r.next();
  if (roll < 0.8) return encodeURIComponent(s);
  if (roll < 0.95) return s.replace(/[#\s]/g, '+');
  return `${encodeURIComponent(s.slice(0, 8))}${r.pick(MALFORMED)}`;
}

function generate(r: Random): { path: string; method: string; headers: Record<string, string> } {
  const roll = r.next();
  let path: string;
  if (roll < 0.65) path = '/api/v1/property';
  else if (roll < 0.8) path = '/api/v1/property/core';
  else if (roll < 0.92) path = r.pick(ROUTES).path;
  else path = r.pick(['/', '/api', '/api/v1/property/', '/api/v1/property/sample/unknown', `/api/v1/${enc(r, randomText(r, 20))}`, '/api/v1/property%2Fcore', '//api/v1/property']);
  const params: string[] = [];
  if (r.chance(0.4)) {
    // Near-valid: a real subject (a sandbox address, or a new point in Australia, which the meter charges)
    // with valid options, then at most one mutation.
    if (r.chance(0.5)) params.push(`address=${enc(r, r.pick(sandbox).address)}`);
    else if (r.chance(0.7)) {
      // A new point within a few kilometres of a sandbox address: inside coverage, so the meter charges it.
      const s = r.pick(sandbox);
      params.push(`lat=${(s.lat + r.range(-0.02, 0.02)).toFixed(5)}`, `lng=${(s.lng + r.range(-0.02, 0.02)).toFixed(5)}`);
    } else params.push(`lat=${r.range(-44, -10).toFixed(5)}`, `lng=${r.range(113, 154).toFixed(5)}`);
    const options: [string, () => string][] = [
      ['components', () => r.pick(['das', 'planning,hazards', 'scores.noise', 'poi,transport', 'das,scores.solar'])],
      ['school_radius_m', () => String(100 + r.int(4901))],
      ['include_nearby_zones', () => r.pick(['1', '0'])],
      ['nearby_zone_radius_m', () => String(50 + r.int(1951))],
    ];
    for (const [name, v] of options) if (r.chance(0.3)) params.push(`${name}=${enc(r, v())}`);
    if (r.chance(0.5)) {
      const name = r.pick(PROPERTY_PARAMETERS);
      params.push(`${enc(r, name)}=${enc(r, value(r, name))}`);
    }
  } else {
    const n = r.int(6);
    for (let i = 0; i < n; i++) {
      const name = r.chance(0.85) ? r.pick(PROPERTY_PARAMETERS) : r.pick(['', 'foo', 'Address', 'lat[]', randomText(r, 12)]);
      params.push(r.chance(0.05) ? enc(r, name) : `${enc(r, name)}=${enc(r, value(r, name))}`);
    }
  }
  if (r.chance(0.1) && params.length) params.push(params[0]);
  const headers: Record<string, string> = {};
  const k = r.next();
  if (k < 0.75) headers.authorization = `Bearer ${r.pick(keys)}`;
  else if (k < 0.85) headers.authorization = r.pick(['Bearer', 'Bearer  ', 'bearer x', `Bearer ${r.pick(keys)}x`, 'Basic Zm9vOmJhcg==', `Bearer ${randomText(r, 60).replace(/[^\x21-\x7e]/g, 'a')}`]);
  if (r.chance(0.3)) headers['accept-encoding'] = r.pick(['gzip', 'gzip;q=0', 'br', '*', 'identity, *;q=0', 'gzip;q=abc']);
  if (r.chance(0.1)) headers['x-request-id'] = r.pick(['abc', 'a b', 'x'.repeat(100), '🦘']).replace(/[^\x20-\x7e]/g, 'z');
  const method = r.chance(0.95) ? 'GET' : r.pick(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
  return { path: params.length ? `${path}?${params.join('&')}` : path, method, headers };
}

describe('fuzzed requests', () => {
  it(`${REQUESTS} seeded requests: no 5xx, no crash, every refusal with the error body`, async () => {
    const r = seededRandom(20261125);
    const requests = Array.from({ length: REQUESTS }, () => generate(r));
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let outsideCoverage = 0, malformed = 0;
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const req = requests[next++];
        let res: Response;
        try {
          res = await fetch(`${t.url}${req.path}`, { method: req.method, headers: req.headers });
        } catch (err) {
          problems.push(`${req.method} ${req.path}: ${(err as Error).message}`);
          continue;
        }
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (text.includes('"outside_coverage"')) outsideCoverage++;
        if (text.includes('not valid percent-encoded UTF-8')) malformed++;
        if (res.status >= 500) problems.push(`${res.status} for ${req.method} ${req.path}: ${text.slice(0, 300)}`);
        else if (res.status >= 400) {
          let body: { error?: unknown; message?: unknown } = {};
          try {
            body = JSON.parse(text);
          } catch {
            problems.push(`${res.status} without a JSON body for ${req.path}`);
          }
          if (typeof body.error !== 'string' || typeof body.message !== 'string') problems.push(`${res.status} without error/message for ${req.path}: ${text.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(problems).toEqual([]);
    // The generator reached the interesting outcomes, not only one kind of refusal.
    for (const s of [200, 401, 403, 404, 405, 422, 429]) expect(statuses.get(s) ?? 0, `status ${s}`).toBeGreaterThan(0);
    // Worldwide points and malformed encodings were refused as such, not answered.
    expect(outsideCoverage).toBeGreaterThan(0);
    expect(malformed).toBeGreaterThan(0);
    expect((await t.get('/healthz')).status).toBe(200);
  }, 300_000);

  it('survives a request line larger than the server accepts', async () => {
    const res = await fetch(`${t.url}/api/v1/property?address=${'a'.repeat(20_000)}`, { headers: { authorization: `Bearer ${keys[0]}` } }).catch((err: Error) => err);
    if (!(res instanceof Error)) expect(res.status).toBeLessThan(500);
    expect((await t.get('/healthz')).status).toBe(200);
  });
});
