// The store contract, one test list run against both implementations: the embedded SQLite store and the
// PostgreSQL store several replicas share. Keys, the meter (exact under concurrent charges from several
// connections), request limits, settings and the webhook repository (fan-out cursor and delivery claims
// exclusive across workers, leases). Then the DA records: PostgreSQL's upsert decides exactly as the SQLite
// store does, and a replica's local copy answers as a store loaded directly. The PostgreSQL half skips,
// naming why, where the packages are absent.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticDaRows } from '../../datasets/da-feed.js';
import { DaStore, parseDaRows, type DaDraft } from '../../engine/da/index.js';
import { newBatchId } from '../../server/batch/batch-jobs.js';
import { createKey, publicKeyView } from '../../server/keys/key-admin.js';
import { DaReplica } from '../../server/store/pg/da-replica.js';
import { PgStore } from '../../server/store/pg/pg-store.js';
import { PG_SCHEMA_VERSION } from '../../server/store/pg/pg-schema.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import type { ServerStore } from '../../server/store/store.js';
import type { NewDelivery, WebhookSubscription } from '../../server/store/sqlite/sqlite-webhook-store.js';
import { usePostgres } from '../helpers/postgres.js';
import { tempDir } from '../helpers/tmp.js';
import { needs } from '../helpers/skip.js';

const dir = tempDir('store-contract-');
const postgres = usePostgres();
const opened: { close(): unknown }[] = [];
afterAll(async () => {
  for (const s of opened.reverse()) await s.close();
});

interface Backend {
  name: string;
  /** Why this backend cannot run here ('' when it can). */
  missing(): string;
  /** `n` stores on one new, empty database (n connections racing each other where n > 1). */
  open(n?: number): Promise<ServerStore[]>;
}

let files = 0;
const backends: Backend[] = [
  {
    name: 'SQLite',
    missing: () => '',
    open: async (n = 1) => {
      const path = join(dir, `s${++files}.sqlite`);
      return Array.from({ length: n }, () => {
        const s = SqliteStore.open(path);
        opened.push(s);
        return s;
      });
    },
  },
  {
    name: 'PostgreSQL',
    missing: () => postgres.missing,
    open: async (n = 1) => {
      const url = await postgres.pg!.fresh();
      const out: ServerStore[] = [];
      // One after the other: the first migrates, the others find the schema in place.
      for (let i = 0; i < n; i++) {
        const s = await PgStore.open(url, { max: 8 });
        opened.push(s);
        out.push(s);
      }
      return out;
    },
  },
];

const sub = (id: string, keyId: string, after = 0): WebhookSubscription => ({
  id, key_id: keyId, url: `https://example.com/${id}`, events: ['da.created'], filters: { state: 'VIC' }, secret: 'whsec_x', status: 'active',
  disabled_reason: null, created_at: new Date(Date.UTC(2026, 10, 25, 0, 0, Number(id.replace(/\D/g, '')) || 0)).toISOString(), after_event: after,
});
const delivery = (i: number, hook = 'wh_1'): NewDelivery => ({ id: `dlv_${String(i).padStart(4, '0')}`, webhook_id: hook, event_id: `evt_${i}`, type: 'da.created', body: `{"n":${i}}` });

