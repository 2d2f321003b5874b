// Two server replicas on one PostgreSQL database, over real HTTP (each with its own engine, pool and local
// DA copy, as two processes would have): 50 parallel first lookups split between them on a quota of 20 charge
// exactly 20; a DA import through one is listed by the other at once; with both delivering webhooks, each
// event is sent once; the database lost mid-request is a 503 with Retry-After, and nothing is charged twice
// when it returns; an unreachable database at start is an error naming it, exit 1. Skips, naming why,
// where PostgreSQL is not installed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDaFile } from '../../engine/da/da-import.js';
import type { PgStore } from '../../server/store/pg/pg-store.js';
import { WebhookDispatcher } from '../../server/webhooks/webhook-dispatcher.js';
import { usePostgres } from '../helpers/postgres.js';
import { Receiver } from '../helpers/receiver.js';
import { runCli } from '../helpers/run-cli.js';
import { q, startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';
import { needs } from '../helpers/skip.js';

const postgres = usePostgres();
const dir = tempDir('replicas-');
let a: TestServer;
let b: TestServer;
let url = '';

beforeAll(async () => {
  if (postgres.missing) return;
  url = await postgres.pg!.fresh();
  // One after the other, as a rolling start would: the first migrates and loads the dataset's DAs, the
  // second finds both done.
  // The second computes on engine threads, as `propintel serve` does (issue 46): its threads read the replica's
  // local copy of the DA records, and its meter is the shared database's, as the first's.
  a = await startTestServer({ db: url, replicaDir: join(dir, 'a'), threads: 1 });
  b = await startTestServer({ db: url, replicaDir: join(dir, 'b'), threads: 2, compute: 'threads' });
}, 180_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
}, 60_000);

const shared = (t: TestServer) => t.stack.store as PgStore;

/** `n` distinct non-sandbox street addresses of `state`. */
function addresses(t: TestServer, state: string, n: number, from: number): string[] {
  const out: string[] = [];
  for (let i = from; out.length < n; i++) {
    const r = t.stack.engine.addresses().byId(`${state}${String(i).padStart(7, '0')}`);
    if (r && r.unit === null && !out.includes(r.text)) out.push(r.text);
  }
  return out;
}

let files = 0;
/** Imports rows through `t`'s store, as `propintel das import --db postgres://...` does. */
async function importRows(t: TestServer, rows: object[]) {
  const p = join(dir, `import-${++files}`, 'feed.jsonl');
  mkdirSync(join(dir, `import-${files}`), { recursive: true });
  writeFileSync(p, rows.map((r) => JSON.stringify(r)).join('\n'));
  return importDaFile(shared(t).das, p);
}
const row = (council: string, ref: string) => ({ council, council_reference: ref, state: 'VIC', address: `${ref.length} Sydney Rd`, suburb: 'Brunswick', description: 'Construction of a childcare centre', status: 'Received', lodged: '2026-11-01', lat: -37.77, lng: 144.96 });

