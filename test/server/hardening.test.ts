// The findings of the adversarial probe (issue 25), each as the request that found it, over real HTTP on
// uWebSockets.js (and node:http where the transport matters): no 5xx for any allowed coordinate, nothing
// charged outside coverage or for a guessed address, a 429 at quota decided before the lookup, HEAD without
// a body, one Authorization header, unknown component names, strict percent-decoding, a request size limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/http-server.js';
import { keyIdOf } from '../../server/keys/api-key.js';
import { rawHttp } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let node: TestServer;
let key: string;

beforeAll(async () => {
  [t, node] = await Promise.all([startTestServer(), startTestServer({ transport: 'node', threads: 1 })]);
  key = await t.key({ quota: 1000 });
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), node?.close()]);
});

/** Raw bytes to a test server (see test/helpers/raw-http.ts). */
const raw = (server: TestServer, request: string | Buffer) => rawHttp(Number(new URL(server.url).port), request);

const used = (k: string) => t.stack.store.used(keyIdOf(k)!, currentPeriod());
function currentPeriod(): string {
  const d = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Melbourne', year: 'numeric', month: '2-digit' }).formatToParts(new Date());
  return `${d.find((p) => p.type === 'year')!.value}${d.find((p) => p.type === 'month')!.value}`;
}

describe('coordinates (findings 1 and 2)', () => {
  it('answers 422 outside_coverage, uncharged, for points no held dataset covers, never a 5xx', async () => {
    const k = await t.key({ quota: 1000 });
    for (const [lat, lng] of [['0', '0'], ['-0', '-0'], ['0', '10'], ['0.001', '0'], ['0', '-180'], ['90', '0'], ['-90', '180'], ['-45.123', '-120.5'], ['-25', '133'], ['-33.86', '180']]) {
      const r = await t.get(`/api/v1/property?lat=${lat}&lng=${lng}`, k);
      expect({ lat, lng, status: r.status, error: r.body.error }).toEqual({ lat, lng, status: 422, error: 'outside_coverage' });
      expect(r.body.parameter).toBe('lat');
    }
    expect(await used(k)).toBe(0);
  });

  it('bills a point without an address once per parcel or 0.001-degree cell, not once per sixth decimal', async () => {
    const k = await t.key({ quota: 1000 });
    // A sandbox address's parcel, entered by coordinates nudged in the sixth decimal: one charge.
    const s = (await t.get('/api/v1/property/sandbox')).body.addresses[0];
    const first = await t.get(`/api/v1/property?lat=${s.lat}&lng=${s.lng}&components=planning.zone`, k);
    expect(first.status).toBe(200);
    const nudged = await t.get(`/api/v1/property?lat=${(s.lat + 0.000001).toFixed(7)}&lng=${(s.lng - 0.000001).toFixed(7)}&components=planning.zone`, k);
    expect(nudged.status).toBe(200);
    expect(nudged.body.usage.unique_addresses_this_period).toBe(first.body.usage.unique_addresses_this_period);
  });
});

describe('address matching (finding 3)', () => {
  it('does not bill a guess: a typed locality and postcode that both contradict the match are 422 with candidates', async () => {
    const k = await t.key({ quota: 1000 });
    const r = await t.get(`/api/v1/property?address=${encodeURIComponent('12 Station Street, Bondi NSW 2026')}`, k);
    expect(r.status).toBe(422);
    expect(r.body.error).toBe('address_unresolvable');
    expect(r.body.candidates.length).toBeGreaterThan(0);
    expect(await used(k)).toBe(0);
  });
});