describe.each(backends)('the $name store', (backend) => {
  const one = async () => (await backend.open())[0];

  describe('keys', () => {
    it('are stored without their secret and read back by id, listed oldest first', async (ctx) => {
      needs(ctx, backend.missing());
      const s = await one();
      const { key, record } = await createKey(s, { components: ['das', 'scores'], geometry: true, quota: 7, label: 'acme' }, new Date('2026-11-25T00:00:00Z'));
      const { record: second } = await createKey(s, { label: 'second' }, new Date('2026-11-25T00:00:01Z'));
      const back = await s.keyById(record.id);
      expect(back).toEqual(record);
      expect(JSON.stringify(back)).not.toContain(key.slice(16));
      expect(back).toMatchObject({ components: ['das', 'scores'], geometry: true, quota: 7, period: 'calendar', label: 'acme', revoked_at: null, created_at: '2026-11-25T00:00:00.000Z', sql: false });
      expect(publicKeyView(back!)).not.toHaveProperty('hash');
      expect((await s.listKeys()).map((k) => k.id)).toEqual([record.id, second.id]);
      expect(await s.keyById('000000000000')).toBeUndefined();
      await expect(Promise.resolve().then(() => s.insertKey(record))).rejects.toThrow();
    });

    it('carry the childcare entitlement, SQL flag and DA limit the other APIs read', async (ctx) => {
      needs(ctx, backend.missing());
      const s = await one();
      const { record } = await createKey(s, { childcareStates: ['VIC', 'NSW'], childcareExpires: '2027-06-30', childcareAddOn: 'reports', daDailyLimit: 500, sql: true, period: 'anchored', effectiveDate: '2026-03-15' });
      expect(await s.keyById(record.id)).toEqual(record);
      expect(record).toMatchObject({ da_daily_limit: 500, sql: true, period: 'anchored', effective_date: '2026-03-15', childcare: { status: 'active', expires: '2027-06-30', states: ['VIC', 'NSW'], add_on: 'reports' } });
    });

    it('are revoked and topped up only while live', async (ctx) => {
      needs(ctx, backend.missing());
      const s = await one();
      const { record } = await createKey(s, {});
      expect(await s.setQuota(record.id, 5)).toBe(true);
      expect(await s.revokeKey(record.id, new Date('2026-11-25T00:00:00Z'))).toBe(true);
      expect(await s.revokeKey(record.id, new Date())).toBe(false);
      expect(await s.setQuota(record.id, 9)).toBe(false);
      expect(await s.keyById(record.id)).toMatchObject({ quota: 5, revoked_at: '2026-11-25T00:00:00.000Z' });
      expect(await s.revokeKey('000000000000', new Date())).toBe(false);
    });
  });

  it('a key revoked or topped up through one connection is seen by another within moments (cached or not)', async (ctx) => {
    needs(ctx, backend.missing());
    const [x, y] = await backend.open(2);
    const { record } = await createKey(x, { quota: 4 });
    expect(await y.keyById(record.id)).toMatchObject({ quota: 4, revoked_at: null }); // now held by y
    expect(await x.setQuota(record.id, 9)).toBe(true);
    // Well inside the 5 s a replica may hold a key: the change arrives by notification.
    const seen = async (check: (k: Awaited<ReturnType<ServerStore['keyById']>>) => boolean) => {
      for (let i = 0; i < 100; i++) {
        if (check(await y.keyById(record.id))) return true;
        await new Promise((r) => setTimeout(r, 10));
      }
      return false;
    };
    expect(await seen((k) => k?.quota === 9)).toBe(true);
    expect(await x.revokeKey(record.id, new Date('2026-11-25T00:00:00Z'))).toBe(true);
    expect(await seen((k) => k?.revoked_at === '2026-11-25T00:00:00.000Z')).toBe(true);
  });

  describe('the meter', () => {
    it('charges new addresses up to the quota, repeats free, periods and keys apart', async (ctx) => {
      needs(ctx, backend.missing());
      const s = await one();
      const at = new Date();
      expect(await s.charge('k1', '202611', 'a', 2, at)).toEqual({ outcome: 'charged', used: 1 });
      expect(await s.charge('k1', '202611', 'a', 2, at)).toEqual({ outcome: 'repeat', used: 1 });
      expect(await s.charge('k1', '202611', 'b', 2, at)).toEqual({ outcome: 'charged', used: 2 });
      expect(await s.charge('k1', '202611', 'c', 2, at)).toEqual({ outcome: 'quota_exceeded', used: 2 });
      expect(await s.charge('k1', '202611', 'b', 2, at)).toEqual({ outcome: 'repeat', used: 2 });
      expect(await s.charge('k1', '202612', 'c', 2, at)).toEqual({ outcome: 'charged', used: 1 });
      expect(await s.charge('k2', '202611', 'c', 2, at)).toEqual({ outcome: 'charged', used: 1 });
      expect(await s.used('k1', '202611')).toBe(2);
      expect(await s.used('k3', '202611')).toBe(0);
      expect(await s.counted('k1', '202611', 'b')).toBe(true);
      expect(await s.counted('k1', '202611', 'c')).toBe(false);
      expect(await s.charge('k4', '202611', 'a', 0, at)).toEqual({ outcome: 'quota_exceeded', used: 0 });
      // A top-up lets the next new address in.
      expect(await s.charge('k1', '202611', 'c', 3, at)).toEqual({ outcome: 'charged', used: 3 });
    });

    it('is exact under concurrent charges from four connections: never past the quota, never an address twice', async (ctx) => {
      needs(ctx, backend.missing());
      const stores = await backend.open(4);
      const at = new Date();
      // Each connection offers 40 addresses, half of them shared with the next connection: 120 distinct.
      const calls = stores.flatMap((s, i) => Array.from({ length: 40 }, (_, j) => s.charge('kx', '202611', `a${(i * 30 + j) % 120}`, 30, at)));
      const outcomes = await Promise.all(calls);
      const charged = outcomes.filter((o) => o.outcome === 'charged');
      expect(charged.length).toBe(30);
      expect(outcomes.every((o) => o.used <= 30)).toBe(true);
      expect(new Set(charged.map((o) => o.used))).toEqual(new Set(Array.from({ length: 30 }, (_, i) => i + 1)));
      expect(await stores[0].used('kx', '202611')).toBe(30);
    });
  });

  describe('request limits', () => {
    it('count up to the limit per bucket and window, then refuse without counting further', async (ctx) => {
      needs(ctx, backend.missing());
      const s = await one();
      const exp = new Date(Date.now() + 86_400_000);
      const seq = [];
      for (let i = 0; i < 4; i++) seq.push(await s.countRequest('da:k1', '2026-11-25', 3, exp));
      expect(seq).toEqual([
        { allowed: true, used: 1 },
        { allowed: true, used: 2 },
        { allowed: true, used: 3 },
        { allowed: false, used: 3 },
      ]);
      expect(await s.countRequest('da:k1', '2026-11-26', 3, exp)).toEqual({ allowed: true, used: 1 });
      expect(await s.countRequest('da:k2', '2026-11-25', 3, exp)).toEqual({ allowed: true, used: 1 });
      expect(await s.countRequest('da:k3', '2026-11-25', 0, exp)).toEqual({ allowed: false, used: 0 });
    });

    it('allow exactly the limit under concurrent requests from four connections', async (ctx) => {
      needs(ctx, backend.missing());
      const stores = await backend.open(4);
      const exp = new Date(Date.now() + 86_400_000);
      const outcomes = await Promise.all(stores.flatMap((s) => Array.from({ length: 50 }, () => s.countRequest('da:shared', '2026-11-25', 120, exp))));
      expect(outcomes.filter((o) => o.allowed).length).toBe(120);
      expect(new Set(outcomes.filter((o) => o.allowed).map((o) => o.used)).size).toBe(120);
      expect(await stores[1].countRequest('da:shared', '2026-11-25', 120, exp)).toEqual({ allowed: false, used: 120 });
    });
  });

  describe('settings', () => {
    it('keep the first writer\'s value and replace only an expected one', async (ctx) => {
      needs(ctx, backend.missing());
      const stores = await backend.open(3);
      const first = await Promise.all(stores.map((s, i) => s.initSetting('demo', `v${i}`)));
      expect(new Set(first).size).toBe(1);
      const v = first[0];
      expect(await stores[2].getSetting('demo')).toBe(v);
      expect(await stores[0].getSetting('absent')).toBeUndefined();
      const swaps = await Promise.all(stores.map((s, i) => s.replaceSetting('demo', v, `w${i}`)));
      expect(swaps.filter(Boolean).length).toBe(1);
      expect(await stores[1].replaceSetting('demo', v, 'late')).toBe(false);
    });
  });

  describe('batch limits', () => {
    /** A job of `chunks` chunks of `bytes` input bytes each, on `keyId`. */
    const batchJob = (keyId: string, chunks: number, bytes = 100) => ({
      job: {
        id: newBatchId(), key_id: keyId, status: 'queued' as const, created_at: new Date().toISOString(), started_at: null, finished_at: null, expires_at: null, input_format: 'csv' as const,
        options: { components: null, include_geometry: false, format: 'csv' as const, callback_url: null }, columns: ['address'], callback_secret: null,
        rows_total: chunks, rows_done: 0, rows_failed: 0, rows_skipped: 0, charged: 0, chunks_total: chunks, chunks_done: 0, error: null, first_done_at: null, stored_bytes: 0,
      },
      chunks: Array.from({ length: chunks }, (_, seq) => ({ seq, first_row: seq + 1, row_count: 1, input: Buffer.alloc(bytes, seq) })),
    });

    it('store exactly the limit of a key\'s jobs when uploads race from four connections, and count what each job holds', async (ctx) => {
      needs(ctx, backend.missing());
      const stores = await backend.open(4);
      const now = Date.now();
      const limits = { jobs: 5, storedBytes: 10_000, now };
      const tries = await Promise.all(stores.flatMap((st) => Array.from({ length: 5 }, () => { const j = batchJob('kb', 2); return st.batches().createJob(j.job, j.chunks, limits); })));
      expect(tries.filter((t) => t === undefined)).toHaveLength(5);
      expect(tries.filter((t) => t?.limit === 'jobs')).toHaveLength(15);
      expect(await stores[1].batches().keyUsage('kb', now)).toEqual({ open_jobs: 5, stored_bytes: 1000, next_expiry: null });
      // Another key is not held by these.
      const other = batchJob('kc', 1, 9_000);
      expect(await stores[2].batches().createJob(other.job, other.chunks, limits)).toBeUndefined();
      // Bytes: 9,000 held, a 2,000-byte job would pass 10,000.
      const over = batchJob('kc', 2, 1_000);
      expect(await stores[0].batches().createJob(over.job, over.chunks, limits)).toEqual({ limit: 'stored_bytes', usage: { open_jobs: 1, stored_bytes: 9_000, next_expiry: null } });
    });

    it('count a commit\'s bytes (input out, results and new payloads in) and stop a job whose key passes its storage limit', async (ctx) => {
      needs(ctx, backend.missing());
      const [st] = await backend.open();
      const b = st.batches();
      const j = batchJob('kd', 3);
      await b.createJob(j.job, j.chunks);
      const commit = async (payloads: { hash: string; body: Buffer }[], result: number) => {
        const claim = (await b.claimChunk('w', 60_000, Date.now()))!;
        return b.commitChunk({ jobId: claim.job.id, seq: claim.seq, owner: 'w', now: new Date(), retentionMs: 60_000, keyId: 'kd', periodKey: '-', quota: 0, charges: [null], payloads, storageLimit: 1_000, encode: () => ({ result: Buffer.alloc(result), failed: 0 }) });
      };
      const first = await commit([{ hash: 'a', body: Buffer.alloc(200) }], 50);
      expect(first.job!.stored_bytes).toBe(300 - 100 + 50 + 200);
      expect(first.job!.stored_bytes).toBe(await b.storedBytes(j.job.id));
      // The same payload again is not stored again; a new one is, and takes the key past 1,000 bytes.
      const second = await commit([{ hash: 'a', body: Buffer.alloc(200) }, { hash: 'b', body: Buffer.alloc(700) }], 50);
      expect(second.finished).toBe(true);
      expect(second.job).toMatchObject({ status: 'failed', stored_bytes: 450 - 100 + 50 + 700, rows_done: 2, rows_skipped: 1 });
      expect(second.job!.error).toMatchObject({ error: 'storage_limit', limit: 1_000, used: 1_100 });
      expect(second.job!.stored_bytes).toBe(await b.storedBytes(j.job.id));
      expect(await b.claimChunk('w', 60_000, Date.now())).toBeUndefined();
      expect((await b.keyUsage('kd', Date.now())).next_expiry).toBe(second.job!.expires_at);
    });
  });

  describe('webhooks', () => {
    it('keep subscriptions per key; deleting one cancels its pending deliveries', async (ctx) => {
      needs(ctx, backend.missing());
      const w = (await one()).webhooks();
      await w.insertSubscription(sub('wh_1', 'k1', 5));
      await w.insertSubscription(sub('wh_2', 'k1'));
      await w.insertSubscription(sub('wh_3', 'k2'));
      expect(await w.subscription('wh_1')).toEqual(sub('wh_1', 'k1', 5));
      expect((await w.subscriptionsOf('k1')).map((s) => s.id)).toEqual(['wh_1', 'wh_2']);
      expect(await w.countSubscriptions('k1')).toBe(2);
      await w.addDelivery(delivery(1, 'wh_2'), 1000);
      expect(await w.deleteSubscription('wh_2', 'k2')).toBe(false); // another key's
      expect(await w.deleteSubscription('wh_2', 'k1')).toBe(true);
      expect(await w.delivery('dlv_0001')).toMatchObject({ state: 'cancelled', last_error: 'subscription deleted' });
      await w.disableSubscription('wh_3', 'gone');
      expect((await w.activeSubscriptions()).map((s) => s.id)).toEqual(['wh_1']);
      expect(await w.subscription('wh_3')).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    });

    it('fan out once: of two workers moving the event cursor from one position, exactly one writes', async (ctx) => {
      needs(ctx, backend.missing());
      const [a, b] = (await backend.open(2)).map((s) => s.webhooks());
      expect(await a.enqueue([], 'cursor', undefined, '0', 1)).toBe(true);
      expect(await b.enqueue([], 'cursor', undefined, '0', 1)).toBe(false);
      const r = await Promise.all([a.enqueue([delivery(1), delivery(2)], 'cursor', '0', '7', 10), b.enqueue([delivery(3), delivery(4)], 'cursor', '0', '7', 10)]);
      expect(r.filter(Boolean).length).toBe(1);
      expect(await a.meta('cursor')).toBe('7');
      const ids = r[0] ? ['dlv_0001', 'dlv_0002'] : ['dlv_0003', 'dlv_0004'];
      const lost = r[0] ? ['dlv_0003', 'dlv_0004'] : ['dlv_0001', 'dlv_0002'];
      for (const id of ids) expect(await a.delivery(id)).toMatchObject({ state: 'pending', next_attempt_at: 10 });
      for (const id of lost) expect(await a.delivery(id)).toBeUndefined();
    });

    it('give each due delivery to one worker, earliest first; a lease that ran out records nothing', async (ctx) => {
      needs(ctx, backend.missing());
      const [a, b] = (await backend.open(2)).map((s) => s.webhooks());
      await a.insertSubscription(sub('wh_1', 'k1'));
      await a.enqueue(Array.from({ length: 60 }, (_, i) => delivery(i)), 'cursor', undefined, '60', 100);
      await a.addDelivery(delivery(99), 5000); // not due yet
      expect(await a.nextDue()).toBe(100);
      // Both claim at once, in rounds of 7, until nothing is due.
      const got: string[][] = [[], []];
      await Promise.all([a, b].map(async (w, i) => {
        for (;;) {
          const c = await w.claimDue(1000, 7, [], 9000);
          if (!c.length) return;
          for (const d of c) expect(d.next_attempt_at).toBe(9000);
          got[i].push(...c.map((d) => d.id));
        }
      }));
      const all = [...got[0], ...got[1]].sort();
      expect(all).toEqual(Array.from({ length: 60 }, (_, i) => delivery(i).id));
      expect(new Set(all).size).toBe(60);
      expect(await a.claimDue(1000, 10, [], 9000)).toEqual([]);
      // `skip` and `accept` leave deliveries as they were.
      expect(await a.claimDue(6000, 10, ['wh_1'], 20_000)).toEqual([]);
      expect(await a.claimDue(6000, 10, [], 20_000, () => false)).toEqual([]);
      const [late] = await b.claimDue(6000, 10, [], 20_000);
      expect(late.id).toBe('dlv_0099');
      // A worker holding the lease records its attempt; one whose lease was taken over records nothing.
      const d = (await a.delivery('dlv_0000'))!;
      const attempt = { attempt: 1, at: 1000, status: 500, error: null, duration_ms: 3.5 };
      expect(await a.recordAttempt({ ...d, next_attempt_at: 1234 }, attempt, { state: 'pending', next_attempt_at: 2000 })).toBe(false);
      expect(await a.recordAttempt(d, attempt, { state: 'pending', next_attempt_at: 2000 })).toBe(true);
      expect(await b.recordAttempt(d, { ...attempt, attempt: 2 }, { state: 'delivered', next_attempt_at: 2100 })).toBe(false); // d's lease is spent
      const [again] = await b.claimDue(2000, 1, [], 30_000);
      expect(again).toMatchObject({ id: 'dlv_0000', attempts: 1, next_attempt_at: 30_000 });
      expect(await b.recordAttempt(again, { ...attempt, attempt: 2, status: 204 }, { state: 'delivered', next_attempt_at: 2100 })).toBe(true);
      const recent = await a.recentDeliveries('wh_1', 100);
      const first = recent.find((r) => r.id === 'dlv_0000')!;
      expect(first).toMatchObject({ state: 'delivered', attempts: 2, last_status: 204 });
      expect(first.attempt_log).toEqual([attempt, { ...attempt, attempt: 2, status: 204 }]);
      await a.cancelDelivery(late, 'subscription gone');
      expect(await a.delivery('dlv_0099')).toMatchObject({ state: 'cancelled' });
      // Finished deliveries go by creation time (the delivered one at 100, the cancelled one at 5000); pending ones stay.
      expect(await a.pruneDeliveries(200)).toBe(1);
      expect(await a.delivery('dlv_0000')).toBeUndefined();
      expect(await a.recentDeliveries('wh_1', 100)).toHaveLength(60);
      expect(await b.pruneDeliveries(6000)).toBe(1);
      expect(await a.delivery('dlv_0001')).toMatchObject({ state: 'pending', next_attempt_at: 9000 });
    });
  });
});