describe('two replicas on one PostgreSQL database', () => {
  it('both hold the dataset\'s DA records, loaded once', async (ctx) => {
    needs(ctx, postgres.missing);
    const n = await shared(a).das.size();
    expect(n).toBeGreaterThan(1000);
    expect(a.stack.engine.das().size).toBe(n);
    expect(b.stack.engine.das().size).toBe(n);
    // Loaded once: every record written one time (one position each), however many replicas started.
    expect(await shared(a).das.headSeq()).toBe(n);
  });

  it('50 parallel first lookups split across the two on a quota of 20 charge exactly 20', async (ctx) => {
    needs(ctx, postgres.missing);
    const key = await a.key({ quota: 20 });
    const list = addresses(a, 'VIC', 50, 2000);
    const results = await Promise.all(list.map((addr, i) => (i % 2 ? b : a).get(`/api/v1/property?${q({ address: addr, components: 'das,planning' })}`, key)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(30);
    expect(ok.map((r) => r.body.usage.unique_addresses_this_period).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const r of refused) expect(r.body).toMatchObject({ error: 'quota_exceeded', used: 20, quota: 20 });
    expect(await shared(b).used(key.split('_')[1], ok[0].body.usage.billing_period_key)).toBe(20);
    // A key made through one replica is known to the other, and a repeat there is free.
    const again = await b.get(`/api/v1/property?${q({ address: ok[0].body.resolved.address, components: 'das' })}`, key);
    expect(again.status).toBe(200);
    expect(again.body.usage).toMatchObject({ charged: false, unique_addresses_this_period: 20 });
  }, 180_000);

  it('a DA import through one replica is listed by the other at once', async (ctx) => {
    needs(ctx, postgres.missing);
    const key = await b.key({ components: 'none', daDailyLimit: 1000 });
    const council = 'Replica Test Council';
    const before = await b.get(`/v1/das?${q({ state: 'VIC', council })}`, key);
    expect(before.status).toBe(200);
    expect(before.body.meta.pages.total).toBe(0);
    const report = await importRows(a, [row(council, 'R/1'), row(council, 'R/2'), row(council, 'R/3')]);
    expect(report).toMatchObject({ applied: true, added: 3 });
    // No wait: the very next request to the other replica sees the records.
    const after = await b.get(`/v1/das?${q({ state: 'VIC', council })}`, key);
    expect(after.body.meta.pages.total).toBe(3);
    expect(after.body.data.map((d: { council_reference: string }) => d.council_reference).sort()).toEqual(['R/1', 'R/2', 'R/3']);
    const id = report.outcomes[0].id;
    expect((await b.get(`/v1/das/${id}`, key)).body.data).toMatchObject({ id, council_reference: 'R/1' });
    const sql = await fetch(`${b.url}/v1/sql`, { method: 'POST', headers: { authorization: `Bearer ${await b.key({ components: 'none', daDailyLimit: 1000, sql: true })}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: `SELECT count(*) AS n FROM das WHERE council_name = '${council}'` }) });
    expect((await sql.json()).rows).toEqual([{ n: 3 }]);
  }, 60_000);

  it('with both replicas delivering webhooks, each event is sent once', async (ctx) => {
    needs(ctx, postgres.missing);
    const receiver = new Receiver();
    await receiver.start();
    const dispatchers = [a, b].map((t) => new WebhookDispatcher({ store: t.stack.store.webhooks(), das: t.stack.events, allowPrivate: true, pollMs: 20, schedule: [100, 200] }));
    try {
      for (const d of dispatchers) d.start();
      const events = shared(a).das;
      await a.stack.store.webhooks().insertSubscription({
        id: 'wh_replicas', key_id: 'k', url: `${receiver.url}/hook`, events: ['da.created', 'da.status_changed'], filters: { council: 'Webhook Replica Council' }, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        status: 'active', disabled_reason: null, created_at: new Date().toISOString(), after_event: await events.lastEventSeq(),
      });
      // Two imports, one through each replica: 40 new records.
      await importRows(a, Array.from({ length: 20 }, (_, i) => row('Webhook Replica Council', `W/${i}`)));
      await importRows(b, Array.from({ length: 20 }, (_, i) => row('Webhook Replica Council', `W/${20 + i}`)));
      for (const d of dispatchers) d.poke();
      await receiver.waitFor(40, '/hook', 20_000);
      // Time for a duplicate to arrive, if one were coming.
      await new Promise((r) => setTimeout(r, 1500));
      const ids = receiver.got.map((g) => g.headers['webhook-id']);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      const refs = receiver.got.map((g) => JSON.parse(g.body).data.council_reference as string).sort();
      expect(refs).toEqual(Array.from({ length: 40 }, (_, i) => `W/${i}`).sort());
      const deliveries = await a.stack.store.webhooks().recentDeliveries('wh_replicas', 100);
      expect(deliveries).toHaveLength(40);
      expect(deliveries.every((d) => d.state === 'delivered' && d.attempts === 1)).toBe(true);
    } finally {
      for (const d of dispatchers) await d.stop(1000);
      await receiver.stop();
    }
  }, 60_000);

  it('the database lost mid-request: 503 with Retry-After; when it returns, the lookup is charged once', async (ctx) => {
    needs(ctx, postgres.missing);
    // The reference says so for every keyed operation (the listing, childcare, tiles, MCP, ...).
    const doc = (await a.get('/api/v1/openapi.json')).body;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { security?: object[]; responses: Record<string, unknown> }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        if ((op.security ?? []).some((r) => 'bearer' in r)) expect(JSON.stringify(op.responses['503']), `${method} ${path}`).toContain('service_unavailable');
      }
    }
    const key = await a.key({ quota: 10 });
    const [addr] = addresses(a, 'NSW', 1, 5000);
    const path = `/api/v1/property?${q({ address: addr, components: 'das' })}`;
    await postgres.pg!.stop();
    try {
      const down = await a.get(path, key);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(down.body).toMatchObject({ error: 'service_unavailable', retry_after_s: expect.any(Number) });
      expect(down.body.message).toMatch(/shared database/);
      const downB = await b.get(`/v1/das?state=VIC`, key);
      expect(downB.status).toBe(503);
    } finally {
      await postgres.pg!.start();
    }
    const first = await a.get(path, key);
    expect(first.status).toBe(200);
    expect(first.body.usage).toMatchObject({ charged: true, unique_addresses_this_period: 1 });
    const retried = await b.get(path, key);
    expect(retried.body.usage).toMatchObject({ charged: false, unique_addresses_this_period: 1 });
  }, 60_000);
});

describe('starting on an unreachable database', () => {
  it('fails with an error naming the server, exit 1', async () => {
    const r = await runCli(['serve', '--db', 'postgres://propintel@/propintel?host=/nonexistent/socket-dir', '--port', '0', '--no-warm']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach PostgreSQL at \/nonexistent\/socket-dir \(Unix socket\), database propintel/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // said plainly, no stack trace
    const k = await runCli(['keys', 'list', '--db', 'postgres://propintel@/propintel?host=/nonexistent/socket-dir']);
    expect(k.code).toBe(1);
    expect(k.stderr).toMatch(/cannot reach PostgreSQL at \/nonexistent\/socket-dir/);
  }, 60_000);
});