describe('quota (finding 4)', () => {
  it('refuses a new address at quota before computing it; a repeat and a sandbox address stay free', async () => {
    const k = await t.key({ quota: 1 });
    const engine = t.stack.engine as unknown as { property: (...a: unknown[]) => Promise<unknown> };
    const original = engine.property;
    let lookups = 0;
    engine.property = (...a: unknown[]) => {
      lookups++;
      return original.apply(engine, a);
    };
    try {
      const addr = (i: number) => t.stack.engine.addresses().byId(`NSW${String(i).padStart(7, '0')}`)!.text;
      const a = await t.get(`/api/v1/property?address=${encodeURIComponent(addr(2100))}&components=planning.zone`, k);
      expect(a.status).toBe(200);
      expect(lookups).toBe(1);
      const over = await t.get(`/api/v1/property?address=${encodeURIComponent(addr(2137))}&components=planning.zone`, k);
      expect(over.status).toBe(429);
      expect(over.body.error).toBe('quota_exceeded');
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(lookups).toBe(1); // refused without a lookup
      // A repeat in another form (different components: not the cached response) is free and computed.
      const repeat = await t.get(`/api/v1/property?address=${encodeURIComponent(addr(2100))}&components=planning`, k);
      expect(repeat.status).toBe(200);
      expect(repeat.body.usage.charged).toBe(false);
      const sandbox = (await t.get('/api/v1/property/sandbox')).body.addresses[1].address;
      expect((await t.get(`/api/v1/property?address=${encodeURIComponent(sandbox)}&components=planning.zone`, k)).status).toBe(200);
    } finally {
      engine.property = original;
    }
  });
});

