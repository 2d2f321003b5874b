// Webhooks end to end (issue 16): the server's /v1/webhooks endpoints over real HTTP, DA imports into the
// same store file, and a real local HTTP receiver. Signatures are checked with the `standardwebhooks`
// package (the Standard Webhooks reference library), not with our own code.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaStore, importDaFile } from '../../engine/da/index.js';
import type { PropertyService } from '../../engine/property/kit/contract.js';
import { startServer, type StartedServer } from '../../server/http-server.js';
import { createKey } from '../../server/keys/key-admin.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import { WebhookDispatcher } from '../../server/webhooks/webhook-dispatcher.js';
import { Receiver } from '../helpers/receiver.js';
import { tempDir } from '../helpers/tmp.js';
import { readDocs } from '../helpers/docs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('propintel-webhooks-');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const row = (ref: string, extra: Record<string, unknown> = {}) => ({ council: 'Merri-bek City Council', council_reference: ref, state: 'VIC', address: `${ref.length} Sydney Rd`, suburb: 'Brunswick', description: 'Construction of a childcare centre', status: 'Received', lodged: '2026-11-01', lat: -37.77, lng: 144.96, ...extra });
let files = 0;
/** Imports rows into the DA store as `propintel das import` does (a JSON-lines file; one source name). */
async function importRows(das: DaStore, rows: object[]) {
  const p = join(dir, `import-${++files}`, 'feed.jsonl');
  mkdirSync(join(dir, `import-${files}`), { recursive: true });
  writeFileSync(p, rows.map((r) => JSON.stringify(r)).join('\n'));
  return importDaFile(das, p);
}