describe('DA records on PostgreSQL', () => {
  const drafts = (count: number, seed: number, firstId = 1): DaDraft[] => parseDaRows([...syntheticDaRows({ count, seed, firstId, councils: 12 })], 'feed', { requireId: true }).drafts;
  const changed = (ds: DaDraft[]): DaDraft[] => ds.map((d, i) => (i % 3 === 0 ? { ...d, status: 'Approved', status_group: 'approved', decided: '2026-11-01' } : i % 3 === 1 ? { ...d, date_fetched: '2026-11-20T00:00:00.000Z' } : d));
  const strip = (o: { outcomes: { id: number; outcome: string }[] }) => o.outcomes.map((x) => `${x.id}:${x.outcome}`);

  it('upsert as the SQLite store does: the same outcomes, ids and events', async (ctx) => {
    needs(ctx, postgres.missing);
    const pg = await PgStore.open(await postgres.pg!.fresh());
    opened.push(pg);
    const local = DaStore.open(':memory:');
    opened.push(local);
    const first = drafts(800, 5, 1000);
    // A batch naming one record twice, and ids asked for that are taken.
    const batch = [...first, { ...first[3], description: `${first[3].description} (amended)` }];
    const a = await pg.das.upsert(batch);
    const b = local.upsert(batch);
    expect(strip(a)).toEqual(strip(b));
    expect(a).toMatchObject({ added: 800, changed: 1 });
    const second = [...changed(first), ...drafts(50, 9, 1000)];
    const c = await pg.das.upsert(second);
    const d = local.upsert(second);
    expect(strip(c)).toEqual(strip(d));
    expect({ added: c.added, changed: c.changed, refreshed: c.refreshed, unchanged: c.unchanged }).toEqual({ added: d.added, changed: d.changed, refreshed: d.refreshed, unchanged: d.unchanged });
    expect(c.added).toBe(50);
    const pe = await pg.das.eventsAfter(0, 10_000);
    const le = local.eventsAfter(0, 10_000);
    expect(pe.map((e) => [e.type, e.data])).toEqual(le.map((e) => [e.type, e.data]));
    expect(pe.length).toBeGreaterThan(800);
    expect(await pg.das.lastEventSeq()).toBe(pe[pe.length - 1].seq);
    expect(await pg.das.size()).toBe(local.size);
  });

  it('re-derives records written by older rules, once', async (ctx) => {
    needs(ctx, postgres.missing);
    const pg = await PgStore.open(await postgres.pg!.fresh());
    opened.push(pg);
    const ds = drafts(300, 31);
    await pg.das.upsert(ds);
    expect(await pg.das.rederiveIfStale()).toBe(0); // written by this code's rules
    const right = (await pg.query<{ id: number; trade_category: string; status_group: string }>('SELECT id, trade_category, status_group FROM das ORDER BY id')).rows;
    // As an older propintel would have left them: other categories and groups, an older version.
    await pg.query("UPDATE das SET trade_category = 'other', status_group = 'other' WHERE id % 2 = 0");
    await pg.query("UPDATE propintel_meta SET value = '1' WHERE key = 'da_derivation_version'");
    const head = await pg.das.headSeq();
    const n = await pg.das.rederiveIfStale();
    expect(n).toBe(right.filter((r) => r.id % 2 === 0 && (r.trade_category !== 'other' || r.status_group !== 'other')).length);
    expect((await pg.query('SELECT id, trade_category, status_group FROM das ORDER BY id')).rows).toEqual(right);
    expect(await pg.das.headSeq()).toBe(head + n); // new positions: replicas' copies follow
    expect(await pg.das.rederiveIfStale()).toBe(0);
  });

  it('migrate once when several replicas start together, and refuse a database from a newer propintel', async (ctx) => {
    needs(ctx, postgres.missing);
    const url = await postgres.pg!.fresh();
    const stores = await Promise.all(Array.from({ length: 4 }, () => PgStore.open(url, { max: 2 })));
    opened.push(...stores);
    expect(new Set(stores.map((s) => s.instance)).size).toBe(1);
    expect((await stores[0].query("SELECT value FROM propintel_meta WHERE key = 'schema_version'")).rows).toEqual([{ value: String(PG_SCHEMA_VERSION) }]);
    await stores[0].query("UPDATE propintel_meta SET value = '999' WHERE key = 'schema_version'");
    await expect(PgStore.open(url)).rejects.toThrow(new RegExp(`schema version 999; this propintel reads ${PG_SCHEMA_VERSION} \\(upgrade propintel\\)`));
  });

  it('a replica\'s local copy answers every query as a store loaded directly, and follows later writes', async (ctx) => {
    needs(ctx, postgres.missing);
    const pg = await PgStore.open(await postgres.pg!.fresh());
    opened.push(pg);
    const direct = DaStore.open(':memory:');
    opened.push(direct);
    const all = drafts(1500, 21);
    await pg.das.upsert(all.slice(0, 1000));
    direct.upsert(all.slice(0, 1000));
    let replica = DaReplica.open(pg.das, join(dir, 'replica-a.sqlite'));
    opened.push(replica.local);
    await replica.catchUp();
    const same = () => {
      const r = replica.local, d = direct;
      expect(r.size).toBe(d.size);
      for (const f of [{}, { state: 'VIC' as const }, { category: 'childcare' as const }, { status_group: 'approved' as const, since: '2025-06-01' }]) {
        expect(r.count(f)).toBe(d.count(f));
        expect(r.list(f, { limit: 50 }).map((x) => x.id)).toEqual(d.list(f, { limit: 50 }).map((x) => x.id));
      }
      const p = d.list({}, { limit: 1 })[0];
      expect(r.nearby(p.lng!, p.lat!, 20_000).map((x) => x.record.id)).toEqual(d.nearby(p.lng!, p.lat!, 20_000).map((x) => x.record.id));
      expect(r.categoryCounts()).toEqual(d.categoryCounts());
      expect(r.councils()).toEqual(d.councils());
      expect(r.facetCounts()).toEqual(d.facetCounts());
      expect(r.get(p.id)).toEqual(d.get(p.id));
    };
    same();
    // A first copy made as a large one is (without the listing's indexes, built at the end) answers alike.
    const bulk = DaReplica.open(pg.das, join(dir, 'replica-bulk.sqlite'), { bulkFrom: 0 });
    opened.push(bulk.local);
    await bulk.catchUp();
    const saved = replica;
    replica = bulk;
    same();
    replica = saved;
    const indexes = (file: string) => {
      const db = new Database(file, { readonly: true });
      const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'das' ORDER BY name").pluck().all();
      db.close();
      return names;
    };
    expect(indexes(join(dir, 'replica-bulk.sqlite'))).toEqual(indexes(join(dir, 'replica-a.sqlite')));
    expect(indexes(join(dir, 'replica-bulk.sqlite')).length).toBeGreaterThan(8);
    // Later writes (new records and changes), then a second replica starting from nothing, and the first
    // reopened from its file (a restart): both catch up.
    const more = [...changed(all.slice(0, 1000)), ...all.slice(1000)];
    await pg.das.upsert(more);
    direct.upsert(more);
    await replica.catchUp();
    same();
    expect(replica.position).toBe(await pg.das.headSeq());
    replica.local.close();
    const reopened = DaReplica.open(pg.das, join(dir, 'replica-a.sqlite'));
    opened.push(reopened.local);
    expect(reopened.position).toBe(await pg.das.headSeq());
    await reopened.catchUp();
    expect(reopened.local.size).toBe(direct.size);
    // A copy made from another database is dropped and rebuilt.
    const other = await PgStore.open(await postgres.pg!.fresh());
    opened.push(other);
    reopened.local.close();
    const wrong = DaReplica.open(other.das, join(dir, 'replica-a.sqlite'));
    opened.push(wrong.local);
    expect(wrong.local.size).toBe(0);
    expect(wrong.position).toBe(0);
  });
});
