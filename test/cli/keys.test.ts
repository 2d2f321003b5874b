// `propintel keys`: create prints the secret once as JSON, list never shows secrets or hashes, revoke and
// set-quota act on the store a running server reads, so they take effect at once.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { q, startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const db = join(tempDir(), 'keys.sqlite');
let t: TestServer;

beforeAll(async () => {
  // The server and the CLI share the store file, as `propintel serve` and `propintel keys` do.
  t = await startTestServer({ db });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('propintel keys', () => {
  it('create prints a JSON object whose key field is the secret, usable at once by the running server', async () => {
    const r = await runCli(['keys', 'create', '--db', db, '--components', 'das,planning', '--quota', '3', '--label', 'acme']);
    expect(r.code).toBe(0);
    const made = JSON.parse(r.stdout);
    expect(made.key).toMatch(/^pi_[0-9a-f]{12}_/);
    expect(made).toMatchObject({ id: made.key.slice(3, 15), components: ['das', 'planning'], geometry: false, quota: 3, period: 'calendar', label: 'acme', status: 'live' });
    expect(made.hash).toBeUndefined();
    const sandbox = (await t.get('/api/v1/property/sandbox')).body.addresses;
    const res = await t.get(`/api/v1/property?${q({ address: sandbox[0].address })}`, made.key);
    expect(res.status).toBe(200);
    expect(res.body.meta.licensed_components).toEqual(['das', 'planning']);
    expect(res.body.scores).toBeUndefined();
  });

  it('creates anchored, onboarding and geometry keys, and refuses bad settings with exit code 2', async () => {
    const a = JSON.parse((await runCli(['keys', 'create', '--db', db, '--geometry', '--period', 'anchored', '--effective-date', '2026-02-28', '--onboarding-until', '2026-12-31'])).stdout);
    expect(a).toMatchObject({ geometry: true, period: 'anchored', effective_date: '2026-02-28', onboarding_until: '2026-12-31', components: expect.arrayContaining(['scores', 'das']) });
    const bad = await runCli(['keys', 'create', '--db', db, '--period', 'anchored', '--components', 'das,weather']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown component\(s\) weather; .*anchored key needs an effective date/);
    expect((await runCli(['keys', 'create', '--db', db, '--quota', '-5'])).code).toBe(2);
    expect((await runCli(['keys', 'list', '--db', db, '--quota', '5'])).stderr).toMatch(/--quota applies to keys create only/);
  });

  it('list shows every key without secrets or hashes', async () => {
    const r = await runCli(['keys', 'list', '--db', db]);
    expect(r.code).toBe(0);
    const keys = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const k of keys) {
      expect(k.hash).toBeUndefined();
      expect(k.key).toBeUndefined();
      expect(k.status).toMatch(/^(live|revoked)$/);
    }
  });

  it('set-quota tops a key up and revoke refuses it, both at once on the running server', async () => {
    const made = JSON.parse((await runCli(['keys', 'create', '--db', db, '--quota', '0'])).stdout);
    const address = t.stack.engine.addresses().byId('VIC0003000')!.text; // not a sandbox address: metered
    const path = `/api/v1/property?${q({ address, components: 'das' })}`;
    expect((await t.get(path, made.key)).status).toBe(429);
    expect((await runCli(['keys', 'set-quota', made.id, '1', '--db', db])).code).toBe(0);
    expect((await t.get(path, made.key)).status).toBe(200);
    const r = await runCli(['keys', 'revoke', made.id, '--db', db]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: made.id, status: 'revoked' });
    expect((await t.get(path, made.key)).status).toBe(401);
    const again = await runCli(['keys', 'revoke', made.id, '--db', db]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no live key/);
  });

  it('names a missing or unknown action', async () => {
    expect((await runCli(['keys', '--db', db])).code).toBe(2);
    const r = await runCli(['keys', 'rotate', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown action "rotate"/);
  });
});