/** A server on `db` with its own dispatcher (fast retries) and helpers. */
async function startWebhookServer(db: string, options: { allowPrivate: boolean; resolve?: (h: string) => Promise<string[]>; schedule?: number[] }) {
  const store = SqliteStore.open(db);
  const das = DaStore.open(db);
  const dispatcher = new WebhookDispatcher({ store: store.webhooks(), das: () => das, allowPrivate: options.allowPrivate, schedule: options.schedule ?? [100, 200, 300], pollMs: 50, timeoutMs: 2000 });
  // Webhook requests never reach the property service.
  const service = {} as PropertyService;
  const server: StartedServer = await startServer({ service, store, das: () => das, port: 0, webhooks: { dispatcher, allowPrivate: options.allowPrivate, resolve: options.resolve } });
  dispatcher.start();
  const key = async () => (await createKey(store, { components: 'none', daDailyLimit: 1000 })).key;
  const call = async (method: string, path: string, k: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  return {
    store,
    das,
    dispatcher,
    server,
    key,
    call,
    close: async () => {
      await server.close(2000);
      await dispatcher.stop(1000);
      das.close();
      await store.close();
    },
  };
}

type WebhookServer = Awaited<ReturnType<typeof startWebhookServer>>;
const receiver = new Receiver();
let w: WebhookServer;
let key: string;

beforeAll(async () => {
  await receiver.start();
  w = await startWebhookServer(join(dir, 'main.sqlite'), { allowPrivate: true });
  key = await w.key();
});

afterAll(async () => {
  await w?.close();
  await receiver.stop();
});

/** Subscribes to the receiver at `path`; returns the subscription (with its secret). */
async function subscribe(path: string, body: Record<string, unknown> = {}, k = key) {
  const r = await w.call('POST', '/v1/webhooks', k, { url: `${receiver.url}${path}`, events: ['da.created', 'da.status_changed'], ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; secret: string; url: string };
}

/** The events one path received, verified with the subscription's secret (throws when a signature is wrong). */
function verified(path: string, secret: string): { id: string; type: string; data: Record<string, any> }[] {
  const hook = new Webhook(secret);
  return receiver.got
    .filter((g) => g.path === path)
    .map((g) => {
      const payload = hook.verify(g.body, g.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
      return { id: String(g.headers['webhook-id']), type: payload.type, data: payload.data };
    });
}

describe('webhook subscriptions', () => {
  it('subscribe returns the secret once; list and get never show it; another key sees none of them', async () => {
    const sub = await subscribe('/list', { state: 'vic', category: 'childcare' });
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(sub).toMatchObject({ id: expect.stringMatching(/^wh_/), events: ['da.created', 'da.status_changed'], filters: { state: 'VIC', category: 'childcare' }, status: 'active' });
    const list = await w.call('GET', '/api/v1/webhooks', key);
    expect(list.status).toBe(200);
    expect(list.body.webhooks.map((s: { id: string }) => s.id)).toContain(sub.id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const one = await w.call('GET', `/v1/webhooks/${sub.id}`, key);
    expect(one.body).toMatchObject({ id: sub.id, url: sub.url });
    expect(one.body.secret).toBeUndefined();
    const other = await w.key();
    expect((await w.call('GET', '/v1/webhooks', other)).body.webhooks).toEqual([]);
    for (const [method, path] of [['GET', ''], ['DELETE', ''], ['POST', '/test'], ['GET', '/deliveries']]) {
      const r = await w.call(method, `/v1/webhooks/${sub.id}${path}`, other);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error).toBe('not_found');
    }
    expect((await w.call('DELETE', `/v1/webhooks/${sub.id}`, key)).body).toEqual({ id: sub.id, deleted: true });
    expect((await w.call('GET', `/v1/webhooks/${sub.id}`, key)).status).toBe(404);
  });

  it('refuses bad bodies with 422 naming the field, and more than 25 subscriptions', async () => {
    const k = await w.key();
    const cases: [unknown, string][] = [
      [{ url: 'not a url', events: ['da.created'] }, 'url'],
      [{ events: ['da.created'] }, 'url'],
      [{ url: 'ftp://example.com/x', events: ['da.created'] }, 'url'],
      [{ url: `${receiver.url}/x`, events: ['da.deleted'] }, 'events'],
      [{ url: `${receiver.url}/x`, events: [] }, 'events'],
      [{ url: `${receiver.url}/x` }, 'events'],
      [{ url: `${receiver.url}/x`, events: ['da.created'], state: 'Narnia' }, 'state'],
      [{ url: `${receiver.url}/x`, events: ['da.created'], category: 'castles' }, 'category'],
      [{ url: `${receiver.url}/x`, events: ['da.created'], status_group: 'maybe' }, 'status_group'],
      [{ url: `${receiver.url}/x`, events: ['da.created'], lat: -37.8, lng: 145 }, 'radius_km'],
      [{ url: `${receiver.url}/x`, events: ['da.created'], lat: -37.8, lng: 145, radius_km: 51 }, 'radius_km'],
      [{ url: `${receiver.url}/x`, events: ['da.created'], lat: -137.8, lng: 145, radius_km: 5 }, 'lat'],
      [{ url: `${receiver.url}/x`, events: ['da.created'], colour: 'blue' }, 'colour'],
      [{ url: `${receiver.url}/x`, events: ['da.created'], filters: { suburb: 'Brunswick' } }, 'filters.suburb'],
      [[1, 2], 'body'],
    ];
    for (const [body, field] of cases) {
      const r = await w.call('POST', '/v1/webhooks', k, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.parameter, JSON.stringify(body)).toBe(field);
    }
    expect((await w.call('POST', '/v1/webhooks', k, '{"url": ')).body.error).toBe('invalid_body');
    const big = await w.call('POST', '/v1/webhooks', k, JSON.stringify({ url: `${receiver.url}/x`, events: ['da.created'], pad: 'x'.repeat(70_000) }));
    expect([big.status, big.body.error]).toEqual([413, 'payload_too_large']);
    const put = await w.call('PUT', '/v1/webhooks', k, {});
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'POST, GET, HEAD, OPTIONS']);
    for (let i = 0; i < 25; i++) await subscribe(`/many/${i}`, {}, k);
    const over = await w.call('POST', '/v1/webhooks', k, { url: `${receiver.url}/26`, events: ['da.created'] });
    expect([over.status, over.body.error]).toEqual([422, 'too_many_subscriptions']);
    // A DA-less key: 403.
    const propertyOnly = (await createKey(w.store, { components: 'all' })).key;
    expect((await w.call('GET', '/v1/webhooks', propertyOnly)).status).toBe(403);
    for (const s of (await w.call('GET', '/v1/webhooks', k)).body.webhooks) await w.call('DELETE', `/v1/webhooks/${s.id}`, k);
  });
});

describe('webhook deliveries', () => {
  it('delivers each new DA once, signed (Standard Webhooks), with the thin body and the event id as webhook-id', async () => {
    const sub = await subscribe('/created', { events: ['da.created'] });
    const report = await importRows(w.das, [row('CR-1'), row('CR-2')]);
    await receiver.waitFor(2, '/created');
    await sleep(300);
    const got = verified('/created', sub.secret);
    expect(got).toHaveLength(2);
    expect(got.map((g) => g.data.id).sort()).toEqual(report.outcomes.map((o) => o.id).sort());
    const events = w.das.eventsAfter(0, 10_000).filter((e) => e.type === 'da.created' && ['CR-1', 'CR-2'].includes(e.data.council_reference));
    expect(got.map((g) => g.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(got[0]).toMatchObject({ type: 'da.created', data: { council_name: 'Merri-bek City Council', state: 'VIC', trade_category: 'childcare', status_group: 'pending', url: `/v1/das/${got[0].data.id}` } });
    const first = receiver.got.find((g) => g.path === '/created')!;
    expect(first.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(first.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // A tampered body fails verification.
    expect(() => new Webhook(sub.secret).verify(first.body.replace('CR-', 'XX-'), first.headers as Record<string, string>)).toThrow();
    // Re-importing the same rows sends nothing more.
    await importRows(w.das, [row('CR-1'), row('CR-2')]);
    await sleep(400);
    expect(receiver.count('/created')).toBe(2);
    const log = await w.call('GET', `/v1/webhooks/${sub.id}/deliveries`, key);
    expect(log.body.deliveries).toHaveLength(2);
    expect(log.body.deliveries[0]).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200, attempt_log: [{ attempt: 1, status: 200, error: null }] });
    expect(JSON.stringify(log.body)).not.toContain('never shown');
    await w.call('DELETE', `/v1/webhooks/${sub.id}`, key);
  });

  it('a receiver that answers 500 twice then 200 gets the event three times with one webhook-id', async () => {
    const sub = await subscribe('/flaky', { events: ['da.created'] });
    receiver.answer = (r, nth) => (r.path === '/flaky' && nth <= 2 ? { status: 500 } : { status: 200 });
    try {
      await importRows(w.das, [row('FL-1')]);
      await receiver.waitFor(3, '/flaky');
      await sleep(300);
      const got = verified('/flaky', sub.secret);
      expect(got).toHaveLength(3);
      expect(new Set(got.map((g) => g.id)).size).toBe(1);
      const log = (await w.call('GET', `/v1/webhooks/${sub.id}/deliveries`, key)).body.deliveries;
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200 });
      expect(log[0].attempt_log.map((a: { status: number }) => a.status)).toEqual([500, 500, 200]);
    } finally {
      receiver.answer = () => ({ status: 200 });
      await w.call('DELETE', `/v1/webhooks/${sub.id}`, key);
    }
  });

  it('treats a redirect as a failure (never followed), honours Retry-After, and gives up after the last attempt', async () => {
    const sub = await subscribe('/moved', { events: ['da.created'] });
    receiver.answer = (r): { status: number; headers?: Record<string, string> } => (r.path === '/moved' ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : r.path === '/busy' ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 });
    try {
      await importRows(w.das, [row('MV-1')]);
      await receiver.waitFor(4, '/moved'); // 1 + the three retries of the test schedule
      await sleep(400);
      expect(receiver.count('/moved')).toBe(4);
      expect(receiver.count('/elsewhere')).toBe(0);
      const log = (await w.call('GET', `/v1/webhooks/${sub.id}/deliveries`, key)).body.deliveries;
      expect(log[0]).toMatchObject({ state: 'failed', attempts: 4, last_status: 302, next_attempt_at: null });
      await w.call('DELETE', `/v1/webhooks/${sub.id}`, key);
      const busy = await subscribe('/busy', { events: ['da.created'] });
      await importRows(w.das, [row('BZ-1')]);
      await receiver.waitFor(1, '/busy');
      const pending = (await w.call('GET', `/v1/webhooks/${busy.id}/deliveries`, key)).body.deliveries[0];
      await sleep(100);
      const after = (await w.call('GET', `/v1/webhooks/${busy.id}/deliveries`, key)).body.deliveries[0];
      // The schedule says 100 ms; Retry-After says 1 s, so the retry waits the second.
      expect(after.state).toBe('pending');
      expect(Date.parse(after.next_attempt_at) - Date.parse(after.attempt_log[0].at)).toBeGreaterThanOrEqual(1000);
      expect(receiver.count('/busy')).toBe(1);
      void pending;
      await w.call('DELETE', `/v1/webhooks/${busy.id}`, key);
    } finally {
      receiver.answer = () => ({ status: 200 });
    }
  });

  it('410 Gone disables the subscription: no later event is sent to it', async () => {
    const sub = await subscribe('/gone', { events: ['da.created'] });
    receiver.answer = (r) => (r.path === '/gone' ? { status: 410 } : { status: 200 });
    try {
      await importRows(w.das, [row('GN-1')]);
      await receiver.waitFor(1, '/gone');
      await sleep(300);
      expect((await w.call('GET', `/v1/webhooks/${sub.id}`, key)).body).toMatchObject({ status: 'disabled', disabled_reason: 'the endpoint answered 410 Gone' });
      await importRows(w.das, [row('GN-2')]);
      await sleep(500);
      expect(receiver.count('/gone')).toBe(1);
      expect((await w.call('POST', `/v1/webhooks/${sub.id}/test`, key)).status).toBe(409);
    } finally {
      receiver.answer = () => ({ status: 200 });
      await w.call('DELETE', `/v1/webhooks/${sub.id}`, key);
    }
  });

  it('filters select exactly the events they should; a status change in a second import is one event', async () => {
    const subs = {
      nsw: await subscribe('/f/nsw', { state: 'NSW' }),
      council: await subscribe('/f/council', { council: 'darebin city council' }),
      dwelling: await subscribe('/f/dwelling', { category: 'new_dwelling' }),
      approved: await subscribe('/f/approved', { filters: { status_group: 'approved' } }),
      circle: await subscribe('/f/circle', { lat: -37.7, lng: 145.0, radius_km: 5 }),
      changes: await subscribe('/f/changes', { events: ['da.status_changed'] }),
    };
    const rows = [
      row('F-1'), // VIC Merri-bek, childcare, 8.5 km from the circle's centre
      row('F-2', { council: 'Darebin City Council', lat: -37.72, lng: 145.01 }), // in the circle
      row('F-3', { state: 'NSW', council: 'City of Sydney', lat: -33.87, lng: 151.21, description: 'Construction of a new dwelling' }),
      row('F-4', { status: 'Approved', lat: null, lng: null }), // not geocoded: never in a circle
      row('F-5', { council: 'Darebin City Council', description: 'Demolition and construction of a new dwelling', lat: -37.69, lng: 144.99 }),
    ];
    await importRows(w.das, rows);
    // Second import: F-1 approved, F-3 refused; F-2's description edited (no status change).
    await importRows(w.das, [row('F-1', { status: 'Approved' }), { ...rows[1], description: 'Construction of a childcare centre (amended)' }, { ...rows[2], status: 'Refused' }, rows[3], rows[4]]);
    await sleep(200);
    await receiver.waitFor(2, '/f/changes');
    await sleep(400);
    const refs = (path: string, sub: { secret: string }) => verified(path, sub.secret).map((g) => `${g.type === 'da.created' ? '+' : '~'}${g.data.council_reference}`).sort();
    expect(refs('/f/nsw', subs.nsw)).toEqual(['+F-3', '~F-3']);
    expect(refs('/f/council', subs.council)).toEqual(['+F-2', '+F-5']);
    expect(refs('/f/dwelling', subs.dwelling)).toEqual(['+F-3', '+F-5', '~F-3']);
    expect(refs('/f/approved', subs.approved)).toEqual(['+F-4', '~F-1']);
    expect(refs('/f/circle', subs.circle)).toEqual(['+F-2', '+F-5']);
    expect(refs('/f/changes', subs.changes)).toEqual(['~F-1', '~F-3']);
    const change = verified('/f/changes', subs.changes.secret).find((g) => g.data.council_reference === 'F-1')!;
    expect(change.data).toMatchObject({ status: 'Approved', status_group: 'approved', previous_status: 'Received', previous_status_group: 'pending' });
    for (const s of Object.values(subs)) await w.call('DELETE', `/v1/webhooks/${s.id}`, key);
  });

  it('a ping is a signed delivery of type ping', async () => {
    const sub = await subscribe('/ping');
    const r = await w.call('POST', `/v1/webhooks/${sub.id}/test`, key);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ delivery_id: expect.stringMatching(/^dlv_/), event_id: expect.stringMatching(/^evt_/), type: 'ping', state: 'pending' });
    await receiver.waitFor(1, '/ping');
    const [ping] = verified('/ping', sub.secret);
    expect(ping).toMatchObject({ id: r.body.event_id, type: 'ping', data: { webhook_id: sub.id } });
    await w.call('DELETE', `/v1/webhooks/${sub.id}`, key);
  });

  it('waits, without spinning, while an endpoint is at its bound', async () => {
    const hooks = w.store.webhooks();
    const sub = await subscribe('/tarpit', { events: ['da.created'] });
    receiver.answer = (r) => (r.path === '/tarpit' ? 'hang' : { status: 200 });
    const due = hooks.due.bind(hooks);
    let calls = 0;
    hooks.due = (...args: Parameters<typeof due>) => {
      calls++;
      return due(...args);
    };
    try {
      await importRows(w.das, Array.from({ length: 8 }, (_, i) => row(`TP-${i}`)));
      await receiver.waitFor(4, '/tarpit');
      calls = 0;
      await sleep(1000);
      // Four sends hang at the bound, four deliveries wait: the worker polls, it does not loop.
      expect(calls).toBeLessThan(60); // polls every 50 ms in this test (about 20 a second); a busy loop makes thousands
      expect(receiver.count('/tarpit')).toBe(4);
    } finally {
      hooks.due = due;
      receiver.answer = () => ({ status: 200 });
      await w.call('DELETE', `/v1/webhooks/${sub.id}`, key);
    }
  });

  it('one slow endpoint does not hold up another', async () => {
    const slow = await subscribe('/slow', { events: ['da.created'] });
    const fast = await subscribe('/fast', { events: ['da.created'] });
    receiver.answer = (r) => (r.path === '/slow' ? 'hang' : { status: 200 });
    try {
      await importRows(w.das, Array.from({ length: 12 }, (_, i) => row(`SL-${i}`)));
      await receiver.waitFor(12, '/fast', 5000);
      // The slow one has at most its bound (4) in flight; the fast one got all twelve meanwhile.
      expect(receiver.count('/slow')).toBeLessThanOrEqual(4);
    } finally {
      receiver.answer = () => ({ status: 200 });
      await w.call('DELETE', `/v1/webhooks/${slow.id}`, key);
      await w.call('DELETE', `/v1/webhooks/${fast.id}`, key);
    }
  });
});

