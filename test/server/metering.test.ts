// The meter over real HTTP: atomic charging under 50 parallel first lookups, a restart keeps the meter, and
// the billing period rolls over at Melbourne midnight (injected clock).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { q, startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function server(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(options);
  servers.push(s);
  return s;
}

/** `n` distinct non-sandbox street addresses of `state`. */
function addresses(t: TestServer, state: string, n: number, from = 2000): string[] {
  const out: string[] = [];
  for (let i = from; out.length < n; i++) {
    const r = t.stack.engine.addresses().byId(`${state}${String(i).padStart(7, '0')}`);
    if (r && r.unit === null && !out.includes(r.text)) out.push(r.text);
  }
  return out;
}

describe('atomic charging', () => {
  it('50 parallel first lookups of 50 distinct addresses with a quota of 20 charge exactly 20 and refuse 30 with 429', async () => {
    const t = await server();
    const key = await t.key({ quota: 20 });
    const list = addresses(t, 'VIC', 50);
    const results = await Promise.all(list.map((a) => t.get(`/api/v1/property?${q({ address: a, components: 'das,planning' })}`, key)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(30);
    expect(ok.every((r) => r.body.usage.charged === true)).toBe(true);
    // Each charge saw its own count: 1..20, each once.
    expect(ok.map((r) => r.body.usage.unique_addresses_this_period).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const r of refused) expect(r.body).toMatchObject({ error: 'quota_exceeded', used: 20, quota: 20 });
    const period = ok[0].body.usage.billing_period_key;
    expect(await t.stack.store.used(key.split('_')[1], period)).toBe(20);
  }, 120_000);

  it('parallel first lookups of one address charge it once', async () => {
    const t = await server();
    const key = await t.key({ quota: 5 });
    const [a] = addresses(t, 'NSW', 1, 3000);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.get(`/api/v1/property?${q({ address: a, components: i % 2 ? 'das' : 'planning' })}`, key)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.usage.charged)).toHaveLength(1);
    expect(results.every((r) => r.body.usage.unique_addresses_this_period === 1)).toBe(true);
  }, 60_000);
});

describe('persistence', () => {
  it('a restart keeps the keys and the meter', async () => {
    const db = join(tempDir(), 'server.sqlite');
    const a = await startTestServer({ db });
    const key = await a.key({ quota: 3 });
    const [x, y] = addresses(a, 'QLD', 2, 4000);
    expect((await a.get(`/api/v1/property?${q({ address: x, components: 'das' })}`, key)).body.usage.unique_addresses_this_period).toBe(1);
    expect((await a.get(`/api/v1/property?${q({ address: y, components: 'das' })}`, key)).body.usage.unique_addresses_this_period).toBe(2);
    await a.close();

    const b = await server({ db });
    const repeat = await b.get(`/api/v1/property?${q({ address: x, components: 'das' })}`, key);
    expect(repeat.status).toBe(200);
    expect(repeat.body.usage).toMatchObject({ charged: false, unique_addresses_this_period: 2 });
    const [z] = addresses(b, 'QLD', 1, 4100);
    expect((await b.get(`/api/v1/property?${q({ address: z, components: 'das' })}`, key)).body.usage).toMatchObject({ charged: true, unique_addresses_this_period: 3 });
  }, 60_000);
});

describe('billing periods', () => {
  it('usage resets at Melbourne midnight when the month turns (injected clock)', async () => {
    // 2026-11-30T12:59:59Z is 23:59:59 on 30 November in Melbourne (AEDT, UTC+11).
    let now = new Date('2026-11-30T12:59:59.000Z');
    const t = await server({ clock: () => now });
    const key = await t.key({ quota: 2 });
    const [a, b, c] = addresses(t, 'SA', 3, 5000);
    const get = (addr: string) => t.get(`/api/v1/property?${q({ address: addr, components: 'das' })}`, key);
    expect((await get(a)).body.usage).toMatchObject({ billing_period_key: '202611', unique_addresses_this_period: 1, resets_at: '2026-12-01T00:00:00+11:00' });
    expect((await get(b)).body.usage.unique_addresses_this_period).toBe(2);
    const refused = await get(c);
    expect(refused.status).toBe(429);
    expect(refused.body.resets_at).toBe('2026-12-01T00:00:00+11:00');
    expect(refused.headers.get('retry-after')).toBe('1');

    now = new Date('2026-11-30T13:00:00.000Z'); // 00:00:00 on 1 December in Melbourne
    const fresh = await get(c);
    expect(fresh.status).toBe(200);
    expect(fresh.body.usage).toMatchObject({ billing_period_key: '202612', unique_addresses_this_period: 1, charged: true, resets_at: '2027-01-01T00:00:00+11:00' });
    // An address counted last period is new again in this one.
    expect((await get(a)).body.usage).toMatchObject({ charged: true, unique_addresses_this_period: 2 });
  }, 60_000);
});