describe('HTTP framing (findings 5, 6, 9)', () => {
  for (const which of ['uws', 'node'] as const) {
    it(`${which}: HEAD is GET without a body, keyed or not; a pipelined request still answers`, async () => {
      const s = which === 'uws' ? t : node;
      const out = await raw(s, 'HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\nHEAD /api/v1/property?lat=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      const responses = out.split(/(?=HTTP\/1\.1 )/);
      expect(responses.map((r) => r.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 401', 'HTTP/1.1 200']);
      const [h1, h2, g] = responses;
      expect(h1.split('\r\n\r\n')[1]).toBe('');
      expect(h2.split('\r\n\r\n')[1]).toBe('');
      expect(h2).toMatch(/WWW-Authenticate: Bearer/i);
      const length = Number(/content-length: (\d+)/i.exec(h1)![1]);
      expect(length).toBe(Buffer.byteLength(g.split('\r\n\r\n')[1]));
      expect(JSON.parse(g.split('\r\n\r\n')[1]).status).toBe('ok');
    });

    it(`${which}: two Authorization headers are 401`, async () => {
      const s = which === 'uws' ? t : node;
      const k = which === 'uws' ? key : await s.key();
      const out = await raw(s, `GET /api/v1/property?lat=-33.8&lng=151 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${k}\r\nAuthorization: Bearer pi_other_key\r\nConnection: close\r\n\r\n`);
      expect(out.slice(0, 12)).toBe('HTTP/1.1 401');
      expect(JSON.parse(out.split('\r\n\r\n')[1])).toMatchObject({ error: 'invalid_authorization' });
    });

    it(`${which}: a request target over 8 KB is 414 with the error body, below where the transport gives up`, async () => {
      const s = which === 'uws' ? t : node;
      for (const n of [9_000, 30_000]) {
        const r = await fetch(`${s.url}/api/v1/property?address=${'a'.repeat(n)}`);
        expect(r.status).toBe(414);
        expect(await r.json()).toMatchObject({ error: 'uri_too_long', limit: 8192 });
      }
      const ok = await fetch(`${s.url}/api/v1/property?address=${'a'.repeat(7_000)}`);
      expect(ok.status).toBe(401); // within the limit: answered as usual (no key)
    });
  }
});

describe('parameters (findings 7 and 8)', () => {
  it('unknown component names are 422 whatever the licence, and the message echoes one name, cut short', async () => {
    const narrow = await t.key({ components: ['scores'] });
    for (const components of ['bogus', '__proto__', 'constructor', 'scores,bogus', Array.from({ length: 1000 }, (_, i) => `x${i}`).join(',')]) {
      const r = await t.get(`/api/v1/property?lat=-33.8&lng=151&components=${components}`, narrow);
      expect({ components: components.slice(0, 20), status: r.status, error: r.body.error, parameter: r.body.parameter }).toEqual({ components: components.slice(0, 20), status: 422, error: 'invalid_parameter', parameter: 'components' });
      expect(JSON.stringify(r.body).length).toBeLessThan(600);
    }
    const ok = await t.get('/api/v1/property?lat=-33.8&lng=151&components=planning', narrow);
    expect(ok.status).toBe(403); // a known block the key does not cover is still a licence refusal
  });

  it('malformed percent-encoding and bytes that are not UTF-8 are 422 naming the parameter, not U+FFFD', async () => {
    for (const q of ['address=%zz', 'address=abc%', 'address=%e2%28%a1', 'address=%ff', 'address=a%2', 'lat=-33.8&lng=151%']) {
      const r = await t.get(`/api/v1/property?${q}`, key);
      expect({ q, status: r.status, error: r.body.error }).toEqual({ q, status: 422, error: 'invalid_parameter' });
      expect(r.body.parameter).toBe(q.startsWith('lat') ? 'lng' : 'address');
    }
    // A raw byte 0xff in the query, as a careless client sends it.
    const out = await raw(t, Buffer.concat([Buffer.from('GET /api/v1/property?address=caf'), Buffer.from([0xff]), Buffer.from(` HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`)]));
    expect(out.slice(0, 12)).toBe('HTTP/1.1 422');
    expect(JSON.parse(out.split('\r\n\r\n')[1])).toMatchObject({ error: 'invalid_parameter', parameter: 'address' });
    // Well-formed UTF-8 still works: a sandbox address with an encoded comma and spaces as +.
    const s = (await t.get('/api/v1/property/sandbox')).body.addresses[0].address as string;
    const okay = await t.get(`/api/v1/property?address=${encodeURIComponent(s).replace(/%20/g, '+')}&components=planning.zone`, key);
    expect(okay.status).toBe(200);
    expect(okay.body.resolved.address).toBe(s);
  });
});

describe('memory (finding 11)', () => {
  it('GET /metrics: Prometheus text with process memory, the engine by state and model, caches and the DA store', async () => {
    // A lookup builds some state's models first.
    const s = (await t.get('/api/v1/property/sandbox')).body.addresses[0];
    expect((await t.get(`/api/v1/property?address=${encodeURIComponent(s.address)}`, key)).status).toBe(200);
    // The first scrape walks every model; the server keeps answering meanwhile (the walk yields).
    const order: string[] = [];
    const scrape = fetch(`${t.url}/metrics`).then((res) => (order.push('metrics'), res));
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    order.push('healthz');
    const r = await scrape;
    expect(order).toEqual(['healthz', 'metrics']);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await r.text();
    // Every line is a comment or `name{labels} value` (the exposition format's grammar, simplified).
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? (\d+(\.\d+)?(e[+-]?\d+)?|NaN))$/);
    const value = (name: string, labels: string) => Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('propintel_process_memory_bytes', 'kind="rss"')).toBeGreaterThan(50e6);
    expect(value('propintel_model_memory_bytes', `state="${s.state}",model="dataset_files"`)).toBeGreaterThan(1e6);
    expect(value('propintel_model_memory_bytes', `state="${s.state}",model="walkability_indexes"`)).toBeGreaterThan(0);
    expect(value('propintel_model_memory_bytes', 'state="national",model="address_index"')).toBeGreaterThan(1e5);
    expect(value('propintel_cache_entries', 'cache="scores"')).toBeGreaterThan(0);
    expect(Number(/^propintel_da_records (\d+)$/m.exec(text)?.[1])).toBe((t.stack.engine as unknown as { das(): { size: number } }).das().size);
    expect(Number(/^propintel_response_cache_bytes (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(0); // present (the payload may be partial, hence uncached)
    // The per-state model budget: none by default in memory (NaN), no state held against it, nothing dropped.
    expect(/^propintel_model_budget_bytes (\S+)$/m.exec(text)?.[1]).toBe('NaN');
    expect(text).not.toMatch(/^propintel_model_held_bytes\{/m);
    expect(Number(/^propintel_model_evictions_total (\d+)$/m.exec(text)?.[1])).toBe(0);
  });

  it('answers /metrics only to a peer on this machine, not through a trusted proxy for a remote client', async () => {
    // A second server trusting the proxy, on the same engine and store.
    const proxied = await startServer({ service: t.stack.engine, store: t.stack.store, port: 0, trustProxy: true });
    try {
      expect((await fetch(`${proxied.url}/metrics`)).status).toBe(200);
      const remote = await fetch(`${proxied.url}/metrics`, { headers: { 'x-real-ip': '203.0.113.9' } });
      expect(remote.status).toBe(404);
      expect(await remote.json()).toMatchObject({ error: 'not_found' });
    } finally {
      await proxied.close(1000);
    }
  });
});