describe('webhook safety', () => {
  it('without --allow-private-webhooks: only https URLs on public addresses are accepted', async () => {
    const strict = await startWebhookServer(join(dir, 'strict.sqlite'), {
      allowPrivate: false,
      resolve: async (host) => ({ 'public.example': ['93.184.215.14'], 'rebind.example': ['93.184.215.14', '10.1.2.3'], 'meta.example': ['fd00:ec2::254'] })[host] ?? Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })),
    });
    try {
      const k = await strict.key();
      const refused = ['https://[::ffff:0:7f00:1]/hook', 'https://2130706433/hook', 'https://0.0.0.0/hook', 'http://public.example/hook', 'https://127.0.0.1/hook', 'https://localhost:8443/hook', 'https://10.0.0.8/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://[fe80::1]/hook', 'https://rebind.example/hook', 'https://meta.example/hook', 'https://nowhere.example/hook', 'https://user:pw@public.example/hook'];
      for (const url of refused) {
        const r = await strict.call('POST', '/v1/webhooks', k, { url, events: ['da.created'] });
        expect(r.status, url).toBe(422);
        expect(r.body.parameter, url).toBe('url');
      }
      expect((await strict.call('POST', '/v1/webhooks', k, { url: 'https://public.example/hook', events: ['da.created'] })).status).toBe(201);
      // A subscription whose host later resolves to a private address (DNS rebinding) is refused when
      // connecting: put one in the store directly, as if it had resolved publicly when made.
      const sub = strict.store.webhooks();
      sub.insertSubscription({ id: 'wh_rebound', key_id: 'k', url: `https://localhost:${new URL(receiver.url).port}/rebound`, events: ['da.created'], filters: {}, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', status: 'active', disabled_reason: null, created_at: new Date().toISOString(), after_event: strict.das.lastEventSeq() });
      await importRows(strict.das, [row('RB-1')]);
      await sleep(600);
      expect(receiver.count('/rebound')).toBe(0);
      const [d] = sub.recentDeliveries('wh_rebound', 1);
      expect(d.attempt_log[0].error).toMatch(/EADDRNOTPUBLIC|not a public address/);
    } finally {
      await strict.close();
    }
  });
});

