// The SQLite store's own behaviour: key settings validated, the meter and request limits atomic across
// processes sharing the file, persistence, and the engine caches (expiry, the in-memory tier keeping the
// original stored time, namespaces). What every store must do is in store-contract.test.ts, run on SQLite
// and PostgreSQL alike.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey, KeySpecError } from '../../server/keys/key-admin.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import { tempDir } from '../helpers/tmp.js';

const run = promisify(execFile);
const dir = tempDir();
const stores: SqliteStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
});
const open = (path = ':memory:') => {
  const s = SqliteStore.open(path);
  stores.push(s);
  return s;
};

describe('keys', () => {
  it('validate every setting at once', async () => {
    const s = open();
    const err = await createKey(s, { components: ['das', 'weather'], quota: -1, period: 'anchored', onboardingUntil: '2026-13-01', childcareStates: ['VIC', 'XX'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeySpecError);
    expect((err as KeySpecError).problems).toEqual([
      expect.stringMatching(/unknown component\(s\) weather/),
      expect.stringMatching(/quota must be a whole number/),
      expect.stringMatching(/anchored key needs an effective date/),
      expect.stringMatching(/onboarding-until must be a date/),
      expect.stringMatching(/unknown childcare state\(s\) XX/),
    ]);
  });
});

describe('the meter', () => {
  it('survives reopening the file', async () => {
    const path = join(dir, 'persist.sqlite');
    const a = SqliteStore.open(path);
    await a.charge('k', '202611', 'x', 5, new Date());
    const { record } = await createKey(a, { quota: 3 });
    await a.close();
    const b = open(path);
    expect(await b.used('k', '202611')).toBe(1);
    expect(await b.charge('k', '202611', 'x', 5, new Date())).toEqual({ outcome: 'repeat', used: 1 });
    expect((await b.keyById(record.id))?.quota).toBe(3);
  });

  it('is atomic across processes sharing the file: never past the quota, never an address twice', async () => {
    const path = join(dir, 'shared.sqlite');
    open(path); // create the schema first
    const script = fileURLToPath(new URL('../fixtures/charge-process.mjs', import.meta.url));
    const procs = ['p1', 'p2', 'p3', 'p4'].map((p) => run(process.execPath, [script, path, 'kx', p, '40', '30']));
    const outcomes = (await Promise.all(procs)).flatMap((r) => JSON.parse(r.stdout) as string[]);
    const charged = outcomes.filter((o) => o === 'charged').length;
    expect(charged).toBe(30);
    expect(outcomes.filter((o) => o === 'quota_exceeded').length + outcomes.filter((o) => o === 'repeat').length + charged).toBe(160);
    const check = open(path);
    expect(await check.used('kx', '202611')).toBe(30);
  }, 60_000);
});

describe('request limits', () => {
  it('are atomic across processes sharing the file: exactly the limit is allowed', async () => {
    const path = join(dir, 'limits.sqlite');
    open(path);
    const script = fileURLToPath(new URL('../fixtures/count-requests-process.mjs', import.meta.url));
    const procs = [1, 2, 3, 4].map(() => run(process.execPath, [script, path, 'da:shared', '50', '120']));
    const outcomes = (await Promise.all(procs)).flatMap((r) => JSON.parse(r.stdout) as boolean[]);
    expect(outcomes.length).toBe(200);
    expect(outcomes.filter(Boolean).length).toBe(120);
    const check = open(path);
    expect(check.countRequest('da:shared', '2026-11-25', 120, new Date(Date.now() + 86_400_000))).toEqual({ allowed: false, used: 120 });
  }, 60_000);
});

describe('engine caches', () => {
  it('expire, and the memory tier keeps the stored time of the original entry', async () => {
    const path = join(dir, 'cache.sqlite');
    const a = SqliteStore.open(path);
    const t0 = new Date('2026-11-01T00:00:00Z');
    a.cache('scores:v1').set('k', { score: 42, list: [1, 2, 3] }, 31 * 86_400_000, t0);
    a.cache('layers:v1').set('k', { other: true }, 7 * 86_400_000, t0);
    await a.close();
    const b = open(path);
    const c = b.cache('scores:v1');
    const later = new Date('2026-11-20T00:00:00Z');
    expect(c.get('k', later)).toEqual({ value: { score: 42, list: [1, 2, 3] }, storedAt: t0 });
    expect(c.get('k', later)).toEqual({ value: { score: 42, list: [1, 2, 3] }, storedAt: t0 }); // from memory now
    expect(c.get('k', new Date('2026-12-02T00:00:01Z'))).toBeUndefined();
    expect(b.cache('layers:v1').get('k', later)).toBeUndefined(); // 7 days are over
    expect(b.cache('other').get('k', t0)).toBeUndefined();
  });

  it('drop other namespaces (another dataset or engine version)', async () => {
    const s = open();
    s.cache('a').set('k', 1, 1e9);
    s.cache('b').set('k', 2, 1e9);
    expect(await s.dropCachesExcept(['a'])).toBe(1);
    s.cache('b').clear();
    expect(s.cache('a').get('k')?.value).toBe(1);
    expect(s.cache('b').get('k')).toBeUndefined();
  });
});