describe('durability', () => {
  it('a worker killed with a delivery in flight, and started again, still delivers (same webhook-id)', async () => {
    const db = join(dir, 'durable.sqlite');
    const store = SqliteStore.open(db);
    const das = DaStore.open(db);
    const k = (await createKey(store, { components: 'none', daDailyLimit: 100 })).key;
    void k;
    const sub = { id: 'wh_durable', key_id: 'k', url: `${receiver.url}/durable`, events: ['da.created' as const], filters: {}, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', status: 'active' as const, disabled_reason: null, created_at: new Date().toISOString(), after_event: das.lastEventSeq() };
    store.webhooks().insertSubscription(sub);
    const worker = (): ChildProcess => spawn(process.execPath, ['bin/propintel.js', 'webhooks', 'run', '--db', db, '--allow-private-webhooks', '--timeout-s', '1'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    receiver.answer = (r, nth) => (r.path === '/durable' && nth === 1 ? 'hang' : { status: 200 });
    let second: ChildProcess | undefined;
    try {
      const first = worker();
      await importRows(das, [row('DU-1')]);
      await receiver.waitFor(1, '/durable', 15_000);
      first.kill('SIGKILL');
      await once(first, 'exit');
      second = worker();
      await receiver.waitFor(2, '/durable', 15_000);
      const got = verified('/durable', sub.secret);
      expect(got).toHaveLength(2);
      expect(got[0].id).toBe(got[1].id);
      expect(got[0].data.council_reference).toBe('DU-1');
      await sleep(300);
      expect(store.webhooks().recentDeliveries(sub.id, 5)[0]).toMatchObject({ state: 'delivered' });
    } finally {
      receiver.answer = () => ({ status: 200 });
      second?.kill('SIGTERM');
      if (second) await once(second, 'exit');
      das.close();
      await store.close();
    }
  }, 40_000);
});

describe('the README receiver snippet', () => {
  it('verifies real deliveries and refuses a forged one', async () => {
    const readme = readDocs();
    const section = readme.slice(readme.indexOf('### Webhooks'));
    const code = /```js\n([\s\S]*?)```/.exec(section)![1].replace(/^ {2}/gm, '');
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    // In the package (so `standardwebhooks` resolves), under var/ (git-ignored).
    mkdirSync(join(root, 'var'), { recursive: true });
    const file = join(root, 'var', `readme-receiver-${process.pid}.mjs`);
    writeFileSync(file, code.replace('.listen(9000)', `.listen(${port}, '127.0.0.1')`));
    const sub = (await w.call('POST', '/v1/webhooks', key, { url: `http://127.0.0.1:${port}/`, events: ['da.created'] })).body as { id: string; secret: string };
    const child = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: sub.secret }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c));
    try {
      for (let i = 0; i < 50; i++) {
        try {
          await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' });
          break;
        } catch {
          await sleep(100);
        }
      }
      const forged = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{"type":"da.created"}', headers: { 'webhook-id': 'evt_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' } });
      expect(forged.status).toBe(400);
      await importRows(w.das, [row('RM-1')]);
      for (let i = 0; i < 50 && !out.includes('RM-1'); i++) await sleep(100);
      expect(out).toMatch(/^evt_\S+ da\.created RM-1 Received$/m);
      const log = (await w.call('GET', `/v1/webhooks/${sub.id}/deliveries`, key)).body.deliveries;
      expect(log[0]).toMatchObject({ state: 'delivered', last_status: 204 });
    } finally {
      child.kill();
      rmSync(file, { force: true });
      await w.call('DELETE', `/v1/webhooks/${sub.id}`, key);
    }
  });
});
